//! The frontier enhancements' side of the search (thesis chapters 3 and 4):
//! which queue a successor goes to. Interference contexts and context
//! bounding decide it from the transition; useless transitions from the
//! successor's heuristic value.

use zeno_ir::{self as ir, EdgeId, Formula, ProcId};

use super::super::enhance::{self, Contexts, Enhance, Useless};
use super::super::semantics::Model;
use super::super::store::Store;
use super::super::{Options, Stop};

pub(super) struct Enhancer<'n> {
    kind: Enhance,
    contexts: Option<Contexts>,
    useless: Option<Useless<'n>>,
    /// The transition that reached the state being expanded, and its
    /// locations.
    from: Vec<(ProcId, EdgeId)>,
    from_locs: Vec<u32>,
}

impl<'n> Enhancer<'n> {
    pub fn new(net: &'n ir::Network, goal: &Formula, options: &Options) -> Enhancer<'n> {
        let kind = options.config.enhance;
        Enhancer {
            kind,
            contexts: matches!(
                kind,
                Enhance::InterferenceContexts | Enhance::ContextBoundingInterference
            )
            .then(|| Contexts::new(net, goal)),
            useless: (kind == Enhance::UselessTransitions)
                .then(|| Useless::new(net, goal.clone(), options.config.heuristic)),
            from: Vec::new(),
            from_locs: Vec::new(),
        }
    }

    /// Whether successors need the heuristic's value (useless transitions
    /// test with it, whatever the order).
    pub fn needs_heuristic(&self) -> bool {
        self.useless.is_some()
    }

    /// Records the state `id` (discrete part `key`) about to be expanded.
    pub fn expanding(&mut self, store: &Store, id: u32, model: &Model, key: &[i32]) {
        if self.contexts.is_some() || self.kind == Enhance::ContextBoundingProcesses {
            self.from.clear();
            self.from.extend_from_slice(store.transition(id));
        }
        if self.useless.is_some() {
            self.from_locs.clear();
            self.from_locs
                .extend(model.locs(key).iter().map(|&l| l as u32));
        }
    }

    /// The queue of every successor by `edges` when the transition alone
    /// decides it; the expanded state came from queue `popped_from`.
    pub fn transition_queue(
        &mut self,
        edges: &[(ProcId, EdgeId)],
        popped_from: usize,
    ) -> Option<usize> {
        match (self.kind, self.contexts.as_mut()) {
            (Enhance::InterferenceContexts, Some(ctx)) => {
                Some(enhance::context_queue(ctx, &self.from, edges))
            }
            (Enhance::ContextBoundingInterference, Some(ctx)) => Some(
                popped_from + usize::from(enhance::interference_switch(ctx, &self.from, edges)),
            ),
            (Enhance::ContextBoundingProcesses, _) => {
                Some(popped_from + usize::from(enhance::process_switch(&self.from, edges)))
            }
            _ => None,
        }
    }

    /// The queue of a successor by `edges` whose transition did not decide
    /// it, with heuristic value `h`, taken where the variables are `vars`:
    /// useless transitions' test, else the first queue. `None` when `stop`
    /// asked to stop while a reduced heuristic was built.
    pub fn successor_queue(
        &mut self,
        edges: &[(ProcId, EdgeId)],
        vars: &[i32],
        h: Option<u32>,
        stop: &Stop,
    ) -> Option<usize> {
        let Some(u) = self.useless.as_mut() else {
            return Some(0);
        };
        let stopped = || stop.requested();
        u.is_useless(edges, &self.from_locs, vars, h, &stopped)
            .map(usize::from)
    }
}
