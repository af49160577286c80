//! Code lenses over checks and trace edges, and the trace-stepping commands.
//!
//! Commands (`workspace/executeCommand`, one argument `{ uri, check? }`):
//! - `zeno.trace.show`: start at step 1 of the check's trace;
//! - `zeno.trace.next` / `zeno.trace.prev`: move one step (staying in range).
//!
//! Each returns a [`StepReport`]: the step's edges, delay and the state after
//! it, so any LSP client can show where the trace is.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower_lsp_server::ls_types::{
    CodeLens, Command, InlayHint, InlayHintKind, InlayHintLabel, Range, Uri,
};

use super::line_index::LineIndex;
use super::results::{self, StepView};
use zeno_checker::{CheckResult, Trace, TraceEnd, Verdict};
use zeno_ir as ir;
use zeno_report::EndingKind;

/// Command: show a check's trace from its first step.
pub const SHOW: &str = "zeno.trace.show";
/// Command: the next step of the trace shown.
pub const NEXT: &str = "zeno.trace.next";
/// Command: the previous step of the trace shown.
pub const PREV: &str = "zeno.trace.prev";
/// Every trace command the server executes.
pub const COMMANDS: [&str; 3] = [SHOW, NEXT, PREV];

/// The argument of the trace commands.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TraceArgs {
    /// The document.
    pub uri: Uri,
    /// The check whose trace to show; the current one when absent.
    #[serde(default)]
    pub check: Option<String>,
}

/// Where stepping through a trace is: a check and a step (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The check's index in the network.
    pub check: usize,
    /// The step shown (1-based).
    pub step: usize,
}

/// What a trace command shows: one step of a check's trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepReport {
    /// The check's name.
    pub check: String,
    /// 1-based.
    pub step: usize,
    /// The number of steps in the trace.
    pub total: usize,
    /// The step's delay, edges and the state after it, as
    /// `zeno/errorTrace` writes them (their fields, not nested).
    #[serde(flatten)]
    pub shown: StepView,
    /// The step belongs to the cycle of a lasso (a liveness check's trace):
    /// the steps after `loopStart` repeat for ever.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_start: Option<usize>,
}

/// A short status of a check for its lens.
fn status(network: &ir::Network, check: usize, result: Option<&CheckResult>) -> String {
    let invariant = network
        .checks
        .get(check)
        .is_some_and(|c| c.kind.is_universal());
    let Some(r) = result else {
        return "not checked yet".to_string();
    };
    let steps = zeno_report::steps(r.trace.as_ref().map_or(0, |t| t.len()));
    // How a liveness check's run goes on (", looping back to step 2"); a
    // deadlock that a check about deadlocks found, and whether time stops
    // there too (", ending in a timelock").
    let end = r.trace.as_ref().map_or(String::new(), |t| {
        let run = zeno_report::run_end(&t.end);
        let ending = network
            .checks
            .get(check)
            .map(|c| zeno_simulate::ending(network, c, t));
        match ending.map(|e| (e.kind, e.label())) {
            Some((EndingKind::Deadlock | EndingKind::Timelock, label)) if run.is_empty() => {
                format!(", ending in a {label}")
            }
            _ => run,
        }
    });
    match &r.verdict {
        Verdict::Holds if invariant => "✓ holds".to_string(),
        Verdict::Holds => format!("✓ holds — witness of {steps}{end}"),
        Verdict::Fails if invariant => format!("✗ violated — trace of {steps}{end}"),
        Verdict::Fails => "✗ fails".to_string(),
        Verdict::ModelError(_) => format!("✗ model error — trace of {steps}"),
        Verdict::Unknown(_) => "? unknown".to_string(),
    }
}

fn command(title: impl Into<String>, name: &str, args: Value) -> Command {
    Command {
        title: title.into(),
        command: name.to_string(),
        arguments: Some(vec![args]),
    }
}

/// Lenses over every check (its status, "Show trace", "Step through") and
/// over every edge of the trace being stepped through (its step numbers).
pub fn code_lenses(
    uri: &Uri,
    index: &LineIndex,
    network: &ir::Network,
    results_: &[CheckResult],
    running: bool,
    cursor: Option<&Cursor>,
) -> Vec<CodeLens> {
    let mut lenses = Vec::new();
    for (i, c) in network.checks.iter().enumerate() {
        let range = results::range(index, c.name_span);
        let result = results_.get(i);
        let title = match result {
            None if running => "checking…".to_string(),
            _ => status(network, i, result),
        };
        let args = json!({"uri": uri, "check": c.name});
        lenses.push(CodeLens {
            range,
            command: Some(command(title, "", Value::Null)),
            data: None,
        });
        if result.is_some_and(|r| r.trace.is_some()) {
            lenses.push(CodeLens {
                range,
                command: Some(command("Show trace", SHOW, args.clone())),
                data: None,
            });
            lenses.push(CodeLens {
                range,
                command: Some(command("Step through", NEXT, args)),
                data: None,
            });
        }
    }
    if let Some(cursor) = cursor
        && let Some(trace) = results_.get(cursor.check).and_then(|r| r.trace.as_ref())
    {
        // Step numbers per edge, in order of first use.
        let mut per_edge: Vec<(ir::Span, Vec<usize>)> = Vec::new();
        for (n, step) in trace.steps.iter().enumerate() {
            for &(p, e) in &step.transition.edges {
                let Some(edge) = network
                    .processes
                    .get(p as usize)
                    .and_then(|p| p.edges.get(e as usize))
                else {
                    continue;
                };
                match per_edge.iter_mut().find(|(s, _)| *s == edge.span) {
                    Some((_, steps)) if steps.last() != Some(&(n + 1)) => steps.push(n + 1),
                    Some(_) => {}
                    None => per_edge.push((edge.span, vec![n + 1])),
                }
            }
        }
        let start = loop_start(trace);
        let ending = network
            .checks
            .get(cursor.check)
            .map(|c| zeno_simulate::ending(network, c, trace));
        for (span, steps) in per_edge {
            // A step of a lasso's cycle is marked `↻`.
            let list: Vec<String> = steps
                .iter()
                .map(|&n| match start {
                    Some(s) if n > s => format!("{n}↻"),
                    _ => n.to_string(),
                })
                .collect();
            let word = if steps.len() == 1 { "step" } else { "steps" };
            // The edge of the last step also says how the trace ends there.
            let end = match &ending {
                Some(e) if steps.last() == Some(&trace.len()) => format!(" · {}", e.label()),
                _ => String::new(),
            };
            lenses.push(CodeLens {
                range: results::range(index, span),
                command: Some(command(
                    format!("{word} {}{end}", list.join(", ")),
                    "",
                    Value::Null,
                )),
                data: None,
            });
        }
    }
    lenses
}

/// The report for step `cursor.step` of a check's trace.
pub fn step_report(
    index: &LineIndex,
    network: &ir::Network,
    result: &CheckResult,
    cursor: &Cursor,
) -> Option<StepReport> {
    let loop_start = result
        .trace
        .as_ref()
        .and_then(loop_start)
        .filter(|&s| cursor.step > s);
    let trace = results::error_trace(index, network, cursor.check, result)?;
    let total = trace.steps.len();
    let step = trace.steps.into_iter().nth(cursor.step.checked_sub(1)?)?;
    Some(StepReport {
        check: trace.check,
        step: cursor.step,
        total,
        shown: step,
        loop_start,
    })
}

/// The state a lasso's cycle returns to (the steps after it repeat).
pub fn loop_start(trace: &Trace) -> Option<usize> {
    match trace.end {
        TraceEnd::Loop { start, .. } => Some(start),
        _ => None,
    }
}

/// The step "next" goes to from `current` (1-based) in a trace of `total`
/// steps: the following one, staying on the last; after the last step of a
/// lasso, round its cycle again (the step after the state it returns to).
pub fn next_step(trace: &Trace, current: Option<usize>, total: usize) -> usize {
    match (current, loop_start(trace)) {
        (Some(s), Some(start)) if s >= total && start < total => start + 1,
        (Some(s), _) => s.saturating_add(1).min(total),
        (None, _) => 1,
    }
}

/// While stepping through a trace: a hint after the edge of the current step
/// with the values of the variables and clocks after it.
pub fn inlay_hints(
    index: &LineIndex,
    network: &ir::Network,
    result: &CheckResult,
    cursor: &Cursor,
    visible: Range,
) -> Vec<InlayHint> {
    let Some(report) = step_report(index, network, result, cursor) else {
        return Vec::new();
    };
    let Some(edge) = report.shown.edges.first() else {
        return Vec::new();
    };
    let at = edge.range.end;
    if at < visible.start || at > visible.end {
        return Vec::new();
    }
    let values: Vec<String> = report
        .shown
        .after
        .variables
        .iter()
        .chain(&report.shown.after.clocks)
        .map(|v| v.to_string())
        .collect();
    vec![InlayHint {
        position: at,
        label: InlayHintLabel::String(format!(
            "step {} of {}: {}",
            report.step,
            report.total,
            values.join(", ")
        )),
        kind: Some(InlayHintKind::PARAMETER),
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }]
}
