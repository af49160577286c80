//! From a path of the local-time graph to an ordinary timed run.
//!
//! A path of the local-time graph fixes each process's own sequence of
//! moves; its last zone has a synchronised valuation (that is what made it
//! a goal). The path is replayed on zones extended with one variable `T_k`
//! per step, set to the firing process's reference clock when step `k`
//! fires and untouched afterwards (local delays only move reference
//! clocks). At the end the reference clocks are synchronised (and the
//! goal's clock constraints added); any valuation of that zone gives each
//! step a firing time in one common time line, with every process's moves
//! in its own order. Sorting the steps by firing time (ties keep path
//! order) gives a global interleaving; its ordinary zone path is then
//! recomputed exactly and turned into a concrete trace by the checker's
//! own construction (`concrete::goal_trace`), so the trace shown replays
//! like any other. When the replay fails the caller says `unknown`.

use crate::concrete::eps::{Eps, EpsDbm};
use crate::concrete::goal_trace;
use crate::dbm::Dbm;
use crate::dbm::bound::{INF, LE_ZERO};
use crate::goal::Goal;
use crate::semantics::TransitionBuf;
use crate::{Stop, Trace};

use super::graph::LocalGraph;
use super::refdbm;
use super::search::Path;

/// The concrete trace of a goal path, or why there is none.
pub fn concrete(
    graph: &LocalGraph,
    goal: &Goal,
    path: &Path,
    stop: &Stop,
) -> Result<Trace, String> {
    let ordered = interleave(graph, goal, path)?;
    goal_trace(graph.model, goal, &ordered, stop).ok_or_else(|| {
        if stop.requested() {
            "the concrete trace was stopped by a limit".to_string()
        } else {
            "the global interleaving of the local-time path did not replay".to_string()
        }
    })
}

/// The path's steps in the order of their firing times in one
/// synchronised run.
pub fn interleave(graph: &LocalGraph, goal: &Goal, path: &Path) -> Result<Path, String> {
    let n = graph.dim();
    let big = n + path.len();
    // The graph's zero zone on the first n variables; the firing times are
    // unconstrained until their step.
    let mut m = vec![INF; big * big];
    for i in 0..big {
        m[i * big + i] = LE_ZERO;
    }
    for i in 0..n {
        for j in 0..n {
            m[i * big + j] = LE_ZERO;
        }
    }
    let mut zone = Dbm::from_raw(big, m);
    let lost = |what: &str| format!("the local-time path does not replay ({what})");
    let mut key = graph.model.initial_key();
    if !graph
        .invariants(&key, &mut zone)
        .map_err(|e| lost(&e.to_string()))?
        || !graph
            .elapse(&key, &mut zone)
            .map_err(|e| lost(&e.to_string()))?
    {
        return Err(lost("initial state"));
    }
    let mut group = Vec::new();
    let mut new_key = Vec::new();
    for (k, edges) in path.iter().enumerate() {
        let firing = n + k;
        let fired = graph
            .fire(&key, edges, &mut group, &mut new_key, &mut zone, |z| {
                let p = edges.first().map_or(0, |&(p, _)| p as usize);
                z.constrain(firing, p, LE_ZERO) && z.constrain(p, firing, LE_ZERO)
            })
            .map_err(|e| lost(&e.to_string()))?;
        if !fired
            || !graph
                .elapse(&new_key, &mut zone)
                .map_err(|e| lost(&e.to_string()))?
        {
            return Err(lost(&format!("step {}", k + 1)));
        }
        std::mem::swap(&mut key, &mut new_key);
    }
    if !refdbm::synchronise(&mut zone, 0..graph.layout.nproc) {
        return Err(lost("the last state has no synchronised valuation"));
    }
    let zone = with_goal(graph, goal, &key, zone).ok_or_else(|| lost("goal"))?;
    let times = pick(&zone).ok_or_else(|| lost("no valuation"))?;
    let mut steps: Vec<usize> = (0..path.len()).collect();
    // A reference clock is minus the time (local delays lower it), so the
    // step fired first has the largest `T_k`. Stable: steps at one time
    // keep their path order, which keeps every process's own order.
    steps.sort_by_key(|&k| std::cmp::Reverse(times[n + k]));
    Ok(steps.into_iter().map(|k| path[k].clone()).collect())
}

/// `zone` cut to a piece where the goal's clock constraints hold (the
/// goal's pieces are ordinary zones over the synchronised valuations).
fn with_goal(graph: &LocalGraph, goal: &Goal, key: &[i32], mut zone: Dbm) -> Option<Dbm> {
    // Reads the clocks' and t_0's entries only: the firing times stay out.
    let sync = graph.synchronised(&zone)?;
    let mut buf = TransitionBuf::default();
    let pieces = goal.satisfied(graph.model, key, &sync, &mut buf);
    let map = |c: usize| {
        if c == 0 {
            0
        } else {
            graph.layout.offset(c as u32)
        }
    };
    let dim = graph.model.dim;
    for piece in pieces {
        let mut z = zone.clone();
        let fits = (0..dim)
            .all(|i| (0..dim).all(|j| i == j || z.constrain(map(i), map(j), piece.get(i, j))));
        if fits && !z.is_empty() {
            zone = z;
            return Some(zone);
        }
    }
    None
}

/// One valuation of a canonical, non-empty zone over `Z + Zε`, variable
/// by variable: a closed difference system is decomposable (any valuation
/// of the first variables that satisfies their constraints extends), and
/// over `Z + Zε` every bound is non-strict, so the least value allowed is
/// always one.
fn pick(zone: &Dbm) -> Option<Vec<Eps>> {
    let mut z = EpsDbm::from_dbm(zone);
    z.close()?;
    if z.is_empty() {
        return None;
    }
    let n = zone.dim();
    let mut v: Vec<Eps> = Vec::with_capacity(n);
    for i in 0..n {
        let mut lo: Option<Eps> = None;
        let mut hi: Option<Eps> = None;
        for (j, &vj) in v.iter().enumerate() {
            // v_j - v_i <= m[j][i] and v_i - v_j <= m[i][j].
            if let Some(b) = z.get(j, i) {
                let l = vj.sub(b)?;
                lo = Some(lo.map_or(l, |x| x.max(l)));
            }
            if let Some(b) = z.get(i, j) {
                let h = vj.add(b)?;
                hi = Some(hi.map_or(h, |x| x.min(h)));
            }
        }
        let value = lo.or(hi).unwrap_or(Eps::ZERO);
        if hi.is_some_and(|h| value > h) {
            return None;
        }
        v.push(value);
    }
    Some(v)
}
