//! The projection of a network onto a pattern (paper §2.3): an abstract
//! system over the kept processes' locations and the kept variable slots.
//!
//! It over-approximates the network: every concrete transition either leaves
//! the projected state unchanged or is one abstract transition here.
//! - Edges keep only the top-level guard conjuncts that read kept slots alone.
//! - Processes outside the pattern have no location: their edges act as
//!   self-loops, and are kept only when they may write a kept slot (the
//!   paper's self-loops with effects); the others never change the projection.
//! - A synchronisation whose partner is outside the pattern and writes no kept
//!   slot is assumed possible; a broadcast may reach any subset of its
//!   receivers; a synchronisation vector fires as one transition of its
//!   relevant participants' edges, in participant order, a weak participant
//!   joining or not; committed locations and clocks are ignored.
//! - Assignments to dropped slots are dropped; a kept slot assigned from an
//!   expression reading dropped slots takes every value of its range, and a
//!   target whose index reads dropped slots may be any element of its array.
//! - A function call that reads kept slots only runs as written; one that
//!   reads a dropped slot writes any value to every slot it may write.

use rustc_hash::FxHashSet;

use super::pattern::Pattern;
use crate::choices::Choices;
use crate::heuristics::EdgeSet;
use crate::heuristics::goal::{Atom, Conjunction};
use zeno_ir::{ChanRef, ChannelKind, EdgeId, Expr, LValue, Network, ProcId, SyncDir, Update};

/// Most global transitions (after dropping irrelevant parts) an abstraction
/// may have; beyond it the pattern is treated as too large.
const MAX_SHAPES: usize = 200_000;

/// The abstraction could not be built or enumerated within its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooLarge;

/// One abstract transition: the edges of a global transition that matter to
/// the pattern, the sender (if any) first, then receivers by process.
#[derive(Debug, Clone)]
pub(crate) struct Shape {
    pub(crate) parts: Vec<(ProcId, EdgeId)>,
    /// Contains an edge switched off (useless-transition evaluation): the
    /// transition exists for enumeration but not for distances.
    pub(crate) disabled: bool,
}

/// What the abstraction keeps of one edge.
#[derive(Debug, Clone, Default)]
struct EdgeView {
    /// Top-level guard conjuncts reading kept slots only.
    guards: Vec<Expr>,
    /// Whether the edge can change the projection when its process is dropped.
    writes_pattern: bool,
    /// The channel index reads kept slots only (or there is none).
    channel_exact: bool,
    /// How each of the edge's updates is applied, in order.
    updates: Vec<UpdateView>,
}

/// How the abstraction applies one update.
#[derive(Debug, Clone, Copy)]
enum UpdateView {
    /// An assignment: whether its target index, and its value, read kept
    /// slots only (an inexact index may be any element; an inexact value any
    /// value of the target's range).
    Assign {
        index_exact: bool,
        value_exact: bool,
    },
    /// A clock reset: nothing to do on variables.
    Clock,
    /// A call that reads kept slots only: run as written, so a queue written
    /// in functions keeps its exact contents instead of every combination.
    CallExact,
    /// A call that reads dropped slots: any value in every slot it may write.
    CallAnyValue,
}

pub(crate) struct Abstraction<'a> {
    net: &'a Network,
    pub(crate) pattern: Pattern,
    views: Vec<Vec<EdgeView>>,
    pub(crate) shapes: Vec<Shape>,
    /// Shapes by the first kept process among their parts and that edge's
    /// source location (`[process][location]`): only those can fire there.
    by_source: Vec<Vec<Vec<u32>>>,
    /// Shapes without a kept process: candidates everywhere.
    anywhere: Vec<u32>,
    /// The goal's disjuncts with the atoms over dropped parts removed.
    goal: Vec<Conjunction>,
}

fn reads_only(e: &Expr, pattern: &Pattern) -> bool {
    let mut ok = true;
    e.for_each_read(&mut |v| ok &= pattern.has_var(v));
    ok
}

fn channel_range(c: &ChanRef) -> (u32, u32) {
    (c.base, c.base + c.len.max(1))
}

fn overlap(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

impl<'a> Abstraction<'a> {
    pub(crate) fn new(
        net: &'a Network,
        pattern: Pattern,
        goal: &[Conjunction],
        disabled: &EdgeSet,
    ) -> Result<Abstraction<'a>, TooLarge> {
        let views = net
            .processes
            .iter()
            .map(|p| p.edges.iter().map(|e| view(e, &pattern)).collect())
            .collect();
        let goal = goal
            .iter()
            .map(|c| {
                c.iter()
                    .filter(|a| match a {
                        Atom::At(p, _) | Atom::NotAt(p, _) => pattern.has_proc(*p),
                        Atom::Data(e) => reads_only(e, &pattern),
                    })
                    .cloned()
                    .collect()
            })
            .collect();
        let mut abs = Abstraction {
            net,
            pattern,
            views,
            shapes: Vec::new(),
            by_source: net
                .processes
                .iter()
                .map(|p| vec![Vec::new(); p.locations.len()])
                .collect(),
            anywhere: Vec::new(),
            goal,
        };
        abs.shapes = abs.build_shapes(disabled)?;
        for (i, shape) in abs.shapes.iter().enumerate() {
            let first = shape.parts.iter().find(|(p, _)| abs.pattern.has_proc(*p));
            match first {
                Some(&(p, e)) => {
                    let source = net.processes[p as usize].edges[e as usize].source;
                    if let Some(list) = abs.by_source[p as usize].get_mut(source as usize) {
                        list.push(i as u32);
                    }
                }
                None => abs.anywhere.push(i as u32),
            }
        }
        Ok(abs)
    }

    /// Calls `f` on every shape that may fire with the kept processes at
    /// `locs`.
    pub(crate) fn candidates(&self, locs: &[u32], mut f: impl FnMut(&Shape)) {
        for &i in &self.anywhere {
            f(&self.shapes[i as usize]);
        }
        for (p, lists) in self.by_source.iter().enumerate() {
            if !self.pattern.procs[p] {
                continue;
            }
            if let Some(list) = lists.get(locs[p] as usize) {
                for &i in list {
                    f(&self.shapes[i as usize]);
                }
            }
        }
    }

    /// Whether the edge matters to the projection at all.
    fn relevant(&self, p: ProcId, e: EdgeId) -> bool {
        self.pattern.has_proc(p) || self.views[p as usize][e as usize].writes_pattern
    }

    fn build_shapes(&self, disabled: &EdgeSet) -> Result<Vec<Shape>, TooLarge> {
        let mut seen: FxHashSet<Vec<(ProcId, EdgeId)>> = FxHashSet::default();
        let mut shapes = Vec::new();
        let mut add = |parts: Vec<(ProcId, EdgeId)>| -> Result<(), TooLarge> {
            if parts.is_empty() || seen.contains(&parts) {
                return Ok(());
            }
            if shapes.len() >= MAX_SHAPES {
                return Err(TooLarge);
            }
            seen.insert(parts.clone());
            let off = parts.iter().any(|&(p, e)| disabled.contains(p, e));
            shapes.push(Shape {
                parts,
                disabled: off,
            });
            Ok(())
        };
        let net = self.net;
        let kind = |c: &ChanRef| {
            net.channels
                .get(c.base as usize)
                .map_or(ChannelKind::Binary, |ch| ch.kind)
        };
        let edges = || {
            net.processes.iter().enumerate().flat_map(|(p, proc_)| {
                proc_
                    .edges
                    .iter()
                    .enumerate()
                    .map(move |(e, edge)| (p as ProcId, e as EdgeId, edge))
            })
        };
        // Labels a vector names for their process: such edges move only in
        // their vectors (one abstract transition per vector step).
        let named: FxHashSet<(ProcId, &str)> = net
            .vectors
            .iter()
            .flat_map(|v| v.participants.iter())
            .map(|pt| (pt.process, pt.label.as_str()))
            .collect();
        for (p, e, edge) in edges() {
            let Some(s) = &edge.sync else {
                let in_vector = edge
                    .label
                    .as_deref()
                    .is_some_and(|l| named.contains(&(p, l)));
                if self.relevant(p, e) && !in_vector {
                    add(vec![(p, e)])?;
                }
                continue;
            };
            if s.dir != SyncDir::Send {
                continue;
            }
            let range = channel_range(&s.channel);
            let sender = self.relevant(p, e).then_some((p, e));
            let receivers = || {
                edges().filter(move |(q, _, f)| {
                    *q != p
                        && f.sync.as_ref().is_some_and(|r| {
                            r.dir == SyncDir::Receive
                                && kind(&r.channel) == kind(&s.channel)
                                && overlap(channel_range(&r.channel), range)
                        })
                })
            };
            match kind(&s.channel) {
                ChannelKind::Binary => {
                    for (q, f, _) in receivers() {
                        let mut parts: Vec<_> = sender.into_iter().collect();
                        if self.relevant(q, f) {
                            parts.push((q, f));
                        }
                        add(parts)?;
                    }
                }
                ChannelKind::Broadcast => {
                    // Per other process: stay out, or one relevant receiving edge.
                    let mut choices: Vec<Vec<(ProcId, EdgeId)>> = Vec::new();
                    for (q, f, _) in receivers() {
                        if !self.relevant(q, f) {
                            continue;
                        }
                        match choices.last_mut() {
                            Some(c) if c[0].0 == q => c.push((q, f)),
                            _ => choices.push(vec![(q, f)]),
                        }
                    }
                    // Digit 0 is staying out, digit `i` the `i`-th edge.
                    let mut picks = Choices::new(choices.iter().map(|c| c.len() + 1));
                    if picks.count().is_none_or(|n| n > MAX_SHAPES) {
                        return Err(TooLarge);
                    }
                    while let Some(idx) = picks.next_choice() {
                        let mut parts: Vec<_> = sender.into_iter().collect();
                        for (c, &pick) in choices.iter().zip(idx) {
                            if pick > 0 {
                                parts.push(c[pick - 1]);
                            }
                        }
                        add(parts)?;
                    }
                }
            }
        }
        for vector in &net.vectors {
            // Per participant, in order: its choices of a relevant edge
            // (`None`: an irrelevant edge, or a weak participant staying out).
            let mut choices: Vec<Vec<Option<(ProcId, EdgeId)>>> = Vec::new();
            for pt in &vector.participants {
                let Some(proc_) = net.processes.get(pt.process as usize) else {
                    continue;
                };
                let mut options: Vec<Option<(ProcId, EdgeId)>> = Vec::new();
                if pt.weak {
                    options.push(None);
                }
                for (e, edge) in proc_.edges.iter().enumerate() {
                    if edge.sync.is_none() && edge.label.as_deref() == Some(pt.label.as_str()) {
                        let id = (pt.process, e as EdgeId);
                        options.push(self.relevant(id.0, id.1).then_some(id));
                    }
                }
                options.dedup();
                choices.push(options);
            }
            if choices.iter().any(|c| c.is_empty()) {
                continue; // a strong participant without an edge: never fires
            }
            let mut picks = Choices::new(choices.iter().map(Vec::len));
            if picks.count().is_none_or(|n| n > MAX_SHAPES) {
                return Err(TooLarge);
            }
            while let Some(idx) = picks.next_choice() {
                let parts = choices.iter().zip(idx).filter_map(|(c, &i)| c[i]);
                add(parts.collect())?;
            }
        }
        Ok(shapes)
    }

    /// Whether the projected goal holds (an atom that fails to evaluate counts
    /// as true: the abstraction may only weaken the goal).
    pub(crate) fn is_goal(&self, locs: &[u32], vars: &[i32]) -> bool {
        self.goal.iter().any(|c| {
            c.iter().all(|a| match a {
                Atom::At(p, l) => locs[*p as usize] == *l,
                Atom::NotAt(p, l) => locs[*p as usize] != *l,
                Atom::Data(e) => e.eval(vars).is_none_or_nonzero(),
            })
        })
    }

    /// Appends to `out` the variable valuations (and in `locs_out` the
    /// locations) the abstract transition `shape` leads to from `(locs, vars)`.
    /// Stops with `TooLarge` when more than `cap` valuations arise.
    pub(crate) fn successors(
        &self,
        shape: &Shape,
        locs: &[u32],
        vars: &[i32],
        cap: usize,
        out: &mut Vec<(Vec<u32>, Vec<i32>)>,
    ) -> Result<(), TooLarge> {
        let edge = |p: ProcId, e: EdgeId| &self.net.processes[p as usize].edges[e as usize];
        let mut channel: Option<u32> = None;
        for &(p, e) in &shape.parts {
            let ed = edge(p, e);
            if self.pattern.has_proc(p) && locs[p as usize] != ed.source {
                return Ok(());
            }
            let view = &self.views[p as usize][e as usize];
            // A guard that fails to evaluate is a model error in the network,
            // not a disabled transition: keep it enabled here.
            if view.guards.iter().any(|g| g.eval(vars) == Ok(0)) {
                return Ok(());
            }
            if let Some(s) = &ed.sync
                && view.channel_exact
                && let Ok(c) = s.channel.resolve(vars)
            {
                if channel.is_some_and(|d| d != c) {
                    return Ok(());
                }
                channel = Some(c);
            }
        }
        let mut branches: Vec<Vec<i32>> = vec![vars.to_vec()];
        let mut next: Vec<Vec<i32>> = Vec::new();
        for &(p, e) in &shape.parts {
            let view = &self.views[p as usize][e as usize];
            for (update, how) in edge(p, e).updates.iter().zip(&view.updates) {
                match (update, *how) {
                    (_, UpdateView::Clock) => continue,
                    (Update::Call(c), UpdateView::CallExact) => {
                        next.clear();
                        for b in &branches {
                            let mut n = b.clone();
                            if c.run(&mut n).is_ok() {
                                next.push(n); // an error is a model error: no successor
                            }
                        }
                    }
                    (Update::Call(c), _) => {
                        for &slot in &c.writes {
                            let whole = LValue {
                                base: slot,
                                len: 1,
                                index: None,
                            };
                            self.assign(&whole, None, true, &branches, cap, &mut next)?;
                            std::mem::swap(&mut branches, &mut next);
                        }
                        continue;
                    }
                    (
                        Update::Assign { target, value },
                        UpdateView::Assign {
                            index_exact,
                            value_exact,
                        },
                    ) => {
                        let value = value_exact.then_some(value);
                        self.assign(target, value, index_exact, &branches, cap, &mut next)?;
                    }
                    _ => unreachable!("an update's view is built from the update"),
                }
                next.sort_unstable();
                next.dedup();
                if next.len() > cap {
                    return Err(TooLarge);
                }
                std::mem::swap(&mut branches, &mut next);
            }
        }
        let mut new_locs = locs.to_vec();
        for &(p, e) in &shape.parts {
            if self.pattern.has_proc(p) {
                new_locs[p as usize] = edge(p, e).target;
            }
        }
        for b in branches {
            out.push((new_locs.clone(), b));
        }
        Ok(())
    }

    /// Writes into `next` the branches after `target = value` from each of
    /// `branches`: `value` is `None` when it reads dropped slots (every value
    /// of the target's range), and an index that reads dropped slots
    /// (`index_exact` false) may name any element.
    fn assign(
        &self,
        target: &LValue,
        value: Option<&Expr>,
        index_exact: bool,
        branches: &[Vec<i32>],
        cap: usize,
        next: &mut Vec<Vec<i32>>,
    ) -> Result<(), TooLarge> {
        next.clear();
        for b in branches {
            let slots: Vec<u32> = match &target.index {
                None => vec![target.base],
                Some(_) if index_exact => match target.resolve(b) {
                    Ok(s) => vec![s],
                    Err(_) => continue, // a model error: no successor
                },
                Some(_) => (target.base..target.base + target.len).collect(),
            };
            for slot in slots {
                let Some(var) = self.net.variables.get(slot as usize) else {
                    continue;
                };
                if !self.pattern.has_var(slot) {
                    next.push(b.clone());
                } else if let Some(value) = value {
                    match value.eval(b) {
                        Ok(v) if v >= var.lo && v <= var.hi => {
                            let mut n = b.clone();
                            n[slot as usize] = v;
                            next.push(n);
                        }
                        _ => {} // a model error: no successor
                    }
                } else {
                    for v in var.lo..=var.hi {
                        let mut n = b.clone();
                        n[slot as usize] = v;
                        next.push(n);
                        if next.len() > cap {
                            return Err(TooLarge);
                        }
                    }
                }
            }
        }
        next.sort_unstable();
        next.dedup();
        if next.len() > cap {
            return Err(TooLarge);
        }
        Ok(())
    }
}

trait NonZero {
    fn is_none_or_nonzero(&self) -> bool;
}

impl<E> NonZero for Result<i32, E> {
    fn is_none_or_nonzero(&self) -> bool {
        !matches!(self, Ok(0))
    }
}

fn view(edge: &zeno_ir::Edge, pattern: &Pattern) -> EdgeView {
    let mut all = Vec::new();
    if let Some(g) = &edge.guard {
        g.conjuncts_into(&mut all);
    }
    let guards = all
        .into_iter()
        .filter(|g| reads_only(g, pattern))
        .cloned()
        .collect();
    let mut writes_pattern = false;
    let mut updates = Vec::new();
    for u in &edge.updates {
        updates.push(match u {
            Update::ResetClock { .. } => UpdateView::Clock,
            Update::Call(c) => {
                writes_pattern |= c.writes.iter().any(|&w| pattern.has_var(w));
                if c.reads.iter().all(|&r| pattern.has_var(r)) {
                    UpdateView::CallExact
                } else {
                    UpdateView::CallAnyValue
                }
            }
            Update::Assign { target, value } => {
                let len = if target.index.is_some() {
                    target.len
                } else {
                    1
                };
                writes_pattern |= (target.base..target.base + len).any(|v| pattern.has_var(v));
                UpdateView::Assign {
                    index_exact: target.index.as_ref().is_none_or(|i| reads_only(i, pattern)),
                    value_exact: reads_only(value, pattern),
                }
            }
        });
    }
    let channel_exact = edge.sync.as_ref().is_none_or(|s| {
        s.channel
            .index
            .as_ref()
            .is_none_or(|i| reads_only(i, pattern))
    });
    EdgeView {
        guards,
        writes_pattern,
        channel_exact,
        updates,
    }
}
