//! Relatively useless transitions (thesis §3.2.2, Definition 3.7): `t` is
//! relatively useless for `h` in `s` if `h(M_t, s) <= h(M, t[s])`, where
//! `M_t` is the network without `t`.
//!
//! As in the thesis' implementation (§3.4.1), `M_t` also lacks the edges that
//! read a variable or clock `t` writes, and the edges (of `t`'s processes)
//! with the same target location as an edge of `t`. Building a heuristic is
//! expensive, so one is built per transition (edge set) and kept.

use rustc_hash::FxHashMap;

use crate::HeuristicKind;
use crate::PdbOptions;
use crate::heuristics::{self, EdgeSet, Heuristic};
use zeno_ir::{EdgeId, Formula, LocId, Network, ProcId};

use super::footprint::{Footprints, intersects};

/// The relatively-useless test for the transitions of a network, with the
/// reduced heuristics it has built so far.
pub struct Useless<'a> {
    net: &'a Network,
    goal: Formula,
    kind: HeuristicKind,
    fp: Footprints,
    reduced: FxHashMap<Vec<(ProcId, EdgeId)>, Box<dyn Heuristic>>,
}

impl<'a> Useless<'a> {
    /// The test on `net` for `goal`, with heuristics of `kind`.
    pub fn new(net: &'a Network, goal: Formula, kind: HeuristicKind) -> Useless<'a> {
        Useless {
            net,
            goal,
            kind,
            fp: Footprints::new(net),
            reduced: FxHashMap::default(),
        }
    }

    /// Number of reduced networks built so far.
    pub fn built(&self) -> usize {
        self.reduced.len()
    }

    /// The edges switched off in `M_t` (thesis §3.4.1).
    pub fn disabled(&self, t: &[(ProcId, EdgeId)]) -> EdgeSet {
        let mut set = EdgeSet::none(self.net);
        let mut written: Vec<u32> = Vec::new();
        for &(p, e) in t {
            if let Some(slot) = set
                .disabled
                .get_mut(p as usize)
                .and_then(|v| v.get_mut(e as usize))
            {
                *slot = true;
            }
            let i = self.fp.index(p, e);
            written.extend(
                self.fp.writes[i]
                    .iter()
                    .copied()
                    .filter(|&s| self.fp.is_data(s)),
            );
            let target = self.net.processes[p as usize].edges[e as usize].target;
            for (f, edge) in self.net.processes[p as usize].edges.iter().enumerate() {
                if edge.target == target {
                    set.disabled[p as usize][f] = true;
                }
            }
        }
        written.sort_unstable();
        written.dedup();
        if !written.is_empty() {
            for (i, &(p, e)) in self.fp.edges.iter().enumerate() {
                if intersects(&self.fp.reads[i], &written) {
                    set.disabled[p as usize][e as usize] = true;
                }
            }
        }
        set
    }

    /// Whether `t`, taken in the state with `locations` and `variables`, is
    /// relatively useless, given `h_succ = h(M, t[s])` (`None` is infinity).
    ///
    /// `None` when `stop` asked to stop before `t`'s reduced heuristic was
    /// built: building one per transition is what makes this expensive on
    /// large networks, so it is polled here and not only between states.
    pub fn is_useless(
        &mut self,
        t: &[(ProcId, EdgeId)],
        locations: &[LocId],
        variables: &[i32],
        h_succ: Option<u32>,
        stop: &dyn Fn() -> bool,
    ) -> Option<bool> {
        let Some(h_succ) = h_succ else {
            // Anything is <= infinity.
            return Some(true);
        };
        if !self.reduced.contains_key(t) {
            if stop() {
                return None;
            }
            let disabled = self.disabled(t);
            let pdb = PdbOptions::default();
            let h =
                heuristics::build_until(self.kind, self.net, &self.goal, &disabled, &pdb, stop)?;
            self.reduced.insert(t.to_vec(), h);
        }
        let Some(h) = self.reduced.get_mut(t) else {
            return Some(false);
        };
        Some(match h.estimate(locations, variables) {
            Some(h_reduced) => h_reduced <= h_succ,
            None => false,
        })
    }
}
