//! A clock multiplied by a constant (`2 * x <= 6`, `10 >= 5 * y`, UPPAAL
//! models write `2 >= 5*xabs`): the bound is divided by the factor when
//! the model is built. Where the quotient is no integer (`5 * x <= 2` is
//! `x <= 2/5`) the time unit is refined by the lcm of the denominators, and
//! answers are divided back. Every answer is worked out by hand beside its
//! model; `support::every_order` replays every trace in the independent
//! simulator.

use crate::support;
use num_rational::Rational64;
use zeno::checker::Verdict::{Fails, Holds};
use zeno::ir::TimeScale;

/// In `a` (`x <= 3`) `P` leaves at some `x_e` in [2, 3], resets `y`; in
/// `b` (`y <= 2`) `x - y` stays `x_e`, so `x = x_e + y` is at most 5,
/// reached only with `x_e = 3`, `y = 2`; `b -> c` needs `x - y > 2`, so in
/// `c` `x - y` is in (2, 3].
#[test]
fn a_scaled_bound_is_the_bound_divided_by_the_factor() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location a invariant 2 * x <= 6;\n\
          location b invariant 10 >= 5 * y;\n\
          location c;\n\
          a -> b when x * 3 >= 6 do y = 0;\n\
          b -> c when 2 * (x - y) > 4;\n\
        }\n\
        system P;\n\
        check a_bound: A[] (P.a imply 3 * x <= 9);\n\
        check enter_late: E<> (P.b && -2 * x > -4);\n\
        check b_reaches_5: E<> (P.b && 5 * x >= 25);\n\
        check b_beyond_5: E<> (P.b && 5 * x > 25);\n\
        check c_at_3: E<> (P.c && 2 * (x - y) == 6);\n\
        check c_at_2: E<> (P.c && x - y <= 2);\n";
    support::every_order(text, &[Holds, Fails, Holds, Fails, Holds, Fails]);
}

/// The factor may be a template parameter: each instance divides by its
/// own. `Q2` waits in `a` until `x = 3` at most (`2 * x <= 6`), `Q3` until
/// `x = 2` (`3 * x <= 6`); both start together, so `x <= 2` while both
/// are in `a`.
#[test]
fn the_factor_may_be_a_parameter() {
    let text = "clock x;\n\
        template P(const int k) {\n\
          init location a invariant k * x <= 6;\n\
          location b;\n\
          a -> b;\n\
        }\n\
        Q2 = P(2);\n\
        Q3 = P(3);\n\
        system Q2, Q3;\n\
        check q2_waits_to_3: E<> (Q2.a && x == 3);\n\
        check both_until_2: E<> (Q2.a && Q3.a && x > 2);\n";
    support::every_order(text, &[Holds, Fails]);
}

/// What stays refused, each located on its comparison: a bound that is not
/// a constant, a factor of 0, a constant that leaves the integers once the
/// time unit is refined (`1000000 * x` refines it by a million, and
/// `x <= 3000` is then 3e9 units). Quotients that are no integer are no
/// error any more (see `the_time_unit_is_refined_by_the_lcm`).
#[test]
fn what_cannot_be_scaled_is_a_located_error() {
    let text = "clock x;\n\
        int n = 4;\n\
        template P() {\n\
          init location a invariant 2 >= 5 * x;\n\
          location b;\n\
          location c;\n\
          a -> b when 2 * x <= n;\n\
          b -> c when 0 * x <= 1;\n\
        }\n\
        system P;\n\
        check half: E<> 2 * x == 1;\n";
    let errors = support::errors(text);
    let at: Vec<&str> = errors.iter().map(|(_, at)| at.as_str()).collect();
    assert_eq!(at, ["n", "0 * x <= 1"], "{errors:?}");
    assert!(
        errors[0].0.contains("compared with constants only"),
        "{errors:?}"
    );
    assert!(errors[1].0.contains("multiplied by 0"), "{errors:?}");

    let text = "clock x;\n\
        template P() {\n\
          init location a invariant 1000000 * x <= 1;\n\
          location b;\n\
          a -> b when x <= 3000;\n\
        }\n\
        system P;\n";
    let errors = support::errors(text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].1, "3000", "{errors:?}");
    assert!(errors[0].0.contains("refined by 1000000"), "{errors:?}");
}

/// `2 >= 5 * x` bounds `x` by 2/5 and `3 * y <= 1` bounds `y` by 1/3: the
/// time unit is refined by lcm(5, 3) = 15. By hand: `P` leaves `a` at some
/// `x_e` in [0, 2/5] (guard `x >= 0`), resetting `y`; it must leave `b` at
/// `y = 1/3` exactly (invariant `y <= 1/3`, guard `y >= 1/3`), so in `c`
/// `x - y` is `x_e` in [0, 2/5] and `x` is at least 1/3 on entering (it
/// grows after, `c` has no invariant).
const THIRDS_AND_FIFTHS: &str = "clock x, y;\n\
    template P() {\n\
      init location a invariant 2 >= 5 * x;\n\
      location b invariant 3 * y <= 1;\n\
      location c;\n\
      a -> b when x >= 0 do y = 0;\n\
      b -> c when 3 * y >= 1;\n\
    }\n\
    system P;\n\
    check a_at_2_5: E<> (P.a && 5 * x == 2);\n\
    check a_beyond: E<> (P.a && 5 * x > 2);\n\
    check a_bounded: A[] (P.a imply 5 * x <= 2);\n\
    check c_late_entry: E<> (P.c && 15 * (x - y) == 6);\n\
    check c_beyond: E<> (P.c && 5 * (x - y) > 2);\n\
    check c_early: E<> (P.c && 3 * x < 1);\n\
    check c_at_third: E<> (P.c && 3 * x == 1);\n";

/// The same model with every time constant multiplied by 15 by hand.
const THIRDS_AND_FIFTHS_BY_HAND: &str = "clock x, y;\n\
    template P() {\n\
      init location a invariant x <= 6;\n\
      location b invariant y <= 5;\n\
      location c;\n\
      a -> b when x >= 0 do y = 0;\n\
      b -> c when y >= 5;\n\
    }\n\
    system P;\n\
    check a_at_2_5: E<> (P.a && x == 6);\n\
    check a_beyond: E<> (P.a && x > 6);\n\
    check a_bounded: A[] (P.a imply x <= 6);\n\
    check c_late_entry: E<> (P.c && x - y == 6);\n\
    check c_beyond: E<> (P.c && x - y > 6);\n\
    check c_early: E<> (P.c && x < 5);\n\
    check c_at_third: E<> (P.c && x == 5);\n";

#[test]
fn the_time_unit_is_refined_by_the_lcm() {
    let verdicts = [Holds, Fails, Holds, Holds, Fails, Fails, Holds];
    let bfs = support::every_order(THIRDS_AND_FIFTHS, &verdicts);
    let analysis = zeno::semantics::analyze(THIRDS_AND_FIFTHS);
    let net = analysis.network.expect("a network");
    assert_eq!(net.time_scale, TimeScale(15));
    // The user is told, in a note.
    assert!(
        analysis
            .diagnostics
            .iter()
            .any(|d| d.severity == zeno::diagnostics::Severity::Info
                && d.message.starts_with("time unit refined by 15")),
        "{:?}",
        analysis.diagnostics
    );
    // The model scaled by hand gives the same answers, and every trace of
    // the refined model replays on it in the independent simulator: the
    // refinement is the multiplication by 15 and nothing else.
    let by_hand = support::every_order(THIRDS_AND_FIFTHS_BY_HAND, &verdicts);
    let hand_net = zeno::semantics::analyze(THIRDS_AND_FIFTHS_BY_HAND)
        .network
        .expect("a network");
    assert_eq!(hand_net.time_scale, TimeScale(1));
    for (k, (r, h)) in bfs.iter().zip(&by_hand).enumerate() {
        assert_eq!(r.trace.is_some(), h.trace.is_some(), "check {k}");
        if let Some(t) = &r.trace {
            support::simulator::replay(&hand_net, k, t).unwrap_or_else(|e| panic!("{k}: {e}"));
        }
    }
    // The shortest witness of `c_late_entry` in the model's time unit:
    // wait 2/5 in `a`, then 1/3 in `b`, and `c` is reached with
    // `x = 11/15`, `y = 1/3`.
    let trace = bfs[3].trace.as_ref().expect("a witness");
    let shown = trace.in_model_time(net.time_scale).expect("divides");
    let delays: Vec<Rational64> = shown.steps.iter().map(|s| s.delay).collect();
    assert_eq!(delays, [Rational64::new(2, 5), Rational64::new(1, 3)]);
    assert_eq!(shown.end.delay(), Rational64::from_integer(0));
    assert_eq!(
        shown.steps[1].after.clocks[1..],
        [Rational64::new(11, 15), Rational64::new(1, 3)]
    );
    assert_eq!(
        zeno::report::clock_values(&net, &trace.steps[1].after.clocks)[0].value,
        "11/15"
    );
}

/// Resets and data-dependent bounds are refined too. `a` holds `x` to
/// 2/5; `a -> b` resets `x` to 1 (so `x < 1` is never seen in `b`: an
/// unscaled reset would be 1/15 of it); `b -> c` needs `x <= n` (n = 2) and
/// resets `x` to `k` (1, a value read from the state); `c -> d` needs
/// `x >= n`, so `d` is entered at `x >= 2`, never below.
#[test]
fn resets_and_data_bounds_are_refined() {
    let text = "clock x;\n\
        int n = 2;\n\
        int k = 1;\n\
        template P() {\n\
          init location a invariant 5 * x <= 2;\n\
          location b;\n\
          location c;\n\
          location d;\n\
          a -> b do x = 1;\n\
          b -> c when x <= n do x = k;\n\
          c -> d when x >= n;\n\
        }\n\
        system P;\n\
        check b_at_1: E<> (P.b && x == 1);\n\
        check b_below_1: E<> (P.b && x < 1);\n\
        check c_below_1: E<> (P.c && x < 1);\n\
        check c_from_1: A[] (P.c imply x >= 1);\n\
        check d_below_n: E<> (P.d && x < n);\n\
        check d_at_n: E<> (P.d && 2 * x == 4);\n\
        check b_left_late: E<> (P.c && 5 * x > 2);\n";
    support::every_order(text, &[Holds, Fails, Fails, Holds, Fails, Holds, Holds]);
    let net = zeno::semantics::analyze(text).network.expect("a network");
    assert_eq!(net.time_scale, TimeScale(5));
}

/// `sup` and `inf` answers in the model's time unit. In `a` (`5 * x <= 2`)
/// `x` reaches 2/5; in `b` (`3 * y < 1`, entered with `y = 0`) `y`
/// approaches 1/3; `c` is entered at `x` in [1/2, 2/5 + 1/3] (guard
/// `2 * x >= 1`, at most 2/5 + 1/3 = 11/15 by the invariants).
#[test]
fn sup_and_inf_answer_fractions() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location a invariant 5 * x <= 2;\n\
          location b invariant 3 * y < 1;\n\
          location c;\n\
          a -> b do y = 0;\n\
          b -> c when 2 * x >= 1;\n\
        }\n\
        system P;\n\
        check sup_a: sup{P.a}: x;\n\
        check sup_b: sup{P.b}: y;\n\
        check inf_c: inf{P.c}: x;\n\
        check sup_b_x: sup{P.b}: x;\n";
    let net = zeno::semantics::analyze(text).network.expect("a network");
    // lcm(5, 3, 2)
    assert_eq!(net.time_scale, TimeScale(30));
    let answers: Vec<String> = net
        .check_ids()
        .map(|id| {
            let answer = zeno::checker::check_bounds(
                &net,
                id,
                &zeno::checker::Options::default(),
                &zeno::checker::Cancel::new(),
                &mut zeno::checker::no_progress,
            );
            let zeno::ir::CheckKind::Bound(q) = &net.check(id).kind else {
                panic!("a value query");
            };
            let terms: Vec<String> = q
                .terms
                .iter()
                .map(|t| text[t.span.start as usize..t.span.end as usize].to_string())
                .collect();
            zeno::report::bound_summary(q.extremum, &terms, &answer.values, net.time_scale)
        })
        .collect();
    assert_eq!(
        answers,
        [
            "sup: x <= 2/5",
            "sup: y < 1/3",
            "inf: x >= 1/2",
            "sup: x < 11/15"
        ]
    );
}

/// Liveness and stopwatches keep the refined constants. `a` must be left
/// by `x = 2/5`; the edge needs `x >= 2/5` in `P` (always taken: `A<>`
/// holds) but `x > 2/5` in `Q` (never: the run stops in `a`). In `S` the
/// stopwatch `y` stands still in `a` (`y' == 0`), so `b` is entered with
/// `y = 0` and `x = 2/5` exactly.
#[test]
fn liveness_and_stopwatches_with_refined_constants() {
    let text = "clock x;\n\
        template P() {\n\
          init location a invariant 5 * x <= 2;\n\
          location b;\n\
          a -> b when 5 * x >= 2;\n\
        }\n\
        system P;\n\
        check leaves: A<> P.b;\n\
        check leads: P.a --> P.b;\n";
    support::every_order(text, &[Holds, Holds]);
    let text = "clock x;\n\
        template Q() {\n\
          init location a invariant 5 * x <= 2;\n\
          location b;\n\
          a -> b when 5 * x > 2;\n\
        }\n\
        system Q;\n\
        check leaves: A<> Q.b;\n\
        check stays: E[] Q.a;\n";
    support::every_order(text, &[Fails, Holds]);
    let text = "clock x, y;\n\
        template S() {\n\
          init location a invariant 5 * x <= 2 && y' == 0;\n\
          location b;\n\
          a -> b when 5 * x == 2;\n\
        }\n\
        system S;\n\
        check entry: E<> (S.b && 5 * x == 2 && y == 0);\n\
        check y_moved_in_a: E<> (S.a && y > 0);\n\
        check never_early: A[] (S.b imply 5 * (x - y) == 2);\n";
    let net = zeno::semantics::analyze(text).network.expect("a network");
    assert_eq!(net.time_scale, TimeScale(5));
    support::every_order(text, &[Holds, Fails, Holds]);
}

/// Clock comparisons under `||` in checks: each disjunct is a zone, and
/// the check looks at every one. `P` leaves `a` at some `x_e` in [3, 5]
/// and resets `y`; in `b` `x - y` stays `x_e` and `y` grows without end.
#[test]
fn clock_disjunctions_in_checks_split_the_zone() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location a invariant x <= 5;\n\
          location b;\n\
          a -> b when x >= 3 do y = 0;\n\
        }\n\
        system P;\n\
        check late_y: E<> (P.b && (x < 3 || y > 2));\n\
        check neither: E<> (P.b && (x < 3 || x - y > 5));\n\
        check left_late: A[] (P.a || x >= 3);\n\
        check entry_kept: A[] (P.a || (x - y >= 3 && x - y <= 5));\n\
        check never_5_at_entry: A[] (P.a || x < 5 || y > 0);\n";
    // The last fails exactly at entering `b` with `x = 5`, `y = 0`.
    support::every_order(text, &[Holds, Fails, Holds, Holds, Fails]);
}

/// What the CLI shows of a refined model: the note, a witness's delays and
/// clock values and a `sup` bound in the model's time unit, in text and
/// JSON (`bound` is no integer there: `null`, with `exact`). By hand: `a`
/// holds `x` to 2/5, so the witness of `x == 2/5` waits 2/5.
#[test]
fn the_cli_shows_the_models_time_unit() {
    use support::cli::{path, scratch, stderr, stdout, zeno};
    let dir = scratch("scaled_clocks_cli");
    let file = dir.join("m.zeno");
    std::fs::write(
        &file,
        "clock x;\n\
         template P() {\n\
           init location a invariant 2 >= 5 * x;\n\
           location b;\n\
           a -> b when 5 * x == 2;\n\
         }\n\
         system P;\n\
         check late: E<> (P.b && 5 * x == 2);\n\
         check most: sup{P.a}: x;\n",
    )
    .unwrap();
    let out = zeno(&["check", path(&file)]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{text}{err}");
    assert!(err.contains("time unit refined by 5"), "{err}");
    assert!(text.contains("1. delay 2/5: P: a -> b"), "{text}");
    assert!(text.contains("then delay 0:"), "{text}");
    assert!(text.contains("most: sup: x <= 2/5"), "{text}");

    let out = zeno(&["check", path(&file), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let checks = &json["files"][0]["checks"];
    let step = &checks[0]["trace"]["steps"][0];
    assert_eq!(step["delay"], "2/5", "{step}");
    assert_eq!(step["after"]["clocks"][0]["value"], "2/5", "{step}");
    let value = &checks[1]["values"][0];
    assert_eq!(value["bound"], serde_json::Value::Null, "{value}");
    assert_eq!(value["exact"], "2/5", "{value}");
    assert_eq!(value["strict"], false, "{value}");
}

/// The simulators step in the network's time unit and do not translate it
/// yet: `zeno simulate` refuses a refined model with the reason, rather
/// than show delays and clock values in fifths.
#[test]
fn the_simulator_refuses_a_refined_model() {
    use support::cli::{path, scratch, stderr, zeno_with_stdin};
    let dir = scratch("scaled_clocks_simulate");
    let file = dir.join("m.zeno");
    std::fs::write(
        &file,
        "clock x;\ntemplate P() { init location a invariant 2 >= 5 * x; }\nsystem P;\n",
    )
    .unwrap();
    let out = zeno_with_stdin(&["simulate", path(&file)], "quit\n");
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("time unit is refined by 5") && err.contains("does not show such models"),
        "{err}"
    );
}

/// `zeno trace` and `zeno graph` show the model's constants and times, not
/// the refined network's; `zeno export` says the exported model counts in
/// fifths. By hand: `a` is left at `x = 2/5` and `x` reset to 1; `b` is
/// left at `x = n = 2`, a delay of 1, at time 7/5.
#[test]
fn pictures_and_export_show_the_models_time_unit() {
    use support::cli::{path, scratch, stderr, stdout, zeno};
    let dir = scratch("scaled_clocks_pictures");
    let file = dir.join("m.zeno");
    std::fs::write(
        &file,
        "clock x;\n\
         int n = 2;\n\
         template P() {\n\
           init location a invariant 5 * x <= 2;\n\
           location b;\n\
           location c;\n\
           a -> b when 5 * x == 2 do x = 1;\n\
           b -> c when x >= n;\n\
         }\n\
         system P;\n\
         check late: E<> (P.c && x >= 2);\n",
    )
    .unwrap();
    let out = zeno(&["trace", path(&file), "--check", "late", "--format", "text"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    for line in [
        "step 1: delay 2/5, t = 2/5",
        "take    P: a -> b  [when x == 2/5; do x = 1]",
        "step 2: delay 1, t = 7/5",
        "clocks  x = 2",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let out = zeno(&["graph", path(&file), "--format", "dot"]);
    let dot = stdout(&out);
    assert!(dot.contains("a\\nx <= 2/5"), "{dot}");
    assert!(dot.contains("when x >= n"), "{dot}");
    let out = zeno(&["export", "--to", "xta", path(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("counts time in 1/5 of this model's time unit"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("x <= 2"), "{}", stdout(&out));
}
