//! `--reduce por` (`Options::reduce`): the local-time zone graph. Stored
//! states counted by hand on independent processes and TChecker's
//! `concur19` figures on a public family; traces re-ordered into global
//! runs and replayed by the independent simulator; refusals that say why;
//! and agreement with the ordinary search on random networks whose
//! processes own their clocks and variables (verdicts always; stored
//! states are not always fewer, see `bounded_time_can_cost_states`).

use proptest::prelude::*;

use crate::support;
use crate::support::net::*;
use zeno::checker::config::Config;
use zeno::checker::{Cancel, CheckResult, Options, Reduce, SearchOrder, Verdict, check};
use zeno::ir::*;

fn run(net: &Network, k: usize, order: SearchOrder, reduce: Reduce) -> CheckResult {
    let options = Options {
        config: Config {
            search: order,
            ..Config::default()
        },
        reduce,
        ..Options::default()
    };
    check(
        net,
        net.check_at(k).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
}

/// `n` independent processes `P_i`: `l0 -> l1` resetting `x_i` (both
/// locations with the invariant `x_i <= 3`), `l1 -> l2` when `x_i >= 1`,
/// resetting it again, and a location `dead` nothing enters; the check
/// asks for `P0.dead`.
fn independent(n: usize) -> Network {
    let mut net = Net::new();
    for i in 0..n {
        let x = net.clock(&format!("P{i}.x"));
        let p = net.normal(&format!("P{i}"), &["l0", "l1", "l2", "dead"]);
        net.inv(p, 0, le(x, 3));
        net.inv(p, 1, le(x, 3));
        net.edge(p, 0, 1).reset(x);
        net.edge(p, 1, 2).when(ge(x, 1)).reset(x);
    }
    net.reach(at(0, 3));
    net.n
}

/// Every one of the 3^n location tuples has one local zone, whatever the
/// order the processes moved in: each process's zone is its own (its clock
/// against its own reference clock), so moves of different processes
/// commute exactly. Breadth-first search explores and stores 3^n states.
/// The ordinary zone graph keeps the order of the resets in the clocks'
/// differences (the invariants keep them below the LU bounds) and stores
/// more.
#[test]
fn independent_processes_store_one_state_per_location_tuple() {
    for n in 1..=4 {
        let net = independent(n);
        let por = run(&net, 0, SearchOrder::Bfs, Reduce::Por);
        let plain = run(&net, 0, SearchOrder::Bfs, Reduce::None);
        assert_eq!(por.verdict, Verdict::Fails);
        assert_eq!(plain.verdict, Verdict::Fails);
        assert_eq!(por.stats.reduce_note, None);
        let tuples = 3u64.pow(n as u32);
        assert_eq!(
            (por.stats.explored, por.stats.stored),
            (tuples, tuples),
            "n = {n}"
        );
        if n >= 2 {
            assert!(
                plain.stats.stored > tuples,
                "n = {n}: {}",
                plain.stats.stored
            );
        }
    }
}

/// `P: l0 -> l1 when x >= 5`, `Q: m0 -> m1 when 1 <= y <= 3`. Both moves
/// are enabled from the start, so breadth-first search meets the goal
/// `P.l1 && Q.m1` along `P, Q` (P's edge is listed first); in one time
/// line Q moves first (at 1 to 3, P at 5 or later), and the trace says so.
#[test]
fn a_trace_is_reordered_by_firing_time_and_replays() {
    let mut net = Net::new();
    let x = net.clock("P.x");
    let y = net.clock("Q.y");
    let p = net.normal("P", &["l0", "l1"]);
    let q = net.normal("Q", &["m0", "m1"]);
    net.edge(p, 0, 1).when(ge(x, 5));
    net.edge(q, 0, 1).when(ge(y, 1)).when(le(y, 3));
    net.reach(and(vec![at(p, 1), at(q, 1)]));
    let net = net.n;
    let r = run(&net, 0, SearchOrder::Bfs, Reduce::Por);
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.stats.reduce_note, None);
    let trace = r.trace.expect("a witness");
    let movers: Vec<ProcId> = trace
        .steps
        .iter()
        .map(|s| s.transition.edges[0].0)
        .collect();
    assert_eq!(movers, vec![q, p]);
    support::simulator::replay(&net, 0, &trace).expect("the trace replays");
}

/// A goal with a clock constraint holds where some synchronised valuation
/// satisfies it: after `P` resets `x` at 2 to 4 (`y` is never reset), `y -
/// x` is 2 to 4, so `x == 1 && y >= 5` is reachable and `x == 1 && y >= 6`
/// is not.
#[test]
fn clock_constraints_of_the_goal_are_read_in_one_time_line() {
    let build = |y_bound: i32| {
        let mut net = Net::new();
        let x = net.clock("P.x");
        let y = net.clock("Q.y");
        let p = net.normal("P", &["l0", "l1"]);
        let q = net.normal("Q", &["m0"]);
        net.edge(p, 0, 1).when(ge(x, 2)).when(le(x, 4)).reset(x);
        // Q reads its own clock somewhere, so y belongs to Q.
        net.edge(q, 0, 0).when(ge(y, 100));
        net.reach(and(vec![
            at(p, 1),
            Formula::Clock(le(x, 1)),
            Formula::Clock(ge(x, 1)),
            Formula::Clock(ge(y, y_bound)),
        ]));
        net.n
    };
    let yes = build(5);
    let r = run(&yes, 0, SearchOrder::Bfs, Reduce::Por);
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.stats.reduce_note, None);
    support::simulator::replay(&yes, 0, r.trace.as_ref().unwrap()).expect("replays");
    let no = build(6);
    let r = run(&no, 0, SearchOrder::Bfs, Reduce::Por);
    assert_eq!(r.verdict, Verdict::Fails);
    assert_eq!(
        run(&no, 0, SearchOrder::Bfs, Reduce::None).verdict,
        Verdict::Fails
    );
}

/// What the construction does not cover is searched on the ordinary zone
/// graph, with the reason in the result.
#[test]
fn unsupported_models_fall_back_and_say_why() {
    // Fischer: the shared variable `id`.
    let net = fischer(3, 2, true);
    let r = run(&net, 0, SearchOrder::Bfs, Reduce::Por);
    let plain = run(&net, 0, SearchOrder::Bfs, Reduce::None);
    assert_eq!(r.verdict, plain.verdict);
    assert_eq!(r.stats.stored, plain.stats.stored);
    let note = r.stats.reduce_note.expect("a note");
    assert!(note.contains("variable `id`"), "{note}");

    // A clock two processes read.
    let mut shared = Net::new();
    let x = shared.clock("x");
    let p = shared.normal("P", &["a", "b"]);
    let q = shared.normal("Q", &["a", "b"]);
    shared.edge(p, 0, 1).when(ge(x, 1));
    shared.edge(q, 0, 1).when(le(x, 0));
    shared.reach(and(vec![at(p, 1), at(q, 1)]));
    // Q moves at 0, P at 1.
    let r = run(&shared.n, 0, SearchOrder::Bfs, Reduce::Por);
    assert_eq!(r.verdict, Verdict::Holds);
    support::simulator::replay(&shared.n, 0, r.trace.as_ref().unwrap()).expect("replays");
    let note = r.stats.reduce_note.expect("a note");
    assert!(note.contains("clock `x`"), "{note}");

    // An urgent channel, and a liveness check.
    let mut net = independent(2);
    net.channels.push(Channel {
        name: "hurry".into(),
        kind: ChannelKind::Binary,
        urgent: true,
        span: Span::default(),
    });
    let r = run(&net, 0, SearchOrder::Bfs, Reduce::Por);
    assert!(r.stats.reduce_note.unwrap().contains("urgent channels"));
    let mut net = independent(2);
    net.checks[0].kind = CheckKind::Inevitable(at(0, 2));
    let r = run(&net, 0, SearchOrder::Bfs, Reduce::Por);
    assert!(r.stats.reduce_note.unwrap().contains("liveness"));
}

/// Where an invariant bounds the global time, the ordinary zone graph can
/// store fewer states (proptest found this network). `R` never leaves
/// `r0`, whose invariant `z <= 1` keeps every run within time 1. `Q`
/// enters `m1` at time `a <= 1` resetting `y` and may loop there,
/// resetting `y`, when `y >= 1` (invariant `y <= 1`): only at time 1,
/// after entering at 0. `P` loops on `l0`, when `x >= 1` (`x` is never
/// reset, so at time 1 exactly). In the ordinary zone graph the zone after
/// `P`'s loop lies in the zone it left: 2 states. In the local-time graph
/// it records that `P`'s own time is at least 1 while `Q` may still be
/// earlier (and move later in the path, at an earlier time); sync
/// subsumption relates neither zone to the other: 3 states. Without `P`'s
/// loops both store 2.
#[test]
fn bounded_time_can_cost_states() {
    let mut net = Net::new();
    let x = net.clock("P.x");
    let y = net.clock("Q.y");
    let z = net.clock("R.z");
    let p = net.normal("P", &["l0", "dead"]);
    let q = net.normal("Q", &["m0", "m1"]);
    let r = net.normal("R", &["r0"]);
    net.edge(p, 0, 0).when(ge(x, 1));
    net.edge(p, 0, 0);
    net.inv(q, 1, le(y, 1));
    net.edge(q, 0, 1).when(le(y, 1)).reset(y);
    net.edge(q, 1, 1).when(ge(y, 1)).reset(y);
    net.inv(r, 0, le(z, 1));
    net.reach(at(p, 1));
    let net = net.n;
    let por = run(&net, 0, SearchOrder::Bfs, Reduce::Por);
    let plain = run(&net, 0, SearchOrder::Bfs, Reduce::None);
    assert_eq!(
        (por.verdict.clone(), plain.verdict),
        (Verdict::Fails, Verdict::Fails)
    );
    assert_eq!(por.stats.reduce_note, None);
    assert_eq!((por.stats.stored, plain.stats.stored), (3, 2));
}

// Random networks of two or three processes, each owning one clock and one
// variable, with urgent and committed locations, talking over binary and
// broadcast channels.

#[derive(Debug, Clone)]
struct EdgeSpec {
    proc_: usize,
    from: u32,
    to: u32,
    clock_guard: Option<(bool, i32)>,
    data_guard: Option<i32>,
    sync: Option<(usize, bool)>,
    assign: Option<i32>,
    reset: bool,
}

#[derive(Debug, Clone)]
struct Spec {
    procs: usize,
    /// Per process and location: 0 urgent, 1 committed, else normal.
    kinds: Vec<Vec<u8>>,
    invariants: Vec<Vec<Option<i32>>>,
    broadcast: Vec<bool>,
    edges: Vec<EdgeSpec>,
    goal: (u32, u32, Option<(usize, i32)>),
}

const LOCS: u32 = 3;

fn edge_spec() -> impl Strategy<Value = EdgeSpec> {
    (
        0..3usize,
        0..LOCS,
        0..LOCS,
        proptest::option::weighted(0.5, (any::<bool>(), 0..4i32)),
        proptest::option::weighted(0.3, 0..2i32),
        proptest::option::weighted(0.4, (0..2usize, any::<bool>())),
        proptest::option::weighted(0.3, 0..2i32),
        any::<bool>(),
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

fn spec() -> impl Strategy<Value = Spec> {
    (
        2..=3usize,
        proptest::collection::vec(proptest::collection::vec(0..10u8, 3), 3),
        proptest::collection::vec(
            proptest::collection::vec(proptest::option::weighted(0.3, 1..5i32), 3),
            3,
        ),
        proptest::collection::vec(any::<bool>(), 2),
        proptest::collection::vec(edge_spec(), 3..12),
        (
            0..LOCS,
            0..LOCS,
            proptest::option::weighted(0.4, (0..3usize, 0..6i32)),
        ),
    )
        .prop_map(|(procs, kinds, invariants, broadcast, edges, goal)| Spec {
            procs,
            kinds,
            invariants,
            broadcast,
            edges,
            goal,
        })
}

fn build(s: &Spec) -> Network {
    let mut n = Net::new();
    let clocks: Vec<ClockId> = (0..s.procs).map(|i| n.clock(&format!("P{i}.x"))).collect();
    let vars: Vec<VarId> = (0..s.procs)
        .map(|i| n.var(&format!("P{i}.v"), 0, 1, 0))
        .collect();
    let chans: Vec<ChanId> = s
        .broadcast
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let kind = if b {
                ChannelKind::Broadcast
            } else {
                ChannelKind::Binary
            };
            n.chan(&format!("c{i}"), kind, false)
        })
        .collect();
    for (p, &clock) in clocks.iter().enumerate() {
        let locs: Vec<(String, LocationKind)> = (0..LOCS as usize)
            .map(|l| {
                let kind = match s.kinds[p][l] {
                    0 => LocationKind::Urgent,
                    1 => LocationKind::Committed,
                    _ => LocationKind::Normal,
                };
                (format!("l{l}"), kind)
            })
            .collect();
        let refs: Vec<(&str, LocationKind)> = locs.iter().map(|(a, k)| (a.as_str(), *k)).collect();
        n.process(&format!("P{p}"), &refs);
        for l in 0..LOCS as usize {
            if let Some(c) = s.invariants[p][l] {
                n.inv(p as ProcId, l as LocId, le(clock, c));
            }
        }
    }
    for e in s.edges.iter().filter(|e| e.proc_ < s.procs) {
        let (x, var) = (clocks[e.proc_], vars[e.proc_]);
        let broadcast_receiver = e.sync.is_some_and(|(c, send)| !send && s.broadcast[c]);
        let edge = n.edge(e.proc_ as ProcId, e.from, e.to);
        if let Some((upper, c)) = e.clock_guard
            && !broadcast_receiver
        {
            edge.when(if upper { le(x, c) } else { ge(x, c) });
        }
        if let Some(c) = e.data_guard {
            edge.guard(eq(v(var), super::support::net::c(c)));
        }
        match e.sync {
            Some((ch, true)) => {
                edge.send(chans[ch]);
            }
            Some((ch, false)) => {
                edge.recv(chans[ch]);
            }
            None => {}
        }
        if let Some(c) = e.assign {
            edge.set(var, super::support::net::c(c));
        }
        if e.reset {
            edge.reset(x);
        }
    }
    let (l0, l1, clock) = s.goal;
    let mut parts = vec![at(0, l0), at(1, l1)];
    if let Some((p, c)) = clock.filter(|&(p, _)| p < s.procs) {
        parts.push(Formula::Clock(ge(clocks[p], c)));
    }
    n.reach(and(parts.clone()));
    n.always(not(and(parts)));
    n.n
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn local_time_agrees_with_the_zone_graph_on_random_networks(s in spec()) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let plain = run(&net, k, SearchOrder::Bfs, Reduce::None);
            for order in [SearchOrder::Bfs, SearchOrder::Dfs, SearchOrder::Greedy, SearchOrder::AStar] {
                let por = run(&net, k, order, Reduce::Por);
                prop_assert_eq!(&por.stats.reduce_note, &None);
                prop_assert_eq!(&por.verdict, &plain.verdict, "check {}, {:?}", k, order);
                if let Some(t) = &por.trace {
                    let replayed = support::simulator::replay(&net, k, t);
                    prop_assert!(replayed.is_ok(), "check {k}, {order:?}: {replayed:?}");
                }
                let found = matches!(
                    (k, &por.verdict),
                    (0, Verdict::Holds) | (1, Verdict::Fails)
                );
                prop_assert_eq!(por.trace.is_some(), found);
                // Stored states are not compared: the local-time graph can
                // store more (`bounded_time_can_cost_states`).
            }
        }
    }
}
