//! The causal graph heuristic hCG (thesis chapter 5, after Helmert's planner
//! heuristic): the network as "variable domain processes" (one per process,
//! with its locations, and one per integer slot, with its range) that move in
//! lockstep on global transitions; the causal graph between them; and the cost
//! of moving each one to a goal value by a Dijkstra search whose edge costs
//! include the setup cost of its causal predecessors (Fig. 5.4).
//!
//! Approximations, as in the thesis' implementation (§5.5.1): clocks are
//! ignored; a cyclic causal graph is made acyclic by ordering integer slots
//! before processes (in index order) and keeping only arcs that go forwards.
//! Guards are split at top-level `&&`; a conjunct reading one slot constrains
//! that slot exactly, others are ignored. An assignment whose value depends on
//! another slot may give any value. Slots with more than [`MAX_DOMAIN`] values
//! are left out. hCG is neither admissible nor complete (it may call a state a
//! dead end that is not one, thesis §5.4.4); dead ends are explored last by the
//! search, never pruned.

use rustc_hash::FxHashMap;

use zeno_ir::{ChannelKind, EdgeId, Expr, LocId, Network, ProcId, SyncDir, Update, VarId};

use super::EdgeSet;
use super::goal::{Atom, Conjunction};

/// Largest integer range turned into a variable domain process.
const MAX_DOMAIN: i64 = 512;
const INF: u32 = u32::MAX;

enum Kind {
    Var(VarId),
    Proc(ProcId),
}

/// A variable domain process (domain transition graph).
struct Vdp {
    kind: Kind,
    lo: i32,
    size: usize,
    /// Per value: the changing moves `(label, to)`.
    moves: Vec<Vec<(u32, u32)>>,
    /// Per relevant label (one that restricts or affects this process): the
    /// `(from, to)` pairs it allows.
    pairs: FxHashMap<u32, Vec<(u32, u32)>>,
    /// Causal predecessors kept by the order.
    preds: Vec<usize>,
}

pub(crate) struct CausalGraph {
    vdps: Vec<Vdp>,
    /// The goal per disjunct: `(vdp, allowed values)`.
    goal: Vec<Vec<(usize, Vec<bool>)>>,
    state: Vec<u32>,
    memo: FxHashMap<(usize, u32), usize>,
    tables: Vec<Vec<u32>>,
}

impl CausalGraph {
    pub(crate) fn new(network: &Network, goal: &[Conjunction], disabled: &EdgeSet) -> CausalGraph {
        let nvars = network.variables.len();
        let mut vdps = Vec::new();
        let mut var_vdp = vec![None; nvars];
        for (x, var) in network.variables.iter().enumerate() {
            let size = var.hi as i64 - var.lo as i64 + 1;
            if (1..=MAX_DOMAIN).contains(&size) {
                var_vdp[x] = Some(vdps.len());
                vdps.push(Vdp::new(Kind::Var(x as VarId), var.lo, size as usize));
            }
        }
        let proc_base = vdps.len();
        for (p, proc) in network.processes.iter().enumerate() {
            vdps.push(Vdp::new(
                Kind::Proc(p as ProcId),
                0,
                proc.locations.len().max(1),
            ));
        }
        let labels = labels(network, disabled);
        let mut scratch = vec![0i32; nvars];
        // Per label: the VDPs it restricts or affects, and those it affects.
        let mut arcs: Vec<(usize, usize)> = Vec::new();
        for (li, label) in labels.iter().enumerate() {
            let mut relevant = Vec::new();
            let mut affected = Vec::new();
            // Only the label's processes and the slots it tests alone or
            // writes can be restricted or affected by it.
            let edges: Vec<_> = label
                .iter()
                .map(|&(p, e)| &network.processes[p as usize].edges[e as usize])
                .collect();
            let mut singles: Vec<(VarId, &Expr)> = Vec::new();
            for edge in &edges {
                if let Some(g) = &edge.guard {
                    let mut cs = Vec::new();
                    g.conjuncts_into(&mut cs);
                    for c in cs {
                        if let [x] = reads(c).as_slice() {
                            singles.push((*x, c));
                        }
                    }
                }
            }
            let updates: Vec<&Update> = edges.iter().flat_map(|e| e.updates.iter()).collect();
            let mut touched: Vec<VarId> = singles.iter().map(|&(x, _)| x).collect();
            for u in &updates {
                match u {
                    Update::Assign { target, .. } => {
                        touched.extend(target.base..target.base + target.len)
                    }
                    Update::Call(c) => touched.extend(&c.writes),
                    Update::ResetClock { .. } => {}
                }
            }
            touched.sort_unstable();
            touched.dedup();
            let candidates = label.iter().map(|&(p, _)| proc_base + p as usize).chain(
                touched
                    .iter()
                    .filter_map(|&x| var_vdp.get(x as usize).copied().flatten()),
            );
            for vi in candidates {
                let vdp = &mut vdps[vi];
                let pairs = match vdp.kind {
                    Kind::Proc(p) => match label.iter().find(|(q, _)| *q == p) {
                        Some(&(_, e)) => {
                            let edge = &network.processes[p as usize].edges[e as usize];
                            vec![(edge.source, edge.target)]
                        }
                        None => continue,
                    },
                    Kind::Var(x) => {
                        let tests: Vec<&Expr> = singles
                            .iter()
                            .filter(|&&(y, _)| y == x)
                            .map(|&(_, c)| c)
                            .collect();
                        var_pairs(&tests, &updates, x, vdp.lo, vdp.size, &mut scratch)
                    }
                };
                let affects = pairs.iter().any(|(a, b)| a != b);
                let mut has_move = vec![false; vdp.size];
                for &(a, _) in &pairs {
                    if let Some(h) = has_move.get_mut(a as usize) {
                        *h = true;
                    }
                }
                let restricts = has_move.iter().any(|h| !h);
                if !affects && !restricts {
                    continue;
                }
                for &(a, b) in &pairs {
                    if a != b && (a as usize) < vdp.size && (b as usize) < vdp.size {
                        vdp.moves[a as usize].push((li as u32, b));
                    }
                }
                vdp.pairs.insert(li as u32, pairs);
                relevant.push(vi);
                if affects {
                    affected.push(vi);
                }
            }
            for &u in &relevant {
                for &v in &affected {
                    if u != v {
                        arcs.push((u, v));
                    }
                }
            }
        }
        // Order: slots before processes, by index (the VDP index itself).
        arcs.sort_unstable();
        arcs.dedup();
        for (u, v) in arcs {
            if u < v {
                vdps[v].preds.push(u);
            }
        }
        let goal = goal
            .iter()
            .filter_map(|c| goal_of(network, c, &vdps, &var_vdp, proc_base, &mut scratch))
            .collect();
        CausalGraph {
            state: vec![0; vdps.len()],
            vdps,
            goal,
            memo: FxHashMap::default(),
            tables: Vec::new(),
        }
    }

    pub(crate) fn estimate(&mut self, locations: &[LocId], variables: &[i32]) -> Option<u32> {
        for (i, vdp) in self.vdps.iter().enumerate() {
            let value = match vdp.kind {
                Kind::Proc(p) => locations.get(p as usize).copied().unwrap_or(0) as i64,
                Kind::Var(x) => {
                    variables.get(x as usize).copied().unwrap_or(vdp.lo) as i64 - vdp.lo as i64
                }
            };
            self.state[i] = value.clamp(0, vdp.size as i64 - 1) as u32;
        }
        self.memo.clear();
        self.tables.clear();
        let mut best = INF;
        for d in 0..self.goal.len() {
            let mut sum: u32 = 0;
            for k in 0..self.goal[d].len() {
                let v = self.goal[d][k].0;
                let t = cost(
                    &self.vdps,
                    &self.state,
                    &mut self.memo,
                    &mut self.tables,
                    v,
                    self.state[v],
                );
                let c = self.goal[d][k]
                    .1
                    .iter()
                    .enumerate()
                    .filter(|&(_, &ok)| ok)
                    .map(|(to, _)| self.tables[t][to])
                    .min()
                    .unwrap_or(INF);
                sum = if c == INF { INF } else { sum.saturating_add(c) };
                if sum == INF {
                    break;
                }
            }
            best = best.min(sum);
        }
        (best != INF).then_some(best)
    }
}

impl Vdp {
    fn new(kind: Kind, lo: i32, size: usize) -> Vdp {
        Vdp {
            kind,
            lo,
            size,
            moves: vec![Vec::new(); size],
            pairs: FxHashMap::default(),
            preds: Vec::new(),
        }
    }
}

/// Index in `tables` of the costs from `start` for VDP `v` (Fig. 5.4),
/// computed on first use for this state.
fn cost(
    vdps: &[Vdp],
    state: &[u32],
    memo: &mut FxHashMap<(usize, u32), usize>,
    tables: &mut Vec<Vec<u32>>,
    v: usize,
    start: u32,
) -> usize {
    if let Some(&t) = memo.get(&(v, start)) {
        return t;
    }
    let vdp = &vdps[v];
    let n = vdp.size;
    let mut dist = vec![INF; n];
    let mut done = vec![false; n];
    let preds = &vdp.preds;
    // context[l][i]: where predecessor i is assumed when l is first reached.
    let mut context: Vec<Vec<u32>> = vec![Vec::new(); n];
    dist[start as usize] = 0;
    context[start as usize] = preds.iter().map(|&p| state[p]).collect();
    // The cheapest unfinished value (domains are small: a linear scan).
    while let Some(l) = (0..n)
        .filter(|&l| !done[l] && dist[l] != INF)
        .min_by_key(|&l| dist[l])
    {
        done[l] = true;
        for &(label, to) in &vdp.moves[l] {
            if done[to as usize] {
                continue;
            }
            let mut total = dist[l].saturating_add(1);
            let mut next = context[l].clone();
            for (i, &p) in preds.iter().enumerate() {
                let Some(pairs) = vdps[p].pairs.get(&label) else {
                    continue; // irrelevant for p
                };
                let m = context[l][i];
                let t = cost(vdps, state, memo, tables, p, m);
                let best = pairs
                    .iter()
                    .filter(|&&(a, _)| (a as usize) < vdps[p].size)
                    .map(|&(a, b)| (tables[t][a as usize], b))
                    .min();
                match best {
                    Some((c, b)) if c != INF => {
                        total = total.saturating_add(c);
                        next[i] = b;
                    }
                    _ => {
                        total = INF;
                        break;
                    }
                }
            }
            if total < dist[to as usize] {
                dist[to as usize] = total;
                context[to as usize] = next;
            }
        }
    }
    tables.push(dist);
    memo.insert((v, start), tables.len() - 1);
    tables.len() - 1
}

/// The global transitions, each as its edges: single edges without a
/// synchronisation, sender-receiver pairs (binary and broadcast; a broadcast
/// sender also alone). Disabled edges are left out.
fn labels(network: &Network, disabled: &EdgeSet) -> Vec<Vec<(ProcId, EdgeId)>> {
    let mut out = Vec::new();
    let mut receivers: Vec<Vec<(ProcId, EdgeId)>> = vec![Vec::new(); network.channels.len()];
    for (p, proc) in network.processes.iter().enumerate() {
        for (e, edge) in proc.edges.iter().enumerate() {
            if let Some(s) = &edge.sync
                && s.dir == SyncDir::Receive
                && !disabled.contains(p as ProcId, e as EdgeId)
                && let Some(list) = receivers.get_mut(s.channel.base as usize)
            {
                list.push((p as ProcId, e as EdgeId));
            }
        }
    }
    for (p, proc) in network.processes.iter().enumerate() {
        for (e, edge) in proc.edges.iter().enumerate() {
            let me = (p as ProcId, e as EdgeId);
            if disabled.contains(me.0, me.1) {
                continue;
            }
            match &edge.sync {
                None => out.push(vec![me]),
                Some(s) if s.dir == SyncDir::Send => {
                    let c = s.channel.base as usize;
                    let broadcast = network
                        .channels
                        .get(c)
                        .is_some_and(|ch| ch.kind == ChannelKind::Broadcast);
                    if broadcast {
                        out.push(vec![me]);
                    }
                    for &r in receivers.get(c).map_or(&[][..], |v| v.as_slice()) {
                        if r.0 != me.0 {
                            out.push(vec![me, r]);
                        }
                    }
                }
                Some(_) => {}
            }
        }
    }
    out
}

/// Slots an expression reads.
fn reads(e: &Expr) -> Vec<VarId> {
    let mut r = Vec::new();
    e.for_each_read(&mut |v| r.push(v));
    r.sort_unstable();
    r.dedup();
    r
}

/// The `(from, to)` value pairs (as offsets from `lo`) allowed on slot `x` by
/// a label with the guard conjuncts `tests` (reading `x` alone) and `updates`.
fn var_pairs(
    tests: &[&Expr],
    updates: &[&Update],
    x: VarId,
    lo: i32,
    size: usize,
    scratch: &mut [i32],
) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for off in 0..size {
        let v1 = lo + off as i32;
        scratch[x as usize] = v1;
        if !tests.iter().all(|t| t.eval(scratch).is_ok_and(|r| r != 0)) {
            continue;
        }
        // The value of x through the updates; `None` once it is unknown.
        let mut value = Some(v1);
        for u in updates {
            let (target, rhs) = match u {
                Update::Assign { target, value } => (target, value),
                // A call that may write x leaves any value of it.
                Update::Call(c) if c.writes.contains(&x) => {
                    value = None;
                    break;
                }
                _ => continue,
            };
            if !(x >= target.base && x < target.base + target.len) {
                continue;
            }
            let slot = match &target.index {
                None => Some(target.base),
                Some(Expr::Const(k)) => Some(target.base + *k as u32),
                Some(_) => None,
            };
            let r = reads(rhs);
            value = match (slot, value) {
                (Some(s), Some(cur)) if s == x && r.iter().all(|&v| v == x) => {
                    scratch[x as usize] = cur;
                    rhs.eval(scratch).ok()
                }
                (Some(s), v) if s != x => v,
                _ => None,
            };
            if value.is_none() {
                break;
            }
        }
        match value {
            Some(v2) if v2 >= lo && ((v2 - lo) as usize) < size => {
                pairs.push((off as u32, (v2 - lo) as u32))
            }
            Some(_) => {} // out of range: a model error, not a move
            None => pairs.extend((0..size as u32).map(|t| (off as u32, t))),
        }
    }
    pairs
}

/// One goal disjunct as allowed values per VDP; `None` if unsatisfiable.
fn goal_of(
    network: &Network,
    c: &Conjunction,
    vdps: &[Vdp],
    var_vdp: &[Option<usize>],
    proc_base: usize,
    scratch: &mut [i32],
) -> Option<Vec<(usize, Vec<bool>)>> {
    let mut allowed: FxHashMap<usize, Vec<bool>> = FxHashMap::default();
    for atom in c {
        let (v, ok): (usize, Vec<bool>) = match atom {
            Atom::At(p, l) | Atom::NotAt(p, l) => {
                let v = proc_base + *p as usize;
                let n = vdps.get(v)?.size;
                let at = matches!(atom, Atom::At(..));
                (v, (0..n).map(|k| (k == *l as usize) == at).collect())
            }
            Atom::Data(e) => {
                let r = reads(e);
                let [x] = r.as_slice() else { continue };
                let Some(v) = var_vdp.get(*x as usize).copied().flatten() else {
                    continue;
                };
                let lo = network.variables[*x as usize].lo;
                let ok = (0..vdps[v].size)
                    .map(|k| {
                        scratch[*x as usize] = lo + k as i32;
                        e.eval(scratch).is_ok_and(|r| r != 0)
                    })
                    .collect();
                (v, ok)
            }
        };
        let entry = allowed.entry(v).or_insert_with(|| vec![true; ok.len()]);
        for (a, b) in entry.iter_mut().zip(ok) {
            *a &= b;
        }
    }
    if allowed.values().any(|a| a.iter().all(|ok| !ok)) {
        return None;
    }
    let mut out: Vec<_> = allowed.into_iter().collect();
    out.sort_by_key(|(v, _)| *v);
    Some(out)
}
