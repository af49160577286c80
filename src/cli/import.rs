//! `zeno import`: translate a UPPAAL or TChecker model into zeno text.

use std::path::Path;

use zeno::diagnostics::Diagnostic;
use zeno::import::{self, ImportOptions};

use super::args::ImportArgs;
use super::diag;
use super::exit;
use super::load::formatted;
use super::out;
use super::source::read_source;

pub fn run(args: &ImportArgs) -> u8 {
    let Some(source) = diag::ok(read_source(&args.file)) else {
        return exit::ERROR;
    };
    let detection = import::detect(&args.file.to_string_lossy(), &source.text);
    if detection.format.is_some() {
        super::load::note_detection(&args.file, &detection);
    }
    let opts = ImportOptions {
        labels: args.labels.clone(),
    };
    let imported = match import::import(&source.display_path(), &source.text, &opts) {
        Ok(i) => i,
        Err(diags) => {
            let diags: Vec<Diagnostic> = diags.iter().map(|d| d.to_diagnostic()).collect();
            diag::emit(&source, &diags);
            return exit::ERROR;
        }
    };
    let warnings: Vec<Diagnostic> = imported
        .warnings
        .iter()
        .map(|w| w.to_diagnostic())
        .collect();
    diag::emit(&source, &warnings);
    let text = formatted(imported.zeno);
    write_output(args.output.as_deref(), &text)
}

/// Writes `text` to `out`, or to stdout without it; returns the exit code.
pub fn write_output(out: Option<&Path>, text: &str) -> u8 {
    match out {
        Some(path) if out::write_file(path, text) => exit::OK,
        Some(_) => exit::ERROR,
        None => {
            // A failed write makes the run's exit code 2 (`out::finish`).
            out::print(text);
            exit::OK
        }
    }
}
