//! Checks of stopwatch models (clocks stopped by `x' == 0`): the zone graph
//! over-approximates (`dbm/stopwatch.rs`), so a reachability search that
//! meets no goal proves the check, while a goal it meets stands only once
//! the trace to it is confirmed with exact delays (`concrete/stopwatch.rs`).
//! A trace that is not confirmed never becomes a verdict: the sequential
//! search passes a refuted goal by and goes on (another path may reach the
//! goal for real), and the check ends `unknown` when none is confirmed.
//! Liveness checks whose formulas are discrete run the liveness search on
//! the over-approximation (`liveness.rs` says which answers stand);
//! those with clock constraints or `deadlock` in their formulas are not
//! decided, nor `deadlock` beside diagonal clock constraints.

use super::goal::{self, Goal};
use super::semantics::Model;
use super::{
    CheckResult, HeuristicKind, Limit, Options, Stats, Stop, Task, Verdict, concrete, reach_until,
};
use zeno_ir::{EdgeId, ProcId};

/// The goals a search met and passed by because the exact delays of their
/// paths refute them.
#[derive(Debug, Default)]
pub(super) struct Refutations {
    count: u64,
}

impl Refutations {
    /// Whether the goal met at the end of `path` is refuted (only ever on
    /// a stopwatch model): no concrete run follows the path into the goal.
    /// Not when the stop condition ended the attempt: the search then stops.
    pub(super) fn refuted(
        &mut self,
        model: &Model,
        goal: &Goal,
        path: &[Vec<(ProcId, EdgeId)>],
        stop: &Stop,
    ) -> bool {
        let refuted = model.has_stopwatches()
            && concrete::goal_trace(model, goal, path, stop).is_none()
            && !stop.requested();
        self.count += refuted as u64;
        refuted
    }

    /// The verdict of a search that met no confirmed goal: `unknown` when
    /// it passed refuted ones by (the zone graph over-approximates, so a
    /// state it merged into another may still reach the goal), else
    /// `none`, the verdict of meeting no goal at all.
    pub(super) fn verdict(&self, none: Verdict) -> Verdict {
        if self.count > 0 {
            Verdict::Unknown(Limit::Unconfirmed)
        } else {
            none
        }
    }
}

/// Whether a guard or an invariant compares two clocks (`x - y < 3`).
pub(super) fn has_diagonal(net: &zeno_ir::Network) -> bool {
    let diagonal = |cs: &[zeno_ir::ClockConstraint]| cs.iter().any(|c| c.i != 0 && c.j != 0);
    net.processes.iter().any(|p| {
        p.locations.iter().any(|l| diagonal(&l.invariant))
            || p.edges.iter().any(|e| diagonal(&e.clock_guard))
    })
}

/// Decides the task's check of a network with stopwatches.
pub(super) fn check(task: Task, progress: &mut dyn FnMut(&Stats)) -> CheckResult {
    let kind = &task.net.check(task.check).kind;
    // Deadlocks are found by letting time pass backwards from the guards
    // (`Dbm::down_with_rates`), exact only where guards and invariants
    // bound single clocks: beside a diagonal constraint it could miss one.
    let deadlock_beside_diagonal = kind.goal().mentions_deadlock() && has_diagonal(task.net);
    // A liveness search ends a run in a deadlock it finds the same way,
    // and its timed formulas' pieces (`liveness/timed.rs`) know no rates.
    let liveness_undecided =
        kind.is_liveness() && (goal::is_symbolic(&kind.goal()) || has_diagonal(task.net));
    if kind.is_liveness() && !liveness_undecided {
        return super::liveness::run(task, progress);
    }
    if liveness_undecided || deadlock_beside_diagonal {
        return CheckResult {
            verdict: Verdict::Unknown(Limit::Stopwatches),
            stats: Stats::default(),
            trace: None,
        };
    }
    // Safe abstraction's reduced networks and the pattern database's
    // pruning reason about zones with every clock running; the search
    // itself (any order, the other heuristics, which only guide) is
    // sound with the rates. The sequential search, which goes on past a
    // refuted goal, runs rather than the parallel ones, which stop there.
    let mut config = task.options.config;
    config.safe_abstraction = false;
    if config.heuristic == HeuristicKind::Pdb {
        config.heuristic = HeuristicKind::HU;
    }
    let options = Options {
        config,
        threads: 1,
        fallback_threads: 1,
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
