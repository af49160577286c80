//! The exploration loop (thesis §2.2, Fig. 2.1): pop a state, compute its
//! zone successors, drop those subsumed by stored states, stop at the first
//! goal state or model error.
//!
//! The loop is the algorithm only; as in TChecker, what varies lives apart:
//! the order's choices (frontier, goal test, subsumption, priority) in
//! `policy.rs`, the frontier enhancements' queue choice in `enhancement.rs`,
//! and the zone graph's step (successor, extrapolation, inactive clocks) in
//! `zone_graph.rs`.

mod enhancement;
mod policy;

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use zeno_ir::{EdgeId, EvalError, ProcId};

use super::active::ActiveClocks;
use super::concrete;
use super::dbm::Dbm;
use super::frontier::{MultiQueue, Queue};
use super::goal::Goal;
use super::heuristics::Heuristic;
use super::packed_key::KeyCodec;
use super::semantics::{Model, TransitionBuf};
use super::stopwatches::Refutations;
use super::store::{Inserted, NO_PARENT, Store};
use super::symmetry::Canon;
use super::zone_graph::{Unlisted, ZoneGraph};
use super::{CheckResult, Limit, Stats, Subsume, Task, Verdict};
use enhancement::Enhancer;
use policy::OrderPolicy;

/// How often (in explored states) the memory peak is polled. The stop
/// conditions (cancel flag, deadline) are polled at every state and before
/// every reduced heuristic of useless transitions is built: they cost one
/// atomic load and one clock read, while a state can cost milliseconds
/// (hL on a large network, a reduced heuristic per transition), so polling
/// them every 1,024 states let a search overrun its limit by seconds.
const POLL_EVERY: u64 = 1024;
/// How often (in explored states) progress is reported.
const PROGRESS_EVERY: u64 = 4096;
/// States the store makes room for before each expansion (more than almost
/// any state has successors; a state with more grows the tables unchecked).
const RESERVE_STATES: usize = 16;

/// What the search found.
enum Found {
    Goal(u32, Vec<Dbm>),
    Error(u32, Vec<(ProcId, EdgeId)>, EvalError),
    /// The limit was reached while a reduced heuristic was built.
    Stopped,
}

/// The heuristic's side of the search: a state's value, cached per
/// discrete part where that is sound.
struct Estimator<'h> {
    heuristic: Option<&'h mut dyn Heuristic>,
    /// Zone-aware estimates (pattern databases with clocks) are never cached
    /// per discrete state: states sharing it differ in their zones.
    cache: bool,
    locs: Vec<u32>,
}

impl Estimator<'_> {
    /// The heuristic value of state `id` (`None`: a dead end); 0 when
    /// nothing reads it.
    fn value(
        &mut self,
        model: &Model,
        store: &mut Store,
        id: u32,
        key: &[i32],
        zone: &Dbm,
    ) -> Option<u32> {
        let Some(h) = self.heuristic.as_deref_mut() else {
            return Some(0);
        };
        let disc = store.state(id).disc;
        if let Some(v) = store.cached_h(disc).filter(|_| self.cache) {
            return v;
        }
        self.locs.clear();
        self.locs.extend(model.locs(key).iter().map(|&l| l as u32));
        let v = h.estimate_in_zone(&self.locs, model.vars(key), zone);
        if self.cache {
            store.set_cached_h(disc, v);
        }
        v
    }

    /// The frontier priority of a state at depth `g` with value `h`: the
    /// order's, when a heuristic is read, else 0 (every state equal).
    fn priority(&self, policy: &OrderPolicy, g: u32, h: Option<u32>) -> u64 {
        if self.heuristic.is_some() {
            policy.priority(g, h)
        } else {
            0
        }
    }
}

/// Decides the `task`'s check by exploring the zone graph of its network in
/// the order of its options, guided by `heuristic` where the order or
/// enhancement reads one.
pub fn run(
    task: Task,
    heuristic: Option<&mut dyn Heuristic>,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    let start = Instant::now();
    let mut stats = Stats::default();
    let chk = task.net.check(task.check);
    let goal = Goal::new(chk.kind.goal());
    let mut model = Model::new(task.net, &goal.formula);
    model.extrapolate &= task.options.extrapolate;
    if model.beyond_zones().is_some() {
        return unknown(Limit::ClockRange, stats);
    }
    let (found_verdict, none_verdict) = Verdict::of_reachability(&chk.kind);

    let policy = OrderPolicy::new(task.options);
    let mut enhancer = Enhancer::new(task.net, &goal.formula, task.options);
    // States the heuristic proves to reach neither the goal nor a model error
    // are dropped (only the pattern database proves that).
    let prune = policy.guided && heuristic.as_deref().is_some_and(|h| h.prunes());
    let cache =
        task.options.cache_heuristic && !heuristic.as_deref().is_some_and(|h| h.zone_aware());
    let mut estimator = Estimator {
        heuristic: heuristic.filter(|_| policy.guided || enhancer.needs_heuristic()),
        cache,
        locs: Vec::with_capacity(model.nproc),
    };
    let subsumption = policy.subsumption;
    let mut frontier = policy.frontier();
    let mut rng = ChaCha8Rng::seed_from_u64(task.options.seed);
    let nkey = model.nproc + task.net.variables.len();
    let active = task
        .options
        .active_clocks
        .then(|| ActiveClocks::new(task.net, &goal.formula));
    let mut store = match &active {
        Some(a) => Store::with_active_clocks(nkey, model.dim, model.nproc, a.clone()),
        None => Store::new(nkey, model.dim),
    };
    store.pack_keys(KeyCodec::of_network(task.net));
    if task.options.subsume == Subsume::Alu
        && let Some(lu) = model.alu_bounds()
    {
        store.subsume_alu(lu.clone(), model.nproc);
    }
    let model = &model;
    let mut graph = ZoneGraph::new(model, active.as_ref());
    graph.watch(Some(task.stop.watch()));
    let mut goal_buf = TransitionBuf::default();
    let mut order_buf: Vec<usize> = Vec::new();
    let mut zone = Dbm::zero(model.dim);
    let mut key = Vec::new();
    let mut canon_key: Vec<i32> = Vec::new();
    let mut peak = 0u64;
    // Stopwatch models: goals whose paths the exact delays refute are
    // passed by (`stopwatches.rs`).
    let mut refutations = Refutations::default();
    // Symmetry reduction (`symmetry.rs`): states are stored as their
    // representatives, and traces are mapped back.
    let mut canon = task
        .options
        .symmetry
        .then(|| Canon::new(task.net, task.check.index()))
        .flatten();
    if canon.is_some() {
        let sets = task.net.symmetry.sets.iter().map(|s| s.name.clone());
        stats.symmetry = Some(super::SymmetryUse::Reduced(sets.collect()));
    }

    let found = 'search: {
        let (mut ikey, mut izone) = match graph.initial() {
            Ok(Some(s)) => s,
            Ok(None) => break 'search None,
            Err(e) => {
                // Initial invariant bounds fail to evaluate: an error before any step.
                break 'search Some(Found::Error(NO_PARENT, Vec::new(), e));
            }
        };
        if let Some(c) = &mut canon {
            c.canonicalize(&mut ikey, &mut izone);
        }
        stats.generated += 1;
        let Inserted::New(id) = store.insert(&ikey, &izone, NO_PARENT, &[], 0, subsumption) else {
            break 'search None;
        };
        if let Some(c) = &mut canon {
            c.stored(id);
        }
        if !policy.goal_at_pop {
            let pieces = goal.satisfied(model, &ikey, &izone, &mut goal_buf);
            if !pieces.is_empty() && !refutations.refuted(model, &goal, &[], task.stop) {
                break 'search Some(Found::Goal(id, pieces));
            }
        }
        let h = estimator.value(model, &mut store, id, &ikey, &izone);
        if prune && h.is_none() {
            stats.pruned += 1;
        } else {
            frontier.push_to(0, id, estimator.priority(&policy, 0, h));
        }

        while let Some((id, popped_from)) = frontier.pop_from() {
            if store.removed(id) {
                continue;
            }
            store.mark_expanded(id);
            stats.explored += 1;
            if popped_from > 0 {
                stats.deferred_explored += 1;
            }
            if (stats.explored - 1) % POLL_EVERY == 0 {
                peak = peak.max(store.bytes() + frontier.bytes() as u64);
            }
            // The store's tables grow here, within the memory budget, so
            // that the insertions below never allocate much.
            if store.reserve(RESERVE_STATES).is_err() {
                task.stop.memory_refused();
            }
            if let Some(limit) = task.stop.reason() {
                finish(&mut stats, &store, &frontier, peak, start);
                return unknown(limit, stats);
            }
            if task.options.max_states.is_some_and(|m| stats.explored > m) {
                stats.explored -= 1;
                finish(&mut stats, &store, &frontier, peak, start);
                return unknown(Limit::States, stats);
            }
            if stats.explored % PROGRESS_EVERY == 0 {
                stats.stored = store.live();
                stats.elapsed = start.elapsed();
                progress(&stats);
            }
            store.key_into(id, &mut key);
            store.zone_into(id, &mut zone);
            let g = store.state(id).g;
            enhancer.expanding(&store, id, model, &key);
            if policy.goal_at_pop {
                let pieces = goal.satisfied(model, &key, &zone, &mut goal_buf);
                if !pieces.is_empty()
                    && !refutations.refuted(model, &goal, &path_to(&store, id), task.stop)
                {
                    break 'search Some(Found::Goal(id, pieces));
                }
            }
            let transitions = match graph.transitions(&key) {
                Ok(n) => n,
                Err(Unlisted::Error(e)) => break 'search Some(Found::Error(id, e.edges, e.error)),
                Err(Unlisted::Stopped(_)) => break 'search Some(Found::Stopped),
            };
            order_buf.clear();
            order_buf.extend(0..transitions);
            if policy.shuffles() {
                order_buf.shuffle(&mut rng);
            }
            for &k in &order_buf {
                // Polled per transition too: with many clocks one state's
                // successors can take seconds (a closure is cubic in them).
                if task.stop.requested() {
                    break 'search Some(Found::Stopped);
                }
                // Queue for successors by this transition, decided once.
                let mut queue = enhancer.transition_queue(graph.edges(k), popped_from);
                let step = match graph.next(&key, &zone, k) {
                    Err(e) => break 'search Some(Found::Error(id, graph.edges(k).to_vec(), e)),
                    Ok(None) => continue,
                    Ok(Some(step)) => step,
                };
                let (edges, step_key) = (step.edges, step.key);
                for new_zone in step.zones.iter_mut() {
                    stats.generated += 1;
                    // The representative of the successor's orbit is
                    // stored (its key copied: the graph's is read-only).
                    let new_key: &[i32] = match &mut canon {
                        Some(c) => {
                            canon_key.clear();
                            canon_key.extend_from_slice(step_key);
                            c.canonicalize(&mut canon_key, new_zone);
                            &canon_key
                        }
                        None => step_key,
                    };
                    let new_zone = &*new_zone;
                    let inserted = store.insert(new_key, new_zone, id, edges, g + 1, subsumption);
                    let Inserted::New(sid) = inserted else {
                        continue;
                    };
                    if let Some(c) = &mut canon {
                        c.stored(sid);
                    }
                    if !policy.goal_at_pop {
                        let pieces = goal.satisfied(model, new_key, new_zone, &mut goal_buf);
                        if !pieces.is_empty()
                            && !refutations.refuted(model, &goal, &path_to(&store, sid), task.stop)
                        {
                            break 'search Some(Found::Goal(sid, pieces));
                        }
                    }
                    let h = estimator.value(model, &mut store, sid, new_key, new_zone);
                    if prune && h.is_none() {
                        stats.pruned += 1;
                        continue;
                    }
                    let q = match queue {
                        Some(q) => q,
                        None => {
                            match enhancer.successor_queue(edges, model.vars(&key), h, task.stop) {
                                Some(q) => q,
                                None => break 'search Some(Found::Stopped),
                            }
                        }
                    };
                    queue = Some(q);
                    frontier.push_to(q, sid, estimator.priority(&policy, g + 1, h));
                }
            }
        }
        None
    };
    peak = peak.max(store.bytes() + frontier.bytes() as u64);
    finish(&mut stats, &store, &frontier, peak, start);
    match found {
        None => CheckResult {
            verdict: refutations.verdict(none_verdict),
            stats,
            trace: None,
        },
        Some(Found::Goal(id, _pieces)) => {
            let path = match &canon {
                Some(c) => c.path_to(&store, id),
                None => path_to(&store, id),
            };
            store.zone_into(id, &mut zone);
            if let Some(error) = goal.error(model, &store.key(id), &zone, &mut goal_buf) {
                let error = match &canon {
                    Some(c) => c
                        .map_back(&store, id, &[], Some(error))
                        .error
                        .unwrap_or(error),
                    None => error,
                };
                // The check's formula is undefined at this state.
                let trace = concrete::error_trace(model, &path, &[], error, task.stop);
                stats.trace_limit = trace.is_none().then(|| task.stop.reason()).flatten();
                return CheckResult {
                    verdict: Verdict::ModelError(error),
                    stats,
                    trace,
                };
            }
            let trace = concrete::goal_trace(model, &goal, &path, task.stop);
            stats.trace_limit = trace.is_none().then(|| task.stop.reason()).flatten();
            CheckResult {
                verdict: found_verdict,
                stats,
                trace,
            }
        }
        Some(Found::Stopped) => unknown(task.stop.reason().unwrap_or(Limit::Cancelled), stats),
        Some(Found::Error(id, edges, error)) => {
            let (path, edges, error) = if id == NO_PARENT {
                (Vec::new(), edges, error)
            } else {
                match &canon {
                    Some(c) => {
                        let back = c.map_back(&store, id, &edges, Some(error));
                        (back.path, back.edges, back.error.unwrap_or(error))
                    }
                    None => (path_to(&store, id), edges, error),
                }
            };
            let trace = concrete::error_trace(model, &path, &edges, error, task.stop);
            stats.trace_limit = trace.is_none().then(|| task.stop.reason()).flatten();
            CheckResult {
                verdict: Verdict::ModelError(error),
                stats,
                trace,
            }
        }
    }
}

fn unknown(limit: Limit, stats: Stats) -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(limit),
        stats,
        trace: None,
    }
}

/// The final figures of a search.
fn finish(stats: &mut Stats, store: &Store, frontier: &MultiQueue, peak: u64, start: Instant) {
    stats.queue_pushes = frontier.pushes().to_vec();
    stats.queue_pops = frontier.pops().to_vec();
    stats.stored = store.live();
    stats.elapsed = start.elapsed();
    stats.peak_memory = peak.max(store.bytes());
    stats.bytes_per_state = store.bytes_per_state();
}

/// The transitions from the initial state to `id`.
fn path_to(store: &Store, mut id: u32) -> Vec<Vec<(ProcId, EdgeId)>> {
    let mut path = Vec::new();
    while store.state(id).parent != NO_PARENT {
        path.push(store.transition(id).to_vec());
        id = store.state(id).parent;
    }
    path.reverse();
    path
}
