//! Zones over the ordered group `Z + Zε` (ε a positive infinitesimal), used
//! to pick concrete traces with bounded denominators.
//!
//! Over `Z + Zε` a strict integer bound `x - y < c` is the same as the
//! non-strict `x - y <= c - ε`, so every bound is non-strict and every
//! difference-constraint operation (closure, `down`, `free`, intersection) is
//! exact: the shortest-path solutions of a difference system lie in the group
//! its bounds come from. Minimal delays therefore always exist, which is what
//! the greedy pick in the parent module needs.

use crate::dbm::{Dbm, bound};

/// `a + b·ε`, ordered lexicographically (the field order matters for `Ord`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Eps {
    pub a: i64,
    pub b: i64,
}

impl Eps {
    pub const ZERO: Eps = Eps { a: 0, b: 0 };

    pub fn int(a: i64) -> Eps {
        Eps { a, b: 0 }
    }

    pub fn add(self, o: Eps) -> Option<Eps> {
        Some(Eps {
            a: self.a.checked_add(o.a)?,
            b: self.b.checked_add(o.b)?,
        })
    }

    pub fn sub(self, o: Eps) -> Option<Eps> {
        Some(Eps {
            a: self.a.checked_sub(o.a)?,
            b: self.b.checked_sub(o.b)?,
        })
    }
}

/// A bound; `None` is "no bound".
type B = Option<Eps>;

fn add(x: B, y: B) -> Option<B> {
    match (x, y) {
        (Some(x), Some(y)) => Some(Some(x.add(y)?)),
        _ => Some(None),
    }
}

/// `x < y` where `None` is +∞.
fn less(x: B, y: B) -> bool {
    match (x, y) {
        (Some(x), Some(y)) => x < y,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// A zone over `Z + Zε`: entry `(i, j)` bounds `x_i - x_j <= m[i][j]`.
/// Arithmetic is checked; `None` from an operation means an overflow.
#[derive(Clone, Debug)]
pub struct EpsDbm {
    dim: usize,
    m: Vec<B>,
    empty: bool,
}

impl EpsDbm {
    /// The same valuations of `Z + Zε` as the real zone `z` (strict → `-ε`).
    pub fn from_dbm(z: &Dbm) -> EpsDbm {
        let dim = z.dim();
        let mut m = Vec::with_capacity(dim * dim);
        for i in 0..dim {
            for j in 0..dim {
                let r = z.get(i, j);
                m.push((r != bound::INF).then(|| Eps {
                    a: bound::value(r) as i64,
                    b: if bound::is_strict(r) { -1 } else { 0 },
                }));
            }
        }
        EpsDbm {
            dim,
            m,
            empty: z.is_empty(),
        }
    }

    pub fn get(&self, i: usize, j: usize) -> B {
        self.m[i * self.dim + j]
    }

    fn set(&mut self, i: usize, j: usize, b: B) {
        self.m[i * self.dim + j] = b;
    }

    pub fn is_empty(&self) -> bool {
        self.empty
    }

    /// Floyd–Warshall; detects emptiness (a negative diagonal).
    pub fn close(&mut self) -> Option<()> {
        if self.empty {
            return Some(());
        }
        let n = self.dim;
        for k in 0..n {
            for i in 0..n {
                let ik = self.get(i, k);
                if ik.is_none() {
                    continue;
                }
                for j in 0..n {
                    let s = add(ik, self.get(k, j))?;
                    if less(s, self.get(i, j)) {
                        self.set(i, j, s);
                    }
                }
            }
        }
        self.empty = (0..n).any(|i| less(self.get(i, i), Some(Eps::ZERO)));
        Some(())
    }

    /// Adds `x_i - x_j <= b` (closure is left to the caller).
    pub fn tighten(&mut self, i: usize, j: usize, b: Eps) {
        if less(Some(b), self.get(i, j)) {
            self.set(i, j, Some(b));
        }
    }

    /// Intersection, closed.
    pub fn intersect(&self, o: &EpsDbm) -> Option<EpsDbm> {
        let mut z = self.clone();
        z.empty |= o.empty;
        for (a, &b) in z.m.iter_mut().zip(&o.m) {
            if less(b, *a) {
                *a = b;
            }
        }
        z.close()?;
        Some(z)
    }

    /// The valuations from which some delay `d >= 0` leads into the zone
    /// (expects a closed zone; the result is closed).
    pub fn down(&mut self) {
        if self.empty {
            return;
        }
        for i in 1..self.dim {
            let mut b = Some(Eps::ZERO);
            for j in 1..self.dim {
                if less(self.get(j, i), b) {
                    b = self.get(j, i);
                }
            }
            self.set(0, i, b);
        }
    }

    /// Removes every constraint on `x` but `x >= 0` (expects a closed zone;
    /// the result is closed).
    pub fn free(&mut self, x: usize) {
        if self.empty {
            return;
        }
        for i in 0..self.dim {
            if i != x {
                self.set(x, i, None);
                let b = self.get(i, 0);
                self.set(i, x, b);
            }
        }
    }

    /// Whether the valuation `u` (with `u[0] = 0`) is in the zone.
    pub fn contains(&self, u: &[Eps]) -> bool {
        if self.empty {
            return false;
        }
        (0..self.dim).all(|i| {
            (0..self.dim).all(|j| match (self.get(i, j), u[i].sub(u[j])) {
                (None, _) => true,
                (Some(c), Some(diff)) => diff <= c,
                (Some(_), None) => false,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `0 < x1 < x2 < 1`, built as a real zone.
    fn chain() -> EpsDbm {
        let mut z = Dbm::universe(3);
        assert!(z.constrain(0, 1, bound::lt(0)));
        assert!(z.constrain(1, 2, bound::lt(0)));
        assert!(z.constrain(2, 0, bound::lt(1)));
        let mut e = EpsDbm::from_dbm(&z);
        e.close().expect("no overflow");
        e
    }

    #[test]
    fn closure_counts_strict_edges() {
        // Over Z + Zε: x1 >= ε, x2 >= x1 + ε >= 2ε, x2 <= 1 - ε, x1 <= 1 - 2ε.
        let e = chain();
        assert_eq!(e.get(0, 2), Some(Eps { a: 0, b: -2 }));
        assert_eq!(e.get(1, 0), Some(Eps { a: 1, b: -2 }));
        assert!(e.contains(&[Eps::ZERO, Eps { a: 0, b: 1 }, Eps { a: 0, b: 2 }]));
        assert!(!e.contains(&[Eps::ZERO, Eps { a: 0, b: 1 }, Eps { a: 0, b: 1 }]));
    }

    #[test]
    fn down_and_free_keep_the_group_points() {
        let mut e = chain();
        e.down();
        // (0, ε) reaches (ε, 2ε) after a delay ε; from the origin no delay
        // separates x1 and x2, which the zone needs (x2 - x1 >= ε).
        assert!(e.contains(&[Eps::ZERO, Eps::ZERO, Eps { a: 0, b: 1 }]));
        assert!(!e.contains(&[Eps::ZERO, Eps::ZERO, Eps::ZERO]));
        e.free(2);
        assert!(e.contains(&[Eps::ZERO, Eps::ZERO, Eps::int(5)]));
        // x1 <= 1 - 2ε still holds after freeing x2.
        assert!(!e.contains(&[Eps::ZERO, Eps::int(1), Eps::ZERO]));
    }

    #[test]
    fn overflow_is_reported() {
        let big = Eps { a: i64::MAX, b: 0 };
        assert_eq!(big.add(Eps::int(1)), None);
        assert_eq!(Eps::ZERO.sub(Eps { a: i64::MIN, b: 0 }), None);
    }
}
