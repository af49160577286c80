//! The covering search over the local-time zone graph: pop a state,
//! compute its successors, test each against the goal, drop those a
//! stored state of the same discrete part sync-subsumes, and remove the
//! stored states a new one sync-subsumes (TChecker's `covreach` with full
//! covering, as `concur19` runs it).

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use crate::dbm::{Dbm, Raw};
use crate::frontier::{Frontier, Queue};
use crate::goal::Goal;
use crate::heuristics::Heuristic;
use crate::semantics::TransitionBuf;
use crate::{Limit, SearchOrder, Stats, Task, Ties};
use zeno_ir::{EdgeId, EvalError, ProcId};

use super::graph::LocalGraph;
use super::por::Ample;
use super::refdbm;

/// How often (in explored states) progress is reported.
const PROGRESS_EVERY: u64 = 4096;

pub type Path = Vec<Vec<(ProcId, EdgeId)>>;

/// What the search found.
pub enum Found {
    /// A goal state, reached along the path.
    Goal(Path),
    /// Every state was explored without a goal.
    Exhausted,
    /// A limit stopped the search.
    Stopped(Limit),
    /// A run-time error of the model (evaluating a guard, an update or the
    /// goal): the ordinary search reports it, with its trace.
    ModelError(EvalError),
}

struct State {
    key: u32,
    parent: u32,
    /// The transition from the parent, in `Store::edges`.
    edges: (u32, u32),
    depth: u32,
    removed: bool,
}

const NO_PARENT: u32 = u32::MAX;

struct Store {
    keys: Vec<Box<[i32]>>,
    by_key: FxHashMap<Box<[i32]>, (u32, Vec<u32>)>,
    states: Vec<State>,
    zones: Vec<Dbm>,
    /// Each zone's `refdbm::ref_mins` and `sync_thresholds` (for its
    /// discrete state's bounds), `offsets` entries per state: what
    /// subsumption reads of a zone besides its offsets' rows.
    mins: Vec<Raw>,
    thresholds: Vec<Raw>,
    offsets: usize,
    /// The same for the zone being inserted.
    new_mins: Vec<Raw>,
    new_thresholds: Vec<Raw>,
    edges: Vec<(ProcId, EdgeId)>,
    live: u64,
}

impl Store {
    fn new(offsets: usize) -> Store {
        Store {
            keys: Vec::new(),
            by_key: FxHashMap::default(),
            states: Vec::new(),
            zones: Vec::new(),
            mins: Vec::new(),
            thresholds: Vec::new(),
            offsets,
            new_mins: Vec::new(),
            new_thresholds: Vec::new(),
            edges: Vec::new(),
            live: 0,
        }
    }

    fn path_to(&self, mut id: u32) -> Path {
        let mut path = Vec::new();
        while self.states[id as usize].parent != NO_PARENT {
            let (a, b) = self.states[id as usize].edges;
            path.push(self.edges[a as usize..b as usize].to_vec());
            id = self.states[id as usize].parent;
        }
        path.reverse();
        path
    }

    /// Inserts (`key`, `zone`) unless a stored state subsumes it, removing
    /// the stored states it subsumes; the new state's id, or `None`.
    fn insert(
        &mut self,
        graph: &mut LocalGraph,
        key: &[i32],
        zone: &Dbm,
        parent: u32,
        edges: &[(ProcId, EdgeId)],
        depth: u32,
    ) -> Option<u32> {
        let next_key = self.keys.len() as u32;
        if !self.by_key.contains_key(key) {
            self.keys.push(key.into());
            self.by_key.insert(key.into(), (next_key, Vec::new()));
        }
        graph.fill_bounds(key);
        refdbm::ref_mins(zone, graph.layout.nproc, &mut self.new_mins);
        graph.thresholds_filled(&self.new_mins, &mut self.new_thresholds);
        let (kid, ids) = self.by_key.get_mut(key).expect("inserted above");
        let offsets = self.offsets;
        fn part(v: &[Raw], offsets: usize, id: u32) -> &[Raw] {
            &v[id as usize * offsets..(id as usize + 1) * offsets]
        }
        let (zones, mins, thresholds) = (&self.zones, &self.mins, &self.thresholds);
        let new_left = (zone, &self.new_thresholds[..]);
        if ids.iter().any(|&id| {
            graph.subsumed_filled(new_left, (&zones[id as usize], part(mins, offsets, id)))
        }) {
            return None;
        }
        let new_right = (zone, &self.new_mins[..]);
        let mut removed = Vec::new();
        ids.retain(|&id| {
            let covered = graph.subsumed_filled(
                (&zones[id as usize], part(thresholds, offsets, id)),
                new_right,
            );
            if covered {
                removed.push(id);
            }
            !covered
        });
        let states = &mut self.states;
        let zones = &mut self.zones;
        for &id in &removed {
            states[id as usize].removed = true;
            // The zone is not needed again: a trace follows parents
            // and transitions only.
            zones[id as usize] = Dbm::zero(0);
        }
        let removed = removed.len() as u64;
        let id = states.len() as u32;
        ids.push(id);
        let start = self.edges.len() as u32;
        self.edges.extend_from_slice(edges);
        states.push(State {
            key: *kid,
            parent,
            edges: (start, self.edges.len() as u32),
            depth,
            removed: false,
        });
        zones.push(zone.clone());
        self.mins.extend_from_slice(&self.new_mins);
        self.thresholds.extend_from_slice(&self.new_thresholds);
        self.live = self.live + 1 - removed;
        Some(id)
    }
}

/// The frontier priority of a state at depth `g` with heuristic value `h`.
fn priority(order: SearchOrder, g: u32, h: Option<u32>) -> u64 {
    // Dead ends last, never dropped: a model error may lie beyond them.
    let h = h.unwrap_or(u32::MAX / 4) as u64;
    match order {
        SearchOrder::AStar => ((g as u64 + h) << 32) | h,
        SearchOrder::Greedy => h,
        _ => 0,
    }
}

/// Searches the local-time graph in the task's order, with `heuristic`
/// for greedy and A* (`None`: every state equal), following only the
/// ample transitions of each state when `ample` is given.
pub fn run(
    task: Task,
    graph: &mut LocalGraph,
    goal: &Goal,
    mut ample: Option<Ample>,
    mut heuristic: Option<&mut dyn Heuristic>,
    stats: &mut Stats,
    progress: &mut dyn FnMut(&Stats),
) -> Found {
    let start = Instant::now();
    let order = task.options.config.search;
    let mut frontier = match order {
        SearchOrder::Bfs => Frontier::fifo(),
        SearchOrder::Dfs | SearchOrder::RandomDfs => Frontier::lifo(),
        SearchOrder::Greedy | SearchOrder::AStar => match task.options.config.ties {
            Ties::Fifo => Frontier::best_first(),
            Ties::Lifo => Frontier::best_first_lifo(),
        },
    };
    let mut rng = ChaCha8Rng::seed_from_u64(task.options.seed);
    let model = graph.model;
    let mut estimate = |key: &[i32]| -> Option<u32> {
        let h = heuristic.as_deref_mut()?;
        let locs: Vec<u32> = model.locs(key).iter().map(|&l| l as u32).collect();
        h.estimate(&locs, model.vars(key))
    };
    let mut store = Store::new(graph.dim() - graph.layout.nproc);
    let mut buf = TransitionBuf::default();
    buf.watch = Some(task.stop.watch());
    let mut goal_buf = TransitionBuf::default();
    let mut group = Vec::new();
    let mut new_key = Vec::new();
    let mut succ = Dbm::zero(graph.dim());
    let mut order_buf: Vec<usize> = Vec::new();

    let (ikey, izone) = match graph.initial() {
        Ok(Some(s)) => s,
        Ok(None) => return Found::Exhausted,
        Err(e) => return Found::ModelError(e),
    };
    stats.generated += 1;
    match graph.is_goal(goal, &ikey, &izone, &mut goal_buf) {
        Ok(true) => return Found::Goal(Vec::new()),
        Ok(false) => {}
        Err(e) => return Found::ModelError(e),
    }
    let Some(id) = store.insert(graph, &ikey, &izone, NO_PARENT, &[], 0) else {
        return Found::Exhausted;
    };
    frontier.push(id, priority(order, 0, estimate(&ikey)));
    let mut key = Vec::new();
    let mut zone = Dbm::zero(graph.dim());
    let found = 'search: {
        while let Some(id) = frontier.pop() {
            let state = &store.states[id as usize];
            if state.removed {
                continue;
            }
            stats.explored += 1;
            if let Some(limit) = task.stop.reason() {
                break 'search Found::Stopped(limit);
            }
            if task.options.max_states.is_some_and(|m| stats.explored > m) {
                stats.explored -= 1;
                break 'search Found::Stopped(Limit::States);
            }
            if stats.explored.is_multiple_of(PROGRESS_EVERY) {
                stats.stored = store.live;
                stats.elapsed = start.elapsed();
                progress(stats);
            }
            let depth = state.depth;
            key.clear();
            key.extend_from_slice(&store.keys[state.key as usize]);
            zone.assign(&store.zones[id as usize]);
            if let Err(e) = graph.model.transitions(&key, &mut buf) {
                break 'search Found::ModelError(e.error);
            }
            if let Some(limit) = buf.stopped {
                break 'search Found::Stopped(limit);
            }
            match ample.as_mut() {
                Some(ample) => ample.select(&key, &buf, &mut order_buf),
                None => {
                    order_buf.clear();
                    order_buf.extend(0..buf.len());
                }
            }
            let partial = order_buf.len() < buf.len();
            if order == SearchOrder::RandomDfs {
                order_buf.shuffle(&mut rng);
            }
            for &k in &order_buf {
                if task.stop.requested() {
                    break 'search Found::Stopped(task.stop.reason().unwrap_or(Limit::Cancelled));
                }
                let edges = buf.get(k);
                match graph.successor(&key, &zone, edges, &mut group, &mut new_key, &mut succ) {
                    Ok(true) => {}
                    Ok(false) => {
                        // An ample move is enabled wherever its data guard
                        // holds (`por.rs`, step (1) of the argument).
                        debug_assert!(!partial, "a disabled ample move");
                        continue;
                    }
                    Err(e) => break 'search Found::ModelError(e),
                }
                stats.generated += 1;
                match graph.is_goal(goal, &new_key, &succ, &mut goal_buf) {
                    Ok(true) => {
                        let mut path = store.path_to(id);
                        path.push(edges.to_vec());
                        break 'search Found::Goal(path);
                    }
                    Ok(false) => {}
                    Err(e) => break 'search Found::ModelError(e),
                }
                let Some(sid) = store.insert(graph, &new_key, &succ, id, edges, depth + 1) else {
                    continue;
                };
                frontier.push(sid, priority(order, depth + 1, estimate(&new_key)));
            }
        }
        Found::Exhausted
    };
    stats.stored = store.live;
    stats.elapsed = start.elapsed();
    found
}
