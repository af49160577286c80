//! `sup:` and `inf:` queries (UPPAAL's symbolic value queries): the
//! supremum or infimum of clocks and integer expressions over the reachable
//! states that satisfy a predicate, exact (docs/checker.md, "Value
//! queries").
//!
//! The zone graph is explored whole (inclusion-reduced, extrapolated with
//! Extra+_LU, inactive clocks freed as in the reachability search), and each
//! state's zone, cut to the predicate
//! ([`Goal::satisfied`]), gives its values: a clock's upper bound (`sup`) or
//! lower bound (`inf`) in the zone, an integer expression's value in the
//! discrete state. Why the answer is exact:
//!
//! - Integer expressions and the predicate's truth depend on the discrete
//!   state, and a discrete state with a valuation satisfying the predicate is
//!   reachable in the abstract graph exactly when it is in the real one: the
//!   predicate's clock constants are in the LU bounds (they are the goal's).
//! - A clock `x` gets `L(x), U(x) >= T` in every location (a threshold
//!   added to the goal for the bounds only). Reachability of `pred && x >= c`,
//!   `pred && x > c` (and of `x <= c`, `x < c`) is then exact for every
//!   `c <= T`, as for any goal whose constants the bounds cover: an
//!   extrapolated valuation is LU-simulated by a reachable one, and the
//!   simulation keeps each of these constraints. So an abstract supremum
//!   `<= T` (an infimum `< T`, or `>= T`) is the real one, strictness
//!   included; an abstract infimum `> T` may be extrapolation's relaxing of
//!   a larger lower bound.
//! - An abstract supremum above `T` (or unbounded) proves only that
//!   `pred && x > T` is reachable. If such a state's zone lets `x` grow
//!   without bound where time may pass for ever (no invariant bounds a clock
//!   from above, no urgency) and the predicate stays true while time passes
//!   (no upper bound on a clock, no negated `deadlock`), the supremum is `∞`: the real state waits as long as it
//!   likes and keeps the predicate. Otherwise `T` is doubled and the graph
//!   explored again, up to [`MAX_ROUNDS`] times; what is still undecided then
//!   is answered as "above T", never as a guess.

use std::time::Instant;

use rustc_hash::FxHashMap;

use zeno_ir::{self as ir, BoundQuery, BoundValue, ClockConstraint, Expr, Extremum, Formula};

use super::active::ActiveClocks;
use super::dbm::Dbm;
use super::dbm::bound::{self, INF, MAX_CONST, Raw};
use super::goal::Goal;
use super::semantics::{Model, TransitionBuf};
use super::{CheckResult, Limit, Stats, Task, Verdict};

/// How many times the threshold is doubled before a supremum or infimum
/// beyond it is reported as such.
const MAX_ROUNDS: u32 = 6;

/// How often (in explored states) progress is reported.
const PROGRESS_EVERY: u64 = 4096;

/// The answer for one expression of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// An integer expression's largest (`sup`) or smallest (`inf`) value.
    Int(i32),
    /// A clock's bound: `sup` `x <= 5` (reached) or `x < 5` (approached);
    /// `inf` `x >= 3` or `x > 3`.
    Clock {
        /// The bound.
        bound: i32,
        /// Whether it is approached but never reached.
        strict: bool,
    },
    /// A clock that grows without bound (`sup` only): `∞`.
    Infinite,
    /// A clock's supremum (infimum) is above this value; whether it is
    /// finite, and which, was not decided within the rounds allowed.
    Above(i32),
    /// No reachable state satisfies the predicate.
    NoState,
}

/// The answer to a `sup`/`inf` query.
#[derive(Debug, Clone)]
pub struct BoundsResult {
    /// `Holds` with the values (a value query always holds, as in UPPAAL),
    /// `ModelError` when the predicate or an expression fails to evaluate in
    /// a reachable state, `Unknown` when a limit stopped the exploration.
    pub result: CheckResult,
    /// One value per expression, in text order, when the verdict is `Holds`.
    pub values: Vec<Value>,
}

/// Answers the task's check, which must be a `sup`/`inf` query.
pub(crate) fn run(task: Task, progress: &mut dyn FnMut(&Stats)) -> BoundsResult {
    let started = Instant::now();
    let ir::CheckKind::Bound(query) = &task.net.check(task.check).kind else {
        return stopped(Verdict::Unknown(Limit::Cancelled), Stats::default());
    };
    // Stopwatch zones over-approximate the reachable valuations, so their
    // bounds could be wider than the real supremum: no value rather than a
    // wrong one (`stopwatches.rs`).
    if task.net.has_stopwatches() {
        return stopped(Verdict::Unknown(Limit::Stopwatches), Stats::default());
    }
    let mut threshold = model_constant(task.net, &query.pred).max(1);
    let mut stats = Stats::default();
    let mut rounds = 0;
    loop {
        let round = match explore(task, query, threshold, &mut stats, progress) {
            Ok(round) => round,
            Err(verdict) => {
                stats.elapsed = started.elapsed();
                return stopped(verdict, stats);
            }
        };
        let values = round.values(query, threshold);
        let undecided = values.iter().any(|v| matches!(v, Value::Above(_)));
        rounds += 1;
        if !undecided || rounds >= MAX_ROUNDS || threshold >= MAX_CONST / 2 {
            stats.elapsed = started.elapsed();
            return BoundsResult {
                result: CheckResult {
                    verdict: Verdict::Holds,
                    stats,
                    trace: None,
                },
                values,
            };
        }
        threshold = threshold.saturating_mul(2).min(MAX_CONST / 2);
    }
}

fn stopped(verdict: Verdict, stats: Stats) -> BoundsResult {
    BoundsResult {
        result: CheckResult {
            verdict,
            stats,
            trace: None,
        },
        values: Vec::new(),
    }
}

/// The largest magnitude of a clock constant of the network and the
/// predicate: the first threshold (the bounds are at least that large for
/// the clocks compared with it, so no smaller one decides more).
fn model_constant(net: &ir::Network, pred: &Formula) -> i32 {
    let ranges = net.declared_ranges();
    let magnitude = |c: &ClockConstraint| {
        let (lo, hi) = super::lu::bound_range(&ranges, &c.bound);
        lo.unsigned_abs()
            .max(hi.unsigned_abs())
            .min(MAX_CONST as u64) as i32
    };
    let mut m = 0;
    for p in &net.processes {
        for l in &p.locations {
            m = l.invariant.iter().map(magnitude).fold(m, i32::max);
        }
        for e in &p.edges {
            m = e.clock_guard.iter().map(magnitude).fold(m, i32::max);
        }
    }
    let mut in_pred = Vec::new();
    clock_constraints(pred, &mut in_pred);
    in_pred.into_iter().map(magnitude).fold(m, i32::max)
}

fn clock_constraints<'f>(f: &'f Formula, out: &mut Vec<&'f ClockConstraint>) {
    match f {
        Formula::Clock(c) => out.push(c),
        Formula::Not(g) => clock_constraints(g, out),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().for_each(|g| clock_constraints(g, out)),
        _ => {}
    }
}

/// Whether every state that satisfies `f` still does after any delay: no
/// clock is bounded from above in it (under its negations too), and
/// `deadlock` only where it is not negated (a deadlocked state stays
/// deadlocked after a delay: no action is possible after any delay; a state
/// that is not may become one).
fn kept_by_delays(f: &Formula, negated: bool) -> bool {
    match f {
        Formula::Clock(c) => {
            // `x - y ≺ c` bounds `x` from above unless `x` is the reference
            // clock; under a negation it bounds `y` from above instead.
            let (upper, lower) = if negated { (c.j, c.i) } else { (c.i, c.j) };
            upper == 0 || lower != 0
        }
        Formula::Deadlock => !negated,
        Formula::Not(g) => kept_by_delays(g, !negated),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().all(|g| kept_by_delays(g, negated)),
        _ => true,
    }
}

/// What one exploration found, per expression.
struct Round {
    /// Some reachable state satisfies the predicate.
    any: bool,
    /// Per expression: the extreme raw bound (clocks; `sup`: the loosest
    /// upper bound `x - 0`, `inf`: the loosest `0 - x`) or value (integers).
    extreme: Vec<Option<i64>>,
    /// Per clock expression (`sup`): a state was met where the clock grows
    /// without bound, time may pass for ever, and the predicate stays true.
    diverges: Vec<bool>,
}

impl Round {
    fn values(&self, query: &BoundQuery, threshold: i32) -> Vec<Value> {
        query
            .terms
            .iter()
            .enumerate()
            .map(|(k, term)| {
                if !self.any {
                    return Value::NoState;
                }
                let Some(extreme) = self.extreme[k] else {
                    return Value::NoState;
                };
                match (&term.value, query.extremum) {
                    (BoundValue::Data(_), _) => Value::Int(extreme as i32),
                    (BoundValue::Clock(_), Extremum::Sup) => {
                        let raw = extreme as Raw;
                        if raw != INF && bound::value(raw) <= threshold {
                            Value::Clock {
                                bound: bound::value(raw),
                                strict: bound::is_strict(raw),
                            }
                        } else if self.diverges[k] {
                            Value::Infinite
                        } else {
                            Value::Above(threshold)
                        }
                    }
                    (BoundValue::Clock(_), Extremum::Inf) => {
                        // `0 - x ≺ c`: `x ≻ -c` (a clock is never negative,
                        // so the bound is finite).
                        // Extrapolation relaxes a lower bound above `U(x)`
                        // to `x > U(x)`: `x > T` may stand for more.
                        let raw = extreme as Raw;
                        let lower = -bound::value(raw);
                        let strict = bound::is_strict(raw);
                        if raw != INF && (lower < threshold || (lower == threshold && !strict)) {
                            Value::Clock {
                                bound: lower,
                                strict,
                            }
                        } else {
                            Value::Above(threshold)
                        }
                    }
                }
            })
            .collect()
    }
}

/// Explores the zone graph with the clocks of `query` bounded by at least
/// `threshold`; `Err` with the verdict when a limit or a model error stops
/// it.
fn explore(
    task: Task,
    query: &BoundQuery,
    threshold: i32,
    stats: &mut Stats,
    progress: &mut dyn FnMut(&Stats),
) -> Result<Round, Verdict> {
    let net = task.net;
    // The bounds see the threshold for each clock asked about, as if the
    // goal compared it with `threshold`.
    let mut for_bounds = vec![query.pred.clone()];
    for term in &query.terms {
        if let BoundValue::Clock(x) = term.value {
            for_bounds.push(Formula::Clock(ClockConstraint {
                i: x,
                j: 0,
                strict: false,
                bound: Expr::Const(threshold),
            }));
        }
    }
    let for_bounds = Formula::And(for_bounds);
    let model = Model::new(net, &for_bounds);
    // Clocks reset before they are read again are forgotten, as in the
    // reachability search: the clocks asked about and the predicate's are
    // read by the goal, so they are active everywhere and keep their values.
    let active = task
        .options
        .active_clocks
        .then(|| ActiveClocks::new(net, &for_bounds));
    let mut active_buf = Vec::new();
    if model.beyond_zones().is_some() {
        return Err(Verdict::Unknown(Limit::ClockRange));
    }
    let goal = Goal::new(query.pred.clone());
    let pred_kept = kept_by_delays(&query.pred, false);
    let mut buf = TransitionBuf::default();
    buf.watch = Some(task.stop.watch());
    let mut round = Round {
        any: false,
        extreme: vec![None; query.terms.len()],
        diverges: vec![false; query.terms.len()],
    };
    let Some((key, mut zone)) = model.initial().map_err(Verdict::ModelError)? else {
        return Ok(round);
    };
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    model.extrapolate(&key, &mut zone, &mut lower, &mut upper);
    if let Some(a) = &active {
        a.free_inactive(model.locs(&key), &mut zone, &mut active_buf);
    }
    let mut store: FxHashMap<Box<[i32]>, Vec<Dbm>> = FxHashMap::default();
    let mut queue: std::collections::VecDeque<(Box<[i32]>, Dbm)> = Default::default();
    let key: Box<[i32]> = key.into_boxed_slice();
    store.entry(key.clone()).or_default().push(zone.clone());
    queue.push_back((key, zone));
    stats.stored += 1;
    let mut new_key = Vec::new();
    let mut succ = vec![Dbm::zero(model.dim)];
    while let Some((key, zone)) = queue.pop_front() {
        if let Some(limit) = task.stop.reason() {
            return Err(Verdict::Unknown(limit));
        }
        if task.options.max_states.is_some_and(|m| stats.explored >= m) {
            return Err(Verdict::Unknown(Limit::States));
        }
        stats.explored += 1;
        if stats.explored.is_multiple_of(PROGRESS_EVERY) {
            progress(stats);
        }
        if let Some(e) = goal.error(&model, &key, &zone, &mut buf) {
            return Err(Verdict::ModelError(e));
        }
        let pieces = goal.satisfied(&model, &key, &zone, &mut buf);
        let diverges = pred_kept && time_diverges(&model, &key);
        for piece in &pieces {
            round.any = true;
            for (k, term) in query.terms.iter().enumerate() {
                let v = match &term.value {
                    BoundValue::Data(e) => {
                        e.eval(model.vars(&key)).map_err(Verdict::ModelError)? as i64
                    }
                    BoundValue::Clock(x) => {
                        let x = *x as usize;
                        match query.extremum {
                            Extremum::Sup => {
                                let raw = piece.get(x, 0);
                                if raw == INF && diverges {
                                    round.diverges[k] = true;
                                }
                                raw as i64
                            }
                            Extremum::Inf => piece.get(0, x) as i64,
                        }
                    }
                };
                let keep_larger = match (&term.value, query.extremum) {
                    (BoundValue::Data(_), Extremum::Inf) => false,
                    // The loosest bound: the largest raw value.
                    _ => true,
                };
                let slot = &mut round.extreme[k];
                *slot = Some(match *slot {
                    None => v,
                    Some(old) if keep_larger => old.max(v),
                    Some(old) => old.min(v),
                });
            }
        }
        model
            .transitions(&key, &mut buf)
            .map_err(|e| Verdict::ModelError(e.error))?;
        if let Some(limit) = buf.stopped {
            return Err(Verdict::Unknown(limit));
        }
        for t in 0..buf.len() {
            let edges = buf.get(t).to_vec();
            let n = model
                .successor(&key, &zone, &edges, &mut new_key, &mut succ)
                .map_err(Verdict::ModelError)?;
            for z in &mut succ[..n] {
                stats.generated += 1;
                model.extrapolate(&new_key, z, &mut lower, &mut upper);
                if let Some(a) = &active {
                    a.free_inactive(model.locs(&new_key), z, &mut active_buf);
                }
                let zones = store.entry(new_key.clone().into_boxed_slice()).or_default();
                if zones.iter().any(|old| z.is_subset_of(old)) {
                    continue;
                }
                // Zones the new one covers add nothing (their successors
                // are covered too); those already queued are explored
                // anyway.
                zones.retain(|old| !old.is_subset_of(z));
                zones.push(z.clone());
                stats.stored += 1;
                queue.push_back((new_key.clone().into_boxed_slice(), z.clone()));
            }
        }
    }
    Ok(round)
}

/// Whether time can pass for ever in this discrete state: delays are
/// allowed and no invariant bounds a clock from above.
fn time_diverges(model: &Model, key: &[i32]) -> bool {
    model.can_delay(key)
        && model.net.processes.iter().enumerate().all(|(p, proc_)| {
            proc_.locations[key[p] as usize]
                .invariant
                .iter()
                .all(|c| c.j != 0 || c.i == 0)
        })
}
