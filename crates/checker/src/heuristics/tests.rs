//! Hand-computed values on small networks, and an admissibility check against
//! exact goal distances found by breadth-first search on the discrete state
//! space of random clock-free networks.

use std::collections::{HashMap, VecDeque};

use proptest::prelude::*;

use super::{EdgeSet, build};
use crate::HeuristicKind;
use zeno_ir::*;

const KINDS: [HeuristicKind; 4] = [
    HeuristicKind::DL,
    HeuristicKind::DU,
    HeuristicKind::HL,
    HeuristicKind::HU,
];

// ---------------------------------------------------------------- builders

pub(super) fn net() -> Network {
    Network::default()
}

pub(super) fn var(n: &mut Network, lo: i32, hi: i32, init: i32) -> VarId {
    n.variables.push(Variable {
        name: format!("v{}", n.variables.len()),
        lo,
        hi,
        init,
        is_bool: false,
        span: Span::default(),
    });
    n.variables.len() as VarId - 1
}

pub(super) fn chan(n: &mut Network, kind: ChannelKind) -> ChanId {
    n.channels.push(Channel {
        name: format!("c{}", n.channels.len()),
        kind,
        urgent: false,
        span: Span::default(),
    });
    n.channels.len() as ChanId - 1
}

pub(super) fn process(n: &mut Network, locations: usize) -> ProcId {
    n.processes.push(Process {
        name: format!("P{}", n.processes.len()),
        template: "P".into(),
        locations: (0..locations)
            .map(|i| Location {
                name: format!("l{i}"),
                kind: LocationKind::Normal,
                invariant: vec![],
                data_invariant: None,
                stopped: Vec::new(),
                running: Vec::new(),
                data_rates: Vec::new(),
                span: Span::default(),
            })
            .collect(),
        edges: vec![],
        initial: 0,
        span: Span::default(),
    });
    n.processes.len() as ProcId - 1
}

pub(super) fn edge(n: &mut Network, p: ProcId, source: LocId, target: LocId) -> &mut Edge {
    let edges = &mut n.processes[p as usize].edges;
    edges.push(Edge {
        source,
        target,
        guard: None,
        clock_guard: vec![],
        sync: None,
        label: None,
        updates: vec![],
        selects: vec![],
        span: Span::default(),
    });
    edges.last_mut().expect("just pushed")
}

/// Edge `k` of process `p`, to change.
pub(super) fn edge_mut(n: &mut Network, p: ProcId, k: usize) -> &mut Edge {
    &mut n.processes[p as usize].edges[k]
}

/// A new channel of `kind` and two new processes of two locations, P
/// sending on it and Q receiving, each by one edge 0 -> 1: (P, Q).
pub(super) fn handshake(n: &mut Network, kind: ChannelKind) -> (ProcId, ProcId) {
    let c = chan(n, kind);
    let p = process(n, 2);
    sync(edge(n, p, 0, 1), c, SyncDir::Send);
    let q = process(n, 2);
    sync(edge(n, q, 0, 1), c, SyncDir::Receive);
    (p, q)
}

pub(super) fn sync(e: &mut Edge, c: ChanId, dir: SyncDir) {
    e.sync = Some(Sync {
        channel: ChanRef {
            base: c,
            len: 1,
            index: None,
        },
        dir,
    });
}

pub(super) fn assign(e: &mut Edge, v: VarId, value: Expr) {
    e.updates.push(Update::Assign {
        target: LValue {
            base: v,
            len: 1,
            index: None,
        },
        value,
    });
}

pub(super) fn x(v: VarId) -> Box<Expr> {
    Box::new(Expr::Var(v))
}
pub(super) fn k(c: i32) -> Box<Expr> {
    Box::new(Expr::Const(c))
}
pub(super) fn cmp(op: BinOp, v: VarId, c: i32) -> Expr {
    Expr::Binary(op, x(v), k(c))
}
pub(super) fn at(p: ProcId, l: LocId) -> Formula {
    Formula::At {
        process: p,
        location: l,
    }
}

/// All four estimates at a state, in the order dL, dU, hL, hU.
fn all(
    n: &Network,
    goal: &Formula,
    disabled: &EdgeSet,
    locs: &[LocId],
    vars: &[i32],
) -> [Option<u32>; 4] {
    KINDS.map(|kind| build(kind, n, goal, disabled).estimate(locs, vars))
}

fn initial(n: &Network, goal: &Formula) -> [Option<u32>; 4] {
    all(
        n,
        goal,
        &EdgeSet::none(n),
        &n.initial_locations(),
        &n.initial_variables(),
    )
}

// ---------------------------------------------------------------- hand-computed values

#[test]
fn chain_of_locations() {
    let mut n = net();
    let p = process(&mut n, 4);
    for l in 0..3 {
        edge(&mut n, p, l, l + 1);
    }
    let goal = at(p, 3);
    assert_eq!(initial(&n, &goal), [Some(3); 4]);
    let none = EdgeSet::none(&n);
    assert_eq!(all(&n, &goal, &none, &[2], &[]), [Some(1); 4]);
    assert_eq!(all(&n, &goal, &none, &[3], &[]), [Some(0); 4]);
    let zero = build(HeuristicKind::Zero, &n, &goal, &none).estimate(&[0], &[]);
    assert_eq!(zero, Some(0));
}

#[test]
fn two_processes_max_versus_sum() {
    let mut n = net();
    let p = process(&mut n, 3);
    let q = process(&mut n, 2);
    edge(&mut n, p, 0, 1);
    edge(&mut n, p, 1, 2);
    edge(&mut n, q, 0, 1);
    let goal = Formula::And(vec![at(p, 2), at(q, 1)]);
    // dL = max(2, 1), dU = 2 + 1; both processes move in parallel layers, so
    // hL = 2, and the plan has P's two moves and Q's one.
    assert_eq!(initial(&n, &goal), [Some(2), Some(3), Some(2), Some(3)]);
}

#[test]
fn guard_set_by_another_process() {
    let mut n = net();
    let v = var(&mut n, 0, 1, 0);
    let p = process(&mut n, 2);
    let q = process(&mut n, 2);
    edge(&mut n, p, 0, 1).guard = Some(cmp(BinOp::Eq, v, 1));
    assign(edge(&mut n, q, 0, 1), v, Expr::Const(1));
    let goal = at(p, 1);
    // Location distance ignores the guard; the ATG needs Q's move first.
    assert_eq!(initial(&n, &goal), [Some(1), Some(1), Some(2), Some(2)]);
    // Once x = 1 (Q moved), one step remains.
    assert_eq!(
        all(&n, &goal, &EdgeSet::none(&n), &[0, 1], &[1]),
        [Some(1); 4]
    );
}

#[test]
fn binary_synchronisation_needs_both_sides() {
    let mut n = net();
    let c = chan(&mut n, ChannelKind::Binary);
    let p = process(&mut n, 2);
    let q = process(&mut n, 3);
    sync(edge(&mut n, p, 0, 1), c, SyncDir::Send);
    edge(&mut n, q, 0, 1);
    sync(edge(&mut n, q, 1, 2), c, SyncDir::Receive);
    let goal = Formula::And(vec![at(p, 1), at(q, 2)]);
    // Layer 1: Q at 1; layer 2: the synchronisation; the plan is Q's move and
    // the synchronisation counted once.
    assert_eq!(initial(&n, &goal), [Some(2), Some(3), Some(2), Some(2)]);
    // Without a receiver the sender can never move.
    let only_p = at(p, 1);
    let mut lone = n.clone();
    lone.processes[q as usize].edges.clear();
    assert_eq!(initial(&lone, &only_p), [Some(1), Some(1), None, None]);
}

#[test]
fn broadcast_fires_sender_with_all_receivers() {
    let mut n = net();
    let b = chan(&mut n, ChannelKind::Broadcast);
    let p = process(&mut n, 2);
    let q = process(&mut n, 2);
    let r = process(&mut n, 2);
    sync(edge(&mut n, p, 0, 1), b, SyncDir::Send);
    sync(edge(&mut n, q, 0, 1), b, SyncDir::Receive);
    sync(edge(&mut n, r, 0, 1), b, SyncDir::Receive);
    let goal = Formula::And(vec![at(q, 1), at(r, 1)]);
    assert_eq!(initial(&n, &goal), [Some(1), Some(2), Some(1), Some(1)]);
    // A broadcast sender needs no receiver.
    let mut lone = n.clone();
    lone.processes.truncate(1);
    assert_eq!(initial(&lone, &at(p, 1)), [Some(1); 4]);
}

#[test]
fn channel_array_index_comes_from_variables() {
    let mut n = net();
    let i = var(&mut n, 0, 1, 0);
    let c = chan(&mut n, ChannelKind::Binary);
    chan(&mut n, ChannelKind::Binary); // c[1]
    let p = process(&mut n, 2);
    let q = process(&mut n, 2);
    let s = process(&mut n, 2);
    edge(&mut n, p, 0, 1).sync = Some(Sync {
        channel: ChanRef {
            base: c,
            len: 2,
            index: Some(Expr::Var(i)),
        },
        dir: SyncDir::Send,
    });
    sync(edge(&mut n, q, 0, 1), c + 1, SyncDir::Receive);
    assign(edge(&mut n, s, 0, 1), i, Expr::Const(1));
    let goal = at(q, 1);
    assert_eq!(initial(&n, &goal), [Some(1), Some(1), Some(2), Some(2)]);
    let mut no_setter = n.clone();
    no_setter.processes[s as usize].edges.clear();
    assert_eq!(initial(&no_setter, &goal), [Some(1), Some(1), None, None]);
}

#[test]
fn sender_and_receiver_on_the_same_array_element() {
    let mut n = net();
    let i = var(&mut n, 0, 1, 0);
    let d = chan(&mut n, ChannelKind::Binary);
    chan(&mut n, ChannelKind::Binary); // d[1]
    let p = process(&mut n, 2);
    let q = process(&mut n, 1);
    let d_i = |dir| Sync {
        channel: ChanRef {
            base: d,
            len: 2,
            index: Some(Expr::Var(i)),
        },
        dir,
    };
    edge(&mut n, p, 0, 1).sync = Some(d_i(SyncDir::Receive));
    edge(&mut n, q, 0, 0).sync = Some(d_i(SyncDir::Send));
    assert_eq!(initial(&n, &at(p, 1)), [Some(1); 4]);
}

#[test]
fn unreachable_goal_is_none() {
    let mut n = net();
    let v = var(&mut n, 0, 7, 0);
    let p = process(&mut n, 3);
    edge(&mut n, p, 0, 1).guard = Some(cmp(BinOp::Eq, v, 5));
    // Location 2 has no incoming edge: unreachable for everyone.
    assert_eq!(initial(&n, &at(p, 2)), [None; 4]);
    // Location 1 is one edge away, but nothing ever sets v to 5.
    assert_eq!(initial(&n, &at(p, 1)), [Some(1), Some(1), None, None]);
    // Contradictory goals are unreachable too.
    let contradiction = Formula::And(vec![at(p, 1), at(p, 0)]);
    assert_eq!(initial(&n, &contradiction), [None; 4]);
}

#[test]
fn disabled_edges_change_the_value() {
    let mut n = net();
    let p = process(&mut n, 3);
    edge(&mut n, p, 0, 1); // e0
    edge(&mut n, p, 0, 2); // e1
    edge(&mut n, p, 2, 1); // e2
    let goal = at(p, 1);
    let mut off = EdgeSet::none(&n);
    assert_eq!(all(&n, &goal, &off, &[0], &[]), [Some(1); 4]);
    off.disabled[0][0] = true;
    assert!(off.contains(0, 0));
    assert_eq!(all(&n, &goal, &off, &[0], &[]), [Some(2); 4]);
    off.disabled[0][2] = true;
    assert_eq!(all(&n, &goal, &off, &[0], &[]), [None; 4]);
}

#[test]
fn counter_needs_one_layer_per_increment() {
    let mut n = net();
    let v = var(&mut n, 0, 10, 0);
    let p = process(&mut n, 1);
    let e = edge(&mut n, p, 0, 0);
    e.guard = Some(cmp(BinOp::Lt, v, 5));
    assign(e, v, Expr::Binary(BinOp::Add, x(v), k(1)));
    let goal = Formula::Data(cmp(BinOp::Eq, v, 5));
    // No location in the goal: dL = dU = 0. Five increments, each on its own
    // layer, and the plan traces the chain back through the inputs.
    assert_eq!(initial(&n, &goal), [Some(0), Some(0), Some(5), Some(5)]);
    // v == 6 is out of reach: the guard stops at 5.
    let six = Formula::Data(cmp(BinOp::Eq, v, 6));
    assert_eq!(initial(&n, &six)[2..], [None, None]);
}

#[test]
fn receiver_reads_the_senders_update_but_its_guard_the_old_state() {
    let mut n = net();
    let a = var(&mut n, 0, 3, 0);
    let b = var(&mut n, 0, 3, 0);
    let (p, q) = handshake(&mut n, ChannelKind::Binary);
    assign(edge_mut(&mut n, p, 0), a, Expr::Const(1));
    let recv = edge_mut(&mut n, q, 0);
    recv.guard = Some(cmp(BinOp::Ne, a, 1));
    assign(recv, b, Expr::Var(a));
    // The guard sees a = 0, the update sees a = 1: b == 1 after one step.
    let goal = Formula::Data(cmp(BinOp::Eq, b, 1));
    assert_eq!(initial(&n, &goal), [Some(0), Some(0), Some(1), Some(1)]);
}

#[test]
fn large_ranges_use_intervals() {
    let mut n = net();
    let v = var(&mut n, 0, 100_000, 0);
    let p = process(&mut n, 1);
    let e = edge(&mut n, p, 0, 0);
    assign(e, v, Expr::Binary(BinOp::Add, x(v), k(1000)));
    let goal = Formula::Data(cmp(BinOp::Ge, v, 3000));
    // Intervals [0,0] -> [0,1000] -> [0,2000] -> [0,3000].
    assert_eq!(initial(&n, &goal)[2..], [Some(3), Some(3)]);
}

#[test]
fn disjunctions_take_the_minimum_and_negations_flip_atoms() {
    let mut n = net();
    let v = var(&mut n, 0, 3, 0);
    let p = process(&mut n, 4);
    edge(&mut n, p, 0, 1);
    edge(&mut n, p, 1, 2);
    assign(edge(&mut n, p, 2, 3), v, Expr::Const(2));
    let goal = Formula::Or(vec![at(p, 3), at(p, 1)]);
    assert_eq!(initial(&n, &goal), [Some(1); 4]);
    // !(v != 2) is v == 2, set by the third edge.
    let not = Formula::Not(Box::new(Formula::Data(cmp(BinOp::Ne, v, 2))));
    assert_eq!(initial(&n, &not)[2..], [Some(3), Some(3)]);
    // !At(p, 0): any other location, one step away.
    let away = Formula::Not(Box::new(at(p, 0)));
    assert_eq!(initial(&n, &away), [Some(1); 4]);
}

// ---------------------------------------------------------------- admissibility against BFS

type State = (Vec<LocId>, Vec<i32>);

fn enabled(n: &Network, off: &EdgeSet, s: &State, p: usize) -> Vec<usize> {
    n.processes[p]
        .edges
        .iter()
        .enumerate()
        .filter(|(e, edge)| {
            !off.contains(p as ProcId, *e as EdgeId)
                && edge.source == s.0[p]
                && edge
                    .guard
                    .as_ref()
                    .is_none_or(|g| g.eval(&s.1).is_ok_and(|v| v != 0))
        })
        .map(|(e, _)| e)
        .collect()
}

/// Fires the edges together (sender first); `None` on a model error.
fn apply(n: &Network, s: &State, list: &[(usize, usize)]) -> Option<State> {
    let (mut locs, mut vars) = s.clone();
    for &(p, e) in list {
        locs[p] = n.processes[p].edges[e].target;
    }
    for &(p, e) in list {
        for u in &n.processes[p].edges[e].updates {
            if let Update::Assign { target, value } = u {
                let slot = target.resolve(&vars).ok()? as usize;
                let val = value.eval(&vars).ok()?;
                let var = &n.variables[slot];
                if val < var.lo || val > var.hi {
                    return None;
                }
                vars[slot] = val;
            }
        }
    }
    Some((locs, vars))
}

fn successors(n: &Network, off: &EdgeSet, s: &State) -> Vec<State> {
    let np = n.processes.len();
    let en: Vec<Vec<usize>> = (0..np).map(|p| enabled(n, off, s, p)).collect();
    let sync_of = |p: usize, e: usize| n.processes[p].edges[e].sync.clone();
    let mut out = Vec::new();
    for p in 0..np {
        for &e in &en[p] {
            match sync_of(p, e) {
                None => out.extend(apply(n, s, &[(p, e)])),
                Some(sy) if sy.dir == SyncDir::Send => {
                    let Ok(ch) = sy.channel.resolve(&s.1) else {
                        continue;
                    };
                    let receivers = |q: usize| -> Vec<usize> {
                        en[q]
                            .iter()
                            .copied()
                            .filter(|&f| {
                                sync_of(q, f).is_some_and(|r| {
                                    r.dir == SyncDir::Receive && r.channel.resolve(&s.1) == Ok(ch)
                                })
                            })
                            .collect()
                    };
                    if n.channels[ch as usize].kind == ChannelKind::Binary {
                        for q in (0..np).filter(|&q| q != p) {
                            for f in receivers(q) {
                                out.extend(apply(n, s, &[(p, e), (q, f)]));
                            }
                        }
                    } else {
                        // Every process with an enabled receiver takes part with one of them.
                        let mut combos: Vec<Vec<(usize, usize)>> = vec![vec![(p, e)]];
                        for q in (0..np).filter(|&q| q != p) {
                            let rs = receivers(q);
                            if rs.is_empty() {
                                continue;
                            }
                            combos = combos
                                .into_iter()
                                .flat_map(|c| {
                                    rs.iter().map(move |&f| {
                                        let mut c = c.clone();
                                        c.push((q, f));
                                        c
                                    })
                                })
                                .collect();
                        }
                        for c in combos {
                            out.extend(apply(n, s, &c));
                        }
                    }
                }
                Some(_) => {}
            }
        }
    }
    out
}

fn holds(f: &Formula, s: &State) -> bool {
    match f {
        Formula::True => true,
        Formula::False => false,
        Formula::At { process, location } => s.0[*process as usize] == *location,
        Formula::Data(e) => e.eval(&s.1).is_ok_and(|v| v != 0),
        Formula::Clock(_) | Formula::Deadlock => unreachable!("not generated"),
        Formula::Not(g) => !holds(g, s),
        Formula::And(fs) => fs.iter().all(|g| holds(g, s)),
        Formula::Or(fs) => fs.iter().any(|g| holds(g, s)),
    }
}

/// Every reachable state with its exact distance to the goal.
fn exact_distances(n: &Network, off: &EdgeSet, goal: &Formula) -> Vec<(State, Option<u32>)> {
    let init: State = (n.initial_locations(), n.initial_variables());
    let mut index: HashMap<State, usize> = HashMap::new();
    let mut states = vec![init.clone()];
    let mut preds: Vec<Vec<usize>> = vec![vec![]];
    index.insert(init, 0);
    let mut i = 0;
    while i < states.len() {
        for t in successors(n, off, &states[i].clone()) {
            let j = *index.entry(t.clone()).or_insert_with(|| {
                states.push(t);
                preds.push(vec![]);
                states.len() - 1
            });
            preds[j].push(i);
        }
        i += 1;
    }
    let mut dist: Vec<Option<u32>> = vec![None; states.len()];
    let mut queue = VecDeque::new();
    for (i, s) in states.iter().enumerate() {
        if holds(goal, s) {
            dist[i] = Some(0);
            queue.push_back(i);
        }
    }
    while let Some(j) = queue.pop_front() {
        let d = dist[j].map(|d| d + 1);
        for &i in &preds[j] {
            if dist[i].is_none() {
                dist[i] = d;
                queue.push_back(i);
            }
        }
    }
    states.into_iter().zip(dist).collect()
}

#[derive(Debug, Clone)]
struct EdgeSpec {
    source: u32,
    target: u32,
    guard: Option<(u32, u8, i32)>,
    sync: u8,
    update: Option<(u32, u8, i32)>,
}

fn edge_spec() -> impl Strategy<Value = EdgeSpec> {
    (
        0u32..4,
        0u32..4,
        proptest::option::of((0u32..2, 0u8..4, 0i32..4)),
        0u8..12,
        proptest::option::of((0u32..2, 0u8..4, 0i32..4)),
    )
        .prop_map(|(source, target, guard, sync, update)| EdgeSpec {
            source,
            target,
            guard,
            sync,
            update,
        })
}

fn goal_strategy(procs: usize) -> impl Strategy<Value = Formula> {
    let atom = prop_oneof![
        3 => (0..procs as u32, 0u32..4).prop_map(|(p, l)| at(p, l)),
        1 => (0u32..2, 0i32..4).prop_map(|(v, c)| Formula::Data(cmp(BinOp::Eq, v, c))),
        1 => (0u32..2, 0i32..4).prop_map(|(v, c)| Formula::Data(cmp(BinOp::Gt, v, c))),
    ];
    atom.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|f| Formula::Not(Box::new(f))),
            proptest::collection::vec(inner.clone(), 1..3).prop_map(Formula::And),
            proptest::collection::vec(inner, 1..3).prop_map(Formula::Or),
        ]
    })
}

fn build_random(locs: &[u32], specs: &[Vec<EdgeSpec>]) -> Network {
    let mut n = net();
    var(&mut n, 0, 3, 0);
    var(&mut n, 0, 3, 1);
    // An array a[2] in slots 2 and 3, indexed by v0 or v1 (3 and 4 are out of
    // bounds: model errors, so no successor).
    var(&mut n, 0, 2, 0);
    var(&mut n, 0, 2, 0);
    let c = chan(&mut n, ChannelKind::Binary);
    let b = chan(&mut n, ChannelKind::Broadcast);
    // A channel array d[2], indexed by v0.
    let d = chan(&mut n, ChannelKind::Binary);
    chan(&mut n, ChannelKind::Binary);
    let d_at = |dir| Sync {
        channel: ChanRef {
            base: d,
            len: 2,
            index: Some(Expr::Var(0)),
        },
        dir,
    };
    let a_at = |v: VarId| Expr::Index {
        base: 2,
        len: 2,
        index: x(v),
    };
    for (pi, (&nl, es)) in locs.iter().zip(specs).enumerate() {
        let p = process(&mut n, nl as usize);
        assert_eq!(p as usize, pi);
        for s in es {
            let e = edge(&mut n, p, s.source % nl, s.target % nl);
            if let Some((v, op, c)) = s.guard {
                e.guard = Some(match op {
                    0 => cmp(BinOp::Eq, v, c),
                    1 => cmp(BinOp::Lt, v, c),
                    2 => cmp(BinOp::Ne, v, c),
                    _ => Expr::Binary(BinOp::Eq, Box::new(a_at(v)), k(c)),
                });
            }
            match s.sync {
                0 => sync(e, c, SyncDir::Send),
                1 => sync(e, c, SyncDir::Receive),
                2 => sync(e, b, SyncDir::Send),
                3 => sync(e, b, SyncDir::Receive),
                4 => e.sync = Some(d_at(SyncDir::Send)),
                5 => e.sync = Some(d_at(SyncDir::Receive)),
                _ => {}
            }
            if let Some((v, kind, c)) = s.update {
                match kind {
                    0 => assign(e, v, Expr::Const(c)),
                    1 => assign(e, v, Expr::Binary(BinOp::Add, x(v), k(1))),
                    2 => assign(e, v, Expr::Var(1 - v)),
                    _ => e.updates.push(Update::Assign {
                        target: LValue {
                            base: 2,
                            len: 2,
                            index: Some(Expr::Var(v)),
                        },
                        value: Expr::Const(c),
                    }),
                }
            }
        }
    }
    n
}

fn network_strategy() -> impl Strategy<Value = (Network, Formula, Vec<Vec<bool>>)> {
    proptest::collection::vec(2u32..5, 1..4).prop_flat_map(|locs| {
        let procs = locs.len();
        let specs = proptest::collection::vec(proptest::collection::vec(edge_spec(), 2..8), procs);
        let off = proptest::collection::vec(
            proptest::collection::vec(proptest::bool::weighted(0.15), 8),
            procs,
        );
        (Just(locs), specs, goal_strategy(procs), off).prop_map(|(locs, specs, goal, off)| {
            let n = build_random(&locs, &specs);
            let off = specs
                .iter()
                .zip(off)
                .map(|(es, o)| o[..es.len()].to_vec())
                .collect();
            (n, goal, off)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lower_bounds_are_admissible_and_none_means_unreachable((n, goal, off) in network_strategy()) {
        let off = EdgeSet { disabled: off };
        let mut hs: Vec<_> = KINDS.iter().map(|&kind| build(kind, &n, &goal, &off)).collect();
        for (state, exact) in exact_distances(&n, &off, &goal) {
            let values: Vec<Option<u32>> = hs.iter_mut().map(|h| h.estimate(&state.0, &state.1)).collect();
            for (kind, h) in KINDS.iter().zip(&values) {
                if exact == Some(0) {
                    prop_assert_eq!(*h, Some(0), "{:?} on a goal state {:?}", kind, state);
                }
                if h.is_none() {
                    prop_assert_eq!(exact, None, "{:?} pruned {:?} but the goal is reachable", kind, state);
                }
            }
            if let Some(d) = exact {
                // dL and hL are lower bounds of the exact distance.
                prop_assert!(values[0].is_some_and(|h| h <= d), "dL {:?} > {} at {:?}", values[0], d, state);
                prop_assert!(values[2].is_some_and(|h| h <= d), "hL {:?} > {} at {:?}", values[2], d, state);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Skipping edges whose inputs did not grow is an optimisation only.
    #[test]
    fn shortcuts_change_no_value((n, goal, off) in network_strategy()) {
        use super::{Heuristic, atg::Atg, goal::dnf};
        let off = EdgeSet { disabled: off };
        let d = dnf(&n, &goal);
        for upper in [false, true] {
            let mut fast = Atg::new(&n, &d, &off, upper);
            let mut slow = Atg::new(&n, &d, &off, upper).without_shortcuts();
            for (state, _) in exact_distances(&n, &off, &goal) {
                prop_assert_eq!(
                    fast.estimate(&state.0, &state.1),
                    slow.estimate(&state.0, &state.1),
                    "upper = {} at {:?}", upper, state
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The pattern database, whatever pattern its budget forces: 0 on goal
    /// states, `None` only where the goal is unreachable, never above the
    /// exact distance, and consistent on every transition (`h(s) <= 1 +
    /// h(s')`, with `None` only followed by `None`).
    #[test]
    fn pattern_databases_are_consistent((n, goal, off) in network_strategy()) {
        use super::pdb::PdbOptions;
        let off = EdgeSet { disabled: off };
        let states = exact_distances(&n, &off, &goal);
        for max_states in [1, 3, 12, 10_000] {
            let options = PdbOptions { max_states, selection_states: 20_000, selection_time: None, clocks: false };
            let mut h = super::build_with(HeuristicKind::Pdb, &n, &goal, &off, &options);
            for (state, exact) in &states {
                let hs = h.estimate(&state.0, &state.1);
                if *exact == Some(0) {
                    prop_assert_eq!(hs, Some(0), "goal state {:?}", state);
                }
                match (hs, *exact) {
                    (None, Some(_)) => prop_assert!(false, "pruned {:?} but the goal is reachable", state),
                    (Some(v), Some(d)) => prop_assert!(v <= d, "h {} > d {} at {:?}", v, d, state),
                    _ => {}
                }
                for next in successors(&n, &off, state) {
                    let hn = h.estimate(&next.0, &next.1);
                    match (hs, hn) {
                        (Some(a), Some(b)) => prop_assert!(a <= b + 1, "h {} -> {} on {:?} -> {:?}", a, b, state, next),
                        (None, Some(b)) => prop_assert!(false, "None -> {} on {:?} -> {:?}", b, state, next),
                        _ => {}
                    }
                }
            }
        }
    }
}
