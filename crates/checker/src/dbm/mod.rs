//! Difference bound matrices (Bengtsson & Yi 2004, "Timed automata: semantics,
//! algorithms and tools"), kept canonical (all-pairs shortest paths) after
//! every operation, plus LU extrapolation and zone subtraction.

pub mod bound;
mod extrapolate;
mod federation;
mod stopwatch;

pub use bound::Raw;
pub use federation::{subtract, subtract_all};

use bound::{INF, LE_ZERO};

/// A zone over clocks `0..dim` (`0` is the reference clock): entry `(i, j)`
/// bounds `x_i - x_j`. An empty zone has a negative diagonal entry at `(0, 0)`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Dbm {
    dim: usize,
    m: Vec<Raw>,
}

impl std::fmt::Debug for Dbm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty() {
            return write!(f, "Dbm(empty)");
        }
        write!(f, "Dbm[")?;
        for i in 0..self.dim {
            for j in 0..self.dim {
                let b = self.get(i, j);
                if i == j || b == INF {
                    continue;
                }
                let op = if bound::is_strict(b) { "<" } else { "<=" };
                write!(f, " x{i}-x{j}{op}{}", bound::value(b))?;
            }
        }
        write!(f, " ]")
    }
}

impl Dbm {
    /// The zone where every clock is 0.
    pub fn zero(dim: usize) -> Dbm {
        Dbm {
            dim,
            m: vec![LE_ZERO; dim * dim],
        }
    }

    /// All non-negative valuations.
    pub fn universe(dim: usize) -> Dbm {
        let mut m = vec![INF; dim * dim];
        for i in 0..dim {
            m[i * dim + i] = LE_ZERO;
            m[i] = LE_ZERO; // x_0 - x_i <= 0
        }
        Dbm { dim, m }
    }

    /// Builds a zone from raw entries and closes it (for tests and traces).
    pub fn from_raw(dim: usize, m: Vec<Raw>) -> Dbm {
        assert_eq!(m.len(), dim * dim);
        let mut d = Dbm { dim, m };
        d.close();
        d
    }

    /// Wraps raw entries that are already canonical (from the store).
    pub fn from_canonical(dim: usize, m: Vec<Raw>) -> Dbm {
        Dbm { dim, m }
    }

    /// Overwrites with canonical raw entries, reusing the allocation.
    pub fn set_raw(&mut self, dim: usize, m: &[Raw]) {
        self.dim = dim;
        self.m.clear();
        self.m.extend_from_slice(m);
    }

    /// Overwrites with canonical raw entries given one by one (from the
    /// store's compact table), reusing the allocation.
    pub fn set_raw_from(&mut self, dim: usize, m: impl Iterator<Item = Raw>) {
        self.dim = dim;
        self.m.clear();
        self.m.extend(m);
    }

    /// The bounds, row by row, to overwrite (callers keep the zone
    /// canonical).
    pub(crate) fn raw_mut(&mut self) -> &mut [Raw] {
        &mut self.m
    }

    /// Clocks plus one (the reference clock).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The bounds, row by row.
    pub fn raw(&self) -> &[Raw] {
        &self.m
    }

    /// The bound on `x_i - x_j`.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> Raw {
        self.m[i * self.dim + j]
    }

    #[inline]
    fn set(&mut self, i: usize, j: usize, b: Raw) {
        self.m[i * self.dim + j] = b;
    }

    /// Copies `other` into `self`, reusing the allocation.
    pub fn assign(&mut self, other: &Dbm) {
        self.dim = other.dim;
        self.m.clone_from(&other.m);
    }

    fn mark_empty(&mut self) {
        self.m[0] = bound::LT_ZERO - 1;
    }

    /// Whether the zone holds no valuation.
    pub fn is_empty(&self) -> bool {
        self.m[0] < LE_ZERO
    }

    /// Floyd–Warshall closure; marks the zone empty on a negative cycle.
    pub fn close(&mut self) -> bool {
        let n = self.dim;
        for k in 0..n {
            let row_k = &self.m[k * n..(k + 1) * n];
            // A clock bounded by no other (a free or extrapolated-away
            // clock: its row unbounded but for the diagonal) is on no
            // shorter path: every path through it leaves it by an
            // unbounded edge, or by the diagonal, which is no shorter when
            // it is `<= 0`. Skipping it is what makes closing a zone with
            // many inactive clocks cheap.
            if row_k[k] == LE_ZERO && row_k.iter().enumerate().all(|(j, &b)| j == k || b == INF) {
                continue;
            }
            if row_k[k] != LE_ZERO {
                self.close_through(k);
                continue;
            }
            // With a `<= 0` diagonal, row k is unchanged by this round
            // (m[k][j] + m[k][k] = m[k][j]), so it can be read while the
            // other rows are written.
            let (before, rest) = self.m.split_at_mut(k * n);
            let (row_k, after) = rest.split_at_mut(n);
            let row_k: &[Raw] = row_k;
            for row_i in before.chunks_exact_mut(n).chain(after.chunks_exact_mut(n)) {
                let ik = row_i[k];
                if ik == INF {
                    continue;
                }
                for (ij, &kj) in row_i.iter_mut().zip(row_k) {
                    *ij = (*ij).min(bound::add_finite(ik, kj));
                }
            }
        }
        for i in 0..n {
            if self.m[i * n + i] < LE_ZERO {
                self.mark_empty();
                return false;
            }
        }
        true
    }

    /// One round of [`Self::close`] through clock `k`, entry by entry (for
    /// a diagonal other than `<= 0`, where row k itself may change).
    fn close_through(&mut self, k: usize) {
        let n = self.dim;
        for i in 0..n {
            let ik = self.m[i * n + k];
            if ik == INF {
                continue;
            }
            for j in 0..n {
                let s = bound::add(ik, self.m[k * n + j]);
                if s < self.m[i * n + j] {
                    self.m[i * n + j] = s;
                }
            }
        }
    }

    /// Intersects with `x_i - x_j ≺ b` and restores canonical form in O(n²).
    /// Returns false when the zone becomes empty.
    pub fn constrain(&mut self, i: usize, j: usize, b: Raw) -> bool {
        if self.is_empty() {
            return false;
        }
        if b >= self.get(i, j) {
            return true;
        }
        if bound::add(b, self.get(j, i)) < LE_ZERO {
            self.mark_empty();
            return false;
        }
        self.set(i, j, b);
        let n = self.dim;
        // Only paths through the new edge i -> j can get shorter. Row j
        // itself does not: `m[j][i] + b >= (<=, 0)` (checked above), so
        // `m[j][i] + b + m[j][l] >= m[j][l]`; it is read while the other
        // rows are written. Nor does any `m[k][i]` read below (l = i adds
        // the same non-negative cycle), so the rows may go in any order.
        let (before, rest) = self.m.split_at_mut(j * n);
        let (row_j, after) = rest.split_at_mut(n);
        let row_j: &[Raw] = row_j;
        for row_k in before.chunks_exact_mut(n).chain(after.chunks_exact_mut(n)) {
            let ki = row_k[i];
            if ki == INF {
                continue;
            }
            let kij = bound::add(ki, b);
            if kij == INF {
                continue;
            }
            for (kl, &jl) in row_k.iter_mut().zip(row_j) {
                *kl = (*kl).min(bound::add_finite(kij, jl));
            }
        }
        true
    }

    /// Let time pass: remove the upper bounds.
    pub fn up(&mut self) {
        if self.is_empty() {
            return;
        }
        for i in 1..self.dim {
            self.set(i, 0, INF);
        }
    }

    /// The valuations from which some delay leads into the zone.
    pub fn down(&mut self) {
        if self.is_empty() {
            return;
        }
        for i in 1..self.dim {
            let mut b = LE_ZERO;
            for j in 1..self.dim {
                b = b.min(self.get(j, i));
            }
            self.set(0, i, b);
        }
    }

    /// `x := v` for a constant `v >= 0`.
    pub fn reset(&mut self, x: usize, v: i32) {
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        for j in 0..n {
            if j == x {
                continue;
            }
            self.m[x * n + j] = bound::add(bound::le(v), self.m[j]);
            self.m[j * n + x] = bound::add(self.m[j * n], bound::le(-v));
        }
        self.set(x, x, LE_ZERO);
    }

    /// Removes every constraint on `x` (except `x >= 0`).
    pub fn free(&mut self, x: usize) {
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        for i in 0..n {
            if i != x {
                self.m[x * n + i] = INF;
                self.m[i * n + x] = self.m[i * n];
            }
        }
    }

    /// Intersection; returns false when empty.
    pub fn intersect(&mut self, other: &Dbm) -> bool {
        if self.is_empty() || other.is_empty() {
            self.mark_empty();
            return false;
        }
        let mut changed = false;
        for (a, &b) in self.m.iter_mut().zip(&other.m) {
            if b < *a {
                *a = b;
                changed = true;
            }
        }
        !changed || self.close()
    }

    /// Whether every valuation of `self` is in `other`.
    pub fn is_subset_of(&self, other: &Dbm) -> bool {
        if self.is_empty() {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        self.m.iter().zip(&other.m).all(|(a, b)| a <= b)
    }

    /// Whether the valuation (as rationals `num[i] / den`) satisfies every
    /// constraint; `num[0]` must be 0.
    pub fn contains_point(&self, num: &[i64], den: i64) -> bool {
        if self.is_empty() {
            return false;
        }
        for i in 0..self.dim {
            for j in 0..self.dim {
                let b = self.get(i, j);
                if b == INF {
                    continue;
                }
                let diff = num[i] - num[j];
                let c = bound::value(b) as i64 * den;
                let ok = if bound::is_strict(b) {
                    diff < c
                } else {
                    diff <= c
                };
                if !ok {
                    return false;
                }
            }
        }
        true
    }

    /// Extra+_LU extrapolation; see [`extrapolate`].
    pub fn extrapolate_lu(&mut self, lower: &[i32], upper: &[i32]) {
        extrapolate::extra_lu_plus(self, lower, upper);
    }

    /// Classical Extra_M extrapolation with one bound per clock; see
    /// [`extrapolate`].
    pub fn extrapolate_m(&mut self, max: &[i32]) {
        extrapolate::extra_m(self, max);
    }
}

#[cfg(test)]
pub(crate) mod tests;
