//! Semantic analysis on salsa: item tree, name resolution, type checking,
//! lowering to [`zeno_ir::Network`].
//!
//! Layers: [`from_ast`] turns the syntax tree into the HIR ([`hir`]);
//! [`lower`] resolves names, checks types and lowers one template or
//! declaration list; [`system`] assembles the network; [`db`] ties them into
//! incremental salsa queries. [`AnalysisHost`] is the entry point of a
//! long-lived client (the language server); [`analyze`] is the one-shot one.
#![warn(missing_docs)]

pub mod chunks;
// The constructors and setters `#[salsa::input]` and `#[salsa::interned]`
// generate cannot carry doc comments; everything else here is documented.
#[allow(missing_docs)]
pub mod db;
pub mod from_ast;
pub mod hir;
pub mod lower;
pub mod parsed;
// As for `db`: `TemplateSource` is a salsa interned struct.
#[allow(missing_docs)]
pub mod resolve;
pub mod symmetry;
pub mod system;
pub mod ty;

use std::sync::Arc;

use zeno_base::diagnostics::Diagnostic;
use zeno_ir as ir;

/// Everything the frontend says about one model text.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Syntax and semantic diagnostics, in text order.
    pub diagnostics: Vec<Diagnostic>,
    /// The lowered network; `None` when there are errors.
    pub network: Option<ir::Network>,
}

/// One-shot analysis of a model text (the CLI's entry point; the language
/// server keeps a database and re-runs only what an edit touched).
pub fn analyze(text: &str) -> Analysis {
    let mut host = AnalysisHost::new();
    host.set_text(text);
    host.analysis()
}

/// The network of `text`, a model a unit test expects to analyse without
/// errors (the panic lists them otherwise). For the unit tests of the
/// crates above this one.
#[doc(hidden)]
pub fn test_network(text: &str) -> ir::Network {
    let a = analyze(text);
    a.network
        .unwrap_or_else(|| panic!("the model has errors: {:?}", a.diagnostics))
}

/// A long-lived, incremental analysis of one model text: set the new text
/// after every edit, then ask for what is needed; only the queries the edit
/// affects run again.
pub struct AnalysisHost {
    db: db::Database,
    file: db::SourceFile,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        Self::new()
    }
}

impl AnalysisHost {
    /// A host on a fresh database, with an empty text.
    pub fn new() -> AnalysisHost {
        Self::with_database(db::Database::default())
    }

    /// A host on a given database (e.g. one with an event callback).
    pub fn with_database(db: db::Database) -> AnalysisHost {
        let file = db::SourceFile::new(&db, String::new());
        AnalysisHost { db, file }
    }

    /// Replaces the text.
    pub fn set_text(&mut self, text: &str) {
        use salsa::Setter;
        self.file.set_text(&mut self.db).to(text.to_string());
    }

    /// The current text.
    pub fn text(&self) -> &str {
        self.file.text(&self.db)
    }

    /// Syntax and semantic diagnostics, sorted by position.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        db::file_diagnostics(&self.db, self.file).clone()
    }

    /// The network, or `None` when the model has errors. Shared: cloning
    /// the `Arc` is free, the network is rebuilt only after a change.
    pub fn network(&self) -> Option<Arc<ir::Network>> {
        db::network(&self.db, self.file)
    }

    /// The diagnostics and the network (cloned), as [`analyze`] returns them.
    pub fn analysis(&self) -> Analysis {
        Analysis {
            diagnostics: self.diagnostics(),
            network: self.network().map(|n| (*n).clone()),
        }
    }

    /// The item tree (for outlines, go-to-definition, completion).
    pub fn item_tree(&self) -> Arc<hir::ItemTree> {
        db::item_tree(&self.db, self.file).tree.clone()
    }

    /// The global symbols with their folded values (constants, typedef
    /// ranges), for hover.
    pub fn global_scope(&self) -> Arc<lower::GlobalScope> {
        db::global_scope(&self.db, self.file).clone()
    }

    /// The database, for queries the host has no method for.
    pub fn db(&self) -> &db::Database {
        &self.db
    }

    /// The file whose text [`AnalysisHost::set_text`] sets.
    pub fn file(&self) -> db::SourceFile {
        self.file
    }

    /// Every name of the file resolved to its definition.
    pub fn resolutions(&self) -> Arc<resolve::Resolutions> {
        resolve::resolutions(&self.db, self.file).clone()
    }
}
#[cfg(test)]
mod tests_hir;
