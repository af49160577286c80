//! Clock rates given by data (`x' == b`, as UPPAAL allows): in each
//! discrete state the rate is 0 (a stopwatch) or 1, and any other value is
//! a run-time error of the transition entering the state. Answers worked
//! out by hand beside each model; `support::every_order` checks them in
//! every search order and replays every trace in the independent
//! simulator, which evaluates the rates itself.

use crate::support;
use zeno::checker::Verdict::{self, Fails, Holds};
use zeno::ir::{ErrorKind, EvalError};

/// A scheduler lets the task run from t = 2 to t = 5 (`run` true); the
/// task's execution time `e` advances only then (`e' == run`). So
/// e = t - 2 while it runs, and e reaches 3 exactly at t = 5: the task
/// finishes at t >= 5, never before; before t = 2 it has not started.
const SCHEDULED: &str = "clock e, t;
bool run = false;
template S() {
    init location wait invariant t <= 2;
    location on invariant t <= 5;
    location off;
    wait -> on when t == 2 do run = true;
    on -> off when t == 5 do run = false;
}
template T() {
    init location work invariant e' == run && e <= 3;
    location fin;
    work -> fin when e == 3;
}
system S, T;
check finishes: E<> T.fin;
check early: E<> T.fin && t < 5;
check late_enough: A[] T.fin imply t >= 5;
check idle_first: A[] S.wait imply e == 0;
";

#[test]
fn a_rate_given_by_a_variable_stops_and_runs_the_clock() {
    support::every_order(SCHEDULED, &[Holds, Fails, Holds, Holds]);
}

/// The same rate written with an integer (`x' == r`, r in 0..2): entering
/// `b` sets r = 2, a rate zeno's stopwatches cannot take: the transition
/// into `b` is a run-time error of the model, with its trace (replayed by
/// the simulator, which finds the same error on arrival).
#[test]
fn a_rate_other_than_0_or_1_is_a_run_time_error() {
    let text = "int[0, 2] r = 0;
template P() {
    clock x;
    init location a invariant x' == r;
    location b invariant x' == r;
    a -> b do r = 2;
}
system P;
check reach_b: E<> P.b;
";
    let rate_error = EvalError::from(ErrorKind::ClockRate { value: 2 });
    let results = support::every_order(text, &[Verdict::ModelError(rate_error)]);
    let trace = results[0].trace.as_ref().expect("a trace to the error");
    assert_eq!(trace.len(), 0, "the error is on the first transition");
}

/// What is no rate at all stays a located error: a rate of an array, of a
/// clock, and a constant other than 0 or 1.
#[test]
fn rates_that_are_no_numbers_are_located_errors() {
    for (invariant, at, message) in [
        ("x' == a", "a", "`a` is an array"),
        ("x' == 2", "2", "a clock rate must be 0 or 1"),
        ("x' == y", "y", "clocks can only be compared"),
    ] {
        let text = format!(
            "int a[2];\nclock y;\ntemplate P() {{ clock x; init location l invariant {invariant}; }}\nsystem P;\n"
        );
        let errors = support::errors(&text);
        assert!(
            errors
                .iter()
                .any(|(m, s)| m.starts_with(message) && s == at),
            "{invariant}: {errors:?}"
        );
    }
}
