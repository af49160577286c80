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
pub mod portfolio;
mod safe;
mod search;
pub(crate) mod semantics;
mod store;
pub mod trace;
mod zone_table;

pub use enhance::Enhance;
pub use frontier::{Frontier, MultiQueue, Queue, Ties};
pub use heuristics::Heuristic;
pub use heuristics::pdb::PdbOptions;

use std::sync::Arc;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::ir::{self, EvalError};
pub use trace::{ConcreteState, Step, Trace, TraceEnd, Transition, ZoneBound};

/// Order in which the frontier is explored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchOrder {
    Bfs,
    Dfs,
    /// Depth-first with successors shuffled by a seeded generator (reproducible).
    RandomDfs,
    /// Greedy best-first on h.
    Greedy,
    /// A* on g + h.
    AStar,
}

/// Distance heuristic guiding `Greedy` and `AStar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    Zero,
    DL,
    DU,
    HL,
    HU,
    /// The causal graph heuristic (thesis chapter 5); neither admissible nor
    /// complete.
    HCG,
    /// A pattern database (Wehrle and Kupferschmid 2016): consistent, and
    /// prunes states that provably reach neither the goal nor a model error.
    Pdb,
}

#[derive(Debug, Clone)]
pub struct Options {
    pub search: SearchOrder,
    pub heuristic: HeuristicKind,
    /// Stop with `Verdict::Unknown(Limit::States)` after exploring this many states.
    pub max_states: Option<u64>,
    pub timeout: Option<Duration>,
    /// Seed for `RandomDfs`.
    pub seed: u64,
    /// Cache heuristic values per discrete state.
    pub cache_heuristic: bool,
    /// Transition-based ordering of the frontier (thesis chapters 3 and 4).
    /// Useless transitions use `heuristic` for their test, with every order.
    pub enhance: Enhance,
    /// Safe abstraction (thesis §5.3): search the network without its safe
    /// components, then insert their moves into the trace. Combines with any
    /// order, heuristic and `enhance`.
    pub safe_abstraction: bool,
    /// Budgets of the pattern database (`HeuristicKind::Pdb`).
    pub pdb: PdbOptions,
    /// How the best-first orders (greedy, A*) break ties between states of
    /// equal priority; the blind orders ignore it.
    pub ties: Ties,
    /// Liveness checks count only non-Zeno infinite runs (those whose time
    /// diverges); reachability checks ignore it.
    pub non_zeno: bool,
    /// Active-clock reduction (`active.rs`) in reachability searches: free
    /// the clocks every future resets before reading, and store only the
    /// active clocks' entries of a zone. Off only to compare.
    pub active_clocks: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            search: SearchOrder::Bfs,
            heuristic: HeuristicKind::Zero,
            max_states: None,
            timeout: None,
            seed: 0,
            cache_heuristic: true,
            enhance: Enhance::None,
            safe_abstraction: false,
            pdb: PdbOptions::default(),
            ties: Ties::Fifo,
            non_zeno: false,
            active_clocks: true,
        }
    }
}

/// A flag the search polls; set it from another thread (Ctrl-C, a newer edit
/// in the editor) to stop the search promptly.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// When a run must stop: its cancel flag is set or its time limit is up.
/// The deadline is fixed when [`check`] starts, so building the heuristic
/// (pattern selection, the reduced networks of useless transitions) counts
/// against the time limit and polls the same flag as the search loop.
#[derive(Debug, Clone)]
pub(crate) struct Stop<'a> {
    cancel: &'a Cancel,
    deadline: Option<Instant>,
    /// Set when a table could not grow within the memory budget.
    memory_refused: std::cell::Cell<bool>,
}

impl<'a> Stop<'a> {
    pub(crate) fn new(cancel: &'a Cancel, timeout: Option<Duration>) -> Stop<'a> {
        Stop {
            cancel,
            // A timeout too large to add is no limit.
            deadline: timeout.and_then(|t| Instant::now().checked_add(t)),
            memory_refused: std::cell::Cell::new(false),
        }
    }

    /// Records that a table could not grow within the memory budget: from
    /// now on the run must stop, with [`Limit::Memory`].
    pub(crate) fn memory_refused(&self) {
        self.memory_refused.set(true);
    }

    /// Why the run must stop now, if it must: one atomic load, plus a clock
    /// read when there is a time limit.
    pub(crate) fn reason(&self) -> Option<Limit> {
        if self.cancel.is_cancelled() {
            Some(Limit::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Time)
        } else if self.memory_refused.get() || crate::memory::over_budget() {
            Some(Limit::Memory)
        } else {
            None
        }
    }

    pub(crate) fn requested(&self) -> bool {
        self.reason().is_some()
    }
}

/// Why a search stopped before a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    States,
    Time,
    Cancelled,
    /// The heap reached the memory budget (`crate::memory`).
    Memory,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// `A[] phi` holds, or `E<> phi` has a witness (the trace).
    Holds,
    /// `A[] phi` is violated (the trace is the counterexample), or `E<> phi` has no witness.
    Fails,
    /// A run-time error of the model is reachable (the trace leads to it).
    ModelError(EvalError),
    /// Stopped before a verdict.
    Unknown(Limit),
}

/// The figures every run reports (the columns of the papers' tables).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// States taken from the frontier and expanded.
    pub explored: u64,
    /// Successors computed (before inclusion checks).
    pub generated: u64,
    /// States in the store at the end.
    pub stored: u64,
    pub elapsed: Duration,
    /// Peak bytes used by the state store and frontier.
    pub peak_memory: u64,
    /// Bytes per stored state (discrete part + zone + bookkeeping).
    pub bytes_per_state: u64,
    /// Explored states taken from a queue other than the first (with useless
    /// transitions: the deferred states, the thesis' #d numerator).
    pub deferred_explored: u64,
    /// Generated states dropped because the heuristic proved that they reach
    /// neither the goal nor a model error (pattern databases only).
    pub pruned: u64,
    /// Pushes and pops per frontier queue (one queue without an enhancement;
    /// with interference contexts, queue `n` holds level-`n` successors).
    pub queue_pushes: Vec<u64>,
    pub queue_pops: Vec<u64>,
    /// With safe abstraction: what was removed and how the trace was built.
    pub safe: Option<SafeStats>,
    /// The limit that stopped building the concrete trace of a verdict
    /// that has one (a violation, a witness, a model error): the verdict
    /// stands, the trace is missing.
    pub trace_limit: Option<Limit>,
}

/// The figures of safe abstraction (thesis Table 5.3: #s and `x + y`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SafeStats {
    /// Components (slots and processes) removed: the thesis' #s.
    pub removed: u64,
    /// Steps of the reduced network's trace (`x`), when there is a trace.
    pub abstract_steps: Option<u64>,
    /// Moves of removed components inserted into it (`y`).
    pub inserted_steps: Option<u64>,
    /// The reduced network's trace could not be completed and the original
    /// network was searched instead (the figures add up both searches).
    pub fell_back: bool,
}

impl Stats {
    /// The thesis' #d: deferred states explored over states explored.
    pub fn deferred_ratio(&self) -> f64 {
        if self.explored == 0 {
            0.0
        } else {
            self.deferred_explored as f64 / self.explored as f64
        }
    }
}

#[derive(Debug, Clone)]
pub struct CheckResult {
    pub verdict: Verdict,
    pub stats: Stats,
    /// The counterexample or witness, when there is one.
    pub trace: Option<Trace>,
}

/// Decides the check `check` of `network`.
///
/// `progress` is called from the search loop every few thousand states with
/// the figures so far (for progress bars and `$/progress`).
/// The best-first orders use the heuristic `options.heuristic`; the blind
/// orders ignore it, except that useless transitions (`options.enhance`) use
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
    if options.safe_abstraction {
        return safe::check(network, check, options, stop, progress);
    }
    let guided = matches!(options.search, SearchOrder::Greedy | SearchOrder::AStar)
        || options.enhance == Enhance::UselessTransitions;
    if guided && options.heuristic != HeuristicKind::Zero {
        let started = Instant::now();
        let goal = network.check(check).kind.goal();
        let built = heuristics::build_until(
            options.heuristic,
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
/// `None` is the constant 0). `options.safe_abstraction` is ignored here: the
/// heuristic was built for `network`, not for a reduced one. Useless transitions build their reduced
/// heuristics of kind `options.heuristic`, whatever `heuristic` is.
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
    result
}
