//! `zeno bench`: every model (files and generated families) under every
//! configuration, one table row per model × check × configuration.
//!
//! Runs are sequential so that their times are comparable. Bad input (a
//! configuration, a family, a file that does not analyse) is reported before
//! anything runs, with exit code 2; the table itself always exits 0, since
//! finding a bug is what a benchmark run is for.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use zeno::bench::{self, Config, Limits, families};
use zeno::checker::Cancel;
use zeno::ir::Network;
use zeno::semantics;

use super::args::{BenchArgs, BenchFormat};
use super::diag;
use super::exit;
use super::load::{LoadError, load};

/// A model ready to run: its table name and network.
struct Prepared {
    name: String,
    network: Network,
}

pub fn run(args: &BenchArgs) -> u8 {
    match prepare_and_run(args) {
        Ok(()) => exit::OK,
        Err(message) => {
            if !message.is_empty() {
                diag::error(&message);
            }
            exit::ERROR
        }
    }
}

fn prepare_and_run(args: &BenchArgs) -> Result<(), String> {
    let mut configs: Vec<Config> = Vec::new();
    for c in &args.configs {
        configs.extend(zeno::checker::config::parse_list(c).map_err(|e| e.to_string())?);
    }
    if args.threads == 0 {
        return Err("invalid --threads `0`: expected at least 1".to_string());
    }
    let limits = Limits {
        threads: args.threads,
        max_states: args.max_states,
        timeout: match args.timeout {
            None => None,
            Some(s) => Some(Duration::try_from_secs_f64(s).map_err(|_| {
                format!("invalid --timeout `{s}`: expected a non-negative number of seconds")
            })?),
        },
    };
    let mut instances = Vec::new();
    for f in &args.families {
        instances.extend(families::parse(f)?);
    }
    if let Some(dir) = &args.emit {
        return emit(dir, &instances);
    }
    if instances.is_empty() && args.files.is_empty() {
        return Err(format!(
            "nothing to run: give model files or --family NAME:SIZES; the families are\n{}",
            families::describe()
        ));
    }

    let mut models = Vec::new();
    for i in instances {
        let analysis = semantics::analyze(&i.text);
        // Generated text always analyses (tested); say so plainly if not.
        let network = analysis.network.ok_or_else(|| {
            format!(
                "generated model {} does not analyse (a bug in zeno)",
                i.name
            )
        })?;
        models.push(Prepared {
            name: i.name,
            network,
        });
    }
    for path in &args.files {
        models.push(prepare_file(path, &args.labels)?);
    }
    for name in &args.checks {
        if !models
            .iter()
            .any(|m| m.network.checks.iter().any(|c| &c.name == name))
        {
            return Err(format!("no check named `{name}` in the given models"));
        }
    }

    let cancel = Cancel::new();
    {
        let cancel = cancel.clone();
        // Ctrl-C ends the current run (its row says `unknown (cancelled)`)
        // and the table; failing to install the handler only loses that.
        let _ = ctrlc::set_handler(move || cancel.cancel());
    }
    let mut rows = Vec::new();
    let mut out = std::io::stdout().lock();
    if args.format == BenchFormat::Markdown {
        let _ = writeln!(out, "{}", bench::table::HEADER);
    }
    'models: for m in &models {
        for id in m.network.check_ids() {
            let check = m.network.check(id);
            if !args.checks.is_empty() && !args.checks.contains(&check.name) {
                continue;
            }
            for config in &configs {
                let row = bench::run(&m.name, &m.network, id, config, &limits, &cancel);
                if args.format == BenchFormat::Markdown {
                    // Printed as it comes, so a long table shows progress.
                    let _ = writeln!(out, "{}", bench::table::markdown_row(&row));
                    let _ = out.flush();
                }
                rows.push(row);
                if cancel.is_cancelled() {
                    break 'models;
                }
            }
        }
    }
    let summary = args.summary.then(|| bench::summary::summarise(&rows));
    match args.format {
        BenchFormat::Json => {
            let _ = writeln!(out, "{}", bench::table::json(&rows, summary.as_ref()));
        }
        BenchFormat::Markdown => {
            if let Some(summary) = &summary {
                let _ = writeln!(out, "\n{}", bench::summary::markdown(summary));
            }
        }
    }
    Ok(())
}

/// Loads a model file (importing UPPAAL and TChecker files); its table name
/// is the file name without the extension.
fn prepare_file(path: &Path, labels: &[String]) -> Result<Prepared, String> {
    let is_zeno = path.extension().is_some_and(|e| e == "zeno");
    let labels = if is_zeno { &[][..] } else { labels };
    // `load` prints import and usage errors itself; the empty message only
    // sets the exit code.
    let model = load(path, labels).map_err(|e| match e {
        LoadError::Unreadable(e) => e.to_string(),
        LoadError::Import { .. } | LoadError::Usage(_) => String::new(),
    })?;
    let analysis = model.analyze();
    let errors = analysis
        .diagnostics
        .iter()
        .any(|d| d.severity == zeno::diagnostics::Severity::Error);
    match analysis.network {
        Some(network) if !errors => Ok(Prepared {
            name: path
                .file_stem()
                .map_or_else(|| model.display_path(), |s| s.to_string_lossy().to_string()),
            network,
        }),
        _ => {
            model.note_imported();
            diag::emit(&model.source, &analysis.diagnostics);
            Err(String::new())
        }
    }
}

/// Writes each generated instance to `DIR/NAME.zeno`.
fn emit(dir: &Path, instances: &[families::Instance]) -> Result<(), String> {
    if instances.is_empty() {
        return Err("--emit writes generated models: give at least one --family".to_string());
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create directory `{}`: {e}", dir.display()))?;
    for i in instances {
        let path = dir.join(format!("{}.zeno", i.name));
        std::fs::write(&path, &i.text)
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
