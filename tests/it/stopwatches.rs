//! Stopwatches: clocks stopped in a location by `x' == 0` in its
//! invariant. Every answer below is worked out by hand next to its model;
//! `support::every_order` checks it under every search order and replays
//! every trace in the independent simulator, which advances only the
//! running clocks.

use crate::support;
use zeno::checker::config::Config;
use zeno::checker::{Cancel, HeuristicKind, Limit, Options, SearchOrder, Verdict, check};

use Verdict::{Fails, Holds, Unknown};

/// `x` is stopped in `b` while `y` runs up to 10: `x` keeps the value it
/// had on entering `b`, at most 2; with `x` running it would reach 12.
#[test]
fn a_stopped_clock_keeps_its_value() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location a invariant x <= 2;\n\
          location b invariant y <= 10 && x' == 0;\n\
          location c;\n\
          a -> b;\n\
          b -> c when y >= 10;\n\
        }\n\
        system P;\n\
        check stays: A[] (P.b imply x <= 2);\n\
        check exact: E<> (P.b && x == 2 && y == 10);\n\
        check runs_again: E<> (P.c && x > 2);\n\
        check never_later: E<> (P.b && x == 1 && y == 0);\n";
    // `x == y` until `b`; in `b` only `y` moves, so `y >= x` there and
    // `(x, y) = (1, 0)` is unreachable; in `c` (no rate) `x` runs again.
    support::every_order(text, &[Holds, Holds, Holds, Fails]);
}

/// The classic over-approximation. `P` waits in `l0` (all clocks running)
/// until some `t1` in [1, 2], resets `y` and stops `x` in `l1`. In `l1`
/// after a delay `d`: `x = t1`, `y = d`, `z = t1 + d`, so `z - y = x`:
/// three clocks in one equation, which no zone holds. The zone after the
/// delay keeps `x` in [1, 2] and `z - y` in [1, 2] independently, and so
/// contains `x = 1, y = 3, z = 5`, which no run reaches (`x = 1` forces
/// `z = y + 1`). Asked whether that corner is avoided, the search meets it
/// in the zone graph, the exact delays refute the trace, and the answer is
/// `unknown`, never `violated`. Moving the corner to `z >= 4` makes it
/// real: `t1 = 1`, then `y = 3`, `z = 4`, the only run, with delays 1 and
/// 3.
const SPURIOUS: &str = "template P() {\n\
      clock x, y, z;\n\
      init location l0 invariant x <= 2;\n\
      location l1 invariant x' == 0;\n\
      l0 -> l1 when x >= 1 do y = 0;\n\
    }\n\
    system P;\n\
    check spurious: A[] !(P.l1 && P.x <= 1 && P.y <= 3 && P.z >= 5);\n\
    check real: A[] !(P.l1 && P.x <= 1 && P.y <= 3 && P.z >= 4);\n\
    check witness: E<> (P.l1 && P.x <= 1 && P.y <= 3 && P.z >= 4);\n\
    check live: A<> P.l1;\n";
// `live` holds: `l0` bounds the running `x` by 2 and `l0 -> l1` is enabled
// from `x = 1` on, so every run leaves `l0`; no run of the
// over-approximation stays out of `l1`, so none of the model does.

#[test]
fn a_spurious_trace_is_never_a_violation() {
    let bfs = support::every_order(
        SPURIOUS,
        &[Unknown(Limit::Unconfirmed), Fails, Holds, Holds],
    );
    for r in &bfs[1..3] {
        let t = r.trace.as_ref().expect("a confirmed trace");
        let delays: Vec<String> = t.steps.iter().map(|s| s.delay.to_string()).collect();
        assert_eq!(delays, ["1"]);
        let zeno::checker::TraceEnd::Goal { delay } = &t.end else {
            panic!("{:?}", t.end)
        };
        assert_eq!(delay.to_string(), "3");
    }
}

/// Pattern databases (which prune) and safe abstraction are set aside on
/// stopwatch models; the answers stay those worked out above.
#[test]
fn every_configuration_keeps_the_answers() {
    let net = zeno::semantics::analyze(SPURIOUS).network.unwrap();
    for (search, heuristic, safe) in [
        (SearchOrder::Greedy, HeuristicKind::Pdb, false),
        (SearchOrder::AStar, HeuristicKind::HU, false),
        (SearchOrder::Bfs, HeuristicKind::Zero, true),
        (SearchOrder::Greedy, HeuristicKind::HL, true),
    ] {
        let options = Options {
            config: Config {
                search,
                heuristic,
                safe_abstraction: safe,
                ..Config::default()
            },
            ..Options::default()
        };
        let verdicts: Vec<Verdict> = net
            .check_ids()
            .take(3)
            .map(|id| {
                check(
                    &net,
                    id,
                    &options,
                    &Cancel::new(),
                    &mut zeno::checker::no_progress,
                )
                .verdict
            })
            .collect();
        assert_eq!(
            verdicts,
            [Unknown(Limit::Unconfirmed), Fails, Holds],
            "{search:?} {heuristic:?} safe={safe}"
        );
    }
}

/// Fixed-priority preemptive scheduling. `L` (execution time 3 to 4,
/// released at 0) runs only while `H` does not: `H`'s running locations
/// stop `L`'s execution clock `eL`. `H` runs 2 time units from 0 and from
/// 5 (its critical instant with `L`). By hand: with 4 units `L` runs in
/// [2, 5) (3 units), waits for `H` in [5, 7), and runs its last unit in
/// [7, 8]: worst-case response time 8, so `t <= 8` holds while `L` is
/// ready and `t <= 7` does not. With 3 units it finishes at 5, its best
/// case: `t >= 5` holds when it is done and `t >= 6` does not.
#[test]
fn a_preemptive_schedule_has_its_worst_case_response_time() {
    let text = "clock t, eL;\n\
        template H() {\n\
          init location run invariant t <= 2 && eL' == 0;\n\
          location idle invariant t <= 5;\n\
          location run2 invariant t <= 7 && eL' == 0;\n\
          location rest;\n\
          run -> idle when t == 2;\n\
          idle -> run2 when t == 5;\n\
          run2 -> rest when t == 7;\n\
        }\n\
        template L() {\n\
          init location ready invariant eL <= 4;\n\
          location done;\n\
          ready -> done when eL >= 3;\n\
        }\n\
        system H, L;\n\
        check wcrt: A[] (L.ready imply t <= 8);\n\
        check below_wcrt: A[] (L.ready imply t <= 7);\n\
        check bcrt: A[] (L.done imply t >= 5);\n\
        check above_bcrt: A[] (L.done imply t >= 6);\n";
    let bfs = support::every_order(text, &[Holds, Fails, Holds, Fails]);
    // The violation of `t <= 7` goes through `H`'s second run: `L` is
    // still ready after 7 only if `H` preempted it twice.
    let t = bfs[1].trace.as_ref().unwrap();
    let h = |s: &zeno::checker::Step| s.transition.edges[0].0 == 0;
    assert!(t.steps.iter().filter(|s| h(s)).count() >= 2, "{t:?}");
}

/// `x` is stopped at 0 while `y <= 5` bounds the stay in `l0`, so the
/// guard `x >= 3` is never met and `l1` is unreachable: every state in `l0`
/// is a deadlock (no edge now or after any delay), the initial one
/// included. With `x` running it would leave at `x == 3`.
#[test]
fn a_stopped_clock_can_deadlock() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location l0 invariant y <= 5 && x' == 0;\n\
          location l1;\n\
          l0 -> l1 when x >= 3;\n\
        }\n\
        system P;\n\
        check no_deadlock: A[] !deadlock;\n\
        check stuck: E<> (deadlock && y == 5);\n\
        check leaves: E<> P.l1;\n";
    let bfs = support::every_order(text, &[Fails, Holds, Fails]);
    let t = bfs[0].trace.as_ref().unwrap();
    assert!(t.steps.is_empty());
}

/// Two invariants that set different rates for one clock allow no delay
/// (they are one conjunction): here time cannot pass at all.
#[test]
fn conflicting_rates_allow_no_delay() {
    let text = "clock x, y;\n\
        template P() { init location a invariant x' == 0; }\n\
        template Q() { init location b invariant x' == 1; }\n\
        system P, Q;\n\
        check time_passes: E<> y > 0;\n";
    support::every_order(text, &[Fails]);
}

/// Rates other than 0 or 1, rates of what is not a clock, rates outside
/// an invariant: each a located error.
#[test]
fn bad_rates_are_located_errors() {
    let model = |inv: &str, guard: &str| {
        format!(
            "clock x, y;\nint n;\n\
             template P() {{ init location a invariant {inv}; location b;\n\
             a -> b when {guard}; }}\nsystem P;\n"
        )
    };
    let cases = [
        (
            model("x' == 2", "true"),
            "a clock rate must be 0 or 1 (stopwatches), not 2",
            "2",
        ),
        (
            model("n' == 0", "true"),
            "`n` is not a clock: only a clock has a rate (`x' == 0`)",
            "n",
        ),
        (
            model("x <= 3", "x' == 0"),
            "a clock rate can only be set in a location's invariant (`x' == 0` stops `x` there)",
            "x' == 0",
        ),
        (
            model("x' <= 0", "true"),
            "a clock rate is set with `==`: `x' == 0` stops the clock, `x' == 1` lets it run",
            "x' <= 0",
        ),
        (
            model("x' == 0 && x' == 1", "true"),
            "this invariant sets two rates for the same clock",
            "x' == 1",
        ),
        (
            model("x' == 0 || y <= 3", "true"),
            "a clock rate `x'` can only be set as `x' == 0` or `x' == 1`, a conjunct of a location's invariant",
            "x'",
        ),
    ];
    for (text, message, at) in cases {
        let errors = support::errors(&text);
        assert!(
            errors.contains(&(message.to_string(), at.to_string())),
            "{text}\n{errors:?}"
        );
    }
    // A rate that is not a constant: located on the value.
    let errors = support::errors(&model("x' == y", "true"));
    assert!(errors.iter().any(|(_, at)| at == "y"), "{errors:?}");
    // In a check.
    let errors = support::errors(
        "clock x;\ntemplate P() { init location a; }\nsystem P;\ncheck c: E<> x' == 0;\n",
    );
    assert!(errors.iter().any(|(_, at)| at == "x'"), "{errors:?}");
}

/// The formatter writes a rate tight to its clock, as the docs do.
#[test]
fn the_formatter_keeps_a_rate_on_its_clock() {
    let text =
        "clock x;\ntemplate P() {\n    init location a invariant x ' == 0 && x<=3;\n}\nsystem P;\n";
    let formatted = zeno::fmt::format(text).unwrap();
    assert!(
        formatted.contains("invariant x' == 0 && x <= 3;"),
        "{formatted}"
    );
}

/// The preemptive schedule above as UPPAAL writes it (`eL' == 0` in the
/// invariants of `H`'s running locations), with `RATE` for the second one.
fn schedule_xml(rate: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<nta>
<declaration>clock t, eL;</declaration>
<template><name>H</name>
<location id="a"><name>run</name><label kind="invariant">t &lt;= 2 &amp;&amp; eL' == 0</label></location>
<location id="b"><name>idle</name><label kind="invariant">t &lt;= 5</label></location>
<location id="c"><name>run2</name><label kind="invariant">t &lt;= 7 &amp;&amp; {rate}</label></location>
<location id="d"><name>rest</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="guard">t == 2</label></transition>
<transition><source ref="b"/><target ref="c"/><label kind="guard">t == 5</label></transition>
<transition><source ref="c"/><target ref="d"/><label kind="guard">t == 7</label></transition>
</template>
<template><name>L</name>
<location id="r"><name>ready</name><label kind="invariant">eL &lt;= 4</label></location>
<location id="f"><name>done</name></location>
<init ref="r"/>
<transition><source ref="r"/><target ref="f"/><label kind="guard">eL &gt;= 3</label></transition>
</template>
<system>system H, L;</system>
<queries>
<query><formula>A[] (L.ready imply t &lt;= 8)</formula><comment>wcrt</comment></query>
<query><formula>A[] (L.ready imply t &lt;= 7)</formula><comment>below_wcrt</comment></query>
</queries>
</nta>
"#
    )
}

/// Imported from UPPAAL's XML and XTA, the schedule gives the answers
/// worked out above, and the violation's trace replays with the rates.
#[test]
fn imported_stopwatches_keep_their_answers() {
    let xml = zeno::import::import_uppaal_xml(&schedule_xml("eL' == 0")).unwrap();
    assert!(xml.zeno.contains("eL' == 0"), "{}", xml.zeno);
    let xta_text = "clock t, eL;\n\
        process H() { state run { t <= 2 && eL' == 0 }, idle { t <= 5 },\n\
          run2 { t <= 7 && eL' == 0 }, rest;\n\
          init run;\n\
          trans run -> idle { guard t == 2; }, idle -> run2 { guard t == 5; },\n\
            run2 -> rest { guard t == 7; }; }\n\
        process L() { state ready { eL <= 4 }, done; init ready;\n\
          trans ready -> done { guard eL >= 3; }; }\n\
        system H, L;\n";
    let xta = zeno::import::import_xta(xta_text).unwrap();
    let xta_zeno = format!(
        "{}\ncheck wcrt: A[] (L.ready imply t <= 8);\ncheck below_wcrt: A[] (L.ready imply t <= 7);\n",
        xta.zeno
    );
    for text in [xml.zeno, xta_zeno] {
        let bfs = support::every_order(&text, &[Holds, Fails]);
        assert!(bfs[1].trace.is_some());
    }
}

/// A bad rate in an imported file is an error located in that file: on
/// the rate's value, or (where the label's text is escaped, `&lt;`) on the
/// whole invariant label, as the source map follows it.
#[test]
fn a_bad_imported_rate_is_located_in_the_xml() {
    for (rate, message, at) in [
        (
            "eL' == 2",
            "a clock rate must be 0 or 1 (stopwatches), not 2",
            "2",
        ),
        (
            "eL' &lt; 1",
            "a clock rate is set with `==`: `x' == 0` stops the clock, `x' == 1` lets it run",
            "t &lt;= 7 &amp;&amp; eL' &lt; 1",
        ),
    ] {
        let source = schedule_xml(rate);
        let loaded = zeno::load::load("schedule.xml", &source, &[]).unwrap();
        let map = loaded.source_map.as_ref().expect("a source map");
        let errors: Vec<(String, String)> = loaded
            .analyze()
            .diagnostics
            .iter()
            .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
            .map(|d| {
                let m = zeno::load::map_diagnostic(map, &loaded.zeno, &source, d)
                    .unwrap_or_else(|| panic!("not located in the XML: {d:?}"));
                (
                    m.message,
                    source[m.range.start as usize..m.range.end as usize].to_string(),
                )
            })
            .collect();
        let expected = (
            format!("{message} (in the invariant of location run2 of template H)"),
            at.to_string(),
        );
        assert_eq!(errors, [expected], "{rate}");
    }
}

/// The search passes a refuted goal by and goes on: the corner of
/// `SPURIOUS` (no run reaches it in `l1`, see there) is reached for real in
/// `l2`, where `x` and `y` are reset and stopped at 0 while `z` runs on
/// past 5. Every order answers `violated`, with a trace through `l2`
/// (edge 1), whichever of `l1` and `l2` it meets first.
#[test]
fn the_search_goes_on_past_a_refuted_goal() {
    let text = "template P() {\n\
          clock x, y, z;\n\
          init location l0 invariant x <= 2;\n\
          location l1 invariant x' == 0;\n\
          location l2 invariant x' == 0 && y' == 0;\n\
          l0 -> l1 when x >= 1 do y = 0;\n\
          l0 -> l2 when x >= 1 do x = 0, y = 0;\n\
        }\n\
        system P;\n\
        check corner: A[] !(P.x <= 1 && P.y <= 3 && P.z >= 5);\n";
    let net = zeno::semantics::analyze(text).network.unwrap();
    for order in SearchOrder::ALL {
        let r = support::check_in_order(&net, 0, order);
        assert_eq!(r.verdict, Fails, "{order:?}");
        let t = r.trace.expect("a confirmed trace");
        support::simulator::replay(&net, 0, &t).unwrap();
        assert_eq!(t.steps[0].transition.edges, [(0, 1)], "{order:?}");
    }
}

/// Beside a guard comparing two clocks, `deadlock` is not decided on a
/// stopwatch model (letting time pass backwards from such a guard
/// over-approximates, which could hide a deadlock); reachability still is:
/// `x - y = -y < 3` holds at once.
#[test]
fn deadlock_beside_a_diagonal_is_not_decided() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location l0 invariant y <= 5 && x' == 0;\n\
          location l1;\n\
          l0 -> l1 when x - y < 3;\n\
        }\n\
        system P;\n\
        check no_deadlock: A[] !deadlock;\n\
        check leaves: E<> P.l1;\n";
    support::every_order(text, &[Unknown(Limit::Stopwatches), Holds]);
}

/// `forall` over a clock array stops every element (a conjunction, as for
/// bounds): while `P` waits 3 in `a` both stay 0, and they run again in `b`.
#[test]
fn forall_stops_a_clock_array() {
    let text = "typedef int[0, 1] id_t;\n\
        clock x[2], t;\n\
        template P() {\n\
          init location a invariant t <= 3 && forall (i : id_t) x[i]' == 0;\n\
          location b;\n\
          a -> b when t == 3;\n\
        }\n\
        system P;\n\
        check moved_in_a: E<> (P.a && x[1] > 0);\n\
        check left_at_zero: E<> (P.b && x[0] == 0 && x[1] == 0 && t == 3);\n\
        check run_in_b: E<> (P.b && x[1] == 1 && t == 4);\n";
    support::every_order(text, &[Fails, Holds, Holds]);
}

/// Liveness on a stopwatch model. `x <= 3` does not stop time in `a`
/// while `x` is stopped there: a run may wait in `a` for ever (from
/// `x = 0`), never reaching `b`. The found run ends by waiting for ever,
/// which exact delays confirm (the trace replays in the simulator).
#[test]
fn a_stopped_clock_lets_time_diverge() {
    let text = "clock x, y;\n\
        template W() {\n\
          init location a invariant x <= 3 && x' == 0;\n\
          location b;\n\
          a -> b when y >= 2;\n\
        }\n\
        system W;\n\
        check reaches_b: A<> W.b;\n\
        check stays: E[] W.a;\n\
        check leads: W.a --> W.b;\n";
    let bfs = support::every_order(text, &[Fails, Holds, Fails]);
    for r in &bfs {
        let t = r.trace.as_ref().expect("a confirmed run");
        assert!(t.steps.is_empty(), "{t:?}");
        assert!(
            matches!(t.end, zeno::checker::TraceEnd::TimeDiverges),
            "{:?}",
            t.end
        );
    }
}

/// `Q` leaves `a` at some `u_e` in [1, 2] (`u <= 2` with `u` running) and
/// stops `u` in `c`, where `v <= 4`; `c -> d` needs `u >= 2`, so with
/// `u_e < 2` the run is stuck at `v = 4`: a deadlock, confirmed with exact
/// delays (`u_e = 1`). With `u_e = 2` it may go on to `d`.
#[test]
fn a_deadlock_of_a_stopwatch_run_is_confirmed() {
    let text = "template Q() {\n\
          clock u, v;\n\
          init location a invariant u <= 2;\n\
          location c invariant v <= 4 && u' == 0;\n\
          location d;\n\
          a -> c when u >= 1 do v = 0;\n\
          c -> d when u >= 2;\n\
        }\n\
        system Q;\n\
        check done: A<> Q.d;\n\
        check stuck: E[] !Q.d;\n\
        check c_leads_to_d: Q.c --> Q.d;\n\
        check a_leads_to_c: Q.a --> Q.c;\n\
        check may_finish: E[] (Q.a || Q.c || Q.d);\n";
    let bfs = support::every_order(text, &[Fails, Holds, Fails, Holds, Holds]);
    for r in &bfs[..3] {
        let t = r.trace.as_ref().expect("a confirmed run");
        assert!(
            matches!(t.end, zeno::checker::TraceEnd::Deadlock { .. }),
            "{:?}",
            t.end
        );
    }
}

/// The over-approximation's deadlock that no run reaches. As in
/// `SPURIOUS`, `S` enters `l1` at `p = t1` in [1, 2] with `q = 0` and
/// stops `p`; there `r - q = p` always, but the zone keeps `p` and
/// `r - q` apart and so holds `p = 1, q = 3, r = 5`. At `q = 3` every
/// real valuation may leave (`p = 1` has `r = 4`; `p > 1` takes the other
/// edge), the corner may not. `A<> S.l2` holds, and the answer is
/// `unknown` (the corner's run is not confirmed), never `violated`; so is
/// `E[] S.l0 || S.l1`, which fails, never `holds`.
#[test]
fn a_spurious_deadlock_is_never_a_violation() {
    let text = "template S() {\n\
          clock p, q, r;\n\
          init location l0 invariant p <= 2;\n\
          location l1 invariant q <= 3 && p' == 0;\n\
          location l2;\n\
          l0 -> l1 when p >= 1 do q = 0;\n\
          l1 -> l2 when p <= 1 && r <= 4;\n\
          l1 -> l2 when p > 1;\n\
        }\n\
        system S;\n\
        check reaches_l2: A<> S.l2;\n\
        check avoids_l2: E[] (S.l0 || S.l1);\n\
        check timed: A<> S.r > 2;\n";
    support::every_order(
        text,
        &[
            Unknown(Limit::Unconfirmed),
            Unknown(Limit::Unconfirmed),
            Unknown(Limit::Stopwatches),
        ],
    );
}

/// A cycle of the over-approximation is not confirmed with exact delays
/// (they would have to repeat for ever), so a check it would decide stays
/// `unknown`. Here the cycle is real (`t` stopped at 0 in `a` never lets
/// `a -> b` fire), but the answer is `unknown`, never a wrong `holds`.
#[test]
fn a_cycle_is_not_confirmed() {
    let text = "template R() {\n\
          clock s, t;\n\
          init location a invariant s <= 1 && t' == 0;\n\
          location b;\n\
          a -> a when s == 1 do s = 0;\n\
          a -> b when t >= 1;\n\
        }\n\
        system R;\n\
        check reaches_b: A<> R.b;\n\
        check loops: E[] R.a;\n";
    support::every_order(
        text,
        &[Unknown(Limit::Unconfirmed), Unknown(Limit::Unconfirmed)],
    );
}
