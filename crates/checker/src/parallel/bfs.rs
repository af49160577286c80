//! Level-synchronous breadth-first search over sharded stores.
//!
//! Each level is taken in slabs of consecutive states. A slab is expanded
//! in parallel (the stores are only read), each worker sorting the
//! successors it computes into one batch per owning shard; then every shard
//! inserts its batches, in parallel with the other shards and without
//! locks, since a shard is written by one worker only.
//!
//! The successors reach each shard in the order in which the sequential
//! search would insert them (parent's position in the level, transition,
//! zone), and inclusion only ever compares zones of one discrete part, so
//! every shard sees exactly the insertions the sequential store sees for
//! its discrete parts. Hence the same states are explored as by the
//! sequential search, whatever the number of threads, and the goal state
//! reported is the one the sequential search meets first: the goal states
//! and model errors found in a slab are compared by that order and the
//! first one wins. Traces are therefore shortest, and reproducible.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use zeno_ir::{EdgeId, EvalError, ProcId};

use super::super::active::ActiveClocks;
use super::super::dbm::Dbm;
use super::super::dbm::bound::Raw;
use super::super::goal::Goal;
use super::super::lu::LuTable;
use super::super::packed_key::KeyCodec;
use super::super::semantics::{Model, TransitionBuf};
use super::super::store::{Inserted, NO_PARENT, Store, Subsumption};
use super::super::zone_graph::{Unlisted, ZoneGraph};
use super::super::{CheckResult, Limit, ParallelStats, Stats, Task};
use super::{Found, Gid, Sharded, SharedStop, owner};

/// Frontier states per task of the expansion phase: enough to amortise
/// scheduling, few enough to balance two threads on a narrow level.
const CHUNK: usize = 64;
/// Frontier states expanded before their successors are inserted. It
/// bounds the successors held in batches (the price of expanding before
/// inserting) to a few times this many zones.
const SLAB: usize = 1 << 12;
/// Successors a shard makes room for at a time (see `Store::reserve`).
const RESERVE_STATES: usize = 1024;

/// Where a successor comes in the sequential search: its parent's position
/// in the level, then 1 + its transition's index, then 1 + its zone's index.
/// An error of the parent's transitions is at `(p, 0, 0)` and one of
/// transition `t` at `(p, t + 1, 0)`: before the successors it prevents.
pub(super) type Pos = (usize, usize, usize);

/// One shard: a store and, per state, its parent (possibly in another
/// shard; the store's own parent field is not used).
pub(super) struct Shard {
    pub store: Store,
    pub parents: Vec<Option<Gid>>,
}

impl Shard {
    /// An empty shard for discrete parts of `nkey` slots, its store keeping
    /// only the active clocks' entries when `active` is given, and
    /// subsuming by aLU simulation with the bounds `alu` when given.
    pub(super) fn new(
        nkey: usize,
        model: &Model,
        active: Option<&ActiveClocks>,
        alu: Option<&LuTable>,
    ) -> Shard {
        let mut store = match active {
            Some(a) => Store::with_active_clocks(nkey, model.dim, model.nproc, a.clone()),
            None => Store::new(nkey, model.dim),
        };
        store.pack_keys(KeyCodec::of_network(model.net));
        if let Some(lu) = alu {
            store.subsume_alu(lu.clone(), model.nproc);
        }
        Shard {
            store,
            parents: Vec::new(),
        }
    }
}

/// Successors bound for one shard, in order, with their keys, zones and
/// transitions in flat tables.
#[derive(Default)]
pub(super) struct Batch {
    pub items: Vec<Item>,
    pub keys: Vec<i32>,
    pub zones: Vec<Raw>,
    pub edges: Vec<(ProcId, EdgeId)>,
}

pub(super) struct Item {
    pub pos: Pos,
    pub parent: Gid,
    pub g: u32,
    pub edges: (usize, usize),
}

impl Batch {
    fn clear(&mut self) {
        self.items.clear();
        self.keys.clear();
        self.zones.clear();
        self.edges.clear();
    }

    pub(super) fn bytes(&self) -> usize {
        self.items.capacity() * std::mem::size_of::<Item>()
            + self.keys.capacity() * 4
            + self.zones.capacity() * 4
            + self.edges.capacity() * 8
    }
}

/// The batches of finished rounds, emptied, for the next round's chunks:
/// allocated afresh for every chunk (one per shard, a chunk being 64
/// states), their allocation, freeing and first touch were about 5 % of a
/// two-thread search's CPU time on csmacd N=12.
#[derive(Default)]
pub(super) struct SpareBatches(Mutex<Vec<Vec<Batch>>>);

impl SpareBatches {
    /// One emptied batch per shard, or `None` when none is spare.
    fn take(&self) -> Option<Vec<Batch>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    /// Keeps the batches of `expanded`, emptied, for later chunks.
    pub(super) fn keep(&self, expanded: Vec<Expanded>) {
        let mut spare = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for e in expanded {
            let mut batches = e.batches;
            batches.iter_mut().for_each(Batch::clear);
            spare.push(batches);
        }
    }

    /// The bytes the spare batches hold.
    pub(super) fn bytes(&self) -> u64 {
        let spare = self.0.lock().unwrap_or_else(|e| e.into_inner());
        spare.iter().flatten().map(|b| b.bytes() as u64).sum()
    }
}

/// The bytes of the successors `expanded` holds in batches.
pub(super) fn in_flight(expanded: &[Expanded]) -> u64 {
    expanded
        .iter()
        .flat_map(|e| &e.batches)
        .map(|b| b.bytes() as u64)
        .sum()
}

/// What the expansion of one chunk produced.
pub(super) struct Expanded {
    pub batches: Vec<Batch>,
    pub explored: u64,
    pub generated: u64,
    /// The first model error met in the chunk (the chunk stops there).
    pub error: Option<ErrorAt>,
    pub stopped: Option<Limit>,
    /// Successors bound for a shard other than their parent's.
    pub cross_shard: u64,
    /// The worker's CPU time on the chunk.
    pub busy: Duration,
}

/// A model error met while expanding `state`: where it comes in the
/// sequential order, and the transition that raised it (empty: the
/// state's transitions could not be computed).
pub(super) struct ErrorAt {
    pub pos: Pos,
    pub state: Gid,
    pub edges: Vec<(ProcId, EdgeId)>,
    pub error: EvalError,
}

/// A worker's zone graph and buffers, reused from chunk to chunk.
pub(super) struct Scratch<'a> {
    graph: ZoneGraph<'a>,
    key: Vec<i32>,
    zone: Dbm,
}

impl<'a> Scratch<'a> {
    pub(super) fn new(ctx: &Ctx<'a>) -> Scratch<'a> {
        Scratch {
            graph: ZoneGraph::new(ctx.model, ctx.active),
            key: Vec::new(),
            zone: Dbm::zero(ctx.model.dim),
        }
    }
}

/// What one shard's insertions produced.
#[derive(Default)]
pub(super) struct Inserts {
    /// The first goal state inserted (the shard stops there).
    pub goal: Option<(Pos, Gid)>,
    pub memory_refused: bool,
    /// The worker's CPU time on the shard.
    pub busy: Duration,
}

/// A worker's busy time: its thread's CPU time where the platform has a
/// per-thread clock, so that a loaded machine (a worker descheduled in the
/// middle of a phase) shows as waiting rather than as work; wall time
/// elsewhere.
struct Busy {
    cpu: Option<Duration>,
    wall: Instant,
}

impl Busy {
    fn start() -> Busy {
        Busy {
            cpu: zeno_base::clock::thread_cpu_time(),
            wall: Instant::now(),
        }
    }

    fn elapsed(&self) -> Duration {
        match (self.cpu, zeno_base::clock::thread_cpu_time()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => self.wall.elapsed(),
        }
    }
}

/// What every phase reads: the model, the goal, the stop conditions and
/// the length of a discrete part.
pub(super) struct Ctx<'a> {
    pub model: &'a Model<'a>,
    pub goal: &'a Goal,
    pub stop: &'a SharedStop<'a>,
    pub nkey: usize,
    /// The active-clock reduction, as the sequential search applies it.
    pub active: Option<&'a ActiveClocks>,
}

impl Ctx<'_> {
    /// Whether the state `key`, `zone` satisfies the goal.
    pub(super) fn is_goal(&self, key: &[i32], zone: &Dbm, buf: &mut TransitionBuf) -> bool {
        !self.goal.satisfied(self.model, key, zone, buf).is_empty()
    }
}

/// Breadth-first search of the `task`'s check on `options.threads` threads.
/// Returns `None` when no pool of workers can be had (see
/// [`super::pool`]); the caller then searches sequentially.
pub(crate) fn run(task: Task, progress: &mut dyn FnMut(&Stats)) -> Option<CheckResult> {
    let options = task.options;
    super::search(task, |ctx, sharded| {
        let mut search = Search {
            sharded,
            pushes: 0,
            rounds: ParallelStats::default(),
        };
        let started = Instant::now();
        let found = search.explore(ctx, options.max_states, progress);
        search.sharded.finish(search.pushes, 0);
        let mut rounds = search.rounds;
        let phases = rounds.expand_seconds + rounds.insert_seconds;
        rounds.serial_seconds = (started.elapsed().as_secs_f64() - phases).max(0.0);
        let threads = options.threads as f64;
        rounds.wait_seconds =
            (threads * phases - rounds.expand_busy_seconds - rounds.insert_busy_seconds).max(0.0);
        search.sharded.stats.parallel = Some(rounds);
        (found, search.sharded)
    })
}

/// The state of a parallel breadth-first search.
struct Search {
    sharded: Sharded,
    /// States put on a level.
    pushes: u64,
    /// Its levels, phases and where their time went.
    rounds: ParallelStats,
}

impl Search {
    /// Explores level by level: `Ok(None)` when the state space is
    /// exhausted, `Err` when a limit stopped the search.
    fn explore(
        &mut self,
        ctx: &Ctx,
        max_states: Option<u64>,
        progress: &mut dyn FnMut(&Stats),
    ) -> Result<Option<Found>, Limit> {
        let rule = Subsumption::NoDeeperUnlessExpanded;
        let init = match self.sharded.insert_initial(ctx, rule) {
            Ok((init, _, _)) => init,
            Err(found) => return Ok(found),
        };
        self.pushes += 1;

        let mut level = vec![init];
        while !level.is_empty() {
            self.rounds.level_states.push(level.len() as u64);
            let mut next: Vec<(Pos, Gid)> = Vec::new();
            let mut first = 0;
            while first < level.len() {
                let mut end = level.len().min(first.saturating_add(SLAB));
                if let Some(max) = max_states {
                    // The sequential search stops when it would explore
                    // state `max + 1`: expand only what the budget allows.
                    let left = max.saturating_sub(self.sharded.stats.explored);
                    if left == 0 {
                        return Err(Limit::States);
                    }
                    end =
                        end.min(first.saturating_add(usize::try_from(left).unwrap_or(usize::MAX)));
                }
                if let Some(found) = self.slab(ctx, &level, first, end, &mut next)? {
                    return Ok(Some(found));
                }
                first = end;
                self.sharded.report(progress);
            }
            // A state inserted early in the level may have been replaced by
            // a larger zone later in it; the sequential search skips it when
            // it is popped, this one before the level starts.
            next.sort_unstable_by_key(|&(pos, _)| pos);
            level = next
                .into_iter()
                .map(|(_, g)| g)
                .filter(|g| !self.sharded.shards[g.shard as usize].store.removed(g.id))
                .collect();
        }
        Ok(None)
    }

    /// Expands `level[first..end]`, inserts the successors, and adds the new
    /// states to `next`.
    fn slab(
        &mut self,
        ctx: &Ctx,
        level: &[Gid],
        first: usize,
        end: usize,
        next: &mut Vec<(Pos, Gid)>,
    ) -> Result<Option<Found>, Limit> {
        let slab = &level[first..end];
        // Marked before their successors are inserted, as in the sequential
        // search (there the rest of the slab is not expanded yet; a larger
        // zone replacing one of them, which only this order allows, changes
        // no explored state: see `Subsumption::NoDeeperUnlessExpanded`).
        for g in slab {
            self.sharded.shards[g.shard as usize]
                .store
                .mark_expanded(g.id);
        }
        let expanding = Instant::now();
        let expanded = self.sharded.expand(ctx, slab, CHUNK, first);
        self.rounds.slabs += 1;
        self.rounds.expand_seconds += expanding.elapsed().as_secs_f64();
        let expanded = expanded?;
        for e in &expanded {
            self.rounds.expand_busy_seconds += e.busy.as_secs_f64();
            self.rounds.cross_shard += e.cross_shard;
            self.rounds.batched += e.generated;
        }
        let inserting = Instant::now();
        let error = expanded
            .iter()
            .filter_map(|e| e.error.as_ref())
            .min_by_key(|e| e.pos);
        let before = error.map(|e| e.pos);
        let rule = Subsumption::NoDeeperUnlessExpanded;
        let shards = &mut self.sharded.shards;
        let insert_into = |(s, shard): (usize, &mut Shard)| {
            let mut new = Vec::new();
            let inserts = insert(
                ctx,
                shard,
                s,
                &expanded,
                before,
                rule,
                |_, item, gid, _, _| {
                    new.push((item.pos, gid));
                },
            );
            (inserts, new)
        };
        // A slab of one chunk was expanded on this thread (see
        // `Sharded::expand`); its successors are inserted here too.
        let (inserts, new): (Vec<Inserts>, Vec<Vec<(Pos, Gid)>>) = if slab.len() <= CHUNK {
            shards.iter_mut().enumerate().map(insert_into).unzip()
        } else {
            self.sharded
                .pool
                .install(|| shards.par_iter_mut().enumerate().map(insert_into).unzip())
        };
        self.rounds.insert_seconds += inserting.elapsed().as_secs_f64();
        self.rounds.insert_busy_seconds +=
            inserts.iter().map(|i| i.busy.as_secs_f64()).sum::<f64>();
        self.pushes += new.iter().map(|n| n.len() as u64).sum::<u64>();
        let held = in_flight(&expanded) + self.sharded.spare.bytes() + (level.len() * 8) as u64;
        if let Some(g) = self.sharded.settle(ctx, &inserts, held, 0)? {
            return Ok(Some(Found::Goal(g)));
        }
        if let Some(e) = error {
            return Ok(Some(Found::Error(Some(e.state), e.edges.clone(), e.error)));
        }
        if let Some(limit) = ctx.stop.reason() {
            return Err(limit);
        }
        self.sharded.spare.keep(expanded);
        next.extend(new.into_iter().flatten());
        Ok(None)
    }
}

/// Expands the states `chunk` (the first at position `pos0` of the level)
/// into one batch of successors per shard, each made room for `fanout`
/// successors a state.
#[allow(clippy::too_many_arguments)]
pub(super) fn expand(
    ctx: &Ctx,
    shards: &[Shard],
    nshards: usize,
    chunk: &[Gid],
    pos0: usize,
    fanout: usize,
    spare: &SpareBatches,
    s: &mut Scratch,
) -> Expanded {
    let started = Busy::start();
    // A shard's share and a little more, for the hash's unevenness.
    let items = (chunk.len() * fanout).div_ceil(nshards) * 5 / 4 + 1;
    let cells = ctx.model.dim * ctx.model.dim;
    let mut batches = spare
        .take()
        .unwrap_or_else(|| (0..nshards).map(|_| Batch::default()).collect());
    for b in &mut batches {
        b.items.reserve(items);
        b.keys.reserve(items * ctx.nkey);
        b.zones.reserve(items * cells);
        b.edges.reserve(items);
    }
    let mut out = Expanded {
        batches,
        explored: 0,
        generated: 0,
        error: None,
        stopped: None,
        cross_shard: 0,
        busy: Duration::ZERO,
    };
    'states: for (i, &gid) in chunk.iter().enumerate() {
        let p = pos0 + i;
        if let Some(limit) = ctx.stop.reason() {
            out.stopped = Some(limit);
            break;
        }
        let store = &shards[gid.shard as usize].store;
        store.key_into(gid.id, &mut s.key);
        store.zone_into(gid.id, &mut s.zone);
        let g = store.state(gid.id).g + 1;
        out.explored += 1;
        if !s.graph.watched() {
            s.graph.watch(Some(ctx.stop.watch()));
        }
        let transitions = match s.graph.transitions(&s.key) {
            Ok(n) => n,
            Err(Unlisted::Error(e)) => {
                out.error = Some(ErrorAt {
                    pos: (p, 0, 0),
                    state: gid,
                    edges: e.edges,
                    error: e.error,
                });
                break;
            }
            Err(Unlisted::Stopped(limit)) => {
                out.stopped = Some(limit);
                break;
            }
        };
        for t in 0..transitions {
            // Per transition too, as the sequential search polls.
            if let Some(limit) = ctx.stop.reason() {
                out.stopped = Some(limit);
                break 'states;
            }
            let step = match s.graph.next(&s.key, &s.zone, t) {
                Err(e) => {
                    out.error = Some(ErrorAt {
                        pos: (p, t + 1, 0),
                        state: gid,
                        edges: s.graph.edges(t).to_vec(),
                        error: e,
                    });
                    break 'states;
                }
                Ok(None) => continue,
                Ok(Some(step)) => step,
            };
            let to = owner(step.key, nshards);
            if to != gid.shard as usize {
                out.cross_shard += step.zones.len() as u64;
            }
            let batch = &mut out.batches[to];
            for (z, zone) in step.zones.iter().enumerate() {
                out.generated += 1;
                let e0 = batch.edges.len();
                batch.edges.extend_from_slice(step.edges);
                batch.items.push(Item {
                    pos: (p, t + 1, z + 1),
                    parent: gid,
                    g,
                    edges: (e0, batch.edges.len()),
                });
                batch.keys.extend_from_slice(step.key);
                batch.zones.extend_from_slice(zone.raw());
            }
        }
    }
    out.busy = started.elapsed();
    out
}

/// Inserts into shard `s` the successors bound for it under `rule`, in
/// order, up to the position `before` (a model error's), stopping at the
/// first goal state; `new` is handed every other new state, its item, its
/// discrete part and its zone.
pub(super) fn insert(
    ctx: &Ctx,
    shard: &mut Shard,
    s: usize,
    expanded: &[Expanded],
    before: Option<Pos>,
    rule: Subsumption,
    new: impl FnMut(&mut Store, &Item, Gid, &[i32], &Dbm),
) -> Inserts {
    let started = Busy::start();
    let mut out = insert_batches(ctx, shard, s, expanded, before, rule, new);
    out.busy = started.elapsed();
    out
}

/// [`insert`] without the clock.
fn insert_batches(
    ctx: &Ctx,
    shard: &mut Shard,
    s: usize,
    expanded: &[Expanded],
    before: Option<Pos>,
    rule: Subsumption,
    mut new: impl FnMut(&mut Store, &Item, Gid, &[i32], &Dbm),
) -> Inserts {
    let mut out = Inserts::default();
    let dim = ctx.model.dim;
    let cells = dim * dim;
    let mut zone = Dbm::zero(dim);
    let mut goal_buf = TransitionBuf::default();
    let mut room = 0;
    // Room for more than the successors at hand would be capacity never
    // touched, in every shard (with 200 clocks, 160 MB a shard).
    let mut remaining: usize = expanded.iter().map(|e| e.batches[s].items.len()).sum();
    for batch in expanded.iter().map(|e| &e.batches[s]) {
        for (i, item) in batch.items.iter().enumerate() {
            if before.is_some_and(|b| item.pos >= b) {
                return out;
            }
            if room == 0 {
                // The tables grow here, within the memory budget.
                room = remaining.min(RESERVE_STATES);
                if shard.store.reserve(room).is_err() {
                    out.memory_refused = true;
                    return out;
                }
            }
            room -= 1;
            remaining -= 1;
            let key = &batch.keys[i * ctx.nkey..(i + 1) * ctx.nkey];
            zone.set_raw_from(dim, batch.zones[i * cells..(i + 1) * cells].iter().copied());
            let edges = &batch.edges[item.edges.0..item.edges.1];
            let Inserted::New(id) = shard
                .store
                .insert(key, &zone, NO_PARENT, edges, item.g, rule)
            else {
                continue;
            };
            debug_assert_eq!(id as usize, shard.parents.len());
            shard.parents.push(Some(item.parent));
            let gid = Gid {
                shard: s as u32,
                id,
            };
            if ctx.is_goal(key, &zone, &mut goal_buf) {
                out.goal = Some((item.pos, gid));
                return out;
            }
            new(&mut shard.store, item, gid, key, &zone);
        }
    }
    out
}
