//! Invariants with conditions on data (UPPAAL: "a conjunction of simple
//! conditions on clocks, differences between clocks, and boolean expressions
//! not involving clocks"; lower bounds on clocks are disallowed). A state
//! whose data violate an invariant does not exist. The bundled model
//! `tests/data/models/data-invariants.zeno` runs under every search order in
//! `models.rs`; here: a UPPAAL XML import, an initial violation, the
//! independent simulator's own rule, the exporters and located errors.

use num_rational::Rational64;

use crate::support;

use support::simulator;
use zeno::checker::{
    self, Cancel, ConcreteState, HeuristicKind, Options, SearchOrder, Transition, Verdict,
};
use zeno::diagnostics::Severity;
use zeno::ir::Network;

const MODEL: &str = include_str!("../data/models/data-invariants.zeno");
const XML: &str = include_str!("../data/import/data-invariants.xml");

fn lower(text: &str) -> Network {
    let a = zeno::semantics::analyze(text);
    let errors: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    a.network.expect("a network")
}

/// The verdict and trace length of check `k` under `search`/`heuristic`;
/// every trace must replay in the independent simulator.
fn check(net: &Network, k: usize, search: SearchOrder, heuristic: HeuristicKind) -> (bool, usize) {
    let options = Options {
        config: zeno::checker::config::Config {
            search,
            heuristic,
            ..Default::default()
        },
        seed: 3,
        ..Options::default()
    };
    let r = checker::check(
        net,
        net.check_at(k).expect("a check"),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    if let Some(t) = &r.trace {
        simulator::replay(net, k, t).unwrap_or_else(|e| panic!("check {k}: {e}"));
    }
    let len = r.trace.as_ref().map_or(0, |t| t.len());
    match r.verdict {
        Verdict::Holds => (true, len),
        Verdict::Fails => (false, len),
        v => panic!("check {k}: {v:?}"),
    }
}

/// `wait` has the invariant `x <= 5 && mine(id)` (a side-effect-free
/// function reading `turn`). By hand: P1 enters `wait` only once P0 has set
/// `turn = 1` on leaving it (3 transitions); both waiting needs two values
/// of `turn`; P1 is never done while P0 is idle; `x <= 5` bounds the wait.
#[test]
fn uppaal_xml_with_data_invariant_imports_and_checks() {
    let imported = zeno::import::import_uppaal_xml(XML).expect("imports");
    assert!(
        imported
            .zeno
            .contains("location wait invariant x <= 5 && mine(id);"),
        "{}",
        imported.zeno
    );
    let net = lower(&imported.zeno);
    let expected = [(true, Some(3)), (false, None), (false, None), (false, None)];
    assert_eq!(net.checks.len(), expected.len());
    for (k, &(holds, shortest)) in expected.iter().enumerate() {
        for (search, heuristic) in [
            (SearchOrder::Bfs, HeuristicKind::Zero),
            (SearchOrder::Dfs, HeuristicKind::Zero),
            (SearchOrder::Greedy, HeuristicKind::HU),
            (SearchOrder::AStar, HeuristicKind::DL),
        ] {
            let (h, len) = check(&net, k, search, heuristic);
            assert_eq!(h, holds, "check {k} {search:?}/{heuristic:?}");
            if let (Some(s), SearchOrder::Bfs) = (shortest, search) {
                assert_eq!(len, s, "check {k}");
            }
        }
    }
}

/// An initial state violating its data invariant does not exist, exactly
/// as one violating a clock invariant: nothing is reachable, every safety
/// property holds.
#[test]
fn initial_violation_is_treated_as_a_clock_one() {
    let make = |invariant: &str| {
        format!(
            "int[0, 3] n = 1;\ntemplate P() {{\n    clock x;\n    init location a invariant {invariant};\n    location b;\n    a -> b;\n}}\nsystem P;\ncheck reach_b: E<> P.b;\ncheck always_one: A[] n == 1;\ncheck never: A[] n == 0;\n"
        )
    };
    for invariant in ["n == 0", "x < 0", "x <= 1 && n != 1"] {
        let net = lower(&make(invariant));
        assert!(
            !check(&net, 0, SearchOrder::Bfs, HeuristicKind::Zero).0,
            "{invariant}"
        );
        assert!(
            check(&net, 1, SearchOrder::Bfs, HeuristicKind::Zero).0,
            "{invariant}"
        );
        assert!(
            check(&net, 2, SearchOrder::Dfs, HeuristicKind::Zero).0,
            "{invariant}"
        );
    }
    // The same model with a satisfied initial invariant reaches `b`.
    let net = lower(&make("n == 1"));
    assert!(check(&net, 0, SearchOrder::Bfs, HeuristicKind::Zero).0);
    assert!(!check(&net, 2, SearchOrder::Bfs, HeuristicKind::Zero).0);
}

fn state(net: &Network, locations: &[&str], variables: &[i32]) -> ConcreteState {
    ConcreteState {
        locations: net
            .processes
            .iter()
            .zip(locations)
            .map(|(p, l)| p.locations.iter().position(|x| x.name == *l).unwrap() as u32)
            .collect(),
        variables: variables.to_vec(),
        clocks: vec![Rational64::from_integer(0); net.clocks.len()],
    }
}

fn edge(net: &Network, process: &str, source: &str, target: &str) -> (u32, u32) {
    let p = net
        .processes
        .iter()
        .position(|p| p.name == process)
        .unwrap();
    let proc_ = &net.processes[p];
    let at = |n: &str| proc_.locations.iter().position(|l| l.name == n).unwrap() as u32;
    let e = proc_
        .edges
        .iter()
        .position(|e| e.source == at(source) && e.target == at(target))
        .unwrap();
    (p as u32, e as u32)
}

/// The independent simulator refuses a step into a state whose data violate
/// an invariant, for the moving process and for another one.
#[test]
fn simulator_refuses_steps_into_violated_data_invariants() {
    let net = lower(MODEL);
    // P0, P1, Flip, T, C; variables turn, n.
    let init = ["idle", "idle", "f", "start", "c"];
    let s = state(&net, &init, &[0, 0]);
    let into_wait = |p: &str| Transition {
        edges: vec![edge(&net, p, "idle", "wait")],
    };
    assert!(simulator::fire(&net, &s, &into_wait("P0")).is_ok());
    assert!(simulator::fire(&net, &s, &into_wait("P1")).is_err());
    // P0 waiting: Flip's turn = 1 would break P0's invariant.
    let waiting = state(&net, &["wait", "idle", "f", "start", "c"], &[0, 0]);
    let flip = Transition {
        edges: vec![edge(&net, "Flip", "f", "f")],
    };
    assert!(simulator::fire(&net, &waiting, &flip).is_err());
    assert!(simulator::fire(&net, &s, &flip).is_ok());
    // T holding: C cannot count.
    let holding = state(&net, &["idle", "idle", "f", "hold", "c"], &[0, 0]);
    let count = Transition {
        edges: vec![edge(&net, "C", "c", "c")],
    };
    assert!(simulator::fire(&net, &holding, &count).is_err());
    assert!(simulator::fire(&net, &s, &count).is_ok());
}

/// XTA and TChecker both take integer conditions in invariants: the
/// exporters write them beside the clock bounds.
#[test]
fn exporters_write_data_invariants() {
    let net = lower(MODEL);
    let (xta, _) = zeno::import::export_xta(&net).expect("exports to XTA");
    assert!(xta.contains("wait { turn == 1 }"), "{xta}");
    assert!(xta.contains("hold { n == 0 && T_x <= 5 }"), "{xta}");
    let tck = zeno::import::export_tchecker(&net, "d").expect("exports to TChecker");
    assert!(tck.contains("{invariant:n == 0&&T_x <= 5"), "{tck}");
    // XTA read back: the same verdicts.
    let back = zeno::import::import_xta(&xta).expect("imports");
    let back = lower(&format!(
        "{}\ncheck held: E<> T.hold && n > 0;\ncheck after: E<> T.after && n == 3;\n",
        back.zeno
    ));
    let k = back.checks.len();
    assert!(!check(&back, k - 2, SearchOrder::Bfs, HeuristicKind::Zero).0);
    assert_eq!(
        check(&back, k - 1, SearchOrder::Bfs, HeuristicKind::Zero),
        (true, 5)
    );
}

/// What UPPAAL rejects stays a located error: clocks under a disjunction,
/// effects (a clock lower bound is no longer one).
#[test]
fn bad_invariants_are_located_errors() {
    let text = "int n;\ntemplate P() {\n    clock x;\n    init location a invariant x >= 1 && n == 0;\n    location b invariant x <= 2 || n == 0;\n    location c invariant n++ == 1;\n}\nsystem P;\n";
    let a = zeno::semantics::analyze(text);
    let errors: Vec<(u32, &str)> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.range.start, d.message.as_str()))
        .collect();
    let at = |s: &str| text.find(s).unwrap() as u32;
    // A clock lower bound is an invariant (lower_bound_invariants.rs).
    assert!(errors.iter().all(|&(s, _)| s != at("x >= 1")), "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|&(s, m)| s == at("x <= 2 ||") && m.starts_with("clocks can only be compared")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|&(s, _)| s >= at("n++") && s < at("n++") + 3),
        "{errors:?}"
    );
    assert_eq!(errors.len(), 2, "{errors:?}");
}

/// A toggled slot read by a data invariant is not a safe component: taking
/// it out would make `T` wait in `hold` with `n == 1`, which the invariant
/// `n == 0` forbids (C cannot toggle while T holds). By hand: T enters
/// `hold` only with n == 0 and n stays 0 there; after `hold`, C toggles.
#[test]
fn safe_abstraction_keeps_slots_that_data_invariants_read() {
    let net = lower(
        "int[0, 1] n = 0;\ntemplate T() {\n    init location start;\n    location hold invariant n == 0;\n    location after;\n    start -> hold;\n    hold -> after;\n}\ntemplate C() {\n    init location c;\n    c -> c  do n = 1 - n;\n}\nsystem T, C;\ncheck held_toggled: E<> T.hold && n == 1;\ncheck after_toggled: E<> T.after && n == 1;\n",
    );
    for safe_abstraction in [false, true] {
        for (k, expected) in [(0, false), (1, true)] {
            let options = Options {
                config: zeno::checker::config::Config {
                    safe_abstraction,
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
            if let Some(t) = &r.trace {
                simulator::replay(&net, k, t).unwrap_or_else(|e| panic!("check {k}: {e}"));
            }
            if safe_abstraction {
                let removed = r.stats.safe.as_ref().map(|s| s.removed);
                assert_eq!(removed, Some(0), "check {k}: nothing is safe here");
            }
            let want = if expected {
                Verdict::Holds
            } else {
                Verdict::Fails
            };
            assert_eq!(
                r.verdict, want,
                "check {k}, safe abstraction {safe_abstraction}"
            );
        }
    }
}

/// A data invariant that cannot be evaluated is a model error, as a guard
/// would be: the second step sets `i = 2` and `a[2]` is out of bounds.
#[test]
fn evaluation_errors_in_data_invariants_are_model_errors() {
    let net = lower(
        "int[0, 3] i = 0;\nint a[2];\ntemplate P() {\n    init location l invariant a[i] == 0;\n    l -> l  do i = i + 1;\n}\nsystem P;\ncheck r: E<> i == 3;\n",
    );
    let r = checker::check(
        &net,
        net.check_at(0).unwrap(),
        &Options::default(),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    match &r.verdict {
        Verdict::ModelError(e) => assert!(e.to_string().contains("out of bounds"), "{e}"),
        v => panic!("{v:?}"),
    }
    assert_eq!(r.trace.as_ref().map(|t| t.len()), Some(1));
}

/// zeno's own simulator offers no transition into a violated data
/// invariant, in either mode, and has no initial state where the initial
/// data violate one.
#[test]
fn the_simulator_offers_no_step_into_a_violated_data_invariant() {
    use zeno::simulate::{Mode, Simulator};
    let net = lower(MODEL);
    let p1_wait = edge(&net, "P1", "idle", "wait");
    let p0_wait = edge(&net, "P0", "idle", "wait");
    let flip = edge(&net, "Flip", "f", "f");
    for mode in [Mode::Concrete, Mode::Symbolic] {
        let mut sim = Simulator::new(&net, mode).expect("an initial state");
        let offered = |sim: &Simulator| -> Vec<Vec<(u32, u32)>> {
            sim.enabled()
                .unwrap()
                .into_iter()
                .filter(|e| e.now() && e.error.is_none())
                .map(|e| e.transition.edges)
                .collect()
        };
        let now = offered(&sim);
        assert!(now.contains(&vec![p0_wait]), "{mode:?} {now:?}");
        assert!(now.contains(&vec![flip]), "{mode:?} {now:?}");
        assert!(!now.contains(&vec![p1_wait]), "{mode:?} {now:?}");
        // P0 waiting: Flip would break its invariant.
        let k = sim
            .enabled()
            .unwrap()
            .iter()
            .position(|e| e.transition.edges == vec![p0_wait])
            .unwrap();
        sim.fire(k + 1).unwrap();
        let now = offered(&sim);
        assert!(!now.contains(&vec![flip]), "{mode:?} {now:?}");
    }
    let violated = lower(
        "int[0, 3] n = 1;\ntemplate P() {\n    init location a invariant n == 0;\n    location b;\n    a -> b;\n}\nsystem P;\n",
    );
    assert!(Simulator::new(&violated, Mode::Concrete).is_err());
    assert!(Simulator::new(&violated, Mode::Symbolic).is_err());
}

/// TChecker invariants take integer conditions: `wait` (labelled `w`) is
/// entered only if `turn == 0` after the edge's update. The verdicts are
/// those of TChecker's `tck-reach -a reach -l w` on the same two files
/// (REACHABLE true, then false).
#[test]
fn tchecker_invariant_with_an_integer_condition() {
    let tck = |update: &str| {
        format!(
            "system:s\nint:1:0:1:0:turn\nevent:a\nprocess:P\nlocation:P:idle{{initial:}}\nlocation:P:wait{{invariant:turn==0 : labels:w}}\nedge:P:idle:wait:a{{do:turn={update}}}\n"
        )
    };
    for (update, reachable) in [("0", true), ("1", false)] {
        let imported =
            zeno::import::import_tchecker(&tck(update), &["w".to_string()]).expect("imports");
        let net = lower(&imported.zeno);
        assert_eq!(
            check(&net, 0, SearchOrder::Bfs, HeuristicKind::Zero).0,
            reachable,
            "turn = {update}"
        );
    }
}

/// Deadlock detection sees transitions that a data invariant disables: with
/// `n == 0`, `a -> b` can never be taken (`b` needs `n == 1`), so the
/// initial state is a deadlock (0 steps); with `n == 1` the process moves
/// between `a` and `b` for ever.
#[test]
fn deadlocks_caused_by_data_invariants() {
    for (init, deadlock) in [(0, true), (1, false)] {
        let net = lower(&format!(
            "int[0, 1] n = {init};\ntemplate A() {{\n    init location a;\n    location b invariant n == 1;\n    a -> b;\n    b -> a;\n}}\nsystem A;\ncheck dl: E<> deadlock;\n"
        ));
        for search in [SearchOrder::Bfs, SearchOrder::Dfs] {
            let (holds, len) = check(&net, 0, search, HeuristicKind::Zero);
            assert_eq!(holds, deadlock, "n = {init} {search:?}");
            if holds {
                assert_eq!(len, 0);
            }
        }
    }
}
