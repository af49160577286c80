//! Zones with one reference clock per process ("offset zones" of Govind,
//! Herbreteau, Srivathsan, Walukiewicz, CONCUR 2019; TChecker's `refdbm`).
//!
//! A zone is a [`Dbm`] over the variables `t_0 .. t_{n-1}` (one reference
//! clock per process, indices `0..n`) and one offset variable `X_c` per clock
//! `c` (index `n + c - 1`); entry `(i, j)` bounds `v_i - v_j` as in every
//! zone of the checker, with the same raw encoding. The value of clock `c`
//! of process `p` is `X_c - t_p`: a reference clock plays the part the
//! constant clock 0 plays in an ordinary zone, so letting process `p`'s
//! local time pass lowers `t_p`, and a reset `c := v` sets `X_c = t_p + v`.
//! A valuation is *synchronised* when every `t_p` is equal; it is then an
//! ordinary valuation (`c = X_c - t`).

use smallvec::SmallVec;

use crate::dbm::Dbm;
use crate::dbm::bound::{self, INF, LE_ZERO, Raw};

/// Lets process `p`'s local time pass: removes every bound `v - t_p ≺ c`
/// (column `t_p`). The zone stays canonical (only bounds are removed, and
/// no path through a removed bound was the only shortest one).
pub fn open_up(zone: &mut Dbm, p: usize) {
    if zone.is_empty() {
        return;
    }
    let n = zone.dim();
    let m = zone.raw_mut();
    for i in 0..n {
        if i != p {
            m[i * n + p] = INF;
        }
    }
}

/// Lets the processes `opened` says pass their local time, then
/// intersects with `invariant` (constraints `v_i - v_j ≺ b`, `(i, j, b)`);
/// false when the zone empties. The result is exactly that of
/// [`open_up`] for each opened process followed by [`Dbm::constrain`]
/// with each constraint, in O(n) per constraint into an opened column
/// (an upper bound `X_c - t_p ≤ b` of an invariant) instead of O(n²):
///
/// 1. The constraints `(a, t_p, b)` into an opened column from one that
///    is not are first added to the zone before the delay (O(1) each when
///    it satisfies them already, as it does after the invariants): the
///    delay only lowers `t_p`, raising `v_a - t_p`, so a valuation that
///    ends within the bound started within it.
/// 2. After opening, column `t_p` is unbounded but for the diagonal. Every
///    other entry stays: a path through a constraint `(a, t_p, b)` with
///    `a` not opened costs at least the same path with the old bound
///    `m[a][t_p] ≤ b`, and the old zone was closed. Into `t_p` a shortest
///    path ends with one of these constraints, so `m[i][t_p]` is the least
///    `m[i][a] + b` (row `t_p` keeps its diagonal: the old zone had no
///    negative cycle). No column read here is opened, so the order of
///    the constraints does not matter.
/// 3. The rest (bounds into columns not opened, and between two opened
///    reference clocks, which invariants do not produce) by `constrain`.
pub fn open_up_within(
    zone: &mut Dbm,
    opened: impl Fn(usize) -> bool,
    invariant: &[(usize, usize, Raw)],
) -> bool {
    let into_opened = |i: usize, j: usize| opened(j) && !opened(i);
    for &(i, j, b) in invariant {
        if into_opened(i, j) && !zone.constrain(i, j, b) {
            return false;
        }
    }
    if zone.is_empty() {
        return false;
    }
    let n = zone.dim();
    for p in (0..n).filter(|&p| opened(p)) {
        open_up(zone, p);
    }
    let m = zone.raw_mut();
    for &(a, t, b) in invariant {
        if into_opened(a, t) {
            for r in (0..n).filter(|&r| r != t) {
                let through = bound::add(m[r * n + a], b);
                m[r * n + t] = m[r * n + t].min(through);
            }
        }
    }
    for &(i, j, b) in invariant {
        if !into_opened(i, j) && !zone.constrain(i, j, b) {
            return false;
        }
    }
    !zone.is_empty()
}

/// Adds `t_p = t_q` for every pair of `procs`; false when the zone empties.
///
/// One O(n²) pass for the whole group, not one closure per equality: the
/// equalities make the group a clique of `≤ 0` edges. Without a negative
/// cycle (no `t_p - t_q < 0` inside the group already), a shortest path
/// meets the clique at most once (the stretch between two visits costs at
/// least `(≤, 0)`, which the clique offers directly), so the closed zone is
/// `m[i][j] := min(m[i][j], min_p m[i][p] + min_q m[q][j])`, `p, q` in
/// the group.
pub fn synchronise(zone: &mut Dbm, procs: impl IntoIterator<Item = usize>) -> bool {
    let group: SmallVec<[usize; 8]> = procs.into_iter().collect();
    if zone.is_empty() {
        return false;
    }
    let n = zone.dim();
    for &p in &group {
        for &q in &group {
            if zone.get(p, q) < LE_ZERO {
                // Marks the zone empty: `t_q - t_p <= 0` closes the cycle.
                return zone.constrain(q, p, LE_ZERO);
            }
        }
    }
    let Some((&first, rest)) = group.split_first() else {
        return true;
    };
    if rest.iter().all(|&p| p == first) {
        return true;
    }
    let m = zone.raw_mut();
    // The least bound leaving the group towards each variable.
    let mut from_group: SmallVec<[Raw; 64]> = SmallVec::from_slice(&m[first * n..(first + 1) * n]);
    for &q in rest {
        for (b, &qj) in from_group.iter_mut().zip(&m[q * n..(q + 1) * n]) {
            *b = (*b).min(qj);
        }
    }
    for row in m.chunks_exact_mut(n) {
        let into_group = group.iter().map(|&p| row[p]).min().unwrap_or(INF);
        if into_group == INF {
            continue;
        }
        for (ij, &qj) in row.iter_mut().zip(&from_group) {
            *ij = (*ij).min(bound::add_finite(into_group, qj));
        }
    }
    true
}

/// Whether some valuation of the zone is synchronised: no two reference
/// clocks are forced apart (`t_p - t_q ≺ c` with `(≺, c) < (≤, 0)`).
/// Adding the equalities to a canonical zone creates a negative cycle only
/// through such a pair.
pub fn is_synchronisable(zone: &Dbm, nproc: usize) -> bool {
    if zone.is_empty() {
        return false;
    }
    (0..nproc).all(|p| (0..nproc).all(|q| p == q || zone.get(p, q) >= LE_ZERO))
}

/// `X := t_p + v` (the reset `c := v` of a clock of process `p`, `x` the
/// offset's index); the zone stays canonical (the copy of a variable
/// shifted by a constant).
pub fn reset(zone: &mut Dbm, x: usize, p: usize, v: i32) {
    if zone.is_empty() {
        return;
    }
    let n = zone.dim();
    let m = zone.raw_mut();
    for j in 0..n {
        if j == x {
            continue;
        }
        // X - v_j = v + (t_p - v_j); v_j - X = (v_j - t_p) - v.
        m[x * n + j] = if j == p {
            bound::le(v)
        } else {
            bound::add(bound::le(v), m[p * n + j])
        };
        m[j * n + x] = if j == p {
            bound::le(-v)
        } else {
            bound::add(m[j * n + p], bound::le(-v))
        };
    }
    m[x * n + x] = LE_ZERO;
}

/// `min_x(z) = min_t z[t][x]` over the reference clocks `t`, for every
/// offset `x` (at `x - nproc`): what [`sync_alu_le`] reads of a zone on
/// the right, computed once per zone.
pub fn ref_mins(zone: &Dbm, nproc: usize, out: &mut Vec<Raw>) {
    let n = zone.dim();
    let m = zone.raw();
    out.clear();
    out.extend_from_slice(&m[nproc..n]);
    for t in 1..nproc {
        for (b, &tx) in out.iter_mut().zip(&m[t * n + nproc..(t + 1) * n]) {
            *b = (*b).min(tx);
        }
    }
}

/// What [`sync_alu_le`] reads of a zone on the left, from its
/// [`ref_mins`] and the upper bounds `upper[x - nproc]` of the offsets'
/// clocks (negative: never compared): `min_x(z)` where offset `x` counts,
/// `min_x(z) ≥ (≤, −U_x)`, and `Raw::MIN` (nothing is below it) elsewhere.
pub fn sync_thresholds(mins: &[Raw], upper: &[i32], out: &mut Vec<Raw>) {
    out.clear();
    out.extend(mins.iter().zip(upper).map(|(&m, &ux)| {
        if ux >= 0 && m >= bound::le(-ux) {
            m
        } else {
            Raw::MIN
        }
    }));
}

/// The sync-aLU subsumption of CONCUR 2019, in the O(|X|²) form of
/// TChecker's `refdbm::is_sync_alu_le` (appendix C of Govind's thesis,
/// *Partial-order reduction for timed automata*, Bordeaux 2021): whether
/// `z1 ⊑ z2` for canonical, non-empty zones of one discrete state, given
/// with `z1`'s [`sync_thresholds`] and `z2`'s [`ref_mins`], and
/// `lower[x - nproc]` the lower bound of offset `x`'s clock (negative:
/// never compared, −∞). Reference clocks are not compared: the relation
/// is about the synchronised valuations the zones reach after local
/// delays, whatever their reference clocks are now.
///
/// `z1 ⋢ z2` iff some offset `x` has `min_x(z1) ≥ (≤, −U_x)` and either
/// `min_x(z2) < min_x(z1)`, or some offset `y ≠ x` has
/// `z2[y][x] < z1[y][x]` and `z2[y][x] + (<, −L_y) < min_x(z1)`. Both
/// tests run over every `x` at once, the second row by row (`y`).
pub fn sync_alu_le(
    (z1, threshold): (&Dbm, &[Raw]),
    (z2, min2): (&Dbm, &[Raw]),
    nproc: usize,
    lower: &[i32],
) -> bool {
    let below_threshold = min2
        .iter()
        .zip(threshold)
        .fold(false, |found, (&m2, &t)| found | (m2 < t));
    if below_threshold {
        return false;
    }
    let n = z1.dim();
    let (m1, m2) = (z1.raw(), z2.raw());
    for (y, &ly) in (nproc..n).zip(lower) {
        if ly < 0 {
            continue;
        }
        let below = bound::lt(-ly);
        let row1 = &m1[y * n + nproc..(y + 1) * n];
        let row2 = &m2[y * n + nproc..(y + 1) * n];
        // The diagonal (x = y) is `(≤, 0)` in both: never `b2 < b1`.
        let found = row2
            .iter()
            .zip(row1)
            .zip(threshold)
            .fold(false, |found, ((&b2, &b1), &t)| {
                found | ((b2 < b1) & (bound::add_finite(below, b2) < t))
            });
        if found {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dbm::tests::arb_zone;
    use proptest::prelude::*;

    /// The test of [`sync_alu_le`]'s comment, read literally, offset by
    /// offset.
    fn sync_alu_le_literal(z1: &Dbm, z2: &Dbm, nproc: usize, lower: &[i32], upper: &[i32]) -> bool {
        let n = z1.dim();
        let min = |z: &Dbm, x: usize| (0..nproc).map(|t| z.get(t, x)).min().unwrap_or(INF);
        !(nproc..n).any(|x| {
            let (ux, min1) = (upper[x - nproc], min(z1, x));
            ux >= 0
                && min1 >= bound::le(-ux)
                && (min(z2, x) < min1
                    || (nproc..n).any(|y| {
                        let ly = lower[y - nproc];
                        let b2 = z2.get(y, x);
                        y != x
                            && ly >= 0
                            && b2 < z1.get(y, x)
                            && bound::add(b2, bound::lt(-ly)) < min1
                    }))
        })
    }

    proptest! {
        #[test]
        fn sync_alu_le_agrees_with_its_definition(
            z1 in arb_zone(6),
            z2 in arb_zone(6),
            lower in proptest::collection::vec(-1i32..8, 4),
            upper in proptest::collection::vec(-1i32..8, 4),
        ) {
            // Two reference clocks, four offsets.
            let mut wider = z1.clone();
            open_up(&mut wider, 1);
            let le = |a: &Dbm, b: &Dbm| {
                let (mut min_a, mut threshold_a, mut min_b) = (Vec::new(), Vec::new(), Vec::new());
                ref_mins(a, 2, &mut min_a);
                sync_thresholds(&min_a, &upper, &mut threshold_a);
                ref_mins(b, 2, &mut min_b);
                sync_alu_le((a, &threshold_a), (b, &min_b), 2, &lower)
            };
            prop_assert_eq!(le(&z1, &z2), sync_alu_le_literal(&z1, &z2, 2, &lower, &upper));
            prop_assert!(le(&z1, &z1));
            // A zone and a larger one (more delay), both ways.
            prop_assert_eq!(le(&z1, &wider), sync_alu_le_literal(&z1, &wider, 2, &lower, &upper));
            prop_assert_eq!(le(&wider, &z1), sync_alu_le_literal(&wider, &z1, 2, &lower, &upper));
        }

        #[test]
        fn synchronise_agrees_with_one_equality_at_a_time(
            z in arb_zone(5),
            group in proptest::collection::vec(0usize..5, 0..5),
        ) {
            let mut expected = z.clone();
            let nonempty = match group.split_first() {
                None => true,
                Some((&f, rest)) => rest.iter().all(|&p| {
                    p == f
                        || (expected.constrain(f, p, LE_ZERO) && expected.constrain(p, f, LE_ZERO))
                }),
            };
            let mut got = z.clone();
            prop_assert_eq!(synchronise(&mut got, group.iter().copied()), nonempty);
            prop_assert_eq!(got.is_empty(), !nonempty);
            if nonempty {
                prop_assert_eq!(got, expected);
            }
        }

        #[test]
        fn open_up_within_agrees_with_opening_then_constraining(
            z in arb_zone(5),
            opened in proptest::collection::vec(any::<bool>(), 3),
            invariant in proptest::collection::vec((0usize..5, 0usize..5, -6i32..8, any::<bool>()), 0..6),
        ) {
            // Reference clocks 0..3, offsets 3..5; any constraint, also
            // between two opened reference clocks.
            let invariant: Vec<(usize, usize, Raw)> = invariant
                .into_iter()
                .filter(|&(i, j, _, _)| i != j)
                .map(|(i, j, c, s)| (i, j, bound::raw(c, s)))
                .collect();
            let is_opened = |p: usize| p < 3 && opened[p];
            let mut expected = z.clone();
            for p in (0..3).filter(|&p| opened[p]) {
                open_up(&mut expected, p);
            }
            let nonempty = invariant.iter().all(|&(i, j, b)| expected.constrain(i, j, b));
            let mut got = z.clone();
            prop_assert_eq!(open_up_within(&mut got, is_opened, &invariant), nonempty);
            if nonempty {
                prop_assert_eq!(got, expected);
            }
        }
    }

    /// Two processes, one clock each: t0 = 0, t1 = 1, X1 = 2 (x of p0), X2 = 3.
    fn start() -> Dbm {
        let mut z = Dbm::zero(4);
        open_up(&mut z, 0);
        open_up(&mut z, 1);
        z
    }

    /// The value of clock `x` (offset index) against reference `t`: its
    /// upper bound `X - t ≤ c` and lower bound `t - X ≤ -c'`.
    fn range(z: &Dbm, x: usize, t: usize) -> (Raw, Raw) {
        (z.get(x, t), z.get(t, x))
    }

    #[test]
    fn local_delays_are_independent_until_a_synchronisation() {
        let mut z = start();
        // p0 takes x >= 3 (t0 - X1 <= -3), p1 takes y <= 1 (X2 - t1 <= 1).
        assert!(z.constrain(0, 2, bound::le(-3)));
        assert!(z.constrain(3, 1, bound::le(1)));
        // Each process alone: p0's clock is at least 3, p1's at most 1.
        assert_eq!(range(&z, 2, 0), (INF, bound::le(-3)));
        assert_eq!(range(&z, 3, 1), (bound::le(1), LE_ZERO));
        // Both clocks started together (X1 = X2), so p0's time is at least
        // 2 past p1's (t0 - t1 <= -2: a reference clock is minus the time),
        // and no valuation has them equal.
        assert_eq!(z.get(0, 1), bound::le(-2));
        assert!(!is_synchronisable(&z, 2));
        let mut s = z.clone();
        assert!(!synchronise(&mut s, [0, 1]));
        // Without p1's bound, p1 may catch up.
        let mut w = start();
        assert!(w.constrain(0, 2, bound::le(-3)));
        assert!(is_synchronisable(&w, 2));
        assert!(synchronise(&mut w, [0, 1]));
        assert_eq!(range(&w, 3, 1), (INF, bound::le(-3)));
    }

    #[test]
    fn a_reset_copies_the_reference_clock() {
        let mut z = start();
        assert!(z.constrain(0, 2, bound::le(-2))); // x >= 2 in p0
        reset(&mut z, 2, 0, 0); // x := 0
        assert_eq!(range(&z, 2, 0), (LE_ZERO, LE_ZERO));
        z.close();
        open_up(&mut z, 0);
        // p1's clock y and p0's x: y - x = (X2 - t1) - (X1 - t0); after
        // syncing t0 = t1, y = X2 - t, x = X1 - t, and y - x = X2 - X1 >= 2.
        let mut s = z.clone();
        assert!(synchronise(&mut s, [0, 1]));
        assert_eq!(s.get(2, 3), bound::le(-2));
    }

    #[test]
    fn synchronisable_needs_every_pair() {
        let mut z = start();
        assert!(z.constrain(0, 1, bound::lt(0))); // t0 < t1
        assert!(!is_synchronisable(&z, 2));
    }

    #[test]
    fn sync_subsumption_ignores_what_the_bounds_cannot_see() {
        // p0's x reached 5 in one zone and 7 in another; with U(x) = 3 (x is
        // compared with nothing larger than 3), either simulates the other.
        let at_least = |c: i32| {
            let mut z = start();
            assert!(z.constrain(0, 2, bound::le(-c)));
            z
        };
        let (five, seven) = (at_least(5), at_least(7));
        let le = |a: &Dbm, b: &Dbm, bound: i32| {
            let (mut min_a, mut threshold_a, mut min_b) = (Vec::new(), Vec::new(), Vec::new());
            let lu = [bound; 2];
            ref_mins(a, 2, &mut min_a);
            sync_thresholds(&min_a, &lu, &mut threshold_a);
            ref_mins(b, 2, &mut min_b);
            sync_alu_le((a, &threshold_a), (b, &min_b), 2, &lu)
        };
        assert!(le(&seven, &five, 3));
        assert!(le(&five, &seven, 3));
        // With U(x) = 6, x >= 5 has valuations (x = 5) that x >= 7 cannot match.
        assert!(le(&seven, &five, 6));
        assert!(!le(&five, &seven, 6));
        // Never compared: nothing to tell apart.
        assert!(le(&five, &seven, -1));
    }
}
