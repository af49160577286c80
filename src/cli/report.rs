//! The results of a run as plain data: every id of the checker's answer is
//! turned into names and line/column ranges here, once, so that the text,
//! JSON and SARIF outputs only format. These types *are* the JSON schema
//! (documented in `docs/cli.md`).

use num_rational::Rational64;
use serde::Serialize;
use zeno::checker::{CheckResult, ConcreteState, Stats, Trace, TraceEnd, Transition};
use zeno::diagnostics::{Diagnostic, Severity};
use zeno::ir::{self, Check, CheckId, CheckKind, Network, Span, SyncDir};
pub use zeno::report::clock_values;
use zeno::report::{Ending, NamedValue, Outcome, State, Step, describe_error, limit_words};

use super::source::{Position, Source};

#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub path: String,
    /// Set when the file could not be read; there are no checks then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub diagnostics: Vec<DiagnosticReport>,
    /// The importer's warnings, for a UPPAAL or TChecker file: located in
    /// that file (`diagnostics` are located in the imported zeno text).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub import_warnings: Vec<DiagnosticReport>,
    /// The UPPAAL query files read for the model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub query_files: Vec<QueryFileReport>,
    pub checks: Vec<CheckReport>,
    /// The queries that did not become checks: for another of UPPAAL's
    /// engines (statistical, …), or refused with an error.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_checked: Vec<NotCheckedReport>,
}

/// A query file read for a model.
#[derive(Debug, Clone, Serialize)]
pub struct QueryFileReport {
    pub path: String,
    /// Found beside the model (`MODEL.q`), rather than named by `--queries`.
    pub beside_model: bool,
}

/// A query that is not checked, and why.
#[derive(Debug, Clone, Serialize)]
pub struct NotCheckedReport {
    pub name: String,
    /// The query as written.
    pub formula: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The file the query is in (the model's, or a query file).
    pub path: String,
    /// The query (for an error: where the problem is).
    pub range: Range,
    /// `statistical query`, `controller synthesis query`, `learning
    /// query`, `strategy query`, or `error` (a symbolic query zeno refuses).
    pub reason: &'static str,
    /// What tells the kind (`Pr`, `simulate`, `control:`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub construct: Option<&'static str>,
    /// Why, for `error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Range {
    pub start: Position,
    pub end: Position,
    /// Byte offsets `[start, end)` in the file.
    pub bytes: [u32; 2],
}

#[derive(Debug, Clone, Serialize)]
pub struct DiagnosticReport {
    /// `error`, `warning`, `info` or `hint`.
    pub severity: &'static str,
    pub message: String,
    pub range: Range,
    pub related: Vec<RelatedReport>,
    /// Set when the ranges are in the imported zeno text (`zeno import`
    /// prints it) rather than in the file: a diagnostic on text the import
    /// wrote itself, which no place in the file corresponds to.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_imported_text: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct RelatedReport {
    pub message: String,
    pub range: Range,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    Holds,
    Fails,
    ModelError,
    Unknown,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub name: String,
    /// The formula as written: in the model, its `<query>` or the query
    /// file.
    pub formula: String,
    /// The query's comment (UPPAAL), when it does not serve as the name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The file `range` is in, when it is not the model's (a query file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// `invariant` (`A[]`), `reachable` (`E<>`), `inevitable` (`A<>`),
    /// `potentially_always` (`E[]`) or `leads_to` (`-->`).
    pub kind: &'static str,
    /// The whole `check` declaration.
    pub range: Range,
    pub verdict: VerdictKind,
    /// The verdict in words, as the text output prints it.
    pub summary: String,
    /// Why the search stopped, for `unknown`: `states`, `time`, `memory` or
    /// `cancelled`; for a verdict whose trace a limit kept from being built,
    /// that limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<&'static str>,
    /// The run-time error, for `model_error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub stats: StatsReport,
    pub trace: Option<TraceReport>,
    /// With `--portfolio`: the configuration whose verdict this is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub portfolio_winner: Option<String>,
    /// A `sup:`/`inf:` query's answers, one per expression.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<ValueReport>>,
}

/// One answer of a `sup:`/`inf:` query.
#[derive(Debug, Clone, Serialize)]
pub struct ValueReport {
    /// The expression as written.
    pub term: String,
    /// Where it is written.
    pub range: Range,
    /// The answer in words (`x <= 5`, `x = ∞`, `n = 3`).
    pub text: String,
    /// The bound or value; `null` when unbounded, undecided, when no
    /// state satisfies the predicate or when it is no integer (a clock
    /// bound like 2/5 in a model whose time unit is refined).
    pub bound: Option<i64>,
    /// The bound or value as an exact rational (`"13"`, `"2/5"`); `null`
    /// where `bound` is for another reason than a fraction.
    pub exact: Option<String>,
    /// For a clock: whether the bound is approached but never reached.
    pub strict: bool,
    /// A clock whose supremum is infinite.
    pub infinite: bool,
    /// `false` when zeno did not decide the value (`text` says beyond what).
    pub decided: bool,
    /// `false` when no reachable state satisfies the predicate.
    pub reached: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct StatsReport {
    pub explored: u64,
    pub generated: u64,
    pub stored: u64,
    pub time_seconds: f64,
    pub peak_memory_bytes: u64,
    pub bytes_per_state: u64,
    /// Threads the search ran on.
    pub threads: u32,
    /// States the default best-first search explored before it gave way to
    /// breadth-first search (whose figures these are).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breadth_first_after: Option<u64>,
    /// In the default search, which of the searches taking turns decided
    /// (`best-first search`, `random restarts`, `breadth-first search`: its
    /// figures) and the states the other two explored meanwhile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explored_alongside: Option<u64>,
    /// Number of action transitions of the trace, when there is one.
    pub trace_length: Option<usize>,
    /// With safe abstraction (`--enhance safe`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safe: Option<SafeReport>,
    /// For a model with scalar sets: `{"reduced": ["pid_t"]}`, or
    /// `{"off": "why"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetry: Option<zeno::checker::SymmetryUse>,
    /// With `--reduce por`: why the reduction was not applied (the
    /// ordinary zone graph was searched), or why it gave no verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduce_note: Option<String>,
    /// The parallel breadth-first search's levels, phases and waits
    /// (`checker::ParallelStats`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel: Option<zeno::checker::ParallelStats>,
}

/// Safe abstraction's figures: components removed (#s) and the trace as
/// `abstract_steps + inserted_steps`.
pub type SafeReport = zeno::checker::SafeStats;

#[derive(Debug, Clone, Serialize)]
pub struct TraceReport {
    pub initial: StateReport,
    pub steps: Vec<StepReport>,
    pub end: EndReport,
    /// For a lasso (liveness checks): the index of the state the cycle
    /// returns to (0: the initial state, `k`: the state after step `k`);
    /// the steps after it form the cycle. Absent for other traces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_start: Option<usize>,
    /// Why the trace ends, in the terms of its check.
    pub ending: EndingReport,
}

/// Why a trace ends ([`zeno::report::Ending`]) and the sentence that says
/// it, naming the check and its formula.
#[derive(Debug, Clone, Serialize)]
pub struct EndingReport {
    #[serde(flatten)]
    pub ending: Ending,
    pub words: String,
}

impl CheckReport {
    /// Gives the check the formula as written in the file that holds it
    /// (a UPPAAL query), rewording its trace's ending with it.
    pub fn set_formula(&mut self, formula: String) {
        if let Some(t) = &mut self.trace {
            t.ending.words = t.ending.ending.words(&self.name, &formula);
        }
        self.formula = formula;
    }
}

/// One step of a trace: its delay, its edges and the state after it.
pub type StepReport = Step<EdgeReport, StateReport>;

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EndReport {
    /// Wait `delay` after the last step: the goal state is reached.
    Goal { delay: String },
    /// Wait `delay`, then `edges` is enabled but its update fails with `error`.
    ModelError {
        delay: String,
        edges: Vec<EdgeReport>,
        error: String,
        /// The statement of the function where the error happened, when it
        /// happened inside one.
        #[serde(skip_serializing_if = "Option::is_none")]
        statement: Option<Range>,
    },
    /// Wait `delay`: the run is back at the state `loop_start` (same
    /// locations and variables, clocks in that state's zone) and repeats
    /// the steps after it forever.
    Loop { delay: String, loop_start: usize },
    /// Wait `delay`: no action is possible now or after any delay; the
    /// maximal run ends.
    Deadlock { delay: String },
    /// Time passes forever after the last step; the maximal run takes no
    /// more actions.
    TimeDiverges,
}

#[derive(Debug, Clone, Serialize)]
pub struct EdgeReport {
    pub process: String,
    pub source: String,
    pub target: String,
    /// `c!`, `c[2]?`, … when the edge synchronises.
    pub sync: Option<String>,
    pub selects: Vec<Binding>,
    /// The edge declaration in the model.
    pub range: Range,
    /// Its text, on one line.
    pub text: String,
}

/// A variable's value, or a `select` binding of an edge.
pub type Binding = NamedValue<i32>;

/// Every variable slot of `net` with its value in `values`, by name.
pub fn variable_bindings(net: &Network, values: &[i32]) -> Vec<Binding> {
    values
        .iter()
        .enumerate()
        .map(|(i, &value)| Binding {
            name: net
                .variables
                .get(i)
                .map_or(format!("#{i}"), |v| v.name.clone()),
            value,
        })
        .collect()
}

/// A state of a trace: locations by process, variables by number.
pub type StateReport = State<LocationValue, Binding>;

#[derive(Debug, Clone, Serialize)]
pub struct LocationValue {
    pub process: String,
    pub location: String,
}

impl VerdictKind {
    /// The exit code this verdict alone asks for.
    pub fn exit_code(self) -> u8 {
        match self {
            VerdictKind::Holds => 0,
            VerdictKind::Fails | VerdictKind::ModelError => 1,
            VerdictKind::Unknown => 3,
        }
    }
}

impl FileReport {
    pub fn unreadable(path: String, error: String) -> FileReport {
        FileReport {
            path,
            error: Some(error),
            diagnostics: Vec::new(),
            import_warnings: Vec::new(),
            query_files: Vec::new(),
            checks: Vec::new(),
            not_checked: Vec::new(),
        }
    }

    pub fn new(source: &Source, diagnostics: &[Diagnostic]) -> FileReport {
        FileReport {
            path: source.display_path(),
            error: None,
            diagnostics: diagnostics.iter().map(|d| diagnostic(source, d)).collect(),
            import_warnings: Vec::new(),
            query_files: Vec::new(),
            checks: Vec::new(),
            not_checked: Vec::new(),
        }
    }

    /// Marks the diagnostics so far as located in the imported text.
    pub fn mark_imported(&mut self) {
        for d in &mut self.diagnostics {
            d.in_imported_text = true;
        }
    }

    /// Adds diagnostics located in `source`, keeping them in order of
    /// position there.
    pub fn add_diagnostics(&mut self, source: &Source, diagnostics: &[Diagnostic]) {
        let mut added: Vec<_> = diagnostics.iter().map(|d| diagnostic(source, d)).collect();
        added.sort_by_key(|d| d.range.bytes);
        self.diagnostics.splice(0..0, added);
    }

    /// Records the importer's warnings, located in `original`.
    pub fn set_import_warnings(&mut self, original: &Source, warnings: &[Diagnostic]) {
        self.import_warnings = warnings.iter().map(|d| diagnostic(original, d)).collect();
    }

    pub fn has_errors(&self) -> bool {
        self.error.is_some() || self.diagnostics.iter().any(|d| d.severity == "error")
    }
}

pub fn range(source: &Source, span: Span) -> Range {
    Range {
        start: source.position(span.start),
        end: source.position(span.end),
        bytes: [span.start, span.end],
    }
}

/// The report of a `sup:`/`inf:` query: the check's report with its
/// answers; when they were decided, the summary is the answer line
/// (`sup: x <= 5, n = 3`).
pub fn bounds_report(
    source: &Source,
    net: &Network,
    check: CheckId,
    answer: &zeno::checker::bounds::BoundsResult,
) -> CheckReport {
    use zeno::checker::bounds::Value;
    let mut report = check_report(source, net, check, &answer.result);
    let CheckKind::Bound(query) = &net.check(check).kind else {
        return report;
    };
    if answer.values.len() != query.terms.len() {
        return report;
    }
    let texts: Vec<String> = query
        .terms
        .iter()
        .map(|t| source.slice(t.span).to_string())
        .collect();
    let scale = net.time_scale;
    report.summary = zeno::report::bound_summary(query.extremum, &texts, &answer.values, scale);
    if answer.values.iter().any(|v| matches!(v, Value::Above(_))) {
        // A value not decided is no answer: `unknown`, never a pass.
        report.verdict = VerdictKind::Unknown;
        report.limit = Some("bound");
    }
    report.values = Some(
        query
            .terms
            .iter()
            .zip(&texts)
            .zip(&answer.values)
            .map(|((t, text), v)| ValueReport {
                term: text.clone(),
                range: range(source, t.span),
                text: zeno::report::bound_words(query.extremum, text, v, scale),
                bound: match v {
                    Value::Int(n) => Some(i64::from(*n)),
                    // In the model's time unit: none where it is no integer.
                    Value::Clock { bound, .. } => scale
                        .user_value(Rational64::from_integer(i64::from(*bound)))
                        .filter(|b| b.is_integer())
                        .map(|b| b.to_integer()),
                    _ => None,
                },
                exact: match v {
                    Value::Int(n) => Some(n.to_string()),
                    Value::Clock { bound, .. } => {
                        Some(scale.user_text(Rational64::from_integer(i64::from(*bound))))
                    }
                    _ => None,
                },
                strict: matches!(v, Value::Clock { strict: true, .. }),
                infinite: *v == Value::Infinite,
                decided: !matches!(v, Value::Above(_)),
                reached: *v != Value::NoState,
            })
            .collect(),
    );
    report
}

pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
        Severity::Hint => "hint",
    }
}

fn diagnostic(source: &Source, d: &Diagnostic) -> DiagnosticReport {
    DiagnosticReport {
        severity: severity_name(d.severity),
        message: d.message.clone(),
        range: range(source, d.range),
        related: d
            .related
            .iter()
            .map(|r| RelatedReport {
                message: r.message.clone(),
                range: range(source, r.range),
            })
            .collect(),
        in_imported_text: false,
    }
}

/// Describes the result of the check `check` of `net`.
pub fn check_report(
    source: &Source,
    net: &Network,
    check: CheckId,
    result: &CheckResult,
) -> CheckReport {
    let c = net.check(check);
    let len = result.trace.as_ref().map(Trace::len);
    let outcome = Outcome::of(c, result);
    let verdict = match outcome {
        Outcome::Holds | Outcome::Witnessed => VerdictKind::Holds,
        Outcome::Violated | Outcome::NoWitness => VerdictKind::Fails,
        Outcome::ModelError(_) => VerdictKind::ModelError,
        Outcome::Unknown(_) => VerdictKind::Unknown,
    };
    // For `unknown`, why the search stopped; for a verdict whose trace a
    // limit kept from being built, that limit.
    let limit = match outcome {
        Outcome::Unknown(l) => Some(limit_words(l).0),
        o if o.has_trace() && len.is_none() => result.stats.trace_limit.map(|l| limit_words(l).0),
        _ => None,
    };
    let error = match outcome {
        Outcome::ModelError(e) => Some(describe_error(net, &e)),
        _ => None,
    };
    let summary = zeno::report::summary(net, c, result);
    let formula = formula_of(source.slice(c.span));
    CheckReport {
        name: c.name.clone(),
        trace: result
            .trace
            .as_ref()
            .map(|t| trace(source, net, c, &formula, t)),
        formula,
        comment: None,
        path: None,
        kind: match c.kind {
            CheckKind::Invariant(_) => "invariant",
            CheckKind::Reachable(_) => "reachable",
            CheckKind::Inevitable(_) => "inevitable",
            CheckKind::Potentially(_) => "potentially_always",
            CheckKind::LeadsTo(..) => "leads_to",
            CheckKind::Bound(ref b) => match b.extremum {
                zeno::ir::Extremum::Sup => "sup",
                zeno::ir::Extremum::Inf => "inf",
            },
        },
        range: range(source, c.span),
        verdict,
        summary,
        limit,
        error,
        values: None,
        stats: stats(&result.stats, len),
        portfolio_winner: None,
    }
}

/// The formula of a check declaration's text `check NAME: FORMULA;`, on
/// one line.
pub fn formula_of(declaration: &str) -> String {
    let formula = declaration.split_once(':').map_or(declaration, |(_, f)| f);
    let formula = formula.trim().strip_suffix(';').unwrap_or(formula);
    formula.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn stats(s: &Stats, trace_length: Option<usize>) -> StatsReport {
    StatsReport {
        explored: s.explored,
        generated: s.generated,
        stored: s.stored,
        time_seconds: s.elapsed.as_secs_f64(),
        peak_memory_bytes: s.peak_memory,
        bytes_per_state: s.bytes_per_state,
        threads: s.threads.max(1),
        breadth_first_after: s.breadth_first_after,
        decided_by: s.alongside.as_ref().map(|a| a.decided_by),
        explored_alongside: s.alongside.as_ref().map(|a| a.others_explored),
        trace_length,
        safe: s.safe.clone(),
        symmetry: s.symmetry.clone(),
        reduce_note: s.reduce_note.clone(),
        parallel: s.parallel.clone(),
    }
}

/// A delay of the network's trace in the model's time unit.
pub fn rational(net: &Network, r: &Rational64) -> String {
    net.time_scale.user_text(*r)
}

fn trace(source: &Source, net: &Network, check: &Check, formula: &str, t: &Trace) -> TraceReport {
    let mut before = &t.initial;
    let mut steps = Vec::with_capacity(t.steps.len());
    for step in &t.steps {
        steps.push(StepReport {
            delay: rational(net, &step.delay),
            edges: transition(source, net, &step.transition, before),
            after: state(net, &step.after),
        });
        before = &step.after;
    }
    let end = match &t.end {
        TraceEnd::Goal { delay } => EndReport::Goal {
            delay: rational(net, delay),
        },
        TraceEnd::ModelError {
            delay,
            transition: tr,
            error,
        } => EndReport::ModelError {
            delay: rational(net, delay),
            edges: transition(source, net, tr, before),
            error: describe_error(net, error),
            statement: error.site.map(|site| range(source, site.statement)),
        },
        TraceEnd::Loop { delay, start, .. } => EndReport::Loop {
            delay: rational(net, delay),
            loop_start: *start,
        },
        TraceEnd::Deadlock { delay } => EndReport::Deadlock {
            delay: rational(net, delay),
        },
        TraceEnd::TimeDiverges => EndReport::TimeDiverges,
    };
    let loop_start = match &t.end {
        TraceEnd::Loop { start, .. } => Some(*start),
        _ => None,
    };
    let ending = zeno::simulate::ending(net, check, t);
    TraceReport {
        initial: state(net, &t.initial),
        steps,
        end,
        loop_start,
        ending: EndingReport {
            words: ending.words(&check.name, formula),
            ending,
        },
    }
}

const UNKNOWN: &str = "?";

pub fn transition(
    source: &Source,
    net: &Network,
    tr: &Transition,
    before: &ConcreteState,
) -> Vec<EdgeReport> {
    tr.edges
        .iter()
        .map(|&(p, e)| {
            let process = net.processes.get(p as usize);
            let edge = process.and_then(|proc| proc.edges.get(e as usize));
            let loc_name = |l: ir::LocId| {
                process
                    .and_then(|proc| proc.locations.get(l as usize))
                    .map_or(UNKNOWN.to_string(), |l| l.name.clone())
            };
            let span = edge.map_or(Span::default(), |e| e.span);
            EdgeReport {
                process: process.map_or(format!("#{p}"), |p| p.name.clone()),
                source: edge.map_or(UNKNOWN.to_string(), |e| loc_name(e.source)),
                target: edge.map_or(UNKNOWN.to_string(), |e| loc_name(e.target)),
                // A channel synchronisation, or a vector's action label.
                sync: edge.and_then(|e| {
                    e.sync
                        .as_ref()
                        .map(|s| sync(net, s, before))
                        .or_else(|| e.label.clone())
                }),
                selects: edge.map_or(Vec::new(), |e| {
                    e.selects
                        .iter()
                        .map(|(name, value)| Binding {
                            name: name.clone(),
                            value: *value,
                        })
                        .collect()
                }),
                range: range(source, span),
                text: source
                    .slice(span)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        })
        .collect()
}

fn sync(net: &Network, s: &ir::Sync, before: &ConcreteState) -> String {
    // The channel index is evaluated in the state the transition starts from.
    let name = match s.channel.resolve(&before.variables) {
        Ok(c) => net.channels.get(c as usize).map(|c| c.name.clone()),
        Err(_) => None,
    }
    .or_else(|| {
        net.channels
            .get(s.channel.base as usize)
            .map(|c| c.name.clone())
    })
    .unwrap_or_else(|| UNKNOWN.to_string());
    let dir = match s.dir {
        SyncDir::Send => '!',
        SyncDir::Receive => '?',
    };
    format!("{name}{dir}")
}

fn state(net: &Network, s: &ConcreteState) -> StateReport {
    StateReport {
        locations: s
            .locations
            .iter()
            .enumerate()
            .map(|(p, &l)| {
                let proc = net.processes.get(p);
                LocationValue {
                    process: proc.map_or(format!("#{p}"), |p| p.name.clone()),
                    location: proc
                        .and_then(|p| p.locations.get(l as usize))
                        .map_or(UNKNOWN.to_string(), |l| l.name.clone()),
                }
            })
            .collect(),
        variables: variable_bindings(net, &s.variables),
        clocks: clock_values(net, &s.clocks),
    }
}
