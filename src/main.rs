//! The `zeno` command line.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let parsed = match cli::args::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // `--help` and `--version` are not errors; everything else is a usage error.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                cli::check::exit::ERROR
            } else {
                0
            });
        }
    };
    ExitCode::from(cli::run(parsed))
}
