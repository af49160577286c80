//! Clock patterns: the projection's zone graph over kept clocks, used to
//! prune states whose zone can reach no abstract goal.
//!
//! An abstract state is a projected discrete state (`Pattern::project_into`)
//! with a zone over the full DBM dimension in which dropped clocks are free.
//! A clock can be kept only when every edge that resets it belongs to a kept
//! process (so edges the projection drops never touch it) and every bound
//! compared with it has a known range (for its extrapolation bound).
//! Kept: non-diagonal guards and invariants on kept clocks whose bounds read
//! kept variables only, resets of kept clocks, and no delay while a kept
//! process is urgent or committed. Everything else is dropped, which only
//! adds behaviours. Zones are extrapolated (Extra+_LU) with the LU bounds of
//! the kept processes' locations: any extrapolation that only enlarges zones
//! keeps the argument below, the bounds only decide how precise it is.
//!
//! **Soundness of pruning.** (1) Every run of the network projects onto a
//! run of the abstraction: a transition with no relevant edge leaves the
//! kept locations, values and clocks unchanged, so it merges into the delay
//! around it; a relevant one is an abstract transition (its kept guards hold,
//! its kept resets apply, the kept invariants hold after it). (2) The
//! enumeration covers every abstract run: the zone successor contains every
//! valuation reachable by the transition and the delay after it,
//! extrapolation and merging into an including zone only enlarge zones, and
//! the successors of a larger zone include those of a smaller one. By
//! induction on the run's length from a stored state containing its start,
//! every stored state `A` has `d(A) <= d*(μ)` for each abstract valuation
//! `μ` in `A` (`d*`: the length of the shortest abstract run to the
//! projected goal). (3) If a search state `(l, v, Z)` can reach the goal,
//! then (extrapolation of the search being sound) some valuation of `Z` that
//! the network really reaches has a run to the goal; the stored state
//! containing its projection intersects `Z` and has a finite distance. So a
//! state whose zone meets no stored zone of finite distance is pruned
//! soundly.
//!
//! **Why the clock part only prunes.** The minimum distance over the stored
//! zones a state's zone meets is admissible by (2)–(3) but not consistent:
//! a stored zone's distance may come from valuations outside the state's
//! zone, and the state's successor may meet a zone of much smaller distance
//! than any successor of its own zones. A* would then lose its shortest
//! traces, so the estimate stays the discrete pattern database's
//! (consistent), and the zones only turn it into "unreachable". That
//! combination stays consistent: expanded states have finite estimates equal
//! to the discrete ones, and an infinite estimate is never below `1 + h` of
//! a predecessor.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::pattern::Pattern;
use super::projection::Abstraction;
use crate::dbm::{Dbm, bound};
use crate::lu::{LuTable, within_lu_bounds};
use zeno_ir::{ClockConstraint, LocationKind, Network, Update};

/// Distance of stored states that reach no abstract goal state.
const UNREACHABLE: u32 = u32::MAX;

/// The kept clocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClockSet {
    /// `kept[x]` for DBM index `x` (`kept[0]`, the reference clock, is true).
    pub(crate) kept: Vec<bool>,
}

impl ClockSet {
    /// The clocks of `wanted` that `pattern` can keep (see the module doc).
    pub(crate) fn new(net: &Network, pattern: &Pattern, wanted: &[bool]) -> ClockSet {
        let dim = net.dbm_dim();
        let mut kept: Vec<bool> = (0..dim)
            .map(|x| x == 0 || wanted.get(x).copied().unwrap_or(false))
            .collect();
        for (p, proc_) in net.processes.iter().enumerate() {
            if pattern.has_proc(p as u32) {
                continue;
            }
            // Every clock an edge outside the pattern may reset (a
            // function's may-resets included) is dropped.
            for e in &proc_.edges {
                for u in &e.updates {
                    u.for_each_may_reset(&mut |clock| {
                        if let Some(k) = kept.get_mut(clock as usize) {
                            *k = false;
                        }
                    });
                }
            }
        }
        // Extrapolation needs a bound for every constant compared with a
        // kept clock.
        let ranges = net.declared_ranges();
        for proc_ in &net.processes {
            let invariants = proc_.locations.iter().flat_map(|l| &l.invariant);
            let guards = proc_.edges.iter().flat_map(|e| &e.clock_guard);
            for c in invariants.chain(guards) {
                if !within_lu_bounds(&ranges, &c.bound) {
                    for x in [c.i, c.j] {
                        if x != 0
                            && let Some(k) = kept.get_mut(x as usize)
                        {
                            *k = false;
                        }
                    }
                }
            }
        }
        ClockSet { kept }
    }

    /// Number of kept clocks (without the reference clock).
    pub(crate) fn count(&self) -> usize {
        self.kept.iter().skip(1).filter(|&&k| k).count()
    }

    /// Whether the abstraction keeps constraint `c` (evaluated on `pattern`'s
    /// variables).
    fn keeps(&self, c: &ClockConstraint, pattern: &Pattern) -> bool {
        let (i, j) = (c.i as usize, c.j as usize);
        let mut reads_kept = true;
        c.bound
            .for_each_read(&mut |v| reads_kept &= pattern.has_var(v));
        (i == 0 || j == 0)
            && self.kept.get(i).copied().unwrap_or(false)
            && self.kept.get(j).copied().unwrap_or(false)
            && reads_kept
    }

    /// Intersects `zone` with the kept constraints of `cs`; false when empty.
    /// A bound that fails to evaluate is dropped (over-approximation).
    fn constrain(
        &self,
        zone: &mut Dbm,
        cs: &[ClockConstraint],
        pattern: &Pattern,
        vars: &[i32],
    ) -> bool {
        for c in cs {
            if !self.keeps(c, pattern) {
                continue;
            }
            let Ok(b) = c.bound.eval(vars) else { continue };
            if !zone.constrain(c.i as usize, c.j as usize, bound::raw(b, c.strict)) {
                return false;
            }
        }
        !zone.is_empty()
    }

    /// Frees the dropped clocks and extrapolates the kept ones (Extra+_LU
    /// with the bounds of the kept processes' locations).
    fn normalise(&self, zone: &mut Dbm, bounds: &mut Bounds, locs: &[u32], procs: &[bool]) {
        for x in 1..self.kept.len() {
            if !self.kept[x] {
                zone.free(x);
            }
        }
        let Bounds {
            lu,
            locations,
            lower,
            upper,
        } = bounds;
        locations.clear();
        locations.extend(locs.iter().map(|&l| l as i32));
        lower.resize(self.kept.len(), 0);
        upper.resize(self.kept.len(), 0);
        lu.fill_kept(locations, procs, lower, upper);
        zone.extrapolate_lu(lower, upper);
    }
}

/// The network's LU bounds (`lu.rs`) and scratch space for them.
pub(crate) struct Bounds<'a> {
    lu: &'a LuTable,
    locations: Vec<i32>,
    lower: Vec<i32>,
    upper: Vec<i32>,
}

impl<'a> Bounds<'a> {
    pub(crate) fn new(lu: &'a LuTable) -> Bounds<'a> {
        Bounds {
            lu,
            locations: Vec::new(),
            lower: Vec::new(),
            upper: Vec::new(),
        }
    }
}

/// An enumerated abstract zone graph with goal distances.
pub(crate) struct ZoneSpace {
    pub(crate) clocks: ClockSet,
    /// Projected discrete key to its stored zones and their distances.
    table: FxHashMap<Box<[i32]>, Vec<(Dbm, u32)>>,
    /// Every reachable abstract state was enumerated within the budget.
    pub(crate) complete: bool,
    /// Stored abstract states.
    pub(crate) len: usize,
    /// Distance of the initial abstract state (`None`: unreachable goal or
    /// no initial state).
    pub(crate) initial_distance: Option<u32>,
    scratch: Dbm,
    /// The dimension of the network's zones (a reduced network's differ).
    dim: usize,
}

struct Node {
    locs: Vec<u32>,
    vars: Vec<i32>,
    zone: Dbm,
}

impl ZoneSpace {
    /// Enumerates the zone graph of `abs` with `clocks` from the projected
    /// initial state, stopping (incomplete) beyond `budget` states or when
    /// `stop` says so (polled at every state: one state's successors can
    /// cost milliseconds with many clocks).
    pub(crate) fn enumerate(
        net: &Network,
        abs: &Abstraction,
        clocks: ClockSet,
        lu: &LuTable,
        budget: usize,
        stop: &dyn Fn() -> bool,
    ) -> ZoneSpace {
        let mut bounds = Bounds::new(lu);
        let pattern = &abs.pattern;
        let dim = net.dbm_dim();
        let can_delay = |locs: &[u32]| {
            net.processes.iter().enumerate().all(|(p, proc_)| {
                !pattern.has_proc(p as u32)
                    || proc_
                        .locations
                        .get(locs[p] as usize)
                        .is_none_or(|l| l.kind == LocationKind::Normal)
            })
        };
        // Kept invariants, delay, kept invariants again, normalisation.
        let mut settle = |locs: &[u32], vars: &[i32], zone: &mut Dbm| -> bool {
            let invariants = |zone: &mut Dbm| {
                net.processes.iter().enumerate().all(|(p, proc_)| {
                    !pattern.has_proc(p as u32)
                        || proc_
                            .locations
                            .get(locs[p] as usize)
                            .is_none_or(|l| clocks.constrain(zone, &l.invariant, pattern, vars))
                })
            };
            if !invariants(zone) {
                return false;
            }
            if can_delay(locs) {
                zone.up();
                if !invariants(zone) {
                    return false;
                }
            }
            clocks.normalise(zone, &mut bounds, locs, &pattern.procs);
            true
        };
        let mut nodes: Vec<Node> = Vec::new();
        let mut goal: Vec<bool> = Vec::new();
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut index: FxHashMap<Box<[i32]>, Vec<u32>> = FxHashMap::default();
        let mut key = Vec::new();
        let mut add = |nodes: &mut Vec<Node>, goal: &mut Vec<bool>, node: Node| -> u32 {
            pattern.project_into(&node.locs, &node.vars, &mut key);
            let ids = index.entry(key.clone().into_boxed_slice()).or_default();
            if let Some(&i) = ids
                .iter()
                .find(|&&i| node.zone.is_subset_of(&nodes[i as usize].zone))
            {
                return i;
            }
            let i = nodes.len() as u32;
            ids.push(i);
            goal.push(abs.is_goal(&node.locs, &node.vars));
            nodes.push(node);
            i
        };
        let mut complete = true;
        let init_locs = net.initial_locations();
        let init_vars = net.initial_variables();
        let mut zone = Dbm::zero(dim);
        if settle(&init_locs, &init_vars, &mut zone) {
            add(
                &mut nodes,
                &mut goal,
                Node {
                    locs: init_locs,
                    vars: init_vars,
                    zone,
                },
            );
        }
        let mut succ = Vec::new();
        let mut next = 0usize;
        'enumerate: while next < nodes.len() {
            if nodes.len() > budget || stop() {
                complete = false;
                break;
            }
            let mut found: Vec<(Node, bool)> = Vec::new();
            let mut too_large = false;
            {
                let node = &nodes[next];
                abs.candidates(&node.locs, |shape| {
                    if too_large {
                        return;
                    }
                    let mut guarded = node.zone.clone();
                    for &(p, e) in &shape.parts {
                        let edge = &net.processes[p as usize].edges[e as usize];
                        if !clocks.constrain(&mut guarded, &edge.clock_guard, pattern, &node.vars) {
                            return;
                        }
                    }
                    succ.clear();
                    if abs
                        .successors(shape, &node.locs, &node.vars, budget, &mut succ)
                        .is_err()
                    {
                        too_large = true;
                        return;
                    }
                    if succ.is_empty() {
                        return;
                    }
                    for &(p, e) in &shape.parts {
                        for u in &net.processes[p as usize].edges[e as usize].updates {
                            let kept =
                                |x: u32| clocks.kept.get(x as usize).copied().unwrap_or(false);
                            match u {
                                Update::ResetClock { clock, value } if kept(*clock) => {
                                    guarded.reset(*clock as usize, *value)
                                }
                                // The abstract state does not run the
                                // function: a clock it resets to a known
                                // value on every path is reset, any other it
                                // may reset is freed (`x >= 0`), an
                                // over-approximation of every run.
                                Update::Call(c) => {
                                    for &x in c.may_reset.iter().filter(|&&x| kept(x)) {
                                        match c.must_reset.iter().find(|m| m.0 == x) {
                                            Some(&(_, Some(v))) => guarded.reset(x as usize, v),
                                            _ => guarded.free(x as usize),
                                        }
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    for (locs, vars) in succ.drain(..) {
                        let mut z = guarded.clone();
                        if settle(&locs, &vars, &mut z) {
                            found.push((
                                Node {
                                    locs,
                                    vars,
                                    zone: z,
                                },
                                shape.disabled,
                            ));
                        }
                    }
                    too_large |= found.len() > budget;
                });
            }
            if too_large {
                complete = false;
                break 'enumerate;
            }
            for (node, disabled) in found {
                let to = add(&mut nodes, &mut goal, node);
                if !disabled {
                    edges.push((next as u32, to));
                }
            }
            next += 1;
        }
        let dist = distances(nodes.len(), &edges, &goal);
        let mut table: FxHashMap<Box<[i32]>, Vec<(Dbm, u32)>> = FxHashMap::default();
        let len = nodes.len();
        for (i, node) in nodes.into_iter().enumerate() {
            abs.pattern.project_into(&node.locs, &node.vars, &mut key);
            table
                .entry(key.clone().into_boxed_slice())
                .or_default()
                .push((node.zone, dist[i]));
        }
        ZoneSpace {
            clocks,
            table,
            complete,
            len,
            initial_distance: dist.first().copied().filter(|&d| d != UNREACHABLE),
            scratch: Dbm::zero(dim),
            dim,
        }
    }

    /// Whether some stored state with projected key `key` and a finite
    /// distance has a zone meeting `zone` (`true` for keys never stored:
    /// only states of reduced networks can have them, and they are not
    /// pruned).
    pub(crate) fn may_reach_goal(&mut self, key: &[i32], zone: &Dbm) -> bool {
        let mut scratch = std::mem::replace(&mut self.scratch, Dbm::zero(1));
        let may = self.may_reach_goal_with(key, zone, &mut scratch);
        self.scratch = scratch;
        may
    }

    /// [`ZoneSpace::may_reach_goal`] with the caller's scratch zone, so
    /// that threads can share the space.
    pub(crate) fn may_reach_goal_with(&self, key: &[i32], zone: &Dbm, scratch: &mut Dbm) -> bool {
        let Some(stored) = self.table.get(key) else {
            return true;
        };
        if zone.dim() != self.dim {
            return true;
        }
        stored.iter().any(|(z, d)| {
            *d != UNREACHABLE && {
                scratch.assign(zone);
                scratch.intersect(z)
            }
        })
    }
}

/// Backward breadth-first distances to the goal states.
fn distances(n: usize, edges: &[(u32, u32)], goal: &[bool]) -> Vec<u32> {
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(from, to) in edges {
        preds[to as usize].push(from);
    }
    let mut dist = vec![UNREACHABLE; n];
    let mut queue = VecDeque::new();
    for (i, &g) in goal.iter().enumerate() {
        if g {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(s) = queue.pop_front() {
        let d = dist[s] + 1;
        for &p in &preds[s] {
            if dist[p as usize] == UNREACHABLE {
                dist[p as usize] = d;
                queue.push_back(p as usize);
            }
        }
    }
    dist
}
