//! The `zeno` command line: argument parsing, reading files, running the
//! library, and rendering results as text, JSON or SARIF.

pub mod args;
pub mod check;
pub mod diag;
pub mod export;
pub mod fmt;
pub mod import;
pub mod json;
pub mod load;
pub mod report;
pub mod sarif;
pub mod source;
pub mod text;

#[cfg(test)]
mod fixture;
#[cfg(test)]
mod tests;

use args::{Cli, Command};

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Check(a) => check::run(&a),
        Command::Fmt(a) => fmt::run(&a, zeno::fmt::format),
        Command::Import(a) => import::run(&a),
        Command::Export(a) => export::run(&a),
    }
}
