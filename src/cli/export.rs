//! `zeno export`: write a model (zeno text, or any imported format) for
//! TChecker or UPPAAL, to run it through those tools.

use super::args::{ExportArgs, ExportFormat};
use super::exit;
use super::import::write_output;
use super::load::load_network;

pub fn run(args: &ExportArgs) -> u8 {
    let (model, network) = match load_network(&args.file, &args.labels) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    if !network.time_scale.is_unit() {
        // The exported model is the refined network: the same behaviour,
        // every clock constant (and so every delay) multiplied by L.
        super::diag::note(&format!(
            "the exported model counts time in 1/{} of this model's time unit (its clock \
             constants are multiplied by {}; docs/language.md, \"Time scaling\")",
            network.time_scale.0, network.time_scale.0
        ));
    }
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
            model.emit_analysis(&diags);
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
