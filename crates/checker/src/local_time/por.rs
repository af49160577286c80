//! Partial-order reduction on the local-time zone graph: at a state, the
//! search may follow the moves of one process only (an *ample set*),
//! where that provably loses no reachable goal, in every search order.
//!
//! **The ample set.** At a state with key `k`, a process `P` at location
//! `l` is a candidate when
//! - (*local*) every edge of `P` leaving `l` moves `P` alone: no channel,
//!   no synchronisation vector; `P` receives on no broadcast channel and
//!   is a weak participant of no vector (a broadcast or a vector of others
//!   synchronises the reference clocks of those, `graph::sync_group`);
//!   `l` is not committed and no edge leaving it enters a committed
//!   location (committed locations restrict what others may do);
//! - (*time-free*) no such edge has a clock guard, its target has no data
//!   invariant (so the key's data guards decide whether it is enabled),
//!   and the target's clock invariant holds right after the edge whenever it held before: each of
//!   its constraints is one of the source's, with a constant bound, on
//!   clocks the edge leaves alone, or an upper bound `x <= b` (constant
//!   `b`) on a clock the edge resets to a constant within it;
//! - (*invisible*) the goal reads no location of `P`, no variable or clock
//!   `P` writes, no clock `P` owns;
//! - (*no cycle*) no such edge is *sticky*: in each process's graph of
//!   locations, the back edges of a depth-first traversal are sticky, so
//!   the other edges form no cycle (Lluch-Lafuente's `C3_static`).
//!
//! The ample set is every transition of the candidate that the key enables
//! (`Model::transitions`: data guards, committed locations), for the
//! candidate with the fewest (then the lowest number); with no candidate
//! the state is fully expanded. It depends on the key alone.
//!
//! **Why it is sound.** Write `F` for the local-time graph as `search.rs`
//! explores it (successors without a synchronised valuation dropped) and
//! `R` for its subgraph with ample sets.
//! (1) *A time-free local move `a` of `P` is enabled at every state of `F`
//! where the key enables it*, and its successor is in `F`: fire `a` at the
//! time of a synchronised valuation of the state (no clock guard, the
//! target invariant holds), and that valuation stays synchronised.
//! (2) *It commutes with every transition `b` not involving `P`*: `b`'s
//! synchronisation group excludes `P` (local), `b` reads nothing `P`
//! writes (`support.rs`: written variables and clocks are their process's
//! own), and neither changes whether the other's process is committed, so
//! on valuations the two moves (with the local delays after them) commute,
//! and so do the zone operations, which are exact on zones: `b(a(Z)) =
//! a(b(Z))`. With (1): `s -b-> t` in `F` gives `a(s) -b-> a(t)` in `F`.
//! (3) *Reachability is preserved.* Let `s` be a state of `R` and `w` a
//! path of `F` from `s` to a goal state (or to a run-time error). If `s` is
//! fully expanded, `R` takes `w`'s first step. Otherwise let `a` be ample
//! at `s`. If `w` moves `P`, its first move of `P` leaves `l` and is enabled
//! at `s` (data guards read `P`'s variables only; time-free), so it is
//! ample; by (2) it can be moved to the front of `w`: `R` takes it, and the
//! rest of `w` is one step shorter. If `w` never moves `P`, `a·w` is a path
//! of `F` by (2) that ends in `a(g)`, a goal since `a` is invisible and
//! time-free (the goal's synchronised valuation is kept). The path is as
//! long, but `P` has taken a non-sticky edge; a process that `w` never
//! moves takes at most as many of those in a row as its longest non-sticky
//! path, so the pair (length of `w`, sum over processes of their longest
//! non-sticky path ahead) decreases lexicographically, and `R` reaches a
//! goal from `s`. Only the order of a goal path changes: the trace is
//! rebuilt by firing times as before (`trace.rs`).
//! (4) *Subsumption.* Ample sets depend on the key only, and the sync-aLU
//! relation the search subsumes with relates states of one key, so it is
//! a simulation of `R` as it is of `F` (a state's ample transitions are
//! also the simulating state's); the covering search on `R` then finds a
//! goal iff `R` has one, whatever the order in which it pops states (the
//! argument of the unreduced search). The reduced graph itself does not
//! depend on the search order, which is why the proviso is the static one:
//! breadth-first, depth-first, greedy and A* search explore the same `R`.
//!
//! Zones whose bounds saturate (at ±2^28) are wider than exact, never
//! narrower: a reordered path's zone still holds the exact valuations, and
//! a goal is reported only with a trace that replays.

use zeno_ir::{ClockConstraint, EdgeId, Expr, Formula, LocationKind, Network, ProcId, Update};

use crate::enhance::{Footprints, clock_reads, expr_reads};
use crate::semantics::TransitionBuf;

use super::graph::LocalGraph;

/// The precomputed ample-set candidates of a network and goal.
pub struct Ample {
    /// `candidate[p][l]`: process `p` at location `l` is a candidate
    /// (every condition of the module comment holds; the key decides only
    /// which of its transitions are enabled).
    candidate: Vec<Vec<bool>>,
    /// Enabled transitions per process at the state being expanded.
    counts: Vec<u32>,
}

impl Ample {
    /// The candidates of `graph`'s network for a search of `goal`.
    pub fn new(graph: &LocalGraph, goal: &Formula) -> Ample {
        let net = graph.model.net;
        let fp = Footprints::new(net);
        let mut read_by_goal = Vec::new();
        goal_slots(goal, &fp, &mut read_by_goal);
        let candidate = net
            .processes
            .iter()
            .enumerate()
            .map(|(p, proc_)| {
                let arcs: Vec<(usize, usize)> = proc_
                    .edges
                    .iter()
                    .map(|e| (e.source as usize, e.target as usize))
                    .collect();
                let sticky = sticky_edges(proc_.locations.len(), &arcs);
                let process_ok = !receives_broadcasts(graph, p)
                    && !weak_in_a_vector(net, p)
                    && !visible(graph, &fp, p, &read_by_goal);
                (0..proc_.locations.len())
                    .map(|l| {
                        process_ok
                            && proc_.locations[l].kind != LocationKind::Committed
                            && proc_.edges.iter().enumerate().all(|(e, edge)| {
                                edge.source as usize != l
                                    || (!sticky[e]
                                        && graph.moves_alone(p as ProcId, e as EdgeId)
                                        && time_free(net, p, e))
                            })
                    })
                    .collect()
            })
            .collect();
        Ample {
            candidate,
            counts: vec![0; net.processes.len()],
        }
    }

    /// The transitions of `buf` (enabled at `key`) to follow: the ample
    /// set's indices, or every index when the state is fully expanded.
    pub fn select(&mut self, key: &[i32], buf: &TransitionBuf, out: &mut Vec<usize>) {
        out.clear();
        self.counts.fill(0);
        for k in 0..buf.len() {
            let p = buf.get(k)[0].0 as usize;
            if self.candidate[p][key[p] as usize] {
                self.counts[p] += 1;
            }
        }
        let best = (0..self.counts.len())
            .filter(|&p| self.counts[p] > 0)
            .min_by_key(|&p| self.counts[p]);
        match best {
            Some(p) => out.extend((0..buf.len()).filter(|&k| buf.get(k)[0].0 as usize == p)),
            None => out.extend(0..buf.len()),
        }
    }
}

/// The slots (see [`Footprints`]) the goal reads.
fn goal_slots(f: &Formula, fp: &Footprints, out: &mut Vec<u32>) {
    match f {
        Formula::True | Formula::False | Formula::Deadlock => {}
        Formula::At { process, .. } => out.push(fp.location_slot(*process)),
        Formula::Data(e) => expr_reads(e, out),
        Formula::Clock(c) => clock_reads(c, fp.nvars, out),
        Formula::Not(g) => goal_slots(g, fp, out),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().for_each(|g| goal_slots(g, fp, out)),
    }
}

/// Whether the goal reads `p`'s location, a slot an edge of `p` writes, or
/// a clock `p` owns.
fn visible(graph: &LocalGraph, fp: &Footprints, p: usize, read_by_goal: &[u32]) -> bool {
    let layout = &graph.layout;
    read_by_goal.iter().any(|&s| {
        s == fp.location_slot(p as ProcId)
            || (fp.is_data(s) && s as usize >= fp.nvars && layout.owner[s as usize - fp.nvars] == p)
            || fp
                .edges
                .iter()
                .zip(&fp.writes)
                .any(|(&(q, _), w)| q as usize == p && w.contains(&s))
    })
}

fn receives_broadcasts(graph: &LocalGraph, p: usize) -> bool {
    graph
        .layout
        .broadcast_group
        .iter()
        .any(|g| g.contains(&(p as ProcId)))
}

fn weak_in_a_vector(net: &Network, p: usize) -> bool {
    net.vectors.iter().any(|v| {
        v.participants
            .iter()
            .any(|x| x.weak && x.process as usize == p)
    })
}

/// Whether edge `e` of process `p` has no clock guard, enters a location
/// without data invariant, and keeps the target's clock invariant true
/// whenever the source's held.
fn time_free(net: &Network, p: usize, e: usize) -> bool {
    let proc_ = &net.processes[p];
    let edge = &proc_.edges[e];
    if !edge.clock_guard.is_empty() {
        return false;
    }
    let source = &proc_.locations[edge.source as usize];
    let target = &proc_.locations[edge.target as usize];
    // A data invariant of the target could disable the edge where the
    // data guard enables it (`Model::transitions` reads guards only).
    if target.kind == LocationKind::Committed || target.data_invariant.is_some() {
        return false;
    }
    let touched = |x: u32| x != 0 && edge.updates.iter().any(|u| u.may_reset(x));
    // A bound read from variables could change with the edge's updates.
    let constant = |c: &ClockConstraint| matches!(c.bound, Expr::Const(_));
    target.invariant.iter().all(|c| {
        (constant(c) && source.invariant.contains(c) && !touched(c.i) && !touched(c.j))
            || reset_within(&edge.updates, c)
    })
}

/// Whether `c` is `x <= b` (or `x < b`) with a constant `b` and the last
/// update that may reset `x` resets it to a constant satisfying it.
fn reset_within(updates: &[Update], c: &ClockConstraint) -> bool {
    let (Expr::Const(b), true, true) = (&c.bound, c.j == 0, c.i != 0) else {
        return false;
    };
    match updates.iter().rev().find(|u| u.may_reset(c.i)) {
        Some(Update::ResetClock { clock, value }) if *clock == c.i => {
            if c.strict {
                value < b
            } else {
                value <= b
            }
        }
        _ => false,
    }
}

/// Per edge `(source, target)` of a graph of `n` locations: whether it is
/// a back edge of a depth-first traversal (from each location in turn).
/// Every cycle of the graph has one, so the other edges form none.
fn sticky_edges(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(source, _)) in edges.iter().enumerate() {
        out_edges[source].push(e);
    }
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; n];
    let mut sticky = vec![false; edges.len()];
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        // (location, next out-edge to look at)
        let mut stack = vec![(root, 0usize)];
        mark[root] = Mark::OnStack;
        while let Some(&mut (l, ref mut next)) = stack.last_mut() {
            let Some(&e) = out_edges[l].get(*next) else {
                mark[l] = Mark::Done;
                stack.pop();
                continue;
            };
            *next += 1;
            let t = edges[e].1;
            match mark[t] {
                Mark::OnStack => sticky[e] = true,
                Mark::New => {
                    mark[t] = Mark::OnStack;
                    stack.push((t, 0));
                }
                Mark::Done => {}
            }
        }
    }
    sticky
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Removing the sticky edges leaves no cycle, and an acyclic graph has
    /// none: checked on hand-drawn graphs.
    #[test]
    fn sticky_edges_break_every_cycle_and_only_cycles() {
        // A chain: nothing sticky.
        assert_eq!(sticky_edges(4, &[(0, 1), (1, 2), (2, 3)]), vec![false; 3]);
        // A diamond (two paths 0 -> 3): nothing sticky.
        let diamond = [(0, 1), (0, 2), (1, 3), (2, 3)];
        assert_eq!(sticky_edges(4, &diamond), vec![false; 4]);
        // A self-loop and a 3-cycle 1 -> 2 -> 3 -> 1 entered from 0.
        let loops = [(0, 0), (0, 1), (1, 2), (2, 3), (3, 1)];
        assert_eq!(
            sticky_edges(4, &loops),
            vec![true, false, false, false, true]
        );
        // A cycle reached only from a later root: 2 <-> 3.
        let late = [(0, 1), (2, 3), (3, 2)];
        assert_eq!(sticky_edges(4, &late), vec![false, false, true]);
    }
}
