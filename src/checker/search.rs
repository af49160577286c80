//! The exploration loop (thesis §2.2, Fig. 2.1): pop a state, compute its
//! zone successors, drop those subsumed by stored states, stop at the first
//! goal state or model error.

use std::time::Instant;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::ir::{self, EdgeId, EvalError, ProcId};

use super::concrete;
use super::dbm::Dbm;
use super::enhance::{self, Contexts, Enhance, Useless};
use super::frontier::{Frontier, MultiQueue, Queue, Ties};
use super::goal::Goal;
use super::heuristics::Heuristic;
use super::semantics::{Model, TransitionBuf};
use super::store::{Inserted, NO_PARENT, Store, Subsumption};
use super::{CheckResult, Limit, Options, SearchOrder, Stats, Stop, Verdict};

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
/// Priority of states the heuristic declares dead ends: explored last, but
/// still explored, since a model error may be reachable from them.
const DEAD_END: u32 = u32::MAX / 4;

/// What the search found.
enum Found {
    Goal(u32, Vec<Dbm>),
    Error(u32, Vec<(ProcId, EdgeId)>, EvalError),
    /// The limit was reached while a reduced heuristic was built.
    Stopped,
}

pub fn run(
    net: &ir::Network,
    check: ir::CheckId,
    options: &Options,
    mut heuristic: Option<&mut dyn Heuristic>,
    stop: &Stop,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    let start = Instant::now();
    let mut stats = Stats::default();
    let chk = net.check(check);
    let goal = Goal::new(chk.kind.goal());
    let model = Model::new(net, &goal.formula);
    let invariant = matches!(chk.kind, ir::CheckKind::Invariant(_));
    let found_verdict = if invariant {
        Verdict::Fails
    } else {
        Verdict::Holds
    };
    let none_verdict = if invariant {
        Verdict::Holds
    } else {
        Verdict::Fails
    };

    let order = options.search;
    let guided = matches!(order, SearchOrder::Greedy | SearchOrder::AStar);
    // States the heuristic proves to reach neither the goal nor a model error
    // are dropped (only the pattern database proves that).
    let prune = guided && heuristic.as_deref().is_some_and(|h| h.prunes());
    // Goal at generation is earliest for blind orders; A* must test at
    // expansion for its traces to be shortest.
    let goal_at_pop = order == SearchOrder::AStar;
    let subsumption = match order {
        SearchOrder::Bfs => Subsumption::NoDeeperUnlessExpanded,
        SearchOrder::AStar => Subsumption::NoDeeper,
        _ => Subsumption::Any,
    };
    let mut frontier = MultiQueue::new(match order {
        SearchOrder::Bfs => Frontier::fifo,
        SearchOrder::Dfs | SearchOrder::RandomDfs => Frontier::lifo,
        SearchOrder::Greedy | SearchOrder::AStar => match options.ties {
            Ties::Fifo => Frontier::best_first,
            Ties::Lifo => Frontier::best_first_lifo,
        },
    });
    let ut = options.enhance == Enhance::UselessTransitions;
    let mut contexts = matches!(
        options.enhance,
        Enhance::InterferenceContexts | Enhance::ContextBoundingInterference
    )
    .then(|| Contexts::new(net, &goal.formula));
    let mut useless = ut.then(|| Useless::new(net, goal.formula.clone(), options.heuristic));
    // The transition that reached the state being expanded, and its locations.
    let mut from: Vec<(ProcId, EdgeId)> = Vec::new();
    let mut from_locs: Vec<u32> = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut store = Store::new(model.nproc + net.variables.len(), model.dim);
    let mut buf = TransitionBuf::default();
    let mut goal_buf = TransitionBuf::default();
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    let mut order_buf: Vec<usize> = Vec::new();
    let mut new_key = Vec::new();
    let mut succ: Vec<Dbm> = vec![Dbm::zero(model.dim)];
    let mut zone = Dbm::zero(model.dim);
    let mut key = Vec::new();
    let mut peak = 0u64;

    let mut locs: Vec<u32> = Vec::with_capacity(model.nproc);
    // The frontier priority and the heuristic value (`None`: dead end).
    // Zone-aware estimates (pattern databases with clocks) are never cached
    // per discrete state: states sharing it differ in their zones.
    let cache = options.cache_heuristic && !heuristic.as_deref().is_some_and(|h| h.zone_aware());
    let mut priority =
        |store: &mut Store, id: u32, key: &[i32], zone: &Dbm, g: u32| -> (u64, Option<u32>) {
            let Some(h) = heuristic.as_deref_mut().filter(|_| guided || ut) else {
                return (0, Some(0));
            };
            let disc = store.state(id).disc;
            let value = match store.cached_h(disc).filter(|_| cache) {
                Some(v) => v,
                None => {
                    locs.clear();
                    locs.extend(model.locs(key).iter().map(|&l| l as u32));
                    let v = h.estimate_in_zone(&locs, model.vars(key), zone);
                    if cache {
                        store.set_cached_h(disc, v);
                    }
                    v
                }
            };
            let h = value.unwrap_or(DEAD_END) as u64;
            let p = match order {
                SearchOrder::AStar => ((g as u64 + h) << 32) | h,
                _ if guided => h,
                _ => 0,
            };
            (p, value)
        };

    let finish = |stats: &mut Stats, store: &Store, frontier: &MultiQueue, peak: u64| {
        stats.queue_pushes = frontier.pushes().to_vec();
        stats.queue_pops = frontier.pops().to_vec();
        stats.stored = store.live();
        stats.elapsed = start.elapsed();
        stats.peak_memory = peak.max(store.bytes());
        stats.bytes_per_state = store.bytes_per_state();
    };

    let found = 'search: {
        let init = match model.initial() {
            Ok(Some(s)) => s,
            Ok(None) => break 'search None,
            Err(e) => {
                // Initial invariant bounds fail to evaluate: an error before any step.
                break 'search Some(Found::Error(NO_PARENT, Vec::new(), e));
            }
        };
        let (ikey, mut izone) = init;
        model.extrapolate(&ikey, &mut izone, &mut lower, &mut upper);
        stats.generated += 1;
        let Inserted::New(id) = store.insert(&ikey, &izone, NO_PARENT, &[], 0, subsumption) else {
            break 'search None;
        };
        if !goal_at_pop {
            let pieces = goal.satisfied(&model, &ikey, &izone, &mut goal_buf);
            if !pieces.is_empty() {
                break 'search Some(Found::Goal(id, pieces));
            }
        }
        let (p, h) = priority(&mut store, id, &ikey, &izone, 0);
        if prune && h.is_none() {
            stats.pruned += 1;
        } else {
            frontier.push_to(0, id, p);
        }

        while let Some((id, popped_from)) = frontier.pop_from() {
            if store.state(id).removed {
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
                stop.memory_refused();
            }
            if let Some(limit) = stop.reason() {
                finish(&mut stats, &store, &frontier, peak);
                return CheckResult {
                    verdict: Verdict::Unknown(limit),
                    stats,
                    trace: None,
                };
            }
            if options.max_states.is_some_and(|m| stats.explored > m) {
                stats.explored -= 1;
                finish(&mut stats, &store, &frontier, peak);
                return CheckResult {
                    verdict: Verdict::Unknown(Limit::States),
                    stats,
                    trace: None,
                };
            }
            if stats.explored % PROGRESS_EVERY == 0 {
                stats.stored = store.live();
                stats.elapsed = start.elapsed();
                progress(&stats);
            }
            key.clear();
            key.extend_from_slice(store.key(id));
            store.zone_into(id, &mut zone);
            let g = store.state(id).g;
            if contexts.is_some() || options.enhance == Enhance::ContextBoundingProcesses {
                from.clear();
                from.extend_from_slice(store.transition(id));
            }
            if ut {
                from_locs.clear();
                from_locs.extend(model.locs(&key).iter().map(|&l| l as u32));
            }
            if goal_at_pop {
                let pieces = goal.satisfied(&model, &key, &zone, &mut goal_buf);
                if !pieces.is_empty() {
                    break 'search Some(Found::Goal(id, pieces));
                }
            }
            if let Err(e) = model.transitions(&key, &mut buf) {
                break 'search Some(Found::Error(id, e.edges, e.error));
            }
            order_buf.clear();
            order_buf.extend(0..buf.len());
            if order == SearchOrder::RandomDfs {
                order_buf.shuffle(&mut rng);
            }
            for &k in &order_buf {
                let edges = buf.get(k);
                // Queue for successors by this transition, decided once.
                let mut queue: Option<usize> = match (options.enhance, contexts.as_mut()) {
                    (Enhance::InterferenceContexts, Some(ctx)) => {
                        Some(enhance::context_queue(ctx, &from, edges))
                    }
                    (Enhance::ContextBoundingInterference, Some(ctx)) => Some(
                        popped_from + usize::from(enhance::interference_switch(ctx, &from, edges)),
                    ),
                    (Enhance::ContextBoundingProcesses, _) => {
                        Some(popped_from + usize::from(enhance::process_switch(&from, edges)))
                    }
                    _ => None,
                };
                let n = match model.successor(&key, &zone, edges, &mut new_key, &mut succ) {
                    Err(e) => break 'search Some(Found::Error(id, edges.to_vec(), e)),
                    Ok(n) => n,
                };
                for new_zone in &mut succ[..n] {
                    stats.generated += 1;
                    model.extrapolate(&new_key, new_zone, &mut lower, &mut upper);
                    let inserted = store.insert(&new_key, new_zone, id, edges, g + 1, subsumption);
                    let Inserted::New(sid) = inserted else {
                        continue;
                    };
                    if !goal_at_pop {
                        let pieces = goal.satisfied(&model, &new_key, new_zone, &mut goal_buf);
                        if !pieces.is_empty() {
                            break 'search Some(Found::Goal(sid, pieces));
                        }
                    }
                    let (p, h) = priority(&mut store, sid, &new_key, new_zone, g + 1);
                    if prune && h.is_none() {
                        stats.pruned += 1;
                        continue;
                    }
                    let q = match (queue, useless.as_mut()) {
                        (Some(q), _) => q,
                        (None, Some(u)) => {
                            let stopped = || stop.requested();
                            let vars = model.vars(&key);
                            match u.is_useless(edges, &from_locs, vars, h, &stopped) {
                                Some(useless) => usize::from(useless),
                                None => break 'search Some(Found::Stopped),
                            }
                        }
                        (None, None) => 0,
                    };
                    queue = Some(q);
                    frontier.push_to(q, sid, p);
                }
            }
        }
        None
    };
    peak = peak.max(store.bytes() + frontier.bytes() as u64);
    finish(&mut stats, &store, &frontier, peak);
    match found {
        None => CheckResult {
            verdict: none_verdict,
            stats,
            trace: None,
        },
        Some(Found::Goal(id, _pieces)) => {
            let path = path_to(&store, id);
            let trace = concrete::goal_trace(&model, &goal, &path, stop);
            stats.trace_limit = trace.is_none().then(|| stop.reason()).flatten();
            CheckResult {
                verdict: found_verdict,
                stats,
                trace,
            }
        }
        Some(Found::Stopped) => CheckResult {
            verdict: Verdict::Unknown(stop.reason().unwrap_or(Limit::Cancelled)),
            stats,
            trace: None,
        },
        Some(Found::Error(id, edges, error)) => {
            let path = if id == NO_PARENT {
                Vec::new()
            } else {
                path_to(&store, id)
            };
            let trace = concrete::error_trace(&model, &path, &edges, error, stop);
            stats.trace_limit = trace.is_none().then(|| stop.reason()).flatten();
            CheckResult {
                verdict: Verdict::ModelError(error),
                stats,
                trace,
            }
        }
    }
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
