//! The syntax trees of a file, per chunk, as salsa queries: for tools that
//! read tokens and nodes (semantic tokens, signature help) rather than the
//! item tree. Each chunk (see [`super::chunks`]) parses alone to the same
//! tree as within the whole file, and is memoised on its text, so after an
//! edit only the edited chunk is parsed again.

use std::sync::Arc;

use rowan::TextSize;

use super::db::{Chunk, SourceFile};
use zeno_syntax::{self as syntax, SyntaxNode, SyntaxToken};

/// One chunk's parse.
#[salsa::tracked(returns(ref))]
pub fn chunk_parse<'db>(db: &'db dyn salsa::Database, chunk: Chunk<'db>) -> syntax::Parse {
    syntax::parse(chunk.text(db))
}

/// A file's syntax trees: one per chunk, with the chunk's start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSyntax {
    /// Each chunk's start in the file and its parse, in text order.
    pub chunks: Vec<(u32, syntax::Parse)>,
}

impl FileSyntax {
    /// The chunks' roots with their starts, in text order. A node's or
    /// token's range is relative to its chunk: add the start.
    pub fn roots(&self) -> impl Iterator<Item = (u32, SyntaxNode)> + '_ {
        self.chunks
            .iter()
            .map(|(start, p)| (*start, p.syntax_node()))
    }

    /// The chunk holding a byte offset (an offset at a chunk's end belongs
    /// to that chunk, so that the end of the text has one), as its start
    /// and root.
    pub fn chunk_at(&self, offset: u32) -> Option<(u32, SyntaxNode)> {
        let k = self
            .chunks
            .iter()
            .rposition(|(start, _)| *start <= offset)?;
        let (start, parse) = &self.chunks[k];
        Some((*start, parse.syntax_node()))
    }

    /// Every token of the file with its absolute start, in text order.
    pub fn tokens(&self) -> impl Iterator<Item = (u32, SyntaxToken)> + '_ {
        self.roots().flat_map(|(start, root)| {
            root.descendants_with_tokens()
                .filter_map(|e| e.into_token())
                .map(move |t| (start + u32::from(t.text_range().start()), t))
                .collect::<Vec<_>>()
        })
    }
}

/// The file's syntax trees, chunk by chunk.
#[salsa::tracked(returns(ref))]
pub fn file_syntax(db: &dyn salsa::Database, file: SourceFile) -> Arc<FileSyntax> {
    let text = file.text(db);
    let chunks = super::chunks::split(text)
        .into_iter()
        .map(|(start, end)| {
            let piece = text.get(start as usize..end as usize).unwrap_or_default();
            let parse = chunk_parse(db, Chunk::new(db, piece.to_string())).clone();
            (start, parse)
        })
        .collect();
    Arc::new(FileSyntax { chunks })
}

/// A byte offset made relative to a chunk starting at `start`.
pub fn relative(offset: u32, start: u32) -> TextSize {
    TextSize::from(offset.saturating_sub(start))
}
