//! Concrete timed traces from a symbolic path, the way UPPAAL builds them:
//! recompute the exact (not extrapolated) zones forward along the path, then
//! go backwards from the goal zone keeping, at each step, only the valuations
//! that lead to the next set, and finally pick concrete delays forwards.
//! Every chosen valuation is inside these exact sets, so the trace replays
//! under the concrete semantics: delays are non-negative, guards and
//! invariants hold exactly, and no delay happens where time may not pass.
#![allow(clippy::needless_range_loop)] // index loops over parallel tables read best

pub(super) mod eps;
mod lp;
mod stopwatch;

use num_rational::Rational64;

use eps::{Eps, EpsDbm};

use zeno_ir::{EdgeId, EvalError, LocId, ProcId};

use super::Stop;
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

/// Where the valuations of one state of a path must lie (the liveness
/// checks of formulas with clocks, whose runs keep to zones): on entering
/// the state, and on leaving it after its delay. A zone is convex, so the
/// delay between two points of it stays in it.
#[derive(Debug, Clone, Default)]
pub struct Confine {
    pub entry: Option<Dbm>,
    pub leave: Option<Dbm>,
}

/// `zone ∩ bound` when there is a bound; `false` when empty.
fn confine(zone: &mut Dbm, bound: Option<&Dbm>) -> bool {
    match bound {
        Some(b) => zone.intersect(b),
        None => !zone.is_empty(),
    }
}

fn forward(model: &Model, path: &[Edges], stop: &Stop) -> Option<Run> {
    forward_in(model, path, &[], stop)
}

/// [`forward`] with each state's valuations kept to `within` (none where it
/// is shorter). A step without edges is a delay only: the state goes on.
fn forward_in(model: &Model, path: &[Edges], within: &[Confine], stop: &Stop) -> Option<Run> {
    let bounds = |i: usize| within.get(i).cloned().unwrap_or_default();
    let key = model.initial_key();
    let mut entry = Dbm::zero(model.dim);
    if !model.invariants(&key, &mut entry).ok()? || !confine(&mut entry, bounds(0).entry.as_ref()) {
        return None;
    }
    let mut delayed = entry.clone();
    if !model.delay(&key, &mut delayed).ok()? || !confine(&mut delayed, bounds(0).leave.as_ref()) {
        return None;
    }
    let mut run = Run {
        keys: vec![key],
        entry: vec![vec![entry]],
        delayed: vec![vec![delayed]],
        guarded: Vec::new(),
    };
    for (i, edges) in path.iter().enumerate() {
        if stop.requested() {
            return None;
        }
        let key = run.keys.last()?.clone();
        let mut guarded = Vec::new();
        for z in run.delayed.last()? {
            if edges.is_empty() {
                guarded.push(z.clone());
                continue;
            }
            let mut g = z.clone();
            if model.guards(&key, edges, &mut g).ok()? {
                let mut pieces = Vec::new();
                model.split_enabled(&key, edges, &g, &mut pieces).ok()?;
                guarded.extend(pieces);
            }
        }
        let mut next = key;
        let mut resets = Vec::new();
        model
            .update_with(&mut next, edges, &mut |x, v| resets.push((x, v)))
            .ok()?;
        let mut entry = Vec::new();
        let mut delayed = Vec::new();
        for g in &guarded {
            let mut z = g.clone();
            for &(x, v) in &resets {
                z.reset(x, v);
            }
            if model.invariants(&next, &mut z).ok()?
                && confine(&mut z, bounds(i + 1).entry.as_ref())
            {
                let mut d = z.clone();
                if model.delay(&next, &mut d).ok()? && confine(&mut d, bounds(i + 1).leave.as_ref())
                {
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

/// Pairwise non-empty intersections of two unions of zones.
fn intersect_all(a: &[EpsDbm], b: &[EpsDbm]) -> Option<Vec<EpsDbm>> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let z = x.intersect(y)?;
            if !z.is_empty() {
                out.push(z);
            }
        }
    }
    Some(out)
}

/// The real zones as closed zones over `Z + Zε`.
fn eps_zones(zones: &[Dbm]) -> Option<Vec<EpsDbm>> {
    let mut out = Vec::new();
    for z in zones {
        let mut e = EpsDbm::from_dbm(z);
        e.close()?;
        if !e.is_empty() {
            out.push(e);
        }
    }
    Some(out)
}

/// Backwards from `target` (a non-empty subset of the last delayed set):
/// `sets[i]` are the valuations of state `i` after its delay that lead to
/// the target, over `Z + Zε` (see [`pick`] for why).
fn backward(
    model: &Model,
    run: &Run,
    path: &[Edges],
    target: &[Dbm],
    stop: &Stop,
) -> Option<Vec<Vec<EpsDbm>>> {
    let n = path.len();
    let mut sets = vec![eps_zones(target)?];
    for i in (1..=n).rev() {
        if stop.requested() {
            return None;
        }
        let delay = model.can_delay(&run.keys[i]);
        let mut pre: Vec<EpsDbm> = sets.last()?.clone();
        if delay {
            pre.iter_mut().for_each(EpsDbm::down);
        }
        let mut pre = intersect_all(&pre, &eps_zones(&run.entry[i])?)?;
        let r = model.final_resets(&run.keys[i - 1], &path[i - 1]).ok()?;
        for z in &mut pre {
            for &(x, v) in &r {
                z.tighten(x, 0, Eps::int(v as i64));
                z.tighten(0, x, Eps::int(-(v as i64)));
            }
            z.close()?;
            for &(x, _) in &r {
                z.free(x);
            }
        }
        pre.retain(|z| !z.is_empty());
        let pre = intersect_all(&pre, &eps_zones(&run.guarded[i - 1])?)?;
        if pre.is_empty() {
            return None;
        }
        sets.push(pre);
    }
    sets.reverse();
    Some(sets)
}

/// `u` after a delay `d` (the reference clock `u[0]` stays 0).
fn delayed(u: &[Eps], d: Eps) -> Option<Vec<Eps>> {
    let mut v = u.to_vec();
    for x in v.iter_mut().skip(1) {
        *x = x.add(d)?;
    }
    Some(v)
}

/// The least delay `d >= 0` with `u + d` in `zone` (0 when time may not
/// pass). Over `Z + Zε` every bound is non-strict, so the least delay is the
/// largest lower bound, and it exists whenever some delay does.
fn choose_delay(zone: &EpsDbm, u: &[Eps], may_delay: bool) -> Option<Eps> {
    if !may_delay {
        return zone.contains(u).then_some(Eps::ZERO);
    }
    let mut d = Eps::ZERO;
    for i in 1..u.len() {
        // x_0 - x_i <= l, i.e. u_i + d >= -l.
        if let Some(l) = zone.get(0, i) {
            d = d.max(Eps::ZERO.sub(l)?.sub(u[i])?);
        }
    }
    zone.contains(&delayed(u, d)?).then_some(d)
}

/// The least delay into one of the zones of a union.
fn choose_delay_in(zones: &[EpsDbm], u: &[Eps], may_delay: bool) -> Option<Eps> {
    zones
        .iter()
        .filter_map(|z| choose_delay(z, u, may_delay))
        .min()
}

/// The run picked over `Z + Zε`: the delays and, for each state, the
/// valuation on entry and the one after its delay.
struct EpsRun {
    delays: Vec<Eps>,
    entries: Vec<Vec<Eps>>,
    leaves: Vec<Vec<Eps>>,
}

/// Picks the concrete run: least delays forwards through `sets`.
///
/// Why `Z + Zε`: picking a point strictly inside an open interval (a
/// midpoint, or the simplest fraction) makes denominators grow along the
/// trace and soon overflows `i64`. Instead every strict bound `< c` is read
/// as `<= c - ε` for an infinitesimal `ε > 0`, and each delay is the least
/// one that keeps the run extendable. Over `Z + Zε` the sets are exact (see
/// `eps`), so such a least delay always exists and every value is `a + b·ε`
/// with integers `a`, `b`. The `b` parts stay small by construction:
/// along one sequence of zones (no broadcast splits) the run is a system of
/// difference constraints over the `n + 2` instants `0 = T_0 <= T_1 <= ...
/// <= T_{n+1}` (clock values are `T_now - T_last_reset + reset value`), each
/// bound `c` or `c - ε`. The least delays give its least solution,
/// `T_k = -(shortest path weight from T_0 to T_k)`, and a shortest path is
/// simple, so it has at most `n + 1` edges and `0 <= b(T_k) <= n + 1`.
/// Clock values, their differences and delays are differences of instants,
/// so their `b` parts differ by at most `n + 1`. (With broadcast splits,
/// each least delay still adds at most `n + 1`, so `b(T_k) <= k·(n + 1)`.)
/// Finally [`realize`] substitutes `ε = 1/K` with `K` larger than every
/// `|b|` difference compared — `K <= n + 2` without splits — which keeps
/// every comparison of the `Z + Zε` run true over the rationals (integer
/// parts differ by at least 1 whenever they differ). All denominators
/// divide `K`.
fn pick(
    model: &Model,
    run: &Run,
    path: &[Edges],
    sets: &[Vec<EpsDbm>],
    stop: &Stop,
) -> Option<EpsRun> {
    let mut u = vec![Eps::ZERO; model.dim];
    let mut out = EpsRun {
        delays: Vec::with_capacity(path.len() + 1),
        entries: Vec::with_capacity(path.len() + 1),
        leaves: Vec::with_capacity(path.len() + 1),
    };
    for i in 0..=path.len() {
        if stop.requested() {
            return None;
        }
        let d = choose_delay_in(&sets[i], &u, model.can_delay(&run.keys[i]))?;
        let v = delayed(&u, d)?;
        out.delays.push(d);
        out.entries.push(std::mem::replace(&mut u, v.clone()));
        out.leaves.push(v);
        if let Some(edges) = path.get(i) {
            for (x, v) in model.final_resets(&run.keys[i], edges).ok()? {
                u[x] = Eps::int(v as i64);
            }
        }
    }
    Some(out)
}

/// The common denominator `K` (with `ε = 1/K`): one more than every `|b|`
/// difference between two clocks of a valuation and every `|b|` of a delay.
fn denominator(r: &EpsRun) -> Option<i64> {
    let mut most = 0i64;
    for d in &r.delays {
        most = most.max(d.b.checked_abs()?);
    }
    for v in r.entries.iter().chain(&r.leaves) {
        let lo = v.iter().map(|e| e.b).min().unwrap_or(0);
        let hi = v.iter().map(|e| e.b).max().unwrap_or(0);
        most = most.max(hi.checked_sub(lo)?);
    }
    most.checked_add(1)
}

/// `a + b/k` as numerators over `k`, each at most `i64::MAX / 4` in size
/// (see [`realize`]: a clock value plus the trace's total time must not
/// overflow in the trace's readers).
fn numerators(v: &[Eps], k: i64) -> Option<Vec<i64>> {
    v.iter()
        .map(|e| {
            let n = e.a.checked_mul(k)?.checked_add(e.b)?;
            (n.checked_abs()? <= i64::MAX / 4).then_some(n)
        })
        .collect()
}

/// Whether the valuation `num / k` is in one of the zones (in `i128`, so the
/// comparison itself cannot overflow).
fn in_union(zones: &[Dbm], num: &[i64], k: i64) -> bool {
    let inside = |z: &Dbm| {
        !z.is_empty()
            && (0..z.dim()).all(|i| {
                (0..z.dim()).all(|j| {
                    let b = z.get(i, j);
                    if b == bound::INF {
                        return true;
                    }
                    let diff = num[i] as i128 - num[j] as i128;
                    let c = bound::value(b) as i128 * k as i128;
                    if bound::is_strict(b) {
                        diff < c
                    } else {
                        diff <= c
                    }
                })
            })
    };
    zones.iter().any(inside)
}

/// The rational trace of a `Z + Zε` run, checked once more against the
/// real zones of the path (guards, invariants on entry, the target): a
/// defensive, independent check of the construction above.
fn realize(
    model: &Model,
    run: &Run,
    path: &[Edges],
    target: &[Dbm],
    r: &EpsRun,
) -> Option<(Trace, Rational64)> {
    let k = denominator(r)?;
    // Readers of the trace add delays to clock values and sum them into a
    // global time with `Rational64` (whose `+` is unchecked). Every such
    // value has a denominator dividing `k` and is at most the total time, so
    // a total whose numerator over `k` stays below `i64::MAX / 4` keeps all
    // of that arithmetic exact; a longer trace is not given concrete values.
    let total = r.delays.iter().try_fold(0i64, |sum, d| {
        sum.checked_add(d.a.checked_mul(k)?.checked_add(d.b)?)
    })?;
    if total > i64::MAX / 4 {
        return None;
    }
    let rat = |e: &Eps| -> Option<Rational64> {
        Some(Rational64::new(e.a.checked_mul(k)?.checked_add(e.b)?, k))
    };
    let clocks = |v: &[Eps]| -> Option<Vec<Rational64>> { v.iter().map(rat).collect() };
    let n = path.len();
    let mut steps = Vec::with_capacity(n);
    for i in 0..=n {
        let entry = numerators(&r.entries[i], k)?;
        let leave = numerators(&r.leaves[i], k)?;
        let d = rat(&r.delays[i])?;
        let may_delay = model.can_delay(&run.keys[i]);
        let sound = d >= Rational64::from_integer(0)
            && (may_delay || r.delays[i] == Eps::ZERO)
            && in_union(&run.entry[i], &entry, k)
            && in_union(&run.delayed[i], &leave, k)
            && match path.get(i) {
                Some(_) => in_union(&run.guarded[i], &leave, k),
                None => in_union(target, &leave, k),
            };
        if !sound {
            return None;
        }
        if let Some(edges) = path.get(i) {
            steps.push(Step {
                delay: d,
                transition: Transition {
                    edges: edges.clone(),
                },
                after: concrete_state(model, &run.keys[i + 1], &clocks(&r.entries[i + 1])?),
            });
        }
    }
    let initial = concrete_state(model, &run.keys[0], &clocks(&r.entries[0])?);
    let last = rat(&r.delays[n])?;
    Some((
        Trace {
            initial,
            steps,
            end: TraceEnd::Goal {
                delay: Rational64::from_integer(0),
            },
        },
        last,
    ))
}

fn concrete_state(model: &Model, key: &[i32], clocks: &[Rational64]) -> ConcreteState {
    ConcreteState {
        locations: model.locs(key).iter().map(|&l| l as LocId).collect(),
        variables: model.vars(key).to_vec(),
        clocks: clocks.to_vec(),
    }
}

/// The concrete trace along `path` ending in `target`, and its last delay.
fn trace_to(
    model: &Model,
    run: &Run,
    path: &[Edges],
    target: &[Dbm],
    stop: &Stop,
) -> Option<(Trace, Rational64)> {
    // With stopped clocks the zones over-approximate: the delays are
    // solved for exactly instead (`stopwatch.rs`).
    if model.has_stopwatches() {
        return stopwatch::trace_to(model, &run.keys, path, target, stop);
    }
    let sets = backward(model, run, path, target, stop)?;
    let r = pick(model, run, path, &sets, stop)?;
    realize(model, run, path, target, &r)
}

/// A trace to a state satisfying the goal; `None` also when `stop` asks
/// the construction to stop (the caller tells the two apart).
pub fn goal_trace(model: &Model, goal: &Goal, path: &[Edges], stop: &Stop) -> Option<Trace> {
    let run = forward(model, path, stop)?;
    let n = path.len();
    let mut buf = TransitionBuf::default();
    let pieces: Vec<Dbm> = run.delayed[n]
        .iter()
        .flat_map(|z| goal.satisfied(model, &run.keys[n], z, &mut buf))
        .collect();
    for piece in pieces {
        if let Some((mut trace, d)) = trace_to(model, &run, path, &[piece], stop) {
            trace.end = TraceEnd::Goal { delay: d };
            return Some(trace);
        }
    }
    None
}

/// A trace along `path` whose states keep to `within` (see [`Confine`]),
/// ending after a delay in one of the zones `target` picks from the last
/// state's (exact, confined) zones. A step without edges is a delay only:
/// it is merged into the next step's delay (or the final one). Also
/// returns, for each state of `path`, its index in the trace, `None` for a
/// state entered by such a delay.
pub fn confined_trace(
    model: &Model,
    path: &[Edges],
    within: &[Confine],
    target: &mut dyn FnMut(&[i32], &Dbm) -> Vec<Dbm>,
    stop: &Stop,
) -> Option<(Trace, Vec<Option<usize>>)> {
    let run = forward_in(model, path, within, stop)?;
    let n = path.len();
    let pieces: Vec<Dbm> = run.delayed[n]
        .iter()
        .flat_map(|z| target(&run.keys[n], z))
        .filter(|z| !z.is_empty())
        .collect();
    let (trace, last) = trace_to(model, &run, path, &pieces, stop)?;
    // Merge the delay-only steps.
    let mut index = vec![Some(0)];
    let mut steps: Vec<Step> = Vec::new();
    let mut carried = Rational64::from_integer(0);
    for step in trace.steps {
        if step.transition.edges.is_empty() {
            carried += step.delay;
            index.push(None);
            continue;
        }
        steps.push(Step {
            delay: step.delay + carried,
            ..step
        });
        carried = Rational64::from_integer(0);
        index.push(Some(steps.len()));
    }
    Some((
        Trace {
            initial: trace.initial,
            steps,
            end: TraceEnd::Goal {
                delay: last + carried,
            },
        },
        index,
    ))
}

/// A trace to a state where `edges` are enabled and fail with `error`.
pub fn error_trace(
    model: &Model,
    path: &[Edges],
    edges: &[(ProcId, EdgeId)],
    error: EvalError,
    stop: &Stop,
) -> Option<Trace> {
    let run = forward(model, path, stop)?;
    let n = path.len();
    // No transition: the check's formula fails at the state itself.
    if edges.is_empty() {
        let (mut trace, d) = trace_to(model, &run, path, &run.delayed[n], stop)?;
        trace.end = TraceEnd::ModelError {
            delay: d,
            transition: Transition { edges: Vec::new() },
            error,
        };
        return Some(trace);
    }
    // The failing transition's clock guards, when they evaluate.
    let target: Vec<Dbm> = run.delayed[n]
        .iter()
        .flat_map(|z| {
            let mut g = z.clone();
            match model.guards(&run.keys[n], edges, &mut g) {
                // Where no transition of a higher priority blocks it.
                Ok(true) => {
                    let mut pieces = Vec::new();
                    match model.split_enabled(&run.keys[n], edges, &g, &mut pieces) {
                        Ok(()) => pieces,
                        Err(_) => vec![g],
                    }
                }
                Ok(false) => Vec::new(),
                Err(_) => vec![z.clone()],
            }
        })
        .filter(|z| !z.is_empty())
        .collect();
    let (mut trace, d) = trace_to(model, &run, path, &target, stop)?;
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
    use crate::Cancel;
    use zeno_ir::ErrorKind;

    /// Building a trace polls the run's stop condition: a limit reached
    /// after the search (or Ctrl-C) ends the construction instead of letting
    /// it run on.
    #[test]
    fn a_stop_request_ends_the_construction() {
        let text = "template T() { clock x; init location a; location b; a -> b when x >= 1; }\n\
                    system T;\ncheck c: E<> T.b;\n";
        let net = zeno_semantics::test_network(text);
        let goal = Goal::new(net.checks[0].kind.goal());
        let model = Model::new(&net, &goal.formula);
        let path = vec![vec![(0, 0)]];
        let cancel = Cancel::new();
        let stop = Stop::new(&cancel, None);
        let trace = goal_trace(&model, &goal, &path, &stop).expect("a trace");
        assert_eq!(trace.steps[0].delay, Rational64::from_integer(1));
        cancel.cancel();
        assert!(goal_trace(&model, &goal, &path, &stop).is_none());
        assert!(
            error_trace(
                &model,
                &path,
                &[(0, 0)],
                ErrorKind::DivisionByZero.into(),
                &stop
            )
            .is_none()
        );
    }
}
