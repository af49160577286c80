//! `zeno check`: analyze each file, decide its checks, report.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use zeno::checker::config::{Config, ConfigError};
use zeno::checker::{self, Cancel, Options, PdbOptions, Stats, Ties, portfolio};

use super::args::{CheckArgs, Format, OnOff, SearchArgs};
use super::exit::{self, Outcome};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use zeno::diagnostics::Diagnostic;
use zeno::import::QueryOutcome;
use zeno::ir::Span;

use super::distributed::{Decided, Runner};
use super::load::{LoadError, Model, load_reporting_queries};
use super::report::{self, CheckReport, FileReport, NotCheckedReport, QueryFileReport};
use super::source::{ReadError, Source};
use super::{diag, json, out, sarif, text};

/// A search flag, or a combination of them, the checker cannot take.
#[derive(Debug, thiserror::Error)]
pub enum FlagError {
    /// A duration flag that is negative or not a number.
    #[error("invalid --{flag} `{value}`: expected a non-negative number of seconds")]
    Seconds {
        /// The flag, without its dashes.
        flag: &'static str,
        /// The value given, written short (`-1e300`, not 301 digits).
        value: String,
    },
    /// A count flag given 0.
    #[error("invalid --{0} `0`: expected at least 1")]
    Zero(&'static str),
    /// `--enhance none` beside other enhancements.
    #[error("invalid --enhance: `none` cannot be combined with others")]
    EnhanceNone,
    /// `--search`, `--heuristic`, `--enhance` and `--ties` do not make a
    /// configuration.
    #[error("{0} (from --search, --heuristic, --enhance and --ties)")]
    Config(ConfigError),
    /// An entry of `--portfolio-configs` that is no configuration.
    #[error("--portfolio-configs: {0}")]
    PortfolioConfig(ConfigError),
}

/// A check name the model does not have; the message lists those it has.
#[derive(Debug, thiserror::Error)]
#[error("no check named `{name}`; the model's checks: {}", list_or_none(.checks))]
pub struct NoSuchCheck {
    name: String,
    checks: Vec<String>,
}

impl NoSuchCheck {
    /// `name`, not a check of `network`.
    pub fn new(network: &zeno::ir::Network, name: &str) -> NoSuchCheck {
        NoSuchCheck {
            name: name.to_string(),
            checks: network.checks.iter().map(|c| c.name.clone()).collect(),
        }
    }
}

/// `names` joined by commas, or `none`.
fn list_or_none(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// `seconds` as a duration, or the error of `--flag`.
pub fn seconds(flag: &'static str, value: f64) -> Result<Duration, FlagError> {
    if value.is_finite() && value > u64::MAX as f64 {
        // Longer than any run (5.8e11 years): no limit in effect.
        return Ok(Duration::MAX);
    }
    Duration::try_from_secs_f64(value).map_err(|_| FlagError::Seconds {
        flag,
        value: if value.is_finite() && value.abs() >= 1e15 {
            format!("{value:e}")
        } else {
            value.to_string()
        },
    })
}

/// The checker options the search flags ask for.
pub fn options(args: &SearchArgs) -> Result<Options, FlagError> {
    let timeout = args.timeout.map(|s| seconds("timeout", s)).transpose()?;
    let config = search_config(args)?;
    let pdb_time = seconds("pdb-time", args.pdb_time)?;
    if args.pdb_states == 0 {
        return Err(FlagError::Zero("pdb-states"));
    }
    let threads = match args.threads {
        Some(0) => return Err(FlagError::Zero("threads")),
        Some(n) => n,
        // Parallel greedy and A* are asked for, not given: on two cores
        // their rounds cost more than they gain (docs/checker.md, "Parallel
        // directed search").
        None if config.search.is_guided() => 1,
        None => available_cores(),
    };
    Ok(Options {
        config,
        max_states: args.max_states,
        timeout,
        seed: args.seed,
        cache_heuristic: true,
        pdb: PdbOptions {
            max_states: args.pdb_states,
            selection_time: Some(pdb_time),
            clocks: args.pdb_clocks,
            ..PdbOptions::default()
        },
        non_zeno: args.non_zeno,
        threads,
        active_clocks: !args.no_active_clocks,
        breadth_first_after: None,
        fallback_threads: args.threads.unwrap_or_else(available_cores),
        extrapolate: true,
        subsume: args.subsume,
        take_turns: args.is_default(),
        symmetry: args.symmetry == OnOff::On,
        reduce: args.reduce,
        partial_order: true,
    })
}

/// The search configuration of `--search`, `--heuristic`, `--enhance` and
/// `--ties`, under the checker's rules. `--heuristic` has a default, so it
/// counts only where the configuration uses one.
fn search_config(args: &SearchArgs) -> Result<Config, FlagError> {
    let mut parts: Vec<&str> = Vec::new();
    for e in &args.enhance {
        match e.as_str() {
            "none" if args.enhance.len() > 1 => {
                return Err(FlagError::EnhanceNone);
            }
            "none" => {}
            name => parts.push(name),
        }
    }
    if args.ties == Ties::Lifo {
        parts.push("lifo");
    }
    let order = args.order();
    let heuristic = (order.is_guided() || parts.contains(&"ut")).then_some(args.heuristic());
    checker::config::from_parts(order, heuristic, &parts).map_err(FlagError::Config)
}

/// The configurations `--portfolio` races: the default set, or the
/// `--portfolio-configs` list (limits and seed from `base`).
/// The cores the system says it has (one when it cannot say).
fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The portfolio's configurations, sharing `--threads` (by default the
/// available cores, whatever order `--search` names).
fn portfolio(
    args: &CheckArgs,
    base: &Options,
) -> Result<Option<Vec<portfolio::Config>>, FlagError> {
    // A portfolio runs each configuration as named: nothing alongside.
    let base = &Options {
        threads: args.search.threads.unwrap_or_else(available_cores),
        breadth_first_after: None,
        take_turns: false,
        ..base.clone()
    };
    if args.portfolio_configs.is_empty() {
        return Ok(args.portfolio.then(|| portfolio::default_configs(base)));
    }
    let configs = args
        .portfolio_configs
        .iter()
        .map(|entry| checker::config::parse(entry).map_err(FlagError::PortfolioConfig))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(portfolio::entries(&configs, base)))
}

/// The query files of the model at `path`: `MODEL.q` beside a UPPAAL model
/// (`.xml`, `.xta`, `.ta`) unless `--no-queries-file`, then each
/// `--queries` file; each file once. `true` marks the one found beside.
fn query_files_for(path: &Path, args: &CheckArgs) -> Vec<(PathBuf, bool)> {
    let mut files = Vec::new();
    let uppaal = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["xml", "xta", "ta"].contains(&e.to_ascii_lowercase().as_str()));
    if uppaal && !args.no_queries_file {
        let beside = path.with_extension("q");
        if beside.is_file() {
            files.push((beside, true));
        }
    }
    for q in &args.queries {
        let same = |p: &PathBuf| match (p.canonicalize(), q.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => p == q,
        };
        if !files.iter().any(|(p, _)| same(p)) {
            files.push((q.clone(), false));
        }
    }
    files
}

/// Query files read so far, by path (a `--queries` file serves every model).
#[derive(Default)]
struct QueryFiles(HashMap<PathBuf, Rc<Source>>);

impl QueryFiles {
    fn get(&mut self, path: &Path) -> Result<Rc<Source>, ReadError> {
        if let Some(s) = self.0.get(path) {
            return Ok(Rc::clone(s));
        }
        let source = Rc::new(super::source::read_source(path)?);
        self.0.insert(path.to_path_buf(), Rc::clone(&source));
        Ok(source)
    }
}

/// Lists the model's queries that are not checked in its report, and
/// prints each refused one as an error located in its file. Returns
/// whether any was refused (an input error). With `--check`, a query for
/// another engine is listed only when named (and then counts as found); a
/// refused query is always reported, as any error in the input is.
fn report_unchecked(
    model: &Model,
    file: &mut FileReport,
    wanted: &[String],
    matched: &mut [bool],
) -> bool {
    let mut refused = false;
    for e in &model.queries {
        let q = &e.query;
        if matches!(q.outcome, QueryOutcome::Check(_)) {
            continue;
        }
        if !wanted.is_empty() {
            match wanted.iter().position(|n| *n == q.name) {
                Some(k) => matched[k] = true,
                None if matches!(q.outcome, QueryOutcome::OtherEngine(_)) => continue,
                None => {}
            }
        }
        let Some(source) = e
            .file
            .as_deref()
            .or(model.original.as_ref().map(|(o, _)| o))
        else {
            continue;
        };
        let (span, reason, construct, error) = match &q.outcome {
            QueryOutcome::OtherEngine(o) => (q.span, o.kind, Some(o.construct), None),
            QueryOutcome::Refused { message, span } => {
                refused = true;
                let d = Diagnostic::error(*span, format!("{message}; this query is not checked"));
                diag::emit(source, &[d]);
                (*span, "error", None, Some(message.clone()))
            }
            QueryOutcome::Check(_) => continue,
        };
        file.not_checked.push(NotCheckedReport {
            name: q.name.clone(),
            formula: q.formula.clone(),
            comment: q.comment.clone(),
            path: source.display_path(),
            range: report::range(source, span),
            reason,
            construct,
            error,
        });
    }
    refused
}

/// Gives a check that was a UPPAAL query its formula as written, its
/// comment, and its place in the file that holds it, and the expressions
/// of a value query theirs: each narrowed to its text in the query when
/// that occurs once there and once in the translated check (`generated`,
/// its bytes in the translated text), else the whole query, as the source
/// map narrows a label.
fn describe_query(model: &Model, generated: [u32; 2], r: &mut CheckReport) {
    let Some(e) = model.query_of(&r.name) else {
        return;
    };
    r.set_formula(e.query.formula.clone());
    r.comment = e.query.comment.clone();
    let file = match (&e.file, &model.original) {
        (Some(f), _) => {
            r.path = Some(f.display_path());
            f
        }
        (None, Some((original, _))) => original,
        (None, None) => return,
    };
    r.range = report::range(file, e.query.span);
    let piece = zeno::import::Piece {
        generated: Span::new(generated[0], generated[1]),
        source: e.query.span,
        what: String::new(),
    };
    for v in r.values.iter_mut().flatten() {
        let term = Span::new(v.range.bytes[0], v.range.bytes[1]);
        let at = piece.narrow(&model.source.text, &file.text, term);
        v.range = report::range(file, at.span);
    }
}

pub fn run(args: &CheckArgs) -> u8 {
    if args.files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        diag::error("`-` (standard input) is given twice: it can be read only once");
        return exit::ERROR;
    }
    let Some(options) = diag::ok(options(&args.search)) else {
        return exit::ERROR;
    };
    let Some(plan) = diag::ok(super::distributed::plan(args)) else {
        return exit::ERROR;
    };
    let options = match plan {
        Some(_) => super::distributed::options(options),
        None => options,
    };
    // With `--hosts`, process 0 alone prints results.
    let prints = Runner::prints(plan.as_ref());
    let mut runner = plan.map(Runner::new);
    let Some(configs) = diag::ok(portfolio(args, &options)) else {
        return exit::ERROR;
    };
    if let Some(n) = args.search.threads
        && n > checker::max_threads()
    {
        diag::note(&format!(
            "--threads {n}: searches run on at most {} threads (four per core)",
            checker::max_threads()
        ));
    }
    let cancel = Cancel::new();
    {
        let cancel = cancel.clone();
        // The first Ctrl-C stops the search gracefully; a second one, in case
        // something does not poll the flag, exits at once (128 + SIGINT).
        // Failing to install the handler only loses graceful Ctrl-C.
        let _ = ctrlc::set_handler(move || {
            if cancel.is_cancelled() {
                std::process::exit(130);
            }
            cancel.cancel();
        });
    }
    let mut outcome = Outcome::default();
    let mut query_sources = QueryFiles::default();
    // A `--queries` file that cannot be read is a usage error before anything runs.
    for q in &args.queries {
        if let Err(e) = query_sources.get(q) {
            diag::error(&e);
            return exit::ERROR;
        }
    }
    let mut reports = Vec::new();
    let mut matched = vec![false; args.checks.len()];

    for path in &args.files {
        let mut model = match load_reporting_queries(path, &args.labels) {
            Ok(m) => m,
            Err(e) => {
                outcome.add(exit::ERROR);
                reports.push(match e {
                    LoadError::Unreadable(e) => {
                        diag::error(&e);
                        FileReport::unreadable(
                            path.to_string_lossy().replace('\\', "/"),
                            e.to_string(),
                        )
                    }
                    LoadError::Import {
                        original,
                        diagnostics,
                    } => FileReport::new(&original, &diagnostics),
                    LoadError::Usage(message) => {
                        FileReport::unreadable(path.to_string_lossy().replace('\\', "/"), message)
                    }
                });
                continue;
            }
        };
        for (q, beside) in query_files_for(path, args) {
            match query_sources.get(&q) {
                Ok(source) => model.add_query_file(source, beside),
                Err(e) => {
                    diag::error(&e);
                    outcome.add(exit::ERROR);
                }
            }
        }
        let source = &model.source;
        let analysis = model.analyze_checks_apart();
        model.emit_analysis(&analysis.diagnostics);
        let (mapped, unmapped) = model.split_diagnostics(&analysis.diagnostics);
        let mut file = FileReport::new(source, &unmapped);
        if let Some((original, _)) = &model.original {
            file.mark_imported();
            file.add_diagnostics(original, &mapped);
        }
        file.path = model.display_path();
        if let Some((original, _)) = &model.original {
            file.set_import_warnings(original, &model.import_warnings);
        }
        file.query_files = model
            .query_files
            .iter()
            .map(|q| QueryFileReport {
                path: q.path.clone(),
                beside_model: q.beside,
            })
            .collect();
        if report_unchecked(&model, &mut file, &args.checks, &mut matched) {
            outcome.add(exit::ERROR);
        }
        let network = match analysis.network {
            Some(n) if !file.has_errors() => n,
            _ => {
                outcome.add(exit::ERROR);
                if prints && args.format == Format::Text && !file.not_checked.is_empty() {
                    out::print(format_args!(
                        "{}{}",
                        text::header(&file),
                        text::not_checked(&file)
                    ));
                }
                reports.push(file);
                continue;
            }
        };
        let mut header_shown = false;
        let mut shared_network: Option<Arc<zeno::ir::Network>> = None;
        if prints && network.checks.is_empty() && args.format == Format::Text {
            // Say so rather than print nothing: an empty output reads as a
            // crash or a filter that matched nothing.
            out::println(format_args!(
                "{}  no checks to decide (declare one: `check NAME: A[] ...;`)",
                text::header(&file)
            ));
            header_shown = true;
        }
        for id in network.check_ids() {
            let c = network.check(id);
            if !args.checks.is_empty() {
                match args.checks.iter().position(|n| *n == c.name) {
                    Some(k) => matched[k] = true,
                    None => continue,
                }
            }
            if prints && args.format == Format::Text && !header_shown {
                out::print(text::header(&file));
                header_shown = true;
            }
            let mut progress = Progress::new(&c.name);
            zeno::memory::reset_peak();
            let mut r = if let Some(runner) = &mut runner {
                // Distributed: the engine reports no progress of its own.
                let shared = shared_network.get_or_insert_with(|| Arc::new(network.clone()));
                let options = options.for_check(&network, id);
                let mut result = match runner.decide(shared, id, &options, &cancel, &source.text) {
                    Decided::Result(result) => *result,
                    Decided::Elsewhere => continue,
                    Decided::Lost => {
                        outcome.add(exit::LIMIT);
                        continue;
                    }
                    Decided::Refused(why) => {
                        diag::error(why);
                        outcome.add(exit::ERROR);
                        continue;
                    }
                };
                if let Some(peak) = zeno::memory::peak() {
                    result.stats.peak_memory = peak;
                }
                report::check_report(source, &network, id, &result)
            } else if matches!(c.kind, zeno::ir::CheckKind::Bound(_)) {
                // A value query: an answer, not a verdict (docs/cli.md, "Exit
                // codes"); the portfolio races for verdicts only.
                let options = options.for_check(&network, id);
                let mut answer = checker::check_bounds(&network, id, &options, &cancel, &mut |s| {
                    progress.update(s)
                });
                progress.finish();
                if let Some(peak) = zeno::memory::peak() {
                    answer.result.stats.peak_memory = peak;
                }
                report::bounds_report(source, &network, id, &answer)
            } else {
                let (mut result, winner) = if let Some(configs) = &configs {
                    let race = portfolio::race(&network, id, configs, &cancel);
                    let winner = race.winner.map(|w| configs[w].name.clone());
                    (race.result, winner)
                } else {
                    let options = options.for_check(&network, id);
                    let result = checker::check(&network, id, &options, &cancel, &mut |s| {
                        progress.update(s)
                    });
                    (result, None)
                };
                progress.finish();
                // The process's real peak during the check (the model
                // included), rather than the store's own estimate.
                if let Some(peak) = zeno::memory::peak() {
                    result.stats.peak_memory = peak;
                }
                let mut r = report::check_report(source, &network, id, &result);
                r.portfolio_winner = winner;
                r
            };
            // Both kinds alike: placed in the file the user wrote, with the
            // query's formula and comment when it came from a query file.
            let generated = r.range.bytes;
            model.relocate_check(&mut r);
            describe_query(&model, generated, &mut r);
            outcome.add(r.verdict.exit_code());
            if args.format == Format::Text {
                out::print(text::check(&file, &r, args.trace));
            }
            file.checks.push(r);
            if cancel.is_cancelled() {
                break;
            }
        }
        if prints && args.format == Format::Text && !file.not_checked.is_empty() {
            if !header_shown {
                out::print(text::header(&file));
            }
            out::print(text::not_checked(&file));
        }
        reports.push(file);
        if cancel.is_cancelled() {
            break;
        }
    }

    for (name, found) in args.checks.iter().zip(&matched) {
        // Only meaningful when every file could be analyzed.
        if !found && !cancel.is_cancelled() && !outcome.has_error() {
            diag::error(format!("no check named `{name}` in the given files"));
            outcome.add(exit::ERROR);
        }
    }

    if let Some(runner) = runner {
        if let Some(path) = &args.traffic
            && prints
        {
            let table = format!(
                "check\tlevel\tstates\tsent_states\tsent_bytes\tsupersteps\n{}",
                runner.traffic
            );
            if let Err(e) = std::fs::write(path, table) {
                diag::error(format!("cannot write --traffic {}: {e}", path.display()));
                outcome.add(exit::ERROR);
            }
        }
        runner.finish();
    }
    let code = outcome.code();
    match args.format {
        _ if !prints => {}
        Format::Text => {}
        Format::Json => out::println(json::document(&reports, code)),
        Format::Sarif => out::println(
            serde_json::to_string_pretty(&sarif::document(&reports)).unwrap_or_default(),
        ),
    }
    code
}

/// A spinner with the explored-state count, shown only on a terminal and
/// only once a check has run for a second (short runs stay quiet).
struct Progress<'a> {
    name: &'a str,
    enabled: bool,
    bar: Option<ProgressBar>,
}

impl<'a> Progress<'a> {
    fn new(name: &'a str) -> Progress<'a> {
        Progress {
            name,
            enabled: std::io::stderr().is_terminal(),
            bar: None,
        }
    }

    fn update(&mut self, s: &Stats) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && s.elapsed >= Duration::from_secs(1) {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(120));
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{}: explored {} states, stored {} [{}s]",
                self.name,
                s.explored,
                s.stored,
                s.elapsed.as_secs()
            ));
        }
    }

    fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::report::VerdictKind;

    #[test]
    fn outcome_priorities() {
        let code = |codes: &[u8]| {
            let mut o = Outcome::default();
            codes.iter().for_each(|&c| o.add(c));
            o.code()
        };
        assert_eq!(code(&[]), 0);
        assert_eq!(code(&[0, 0]), 0);
        assert_eq!(code(&[0, 3]), 3);
        assert_eq!(code(&[3, 1, 0]), 1);
        assert_eq!(code(&[1, 2, 3]), 2);
        assert_eq!(VerdictKind::ModelError.exit_code(), 1);
    }

    /// The same search asked of `zeno check` by flags and of the language
    /// server by the editors' settings gives the same checker options for
    /// every check, the goal's policy included (a `deadlock` goal turns a
    /// greedy search breadth-first in both).
    #[test]
    fn the_cli_and_the_language_server_build_the_same_options() {
        use clap::Parser;
        use serde_json::json;
        let network = zeno::semantics::analyze(
            "template P() { init location a; }\nsystem P;\ncheck reach: E<> P.a;\ncheck dl: A[] !deadlock;\n",
        )
        .network
        .expect("the model lowers");
        let cli = |flags: &[&str]| {
            let argv = ["zeno", "check", "m.zeno"].iter().chain(flags);
            let crate::cli::args::Command::Check(args) =
                crate::cli::args::Cli::parse_from(argv).command
            else {
                panic!("not a check command");
            };
            options(&args.search).expect("valid flags")
        };
        let cases = [
            (
                vec!["--search", "greedy", "--heuristic", "hu", "--threads", "1"],
                json!({"search": "greedy", "heuristic": "hu", "threads": 1, "subsume": "alu"}),
            ),
            (
                vec![
                    "--search",
                    "bfs",
                    "--max-states",
                    "500",
                    "--timeout",
                    "2.5",
                    "--threads",
                    "3",
                    "--subsume",
                    "inclusion",
                    "--symmetry",
                    "off",
                    "--non-zeno",
                ],
                json!({"search": "bfs", "maxStates": 500, "timeoutSeconds": 2.5, "threads": 3,
                       "subsume": "inclusion", "symmetry": "off", "nonZeno": true}),
            ),
        ];
        for (flags, settings) in cases {
            let (server, bad) = zeno::lsp::checker_options(&settings);
            assert!(bad.is_empty(), "{bad:?}");
            let cli = cli(&flags);
            for id in network.check_ids() {
                let (a, b) = (cli.for_check(&network, id), server.for_check(&network, id));
                assert_eq!(
                    a,
                    b,
                    "{flags:?} / {settings}, check {}",
                    network.check(id).name
                );
            }
        }
        // The policy itself: greedy for the plain goal, breadth-first for `deadlock`.
        let greedy = zeno::lsp::checker_options(&json!({"search": "greedy"})).0;
        let order = |i| {
            greedy
                .for_check(&network, network.check_ids().nth(i).unwrap())
                .config
                .search
        };
        assert_eq!(order(0), zeno::checker::SearchOrder::Greedy);
        assert_eq!(order(1), zeno::checker::SearchOrder::Bfs);
    }
}
