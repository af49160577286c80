//! The pattern database heuristic (Wehrle and Kupferschmid, *Downward
//! pattern refinement for timed automata*, 2016): exact goal distances in a
//! projection of the network onto a pattern of processes and variables,
//! computed before the search and looked up per state.
//!
//! - `pattern`: the kept processes and variable slots;
//! - `projection`: the abstract system (an over-approximation);
//! - `space`: forward enumeration of the abstract states and backward
//!   distances from the abstract goal states;
//! - `select`: downward pattern refinement;
//! - `errors`: the static proof that the network raises no run-time errors,
//!   which makes pruning sound.
//!
//! **Discrete patterns only.** Clocks are always dropped, so an abstract
//! state is a tuple of kept locations and values, and the lookup needs only
//! the discrete part of a state (the [`Heuristic`] trait's interface). With
//! clocks the paper's abstract states carry zones and a concrete state maps
//! to the candidate of largest distance among those whose zone it intersects
//! (its Definition 2); that needs the zone in `estimate` and a zone graph
//! enumeration of the abstraction, and is left out. Dropping clocks is the
//! paper's own first step (Fig. 3, line 2) whenever clocks appear only in
//! simple constraints; in general it only makes the heuristic less informed.
//!
//! **Consistency.** Let `α` project a concrete discrete state onto the
//! pattern and `h(s) = d#(α(s))`, the exact abstract goal distance. For every
//! concrete transition `s → s'` the edges it uses that matter to the pattern
//! form an abstract transition enabled in `α(s)` (its kept guard conjuncts
//! read only kept slots, so they hold in `α(s)` as in `s`; partners outside
//! the pattern are assumed present) and leading to `α(s')` (values computed
//! from kept slots are the same, the others range over the whole domain), or
//! no edge matters and `α(s') = α(s)`. Either way `d#(α(s)) <= 1 +
//! d#(α(s'))`, i.e. `h(s) <= 1 + h(s')`. A goal state satisfies a disjunct
//! of the goal, hence the same disjunct with atoms removed, so `α(s)` is an
//! abstract goal and `h(s) = 0`. So `h` is consistent and A* returns shortest
//! traces; and `h(s) = ∞` proves no goal state is reachable from `s`.
//! Every reachable concrete state projects into the abstract space enumerated
//! from `α(s0)`, so the lookup finds it (a state outside it, possible only
//! for the reduced networks of useless transitions, gets 0).

mod errors;
mod pattern;
mod projection;
mod select;
mod space;
#[cfg(test)]
mod tests;

use std::time::Duration;

use rustc_hash::FxHashMap;

pub use select::SelectionReport;

use super::goal::Conjunction;
use super::{EdgeSet, Heuristic};
use crate::ir::{Formula, LocId, Network};
use pattern::Pattern;
use space::UNREACHABLE;

/// Budgets of the pattern database construction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdbOptions {
    /// Most abstract states in the final pattern database.
    pub max_states: usize,
    /// Most abstract states enumerated while selecting the pattern, over all
    /// candidates (the deterministic budget).
    pub selection_states: u64,
    /// Wall-clock budget of the selection (`None`: only the state budgets).
    pub selection_time: Option<Duration>,
}

impl Default for PdbOptions {
    fn default() -> PdbOptions {
        PdbOptions {
            max_states: 100_000,
            selection_states: 2_000_000,
            selection_time: Some(Duration::from_millis(500)),
        }
    }
}

/// The pattern database of one goal.
pub struct PatternDatabase {
    pattern: Pattern,
    table: FxHashMap<Box<[i32]>, u32>,
    prunes: bool,
    report: SelectionReport,
    key: Vec<i32>,
}

impl PatternDatabase {
    pub(crate) fn new(
        network: &Network,
        goal_formula: &Formula,
        goal: &[Conjunction],
        disabled: &EdgeSet,
        options: &PdbOptions,
        stop: &dyn Fn() -> bool,
    ) -> Option<PatternDatabase> {
        let (pattern, space, report) = select::select(network, goal, disabled, options, stop)?;
        let complete = space.complete;
        // Distances in a partial space are not distances of the abstraction:
        // without a complete enumeration the database estimates 0 everywhere.
        let table = if complete {
            space.into_table()
        } else {
            FxHashMap::default()
        };
        Some(PatternDatabase {
            pattern,
            table,
            // Only a complete enumeration proves unreachability.
            prunes: complete && errors::cannot_raise_errors(network, goal_formula),
            report,
            key: Vec::new(),
        })
    }

    /// Processes and variable slots in the selected pattern.
    pub fn pattern_size(&self) -> (usize, usize) {
        let procs = self.pattern.procs.iter().filter(|&&b| b).count();
        (procs, self.pattern.len() - procs)
    }

    /// Abstract states in the database.
    pub fn abstract_states(&self) -> usize {
        self.table.len()
    }

    pub fn report(&self) -> &SelectionReport {
        &self.report
    }
}

impl Heuristic for PatternDatabase {
    fn estimate(&mut self, locations: &[LocId], variables: &[i32]) -> Option<u32> {
        self.pattern
            .project_into(locations, variables, &mut self.key);
        match self.table.get(self.key.as_slice()) {
            Some(&UNREACHABLE) => None,
            Some(&d) => Some(d),
            None => Some(0),
        }
    }

    fn prunes(&self) -> bool {
        self.prunes
    }
}
