//! Hash-distributed best-first search (greedy and A*, as HDA* distributes
//! A*) over the sharded stores of the parallel breadth-first search.
//!
//! Every shard owns its store and its own priority queue; a state waits in
//! the queue of the shard owning its discrete part. The search runs in
//! bulk-synchronous rounds:
//!
//! 1. *Take* (the caller's thread; a pop is cheap): the best states of all
//!    shards' queues, merged in the sequential search's order (priority,
//!    then the order of pushes), up to [`PER_THREAD`] per thread, all of
//!    the best priority waiting, within what is left of the state budget.
//! 2. *Expand* (parallel, stores read only): as in breadth-first search
//!    (`bfs::expand`), the successors are sorted into one batch per owning
//!    shard, each tagged with its position in the round.
//! 3. *Insert* (parallel, one worker per shard, no locks): each shard
//!    inserts its batches in that order, tests the goal at generation,
//!    estimates the new states with the shared heuristic and queues them.
//!
//! The first goal or model error of a round in that order ends the search;
//! a round that takes no state ends it with the state space exhausted.
//!
//! What differs from the sequential search: the successors of a round's
//! states are queued only after the whole round is expanded, so the order
//! is the sequential one only for rounds of one state, and other states
//! may be explored; A* tests the goal at generation, not at expansion, so
//! its traces need not be shortest. The
//! verdicts are the same: an exhausted search has explored every state
//! that the subsumption leaves, and a goal or error is reported with a path
//! to it. Rounds are deterministic for a given number of threads.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;

use super::super::dbm::Dbm;
use super::super::frontier::Ties;
use super::super::heuristics::{Heuristic, SharedHeuristic};
use super::super::semantics::Model;
use super::super::store::{Store, Subsumption};
use super::super::{CheckResult, Limit, SearchOrder, Stats, Task};
use super::bfs::{self, Ctx, Expanded, Inserts, Pos, Shard, in_flight};
use super::{Found, Gid, Sharded};

/// States per thread and round. Few: with greedy's inclusion-only
/// subsumption, every state expanded before the successors of the states
/// before it are queued can be one that a larger zone replaces later and
/// that the sequential order would not have expanded (on fischer-correct
/// N=9 with dL, 2 threads: 89,631 explored states sequentially, as many
/// with rounds of 1 state, 102,729 with 16, 234,445 with 256); enough that
/// a round's two barriers cost little next to its work.
const PER_THREAD: usize = 16;
/// Tasks per thread of the expansion phase, so that a round balances.
const TASKS_PER_THREAD: usize = 2;
/// Explored states between progress reports.
const PROGRESS_EVERY: u64 = 4096;
/// Priority of states the heuristic declares dead ends: explored last, but
/// still explored, since a model error may be reachable from them (the
/// value of the sequential search's order policy).
const DEAD_END: u32 = u32::MAX / 4;

/// The heuristic's side: the shared estimates, the order's priorities, and
/// whether estimates are cached per discrete part and dead ends pruned.
struct Guide<'a> {
    heuristic: Option<&'a dyn SharedHeuristic>,
    astar: bool,
    cache: bool,
    prune: bool,
    /// The order's subsumption rule (as the sequential search's).
    rule: Subsumption,
}

impl Guide<'_> {
    /// The value of the new state `id` of `store` (`None`: a dead end).
    fn value(
        &self,
        model: &Model,
        store: &mut Store,
        id: u32,
        key: &[i32],
        zone: &Dbm,
        locs: &mut Vec<u32>,
    ) -> Option<u32> {
        let Some(h) = self.heuristic else {
            return Some(0);
        };
        let disc = store.state(id).disc;
        if let Some(v) = store.cached_h(disc).filter(|_| self.cache) {
            return v;
        }
        locs.clear();
        locs.extend(model.locs(key).iter().map(|&l| l as u32));
        let v = h.estimate_shared(locs, model.vars(key), zone);
        if self.cache {
            store.set_cached_h(disc, v);
        }
        v
    }

    /// The queue priority at depth `g` with value `h`, as the sequential
    /// search orders them (A*: `g + h`, ties to the smaller `h`; without a
    /// heuristic, 0).
    fn priority(&self, g: u32, h: Option<u32>) -> u64 {
        if self.heuristic.is_none() {
            // As the sequential search: no heuristic, every state equal.
            return 0;
        }
        let h = h.unwrap_or(DEAD_END) as u64;
        if self.astar {
            ((g as u64 + h) << 32) | h
        } else {
            h
        }
    }
}

/// Where a state comes in the order of pushes: the round that generated
/// it and its position there (parent's position in the round, transition,
/// zone), as the sequential search pushes them; the initial state is
/// round 0. First-in first-out ties compare it as is, last-in first-out
/// ones reversed.
type Tie = (u32, Pos);

/// A shard's priority queue and counters, beside its store. Ties are broken
/// by [`Tie`], the same in every shard, so that taking the best state of
/// all shards follows the sequential search's order (its frontier's tie key
/// counts pushes, which only one queue can do).
struct Open {
    heap: BinaryHeap<Reverse<(u64, Tie, u32)>>,
    ties: Ties,
    pushes: u64,
    pruned: u64,
}

impl Open {
    fn push(&mut self, id: u32, priority: u64, tie: Tie) {
        let tie = match self.ties {
            Ties::Fifo => tie,
            Ties::Lifo => {
                let (r, (p, t, z)) = tie;
                (
                    u32::MAX - r,
                    (usize::MAX - p, usize::MAX - t, usize::MAX - z),
                )
            }
        };
        self.heap.push(Reverse((priority, tie, id)));
        self.pushes += 1;
    }

    /// The key of the best state that a larger zone has not replaced,
    /// dropping the replaced ones before it (the sequential search skips
    /// them when it pops them).
    fn head(&mut self, store: &Store) -> Option<(u64, Tie, u32)> {
        while let Some(&Reverse(key)) = self.heap.peek() {
            if !store.removed(key.2) {
                return Some(key);
            }
            self.heap.pop();
        }
        None
    }

    fn bytes(&self) -> u64 {
        (self.heap.capacity() * std::mem::size_of::<(u64, Tie, u32)>()) as u64
    }
}

/// Greedy or A* search of the `task`'s check on `options.threads` threads,
/// guided by `heuristic` (`None`: every state estimated at 0). Returns
/// `None` when the heuristic cannot be shared between threads or no pool of
/// workers can be had; the caller then searches sequentially.
pub(crate) fn run(
    task: Task,
    heuristic: Option<&dyn Heuristic>,
    progress: &mut dyn FnMut(&Stats),
) -> Option<CheckResult> {
    let options = task.options;
    let shared_h = match heuristic {
        Some(h) => Some(h.shared()?),
        None => None,
    };
    let guide = Guide {
        heuristic: shared_h,
        astar: options.config.search == SearchOrder::AStar,
        cache: options.cache_heuristic && !heuristic.is_some_and(|h| h.zone_aware()),
        prune: heuristic.is_some_and(|h| h.prunes()),
        rule: if options.config.search == SearchOrder::AStar {
            Subsumption::NoDeeper
        } else {
            Subsumption::Any
        },
    };
    super::search(task, |ctx, sharded| {
        let mut search = Search {
            open: (0..sharded.shards.len())
                .map(|_| Open {
                    heap: BinaryHeap::new(),
                    ties: options.config.ties,
                    pushes: 0,
                    pruned: 0,
                })
                .collect(),
            sharded,
            rounds: 0,
            threads: options.threads,
        };
        let found = search.explore(ctx, &guide, options.max_states, progress);
        search.finish();
        (found, search.sharded)
    })
}

/// The state of a parallel best-first search.
struct Search {
    sharded: Sharded,
    /// Per shard, its queue (`open[s]` belongs to `sharded.shards[s]`).
    open: Vec<Open>,
    /// Rounds run so far.
    rounds: u32,
    threads: usize,
}

impl Search {
    /// Runs rounds until a goal or model error is found (`Ok(Some)`), every
    /// queue is empty (`Ok(None)`) or a limit stops the search (`Err`).
    fn explore(
        &mut self,
        ctx: &Ctx,
        guide: &Guide,
        max_states: Option<u64>,
        progress: &mut dyn FnMut(&Stats),
    ) -> Result<Option<Found>, Limit> {
        let (init, ikey, izone) = match self.sharded.insert_initial(ctx, guide.rule) {
            Ok(i) => i,
            Err(found) => return Ok(found),
        };
        let s = init.shard as usize;
        let store = &mut self.sharded.shards[s].store;
        let h = guide.value(ctx.model, store, init.id, &ikey, &izone, &mut Vec::new());
        let open = &mut self.open[s];
        if guide.prune && h.is_none() {
            open.pruned += 1;
        } else {
            open.push(init.id, guide.priority(0, h), (0, (0, 0, 0)));
        }

        let mut reported = 0;
        loop {
            let (round, spent) = self.take(max_states);
            if !round.is_empty()
                && let Some(found) = self.round(ctx, guide, &round)?
            {
                return Ok(Some(found));
            }
            if spent {
                return Err(Limit::States);
            }
            if round.is_empty() {
                return Ok(None);
            }
            if self.sharded.stats.explored >= reported + PROGRESS_EVERY {
                reported = self.sharded.stats.explored;
                self.sharded.report(progress);
            }
        }
    }

    /// The states of the next round: the best states of all shards, in the
    /// sequential search's order (priority, then [`Tie`]), up to
    /// [`PER_THREAD`] times the threads, all of the best priority waiting,
    /// marked expanded, within the state budget; and whether the budget is
    /// spent with states left (the search stops after the round).
    ///
    /// Taking only the best priority level keeps the order close to the
    /// sequential one: their successors of a better priority come first in
    /// the next round, as the sequential search would take them before the
    /// worse states.
    fn take(&mut self, max_states: Option<u64>) -> (Vec<Gid>, bool) {
        let explored = self.sharded.stats.explored;
        let mut left = max_states.map_or(u64::MAX, |m| m.saturating_sub(explored));
        let most = PER_THREAD * self.threads;
        let mut round = Vec::new();
        let mut best = None;
        while round.len() < most {
            // A merge of the shards' queues: few shards, a scan is enough.
            let next = self
                .sharded
                .shards
                .iter()
                .zip(&mut self.open)
                .enumerate()
                .filter_map(|(s, (shard, open))| open.head(&shard.store).map(|k| (k, s)))
                .min();
            let Some(((priority, _, id), s)) = next else {
                break;
            };
            if *best.get_or_insert(priority) < priority {
                break;
            }
            if left == 0 {
                // The sequential search stops when it would explore
                // state `max + 1`.
                return (round, true);
            }
            self.open[s].heap.pop();
            self.sharded.shards[s].store.mark_expanded(id);
            round.push(Gid {
                shard: s as u32,
                id,
            });
            left -= 1;
        }
        (round, false)
    }

    /// Expands the states of `round` and inserts their successors.
    fn round(&mut self, ctx: &Ctx, guide: &Guide, round: &[Gid]) -> Result<Option<Found>, Limit> {
        let size = round.len().div_ceil(TASKS_PER_THREAD * self.threads).max(1);
        let expanded = self.sharded.expand(ctx, round, size, 0)?;
        // A model error ends the search: the successors of the round are
        // not needed (their goal states, if any, would be a right answer
        // too, but the error is found first in the round's order).
        if let Some(e) = expanded
            .iter()
            .filter_map(|e| e.error.as_ref())
            .min_by_key(|e| e.pos)
        {
            return Ok(Some(Found::Error(Some(e.state), e.edges.clone(), e.error)));
        }
        self.rounds += 1;
        let number = self.rounds;
        let work = self.sharded.shards.iter_mut().zip(&mut self.open);
        let inserts: Vec<Inserts> = self.sharded.pool.install(|| {
            work.collect::<Vec<_>>()
                .into_par_iter()
                .enumerate()
                .map(|(s, (shard, open))| insert(ctx, guide, number, shard, open, s, &expanded))
                .collect()
        });
        let queues = self.queue_bytes();
        let held = in_flight(&expanded) + self.sharded.spare.bytes();
        if let Some(g) = self.sharded.settle(ctx, &inserts, held, queues)? {
            return Ok(Some(Found::Goal(g)));
        }
        if let Some(limit) = ctx.stop.reason() {
            return Err(limit);
        }
        self.sharded.spare.keep(expanded);
        Ok(None)
    }

    fn queue_bytes(&self) -> u64 {
        self.open.iter().map(Open::bytes).sum()
    }

    /// The final figures.
    fn finish(&mut self) {
        let pushes = self.open.iter().map(|o| o.pushes).sum();
        let queues = self.queue_bytes();
        self.sharded.finish(pushes, queues);
        self.sharded.stats.pruned = self.open.iter().map(|o| o.pruned).sum();
    }
}

/// Inserts into shard `s` the successors bound for it, in the round's
/// order, and queues the new ones; stops at the first goal state.
fn insert(
    ctx: &Ctx,
    guide: &Guide,
    round: u32,
    shard: &mut Shard,
    open: &mut Open,
    s: usize,
    expanded: &[Expanded],
) -> Inserts {
    let mut locs = Vec::new();
    bfs::insert(
        ctx,
        shard,
        s,
        expanded,
        None,
        guide.rule,
        |store, item, gid, key, zone| {
            let h = guide.value(ctx.model, store, gid.id, key, zone, &mut locs);
            if guide.prune && h.is_none() {
                open.pruned += 1;
            } else {
                open.push(gid.id, guide.priority(item.g, h), (round, item.pos));
            }
        },
    )
}
