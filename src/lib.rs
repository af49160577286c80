//! zeno: write timed-automata models and find their bugs fast.
//!
//! Layers, from text to verdict (see `docs/architecture.md`):
//! [`syntax`] (lossless tree) → [`semantics`] (salsa queries: names, types,
//! lowering) → [`ir`] (the checker's flat model) → [`checker`] (zones, search,
//! heuristics, traces). [`fmt`] formats the lossless tree.
#![warn(missing_docs)]

#[cfg(feature = "bench")]
pub mod bench;
pub mod checker;
pub mod diagnostics;
pub mod fmt;
pub mod ide;
pub mod import;
pub mod ir;
pub mod line_index;
pub mod load;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod memory;
pub mod operators;
#[cfg(feature = "pictures")]
pub mod pictures;
pub mod report;
pub mod semantics;
pub mod simulate;
pub mod syntax;
pub mod text;
