//! Synchronisation vectors on tiny networks: successor counts, verdicts and
//! shortest trace lengths worked out by hand in the comments, checked by
//! breadth-first search; every trace is replayed by the independent
//! simulator (`tests/support/simulator.rs`), which implements the vector
//! rules on its own.

use crate::support;

use support::simulator;
use zeno::checker::{self, Cancel, CheckResult, HeuristicKind, Options, SearchOrder, Verdict};
use zeno::ir::Network;

fn lower(text: &str) -> Network {
    let a = zeno::semantics::analyze(text);
    let errors: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    a.network.expect("a network")
}

fn run(net: &Network, name: &str, search: SearchOrder, heuristic: HeuristicKind) -> CheckResult {
    let k = net
        .checks
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no check {name}"));
    let options = Options {
        config: zeno::checker::config::Config {
            search,
            heuristic,
            ..Default::default()
        },
        ..Options::default()
    };
    let r = checker::check(
        net,
        net.check_at(k).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    if let Some(t) = &r.trace {
        simulator::replay(net, k, t)
            .unwrap_or_else(|e| panic!("{name} {search:?}: trace does not replay: {e}"));
    }
    r
}

fn bfs(net: &Network, name: &str) -> CheckResult {
    run(net, name, SearchOrder::Bfs, HeuristicKind::Zero)
}

/// P has two `s` edges, Q one, R joins weakly with `w` (enabled): one vector
/// transition per choice of P's edge, so 2 successors of the initial state,
/// both with R in `seen`, and nothing after them. BFS on `A[] true`:
/// explored 3, stored 3, generated 1 (initial) + 2.
const THREE: &str = "
template P() { init location a; location b; location c;
    a -> b sync s; a -> c sync s; }
template Q() { init location a; location b; a -> b sync s; }
template R() { init location idle; location seen; idle -> seen sync w; }
system P, Q, R;
sync P.s, Q.s, R.w?;
check all: A[] true;
check r_seen: E<> R.seen;
check r_left_out: E<> Q.b && R.idle;
check stuck: A[] !deadlock;
";

#[test]
fn every_choice_of_strong_edges_is_a_transition_and_an_enabled_weak_joins() {
    let net = lower(THREE);
    let r = bfs(&net, "all");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(
        (r.stats.explored, r.stats.stored, r.stats.generated),
        (3, 3, 3)
    );
    let r = bfs(&net, "r_seen");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 1);
    // R can join, so it must: Q never moves without it.
    assert_eq!(bfs(&net, "r_left_out").verdict, Verdict::Fails);
    // After the one step nobody has an edge.
    let r = bfs(&net, "stuck");
    assert_eq!(r.verdict, Verdict::Fails);
    assert_eq!(r.trace.expect("counterexample").len(), 1);
}

/// The same with R starting in `busy`, which has no `w` edge: R stays out,
/// the vector still fires (2 successors), and R never reaches `seen`.
#[test]
fn a_weak_participant_without_an_edge_stays_out() {
    let text = THREE
        .replace(
            "init location idle; location seen;",
            "location idle; location seen; init location busy;",
        )
        .replace("Q.b && R.idle", "Q.b && R.busy");
    let net = lower(&text);
    let r = bfs(&net, "all");
    assert_eq!(
        (r.stats.explored, r.stats.stored, r.stats.generated),
        (3, 3, 3)
    );
    assert_eq!(bfs(&net, "r_seen").verdict, Verdict::Fails);
    let r = bfs(&net, "r_left_out");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 1);
}

/// A strong participant without an enabled edge blocks the vector: Q's
/// edge needs `n == 1`, which nothing sets, so nothing moves at all.
#[test]
fn a_strong_participant_without_an_edge_blocks_the_vector() {
    let text = THREE
        .replace(
            "a -> b sync s; }\ntemplate R",
            "a -> b when n == 1 sync s; }\ntemplate R",
        )
        .replace("template P()", "int[0, 1] n;\ntemplate P()");
    let net = lower(&text);
    let r = bfs(&net, "all");
    assert_eq!(
        (r.stats.explored, r.stats.stored, r.stats.generated),
        (1, 1, 1)
    );
    let r = bfs(&net, "stuck");
    assert_eq!(r.verdict, Verdict::Fails);
    assert_eq!(r.trace.expect("counterexample").len(), 0);
}

/// A weak participant with a data guard, decided in the source state. P and
/// Q shuttle a <-> b together, P setting n = 1 on its first move; R joins on
/// `w` when n == 1 and it is idle.
/// s0 (a, a, idle, 0) -> s1 (b, b, idle, 1): R's guard is false before the
/// updates, so it stays out; s1 -> s2 (a, a, seen, 2): R joins and adds 1;
/// s2 -> s3 (b, b, seen, 1): P sets n = 1, R has no edge;
/// s3 -> s4 (a, a, seen, 1); s4 -> s3 again.
/// BFS on `A[] true`: explored 5, stored 5, generated 1 + 5 = 6;
/// `E<> R.seen` and `E<> n == 2`: shortest 2.
#[test]
fn a_weak_participant_with_a_data_guard_joins_when_it_holds() {
    let net = lower(
        "
int[0, 2] n;
template P() { init location a; location b;
    a -> b sync s do n = 1; b -> a sync s; }
template Q() { init location a; location b; a -> b sync s; b -> a sync s; }
template R() { init location idle; location seen;
    idle -> seen when n == 1 sync w do n = n + 1; }
system P, Q, R;
sync P.s, Q.s, R.w?;
check all: A[] true;
check r_seen: E<> R.seen;
check n_two: E<> n == 2;
",
    );
    let r = bfs(&net, "all");
    assert_eq!(
        (r.stats.explored, r.stats.stored, r.stats.generated),
        (5, 5, 6)
    );
    let r = bfs(&net, "r_seen");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 2);
    let r = bfs(&net, "n_two");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 2);
}

/// A labelled edge that no vector names moves alone (TChecker's internal
/// events); one that a vector names never does.
#[test]
fn labels_outside_every_vector_are_internal() {
    let net = lower(
        "
template P() { init location a; location b; a -> b sync solo; }
template Q() { init location a; location b; a -> b sync s; }
template R() { init location a; location b; a -> b sync s; }
system P, Q, R;
sync Q.s, R.s;
check p_moves: E<> P.b && Q.a;
check q_alone: E<> Q.b && R.a;
",
    );
    let r = bfs(&net, "p_moves");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 1);
    assert_eq!(bfs(&net, "q_alone").verdict, Verdict::Fails);
}

/// With a committed process, a vector must include one.
#[test]
fn committed_locations_restrict_vectors() {
    let net = lower(
        "
template C() { init committed location c; location d; c -> d; }
template Q() { init location a; location b; a -> b sync s; }
template R() { init location a; location b; a -> b sync s; }
system C, Q, R;
sync Q.s, R.s;
check first: E<> Q.b && C.c;
check after: E<> Q.b && C.d;
",
    );
    assert_eq!(bfs(&net, "first").verdict, Verdict::Fails);
    let r = bfs(&net, "after");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 2);
}

/// Every search order and heuristic agrees on the bundled-style model above.
#[test]
fn search_orders_agree() {
    let net = lower(THREE);
    for (search, heuristic) in [
        (SearchOrder::Dfs, HeuristicKind::Zero),
        (SearchOrder::Greedy, HeuristicKind::HU),
        (SearchOrder::Greedy, HeuristicKind::HL),
        (SearchOrder::Greedy, HeuristicKind::DL),
        (SearchOrder::AStar, HeuristicKind::HL),
    ] {
        assert_eq!(
            run(&net, "r_seen", search, heuristic).verdict,
            Verdict::Holds,
            "{search:?}/{heuristic:?}"
        );
        assert_eq!(
            run(&net, "r_left_out", search, heuristic).verdict,
            Verdict::Fails,
            "{search:?}/{heuristic:?}"
        );
    }
}

/// The enhancements (useless transitions, interference contexts, context
/// bounding) only reorder or defer states: the verdicts stay, and traces
/// replay.
#[test]
fn enhancements_keep_the_verdicts() {
    use zeno::checker::Enhance;
    let net = lower(THREE);
    for enhance in [
        Enhance::UselessTransitions,
        Enhance::InterferenceContexts,
        Enhance::ContextBoundingProcesses,
        Enhance::ContextBoundingInterference,
    ] {
        for (name, expected) in [
            ("r_seen", Verdict::Holds),
            ("r_left_out", Verdict::Fails),
            ("stuck", Verdict::Fails),
        ] {
            let k = net.checks.iter().position(|c| c.name == name).unwrap();
            let options = Options {
                config: zeno::checker::config::Config {
                    search: SearchOrder::Greedy,
                    heuristic: HeuristicKind::HL,
                    enhance,
                    ..Default::default()
                },
                ..Options::default()
            };
            let r = checker::check(
                &net,
                net.check_at(k).unwrap(),
                &options,
                &Cancel::new(),
                &mut zeno::checker::no_progress,
            );
            assert_eq!(r.verdict, expected, "{name} {enhance:?}");
            if let Some(t) = &r.trace {
                simulator::replay(&net, k, t).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
    }
}

/// The simulator is an independent judge only if it rejects wrong vector
/// steps: a weak participant left out although it could join, a strong one
/// missing, participants out of the vector's order, and a labelled edge
/// moving alone.
#[test]
fn the_simulator_rejects_wrong_vector_steps() {
    let net = lower(THREE);
    let k = net.checks.iter().position(|c| c.name == "r_seen").unwrap();
    let r = bfs(&net, "r_seen");
    let good = r.trace.expect("witness");
    simulator::replay(&net, k, &good).expect("the checker's trace replays");
    let edges = good.steps[0].transition.edges.clone();
    assert_eq!(edges.len(), 3, "P, Q and R move: {edges:?}");
    let tamper = |edges: Vec<(u32, u32)>| {
        let mut t = good.clone();
        t.steps[0].transition.edges = edges;
        // Arrive where the tampered step would: only the listed processes move.
        let mut after = t.initial.clone();
        for &(p, e) in &t.steps[0].transition.edges {
            after.locations[p as usize] = net.processes[p as usize].edges[e as usize].target;
        }
        t.steps[0].after = after;
        simulator::replay(&net, k, &t)
    };
    let rejected = |edges: Vec<(u32, u32)>| {
        let e = tamper(edges).expect_err("a wrong step must be rejected");
        assert!(e.contains("synchronisation vector"), "{e}");
    };
    // R (weak) could join but is left out.
    rejected(edges[..2].to_vec());
    // Q (strong) is missing.
    rejected(vec![edges[0], edges[2]]);
    // Out of the vector's order.
    rejected(vec![edges[1], edges[0], edges[2]]);
    // P's labelled edge alone.
    rejected(vec![edges[0]]);
}

/// The pattern database reads a vector step as one abstract transition: in
/// `THREE`, P, Q and R reach `b`, `b`, `seen` together in one step, so the
/// estimate of the initial state is exactly 1 (three separate moves would
/// give 3, which overestimates and breaks A*'s shortest traces); A* with it
/// finds the one-step witness.
#[test]
fn the_pattern_database_reads_a_vector_as_one_step() {
    use zeno::checker::heuristics::{self, EdgeSet};
    let text = format!("{THREE}\ncheck together: E<> P.b && Q.b && R.seen;\n");
    let net = lower(&text);
    let k = net
        .checks
        .iter()
        .position(|c| c.name == "together")
        .unwrap();
    let goal = net.checks[k].kind.goal();
    let mut h = heuristics::build(HeuristicKind::Pdb, &net, &goal, &EdgeSet::none(&net));
    assert_eq!(
        h.estimate(&net.initial_locations(), &net.initial_variables()),
        Some(1)
    );
    let r = run(&net, "together", SearchOrder::AStar, HeuristicKind::Pdb);
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 1);
}

/// Safe abstraction never removes a component that moves in a vector: a
/// counter whose only writer carries a vector label is kept, and the
/// verdict and shortest trace are those of plain BFS (2: the vector step
/// that counts, then P's internal move).
#[test]
fn safe_abstraction_keeps_vector_participants() {
    let text = "
int[0, 1] n = 0;
template C() { init location c; c -> c when n == 0 sync t do n = 1; }
template P() { init location a; location b; location done;
    a -> b sync t; b -> done when n == 1; }
system C, P;
sync C.t, P.t;
check reach: E<> P.done;
";
    let net = lower(text);
    let options = Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::Bfs,
            safe_abstraction: true,
            ..Default::default()
        },
        ..Options::default()
    };
    let r = checker::check(
        &net,
        net.check_at(0).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(r.verdict, Verdict::Holds);
    let safe = r.stats.safe.as_ref().map_or(0, |s| s.removed);
    assert_eq!(safe, 0, "{:?}", r.stats.safe);
    let t = r.trace.expect("witness");
    assert_eq!(t.len(), 2);
    simulator::replay(&net, 0, &t).expect("replays");
}

/// hL or hU of the initial state for check `name`.
fn initial_estimate(net: &Network, name: &str, kind: HeuristicKind) -> Option<u32> {
    use zeno::checker::heuristics::{self, EdgeSet};
    let k = net.checks.iter().position(|c| c.name == name).unwrap();
    let goal = net.checks[k].kind.goal();
    let mut h = heuristics::build(kind, net, &goal, &EdgeSet::none(net));
    h.estimate(&net.initial_locations(), &net.initial_variables())
}

/// The monotonicity abstraction fires a vector step as one transition: in
/// `THREE` one step takes P, Q and R to `b`, `b`, `seen`, so hL = hU = 1
/// (counting each participant's edge as a transition of its own gave hU = 3).
/// R, a weak participant with an enabled edge, joins that step: `E<> R.seen`
/// is 1 as well.
#[test]
fn hl_and_hu_count_a_vector_step_once() {
    let text = format!("{THREE}\ncheck together: E<> P.b && Q.b && R.seen;\n");
    let net = lower(&text);
    for kind in [HeuristicKind::HL, HeuristicKind::HU] {
        assert_eq!(
            initial_estimate(&net, "together", kind),
            Some(1),
            "{kind:?}"
        );
        assert_eq!(initial_estimate(&net, "r_seen", kind), Some(1), "{kind:?}");
    }
}

/// Q copies into `y` the `x` that P sets earlier in the same vector step
/// (updates run in the vector's order), so `y == 1` is one step away: BFS
/// finds a one-step witness and hL = hU = 1. Firing the participants'
/// edges separately, Q read `x` before the step and `y == 1` appeared only
/// in layer 2 (hL = 2, an overestimate).
#[test]
fn a_chained_update_inside_a_vector_step_is_seen_in_the_same_layer() {
    let net = lower(
        "
int[0, 1] x = 0;
int[0, 1] y = 0;
template P() { init location a; location b; a -> b sync s do x = 1; }
template Q() { init location a; location b; a -> b sync s do y = x; }
system P, Q;
sync P.s, Q.s;
check chained: E<> y == 1;
",
    );
    let r = bfs(&net, "chained");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 1);
    for kind in [HeuristicKind::HL, HeuristicKind::HU] {
        assert_eq!(initial_estimate(&net, "chained", kind), Some(1), "{kind:?}");
    }
    let r = run(&net, "chained", SearchOrder::AStar, HeuristicKind::HL);
    assert_eq!(r.trace.expect("witness").len(), 1);
}

/// A strong participant whose edge never becomes enabled blocks the vector
/// in the abstraction too: Q needs `n == 1`, which nothing sets, so P never
/// reaches `b` and hL, hU prove it (`None`); BFS agrees.
#[test]
fn a_blocked_strong_participant_blocks_the_abstract_step() {
    let text = THREE
        .replace(
            "a -> b sync s; }\ntemplate R",
            "a -> b when n == 1 sync s; }\ntemplate R",
        )
        .replace("template P()", "int[0, 1] n;\ntemplate P()")
        + "\ncheck p_moves: E<> P.b;\n";
    let net = lower(&text);
    assert_eq!(bfs(&net, "p_moves").verdict, Verdict::Fails);
    for kind in [HeuristicKind::HL, HeuristicKind::HU] {
        assert_eq!(initial_estimate(&net, "p_moves", kind), None, "{kind:?}");
    }
}

/// Three strong participants with seven `s` edges each: 343 choices, more
/// than the abstraction enumerates, so it fires the vector as one
/// transition of every enabled edge. Any combination of targets is one step
/// away (BFS: 1), and hL = hU = 1 still.
#[test]
fn a_vector_with_many_choices_is_still_one_step() {
    let template = |name: &str| {
        let locations: String = (0..7).map(|i| format!(" location b{i};")).collect();
        let edges: String = (0..7).map(|i| format!(" a -> b{i} sync s;")).collect();
        format!("template {name}() {{ init location a;{locations}{edges} }}\n")
    };
    let text = format!(
        "{}{}{}system P, Q, R;\nsync P.s, Q.s, R.s;\ncheck mixed: E<> P.b3 && Q.b5 && R.b6;\n",
        template("P"),
        template("Q"),
        template("R")
    );
    let net = lower(&text);
    let r = bfs(&net, "mixed");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.trace.expect("witness").len(), 1);
    for kind in [HeuristicKind::HL, HeuristicKind::HU] {
        assert_eq!(initial_estimate(&net, "mixed", kind), Some(1), "{kind:?}");
    }
}
