//! Clock rates in invariants (stopwatches): `x' == 0` stops the clock `x`
//! while the process is in the location, `x' == 1` (the default) lets it
//! run. Any other use of `x'` is an error located on it.

use super::*;

/// The rates one location's invariant sets, as they are found.
#[derive(Debug, Default)]
pub(super) struct Rates {
    /// Clocks with `x' == 0`.
    pub stopped: Vec<ClockId>,
    /// Clocks with `x' == 1`, written out.
    pub running: Vec<ClockId>,
    /// Clocks whose rate is given by data (`x' == b`): 0 or 1 in each
    /// discrete state, checked when the state is entered.
    pub data: Vec<(ClockId, ir::Expr)>,
}

/// `(x', value)` when `e` compares a rate (`x' op v` or `v op x'`).
fn rate_sides(e: &hir::Expr) -> Option<(BinaryOp, &hir::Expr, &hir::Expr)> {
    let ExprKind::Binary(op, a, b) = &e.kind else {
        return None;
    };
    match (&a.kind, &b.kind) {
        (ExprKind::Rate(x), _) => Some((*op, x, b)),
        (_, ExprKind::Rate(x)) => Some((*op, x, a)),
        _ => None,
    }
}

impl Ctx {
    /// Lowers `e` when it sets a clock's rate (a conjunct of an invariant;
    /// in a guard it is an error) and returns true; false when `e` is no
    /// rate comparison.
    pub(super) fn clock_rate(&mut self, e: &hir::Expr, ctx: ClockCtx) -> bool {
        let Some((op, clock, value)) = rate_sides(e) else {
            return false;
        };
        if ctx != ClockCtx::Invariant {
            self.error(
                e.span,
                "a clock rate can only be set in a location's invariant (`x' == 0` stops `x` there)",
            );
            return true;
        }
        if op != BinaryOp::Eq {
            self.error(
                e.span,
                "a clock rate is set with `==`: `x' == 0` stops the clock, `x' == 1` lets it run",
            );
            return true;
        }
        let Some(x) = self.rated_clock(clock) else {
            return true;
        };
        let t = self.data(value);
        let v = match (t.ty, t.expr) {
            (Ty::Error, _) => return true,
            (Ty::Int { .. } | Ty::Bool, ir::Expr::Const(v)) if t.is_const => i64::from(v),
            (Ty::Int { .. } | Ty::Bool, expr) => {
                // A rate given by data: 0 or 1 per discrete state, checked
                // where a state is entered (a run-time error otherwise).
                let rates = self.rates.get_or_insert_with(Rates::default);
                let set = |r: &Rates| {
                    r.stopped.contains(&x)
                        || r.running.contains(&x)
                        || r.data.iter().any(|(y, _)| *y == x)
                };
                if set(rates) {
                    self.error(e.span, "this invariant sets two rates for the same clock");
                } else {
                    rates.data.push((x, expr));
                }
                return true;
            }
            (other, _) => {
                self.error(
                    value.span,
                    format!("a clock rate is 0 or 1, not {}", other.describe()),
                );
                return true;
            }
        };
        let rates = self.rates.get_or_insert_with(Rates::default);
        let (same, other) = match v {
            0 => (&mut rates.stopped, &rates.running),
            1 => (&mut rates.running, &rates.stopped),
            _ => {
                self.error(
                    value.span,
                    format!("a clock rate must be 0 or 1 (stopwatches), not {v}"),
                );
                return true;
            }
        };
        if other.contains(&x) || rates.data.iter().any(|(y, _)| *y == x) {
            self.error(e.span, "this invariant sets two rates for the same clock");
            return true;
        }
        if !same.contains(&x) {
            same.push(x);
        }
        true
    }

    /// The clock whose rate `x'` names; `None` after an error (reported).
    fn rated_clock(&mut self, e: &hir::Expr) -> Option<ClockId> {
        match self.clock_term(e) {
            Some((x, 0)) => Some(x),
            _ => {
                let what = match &e.kind {
                    ExprKind::Name(n) => format!("`{n}` is not a clock"),
                    _ => "this is not a clock".to_string(),
                };
                self.error(
                    e.span,
                    format!("{what}: only a clock has a rate (`x' == 0`)"),
                );
                None
            }
        }
    }
}
