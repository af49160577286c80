//! One open document: its text, version and line index, and the edits that
//! arrived ahead of their turn.
//!
//! The server runs notification handlers concurrently, so `didChange` for
//! version 3 may be handled before the one for version 2. Incremental edits
//! only make sense in order, so an edit whose predecessor has not been applied
//! yet waits in `pending`. An edit whose version is not above the last one
//! applied (a client that numbers a reopened document afresh, or an edit
//! that came after its gap was given up on) is the client's latest word:
//! it is applied to the current text and its version adopted
//! ([`ChangeOutcome::Resynced`]; the server logs it).

use std::collections::BTreeMap;
use std::sync::Arc;

use tower_lsp_server::ls_types::{Range, TextDocumentContentChangeEvent};

use super::line_index::{Encoding, LineIndex};

#[derive(Debug, Clone)]
pub struct Document {
    pub version: i32,
    pub text: String,
    /// Shared with the snapshots that requests take.
    pub line_index: Arc<LineIndex>,
    /// What the positions of edits (and of the line index) count.
    pub encoding: Encoding,
    pending: BTreeMap<i32, Vec<TextDocumentContentChangeEvent>>,
}

/// What [`Document::change`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeOutcome {
    /// The text moved to a newer version.
    Applied,
    /// The edit waits for an earlier version.
    Queued,
    /// The version was not above the last one applied (`last`): the edit
    /// was applied to the current text all the same and its version
    /// adopted; edits waiting for a predecessor were dropped.
    Resynced { last: i32 },
}

impl Document {
    /// A document whose positions count UTF-16 code units.
    #[cfg(test)]
    pub fn new(version: i32, text: String) -> Document {
        Document::with_encoding(version, text, Encoding::Utf16)
    }

    pub fn with_encoding(version: i32, text: String, encoding: Encoding) -> Document {
        let line_index = Arc::new(LineIndex::with_encoding(&text, encoding));
        Document {
            version,
            text,
            line_index,
            encoding,
            pending: BTreeMap::new(),
        }
    }

    /// Records the edits that make `version`, and applies every edit that is
    /// now next in line. Versions are expected to grow by one per change; a
    /// full-text change needs no predecessor.
    pub fn change(
        &mut self,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> ChangeOutcome {
        if version <= self.version {
            let last = self.version;
            // What waited belongs to the numbering given up.
            self.pending.clear();
            self.apply(version, changes);
            return ChangeOutcome::Resynced { last };
        }
        self.pending.insert(version, changes);
        if self.apply_ready() {
            ChangeOutcome::Applied
        } else {
            ChangeOutcome::Queued
        }
    }

    /// Whether edits are waiting for a missing version.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Applies every waiting edit in version order, even across gaps: used
    /// when a missing version never came (a client may skip numbers).
    pub fn flush_pending(&mut self) -> bool {
        let mut applied = false;
        while let Some((version, changes)) = self.pending.pop_first() {
            self.apply(version, changes);
            applied = true;
        }
        applied
    }

    fn apply_ready(&mut self) -> bool {
        let mut applied = false;
        while let Some(entry) = self.pending.first_entry() {
            let version = *entry.key();
            let full_text = entry.get().iter().any(|c| c.range.is_none());
            if version != self.version + 1 && !full_text {
                break;
            }
            let changes = entry.remove();
            self.apply(version, changes);
            applied = true;
        }
        applied
    }

    fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        for change in changes {
            match change.range {
                None => self.text = change.text,
                Some(range) => {
                    let (start, end) = self.byte_range(range);
                    self.text.replace_range(start..end, &change.text);
                }
            }
            self.line_index = Arc::new(LineIndex::with_encoding(&self.text, self.encoding));
        }
        self.version = version;
    }

    /// Byte range of an LSP range, clamped into the text and onto char
    /// boundaries (the line index never returns a split character).
    fn byte_range(&self, range: Range) -> (usize, usize) {
        let start = self.line_index.offset(range.start) as usize;
        let end = self.line_index.offset(range.end) as usize;
        (start.min(end), end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::Position;

    fn edit(l0: u32, c0: u32, l1: u32, c1: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l0, c0), Position::new(l1, c1))),
            range_length: None,
            text: text.to_string(),
        }
    }

    fn full(text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn incremental_edits_in_one_change() {
        let mut d = Document::new(1, "int a;\nint b;\n".to_string());
        // Rename a to abc, then (positions after the first edit) b to z.
        let out = d.change(2, vec![edit(0, 4, 0, 5, "abc"), edit(1, 4, 1, 5, "z")]);
        assert_eq!(out, ChangeOutcome::Applied);
        assert_eq!(d.text, "int abc;\nint z;\n");
        assert_eq!(d.version, 2);
    }

    #[test]
    fn edit_after_non_ascii_text() {
        let mut d = Document::new(1, "// 😀 x\nint y;".to_string());
        // "x" is at UTF-16 column 6 (the emoji is two units).
        d.change(2, vec![edit(0, 6, 0, 7, "ok")]);
        assert_eq!(d.text, "// 😀 ok\nint y;");
    }

    #[test]
    fn edits_in_utf8_and_utf32_positions() {
        // "x" is at byte 8 and at character 5 (the emoji is one character).
        let mut d = Document::with_encoding(1, "// 😀 x\nint y;".to_string(), Encoding::Utf8);
        d.change(2, vec![edit(0, 8, 0, 9, "ok")]);
        assert_eq!(d.text, "// 😀 ok\nint y;");
        let mut d = Document::with_encoding(1, "// 😀 x\nint y;".to_string(), Encoding::Utf32);
        d.change(2, vec![edit(0, 5, 0, 6, "ok")]);
        assert_eq!(d.text, "// 😀 ok\nint y;");
    }

    #[test]
    fn out_of_order_versions_wait_for_their_turn() {
        let mut d = Document::new(1, "ab".to_string());
        // Version 3 inserts after the "X" that version 2 adds.
        assert_eq!(
            d.change(3, vec![edit(0, 2, 0, 2, "Y")]),
            ChangeOutcome::Queued
        );
        assert_eq!(d.text, "ab");
        assert!(d.has_pending());
        assert_eq!(
            d.change(2, vec![edit(0, 1, 0, 1, "X")]),
            ChangeOutcome::Applied
        );
        assert_eq!(d.text, "aXYb");
        assert_eq!(d.version, 3);
        assert!(!d.has_pending());
    }

    #[test]
    fn a_version_not_above_the_last_is_applied_and_adopted() {
        let mut d = Document::new(5, "ab".to_string());
        // A client that numbers a reopened document from 1 again: full text,
        // then an incremental edit on it, then the next in its numbering.
        assert_eq!(
            d.change(1, vec![full("xyz")]),
            ChangeOutcome::Resynced { last: 5 }
        );
        assert_eq!((d.version, d.text.as_str()), (1, "xyz"));
        assert_eq!(
            d.change(1, vec![edit(0, 0, 0, 1, "X")]),
            ChangeOutcome::Resynced { last: 1 }
        );
        assert_eq!((d.version, d.text.as_str()), (1, "Xyz"));
        assert_eq!(
            d.change(2, vec![edit(0, 3, 0, 3, "!")]),
            ChangeOutcome::Applied
        );
        assert_eq!((d.version, d.text.as_str()), (2, "Xyz!"));
        // Edits waiting under the old numbering are dropped.
        assert_eq!(
            d.change(9, vec![edit(0, 0, 0, 0, "?")]),
            ChangeOutcome::Queued
        );
        assert_eq!(
            d.change(2, vec![full("new")]),
            ChangeOutcome::Resynced { last: 2 }
        );
        assert!(!d.has_pending());
        assert_eq!(d.text, "new");
    }

    #[test]
    fn full_text_needs_no_predecessor_and_gaps_flush() {
        let mut d = Document::new(1, "a".to_string());
        assert_eq!(d.change(5, vec![full("five")]), ChangeOutcome::Applied);
        assert_eq!(d.version, 5);
        assert_eq!(
            d.change(7, vec![edit(0, 0, 0, 0, "+")]),
            ChangeOutcome::Queued
        );
        assert!(d.flush_pending());
        assert_eq!((d.version, d.text.as_str()), (7, "+five"));
    }
}
