//! The abstract state space of a projection: forward enumeration from the
//! projected initial state (bounded by a state budget), then exact goal
//! distances by a backward breadth-first search from the abstract goal states.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::projection::{Abstraction, TooLarge};
use zeno_ir::Network;

/// Distance of abstract states from which no abstract goal state is reachable.
pub(crate) const UNREACHABLE: u32 = u32::MAX;

/// An enumerated (possibly partial) abstract state space.
pub(crate) struct Space {
    /// Abstract key (kept locations, then kept values) to state index.
    pub(crate) index: FxHashMap<Box<[i32]>, u32>,
    /// Abstract transitions `(from, to)` usable for distances.
    edges: Vec<(u32, u32)>,
    goal: Vec<bool>,
    /// Every reachable abstract state was enumerated within the budget.
    pub(crate) complete: bool,
    /// Breadth-first depth of the first abstract goal state: the exact
    /// abstract distance from the initial state.
    pub(crate) goal_depth: Option<u32>,
    /// Breadth-first layers fully expanded.
    pub(crate) layers_done: u32,
}

impl Space {
    pub(crate) fn len(&self) -> usize {
        self.goal.len()
    }

    /// Enumerates the abstraction from the projection of the network's
    /// initial state, stopping (incomplete) after `budget` states.
    #[cfg(test)]
    pub(crate) fn enumerate(net: &Network, abs: &Abstraction, budget: usize) -> Space {
        Space::enumerate_until(net, abs, budget, &|| false).expect("never asked to stop")
    }

    /// No state enumerated yet (and so not complete).
    fn empty() -> Space {
        Space {
            index: FxHashMap::default(),
            edges: Vec::new(),
            goal: Vec::new(),
            complete: false,
            goal_depth: None,
            layers_done: 0,
        }
    }

    /// [`Space::enumerate`] that gives up (`None`) when `stop` returns true
    /// (polled before every abstract state is expanded: one atomic load and
    /// a clock read, while expanding a state of a pattern with a hundred
    /// processes costs up to a millisecond in a debug build).
    pub(crate) fn enumerate_until(
        net: &Network,
        abs: &Abstraction,
        budget: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Space> {
        let pattern = &abs.pattern;
        let mut space = Space::empty();
        let init_locs = net.initial_locations();
        let init_vars = net.initial_variables();
        let mut states: Vec<(Vec<u32>, Vec<i32>)> = Vec::new();
        let mut key = Vec::new();
        let mut add = |space: &mut Space,
                       states: &mut Vec<(Vec<u32>, Vec<i32>)>,
                       locs: Vec<u32>,
                       vars: Vec<i32>,
                       depth: u32|
         -> u32 {
            pattern.project_into(&locs, &vars, &mut key);
            if let Some(&i) = space.index.get(key.as_slice()) {
                return i;
            }
            let i = space.goal.len() as u32;
            let goal = abs.is_goal(&locs, &vars);
            if goal && space.goal_depth.is_none() {
                space.goal_depth = Some(depth);
            }
            space.goal.push(goal);
            space.index.insert(key.clone().into_boxed_slice(), i);
            states.push((locs, vars));
            i
        };
        add(&mut space, &mut states, init_locs, init_vars, 0);
        let mut succ = Vec::new();
        let mut layer_end = 1usize;
        let mut depth = 0u32;
        let mut next = 0usize;
        while next < states.len() {
            if stop() {
                return None;
            }
            if next == layer_end {
                depth += 1;
                space.layers_done = depth;
                layer_end = states.len();
            }
            let (locs, vars) = states[next].clone();
            // Successors with the shape's flag; the state is added after the
            // candidates are walked (they borrow the abstraction only).
            let mut too_large = false;
            let mut found: Vec<(Vec<u32>, Vec<i32>, bool)> = Vec::new();
            abs.candidates(&locs, |shape| {
                if too_large {
                    return;
                }
                succ.clear();
                if abs
                    .successors(shape, &locs, &vars, budget, &mut succ)
                    .is_err()
                {
                    too_large = true;
                    return;
                }
                found.extend(succ.drain(..).map(|(l, v)| (l, v, shape.disabled)));
                if found.len() > budget {
                    too_large = true;
                }
            });
            if too_large {
                return Some(space);
            }
            for (l, v, disabled) in found {
                let to = add(&mut space, &mut states, l, v, depth + 1);
                if !disabled {
                    space.edges.push((next as u32, to));
                }
            }
            if space.len() > budget {
                return Some(space);
            }
            next += 1;
        }
        space.layers_done = depth + 1;
        space.complete = true;
        Some(space)
    }

    /// Exact abstract distances to the nearest goal state, by state index.
    pub(crate) fn distances(&self) -> Vec<u32> {
        let n = self.len();
        // Reverse adjacency in compressed form.
        let mut start = vec![0u32; n + 1];
        for &(_, to) in &self.edges {
            start[to as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut preds = vec![0u32; self.edges.len()];
        for &(from, to) in &self.edges {
            preds[fill[to as usize] as usize] = from;
            fill[to as usize] += 1;
        }
        let mut dist = vec![UNREACHABLE; n];
        let mut queue = VecDeque::new();
        for (i, &g) in self.goal.iter().enumerate() {
            if g {
                dist[i] = 0;
                queue.push_back(i as u32);
            }
        }
        while let Some(s) = queue.pop_front() {
            let d = dist[s as usize] + 1;
            for &p in &preds[start[s as usize] as usize..start[s as usize + 1] as usize] {
                if dist[p as usize] == UNREACHABLE {
                    dist[p as usize] = d;
                    queue.push_back(p);
                }
            }
        }
        dist
    }

    /// The pattern database: abstract key to distance.
    pub(crate) fn into_table(self) -> FxHashMap<Box<[i32]>, u32> {
        let dist = self.distances();
        let mut table = self.index;
        for v in table.values_mut() {
            *v = dist[*v as usize];
        }
        table
    }
}

/// Builds the abstraction and enumerates it; `TooLarge` abstractions give an
/// empty, incomplete space. `None` when `stop` asked to stop.
pub(crate) fn enumerate_or_empty(
    net: &Network,
    abs: Result<Abstraction, TooLarge>,
    budget: usize,
    stop: &dyn Fn() -> bool,
) -> Option<Space> {
    match abs {
        Ok(a) => Space::enumerate_until(net, &a, budget, stop),
        Err(TooLarge) => Some(Space::empty()),
    }
}
