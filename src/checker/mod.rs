//! The directed model checker: zone-graph exploration of an [`ir::Network`]
//! guided by search orders and distance heuristics.
//!
//! The CLI and the language server call [`check`]; nothing else here is needed
//! to decide a property.

mod active;
mod choices;
mod concrete;
pub mod config;
pub mod dbm;
pub mod enhance;
mod frontier;
mod goal;
pub mod heuristics;
mod liveness;
mod lu;
mod options;
mod outcome;
mod parallel;
pub mod portfolio;
mod safe;
mod search;
pub(crate) mod semantics;
mod stop;
mod store;
pub mod trace;
mod zone_table;

pub use enhance::Enhance;
pub use frontier::{Frontier, MultiQueue, Queue, Ties};
pub use heuristics::Heuristic;
pub use heuristics::pdb::PdbOptions;
pub use parallel::{runs_parallel, shares_heuristic, threads_used};

pub use options::{Cancel, HeuristicKind, Options, SearchOrder};
pub use outcome::{CheckResult, Limit, SafeStats, Stats, Verdict};
pub(crate) use stop::Stop;
pub use trace::{ConcreteState, Step, Trace, TraceEnd, Transition, ZoneBound};

use std::time::Instant;

use crate::ir;

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
    let mut result = timed(options, cancel, |stop| {
        check_until(network, check, options, stop, progress)
    });
    result.stats.threads = result.stats.threads.max(1);
    result
}

/// What `decide` answers under a stop condition of its own (`cancel` and
/// `options.timeout`), timed as a whole.
fn timed(
    options: &Options,
    cancel: &Cancel,
    decide: impl FnOnce(&Stop) -> CheckResult,
) -> CheckResult {
    let started = Instant::now();
    let stop = Stop::new(cancel, options.timeout);
    let mut result = decide(&stop);
    // The whole check: heuristic construction, search and trace.
    result.stats.elapsed = started.elapsed();
    result
}

/// [`check`] under a stop condition set up by the caller, so that every
/// phase (heuristic construction, the search, safe abstraction's rounds and
/// the concrete trace) shares one deadline.
pub(crate) fn check_until(
    network: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    stop: &Stop,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    // Liveness checks have their own search; orders, heuristics and
    // enhancements are about reaching a state and do not apply.
    if network.check(check).kind.is_liveness() {
        return liveness::run(network, check, options, stop, progress);
    }
    if options.config.safe_abstraction {
        return safe::check(network, check, options, stop, progress);
    }
    if let Some(budget) = options.breadth_first_after
        && options.config.search.is_guided()
        && options.config.enhance == Enhance::None
    {
        return best_first_then_breadth_first(network, check, options, budget, stop, progress);
    }
    reach_until(network, check, options, stop, progress)
}

/// [`Options::breadth_first_after`]: best-first search for at most `budget`
/// explored states (or the caller's own limit, if lower), then, without a
/// verdict, breadth-first search with what is left of the state limit (the
/// time limit is the check's, shared by both).
fn best_first_then_breadth_first(
    network: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    budget: u64,
    stop: &Stop,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    let own_limit_first = options.max_states.is_some_and(|m| m <= budget);
    let first = Options {
        max_states: Some(options.max_states.map_or(budget, |m| m.min(budget))),
        ..options.clone()
    };
    let guided = reach_until(network, check, &first, stop, progress);
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
    let mut result = reach_until(network, check, &breadth_first, stop, progress);
    result.stats.breadth_first_after = Some(explored);
    result
}

/// The reachability search of `check` on `network` itself, whatever
/// `options.config.safe_abstraction` says: the search [`check_until`] runs, and
/// the one safe abstraction runs on its reduced networks.
pub(crate) fn reach_until(
    network: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    stop: &Stop,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    // On the parallel searches, `None` means: the system refused the
    // threads (or the heuristic cannot be shared); search on this one.
    let parallel = runs_parallel(options);
    if parallel
        && options.config.search == SearchOrder::Bfs
        && let Some(result) = parallel::bfs(network, check, options, stop, progress)
    {
        return result;
    }
    let guided = matches!(
        options.config.search,
        SearchOrder::Greedy | SearchOrder::AStar
    ) || options.config.enhance == Enhance::UselessTransitions;
    if guided && options.config.heuristic != HeuristicKind::Zero {
        let started = Instant::now();
        let goal = network.check(check).kind.goal();
        let built = heuristics::build_until(
            options.config.heuristic,
            network,
            &goal,
            &heuristics::EdgeSet::none(network),
            &options.pdb,
            &|| stop.requested(),
        );
        let Some(mut h) = built else {
            return stopped_before_search(stop, started);
        };
        if parallel
            && let Some(result) = parallel::best(network, check, options, Some(&*h), stop, progress)
        {
            return result;
        }
        return search::run(network, check, options, Some(h.as_mut()), stop, progress);
    }
    if parallel
        && guided
        && let Some(result) = parallel::best(network, check, options, None, stop, progress)
    {
        return result;
    }
    search::run(network, check, options, None, stop, progress)
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
    let mut result = timed(options, cancel, |stop| {
        search::run(network, check, options, heuristic, stop, progress)
    });
    result.stats.threads = 1;
    result
}
