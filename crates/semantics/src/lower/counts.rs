//! Counts of location tests in checks: `(sum (i : id_t) P(i).cs) <= 1`,
//! `P1.cs + P2.cs == 2`. A location test is a value of 0 or 1 only in a
//! check (the checker's data expressions read variables, not locations), so
//! a comparison of such a count with a constant becomes a formula over the
//! tests: "at least m of them hold", expanded over the subsets it needs.

use super::*;
use ir::Formula as F;

impl Ctx {
    /// `a op b` where one side counts location tests and the other is a
    /// constant, as a formula; `None` (nothing reported) when neither side
    /// is such a count.
    pub(super) fn location_count_cmp(
        &mut self,
        op: BinaryOp,
        a: &hir::Expr,
        b: &hir::Expr,
        span: Span,
    ) -> Option<F> {
        let (terms, other, op) = if let Some(t) = self.quiet(|c| c.location_count(a)) {
            (t, b, op)
        } else {
            (self.quiet(|c| c.location_count(b))?, a, flip(op))
        };
        let k = self.data(other);
        let ir::Expr::Const(k) = k.expr else {
            if !matches!(k.ty, Ty::Error) {
                self.error(
                    span,
                    "a count of location tests can only be compared with a constant",
                );
            }
            return Some(F::False);
        };
        let k = i64::from(k);
        let at_least = |c: &mut Ctx, m: i64| c.at_least(m, &terms, span);
        Some(match op {
            BinaryOp::Ge => at_least(self, k),
            BinaryOp::Gt => at_least(self, k + 1),
            BinaryOp::Le => negate(at_least(self, k + 1)),
            BinaryOp::Lt => negate(at_least(self, k)),
            BinaryOp::Eq => F::And(vec![at_least(self, k), negate(at_least(self, k + 1))]),
            _ => F::Or(vec![negate(at_least(self, k)), at_least(self, k + 1)]),
        })
    }

    /// Runs a trial lowering and keeps nothing it reported when it fails.
    fn quiet<T>(&mut self, f: impl FnOnce(&mut Ctx) -> Option<T>) -> Option<T> {
        let reported = self.diags.len();
        let r = f(self);
        if r.is_none() {
            self.diags.truncate(reported);
        }
        r
    }

    /// The location tests whose sum `e` is: a test `P.l`, a `sum` over
    /// them, or `+` of such counts.
    fn location_count(&mut self, e: &hir::Expr) -> Option<Vec<F>> {
        match &e.kind {
            ExprKind::Field(base, field) if !self.is_record_base(base) => {
                match self.resolve_field(base, field) {
                    FieldRes::Location(process, location) => {
                        Some(vec![F::At { process, location }])
                    }
                    _ => None,
                }
            }
            ExprKind::Quant(QuantKind::Sum, name, tyref, body) => {
                let values = self.quant_values(name, tyref)?;
                let mut terms = Vec::new();
                for v in values {
                    self.push_scope();
                    self.bind_value(name, v, tyref);
                    let t = self.location_count(body);
                    self.pop_scope(false);
                    terms.extend(t?);
                }
                Some(terms)
            }
            ExprKind::Binary(BinaryOp::Add, a, b) => {
                let mut terms = self.location_count(a)?;
                terms.extend(self.location_count(b)?);
                Some(terms)
            }
            _ => None,
        }
    }

    /// "At least `m` of `terms` hold": for each term, either it holds and
    /// `m - 1` of the later ones do, or `m` of the later ones do. The
    /// formula has a part per subset of `m` terms, so their number is
    /// capped like every other expansion.
    fn at_least(&mut self, m: i64, terms: &[F], span: Span) -> F {
        let n = terms.len() as i64;
        if m <= 0 {
            return F::True;
        }
        if m > n {
            return F::False;
        }
        if binomial(n, m) > MAX_EXPANSION {
            self.error(
                span,
                format!(
                    "comparing a count of {n} location tests with {m} needs more than {MAX_EXPANSION} cases"
                ),
            );
            return F::False;
        }
        expand(m as usize, terms)
    }
}

fn expand(m: usize, terms: &[F]) -> F {
    if m == 0 {
        return F::True;
    }
    if m > terms.len() {
        return F::False;
    }
    let with_first = match expand(m - 1, &terms[1..]) {
        F::True => terms[0].clone(),
        rest => F::And(vec![terms[0].clone(), rest]),
    };
    match expand(m, &terms[1..]) {
        F::False => with_first,
        without => F::Or(vec![with_first, without]),
    }
}

fn negate(f: F) -> F {
    match f {
        F::True => F::False,
        F::False => F::True,
        f => F::Not(Box::new(f)),
    }
}

/// `a op b` as `b op' a`.
fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        op => op,
    }
}

/// C(n, m), saturating (only compared with a cap).
fn binomial(n: i64, m: i64) -> i64 {
    let m = m.min(n - m);
    let mut r: i64 = 1;
    for i in 0..m {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
}
