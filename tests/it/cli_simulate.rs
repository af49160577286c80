//! `zeno simulate`: JSON lines and text sessions driven through a pipe,
//! every command and every kind of bad input. Expected states are worked
//! out by hand from `models/fischer-buggy.zeno` (N = 3, K = 2: `idle ->
//! req` when id == 0 resetting x; `req` has the invariant x <= K; `req ->
//! wait` when x <= K sets id; `wait -> cs` when x >= K and id == pid).

use crate::support;

use serde_json::Value;
use support::cli::{model, stderr, stdout, zeno_with_stdin};

/// The JSON lines answering `input`, one per command (the first line, the
/// initial state before any command, left out: `json_start` has it).
fn json_session(args: &[&str], input: &str) -> Vec<Value> {
    let mut lines = json_start(args, input);
    let first = lines.remove(0);
    assert!(first["command"].is_null(), "{first}");
    lines
}

/// Every JSON line of a session, the initial state first.
fn json_start(args: &[&str], input: &str) -> Vec<Value> {
    let mut all = vec!["simulate", args[0], "--format", "json"];
    all.extend_from_slice(&args[1..]);
    let out = zeno_with_stdin(&all, input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A model written to a scratch file.
fn scratch_model(test: &str, text: &str) -> String {
    let file = support::cli::scratch(test).join("m.zeno");
    std::fs::write(&file, text).unwrap();
    support::cli::path(&file).to_string()
}

/// `Proc(1).req Proc(2).idle ...`: the locations of a state line.
fn locations(v: &Value) -> Vec<String> {
    v["state"]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{}.{}",
                l["process"].as_str().unwrap(),
                l["location"].as_str().unwrap()
            )
        })
        .collect()
}

/// The enabled transitions as `Proc(1): req -> wait`.
fn transitions(v: &Value) -> Vec<String> {
    v["state"]["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let edges: Vec<String> = t["edges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    format!(
                        "{}: {} -> {}",
                        e["process"].as_str().unwrap(),
                        e["source"].as_str().unwrap(),
                        e["target"].as_str().unwrap()
                    )
                })
                .collect();
            edges.join(" + ")
        })
        .collect()
}

fn clock(v: &Value, name: &str) -> String {
    let clocks = v["state"]["clocks"].as_array().unwrap();
    let c = clocks
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no clock {name} in {clocks:?}"));
    c["value"].as_str().unwrap().to_string()
}

#[test]
fn the_issue_example_fires_two_transitions_and_goes_back() {
    let fischer = model("fischer-buggy.zeno");
    let lines = json_session(&[&fischer], "1\n2\nback\nquit\n");
    assert_eq!(lines.len(), 4, "one object per command");
    let commands: Vec<&str> = lines
        .iter()
        .map(|l| l["command"].as_str().unwrap())
        .collect();
    assert_eq!(commands, ["1", "2", "back", "quit"]);
    assert!(lines.iter().all(|l| l["ok"] == true));
    // 1: Proc(1) idle -> req.
    assert_eq!(
        locations(&lines[0]),
        ["Proc(1).req", "Proc(2).idle", "Proc(3).idle"]
    );
    assert_eq!(
        transitions(&lines[0]),
        [
            "Proc(1): req -> wait",
            "Proc(2): idle -> req",
            "Proc(3): idle -> req"
        ]
    );
    // req's invariant x <= 2 bounds the delays, and req -> wait's window.
    assert_eq!(lines[0]["state"]["delays"], "[0, 2]");
    assert_eq!(lines[0]["state"]["transitions"][0]["windows"][0], "[0, 2]");
    assert_eq!(lines[0]["state"]["via"]["kind"], "fire");
    assert_eq!(
        lines[0]["state"]["via"]["edges"][0]["text"],
        "idle -> req when id == 0 do x = 0;"
    );
    // 2: Proc(2) idle -> req.
    assert_eq!(
        locations(&lines[1]),
        ["Proc(1).req", "Proc(2).req", "Proc(3).idle"]
    );
    assert_eq!(lines[1]["state"]["position"], 2);
    // back: the state after 1 again, the later state kept.
    assert_eq!(locations(&lines[2]), locations(&lines[0]));
    assert_eq!(lines[2]["state"]["position"], 1);
    assert_eq!(lines[2]["state"]["history"], 3);
    assert_eq!(locations(&lines[3]), locations(&lines[0]));
}

#[test]
fn delays_move_clocks_and_enable_guards() {
    let fischer = model("fischer-buggy.zeno");
    // Proc(1) to wait (id = 1), then wait 2 so that x >= K.
    let lines = json_session(
        &[&fischer],
        "1\n1\ndelay 3/2\nshow\ndelay 1/2\nforward\nreset\n",
    );
    assert_eq!(lines[1]["state"]["variables"][0]["value"], 1);
    // wait -> cs is offered after a delay of 2 (x >= K), not now.
    let wait_cs = &lines[1]["state"]["transitions"][0];
    assert_eq!(wait_cs["edges"][0]["target"], "cs");
    assert_eq!(wait_cs["now"], false);
    assert_eq!(wait_cs["windows"][0], "[2, ∞)");
    assert_eq!(clock(&lines[2], "Proc(1).x"), "3/2");
    assert_eq!(clock(&lines[2], "Proc(2).x"), "3/2");
    assert_eq!(lines[2]["state"]["via"]["delay"], "3/2");
    assert_eq!(lines[3]["state"], lines[2]["state"], "show changes nothing");
    assert_eq!(clock(&lines[4], "Proc(1).x"), "2");
    assert_eq!(lines[4]["state"]["transitions"][0]["now"], true);
    assert_eq!(lines[5]["ok"], false);
    assert_eq!(lines[5]["error"], "no later step to go forward to");
    assert_eq!(lines[6]["state"]["position"], 0);
    assert_eq!(lines[6]["state"]["history"], 1);
    assert_eq!(clock(&lines[6], "Proc(1).x"), "0");
}

#[test]
fn every_bad_input_gets_an_error_line_and_the_session_goes_on() {
    let fischer = model("fischer-buggy.zeno");
    let input = "jump\n7\n0\n-1\n1\ndelay -1\ndelay x\ndelay 1/0\ndelay 3\n1\n1\ntrace nope\ntrace no_deadlock\nback\nback\nback\nback\n2\n";
    let lines = json_session(&[&fischer], input);
    let errors: Vec<(String, String)> = lines
        .iter()
        .filter(|l| l["ok"] == false)
        .map(|l| {
            (
                l["command"].as_str().unwrap().to_string(),
                l["error"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        (
            "jump",
            "unknown command `jump`; the commands: N, delay, back, forward, reset, trace, random, show, help, quit, exit (`help` explains them)",
        ),
        (
            "7",
            "there is no transition 7: the enabled transitions are numbered 1 to 3",
        ),
        ("0", "transitions are numbered from 1"),
        (
            "-1",
            "`-1` is not a transition number: they are numbered from 1",
        ),
        ("delay -1", "a delay must not be negative (got -1)"),
        (
            "delay x",
            "`x` is not a delay: expected a number such as 2, 3/2 or 0.25",
        ),
        ("delay 1/0", "`1/0` divides by zero"),
        // In req the invariant x <= 2 holds the clocks.
        (
            "delay 3",
            "the invariants forbid a delay of 3: the delays allowed here are [0, 2]",
        ),
        // Proc(1) in wait: wait -> cs needs x >= 2, so `1` must wait.
        (
            "1",
            "transition 1 cannot be taken now: it is enabled after a delay in [2, ∞) (use `delay` first)",
        ),
        (
            "trace nope",
            "no check named `nope`; the model's checks: mutex, can_enter, no_deadlock",
        ),
        (
            "trace no_deadlock",
            "check `no_deadlock` has no trace to step through: holds",
        ),
        (
            "back",
            "already at the initial state: there is nothing to go back to",
        ),
        (
            "back",
            "already at the initial state: there is nothing to go back to",
        ),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(errors, expected);
    // Every line answered, and the last command still works.
    assert_eq!(lines.len(), input.lines().count());
    let last = lines.last().unwrap();
    assert_eq!(last["ok"], true);
    assert_eq!(
        locations(last),
        ["Proc(1).idle", "Proc(2).req", "Proc(3).idle"]
    );
}

#[test]
fn a_trace_is_stepped_through_and_left() {
    let fischer = model("fischer-buggy.zeno");
    // The trace as `zeno check` reports it: the route the simulator's
    // replay is compared with.
    let out = support::cli::zeno(&[
        "check", &fischer, "--search", "bfs", "--check", "mutex", "--format", "json",
    ]);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let trace = &report["files"][0]["checks"][0]["trace"];
    let steps = trace["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 6, "BFS gives the shortest counterexample");
    let delays = steps.iter().filter(|s| s["delay"] != "0").count()
        + usize::from(trace["end"]["delay"] != "0");
    let entries = 1 + steps.len() + delays;

    let input = format!(
        "trace mutex\n{}forward\n2\n",
        "forward\n".repeat(entries - 1)
    );
    let lines = json_session(&[&fischer, "--search", "bfs"], &input);
    assert_eq!(lines[0]["trace"]["check"], "mutex");
    assert_eq!(lines[0]["trace"]["steps"], 6);
    assert_eq!(
        lines[0]["state"]["position"], 0,
        "a loaded trace starts at its first state"
    );
    assert_eq!(lines[0]["state"]["history"], entries);
    // Stepping forward visits the trace's states: after each transition
    // the locations `zeno check` reports.
    let fired: Vec<Vec<String>> = lines[1..entries]
        .iter()
        .filter(|l| l["state"]["via"]["kind"] == "fire")
        .map(locations)
        .collect();
    let expected: Vec<Vec<String>> = steps
        .iter()
        .map(|s| {
            s["after"]["locations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| {
                    format!(
                        "{}.{}",
                        l["process"].as_str().unwrap(),
                        l["location"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .collect();
    assert_eq!(fired, expected);
    let end = &lines[entries - 1];
    assert_eq!(end["state"]["position"], entries - 1);
    assert_eq!(
        locations(end).iter().filter(|l| l.ends_with(".cs")).count(),
        2
    );
    assert_eq!(lines[entries]["error"], "no later step to go forward to");
    // Going back to the start and taking another transition leaves the
    // trace: what followed is dropped.
    let lines = json_session(&[&fischer, "--search", "bfs"], "trace mutex\n2\n");
    assert_eq!(
        locations(&lines[1]),
        ["Proc(1).idle", "Proc(2).req", "Proc(3).idle"]
    );
    assert_eq!(lines[1]["state"]["history"], 2);
}

#[test]
fn random_runs_are_reproducible_and_symbolic_mode_shows_zones() {
    let fischer = model("fischer-buggy.zeno");
    let a = json_session(&[&fischer], "random 20 5\n");
    let b = json_session(&[&fischer], "random 20 5\n");
    assert_eq!(a, b);
    assert_eq!(a[0]["random"]["taken"], 20, "Fischer never deadlocks");
    let c = json_session(&[&fischer], "random 20 6\n");
    assert_ne!(a[0]["state"], c[0]["state"], "another seed, another run");

    let lines = json_session(&[&fischer, "--mode", "symbolic"], "1\ndelay 1\n");
    assert_eq!(lines[0]["state"]["mode"], "symbolic");
    assert!(lines[0]["state"]["clocks"].is_null());
    // After idle -> req for Proc(1): x reset, others equal and at least x.
    let zone: Vec<&str> = lines[0]["state"]["zone"]
        .as_array()
        .unwrap()
        .iter()
        .map(|z| z.as_str().unwrap())
        .collect();
    assert_eq!(
        zone,
        [
            "Proc(1).x <= 2",
            "Proc(1).x - Proc(2).x <= 0",
            "Proc(1).x - Proc(3).x <= 0",
            "Proc(2).x - Proc(3).x <= 0",
            "Proc(3).x - Proc(2).x <= 0",
        ]
    );
    assert_eq!(
        lines[1]["error"],
        "in symbolic mode the zone already holds every delay; `delay` needs the concrete mode"
    );
}

#[test]
fn text_mode_reads_a_pipe() {
    let fischer = model("fischer-buggy.zeno");
    let out = zeno_with_stdin(&["simulate", &fischer], "1\nbogus\nhelp\nquit\n1\n");
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "state 0 of 0 (initial state)\n  locations: Proc(1).idle  Proc(2).idle  Proc(3).idle\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  1. Proc(1): idle -> req  (delay in [0, ∞))\n"),
        "{text}"
    );
    assert!(
        text.contains("state 1 of 1 (after Proc(1): idle -> req)\n"),
        "{text}"
    );
    assert!(text.contains("error: unknown command `bogus`"), "{text}");
    assert!(
        text.contains("random N [S]   take N random steps"),
        "{text}"
    );
    // Nothing after quit: the last `1` is not run.
    assert!(!text.contains("state 2 of 2"), "{text}");
}

#[test]
fn a_model_with_errors_or_on_stdin_is_refused_before_any_session() {
    let dir = support::cli::scratch("simulate-bad-model");
    let bad = dir.join("bad.zeno");
    std::fs::write(&bad, "template T( {\n").unwrap();
    let out = zeno_with_stdin(
        &["simulate", support::cli::path(&bad), "--format", "json"],
        "1\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("error"), "{}", stderr(&out));
    // The commands come on standard input, so the model cannot.
    let out = zeno_with_stdin(&["simulate", "-"], "system T;\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the commands come on standard input, so the model must be a file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_mode_shows_the_initial_state_before_any_command() {
    let fischer = model("fischer-buggy.zeno");
    // No command at all: still the initial state.
    let lines = json_start(&[&fischer], "");
    assert_eq!(lines.len(), 1);
    assert!(lines[0]["command"].is_null());
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["state"]["position"], 0);
    assert_eq!(lines[0]["state"]["via"]["kind"], "start");
    assert_eq!(
        locations(&lines[0]),
        ["Proc(1).idle", "Proc(2).idle", "Proc(3).idle"]
    );
}

/// `a -> b` needs x >= 2, `a -> c` can be taken at once.
const LATER: &str = "clock x;
template T() { init location a; location b; location c; a -> b when x >= 2; a -> c; }
system T;
";

#[test]
fn transitions_that_need_a_delay_are_listed_apart() {
    let m = scratch_model("simulate-later", LATER);
    let out = zeno_with_stdin(&["simulate", &m], "delay 2\n");
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "state 0 of 0 (initial state)\n  locations: T.a\n  clocks: x = 0\n  \
             delays allowed: [0, ∞)\nenabled transitions:\n  2. T: a -> c  (delay in [0, ∞))\n\
             enabled after a delay (`delay` first):\n  1. T: a -> b  (delay in [2, ∞))\n"
        ),
        "{text}"
    );
    // After the delay both can be taken now.
    assert!(
        text.ends_with(
            "enabled transitions:\n  1. T: a -> b  (delay in [0, ∞))\n  2. T: a -> c  (delay in [0, ∞))\n"
        ),
        "{text}"
    );
    let lines = json_session(&[&m], "show\n");
    let now: Vec<bool> = lines[0]["state"]["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["now"].as_bool().unwrap())
        .collect();
    assert_eq!(now, [false, true]);
}

/// A handshake on `go`.
const SYNC: &str = "chan go;
template A() { init location idle; location cs; idle -> cs sync go!; }
template B() { init location wait; location done; wait -> done sync go?; }
system A, B;
check both: E<> B.done;
";

#[test]
fn a_synchronisation_is_written_as_zeno_check_writes_it() {
    let m = scratch_model("simulate-sync", SYNC);
    let check = stdout(&support::cli::zeno(&["check", &m]));
    let taken = "A: idle -> cs (go!), B: wait -> done (go?)";
    assert!(check.contains(&format!("1. delay 0: {taken}\n")), "{check}");
    let sim = stdout(&zeno_with_stdin(&["simulate", &m], "1\n"));
    assert!(
        sim.contains(&format!("  1. {taken}  (delay in [0, ∞))\n")),
        "{sim}"
    );
    assert!(sim.contains(&format!("(after {taken})")), "{sim}");
}

#[test]
fn the_end_of_a_loaded_trace_says_why_it_ends() {
    let fischer = model("fischer-buggy.zeno");
    let lines = json_session(&[&fischer, "--search", "bfs"], "trace mutex\n");
    let entries = lines[0]["state"]["history"].as_u64().unwrap() as usize;
    let input = format!("trace mutex\n{}back\n", "forward\n".repeat(entries - 1));
    let lines = json_session(&[&fischer, "--search", "bfs"], &input);
    // Only the last state of the trace is its end.
    assert!(
        lines[..entries - 1]
            .iter()
            .all(|l| l["state"]["trace_end"].is_null())
    );
    let end = &lines[entries - 1]["state"]["trace_end"];
    assert_eq!(end["check"], "mutex");
    assert_eq!(end["kind"], "violation");
    assert_eq!(
        end["words"],
        "`!(Proc(1).cs && Proc(2).cs)` is false here, so `mutex` (A[] !(Proc(1).cs && Proc(2).cs)) is violated"
    );
    assert!(
        lines[entries]["state"]["trace_end"].is_null(),
        "back: not the end"
    );
}

/// `a` <-> `b` for ever, `c` never: `A<> Q.c` is violated by a lasso.
const LASSO: &str = "clock x;
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

#[test]
fn a_loaded_lasso_goes_round_its_loop() {
    let m = scratch_model("simulate-lasso", LASSO);
    let lines = json_session(&[&m], "trace never_c\n");
    let entries = lines[0]["state"]["history"].as_u64().unwrap() as usize;
    // Round the loop twice more than the trace itself: a -> b, b -> a, ...
    let input = format!("trace never_c\n{}", "forward\n".repeat(entries - 1 + 8));
    let lines = json_session(&[&m], &input);
    assert!(lines.iter().all(|l| l["ok"] == true), "{lines:?}");
    let end = &lines[entries - 1]["state"];
    assert_eq!(end["trace_end"]["kind"], "loop");
    assert_eq!(end["trace_end"]["loop_start"], 0);
    let text = stdout(&zeno_with_stdin(
        &["simulate", &m],
        &format!("trace never_c\n{}", "forward\n".repeat(entries - 1)),
    ));
    assert!(
        text.contains("(`forward` goes round the loop again)"),
        "{text}"
    );
    // Each way round is a delay then a transition, alternating a -> b and
    // b -> a, the clocks within the invariants.
    let fired: Vec<String> = lines[entries..]
        .iter()
        .filter(|l| l["state"]["via"]["kind"] == "fire")
        .map(|l| {
            let e = &l["state"]["via"]["edges"][0];
            format!(
                "{} -> {}",
                e["source"].as_str().unwrap(),
                e["target"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(fired, ["a -> b", "b -> a", "a -> b", "b -> a"]);
    let last = lines.last().unwrap();
    assert_eq!(locations(last), ["Q.a"]);
    assert_eq!(last["state"]["position"], entries - 1 + 8);
    // Leaving the loop by a move of one's own ends it: `forward` at the end
    // is then the end.
    let input = format!(
        "trace never_c\n{}delay 1/2\nforward\n",
        "forward\n".repeat(entries - 1)
    );
    let lines = json_session(&[&m], &input);
    assert_eq!(
        lines.last().unwrap()["error"],
        "no later step to go forward to"
    );
}
