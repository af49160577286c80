//! `textDocument/references` and `textDocument/rename`.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{Location, Position, TextEdit, WorkspaceEdit};

use crate::snapshot::Snapshot;

pub fn references(s: &Snapshot, position: Position, include_declaration: bool) -> Vec<Location> {
    s.analysis
        .references(s.offset(position), include_declaration)
        .into_iter()
        .map(|span| Location::new(s.uri.clone(), s.range(span)))
        .collect()
}

/// The edits, or an invalid-params error saying why the rename is refused.
pub fn rename(s: &Snapshot, position: Position, new_name: &str) -> Result<WorkspaceEdit> {
    let spans = s
        .analysis
        .rename(s.offset(position), new_name)
        .map_err(|why| Error::invalid_params(why.0))?;
    let edits = spans
        .into_iter()
        .map(|span| TextEdit::new(s.range(span), new_name.to_string()))
        .collect();
    Ok(WorkspaceEdit::new(HashMap::from([(s.uri.clone(), edits)])))
}
