//! A static proof that a network cannot raise run-time errors (index out of
//! bounds, division by zero, overflow, out-of-range assignment), by interval
//! arithmetic over the variables' declared ranges.
//!
//! Pruning a state because the pattern database proves the goal unreachable
//! from it would also hide model errors reachable from it; the search only
//! prunes when this analysis succeeds (otherwise dead ends are explored last,
//! as for every other heuristic).

use crate::ir::{BinOp, ChanRef, Expr, Formula, LValue, Network, UnOp, Update, VarId};

/// Closed interval of values (in `i64`, so that `i32` overflow is visible).
type Interval = (i64, i64);

const I32: Interval = (i32::MIN as i64, i32::MAX as i64);

/// True when no expression evaluation or assignment of the network (guards,
/// clock bounds, invariants, channel indices, updates, the goal's data atoms)
/// can fail in any reachable state.
pub(crate) fn cannot_raise_errors(net: &Network, goal: &Formula) -> bool {
    let ranges: Vec<Interval> = net
        .variables
        .iter()
        .map(|v| (v.lo as i64, v.hi as i64))
        .collect();
    let processes_ok = net.processes.iter().all(|p| {
        let invariants_ok = p.locations.iter().all(|l| {
            l.invariant
                .iter()
                .all(|c| interval(&c.bound, &ranges).is_some())
        });
        invariants_ok
            && p.edges.iter().all(|e| {
                // A receiver's updates run after the sender's, which may have
                // changed what its guard read: narrow by the guard only
                // when this edge's updates run first.
                let narrowed = match (&e.guard, &e.sync) {
                    // A vector participant's guard is read before earlier
                    // participants' updates, like a receiver's.
                    (Some(g), None) if e.label.is_none() => narrow(g, &ranges),
                    (Some(g), Some(s)) if s.dir == crate::ir::SyncDir::Send => narrow(g, &ranges),
                    _ => ranges.clone(),
                };
                e.guard
                    .as_ref()
                    .is_none_or(|g| interval(g, &ranges).is_some())
                    && e.clock_guard
                        .iter()
                        .all(|c| interval(&c.bound, &ranges).is_some())
                    && e.sync.as_ref().is_none_or(|s| chan_ok(&s.channel, &ranges))
                    && updates_ok(&e.updates, narrowed, &ranges)
            })
    });
    processes_ok && formula_ok(goal, &ranges)
}

fn formula_ok(f: &Formula, ranges: &[Interval]) -> bool {
    match f {
        Formula::True | Formula::False | Formula::At { .. } | Formula::Deadlock => true,
        Formula::Data(e) => interval(e, ranges).is_some(),
        Formula::Clock(c) => interval(&c.bound, ranges).is_some(),
        Formula::Not(g) => formula_ok(g, ranges),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().all(|g| formula_ok(g, ranges)),
    }
}

fn chan_ok(c: &ChanRef, ranges: &[Interval]) -> bool {
    c.index.as_ref().is_none_or(|i| index_ok(i, c.len, ranges))
}

fn index_ok(index: &Expr, len: u32, ranges: &[Interval]) -> bool {
    interval(index, ranges).is_some_and(|(lo, hi)| lo >= 0 && hi < len as i64)
}

/// Updates in order, starting from `ranges` (the declared ranges, possibly
/// narrowed by the guard). Every assigned value must lie in the declared
/// range of every slot the target may designate; the slot then holds a value
/// of its declared range again.
fn updates_ok(updates: &[Update], mut ranges: Vec<Interval>, declared: &[Interval]) -> bool {
    for u in updates {
        let Update::Assign { target, value } = u else {
            continue;
        };
        let Some(value) = interval(value, &ranges) else {
            return false;
        };
        let Some(slots) = lvalue_slots(target, &ranges) else {
            return false;
        };
        for slot in slots {
            let Some(&(lo, hi)) = declared.get(slot as usize) else {
                return false;
            };
            if value.0 < lo || value.1 > hi {
                return false;
            }
            ranges[slot as usize] = (lo, hi);
        }
    }
    true
}

fn lvalue_slots(l: &LValue, ranges: &[Interval]) -> Option<Vec<VarId>> {
    match &l.index {
        None => Some(vec![l.base]),
        Some(i) => index_ok(i, l.len, ranges).then(|| (l.base..l.base + l.len).collect()),
    }
}

/// Tightens the ranges of variables compared with constants in the guard's
/// top-level conjuncts (`x < 3`, `2 <= x`, `x == 1`): the updates run only
/// when the guard holds.
fn narrow(guard: &Expr, ranges: &[Interval]) -> Vec<Interval> {
    let mut out = ranges.to_vec();
    let mut stack = vec![guard];
    while let Some(e) = stack.pop() {
        let Expr::Binary(op, a, b) = e else { continue };
        if *op == BinOp::And {
            stack.push(a);
            stack.push(b);
            continue;
        }
        let (v, c, op) = match (&**a, &**b) {
            (Expr::Var(v), Expr::Const(c)) => (*v, *c as i64, *op),
            (Expr::Const(c), Expr::Var(v)) => (*v, *c as i64, flip(*op)),
            _ => continue,
        };
        let Some(r) = out.get_mut(v as usize) else {
            continue;
        };
        match op {
            BinOp::Lt => r.1 = r.1.min(c - 1),
            BinOp::Le => r.1 = r.1.min(c),
            BinOp::Gt => r.0 = r.0.max(c + 1),
            BinOp::Ge => r.0 = r.0.max(c),
            BinOp::Eq => *r = (r.0.max(c), r.1.min(c)),
            _ => {}
        }
    }
    out
}

fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

fn fits(i: Interval) -> Option<Interval> {
    (i.0 >= I32.0 && i.1 <= I32.1).then_some(i)
}

fn hull(a: Interval, b: Interval) -> Interval {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The values `e` can take, or `None` when its evaluation may fail.
pub(crate) fn interval(e: &Expr, ranges: &[Interval]) -> Option<Interval> {
    match e {
        Expr::Const(c) => Some((*c as i64, *c as i64)),
        Expr::Var(v) => ranges.get(*v as usize).copied(),
        Expr::Index { base, len, index } => {
            if !index_ok(index, *len, ranges) {
                return None;
            }
            (*base..*base + *len)
                .map(|v| ranges.get(v as usize).copied())
                .try_fold(None, |acc: Option<Interval>, r| {
                    let r = r?;
                    Some(Some(acc.map_or(r, |a| hull(a, r))))
                })?
        }
        Expr::Unary(op, a) => {
            let (lo, hi) = interval(a, ranges)?;
            match op {
                UnOp::Neg => fits((-hi, -lo)),
                UnOp::Not => Some((0, 1)),
                UnOp::BitNot => Some((-hi - 1, -lo - 1)),
            }
        }
        Expr::Binary(op, a, b) => {
            let x = interval(a, ranges)?;
            let y = interval(b, ranges)?;
            binary(*op, x, y)
        }
        Expr::Cond(c, a, b) => {
            interval(c, ranges)?;
            Some(hull(interval(a, ranges)?, interval(b, ranges)?))
        }
    }
}

fn binary(op: BinOp, x: Interval, y: Interval) -> Option<Interval> {
    let corners = |f: fn(i64, i64) -> i64| {
        let v = [f(x.0, y.0), f(x.0, y.1), f(x.1, y.0), f(x.1, y.1)];
        (*v.iter().min().unwrap(), *v.iter().max().unwrap())
    };
    let divisor_ok = y.0 > 0 || y.1 < 0;
    // i32::MIN / -1 and i32::MIN % -1 overflow.
    let min_by_minus_one = x.0 <= I32.0 && y.0 <= -1 && y.1 >= -1;
    match op {
        BinOp::Add => fits(corners(|a, b| a + b)),
        BinOp::Sub => fits(corners(|a, b| a - b)),
        BinOp::Mul => fits(corners(|a, b| a * b)),
        BinOp::Div if divisor_ok && !min_by_minus_one => fits(corners(|a, b| a / b)),
        BinOp::Mod if divisor_ok && !min_by_minus_one => {
            let m = y.0.abs().max(y.1.abs()) - 1;
            Some((if x.0 < 0 { -m } else { 0 }, if x.1 > 0 { m } else { 0 }))
        }
        BinOp::Div | BinOp::Mod => None,
        BinOp::Lt
        | BinOp::Le
        | BinOp::Eq
        | BinOp::Ne
        | BinOp::Ge
        | BinOp::Gt
        | BinOp::And
        | BinOp::Or => Some((0, 1)),
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => Some(I32),
        BinOp::Shl | BinOp::Shr if y.0 >= 0 && y.1 < 32 => Some(I32),
        BinOp::Shl | BinOp::Shr => None,
        BinOp::Min => Some((x.0.min(y.0), x.1.min(y.1))),
        BinOp::Max => Some((x.0.max(y.0), x.1.max(y.1))),
    }
}
