//! Channel and process priorities: located errors, the effect on verdicts
//! (each model checked with and without its priorities, the difference
//! worked out by hand), zones split where a higher-priority transition is
//! enabled in part of them, and the independent simulator's own priority
//! rule rejecting a blocked step. The bundled models
//! `tests/data/models/priorities-*.zeno` run under every search order in
//! `models.rs`.

use crate::support::errors;
use num_rational::Rational64;

use crate::support;

use support::simulator;
use zeno::checker::{self, Cancel, CheckResult, Options, Verdict};
use zeno::diagnostics::Severity;
use zeno::ir::Network;

const CHANNELS: &str = include_str!("../data/models/priorities-channels.zeno");
const PROCESSES: &str = include_str!("../data/models/priorities-processes.zeno");
const CLOCKS: &str = include_str!("../data/models/priorities-clocks.zeno");

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

/// Breadth-first search; every trace must replay in the simulator.
fn bfs(net: &Network, name: &str) -> CheckResult {
    let k = net
        .checks
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no check {name}"));
    let r = checker::check(
        net,
        net.check_at(k).expect("a check"),
        &Options::default(),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    if let Some(t) = &r.trace {
        simulator::replay(net, k, t).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    r
}

fn holds(net: &Network, name: &str) -> bool {
    match bfs(net, name).verdict {
        Verdict::Holds => true,
        Verdict::Fails => false,
        v => panic!("{name}: {v:?}"),
    }
}

#[test]
fn the_levels_are_read_as_written() {
    let p = lower(PROCESSES).priorities;
    // Low, Low2 < High; d < default (c unlisted, so at default).
    assert_eq!(p.process, vec![0, 0, 1]);
    assert_eq!(p.channel, vec![1, 0]);
    assert_eq!(p.default_channel, 1);
    let p = lower(CHANNELS).priorities;
    // a < default < b, c unlisted: a 0, b 2, c 1; no process levels.
    assert_eq!(p.channel, vec![0, 2, 1]);
    assert_eq!(p.default_channel, 1);
    assert!(p.process.is_empty());
    // Without `default`, internal transitions share the first level; an
    // array names all its elements, an element one.
    let p = lower(
        "chan a[3], b; priority a[1] < b, a[2];
         template T() { init location l; l -> l sync b!; l -> l sync b?; l -> l sync a[0]!; }
         system T;",
    )
    .priorities;
    assert_eq!(p.channel, vec![0, 0, 1, 1]);
    assert_eq!(p.default_channel, 0);
}

/// The same verdicts flip when the priorities are taken out: each check
/// below is decided by them.
#[test]
fn without_priorities_the_blocked_transitions_fire() {
    let no_prio = |text: &str| {
        let mut net = lower(text);
        net.priorities = Default::default();
        net
    };
    let (with, without) = (lower(CHANNELS), no_prio(CHANNELS));
    for name in ["never_a_or_c", "tau_before_b"] {
        assert_ne!(holds(&with, name), holds(&without, name), "{name}");
    }
    let (with, without) = (lower(PROCESSES), no_prio(PROCESSES));
    for name in ["log_one", "log_three", "only_zero_or_two"] {
        assert_ne!(holds(&with, name), holds(&without, name), "{name}");
    }
    let (with, without) = (lower(CLOCKS), no_prio(CLOCKS));
    for name in ["lo_blocked", "lo_at_four"] {
        assert_ne!(holds(&with, name), holds(&without, name), "{name}");
    }
}

/// In the clocks model lo (x <= 8) is blocked by hi on x in [3, 4]: the
/// initial zone x in [0, 10] gives two lo successors (x in [0, 3) and
/// x in (4, 8]) and one hi successor (x in [3, 4]), so breadth-first search
/// stores the initial state and these three and explores all four. (The
/// check compares x with 20 so that extrapolation keeps the two lo zones
/// apart: nothing else compares x in `vialo`.)
#[test]
fn a_blocked_zone_splits_into_the_pieces_left() {
    let mut text = CLOCKS.to_string();
    text.push_str("\ncheck all: A[] !(P.vialo && x > 20);\n");
    let net = lower(&text);
    let r = bfs(&net, "all");
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.stats.explored, 4, "{:?}", r.stats);
    assert_eq!(r.stats.stored, 4, "{:?}", r.stats);
    assert_eq!(r.stats.generated, 4, "{:?}", r.stats);
}

/// The witness of `lo_late` fires lo after a delay in (4, 8]; moved to
/// 7/2 (where hi is enabled) the simulator must refuse it, whatever the
/// checker says.
#[test]
fn the_simulator_refuses_a_blocked_step() {
    let net = lower(CLOCKS);
    let k = net.checks.iter().position(|c| c.name == "lo_late").unwrap();
    let r = bfs(&net, "lo_late");
    let mut trace = r.trace.expect("a witness");
    assert_eq!(trace.steps.len(), 1);
    let d = trace.steps[0].delay;
    assert!(d > Rational64::from_integer(4) && d <= Rational64::from_integer(8));
    let moved = Rational64::new(7, 2);
    trace.steps[0].delay = moved;
    for c in trace.steps[0].after.clocks.iter_mut().skip(1) {
        *c = moved;
    }
    let err = simulator::replay(&net, k, &trace).expect_err("a blocked step replays");
    assert!(err.contains("blocked"), "{err}");
}

#[test]
fn bad_priorities_are_located_errors() {
    let base = "chan a, b[2]; int v; clock x;
        template T() { init location l; l -> l sync a!; l -> l sync a?; l -> l sync b[v]!; }";
    let cases: &[(&str, &str, &str)] = &[
        ("priority a < nope;", "unknown name", "nope"),
        ("priority a < v;", "not a channel", "v"),
        ("priority a < x;", "not a channel", "x"),
        ("priority b[v] < a;", "must be a constant", "b[v]"),
        ("priority b[2] < a;", "out of range", "2"),
        ("priority a < a;", "already has a priority", "a"),
        ("priority b < b[1];", "already has a priority", "b[1]"),
        (
            "priority default < a < default;",
            "`default` is listed twice",
            "default",
        ),
        (
            "priority a < b; priority b < a;",
            "at most one",
            "priority b < a;",
        ),
        ("priority a + 1 < b;", "expected `;`, found `+`", ""),
    ];
    for (decl, message, at) in cases {
        let text = format!("{base}\n{decl}\nsystem T;");
        let errs = errors(&text);
        assert!(
            errs.iter().any(|(m, a)| m.contains(message) && a == at),
            "{decl}: {errs:?}"
        );
    }
    // Inside a template (it is a top-level item, like `system`, so it ends
    // the body), and a system line that ends in `<`.
    let errs = errors("chan a; template T() { priority a; init location l; } system T;");
    assert!(
        errs.iter()
            .any(|(m, _)| m == "expected `}`, found `priority`"),
        "{errs:?}"
    );
    let errs = errors("template T() { init location l; } system T <;");
    assert!(!errs.is_empty());
}

#[test]
fn formatting_keeps_the_levels() {
    let text =
        "chan a,b;priority a<default,b;\ntemplate T() { init location l; }\nsystem T<T2,T3;\n";
    let out = zeno::fmt::format(text).expect("formats");
    assert!(out.contains("priority a < default, b;"), "{out}");
    assert!(out.contains("system T < T2, T3;"), "{out}");
    assert_eq!(zeno::fmt::format(&out).unwrap(), out);
}

/// UPPAAL's `chan priority` and `system S < R;`, imported: a (level 0, with
/// d[0]) is below default (c, d[1], internal edges) below b, and R is above
/// S. From the initial state S can send a or b to R; b has the higher
/// channel level, so only log == 2 is reachable.
#[test]
fn uppaal_priorities_are_imported() {
    let xml = include_str!("../data/import/priorities.xml");
    let imported =
        zeno::import::import("priorities.xml", xml, &Default::default()).expect("imports");
    assert!(
        imported.zeno.contains("priority a, d[0] < default < b;"),
        "{}",
        imported.zeno
    );
    assert!(imported.zeno.contains("system S < R;"), "{}", imported.zeno);
    let net = lower(&imported.zeno);
    assert_eq!(net.priorities.channel, vec![0, 2, 1, 0, 1]);
    assert_eq!(net.priorities.process, vec![0, 1]);
    assert!(!holds(&net, "a_fires"));
    assert!(holds(&net, "b_fires"));
}

#[test]
fn exporters_refuse_priorities_where_they_are_declared() {
    for (text, declared) in [
        (CLOCKS, "priority lo < hi;"),
        (PROCESSES, "system Low, Low2 < High;"),
    ] {
        let net = lower(text);
        let xta = zeno::import::export_xta(&net).expect_err("XTA export");
        let tck = zeno::import::export_tchecker(&net, "m").expect_err("TChecker export");
        for errs in [xta, tck] {
            assert!(
                errs.iter().any(|d| d.message.contains("not exported")
                    && &text[d.range.start as usize..d.range.end as usize] == declared),
                "{errs:?}"
            );
        }
    }
}

mod random {
    //! Random small networks with random channel and process levels: every
    //! search order agrees on every check, and every trace replays in the
    //! simulator, which checks each step against the transitions its own
    //! enumeration finds enabled at that concrete state.
    use crate::support;

    use proptest::prelude::*;
    use support::random_net::{build, spec};
    use zeno::checker::*;
    use zeno::ir::Priorities;

    const ORDERS: [SearchOrder; 4] = [
        SearchOrder::Bfs,
        SearchOrder::Dfs,
        SearchOrder::Greedy,
        SearchOrder::AStar,
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

        #[test]
        fn orders_agree_and_traces_replay_with_priorities(
            s in spec(),
            chan_levels in proptest::collection::vec(0..3u32, 3),
            default in 0..3u32,
            proc_levels in proptest::option::of(proptest::collection::vec(0..3u32, 3)),
        ) {
            let mut net = build(&s);
            net.priorities = Priorities {
                channel: chan_levels[..net.channels.len().min(3)].to_vec(),
                default_channel: default,
                process: proc_levels
                    .map(|l| l[..net.processes.len().min(3)].to_vec())
                    .unwrap_or_default(),
                channel_span: None,
                process_span: None,
            };
            for k in 0..net.checks.len() {
                let mut verdicts = Vec::new();
                let mut bfs_len = None;
                for order in ORDERS {
                    let options = Options { config: zeno::checker::config::Config { search: order, heuristic: if order == SearchOrder::Bfs || order == SearchOrder::Dfs {
                            HeuristicKind::Zero
                        } else {
                            HeuristicKind::HL
                        }, ..Default::default() }, max_states: Some(20_000), ..Options::default() };
                    let r = check(&net, net.check_at(k).expect("a check"), &options, &Cancel::new(), &mut zeno::checker::no_progress);
                    prop_assert!(!matches!(r.verdict, Verdict::Unknown(_)));
                    if let Some(t) = &r.trace {
                        let replayed = support::simulator::replay(&net, k, t);
                        prop_assert!(replayed.is_ok(), "{:?} check {}: {:?}\n{:#?}", order, k, replayed, t);
                        // Which of a goal and a model error a search meets
                        // first depends on the order: lengths are compared
                        // between goal traces only.
                        let error = matches!(r.verdict, Verdict::ModelError(_));
                        match order {
                            SearchOrder::Bfs if !error => bfs_len = Some(t.len()),
                            // hL ignores priorities, which only remove
                            // transitions: still admissible, A* keeps the
                            // shortest length.
                            SearchOrder::AStar if !error && bfs_len.is_some() => {
                                prop_assert_eq!(Some(t.len()), bfs_len);
                            }
                            _ => {}
                        }
                    }
                    verdicts.push(r.verdict);
                }
                if verdicts.iter().any(|v| matches!(v, Verdict::ModelError(_))) {
                    continue;
                }
                for v in &verdicts {
                    prop_assert_eq!(v, &verdicts[0]);
                }
            }
        }
    }
}

/// The smallest process priority: A and B race for w; B is above A, so
/// only B's edge may fire (UPPAAL's documentation example shape).
#[test]
fn the_higher_process_wins_a_race() {
    let net = lower(
        "int[0, 2] w = 0;
         template A() { init location a; location b; a -> b when w == 0 do w = 1; }
         template B() { init location a; location b; a -> b when w == 0 do w = 2; }
         system A < B;
         check a_wins: E<> w == 1;
         check b_wins: E<> w == 2;",
    );
    assert_eq!(net.priorities.process, vec![0, 1]);
    assert!(!holds(&net, "a_wins"));
    assert!(holds(&net, "b_wins"));
}

/// UPPAAL's documentation examples, imported from XTA: `chan priority
/// a,d[0] < default < b,e;` gives a and d[0] the lowest level, b, e[0] and
/// e[1] the highest, c and d[1] the default one; `system A < B,C < D;`
/// gives A the lowest level, B and C the middle one, D the highest.
#[test]
fn uppaal_documentation_examples() {
    let xta = "chan a,b,c,d[2],e[2];
chan priority a,d[0] < default < b,e;
process A() { state s; init s; trans s -> s { sync a!; }, s -> s { sync b!; }, s -> s { sync c!; }, s -> s { sync d[0]!; }, s -> s { sync d[1]!; }, s -> s { sync e[0]!; }, s -> s { sync e[1]!; }; }
process B() { state s; init s; trans s -> s { sync a?; }, s -> s { sync b?; }, s -> s { sync c?; }, s -> s { sync d[0]?; }, s -> s { sync d[1]?; }, s -> s { sync e[0]?; }, s -> s { sync e[1]?; }; }
process C() { state s; init s; }
process D() { state s; init s; }
system A < B,C < D;
";
    let imported = zeno::import::import("doc.xta", xta, &Default::default()).expect("imports");
    let p = lower(&imported.zeno).priorities;
    // Channels in declaration order: a, b, c, d[0], d[1], e[0], e[1].
    assert_eq!(p.channel, vec![0, 2, 1, 0, 1, 2, 2], "{}", imported.zeno);
    assert_eq!(p.default_channel, 1);
    assert_eq!(p.process, vec![0, 1, 1, 2]);
}

/// `zeno simulate` offers what the semantics allows: from x = 0 in the
/// clocks model, hi after a delay in [3, 4] and lo after one in [0, 3) or
/// (4, 8] (hand-read from the model's header); in symbolic mode lo leads to
/// the two zones of `a_blocked_zone_splits_into_the_pieces_left`.
#[test]
fn the_interactive_simulator_offers_only_unblocked_delays() {
    use zeno::simulate::{Mode, Simulator};
    let net = lower(CLOCKS);
    let q = |n: i64, d: i64| Rational64::new(n, d);
    let sim = Simulator::new(&net, Mode::Concrete).expect("a simulator");
    let enabled = sim.enabled().expect("enabled transitions");
    let by_edge = |e: u32| {
        enabled
            .iter()
            .find(|t| t.transition.edges.first() == Some(&(0, e)))
            .unwrap_or_else(|| panic!("edge {e} offered: {enabled:?}"))
    };
    let offers = |e: u32, d: Rational64| by_edge(e).windows.iter().any(|w| w.contains(d));
    // Edge 0 is hi, edge 1 is lo.
    for d in [q(3, 1), q(7, 2), q(4, 1)] {
        assert!(offers(0, d), "hi at {d}");
        assert!(!offers(1, d), "lo at {d}");
    }
    for d in [q(0, 1), q(29, 10), q(41, 10), q(8, 1)] {
        assert!(offers(1, d), "lo at {d}");
    }
    for d in [q(29, 10), q(41, 10)] {
        assert!(!offers(0, d), "hi at {d}");
    }
    assert!(!offers(1, q(81, 10)), "lo after its guard");

    let sim = Simulator::new(&net, Mode::Symbolic).expect("a simulator");
    let enabled = sim.enabled().expect("enabled transitions");
    let lo = enabled
        .iter()
        .filter(|t| t.transition.edges.first() == Some(&(0, 1)))
        .count();
    let hi = enabled
        .iter()
        .filter(|t| t.transition.edges.first() == Some(&(0, 0)))
        .count();
    assert_eq!((lo, hi), (2, 1), "{enabled:?}");
}
