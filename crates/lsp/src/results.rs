//! Check results and frontend diagnostics as LSP values: diagnostics on the
//! check's name, and the structured trace of `zeno/errorTrace`.

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range,
    Uri,
};

use super::line_index::LineIndex;
use zeno_base::diagnostics::{Diagnostic, Severity};
use zeno_checker::{CheckResult, ConcreteState, TraceEnd, Transition};
use zeno_ir::{self as ir, Span};
use zeno_report::{self as report, NamedValue, Outcome};

/// The LSP range of a byte span.
pub fn range(index: &LineIndex, span: Span) -> Range {
    Range::new(index.position(span.start), index.position(span.end))
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

fn lsp_diagnostic(
    uri: &Uri,
    index: &LineIndex,
    severity: DiagnosticSeverity,
    code: Option<&str>,
    range: Range,
    message: String,
    related: Vec<(Span, String)>,
) -> lsp::Diagnostic {
    let related_information = (!related.is_empty()).then(|| {
        related
            .into_iter()
            .map(|(span, message)| DiagnosticRelatedInformation {
                location: Location::new(uri.clone(), self::range(index, span)),
                message,
            })
            .collect()
    });
    lsp::Diagnostic {
        range,
        severity: Some(severity),
        code: code.map(|c| NumberOrString::String(c.to_string())),
        source: Some("zeno".to_string()),
        message,
        related_information,
        ..lsp::Diagnostic::default()
    }
}

/// A frontend (syntax or semantic) diagnostic.
pub fn frontend_diagnostic(uri: &Uri, index: &LineIndex, d: &Diagnostic) -> lsp::Diagnostic {
    let related = d
        .related
        .iter()
        .map(|r| (r.range, r.message.clone()))
        .collect();
    lsp_diagnostic(
        uri,
        index,
        severity(d.severity),
        None,
        range(index, d.range),
        d.message.clone(),
        related,
    )
}

/// A description of a step's transition: `Proc(1) wait → cs`, with the
/// receivers of a synchronisation after a comma.
pub fn describe_transition(network: &ir::Network, t: &Transition) -> String {
    t.edges
        .iter()
        .map(|&(p, e)| match edge_names(network, p, e) {
            Some((process, source, target)) => format!("{process} {source} → {target}"),
            None => "?".to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn edge_names(network: &ir::Network, p: ir::ProcId, e: ir::EdgeId) -> Option<(&str, &str, &str)> {
    let process = network.processes.get(p as usize)?;
    let edge = process.edges.get(e as usize)?;
    let source = process.locations.get(edge.source as usize)?;
    let target = process.locations.get(edge.target as usize)?;
    Some((&process.name, &source.name, &target.name))
}

fn edge_span(network: &ir::Network, p: ir::ProcId, e: ir::EdgeId) -> Option<Span> {
    Some(
        network
            .processes
            .get(p as usize)?
            .edges
            .get(e as usize)?
            .span,
    )
}

/// The verdict of a finished check in words (`violated: trace of 6 steps,
/// 40 states explored`, worded by [`zeno::report::editor_message`]) and the
/// severity of its diagnostic.
pub fn verdict_message(
    network: &ir::Network,
    check: &ir::Check,
    result: &CheckResult,
) -> (DiagnosticSeverity, String) {
    let severity = match Outcome::of(check, result) {
        Outcome::Violated | Outcome::NoWitness | Outcome::ModelError(_) => {
            DiagnosticSeverity::ERROR
        }
        Outcome::Holds | Outcome::Witnessed | Outcome::Unknown(_) => {
            DiagnosticSeverity::INFORMATION
        }
    };
    (severity, report::editor_message(network, check, result))
}

/// The verdict of a check of an earlier version of the text, shown (marked)
/// until the current version's verdict arrives, so that typing does not make
/// verdicts vanish and come back.
#[derive(Debug, Clone, PartialEq)]
pub struct StaleVerdict {
    /// The check's name: the verdict moves to the check of the same name in
    /// the new text, and is dropped when there is none.
    pub check: String,
    /// The verdict's severity.
    pub severity: DiagnosticSeverity,
    /// The verdict's message.
    pub message: String,
}

/// The diagnostic code of a verdict of an earlier text (a current verdict's
/// is `check`).
pub const STALE_CHECK: &str = "stale-check";

/// Why a verdict shown is not the current text's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Staleness {
    /// A check job for the current text is pending or running.
    Rechecking,
    /// The current text does not lower to a model, so nothing is checked.
    ModelHasErrors,
    /// Checks run on save only, and the text changed since.
    UntilSaved,
}

impl Staleness {
    /// The words appended to the verdict's message.
    pub fn suffix(self) -> &'static str {
        match self {
            Staleness::Rechecking => " (re-checking…)",
            Staleness::ModelHasErrors => " (not re-checked: the model has errors)",
            Staleness::UntilSaved => " (not re-checked since the last edit: checks run on save)",
        }
    }
}

/// The last verdicts of a version's checks, to keep showing after an edit.
pub fn stale_verdicts(network: &ir::Network, results: &[CheckResult]) -> Vec<StaleVerdict> {
    network
        .checks
        .iter()
        .zip(results)
        .map(|(c, r)| {
            let (severity, message) = verdict_message(network, c, r);
            StaleVerdict {
                check: c.name.clone(),
                severity,
                message,
            }
        })
        .collect()
}

/// The diagnostic of a verdict of an earlier text on the check's name in the
/// current text (`name_span`). Only the check's own diagnostic is kept: the
/// trace's steps point into the old text.
pub fn stale_diagnostic(
    uri: &Uri,
    index: &LineIndex,
    name_span: Span,
    verdict: &StaleVerdict,
    why: Staleness,
) -> lsp::Diagnostic {
    lsp_diagnostic(
        uri,
        index,
        verdict.severity,
        // Its own code, so that clients reading verdicts (the VS Code
        // Testing view) can tell it from a verdict of the current text.
        Some(STALE_CHECK),
        range(index, name_span),
        format!("{}{}", verdict.message, why.suffix()),
        Vec::new(),
    )
}

/// The diagnostics of a finished check: one on its name and, for a violation,
/// a hint at the edge of every step pointing back to it.
pub fn check_diagnostics(
    uri: &Uri,
    index: &LineIndex,
    network: &ir::Network,
    check: usize,
    result: &CheckResult,
) -> Vec<lsp::Diagnostic> {
    let Some(c) = network.checks.get(check) else {
        return Vec::new();
    };
    let (sev, message) = verdict_message(network, c, result);
    let violated = sev == DiagnosticSeverity::ERROR;
    let mut related = Vec::new();
    let mut hints = Vec::new();
    if let Some(trace) = &result.trace {
        let n = trace.len();
        let loop_start = match trace.end {
            TraceEnd::Loop { start, .. } => Some(start),
            _ => None,
        };
        for (i, step) in trace.steps.iter().enumerate() {
            let Some(&(p, e)) = step.transition.edges.first() else {
                continue;
            };
            let Some(span) = edge_span(network, p, e) else {
                continue;
            };
            // A lasso's cycle: the steps after `loop_start`, repeated for ever.
            let cycle = if loop_start.is_some_and(|s| i >= s) {
                " (cycle)"
            } else {
                ""
            };
            let what = format!(
                "step {} of {n}{cycle}: {}",
                i + 1,
                describe_transition(network, &step.transition)
            );
            if violated {
                hints.push(lsp_diagnostic(
                    uri,
                    index,
                    DiagnosticSeverity::HINT,
                    Some("trace-step"),
                    range(index, span),
                    format!(
                        "{what} (trace of `{}`, after a delay of {})",
                        c.name,
                        network.time_scale.user_text(step.delay)
                    ),
                    vec![(c.name_span, format!("the check `{}`", c.name))],
                ));
            }
            related.push((span, what));
        }
        // A lasso: why it ends (back at the state the cycle starts from), at
        // the cycle's first edge. (Other traces say why they end in
        // `zeno/errorTrace`, the lenses and the pictures: one related
        // location per step keeps the Problems panel's list short.)
        if let Some(start) = loop_start
            && let Some(&(p, e)) = trace
                .steps
                .get(start)
                .and_then(|s| s.transition.edges.first())
            && let Some(span) = edge_span(network, p, e)
        {
            let ending = zeno_simulate::ending(network, c, trace);
            related.push((span, format!("then {}", ending.words_for(&c.name))));
        }
        if let TraceEnd::ModelError { transition, .. } = &trace.end
            && let Some(&(p, e)) = transition.edges.first()
            && let Some(span) = edge_span(network, p, e)
        {
            related.push((
                span,
                format!(
                    "the failing transition: {}",
                    describe_transition(network, transition)
                ),
            ));
        }
        if let TraceEnd::ModelError { error, .. } = &trace.end
            && let Some(site) = error.site
        {
            related.push((
                site.statement,
                format!(
                    "the failing statement: {}",
                    report::describe_error(network, error)
                ),
            ));
        }
    }
    let main = lsp_diagnostic(
        uri,
        index,
        sev,
        Some("check"),
        range(index, c.name_span),
        message,
        related,
    );
    std::iter::once(main).chain(hints).collect()
}

/// The answer of a `sup:`/`inf:` query as the editors show it on the
/// check's name (`sup: x <= 5, n = 3, 12 states explored`), or `None` for
/// another check or when no values came back (a limit or a model error:
/// the verdict says so).
pub fn bound_answer(
    text: &str,
    network: &ir::Network,
    check: usize,
    answer: &zeno_checker::bounds::BoundsResult,
) -> Option<String> {
    let c = network.checks.get(check)?;
    let ir::CheckKind::Bound(query) = &c.kind else {
        return None;
    };
    if answer.values.len() != query.terms.len() {
        return None;
    }
    let terms: Vec<String> = query
        .terms
        .iter()
        .map(|t| {
            text.get(t.span.start as usize..t.span.end as usize)
                .unwrap_or("?")
                .to_string()
        })
        .collect();
    Some(format!(
        "{}, {} states explored",
        report::bound_summary(query.extremum, &terms, &answer.values, network.time_scale),
        answer.result.stats.explored
    ))
}

/// Puts a value query's answer in its verdict diagnostic (the first of
/// [`check_diagnostics`]), as information.
pub fn show_answer(diagnostics: &mut [lsp::Diagnostic], answer: Option<&String>) {
    if let (Some(first), Some(answer)) = (diagnostics.first_mut(), answer) {
        first.message = answer.clone();
        first.severity = Some(DiagnosticSeverity::INFORMATION);
    }
}

/// Parameters of `zeno/errorTrace`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorTraceParams {
    /// The document.
    pub uri: Uri,
    /// The check's name.
    pub check: String,
}

/// The structured trace of one check: what every client view is built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorTrace {
    /// The check's name.
    pub check: String,
    /// `violated`, `holds`, `fails`, `modelError` (only checks with a trace have one).
    pub verdict: String,
    /// The initial state.
    pub initial: StateView,
    /// Each step: a delay, a transition and the state after it.
    pub steps: Vec<StepView>,
    /// How the trace ends.
    pub end: EndView,
    /// Why it ends, in the terms of the check.
    pub ending: report::Ending,
    /// The same in a sentence.
    pub why: String,
}

/// One step of a trace: its delay, its edges and the state after it.
pub type StepView = report::Step<EdgeView, StateView>;

/// One edge of a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EdgeView {
    /// The process taking it, as `Proc(1)`.
    pub process: String,
    /// The source location's name.
    pub source: String,
    /// The target location's name.
    pub target: String,
    /// Where the edge is written.
    pub range: Range,
    /// `select` bindings of the edge, as `name = value`.
    pub selects: Vec<String>,
}

/// A state of a trace: every process's location, every variable's value
/// and every real clock's, as text.
pub type StateView = report::State<NamedValue, NamedValue>;

/// How a trace ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum EndView {
    /// Wait `delay`, and the goal holds.
    Goal {
        /// The final delay, as an exact rational.
        delay: String,
    },
    /// Wait `delay`; then the transition `edges` fails with `error`.
    ModelError {
        /// The final delay, as an exact rational.
        delay: String,
        /// The failing transition's edges.
        edges: Vec<EdgeView>,
        /// The run-time error, worded as the report words it.
        error: String,
    },
    /// A lasso: wait `delay`; the state is back at the state after step
    /// `start` (0: the initial state), and the steps after it repeat.
    Loop {
        /// The final delay, as an exact rational.
        delay: String,
        /// The step whose state the lasso returns to.
        start: usize,
    },
    /// A maximal run that ends: wait `delay`; no action is ever possible.
    Deadlock {
        /// The final delay, as an exact rational.
        delay: String,
    },
    /// A maximal run that ends in letting time pass forever.
    TimeDiverges,
}

/// The edges of `t`, each placed by `range` (a span of the analysed text
/// to a range of the document).
pub(crate) fn edges_view(
    network: &ir::Network,
    range: &dyn Fn(Span) -> Range,
    t: &Transition,
) -> Vec<EdgeView> {
    t.edges
        .iter()
        .filter_map(|&(p, e)| {
            let (process, source, target) = edge_names(network, p, e)?;
            let edge = &network.processes[p as usize].edges[e as usize];
            Some(EdgeView {
                process: process.to_string(),
                source: source.to_string(),
                target: target.to_string(),
                range: range(edge.span),
                selects: edge
                    .selects
                    .iter()
                    .map(|(n, v)| format!("{n} = {v}"))
                    .collect(),
            })
        })
        .collect()
}

/// Each process with the name of its location in `locations` (its number
/// where the process has no such location).
pub(crate) fn location_values(network: &ir::Network, locations: &[ir::LocId]) -> Vec<NamedValue> {
    network
        .processes
        .iter()
        .zip(locations)
        .map(|(p, &l)| NamedValue {
            name: p.name.clone(),
            value: p
                .locations
                .get(l as usize)
                .map_or_else(|| l.to_string(), |loc| loc.name.clone()),
        })
        .collect()
}

fn state_view(network: &ir::Network, s: &ConcreteState) -> StateView {
    let locations = location_values(network, &s.locations);
    let variables = network
        .variables
        .iter()
        .zip(&s.variables)
        .map(|(v, &x)| NamedValue {
            name: v.name.clone(),
            value: if v.is_bool {
                (x != 0).to_string()
            } else {
                x.to_string()
            },
        })
        .collect();
    StateView {
        locations,
        variables,
        clocks: report::clock_values(network, &s.clocks),
    }
}

/// The structured trace of a finished check, if it has one.
pub fn error_trace(
    index: &LineIndex,
    network: &ir::Network,
    check: usize,
    result: &CheckResult,
) -> Option<ErrorTrace> {
    let c = network.checks.get(check)?;
    let trace = result.trace.as_ref()?;
    let verdict = match Outcome::of(c, result) {
        Outcome::Violated => "violated",
        Outcome::NoWitness => "fails",
        Outcome::Holds | Outcome::Witnessed => "holds",
        Outcome::ModelError(_) => "modelError",
        Outcome::Unknown(_) => "unknown",
    };
    let steps = trace
        .steps
        .iter()
        .map(|s| StepView {
            delay: network.time_scale.user_text(s.delay),
            edges: edges_view(network, &|span| range(index, span), &s.transition),
            after: state_view(network, &s.after),
        })
        .collect();
    let end = match &trace.end {
        TraceEnd::Goal { delay } => EndView::Goal {
            delay: network.time_scale.user_text(*delay),
        },
        TraceEnd::ModelError {
            delay,
            transition,
            error,
        } => EndView::ModelError {
            delay: network.time_scale.user_text(*delay),
            edges: edges_view(network, &|span| range(index, span), transition),
            error: report::describe_error(network, error),
        },
        TraceEnd::Loop { delay, start, .. } => EndView::Loop {
            delay: network.time_scale.user_text(*delay),
            start: *start,
        },
        TraceEnd::Deadlock { delay } => EndView::Deadlock {
            delay: network.time_scale.user_text(*delay),
        },
        TraceEnd::TimeDiverges => EndView::TimeDiverges,
    };
    let ending = zeno_simulate::ending(network, c, trace);
    Some(ErrorTrace {
        why: ending.words_for(&c.name),
        ending,
        check: c.name.clone(),
        verdict: verdict.to_string(),
        initial: state_view(network, &trace.initial),
        steps,
        end,
    })
}
