//! Time passing when some clocks are stopped (stopwatches, rate 0) and the
//! others run (rate 1), as UPPAAL over-approximates it.
//!
//! Letting time pass from a zone `Z` along the rate vector `r` gives
//! `{v + d·r : v ∈ Z, d >= 0}`, a convex polyhedron that is not always a
//! zone. Eliminating `d` (Fourier–Motzkin) keeps every bound `x_i - x_j`
//! of two clocks with the same rate, keeps `x_i - x_j` for a stopped `i`
//! and a running `j` (it only decreases along `r`), drops `x_i - x_j` for a
//! running `i` and a stopped `j` (it grows without bound), and adds sums
//! of four clocks (`x_i - x_j + x_k - x_l`) that no zone holds. The zone
//! kept is therefore the tightest zone containing the exact set: an
//! over-approximation, never an under-approximation. The reference clock
//! `x_0` is stopped, so with every clock running this is the usual `up`.
//! `down` is the same construction backwards.

#![allow(clippy::needless_range_loop)] // index loops over the matrix read best

use super::Dbm;
use super::bound::{INF, LE_ZERO};

impl Dbm {
    /// Let time pass with `running[i]` the rate of clock `i` (`running[0]`
    /// is ignored: the reference clock never moves): the tightest zone
    /// containing every `v + d·r`. Keeps a canonical zone canonical: every
    /// bound left is the supremum of its difference over the exact set.
    pub fn up_with_rates(&mut self, running: &[bool]) {
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        for i in 1..n {
            if !running[i] {
                continue;
            }
            for j in 0..n {
                if j == 0 || !running[j] {
                    self.m[i * n + j] = INF;
                }
            }
        }
    }

    /// The valuations from which some delay with these rates leads into
    /// the zone (the tightest zone containing them, clocks non-negative).
    pub fn down_with_rates(&mut self, running: &[bool]) {
        if self.is_empty() {
            return;
        }
        let n = self.dim;
        for j in 1..n {
            if !running[j] {
                continue;
            }
            for i in 0..n {
                if i == 0 || !running[i] {
                    self.m[i * n + j] = if i == 0 { LE_ZERO } else { INF };
                }
            }
        }
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::super::bound::{le, lt};
    use super::*;

    /// The zone `{x = y = 0}` over clocks x (1), y (2).
    fn origin() -> Dbm {
        Dbm::zero(3)
    }

    #[test]
    fn every_clock_running_is_the_usual_up() {
        let mut a = origin();
        a.constrain(1, 0, le(3));
        let mut b = a.clone();
        a.up();
        b.up_with_rates(&[false, true, true]);
        assert_eq!(a, b);
    }

    /// From `x = y = 0` with `y` stopped: `x >= 0`, `y = 0`, so `x - y` is
    /// unbounded above and `y - x <= 0`.
    #[test]
    fn a_stopped_clock_keeps_its_value() {
        let mut z = origin();
        z.up_with_rates(&[false, true, false]);
        assert_eq!(z.get(2, 0), le(0), "y stays 0");
        assert_eq!(z.get(0, 2), le(0));
        assert_eq!(z.get(1, 0), INF, "x grows");
        assert_eq!(z.get(1, 2), INF, "x - y grows");
        assert_eq!(z.get(2, 1), le(0), "y - x <= 0");
        assert!(z.contains_point(&[0, 5, 0], 1));
        assert!(!z.contains_point(&[0, 5, 1], 1));
    }

    /// `1 <= x <= 2`, `y = 3`, then `x` stopped and `y` running: `x` keeps
    /// its interval, `y >= 3`, and `x - y <= 2 - 3` (it only decreases).
    #[test]
    fn differences_towards_a_running_clock_only_decrease() {
        let mut z = Dbm::universe(3);
        z.constrain(1, 0, le(2));
        z.constrain(0, 1, le(-1));
        z.constrain(2, 0, le(3));
        z.constrain(0, 2, le(-3));
        z.up_with_rates(&[false, false, true]);
        assert_eq!(z.get(1, 0), le(2));
        assert_eq!(z.get(0, 1), le(-1));
        assert_eq!(z.get(2, 0), INF);
        assert_eq!(z.get(0, 2), le(-3));
        assert_eq!(z.get(1, 2), le(-1));
        assert_eq!(z.get(2, 1), INF);
        let mut closed = z.clone();
        closed.close();
        assert_eq!(closed, z, "the result is canonical");
    }

    /// The classic non-convex case: from `{x = 0, y = 0}` run x alone for
    /// `a`, then y alone for `b`: `x = a`, `y = b`, all of the positive
    /// quadrant, which the zone holds exactly; but from the segment
    /// `{x + y = 2, 0 <= x <= 2}` (no zone) the hull is what we get. Here a
    /// smaller check: the result contains the exact set's points and
    /// nothing below the stopped clock's range.
    #[test]
    fn the_result_contains_the_exact_successors() {
        let mut z = Dbm::universe(3);
        z.constrain(1, 0, le(1));
        z.constrain(2, 0, lt(1));
        let mut up = z.clone();
        up.up_with_rates(&[false, true, false]);
        // (x, y) = (1, 0.5) delayed by 7 with x running: (8, 0.5).
        assert!(up.contains_point(&[0, 16, 1], 2));
        // y stays below 1.
        assert!(!up.contains_point(&[0, 16, 2], 2));
    }

    /// `down` from `x >= 5` with `y` stopped at `y <= 2`: every `x >= 0`
    /// may delay into it, `y` keeps its bound.
    #[test]
    fn down_lowers_only_running_clocks() {
        let mut z = Dbm::universe(3);
        z.constrain(0, 1, le(-5));
        z.constrain(2, 0, le(2));
        z.down_with_rates(&[false, true, false]);
        assert!(z.contains_point(&[0, 0, 2], 1));
        assert!(z.contains_point(&[0, 0, 0], 1));
        assert!(!z.contains_point(&[0, 0, 3], 1));
        let mut all = Dbm::universe(3);
        all.constrain(0, 1, le(-5));
        all.constrain(2, 0, le(2));
        all.down();
        assert!(
            !all.contains_point(&[0, 0, 0], 1),
            "with y running, y passes 2 before x reaches 5"
        );
    }
}
