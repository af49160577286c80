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
pub mod distributed;

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::FxHasher;

use super::active::ActiveClocks;
use super::dbm::Dbm;
use super::goal::Goal;
use super::semantics::{Model, TransitionBuf};
use super::store::{Inserted, NO_PARENT, Subsumption};
use super::zone_graph::ZoneGraph;
use super::{
    Cancel, CheckResult, Enhance, HeuristicKind, Limit, Options, SearchOrder, Stats, Stop, Task,
    Verdict,
};
use bfs::{Ctx, Expanded, Inserts, Scratch, Shard, SpareBatches};

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

/// The most threads a search runs on: four per core (at least four).
/// More only add overhead to every round, each costs a stack and store
/// shards, and the system starts threads slowly (thousands took minutes,
/// before the search could poll its limits); [`super::check`] caps
/// `Options::threads` here, and the CLI says so.
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_mul(4).max(4)
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
    gate: Option<super::turns::Gate<'a>>,
}

impl<'a> SharedStop<'a> {
    pub(super) fn new(stop: &Stop<'a>) -> SharedStop<'a> {
        SharedStop {
            cancel: stop.cancel,
            deadline: stop.deadline,
            memory_refused: AtomicBool::new(stop.memory_refused.get()),
            gate: stop.gate,
        }
    }

    /// What an enumeration of transitions polls (as [`Stop::watch`]).
    pub(super) fn watch(&self) -> super::semantics::Watch {
        super::semantics::Watch {
            cancel: self.cancel.clone(),
            deadline: self.deadline,
        }
    }

    pub(super) fn memory_refused(&self) {
        self.memory_refused.store(true, Ordering::Relaxed);
    }

    /// Why the search must stop now, if it must (as [`Stop::reason`]).
    pub(super) fn reason(&self) -> Option<Limit> {
        if let Some(gate) = &self.gate {
            gate.poll();
        }
        if self.cancel.is_cancelled() {
            Some(Limit::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Time)
        } else if self.memory_refused.load(Ordering::Relaxed) || zeno_base::memory::over_budget() {
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
        Vec<(zeno_ir::ProcId, zeno_ir::EdgeId)>,
        zeno_ir::EvalError,
    ),
}

/// What both parallel searches keep: the shards, the figures and the
/// workers.
struct Sharded {
    shards: Vec<Shard>,
    stats: Stats,
    peak: u64,
    /// The stores' size, measured now and then ([`SampledBytes`]).
    store_bytes: SampledBytes,
    start: Instant,
    /// The workers; the search itself runs on the caller's thread, which
    /// alone calls `progress`.
    pool: rayon::ThreadPool,
    /// Emptied batches of earlier rounds, reused by the next ones.
    spare: SpareBatches,
}

/// A parallel search of the `task`'s check: builds the model, the goal and
/// empty shards, lets `explore` search them (it hands the shards back with
/// their final figures taken) and answers from what it found. `None` when
/// no pool of workers can be had (see [`pool`]); the caller then searches
/// sequentially.
fn search(
    task: Task,
    explore: impl FnOnce(&Ctx, Sharded) -> (Result<Option<Found>, Limit>, Sharded),
) -> Option<CheckResult> {
    let pool = pool(task.options.threads)?;
    let start = Instant::now();
    let threads = u32::try_from(task.options.threads).unwrap_or(u32::MAX);
    let chk = task.net.check(task.check);
    let goal = Goal::new(chk.kind.goal());
    let model = Model::new(task.net, &goal.formula);
    if model.beyond_zones().is_some() {
        return Some(CheckResult {
            verdict: Verdict::Unknown(Limit::ClockRange),
            stats: Stats {
                threads,
                ..Stats::default()
            },
            trace: None,
        });
    }
    let verdicts = Verdict::of_reachability(&chk.kind);
    let shared = SharedStop::new(task.stop);
    let nkey = model.nproc + task.net.variables.len();
    let active = task
        .options
        .active_clocks
        .then(|| ActiveClocks::new(task.net, &goal.formula));
    let ctx = Ctx {
        model: &model,
        goal: &goal,
        stop: &shared,
        nkey,
        active: active.as_ref(),
    };
    let sharded = Sharded {
        shards: (0..shard_count(task.options.threads))
            .map(|_| {
                let alu = (task.options.subsume == super::Subsume::Alu)
                    .then(|| model.alu_bounds())
                    .flatten();
                Shard::new(nkey, &model, active.as_ref(), alu)
            })
            .collect(),
        stats: Stats {
            threads,
            ..Stats::default()
        },
        peak: 0,
        store_bytes: SampledBytes::default(),
        start,
        pool,
        spare: SpareBatches::default(),
    };
    let (found, sharded) = explore(&ctx, sharded);
    shared.report_to(task.stop);
    Some(answer(
        found,
        &sharded.shards,
        &model,
        &goal,
        task.stop,
        verdicts,
        sharded.stats,
    ))
}

impl Sharded {
    /// Inserts the initial state into its shard under `rule`, and returns
    /// it with its discrete part and zone; `Err` when the search ends there
    /// (with what it found: the initial state's model error, or the initial
    /// state as a goal).
    fn insert_initial(
        &mut self,
        ctx: &Ctx,
        rule: Subsumption,
    ) -> Result<(Gid, Vec<i32>, Dbm), Option<Found>> {
        let (ikey, izone) = match ZoneGraph::new(ctx.model, ctx.active).initial() {
            Ok(Some(s)) => s,
            Ok(None) => return Err(None),
            Err(e) => return Err(Some(Found::Error(None, Vec::new(), e))),
        };
        self.stats.generated += 1;
        let s = owner(&ikey, self.shards.len());
        let shard = &mut self.shards[s];
        let Inserted::New(id) = shard.store.insert(&ikey, &izone, NO_PARENT, &[], 0, rule) else {
            return Err(None);
        };
        shard.parents.push(None);
        let init = Gid {
            shard: s as u32,
            id,
        };
        if ctx.is_goal(&ikey, &izone, &mut TransitionBuf::default()) {
            return Err(Some(Found::Goal(init)));
        }
        Ok((init, ikey, izone))
    }

    /// Expands `states` in parallel, `size` states a task, the first at
    /// position `pos0`, and counts the states explored and generated.
    fn expand(
        &mut self,
        ctx: &Ctx,
        states: &[Gid],
        size: usize,
        pos0: usize,
    ) -> Result<Vec<Expanded>, Limit> {
        let nshards = self.shards.len();
        let (shards, spare) = (&self.shards, &self.spare);
        // Successors per state so far: the batches are made that large at
        // once rather than grown (their reallocations and copies were a
        // few percent of a two-thread search's time).
        let fanout = match self.stats.explored {
            0 => 4,
            n => self.stats.generated.div_ceil(n) as usize,
        };
        // A single chunk gains nothing from the workers but costs a round
        // of waking them and joining: on a deep, narrow state space (a
        // chain of 5,000 locations, one state a level) those rounds were
        // most of the time, and two threads four times slower than one.
        let expanded: Vec<Expanded> = if states.len() <= size {
            let mut scratch = Scratch::new(ctx);
            vec![bfs::expand(
                ctx,
                shards,
                nshards,
                states,
                pos0,
                fanout,
                spare,
                &mut scratch,
            )]
        } else {
            self.pool.install(|| {
                states
                    .par_chunks(size)
                    .enumerate()
                    .map_init(
                        || Scratch::new(ctx),
                        |scratch, (c, chunk)| {
                            let at = pos0 + c * size;
                            bfs::expand(ctx, shards, nshards, chunk, at, fanout, spare, scratch)
                        },
                    )
                    .collect()
            })
        };
        for e in &expanded {
            self.stats.explored += e.explored;
            self.stats.generated += e.generated;
        }
        if let Some(limit) = expanded.iter().find_map(|e| e.stopped) {
            return Err(limit);
        }
        Ok(expanded)
    }

    /// After the shards' insertions: measures the stores when it is due
    /// (`extra`: the bytes the search keeps beside them), records the peak
    /// with `held` bytes more in flight, and stops at a memory refusal
    /// (`Err`) or at the goal state that comes first in the sequential
    /// order.
    fn settle(
        &mut self,
        ctx: &Ctx,
        inserts: &[Inserts],
        held: u64,
        extra: u64,
    ) -> Result<Option<Gid>, Limit> {
        if self.store_bytes.due(self.stats.explored) {
            let bytes = self.bytes() + extra;
            self.store_bytes.set(bytes, self.stats.explored);
        }
        self.peak = self.peak.max(self.store_bytes.bytes + held);
        if inserts.iter().any(|i| i.memory_refused) {
            ctx.stop.memory_refused();
            return Err(Limit::Memory);
        }
        Ok(inserts
            .iter()
            .filter_map(|i| i.goal)
            .min_by_key(|&(pos, _)| pos)
            .map(|(_, g)| g))
    }

    /// Tells `progress` the figures so far.
    fn report(&mut self, progress: &mut dyn FnMut(&Stats)) {
        self.stats.stored = self.live();
        self.stats.elapsed = self.start.elapsed();
        progress(&self.stats);
    }

    fn live(&self) -> u64 {
        self.shards.iter().map(|s| s.store.live()).sum()
    }

    /// The stores' and the parents' bytes.
    fn bytes(&self) -> u64 {
        self.shards
            .iter()
            .map(|s| s.store.bytes() + (s.parents.capacity() * 8) as u64)
            .sum()
    }

    /// The final figures, with `pushes` states queued and `extra` bytes
    /// kept beside the stores.
    fn finish(&mut self, pushes: u64, extra: u64) {
        let states: u64 = self.shards.iter().map(|s| s.parents.len() as u64).sum();
        let bytes = self.bytes() + extra;
        self.stats.queue_pushes = vec![pushes];
        self.stats.queue_pops = vec![self.stats.explored];
        self.stats.stored = self.live();
        self.stats.elapsed = self.start.elapsed();
        self.stats.peak_memory = self.peak.max(bytes);
        self.stats.bytes_per_state = bytes / states.max(1);
    }
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
            let store = stores[g.shard as usize];
            let mut zone = super::dbm::Dbm::zero(model.dim);
            store.zone_into(g.id, &mut zone);
            let mut buf = super::semantics::TransitionBuf::default();
            match goal.error(model, &store.key(g.id), &zone, &mut buf) {
                // The check's formula is undefined at this state.
                Some(error) => (
                    Verdict::ModelError(error),
                    Some(concrete::error_trace(model, &path, &[], error, stop)),
                ),
                None => (
                    found_verdict,
                    Some(concrete::goal_trace(model, goal, &path, stop)),
                ),
            }
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

/// The transitions from the initial state to `g`, following the parents
/// across shards.
fn path_to(
    stores: &[&super::store::Store],
    parents: &[&[Option<Gid>]],
    mut g: Gid,
) -> Vec<Vec<(zeno_ir::ProcId, zeno_ir::EdgeId)>> {
    let mut path = Vec::new();
    while let Some(p) = parents[g.shard as usize][g.id as usize] {
        path.push(stores[g.shard as usize].transition(g.id).to_vec());
        g = p;
    }
    path.reverse();
    path
}
