//! `textDocument/formatting`: the `zeno fmt` formatter as one
//! whole-document edit; none when the text is already formatted or does not
//! parse (a syntax error already has its diagnostic).

use tower_lsp_server::ls_types::{Position, Range, TextEdit};

use crate::snapshot::Snapshot;

pub fn format(s: &Snapshot) -> Vec<TextEdit> {
    match s.analysis.format() {
        Some(formatted) => {
            let end = s.index.position(s.analysis.text().len() as u32);
            vec![TextEdit::new(
                Range::new(Position::new(0, 0), end),
                formatted,
            )]
        }
        None => Vec::new(),
    }
}
