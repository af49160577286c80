//! Interference contexts (thesis §4.2): which transitions profit from the
//! effect of the transition that reached a state.
//!
//! Two transitions interfere when one writes a slot the other reads, or both
//! write the same slot (Definition 4.3). `C_0(t) = {t}` and `C_n(t)` adds the
//! transitions interfering with one in `C_{n-1}(t)` (Definition 4.4).
//!
//! Transitions are sets of edges (one, or the partners of a synchronisation),
//! and read/write sets are unions over the edges, so `t` interferes with `t'`
//! exactly when an edge of `t` interferes with an edge of `t'`. The context
//! levels are therefore computed on edges, once per source edge (lazily): a
//! breadth-first search that alternates interference steps with "belongs to
//! the same transition" steps (edges that may synchronise with each other).
//! Synchronisation vectors join the edges their participants may take in
//! the same way as a channel joins its senders and receivers.
//! Taking every edge that *may* synchronise with a reached edge over-approximates
//! `C_n`, which only lowers some levels; the search stays complete because
//! states are deferred, never dropped.

use zeno_ir::{Formula, LocId, Network, ProcId, SyncDir};

use super::footprint::{Footprints, expr_reads, intersects};

/// Level of a transition outside `C(t)`.
pub const UNRELATED: u16 = u16::MAX;

/// The interference contexts of every edge of a network, computed as the
/// search asks for them.
pub struct Contexts {
    fp: Footprints,
    /// Per slot: edges reading it and edges writing it.
    readers: Vec<Vec<u32>>,
    writers: Vec<Vec<u32>>,
    /// Per channel: edges sending and edges receiving on it.
    senders: Vec<Vec<u32>>,
    receivers: Vec<Vec<u32>>,
    /// Per synchronisation vector: the edges its participants may take;
    /// and per edge, the vectors it may take part in.
    vector_edges: Vec<Vec<u32>>,
    vectors_of: Vec<Vec<u32>>,
    /// `rows[a][e]`: the smallest `n >= 1` with an edge-`e` transition in
    /// `C_n` of an edge-`a` transition, computed on first use.
    rows: Vec<Option<Vec<u16>>>,
    /// Per edge: whether its effect can newly satisfy a goal constraint.
    guilty: Vec<bool>,
}

impl Contexts {
    /// The contexts of `net`'s edges for reaching `goal`.
    pub fn new(net: &Network, goal: &Formula) -> Contexts {
        let fp = Footprints::new(net);
        let mut readers = vec![Vec::new(); fp.nslots];
        let mut writers = vec![Vec::new(); fp.nslots];
        for e in 0..fp.len() {
            for &s in &fp.reads[e] {
                readers[s as usize].push(e as u32);
            }
            for &s in &fp.writes[e] {
                writers[s as usize].push(e as u32);
            }
        }
        let mut senders = vec![Vec::new(); net.channels.len()];
        let mut receivers = vec![Vec::new(); net.channels.len()];
        // An edge on `a[i]` with `i` computed at run time may use every
        // element of `a`: it is listed under each.
        for (e, s) in fp.sync.iter().enumerate() {
            let Some((chans, dir)) = s else { continue };
            for c in chans.clone() {
                if let Some(list) = match dir {
                    SyncDir::Send => senders.get_mut(c as usize),
                    SyncDir::Receive => receivers.get_mut(c as usize),
                } {
                    list.push(e as u32);
                }
            }
        }
        let mut vector_edges = Vec::new();
        let mut vectors_of = vec![Vec::new(); fp.len()];
        for (v, vector) in net.vectors.iter().enumerate() {
            let mut edges = Vec::new();
            for part in &vector.participants {
                let Some(proc_) = net.processes.get(part.process as usize) else {
                    continue;
                };
                for (e, edge) in proc_.edges.iter().enumerate() {
                    if edge.label.as_deref() == Some(part.label.as_str()) {
                        let x = fp.index(part.process, e as u32);
                        edges.push(x as u32);
                        vectors_of[x].push(v as u32);
                    }
                }
            }
            vector_edges.push(edges);
        }
        let mut guilty = vec![false; fp.len()];
        mark_guilty(net, &fp, goal, true, &mut guilty);
        Contexts {
            vector_edges,
            vectors_of,
            rows: vec![None; fp.len()],
            fp,
            readers,
            writers,
            senders,
            receivers,
            guilty,
        }
    }

    /// A transition is innocent when none of its edges can make a goal
    /// constraint true that was false before (thesis §4.2).
    pub fn innocent(&self, t: &[(ProcId, u32)]) -> bool {
        t.iter().all(|&(p, e)| !self.guilty[self.fp.index(p, e)])
    }

    /// The smallest `n` with `to` in `C_n(from)`, or [`UNRELATED`].
    pub fn level(&mut self, from: &[(ProcId, u32)], to: &[(ProcId, u32)]) -> u16 {
        if from == to {
            return 0;
        }
        let mut best = UNRELATED;
        for &(p, e) in from {
            let a = self.fp.index(p, e);
            if self.rows[a].is_none() {
                self.rows[a] = Some(self.row(a));
            }
            let Some(row) = &self.rows[a] else { continue };
            for &(q, f) in to {
                best = best.min(row[self.fp.index(q, f)]);
            }
        }
        best
    }

    /// Levels of every edge from source edge `a` (breadth-first).
    fn row(&self, a: usize) -> Vec<u16> {
        let n = self.fp.len();
        let mut level = vec![UNRELATED; n];
        let mut active = vec![false; n];
        let mut read_done = vec![false; self.fp.nslots];
        let mut write_done = vec![false; self.fp.nslots];
        let mut chan_done = vec![false; self.senders.len()];
        let mut vector_done = vec![false; self.vector_edges.len()];
        active[a] = true;
        let mut fresh = vec![a as u32];
        let mut depth: u16 = 0;
        while !fresh.is_empty() && depth < UNRELATED - 1 {
            depth += 1;
            let mut reached = Vec::new();
            let mut hit = |e: u32, reached: &mut Vec<u32>| {
                if level[e as usize] == UNRELATED {
                    level[e as usize] = depth;
                    reached.push(e);
                }
            };
            for &x in &fresh {
                let x = x as usize;
                // x writes s: every reader and writer of s interferes.
                for &s in &self.fp.writes[x] {
                    if !write_done[s as usize] {
                        write_done[s as usize] = true;
                        for &y in self.readers[s as usize]
                            .iter()
                            .chain(&self.writers[s as usize])
                        {
                            hit(y, &mut reached);
                        }
                    }
                }
                // x reads s: every writer of s interferes.
                for &s in &self.fp.reads[x] {
                    if !read_done[s as usize] {
                        read_done[s as usize] = true;
                        for &y in &self.writers[s as usize] {
                            hit(y, &mut reached);
                        }
                    }
                }
            }
            // The transitions holding a reached edge are in C_depth: all
            // their edges become active (partners of a synchronisation).
            fresh.clear();
            for y in reached {
                if !active[y as usize] {
                    active[y as usize] = true;
                    fresh.push(y);
                }
                for &v in &self.vectors_of[y as usize] {
                    if !vector_done[v as usize] {
                        vector_done[v as usize] = true;
                        for &z in &self.vector_edges[v as usize] {
                            if !active[z as usize] {
                                active[z as usize] = true;
                                fresh.push(z);
                            }
                        }
                    }
                }
                let Some((chans, _)) = &self.fp.sync[y as usize] else {
                    continue;
                };
                for c in chans.clone().map(|c| c as usize) {
                    if c >= chan_done.len() || chan_done[c] {
                        continue;
                    }
                    chan_done[c] = true;
                    for &z in self.senders[c].iter().chain(&self.receivers[c]) {
                        if !active[z as usize] {
                            active[z as usize] = true;
                            fresh.push(z);
                        }
                    }
                }
            }
        }
        level
    }
}

/// Marks the edges that can newly satisfy an atom of the goal. Locations:
/// `p.l` becomes true only by entering `l`, `!p.l` only by leaving it. Data
/// and clock atoms: any edge writing a slot the atom reads. `deadlock`
/// depends on everything.
fn mark_guilty(net: &Network, fp: &Footprints, f: &Formula, positive: bool, out: &mut [bool]) {
    match f {
        Formula::True | Formula::False => {}
        Formula::At { process, location } => {
            let Some(proc) = net.processes.get(*process as usize) else {
                return;
            };
            let l: LocId = *location;
            for (e, edge) in proc.edges.iter().enumerate() {
                let newly = if positive {
                    edge.target == l && edge.source != l
                } else {
                    edge.source == l && edge.target != l
                };
                if newly {
                    out[fp.index(*process, e as u32)] = true;
                }
            }
        }
        Formula::Data(expr) => {
            let mut slots = Vec::new();
            expr_reads(expr, &mut slots);
            mark_writers(fp, slots, out);
        }
        Formula::Clock(cc) => {
            let mut slots = Vec::new();
            super::footprint::clock_reads(cc, fp.nvars, &mut slots);
            mark_writers(fp, slots, out);
        }
        Formula::Deadlock => out.iter_mut().for_each(|g| *g = true),
        Formula::Not(g) => mark_guilty(net, fp, g, !positive, out),
        Formula::And(fs) | Formula::Or(fs) => {
            for g in fs {
                mark_guilty(net, fp, g, positive, out);
            }
        }
    }
}

fn mark_writers(fp: &Footprints, mut slots: Vec<u32>, out: &mut [bool]) {
    slots.sort_unstable();
    slots.dedup();
    for (e, w) in fp.writes.iter().enumerate() {
        if intersects(w, &slots) {
            out[e] = true;
        }
    }
}
