//! Byte offsets and LSP positions: the base layer's line index
//! ([`zeno_base::line_index`]) in the protocol's types.
//!
//! LSP positions count lines and, within a line, code units of the position
//! encoding negotiated in `initialize` (UTF-16 unless the client offers
//! another; see [`negotiate`]), while the rest of zeno speaks byte offsets.

use tower_lsp_server::ls_types::{Position, PositionEncodingKind, Range};

pub use zeno_base::line_index::Encoding;
use zeno_base::line_index::{self as line_index, LineCol};

use zeno_ir::Span;

/// The encoding to use for a client offering `offered` (in its order of
/// preference): UTF-8 when offered (zeno's own offsets, no conversion),
/// else UTF-16, the protocol's default, else UTF-32; UTF-16 when the
/// client offers nothing the server knows, as the protocol says.
pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
    let offered = offered.unwrap_or_default();
    [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32]
        .into_iter()
        .find(|e| offered.contains(&kind(*e)))
        .unwrap_or_default()
}

/// The protocol's name of an encoding.
pub fn kind(encoding: Encoding) -> PositionEncodingKind {
    match encoding {
        Encoding::Utf8 => PositionEncodingKind::UTF8,
        Encoding::Utf16 => PositionEncodingKind::UTF16,
        Encoding::Utf32 => PositionEncodingKind::UTF32,
    }
}

/// A text's line index, answering in LSP positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex(line_index::LineIndex);

fn position(at: LineCol) -> Position {
    Position::new(at.line, at.col)
}

impl LineIndex {
    /// The index of `text` for UTF-16 positions.
    pub fn new(text: &str) -> LineIndex {
        LineIndex::with_encoding(text, Encoding::Utf16)
    }

    pub fn with_encoding(text: &str, encoding: Encoding) -> LineIndex {
        LineIndex(line_index::LineIndex::new(text, encoding))
    }

    pub fn line_count(&self) -> u32 {
        self.0.line_count()
    }

    /// The position of a byte offset (see [`line_index::LineIndex::line_col`]).
    pub fn position(&self, offset: u32) -> Position {
        position(self.0.line_col(offset))
    }

    /// The range of a byte span.
    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// A span cut at line breaks (see [`line_index::LineIndex::line_pieces`]),
    /// for semantic tokens, which may not span lines.
    pub fn line_pieces(&self, span: Span) -> Vec<(Position, u32)> {
        self.0
            .line_pieces(span)
            .into_iter()
            .map(|(at, len)| (position(at), len))
            .collect()
    }

    /// The byte offset of a position (see [`line_index::LineIndex::offset`]).
    pub fn offset(&self, at: Position) -> u32 {
        self.0.offset(LineCol::new(at.line, at.character))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_the_base_index_in_protocol_types() {
        // "é" is 2 bytes and 1 UTF-16 unit; "😀" 4 bytes and 2 units.
        let text = "é😀x\r\ny";
        let ix = LineIndex::new(text);
        assert_eq!(ix.position(6), Position::new(0, 3));
        assert_eq!(ix.offset(Position::new(0, 3)), 6);
        assert_eq!(ix.position(9), Position::new(1, 0));
        assert_eq!(
            ix.range(Span::new(0, 9)),
            Range::new(Position::new(0, 0), Position::new(1, 0))
        );
        assert_eq!(ix.line_pieces(Span::new(2, 9)), [(Position::new(0, 1), 3)]);
        assert_eq!(ix.line_count(), 2);
    }

    #[test]
    fn negotiation_prefers_utf8_and_defaults_to_utf16() {
        use PositionEncodingKind as K;
        assert_eq!(negotiate(None), Encoding::Utf16);
        assert_eq!(negotiate(Some(&[])), Encoding::Utf16);
        assert_eq!(negotiate(Some(&[K::UTF16, K::UTF8])), Encoding::Utf8);
        assert_eq!(negotiate(Some(&[K::UTF32])), Encoding::Utf32);
        assert_eq!(negotiate(Some(&[K::UTF32, K::UTF16])), Encoding::Utf16);
        assert_eq!(negotiate(Some(&[K::new("utf-7")])), Encoding::Utf16);
    }
}
