//! Turning an error trace of the reduced network into one of the original:
//! before each transition, move every removed slot it reads to the nearest
//! value its guards accept; at the end, move the goal's removed components to
//! the nearest values that satisfy the goal (trying combinations by distance).
//! The concrete delays are then rebuilt on the original network.

use zeno_ir::{EdgeId, Formula, LocationKind, Network, ProcId};

use super::super::Stop;
use super::super::concrete;
use super::super::goal::Goal;
use super::super::semantics::Model;
use super::super::trace::{Trace, TraceEnd};
use super::analysis::{Abstraction, Component, Kind, accepts, advance, for_each_combination};

type Edges = Vec<(ProcId, EdgeId)>;

/// The trace of `network` for the reduced network's `abstract_trace`, and the
/// number of inserted steps; `None` if the moves cannot be inserted.
pub(crate) fn concretize(
    abstraction: &Abstraction,
    network: &Network,
    goal: &Formula,
    abstract_trace: &Trace,
    stop: &Stop,
) -> Option<(Trace, usize)> {
    let comps = &abstraction.components;
    let mut values: Vec<u32> = comps.iter().map(|c| c.init).collect();
    let mut locations = network.initial_locations();
    let mut path: Vec<Edges> = Vec::new();
    let mut inserted = 0;
    let mut vars = network.initial_variables();
    // Moves the removed slots `edges` read to values its guards accept.
    let mut prepare_for = |edges: &Edges, locations: &[u32], path: &mut Vec<Edges>| {
        prepare(
            network,
            comps,
            &mut values,
            locations,
            edges,
            &mut vars,
            path,
        )
    };
    for step in &abstract_trace.steps {
        let edges = &step.transition.edges;
        inserted += prepare_for(edges, &locations, &mut path)?;
        advance(network, &mut locations, edges);
        path.push(edges.clone());
    }
    let model = Model::new(network, goal);
    match &abstract_trace.end {
        // Safe abstraction runs reachability checks only.
        TraceEnd::Loop { .. } | TraceEnd::Deadlock { .. } | TraceEnd::TimeDiverges => None,
        TraceEnd::ModelError {
            transition, error, ..
        } => {
            let edges = &transition.edges;
            inserted += prepare_for(edges, &locations, &mut path)?;
            let trace = concrete::error_trace(&model, &path, edges, *error, stop)?;
            Some((trace, inserted))
        }
        TraceEnd::Goal { .. } => {
            let in_goal: Vec<(usize, &Component)> = comps
                .iter()
                .enumerate()
                .filter(|(_, c)| c.in_goal)
                .collect();
            if in_goal.is_empty() {
                let trace = concrete::goal_trace(&model, &Goal::new(goal.clone()), &path, stop)?;
                return Some((trace, inserted));
            }
            if committed(network, &locations) {
                return None;
            }
            // Every combination of goal values, nearest first.
            let refs: Vec<&Component> = in_goal.iter().map(|(_, c)| *c).collect();
            let mut tails: Vec<Edges> = Vec::new();
            let mut candidates: Vec<Vec<Edges>> = Vec::new();
            for_each_combination(&refs, &mut |targets| {
                tails.clear();
                let mut moves = Vec::new();
                for ((i, c), &t) in in_goal.iter().zip(targets) {
                    match c.path_to(values[*i], |v| v == t) {
                        Some((m, _)) => moves.extend(m.into_iter().map(|e| vec![e])),
                        None => return,
                    }
                }
                candidates.push(moves);
            });
            candidates.sort_by_key(|m| m.len());
            let goal = Goal::new(goal.clone());
            for moves in candidates {
                if stop.requested() {
                    return None;
                }
                let n = moves.len();
                let mut full = path.clone();
                full.extend(moves);
                if let Some(trace) = concrete::goal_trace(&model, &goal, &full, stop) {
                    return Some((trace, inserted + n));
                }
            }
            None
        }
    }
}

/// Appends to `path` the moves that bring every removed slot read by `edges`
/// to a value their guards accept; returns how many.
fn prepare(
    network: &Network,
    comps: &[Component],
    values: &mut [u32],
    locations: &[u32],
    edges: &[(ProcId, EdgeId)],
    vars: &mut [i32],
    path: &mut Vec<Edges>,
) -> Option<usize> {
    let guards: Vec<_> = edges
        .iter()
        .filter_map(|&(p, e)| {
            network.processes[p as usize].edges[e as usize]
                .guard
                .as_ref()
        })
        .collect();
    let mut count = 0;
    for (i, c) in comps.iter().enumerate() {
        let Kind::Var(x) = c.kind else { continue };
        if accepts(c, &guards, x, values[i], vars) {
            continue;
        }
        // No reachable value accepted: only the edge of a model error can be
        // such (its guard failed to evaluate before reaching the conjunct);
        // leave the slot, and let the concrete trace decide.
        let Some((moves, to)) = c.path_to(values[i], |v| accepts(c, &guards, x, v, vars)) else {
            continue;
        };
        if committed(network, locations) {
            return None;
        }
        count += moves.len();
        path.extend(moves.into_iter().map(|m| vec![m]));
        values[i] = to;
    }
    Some(count)
}

fn committed(network: &Network, locations: &[u32]) -> bool {
    locations
        .iter()
        .enumerate()
        .any(|(p, &l)| network.processes[p].locations[l as usize].kind == LocationKind::Committed)
}
