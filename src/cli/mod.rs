//! The `zeno` command line: argument parsing, reading files, running the
//! library, and rendering results as text, JSON or SARIF.

pub mod args;
pub mod bench;
pub mod check;
pub mod dap;
pub mod diag;
pub mod distributed;
pub mod exit;
pub mod export;
pub mod fmt;
mod fmt_diff;
pub mod generate;
pub mod import;
pub mod json;
pub mod load;
pub mod lsp;
pub mod out;
pub mod picture;
pub mod report;
pub mod sarif;
pub mod simulate;
pub mod source;
pub mod text;

#[cfg(test)]
mod fixture;
#[cfg(test)]
mod tests;

use args::{Cli, Command};

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> u8 {
    if let Some(bytes) = cli.memory {
        zeno::memory::set_budget(Some(bytes));
    }
    let code = match cli.command {
        Command::Check(a) => check::run(&a),
        Command::Fmt(a) => fmt::run(&a, zeno::fmt::format),
        Command::Import(a) => import::run(&a),
        Command::Export(a) => export::run(&a),
        Command::Graph(a) => picture::run_graph(&a),
        Command::Trace(a) => picture::run_trace(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Simulate(a) => simulate::run(&a),
        Command::Completions(a) => generate::completions(&a),
        Command::Man(a) => generate::man(&a),
        Command::Lsp(a) => lsp::run(&a),
        Command::Dap(a) => dap::run(&a),
    };
    out::finish(code)
}
