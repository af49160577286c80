//! Interval arithmetic over ir expressions: the values an expression can take
//! when every variable slot lies in a given range, and whether evaluating it
//! may fail (division by zero, overflow, an index out of bounds; see
//! [`super::EvalError`]).
//!
//! One evaluator serves two kinds of callers. Extrapolation bounds (LU) want
//! a range regardless of failures: a comparison whose bound fails to evaluate
//! never happens, so only the values of successful evaluations matter. The
//! pattern database's error analysis wants to know that no evaluation can
//! fail at all. [`Range`] carries both answers.

use super::{BinOp, Expr, Network, UnOp};

/// A closed interval `(lo, hi)` of values, in `i64` so that `i32` overflow
/// is visible.
pub type Interval = (i64, i64);

const I32: Interval = (i32::MIN as i64, i32::MAX as i64);

/// What interval arithmetic knows about an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    /// Every value a successful evaluation gives lies in `lo..=hi`.
    pub lo: i64,
    /// See `lo`.
    pub hi: i64,
    /// Whether some valuation within the slots' ranges makes the evaluation
    /// fail. `false` is a proof that none does.
    pub may_fail: bool,
}

impl Range {
    fn exact(lo: i64, hi: i64) -> Range {
        Range {
            lo,
            hi,
            may_fail: false,
        }
    }

    fn interval(self) -> Interval {
        (self.lo, self.hi)
    }

    /// The interval when evaluation cannot fail, `None` when it may.
    pub fn strict(self) -> Option<Interval> {
        (!self.may_fail).then_some(self.interval())
    }

    /// The interval, whether or not evaluation may fail.
    pub fn lenient(self) -> Interval {
        self.interval()
    }

    /// Whether using the value as an index into `len` elements may fail.
    pub fn index_may_fail(self, len: u32) -> bool {
        self.may_fail || self.lo < 0 || self.hi >= len as i64
    }

    /// Marks the range as possibly failing when `fails`.
    fn failing_if(mut self, fails: bool) -> Range {
        self.may_fail |= fails;
        self
    }
}

impl Network {
    /// The declared range of every variable slot, the input of
    /// [`Expr::range`] for a whole network.
    pub fn declared_ranges(&self) -> Vec<Interval> {
        self.variables
            .iter()
            .map(|v| (v.lo as i64, v.hi as i64))
            .collect()
    }
}

impl Expr {
    /// The values the expression can take when every slot `v` lies in
    /// `ranges[v]` (a slot beyond `ranges` may hold anything and fails).
    pub fn range(&self, ranges: &[Interval]) -> Range {
        match self {
            Expr::Const(c) => Range::exact(*c as i64, *c as i64),
            Expr::Var(v) => match ranges.get(*v as usize) {
                Some(&(lo, hi)) => Range::exact(lo, hi),
                None => unknown(),
            },
            Expr::Index { base, len, index } => {
                let fails = index.range(ranges).index_may_fail(*len);
                // Any element may be read: the hull of them all.
                let elements = (*base..base.saturating_add(*len))
                    .map(|v| ranges.get(v as usize).copied())
                    .try_fold(None, |acc: Option<Interval>, r| {
                        let r = r?;
                        Some(Some(acc.map_or(r, |a| hull(a, r))))
                    })
                    .flatten();
                match elements {
                    Some((lo, hi)) => Range::exact(lo, hi).failing_if(fails),
                    None => unknown(),
                }
            }
            Expr::Checked { index, len } => {
                let r = index.range(ranges);
                // Successful evaluations give the values within 0..len.
                let top = *len as i64 - 1;
                let (lo, hi) = (r.lo.max(0), r.hi.min(top));
                let (lo, hi) = if lo <= hi { (lo, hi) } else { (0, top.max(0)) };
                Range::exact(lo, hi).failing_if(r.index_may_fail(*len))
            }
            Expr::Unary(op, a) => {
                let a = a.range(ranges);
                let (lo, hi) = a.interval();
                let r = match op {
                    UnOp::Neg => in_i32((-hi, -lo)),
                    UnOp::Not => Range::exact(0, 1),
                    UnOp::BitNot => Range::exact(-hi - 1, -lo - 1),
                };
                r.failing_if(a.may_fail)
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.range(ranges), b.range(ranges));
                binary(*op, a.interval(), b.interval()).failing_if(a.may_fail || b.may_fail)
            }
            Expr::Cond(c, a, b) => {
                let (c, a, b) = (c.range(ranges), a.range(ranges), b.range(ranges));
                let (lo, hi) = hull(a.interval(), b.interval());
                Range::exact(lo, hi).failing_if(c.may_fail || a.may_fail || b.may_fail)
            }
            // The result type's range; a call may always fail (a loop's
            // limit, a range error inside it).
            Expr::Call(c) => match c.result {
                Some((lo, hi)) => Range::exact(lo as i64, hi as i64).failing_if(true),
                None => unknown(),
            },
        }
    }
}

/// Nothing known: any `i32`, and evaluation may fail.
fn unknown() -> Range {
    Range::exact(I32.0, I32.1).failing_if(true)
}

/// A result that must fit an `i32`: beyond it evaluation overflows, and the
/// values of successful evaluations are those within `i32`.
fn in_i32((lo, hi): Interval) -> Range {
    let fits = lo >= I32.0 && hi <= I32.1;
    Range::exact(lo.clamp(I32.0, I32.1), hi.clamp(I32.0, I32.1)).failing_if(!fits)
}

fn hull(a: Interval, b: Interval) -> Interval {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The smallest and largest of `f` at the four corners of `x × y`.
fn corners(x: Interval, y: Interval, f: impl Fn(i64, i64) -> i64) -> Interval {
    let v = [f(x.0, y.0), f(x.0, y.1), f(x.1, y.0), f(x.1, y.1)];
    (
        v.into_iter().min().unwrap_or(I32.0),
        v.into_iter().max().unwrap_or(I32.1),
    )
}

fn binary(op: BinOp, x: Interval, y: Interval) -> Range {
    // Operands within i32 keep every corner below i64's limits; saturating
    // keeps it so for ranges given by callers beyond i32.
    let divisor_has_zero = y.0 <= 0 && y.1 >= 0;
    // i32::MIN / -1 and i32::MIN % -1 overflow.
    let min_by_minus_one = x.0 <= I32.0 && y.0 <= -1 && y.1 >= -1;
    match op {
        BinOp::Add => in_i32(corners(x, y, i64::saturating_add)),
        BinOp::Sub => in_i32(corners(x, y, i64::saturating_sub)),
        BinOp::Mul => in_i32(corners(x, y, i64::saturating_mul)),
        BinOp::Div => quotient(x, y).failing_if(divisor_has_zero || min_by_minus_one),
        BinOp::Mod if y == (0, 0) => always_fails(),
        BinOp::Mod => {
            // |x % y| < |y|, with the sign of x.
            let m = y.0.abs().max(y.1.abs()) - 1;
            Range::exact(if x.0 < 0 { -m } else { 0 }, if x.1 > 0 { m } else { 0 })
                .failing_if(divisor_has_zero)
        }
        BinOp::Lt
        | BinOp::Le
        | BinOp::Eq
        | BinOp::Ne
        | BinOp::Ge
        | BinOp::Gt
        | BinOp::And
        | BinOp::Or
        | BinOp::Imply => Range::exact(0, 1),
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => Range::exact(I32.0, I32.1),
        // A shift is `x · 2^y` or `⌊x / 2^y⌋`, monotone in each argument, so
        // its extremes lie at the corners of the amounts that can succeed
        // (0 to 31); amounts outside them fail, and a left shift also fails
        // where its exact value leaves i32.
        BinOp::Shl | BinOp::Shr => {
            let amounts = (y.0.max(0), y.1.min(31));
            let bad_amount = y.0 < 0 || y.1 > 31;
            if amounts.0 > amounts.1 {
                return always_fails();
            }
            let shifted = if op == BinOp::Shl {
                in_i32(corners(x, amounts, |a, s| a.saturating_mul(1 << s)))
            } else {
                let (lo, hi) = corners(x, amounts, |a, s| a >> s);
                Range::exact(lo, hi)
            };
            shifted.failing_if(bad_amount)
        }
        BinOp::Min => Range::exact(x.0.min(y.0), x.1.min(y.1)),
        BinOp::Max => Range::exact(x.0.max(y.0), x.1.max(y.1)),
        // |x ** e| <= m ** e for m the largest |x|, and e at most y.1; a
        // negative exponent fails. Past 64 any m >= 2 saturates already.
        BinOp::Pow => {
            if y.1 < 0 {
                return always_fails();
            }
            let m = x.0.abs().max(x.1.abs());
            let top = if m <= 1 {
                1
            } else {
                m.saturating_pow(y.1.min(64) as u32)
            };
            let lo = if x.0 >= 0 { 0 } else { -top };
            in_i32((lo, top)).failing_if(y.0 < 0)
        }
    }
}

/// `x / y` over the non-zero divisors of `y` (dividing by zero fails and
/// gives no value).
fn quotient(x: Interval, y: Interval) -> Range {
    let negative = (y.0 <= -1).then(|| (y.0, y.1.min(-1)));
    let positive = (y.1 >= 1).then(|| (y.0.max(1), y.1));
    let parts = [negative, positive].into_iter().flatten();
    match parts.map(|d| corners(x, d, |a, b| a / b)).reduce(hull) {
        Some(q) => in_i32(q),
        None => always_fails(),
    }
}

/// An evaluation that fails on every valuation: no value, so any range is
/// right; `0..=0` is as good as any.
fn always_fails() -> Range {
    Range::exact(0, 0).failing_if(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_exprs::{bin, c, var};

    fn ok(lo: i64, hi: i64) -> Range {
        Range::exact(lo, hi)
    }

    fn failing(lo: i64, hi: i64) -> Range {
        Range::exact(lo, hi).failing_if(true)
    }

    const MIN: i64 = i32::MIN as i64;
    const MAX: i64 = i32::MAX as i64;

    /// x ∈ [-3, 5], y ∈ [2, 4], z ∈ [-2, 3], w ∈ [0, 0], n ∈ [-7, -2],
    /// big ∈ [0, i32::MAX], all ∈ i32.
    const RANGES: [Interval; 7] = [(-3, 5), (2, 4), (-2, 3), (0, 0), (-7, -2), (0, MAX), I32];
    const X: u32 = 0;
    const Y: u32 = 1;
    const Z: u32 = 2;
    const W: u32 = 3;
    const N: u32 = 4;
    const BIG: u32 = 5;
    const ALL: u32 = 6;

    fn range(e: &Expr) -> Range {
        e.range(&RANGES)
    }

    #[test]
    fn constants_and_variables() {
        assert_eq!(range(&c(-4)), ok(-4, -4));
        assert_eq!(range(&var(X)), ok(-3, 5));
        // A slot the ranges do not know: anything, and a failure.
        assert_eq!(range(&var(99)), failing(MIN, MAX));
    }

    #[test]
    fn sums_products_and_negative_ranges() {
        // [-3, 5] + [2, 4] = [-1, 9]; [-3, 5] - [2, 4] = [-7, 3].
        assert_eq!(range(&bin(BinOp::Add, var(X), var(Y))), ok(-1, 9));
        assert_eq!(range(&bin(BinOp::Sub, var(X), var(Y))), ok(-7, 3));
        // Corners of [-3, 5] * [-7, -2]: 21, 6, -35, -10.
        assert_eq!(range(&bin(BinOp::Mul, var(X), var(N))), ok(-35, 21));
        // -[-7, -2] = [2, 7].
        let neg = Expr::Unary(UnOp::Neg, var(N));
        assert_eq!(range(&neg), ok(2, 7));
        // ~v = -v - 1: ~[-3, 5] = [-6, 2].
        assert_eq!(range(&Expr::Unary(UnOp::BitNot, var(X))), ok(-6, 2));
        assert_eq!(range(&Expr::Unary(UnOp::Not, var(X))), ok(0, 1));
    }

    #[test]
    fn overflow_may_fail_and_keeps_the_values_within_i32() {
        // [0, MAX] + [2, 4] = [2, MAX + 4]: fails above MAX.
        assert_eq!(range(&bin(BinOp::Add, var(BIG), var(Y))), failing(2, MAX));
        // -i32::MIN overflows.
        assert_eq!(range(&Expr::Unary(UnOp::Neg, var(ALL))), failing(-MAX, MAX));
        // A product of products stays within i64 (no panic) and within i32.
        let cube = bin(BinOp::Mul, bin(BinOp::Mul, var(ALL), var(ALL)), var(ALL));
        assert_eq!(range(&cube), failing(MIN, MAX));
        // Entirely beyond i32: every evaluation fails.
        let twice = bin(BinOp::Add, c(i32::MAX), c(i32::MAX));
        assert_eq!(range(&twice), failing(MAX, MAX));
    }

    #[test]
    fn division_truncates_and_fails_by_zero() {
        // [-3, 5] / [2, 4]: corners -3/2 = -1, -3/4 = 0, 5/2 = 2, 5/4 = 1.
        assert_eq!(range(&bin(BinOp::Div, var(X), var(Y))), ok(-1, 2));
        // By [-7, -2]: -3/-7 = 0, -3/-2 = 1, 5/-7 = 0, 5/-2 = -2.
        assert_eq!(range(&bin(BinOp::Div, var(X), var(N))), ok(-2, 1));
        // By [-2, 3] (zero inside): the divisors -2, -1, 1, 2, 3 give
        // [-5, 3] ∪ [-3, 5] = [-5, 5], and dividing by 0 fails.
        assert_eq!(range(&bin(BinOp::Div, var(X), var(Z))), failing(-5, 5));
        // By [0, 0]: always fails.
        assert!(range(&bin(BinOp::Div, var(X), var(W))).may_fail);
        // i32::MIN / -1 overflows.
        assert_eq!(range(&bin(BinOp::Div, var(ALL), c(-1))), failing(-MAX, MAX));
    }

    #[test]
    fn modulo_keeps_the_dividends_sign_and_fails_by_zero() {
        // |x % y| <= 3 for y in [2, 4], negative only for negative x.
        assert_eq!(range(&bin(BinOp::Mod, var(X), var(Y))), ok(-3, 3));
        assert_eq!(range(&bin(BinOp::Mod, var(Y), var(N))), ok(0, 6));
        assert_eq!(range(&bin(BinOp::Mod, var(N), var(Y))), ok(-3, 0));
        assert_eq!(range(&bin(BinOp::Mod, var(X), var(Z))), failing(-2, 2));
        assert!(range(&bin(BinOp::Mod, var(X), var(W))).may_fail);
        // i32::MIN % -1 is exactly 0 (only the quotient overflows).
        assert_eq!(range(&bin(BinOp::Mod, var(ALL), c(-1))), ok(0, 0));
    }

    #[test]
    fn comparisons_bits_shifts_min_max() {
        assert_eq!(range(&bin(BinOp::Le, var(X), var(Y))), ok(0, 1));
        assert_eq!(range(&bin(BinOp::BitAnd, var(X), var(Y))), ok(MIN, MAX));
        // x · 2^y over [-3, 5] × [2, 4]: -3 · 16 to 5 · 16; ⌊x / 2^y⌋: -1 to 1.
        assert_eq!(range(&bin(BinOp::Shl, var(X), var(Y))), ok(-48, 80));
        assert_eq!(range(&bin(BinOp::Shr, var(X), var(Y))), ok(-1, 1));
        // Shifting a significant bit out overflows.
        assert!(range(&bin(BinOp::Shl, var(BIG), c(1))).may_fail);
        assert!(!range(&bin(BinOp::Shl, var(Y), c(28))).may_fail);
        // A negative or a 32-bit shift amount fails.
        assert!(range(&bin(BinOp::Shl, var(X), var(Z))).may_fail);
        assert!(range(&bin(BinOp::Shr, var(X), c(32))).may_fail);
        assert_eq!(range(&bin(BinOp::Min, var(X), var(N))), ok(-7, -2));
        assert_eq!(range(&bin(BinOp::Max, var(X), var(N))), ok(-3, 5));
    }

    #[test]
    fn array_index_out_of_range() {
        // Slots 0..3 hold x, y, z: any of them may be read, [-3, 5] in all.
        let read = |index| Expr::Index {
            base: X,
            len: 3,
            index,
        };
        // y - 2 ∈ [0, 2] is a valid index.
        assert_eq!(range(&read(bin(BinOp::Sub, var(Y), c(2)))), ok(-3, 5));
        // y + 1 ∈ [3, 5] is beyond index 2: the same values, but it may fail.
        assert_eq!(range(&read(bin(BinOp::Add, var(Y), c(1)))), failing(-3, 5));
        assert!(range(&read(var(X))).may_fail, "x may be negative");
        assert!(ok(0, 2).index_may_fail(2));
        assert!(!ok(0, 1).index_may_fail(2));
        // An array beyond the known slots.
        let outside = Expr::Index {
            base: 5,
            len: 3,
            index: c(0),
        };
        assert_eq!(range(&outside), failing(MIN, MAX));
    }

    #[test]
    fn checked_index_is_within_its_dimension() {
        let checked = |index, len| Expr::Checked { index, len };
        // y ∈ [2, 4] within 0..5: itself, cannot fail.
        assert_eq!(range(&checked(var(Y), 5)), ok(2, 4));
        // x ∈ [-3, 5] within 0..3: successful evaluations give 0..=2.
        assert_eq!(range(&checked(var(X), 3)), failing(0, 2));
        // n ∈ [-7, -2] is never within 0..2: it always fails.
        assert!(range(&checked(var(N), 2)).may_fail);
    }

    #[test]
    fn conditional_is_the_hull_of_its_branches() {
        let cond = |c, a, b| Expr::Cond(c, a, b);
        assert_eq!(range(&cond(var(X), var(Y), var(N))), ok(-7, 4));
        // A failure in the condition or in either branch may happen.
        let div0 = bin(BinOp::Div, c(1), var(W));
        assert!(range(&cond(div0.clone(), var(Y), var(N))).may_fail);
        assert_eq!(range(&cond(var(X), div0, var(N))), failing(-7, 0));
    }

    #[test]
    fn strict_and_lenient_answers() {
        let div = bin(BinOp::Div, var(X), var(Z));
        assert_eq!(range(&div).strict(), None);
        assert_eq!(range(&div).lenient(), (-5, 5));
        assert_eq!(range(&var(X)).strict(), Some((-3, 5)));
    }

    mod soundness {
        use super::super::*;
        use proptest::prelude::*;

        /// Small expressions over slots 0..3, with the constants where
        /// evaluation goes wrong (0, -1, the ends of i32).
        fn expr_strategy() -> impl Strategy<Value = Expr> {
            let leaf = prop_oneof![
                prop::sample::select(vec![0, 1, -1, 2, 3, -5, 31, 32, i32::MIN, i32::MAX])
                    .prop_map(Expr::Const),
                (0u32..3).prop_map(Expr::Var),
            ];
            leaf.prop_recursive(4, 24, 3, |inner| {
                let ops = vec![
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Mul,
                    BinOp::Div,
                    BinOp::Mod,
                    BinOp::Lt,
                    BinOp::Eq,
                    BinOp::And,
                    BinOp::Or,
                    BinOp::Imply,
                    BinOp::BitAnd,
                    BinOp::Shl,
                    BinOp::Shr,
                    BinOp::Min,
                    BinOp::Max,
                ];
                let unops = vec![UnOp::Neg, UnOp::Not, UnOp::BitNot];
                prop_oneof![
                    (prop::sample::select(unops), inner.clone())
                        .prop_map(|(op, a)| Expr::Unary(op, Box::new(a))),
                    (prop::sample::select(ops), inner.clone(), inner.clone())
                        .prop_map(|(op, a, b)| Expr::Binary(op, Box::new(a), Box::new(b))),
                    (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| {
                        Expr::Cond(Box::new(c), Box::new(a), Box::new(b))
                    }),
                    (0u32..3, 1u32..4, inner.clone()).prop_map(|(base, len, i)| Expr::Index {
                        base: base.min(3 - len.min(3)),
                        len: len.min(3),
                        index: Box::new(i),
                    }),
                    (1u32..4, inner).prop_map(|(len, i)| Expr::Checked {
                        index: Box::new(i),
                        len,
                    }),
                ]
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(500))]

            /// Every value the concrete evaluator gives lies in the range,
            /// and it fails only where the range says it may.
            #[test]
            fn the_range_covers_every_evaluation(
                e in expr_strategy(),
                los in prop::collection::vec(-4i32..4, 3),
                widths in prop::collection::vec(0i32..4, 3),
            ) {
                let ranges: Vec<Interval> = los
                    .iter()
                    .zip(&widths)
                    .map(|(&lo, &w)| (lo as i64, (lo + w) as i64))
                    .collect();
                let r = e.range(&ranges);
                for a in los[0]..=los[0] + widths[0] {
                    for b in los[1]..=los[1] + widths[1] {
                        for c in los[2]..=los[2] + widths[2] {
                            match e.eval(&[a, b, c]) {
                                Ok(v) => prop_assert!(
                                    r.lo <= v as i64 && v as i64 <= r.hi,
                                    "{v} outside {r:?} at {:?}", [a, b, c]
                                ),
                                Err(err) => prop_assert!(
                                    r.may_fail,
                                    "{err} at {:?} but {r:?} cannot fail", [a, b, c]
                                ),
                            }
                        }
                    }
                }
            }
        }
    }
}
