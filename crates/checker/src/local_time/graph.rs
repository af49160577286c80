//! The local-time zone graph of a network: its initial state, the
//! successor of a transition, and where the goal holds.
//!
//! The steps are TChecker's "elapsed" semantics over reference clocks:
//! synchronise the reference clocks of the processes taking part (and of
//! those whose taking part is decided at that moment: every potential
//! receiver of a broadcast, every participant of a vector), intersect with
//! the guards, run the updates and resets, intersect with the invariants,
//! then let every process that may delay (not in an urgent location)
//! delay on its own, and intersect with the invariants again.

use std::cell::Cell;

use crate::dbm::{Dbm, Raw, bound};
use crate::goal::{self, Goal};
use crate::lu::LuTable;
use crate::semantics::{Model, TransitionBuf};
use zeno_ir::{ChannelKind, ClockConstraint, EdgeId, EvalError, LocationKind, ProcId};

use super::refdbm;
use super::support::Layout;

pub struct LocalGraph<'a> {
    pub model: &'a Model<'a>,
    pub layout: Layout,
    lu: LuTable,
    /// `vectors_of[p][e]`: the synchronisation vectors that name edge
    /// `e`'s label for process `p`.
    vectors_of: Vec<Vec<Vec<usize>>>,
    lower: Vec<i32>,
    upper: Vec<i32>,
    /// The invariant constraints [`Self::elapse`] collects, kept to reuse
    /// the allocation.
    invariant_buf: Cell<Vec<(usize, usize, Raw)>>,
}

impl<'a> LocalGraph<'a> {
    pub fn new(model: &'a Model<'a>, layout: Layout, lu: LuTable) -> LocalGraph<'a> {
        let net = model.net;
        let vectors_of =
            net.processes
                .iter()
                .enumerate()
                .map(|(p, proc_)| {
                    proc_
                        .edges
                        .iter()
                        .map(|e| {
                            let Some(label) = &e.label else {
                                return Vec::new();
                            };
                            (0..net.vectors.len())
                                .filter(|&v| {
                                    net.vectors[v].participants.iter().any(|part| {
                                        part.process as usize == p && &part.label == label
                                    })
                                })
                                .collect()
                        })
                        .collect()
                })
                .collect();
        LocalGraph {
            model,
            layout,
            lu,
            vectors_of,
            lower: vec![0; net.dbm_dim()],
            upper: vec![0; net.dbm_dim()],
            invariant_buf: Cell::new(Vec::new()),
        }
    }

    /// Whether edge `e` of process `p` moves its process alone: no channel
    /// and no synchronisation vector names it.
    pub fn moves_alone(&self, p: ProcId, e: EdgeId) -> bool {
        self.model.net.processes[p as usize].edges[e as usize]
            .sync
            .is_none()
            && self.vectors_of[p as usize][e as usize].is_empty()
    }

    /// Dimension of a zone of this graph.
    pub fn dim(&self) -> usize {
        self.layout.dim
    }

    fn constrain(
        &self,
        zone: &mut Dbm,
        c: &ClockConstraint,
        vars: &[i32],
    ) -> Result<bool, EvalError> {
        let b = c.bound.eval(vars)?;
        let (i, j) = self.layout.translate(c.i, c.j);
        Ok(zone.constrain(i, j, bound::raw(b, c.strict)))
    }

    /// Intersects `zone` with every process's invariant; `false` when empty
    /// or when a data invariant is false.
    pub fn invariants(&self, key: &[i32], zone: &mut Dbm) -> Result<bool, EvalError> {
        let vars = self.model.vars(key);
        for (p, proc_) in self.model.net.processes.iter().enumerate() {
            let loc = &proc_.locations[key[p] as usize];
            if let Some(d) = &loc.data_invariant
                && d.eval(vars)? == 0
            {
                return Ok(false);
            }
            for c in &loc.invariant {
                if !self.constrain(zone, c, vars)? {
                    return Ok(false);
                }
            }
        }
        Ok(!zone.is_empty())
    }

    /// Every process not in an urgent or committed location lets its own
    /// time pass, then the invariants again (`refdbm::open_up_within`: the
    /// invariants' upper bounds in O(n) each, not O(n²)).
    pub fn elapse(&self, key: &[i32], zone: &mut Dbm) -> Result<bool, EvalError> {
        let vars = self.model.vars(key);
        let mut invariant = self.invariant_buf.take();
        invariant.clear();
        for (p, proc_) in self.model.net.processes.iter().enumerate() {
            let loc = &proc_.locations[key[p] as usize];
            if let Some(d) = &loc.data_invariant
                && d.eval(vars)? == 0
            {
                self.invariant_buf.set(invariant);
                return Ok(false);
            }
            for c in &loc.invariant {
                let (i, j) = self.layout.translate(c.i, c.j);
                invariant.push((i, j, bound::raw(c.bound.eval(vars)?, c.strict)));
            }
        }
        let processes = &self.model.net.processes;
        let nproc = self.layout.nproc;
        let opened = |p: usize| {
            p < nproc && processes[p].locations[key[p] as usize].kind == LocationKind::Normal
        };
        let nonempty = refdbm::open_up_within(zone, opened, &invariant);
        self.invariant_buf.set(invariant);
        Ok(nonempty)
    }

    /// The initial state (all clocks and reference clocks 0, invariants,
    /// local delays); `None` when the initial invariants are false.
    pub fn initial(&self) -> Result<Option<(Vec<i32>, Dbm)>, EvalError> {
        let key = self.model.initial_key();
        let mut zone = Dbm::zero(self.dim());
        if !self.invariants(&key, &mut zone)?
            || !self.elapse(&key, &mut zone)?
            || !refdbm::is_synchronisable(&zone, self.layout.nproc)
        {
            return Ok(None);
        }
        Ok(Some((key, zone)))
    }

    /// The processes whose reference clocks a transition synchronises.
    pub fn sync_group(
        &self,
        key: &[i32],
        edges: &[(ProcId, EdgeId)],
        out: &mut Vec<usize>,
    ) -> Result<(), EvalError> {
        out.clear();
        let net = self.model.net;
        let add = |p: usize, out: &mut Vec<usize>| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        for &(p, _) in edges {
            add(p as usize, out);
        }
        // A vector transition also synchronises the vector's weak
        // participants that stay out: staying out is decided now. The
        // transition's vector is one that names every edge of it and whose
        // strong participants all take part.
        if let Some(&(p, e)) = edges.first() {
            for &v in &self.vectors_of[p as usize][e as usize] {
                let parts = &net.vectors[v].participants;
                let names_all = edges.iter().all(|&(q, f)| {
                    let label = net.processes[q as usize].edges[f as usize].label.as_deref();
                    parts
                        .iter()
                        .any(|part| part.process == q && Some(part.label.as_str()) == label)
                });
                let strong_in = parts
                    .iter()
                    .all(|part| part.weak || edges.iter().any(|&(q, _)| q == part.process));
                if names_all && strong_in {
                    for &q in &self.layout.vector_group[v] {
                        add(q as usize, out);
                    }
                }
            }
        }
        if let Some(&(p, e)) = edges.first()
            && let Some(s) = &net.processes[p as usize].edges[e as usize].sync
        {
            let c = s.channel.resolve(self.model.vars(key))?;
            if net
                .channels
                .get(c as usize)
                .is_some_and(|ch| ch.kind == ChannelKind::Broadcast)
            {
                for &q in &self.layout.broadcast_group[c as usize] {
                    add(q as usize, out);
                }
            }
        }
        Ok(())
    }

    /// The successor of `edges` from (`key`, `zone`) into `new_key` and
    /// `out`; `false` when the transition is disabled, or when the
    /// successor has no synchronised valuation (TChecker's "sync elapsed"
    /// semantics): every run of the network has an interleaving, its moves
    /// sorted by time, whose every prefix ends in a synchronisable zone (the
    /// processes that moved earlier can wait until the last move), so
    /// dropping the others loses no run.
    pub fn successor(
        &self,
        key: &[i32],
        zone: &Dbm,
        edges: &[(ProcId, EdgeId)],
        group: &mut Vec<usize>,
        new_key: &mut Vec<i32>,
        out: &mut Dbm,
    ) -> Result<bool, EvalError> {
        out.assign(zone);
        if !self.fire(key, edges, group, new_key, out, |_| true)? {
            return Ok(false);
        }
        Ok(self.elapse(new_key, out)? && refdbm::is_synchronisable(out, self.layout.nproc))
    }

    /// Synchronisation, guards, (`at_firing`, which may constrain the zone
    /// further), updates, resets and target invariants of one transition:
    /// everything but the final local delays.
    pub fn fire(
        &self,
        key: &[i32],
        edges: &[(ProcId, EdgeId)],
        group: &mut Vec<usize>,
        new_key: &mut Vec<i32>,
        zone: &mut Dbm,
        at_firing: impl FnOnce(&mut Dbm) -> bool,
    ) -> Result<bool, EvalError> {
        self.sync_group(key, edges, group)?;
        if !refdbm::synchronise(zone, group.iter().copied()) {
            return Ok(false);
        }
        let vars = self.model.vars(key);
        for &(p, e) in edges {
            for c in &self.model.net.processes[p as usize].edges[e as usize].clock_guard {
                if !self.constrain(zone, c, vars)? {
                    return Ok(false);
                }
            }
        }
        if !at_firing(zone) {
            return Ok(false);
        }
        new_key.clear();
        new_key.extend_from_slice(key);
        let layout = &self.layout;
        self.model.update_with(new_key, edges, &mut |x, v| {
            refdbm::reset(zone, layout.offset(x as u32), layout.owner[x], v)
        })?;
        self.invariants(new_key, zone)
    }

    /// The ordinary zone (clock 0 the common time) of the synchronised
    /// valuations of `zone`, `None` when it has none.
    pub fn synchronised(&self, zone: &Dbm) -> Option<Dbm> {
        let mut s = zone.clone();
        if !refdbm::synchronise(&mut s, 0..self.layout.nproc) {
            return None;
        }
        let n = self.model.dim;
        let map = |c: usize| {
            if c == 0 {
                0
            } else {
                self.layout.offset(c as u32)
            }
        };
        let mut m = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                m.push(s.get(map(i), map(j)));
            }
        }
        // A square sub-matrix of a canonical zone in which the dropped
        // reference clocks equal t_0: canonical too.
        Some(Dbm::from_canonical(n, m))
    }

    /// Whether the state is a goal state: its discrete part satisfies the
    /// goal and, with clocks, some synchronised valuation does.
    pub fn is_goal(
        &self,
        goal: &Goal,
        key: &[i32],
        zone: &Dbm,
        buf: &mut TransitionBuf,
    ) -> Result<bool, EvalError> {
        if !goal::is_symbolic(&goal.formula) {
            return Ok(goal::discrete(self.model, &goal.formula, key)?
                && refdbm::is_synchronisable(zone, self.layout.nproc));
        }
        let Some(sync) = self.synchronised(zone) else {
            return Ok(false);
        };
        if let Some(e) = goal.error(self.model, key, &sync, buf) {
            return Err(e);
        }
        Ok(!goal.satisfied(self.model, key, &sync, buf).is_empty())
    }

    /// Fills the LU bounds of `key`'s locations for [`Self::subsumed_filled`].
    pub fn fill_bounds(&mut self, key: &[i32]) {
        self.lu
            .fill(self.model.locs(key), &mut self.lower, &mut self.upper);
    }

    /// The `refdbm::sync_thresholds` of a zone with `mins` for the bounds
    /// of the last [`Self::fill_bounds`].
    pub fn thresholds_filled(&self, mins: &[Raw], out: &mut Vec<Raw>) {
        // Offset x's clock is x - nproc + 1; clock 0 has no bounds.
        refdbm::sync_thresholds(mins, &self.upper[1..], out);
    }

    /// `z1 ⊑ z2`, `z1` with its [`Self::thresholds_filled`] and `z2` with
    /// its `refdbm::ref_mins`, with the bounds of the last
    /// [`Self::fill_bounds`].
    pub fn subsumed_filled(&self, z1: (&Dbm, &[Raw]), z2: (&Dbm, &[Raw])) -> bool {
        refdbm::sync_alu_le(z1, z2, self.layout.nproc, &self.lower[1..])
    }
}
