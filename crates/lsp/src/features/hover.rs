//! `textDocument/hover` over names (hover over a check's name, which shows
//! its verdict, is answered from the check results in `server::requests`).

use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use crate::snapshot::Snapshot;

pub fn hover(s: &Snapshot, position: Position) -> Option<Hover> {
    let found = s.analysis.hover(s.offset(position))?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: found.markdown,
        }),
        range: Some(s.range(found.range)),
    })
}
