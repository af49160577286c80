//! Extra+_LU (Behrmann, Bouyer, Larsen, Pelánek 2006, "Lower and upper bounds
//! in zone-based abstractions of timed automata", Definition of Extra^+_LU).
//! `lower[x]` / `upper[x]` are the largest constants `x` is compared to from
//! below (`x > c`, `x >= c`) and above (`x < c`, `x <= c`) in the current
//! locations and everything reachable from them without resetting `x`; a
//! negative value means "never compared". Sound for diagonal-free models.

use super::Dbm;
use super::bound::{self, INF};

pub(super) fn extra_lu_plus(d: &mut Dbm, lower: &[i32], upper: &[i32]) {
    if d.is_empty() {
        return;
    }
    let n = d.dim;
    // -c_0i: the lower bound of x_i (as a value); compared before anything changes.
    let lower_value = |d: &Dbm, i: usize| -bound::value(d.get(0, i));
    let exceeds_lower: Vec<bool> = (0..n)
        .map(|i| i != 0 && lower_value(d, i) > lower[i])
        .collect();
    let exceeds_upper: Vec<bool> = (0..n)
        .map(|j| j != 0 && lower_value(d, j) > upper[j])
        .collect();
    let old = d.m.clone();
    let get = |i: usize, j: usize| old[i * n + j];
    let mut changed = false;
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let c = get(i, j);
            let new = if i != 0
                && ((c != INF && bound::value(c) > lower[i])
                    || exceeds_lower[i]
                    || exceeds_upper[j])
            {
                INF
            } else if i == 0 && exceeds_upper[j] {
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
