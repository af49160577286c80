//! A document snapshot: what a request about a document's contents needs,
//! taken under the state lock and used after it is released, so that a
//! slow request never holds up edits (an edit cancels the snapshot's
//! queries instead; see [`super::guard::request`]).

use std::sync::Arc;

use tower_lsp_server::ls_types::{Position, Range, Uri};

use super::line_index::LineIndex;
use zeno_ide::Analysis;
use zeno_ir::Span;

pub struct Snapshot {
    pub uri: Uri,
    pub analysis: Analysis,
    /// The line index of the same text.
    pub index: Arc<LineIndex>,
}

impl Snapshot {
    /// The byte offset of a position.
    pub fn offset(&self, position: Position) -> u32 {
        self.index.offset(position)
    }

    /// The range of a byte span.
    pub fn range(&self, span: Span) -> Range {
        self.index.range(span)
    }
}
