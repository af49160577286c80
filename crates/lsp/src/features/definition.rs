//! `textDocument/definition`.

use tower_lsp_server::ls_types::{GotoDefinitionResponse, Location, Position};

use crate::snapshot::Snapshot;

pub fn definition(s: &Snapshot, position: Position) -> Option<GotoDefinitionResponse> {
    let target = s.analysis.definition(s.offset(position))?;
    Some(GotoDefinitionResponse::Scalar(Location::new(
        s.uri.clone(),
        s.range(target.range),
    )))
}
