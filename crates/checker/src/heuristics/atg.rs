//! hL and hU: the abstract transition graph (ATG) of the monotonicity
//! abstraction (Kupferschmid et al. 2006, §3–4).
//!
//! Every variable and every process location becomes a set of values that only
//! grows. Starting from the state, each layer applies every transition enabled
//! in the previous one: an edge whose source is in its process' location set
//! and whose data guard some combination of values satisfies; a binary
//! synchronisation needs a sender and a receiver in different processes on a
//! common channel, a broadcast fires its sender with every enabled receiver,
//! a synchronisation vector fires one enabled labelled edge of every strong
//! participant and of every weak participant that has one, as one transition.
//! Clocks are ignored. hL is the first layer where a goal disjunct holds
//! (admissible: a concrete path of n steps stays inside the first n layers);
//! hU extracts an abstract plan backwards from there, FF style, and counts the
//! transitions it selects (a synchronisation or vector step is one transition).

use rustc_hash::FxHashSet;

use super::super::choices::Choices;
use super::goal::{Atom, Conjunction};
use super::sets::{ABSENT, Compiled, Enumerator, Fact, NO_ACHIEVER, Sets, interval};
use super::{EdgeSet, Heuristic};
use zeno_ir::{BinOp, ChanId, ChannelKind, Expr, LocId, Network, SyncDir, Update, VarId};

/// Layers are counted in `u16`; beyond this the current depth is returned,
/// which is still a lower bound.
const MAX_LAYERS: u16 = 10_000;

#[derive(Debug, Clone)]
struct CUpdate {
    base: VarId,
    len: u32,
    index: Option<Compiled>,
    value: Compiled,
    /// `guard ? value : 1 / 0`: enumerating it yields only the values produced
    /// under valuations that satisfy the edge's guard (the error skips the rest).
    guarded: Compiled,
    /// A slot a function call may write: it may take any value of this
    /// range (the abstraction of the call's effect), `value` is unused.
    havoc: Option<(i64, i64)>,
}

#[derive(Debug, Clone)]
struct CSync {
    base: ChanId,
    len: u32,
    index: Option<Compiled>,
    send: bool,
    broadcast: bool,
}

#[derive(Debug, Clone)]
struct CEdge {
    process: usize,
    /// Global location indices (process offset + location).
    source: usize,
    target: usize,
    guard: Option<Compiled>,
    sync: Option<CSync>,
    updates: Vec<CUpdate>,
    /// Every slot the guard or the updates may read.
    reads: Vec<VarId>,
    /// Every slot the updates may write.
    writes: Vec<VarId>,
    /// An update reads a slot an earlier update of the edge writes. Such a
    /// read sees the next layer (`fire`), which other transitions of the
    /// same step may have grown, so the edge is never skipped as unchanged.
    self_dependent: bool,
    /// Some synchronisation vector names this edge's label for its process:
    /// it moves only in that vector's steps, never alone.
    in_vector: bool,
}

/// One participant of a synchronisation vector: its labelled edges (indices
/// into `Atg::edges`), and whether it is weak.
#[derive(Debug, Clone)]
struct CParticipant {
    edges: Vec<usize>,
    weak: bool,
}

/// Above this many choices of edges, a vector step is fired as one
/// transition with every enabled edge of every participant: a superset of
/// each choice's effects, so hL stays a lower bound.
const MAX_VECTOR_CHOICES: usize = 256;

#[derive(Debug, Clone)]
enum GoalAtom {
    At(usize),
    /// The process' location range and the excluded global location.
    NotAt(usize, usize, usize),
    Data(Compiled),
}

/// Which values of an expression a witness must produce.
#[derive(Debug, Clone, Copy)]
enum Want {
    NonZero,
    Eq(i32),
    /// Inside the first interval but not the second (a growth step).
    Grown((i32, i32), Option<(i32, i32)>),
    /// Any value `x` with `base + x` among `chan_common`.
    Channel(ChanId),
}

fn inside(r: (i32, i32), x: i32) -> bool {
    r.0 <= x && x <= r.1
}

/// A transition fired at `layer` (its effects appear at `layer + 1`); its
/// edges are `edges[start..end]` of the transition list.
#[derive(Debug, Clone, Copy)]
struct Trans {
    layer: u16,
    start: u32,
    end: u32,
}

pub(crate) struct Atg {
    upper: bool,
    /// Skip edges whose inputs did not grow (off only to test that skipping
    /// changes no value).
    shortcuts: bool,
    loc_offset: Vec<usize>,
    edges: Vec<CEdge>,
    /// Per synchronisation vector, its participants in the vector's order.
    vectors: Vec<Vec<CParticipant>>,
    goal: Vec<Vec<GoalAtom>>,
    sets: Sets,
    en: Enumerator,
    // Buffers reused across calls.
    enabled: Vec<usize>,
    /// Per enabled edge: a synchronising edge whose behaviour is the same as
    /// in the previous layer.
    stale: Vec<bool>,
    /// Per edge, the last layer in which it was enabled (`ABSENT`: never).
    last_enabled: Vec<u16>,
    /// Per channel, the enabled receivers (indices into `enabled`).
    receivers: Vec<Vec<usize>>,
    touched: Vec<ChanId>,
    stamp: Vec<usize>,
    /// Per edge, the last layer in which it was evaluated (`ABSENT`: never).
    last_eval: Vec<u16>,
    chan_range: Vec<(usize, usize)>,
    chan_buf: Vec<ChanId>,
    chan_common: Vec<ChanId>,
    trans: Vec<Trans>,
    trans_edges: Vec<usize>,
    list: Vec<usize>,
    fire: FireScratch,
    buckets: Vec<Vec<Fact>>,
    seen: FxHashSet<Fact>,
    selected: Vec<bool>,
    best: Vec<i32>,
}

#[derive(Default)]
struct FireScratch {
    written: Vec<VarId>,
    vals: Vec<i32>,
    slots: Vec<VarId>,
}

impl Atg {
    pub(crate) fn new(
        network: &Network,
        goal: &[Conjunction],
        disabled: &EdgeSet,
        upper: bool,
    ) -> Atg {
        let mut loc_offset = Vec::with_capacity(network.processes.len() + 1);
        let mut total = 0;
        for p in &network.processes {
            loc_offset.push(total);
            total += p.locations.len();
        }
        loc_offset.push(total);
        let named = |pi: usize, label: &Option<String>| {
            label.as_deref().is_some_and(|l| {
                network
                    .vectors
                    .iter()
                    .flat_map(|v| v.participants.iter())
                    .any(|pt| pt.process as usize == pi && pt.label == l)
            })
        };
        let mut edges = Vec::new();
        // Per process, its compiled edges as (label, index into `edges`).
        let mut labelled: Vec<Vec<(&str, usize)>> = vec![Vec::new(); network.processes.len()];
        for (pi, p) in network.processes.iter().enumerate() {
            let n = p.locations.len();
            for (ei, e) in p.edges.iter().enumerate() {
                let off = disabled
                    .disabled
                    .get(pi)
                    .and_then(|d| d.get(ei))
                    .copied()
                    .unwrap_or(false);
                if off || e.source as usize >= n || e.target as usize >= n {
                    continue;
                }
                let sync = e.sync.as_ref().map(|s| CSync {
                    base: s.channel.base,
                    len: s.channel.len,
                    index: s.channel.index.as_ref().map(Compiled::new),
                    send: s.dir == SyncDir::Send,
                    broadcast: network
                        .channels
                        .get(s.channel.base as usize)
                        .is_some_and(|c| c.kind == ChannelKind::Broadcast),
                });
                let mut call_reads: Vec<VarId> = Vec::new();
                let updates = e
                    .updates
                    .iter()
                    .flat_map(|u| -> Vec<CUpdate> {
                        match u {
                            Update::Assign { target, value } => vec![CUpdate {
                                base: target.base,
                                len: target.len,
                                index: target.index.as_ref().map(Compiled::new),
                                value: Compiled::new(value),
                                guarded: Compiled::new(&match &e.guard {
                                    None => value.clone(),
                                    Some(g) => Expr::Cond(
                                        Box::new(g.clone()),
                                        Box::new(value.clone()),
                                        Box::new(Expr::Binary(
                                            BinOp::Div,
                                            Box::new(Expr::Const(1)),
                                            Box::new(Expr::Const(0)),
                                        )),
                                    ),
                                }),
                                havoc: None,
                            }],
                            Update::ResetClock { .. } => vec![],
                            Update::Call(c) => {
                                call_reads.extend(&c.reads);
                                c.writes
                                    .iter()
                                    .map(|&w| {
                                        let var = &network.variables[w as usize];
                                        CUpdate {
                                            base: w,
                                            len: 1,
                                            index: None,
                                            value: Compiled::new(&Expr::Const(0)),
                                            guarded: Compiled::new(&Expr::Const(0)),
                                            havoc: Some((var.lo as i64, var.hi as i64)),
                                        }
                                    })
                                    .collect()
                            }
                        }
                    })
                    .collect();
                let guard = e.guard.as_ref().map(Compiled::new);
                let updates: Vec<CUpdate> = updates;
                let mut reads: Vec<VarId> =
                    guard.iter().flat_map(|g| g.reads.iter().copied()).collect();
                reads.extend(call_reads);
                if let Some(ix) = sync.as_ref().and_then(|s| s.index.as_ref()) {
                    reads.extend(ix.reads.iter().copied());
                }
                for u in &updates {
                    reads.extend(u.value.reads.iter().copied());
                    reads.extend(u.index.iter().flat_map(|c| c.reads.iter().copied()));
                }
                reads.sort_unstable();
                reads.dedup();
                let mut writes: Vec<VarId> = Vec::new();
                let mut self_dependent = false;
                for u in &updates {
                    let mut read_by_u = u
                        .value
                        .reads
                        .iter()
                        .chain(u.index.iter().flat_map(|c| c.reads.iter()));
                    self_dependent |= read_by_u.any(|v| writes.contains(v));
                    if u.index.is_some() {
                        writes.extend(u.base..u.base + u.len);
                    } else {
                        writes.push(u.base);
                    }
                }
                writes.sort_unstable();
                writes.dedup();
                if let Some(l) = &e.label {
                    labelled[pi].push((l.as_str(), edges.len()));
                }
                edges.push(CEdge {
                    process: pi,
                    source: loc_offset[pi] + e.source as usize,
                    target: loc_offset[pi] + e.target as usize,
                    guard,
                    sync,
                    updates,
                    reads,
                    writes,
                    self_dependent,
                    in_vector: named(pi, &e.label),
                });
            }
        }
        let vectors = network
            .vectors
            .iter()
            .map(|v| {
                v.participants
                    .iter()
                    .map(|pt| CParticipant {
                        edges: labelled
                            .get(pt.process as usize)
                            .into_iter()
                            .flatten()
                            .filter(|(l, _)| *l == pt.label)
                            .map(|&(_, i)| i)
                            .collect(),
                        weak: pt.weak,
                    })
                    .collect()
            })
            .collect();
        let goal = goal
            .iter()
            .map(|c| {
                c.iter()
                    .filter_map(|a| match a {
                        Atom::At(p, l) => loc_offset
                            .get(*p as usize)
                            .map(|o| GoalAtom::At(o + *l as usize)),
                        Atom::NotAt(p, l) => {
                            let p = *p as usize;
                            (p < network.processes.len()).then(|| {
                                GoalAtom::NotAt(
                                    loc_offset[p],
                                    loc_offset[p + 1],
                                    loc_offset[p] + *l as usize,
                                )
                            })
                        }
                        Atom::Data(e) => Some(GoalAtom::Data(Compiled::new(e))),
                    })
                    .collect()
            })
            .collect();
        Atg {
            upper,
            shortcuts: true,
            sets: Sets::new(
                network.variables.iter().map(|v| (v.lo, v.hi.max(v.lo))),
                total,
            ),
            loc_offset,
            edges,
            vectors,
            goal,
            en: Enumerator::default(),
            enabled: Vec::new(),
            stale: Vec::new(),
            last_enabled: Vec::new(),
            receivers: Vec::new(),
            touched: Vec::new(),
            stamp: Vec::new(),
            last_eval: Vec::new(),
            chan_range: Vec::new(),
            chan_buf: Vec::new(),
            chan_common: Vec::new(),
            trans: Vec::new(),
            trans_edges: Vec::new(),
            list: Vec::new(),
            fire: FireScratch::default(),
            buckets: Vec::new(),
            seen: FxHashSet::default(),
            selected: Vec::new(),
            best: Vec::new(),
        }
    }

    #[cfg(test)]
    pub(crate) fn without_shortcuts(mut self) -> Atg {
        self.shortcuts = false;
        self
    }

    fn reset(&mut self, locations: &[LocId], variables: &[i32]) {
        self.sets.reset(variables);
        for p in 0..self.loc_offset.len() - 1 {
            let l = locations.get(p).copied().unwrap_or(0) as usize;
            let i = self.loc_offset[p] + l;
            if i < self.loc_offset[p + 1] {
                self.sets.loc_first[i] = 0;
                self.sets.loc_achiever[i] = NO_ACHIEVER;
            }
        }
        self.trans.clear();
        self.trans_edges.clear();
        self.last_eval.clear();
        self.last_eval.resize(self.edges.len(), ABSENT);
        self.last_enabled.clear();
        self.last_enabled.resize(self.edges.len(), ABSENT);
    }

    fn atom_holds(sets: &Sets, en: &mut Enumerator, a: &GoalAtom, k: u16) -> bool {
        match a {
            GoalAtom::At(i) => sets.loc_first[*i] <= k,
            GoalAtom::NotAt(from, to, excluded) => {
                (*from..*to).any(|i| i != *excluded && sets.loc_first[i] <= k)
            }
            GoalAtom::Data(c) => en.satisfiable(sets, c, k),
        }
    }

    fn goal_holds(&mut self, k: u16) -> Option<usize> {
        let (sets, en) = (&self.sets, &mut self.en);
        self.goal
            .iter()
            .position(|c| c.iter().all(|a| Self::atom_holds(sets, en, a, k)))
    }

    /// Builds layer `k + 1` from layer `k`; false at a fixpoint.
    fn step(&mut self, k: u16) -> bool {
        self.enabled.clear();
        self.stale.clear();
        self.chan_range.clear();
        self.chan_buf.clear();
        for (i, e) in self.edges.iter().enumerate() {
            let source = self.sets.loc_first[e.source];
            if source > k {
                continue;
            }
            let unchanged_since = |l: u16| e.reads.iter().all(|&v| self.sets.changed_at(v) <= l);
            // An internal edge last looked at in layer `last`, when its
            // source was already reached and none of its inputs has grown
            // since, would only repeat what it did (or did not do) then.
            let last = self.last_eval[i];
            if e.sync.is_none() && !e.in_vector {
                if self.shortcuts
                    && !e.self_dependent
                    && last != ABSENT
                    && source <= last
                    && unchanged_since(last)
                {
                    continue;
                }
                self.last_eval[i] = k;
            }
            if let Some(g) = &e.guard
                && !self.en.satisfiable(&self.sets, g, k)
            {
                continue;
            }
            let start = self.chan_buf.len();
            if let Some(s) = &e.sync {
                channels(&self.sets, &mut self.en, s, k, &mut self.chan_buf);
                if self.chan_buf.len() == start {
                    continue; // no valid channel index
                }
            }
            // A synchronising edge that was enabled in the previous layer and
            // whose inputs did not grow since then behaves exactly as it did.
            let stale = self.shortcuts
                && !e.self_dependent
                && k > 0
                && self.last_enabled[i] == k - 1
                && unchanged_since(k - 1);
            self.last_enabled[i] = k;
            self.enabled.push(i);
            self.stale.push(stale);
            self.chan_range.push((start, self.chan_buf.len()));
        }
        // Receivers by channel, so that pairing costs no more than the pairs.
        for c in self.touched.drain(..) {
            self.receivers[c as usize].clear();
        }
        for b in 0..self.enabled.len() {
            let receives = self.edges[self.enabled[b]]
                .sync
                .as_ref()
                .is_some_and(|x| !x.send);
            if !receives {
                continue;
            }
            let (from, to) = self.chan_range[b];
            for &c in &self.chan_buf[from..to] {
                let c = c as usize;
                if self.receivers.len() <= c {
                    self.receivers.resize(c + 1, Vec::new());
                }
                if self.receivers[c].is_empty() {
                    self.touched.push(c as ChanId);
                }
                self.receivers[c].push(b);
            }
        }
        self.stamp.clear();
        self.stamp.resize(self.enabled.len(), usize::MAX);
        let mut changed = false;
        for a in 0..self.enabled.len() {
            let s = self.enabled[a];
            let (sends, broadcast) = match &self.edges[s].sync {
                None if self.edges[s].in_vector => continue, // fired by `fire_vectors`
                None => {
                    self.list.clear();
                    self.list.push(s);
                    changed |= self.fire(k);
                    continue;
                }
                Some(sync) => (sync.send, sync.broadcast),
            };
            if !sends {
                continue; // receivers only fire with a sender
            }
            self.list.clear();
            self.list.push(s);
            let mut all_stale = self.stale[a];
            let (from, to) = self.chan_range[a];
            for ci in from..to {
                let c = self.chan_buf[ci] as usize;
                let Some(rs) = self.receivers.get(c) else {
                    continue;
                };
                for ri in 0..rs.len() {
                    let b = self.receivers[c][ri];
                    let r = self.enabled[b];
                    if self.stamp[b] == a || self.edges[r].process == self.edges[s].process {
                        continue;
                    }
                    self.stamp[b] = a;
                    // A receiver reading what the sender writes sees the
                    // next layer (`fire`), which this step may have grown.
                    let reads_sender = self.edges[r]
                        .reads
                        .iter()
                        .any(|v| self.edges[s].writes.binary_search(v).is_ok());
                    if broadcast {
                        all_stale &= self.stale[b] && !reads_sender;
                        self.list.push(r);
                    } else if reads_sender || !(self.stale[a] && self.stale[b]) {
                        self.list.truncate(1);
                        self.list.push(r);
                        changed |= self.fire(k);
                    }
                }
            }
            // Receivers read what earlier receivers write in the same way.
            if broadcast && all_stale {
                let list = &self.list[1..];
                all_stale = !list.iter().any(|&r| {
                    list.iter().any(|&o| {
                        o != r
                            && self.edges[r]
                                .reads
                                .iter()
                                .any(|v| self.edges[o].writes.binary_search(v).is_ok())
                    })
                });
            }
            if broadcast && !all_stale {
                // Receivers take part in process order (edges are stored so).
                self.list[1..].sort_unstable();
                changed |= self.fire(k);
            }
        }
        changed |= self.fire_vectors(k);
        changed
    }

    /// Fires the steps of every synchronisation vector at layer `k`, each as
    /// one transition: a choice of one enabled labelled edge for every strong
    /// participant (none enabled: no step) and for every weak participant
    /// that has one, their updates in the vector's order. An edge is enabled
    /// here when it was in `step`'s enabled list for this layer.
    fn fire_vectors(&mut self, k: u16) -> bool {
        let mut changed = false;
        let vectors = std::mem::take(&mut self.vectors);
        let mut options: Vec<Vec<usize>> = Vec::new();
        'vectors: for parts in &vectors {
            options.clear();
            for part in parts {
                let enabled: Vec<usize> = part
                    .edges
                    .iter()
                    .copied()
                    .filter(|&i| self.last_enabled[i] == k)
                    .collect();
                if enabled.is_empty() && !part.weak {
                    continue 'vectors;
                }
                if !enabled.is_empty() {
                    options.push(enabled);
                }
            }
            if options.is_empty() {
                continue;
            }
            let mut choices = Choices::new(options.iter().map(Vec::len));
            if choices.count().is_none_or(|n| n > MAX_VECTOR_CHOICES) {
                self.list.clear();
                self.list.extend(options.iter().flatten());
                changed |= self.fire(k);
                continue;
            }
            while let Some(idx) = choices.next_choice() {
                self.list.clear();
                self.list
                    .extend(options.iter().zip(idx).map(|(o, &j)| o[j]));
                changed |= self.fire(k);
            }
        }
        self.vectors = vectors;
        changed
    }

    /// Fires the edges in `self.list` together at layer `k`; true if anything new appeared.
    fn fire(&mut self, k: u16) -> bool {
        let tid = self.trans.len() as u32;
        let start = self.trans_edges.len();
        self.trans_edges.extend_from_slice(&self.list);
        let layer = k + 1;
        let sets = &mut self.sets;
        let en = &mut self.en;
        let fs = &mut self.fire;
        let mut changed = false;
        for &ei in &self.list {
            let t = self.edges[ei].target;
            if sets.loc_first[t] == ABSENT {
                sets.loc_first[t] = layer;
                sets.loc_achiever[t] = tid;
                changed = true;
            }
        }
        fs.written.clear();
        for &ei in &self.list {
            for u in &self.edges[ei].updates {
                if let Some((lo, hi)) = u.havoc {
                    changed |= sets.insert_range(u.base, lo, hi, layer, tid);
                    fs.written.push(u.base);
                    continue;
                }
                // Updates run left to right, sender before receivers. When one
                // reads a slot written earlier in this transition, read the next
                // layer instead: a superset of what it could see.
                let index_reads = u.index.iter().flat_map(|c| c.reads.iter());
                let dependent = u
                    .value
                    .reads
                    .iter()
                    .chain(index_reads)
                    .any(|v| fs.written.contains(v));
                let rk = if dependent { layer } else { k };
                fs.slots.clear();
                match &u.index {
                    None => fs.slots.push(u.base),
                    Some(ix) => {
                        let (slots, len) = (&mut fs.slots, u.len as i64);
                        let r = en.run(sets, ix, rk, |x, _| {
                            if (0..len).contains(&(x as i64))
                                && !slots.contains(&(u.base + x as u32))
                            {
                                slots.push(u.base + x as u32);
                            }
                            false
                        });
                        if r.is_none() {
                            let (lo, hi) = interval(sets, &ix.expr, rk);
                            for x in lo.max(0)..=hi.min(len - 1) {
                                slots.push(u.base + x as u32);
                            }
                        }
                    }
                }
                fs.vals.clear();
                let vals = &mut fs.vals;
                // The guard holds in the state before the transition, so it
                // only restricts the values when they are read there too.
                let source = if dependent { &u.value } else { &u.guarded };
                let r = en.run(sets, source, rk, |x, _| {
                    vals.push(x);
                    false
                });
                match r {
                    Some(_) => {
                        for &slot in &fs.slots {
                            for &x in &fs.vals {
                                changed |= sets.insert(slot, x as i64, layer, tid);
                            }
                        }
                    }
                    None => {
                        let (lo, hi) = interval(sets, &u.value.expr, rk);
                        for &slot in &fs.slots {
                            changed |= sets.insert_range(slot, lo, hi, layer, tid);
                        }
                    }
                }
                match u.index {
                    None => fs.written.push(u.base),
                    Some(_) => fs.written.extend(u.base..u.base + u.len),
                }
            }
        }
        if changed {
            self.trans.push(Trans {
                layer: k,
                start: start as u32,
                end: self.trans_edges.len() as u32,
            });
        } else {
            self.trans_edges.truncate(start);
        }
        changed
    }

    /// Goal layer and disjunct, or `None` at a fixpoint without the goal.
    fn layers(&mut self) -> Option<(u16, Option<usize>)> {
        let mut k = 0u16;
        loop {
            if let Some(d) = self.goal_holds(k) {
                return Some((k, Some(d)));
            }
            if k >= MAX_LAYERS {
                return Some((k, None));
            }
            if !self.step(k) {
                return None;
            }
            k += 1;
        }
    }

    fn add_fact(&mut self, f: Fact) {
        let (first, _) = self.sets.first(f);
        if first == 0 || first as usize >= self.buckets.len() {
            return;
        }
        if self.seen.insert(f) {
            self.buckets[first as usize].push(f);
        }
    }

    /// Adds as subgoals the facts of the best valuation at layer `k` under
    /// which `c` yields a value accepted by `want` (the one whose facts
    /// appeared earliest). True if one was found.
    fn witness(&mut self, c: &Compiled, k: u16, want: Want) -> bool {
        let common = &self.chan_common;
        let accepts = |x: i32| match want {
            Want::NonZero => x != 0,
            Want::Eq(y) => x == y,
            Want::Grown(now, before) => inside(now, x) && !before.is_some_and(|b| inside(b, x)),
            Want::Channel(base) => x >= 0 && common.contains(&(base + x as u32)),
        };
        // Whether an interval of values may contain an accepted one.
        let may_hit = |lo: i64, hi: i64| match want {
            Want::NonZero => (lo, hi) != (0, 0),
            Want::Eq(y) => lo <= y as i64 && y as i64 <= hi,
            Want::Grown(now, before) => {
                lo <= now.1 as i64
                    && hi >= now.0 as i64
                    && !before.is_some_and(|b| b.0 as i64 <= lo && hi <= b.1 as i64)
            }
            Want::Channel(_) => true,
        };
        let sets = &self.sets;
        let best = &mut self.best;
        let mut best_score: Option<(u16, u32)> = None;
        let r = self.en.run(sets, c, k, |x, env| {
            if accepts(x) {
                let mut score = (0u16, 0u32);
                for &v in &c.reads {
                    let l = sets
                        .fact_of(v, env[v as usize])
                        .map_or(0, |f| sets.first(f).0);
                    score = (score.0.max(l), score.1 + l as u32);
                }
                if best_score.is_none_or(|b| score < b) {
                    best_score = Some(score);
                    best.clear();
                    best.extend(c.reads.iter().map(|&v| env[v as usize]));
                }
            }
            false
        });
        match r {
            Some(_) if best_score.is_some() => {
                for i in 0..c.reads.len() {
                    if let Some(f) = self.sets.fact_of(c.reads[i], self.best[i]) {
                        self.add_fact(f);
                    }
                }
                true
            }
            Some(_) => false,
            None => {
                // Too many combinations: use the first layer at which the
                // interval test succeeds and the latest change of each variable.
                let j = (0..=k)
                    .find(|&j| {
                        let (lo, hi) = interval(&self.sets, &c.expr, j);
                        may_hit(lo, hi)
                    })
                    .unwrap_or(k);
                for &v in &c.reads {
                    if let Some(f) = self.sets.latest_fact(v, j) {
                        self.add_fact(f);
                    }
                }
                true
            }
        }
    }

    /// Counts the transitions of an abstract plan to goal disjunct `d` at layer `m`.
    fn extract(&mut self, m: u16, d: usize) -> u32 {
        if self.buckets.len() <= m as usize {
            self.buckets.resize(m as usize + 1, Vec::new());
        }
        for b in &mut self.buckets {
            b.clear();
        }
        self.seen.clear();
        self.selected.clear();
        self.selected.resize(self.trans.len(), false);
        // Taken out so that the subgoal bookkeeping can borrow `self` mutably.
        let goal = std::mem::take(&mut self.goal);
        let edges = std::mem::take(&mut self.edges);
        for atom in &goal[d] {
            match atom {
                GoalAtom::At(i) => self.add_fact(Fact::Loc(*i as u32)),
                GoalAtom::NotAt(from, to, excluded) => {
                    let best = (*from..*to)
                        .filter(|&i| i != *excluded && self.sets.loc_first[i] <= m)
                        .min_by_key(|&i| self.sets.loc_first[i]);
                    if let Some(i) = best {
                        self.add_fact(Fact::Loc(i as u32));
                    }
                }
                GoalAtom::Data(c) => {
                    self.witness(c, m, Want::NonZero);
                }
            }
        }
        let mut count = 0;
        for i in (1..=m as usize).rev() {
            while let Some(f) = self.buckets[i].pop() {
                let (_, t) = self.sets.first(f);
                let Some(tr) = self.trans.get(t as usize).copied() else {
                    continue;
                };
                if !self.selected[t as usize] {
                    self.selected[t as usize] = true;
                    count += 1;
                    self.common_channels(&edges, tr);
                    for j in tr.start..tr.end {
                        let e = &edges[self.trans_edges[j as usize]];
                        self.add_fact(Fact::Loc(e.source as u32));
                        if let Some(g) = &e.guard {
                            self.witness(g, tr.layer, Want::NonZero);
                        }
                        if let Some(s) = &e.sync
                            && let Some(ix) = &s.index
                        {
                            self.witness(ix, tr.layer, Want::Channel(s.base));
                        }
                    }
                }
                self.effect_witness(&edges, f, tr);
            }
        }
        self.goal = goal;
        self.edges = edges;
        count
    }

    /// The channels every edge of a synchronisation `tr` could use at its
    /// layer, into `chan_common` (empty for an internal transition).
    fn common_channels(&mut self, edges: &[CEdge], tr: Trans) {
        self.chan_common.clear();
        let mut first = true;
        for j in tr.start..tr.end {
            let Some(s) = &edges[self.trans_edges[j as usize]].sync else {
                continue;
            };
            self.chan_buf.clear();
            channels(&self.sets, &mut self.en, s, tr.layer, &mut self.chan_buf);
            if first {
                self.chan_common.extend_from_slice(&self.chan_buf);
                first = false;
            } else {
                let buf = &self.chan_buf;
                self.chan_common.retain(|c| buf.contains(c));
            }
        }
    }

    /// Adds the inputs from which transition `tr` produced value fact `f`.
    fn effect_witness(&mut self, edges: &[CEdge], f: Fact, tr: Trans) {
        let (v, want) = match f {
            Fact::Loc(_) => return,
            Fact::Val(v, y) => (v, Want::Eq(y)),
            Fact::Hist(v, i) => {
                let (now, before) = self.sets.entry_bounds(v, i);
                (v, Want::Grown(now, before))
            }
        };
        for j in tr.start..tr.end {
            for u in &edges[self.trans_edges[j as usize]].updates {
                let covers = match u.index {
                    None => u.base == v,
                    Some(_) => u.base <= v && v < u.base + u.len,
                };
                if !covers {
                    continue;
                }
                // The inputs were read at the transition's layer, or at the
                // next one when they were written earlier in the transition.
                let found = self.witness(&u.guarded, tr.layer, want)
                    || self.witness(&u.value, tr.layer + 1, want);
                if found {
                    if let Some(ix) = &u.index {
                        let target = (v - u.base) as i32;
                        self.witness(ix, tr.layer, Want::Eq(target));
                    }
                    return;
                }
            }
        }
    }
}

/// The channels a synchronisation may use at layer `k`, pushed onto `out`.
fn channels(sets: &Sets, en: &mut Enumerator, s: &CSync, k: u16, out: &mut Vec<ChanId>) {
    match &s.index {
        None => out.push(s.base),
        Some(ix) => {
            let len = s.len as i64;
            // `out` may hold other edges' channels before `start`.
            let start = out.len();
            let r = en.run(sets, ix, k, |x, _| {
                let c = s.base + x as u32;
                if (0..len).contains(&(x as i64)) && !out[start..].contains(&c) {
                    out.push(c);
                }
                false
            });
            if r.is_none() {
                let (lo, hi) = interval(sets, &ix.expr, k);
                out.extend((lo.max(0)..=hi.min(len - 1)).map(|x| s.base + x as u32));
            }
        }
    }
}

impl Heuristic for Atg {
    fn estimate(&mut self, locations: &[LocId], variables: &[i32]) -> Option<u32> {
        self.reset(locations, variables);
        let (m, d) = self.layers()?;
        match d {
            Some(d) if self.upper => Some(self.extract(m, d)),
            _ => Some(m as u32),
        }
    }
}
