//! The symbolic semantics of a network (as UPPAAL): which transitions are
//! enabled in a discrete state, and the zone successor of a transition.
//!
//! A discrete state is one `i32` slice: the location of every process, then
//! the value of every variable slot.
#![allow(clippy::needless_range_loop)] // index loops over parallel tables read best

use zeno_ir::{
    ChanId, ChannelKind, ClockConstraint, EdgeId, ErrorKind, EvalError, LocationKind, Network,
    ProcId, SyncDir, Update,
};

use super::choices::Choices;
use super::dbm::{Dbm, bound};
use super::diagonal::Diagonals;
use super::lu::LuTable;

mod priority;

/// A transition enabled on the data part, or the edge whose evaluation failed.
pub type Edges = [(ProcId, EdgeId)];

/// Where an evaluation error happened: the edges being considered.
#[derive(Debug, Clone)]
pub struct ErrorAt {
    /// The edges whose guards or updates were being evaluated.
    pub edges: Vec<(ProcId, EdgeId)>,
    /// What went wrong.
    pub error: EvalError,
}

/// The stop conditions a long enumeration of transitions polls: a broadcast
/// with many receivers, each with several enabled receiving edges, has
/// exponentially many combinations, so one state's transitions can take
/// longer than the time limit, or more memory than the budget.
#[derive(Debug, Clone)]
pub struct Watch {
    /// The run's cancel flag.
    pub cancel: super::Cancel,
    /// When the run's time limit ends, if it has one.
    pub deadline: Option<std::time::Instant>,
}

impl Watch {
    fn reason(&self) -> Option<super::Limit> {
        if self.cancel.is_cancelled() {
            Some(super::Limit::Cancelled)
        } else if self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            Some(super::Limit::Time)
        } else if zeno_base::memory::over_budget() {
            Some(super::Limit::Memory)
        } else {
            None
        }
    }
}

/// How many broadcast combinations are built between two polls of the
/// [`Watch`]: rare enough to cost nothing, often enough to stop in time.
const POLL_EVERY: usize = 1 << 10;

/// Transitions of one discrete state, stored flat to avoid an allocation per
/// transition.
#[derive(Default)]
pub struct TransitionBuf {
    /// The edges of every transition, one after the other.
    pub edges: Vec<(ProcId, EdgeId)>,
    /// Where each transition's edges end in `edges`.
    pub ends: Vec<usize>,
    /// Polled while broadcast combinations are built (none: never stops).
    pub watch: Option<Watch>,
    /// Set when the watch stopped the enumeration: the transitions are
    /// incomplete and the search must stop with this limit.
    pub stopped: Option<super::Limit>,
    senders: Vec<(ProcId, EdgeId, ChanId)>,
    receivers: Vec<(ProcId, EdgeId, ChanId)>,
    /// Per receiving process: its slice of `receivers` and how many options it has.
    choice: Vec<(usize, usize, usize)>,
}

impl TransitionBuf {
    /// How many transitions there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The edges of the `k`-th transition.
    pub fn get(&self, k: usize) -> &Edges {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.edges[start..self.ends[k]]
    }

    fn clear(&mut self) {
        self.edges.clear();
        self.ends.clear();
        self.senders.clear();
        self.receivers.clear();
        self.stopped = None;
    }

    fn push(&mut self, edges: &[(ProcId, EdgeId)]) {
        self.edges.extend_from_slice(edges);
        self.ends.push(self.edges.len());
    }
}

/// A network's symbolic semantics, set up for one goal: its edges by
/// source location and its clock bounds (the searches and the simulator
/// step through this).
pub struct Model<'a> {
    /// The network.
    pub net: &'a Network,
    /// How many processes it has (the locations at the start of a state).
    pub nproc: usize,
    /// The zones' dimension: the clocks and the reference clock.
    pub dim: usize,
    /// `out[p][l]`: edges of process `p` leaving location `l`.
    out: Vec<Vec<Vec<EdgeId>>>,
    lu: LuTable,
    /// Whether successors are split and extrapolated for a search (off in
    /// the simulator, which shows exact zones).
    pub extrapolate: bool,
    /// The diagonal constraints' hyperplanes, when the network has any:
    /// successors are split along them and extrapolated with Extra_M
    /// (`diagonal.rs`) instead of Extra+_LU.
    diagonals: Option<Diagonals>,
    has_urgent_channel: bool,
    /// Some edge receiving on a broadcast channel has a clock guard.
    clocked_broadcast: bool,
    /// Some location stops a clock (`x' == 0`).
    stopwatches: bool,
    /// The network has channel or process priorities (`priority.rs`).
    has_priorities: bool,
    /// `in_vector[p][e]`: the edge's label is named by some synchronisation
    /// vector for its process, so it never moves alone.
    in_vector: Vec<Vec<bool>>,
    /// Per vector, per participant: the participant's edges by source
    /// location (`[loc] -> edges`), and whether it is weak.
    vectors: Vec<Vec<VectorSlot>>,
}

/// One participant of a synchronisation vector, prepared for lookup.
struct VectorSlot {
    process: ProcId,
    weak: bool,
    /// `edges[l]`: the participant's edges with its label leaving location `l`.
    edges: Vec<Vec<EdgeId>>,
}

/// For each vector and participant, the labelled edges by source location;
/// and which edges belong to some vector.
fn prepare_vectors(net: &Network) -> (Vec<Vec<bool>>, Vec<Vec<VectorSlot>>) {
    let mut in_vector: Vec<Vec<bool>> = net
        .processes
        .iter()
        .map(|p| vec![false; p.edges.len()])
        .collect();
    let vectors = net
        .vectors
        .iter()
        .map(|v| {
            v.participants
                .iter()
                .filter_map(|part| {
                    let proc_ = net.processes.get(part.process as usize)?;
                    let mut edges = vec![Vec::new(); proc_.locations.len()];
                    for (k, e) in proc_.edges.iter().enumerate() {
                        if e.label.as_deref() == Some(part.label.as_str())
                            && let Some(v) = edges.get_mut(e.source as usize)
                        {
                            v.push(k as EdgeId);
                            in_vector[part.process as usize][k] = true;
                        }
                    }
                    Some(VectorSlot {
                        process: part.process,
                        weak: part.weak,
                        edges,
                    })
                })
                .collect()
        })
        .collect();
    (in_vector, vectors)
}

fn truth(e: &Option<zeno_ir::Expr>, vars: &[i32]) -> Result<bool, EvalError> {
    match e {
        None => Ok(true),
        Some(e) => Ok(e.eval(vars)? != 0),
    }
}

impl<'a> Model<'a> {
    /// The largest clock constant of the network beyond what a zone holds
    /// (see `LuTable::beyond_zones`): searching would compare with a wrong
    /// bound, so the searches stop with `Limit::ClockRange` instead.
    pub fn beyond_zones(&self) -> Option<i64> {
        self.lu.beyond_zones
    }

    /// The model of `net`, with clock bounds for the check of `goal`.
    pub fn new(net: &'a Network, goal: &zeno_ir::Formula) -> Model<'a> {
        let out = net
            .processes
            .iter()
            .map(|p| {
                let mut out = vec![Vec::new(); p.locations.len()];
                for (k, e) in p.edges.iter().enumerate() {
                    if let Some(v) = out.get_mut(e.source as usize) {
                        v.push(k as EdgeId);
                    }
                }
                out
            })
            .collect();
        let lu = LuTable::new(net, goal);
        // Too many hyperplanes: no extrapolation at all (exact, but only
        // the limits end the search).
        let diagonals = lu.has_diagonal.then(|| Diagonals::new(net, goal)).flatten();
        let (in_vector, vectors) = prepare_vectors(net);
        Model {
            in_vector,
            vectors,
            net,
            nproc: net.processes.len(),
            dim: net.dbm_dim(),
            out,
            extrapolate: !lu.has_diagonal || diagonals.is_some(),
            diagonals,
            lu,
            has_urgent_channel: net.channels.iter().any(|c| c.urgent),
            has_priorities: !net.priorities.is_empty(),
            clocked_broadcast: net.has_clocked_broadcast_receiver(),
            stopwatches: net.has_stopwatches(),
        }
    }

    /// Whether some location stops a clock (`x' == 0`).
    pub fn has_stopwatches(&self) -> bool {
        self.stopwatches
    }

    /// The rate of every clock in the discrete state `key` (`true`: it
    /// runs; index 0, the reference clock, is `false`), or `None` when one
    /// location stops a clock that another says runs (`x' == 1`): the
    /// invariants then allow no delay.
    pub fn rates(&self, key: &[i32]) -> Option<Vec<bool>> {
        let mut running = vec![true; self.dim];
        running[0] = false;
        if !self.stopwatches {
            return Some(running);
        }
        let vars = self.vars(key);
        // A rate given by data (`x' == b`) is 0 or 1 in every state that
        // exists: `invariants` reports any other value (or an evaluation
        // error) as a run-time error before a delay is asked for. Should
        // one be asked for anyway, no delay is allowed.
        let data_rate = |e: &crate::ir::Expr| match e.eval(vars) {
            Ok(v @ (0 | 1)) => Some(v == 1),
            _ => None,
        };
        for p in 0..self.nproc {
            let loc = &self.net.processes[p].locations[key[p] as usize];
            for &x in &loc.stopped {
                running[x as usize] = false;
            }
            for (x, e) in &loc.data_rates {
                if !data_rate(e)? {
                    running[*x as usize] = false;
                }
            }
        }
        for p in 0..self.nproc {
            let loc = &self.net.processes[p].locations[key[p] as usize];
            if loc.running.iter().any(|&x| !running[x as usize]) {
                return None;
            }
            for (x, e) in &loc.data_rates {
                if data_rate(e)? && !running[*x as usize] {
                    return None;
                }
            }
        }
        Some(running)
    }

    /// Checks that the rates `loc` gives by data (`x' == b`) are 0 or 1 on
    /// the variables `vars` (a run-time error of the model otherwise).
    fn check_data_rates(&self, loc: &crate::ir::Location, vars: &[i32]) -> Result<(), EvalError> {
        for (_, e) in &loc.data_rates {
            match e.eval(vars)? {
                0 | 1 => {}
                value => return Err(ErrorKind::ClockRate { value }.into()),
            }
        }
        Ok(())
    }

    /// The valuations of `zone` from which some delay in the discrete state
    /// `key` leads into it (`Dbm::down`, with the state's rates).
    pub fn down(&self, key: &[i32], zone: &mut Dbm) {
        match self.stopwatches.then(|| self.rates(key)).flatten() {
            Some(running) => zone.down_with_rates(&running),
            None => zone.down(),
        }
    }

    /// The LU bounds for aLU subsumption (`alu.rs`), where the LU
    /// simulation is one: not with diagonal constraints, nor with
    /// stopwatches (a stopped clock does not keep pace with the others, so
    /// a state the simulation relates to a stored one need not reach what
    /// it reaches; plain inclusion stays sound on the over-approximation).
    pub fn alu_bounds(&self) -> Option<&LuTable> {
        (!self.lu.has_diagonal && !self.stopwatches).then_some(&self.lu)
    }

    /// The initial discrete state.
    pub fn initial_key(&self) -> Vec<i32> {
        let mut k: Vec<i32> = self
            .net
            .initial_locations()
            .iter()
            .map(|&l| l as i32)
            .collect();
        k.extend(self.net.initial_variables());
        k
    }

    /// The locations part of the discrete state `key`.
    pub fn locs<'k>(&self, key: &'k [i32]) -> &'k [i32] {
        &key[..self.nproc]
    }

    /// The final value of every clock `edges` reset from the discrete
    /// state `key`, in update order (a later reset of the same clock wins):
    /// what a concrete step sets. A reset inside a function depends on the
    /// state, so the updates are run (on a copy of `key`).
    pub fn final_resets(
        &self,
        key: &[i32],
        edges: &[(ProcId, EdgeId)],
    ) -> Result<Vec<(usize, i32)>, EvalError> {
        let mut next = key.to_vec();
        let mut out: Vec<(usize, i32)> = Vec::new();
        self.update_with(&mut next, edges, &mut |x, v| {
            out.retain(|r| r.0 != x);
            out.push((x, v));
        })?;
        Ok(out)
    }

    /// The variables part of the discrete state `key`.
    pub fn vars<'k>(&self, key: &'k [i32]) -> &'k [i32] {
        &key[self.nproc..]
    }

    fn edge(&self, p: ProcId, e: EdgeId) -> &zeno_ir::Edge {
        &self.net.processes[p as usize].edges[e as usize]
    }

    /// For a broadcast, the zone pieces of `zone` where no receiving edge of
    /// a process left out of `edges` is enabled (UPPAAL's broadcast takes
    /// every enabled receiver). Writes `zone` itself when nothing is left out.
    pub fn split_broadcast(
        &self,
        key: &[i32],
        edges: &Edges,
        zone: &Dbm,
        out: &mut Vec<Dbm>,
    ) -> Result<(), EvalError> {
        out.clear();
        out.push(zone.clone());
        let Some(&(p, e)) = edges.first() else {
            return Ok(());
        };
        let vars = self.vars(key);
        let Some(s) = &self.edge(p, e).sync else {
            return Ok(());
        };
        let c = s.channel.resolve(vars)?;
        if self.net.channels[c as usize].kind != ChannelKind::Broadcast {
            return Ok(());
        }
        for q in 0..self.nproc as ProcId {
            if q == p || edges.iter().any(|&(r, _)| r == q) {
                continue;
            }
            for &f in &self.out[q as usize][key[q as usize] as usize] {
                let edge = self.edge(q, f);
                let Some(t) = &edge.sync else { continue };
                if t.dir != SyncDir::Receive
                    || !truth(&edge.guard, vars)?
                    || t.channel.resolve(vars)? != c
                {
                    continue;
                }
                let mut guard = Dbm::universe(self.dim);
                if self.constrain_all(&mut guard, &edge.clock_guard, vars)? {
                    *out = super::dbm::subtract_all(out, &guard);
                }
            }
        }
        Ok(())
    }

    /// The zone pieces of `zone` (already within the guards of `edges`)
    /// from which `edges` may fire: no left-out broadcast receiver could
    /// join (`split_broadcast`) and no transition of a higher priority is
    /// enabled (`priority.rs`).
    pub fn split_enabled(
        &self,
        key: &[i32],
        edges: &Edges,
        zone: &Dbm,
        out: &mut Vec<Dbm>,
    ) -> Result<(), EvalError> {
        self.split_broadcast(key, edges, zone, out)?;
        if self.has_priorities {
            self.subtract_blockers(key, edges, out)?;
        }
        Ok(())
    }

    fn kind(&self, p: usize, loc: i32) -> LocationKind {
        self.net.processes[p].locations[loc as usize].kind
    }

    fn committed(&self, key: &[i32]) -> bool {
        (0..self.nproc).any(|p| self.kind(p, key[p]) == LocationKind::Committed)
    }

    /// Every transition enabled by the data part of its guards (clock guards
    /// are left to the zone), respecting committed locations.
    pub fn transitions(&self, key: &[i32], buf: &mut TransitionBuf) -> Result<(), ErrorAt> {
        buf.clear();
        let vars = self.vars(key);
        let committed = self.committed(key);
        let is_committed =
            |p: ProcId| self.kind(p as usize, key[p as usize]) == LocationKind::Committed;
        for p in 0..self.nproc {
            let proc_ = &self.net.processes[p];
            for &e in &self.out[p][key[p] as usize] {
                let edge = &proc_.edges[e as usize];
                let at = |error| ErrorAt {
                    edges: vec![(p as ProcId, e)],
                    error,
                };
                if !truth(&edge.guard, vars).map_err(at)? {
                    continue;
                }
                match &edge.sync {
                    // Moves only in its vectors, below.
                    None if self.in_vector[p][e as usize] => {}
                    None => {
                        if !committed || is_committed(p as ProcId) {
                            buf.push(&[(p as ProcId, e)]);
                        }
                    }
                    Some(s) => {
                        let c = s.channel.resolve(vars).map_err(at)?;
                        if c as usize >= self.net.channels.len() {
                            continue;
                        }
                        match s.dir {
                            SyncDir::Send => buf.senders.push((p as ProcId, e, c)),
                            SyncDir::Receive => buf.receivers.push((p as ProcId, e, c)),
                        }
                    }
                }
            }
        }
        let mut tmp: Vec<(ProcId, EdgeId)> = Vec::new();
        for si in 0..buf.senders.len() {
            let (p, e, c) = buf.senders[si];
            match self.net.channels[c as usize].kind {
                ChannelKind::Binary => {
                    for ri in 0..buf.receivers.len() {
                        let (q, f, d) = buf.receivers[ri];
                        if d != c || q == p {
                            continue;
                        }
                        if committed && !is_committed(p) && !is_committed(q) {
                            continue;
                        }
                        buf.push(&[(p, e), (q, f)]);
                    }
                }
                ChannelKind::Broadcast => {
                    // One choice of receiving edge per process that has one;
                    // a process whose receiving edges have clock guards may
                    // also stay out (where those guards are false, see
                    // `split_broadcast`).
                    buf.choice.clear();
                    let mut k = 0;
                    while k < buf.receivers.len() {
                        let q = buf.receivers[k].0;
                        let start = k;
                        while k < buf.receivers.len() && buf.receivers[k].0 == q {
                            k += 1;
                        }
                        let on_c = || buf.receivers[start..k].iter().filter(|r| r.2 == c);
                        let n = on_c().count();
                        let clocked = on_c().any(|r| !self.edge(r.0, r.1).clock_guard.is_empty());
                        if q != p && n > 0 {
                            buf.choice.push((start, k, n + clocked as usize));
                        }
                    }
                    // Every product of the choices; a digit past the
                    // receiving edges is staying out.
                    let mut choices = Choices::new(buf.choice.iter().map(|g| g.2));
                    let mut built = 0usize;
                    while let Some(idx) = choices.next_choice() {
                        built += 1;
                        if built.is_multiple_of(POLL_EVERY)
                            && let Some(limit) = buf.watch.as_ref().and_then(Watch::reason)
                        {
                            buf.stopped = Some(limit);
                            return Ok(());
                        }
                        tmp.clear();
                        tmp.push((p, e));
                        let mut any_committed = is_committed(p);
                        for (&(start, end, _), &i) in buf.choice.iter().zip(idx) {
                            let r = buf.receivers[start..end].iter().filter(|r| r.2 == c).nth(i);
                            if let Some(&(q, f, _)) = r {
                                any_committed |= is_committed(q);
                                tmp.push((q, f));
                            }
                        }
                        if !committed || any_committed {
                            buf.push(&tmp);
                        }
                    }
                }
            }
        }
        self.vector_transitions(key, committed, buf)
    }

    /// The transitions of the synchronisation vectors: one per choice of an
    /// enabled labelled edge for every strong participant and for every weak
    /// participant that has one (a weak participant without one stays out).
    /// Edges are listed in participant order, so updates run in that order.
    fn vector_transitions(
        &self,
        key: &[i32],
        committed: bool,
        buf: &mut TransitionBuf,
    ) -> Result<(), ErrorAt> {
        let vars = self.vars(key);
        let mut options: Vec<Vec<(ProcId, EdgeId)>> = Vec::new();
        let mut tmp: Vec<(ProcId, EdgeId)> = Vec::new();
        'vectors: for slots in &self.vectors {
            options.clear();
            for slot in slots {
                let p = slot.process;
                let mut enabled = Vec::new();
                for &e in &slot.edges[key[p as usize] as usize] {
                    let edge = self.edge(p, e);
                    let ok = truth(&edge.guard, vars).map_err(|error| ErrorAt {
                        edges: vec![(p, e)],
                        error,
                    })?;
                    if ok {
                        enabled.push((p, e));
                    }
                }
                if enabled.is_empty() && !slot.weak {
                    continue 'vectors;
                }
                options.push(enabled);
            }
            // Every product of the choices; a weak participant without an
            // enabled edge has the one choice of contributing nothing.
            let mut choices = Choices::new(options.iter().map(|o| o.len().max(1)));
            while let Some(idx) = choices.next_choice() {
                tmp.clear();
                tmp.extend(options.iter().zip(idx).filter_map(|(o, &i)| o.get(i)));
                let any_committed = tmp.iter().any(|&(q, _)| {
                    self.kind(q as usize, key[q as usize]) == LocationKind::Committed
                });
                if !tmp.is_empty() && (!committed || any_committed) {
                    buf.push(&tmp);
                }
            }
        }
        Ok(())
    }

    /// Whether time may pass in this discrete state: no urgent or committed
    /// location, and no synchronisation on an urgent channel enabled (decided
    /// on the data part; clock guards are not allowed on urgent channels).
    pub fn can_delay(&self, key: &[i32]) -> bool {
        if (0..self.nproc).any(|p| self.kind(p, key[p]) != LocationKind::Normal) {
            return false;
        }
        if self.stopwatches && self.rates(key).is_none() {
            return false;
        }
        if !self.has_urgent_channel {
            return true;
        }
        let vars = self.vars(key);
        let mut senders: Vec<(usize, ChanId)> = Vec::new();
        let mut receivers: Vec<(usize, ChanId)> = Vec::new();
        for p in 0..self.nproc {
            let proc_ = &self.net.processes[p];
            for &e in &self.out[p][key[p] as usize] {
                let edge = &proc_.edges[e as usize];
                let Some(s) = &edge.sync else { continue };
                // An evaluation error is reported when the state is expanded.
                let Ok(true) = truth(&edge.guard, vars) else {
                    continue;
                };
                let Ok(c) = s.channel.resolve(vars) else {
                    continue;
                };
                let Some(ch) = self.net.channels.get(c as usize) else {
                    continue;
                };
                if !ch.urgent {
                    continue;
                }
                match s.dir {
                    SyncDir::Send => senders.push((p, c)),
                    SyncDir::Receive => receivers.push((p, c)),
                }
            }
        }
        for &(p, c) in &senders {
            if self.net.channels[c as usize].kind == ChannelKind::Broadcast {
                return false;
            }
            if receivers.iter().any(|&(q, d)| d == c && q != p) {
                return false;
            }
        }
        true
    }

    /// Intersects `zone` with a conjunction of clock constraints whose bounds
    /// are evaluated on `vars`.
    pub fn constrain_all(
        &self,
        zone: &mut Dbm,
        cs: &[ClockConstraint],
        vars: &[i32],
    ) -> Result<bool, EvalError> {
        for c in cs {
            let b = c.bound.eval(vars)?;
            if !zone.constrain(c.i as usize, c.j as usize, bound::raw(b, c.strict)) {
                return Ok(false);
            }
        }
        Ok(!zone.is_empty())
    }

    /// Intersects `zone` with the invariants of every current location;
    /// `false` also when the data part of one is false (the discrete state
    /// does not exist).
    pub fn invariants(&self, key: &[i32], zone: &mut Dbm) -> Result<bool, EvalError> {
        let vars = self.vars(key);
        for p in 0..self.nproc {
            let loc = &self.net.processes[p].locations[key[p] as usize];
            if let Some(d) = &loc.data_invariant
                && d.eval(vars)? == 0
            {
                // No valuation at all: callers that look at the zone see it
                // empty (`x0 - x0 < 0`).
                zone.constrain(0, 0, bound::raw(0, true));
                return Ok(false);
            }
            self.check_data_rates(loc, vars)?;
            if !self.constrain_all(zone, &loc.invariant, vars)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Intersects `zone` with the clock guards of the edges.
    pub fn guards(&self, key: &[i32], edges: &Edges, zone: &mut Dbm) -> Result<bool, EvalError> {
        let vars = self.vars(key);
        for &(p, e) in edges {
            let edge = &self.net.processes[p as usize].edges[e as usize];
            if !self.constrain_all(zone, &edge.clock_guard, vars)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Moves the discrete state along the edges and runs their updates in
    /// order; clock resets are applied to `zone` when given.
    pub fn update(
        &self,
        key: &mut [i32],
        edges: &Edges,
        zone: Option<&mut Dbm>,
    ) -> Result<(), EvalError> {
        match zone {
            Some(z) => self.update_with(key, edges, &mut |x, v| z.reset(x, v)),
            None => self.update_with(key, edges, &mut |_, _| {}),
        }
    }

    /// [`Model::update`], with `reset(clock, value)` called for each clock
    /// reset in order: the constant `ResetClock` updates, and the resets a
    /// function makes as it runs ([`zeno_ir::Call::run_resetting`]), so
    /// nothing is allocated for them. A later reset of a clock overrides an
    /// earlier one, as applying them in order to a zone does.
    pub fn update_with(
        &self,
        key: &mut [i32],
        edges: &[(ProcId, EdgeId)],
        reset: &mut impl FnMut(usize, i32),
    ) -> Result<(), EvalError> {
        for &(p, e) in edges {
            let edge = &self.net.processes[p as usize].edges[e as usize];
            key[p as usize] = edge.target as i32;
            for u in &edge.updates {
                match u {
                    Update::Assign { target, value } => {
                        let vars = &key[self.nproc..];
                        let slot = target.resolve(vars)?;
                        let v = value.eval(vars)?;
                        let var = self.net.variables.get(slot as usize).ok_or(
                            ErrorKind::IndexOutOfBounds {
                                index: slot as i32,
                                len: self.net.variables.len() as u32,
                            },
                        )?;
                        if v < var.lo || v > var.hi {
                            return Err(ErrorKind::OutOfRange {
                                var: slot,
                                value: v,
                                lo: var.lo,
                                hi: var.hi,
                            }
                            .into());
                        }
                        key[self.nproc + slot as usize] = v;
                    }
                    Update::ResetClock { clock, value } => reset(*clock as usize, *value),
                    Update::Call(call) if call.resets_dynamically() => call
                        .run_resetting(&mut key[self.nproc..], &mut |x, v| reset(x as usize, v))?,
                    Update::Call(call) => call.run(&mut key[self.nproc..])?,
                }
            }
        }
        Ok(())
    }

    /// Delay closure of an entry zone: `up` when time may pass, then the
    /// invariants again.
    pub fn delay(&self, key: &[i32], zone: &mut Dbm) -> Result<bool, EvalError> {
        if self.can_delay(key) {
            match self.stopwatches.then(|| self.rates(key)).flatten() {
                Some(running) => zone.up_with_rates(&running),
                None => zone.up(),
            }
            self.invariants(key, zone)
        } else {
            Ok(!zone.is_empty())
        }
    }

    /// The zone successors of `edges` from (`key`, `zone`): the new discrete
    /// state goes to `new_key`, the zones to `out[..n]` (its elements are
    /// reused), and `n` is returned (0 when disabled). There is more than one
    /// zone only for a broadcast whose left-out receivers have clock guards,
    /// or where transitions of a higher priority are enabled in part of it,
    /// and, when the search extrapolates a network with diagonal
    /// constraints, where a zone lies on both sides of one of their
    /// hyperplanes (`diagonal.rs`: each piece is then extrapolated apart).
    pub fn successor(
        &self,
        key: &[i32],
        zone: &Dbm,
        edges: &Edges,
        new_key: &mut Vec<i32>,
        out: &mut Vec<Dbm>,
    ) -> Result<usize, EvalError> {
        let n = self.successor_with(key, zone, edges, new_key, out, true)?;
        Ok(match &self.diagonals {
            Some(d) if self.extrapolate => d.split(out, n),
            _ => n,
        })
    }

    /// [`Model::successor`] without the final delay: the valuations right
    /// after the transition (guards, resets, target invariants). The
    /// liveness search lets time pass itself where a formula on clocks
    /// must hold all along.
    pub fn entry_successor(
        &self,
        key: &[i32],
        zone: &Dbm,
        edges: &Edges,
        new_key: &mut Vec<i32>,
        out: &mut Vec<Dbm>,
    ) -> Result<usize, EvalError> {
        self.successor_with(key, zone, edges, new_key, out, false)
    }

    /// [`Model::successor`] without the split along diagonal constraints,
    /// with or without the final delay.
    fn successor_with(
        &self,
        key: &[i32],
        zone: &Dbm,
        edges: &Edges,
        new_key: &mut Vec<i32>,
        out: &mut Vec<Dbm>,
        delay: bool,
    ) -> Result<usize, EvalError> {
        if out.is_empty() {
            out.push(zone.clone());
        }
        out[0].assign(zone);
        if !self.guards(key, edges, &mut out[0])? {
            return Ok(0);
        }
        new_key.clear();
        new_key.extend_from_slice(key);
        if (self.clocked_broadcast || self.has_priorities) && !edges.is_empty() {
            let guarded = out[0].clone();
            let mut pieces = Vec::new();
            self.split_enabled(key, edges, &guarded, &mut pieces)?;
            if pieces.is_empty() {
                return Ok(0);
            }
            // The resets depend on the state before the updates: recorded
            // once, applied to each piece.
            let mut resets = Vec::new();
            self.update_with(new_key, edges, &mut |x, v| resets.push((x, v)))?;
            let mut n = 0;
            for mut z in pieces {
                for &(x, v) in &resets {
                    z.reset(x, v);
                }
                if self.invariants(new_key, &mut z)? && (!delay || self.delay(new_key, &mut z)?) {
                    if n < out.len() {
                        out[n] = z;
                    } else {
                        out.push(z);
                    }
                    n += 1;
                }
            }
            return Ok(n);
        }
        self.update(new_key, edges, Some(&mut out[0]))?;
        if !self.invariants(new_key, &mut out[0])?
            || (delay && !self.delay(new_key, &mut out[0])?)
        {
            return Ok(0);
        }
        Ok(1)
    }

    /// Extra+_LU with the bounds of the state's locations; with diagonal
    /// constraints, Extra_M and the zone's side of each of their
    /// hyperplanes (`diagonal.rs`).
    pub fn extrapolate(
        &self,
        key: &[i32],
        zone: &mut Dbm,
        lower: &mut Vec<i32>,
        upper: &mut Vec<i32>,
    ) {
        if !self.extrapolate {
            return;
        }
        if let Some(d) = &self.diagonals {
            d.extrapolate(zone);
            return;
        }
        lower.resize(self.dim, 0);
        upper.resize(self.dim, 0);
        self.lu.fill(self.locs(key), lower, upper);
        zone.extrapolate_lu(lower, upper);
    }

    /// The initial state: all clocks 0, invariants, delay. `Ok(None)` when the
    /// initial invariants are unsatisfiable.
    pub fn initial(&self) -> Result<Option<(Vec<i32>, Dbm)>, EvalError> {
        let key = self.initial_key();
        let mut zone = Dbm::zero(self.dim);
        if !self.invariants(&key, &mut zone)? || !self.delay(&key, &mut zone)? {
            return Ok(None);
        }
        Ok(Some((key, zone)))
    }
}
