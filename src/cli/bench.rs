//! `zeno bench`: every model (files and generated families) under every
//! configuration, one table row per model × check × configuration.
//!
//! Runs are sequential so that their times are comparable. Bad input (a
//! configuration, a family, a file that does not analyse) is reported before
//! anything runs, with exit code 2; the table itself always exits 0, since
//! finding a bug is what a benchmark run is for.

use std::path::{Path, PathBuf};

use zeno::bench::{self, Config, Limits, families};
use zeno::checker::Cancel;
use zeno::checker::config::ConfigError;
use zeno::ir::Network;
use zeno::semantics;

use super::args::{BenchArgs, BenchFormat};
use super::check::{FlagError, seconds};
use super::exit;
use super::load::{LoadError, load};
use super::source::ReadError;
use super::{diag, out};

/// A model ready to run: its table name and network.
struct Prepared {
    name: String,
    network: Network,
}

/// Why `zeno bench` runs nothing.
#[derive(Debug, thiserror::Error)]
enum BenchError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Flag(#[from] FlagError),
    /// A `--family` that names no family or sizes it cannot take.
    #[error("{0}")]
    Family(String),
    #[error(
        "nothing to run: give model files or --family NAME:SIZES; the families are\n{}",
        families::describe()
    )]
    NothingToRun,
    #[error("generated model {0} does not analyse (a bug in zeno)")]
    Generated(String),
    #[error("no check named `{0}` in the given models")]
    NoCheck(String),
    #[error(transparent)]
    Read(#[from] ReadError),
    #[error("--emit writes generated models: give at least one --family")]
    NothingToEmit,
    #[error("cannot create directory `{}`: {error}", .dir.display())]
    CreateDir { dir: PathBuf, error: std::io::Error },
    #[error("cannot write `{}`: {error}", .path.display())]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Already reported (by `load`, or as the model's diagnostics): only the
    /// exit code is left to give.
    #[error("the model has errors")]
    Reported,
}

pub fn run(args: &BenchArgs) -> u8 {
    match prepare_and_run(args) {
        Ok(()) => exit::OK,
        Err(BenchError::Reported) => exit::ERROR,
        Err(e) => {
            diag::error(&e);
            exit::ERROR
        }
    }
}

fn prepare_and_run(args: &BenchArgs) -> Result<(), BenchError> {
    let mut configs: Vec<Config> = Vec::new();
    for c in &args.configs {
        configs.extend(zeno::checker::config::parse_list(c)?);
    }
    if args.threads == 0 {
        return Err(FlagError::Zero("threads").into());
    }
    let limits = Limits {
        threads: args.threads,
        max_states: args.max_states,
        timeout: args.timeout.map(|s| seconds("timeout", s)).transpose()?,
    };
    let mut instances = Vec::new();
    for f in &args.families {
        instances.extend(families::parse(f).map_err(BenchError::Family)?);
    }
    if let Some(dir) = &args.emit {
        return emit(dir, &instances);
    }
    if instances.is_empty() && args.files.is_empty() {
        return Err(BenchError::NothingToRun);
    }

    let mut models = Vec::new();
    for i in instances {
        let analysis = semantics::analyze(&i.text);
        // Generated text always analyses (tested); say so plainly if not.
        let network = analysis
            .network
            .ok_or_else(|| BenchError::Generated(i.name.clone()))?;
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
            return Err(BenchError::NoCheck(name.clone()));
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
    if args.format == BenchFormat::Markdown {
        out::println(bench::table::HEADER);
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
                    out::println(bench::table::markdown_row(&row));
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
            out::println(bench::table::json(&rows, summary.as_ref()));
        }
        BenchFormat::Markdown => {
            if let Some(summary) = &summary {
                out::println(format_args!("\n{}", bench::summary::markdown(summary)));
            }
        }
    }
    Ok(())
}

/// Loads a model file (importing UPPAAL and TChecker files); its table name
/// is the file name without the extension.
fn prepare_file(path: &Path, labels: &[String]) -> Result<Prepared, BenchError> {
    let is_zeno = path.extension().is_some_and(|e| e == "zeno");
    let labels = if is_zeno { &[][..] } else { labels };
    // `load` prints import and usage errors itself.
    let model = load(path, labels).map_err(|e| match e {
        LoadError::Unreadable(e) => BenchError::Read(e),
        LoadError::Import { .. } | LoadError::Usage(_) => BenchError::Reported,
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
            model.emit_analysis(&analysis.diagnostics);
            Err(BenchError::Reported)
        }
    }
}

/// Writes each generated instance to `DIR/NAME.zeno`.
fn emit(dir: &Path, instances: &[families::Instance]) -> Result<(), BenchError> {
    if instances.is_empty() {
        return Err(BenchError::NothingToEmit);
    }
    std::fs::create_dir_all(dir).map_err(|error| BenchError::CreateDir {
        dir: dir.to_path_buf(),
        error,
    })?;
    for i in instances {
        let path = dir.join(format!("{}.zeno", i.name));
        if let Err(error) = std::fs::write(&path, &i.text) {
            return Err(BenchError::Write { path, error });
        }
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
