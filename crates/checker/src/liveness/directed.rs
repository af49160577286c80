//! Directed liveness: the order in which the liveness searches look at
//! states, guided toward the states that falsify the property and toward
//! closing cycles (the directed model checking survey's "liveness as
//! safety" and guided nested search, Edelkamp, Schuppan, Bošnački, Wijs,
//! Fehnker and Aljazzar, section on liveness).
//!
//! Guidance only reorders; it never drops a state, so verdicts do not
//! depend on it:
//!
//! - The outer search of `p --> q` visits every reachable state (up to
//!   inclusion in a stored state, whose maximal runs include the smaller
//!   one's) in *some* order and starts an inner search at each `p && !q`
//!   state. Its verdict is "fails" iff some such root has a maximal
//!   `!q`-run, whatever the order; best-first on a distance heuristic to
//!   `p && !q` (the states that falsify the property, as a safety goal)
//!   reaches those roots first. A state the heuristic calls a dead end is
//!   still explored, last.
//! - The inner depth-first searches are correct for every order of
//!   successors (the proofs in `liveness.rs` and `buchi.rs` never use the
//!   order). The guided order tries first the successors that close a
//!   cycle now (equal to a node on the stack: grey or live), then those
//!   with the discrete part of such a node (a cycle is likely once the
//!   zones settle), then the rest in the network's order. This finds
//!   cycles sooner and with shorter cycles.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use zeno_ir::LocId;

use super::super::dbm::Dbm;
use super::super::heuristics::Heuristic;
use super::super::semantics::Model;
use super::{Edges, Search};

/// The outer frontier of `-->`: breadth-first when blind, best-first on
/// the heuristic (ties first in, first out) when guided.
pub(super) enum OuterQueue {
    Fifo(VecDeque<u32>),
    Best {
        heap: BinaryHeap<Reverse<(u32, u64, u32)>>,
        pushed: u64,
        locs: Vec<LocId>,
    },
}

impl OuterQueue {
    pub(super) fn new(guided: bool) -> OuterQueue {
        if guided {
            OuterQueue::Best {
                heap: BinaryHeap::new(),
                pushed: 0,
                locs: Vec::new(),
            }
        } else {
            OuterQueue::Fifo(VecDeque::new())
        }
    }

    /// Adds a state; `h` estimates its distance to a `p && !q` state.
    pub(super) fn push(
        &mut self,
        id: u32,
        model: &Model,
        h: Option<&mut (dyn Heuristic + '_)>,
        key: &[i32],
        zone: &Dbm,
    ) {
        match self {
            OuterQueue::Fifo(q) => q.push_back(id),
            OuterQueue::Best { heap, pushed, locs } => {
                let estimate = h.and_then(|h| {
                    locs.clear();
                    locs.extend(model.locs(key).iter().map(|&l| l as LocId));
                    h.estimate_in_zone(locs, model.vars(key), zone)
                });
                // A dead end (`None`) is explored last, never dropped.
                let value = estimate.unwrap_or(u32::MAX);
                heap.push(Reverse((value, *pushed, id)));
                *pushed = pushed.saturating_add(1);
            }
        }
    }

    /// Turns a best-first queue into a breadth-first one, its states in
    /// the order they were pushed (the reachability search's fallback:
    /// [`super::super::Options::breadth_first_after`]). A property that
    /// holds needs every reachable state, which the heuristic cannot
    /// shorten, and computing it is most of a guided outer search's time.
    pub(super) fn go_breadth_first(&mut self) {
        if let OuterQueue::Best { heap, .. } = self {
            let mut left: Vec<(u64, u32)> = heap
                .drain()
                .map(|Reverse((_, pushed, id))| (pushed, id))
                .collect();
            left.sort_unstable();
            *self = OuterQueue::Fifo(left.into_iter().map(|(_, id)| id).collect());
        }
    }

    pub(super) fn is_best_first(&self) -> bool {
        matches!(self, OuterQueue::Best { .. })
    }

    pub(super) fn pop(&mut self) -> Option<u32> {
        match self {
            OuterQueue::Fifo(q) => q.pop_front(),
            OuterQueue::Best { heap, .. } => heap.pop().map(|Reverse((_, _, id))| id),
        }
    }
}

impl Search<'_, '_> {
    /// Puts the successors that close a cycle first, then those sharing
    /// the discrete part of a node on the stack (stable otherwise); a no-op
    /// for blind search.
    pub(super) fn order_successors(&self, succ: &mut [(Box<[i32]>, Dbm, Edges)]) {
        if !self.guided {
            return;
        }
        succ.sort_by_cached_key(|(key, zone, _)| {
            let Some(ids) = self.index.get(key) else {
                return 2u8;
            };
            let mut rank = 2;
            for &id in ids {
                let node = &self.nodes[id as usize];
                if node.grey.is_some() {
                    if node.zone == *zone {
                        return 0;
                    }
                    rank = 1;
                }
            }
            rank
        });
    }
}
