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

/// The exact symbolic run along a path. Sets are unions of zones: a
/// broadcast whose left-out receivers have clock guards splits a zone.
struct Run {
    keys: Vec<Vec<i32>>,
    /// Valuations right after entering each state (after resets and invariants).
    entry: Vec<Vec<Dbm>>,
    /// `entry` after letting time pass.
    delayed: Vec<Vec<Dbm>>,
    /// `delayed[i-1]` ∩ guards of step `i` (index `i - 1`).
    guarded: Vec<Vec<Dbm>>,
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
        entry: vec![vec![entry]],
        delayed: vec![vec![delayed]],
        guarded: Vec::new(),
    };
    for edges in path {
        let key = run.keys.last()?.clone();
        let mut guarded = Vec::new();
        for z in run.delayed.last()? {
            let mut g = z.clone();
            if model.guards(&key, edges, &mut g).ok()? {
                let mut pieces = Vec::new();
                model.split_broadcast(&key, edges, &g, &mut pieces).ok()?;
                guarded.extend(pieces);
            }
        }
        let mut next = key;
        model.update(&mut next, edges, None).ok()?;
        let mut entry = Vec::new();
        let mut delayed = Vec::new();
        for g in &guarded {
            let mut z = g.clone();
            model.resets(edges, &mut z);
            if model.invariants(&next, &mut z).ok()? {
                let mut d = z.clone();
                if model.delay(&next, &mut d).ok()? {
                    delayed.push(d);
                }
                entry.push(z);
            }
        }
        if delayed.is_empty() {
            return None;
        }
        run.keys.push(next);
        run.entry.push(entry);
        run.delayed.push(delayed);
        run.guarded.push(guarded);
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

/// Pairwise non-empty intersections of two unions of zones.
fn intersect_all(a: &[Dbm], b: &[Dbm]) -> Vec<Dbm> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let mut z = x.clone();
            if z.intersect(y) {
                out.push(z);
            }
        }
    }
    out
}

/// Backwards from `target` (a non-empty subset of the last delayed set):
/// `sets[i]` are the valuations of state `i` after its delay that lead to
/// the target.
fn backward(model: &Model, run: &Run, path: &[Edges], target: Vec<Dbm>) -> Option<Vec<Vec<Dbm>>> {
    let n = path.len();
    let mut sets = vec![target];
    for i in (1..=n).rev() {
        let delay = model.can_delay(&run.keys[i]);
        let mut pre: Vec<Dbm> = sets
            .last()?
            .iter()
            .map(|b| {
                let mut b = b.clone();
                if delay {
                    b.down();
                }
                b
            })
            .collect();
        pre = intersect_all(&pre, &run.entry[i]);
        let r = resets(model, &path[i - 1]);
        for z in &mut pre {
            for &(x, v) in &r {
                z.constrain(x, 0, bound::le(v));
                z.constrain(0, x, bound::le(-v));
            }
            for &(x, _) in &r {
                z.free(x);
            }
        }
        pre.retain(|z| !z.is_empty());
        let pre = intersect_all(&pre, &run.guarded[i - 1]);
        if pre.is_empty() {
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
            Some((h, _)) if h > lo => simplest_between(lo, h, 64).unwrap_or((lo + h) / 2),
            Some(_) => return None,
            None => lo.floor() + 1,
        }
    };
    let v: Vec<Rational64> = u
        .iter()
        .enumerate()
        .map(|(i, &x)| if i == 0 { x } else { x + d })
        .collect();
    contains(zone, &v).then_some(d)
}

/// The rational with the smallest denominator strictly between `lo` and `hi`
/// (`0 <= lo < hi`), by continued fractions (Stern–Brocot). Keeping
/// denominators small keeps long traces within `i64` arithmetic.
fn simplest_between(lo: Rational64, hi: Rational64, depth: u32) -> Option<Rational64> {
    let one = Rational64::from_integer(1);
    let fl = lo.floor();
    if fl + one < hi {
        return Some(fl + one);
    }
    if depth == 0 {
        return None;
    }
    // lo < x < hi <= fl + 1: x = fl + 1/y with 1/(hi - fl) < y < 1/(lo - fl).
    let y_lo = one / (hi - fl);
    let y = if lo == fl {
        y_lo.floor() + one
    } else {
        simplest_between(y_lo, one / (lo - fl), depth - 1)?
    };
    Some(fl + one / y)
}

/// A delay into one of the zones of a union.
fn choose_delay_in(zones: &[Dbm], u: &[Rational64], may_delay: bool) -> Option<Rational64> {
    zones.iter().find_map(|z| choose_delay(z, u, may_delay))
}

fn concrete_state(model: &Model, key: &[i32], clocks: &[Rational64]) -> ConcreteState {
    ConcreteState {
        locations: model.locs(key).iter().map(|&l| l as LocId).collect(),
        variables: model.vars(key).to_vec(),
        clocks: clocks.to_vec(),
    }
}

/// Picks the concrete run: delays forwards through `sets`.
fn pick(
    model: &Model,
    run: &Run,
    path: &[Edges],
    sets: &[Vec<Dbm>],
) -> Option<(Trace, Rational64)> {
    let zero = Rational64::from_integer(0);
    let mut u = vec![zero; model.dim];
    let initial = concrete_state(model, &run.keys[0], &u);
    let mut steps = Vec::with_capacity(path.len());
    for (i, edges) in path.iter().enumerate() {
        let d = choose_delay_in(&sets[i], &u, model.can_delay(&run.keys[i]))?;
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
    let d = choose_delay_in(&sets[n], &u, model.can_delay(&run.keys[n]))?;
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
    let pieces: Vec<Dbm> = run.delayed[n]
        .iter()
        .flat_map(|z| goal.satisfied(model, &run.keys[n], z, &mut buf))
        .collect();
    for piece in pieces {
        if let Some(sets) = backward(model, &run, path, vec![piece]) {
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
    // The failing transition's clock guards, when they evaluate.
    let target: Vec<Dbm> = run.delayed[n]
        .iter()
        .map(|z| {
            let mut g = z.clone();
            match model.guards(&run.keys[n], edges, &mut g) {
                Ok(true) => g,
                Ok(false) => Dbm::from_raw(z.dim(), vec![bound::LT_ZERO; z.dim() * z.dim()]),
                Err(_) => z.clone(),
            }
        })
        .filter(|z| !z.is_empty())
        .collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational64 {
        Rational64::new(n, d)
    }

    #[test]
    fn simplest_rationals() {
        assert_eq!(simplest_between(q(3, 1), q(5, 1), 8), Some(q(4, 1)));
        assert_eq!(simplest_between(q(3, 1), q(4, 1), 8), Some(q(7, 2)));
        assert_eq!(simplest_between(q(1, 3), q(1, 2), 8), Some(q(2, 5)));
        assert_eq!(simplest_between(q(0, 1), q(1, 10), 8), Some(q(1, 11)));
        assert_eq!(simplest_between(q(7, 3), q(5, 2), 8), Some(q(12, 5)));
    }
}
