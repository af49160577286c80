//! Lines and columns of byte offsets: the one conversion every layer
//! uses (the CLI's messages and reports, the importer's diagnostics, the
//! checker's messages naming a line, the language server's positions).
//!
//! Columns count units of an [`Encoding`]: characters for messages, UTF-16
//! code units (or UTF-8 bytes) for the language server, as the client
//! negotiated. The index stores where every line starts and, for the few
//! lines that contain non-ASCII characters, where those characters are, so
//! that the common ASCII line converts by subtraction. A line ends at `\n`;
//! a `\r` before it belongs to no column (a CRLF text converts as its LF
//! twin does). It depends on nothing but [`Span`].

use crate::text::Span;

/// What a column counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units: the language server protocol's default.
    #[default]
    Utf16,
    /// Unicode scalar values (characters).
    Utf32,
}

impl Encoding {
    /// The length of `c` in this encoding's units.
    pub fn units(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
            Encoding::Utf32 => 1,
        }
    }
}

/// A line (from 0) and a column (from 0, in units of the index's
/// [`Encoding`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct LineCol {
    /// The line, from 0.
    pub line: u32,
    /// The column, from 0.
    pub col: u32,
}

impl LineCol {
    /// Line `line`, column `col` (both from 0).
    pub fn new(line: u32, col: u32) -> LineCol {
        LineCol { line, col }
    }
}

/// The line (from 1) and column (from 1, in characters) of a byte offset of
/// `text`, for a message about one place (an index serves many).
pub fn line_col(text: &str, offset: u32) -> (u32, u32) {
    LineIndex::in_chars(text).one_based(offset)
}

/// A character wider than one byte on a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WideChar {
    /// Byte offset from the start of the line.
    start: u32,
    /// Length in bytes (2 to 4).
    len_utf8: u32,
    /// Length in units of the encoding (UTF-8: the bytes; UTF-16: 1 or 2;
    /// UTF-32: 1).
    len_units: u32,
}

/// Where the lines of a text start and end, and where its characters
/// wider than one byte are, for converting byte offsets to (line, column)
/// and back in one [`Encoding`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of every line; `line_starts[0] == 0`.
    line_starts: Vec<u32>,
    /// Byte offset of the end of every line's content (before `\n` or `\r\n`).
    line_ends: Vec<u32>,
    /// Wide characters per line, in order; lines without any are absent.
    wide: Vec<(u32, Vec<WideChar>)>,
    len: u32,
}

impl LineIndex {
    /// The index of `text`, whose columns count units of `encoding`.
    pub fn new(text: &str, encoding: Encoding) -> LineIndex {
        let mut line_starts = vec![0];
        let mut line_ends = Vec::new();
        let mut wide = Vec::new();
        let mut current: Vec<WideChar> = Vec::new();
        let mut line_start = 0u32;
        let bytes = text.as_bytes();
        for (i, c) in text.char_indices() {
            let i = i as u32;
            if c == '\n' {
                let end = if i > line_start && bytes[i as usize - 1] == b'\r' {
                    i - 1
                } else {
                    i
                };
                line_ends.push(end);
                if !current.is_empty() {
                    wide.push((line_starts.len() as u32 - 1, std::mem::take(&mut current)));
                }
                line_start = i + 1;
                line_starts.push(line_start);
            } else if !c.is_ascii() {
                current.push(WideChar {
                    start: i - line_start,
                    len_utf8: c.len_utf8() as u32,
                    len_units: encoding.units(c),
                });
            }
        }
        line_ends.push(text.len() as u32);
        if !current.is_empty() {
            wide.push((line_starts.len() as u32 - 1, current));
        }
        LineIndex {
            line_starts,
            line_ends,
            wide,
            len: text.len() as u32,
        }
    }

    /// The index of `text` whose columns count characters (messages,
    /// reports).
    pub fn in_chars(text: &str) -> LineIndex {
        LineIndex::new(text, Encoding::Utf32)
    }

    /// How many lines the text has (one more than its line breaks).
    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// The line (from 0) of a byte offset; offsets past the end are on the
    /// last line.
    pub fn line(&self, offset: u32) -> u32 {
        self.line_starts.partition_point(|&s| s <= offset) as u32 - 1
    }

    fn wide_chars(&self, line: u32) -> &[WideChar] {
        match self.wide.binary_search_by_key(&line, |(l, _)| *l) {
            Ok(i) => &self.wide[i].1,
            Err(_) => &[],
        }
    }

    /// The line and column of a byte offset. Offsets past the end clamp to
    /// the end; an offset inside a multi-byte character counts as its start.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line(offset);
        let col_bytes = offset - self.line_starts[line as usize];
        let mut col = col_bytes;
        for w in self.wide_chars(line) {
            if w.start >= col_bytes {
                break;
            }
            if w.start + w.len_utf8 > col_bytes {
                // Inside the character: count up to its start.
                col -= col_bytes - w.start;
                break;
            }
            col = col - w.len_utf8 + w.len_units;
        }
        LineCol { line, col }
    }

    /// The line (from 1) and column (from 1) of a byte offset, as messages
    /// and reports show them.
    pub fn one_based(&self, offset: u32) -> (u32, u32) {
        let at = self.line_col(offset);
        (at.line + 1, at.col + 1)
    }

    /// A span cut at line breaks: each line's piece as its start and its
    /// length, without the line break (for semantic tokens, which may not
    /// span lines). Empty pieces are left out.
    pub fn line_pieces(&self, span: Span) -> Vec<(LineCol, u32)> {
        let (start, end) = (span.start.min(self.len), span.end.min(self.len));
        let (first, last) = (self.line(start) as usize, self.line(end) as usize);
        let mut out = Vec::new();
        for line in first..=last {
            let from = if line == first {
                start
            } else {
                self.line_starts[line]
            };
            let to = if line == last { end } else { u32::MAX }.min(self.line_ends[line]);
            if to > from {
                let (a, b) = (self.line_col(from), self.line_col(to));
                out.push((a, b.col - a.col));
            }
        }
        out
    }

    /// The byte offset of a position. A line past the end gives the end of
    /// the text; a character past the end of its line gives the end of the
    /// line; a position inside a character (a surrogate pair, the bytes of a
    /// UTF-8 sequence) gives the character's start.
    pub fn offset(&self, position: LineCol) -> u32 {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.len;
        };
        let end = self.line_ends[position.line as usize];
        let target = position.col;
        let mut units = 0u32;
        let mut bytes = 0u32;
        for w in self.wide_chars(position.line) {
            // ASCII run before this wide character.
            let run = w.start - bytes;
            if units + run >= target {
                return (start + bytes + (target - units)).min(end);
            }
            units += run;
            bytes += run;
            if units + w.len_units > target {
                return start + bytes;
            }
            units += w.len_units;
            bytes += w.len_utf8;
        }
        // Saturating: a client may send any column up to u32::MAX.
        (start + bytes).saturating_add(target - units).min(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cut_into_line_pieces() {
        // A block comment over three lines, CRLF after the first: the
        // pieces leave the line breaks out and count UTF-16 units (é is 1,
        // 😀 is 2).
        let text = "a /* é\r\n😀\n\nx */ b";
        let index = LineIndex::new(text, Encoding::Utf16);
        let comment = Span::new(2, text.find(" b").unwrap() as u32);
        assert_eq!(
            index.line_pieces(comment),
            [(pos(0, 2), 4), (pos(1, 0), 2), (pos(3, 0), 4)]
        );
        assert_eq!(index.line_pieces(Span::new(0, 1)), [(pos(0, 0), 1)]);
    }

    fn pos(line: u32, col: u32) -> LineCol {
        LineCol::new(line, col)
    }

    #[test]
    fn ascii_lines() {
        let text = "ab\ncd\r\n\nefg";
        let ix = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(ix.line_count(), 4);
        assert_eq!(ix.line_col(0), pos(0, 0));
        assert_eq!(ix.line_col(2), pos(0, 2));
        assert_eq!(ix.line_col(3), pos(1, 0));
        assert_eq!(ix.line_col(5), pos(1, 2));
        assert_eq!(ix.line_col(7), pos(2, 0));
        assert_eq!(ix.line_col(8), pos(3, 0));
        assert_eq!(ix.line_col(11), pos(3, 3));
        assert_eq!(ix.line_col(100), pos(3, 3));
        assert_eq!(ix.offset(pos(1, 1)), 4);
        // Past the end of a line: the end of its content, before "\r\n".
        assert_eq!(ix.offset(pos(1, 9)), 5);
        assert_eq!(ix.offset(pos(9, 0)), 11);
        // The largest column a client can send.
        assert_eq!(ix.offset(pos(3, u32::MAX)), 11);
        assert_eq!(ix.offset(pos(1, u32::MAX)), 5);
    }

    #[test]
    fn non_ascii_comment() {
        // Bytes: "x" 0, " " 1, "//" 2-3, " " 4, "ÿ" 5-6 (2 bytes, 1 unit),
        // " " 7, "日" 8-10 (3 bytes, 1 unit), "本" 11-13, " " 14,
        // "😀" 15-18 (4 bytes, 2 units), "!" 19, "\n" 20, "y" 21.
        let text = "x // ÿ 日本 😀!\ny";
        assert_eq!(text.len(), 22);
        let ix = LineIndex::new(text, Encoding::Utf16);
        // UTF-16 columns: x0 ' '1 /2 /3 ' '4 ÿ5 ' '6 日7 本8 ' '9 😀10-11 !12
        let expected = [
            (0, 0),
            (5, 5),
            (7, 6),
            (8, 7),
            (11, 8),
            (14, 9),
            (15, 10),
            (19, 12),
            (20, 13),
        ];
        for (offset, col) in expected {
            assert_eq!(ix.line_col(offset), pos(0, col), "offset {offset}");
            assert_eq!(ix.offset(pos(0, col)), offset, "column {col}");
        }
        assert_eq!(ix.line_col(21), pos(1, 0));
        // Inside "日" (byte 9) and inside the surrogate pair (column 11).
        assert_eq!(ix.line_col(9), pos(0, 7));
        assert_eq!(ix.offset(pos(0, 11)), 15);
        // Past the end of the line: before the newline.
        assert_eq!(ix.offset(pos(0, 40)), 20);
    }

    #[test]
    fn every_encoding_counts_its_own_units() {
        // "é" is 2 bytes, 1 UTF-16 unit; "😀" 4 bytes, 2 units, 1 character.
        let text = "é😀x";
        for (encoding, x, inside) in [
            (Encoding::Utf8, 6, [1, 3, 4, 5].as_slice()),
            (Encoding::Utf16, 3, [2].as_slice()),
            (Encoding::Utf32, 2, [].as_slice()),
        ] {
            let ix = LineIndex::new(text, encoding);
            assert_eq!(ix.line_col(6), pos(0, x), "{encoding:?}");
            assert_eq!(ix.offset(pos(0, x)), 6, "{encoding:?}");
            // A column inside a character means the character's start.
            for &col in inside {
                let offset = ix.offset(pos(0, col));
                assert!(text.is_char_boundary(offset as usize), "{encoding:?} {col}");
                assert!(offset < 6, "{encoding:?} {col}");
            }
            for (i, _) in text.char_indices() {
                assert_eq!(ix.offset(ix.line_col(i as u32)), i as u32, "{encoding:?}");
            }
        }
    }

    #[test]
    fn round_trip_on_every_char_boundary() {
        let text = "é\r\n😀a\n\n日x😀😀\nlast";
        let ix = LineIndex::new(text, Encoding::Utf16);
        for (i, c) in text.char_indices() {
            if c == '\n' || c == '\r' {
                continue;
            }
            let p = ix.line_col(i as u32);
            assert_eq!(ix.offset(p), i as u32, "offset {i}");
        }
        assert_eq!(ix.line_col(text.len() as u32), pos(4, 4));
    }

    #[test]
    fn messages_count_characters_from_one() {
        // "é" is one character of two bytes; CRLF ends a line like LF.
        let text = "ab\r\ncé d\nx";
        let ix = LineIndex::in_chars(text);
        assert_eq!(ix.one_based(0), (1, 1));
        assert_eq!(ix.one_based(2), (1, 3));
        assert_eq!(ix.one_based(4), (2, 1));
        // Bytes: c 4, é 5-6, ' ' 7, d 8, '\n' 9, x 10.
        assert_eq!(ix.one_based(7), (2, 3));
        assert_eq!(ix.one_based(8), (2, 4));
        // Inside "é": its start.
        assert_eq!(ix.one_based(6), (2, 2));
        assert_eq!(ix.one_based(10), (3, 1));
        assert_eq!(ix.one_based(99), (3, 2));
        assert_eq!(line_col(text, 8), (2, 4));
        assert_eq!(line_col("ab\ncé d", 7), (2, 4));
        assert_eq!([0, 3, 4, 9, 10].map(|o| ix.line(o)), [0, 0, 1, 1, 2]);
        assert_eq!(ix.line_count(), 3);
    }

    #[test]
    fn utf8_columns_are_bytes() {
        let text = "é😀x\r\ny";
        let ix = LineIndex::new(text, Encoding::Utf8);
        assert_eq!(ix.line_col(6), pos(0, 6));
        assert_eq!(ix.offset(pos(0, 7)), 7);
        // Past the line's end: before its "\r\n".
        assert_eq!(ix.offset(pos(0, 9)), 7);
        assert_eq!(ix.line_col(9), pos(1, 0));
    }
}
