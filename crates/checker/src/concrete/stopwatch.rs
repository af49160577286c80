//! Confirming a trace of a stopwatch model exactly.
//!
//! With stopped clocks the zones of a path over-approximate (see
//! `dbm/stopwatch.rs`), so a path the search finds may have no concrete
//! run. The path fixes the discrete states and the edges; what is left are
//! the delays `d_0..d_n` (the last one before the goal). Every clock's
//! value is an affine function of them: its reset value plus the delays of
//! the states since its reset in which it ran. Each constraint along the
//! path (invariants on entering a state and after its delay — rates are
//! constant while no edge is taken and invariants are convex, so the two
//! ends suffice — guards, the target) is then a linear inequality over the
//! delays, and the path has a concrete run exactly when the system has a
//! solution, which [`lp::solve`] decides over the rationals. A broadcast
//! whose left-out receivers have clock guards, or transitions of a higher
//! priority, make the enabled set a union of zones: each choice is tried.

use num_rational::Rational64;
use num_traits::{CheckedAdd, CheckedMul};

use super::lp::{self, Answer, Q, Row};
use super::{Edges, Trace, TraceEnd, Transition, concrete_state};
use crate::Stop;
use crate::dbm::{Dbm, bound};
use crate::semantics::Model;
use crate::trace::Step;

/// Linear programs tried for one path at most (one per choice of zone in
/// the unions met); beyond, the path is left unconfirmed.
const MAX_CHOICES: usize = 256;

/// `c + Σ coef[k]·d_k`: a clock's value along the path.
#[derive(Clone, Debug)]
struct Lin {
    c: i64,
    coef: Vec<i64>,
}

impl Lin {
    fn constant(c: i64, n: usize) -> Lin {
        Lin {
            c,
            coef: vec![0; n],
        }
    }
}

/// Whether the bound `(i, j)` of a canonical zone says nothing more than
/// the zone's other bounds and `x >= 0` do: `x_i - x_j ≺ c` implied by the
/// bounds of `x_i` and `x_j` themselves, and `x_j >= 0` (clock values are
/// sums of non-negative delays and reset values).
fn implied(zone: &Dbm, i: usize, j: usize) -> bool {
    let b = zone.get(i, j);
    if i == 0 {
        return b == bound::LE_ZERO;
    }
    j != 0 && bound::add(zone.get(i, 0), zone.get(0, j)) <= b
}

/// The rows saying that the valuation `vals` lies in `zone` (its bounds
/// that others do not imply); `None` when a constraint without delays in
/// it is already false.
fn zone_rows(zone: &Dbm, vals: &[Lin]) -> Option<Vec<Row>> {
    if zone.is_empty() {
        return None;
    }
    let mut rows = Vec::new();
    for i in 0..zone.dim() {
        for j in 0..zone.dim() {
            let b = zone.get(i, j);
            if i == j || b == bound::INF || implied(zone, i, j) {
                continue;
            }
            let coef: Vec<i64> = vals[i]
                .coef
                .iter()
                .zip(&vals[j].coef)
                .map(|(a, b)| a - b)
                .collect();
            let rhs = bound::value(b) as i64 - (vals[i].c - vals[j].c);
            let strict = bound::is_strict(b);
            if coef.iter().all(|&a| a == 0) {
                let ok = if strict { 0 < rhs } else { 0 <= rhs };
                if !ok {
                    return None;
                }
                continue;
            }
            rows.push(Row {
                coef,
                strict,
                bound: rhs,
            });
        }
    }
    Some(rows)
}

/// The linear system of a path: rows that always apply, and for each
/// place where the enabled set is a union of zones, one set of rows per
/// zone.
struct System {
    rows: Vec<Row>,
    choices: Vec<Vec<Vec<Row>>>,
    /// The valuation on entering each state.
    entries: Vec<Vec<Lin>>,
}

/// What the path's system is; `Err(true)`: no run exists (some
/// constraint is false whatever the delays); `Err(false)`: an evaluation
/// failed or the stop condition was met.
fn system(
    model: &Model,
    keys: &[Vec<i32>],
    path: &[Edges],
    target: &[Dbm],
    stop: &Stop,
) -> Result<System, bool> {
    let n = path.len() + 1;
    let dim = model.dim;
    let mut vals: Vec<Lin> = (0..dim).map(|_| Lin::constant(0, n)).collect();
    let mut sys = System {
        rows: Vec::new(),
        choices: Vec::new(),
        entries: Vec::new(),
    };
    for (i, key) in keys.iter().enumerate().take(n) {
        if stop.requested() {
            return Err(false);
        }
        sys.entries.push(vals.clone());
        let mut inv = Dbm::universe(dim);
        if !model.invariants(key, &mut inv).map_err(|_| false)? {
            return Err(true);
        }
        sys.rows.extend(zone_rows(&inv, &vals).ok_or(true)?);
        let mut only_now = vec![0; n];
        only_now[i] = 1;
        match model.can_delay(key).then(|| model.rates(key)).flatten() {
            Some(running) => {
                for (x, v) in vals.iter_mut().enumerate() {
                    if running[x] {
                        v.coef[i] += 1;
                    }
                }
            }
            None => sys.rows.push(Row {
                coef: only_now,
                strict: false,
                bound: 0,
            }),
        }
        sys.rows.extend(zone_rows(&inv, &vals).ok_or(true)?);
        let pieces: Vec<Dbm> = match path.get(i) {
            Some(edges) => {
                let mut g = Dbm::universe(dim);
                if !model.guards(key, edges, &mut g).map_err(|_| false)? {
                    return Err(true);
                }
                let mut pieces = Vec::new();
                model
                    .split_enabled(key, edges, &g, &mut pieces)
                    .map_err(|_| false)?;
                pieces
            }
            None => target.to_vec(),
        };
        let choice: Vec<Vec<Row>> = pieces.iter().filter_map(|z| zone_rows(z, &vals)).collect();
        if choice.is_empty() {
            return Err(true);
        }
        sys.choices.push(choice);
        if let Some(edges) = path.get(i) {
            for (x, v) in model.final_resets(key, edges).map_err(|_| false)? {
                vals[x] = Lin::constant(v as i64, n);
            }
        }
    }
    Ok(sys)
}

/// A rational as `Rational64`, when it fits.
fn narrow(q: &Q) -> Option<Rational64> {
    Some(Rational64::new(
        i64::try_from(*q.numer()).ok()?,
        i64::try_from(*q.denom()).ok()?,
    ))
}

/// The concrete trace of the delays `d`, with the last delay.
fn trace(
    model: &Model,
    keys: &[Vec<i32>],
    path: &[Edges],
    sys: &System,
    d: &[Q],
) -> Option<(Trace, Rational64)> {
    // Readers add clock values and delays with `Rational64`'s unchecked
    // `+`: keep every value over one denominator and the total time small
    // (as `realize` does for models without stopwatches).
    let den = d.iter().try_fold(1i128, |l, q| {
        let (mut a, mut b) = (l, *q.denom());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        (l / a).checked_mul(*q.denom())
    })?;
    let total = d
        .iter()
        .try_fold(Q::from_integer(0), |s, q| s.checked_add(q))?;
    let total_over_den = total.numer().checked_mul(&(den / total.denom()))?;
    if den > (i64::MAX / 4) as i128 || total_over_den > (i64::MAX / 4) as i128 {
        return None;
    }
    let value = |l: &Lin| -> Option<Rational64> {
        let mut s = Q::from_integer(l.c as i128);
        for (a, q) in l.coef.iter().zip(d) {
            s = s.checked_add(&Q::from_integer(*a as i128).checked_mul(q)?)?;
        }
        narrow(&s)
    };
    let clocks = |vals: &[Lin]| -> Option<Vec<Rational64>> { vals.iter().map(value).collect() };
    let mut steps = Vec::with_capacity(path.len());
    for (i, edges) in path.iter().enumerate() {
        steps.push(Step {
            delay: narrow(&d[i])?,
            transition: Transition {
                edges: edges.clone(),
            },
            after: concrete_state(model, &keys[i + 1], &clocks(&sys.entries[i + 1])?),
        });
    }
    let initial = concrete_state(model, &keys[0], &clocks(&sys.entries[0])?);
    let last = narrow(&d[path.len()])?;
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

/// The concrete trace along `path` (through the discrete states `keys`)
/// ending in one of the zones of `target`, when the delays admit one;
/// `None` when they do not, and when that is not known (arithmetic beyond
/// `i128`, more than [`MAX_CHOICES`] choices, the stop condition).
pub(super) fn trace_to(
    model: &Model,
    keys: &[Vec<i32>],
    path: &[Edges],
    target: &[Dbm],
    stop: &Stop,
) -> Option<(Trace, Rational64)> {
    let sys = system(model, keys, path, target, stop).ok()?;
    let n = path.len() + 1;
    // Each combination of one zone per union, as a mixed-radix counter.
    let mut pick = vec![0usize; sys.choices.len()];
    for _ in 0..MAX_CHOICES {
        if stop.requested() {
            return None;
        }
        let mut rows = sys.rows.clone();
        for (c, &k) in sys.choices.iter().zip(&pick) {
            rows.extend(c[k].iter().cloned());
        }
        if let Answer::Feasible(d) = lp::solve(n, &rows)? {
            return trace(model, keys, path, &sys, &d);
        }
        let mut k = 0;
        loop {
            let p = pick.get_mut(k)?;
            *p += 1;
            if *p < sys.choices[k].len() {
                break;
            }
            *p = 0;
            k += 1;
        }
    }
    None
}
