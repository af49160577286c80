//! The zone graph as the searches see it: a state is a discrete part and a
//! zone, and [`ZoneGraph::next`] is one step of it — the zone successor of
//! one transition (`semantics.rs`: guards, updates, invariants, delay;
//! split along diagonal hyperplanes, broadcast guards and priorities), then
//! the abstraction the searches store: extrapolation (Extra+_LU, Extra+_M
//! or Extra_M with diagonals, as the model chooses) and, where the search
//! keeps only active clocks, the inactive clocks freed.
//!
//! As TChecker keeps this step inside its zone graph's `next()`, the
//! searches (`search/`, `parallel/`, `liveness.rs`, `bounds.rs`) hold only
//! their algorithm: waiting policy, store and stop conditions. The scratch
//! buffers the step needs live here, reused from step to step, so a step
//! allocates nothing once they have grown.
//!
//! A search walks a state's successors in two calls: [`ZoneGraph::transitions`]
//! lists the transitions enabled on the discrete part, then
//! [`ZoneGraph::next`] computes the successors of the `k`-th. Another zone
//! graph (a local-time one for partial-order reduction) can offer the same
//! two calls.

use zeno_ir::{EdgeId, EvalError, ProcId};

use super::Limit;
use super::active::ActiveClocks;
use super::dbm::Dbm;
use super::semantics::{ErrorAt, Model, TransitionBuf, Watch};

/// The successors of one transition from one state: the transition, the
/// new discrete part and its zones, abstracted (at least one zone, at most
/// a few: see [`Model::successor`]).
pub struct Successors<'g> {
    pub edges: &'g [(ProcId, EdgeId)],
    pub key: &'g [i32],
    pub zones: &'g mut [Dbm],
}

/// Why a state's transitions could not be listed.
pub enum Unlisted {
    /// An edge's evaluation failed (a model error).
    Error(ErrorAt),
    /// The watch stopped a long enumeration: the list is incomplete.
    Stopped(Limit),
}

/// The zone graph of a model, with the abstraction the search stores.
pub struct ZoneGraph<'m> {
    model: &'m Model<'m>,
    /// Set: the inactive clocks of every state are freed (`active.rs`).
    active: Option<&'m ActiveClocks>,
    transitions: TransitionBuf,
    new_key: Vec<i32>,
    zones: Vec<Dbm>,
    lower: Vec<i32>,
    upper: Vec<i32>,
    active_buf: Vec<u16>,
}

impl<'m> ZoneGraph<'m> {
    /// The zone graph of `model`, freeing the clocks `active` calls
    /// inactive when it is given.
    pub fn new(model: &'m Model<'m>, active: Option<&'m ActiveClocks>) -> ZoneGraph<'m> {
        ZoneGraph {
            model,
            active,
            transitions: TransitionBuf::default(),
            new_key: Vec::new(),
            zones: vec![Dbm::zero(model.dim)],
            lower: Vec::new(),
            upper: Vec::new(),
            active_buf: Vec::new(),
        }
    }

    /// What listing the transitions polls (a broadcast's combinations can
    /// be exponentially many); `None`: never stops.
    pub fn watch(&mut self, watch: Option<Watch>) {
        self.transitions.watch = watch;
    }

    /// Whether a watch is set.
    pub fn watched(&self) -> bool {
        self.transitions.watch.is_some()
    }

    /// The initial state, abstracted; `Ok(None)` when its invariants are
    /// unsatisfiable.
    pub fn initial(&mut self) -> Result<Option<(Vec<i32>, Dbm)>, EvalError> {
        let Some((key, mut zone)) = self.model.initial()? else {
            return Ok(None);
        };
        self.abstract_zone(&key, &mut zone);
        Ok(Some((key, zone)))
    }

    /// The abstraction of a zone of discrete part `key`: extrapolated, and
    /// its inactive clocks freed.
    pub fn abstract_zone(&mut self, key: &[i32], zone: &mut Dbm) {
        self.model
            .extrapolate(key, zone, &mut self.lower, &mut self.upper);
        if let Some(a) = self.active {
            a.free_inactive(self.model.locs(key), zone, &mut self.active_buf);
        }
    }

    /// Lists the transitions enabled on the data of discrete part `key` and
    /// returns how many there are.
    pub fn transitions(&mut self, key: &[i32]) -> Result<usize, Unlisted> {
        self.model
            .transitions(key, &mut self.transitions)
            .map_err(Unlisted::Error)?;
        match self.transitions.stopped {
            Some(limit) => Err(Unlisted::Stopped(limit)),
            None => Ok(self.transitions.len()),
        }
    }

    /// Transition `k` of the last [`ZoneGraph::transitions`].
    pub fn edges(&self, k: usize) -> &[(ProcId, EdgeId)] {
        self.transitions.get(k)
    }

    /// The successors of (`key`, `zone`) by transition `k` of the last
    /// [`ZoneGraph::transitions`] of `key`, abstracted; `Ok(None)` when it
    /// is disabled in the zone, `Err` a model error of its evaluation.
    pub fn next(
        &mut self,
        key: &[i32],
        zone: &Dbm,
        k: usize,
    ) -> Result<Option<Successors<'_>>, EvalError> {
        let edges = self.transitions.get(k);
        let n = self
            .model
            .successor(key, zone, edges, &mut self.new_key, &mut self.zones)?;
        if n == 0 {
            return Ok(None);
        }
        for z in &mut self.zones[..n] {
            self.model
                .extrapolate(&self.new_key, z, &mut self.lower, &mut self.upper);
            if let Some(a) = self.active {
                a.free_inactive(self.model.locs(&self.new_key), z, &mut self.active_buf);
            }
        }
        Ok(Some(Successors {
            edges,
            key: &self.new_key,
            zones: &mut self.zones[..n],
        }))
    }
}
