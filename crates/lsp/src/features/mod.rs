//! Requests about a document's contents, one file per feature: each turns
//! the request's positions into byte offsets, asks [`zeno_ide`], and
//! turns the answer back into LSP types. No analysis happens here.

pub mod code_actions;
pub mod completion;
pub mod definition;
pub mod folding;
pub mod format;
pub mod hover;
pub mod references;
pub mod signature;
pub mod symbols;
pub mod tokens;
