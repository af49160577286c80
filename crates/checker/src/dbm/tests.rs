use super::bound::{INF, LE_ZERO, le, lt};
use super::*;
use proptest::prelude::*;

/// x in [lo_x, hi_x], y in [lo_y, hi_y] (dimension 3).
fn boxed(lo_x: i32, hi_x: i32, lo_y: i32, hi_y: i32) -> Dbm {
    let mut d = Dbm::universe(3);
    assert!(d.constrain(1, 0, le(hi_x)));
    assert!(d.constrain(0, 1, le(-lo_x)));
    assert!(d.constrain(2, 0, le(hi_y)));
    assert!(d.constrain(0, 2, le(-lo_y)));
    d
}

#[test]
fn zero_then_up_is_the_diagonal() {
    let mut d = Dbm::zero(3);
    d.up();
    // x = y, both >= 0, unbounded above.
    assert_eq!(d.get(1, 2), LE_ZERO);
    assert_eq!(d.get(2, 1), LE_ZERO);
    assert_eq!(d.get(1, 0), INF);
    assert!(d.contains_point(&[0, 7, 7], 2));
    assert!(!d.contains_point(&[0, 7, 8], 2));
}

#[test]
fn constrain_tightens_derived_bounds() {
    // x = y after up; x <= 5 implies y <= 5.
    let mut d = Dbm::zero(3);
    d.up();
    assert!(d.constrain(1, 0, le(5)));
    assert_eq!(d.get(2, 0), le(5));
    // y > 5 is now impossible.
    let mut e = d.clone();
    assert!(!e.constrain(0, 2, lt(-5)));
    assert!(e.is_empty());
    // y >= 5 leaves exactly the point (5, 5).
    assert!(d.constrain(0, 2, le(-5)));
    assert_eq!(d.get(0, 1), le(-5));
    assert!(d.contains_point(&[0, 5, 5], 1));
}

#[test]
fn reset_and_free() {
    // x in [2,4], y in [1,3]; y := 0 gives x in [2,4], y = 0, x - y in [2,4].
    let mut d = boxed(2, 4, 1, 3);
    d.reset(2, 0);
    assert_eq!(d.get(2, 0), le(0));
    assert_eq!(d.get(1, 2), le(4));
    assert_eq!(d.get(2, 1), le(-2));
    d.free(2);
    assert_eq!(d, boxed(2, 4, 0, i32::MAX >> 2).clone_with_inf_y());
}

impl Dbm {
    fn clone_with_inf_y(mut self) -> Dbm {
        self.m[2 * 3] = INF;
        self.m[2 * 3 + 1] = INF;
        self
    }
}

#[test]
fn down_removes_lower_bounds_keeping_differences() {
    // x = y + 2, x in [3, 5]: down gives x - y = 2, x <= 5, y >= 0 so x >= 2.
    let mut d = Dbm::universe(3);
    d.constrain(1, 2, le(2));
    d.constrain(2, 1, le(-2));
    d.constrain(1, 0, le(5));
    d.constrain(0, 1, le(-3));
    d.down();
    assert_eq!(d.get(0, 1), le(-2));
    assert_eq!(d.get(0, 2), le(0));
    assert_eq!(d.get(1, 0), le(5));
}

#[test]
fn inclusion_and_intersection() {
    let a = boxed(1, 2, 1, 2);
    let b = boxed(0, 3, 0, 3);
    assert!(a.is_subset_of(&b));
    assert!(!b.is_subset_of(&a));
    let mut c = boxed(2, 5, 0, 1);
    assert!(c.intersect(&a));
    assert_eq!(c, boxed(2, 2, 1, 1));
    let mut e = boxed(3, 4, 0, 1);
    assert!(!e.intersect(&a));
}

#[test]
fn subtraction_of_a_box_from_a_box() {
    // [0,3]x[0,3] minus [1,2]x[1,2] leaves 8 unit squares' worth: check points.
    let z = boxed(0, 3, 0, 3);
    let h = boxed(1, 2, 1, 2);
    let mut out = Vec::new();
    subtract(&z, &h, &mut out);
    let inside = |p: &[i64]| out.iter().filter(|d| d.contains_point(p, 2)).count();
    assert_eq!(inside(&[0, 3, 3]), 0); // (1.5, 1.5) is in the hole
    assert_eq!(inside(&[0, 1, 3]), 1); // (0.5, 1.5)
    assert_eq!(inside(&[0, 5, 5]), 1); // (2.5, 2.5)
    assert_eq!(inside(&[0, 2, 2]), 0); // (1, 1) is on the hole's closed border
    // Subtracting a superset leaves nothing.
    let mut none = Vec::new();
    subtract(&h, &z, &mut none);
    assert!(none.is_empty());
}

#[test]
fn extrapolation_forgets_large_values() {
    // x >= 10 with L(x) = U(x) = 3: becomes x > 3.
    let mut d = Dbm::zero(2);
    d.up();
    d.constrain(0, 1, le(-10));
    d.extrapolate_lu(&[0, 3], &[0, 3]);
    assert_eq!(d.get(0, 1), lt(-3));
    assert_eq!(d.get(1, 0), INF);
    // x <= 2 stays exactly.
    let mut e = Dbm::zero(2);
    e.up();
    e.constrain(1, 0, le(2));
    let before = e.clone();
    e.extrapolate_lu(&[0, 3], &[0, 3]);
    assert_eq!(e, before);
}

pub(crate) fn arb_zone(dim: usize) -> impl Strategy<Value = Dbm> {
    let n = dim * dim;
    proptest::collection::vec((0usize..dim, 0usize..dim, -6i32..8, any::<bool>()), 0..n).prop_map(
        move |cs| {
            let mut d = Dbm::zero(dim);
            d.up();
            // Random resets and constraints interleaved give varied shapes.
            for (k, (i, j, c, s)) in cs.into_iter().enumerate() {
                if i == j {
                    continue;
                }
                if k % 3 == 2 && i != 0 {
                    d.reset(i, c.rem_euclid(3));
                    d.up();
                    continue;
                }
                let mut e = d.clone();
                if e.constrain(i, j, bound::raw(c, s)) {
                    d = e;
                }
            }
            d
        },
    )
}

/// Points on a grid of step 1/2 inside [0, 10]^(dim-1).
fn grid_points(dim: usize) -> Vec<Vec<i64>> {
    let mut pts = vec![vec![0i64]];
    for _ in 1..dim {
        let mut next = Vec::new();
        for p in &pts {
            for v in 0..=20 {
                let mut q = p.clone();
                q.push(v);
                next.push(q);
            }
        }
        pts = next;
    }
    pts
}

proptest! {
    #[test]
    fn closure_is_idempotent(d in arb_zone(4)) {
        let mut e = d.clone();
        e.close();
        prop_assert_eq!(e, d);
    }

    #[test]
    fn constrain_agrees_with_a_full_closure(d in arb_zone(5), i in 0usize..5, j in 0usize..5, c in -8i32..8, s in any::<bool>()) {
        // The incremental O(n²) update against Floyd–Warshall on the
        // tightened matrix: the same zone, or both empty.
        prop_assume!(i != j);
        let b = bound::raw(c, s);
        let mut inc = d.clone();
        let nonempty = inc.constrain(i, j, b);
        let mut m = d.raw().to_vec();
        m[i * 5 + j] = m[i * 5 + j].min(b);
        let full = Dbm::from_raw(5, m);
        prop_assert_eq!(nonempty, !full.is_empty());
        if nonempty {
            prop_assert_eq!(inc, full);
        }
    }

    #[test]
    fn inclusion_is_a_partial_order(a in arb_zone(3), b in arb_zone(3), c in arb_zone(3)) {
        prop_assert!(a.is_subset_of(&a));
        if a.is_subset_of(&b) && b.is_subset_of(&a) {
            prop_assert_eq!(&a, &b);
        }
        if a.is_subset_of(&b) && b.is_subset_of(&c) {
            prop_assert!(a.is_subset_of(&c));
        }
    }

    #[test]
    fn extrapolation_over_approximates(d in arb_zone(3), l1 in -1i32..6, u1 in -1i32..6, l2 in -1i32..6, u2 in -1i32..6) {
        let mut e = d.clone();
        e.extrapolate_lu(&[0, l1, l2], &[0, u1, u2]);
        prop_assert!(d.is_subset_of(&e));
        let mut f = e.clone();
        f.close();
        prop_assert_eq!(f, e);
    }

    #[test]
    fn up_contains_the_zone(d in arb_zone(3)) {
        let mut e = d.clone();
        e.up();
        prop_assert!(d.is_subset_of(&e));
    }

    #[test]
    fn points_agree_with_constraints(d in arb_zone(3), a in arb_zone(3)) {
        // A grid point is in Z ∩ A iff it is in both; in Z \ A iff in Z and not in A.
        let mut inter = d.clone();
        inter.intersect(&a);
        let mut diff = Vec::new();
        subtract(&d, &a, &mut diff);
        for p in grid_points(3) {
            let in_d = d.contains_point(&p, 2);
            let in_a = a.contains_point(&p, 2);
            prop_assert_eq!(inter.contains_point(&p, 2), in_d && in_a);
            let pieces = diff.iter().filter(|z| z.contains_point(&p, 2)).count();
            prop_assert_eq!(pieces, usize::from(in_d && !in_a));
        }
    }
}

/// Picks a point of a non-empty canonical zone clock by clock: in closed
/// form every partial point satisfying the constraints among the fixed clocks
/// extends, so the interval left for the next clock is never empty. Returns
/// numerators over the common denominator `2^dim`.
#[allow(clippy::needless_range_loop)]
fn sample(d: &Dbm, choice: &[u8]) -> (Vec<i64>, i64) {
    let n = d.dim();
    let den = 1i64 << n;
    let mut u = vec![0i64; n];
    for i in 1..n {
        // lo ≺ u_i ≺ hi, as numerators over den.
        let (mut lo, mut lo_strict) = (i64::MIN, false);
        let (mut hi, mut hi_strict) = (i64::MAX, false);
        for j in 0..i {
            let up = d.get(i, j); // u_i - u_j ≺ c
            if up != INF {
                let c = u[j] + bound::value(up) as i64 * den;
                if c < hi || (c == hi && bound::is_strict(up)) {
                    hi = c;
                    hi_strict = bound::is_strict(up);
                }
            }
            let low = d.get(j, i); // u_j - u_i ≺ c
            if low != INF {
                let c = u[j] - bound::value(low) as i64 * den;
                if c > lo || (c == lo && bound::is_strict(low)) {
                    lo = c;
                    lo_strict = bound::is_strict(low);
                }
            }
        }
        // Grid of step 1/2^i inside (lo, hi): the denominator has room left.
        let step = den >> i;
        let pick = choice.get(i).copied().unwrap_or(0) as i64;
        u[i] = if hi == i64::MAX {
            lo + step * (1 + pick % 5)
        } else if !lo_strict && pick % 3 == 0 {
            lo
        } else if !hi_strict && pick % 3 == 1 {
            hi
        } else {
            lo + (hi - lo) / 2
        };
    }
    (u, den)
}

proptest! {
    #[test]
    fn sampled_points_satisfy_the_constraints(d in arb_zone(4), choice in proptest::collection::vec(any::<u8>(), 4)) {
        prop_assume!(!d.is_empty());
        let (u, den) = sample(&d, &choice);
        prop_assert!(d.contains_point(&u, den), "{:?} {:?}/{}", d, u, den);
        // The point stays inside after letting time pass, and after `up` any
        // later point on its diagonal is inside too.
        let mut e = d.clone();
        e.up();
        let later: Vec<i64> = u.iter().enumerate().map(|(i, &x)| if i == 0 { 0 } else { x + 3 * den }).collect();
        prop_assert!(e.contains_point(&later, den));
    }
}

/// The region of the point `num / den` for the bounds `max` (Alur and
/// Dill's, per-clock constants), refined by the diagonal constraints
/// `diagonals` (`(i, j, b)`: `x_i - x_j ≺ b`; the point's side of each), as
/// a zone: an independent description of the equivalence classes that
/// extrapolation may merge.
pub(crate) fn region_of(
    num: &[i64],
    den: i64,
    max: &[i32],
    diagonals: &[(usize, usize, Raw)],
) -> Dbm {
    let n = num.len();
    let mut r = Dbm::universe(n);
    let small = |x: usize| num[x] <= max[x] as i64 * den;
    for x in 1..n {
        if !small(x) {
            r.constrain(0, x, lt(-max[x]));
            continue;
        }
        let fl = num[x].div_euclid(den) as i32;
        if num[x] % den == 0 {
            r.constrain(x, 0, le(fl));
            r.constrain(0, x, le(-fl));
        } else {
            r.constrain(x, 0, lt(fl + 1));
            r.constrain(0, x, lt(-fl));
        }
    }
    for x in 1..n {
        for y in 1..n {
            if x == y || !small(x) || !small(y) {
                continue;
            }
            let (fx, fy) = (num[x].rem_euclid(den), num[y].rem_euclid(den));
            let d = (num[x].div_euclid(den) - num[y].div_euclid(den)) as i32;
            match fx.cmp(&fy) {
                std::cmp::Ordering::Equal => r.constrain(x, y, le(d)),
                std::cmp::Ordering::Less => r.constrain(x, y, lt(d)),
                std::cmp::Ordering::Greater => r.constrain(x, y, lt(d + 1)),
            };
        }
    }
    for &(i, j, b) in diagonals {
        let diff = num[i] - num[j];
        let c = bound::value(b) as i64 * den;
        let holds = if bound::is_strict(b) {
            diff < c
        } else {
            diff <= c
        };
        if holds {
            r.constrain(i, j, b);
        } else {
            r.constrain(j, i, bound::negate(b));
        }
    }
    assert!(r.contains_point(num, den), "a point lies in its own region");
    r
}

/// Every point with denominator `den` in `[0, top]^(dim-1)`.
pub(crate) fn fine_grid(dim: usize, den: i64, top: i64) -> Vec<Vec<i64>> {
    let mut pts = vec![vec![0i64]];
    for _ in 1..dim {
        pts = pts
            .iter()
            .flat_map(|p| {
                (0..=top * den).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    pts
}

proptest! {
    /// `Extra_M(Z) ⊆ Closure_M(Z)`: every point of the extrapolated zone
    /// (on a grid fine enough to meet every region of two clocks) lies in a
    /// region that meets the zone.
    #[test]
    fn extra_m_stays_within_the_region_closure(d in arb_zone(3), m1 in 0i32..5, m2 in 0i32..5) {
        prop_assume!(!d.is_empty());
        let max = [0, m1, m2];
        let mut e = d.clone();
        e.extrapolate_m(&max);
        prop_assert!(d.is_subset_of(&e));
        for p in fine_grid(3, 3, 10) {
            if e.contains_point(&p, 3) {
                let mut r = region_of(&p, 3, &max, &[]);
                prop_assert!(r.intersect(&d), "{:?}/3 in {:?} but its region misses {:?}", p, e, d);
            }
        }
    }
}
