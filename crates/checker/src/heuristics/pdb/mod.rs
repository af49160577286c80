//! The pattern database heuristic (Wehrle and Kupferschmid, *Downward
//! pattern refinement for timed automata*, 2016): exact goal distances in a
//! projection of the network onto a pattern of processes and variables,
//! computed before the search and looked up per state.
//!
//! - `pattern`: the kept processes and variable slots;
//! - `projection`: the abstract system (an over-approximation);
//! - `space`: forward enumeration of the abstract states and backward
//!   distances from the abstract goal states;
//! - `select`: downward pattern refinement (discrete and clock patterns);
//! - `errors`: the static proof that the network raises no run-time errors,
//!   which makes pruning sound;
//! - `zones`: clock patterns, whose zone graph prunes states (optional).
//!
//! **Discrete estimates.** The stored distances are over a discrete pattern
//! (clocks dropped), looked up from the discrete part of a state. With
//! `PdbOptions::clocks` a second pattern keeps clocks too; its abstract zone
//! graph (the paper's abstract states with zones) only prunes: a state whose
//! zone meets no stored zone of finite distance gets `None`, the others keep
//! the discrete estimate (see `zones.rs` for why the zone distances
//! themselves are not used as estimates).
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
mod zones;

use std::time::Duration;

use rustc_hash::FxHashMap;

pub use select::SelectionReport;

use super::goal::Conjunction;
use super::{EdgeSet, Heuristic, SharedHeuristic};
use crate::dbm::Dbm;
use pattern::Pattern;
use space::UNREACHABLE;
use zeno_ir::{Formula, LocId, Network};

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
    /// Also select a clock pattern (processes, variables and clocks) whose
    /// zone graph prunes states that cannot reach the goal in time (see
    /// `zones`); the estimates stay the discrete pattern's.
    pub clocks: bool,
}

impl Default for PdbOptions {
    fn default() -> PdbOptions {
        PdbOptions {
            max_states: 100_000,
            selection_states: 2_000_000,
            selection_time: Some(Duration::from_millis(500)),
            clocks: false,
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
    /// The clock pattern and its zone graph (with `PdbOptions::clocks`).
    zones: Option<(Pattern, zones::ZoneSpace)>,
    zone_key: Vec<i32>,
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
        let zones = options
            .clocks
            .then(|| select::select_clocks(network, goal_formula, goal, disabled, options, stop))
            .flatten();
        Some(PatternDatabase {
            pattern,
            table,
            // Only a complete enumeration proves unreachability.
            prunes: (complete || zones.is_some())
                && errors::cannot_raise_errors(network, goal_formula),
            report,
            key: Vec::new(),
            zones,
            zone_key: Vec::new(),
        })
    }

    /// Processes and variable slots in the selected pattern.
    pub fn pattern_size(&self) -> (usize, usize) {
        self.pattern.counts()
    }

    /// Abstract states in the database.
    pub fn abstract_states(&self) -> usize {
        self.table.len()
    }

    /// The clock pattern, if one was selected: kept processes, variable
    /// slots and clocks, and its stored abstract zone states.
    pub fn clock_pattern(&self) -> Option<(usize, usize, usize, usize)> {
        self.zones.as_ref().map(|(p, z)| {
            let (procs, vars) = p.counts();
            (procs, vars, z.clocks.count(), z.len)
        })
    }

    /// How the patterns were selected.
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

    fn estimate_in_zone(
        &mut self,
        locations: &[LocId],
        variables: &[i32],
        zone: &Dbm,
    ) -> Option<u32> {
        let h = self.estimate(locations, variables)?;
        if let Some((pattern, space)) = &mut self.zones {
            pattern.project_into(locations, variables, &mut self.zone_key);
            if !space.may_reach_goal(&self.zone_key, zone) {
                return None;
            }
        }
        Some(h)
    }

    fn zone_aware(&self) -> bool {
        self.zones.is_some()
    }

    fn prunes(&self) -> bool {
        self.prunes
    }

    fn shared(&self) -> Option<&dyn SharedHeuristic> {
        Some(self)
    }
}

/// The same estimates as [`Heuristic::estimate_in_zone`], with the
/// projected keys and the zone scratch made per call instead of kept.
impl SharedHeuristic for PatternDatabase {
    fn estimate_shared(&self, locations: &[LocId], variables: &[i32], zone: &Dbm) -> Option<u32> {
        let mut key = Vec::new();
        self.pattern.project_into(locations, variables, &mut key);
        let h = match self.table.get(key.as_slice()) {
            Some(&UNREACHABLE) => return None,
            Some(&d) => d,
            None => 0,
        };
        if let Some((pattern, space)) = &self.zones {
            pattern.project_into(locations, variables, &mut key);
            if !space.may_reach_goal_with(&key, zone, &mut Dbm::zero(zone.dim())) {
                return None;
            }
        }
        Some(h)
    }
}
