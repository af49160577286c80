//! Priorities in the zone semantics (docs/checker.md, "Priorities").
//!
//! UPPAAL's rule is about time points: from a valuation `v`, a transition
//! may fire only if no transition of a higher priority is enabled at `v`.
//! Enabled means what the successor computation requires: the guards hold
//! at `v` (for a broadcast, also that no left-out receiver could join), and
//! the invariants of the locations entered hold after the updates and
//! resets. So the valuations of a zone from which transition `t` may fire
//! are `guards(t) \ ∪ enabled(t')` over the `t'` of higher priority: a
//! federation, computed exactly with zone subtraction, and each of its
//! zones is a successor of its own. Nothing is approximated, so verdicts
//! stay exact; the search only stores more zones.
//!
//! Extrapolation must respect the negated guards and invariants this
//! subtraction uses: with priorities the LU table gives `L = U = max(L, U)`
//! (Extra+_M, region-equivalent valuations enable the same transitions;
//! `lu.rs`), as for `deadlock`.

use zeno_ir::{EvalError, SyncDir};

use super::super::dbm::{Dbm, bound, subtract_all};
use super::{Edges, Model, TransitionBuf};

impl Model<'_> {
    /// The priority of a transition (its channel's level, then the highest
    /// level of its processes), compared lexicographically.
    pub(super) fn priority_of(&self, key: &[i32], edges: &Edges) -> Result<(u32, u32), EvalError> {
        let vars = self.vars(key);
        let channel = match edges.first() {
            Some(&(p, e)) => match &self.edge(p, e).sync {
                Some(s) if s.dir == SyncDir::Send => Some(s.channel.resolve(vars)?),
                _ => None,
            },
            None => None,
        };
        Ok(self
            .net
            .priorities
            .of(channel, edges.iter().map(|&(p, _)| p)))
    }

    /// Removes from `pieces` every valuation where a transition of a higher
    /// priority than `edges` is enabled in the discrete state `key`.
    pub(super) fn subtract_blockers(
        &self,
        key: &[i32],
        edges: &Edges,
        pieces: &mut Vec<Dbm>,
    ) -> Result<(), EvalError> {
        if pieces.is_empty() {
            return Ok(());
        }
        let mine = self.priority_of(key, edges)?;
        let mut buf = TransitionBuf::default();
        self.transitions(key, &mut buf).map_err(|at| at.error)?;
        let mut enabled = Vec::new();
        for k in 0..buf.len() {
            let other = buf.get(k);
            if self.priority_of(key, other)? <= mine {
                continue;
            }
            self.enabled_set(key, other, &mut enabled)?;
            for hole in &enabled {
                *pieces = subtract_all(pieces, hole);
                if pieces.is_empty() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// The valuations (of any zone) from which `edges` can fire, as a union
    /// of zones in `out`: its guards, no left-out broadcast receiver, and
    /// the target invariants after its resets (their preimage: for a reset
    /// `x := c`, the valuations whose `x` set to `c` satisfies them).
    fn enabled_set(&self, key: &[i32], edges: &Edges, out: &mut Vec<Dbm>) -> Result<(), EvalError> {
        out.clear();
        let mut guard = Dbm::universe(self.dim);
        if !self.guards(key, edges, &mut guard)? {
            return Ok(());
        }
        let mut pieces = Vec::new();
        self.split_broadcast(key, edges, &guard, &mut pieces)?;
        let mut next = key.to_vec();
        // The resets this transition makes from `key`: exact, also for a
        // function's resets that depend on the state.
        let mut resets: Vec<(usize, i32)> = Vec::new();
        if self
            .update_with(&mut next, edges, &mut |x, v| resets.push((x, v)))
            .is_err()
        {
            // Its updates fail wherever its guards hold: it is enabled there
            // (a model error, which the search reports when it expands this
            // transition itself), so it blocks there.
            *out = pieces;
            return Ok(());
        }
        let mut pre = Dbm::universe(self.dim);
        if !self.invariants(&next, &mut pre)? {
            return Ok(());
        }
        for &(x, c) in resets.iter().rev() {
            if !pre.constrain(x, 0, bound::le(c)) || !pre.constrain(0, x, bound::le(-c)) {
                return Ok(());
            }
            pre.free(x);
        }
        for mut z in pieces {
            if z.intersect(&pre) {
                out.push(z);
            }
        }
        Ok(())
    }
}
