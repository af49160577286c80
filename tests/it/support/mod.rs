//! Helpers shared by the integration tests (`mod support;`).
#![allow(dead_code, clippy::new_without_default)]

pub mod cli;
pub mod expect;
pub mod lsp_client;
pub mod lsp_stdout;
pub mod net;
pub mod random_net;
pub mod simulator;

/// The error messages of a model, each with the text it is located on.
pub fn errors(text: &str) -> Vec<(String, String)> {
    zeno::semantics::analyze(text)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .map(|d| {
            let at = text[d.range.start as usize..d.range.end as usize].to_string();
            (d.message, at)
        })
        .collect()
}
