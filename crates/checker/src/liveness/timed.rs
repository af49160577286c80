//! Formulas on clocks in `A<>`, `E[]` and `-->` (`E[] keep` with clock
//! constraints or `deadlock` in `keep`): the search of `liveness.rs` on a
//! zone graph whose delays stay inside `keep`. `deadlock` is a union of
//! zones per discrete state (`goal::deadlocked`) like a clock constraint:
//! its constants are those of guards and invariants, which the bounds
//! (Extra+_M) already hold, so its pieces are unions of regions too.
//!
//! The semantics (docs/language.md, "Liveness checks"): `keep` must hold at
//! every instant of the run, during delays too. A maximal run that keeps it
//! takes infinitely many actions, or ends by letting time pass for ever
//! inside `keep` and the invariants, or ends in a deadlock (no action now or
//! after any delay) from which every delay the invariants allow stays inside
//! `keep`. For a formula on locations and variables alone these are the
//! three cases of `liveness.rs`.
//!
//! **Pieces.** In a discrete state the valuations satisfying `keep` are a
//! union of zones; it is split into *disjoint* zones, its pieces. A node
//! of the search is a discrete state and a zone inside one piece, closed
//! under the delays that stay in that piece and the invariants
//! (`up(X) ∩ P ∩ Inv`: a piece is convex, so a delay whose two ends lie in
//! it stays in it).
//!
//! **Crossings.** A delay may leave a piece `P` for a piece `Q` while
//! staying inside `keep`. Along a delay (a half-line of slope 1) a convex
//! set is an interval, so the delay is in `P` up to a point `u` and in `Q`
//! after it, with `u` in `P` and in the closure of `Q` (kind A), or in the
//! closure of `P` and in `Q` (kind B). Conversely, for a zone `D` and a
//! point `u` of its closure, every point `w` of `D` after `u` has the whole
//! half-open segment `(u, w]` in `D` (each constraint `a·x ≺ c` holds at
//! `w` and `a·u <= c`, so strictly-weighted mixtures satisfy it): so the
//! points of `Q` reached from a node `Z` in `P` are `up(Z ∩ cl Q) ∩ Q ∩ Inv`
//! (kind A) and `up(up(Z) ∩ cl P ∩ Q) ∩ Q ∩ Inv` (kind B), exactly. A
//! crossing is an edge of the search graph without an action (its `Edges`
//! hold [`CROSS_A`] or [`CROSS_B`]). No cycle is made of crossings alone:
//! it would lift (below) to one delay that visits a piece, leaves it and
//! comes back, but a half-line meets a convex piece in one interval and
//! the pieces are disjoint. So every cycle the search closes has an action.
//!
//! **Ends.** Time diverges inside `keep` from a node iff time may pass and
//! its zone has no upper bound (the zone is closed under the delays inside
//! its piece). The deadlock end: the node's deadlocked valuations
//! (`goal::deadlocked`) minus those from which some delay the invariants
//! allow reaches `!keep` (`down(!keep ∩ Inv)` within the node: the node is
//! inside the invariants, which are convex, so the whole delay from a point
//! of the node to an allowed point is allowed, lower bounds included).
//!
//! **Why the zone graph is exact.** Extrapolation is Extra+_M with the
//! constants of `keep` among the bounds (they are the goal's), so every
//! valuation an extrapolated zone adds is region-equivalent to one of the
//! zone before it (Extra+_M(Z) ⊆ Closure_M(Z)). Region equivalence is a
//! time-abstract bisimulation that respects the pieces (unions of regions:
//! their constants are at most M), the invariants, guards and deadlocks, so
//! the existence of a maximal `keep`-run is the same from equivalent
//! valuations, and every claim of `liveness.rs` about a node's valuations
//! carries over. An abstract cycle lifts to an infinite concrete run: each
//! region meeting a node on the cycle has, by the bisimulation, a
//! predecessor region meeting the node before it; going backwards round the
//! cycle forever, some (node, region) pair repeats, which is a cycle of the
//! finite region graph, and region paths lift step by step. After
//! extrapolation a node is closed again under its piece's delays
//! (`up(Z) ∩ P ∩ Inv`, which stays within the regions Z meets for the same
//! reason), so the ends above read it correctly.

use rustc_hash::FxHashMap;

use zeno_ir::{EdgeId, EvalError, Formula, ProcId};

use super::super::dbm::{self, Dbm, bound};
use super::super::goal;
use super::super::semantics::{Model, TransitionBuf};
use super::Edges;

/// The edges' slot a crossing fills in a run: [`CROSS_A`] or [`CROSS_B`].
pub(super) type Mark = (ProcId, EdgeId);

/// The mark of a crossing of kind A (the point where the delay leaves the
/// piece is in it). Even edge numbers: a crossing never "ticks" in the
/// non-Zeno product.
pub(super) const CROSS_A: Mark = (ProcId::MAX, 0);
/// The mark of a crossing of kind B (the point is in the next piece).
pub(super) const CROSS_B: Mark = (ProcId::MAX, 2);

/// Whether a step of a run is a crossing (no action).
pub(super) fn is_crossing(edges: &Edges) -> bool {
    edges.first().is_some_and(|&(p, _)| p == ProcId::MAX)
}

/// A formula with clocks, its pieces per discrete state cached.
pub(super) struct Keep {
    pub formula: Formula,
    not_formula: Formula,
    pieces: FxHashMap<Box<[i32]>, std::rc::Rc<KeyPieces>>,
}

/// The pieces of the formula in one discrete state, and the valuations
/// from which an allowed delay reaches its negation.
pub(super) struct KeyPieces {
    pub pieces: Vec<Dbm>,
    escape: Vec<Dbm>,
}

/// The closure of a non-empty zone: every bound made non-strict.
pub(super) fn closure(z: &Dbm) -> Dbm {
    let dim = z.dim();
    let mut out = z.clone();
    for i in 0..dim {
        for j in 0..dim {
            let b = z.get(i, j);
            if b != bound::INF && bound::is_strict(b) {
                out.raw_mut()[i * dim + j] = bound::le(bound::value(b));
            }
        }
    }
    out.close();
    out
}

impl Keep {
    pub fn new(formula: Formula) -> Keep {
        Keep {
            not_formula: Formula::Not(Box::new(formula.clone())),
            formula,
            pieces: FxHashMap::default(),
        }
    }

    /// The pieces of the formula at `key` (disjoint zones), and where an
    /// allowed delay escapes it.
    pub fn at(
        &mut self,
        model: &Model,
        key: &[i32],
        buf: &mut TransitionBuf,
    ) -> Result<std::rc::Rc<KeyPieces>, EvalError> {
        if let Some(p) = self.pieces.get(key) {
            return Ok(p.clone());
        }
        let universe = Dbm::universe(model.dim);
        let mut pieces: Vec<Dbm> = Vec::new();
        for z in goal::symbolic(model, &self.formula, key, &universe, buf)? {
            let mut rest = vec![z];
            for earlier in &pieces {
                rest = dbm::subtract_all(&rest, earlier);
            }
            pieces.extend(rest);
        }
        let mut escape = Vec::new();
        if model.can_delay(key) {
            for mut z in goal::symbolic(model, &self.not_formula, key, &universe, buf)? {
                if model.invariants(key, &mut z)? && !z.is_empty() {
                    z.down();
                    escape.push(z);
                }
            }
        }
        let out = std::rc::Rc::new(KeyPieces { pieces, escape });
        self.pieces.insert(key.into(), out.clone());
        Ok(out)
    }
}

/// `up(x) ∩ piece ∩ Inv` (no `up` where time may not pass): the node a
/// set `x` of entry points of `piece` stands for; `None` when empty.
pub(super) fn close_in(
    model: &Model,
    key: &[i32],
    x: &Dbm,
    piece: &Dbm,
) -> Result<Option<Dbm>, EvalError> {
    let mut z = x.clone();
    if !z.intersect(piece) {
        return Ok(None);
    }
    if model.can_delay(key) {
        z.up();
        if !z.intersect(piece) {
            return Ok(None);
        }
    }
    Ok((model.invariants(key, &mut z)? && !z.is_empty()).then_some(z))
}

/// The nodes for the entry points `entry` at `key`: one per piece they
/// meet, extrapolated and closed again in the piece.
pub(super) fn enter(
    model: &Model,
    key: &[i32],
    entry: &Dbm,
    pieces: &KeyPieces,
    lower: &mut Vec<i32>,
    upper: &mut Vec<i32>,
) -> Result<Vec<Dbm>, EvalError> {
    let mut out = Vec::new();
    for piece in &pieces.pieces {
        if let Some(z) = close_in(model, key, entry, piece)? {
            out.extend(settle(model, key, z, piece, lower, upper)?);
        }
    }
    Ok(out)
}

/// Extrapolates a node and closes it again in its piece.
fn settle(
    model: &Model,
    key: &[i32],
    mut z: Dbm,
    piece: &Dbm,
    lower: &mut Vec<i32>,
    upper: &mut Vec<i32>,
) -> Result<Option<Dbm>, EvalError> {
    model.extrapolate(key, &mut z, lower, upper);
    close_in(model, key, &z, piece)
}

/// The crossings from node `zone` at `key` into the other pieces, as
/// (mark, node) pairs.
pub(super) fn crossings(
    model: &Model,
    key: &[i32],
    zone: &Dbm,
    pieces: &KeyPieces,
    lower: &mut Vec<i32>,
    upper: &mut Vec<i32>,
) -> Result<Vec<(Mark, Dbm)>, EvalError> {
    let mut out = Vec::new();
    if pieces.pieces.len() < 2 || !model.can_delay(key) {
        return Ok(out);
    }
    let Some(own) = pieces.pieces.iter().find(|p| {
        let mut z = zone.clone();
        z.intersect(p)
    }) else {
        return Ok(out);
    };
    let mut later = zone.clone();
    later.up();
    for q in &pieces.pieces {
        if std::ptr::eq(q, own) {
            continue;
        }
        // Kind A: the last point in `own` is on the closure of `q`.
        let mut a = zone.clone();
        if a.intersect(&closure(q))
            && let Some(z) = close_in(
                model,
                key,
                &{
                    a.up();
                    a
                },
                q,
            )?
            && let Some(z) = settle(model, key, z, q, lower, upper)?
        {
            out.push((CROSS_A, z));
        }
        // Kind B: the first point in `q` is on the closure of `own`.
        let mut b = later.clone();
        if b.intersect(&closure(own))
            && b.intersect(q)
            && let Some(z) = close_in(model, key, &b, q)?
            && let Some(z) = settle(model, key, z, q, lower, upper)?
        {
            out.push((CROSS_B, z));
        }
    }
    Ok(out)
}

/// Whether time may pass for ever from the node without leaving it.
pub(super) fn diverges(model: &Model, key: &[i32], zone: &Dbm) -> bool {
    model.can_delay(key) && (1..zone.dim()).all(|i| zone.get(i, 0) == bound::INF)
}

/// The valuations of the node where a run may end in a deadlock: no action
/// now or after any delay, and no allowed delay leaves the formula.
pub(super) fn deadlock_ends(
    model: &Model,
    key: &[i32],
    zone: &Dbm,
    pieces: &KeyPieces,
    buf: &mut TransitionBuf,
) -> Vec<Dbm> {
    let mut rest = goal::deadlocked(model, key, zone, buf);
    for hole in &pieces.escape {
        if rest.is_empty() {
            break;
        }
        rest = dbm::subtract_all(&rest, hole);
    }
    rest
}
