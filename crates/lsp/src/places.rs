//! Where the network's spans are in the document the client has open:
//! for zeno text, in the text itself; for an imported UPPAAL or TChecker
//! file, through the import's source map, at the label, location or
//! transition each span was translated from (in a UPPAAL XML file a
//! location at its `<name>`, a transition at its first label: see the
//! importer's `XLocation::place`). What the map does not cover is placed
//! at the top of the file.

use std::sync::Arc;

use tower_lsp_server::ls_types::Range;

use super::line_index::LineIndex;
use zeno_import::SourceMap;
use zeno_ir::Span;

/// How to turn a span of the analysed text into a range of the document.
pub enum Places {
    /// The document is the analysed text.
    Text(Arc<LineIndex>),
    /// The document was imported: the analysed text is its translation.
    Imported {
        /// The zeno translation.
        zeno: String,
        /// Where its pieces came from in the document.
        map: SourceMap,
        /// The document's text and line index.
        text: String,
        index: Arc<LineIndex>,
    },
}

impl Places {
    /// The range in the document of `span` of the analysed text.
    pub fn range(&self, span: Span) -> Range {
        match self {
            Places::Text(index) => index.range(span),
            Places::Imported {
                zeno,
                map,
                text,
                index,
            } => map
                .map(zeno, text, span)
                .map_or_else(Range::default, |m| index.range(m.span)),
        }
    }
}
