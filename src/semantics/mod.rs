//! Semantic analysis on salsa: item tree, name resolution, type checking,
//! lowering to [`crate::ir::Network`].

use crate::diagnostics::Diagnostic;
use crate::ir;

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
pub fn analyze(_text: &str) -> Analysis {
    unimplemented!("semantics lands with the frontend")
}
