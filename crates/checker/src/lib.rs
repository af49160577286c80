//! The directed model checker: zone-graph exploration of an [`ir::Network`]
//! guided by search orders and distance heuristics.
//!
//! The CLI and the language server call [`check`]; nothing else here is needed
//! to decide a property.
#![warn(missing_docs)]

mod active;
mod alongside;
mod alu;
pub mod bounds;
mod choices;
mod concrete;
pub mod config;
pub mod dbm;
mod diagonal;
pub mod enhance;
mod frontier;
mod goal;
pub mod heuristics;
mod liveness;
mod local_time;
mod lu;
mod options;
mod outcome;
mod packed_key;
mod parallel;
pub mod portfolio;
mod restarts;
mod safe;
mod search;
pub mod semantics;
mod stop;
mod stopwatches;
mod store;
mod symmetry;
pub mod trace;
mod turns;
mod zone_graph;
mod zone_table;

pub use enhance::Enhance;
pub use frontier::{Frontier, MultiQueue, Queue, Ties};
pub use heuristics::Heuristic;
pub use heuristics::pdb::PdbOptions;
pub use parallel::distributed;
pub use parallel::{max_threads, runs_parallel, shares_heuristic, threads_used};

pub use options::{Cancel, HeuristicKind, Options, Reduce, SearchOrder, Subsume, no_progress};
pub use outcome::{
    Alongside, CheckResult, Limit, ParallelStats, SafeStats, Stats, SymmetryUse, Verdict,
};
pub(crate) use stop::Stop;
pub use trace::{ConcreteState, Step, Trace, TraceEnd, Transition, ZoneBound};

use std::time::Instant;

use zeno_ir as ir;

/// Decides the check `check` of `network`.
///
/// `progress` is called from the search loop every few thousand states with
/// the figures so far (for progress bars and `$/progress`).
/// The best-first orders use the heuristic `options.config.heuristic`; the blind
/// orders ignore it, except that useless transitions (`options.config.enhance`) use
/// it for their test with every order.
///
/// # Panics
/// When `check` is not a check of `network` (see [`ir::Network::check`]).
pub fn check(
    network: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    cancel: &Cancel,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    let mut result = timed(network, check, options, cancel, |task| {
        check_until(task, progress)
    });
    result.stats.threads = result.stats.threads.max(1);
    symmetry::explain(network, check, options, &mut result.stats);
    result
}

/// Answers a `sup:`/`inf:` query (`check` must be one): the values, with
/// the verdict `Holds` when they are exact (docs/checker.md, "Value
/// queries").
pub fn check_bounds(
    network: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    cancel: &Cancel,
    progress: &mut dyn FnMut(&Stats),
) -> bounds::BoundsResult {
    let started = Instant::now();
    let stop = Stop::new(cancel, options.timeout);
    let mut answer = bounds::run(
        Task {
            net: network,
            check,
            options,
            stop: &stop,
        },
        progress,
    );
    answer.result.stats.elapsed = started.elapsed();
    answer.result.stats.threads = 1;
    answer
}

/// What `decide` answers on the task of deciding `check` of `network`
/// under a stop condition of its own (`cancel` and `options.timeout`),
/// timed as a whole.
fn timed(
    network: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    cancel: &Cancel,
    decide: impl FnOnce(Task) -> CheckResult,
) -> CheckResult {
    let started = Instant::now();
    let stop = Stop::new(cancel, options.timeout);
    let capped;
    let options = if options.threads.max(options.fallback_threads) > parallel::max_threads() {
        capped = Options {
            threads: options.threads.min(parallel::max_threads()),
            fallback_threads: options.fallback_threads.min(parallel::max_threads()),
            ..options.clone()
        };
        &capped
    } else {
        options
    };
    let mut result = decide(Task {
        net: network,
        check,
        options,
        stop: &stop,
    });
    // The whole check: heuristic construction, search and trace.
    result.stats.elapsed = started.elapsed();
    result
}

/// A check being decided: what its phases hand on to each other (a phase
/// may hand on another network, a reduced one, or other options), with the
/// stop condition they all share.
#[derive(Clone, Copy)]
pub(crate) struct Task<'a> {
    pub net: &'a ir::Network,
    pub check: ir::CheckId,
    pub options: &'a Options,
    pub stop: &'a Stop<'a>,
}

/// [`check`] under a stop condition set up by the caller, so that every
/// phase (heuristic construction, the search, safe abstraction's rounds and
/// the concrete trace) shares one deadline.
pub(crate) fn check_until(task: Task, progress: &mut dyn FnMut(&Stats)) -> CheckResult {
    if task.options.reduce == Reduce::Por {
        return match local_time::run(task, progress) {
            local_time::Outcome::Decided(result) => *result,
            local_time::Outcome::NotApplied(reason) => {
                let plain = Options {
                    reduce: Reduce::None,
                    ..task.options.clone()
                };
                let mut result = check_until(
                    Task {
                        options: &plain,
                        ..task
                    },
                    progress,
                );
                result.stats.reduce_note = Some(format!("not reduced: {reason}"));
                result
            }
        };
    }
    if task.net.has_stopwatches() {
        return stopwatches::check(task, progress);
    }
    // Liveness checks have their own search; orders, heuristics and
    // enhancements are about reaching a state and do not apply.
    if task.net.check(task.check).kind.is_liveness() {
        return liveness::run(task, progress);
    }
    // A value query explores everything; its values come with
    // [`check_bounds`].
    if matches!(task.net.check(task.check).kind, ir::CheckKind::Bound(_)) {
        return bounds::run(task, progress).result;
    }
    if task.options.config.safe_abstraction {
        return safe::check(task, progress);
    }
    let plain_guided =
        task.options.config.search.is_guided() && task.options.config.enhance == Enhance::None;
    if task.options.take_turns && plain_guided {
        return alongside::run(task, progress);
    }
    if let Some(budget) = task.options.breadth_first_after
        && plain_guided
    {
        return best_first_then_breadth_first(task, budget, progress);
    }
    reach_until(task, progress)
}

/// [`Options::breadth_first_after`]: best-first search for at most `budget`
/// explored states (or the caller's own limit, if lower), then, without a
/// verdict, breadth-first search with what is left of the state limit (the
/// time limit is the check's, shared by both).
fn best_first_then_breadth_first(
    task: Task,
    budget: u64,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    let options = task.options;
    let own_limit_first = options.max_states.is_some_and(|m| m <= budget);
    let first = Options {
        max_states: Some(options.max_states.map_or(budget, |m| m.min(budget))),
        ..options.clone()
    };
    let guided = reach_until(
        Task {
            options: &first,
            ..task
        },
        progress,
    );
    if own_limit_first || guided.verdict != Verdict::Unknown(Limit::States) {
        return guided;
    }
    let explored = guided.stats.explored;
    let breadth_first = Options {
        config: config::Config::default(),
        max_states: options
            .max_states
            .map(|m| m.saturating_sub(explored).max(1)),
        threads: options.fallback_threads,
        breadth_first_after: None,
        ..options.clone()
    };
    let mut result = reach_until(
        Task {
            options: &breadth_first,
            ..task
        },
        progress,
    );
    result.stats.breadth_first_after = Some(explored);
    result
}

/// The reachability search of the `task`'s check on its network itself,
/// whatever `options.config.safe_abstraction` says: the search [`check_until`] runs, and
/// the one safe abstraction runs on its reduced networks.
pub(crate) fn reach_until(task: Task, progress: &mut dyn FnMut(&Stats)) -> CheckResult {
    // On the parallel searches, `None` means: the system refused the
    // threads (or the heuristic cannot be shared); search on this one.
    // Symmetry reduction is done by the sequential search only; where it
    // applies it saves far more than a second thread would.
    let parallel = runs_parallel(task.options) && !symmetry::applies(task);
    if parallel
        && task.options.config.search == SearchOrder::Bfs
        && let Some(result) = parallel::bfs(task, progress)
    {
        return result;
    }
    let guided = matches!(
        task.options.config.search,
        SearchOrder::Greedy | SearchOrder::AStar
    ) || task.options.config.enhance == Enhance::UselessTransitions;
    if guided && task.options.config.heuristic != HeuristicKind::Zero {
        let started = Instant::now();
        let goal = task.net.check(task.check).kind.goal();
        let built = heuristics::build_until(
            task.options.config.heuristic,
            task.net,
            &goal,
            &heuristics::EdgeSet::none(task.net),
            &task.options.pdb,
            &|| task.stop.requested(),
        );
        let Some(mut h) = built else {
            return stopped_before_search(task.stop, started);
        };
        if parallel && let Some(result) = parallel::best(task, Some(&*h), progress) {
            return result;
        }
        return search::run(task, Some(h.as_mut()), progress);
    }
    if parallel
        && guided
        && let Some(result) = parallel::best(task, None, progress)
    {
        return result;
    }
    search::run(task, None, progress)
}

/// The result of a run whose limit was reached while its heuristic was built.
fn stopped_before_search(stop: &Stop, started: Instant) -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(stop.reason().unwrap_or(Limit::Cancelled)),
        stats: Stats {
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        trace: None,
    }
}

/// [`check`] with a caller-supplied heuristic (used by `Greedy` and `AStar`;
/// `None` is the constant 0). `options.config.safe_abstraction` is ignored here: the
/// heuristic was built for `network`, not for a reduced one. Useless transitions build their reduced
/// heuristics of kind `options.config.heuristic`, whatever `heuristic` is.
pub fn check_with_heuristic(
    network: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    heuristic: Option<&mut dyn Heuristic>,
    cancel: &Cancel,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    let mut result = timed(network, check, options, cancel, |task| {
        search::run(task, heuristic, progress)
    });
    result.stats.threads = 1;
    result
}
