//! dL and dU: per process, the graph distance from its current location to
//! the locations the goal allows it, ignoring guards, synchronisation and data.
//! dL takes the maximum over processes (admissible: one transition moves each
//! process at most one step), dU the sum (not admissible: a synchronisation
//! moves two processes at once).

use std::collections::VecDeque;

use super::super::dbm::Dbm;
use super::goal::{Atom, Conjunction};
use super::{EdgeSet, Heuristic, SharedHeuristic};
use zeno_ir::{LocId, Network, ProcId};

const UNREACHABLE: u32 = u32::MAX;

pub(crate) struct LocationDistance {
    sum: bool,
    /// Per disjunct: for each process the goal constrains, the distance from
    /// every location to the nearest allowed location.
    tables: Vec<Vec<(ProcId, Vec<u32>)>>,
}

impl LocationDistance {
    pub(crate) fn new(
        network: &Network,
        goal: &[Conjunction],
        disabled: &EdgeSet,
        sum: bool,
    ) -> LocationDistance {
        let tables = goal
            .iter()
            .map(|c| {
                let mut constrained: Vec<ProcId> = c
                    .iter()
                    .filter_map(|a| match *a {
                        Atom::At(p, _) | Atom::NotAt(p, _) => Some(p),
                        Atom::Data(_) => None,
                    })
                    .collect();
                constrained.sort_unstable();
                constrained.dedup();
                constrained
                    .into_iter()
                    .filter(|&p| (p as usize) < network.processes.len())
                    .map(|p| (p, distances_to_allowed(network, p, c, disabled)))
                    .collect()
            })
            .collect();
        LocationDistance { sum, tables }
    }
}

/// Backward breadth-first search from the locations `c` allows process `p`.
fn distances_to_allowed(
    network: &Network,
    p: ProcId,
    c: &Conjunction,
    disabled: &EdgeSet,
) -> Vec<u32> {
    let process = &network.processes[p as usize];
    let n = process.locations.len();
    let allowed = |l: LocId| {
        c.iter().all(|a| match *a {
            Atom::At(q, m) => q != p || m == l,
            Atom::NotAt(q, m) => q != p || m != l,
            Atom::Data(_) => true,
        })
    };
    // Predecessor lists over the edges that are switched on.
    let mut preds: Vec<Vec<LocId>> = vec![Vec::new(); n];
    for (e, edge) in process.edges.iter().enumerate() {
        let off = disabled
            .disabled
            .get(p as usize)
            .and_then(|d| d.get(e))
            .copied()
            .unwrap_or(false);
        if !off && (edge.target as usize) < n && (edge.source as usize) < n {
            preds[edge.target as usize].push(edge.source);
        }
    }
    let mut dist = vec![UNREACHABLE; n];
    let mut queue = VecDeque::new();
    for l in 0..n as LocId {
        if allowed(l) {
            dist[l as usize] = 0;
            queue.push_back(l);
        }
    }
    while let Some(l) = queue.pop_front() {
        let d = dist[l as usize] + 1;
        for &s in &preds[l as usize] {
            if dist[s as usize] == UNREACHABLE {
                dist[s as usize] = d;
                queue.push_back(s);
            }
        }
    }
    dist
}

impl Heuristic for LocationDistance {
    fn estimate(&mut self, locations: &[LocId], _variables: &[i32]) -> Option<u32> {
        self.distance(locations)
    }

    fn shared(&self) -> Option<&dyn SharedHeuristic> {
        Some(self)
    }
}

impl SharedHeuristic for LocationDistance {
    fn estimate_shared(&self, locations: &[LocId], _variables: &[i32], _zone: &Dbm) -> Option<u32> {
        self.distance(locations)
    }
}

impl LocationDistance {
    /// The estimate: it reads only the distance tables.
    fn distance(&self, locations: &[LocId]) -> Option<u32> {
        let mut best: Option<u32> = None;
        'disjuncts: for table in &self.tables {
            let mut value = 0u32;
            for (p, dist) in table {
                let here = locations.get(*p as usize).copied().unwrap_or(0) as usize;
                let d = dist.get(here).copied().unwrap_or(UNREACHABLE);
                if d == UNREACHABLE {
                    continue 'disjuncts;
                }
                value = if self.sum {
                    value.saturating_add(d)
                } else {
                    value.max(d)
                };
            }
            best = Some(best.map_or(value, |b| b.min(value)));
        }
        best
    }
}
