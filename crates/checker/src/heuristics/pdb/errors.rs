//! A static proof that a network cannot raise run-time errors (index out of
//! bounds, division by zero, overflow, out-of-range assignment), by interval
//! arithmetic over the variables' declared ranges.
//!
//! Pruning a state because the pattern database proves the goal unreachable
//! from it would also hide model errors reachable from it; the search only
//! prunes when this analysis succeeds (otherwise dead ends are explored last,
//! as for every other heuristic).

use zeno_ir::{BinOp, ChanRef, Expr, Formula, Interval, LValue, Network, Update, VarId};

/// True when no expression evaluation or assignment of the network (guards,
/// clock bounds, invariants, channel indices, updates, the goal's data atoms)
/// can fail in any reachable state.
pub(crate) fn cannot_raise_errors(net: &Network, goal: &Formula) -> bool {
    let ranges = net.declared_ranges();
    let processes_ok = net.processes.iter().all(|p| {
        let invariants_ok = p.locations.iter().all(|l| {
            l.invariant
                .iter()
                .all(|c| interval(&c.bound, &ranges).is_some())
                && l.data_invariant
                    .as_ref()
                    .is_none_or(|d| interval(d, &ranges).is_some())
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
                    (Some(g), Some(s)) if s.dir == zeno_ir::SyncDir::Send => narrow(g, &ranges),
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
    !index.range(ranges).index_may_fail(len)
}

/// Updates in order, starting from `ranges` (the declared ranges, possibly
/// narrowed by the guard). Every assigned value must lie in the declared
/// range of every slot the target may designate; the slot then holds a value
/// of its declared range again.
fn updates_ok(updates: &[Update], mut ranges: Vec<Interval>, declared: &[Interval]) -> bool {
    for u in updates {
        let (target, value) = match u {
            Update::Assign { target, value } => (target, value),
            Update::ResetClock { .. } => continue,
            // A function may fail in ways no interval shows (a loop's limit).
            Update::Call(_) => return false,
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

/// The values `e` can take, or `None` when its evaluation may fail.
fn interval(e: &Expr, ranges: &[Interval]) -> Option<Interval> {
    e.range(ranges).strict()
}
