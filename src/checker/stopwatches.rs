//! Checks of stopwatch models (clocks stopped by `x' == 0`): the zone graph
//! over-approximates (`dbm/stopwatch.rs`), so a reachability search that
//! meets no goal proves the check, while a goal it meets stands only once
//! the trace to it is confirmed with exact delays (`concrete/stopwatch.rs`).
//! A trace that is not confirmed never becomes a verdict: the check ends
//! `unknown`. Liveness checks are not decided on such models.

use super::{CheckResult, HeuristicKind, Limit, Options, Stats, Task, Verdict, reach_until};

/// Decides the task's check of a network with stopwatches.
pub(super) fn check(task: Task, progress: &mut dyn FnMut(&Stats)) -> CheckResult {
    let kind = &task.net.check(task.check).kind;
    if kind.is_liveness() {
        return CheckResult {
            verdict: Verdict::Unknown(Limit::StopwatchLiveness),
            stats: Stats::default(),
            trace: None,
        };
    }
    // Safe abstraction's reduced networks and the pattern database's
    // pruning reason about zones with every clock running; the search
    // itself (any order, the other heuristics, which only guide) is
    // sound with the rates.
    let mut config = task.options.config;
    config.safe_abstraction = false;
    if config.heuristic == HeuristicKind::Pdb {
        config.heuristic = HeuristicKind::HU;
    }
    let options = Options {
        config,
        ..task.options.clone()
    };
    let mut result = reach_until(
        Task {
            options: &options,
            ..task
        },
        progress,
    );
    let (found, _) = Verdict::of_reachability(kind);
    let met_goal = result.verdict == found || matches!(result.verdict, Verdict::ModelError(_));
    if met_goal && result.trace.is_none() {
        result.verdict = Verdict::Unknown(task.stop.reason().unwrap_or(Limit::Unconfirmed));
        result.stats.trace_limit = None;
    }
    result
}
