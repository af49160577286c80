//! Extra+_LU (Behrmann, Bouyer, Larsen, Pelánek 2006, "Lower and upper bounds
//! in zone-based abstractions of timed automata", Definition of Extra^+_LU).
//! `lower[x]` / `upper[x]` are the largest constants `x` is compared to from
//! below (`x > c`, `x >= c`) and above (`x < c`, `x <= c`) in the current
//! locations and everything reachable from them without resetting `x`; a
//! negative value means "never compared". Sound for diagonal-free models.

#![allow(clippy::needless_range_loop)] // i, j index the matrix and the bound tables alike

use super::Dbm;
use super::bound::{self, INF};

pub(super) fn extra_lu_plus(d: &mut Dbm, lower: &[i32], upper: &[i32]) {
    if d.is_empty() {
        return;
    }
    let n = d.dim;
    // Every rule reads the entry itself and the original first row (the
    // lower bounds -c_0i), so rows 1.. are rewritten first and row 0 last:
    // no copy of the matrix is needed.
    let lower_value = |d: &Dbm, i: usize| -bound::value(d.get(0, i));
    let mut changed = false;
    for i in (1..n).chain(std::iter::once(0)) {
        let exceeds_lower = i != 0 && lower_value(d, i) > lower[i];
        for j in 0..n {
            if i == j {
                continue;
            }
            let c = d.get(i, j);
            let exceeds_upper = j != 0 && lower_value(d, j) > upper[j];
            let new = if i != 0
                && ((c != INF && bound::value(c) > lower[i]) || exceeds_lower || exceeds_upper)
            {
                INF
            } else if i == 0 && exceeds_upper {
                bound::lt(-upper[j]).min(bound::LE_ZERO)
            } else {
                c
            };
            if new != c {
                d.m[i * n + j] = new;
                changed = true;
            }
        }
    }
    if changed {
        d.close();
    }
}

/// Classical Extra_M (k-normalisation; Bengtsson & Yi 2004, Section 4.3;
/// Bouyer 2004, "Forward analysis of updatable timed automata"): a bound
/// above `M(x_i)` on `x_i - x_j` is dropped, a bound below `-M(x_j)` becomes
/// `< -M(x_j)`. Every valuation of the result is M-region equivalent to one
/// of the zone (`Extra_M(Z) ⊆ Closure_M(Z)`), which is what the diagonal
/// constraints' splitting (`checker/diagonal.rs`) relies on; `max[0]` must
/// be 0 and every `max[x] >= 0`.
pub(super) fn extra_m(d: &mut Dbm, max: &[i32]) {
    if d.is_empty() {
        return;
    }
    let n = d.dim;
    let mut changed = false;
    for i in 0..n {
        let above = bound::le(max[i]);
        for j in 0..n {
            if i == j {
                continue;
            }
            let c = d.get(i, j);
            let below = bound::lt(-max[j]);
            let new = if c != INF && c > above {
                INF
            } else if c < below {
                below
            } else {
                c
            };
            if new != c {
                d.m[i * n + j] = new;
                changed = true;
            }
        }
    }
    if changed {
        d.close();
    }
}
