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
        &mut zeno::checker::no_progress,
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

/// `deadlock` in `A<>`, `E[]` and `-->` (a property of a valuation: the
/// timed search splits zones along it). One process each, so that the
/// process alone decides whether the network is deadlocked. Verdicts by
/// hand (docs/language.md, "Liveness checks": a maximal run is infinite in
/// its actions, or waits for ever, or ends in a deadlock from which every
/// delay still allowed keeps the formula), each trace replayed by the
/// simulator at every instant where a guard or invariant changes its value,
/// under every search configuration.
#[test]
fn deadlock_in_liveness_formulas_is_decided() {
    // `a` (x <= 3) must be left for `b` at x in [1, 3]; `b` has no edge:
    // deadlocked there, and only there (from every valuation of `a` a
    // delay within the invariant enables the edge). Every maximal run
    // enters `b` (a run cannot stay in `a`: time is bounded and the edge
    // enabled until then).
    let ends = "template P() { clock x; init location a invariant x <= 3; location b; \
                a -> b when x >= 1; }\n\
                system P;\n\
                check reaches_stop: A<> deadlock;\n\
                check avoids_stop: E[] not deadlock;\n\
                check leads_stop: P.a --> deadlock;\n\
                check stops_in_b: A<> deadlock && P.b;\n\
                check always_stopped: E[] deadlock;\n";
    // `a` has no invariant and its edge closes at x = 2: deadlocked in `a`
    // exactly when x > 2, and always in `b`. Waiting in `a` for ever is a
    // maximal run (it passes x = 2); taking the edge at once ends in `b`.
    let late = "template P() { clock x; init location a; location b; a -> b when x <= 2; }\n\
                system P;\n\
                check reaches_stop: A<> deadlock;\n\
                check live_in_a: E[] P.a && not deadlock;\n\
                check stays_a: E[] P.a;\n\
                check a_leads_b: P.a --> P.b;\n\
                check a_leads_end: P.a --> P.b || deadlock;\n\
                check late_leads_stop: P.a && P.x > 1 --> deadlock;\n\
                check stops_in_a: A<> P.a && deadlock;\n\
                check calm: E[] not deadlock || P.x < 5;\n";
    // The same with `b`'s time stopped at 4: a run into `b` ends in a
    // deadlock at x = 4 whose allowed delays keep x < 5 (but not x < 4).
    let capped = "template P() { clock x; init location a; location b invariant x <= 4; \
                  a -> b when x <= 2; }\n\
                  system P;\n\
                  check calm: E[] not deadlock || P.x < 5;\n\
                  check calm_strict: E[] not deadlock || P.x < 4;\n";
    // A cycle that waits between 1 and 2 each round: never deadlocked.
    let cycle = "template P() { clock x; init location a invariant x <= 2; \
                 a -> a when x >= 1 do x = 0; }\n\
                 system P;\n\
                 check no_stop: E[] not deadlock;\n\
                 check must_stop: A<> deadlock;\n\
                 check leads_stop: P.a --> deadlock;\n";
    let cases = [
        (ends, "reaches_stop", Verdict::Holds),
        (ends, "avoids_stop", Verdict::Fails),
        (ends, "leads_stop", Verdict::Holds),
        (ends, "stops_in_b", Verdict::Holds),
        (ends, "always_stopped", Verdict::Fails),
        (late, "reaches_stop", Verdict::Holds),
        (late, "live_in_a", Verdict::Fails),
        (late, "stays_a", Verdict::Holds),
        (late, "a_leads_b", Verdict::Fails),
        (late, "a_leads_end", Verdict::Holds),
        (late, "late_leads_stop", Verdict::Holds),
        (late, "stops_in_a", Verdict::Fails),
        (late, "calm", Verdict::Fails),
        (capped, "calm", Verdict::Holds),
        (capped, "calm_strict", Verdict::Fails),
        (cycle, "no_stop", Verdict::Holds),
        (cycle, "must_stop", Verdict::Fails),
        (cycle, "leads_stop", Verdict::Fails),
    ];
    for options in configurations() {
        for (text, name, verdict) in cases.iter().cloned() {
            let net = network(text);
            let r = decide(&net, name, &options);
            assert_eq!(r.verdict, verdict, "{name} {options:?}\n{text}");
            let k = net.checks.iter().position(|c| c.name == name).unwrap();
            let traced = net.checks[k].kind.is_universal() == (verdict == Verdict::Fails);
            assert_eq!(r.trace.is_some(), traced, "{name}");
        }
    }
    // The witness of `calm` in `capped` ends in the deadlock at x = 4
    // after its one step; `cycle`'s counterexample to `must_stop` loops.
    let t = run(&network(capped), "calm").trace.expect("a witness");
    assert!(matches!(t.end, TraceEnd::Deadlock { .. }), "{:?}", t.end);
    assert_eq!(t.len(), 1);
    let t = run(&network(cycle), "must_stop")
        .trace
        .expect("a counterexample");
    assert!(matches!(t.end, TraceEnd::Loop { .. }), "{:?}", t.end);
}

/// Formulas on clocks (`timed.rs`): the hand-solved verdicts of the two
/// bundled models (their headers say why), every trace replayed by the
/// simulator at every instant that decides the formula, delays included,
/// under both settings of `--non-zeno` and the directed order (none of
/// these runs is Zeno: every cycle waits at an invariant).
#[test]
fn clock_constraints_in_liveness_formulas_are_decided() {
    let cases = [
        ("liveness-clocks.zeno", "reaches5", Verdict::Holds),
        ("liveness-clocks.zeno", "below5", Verdict::Fails),
        ("liveness-clocks.zeno", "at_most5", Verdict::Holds),
        ("liveness-clocks.zeno", "skips5", Verdict::Fails),
        ("liveness-clocks.zeno", "lazy_below5", Verdict::Holds),
        ("liveness-clocks.zeno", "passes1", Verdict::Holds),
        ("liveness-clocks.zeno", "over1", Verdict::Fails),
        ("liveness-clocks.zeno", "meets", Verdict::Holds),
        ("liveness-clocks.zeno", "avoids", Verdict::Fails),
        ("liveness-clocks.zeno", "strict_meets", Verdict::Fails),
        ("liveness-clocks.zeno", "waits_long", Verdict::Holds),
        ("liveness-clocks.zeno", "grows", Verdict::Holds),
        ("liveness-clocks.zeno", "stays_below", Verdict::Fails),
        ("liveness-clock-lock.zeno", "lock_at3", Verdict::Holds),
        ("liveness-clock-lock.zeno", "lock_below3", Verdict::Fails),
        ("liveness-clock-lock.zeno", "reaches3", Verdict::Holds),
        ("liveness-clock-lock.zeno", "passes2", Verdict::Holds),
    ];
    let directed = Options {
        config: zeno::checker::config::Config {
            search: checker::SearchOrder::Greedy,
            heuristic: checker::HeuristicKind::HU,
            ..Default::default()
        },
        ..Options::default()
    };
    for options in [Options::default(), non_zeno(), directed] {
        for (file, name, verdict) in cases.iter().cloned() {
            let net = model(file);
            let r = decide(&net, name, &options);
            assert_eq!(r.verdict, verdict, "{file} {name} {options:?}");
            // A witness or counterexample comes with its concrete run.
            let k = net.checks.iter().position(|c| c.name == name).unwrap();
            let traced = net.checks[k].kind.is_universal() == (verdict == Verdict::Fails);
            assert_eq!(r.trace.is_some(), traced, "{file} {name}");
        }
    }
}

/// The single-process cases, each trace's shape by hand: in `Lock` the run
/// ends in the time-lock at w = 3 after no step; `Pair`'s counterexample to
/// `A<> u > 3 && v < 2` waits in `m` for ever after its two steps (and
/// the `Exact`/`Loose` cycles are absent here).
#[test]
fn clock_liveness_traces_end_as_derived() {
    let lock = model("liveness-clock-lock.zeno");
    let t = run(&lock, "lock_at3").trace.expect("a witness");
    assert!(matches!(t.end, TraceEnd::Deadlock { .. }), "{:?}", t.end);
    assert_eq!(t.len(), 0);
    // The deadlock is at w = 3: the simulator checked every delay still
    // allowed keeps w <= 3; the run ends after waiting until the lock.
    let pair = network(
        "template Pair() { clock u, v; init location s invariant u <= 1; \
         location l invariant u <= 4; location m; \
         s -> l when u == 1 do v = 0; l -> m when u >= 4; }\n\
         system Pair;\n\
         check strict_meets: A<> Pair.u > 3 && Pair.v < 2;\n\
         check meets: A<> Pair.u >= 3 && Pair.v <= 2;\n\
         check avoid_crossing: E[] Pair.u < 3 || Pair.v > 1;\n",
    );
    let t = run(&pair, "strict_meets").trace.expect("a counterexample");
    assert_eq!(t.end, TraceEnd::TimeDiverges);
    assert_eq!(t.len(), 2);
    assert_eq!(run(&pair, "meets").verdict, Verdict::Holds);
    // u < 3 || v > 1 holds at every instant (v = u - 1 after u = 1, and v
    // passes 1 at u = 2 < 3): a delay crosses from one piece to the other
    // inside state `l`, and the witness waits in m for ever.
    let r = run(&pair, "avoid_crossing");
    assert_eq!(r.verdict, Verdict::Holds);
    let t = r.trace.expect("a witness");
    assert_eq!(t.end, TraceEnd::TimeDiverges);
    assert_eq!(t.len(), 2);
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
        "// UPPAAL queries\n/* forced progress:\n   F must finish */\nA<> F.done\n\nL.start --> L.done\nE<> Nobody.done\nE[] L.start\n",
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
    // The query naming no process of the model is refused: a located error,
    // exit 2; the others are decided as the model's own checks of the same
    // formulas.
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(text.contains("line4: holds"), "{text}");
    assert!(text.contains("line6: violated"), "{text}");
    assert!(text.contains("line8: holds — witness"), "{text}");
    let err = support::cli::stderr(&out);
    assert!(err.contains("progress.q:7:"), "{err}");
    assert!(text.contains("not checked: error"), "{text}");
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
        // Guided, then breadth-first after three states of the outer
        // search of `-->` (the order changes, the verdict must not).
        out.push(Options {
            config: zeno::checker::config::Config {
                search: checker::SearchOrder::Greedy,
                heuristic: checker::HeuristicKind::HU,
                ..Default::default()
            },
            non_zeno,
            breadth_first_after: Some(3),
            ..Options::default()
        });
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

/// A clock formula put to TChecker too: `E[] phi` with `phi` a clock
/// constraint has a cycle witness exactly when the automaton with `phi`
/// added to its invariant has an accepting cycle (every location labelled
/// `acc`); in these two models no run ends in a deadlock or waits for ever
/// inside `phi`, so cycles are the only witnesses. The files
///
/// ```text
/// system:loose           system:exact
/// event:tau              event:tau
/// process:P              process:P
/// clock:1:y              clock:1:x
/// location:P:l{initial: : invariant:y<=6 && y<5 : labels:acc}
///                        location:P:l{initial: : invariant:x<=5 && x<5 : labels:acc}
/// edge:P:l:l:tau{provided:y>=1 : do:y=0}
///                        edge:P:l:l:tau{provided:x==5 : do:x=0}
/// ```
///
/// gave `CYCLE true` (loose) and `CYCLE false` (exact) under
/// `tck-liveness -a ndfs -l acc` and `-a couvscc` (the peer build beside
/// the repository); zeno agrees on the original models, with `phi` in the
/// query rather than in the invariant.
#[test]
fn clock_formulas_agree_with_tck_liveness_on_cycles() {
    let loose = network(
        "template P() { clock y; init location l invariant y <= 6; l -> l when y >= 1 do y = 0; }\n\
         system P;\ncheck below5: E[] P.y < 5;\n",
    );
    let r = run(&loose, "below5");
    assert_eq!(r.verdict, Verdict::Holds);
    assert!(matches!(
        r.trace.expect("a witness").end,
        TraceEnd::Loop { .. }
    ));
    let exact = network(
        "template P() { clock x; init location l invariant x <= 5; l -> l when x == 5 do x = 0; }\n\
         system P;\ncheck below5: E[] P.x < 5;\n",
    );
    assert_eq!(run(&exact, "below5").verdict, Verdict::Fails);
}

/// Leads-to with a clock in `p`: the inner search starts at the part of a
/// state's zone where `p && !q` holds, reached by a delay inside that state.
/// Invariant y <= 6, reset from y >= 1. From any y > 2 the run may reset
/// before y = 5 and again every time unit for ever: `y > 2 --> y > 5`
/// fails, and the counterexample waits until y > 2 first (its first delay
/// is more than 2). `y >= 1 --> y < 1` holds: y must be reset by 6.
#[test]
fn leads_to_with_a_clock_in_the_premise_starts_inside_a_delay() {
    let net = network(
        "template P() { clock y; init location l invariant y <= 6; l -> l when y >= 1 do y = 0; }\n\
         system P;\ncheck a: P.y > 2 --> P.y > 5;\ncheck b: P.y >= 1 --> P.y < 1;\n",
    );
    let r = run(&net, "a");
    assert_eq!(r.verdict, Verdict::Fails);
    let t = r.trace.expect("a counterexample");
    assert!(matches!(t.end, TraceEnd::Loop { .. }), "{:?}", t.end);
    assert!(t.steps[0].delay > num_rational::Rational64::from_integer(2));
    assert_eq!(run(&net, "b").verdict, Verdict::Holds);
}
