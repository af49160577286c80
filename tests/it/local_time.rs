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
use crate::support::random_net::{build, owned_spec};
use zeno::checker::config::Config;
use zeno::checker::{Cancel, CheckResult, Options, Reduce, SearchOrder, Verdict, check};
use zeno::ir::*;

fn run(net: &Network, k: usize, order: SearchOrder, reduce: Reduce) -> CheckResult {
    run_with(net, k, order, reduce, true)
}

/// `run`, with the partial-order reduction on or off.
fn run_with(
    net: &Network,
    k: usize,
    order: SearchOrder,
    reduce: Reduce,
    partial_order: bool,
) -> CheckResult {
    let options = Options {
        config: Config {
            search: order,
            ..Config::default()
        },
        reduce,
        partial_order,
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
/// more. (Without the partial-order reduction, which the next test adds.)
#[test]
fn independent_processes_store_one_state_per_location_tuple() {
    for n in 1..=4 {
        let net = independent(n);
        let por = run_with(&net, 0, SearchOrder::Bfs, Reduce::Por, false);
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

const ORDERS: [SearchOrder; 4] = [
    SearchOrder::Bfs,
    SearchOrder::Dfs,
    SearchOrder::Greedy,
    SearchOrder::AStar,
];

/// The same network with the partial-order reduction (`local_time/por.rs`).
/// `P0` is visible (the goal names it) and never ample. Each `P_i`, `i >=
/// 1`, is ample at `l0` only: its edge there has no clock guard and resets
/// `x_i` into `l1`'s invariant `x_i <= 3` (time-free); at `l1` its edge has
/// the guard `x_i >= 1`. So `P1`, …, `P_{n-1}` move to `l1` one after the
/// other (`n - 1` states before the last of them moves), and from there every
/// state is fully expanded: `P0` anywhere in `l0, l1, l2`, each other
/// process in `l1` or `l2`, one state each, `3 * 2^(n-1)` states. In every
/// search order (the reduced graph does not depend on it, and each
/// location tuple has one zone).
#[test]
fn por_follows_one_process_where_its_moves_are_time_free() {
    for n in 1..=4u32 {
        let net = independent(n as usize);
        let expected = (n - 1) as u64 + 3 * 2u64.pow(n - 1);
        for order in ORDERS {
            let r = run(&net, 0, order, Reduce::Por);
            assert_eq!(r.verdict, Verdict::Fails, "n = {n}, {order:?}");
            assert_eq!(r.stats.reduce_note, None);
            assert_eq!(
                (r.stats.explored, r.stats.stored),
                (expected, expected),
                "n = {n}, {order:?}"
            );
        }
    }
}

/// `n` processes, each a chain `c0 -> c1 -> … -> c{k-1}` whose edges reset
/// the process's clock `x_i` and whose locations all have the invariant
/// `x_i <= 2`, so every edge is time-free; `P0` also has a location `dead`
/// that nothing enters, and the check asks for `P0.dead`. With the
/// reduction, `P1`, …, `P_{n-1}` run their chains one after the other
/// (each stops at its end), then `P0` (visible, fully expanded) runs its
/// own: `1 + n(k - 1)` states, against `k^n` (one per location tuple) in
/// the local-time graph alone.
fn chains(n: usize, k: usize) -> Network {
    let mut net = Net::new();
    for i in 0..n {
        let x = net.clock(&format!("P{i}.x"));
        let mut names: Vec<String> = (0..k).map(|j| format!("c{j}")).collect();
        names.push("dead".into());
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let p = net.normal(&format!("P{i}"), &refs);
        for j in 0..k as u32 {
            net.inv(p, j, le(x, 2));
        }
        for j in 1..k as u32 {
            net.edge(p, j - 1, j).reset(x);
        }
    }
    net.reach(at(0, k as u32));
    net.n
}

#[test]
fn por_stores_n_times_k_states_on_independent_chains() {
    for n in 1..=5usize {
        for k in 2..=4usize {
            let net = chains(n, k);
            let reduced = 1 + (n * (k - 1)) as u64;
            for order in ORDERS {
                let r = run(&net, 0, order, Reduce::Por);
                assert_eq!(r.verdict, Verdict::Fails);
                assert_eq!(r.stats.reduce_note, None);
                assert_eq!(
                    (r.stats.explored, r.stats.stored),
                    (reduced, reduced),
                    "n = {n}, k = {k}, {order:?}"
                );
            }
            if n <= 3 {
                let full = run_with(&net, 0, SearchOrder::Bfs, Reduce::Por, false);
                assert_eq!(full.stats.stored, (k as u64).pow(n as u32));
            }
        }
    }
}

/// A goal on the last locations of `P0` and `P2` of three chains (so `P1`
/// alone is ample, and runs to its end first): reachable in every order,
/// with a trace that replays, which moves `P1` although the goal does not
/// need it (the reduction moved it first, and the trace keeps every step).
#[test]
fn por_traces_replay() {
    let mut net = chains(3, 3);
    net.checks.clear();
    let mut with_goal = Net { n: net };
    with_goal.reach(and(vec![at(0, 2), at(2, 2)]));
    let net = with_goal.n;
    for order in ORDERS {
        let r = run(&net, 0, order, Reduce::Por);
        assert_eq!(r.verdict, Verdict::Holds, "{order:?}");
        let trace = r.trace.expect("a witness");
        support::simulator::replay(&net, 0, &trace).expect("the trace replays");
        let movers: Vec<ProcId> = trace
            .steps
            .iter()
            .map(|s| s.transition.edges[0].0)
            .collect();
        let mut sorted = movers.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 0, 1, 1, 2, 2], "{order:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random networks whose processes own their clocks and variables
    /// (`support::random_net::owned_spec`): the local-time graph with and
    /// without the reduction gives the ordinary search's verdict in every
    /// order, every trace replays.
    #[test]
    fn local_time_agrees_with_the_zone_graph_on_random_networks(s in owned_spec()) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let plain = run(&net, k, SearchOrder::Bfs, Reduce::None);
            for order in ORDERS {
                let full = run_with(&net, k, order, Reduce::Por, false);
                let por = run(&net, k, order, Reduce::Por);
                for r in [&full, &por] {
                    prop_assert_eq!(&r.stats.reduce_note, &None);
                    prop_assert_eq!(&r.verdict, &plain.verdict, "check {}, {:?}", k, order);
                    if let Some(t) = &r.trace {
                        let replayed = support::simulator::replay(&net, k, t);
                        prop_assert!(replayed.is_ok(), "check {k}, {order:?}: {replayed:?}");
                    }
                    let found = matches!(
                        (k, &r.verdict),
                        (0, Verdict::Holds) | (1, Verdict::Fails)
                    );
                    prop_assert_eq!(r.trace.is_some(), found);
                }
                // Stored states are not compared with the ordinary graph:
                // the local-time graph can store more
                // (`bounded_time_can_cost_states`).
                // Both explored everything: the reduced graph is part of
                // the full one.
                if matches!((k, &por.verdict), (0, Verdict::Fails) | (1, Verdict::Holds)) {
                    prop_assert!(
                        por.stats.stored <= full.stats.stored,
                        "check {k}, {order:?}: {} > {}", por.stats.stored, full.stats.stored
                    );
                }
            }
        }
    }
}

/// The random networks above exercise the reduction: of 100 drawn by a
/// fixed seed, some explore fewer states with it than without (five did
/// when this was written; over many seeds about one exhaustive search in
/// thirteen explores fewer).
#[test]
fn random_networks_give_the_reduction_something_to_reduce() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = owned_spec();
    let mut reduced = 0;
    for _ in 0..100 {
        let net = build(&strategy.new_tree(&mut runner).unwrap().current());
        let full = run_with(&net, 1, SearchOrder::Bfs, Reduce::Por, false);
        let por = run(&net, 1, SearchOrder::Bfs, Reduce::Por);
        if por.verdict == Verdict::Holds && por.stats.explored < full.stats.explored {
            reduced += 1;
        }
    }
    assert!(reduced >= 3, "{reduced} of 100");
}
