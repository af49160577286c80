//! Distance heuristics: estimates of the number of transitions from a state to
//! the goal, computed on the discrete part only (clocks are ignored).

use crate::ir::{EdgeId, LocId, Network, ProcId};

use super::HeuristicKind;
use crate::ir::Formula;

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

    pub fn contains(&self, process: ProcId, edge: EdgeId) -> bool {
        self.disabled[process as usize][edge as usize]
    }
}

/// A distance estimate from a discrete state to the goal.
pub trait Heuristic: Send {
    /// `None` means the goal is unreachable from here even in the abstraction
    /// (the state can be pruned). `Some(0)` on goal states.
    fn estimate(&mut self, locations: &[LocId], variables: &[i32]) -> Option<u32>;
}

/// Builds the heuristic `kind` for `goal` on `network` without the edges in `disabled`.
pub fn build(
    _kind: HeuristicKind,
    _network: &Network,
    _goal: &Formula,
    _disabled: &EdgeSet,
) -> Box<dyn Heuristic> {
    unimplemented!("heuristics land with the checker core")
}
