//! What each edge reads and writes, statically: the "variables" of thesis
//! §4.2.1 (integer slots, clocks and the location of the edge's process).
//!
//! Slots are numbered: data variables `0 .. nv`, clocks `nv .. nv + nc`,
//! process locations `nv + nc ..`. An array access with a constant index
//! touches one element, any other index the whole array (an over-approximation,
//! which only makes more transitions interfere).

use std::ops::Range;

use zeno_ir::{
    ChannelKind, ClockConstraint, EdgeId, Expr, LValue, Network, ProcId, SyncDir, Update,
};

/// Read and write sets of every edge of a network, indexed by a dense edge number.
pub struct Footprints {
    /// First dense edge number of each process.
    pub offset: Vec<usize>,
    /// `(process, edge)` of each dense edge number.
    pub edges: Vec<(ProcId, EdgeId)>,
    /// Sorted, without duplicates; the edge's own process location included.
    pub reads: Vec<Vec<u32>>,
    /// Sorted, without duplicates; the edge's own process location included
    /// unless the edge is a self-loop.
    pub writes: Vec<Vec<u32>>,
    /// Synchronisation of each edge: the channels it may use (one, or every
    /// element of a channel array indexed at run time) and whether it sends.
    pub sync: Vec<Option<(Range<u32>, SyncDir)>>,
    /// Broadcast flag per channel.
    pub broadcast: Vec<bool>,
    /// Variable slots (the first slots).
    pub nvars: usize,
    /// Clocks (the slots after the variables).
    pub nclocks: usize,
    /// Every slot: variables, clocks, then one location slot per process.
    pub nslots: usize,
}

impl Footprints {
    /// The footprints of `net`'s edges.
    pub fn new(net: &Network) -> Footprints {
        let nvars = net.variables.len();
        let nclocks = net.clocks.len();
        let nslots = nvars + nclocks + net.processes.len();
        let mut fp = Footprints {
            offset: Vec::with_capacity(net.processes.len()),
            edges: Vec::new(),
            reads: Vec::new(),
            writes: Vec::new(),
            sync: Vec::new(),
            broadcast: net
                .channels
                .iter()
                .map(|c| c.kind == ChannelKind::Broadcast)
                .collect(),
            nvars,
            nclocks,
            nslots,
        };
        for (p, proc) in net.processes.iter().enumerate() {
            fp.offset.push(fp.edges.len());
            let loc_slot = (nvars + nclocks + p) as u32;
            for (e, edge) in proc.edges.iter().enumerate() {
                let mut r = vec![loc_slot];
                // A self-loop leaves the location as it is: it reads it
                // (the edge needs it) but writes nothing there.
                let mut w = if edge.source == edge.target {
                    Vec::new()
                } else {
                    vec![loc_slot]
                };
                if let Some(g) = &edge.guard {
                    expr_reads(g, &mut r);
                }
                for cc in &edge.clock_guard {
                    clock_reads(cc, nvars, &mut r);
                }
                if let Some(s) = &edge.sync
                    && let Some(i) = &s.channel.index
                {
                    expr_reads(i, &mut r);
                }
                for u in &edge.updates {
                    match u {
                        Update::Assign { target, value } => {
                            expr_reads(value, &mut r);
                            lvalue(target, &mut r, &mut w);
                        }
                        Update::ResetClock { clock, .. } => w.push((nvars as u32) + clock),
                        // A call may write each slot of its footprint, or
                        // leave it: it reads what it may write too. Every
                        // clock it may reset counts as written (over-
                        // approximating writes only adds dependencies).
                        Update::Call(c) => {
                            r.extend(&c.reads);
                            r.extend(&c.writes);
                            w.extend(&c.writes);
                            w.extend(c.may_reset.iter().map(|x| nvars as u32 + x));
                        }
                    }
                }
                // Data invariants: the edge is enabled only if the invariant
                // of its target holds after the updates, and those of the
                // other processes' locations too, when it writes what they read.
                if let Some(d) = &proc.locations[edge.target as usize].data_invariant {
                    expr_reads(d, &mut r);
                }
                for (q, other) in net.processes.iter().enumerate() {
                    if q == p {
                        continue;
                    }
                    for d in other
                        .locations
                        .iter()
                        .filter_map(|l| l.data_invariant.as_ref())
                    {
                        let mut dr = Vec::new();
                        expr_reads(d, &mut dr);
                        if dr.iter().any(|s| w.contains(s)) {
                            r.extend(dr);
                            r.push((nvars + nclocks + q) as u32);
                        }
                    }
                }
                r.sort_unstable();
                r.dedup();
                w.sort_unstable();
                w.dedup();
                fp.edges.push((p as ProcId, e as EdgeId));
                fp.reads.push(r);
                fp.writes.push(w);
                fp.sync.push(edge.sync.as_ref().map(|s| {
                    let c = &s.channel;
                    (c.base..c.base + c.len.max(1), s.dir)
                }));
            }
        }
        fp
    }

    /// The number of edges.
    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// Whether the network has no edge.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// Dense number of edge `e` of process `p`.
    pub fn index(&self, p: ProcId, e: EdgeId) -> usize {
        self.offset[p as usize] + e as usize
    }

    /// Slot of the location of process `p`.
    pub fn location_slot(&self, p: ProcId) -> u32 {
        (self.nvars + self.nclocks) as u32 + p
    }

    /// Whether a slot is a data variable or a clock (not a process location).
    pub fn is_data(&self, slot: u32) -> bool {
        (slot as usize) < self.nvars + self.nclocks
    }
}

/// Slots an expression reads.
pub fn expr_reads(e: &Expr, out: &mut Vec<u32>) {
    match e {
        Expr::Const(_) => {}
        Expr::Var(v) => out.push(*v),
        Expr::Index { base, len, index } => {
            element(*base, *len, index, out);
            expr_reads(index, out);
        }
        Expr::Checked { index: a, .. } | Expr::Unary(_, a) => expr_reads(a, out),
        Expr::Binary(_, a, b) => {
            expr_reads(a, out);
            expr_reads(b, out);
        }
        Expr::Call(c) => out.extend(&c.reads),
        Expr::Cond(c, a, b) => {
            expr_reads(c, out);
            expr_reads(a, out);
            expr_reads(b, out);
        }
    }
}

/// Clock slots and bound variables of a clock constraint (clock 0 is the
/// constant reference clock and never counted).
pub fn clock_reads(cc: &ClockConstraint, nvars: usize, out: &mut Vec<u32>) {
    for c in [cc.i, cc.j] {
        if c != 0 {
            out.push(nvars as u32 + c);
        }
    }
    expr_reads(&cc.bound, out);
}

fn lvalue(target: &LValue, reads: &mut Vec<u32>, writes: &mut Vec<u32>) {
    match &target.index {
        None => writes.push(target.base),
        Some(i) => {
            element(target.base, target.len, i, writes);
            expr_reads(i, reads);
        }
    }
}

/// The slot of `base[index]`: one element for a constant index in range,
/// otherwise the whole array.
fn element(base: u32, len: u32, index: &Expr, out: &mut Vec<u32>) {
    match index {
        Expr::Const(k) if *k >= 0 && (*k as u32) < len => out.push(base + *k as u32),
        _ => out.extend(base..base + len),
    }
}

/// Whether two sorted slot lists share an element.
pub fn intersects(a: &[u32], b: &[u32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}
