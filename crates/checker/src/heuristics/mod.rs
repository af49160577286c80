//! Distance heuristics: estimates of the number of transitions from a state to
//! the goal, computed on the discrete part (only the pattern database's
//! optional clock pattern reads the zone, to prune).
//!
//! Every heuristic works on the goal in disjunctive normal form (`goal`) and
//! takes the minimum over its disjuncts:
//! - `DL` / `DU` (`dist`): per-process graph distance to the goal location,
//!   maximum (admissible) or sum;
//! - `HL` / `HU` (`atg`, `sets`): the monotonicity abstraction's layer count
//!   (admissible) or the length of an abstract plan extracted from it;
//! - `HCG` (`cg`): the causal graph heuristic (thesis chapter 5);
//! - `Pdb` (`pdb`): a pattern database, exact distances in a projection of
//!   the network selected by downward pattern refinement (consistent).
//!
//! `None` from [`Heuristic::estimate`] is a proof that the goal is unreachable
//! from the state (on the network without the disabled edges); `DL` and `HL`
//! never overestimate the number of transitions to the goal.

mod atg;
mod cg;
mod dist;
mod goal;
pub mod pdb;
mod sets;
#[cfg(test)]
mod tests;

use zeno_ir::{EdgeId, LocId, Network, ProcId};

use super::HeuristicKind;
use super::dbm::Dbm;
use zeno_ir::Formula;

/// A set of edges switched off, so that a heuristic can be evaluated on the
/// network without them (needed by useless-transition detection).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EdgeSet {
    /// `disabled[p][e]` is true when edge `e` of process `p` is switched off.
    pub disabled: Vec<Vec<bool>>,
}

impl EdgeSet {
    /// No edge switched off.
    pub fn none(network: &Network) -> EdgeSet {
        EdgeSet {
            disabled: network
                .processes
                .iter()
                .map(|p| vec![false; p.edges.len()])
                .collect(),
        }
    }

    /// Whether the edge is switched off.
    pub fn contains(&self, process: ProcId, edge: EdgeId) -> bool {
        self.disabled
            .get(process as usize)
            .and_then(|p| p.get(edge as usize))
            .copied()
            .unwrap_or(false)
    }
}

/// A distance estimate from a discrete state to the goal.
pub trait Heuristic: Send {
    /// `None` means the goal is unreachable from here even in the abstraction
    /// (the state can be pruned). `Some(0)` on goal states.
    fn estimate(&mut self, locations: &[LocId], variables: &[i32]) -> Option<u32>;

    /// The estimate of a state with its zone. Only heuristics whose
    /// [`Heuristic::zone_aware`] is true read the zone; the default is the
    /// discrete estimate.
    fn estimate_in_zone(
        &mut self,
        locations: &[LocId],
        variables: &[i32],
        _zone: &Dbm,
    ) -> Option<u32> {
        self.estimate(locations, variables)
    }

    /// Whether estimates depend on the zone (they may then not be cached per
    /// discrete state).
    fn zone_aware(&self) -> bool {
        false
    }

    /// Whether `None` may be used to prune: the state cannot reach the goal
    /// *and* cannot reach a model error. The search then drops such states
    /// instead of exploring them last.
    fn prunes(&self) -> bool {
        false
    }

    /// The heuristic as threads can share it, when its estimates write no
    /// cache or scratch of its own (`None`: the parallel directed search
    /// falls back to the sequential one).
    fn shared(&self) -> Option<&dyn SharedHeuristic> {
        None
    }
}

/// A heuristic whose estimates only read it, so that several threads can
/// compute them at once from one copy (the parallel directed search).
pub trait SharedHeuristic: Sync {
    /// As [`Heuristic::estimate_in_zone`], through a shared reference.
    fn estimate_shared(&self, locations: &[LocId], variables: &[i32], zone: &Dbm) -> Option<u32>;
}

/// Builds the heuristic `kind` for `goal` on `network` without the edges in
/// `disabled` (a pattern database with the default budgets).
pub fn build(
    kind: HeuristicKind,
    network: &Network,
    goal: &Formula,
    disabled: &EdgeSet,
) -> Box<dyn Heuristic> {
    build_with(kind, network, goal, disabled, &pdb::PdbOptions::default())
}

/// [`build`] with the pattern database's budgets.
pub fn build_with(
    kind: HeuristicKind,
    network: &Network,
    goal: &Formula,
    disabled: &EdgeSet,
    pdb_options: &pdb::PdbOptions,
) -> Box<dyn Heuristic> {
    build_until(kind, network, goal, disabled, pdb_options, &|| false)
        .unwrap_or_else(|| Box::new(Zero))
}

/// [`build_with`] that gives up (`None`) as soon as `stop` returns true.
/// Only the pattern database's selection takes long enough to poll inside;
/// the others compile the network once and are polled before they start.
pub fn build_until(
    kind: HeuristicKind,
    network: &Network,
    goal: &Formula,
    disabled: &EdgeSet,
    pdb_options: &pdb::PdbOptions,
    stop: &dyn Fn() -> bool,
) -> Option<Box<dyn Heuristic>> {
    if stop() {
        return None;
    }
    let dnf = goal::dnf(network, goal);
    Some(match kind {
        HeuristicKind::Zero => Box::new(Zero),
        HeuristicKind::DL => Box::new(dist::LocationDistance::new(network, &dnf, disabled, false)),
        HeuristicKind::DU => Box::new(dist::LocationDistance::new(network, &dnf, disabled, true)),
        HeuristicKind::HL => Box::new(atg::Atg::new(network, &dnf, disabled, false)),
        HeuristicKind::HU => Box::new(atg::Atg::new(network, &dnf, disabled, true)),
        HeuristicKind::HCG => Box::new(cg::CausalGraph::new(network, &dnf, disabled)),
        HeuristicKind::Pdb => Box::new(pdb::PatternDatabase::new(
            network,
            goal,
            &dnf,
            disabled,
            pdb_options,
            stop,
        )?),
    })
}

impl Heuristic for cg::CausalGraph {
    fn estimate(&mut self, locations: &[LocId], variables: &[i32]) -> Option<u32> {
        cg::CausalGraph::estimate(self, locations, variables)
    }
}

/// Blind search: every state is estimated at 0.
struct Zero;

impl Heuristic for Zero {
    fn estimate(&mut self, _locations: &[LocId], _variables: &[i32]) -> Option<u32> {
        Some(0)
    }
}

/// The pattern database for `goal`, built with `options` (public so that
/// benchmarks can report the selected pattern and its cost).
pub fn pdb_database(
    network: &Network,
    goal: &Formula,
    disabled: &EdgeSet,
    options: &pdb::PdbOptions,
) -> pdb::PatternDatabase {
    let dnf = goal::dnf(network, goal);
    pdb::PatternDatabase::new(network, goal, &dnf, disabled, options, &|| false)
        .expect("never asked to stop")
}
