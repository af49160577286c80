//! Breadth-first search on workers that share no memory (threads of one
//! process, or processes on several hosts), written against an abstract
//! all-to-all [`Exchange`] so that the checker does not depend on the
//! engine that moves the bytes (the `zeno-distributed` crate drives it on
//! timely-dataflow).
//!
//! It is the parallel breadth-first search of `bfs.rs` with the shards
//! spread over the workers: worker `w` owns the states whose discrete part
//! hashes to `w` ([`owner`]) and keeps them in its own [`Shard`]. The
//! search runs in bulk-synchronous supersteps, each one call of
//! [`Exchange::exchange`] on every worker:
//!
//! 1. *Expand*: every worker expands its states of the slab (a range of
//!    positions in the level) and sends each successor to its owner, tagged
//!    with its position in the sequential order (parent's rank in the
//!    level, transition, zone), together with its first model error's
//!    position, the limit that stopped it, and its counts.
//! 2. *Insert*: every worker inserts what it received in that order, up to
//!    the first model error, stopping at its first goal, and sends every
//!    worker its first goal's position and whether its store was refused
//!    memory.
//! 3. At the end of a level two supersteps rank the new states (those a
//!    larger zone did not replace) in the next level (`Worker::rank`):
//!    each position goes to the worker that ranks its block of parent
//!    ranks, and its rank comes back.
//!
//! A successor travels as the store keeps it (`Packing`): the discrete
//! part packed, the zone as its active clocks' entries, 16 bits each
//! where they fit.
//!
//! Every worker sees the same figures after each superstep and so takes the
//! same decisions (the first goal or model error in the sequential order,
//! a limit, the end). Every shard inserts in the order of the sequential
//! search, so the explored states, the stored count, the verdict and the
//! trace are those of `--search bfs --threads 1`. The trace follows the
//! parent links across workers, one superstep a step.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use rustc_hash::FxHasher;
use zeno_ir::{CheckId, EdgeId, Network, ProcId};

use super::bfs::{Ctx, Shard};
use super::{Gid, SharedStop, owner};
use crate::active::ActiveClocks;
use crate::concrete;
use crate::dbm::Dbm;
use crate::dbm::bound::Raw;
use crate::goal::Goal;
use crate::packed_key::KeyCodec;
use crate::semantics::{Model, TransitionBuf};
use crate::store;
use crate::store::{Inserted, NO_PARENT, Subsumption};
use crate::zone_graph::{Unlisted, ZoneGraph};
use crate::zone_table::{narrow, widen};
use crate::{
    Cancel, CheckResult, Enhance, Limit, Options, Reduce, SearchOrder, Stats, Stop, Task, Verdict,
};

/// The transport of a distributed search: all-to-all supersteps among
/// `peers()` workers.
pub trait Exchange {
    /// This worker's index, `0..peers()`.
    fn index(&self) -> usize;
    /// The number of workers.
    fn peers(&self) -> usize;
    /// One superstep: sends `out[w]` to worker `w` (this one included) and
    /// returns what every worker sent to this one, indexed by sender.
    /// Every worker calls it the same number of times. `Err`: a worker
    /// was lost (the transport failed), and the search ends.
    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, Lost>;
}

/// A superstep could not be completed: a worker was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lost;

/// The version of the messages below: workers of different builds refuse
/// to work together (see [`check`]'s handshake).
const PROTOCOL: u64 = 1;

/// States of a level a worker expands per superstep (a slab is this many
/// times the number of workers): large enough that a superstep's latency
/// is paid per thousands of states.
const SLAB_PER_WORKER: u64 = 4096;

/// Successors a store makes room for at a time (see `Store::reserve`).
const RESERVE_STATES: usize = 1024;

/// Why a check cannot be searched by the distributed search (`None`: it
/// can). It covers the plain breadth-first reachability search only.
pub fn refusal(net: &Network, check: CheckId, options: &Options) -> Option<String> {
    let kind = &net.check(check).kind;
    let task_kind = if kind.is_liveness() {
        Some("a liveness check")
    } else if matches!(kind, zeno_ir::CheckKind::Bound(_)) {
        Some("a value query")
    } else if net.has_stopwatches() {
        Some("a check of a model with stopwatches")
    } else {
        None
    };
    if let Some(what) = task_kind {
        return Some(format!(
            "{what}: distributed search decides reachability checks only"
        ));
    }
    if options.config.search != SearchOrder::Bfs
        || options.config.enhance != Enhance::None
        || options.config.safe_abstraction
    {
        return Some(
            "distributed search runs breadth-first search only (`--search bfs`, no --enhance)"
                .to_string(),
        );
    }
    if options.reduce != Reduce::None {
        return Some(
            "distributed search does not reduce by partial order (`--reduce none`)".to_string(),
        );
    }
    let cancel = Cancel::new();
    let stop = Stop::new(&cancel, None);
    let task = Task {
        net,
        check,
        options,
        stop: &stop,
    };
    if crate::symmetry::applies(task) {
        return Some(
            "symmetry reduction applies to this check and runs on one thread only: pass `--symmetry off` to search it distributed".to_string(),
        );
    }
    None
}

/// What went wrong between the workers (every worker answers it alike).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    /// The workers run different builds, models, checks or options.
    #[error(
        "worker {worker} runs another build, model, check or options than worker 0 (fingerprints differ)"
    )]
    Fingerprint {
        /// The first worker that differs from worker 0.
        worker: usize,
    },
}

/// What the workers sent each other while they explored one level
/// (added up over the workers; messages a worker sends itself are not
/// counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LevelTraffic {
    /// States of the level (expanded).
    pub states: u64,
    /// Successors sent to the worker owning them.
    pub sent_states: u64,
    /// Bytes sent, successors and figures together.
    pub sent_bytes: u64,
    /// Supersteps the level took (two per slab and two for the ranks).
    pub supersteps: u64,
}

/// Decides `check` of `net` on the worker `ex.index()` of a distributed
/// search; every worker calls it with the same network, check, options and
/// `fingerprint` (the caller's digest of them: the model's text, the
/// check, the flags). Worker 0 returns the result, with the traffic of
/// each level; the others `Ok(None)`. `refusal` must have accepted the
/// check.
pub fn check(
    net: &Network,
    check: CheckId,
    options: &Options,
    cancel: &Cancel,
    fingerprint: u64,
    ex: &mut dyn Exchange,
) -> Result<Option<(CheckResult, Vec<LevelTraffic>)>, Mismatch> {
    debug_assert!(refusal(net, check, options).is_none());
    let started = Instant::now();
    let handshake = handshake(ex, fingerprint)?;
    let stop = Stop::new(cancel, options.timeout);
    let chk = net.check(check);
    let goal = Goal::new(chk.kind.goal());
    let model = Model::new(net, &goal.formula);
    let workers = ex.peers();
    let me = ex.index();
    let mut stats = Stats {
        threads: u32::try_from(workers).unwrap_or(u32::MAX),
        ..Stats::default()
    };
    if handshake.is_err() {
        let result = CheckResult {
            verdict: Verdict::Unknown(Limit::Peer),
            stats,
            trace: None,
        };
        return Ok((me == 0).then_some((result, Vec::new())));
    }
    if model.beyond_zones().is_some() {
        let result = CheckResult {
            verdict: Verdict::Unknown(Limit::ClockRange),
            stats,
            trace: None,
        };
        return Ok((me == 0).then_some((result, Vec::new())));
    }
    let shared = SharedStop::new(&stop);
    let nkey = model.nproc + net.variables.len();
    let active = options
        .active_clocks
        .then(|| ActiveClocks::new(net, &goal.formula));
    let ctx = Ctx {
        model: &model,
        goal: &goal,
        stop: &shared,
        nkey,
        active: active.as_ref(),
    };
    let alu = (options.subsume == crate::Subsume::Alu)
        .then(|| model.alu_bounds())
        .flatten();
    let mut worker = Worker {
        ctx: &ctx,
        ex,
        me,
        workers,
        shard: Shard::new(nkey, &model, active.as_ref(), alu),
        packing: Packing::new(&ctx),
        explored: 0,
        generated: 0,
        pushes: 0,
        stored: 0,
        level: LevelTraffic::default(),
        traffic: Vec::new(),
    };
    let found = worker.explore(options.max_states);
    shared.report_to(&stop);
    // The figures every worker agreed on at the last superstep (after a
    // lost worker, those before the loss; the memory figures stay 0).
    stats.explored = worker.explored;
    stats.generated = worker.generated;
    stats.stored = worker.stored;
    stats.queue_pushes = vec![worker.pushes];
    stats.queue_pops = vec![worker.explored];
    let verdicts = Verdict::of_reachability(&chk.kind);
    let answer = match found {
        Err(Limit::Peer) => Ok((me == 0).then_some((Verdict::Unknown(Limit::Peer), None))),
        found => worker.totals().and_then(|totals| {
            stats.stored = totals.live;
            stats.peak_memory = totals.bytes;
            stats.bytes_per_state = totals.bytes / totals.states.max(1);
            worker.answer(found, verdicts, &stop)
        }),
    };
    let answer =
        answer.unwrap_or_else(|_| (me == 0).then_some((Verdict::Unknown(Limit::Peer), None)));
    let traffic = std::mem::take(&mut worker.traffic);
    Ok(answer.map(|(verdict, trace)| {
        if let Some(None) = trace {
            stats.trace_limit = stop.reason();
        }
        stats.elapsed = started.elapsed();
        let result = CheckResult {
            verdict,
            stats,
            trace: trace.flatten(),
        };
        (result, traffic)
    }))
}

/// The first superstep: every worker sends its fingerprint (with the
/// protocol's version) to every other; all refuse alike when one differs.
fn handshake(ex: &mut dyn Exchange, fingerprint: u64) -> Result<Result<(), Lost>, Mismatch> {
    let mut h = FxHasher::default();
    (PROTOCOL, env!("CARGO_PKG_VERSION"), fingerprint).hash(&mut h);
    let mine = h.finish();
    let got = match ex.exchange(vec![mine.to_le_bytes().to_vec(); ex.peers()]) {
        Ok(got) => got,
        Err(lost) => return Ok(Err(lost)),
    };
    let of = |m: &Vec<u8>| Reader::new(m).u64();
    let first = of(&got[0]);
    match got.iter().position(|m| of(m) != first) {
        Some(worker) => Err(Mismatch::Fingerprint { worker }),
        None => Ok(Ok(())),
    }
}

/// Where a successor comes in the sequential search: its parent's rank in
/// the level, then 1 + its transition's index, then 1 + its zone's index
/// (an error of the parent's transitions at `(p, 0, 0)`, one of transition
/// `t` at `(p, t + 1, 0)`), as `bfs::Pos`.
type Pos = (u64, u32, u32);

/// What the search found, as every worker knows it.
enum Found {
    /// A goal state, at generation.
    Goal(Gid),
    /// A model error raised by the transitions of this state (its position
    /// tells which), or of the initial state (`None`).
    Error(Option<(Gid, Pos)>),
}

/// The figures every worker sends at the end.
struct Totals {
    live: u64,
    states: u64,
    bytes: u64,
}

/// One worker of the search.
struct Worker<'a, 'c> {
    ctx: &'c Ctx<'a>,
    ex: &'c mut dyn Exchange,
    me: usize,
    workers: usize,
    shard: Shard,
    packing: Packing<'a>,
    /// Figures of the whole search (every worker adds up the same).
    explored: u64,
    generated: u64,
    pushes: u64,
    /// The states stored, as of the last slab inserted.
    stored: u64,
    /// This worker's traffic in the level being explored.
    level: LevelTraffic,
    /// Every level's, added up over the workers.
    traffic: Vec<LevelTraffic>,
}

/// What a worker tells every worker after expanding its part of a slab.
#[derive(Default)]
struct Expanded {
    explored: u64,
    generated: u64,
    stopped: Option<Limit>,
    /// Successors sent to other workers.
    sent: u64,
    /// Its first model error: where, and the state that raised it.
    error: Option<(Pos, u32)>,
}

/// What a worker's insertions of a slab produced.
#[derive(Default)]
struct Inserts {
    /// The first goal state inserted (insertion stops there).
    goal: Option<(Pos, u32)>,
    memory_refused: bool,
    new: u64,
}

impl Worker<'_, '_> {
    /// A superstep, counting what is sent to the other workers; a lost
    /// worker ends the search (`Limit::Peer`).
    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, Limit> {
        let me = self.me;
        self.level.sent_bytes += out
            .iter()
            .enumerate()
            .filter(|&(w, _)| w != me)
            .map(|(_, m)| m.len() as u64)
            .sum::<u64>();
        self.level.supersteps += 1;
        self.ex.exchange(out).map_err(|Lost| Limit::Peer)
    }

    /// Explores level by level: `Ok(None)` when the state space is
    /// exhausted, `Err` when a limit stopped the search.
    fn explore(&mut self, max_states: Option<u64>) -> Result<Option<Found>, Limit> {
        let mut graph = ZoneGraph::new(self.ctx.model, self.ctx.active);
        let (ikey, izone) = match graph.initial() {
            Ok(Some(s)) => s,
            Ok(None) => return Ok(None),
            Err(_) => return Ok(Some(Found::Error(None))),
        };
        self.generated += 1;
        self.pushes += 1;
        self.stored = 1;
        let init_owner = owner(&ikey, self.workers);
        let mut level: Vec<(u64, u32)> = Vec::new();
        if init_owner == self.me {
            let rule = Subsumption::NoDeeperUnlessExpanded;
            let Inserted::New(id) = self
                .shard
                .store
                .insert(&ikey, &izone, NO_PARENT, &[], 0, rule)
            else {
                unreachable!("the first state inserted is new");
            };
            self.shard.parents.push(None);
            level.push((0, id));
        }
        if self
            .ctx
            .is_goal(&ikey, &izone, &mut TransitionBuf::default())
        {
            // Only its owner inserted it: as the first, its id is 0.
            return Ok(Some(Found::Goal(Gid {
                shard: init_owner as u32,
                id: 0,
            })));
        }
        let mut level_len = 1u64;
        let slab = SLAB_PER_WORKER.saturating_mul(self.workers as u64);
        while level_len > 0 {
            let mut next: Vec<(Pos, u32)> = Vec::new();
            let mut first = 0u64;
            let mut at = 0usize;
            while first < level_len {
                let mut end = level_len.min(first.saturating_add(slab));
                if let Some(max) = max_states {
                    // The sequential search stops when it would explore
                    // state `max + 1`: expand only what the budget allows.
                    let left = max.saturating_sub(self.explored);
                    if left == 0 {
                        return Err(Limit::States);
                    }
                    end = end.min(first.saturating_add(left));
                }
                let upto = at + level[at..].partition_point(|&(rank, _)| rank < end);
                if let Some(found) = self.slab(&level[at..upto], &mut graph, &mut next)? {
                    return Ok(Some(found));
                }
                at = upto;
                first = end;
            }
            // A state inserted early in the level may have been replaced by
            // a larger zone later in it; the sequential search skips it when
            // it is popped, this one before the level starts.
            next.retain(|&(_, id)| !self.shard.store.removed(id));
            (level, level_len) = self.rank(next, level_len)?;
        }
        Ok(None)
    }

    /// Expands this worker's states `mine` of a slab, exchanges and inserts
    /// the successors, and adds this worker's new states to `next`.
    fn slab(
        &mut self,
        mine: &[(u64, u32)],
        graph: &mut ZoneGraph,
        next: &mut Vec<(Pos, u32)>,
    ) -> Result<Option<Found>, Limit> {
        let mut bodies: Vec<Writer> = (0..self.workers).map(|_| Writer::default()).collect();
        let expanded = self.expand(mine, graph, &mut bodies);
        self.level.sent_states += expanded.sent;
        // Every message starts with the sender's figures, for all to add.
        let out = bodies
            .into_iter()
            .map(|body| {
                let mut w = Writer::default();
                w.u64(expanded.explored);
                w.u64(expanded.generated);
                w.limit(expanded.stopped);
                w.pos(expanded.error.map(|(pos, _)| pos));
                w.u32(expanded.error.map_or(0, |(_, id)| id));
                w.0.extend_from_slice(&body.0);
                w.0
            })
            .collect();
        let got = self.exchange(out)?;
        let mut readers: Vec<Reader> = got.iter().map(|m| Reader::new(m)).collect();
        let mut stopped = None;
        // The first model error in the sequential order, and its state.
        let mut error: Option<(Pos, Gid)> = None;
        for (sender, r) in readers.iter_mut().enumerate() {
            self.explored += r.u64();
            self.generated += r.u64();
            stopped = stopped.or(r.limit());
            let pos = r.pos();
            let id = r.u32();
            if let Some(pos) = pos
                && error.is_none_or(|(first, _)| pos < first)
            {
                let shard = sender as u32;
                error = Some((pos, Gid { shard, id }));
            }
        }
        if let Some(limit) = stopped {
            return Err(limit);
        }
        let inserts = self.insert(mine, &mut readers, error.map(|(pos, _)| pos), next);

        // Second superstep: the first goal and the stores' refusals.
        let mut w = Writer::default();
        w.pos(inserts.goal.map(|(pos, _)| pos));
        w.u32(inserts.goal.map_or(0, |(_, id)| id));
        w.u8(u8::from(inserts.memory_refused));
        w.u64(inserts.new);
        w.u64(self.shard.store.live());
        w.limit(self.ctx.stop.reason());
        let got = self.exchange(vec![w.0; self.workers])?;
        let mut goal: Option<(Pos, Gid)> = None;
        let mut memory = false;
        let mut stored = 0;
        for (sender, m) in got.iter().enumerate() {
            let mut r = Reader::new(m);
            let pos = r.pos();
            let id = r.u32();
            memory |= r.u8() != 0;
            self.pushes += r.u64();
            stored += r.u64();
            stopped = stopped.or(r.limit());
            if let Some(pos) = pos
                && goal.is_none_or(|(first, _)| pos < first)
            {
                let shard = sender as u32;
                goal = Some((pos, Gid { shard, id }));
            }
        }
        self.stored = stored;
        if memory {
            self.ctx.stop.memory_refused();
            return Err(Limit::Memory);
        }
        if let Some((_, g)) = goal {
            return Ok(Some(Found::Goal(g)));
        }
        if let Some((pos, g)) = error {
            return Ok(Some(Found::Error(Some((g, pos)))));
        }
        match stopped {
            Some(limit) => Err(limit),
            None => Ok(None),
        }
    }

    /// Expands the states `mine` (rank, id) into one message body per
    /// owning worker: each successor's position, parent id, depth,
    /// transition, discrete part and zone. Stops at the first model error
    /// and at a limit.
    fn expand(
        &mut self,
        mine: &[(u64, u32)],
        graph: &mut ZoneGraph,
        out: &mut [Writer],
    ) -> Expanded {
        let ctx = self.ctx;
        let store = &self.shard.store;
        let packing = &mut self.packing;
        let mut e = Expanded::default();
        let mut key = Vec::new();
        let mut zone = Dbm::zero(ctx.model.dim);
        'states: for &(rank, id) in mine {
            if let Some(limit) = ctx.stop.reason() {
                e.stopped = Some(limit);
                break;
            }
            store.key_into(id, &mut key);
            store.zone_into(id, &mut zone);
            let g = store.state(id).g + 1;
            e.explored += 1;
            if !graph.watched() {
                graph.watch(Some(ctx.stop.watch()));
            }
            let transitions = match graph.transitions(&key) {
                Ok(n) => n,
                Err(Unlisted::Error(_)) => {
                    e.error = Some(((rank, 0, 0), id));
                    break;
                }
                Err(Unlisted::Stopped(limit)) => {
                    e.stopped = Some(limit);
                    break;
                }
            };
            for t in 0..transitions {
                // Per transition too, as the sequential search polls.
                if let Some(limit) = ctx.stop.reason() {
                    e.stopped = Some(limit);
                    break 'states;
                }
                let step = match graph.next(&key, &zone, t) {
                    Err(_) => {
                        e.error = Some(((rank, index(t + 1), 0), id));
                        break 'states;
                    }
                    Ok(None) => continue,
                    Ok(Some(step)) => step,
                };
                let dest = owner(step.key, self.workers);
                let w = &mut out[dest];
                for (z, succ) in step.zones.iter().enumerate() {
                    e.generated += 1;
                    e.sent += u64::from(dest != self.me);
                    w.var(rank);
                    w.var(u64::from(index(t + 1)));
                    w.var(u64::from(index(z + 1)));
                    w.var(u64::from(id));
                    w.var(u64::from(g));
                    w.var_edges(step.edges);
                    packing.write(w, step.key, succ);
                }
            }
        }
        e
    }

    /// Inserts the successors the `readers` hold (each sender's in order),
    /// all in the sequential order, up to the position `before` (a model
    /// error's), stopping at the first goal state; adds the new states to
    /// `next`. This worker's states `mine` of the slab are marked expanded
    /// as the sequential search marks them: each just before the
    /// successors of its rank (a larger zone may replace an expanded state
    /// of the level, and not one the search has still to expand).
    fn insert(
        &mut self,
        mine: &[(u64, u32)],
        readers: &mut [Reader],
        before: Option<Pos>,
        next: &mut Vec<(Pos, u32)>,
    ) -> Inserts {
        let ctx = self.ctx;
        let rule = Subsumption::NoDeeperUnlessExpanded;
        let mut out = Inserts::default();
        // Every sender's successors come in order: merge them.
        let packing = &mut self.packing;
        let mut heads: Vec<Option<Successor>> = readers
            .iter_mut()
            .map(|r| Successor::read(r, packing))
            .collect();
        let mut goal_buf = TransitionBuf::default();
        let mut room = 0;
        let mut marked = 0;
        while let Some(w) = (0..heads.len())
            .filter(|&w| heads[w].is_some())
            .min_by_key(|&w| heads[w].as_ref().map(|s| s.pos))
        {
            let s = heads[w].take().expect("a head was chosen");
            heads[w] = Successor::read(&mut readers[w], packing);
            if before.is_some_and(|b| s.pos >= b) {
                break;
            }
            while marked < mine.len() && mine[marked].0 <= s.pos.0 {
                self.shard.store.mark_expanded(mine[marked].1);
                marked += 1;
            }
            if room == 0 {
                // The tables grow here, within the memory budget.
                room = RESERVE_STATES;
                if self.shard.store.reserve(room).is_err() {
                    out.memory_refused = true;
                    break;
                }
            }
            room -= 1;
            let Inserted::New(id) = self
                .shard
                .store
                .insert(&s.key, &s.zone, NO_PARENT, &s.edges, s.g, rule)
            else {
                continue;
            };
            self.shard.parents.push(Some(Gid {
                shard: w as u32,
                id: s.parent,
            }));
            out.new += 1;
            if ctx.is_goal(&s.key, &s.zone, &mut goal_buf) {
                out.goal = Some((s.pos, id));
                break;
            }
            next.push((s.pos, id));
        }
        for &(_, id) in &mine[marked..] {
            self.shard.store.mark_expanded(id);
        }
        out
    }

    /// The last two supersteps of a level, which rank its new states
    /// (`next`, this worker's, in order) in the next level: the sequential
    /// order is that of their positions, so a state's rank is the number
    /// of new states, on every worker, with smaller positions. The level's
    /// parent ranks are cut into one block per worker; each worker sends
    /// the positions in block `b` to worker `b` (one superstep), which
    /// ranks them within the block and answers each sender the ranks of
    /// its positions, with the block's size (the other), so that each
    /// position crosses the network once each way rather than reaching
    /// every worker. Returns this worker's states of the next level and
    /// the level's length.
    #[allow(clippy::type_complexity)]
    fn rank(
        &mut self,
        next: Vec<(Pos, u32)>,
        level_len: u64,
    ) -> Result<(Vec<(u64, u32)>, u64), Limit> {
        let workers = self.workers;
        let block = level_len.div_ceil(workers as u64).max(1);
        let block_of = |rank: u64| usize::try_from(rank / block).expect("a worker's block");
        let mut out: Vec<Writer> = (0..workers).map(|_| Writer::default()).collect();
        let mut last = vec![0u64; workers];
        for &((rank, t, z), _) in &next {
            // Sorted, so the parent ranks go up: their differences are small.
            let b = block_of(rank);
            out[b].var(rank - last[b]);
            out[b].var(u64::from(t));
            out[b].var(u64::from(z));
            last[b] = rank;
        }
        let got = self.exchange(out.into_iter().map(|w| w.0).collect())?;

        // This worker's block: every sender's positions (each in order),
        // sorted together; a sender's come out in its order.
        let mut all: Vec<(Pos, usize)> = Vec::new();
        for (sender, m) in got.iter().enumerate() {
            let mut r = Reader::new(m);
            let mut rank = 0;
            while !r.done() {
                rank += r.var();
                all.push(((rank, r.var_u32(), r.var_u32()), sender));
            }
        }
        all.sort_unstable();
        let mut ranks: Vec<Writer> = (0..workers).map(|_| Writer::default()).collect();
        let mut last = vec![0u64; workers];
        for (i, &(_, sender)) in all.iter().enumerate() {
            ranks[sender].var(i as u64 - last[sender]);
            last[sender] = i as u64;
        }
        // The level's traffic so far and this superstep's, for all to add.
        let figures = 24;
        let bytes: u64 = ranks
            .iter()
            .enumerate()
            .filter(|&(w, _)| w != self.me)
            .map(|(_, m)| (m.0.len() + figures) as u64)
            .sum();
        let out = ranks
            .into_iter()
            .map(|body| {
                let mut w = Writer::default();
                w.u64(all.len() as u64);
                w.u64(self.level.sent_states);
                w.u64(self.level.sent_bytes + bytes);
                w.0.extend_from_slice(&body.0);
                w.0
            })
            .collect();
        let supersteps = self.level.supersteps + 1;
        let got = self.exchange(out)?;

        let mut traffic = LevelTraffic {
            states: level_len,
            supersteps,
            ..LevelTraffic::default()
        };
        let mut level = Vec::with_capacity(next.len());
        let mut mine = next.into_iter().peekable();
        let mut before = 0u64;
        for (b, m) in got.iter().enumerate() {
            let mut r = Reader::new(m);
            let size = r.u64();
            traffic.sent_states += r.u64();
            traffic.sent_bytes += r.u64();
            let mut rank = 0;
            while let Some(&((parent, _, _), id)) = mine.peek() {
                if block_of(parent) != b {
                    break;
                }
                mine.next();
                rank += r.var();
                level.push((before + rank, id));
            }
            debug_assert!(r.done(), "worker {b} ranked what it was sent");
            before += size;
        }
        self.traffic.push(traffic);
        self.level = LevelTraffic::default();
        Ok((level, before))
    }

    /// The stores' figures, added up over the workers (every worker gets
    /// them: a superstep).
    fn totals(&mut self) -> Result<Totals, Limit> {
        let store = &self.shard.store;
        let mut w = Writer::default();
        w.u64(store.live());
        w.u64(self.shard.parents.len() as u64);
        w.u64(store.bytes() + (self.shard.parents.capacity() * 8) as u64);
        let got = self.exchange(vec![w.0; self.workers])?;
        let mut t = Totals {
            live: 0,
            states: 0,
            bytes: 0,
        };
        for m in &got {
            let mut r = Reader::new(m);
            t.live += r.u64();
            t.states += r.u64();
            t.bytes += r.u64();
        }
        Ok(t)
    }

    /// The verdict and, where it has one, its trace (`Some(None)`: a limit
    /// stopped building it), on worker 0; `None` on the others. Every
    /// worker takes part in following the parents (`Err`: a worker was
    /// lost meanwhile).
    #[allow(clippy::type_complexity)]
    fn answer(
        &mut self,
        found: Result<Option<Found>, Limit>,
        (found_verdict, none_verdict): (Verdict, Verdict),
        stop: &Stop,
    ) -> Result<Option<(Verdict, Option<Option<crate::Trace>>)>, Limit> {
        let model = self.ctx.model;
        let found = match found {
            Err(limit) => return Ok((self.me == 0).then_some((Verdict::Unknown(limit), None))),
            Ok(None) => return Ok((self.me == 0).then_some((none_verdict, None))),
            Ok(Some(found)) => found,
        };
        let (state, at) = match found {
            Found::Goal(g) => (g, None),
            Found::Error(Some((g, pos))) => (g, Some(pos)),
            Found::Error(None) => {
                if self.me != 0 {
                    return Ok(None);
                }
                let error = match ZoneGraph::new(model, self.ctx.active).initial() {
                    Err(e) => e,
                    Ok(_) => unreachable!("the initial state's error is computed again"),
                };
                let trace = concrete::error_trace(model, &[], &[], error, stop);
                return Ok(Some((Verdict::ModelError(error), Some(trace))));
            }
        };
        let (path, key, zone) = self.path_to(state)?;
        if self.me != 0 {
            return Ok(None);
        }
        let mut buf = TransitionBuf::default();
        Ok(Some(match at {
            None => match self.ctx.goal.error(model, &key, &zone, &mut buf) {
                // The check's formula is undefined at this state.
                Some(error) => (
                    Verdict::ModelError(error),
                    Some(concrete::error_trace(model, &path, &[], error, stop)),
                ),
                None => (
                    found_verdict,
                    Some(concrete::goal_trace(model, self.ctx.goal, &path, stop)),
                ),
            },
            Some(pos) => {
                // The error is computed again from the state that raised it,
                // as its expansion did (it is deterministic).
                let mut graph = ZoneGraph::new(model, self.ctx.active);
                let (edges, error) = match graph.transitions(&key) {
                    Err(Unlisted::Error(e)) => (e.edges, e.error),
                    Ok(_) => {
                        let t = pos.1 as usize - 1;
                        match graph.next(&key, &zone, t) {
                            Err(e) => (graph.edges(t).to_vec(), e),
                            Ok(_) => unreachable!("the transition's error is computed again"),
                        }
                    }
                    Err(Unlisted::Stopped(_)) => unreachable!("no limit is watched"),
                };
                let trace = concrete::error_trace(model, &path, &edges, error, stop);
                (Verdict::ModelError(error), Some(trace))
            }
        }))
    }

    /// The transitions from the initial state to `g`, and `g`'s discrete
    /// part and zone, following the parents across the workers: one
    /// superstep a step, in which the owner of the state reached tells
    /// every worker its parent.
    #[allow(clippy::type_complexity)]
    fn path_to(
        &mut self,
        mut g: Gid,
    ) -> Result<(Vec<Vec<(ProcId, EdgeId)>>, Vec<i32>, Dbm), Limit> {
        let dim = self.ctx.model.dim;
        let mut path = Vec::new();
        let mut key = Vec::new();
        let mut zone = Dbm::zero(dim);
        let mut first = true;
        loop {
            let mut w = Writer::default();
            if g.shard as usize == self.me {
                let store = &self.shard.store;
                let parent = self.shard.parents[g.id as usize];
                w.u8(u8::from(parent.is_some()));
                let p = parent.unwrap_or(Gid { shard: 0, id: 0 });
                w.u32(p.shard);
                w.u32(p.id);
                w.edges(store.transition(g.id));
                if first {
                    let mut z = Dbm::zero(dim);
                    store.zone_into(g.id, &mut z);
                    w.i32s(&store.key(g.id));
                    w.i32s(z.raw());
                }
            }
            let got = self.exchange(vec![w.0; self.workers])?;
            let mut r = Reader::new(&got[g.shard as usize]);
            let has_parent = r.u8() != 0;
            let parent = Gid {
                shard: r.u32(),
                id: r.u32(),
            };
            let edges = r.edges();
            if first {
                key = r.i32s(self.ctx.nkey);
                zone.set_raw_from(dim, r.i32s(dim * dim).into_iter());
                first = false;
            }
            if !has_parent {
                break;
            }
            path.push(edges);
            g = parent;
        }
        path.reverse();
        Ok((path, key, zone))
    }
}

/// A transition or zone index as a `u32` (a network has far fewer).
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 transitions and zones")
}

/// A successor as a message carries it.
struct Successor {
    pos: Pos,
    parent: u32,
    g: u32,
    edges: Vec<(ProcId, EdgeId)>,
    key: Vec<i32>,
    zone: Dbm,
}

impl Successor {
    /// The next successor in `r`, if any.
    fn read(r: &mut Reader, packing: &mut Packing) -> Option<Successor> {
        if r.done() {
            return None;
        }
        let pos = (r.var(), r.var_u32(), r.var_u32());
        let parent = r.var_u32();
        let g = r.var_u32();
        let edges = r.var_edges();
        let mut key = Vec::new();
        let mut zone = Dbm::zero(packing.dim);
        packing.read(r, &mut key, &mut zone);
        Some(Successor {
            pos,
            parent,
            g,
            edges,
            key,
            zone,
        })
    }
}

/// How a successor's discrete part and zone go on the wire: as the store
/// keeps them (`store.rs`), the discrete part packed by the network's
/// [`KeyCodec`] and the zone by its active clocks' entries only, 16 bits
/// each where they fit (`zone_table.rs`), so that a message carries a
/// fraction of the unpacked matrix. A flag byte says which form each
/// takes (a value outside the codec's ranges, a bound beyond 16 bits).
struct Packing<'a> {
    codec: KeyCodec,
    active: Option<&'a ActiveClocks>,
    nproc: usize,
    nkey: usize,
    dim: usize,
    /// Scratch: the active set, the projected zone.
    set: Vec<u16>,
    entries: Vec<Raw>,
}

impl<'a> Packing<'a> {
    fn new(ctx: &Ctx<'a>) -> Packing<'a> {
        Packing {
            codec: KeyCodec::of_network(ctx.model.net),
            active: ctx.active,
            nproc: ctx.model.nproc,
            nkey: ctx.nkey,
            dim: ctx.model.dim,
            set: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// The active clocks at `key` (all of them without the reduction).
    fn fill_set(&mut self, key: &[i32]) {
        match self.active {
            Some(a) => a.fill(&key[..self.nproc], &mut self.set),
            None => {
                self.set.clear();
                self.set.extend(0..self.dim as u16);
            }
        }
    }

    fn write(&mut self, w: &mut Writer, key: &[i32], zone: &Dbm) {
        let at = w.0.len();
        w.u8(0);
        if !self.codec.encode(key, &mut w.0) {
            w.0[at] = 1;
            w.i32s(key);
        }
        self.fill_set(key);
        store::project(zone, &self.set, &mut self.entries);
        if self.entries.iter().all(|&e| narrow(e).is_some()) {
            w.u8(0);
            for &e in &self.entries {
                let v = narrow(e).expect("checked narrow");
                w.0.extend_from_slice(&v.to_le_bytes());
            }
        } else {
            w.u8(1);
            w.i32s(&self.entries);
        }
    }

    fn read(&mut self, r: &mut Reader, key: &mut Vec<i32>, zone: &mut Dbm) {
        key.clear();
        if r.u8() == 0 {
            self.codec.decode(r.bytes(self.codec.len()), key);
        } else {
            key.extend(r.i32s(self.nkey));
        }
        self.fill_set(key);
        let n = self.set.len() * self.set.len();
        self.entries.clear();
        if r.u8() == 0 {
            let bytes = r.bytes(2 * n);
            self.entries.extend(
                bytes
                    .chunks_exact(2)
                    .map(|b| widen(i16::from_le_bytes([b[0], b[1]]))),
            );
        } else {
            self.entries.extend(r.i32s(n));
        }
        let entries = &self.entries;
        store::unproject(self.dim, &self.set, |i| entries[i], zone);
    }
}

/// A message being written: little-endian words.
#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn i32s(&mut self, vs: &[i32]) {
        for v in vs {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
    }
    fn pos(&mut self, pos: Option<Pos>) {
        match pos {
            None => self.u8(0),
            Some((p, t, z)) => {
                self.u8(1);
                self.u64(p);
                self.u32(t);
                self.u32(z);
            }
        }
    }
    /// `v` in 7-bit groups, low first, the top bit saying more follow
    /// (LEB128): the small figures a successor carries take a byte or two.
    fn var(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }
    fn var_edges(&mut self, edges: &[(ProcId, EdgeId)]) {
        self.var(edges.len() as u64);
        for &(p, e) in edges {
            self.var(u64::from(p));
            self.var(u64::from(e));
        }
    }
    fn edges(&mut self, edges: &[(ProcId, EdgeId)]) {
        self.u32(index(edges.len()));
        for &(p, e) in edges {
            self.u32(p);
            self.u32(e);
        }
    }
    fn limit(&mut self, limit: Option<Limit>) {
        self.u8(match limit {
            None => 0,
            Some(Limit::States) => 1,
            Some(Limit::Time) => 2,
            Some(Limit::Cancelled) => 3,
            Some(Limit::Memory) => 4,
            Some(Limit::ClockRange) => 5,
            Some(Limit::Unconfirmed) => 6,
            Some(Limit::Stopwatches) => 7,
            Some(Limit::Peer) => 8,
        });
    }
}

/// A message being read. The workers run one build (the handshake checks
/// it) and the transport delivers messages whole, so a short or malformed
/// message is a bug of this module: it panics.
struct Reader<'m> {
    bytes: &'m [u8],
}

impl<'m> Reader<'m> {
    fn new(bytes: &'m [u8]) -> Reader<'m> {
        Reader { bytes }
    }
    fn done(&self) -> bool {
        self.bytes.is_empty()
    }
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self
            .bytes
            .split_first_chunk::<N>()
            .expect("a distributed search's message is whole");
        self.bytes = rest;
        *head
    }
    fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| i32::from_le_bytes(self.take())).collect()
    }
    fn bytes(&mut self, n: usize) -> &'m [u8] {
        let (head, rest) = self
            .bytes
            .split_at_checked(n)
            .expect("a distributed search's message is whole");
        self.bytes = rest;
        head
    }
    fn var(&mut self) -> u64 {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8();
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return v;
            }
        }
        panic!("a variable-length figure runs past 64 bits")
    }
    fn var_u32(&mut self) -> u32 {
        u32::try_from(self.var()).expect("a 32-bit figure")
    }
    fn var_edges(&mut self) -> Vec<(ProcId, EdgeId)> {
        let n = self.var_u32();
        (0..n).map(|_| (self.var_u32(), self.var_u32())).collect()
    }
    fn pos(&mut self) -> Option<Pos> {
        match self.u8() {
            0 => None,
            _ => Some((self.u64(), self.u32(), self.u32())),
        }
    }
    fn edges(&mut self) -> Vec<(ProcId, EdgeId)> {
        let n = self.u32();
        (0..n).map(|_| (self.u32(), self.u32())).collect()
    }
    fn limit(&mut self) -> Option<Limit> {
        match self.u8() {
            0 => None,
            1 => Some(Limit::States),
            2 => Some(Limit::Time),
            3 => Some(Limit::Cancelled),
            4 => Some(Limit::Memory),
            5 => Some(Limit::ClockRange),
            6 => Some(Limit::Unconfirmed),
            7 => Some(Limit::Stopwatches),
            8 => Some(Limit::Peer),
            other => panic!("no limit has the code {other}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dbm::bound::raw;

    /// A packing of discrete parts `(location 0..=3, variable 0..=10)` and
    /// zones of two clocks, without the active-clock reduction.
    fn packing() -> Packing<'static> {
        Packing {
            codec: KeyCodec::for_ranges([(0, 3), (0, 10)]),
            active: None,
            nproc: 1,
            nkey: 2,
            dim: 3,
            set: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// The zone `x1 <= c, x2 - x1 <= 2` after delay from zero.
    fn zone(c: i32) -> Dbm {
        let mut z = Dbm::zero(3);
        z.up();
        assert!(z.constrain(1, 0, raw(c, false)));
        assert!(z.constrain(2, 1, raw(2, false)));
        z
    }

    /// Writes then reads `(key, zone)`: what was read, and the bytes.
    fn round_trip(key: &[i32], zone: &Dbm) -> (Vec<i32>, Dbm, usize) {
        let mut p = packing();
        let mut w = Writer::default();
        p.write(&mut w, key, zone);
        let mut r = Reader::new(&w.0);
        let (mut k, mut z) = (Vec::new(), Dbm::zero(3));
        p.read(&mut r, &mut k, &mut z);
        assert!(r.done(), "the reader took the whole message");
        (k, z, w.0.len())
    }

    #[test]
    fn a_successor_travels_packed_as_the_store_keeps_it() {
        let (key, z) = (vec![2, 7], zone(5));
        let (k, back, bytes) = round_trip(&key, &z);
        assert_eq!((k, back), (key, z));
        // Two flag bytes, one byte a slot, 9 entries of 2 bytes (the
        // unpacked form: 8 + 36 bytes).
        assert_eq!(bytes, 2 + 2 + 9 * 2);
    }

    #[test]
    fn values_beyond_the_packed_ranges_travel_wide_and_exact() {
        // A variable outside its declared range, a bound beyond 16 bits.
        let (key, z) = (vec![1, 100_000], zone(100_000));
        let (k, back, bytes) = round_trip(&key, &z);
        assert_eq!((k, back), (key, z));
        assert_eq!(bytes, 2 + 2 * 4 + 9 * 4);
    }

    #[test]
    fn variable_length_figures_round_trip() {
        let figures = [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX];
        let mut w = Writer::default();
        for &v in &figures {
            w.var(v);
        }
        // 1 + 1 + 1 + 2 + 2 + 5 + 10 bytes.
        assert_eq!(w.0.len(), 22);
        let mut r = Reader::new(&w.0);
        let back: Vec<u64> = figures.iter().map(|_| r.var()).collect();
        assert_eq!(back, figures);
        assert!(r.done());
    }
}
