//! `zeno export`: write a model (zeno text, or any imported format) for
//! TChecker or UPPAAL, to run it through those tools.

use zeno::semantics;

use super::args::{ExportArgs, ExportFormat};
use super::check::exit;
use super::diag;
use super::import::write_output;
use super::load::{LoadError, load};

pub fn run(args: &ExportArgs) -> u8 {
    let model = match load(&args.file, &args.labels) {
        Ok(m) => m,
        Err(LoadError::Unreadable(e)) => {
            diag::error(&e.to_string());
            return exit::ERROR;
        }
        // Already reported.
        Err(LoadError::Import { .. } | LoadError::Usage(_)) => return exit::ERROR,
    };
    let analysis = semantics::analyze(&model.source.text);
    let noted = !analysis.diagnostics.is_empty();
    if noted {
        model.note_imported();
    }
    diag::emit(&model.source, &analysis.diagnostics);
    let has_errors = analysis
        .diagnostics
        .iter()
        .any(|d| d.severity == zeno::diagnostics::Severity::Error);
    let network = match analysis.network {
        Some(n) if !has_errors => n,
        _ => return exit::ERROR,
    };
    let result = match args.to {
        ExportFormat::Tchecker => {
            let name = args
                .file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".into());
            // TChecker names are identifiers.
            let name: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            zeno::import::export_tchecker(&network, &name).map(|t| (t, String::new()))
        }
        ExportFormat::Xta => zeno::import::export_xta(&network),
    };
    let (text, queries) = match result {
        Ok(r) => r,
        Err(diags) => {
            if !noted {
                model.note_imported();
            }
            diag::emit(&model.source, &diags);
            return exit::ERROR;
        }
    };
    match &args.output {
        Some(out) => {
            let code = write_output(Some(out), &text);
            if code != exit::OK || queries.is_empty() {
                return code;
            }
            write_output(Some(&out.with_extension("q")), &queries)
        }
        None if queries.is_empty() => write_output(None, &text),
        None => {
            // One stream: the queries follow as a comment block, which a
            // UPPAAL or zeno reader of the XTA text skips.
            let mut all = text;
            all.push_str("\n// queries (UPPAAL .q file, written beside OUT with -o):\n");
            for q in queries.lines() {
                all.push_str(&format!("// {q}\n"));
            }
            write_output(None, &all)
        }
    }
}
