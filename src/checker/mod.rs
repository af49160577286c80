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
pub use parallel::{runs_parallel, threads_used};

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
    let started = Instant::now();
    let stop = Stop::new(cancel, options.timeout);
    let mut result = check_until(network, check, options, &stop, progress);
    // The whole check: heuristic construction, search and trace.
    result.stats.elapsed = started.elapsed();
    result.stats.threads = result.stats.threads.max(1);
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
    reach_until(network, check, options, stop, progress)
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
    if runs_parallel(options) {
        // `None`: the system refused the threads; search on this one.
        if let Some(result) = parallel::bfs(network, check, options, stop, progress) {
            return result;
        }
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
        return search::run(network, check, options, Some(h.as_mut()), stop, progress);
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
    let started = Instant::now();
    let stop = Stop::new(cancel, options.timeout);
    let mut result = search::run(network, check, options, heuristic, &stop, progress);
    result.stats.elapsed = started.elapsed();
    result.stats.threads = 1;
    result
}
