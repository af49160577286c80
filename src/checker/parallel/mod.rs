//! Parallel exploration on one machine (breadth-first search in `bfs.rs`,
//! greedy and A* in `best.rs`): the passed/waiting store is split
//! into shards by the hash of a state's discrete part, so every inclusion
//! check stays inside one shard (all zones of a discrete part live there),
//! as distributed UPPAAL partitions its state space between machines.
//!
//! Only the algorithms live here; the transition system is `semantics.rs`
//! and each shard is an ordinary [`Store`](super::store::Store), as in the
//! sequential search.

mod best;
mod bfs;

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rustc_hash::FxHasher;

use super::{Cancel, Enhance, HeuristicKind, Limit, Options, SearchOrder, Stop};

pub(crate) use best::run as best;
pub(crate) use bfs::run as bfs;

/// Shards per thread: more shards than threads lets the insertion phase
/// balance the work when the discrete parts hash unevenly.
const SHARDS_PER_THREAD: usize = 4;

/// Whether `options` select a search that runs in parallel: `threads > 1`
/// with no frontier enhancement (with safe abstraction, its searches of the
/// reduced networks), and breadth-first search, or greedy or A* search with
/// a heuristic that threads can share ([`shares_heuristic`]). Depth-first
/// orders (their order is inherently sequential), the best-first orders
/// with hL, hU or hcg, the frontier enhancements and liveness checks run
/// on one thread whatever `threads` says.
pub fn runs_parallel(options: &Options) -> bool {
    options.threads > 1
        && options.config.enhance == Enhance::None
        && match options.config.search {
            SearchOrder::Bfs => true,
            SearchOrder::Greedy | SearchOrder::AStar => shares_heuristic(options.config.heuristic),
            SearchOrder::Dfs | SearchOrder::RandomDfs => false,
        }
}

/// Whether the heuristic `kind` is built once and shared read-only by the
/// threads of a parallel greedy or A* search (`Heuristic::shared`): dL, dU
/// and the pattern database only read their tables. hL, hU and hcg keep
/// scratch state and memos that every estimate writes, so with them the
/// best-first orders run sequentially.
pub fn shares_heuristic(kind: HeuristicKind) -> bool {
    match kind {
        HeuristicKind::Zero | HeuristicKind::DL | HeuristicKind::DU | HeuristicKind::Pdb => true,
        HeuristicKind::HL | HeuristicKind::HU | HeuristicKind::HCG => false,
    }
}

/// The threads a reachability search with `options` uses (liveness checks
/// always use one).
pub fn threads_used(options: &Options) -> usize {
    if runs_parallel(options) {
        options.threads
    } else {
        1
    }
}

/// The stop conditions of [`Stop`] in a form the workers can share: the
/// sequential one records a memory refusal in a `Cell`.
pub(super) struct SharedStop<'a> {
    cancel: &'a Cancel,
    deadline: Option<Instant>,
    memory_refused: AtomicBool,
}

impl<'a> SharedStop<'a> {
    pub(super) fn new(stop: &Stop<'a>) -> SharedStop<'a> {
        SharedStop {
            cancel: stop.cancel,
            deadline: stop.deadline,
            memory_refused: AtomicBool::new(stop.memory_refused.get()),
        }
    }

    pub(super) fn memory_refused(&self) {
        self.memory_refused.store(true, Ordering::Relaxed);
    }

    /// Why the search must stop now, if it must (as [`Stop::reason`]).
    pub(super) fn reason(&self) -> Option<Limit> {
        if self.cancel.is_cancelled() {
            Some(Limit::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Time)
        } else if self.memory_refused.load(Ordering::Relaxed) || crate::memory::over_budget() {
            Some(Limit::Memory)
        } else {
            None
        }
    }

    /// Hands a memory refusal back to the caller's stop condition, so that
    /// the phases after the search (the concrete trace) see it.
    pub(super) fn report_to(&self, stop: &Stop) {
        if self.memory_refused.load(Ordering::Relaxed) {
            stop.memory_refused();
        }
    }
}

/// A state of a sharded store: its shard and its id there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Gid {
    pub shard: u32,
    pub id: u32,
}

/// The number of shards for `threads` threads.
pub(super) fn shard_count(threads: usize) -> usize {
    threads.max(1).saturating_mul(SHARDS_PER_THREAD)
}

/// The shard owning the discrete part `key`.
pub(super) fn owner(key: &[i32], shards: usize) -> usize {
    let mut h = FxHasher::default();
    key.hash(&mut h);
    // The stores hash with the same function and index their tables with
    // the low bits; the shard is taken from the high half so that the keys
    // of one shard still spread over its table.
    ((h.finish() >> 32) % shards as u64) as usize
}

/// A pool of `threads` workers, or `None` when the system refuses threads
/// (the caller then searches sequentially and reports one thread).
///
/// Under an address-space or data-segment limit (`ulimit -v`, `ulimit -d`)
/// each worker's allocator arena would reserve address space that the
/// memory budget does not count (64 MiB with glibc); the `zeno` binary
/// therefore makes all threads share one arena under such a limit
/// (`memory::share_one_arena_under_address_limits`).
pub(super) fn pool(threads: usize) -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("zeno-search-{i}"))
        .build()
        .ok()
}

/// The transitions from the initial state to `g`, following the parents
/// across shards.
/// The stores' size in bytes, measured again once the search has explored
/// [`SampledBytes::EVERY`] more states. Measuring walks every discrete part
/// of every store: measured at every level, a deep and narrow state space
/// (a counter to 10,000, a hundred states a level) made the search
/// quadratic, and ten times slower on two threads than on one. The final
/// figures measure once more (`finish`).
#[derive(Debug, Default)]
struct SampledBytes {
    bytes: u64,
    /// Explored states at which to measure again.
    next: u64,
}

impl SampledBytes {
    /// As often as the sequential search polls its store.
    const EVERY: u64 = 1024;

    fn due(&self, explored: u64) -> bool {
        explored >= self.next
    }

    fn set(&mut self, bytes: u64, explored: u64) {
        self.bytes = bytes;
        self.next = explored + Self::EVERY;
    }
}

/// What a parallel search found: a goal state, or a model error raised
/// by a transition from a state (`None`: the initial state itself).
enum Found {
    Goal(Gid),
    Error(
        Option<Gid>,
        Vec<(crate::ir::ProcId, crate::ir::EdgeId)>,
        crate::ir::EvalError,
    ),
}

/// A parallel search's answer from what it `found` (or the limit that
/// stopped it): the verdict for a goal (`verdicts.0`) or for none
/// (`verdicts.1`), and for a goal or a model error the concrete trace along
/// the parents across the shards.
fn answer(
    found: Result<Option<Found>, super::Limit>,
    shards: &[bfs::Shard],
    model: &super::semantics::Model,
    goal: &super::goal::Goal,
    stop: &Stop,
    (found_verdict, none_verdict): (super::Verdict, super::Verdict),
    mut stats: super::Stats,
) -> super::CheckResult {
    use super::{CheckResult, Verdict, concrete};
    let stores: Vec<&super::store::Store> = shards.iter().map(|s| &s.store).collect();
    let parents: Vec<&[Option<Gid>]> = shards.iter().map(|s| &s.parents[..]).collect();
    // `wanted`: the verdict has a trace, which a limit may stop building.
    let (verdict, wanted) = match found {
        Err(limit) => (Verdict::Unknown(limit), None),
        Ok(None) => (none_verdict, None),
        Ok(Some(Found::Goal(g))) => {
            let path = path_to(&stores, &parents, g);
            let trace = concrete::goal_trace(model, goal, &path, stop);
            (found_verdict, Some(trace))
        }
        Ok(Some(Found::Error(at, edges, error))) => {
            let path = at.map_or_else(Vec::new, |g| path_to(&stores, &parents, g));
            let trace = concrete::error_trace(model, &path, &edges, error, stop);
            (Verdict::ModelError(error), Some(trace))
        }
    };
    if let Some(None) = wanted {
        stats.trace_limit = stop.reason();
    }
    let trace = wanted.flatten();
    CheckResult {
        verdict,
        stats,
        trace,
    }
}

fn path_to(
    stores: &[&super::store::Store],
    parents: &[&[Option<Gid>]],
    mut g: Gid,
) -> Vec<Vec<(crate::ir::ProcId, crate::ir::EdgeId)>> {
    let mut path = Vec::new();
    while let Some(p) = parents[g.shard as usize][g.id as usize] {
        path.push(stores[g.shard as usize].transition(g.id).to_vec());
        g = p;
    }
    path.reverse();
    path
}
