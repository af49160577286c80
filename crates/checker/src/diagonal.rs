//! Diagonal constraints (`x - y ≺ c`), exact and terminating: zones are
//! split along the diagonal constraints' hyperplanes, extrapolated with
//! classical Extra_M, and put back on their side of every hyperplane
//! (Bengtsson & Yi, *Timed automata: semantics, algorithms and tools*, 2004,
//! Section 4.3; Bouyer, *Forward analysis of updatable timed automata*,
//! 2004, who shows that no extrapolation of single zones alone is correct
//! with diagonals, while this splitting one is).
//!
//! Why not Extra+_LU: LU bounds (and M-regions alone) do not see diagonal
//! constraints. Two valuations in one region above the constants can
//! differ on `x - y ≤ c`, and extrapolation merges them: a guard `x - y < 0`
//! would look enabled after `y` was reset while `x` was not. Without any
//! extrapolation the search is exact but need not end (`A[] x >= y` over a
//! loop that resets `y` but never `x` makes `x - y` grow for ever).
//!
//! **The equivalence.** `G` is the set of hyperplanes of the network's and
//! the goal's diagonal constraints (one per value the bound can take over the
//! variables' declared ranges). `M(x)` is the largest `|c|` of a
//! non-diagonal constraint on `x`, and `|c| + R` for a diagonal constraint on
//! `x` (`R`: the largest value any clock is reset to). Valuations `v ≃ v'`
//! when they lie in one M-region (Alur and Dill's, constants per clock) and
//! on the same side of every hyperplane of `G`. `≃` is a time-abstract
//! bisimulation of the network: (1) every non-diagonal constraint
//! (guard, invariant, negated guard of a blocking transition or of a
//! broadcast receiver left out, the goal) has `|c| ≤ M(x)` and is decided by
//! the region, every diagonal one by its hyperplane's side; (2) a delay
//! keeps every difference, hence every side, and the regions have the usual
//! time successors; (3) a reset `x := r` gives a region decided by the old
//! one, and moves a hyperplane `x - y ≺ c` to `y ≻ r - c` with
//! `|r - c| ≤ R + |c| ≤ M(y)`, decided by `y`'s region (both clocks reset:
//! a constant). So `≃` preserves reachability of the goal, `deadlock`,
//! priorities' blocking and the liveness properties of runs.
//!
//! **The abstraction.** [`Diagonals::split`] cuts each successor zone into
//! pieces that lie on one side of every hyperplane (an exact partition).
//! [`Diagonals::extrapolate`] applies Extra_M to a piece `Z` and intersects
//! the result with the sides of `Z`. For `v'` in the result there is `v ∈ Z`
//! in its M-region (`Extra_M(Z) ⊆ Closure_M(Z)`, Bouyer 2004; property test
//! `extra_m_stays_within_the_region_closure` in `dbm/tests.rs`), and `v`,
//! `v'` are on the same sides, so `v ≃ v'`: the result lies in `Z`'s
//! closure under the bisimulation `≃`, and a state of the abstract zone
//! graph is reachable exactly when a `≃`-equivalent concrete state is
//! (tested: `split_extrapolation_stays_within_the_refined_closure` below).
//! A path found in it is a real run: the concrete trace recomputes the
//! exact zones along its transitions, which `≃`-equivalence keeps
//! non-empty.
//!
//! **Termination.** Extra_M has finitely many results (every finite entry
//! it leaves lies in `[-M(x_j), M(x_i)]` before closure, and a zone is
//! determined by any matrix describing it), and each is intersected with one
//! of `2^|G|` choices of sides: finitely many zones per discrete state,
//! whatever the search order (the active-clock reduction, which frees
//! clocks afterwards, has a finite image too). Every search, and liveness,
//! extrapolates through `semantics::Model::extrapolate` after
//! `Model::successor`, so all of them end.
//!
//! **Limits.** A bound reading variables counts every value of their
//! declared ranges; beyond [`MAX_PLANES`] hyperplanes the network is
//! searched without extrapolation (exact, but only the limits stop it).

use zeno_ir::{ClockConstraint, Formula, Network, Update};

use super::dbm::Dbm;
use super::dbm::bound::{self, MAX_CONST, Raw};
use super::lu::bound_range;

/// The most hyperplanes the splitting handles (their sides are kept in a
/// fixed-size bit set during extrapolation).
pub const MAX_PLANES: usize = 256;

/// The diagonal constraints' hyperplanes and the per-clock bounds `M`.
#[derive(Debug, Clone)]
pub struct Diagonals {
    /// `(i, j, b)`: the hyperplane of `x_i - x_j ≺ b`, with `i < j` (the
    /// other side is `x_j - x_i ≺ negate(b)`), each once.
    planes: Vec<(usize, usize, Raw)>,
    /// `M(x)` per DBM index (`max[0] = 0`).
    max: Vec<i32>,
}

impl Diagonals {
    /// The hyperplanes and bounds of `net` checked for `goal`; `None` when
    /// it has no diagonal constraint or more than [`MAX_PLANES`] of them.
    pub fn new(net: &Network, goal: &Formula) -> Option<Diagonals> {
        let dim = net.dbm_dim();
        let ranges = net.declared_ranges();
        let mut constraints: Vec<&ClockConstraint> = Vec::new();
        let mut resets: Vec<i64> = vec![0];
        for p in &net.processes {
            for l in &p.locations {
                constraints.extend(&l.invariant);
            }
            for e in &p.edges {
                constraints.extend(&e.clock_guard);
                for u in &e.updates {
                    let mut value = |v: &zeno_ir::Expr| resets.push(bound_range(&ranges, v).1);
                    match u {
                        Update::ResetClock { value: v, .. } => resets.push(*v as i64),
                        Update::Call(c) => c.for_each_reset_value(&mut value),
                        Update::Assign { value: v, .. } => {
                            v.for_each_call(&mut |c| c.for_each_reset_value(&mut value))
                        }
                    }
                }
            }
        }
        goal_constraints(goal, &mut constraints);
        let reset_max = resets
            .into_iter()
            .max()
            .unwrap_or(0)
            .clamp(0, MAX_CONST as i64);
        let clamp = |v: i64| v.clamp(0, MAX_CONST as i64) as i32;
        let mut max = vec![0i32; dim];
        let mut planes = Vec::new();
        for c in constraints {
            let (lo, hi) = bound_range(&ranges, &c.bound);
            let (lo, hi) = (lo.max(-(MAX_CONST as i64)), hi.min(MAX_CONST as i64));
            let magnitude = lo.abs().max(hi.abs());
            let (i, j) = (c.i as usize, c.j as usize);
            if i == 0 || j == 0 {
                let x = i.max(j);
                max[x] = max[x].max(clamp(magnitude));
                continue;
            }
            for x in [i, j] {
                max[x] = max[x].max(clamp(magnitude + reset_max));
            }
            // A bound that never evaluates is never compared.
            if hi < lo {
                continue;
            }
            if (hi - lo) as usize >= MAX_PLANES {
                return None;
            }
            for value in lo..=hi {
                let b = bound::raw(value as i32, c.strict);
                let plane = if i < j {
                    (i, j, b)
                } else {
                    (j, i, bound::negate(b))
                };
                if !planes.contains(&plane) {
                    planes.push(plane);
                }
            }
            if planes.len() > MAX_PLANES {
                return None;
            }
        }
        if planes.is_empty() {
            return None;
        }
        max[0] = 0;
        Some(Diagonals { planes, max })
    }

    /// Splits the zones `out[..n]` into pieces that each lie on one side of
    /// every hyperplane (their union unchanged); the pieces go to
    /// `out[..k]`, `k` returned. Elements past `n` are reused.
    pub fn split(&self, out: &mut Vec<Dbm>, n: usize) -> usize {
        let mut count = n;
        for &(i, j, b) in &self.planes {
            // The pieces cut from this plane lie on one side of it already.
            let cut = count;
            for k in 0..cut {
                let z = &out[k];
                if z.get(i, j) <= b || z.get(j, i) <= bound::negate(b) {
                    continue;
                }
                // Canonical and on neither side: both halves are non-empty.
                let mut other = z.clone();
                other.constrain(j, i, bound::negate(b));
                out[k].constrain(i, j, b);
                if count < out.len() {
                    out[count] = other;
                } else {
                    out.push(other);
                }
                count += 1;
            }
        }
        count
    }

    /// Extra_M, then `zone`'s side of every hyperplane again. A zone on
    /// both sides of a hyperplane (not split) is left exact.
    pub fn extrapolate(&self, zone: &mut Dbm) {
        if zone.is_empty() {
            return;
        }
        let mut below = [0u64; MAX_PLANES / 64];
        for (k, &(i, j, b)) in self.planes.iter().enumerate() {
            if zone.get(i, j) <= b {
                below[k / 64] |= 1 << (k % 64);
            } else if zone.get(j, i) > bound::negate(b) {
                return;
            }
        }
        zone.extrapolate_m(&self.max);
        for (k, &(i, j, b)) in self.planes.iter().enumerate() {
            if below[k / 64] & (1 << (k % 64)) != 0 {
                zone.constrain(i, j, b);
            } else {
                zone.constrain(j, i, bound::negate(b));
            }
        }
    }
}

/// The clock constraints of a goal, whatever their polarity.
fn goal_constraints<'f>(f: &'f Formula, out: &mut Vec<&'f ClockConstraint>) {
    match f {
        Formula::Clock(c) => out.push(c),
        Formula::Not(g) => goal_constraints(g, out),
        Formula::And(gs) | Formula::Or(gs) => {
            for g in gs {
                goal_constraints(g, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dbm::bound::{le, lt};
    use crate::dbm::tests::{fine_grid, region_of};
    use proptest::prelude::*;

    fn zone(cs: &[(usize, usize, Raw)]) -> Dbm {
        let mut d = Dbm::zero(3);
        d.up();
        d.free(1);
        d.free(2);
        for &(i, j, b) in cs {
            d.constrain(i, j, b);
        }
        d
    }

    #[test]
    fn split_cuts_only_zones_on_both_sides() {
        // x - y <= 1 and y - x < 0 (i.e. x - y > 0).
        let d = Diagonals {
            planes: vec![(1, 2, le(1)), (2, 1, lt(0))],
            max: vec![0, 3, 3],
        };
        // 0 <= x <= 4, y = 0: x - y in [0, 4], cut at 1 and at 0: three
        // pieces, x = 0, 0 < x <= 1, 1 < x <= 4.
        let mut out = vec![zone(&[(1, 0, le(4)), (2, 0, le(0))])];
        assert_eq!(d.split(&mut out, 1), 3);
        let mut xs: Vec<(Raw, Raw)> = out.iter().map(|z| (z.get(0, 1), z.get(1, 0))).collect();
        xs.sort();
        assert_eq!(xs, vec![(lt(-1), le(4)), (lt(0), le(1)), (le(0), le(0))]);
        // x = y: on one side of both, nothing to cut.
        let mut out = vec![zone(&[(1, 2, le(0)), (2, 1, le(0))])];
        assert_eq!(d.split(&mut out, 1), 1);
    }

    #[test]
    fn extrapolation_keeps_the_side_of_each_plane() {
        // y = 0, x in [5, 9] with M = 2: Extra_M alone gives x > 2 and
        // loses x - y > 4; the side of x - y <= 4 (y - x < -4) comes back.
        let d = Diagonals {
            planes: vec![(1, 2, le(4))],
            max: vec![0, 2, 2],
        };
        let mut z = zone(&[(1, 0, le(9)), (0, 1, le(-5)), (2, 0, le(0))]);
        d.extrapolate(&mut z);
        assert_eq!(z.get(2, 1), lt(-4));
        assert_eq!(z.get(1, 0), bound::INF);
        assert_eq!(z.get(2, 0), le(0));
    }

    proptest! {
        /// Splitting partitions a zone; each extrapolated piece lies in the
        /// closure of its piece under regions refined by the hyperplanes
        /// (checked on a grid that meets every such region of two clocks).
        #[test]
        fn split_extrapolation_stays_within_the_refined_closure(
            cs in proptest::collection::vec((0usize..3, 0usize..3, -4i32..7, any::<bool>()), 0..6),
            planes in proptest::collection::vec((-3i32..4, any::<bool>(), any::<bool>()), 1..3),
            extra in (0i32..3, 0i32..3),
        ) {
            let mut z = Dbm::zero(3);
            z.up();
            for (k, &(i, j, c, s)) in cs.iter().enumerate() {
                if k % 3 == 2 && i != 0 {
                    z.reset(i, c.rem_euclid(3));
                    z.up();
                } else if i != j {
                    let mut e = z.clone();
                    if e.constrain(i, j, bound::raw(c, s)) {
                        z = e;
                    }
                }
            }
            prop_assume!(!z.is_empty());
            let planes: Vec<(usize, usize, Raw)> = planes
                .iter()
                .map(|&(c, s, flip)| if flip { (2, 1, bound::raw(c, s)) } else { (1, 2, bound::raw(c, s)) })
                .collect();
            // M at least every plane's constant (no resets here).
            let top = planes.iter().map(|p| bound::value(p.2).abs()).max().unwrap();
            let max = vec![0, top + extra.0, top + extra.1];
            let d = Diagonals { planes: planes.clone(), max: max.clone() };
            let mut out = vec![z.clone()];
            let n = d.split(&mut out, 1);
            let grid = fine_grid(3, 3, 9);
            for p in &grid {
                let holders = out[..n].iter().filter(|piece| piece.contains_point(p, 3)).count();
                prop_assert_eq!(holders, usize::from(z.contains_point(p, 3)), "split is a partition");
            }
            for piece in &out[..n] {
                let mut e = piece.clone();
                d.extrapolate(&mut e);
                prop_assert!(piece.is_subset_of(&e));
                for p in &grid {
                    if e.contains_point(p, 3) {
                        let mut r = region_of(p, 3, &max, &planes);
                        prop_assert!(r.intersect(piece), "{:?}/3 in {:?} from {:?}", p, e, piece);
                    }
                }
            }
        }
    }
}
