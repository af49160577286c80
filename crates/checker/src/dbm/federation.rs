//! Zone subtraction: `Z \ D` as a union of disjoint zones (the pieces of `Z`
//! outside each constraint of `D` in turn), the usual federation construction.

use super::Dbm;
use super::bound::{self, INF};

/// `zone \ hole`, appended to `out` as disjoint non-empty zones.
pub fn subtract(zone: &Dbm, hole: &Dbm, out: &mut Vec<Dbm>) {
    if zone.is_empty() {
        return;
    }
    if hole.is_empty() {
        out.push(zone.clone());
        return;
    }
    // Quick test: disjoint zones leave `zone` whole.
    let mut inter = zone.clone();
    if !inter.intersect(hole) {
        out.push(zone.clone());
        return;
    }
    let n = zone.dim();
    let mut rest = zone.clone();
    for i in 0..n {
        for j in 0..n {
            let b = hole.get(i, j);
            if i == j || b == INF || rest.get(i, j) <= b {
                continue;
            }
            // The part of `rest` violating x_i - x_j ≺ b ...
            let mut piece = rest.clone();
            if piece.constrain(j, i, bound::negate(b)) {
                out.push(piece);
            }
            // ... and keep subtracting from the part satisfying it.
            if !rest.constrain(i, j, b) {
                return;
            }
        }
    }
}

/// `zones \ hole` for a union of zones.
pub fn subtract_all(zones: &[Dbm], hole: &Dbm) -> Vec<Dbm> {
    let mut out = Vec::new();
    for z in zones {
        subtract(z, hole, &mut out);
    }
    out
}
