//! Random small networks for property tests: two processes of three
//! locations, two clocks, a bounded variable and channels (binary and
//! broadcast, some urgent), with random guards, invariants, updates and
//! goals, and one synchronisation vector `sync P0.a, P1.a?;` over the edges
//! labelled `a`. Only networks a model file can express are made: in
//! particular no clock guard on a broadcast receiver nor on an edge of the
//! weak participant `P1.a`, which the language forbids.
//!
//! [`larger_spec`] makes larger ones: three processes of four locations,
//! for searches of hundreds to thousands of states.
//!
//! [`owned_spec`] makes networks for the local-time graph (`--reduce por`)
//! instead: four processes, each owning one clock and one variable
//! (its guards, invariants, updates and resets read and write its own),
//! no urgent channel, and the goal's negation as the second check.

use proptest::prelude::*;
use zeno::checker::{Cancel, CheckResult, Options, SearchOrder, check};
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
    /// Processes (the edges of others are left out).
    pub procs: usize,
    /// Each process owns one clock and one variable ([`owned_spec`]).
    pub owned: bool,
    /// The goal names `P1`'s location as well as `P0`'s.
    pub goal_names_p1: bool,
}

pub const PROCS: usize = 2;
/// The most processes of [`owned_spec`].
pub const OWNED_PROCS: usize = 4;
pub const LOCS: u32 = 3;
pub const CLOCKS: u32 = 2;

pub fn edge_spec() -> impl Strategy<Value = EdgeSpec> {
    edge_spec_of(PROCS, 0.5, 0.4)
}

/// Edges of `procs` processes, with a clock guard and a synchronisation
/// at the given odds.
fn edge_spec_of(procs: usize, guard: f64, sync: f64) -> impl Strategy<Value = EdgeSpec> {
    (
        0..procs,
        0..LOCS,
        0..LOCS,
        proptest::option::weighted(guard, (1..=CLOCKS, any::<bool>(), 0..4i32)),
        proptest::option::weighted(0.3, 0..3i32),
        proptest::option::weighted(sync, (0..4usize, any::<bool>())),
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
            procs: PROCS,
            owned: false,
            goal_names_p1: true,
        })
}

/// Networks whose processes own their clocks and variables (see the module
/// comment), of four processes. Fewer clock guards and
/// synchronisations than [`spec`], and a goal that often names `P0` alone,
/// so that the partial-order reduction has moves to choose from.
pub fn owned_spec() -> impl Strategy<Value = Spec> {
    let n = OWNED_PROCS;
    (
        (n..=n, any::<bool>()),
        proptest::collection::vec(proptest::collection::vec(0..10u8, LOCS as usize), n),
        proptest::collection::vec(
            proptest::collection::vec(
                proptest::option::weighted(0.3, (1..=CLOCKS, 1..5i32, any::<bool>())),
                LOCS as usize,
            ),
            n,
        ),
        proptest::collection::vec(any::<bool>(), 3),
        proptest::collection::vec(edge_spec_of(n, 0.3, 0.3), 3..14),
        (
            0..LOCS,
            0..LOCS,
            proptest::option::weighted(0.4, (1..=CLOCKS, 0..6i32)),
        ),
    )
        .prop_map(
            |((procs, goal_names_p1), kinds, invariants, broadcast, edges, (l0, l1, clock))| Spec {
                kinds,
                invariants,
                channels: broadcast.into_iter().map(|b| (b, false)).collect(),
                edges,
                goal: (l0, l1, clock, false),
                procs,
                owned: true,
                goal_names_p1,
            },
        )
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
            procs: PROCS,
            owned: false,
            goal_names_p1: true,
        })
}

pub fn build(s: &Spec) -> Network {
    let mut n = Net::new();
    // Owned: process p's clock and variable; shared: clock `x{i}`, `v`.
    let (clocks, vars): (Vec<ClockId>, Vec<VarId>) = if s.owned {
        let clocks = (0..s.procs).map(|p| n.clock(&format!("P{p}.x"))).collect();
        let vars = (0..s.procs)
            .map(|p| n.var(&format!("P{p}.v"), 0, 2, 0))
            .collect();
        (clocks, vars)
    } else {
        // Two clocks, or one per process where the spec reads more
        // ([`larger_spec`]).
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
        let clocks = (1..=nclocks).map(|i| n.clock(&format!("x{i}"))).collect();
        (clocks, vec![n.var("v", 0, 2, 0)])
    };
    // The clock a spec's clock index names for process `p`, its variable.
    let clock = |p: usize, x: u32| {
        if s.owned {
            clocks[p]
        } else {
            clocks[x as usize - 1]
        }
    };
    let var_of = |p: usize| if s.owned { vars[p] } else { vars[0] };
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
    for p in 0..s.procs {
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
                let mut cc = le(clock(p, x), c);
                if reads {
                    // A bound read from a variable: LU bounds use its range.
                    cc.bound = add(v(var_of(p)), super::net::c(c));
                }
                n.inv(p as ProcId, l as LocId, cc);
            }
        }
    }
    const LABEL: usize = 3;
    for e in s.edges.iter().filter(|e| e.proc_ < s.procs) {
        let var = var_of(e.proc_);
        let channel = |c: usize| s.channels.get(c).copied().unwrap_or_default();
        let urgent = e.sync.is_some_and(|(c, _)| channel(c).1);
        // The language allows no clock guard on a broadcast receiver (and the
        // checker's error traces through one can miss the receiver), so the
        // generator makes none; nor on the weak participant's edges.
        let broadcast_receiver = e
            .sync
            .is_some_and(|(c, send)| c != LABEL && !send && channel(c).0);
        let weak = e.proc_ == 1 && e.sync.is_some_and(|(c, _)| c == LABEL);
        // Owned networks: `P3`'s locations form no cycle but self-loops,
        // so that a process often qualifies for the partial-order
        // reduction's cycle proviso; the others' edges go anywhere.
        let (from, to) = if s.owned && e.proc_ == 3 {
            (e.from.min(e.to), e.from.max(e.to))
        } else {
            (e.from, e.to)
        };
        let edge = n.edge(e.proc_ as ProcId, from, to);
        if let Some((x, upper, c)) = e.clock_guard
            && !urgent
            && !broadcast_receiver
            && !weak
        {
            let x = clock(e.proc_, x);
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
            // An owned variable is only set: an increment could leave its
            // range, a run-time error the local-time graph leaves to the
            // ordinary search.
            let value = if inc && !s.owned {
                add(v(var), super::net::c(1))
            } else {
                super::net::c(c)
            };
            edge.set(var, value);
        }
        if let Some(x) = e.reset {
            edge.reset(clock(e.proc_, x));
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
    let (l0, l1, goal_clock, deadlock) = s.goal;
    let mut parts = vec![at(0, l0)];
    if s.goal_names_p1 {
        parts.push(at(1, l1));
    }
    if let Some((x, c)) = goal_clock {
        // Owned: the clock of process 0 or 1.
        parts.push(Formula::Clock(ge(clock(x as usize - 1, x), c)));
    }
    n.reach(and(parts.clone()));
    if s.owned {
        n.always(not(and(parts)));
    } else if deadlock {
        n.always(not(Formula::Deadlock));
    } else {
        // A[] v <= 1: out-of-range-free invariant on data.
        n.always(Formula::Data(bin(BinOp::Le, v(vars[0]), super::net::c(1))));
    }
    n.n
}

/// Breadth-first search on `threads` threads, stopped after `max_states`:
/// the search the parallel and distributed ones are compared with.
pub fn bfs(threads: usize, max_states: u64) -> Options {
    Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::Bfs,
            ..Default::default()
        },
        threads,
        max_states: Some(max_states),
        ..Options::default()
    }
}

/// The `k`-th check of `net` searched with `options`.
pub fn run(net: &Network, k: usize, options: &Options) -> CheckResult {
    check(
        net,
        net.check_at(k).unwrap(),
        options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
}
