//! Parallel exploration on one machine: the passed/waiting store is split
//! into shards by the hash of a state's discrete part, so every inclusion
//! check stays inside one shard (all zones of a discrete part live there),
//! as distributed UPPAAL partitions its state space between machines.
//!
//! Only the algorithms live here; the transition system is `semantics.rs`
//! and each shard is an ordinary [`Store`](super::store::Store), as in the
//! sequential search.

mod bfs;

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rustc_hash::FxHasher;

use super::{Cancel, Enhance, Limit, Options, SearchOrder, Stop};

pub(crate) use bfs::run as bfs;

/// Shards per thread: more shards than threads lets the insertion phase
/// balance the work when the discrete parts hash unevenly.
const SHARDS_PER_THREAD: usize = 4;

/// Whether `options` select a search that runs in parallel: `threads > 1`
/// with breadth-first search and no frontier enhancement (with safe
/// abstraction, its searches of the reduced networks). Depth-first orders
/// (their order is inherently sequential), the best-first orders, the
/// frontier enhancements and liveness checks run on one thread whatever
/// `threads` says.
pub fn runs_parallel(options: &Options) -> bool {
    options.threads > 1
        && options.config.enhance == Enhance::None
        && options.config.search == SearchOrder::Bfs
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
pub(super) fn path_to(
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
