//! Concrete timed traces from a symbolic path, the way UPPAAL builds them:
//! recompute the exact (not extrapolated) zones forward along the path, then
//! go backwards from the goal zone keeping, at each step, only the valuations
//! that lead to the next set, and finally pick concrete delays forwards.
//! Every chosen valuation is inside these exact sets, so the trace replays
//! under the concrete semantics: delays are non-negative, guards and
//! invariants hold exactly, and no delay happens where time may not pass.
#![allow(clippy::needless_range_loop)] // index loops over parallel tables read best

use num_rational::Rational64;

use crate::ir::{EdgeId, EvalError, LocId, ProcId, Update};

use super::dbm::{Dbm, bound};
use super::goal::Goal;
use super::semantics::{Model, TransitionBuf};
use super::trace::{ConcreteState, Step, Trace, TraceEnd, Transition};

type Edges = Vec<(ProcId, EdgeId)>;

/// The exact symbolic run along a path.
struct Run {
    keys: Vec<Vec<i32>>,
    /// Valuations right after entering each state (after resets and invariants).
    entry: Vec<Dbm>,
    /// `entry` after letting time pass.
    delayed: Vec<Dbm>,
    /// `delayed[i-1]` ∩ guards of step `i` (index `i - 1`).
    guarded: Vec<Dbm>,
}

fn forward(model: &Model, path: &[Edges]) -> Option<Run> {
    let key = model.initial_key();
    let mut entry = Dbm::zero(model.dim);
    if !model.invariants(&key, &mut entry).ok()? {
        return None;
    }
    let mut delayed = entry.clone();
    if !model.delay(&key, &mut delayed).ok()? {
        return None;
    }
    let mut run = Run {
        keys: vec![key],
        entry: vec![entry],
        delayed: vec![delayed],
        guarded: Vec::new(),
    };
    for edges in path {
        let key = run.keys.last()?.clone();
        let mut z = run.delayed.last()?.clone();
        if !model.guards(&key, edges, &mut z).ok()? {
            return None;
        }
        run.guarded.push(z.clone());
        let mut next = key;
        model.update(&mut next, edges, Some(&mut z)).ok()?;
        if !model.invariants(&next, &mut z).ok()? {
            return None;
        }
        let mut d = z.clone();
        if !model.delay(&next, &mut d).ok()? {
            return None;
        }
        run.keys.push(next);
        run.entry.push(z);
        run.delayed.push(d);
    }
    Some(run)
}

/// Final value of every clock the edges reset, in update order.
fn resets(model: &Model, edges: &[(ProcId, EdgeId)]) -> Vec<(usize, i32)> {
    let mut out: Vec<(usize, i32)> = Vec::new();
    for &(p, e) in edges {
        for u in &model.net.processes[p as usize].edges[e as usize].updates {
            if let Update::ResetClock { clock, value } = u {
                out.retain(|r| r.0 != *clock as usize);
                out.push((*clock as usize, *value));
            }
        }
    }
    out
}

/// Backwards from `target` (a non-empty subset of the last delayed zone):
/// `sets[i]` are the valuations of state `i` after its delay that lead to
/// the target.
fn backward(model: &Model, run: &Run, path: &[Edges], target: Dbm) -> Option<Vec<Dbm>> {
    let n = path.len();
    let mut sets = vec![target];
    for i in (1..=n).rev() {
        let b = sets.last()?;
        let mut pre = b.clone();
        if model.can_delay(&run.keys[i]) {
            pre.down();
        }
        if !pre.intersect(&run.entry[i]) {
            return None;
        }
        for &(x, v) in &resets(model, &path[i - 1]) {
            pre.constrain(x, 0, bound::le(v));
            pre.constrain(0, x, bound::le(-v));
        }
        for &(x, _) in &resets(model, &path[i - 1]) {
            pre.free(x);
        }
        if !pre.intersect(&run.guarded[i - 1]) {
            return None;
        }
        sets.push(pre);
    }
    sets.reverse();
    Some(sets)
}

fn contains(zone: &Dbm, u: &[Rational64]) -> bool {
    if zone.is_empty() {
        return false;
    }
    let n = zone.dim();
    (0..n).all(|i| {
        (0..n).all(|j| {
            let b = zone.get(i, j);
            if b == bound::INF {
                return true;
            }
            let diff = u[i] - u[j];
            let c = Rational64::from_integer(bound::value(b) as i64);
            if bound::is_strict(b) {
                diff < c
            } else {
                diff <= c
            }
        })
    })
}

/// A delay `d >= 0` with `u + d` in `zone` (0 when time may not pass).
fn choose_delay(zone: &Dbm, u: &[Rational64], may_delay: bool) -> Option<Rational64> {
    let zero = Rational64::from_integer(0);
    if !may_delay {
        return contains(zone, u).then_some(zero);
    }
    let (mut lo, mut lo_strict) = (zero, false);
    let mut hi: Option<(Rational64, bool)> = None;
    for i in 1..zone.dim() {
        let up = zone.get(i, 0);
        if up != bound::INF {
            let c = Rational64::from_integer(bound::value(up) as i64) - u[i];
            let s = bound::is_strict(up);
            hi = Some(match hi {
                Some((h, hs)) if h < c || (h == c && hs) => (h, hs),
                Some((h, hs)) if h == c => (h, hs || s),
                _ => (c, s),
            });
        }
        let low = zone.get(0, i);
        let c = -Rational64::from_integer(bound::value(low) as i64) - u[i];
        let s = bound::is_strict(low);
        if c > lo || (c == lo && s) {
            lo = c;
            lo_strict = s;
        }
    }
    let d = if !lo_strict {
        lo
    } else {
        match hi {
            Some((h, _)) => (lo + h) / 2,
            None => lo + 1,
        }
    };
    let v: Vec<Rational64> = u
        .iter()
        .enumerate()
        .map(|(i, &x)| if i == 0 { x } else { x + d })
        .collect();
    contains(zone, &v).then_some(d)
}

fn concrete_state(model: &Model, key: &[i32], clocks: &[Rational64]) -> ConcreteState {
    ConcreteState {
        locations: model.locs(key).iter().map(|&l| l as LocId).collect(),
        variables: model.vars(key).to_vec(),
        clocks: clocks.to_vec(),
    }
}

/// Picks the concrete run: delays forwards through `sets`.
fn pick(model: &Model, run: &Run, path: &[Edges], sets: &[Dbm]) -> Option<(Trace, Rational64)> {
    let zero = Rational64::from_integer(0);
    let mut u = vec![zero; model.dim];
    let initial = concrete_state(model, &run.keys[0], &u);
    let mut steps = Vec::with_capacity(path.len());
    for (i, edges) in path.iter().enumerate() {
        let d = choose_delay(&sets[i], &u, model.can_delay(&run.keys[i]))?;
        for x in u.iter_mut().skip(1) {
            *x += d;
        }
        for (x, v) in resets(model, edges) {
            u[x] = Rational64::from_integer(v as i64);
        }
        steps.push(Step {
            delay: d,
            transition: Transition {
                edges: edges.clone(),
            },
            after: concrete_state(model, &run.keys[i + 1], &u),
        });
    }
    let n = path.len();
    let d = choose_delay(&sets[n], &u, model.can_delay(&run.keys[n]))?;
    Some((
        Trace {
            initial,
            steps,
            end: TraceEnd::Goal { delay: zero },
        },
        d,
    ))
}

/// A trace to a state satisfying the goal.
pub fn goal_trace(model: &Model, goal: &Goal, path: &[Edges]) -> Option<Trace> {
    let run = forward(model, path)?;
    let n = path.len();
    let mut buf = TransitionBuf::default();
    let pieces = goal.satisfied(model, &run.keys[n], &run.delayed[n], &mut buf);
    for piece in pieces {
        if let Some(sets) = backward(model, &run, path, piece) {
            let (mut trace, d) = pick(model, &run, path, &sets)?;
            trace.end = TraceEnd::Goal { delay: d };
            return Some(trace);
        }
    }
    None
}

/// A trace to a state where `edges` are enabled and fail with `error`.
pub fn error_trace(
    model: &Model,
    path: &[Edges],
    edges: &[(ProcId, EdgeId)],
    error: EvalError,
) -> Option<Trace> {
    let run = forward(model, path)?;
    let n = path.len();
    let mut target = run.delayed[n].clone();
    // The failing transition's clock guards, when they evaluate.
    let mut guarded = target.clone();
    if let Ok(true) = model.guards(&run.keys[n], edges, &mut guarded) {
        target = guarded;
    }
    let sets = backward(model, &run, path, target)?;
    let (mut trace, d) = pick(model, &run, path, &sets)?;
    trace.end = TraceEnd::ModelError {
        delay: d,
        transition: Transition {
            edges: edges.to_vec(),
        },
        error,
    };
    Some(trace)
}
