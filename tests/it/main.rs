//! The integration tests, one module per area, in one test binary so that
//! the suite links once.

mod support;

mod arithmetic;
mod bench;
mod checker;
mod checker_random;
mod cli;
mod cli_import;
mod cli_pictures;
mod cli_safe;
mod concrete_traces;
mod editors;
mod editors_keywords;
mod enhance;
mod enhance_random;
mod fmt;
mod heuristics;
mod import_export;
mod import_models;
mod import_roundtrip;
mod import_snapshots;
mod import_verdicts;
mod lsp;
mod lsp_framing;
mod lsp_pictures;
mod lsp_recheck;
mod lsp_stdio;
mod models;
mod pdb;
mod pictures;
mod pictures_props;
mod pictures_render;
mod safe_abstraction;
mod semantics_corpus;
mod semantics_incremental;
mod semantics_lower;
mod semantics_props;
mod simulator;
mod syntax_ast;
mod syntax_corpus;
mod syntax_docs;
mod syntax_robustness;
mod syntax_snapshots;
mod syntax_ungram;
mod vectors;
