//! zeno: write timed-automata models and find their bugs fast.
//!
//! Layers, from text to verdict (see `docs/architecture.md`):
//! [`syntax`] (lossless tree) → [`semantics`] (salsa queries: names, types,
//! lowering) → [`ir`] (the checker's flat model) → [`checker`] (zones, search,
//! heuristics, traces). [`fmt`] formats the lossless tree.

#[cfg(feature = "bench")]
#[warn(missing_docs)]
pub mod bench;
#[warn(missing_docs)]
pub mod checker;
#[warn(missing_docs)]
pub mod diagnostics;
#[warn(missing_docs)]
pub mod fmt;
#[warn(missing_docs)]
pub mod ide;
#[warn(missing_docs)]
pub mod import;
#[warn(missing_docs)]
pub mod ir;
#[warn(missing_docs)]
pub mod load;
#[cfg(feature = "lsp")]
#[warn(missing_docs)]
pub mod lsp;
#[warn(missing_docs)]
pub mod memory;
#[cfg(feature = "pictures")]
#[warn(missing_docs)]
pub mod pictures;
#[warn(missing_docs)]
pub mod report;
#[warn(missing_docs)]
pub mod semantics;
#[warn(missing_docs)]
pub mod simulate;
#[warn(missing_docs)]
pub mod syntax;
#[warn(missing_docs)]
pub mod text;
