//! Sets of delays as intervals of exact rationals, and the delays that keep
//! a point moving along a line inside a zone.
//!
//! In the concrete simulator the clocks hold one valuation `v`; after a
//! delay `d` they hold `v + d·r` (`r` the clocks' rates, 1 or 0 for a stopped clock). A zone is a
//! conjunction of constraints `x_i - x_j ≺ c`, so the delays keeping the
//! moving point inside it form one interval, found constraint by
//! constraint. All arithmetic is checked: a value that does not fit in
//! `i64` is an [`Overflow`], never a wrapped number.

use std::fmt;

use num_rational::Rational64;
use num_traits::{CheckedAdd, CheckedMul, CheckedSub};

use zeno_checker::dbm::{Dbm, bound};

type Q = Rational64;

/// Exact arithmetic ran out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// `a + b`, checked.
pub fn add(a: Q, b: Q) -> Result<Q, Overflow> {
    a.checked_add(&b).ok_or(Overflow)
}

/// `a - b`, checked.
pub fn sub(a: Q, b: Q) -> Result<Q, Overflow> {
    a.checked_sub(&b).ok_or(Overflow)
}

/// The delays `d` with `lo ≺ d ≺ hi` (`hi: None` is unbounded); `lo` is never
/// below 0, so every window holds only non-negative delays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The least delay.
    pub lo: Q,
    /// Whether the least delay itself is excluded.
    pub lo_strict: bool,
    /// The greatest delay and whether it is excluded; `None`: unbounded.
    pub hi: Option<(Q, bool)>,
}

impl Window {
    /// Every delay `d >= 0`.
    pub fn all() -> Window {
        Window {
            lo: Q::from_integer(0),
            lo_strict: false,
            hi: None,
        }
    }

    /// Only the delay 0.
    pub fn zero() -> Window {
        Window {
            hi: Some((Q::from_integer(0), false)),
            ..Window::all()
        }
    }

    /// Whether no delay is in the window.
    pub fn is_empty(&self) -> bool {
        match self.hi {
            None => false,
            Some((hi, strict)) => hi < self.lo || (hi == self.lo && (strict || self.lo_strict)),
        }
    }

    /// Whether the delay `d` is in the window.
    pub fn contains(&self, d: Q) -> bool {
        let above = if self.lo_strict {
            d > self.lo
        } else {
            d >= self.lo
        };
        let below = match self.hi {
            None => true,
            Some((hi, true)) => d < hi,
            Some((hi, false)) => d <= hi,
        };
        above && below
    }

    /// Adds `d ≻ c` (`>` when strict).
    fn above(&mut self, c: Q, strict: bool) {
        if c > self.lo || (c == self.lo && strict) {
            self.lo = c;
            self.lo_strict = strict;
        }
    }

    /// Adds `d ≺ c` (`<` when strict).
    fn below(&mut self, c: Q, strict: bool) {
        let tighter = match self.hi {
            None => true,
            Some((hi, hs)) => c < hi || (c == hi && strict && !hs),
        };
        if tighter {
            self.hi = Some((c, strict));
        }
    }

    /// The intersection of two windows.
    pub fn meet(&self, other: &Window) -> Window {
        let mut w = self.clone();
        w.above(other.lo, other.lo_strict);
        if let Some((hi, strict)) = other.hi {
            w.below(hi, strict);
        }
        w
    }

    /// The least delay in the window, when it has one (a strict lower end
    /// has none).
    pub fn least(&self) -> Option<Q> {
        (!self.is_empty() && !self.lo_strict).then_some(self.lo)
    }

    /// A delay in the window strictly between its ends when they differ:
    /// the midpoint of a bounded window, else half a unit past the lower end.
    pub fn inner(&self) -> Result<Option<Q>, Overflow> {
        if self.is_empty() {
            return Ok(None);
        }
        let half = Q::new(1, 2);
        let d = match self.hi {
            Some((hi, _)) => {
                let sum = add(self.lo, hi)?;
                sum.checked_mul(&half).ok_or(Overflow)?
            }
            None => add(self.lo, half)?,
        };
        Ok(self.contains(d).then_some(d))
    }
}

impl fmt::Display for Window {
    /// `[0, 2]`, `(1, 3)`, `[2, ∞)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let open = if self.lo_strict { '(' } else { '[' };
        match self.hi {
            None => write!(f, "{open}{}, ∞)", self.lo),
            Some((hi, strict)) => {
                let close = if strict { ')' } else { ']' };
                write!(f, "{open}{}, {hi}{close}", self.lo)
            }
        }
    }
}

/// The delays `d >= 0` for which the point `p + d·m` lies in `zone`, where
/// `moving[i]` says whether clock `i` advances with time (a clock reset by
/// a transition stays at its reset value). `p[0]` is the reference clock, 0.
pub fn along(zone: &Dbm, p: &[Q], moving: &[bool]) -> Result<Window, Overflow> {
    let mut w = Window::all();
    if zone.is_empty() {
        w.below(Q::from_integer(0), true);
        return Ok(w);
    }
    let dim = zone.dim();
    let moves = |i: usize| i != 0 && moving.get(i).copied().unwrap_or(false);
    for i in 0..dim {
        for j in 0..dim {
            let b = zone.get(i, j);
            if i == j || b == bound::INF {
                continue;
            }
            let strict = bound::is_strict(b);
            // (p_i + m_i·d) - (p_j + m_j·d) ≺ c, i.e. (m_i - m_j)·d ≺ c - (p_i - p_j).
            let rest = sub(Q::from_integer(bound::value(b) as i64), sub(p[i], p[j])?)?;
            match (moves(i), moves(j)) {
                (true, false) => w.below(rest, strict),
                (false, true) => w.above(-rest, strict),
                _ => {
                    let holds = if strict {
                        rest > Q::from_integer(0)
                    } else {
                        rest >= Q::from_integer(0)
                    };
                    if !holds {
                        w.below(Q::from_integer(0), true);
                    }
                }
            }
        }
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n, d)
    }

    /// `x1 <= 3 && x1 - x2 < 1` as a canonical zone over two clocks.
    fn zone() -> Dbm {
        let mut z = Dbm::universe(3);
        assert!(z.constrain(1, 0, bound::le(3)));
        assert!(z.constrain(1, 2, bound::lt(1)));
        z
    }

    #[test]
    fn a_moving_point_meets_upper_bounds_and_checks_differences() {
        // x1 = 1/2, x2 = 0: x1 - x2 = 1/2 < 1 holds forever, x1 + d <= 3.
        let w = along(&zone(), &[q(0, 1), q(1, 2), q(0, 1)], &[false, true, true]).unwrap();
        assert_eq!(
            w,
            Window {
                lo: q(0, 1),
                lo_strict: false,
                hi: Some((q(5, 2), false))
            }
        );
        assert_eq!(w.to_string(), "[0, 5/2]");
        // x1 - x2 = 1 violates the strict difference at every delay.
        let w = along(&zone(), &[q(0, 1), q(1, 1), q(0, 1)], &[false, true, true]).unwrap();
        assert!(w.is_empty());
    }

    #[test]
    fn a_reset_clock_that_stays_makes_differences_move() {
        // x2 is held at 0 (reset), x1 = 0 moves: x1 - 0 < 1 gives d < 1.
        let w = along(&zone(), &[q(0, 1), q(0, 1), q(0, 1)], &[false, true, false]).unwrap();
        assert_eq!(w.to_string(), "[0, 1)");
        // A lower bound: x1 >= 2 with x1 = 1/2 needs d >= 3/2.
        let mut z = Dbm::universe(2);
        assert!(z.constrain(0, 1, bound::le(-2)));
        let w = along(&z, &[q(0, 1), q(1, 2)], &[false, true]).unwrap();
        assert_eq!(w.to_string(), "[3/2, ∞)");
        assert_eq!(w.least(), Some(q(3, 2)));
        assert_eq!(w.inner().unwrap(), Some(q(2, 1)));
    }

    #[test]
    fn windows_meet_and_order_strictness() {
        let a = Window {
            lo: q(1, 1),
            lo_strict: true,
            hi: Some((q(2, 1), false)),
        };
        let b = Window {
            lo: q(1, 1),
            lo_strict: false,
            hi: Some((q(2, 1), true)),
        };
        let m = a.meet(&b);
        assert_eq!(m.to_string(), "(1, 2)");
        assert!(!m.contains(q(1, 1)) && !m.contains(q(2, 1)) && m.contains(q(3, 2)));
        assert_eq!(m.least(), None);
        assert_eq!(m.inner().unwrap(), Some(q(3, 2)));
        let point = Window {
            lo: q(2, 1),
            lo_strict: false,
            hi: Some((q(2, 1), false)),
        };
        assert!(!point.is_empty());
        assert!(point.meet(&m).is_empty());
        assert!(Window::zero().contains(q(0, 1)) && !Window::zero().contains(q(1, 100)));
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        let big = Q::from_integer(i64::MAX);
        assert_eq!(add(big, q(1, 1)), Err(Overflow));
        assert_eq!(sub(-big, q(2, 1)), Err(Overflow));
    }
}
