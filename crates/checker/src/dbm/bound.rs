//! Bounds of difference constraints `x_i - x_j ≺ c`, encoded in one integer
//! as in the UPPAAL DBM library: `2c + 1` for `≤ c`, `2c` for `< c`, so that a
//! smaller raw value is always a tighter constraint and addition is cheap.

/// A raw encoded bound.
pub type Raw = i32;

/// No constraint.
pub const INF: Raw = i32::MAX;
/// `≤ 0`.
pub const LE_ZERO: Raw = 1;
/// `< 0`.
pub const LT_ZERO: Raw = 0;

/// Largest constant a bound may carry; larger ones saturate to "no bound" so
/// that additions never overflow. The searches refuse networks with larger
/// clock constants (`Limit::ClockRange`), so saturation only ever widens
/// sums of bounds, never a constant of the model.
pub const MAX_CONST: i32 = zeno_ir::MAX_CLOCK_CONSTANT;

/// Encodes `≺ c` (strict when `strict`).
pub fn raw(c: i32, strict: bool) -> Raw {
    if c > MAX_CONST {
        return INF;
    }
    let c = c.max(-MAX_CONST);
    2 * c + (!strict) as i32
}

/// `≤ c`.
pub fn le(c: i32) -> Raw {
    raw(c, false)
}

/// `< c`.
pub fn lt(c: i32) -> Raw {
    raw(c, true)
}

/// The constant of a finite bound.
pub fn value(b: Raw) -> i32 {
    b >> 1
}

/// Whether a finite bound is strict.
pub fn is_strict(b: Raw) -> bool {
    b & 1 == 0
}

/// Sum of two bounds (`≤` only when both are `≤`).
#[inline]
pub fn add(a: Raw, b: Raw) -> Raw {
    if a == INF || b == INF {
        INF
    } else {
        let s = a as i64 + b as i64 - ((a | b) & 1) as i64;
        if s >= 2 * MAX_CONST as i64 + 2 {
            INF
        } else {
            s.max(-(2 * MAX_CONST as i64)) as Raw
        }
    }
}

/// [`add`] when `a` is known finite: the same sum, without the test on
/// `a`, in 32-bit lanes the compiler can run on several entries at once.
/// Finite bounds lie in `[-2·MAX_CONST, 2·MAX_CONST + 1]` (what [`raw`]
/// and [`add`] produce), so the sum of two finite ones fits an `i32`; the
/// sum with `b == INF` may wrap, and is thrown away for `INF`.
#[inline]
pub fn add_finite(a: Raw, b: Raw) -> Raw {
    debug_assert!(in_range(a));
    debug_assert!(b == INF || in_range(b));
    let s = a.wrapping_add(b).wrapping_sub((a | b) & 1);
    let s = if s >= 2 * MAX_CONST + 2 {
        INF
    } else {
        s.max(-2 * MAX_CONST)
    };
    if b == INF { INF } else { s }
}

/// Whether `b` is a finite bound [`raw`] or [`add`] can produce.
fn in_range(b: Raw) -> bool {
    (-2 * MAX_CONST..=2 * MAX_CONST + 1).contains(&b)
}

/// The complement of `x_i - x_j ≺ c` as a bound on `x_j - x_i`:
/// not `≤ c` is `< -c` reversed, not `< c` is `≤ -c` reversed.
pub fn negate(b: Raw) -> Raw {
    1 - b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_orders_tightness() {
        assert!(lt(3) < le(3));
        assert!(le(3) < lt(4));
        assert!(le(-1) < lt(0));
        assert_eq!(value(le(-5)), -5);
        assert!(is_strict(lt(-5)));
        assert!(!is_strict(le(7)));
    }

    #[test]
    fn addition() {
        assert_eq!(add(le(2), le(3)), le(5));
        assert_eq!(add(le(2), lt(3)), lt(5));
        assert_eq!(add(lt(-2), lt(3)), lt(1));
        assert_eq!(add(INF, le(3)), INF);
    }

    #[test]
    fn finite_addition_agrees_with_addition() {
        // Both ends of the range, where the sum saturates, and INF.
        let edge = [
            -2 * MAX_CONST,
            -2 * MAX_CONST + 1,
            lt(-7),
            LT_ZERO,
            LE_ZERO,
            le(9),
            2 * MAX_CONST,
            2 * MAX_CONST + 1,
        ];
        for &a in &edge {
            for &b in edge.iter().chain([&INF]) {
                assert_eq!(add_finite(a, b), add(a, b), "{a} + {b}");
            }
        }
    }

    #[test]
    fn negation() {
        // not (x - y <= 3) is y - x < -3
        assert_eq!(negate(le(3)), lt(-3));
        // not (x - y < 3) is y - x <= -3
        assert_eq!(negate(lt(3)), le(-3));
    }
}
