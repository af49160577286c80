//! Random small networks for property tests ([`larger_spec`]: three of four
//! locations, for searches of hundreds of states): two processes of three
//! locations, two clocks, a bounded variable and channels (binary and
//! broadcast, some urgent), with random guards, invariants, updates and
//! goals, and one synchronisation vector `sync P0.a, P1.a?;` over the edges
//! labelled `a`. Only networks a model file can express are made: in
//! particular no clock guard on a broadcast receiver nor on an edge of the
//! weak participant `P1.a`, which the language forbids.

use proptest::prelude::*;
use zeno::ir::*;

use super::net::*;

#[derive(Debug, Clone)]
pub struct EdgeSpec {
    pub proc_: usize,
    pub from: u32,
    pub to: u32,
    pub clock_guard: Option<(u32, bool, i32)>, // (clock, upper?, constant)
    pub data_guard: Option<i32>,               // v == c
    pub sync: Option<(usize, bool)>,           // (channel, send?); channel 3 is the label `a`
    pub assign: Option<(bool, i32)>,           // (increment?, constant)
    pub reset: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct Spec {
    pub kinds: Vec<Vec<u8>>,
    pub invariants: Vec<Vec<Option<(u32, i32, bool)>>>, // bound c or v + c
    pub channels: Vec<(bool, bool)>,                    // (broadcast?, urgent?)
    pub edges: Vec<EdgeSpec>,
    pub goal: (u32, u32, Option<(u32, i32)>, bool),
}

pub const PROCS: usize = 2;
pub const LOCS: u32 = 3;
pub const CLOCKS: u32 = 2;

pub fn edge_spec() -> impl Strategy<Value = EdgeSpec> {
    (
        0..PROCS,
        0..LOCS,
        0..LOCS,
        proptest::option::weighted(0.5, (1..=CLOCKS, any::<bool>(), 0..4i32)),
        proptest::option::weighted(0.3, 0..3i32),
        proptest::option::weighted(0.4, (0..4usize, any::<bool>())),
        proptest::option::weighted(0.4, (any::<bool>(), 0..3i32)),
        proptest::option::weighted(0.4, 1..=CLOCKS),
    )
        .prop_map(
            |(proc_, from, to, clock_guard, data_guard, sync, assign, reset)| EdgeSpec {
                proc_,
                from,
                to,
                clock_guard,
                data_guard,
                sync,
                assign,
                reset,
            },
        )
}

pub fn spec() -> impl Strategy<Value = Spec> {
    (
        proptest::collection::vec(proptest::collection::vec(0..10u8, LOCS as usize), PROCS),
        proptest::collection::vec(
            proptest::collection::vec(
                proptest::option::weighted(0.3, (1..=CLOCKS, 1..5i32, any::<bool>())),
                LOCS as usize,
            ),
            PROCS,
        ),
        proptest::collection::vec((any::<bool>(), any::<bool>()), 3),
        proptest::collection::vec(edge_spec(), 3..12),
        (
            0..LOCS,
            0..LOCS,
            proptest::option::weighted(0.4, (1..=CLOCKS, 0..6i32)),
            any::<bool>(),
        ),
    )
        .prop_map(|(kinds, invariants, channels, edges, goal)| Spec {
            kinds,
            invariants,
            channels,
            edges,
            goal,
        })
}

/// Larger networks than [`spec`]'s, for tests that need state spaces of
/// hundreds of states rather than a handful: three processes of four
/// locations, each with a clock of its own (so that clocks are inactive
/// where their process resets them before reading), larger clock
/// constants, more edges and resets, and fewer increments of the variable
/// (which end most searches of larger networks in a model error when it
/// leaves its range).
pub fn larger_spec() -> impl Strategy<Value = Spec> {
    const PROCS: usize = 3;
    const LOCS: u32 = 4;
    let edge = (
        0..PROCS,
        0..LOCS,
        0..LOCS,
        proptest::option::weighted(0.5, (any::<bool>(), 0..7i32)),
        proptest::option::weighted(0.2, 0..3i32),
        proptest::option::weighted(0.3, (0..4usize, any::<bool>())),
        proptest::option::weighted(0.3, (proptest::bool::weighted(0.05), 0..3i32)),
        proptest::bool::weighted(0.5),
    )
        .prop_map(
            |(proc_, from, to, clock_guard, data_guard, sync, assign, reset)| {
                // Each process reads and resets its own clock.
                let clock = proc_ as u32 + 1;
                EdgeSpec {
                    proc_,
                    from,
                    to,
                    clock_guard: clock_guard.map(|(upper, c)| (clock, upper, c)),
                    data_guard,
                    sync,
                    assign,
                    reset: reset.then_some(clock),
                }
            },
        );
    (
        proptest::collection::vec(proptest::collection::vec(0..10u8, LOCS as usize), PROCS),
        proptest::collection::vec(
            proptest::collection::vec(
                proptest::option::weighted(0.4, (1..8i32, any::<bool>())),
                LOCS as usize,
            ),
            PROCS,
        ),
        proptest::collection::vec((any::<bool>(), any::<bool>()), 3),
        proptest::collection::vec(edge, 16..40),
        (
            0..LOCS,
            0..LOCS,
            proptest::option::weighted(0.4, (1..=PROCS as u32, 0..9i32)),
            any::<bool>(),
        ),
    )
        .prop_map(|(kinds, invariants, channels, edges, goal)| Spec {
            kinds,
            invariants: invariants
                .into_iter()
                .enumerate()
                .map(|(p, invs)| {
                    let clock = p as u32 + 1;
                    invs.into_iter()
                        .map(|i| i.map(|(c, reads)| (clock, c, reads)))
                        .collect()
                })
                .collect(),
            channels,
            edges,
            goal,
        })
}

pub fn build(s: &Spec) -> Network {
    let mut n = Net::new();
    // Two clocks, or one per process where the spec reads more.
    let read = s
        .edges
        .iter()
        .flat_map(|e| e.clock_guard.map(|g| g.0).into_iter().chain(e.reset));
    let read = read.chain(s.invariants.iter().flatten().flatten().map(|i| i.0));
    let nclocks = read
        .chain(s.goal.2.map(|g| g.0))
        .max()
        .unwrap_or(0)
        .max(CLOCKS);
    let clocks: Vec<ClockId> = (1..=nclocks).map(|i| n.clock(&format!("x{i}"))).collect();
    let var = n.var("v", 0, 2, 0);
    let chans: Vec<ChanId> = s
        .channels
        .iter()
        .enumerate()
        .map(|(i, &(b, u))| {
            let kind = if b {
                ChannelKind::Broadcast
            } else {
                ChannelKind::Binary
            };
            n.chan(&format!("c{i}"), kind, u)
        })
        .collect();
    for p in 0..s.kinds.len() {
        let locs: Vec<(String, LocationKind)> = (0..s.kinds[p].len())
            .map(|l| {
                let k = match s.kinds[p][l] {
                    0 => LocationKind::Urgent,
                    1 => LocationKind::Committed,
                    _ => LocationKind::Normal,
                };
                (format!("l{l}"), k)
            })
            .collect();
        let refs: Vec<(&str, LocationKind)> = locs.iter().map(|(a, k)| (a.as_str(), *k)).collect();
        n.process(&format!("P{p}"), &refs);
        for l in 0..s.kinds[p].len() {
            if let Some((x, c, reads)) = s.invariants[p][l] {
                let mut cc = le(clocks[x as usize - 1], c);
                if reads {
                    // A bound read from a variable: LU bounds use its range.
                    cc.bound = add(v(var), super::net::c(c));
                }
                n.inv(p as ProcId, l as LocId, cc);
            }
        }
    }
    const LABEL: usize = 3;
    for e in &s.edges {
        let channel = |c: usize| s.channels.get(c).copied().unwrap_or_default();
        let urgent = e.sync.is_some_and(|(c, _)| channel(c).1);
        // The language allows no clock guard on a broadcast receiver (and the
        // checker's error traces through one can miss the receiver), so the
        // generator makes none; nor on the weak participant's edges.
        let broadcast_receiver = e
            .sync
            .is_some_and(|(c, send)| c != LABEL && !send && channel(c).0);
        let weak = e.proc_ == 1 && e.sync.is_some_and(|(c, _)| c == LABEL);
        let edge = n.edge(e.proc_ as ProcId, e.from, e.to);
        if let Some((x, upper, c)) = e.clock_guard
            && !urgent
            && !broadcast_receiver
            && !weak
        {
            edge.when(if upper { le(x, c) } else { ge(x, c) });
        }
        if let Some(c) = e.data_guard {
            edge.guard(eq(v(var), super::net::c(c)));
        }
        if let Some((ch, send)) = e.sync {
            if ch == LABEL {
                edge.label = Some("a".into());
            } else if send {
                edge.send(chans[ch]);
            } else {
                edge.recv(chans[ch]);
            }
        }
        if let Some((inc, c)) = e.assign {
            let value = if inc {
                add(v(var), super::net::c(1))
            } else {
                super::net::c(c)
            };
            edge.set(var, value);
        }
        if let Some(x) = e.reset {
            edge.reset(x);
        }
    }
    let participant = |process: ProcId, weak: bool| Participant {
        process,
        label: "a".into(),
        weak,
        span: Span::default(),
    };
    n.n.vectors.push(SyncVector {
        participants: vec![participant(0, false), participant(1, true)],
        span: Span::default(),
    });
    let (l0, l1, clock, deadlock) = s.goal;
    let mut parts = vec![at(0, l0), at(1, l1)];
    if let Some((x, c)) = clock {
        parts.push(Formula::Clock(ge(x, c)));
    }
    n.reach(and(parts));
    if deadlock {
        n.always(not(Formula::Deadlock));
    } else {
        // A[] v <= 1: out-of-range-free invariant on data.
        n.always(Formula::Data(bin(BinOp::Le, v(var), super::net::c(1))));
    }
    n.n
}
