//! Liveness checks (`A<>`, `E[]`, `-->`): hand-solved verdicts, how each
//! maximal run ends, lassos replayed by the independent simulator, limits,
//! located errors, and the CLI's text and JSON output of a lasso.
//!
//! The bundled models `tests/data/models/liveness-*.zeno` carry their
//! hand-computed verdicts in their headers and run in `models.rs` as well;
//! here each trace's shape is checked.

use crate::support;

use support::cli::{data_file, stdout, zeno};
use support::simulator;
use zeno::checker::{self, Cancel, Limit, Options, TraceEnd, Verdict};
use zeno::ir::Network;

fn network(text: &str) -> Network {
    let analysis = zeno::semantics::analyze(text);
    analysis
        .network
        .unwrap_or_else(|| panic!("does not analyse: {:?}", analysis.diagnostics))
}

fn model(name: &str) -> Network {
    network(&std::fs::read_to_string(data_file("models", name)).unwrap())
}

/// Decides the named check and replays its trace, if any, in the simulator.
fn decide(net: &Network, name: &str, options: &Options) -> checker::CheckResult {
    let k = net
        .checks
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no check `{name}`"));
    let r = checker::check(
        net,
        net.check_at(k).unwrap(),
        options,
        &Cancel::new(),
        &mut |_| {},
    );
    if let Some(t) = &r.trace {
        simulator::replay(net, k, t).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    r
}

fn run(net: &Network, name: &str) -> checker::CheckResult {
    decide(net, name, &Options::default())
}

#[test]
fn lazy_progress_ends_by_letting_time_diverge() {
    let net = model("liveness-progress.zeno");
    assert_eq!(run(&net, "forced").verdict, Verdict::Holds);
    assert_eq!(run(&net, "forced_leads").verdict, Verdict::Holds);
    assert_eq!(run(&net, "stays_forced").verdict, Verdict::Fails);
    for name in ["lazy", "stays_lazy", "lazy_leads"] {
        let r = run(&net, name);
        let expected = if name == "stays_lazy" {
            Verdict::Holds
        } else {
            Verdict::Fails
        };
        assert_eq!(r.verdict, expected, "{name}");
        // F moves (at x = 3, its earliest), then time passes for ever.
        let t = r.trace.expect("a maximal run");
        assert_eq!(t.end, TraceEnd::TimeDiverges, "{name}");
        assert_eq!(t.len(), 1, "{name}");
    }
}

#[test]
fn a_cycle_is_a_lasso_that_closes() {
    let net = model("liveness-cycle.zeno");
    for (name, verdict) in [("never", Verdict::Fails), ("avoids", Verdict::Holds)] {
        let r = run(&net, name);
        assert_eq!(r.verdict, verdict, "{name}");
        let t = r.trace.expect("a lasso");
        // n goes 0, 1, 2, 0: the discrete state first repeats after three
        // rounds a -> b -> a, back at the initial state.
        let TraceEnd::Loop { start, zone, .. } = &t.end else {
            panic!("{name}: not a lasso: {:?}", t.end);
        };
        assert_eq!((t.len(), *start), (6, 0), "{name}");
        assert!(!zone.is_empty());
    }
    for name in ["counts", "a_leads_b", "b_leads_a"] {
        let r = run(&net, name);
        assert_eq!(r.verdict, Verdict::Holds, "{name}");
        assert!(r.trace.is_none());
    }
}

#[test]
fn a_deadlock_breaks_inevitability() {
    let net = model("liveness-deadlock.zeno");
    assert_eq!(run(&net, "on_time").verdict, Verdict::Holds);
    for (name, verdict) in [
        ("late", Verdict::Fails),
        ("stuck", Verdict::Holds),
        ("late_leads", Verdict::Fails),
    ] {
        let r = run(&net, name);
        assert_eq!(r.verdict, verdict, "{name}");
        let t = r.trace.expect("a run ending in a deadlock");
        // D stays in s past x = 2 (E may or may not have moved): the
        // simulator checks that no action is possible any more.
        assert!(
            matches!(t.end, TraceEnd::Deadlock { .. }),
            "{name}: {:?}",
            t.end
        );
    }
}

#[test]
fn zeno_cycles_count_as_maximal_runs() {
    let net = model("liveness-zeno.zeno");
    for (name, verdict) in [
        ("leaves", Verdict::Fails),
        ("spins", Verdict::Holds),
        ("spin_leads", Verdict::Fails),
        ("timed_leaves", Verdict::Fails),
    ] {
        let r = run(&net, name);
        assert_eq!(r.verdict, verdict, "{name}");
        let t = r.trace.expect("a lasso");
        assert!(
            matches!(t.end, TraceEnd::Loop { .. }),
            "{name}: {:?}",
            t.end
        );
    }
    // The Zeno lasso: one self-loop of Z, no time passing.
    let t = run(&net, "leaves").trace.unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t.steps[0].delay, 0.into());
}

#[test]
fn leads_to_holds_when_the_grant_is_forced() {
    let net = model("liveness-leads-to.zeno");
    assert_eq!(run(&net, "a_served").verdict, Verdict::Holds);
    let r = run(&net, "b_served");
    assert_eq!(r.verdict, Verdict::Fails);
    assert!(r.trace.is_some());
    let r = run(&net, "a_served_eventually");
    assert_eq!(r.verdict, Verdict::Fails);
    // Nobody has to move: time diverges in the initial state.
    let t = r.trace.unwrap();
    assert_eq!((t.len(), t.end), (0, TraceEnd::TimeDiverges));
}

/// A counter in an urgent location (time never passes, so the only maximal
/// run is its cycle of 201 states), long enough that a small state limit
/// stops the search first: the limit gives `unknown`, never a verdict.
#[test]
fn limits_give_unknown() {
    let net = network(
        "int[0, 200] n = 0;\n\
         template C() { init urgent location s; s -> s when n < 200 do n = n + 1; s -> s when n == 200 do n = 0; }\n\
         system C;\n\
         check spin: E[] true;\n\
         check up: A<> n == 200;\n",
    );
    let limited = Options {
        max_states: Some(50),
        ..Options::default()
    };
    for name in ["spin", "up"] {
        let r = decide(&net, name, &limited);
        assert_eq!(r.verdict, Verdict::Unknown(Limit::States), "{name}");
        assert_eq!(r.stats.explored, 50);
        // Without the limit: the counter's cycle of 201 states is the only
        // maximal run; it keeps `true` and passes n == 200.
        let r = run(&net, name);
        assert_eq!(r.verdict, Verdict::Holds, "{name}");
    }
    let t = run(&net, "spin").trace.unwrap();
    assert_eq!(t.len(), 201);
}

#[test]
fn clocks_and_deadlock_in_liveness_formulas_are_located_errors() {
    let text = "template P() { clock x; init location s; s -> s when x > 1 do x = 0; }\n\
                system P;\n\
                check a: A<> P.x > 3;\n\
                check b: E[] not deadlock;\n\
                check c: P.s --> P.x > 1;\n";
    let analysis = zeno::semantics::analyze(text);
    let errors: Vec<(String, &str)> = analysis
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.message.clone(),
                &text[d.range.start as usize..d.range.end as usize],
            )
        })
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors[0]
            .0
            .starts_with("clock constraints are not supported")
    );
    assert_eq!(errors[0].1, "P.x > 3");
    assert!(errors[1].0.starts_with("`deadlock` is not supported"));
    assert_eq!(errors[1].1, "not deadlock");
    assert_eq!(errors[2].1, "P.x > 1");
}

#[test]
fn leads_to_parses_and_a_missing_operator_is_located() {
    let parse = zeno::syntax::parse("check c: a --> b;\ncheck d: a;\n");
    let errors: Vec<String> = parse.errors().iter().map(|e| e.message.clone()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("`-->`"), "{errors:?}");
}

#[test]
fn cli_prints_the_lasso_and_json_gives_its_start() {
    let file = data_file("models", "liveness-cycle.zeno");
    let out = zeno(&["check", &file, "--check", "never"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("never: violated — trace of 6 steps, looping back to the initial state"),
        "{text}"
    );
    assert!(
        text.contains("-- cycle: the steps below repeat forever --"),
        "{text}"
    );
    let out = zeno(&["check", &file, "--check", "avoids", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let check = &json["files"][0]["checks"][0];
    assert_eq!(check["kind"], "potentially_always");
    assert_eq!(check["verdict"], "holds");
    assert_eq!(check["trace"]["loop_start"], 0);
    assert_eq!(check["trace"]["end"]["kind"], "loop");
    assert_eq!(check["trace"]["steps"].as_array().unwrap().len(), 6);
}

#[test]
fn query_files_add_checks_and_locate_what_they_cannot_translate() {
    let dir = support::cli::scratch("liveness_queries");
    let q = dir.join("progress.q");
    std::fs::write(
        &q,
        "// UPPAAL queries\n/* forced progress:\n   F must finish */\nA<> F.done\n\nL.start --> L.done\nPr[<=10](<> F.done)\nE[] L.start\n",
    )
    .unwrap();
    let model = data_file("models", "liveness-progress.zeno");
    let out = zeno(&[
        "check",
        &model,
        "--queries",
        support::cli::path(&q),
        "--check",
        "line4",
        "--check",
        "line6",
        "--check",
        "line8",
        "--trace",
        "none",
    ]);
    // The statistical query cannot be translated: a located error, exit 2; the
    // others are decided as the model's own checks of the same formulas.
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(text.contains("line4: holds"), "{text}");
    assert!(text.contains("line6: violated"), "{text}");
    assert!(text.contains("line8: holds — witness"), "{text}");
    let err = support::cli::stderr(&out);
    assert!(err.contains("progress.q:7:1"), "{err}");
}

#[test]
fn uppaal_liveness_queries_are_imported() {
    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<nta>
<declaration>clock x;</declaration>
<template><name>P</name>
<location id="a"><name>s</name><label kind="invariant">x &lt;= 5</label></location>
<location id="b"><name>t</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="guard">x &gt;= 3</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>A&lt;&gt; P.t</formula></query>
<query><formula>E[] P.s</formula></query>
<query><formula>P.s --&gt; P.t</formula></query>
</queries>
</nta>
"#;
    let imported = zeno::import::import_uppaal_xml(xml).expect("imports");
    assert!(
        imported.zeno.contains("check q1: A<> P.t;"),
        "{}",
        imported.zeno
    );
    assert!(imported.zeno.contains("check q2: E[] P.s;"));
    assert!(imported.zeno.contains("check q3: P.s --> P.t;"));
    // P must leave s by x = 5: the first and third hold, the second fails.
    let net = network(&imported.zeno);
    assert_eq!(run(&net, "q1").verdict, Verdict::Holds);
    assert_eq!(run(&net, "q2").verdict, Verdict::Fails);
    assert_eq!(run(&net, "q3").verdict, Verdict::Holds);
}

fn non_zeno() -> Options {
    Options {
        non_zeno: true,
        ..Options::default()
    }
}

#[test]
fn non_zeno_runs_flip_the_verdicts_of_a_zeno_spin() {
    let net = model("liveness-non-zeno.zeno");
    // (check, counting Zeno runs, without them): hand-solved in the
    // model's header.
    for (name, zeno, non) in [
        ("finishes", Verdict::Fails, Verdict::Holds),
        ("stalls", Verdict::Holds, Verdict::Fails),
        ("job_leads", Verdict::Fails, Verdict::Holds),
        ("resets", Verdict::Holds, Verdict::Holds),
        ("ticks", Verdict::Fails, Verdict::Fails),
    ] {
        assert_eq!(run(&net, name).verdict, zeno, "{name} counting Zeno runs");
        let r = decide(&net, name, &non_zeno());
        assert_eq!(r.verdict, non, "{name} with --non-zeno");
        // A counterexample or witness is an infinite run here (nothing
        // deadlocks, and time cannot diverge while J, R and T all stay in
        // s, bounded by their invariants).
        if let Some(t) = &r.trace {
            assert!(
                matches!(t.end, TraceEnd::Loop { .. }),
                "{name}: {:?}",
                t.end
            );
        }
    }
}

#[test]
fn a_zeno_lasso_takes_no_time_and_a_non_zeno_one_does() {
    // J alone: the spin in s is the counterexample of `A<> J.done` counting
    // Zeno runs (one self-loop back to the initial state's zone, as x is
    // not reset), and there is none without them.
    let job = network(
        "template Job() { clock x; init location s invariant x <= 2; location done;\n\
         s -> s; s -> done when x >= 1; }\n\
         system Job;\n\
         check finishes: A<> Job.done;\n",
    );
    let t = run(&job, "finishes").trace.expect("a Zeno lasso");
    let TraceEnd::Loop { start, .. } = t.end else {
        panic!("not a lasso: {:?}", t.end);
    };
    assert_eq!((t.len(), start), (1, 0));
    assert_eq!(
        decide(&job, "finishes", &non_zeno()).verdict,
        Verdict::Holds
    );
    // R alone: the witness of `E[] R.s` without Zeno runs is the reset
    // loop taken after z, the extra clock, reached 1: one step back to the
    // initial zone (x = z = 0, delayed), and its delay is at least 1 (and
    // at most 2, R's invariant).
    let resets = network(
        "template R() { clock x; init location s invariant x <= 2; location t;\n\
         s -> s do x = 0; s -> t when x >= 1; }\n\
         system R;\n\
         check resets: E[] R.s;\n",
    );
    let r = decide(&resets, "resets", &non_zeno());
    assert_eq!(r.verdict, Verdict::Holds);
    let t = r.trace.expect("a non-Zeno lasso");
    let TraceEnd::Loop { start, zone, .. } = &t.end else {
        panic!("not a lasso: {:?}", t.end);
    };
    assert_eq!((t.len(), *start), (1, 0));
    assert!(t.steps[0].delay >= 1.into() && t.steps[0].delay <= 2.into());
    // The trace speaks of the network's clocks only (the reference clock
    // and x), never of the extra one.
    assert_eq!(t.initial.clocks.len(), 2);
    assert!(zone.iter().all(|b| b.i < 2 && b.j < 2), "{zone:?}");
}

#[test]
fn cli_non_zeno_flag() {
    let file = data_file("models", "liveness-non-zeno.zeno");
    let out = zeno(&["check", &file, "--check", "finishes"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let out = zeno(&["check", &file, "--check", "finishes", "--non-zeno"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("finishes: holds"), "{}", stdout(&out));
}

/// Every search configuration of the liveness checks: blind (breadth-first
/// outer search, successors in the network's order) and directed (greedy
/// on a heuristic), counting Zeno runs or not.
fn configurations() -> Vec<Options> {
    let mut out = Vec::new();
    for non_zeno in [false, true] {
        for (search, heuristic) in [
            (checker::SearchOrder::Bfs, checker::HeuristicKind::Zero),
            (checker::SearchOrder::Dfs, checker::HeuristicKind::Zero),
            (checker::SearchOrder::Greedy, checker::HeuristicKind::HU),
            (checker::SearchOrder::Greedy, checker::HeuristicKind::HL),
            (checker::SearchOrder::AStar, checker::HeuristicKind::Pdb),
        ] {
            out.push(Options {
                config: zeno::checker::config::Config {
                    search,
                    heuristic,
                    ..Default::default()
                },
                non_zeno,
                ..Options::default()
            });
        }
    }
    out
}

#[test]
fn directed_and_blind_liveness_agree_on_every_model() {
    let mut checked = 0;
    for name in [
        "liveness-cycle.zeno",
        "liveness-deadlock.zeno",
        "liveness-leads-to.zeno",
        "liveness-progress.zeno",
        "liveness-zeno.zeno",
        "liveness-non-zeno.zeno",
    ] {
        let net = model(name);
        for (k, c) in net.checks.iter().enumerate() {
            let mut verdicts = Vec::new();
            for options in configurations() {
                // `decide` replays every trace in the simulator.
                let r = decide(&net, &c.name, &options);
                verdicts.push((options.non_zeno, r.verdict));
                checked += 1;
            }
            for non_zeno in [false, true] {
                let mut of: Vec<_> = verdicts.iter().filter(|v| v.0 == non_zeno).collect();
                of.dedup();
                assert_eq!(of.len(), 1, "{name} check {k} ({}): {verdicts:?}", c.name);
            }
        }
    }
    assert!(checked >= 200, "{checked}");
}

/// Urgent counters (time never passes) that may count to 8 or skip a turn
/// (`s -> s`, a cycle at once). The counting edge comes first: blind
/// depth-first search counts C(1) up to 8 before its only move left, the
/// skip, closes a cycle (a lasso of 8 + 1 steps, 9 states explored); the
/// directed search tries the cycle-closing skip first (0 + 1, 1 state).
#[test]
fn directed_search_closes_cycles_first() {
    let net = network(
        "typedef int[1, 3] id_t;\nint[0, 8] c[id_t];\n\
         template C(const id_t i) { init urgent location s;\n\
         s -> s when c[i] < 8 do c[i] = c[i] + 1;\n s -> s; }\n\
         system C;\ncheck all: A<> forall (i : id_t) c[i] == 8;\n",
    );
    let shape = |options: &Options| {
        let r = decide(&net, "all", options);
        assert_eq!(r.verdict, Verdict::Fails);
        let t = r.trace.expect("a lasso");
        let TraceEnd::Loop { start, .. } = t.end else {
            panic!("not a lasso: {:?}", t.end);
        };
        (start, t.len() - start, r.stats.explored)
    };
    assert_eq!(shape(&Options::default()), (8, 1, 9));
    let directed = Options {
        config: zeno::checker::config::Config {
            search: checker::SearchOrder::Greedy,
            heuristic: checker::HeuristicKind::HU,
            ..Default::default()
        },
        ..Options::default()
    };
    assert_eq!(shape(&directed), (0, 1, 1));
}
