//! The analysis layer between [`zeno_semantics`] and the language server,
//! in the manner of rust-analyzer's `ide` crate: editor features as plain
//! data at byte offsets.
//!
//! [`Analysis`] is a snapshot of one file's salsa database. Every answer is
//! computed by salsa queries (the item tree, the per-chunk syntax trees of
//! [`zeno_semantics::parsed`] and the resolution map of
//! [`zeno_semantics::resolve`]), so repeated requests on an unchanged
//! text cost a lookup, and names are resolved once, by the semantics layer,
//! never again by scanning text. Ranges are absolute byte ranges
//! ([`Span`]); no LSP type appears here: converting positions and kinds is
//! the language server's job.
//!
//! A snapshot does not block the host from changing the text: setting a new
//! text cancels queries still running on a snapshot (they unwind with
//! [`salsa::Cancelled`], which a caller catches) and waits until every
//! snapshot is dropped, so keep snapshots short-lived.
#![warn(missing_docs)]

mod completion;
mod declare;
mod diagnostics;
mod hover;
mod navigation;
mod signature;
mod symbols;
mod tokens;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use zeno_base::diagnostics::Diagnostic;
use zeno_ir::{self as ir, Span};
use zeno_semantics::db::{self, Database, SourceFile};
use zeno_semantics::hir::ItemTree;
use zeno_semantics::parsed::{self, FileSyntax};
use zeno_semantics::resolve::{self, Resolutions};
use zeno_semantics::{AnalysisHost, lower::GlobalScope};

pub use completion::{CompletionItem, CompletionKind};
pub use declare::Declaration;
pub use diagnostics::{MAX_DIAGNOSTICS, cap_diagnostics};
pub use hover::HoverResult;
pub use navigation::{NavTarget, RenameError};
pub use resolve::DefKind;
pub use signature::SignatureHelp;
pub use symbols::Symbol;
pub use tokens::{SemanticToken, TokenKind};

/// A read-only snapshot of one file's analysis. Cheap to create (a handle
/// on the database, no copy of the text) and `Send`, so a request can be
/// answered away from the lock that guards the host.
#[derive(Clone)]
pub struct Analysis {
    db: Database,
    file: SourceFile,
}

impl Analysis {
    /// A snapshot of the host's current text.
    pub fn new(host: &AnalysisHost) -> Analysis {
        Analysis {
            db: host.db().clone(),
            file: host.file(),
        }
    }

    /// A snapshot of a fresh database holding `text` (for tests and one-off
    /// use).
    pub fn from_text(text: &str) -> Analysis {
        let mut host = AnalysisHost::new();
        host.set_text(text);
        Analysis::new(&host)
    }

    /// The text this snapshot analyses.
    pub fn text(&self) -> &str {
        self.file.text(&self.db)
    }

    fn tree(&self) -> Arc<ItemTree> {
        db::item_tree(&self.db, self.file).tree.clone()
    }

    fn resolutions(&self) -> Arc<Resolutions> {
        resolve::resolutions(&self.db, self.file).clone()
    }

    fn syntax(&self) -> Arc<FileSyntax> {
        parsed::file_syntax(&self.db, self.file).clone()
    }

    fn global_scope(&self) -> Arc<GlobalScope> {
        db::global_scope(&self.db, self.file).clone()
    }

    /// The lowered network, or `None` when the model has errors.
    pub fn network(&self) -> Option<Arc<ir::Network>> {
        db::network(&self.db, self.file)
    }

    /// Syntax and semantic diagnostics, sorted by position.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        db::file_diagnostics(&self.db, self.file).clone()
    }

    /// The declaration of the name at `offset`.
    pub fn definition(&self, offset: u32) -> Option<NavTarget> {
        navigation::definition(&self.resolutions(), offset)
    }

    /// Every occurrence of the name at `offset` (its declaration included
    /// when `include_declaration`), in text order; empty when the offset is
    /// on no resolved name.
    pub fn references(&self, offset: u32, include_declaration: bool) -> Vec<Span> {
        navigation::references(&self.resolutions(), offset, include_declaration)
    }

    /// The ranges to replace with `new_name` to rename the name at
    /// `offset`, or why it cannot be renamed to that.
    pub fn rename(&self, offset: u32, new_name: &str) -> Result<Vec<Span>, RenameError> {
        navigation::rename(self, offset, new_name)
    }

    /// A description of the declaration of the name at `offset`, in
    /// Markdown: as written, with what the semantics layer folded it to.
    pub fn hover(&self, offset: u32) -> Option<HoverResult> {
        hover::hover(self, offset)
    }

    /// The names that may be written at `offset`.
    pub fn completion(&self, offset: u32) -> Vec<CompletionItem> {
        completion::completion(self, offset)
    }

    /// The outline: globals, templates (with their parameters, declarations
    /// and locations), instances and checks, in that order.
    pub fn symbols(&self) -> Vec<Symbol> {
        symbols::symbols(&self.tree())
    }

    /// Keywords, numbers, comments and resolved names, classified, in text
    /// order.
    pub fn semantic_tokens(&self) -> Vec<SemanticToken> {
        tokens::semantic_tokens(&self.syntax(), &self.resolutions())
    }

    /// Help for the template argument list around `offset`.
    pub fn signature_help(&self, offset: u32) -> Option<SignatureHelp> {
        signature::signature_help(self, offset)
    }

    /// A declaration for the unknown name at `span` (the span of an
    /// "unknown name" diagnostic), with the type its uses imply; `None`
    /// when they do not agree on one.
    pub fn declare_missing(&self, span: Span) -> Option<Declaration> {
        declare::declare_missing(self, span)
    }

    /// Foldable ranges: the template bodies.
    pub fn folding(&self) -> Vec<Span> {
        symbols::folding(&self.tree())
    }

    /// The formatted text, when it differs from the text and the text
    /// parses (formatting half a tree would lose text).
    pub fn format(&self) -> Option<String> {
        let text = self.text();
        zeno_fmt::format(text).ok().filter(|f| f != text)
    }
}

/// The text of `span`, trimmed (empty when out of range).
fn source(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize)
        .unwrap_or("")
        .trim()
}
