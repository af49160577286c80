//! Formatting: the `zeno fmt` formatter as one whole-document edit.

use tower_lsp_server::ls_types::{Position, Range, TextEdit};

use super::line_index::LineIndex;

/// The edit that replaces the whole document by its formatted text; none when
/// the text is already formatted or does not parse (a syntax error already
/// has its diagnostic, and formatting half a tree would lose text).
pub fn format_document(text: &str, index: &LineIndex) -> Vec<TextEdit> {
    match crate::fmt::format(text) {
        Ok(formatted) if formatted != text => {
            let end = index.position(text.len() as u32);
            vec![TextEdit::new(
                Range::new(Position::new(0, 0), end),
                formatted,
            )]
        }
        _ => Vec::new(),
    }
}
