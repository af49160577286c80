//! zeno: write timed-automata models and find their bugs fast.
//!
//! Layers, from text to verdict (see `docs/architecture.md`), each its own
//! crate, re-exported here under its module name:
//! [`syntax`] (lossless tree) → [`semantics`] (salsa queries: names, types,
//! lowering) → [`ir`] (the checker's flat model) → [`checker`] (zones, search,
//! heuristics, traces). [`fmt`] formats the lossless tree.
#![warn(missing_docs)]

pub use zeno_base::{diagnostics, line_index, memory, operators, text};
#[cfg(feature = "bench")]
pub use zeno_bench as bench;
pub use zeno_checker as checker;
#[cfg(feature = "cli")]
pub use zeno_distributed as distributed;
pub use zeno_fmt as fmt;
pub use zeno_ide as ide;
pub use zeno_import as import;
pub use zeno_ir as ir;
pub use zeno_load as load;
#[cfg(feature = "lsp")]
pub use zeno_lsp as lsp;
#[cfg(feature = "pictures")]
pub use zeno_pictures as pictures;
pub use zeno_report as report;
pub use zeno_semantics as semantics;
pub use zeno_simulate as simulate;
pub use zeno_syntax as syntax;
