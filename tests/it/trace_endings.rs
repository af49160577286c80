//! Why a trace ends, said in the terms of its check (`zeno::report::ending`)
//! and shown by the CLI's text, JSON and SARIF. The expected endings are
//! worked out by hand from the small models below.

use zeno::checker::{self, Cancel, Options};
use zeno::report::{Ending, EndingKind};
use zeno::simulate::ending;

use crate::support::cli::*;

/// `a` (x <= 2) --x >= 1, n++--> `b` --x = 0--> `c` (x <= 1, no way out):
/// in `c` time stops at x = 1 and nothing is enabled, a timelock.
const MODEL: &str = "clock x;
int[0, 3] n;
template P() {
  init location a invariant x <= 2;
  location b;
  location c invariant x <= 1;
  a -> b when x >= 1 do n = n + 1;
  b -> c do x = 0;
}
system P;
check safe: A[] n < 1;
check reach: E<> P.b;
check nodead: A[] not deadlock;
check live: A<> P.c;
";

/// `a` (x <= 1, no edge): the initial state is already a timelock.
const STUCK: &str = "clock x;
template S() { init location a invariant x <= 1; location b; }
system S;
check gets_to_b: A<> S.b;
check dead: E<> deadlock;
";

/// `a` <-> `b` forever, `c` never: a lasso back to the initial state.
const LOOP: &str = "clock x;
template Q() {
  init location a invariant x <= 2;
  location b invariant x <= 3;
  location c;
  a -> b when x >= 1 do x = 0;
  b -> a when x >= 1 do x = 0;
}
system Q;
check never_c: A<> Q.c;
";

/// `a` with no edge and no invariant: a deadlock where time goes on.
const IDLE: &str = "template I() { init location a; location b; }
system I;
check dead: E<> deadlock;
check to_b: A<> I.b;
";

fn endings(text: &str) -> Vec<(String, Ending)> {
    let net = zeno::semantics::analyze(text).network.expect("a network");
    net.check_ids()
        .map(|k| {
            let r = checker::check(&net, k, &Options::default(), &Cancel::new(), &mut |_| {});
            let c = net.check(k);
            let t = r.trace.unwrap_or_else(|| panic!("{} has a trace", c.name));
            (c.name.clone(), ending(&net, c, &t))
        })
        .collect()
}

fn find<'a>(all: &'a [(String, Ending)], name: &str) -> &'a Ending {
    &all.iter().find(|(n, _)| n == name).expect("the check").1
}

#[test]
fn a_violated_invariant_and_a_witness_name_their_check_not_a_goal() {
    let all = endings(MODEL);
    let safe = find(&all, "safe");
    assert_eq!(safe.kind, EndingKind::Violation);
    assert_eq!(
        safe.words("safe", "A[] n < 1"),
        "`n < 1` is false here, so `safe` (A[] n < 1) is violated"
    );
    let reach = find(&all, "reach");
    assert_eq!(reach.kind, EndingKind::Goal);
    assert_eq!(
        reach.words("reach", "E<> P.b"),
        "`P.b` holds here, so `reach` (E<> P.b) is witnessed"
    );
}

#[test]
fn a_deadlock_where_time_stops_is_a_timelock_with_the_invariant_that_stops_it() {
    let all = endings(MODEL);
    let nodead = find(&all, "nodead");
    assert_eq!(nodead.kind, EndingKind::Timelock);
    // In `c`, x = 0 after the reset and the invariant is x <= 1.
    assert_eq!(nodead.time_limit.as_deref(), Some("1"));
    assert_eq!(
        nodead.time_stopped_by.as_deref(),
        Some("the invariant of `P.c`")
    );
    assert_eq!(
        nodead.words("nodead", "A[] not deadlock"),
        "timelock: time cannot pass more than 1 here (the invariant of `P.c`) and no transition \
         is enabled now or after any delay, so `nodead` (A[] not deadlock) is violated"
    );
    // Time passes forever in `b`, where `A<> P.c` fails.
    let live = find(&all, "live");
    assert_eq!(live.kind, EndingKind::TimeDiverges);
    assert_eq!(
        live.words("live", "A<> P.c"),
        "time passes forever with no further action, never reaching `P.c`, so `live` (A<> P.c) \
         is violated"
    );
}

#[test]
fn a_counterexample_of_no_steps_is_explained() {
    let all = endings(STUCK);
    let b = find(&all, "gets_to_b");
    assert_eq!(b.steps, 0);
    assert_eq!(b.kind, EndingKind::Timelock);
    assert_eq!(b.time_limit.as_deref(), Some("1"));
    assert_eq!(
        b.words("gets_to_b", "A<> S.b"),
        "timelock: time cannot pass more than 1 here (the invariant of `S.a`) and no transition \
         is enabled now or after any delay: the run ends there, never reaching `S.b`, so \
         `gets_to_b` (A<> S.b) is violated"
    );
    assert_eq!(find(&all, "dead").kind, EndingKind::Timelock);
    // Without an invariant, the same standstill is a deadlock in which time
    // goes on: `E<> deadlock` says deadlock, `A<>` says time passes forever.
    let idle = endings(IDLE);
    let dead = find(&idle, "dead");
    assert_eq!(
        (dead.kind, dead.time_limit.clone()),
        (EndingKind::Deadlock, None)
    );
    assert_eq!(
        dead.words("dead", "E<> deadlock"),
        "deadlock: no transition is enabled now or after any delay, so `dead` (E<> deadlock) is \
         witnessed"
    );
    let to_b = find(&idle, "to_b");
    assert_eq!((to_b.kind, to_b.steps), (EndingKind::TimeDiverges, 0));
}

#[test]
fn a_lasso_names_the_state_it_returns_to_and_the_steps_that_repeat() {
    let all = endings(LOOP);
    let e = find(&all, "never_c");
    assert_eq!(
        (e.kind, e.loop_start, e.steps),
        (EndingKind::Loop, Some(0), 2)
    );
    assert_eq!(
        e.words("never_c", "A<> Q.c"),
        "loop: back at the initial state (clocks in its zone), steps 1–2 repeat forever, never \
         reaching `Q.c`, so `never_c` (A<> Q.c) is violated"
    );
}

#[test]
fn the_cli_says_why_in_text_json_and_sarif() {
    let dir = scratch("trace_endings_cli");
    let file = dir.join("m.zeno");
    std::fs::write(&file, MODEL).unwrap();
    let o = zeno(&["check", path(&file)]);
    let text = stdout(&o);
    assert!(!text.contains("goal reached"), "{text}");
    assert!(
        text.contains(
            "    then delay 0: `n < 1` is false here, so `safe` (A[] n < 1) is violated\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("then delay 0: timelock: time cannot pass more than 1"),
        "{text}"
    );
    let o = zeno(&["check", "--format", "json", path(&file)]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let checks = &json["files"][0]["checks"];
    let nodead = checks
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "nodead")
        .unwrap();
    assert_eq!(nodead["trace"]["ending"]["kind"], "timelock");
    assert_eq!(nodead["trace"]["ending"]["time_limit"], "1");
    let o = zeno(&["check", "--format", "sarif", path(&file)]);
    let sarif: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let safe = results
        .iter()
        .find(|r| r["properties"]["check"] == "safe")
        .unwrap();
    let flow = safe["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap();
    let last = flow.last().unwrap()["location"]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(
        last.ends_with("`n < 1` is false here, so `safe` (A[] n < 1) is violated"),
        "{last}"
    );
    let message = safe["message"]["text"].as_str().unwrap();
    assert!(message.contains("`n < 1` is false here"), "{message}");
}
