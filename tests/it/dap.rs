//! `zeno dap` driven over stdio as an editor drives it: the Debug Adapter
//! Protocol's requests, a trace stepped forward and back, breakpoints,
//! watches, and bad input answered with errors. The trace's length and
//! end are checked against routes that do not go through the adapter: the
//! model's hand-derived shortest counterexample (BFS gives a shortest
//! trace), `zeno check --format json`, and the source text searched here.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::support::cli::{model, path, scratch, stdout, zeno};

struct Dap {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    seq: i64,
    /// Events read while waiting for a response.
    events: Vec<Value>,
}

impl Dap {
    fn start() -> Dap {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
            .arg("dap")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn zeno dap");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Dap {
            child,
            input,
            output,
            seq: 0,
            events: Vec::new(),
        }
    }

    fn write_raw(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).unwrap();
        self.input.flush().unwrap();
    }

    /// The next message (blocks; the adapter answers every request).
    fn read(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "the adapter closed its output"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').expect("a header line");
            assert_eq!(name, "Content-Length", "only Content-Length headers");
            length = Some(value.trim().parse::<usize>().unwrap());
        }
        let mut body = vec![0; length.expect("a Content-Length")];
        self.output.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).expect("a JSON message")
    }

    /// The response to the next request sent; events before it are kept.
    fn response(&mut self, seq: i64) -> Value {
        loop {
            let m = self.read();
            if m["type"] == "response" && m["request_seq"] == seq {
                return m;
            }
            assert_eq!(m["type"], "event", "{m}");
            self.events.push(m);
        }
    }

    fn request(&mut self, command: &str, arguments: Value) -> Value {
        self.seq += 1;
        let seq = self.seq;
        let body =
            json!({"seq": seq, "type": "request", "command": command, "arguments": arguments})
                .to_string();
        self.write_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
        self.response(seq)
    }

    /// The body of a successful response.
    fn ok(&mut self, command: &str, arguments: Value) -> Value {
        let r = self.request(command, arguments);
        assert_eq!(r["success"], true, "{command}: {r}");
        r["body"].clone()
    }

    /// The message of an error response.
    fn error(&mut self, command: &str, arguments: Value) -> String {
        let r = self.request(command, arguments);
        assert_eq!(r["success"], false, "{command}: {r}");
        r["message"].as_str().unwrap().to_string()
    }

    /// The next event named `name` (read ahead or still to come).
    fn event(&mut self, name: &str) -> Value {
        if let Some(i) = self.events.iter().position(|e| e["event"] == name) {
            return self.events.remove(i)["body"].clone();
        }
        loop {
            let m = self.read();
            if m["type"] == "event" && m["event"] == name {
                return m["body"].clone();
            }
            self.events.push(m);
        }
    }

    /// initialize, launch, configurationDone: the entry stop.
    fn launch(&mut self, arguments: Value) -> Value {
        let caps = self.ok("initialize", json!({"adapterID": "zeno"}));
        assert_eq!(caps["supportsStepBack"], true);
        assert_eq!(caps["supportsConfigurationDoneRequest"], true);
        self.ok("launch", arguments);
        self.event("initialized");
        self.ok("configurationDone", json!({}));
        self.event("stopped")
    }

    /// A step command and the stop it ends in.
    fn step(&mut self, command: &str) -> Value {
        self.ok(command, json!({"threadId": 1}));
        self.event("stopped")
    }

    fn evaluate(&mut self, expression: &str) -> String {
        let body = self.ok(
            "evaluate",
            json!({"expression": expression, "context": "watch"}),
        );
        body["result"].as_str().unwrap().to_string()
    }

    /// The top frame of process `thread` (1-based): its name and line.
    fn top_frame(&mut self, thread: i64) -> (String, i64) {
        let body = self.ok("stackTrace", json!({"threadId": thread}));
        let f = &body["stackFrames"][0];
        (
            f["name"].as_str().unwrap().to_string(),
            f["line"].as_i64().unwrap(),
        )
    }

    fn variables(&mut self, reference: i64) -> Vec<(String, String)> {
        let body = self.ok("variables", json!({"variablesReference": reference}));
        body["variables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["name"].as_str().unwrap().to_string(),
                    v["value"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    fn finish(mut self) {
        self.ok("disconnect", json!({}));
        drop(self.input);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "zeno dap exited with {status}");
    }
}

/// The 1-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> i64 {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` is not in the text")) as i64
        + 1
}

fn value<'a>(vars: &'a [(String, String)], name: &str) -> &'a str {
    &vars
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no variable {name} in {vars:?}"))
        .1
}

#[test]
fn a_counterexample_stepped_forward_and_back() {
    let file = model("fischer-buggy.zeno");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut dap = Dap::start();
    // BFS: a shortest counterexample, whose length the model's comment
    // derives by hand (6: two processes through idle, req, wait, cs).
    let entry = dap.launch(json!({"program": file, "check": "mutex", "search": "bfs"}));
    assert_eq!(entry["reason"], "entry");
    assert_eq!(entry["description"], "state 0 of 6");
    let threads = dap.ok("threads", json!({}));
    let names: Vec<&str> = threads["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Proc(1)", "Proc(2)", "Proc(3)"]);
    // Every process starts in `idle`, where `init location idle` is written.
    let idle_line = line_of(&text, "init location idle");
    for thread in 1..=3 {
        assert_eq!(dap.top_frame(thread), ("idle".to_string(), idle_line));
    }
    let scopes = dap.ok("scopes", json!({"frameId": 1}));
    let scope_names: Vec<&str> = scopes["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(scope_names, ["Variables", "Clocks", "Locals of Proc(1)"]);
    let globals = dap.variables(1);
    assert_eq!(value(&globals, "id"), "0");
    // All clocks 0 at the start, each unbounded above in the zone.
    let clocks = dap.variables(2);
    assert_eq!(value(&clocks, "Proc(1).x"), "0 ∈ [0, ∞)");

    // Forward to the end, one transition at a time; each step's change of
    // `id` is marked, and agrees with the watch before and after.
    let mut steps = 0;
    let last = loop {
        let id_before = dap.evaluate("id");
        let stop = dap.step("next");
        steps += 1;
        let id_after = dap.evaluate("id");
        let shown = value(&dap.variables(1), "id").to_string();
        if id_before == id_after {
            assert_eq!(shown, id_after);
        } else {
            assert_eq!(shown, format!("{id_after} (was {id_before})"));
        }
        if stop["reason"] == "exception" {
            break stop;
        }
        assert!(steps < 6, "no end after {steps} steps: {stop}");
    };
    assert_eq!(steps, 6);
    // Why it ends, in the words `zeno check` uses (report::Ending).
    assert_eq!(last["description"], "violation");
    assert_eq!(
        last["text"],
        "state 6 of 6: `!(Proc(1).cs && Proc(2).cs)` is false here, so `mutex` (A[] !(Proc(1).cs && Proc(2).cs)) is violated",
        "{last}"
    );
    // The violation, seen through the adapter's frames and a watch.
    let cs_line = line_of(&text, "location cs;");
    assert_eq!(dap.top_frame(1), ("cs (violation)".to_string(), cs_line));
    assert_eq!(dap.top_frame(2).1, cs_line);
    assert_eq!(dap.evaluate("Proc(1).cs && Proc(2).cs"), "true");
    // In a frame of Proc(2) (thread 2's top frame is 3), its own names are
    // its: `x` and `pid` are Proc(2)'s, `id` stays the global.
    let in_frame = |dap: &mut Dap, expression: &str| {
        let body = dap.ok(
            "evaluate",
            json!({"expression": expression, "frameId": 3, "context": "hover"}),
        );
        body["result"].as_str().unwrap().to_string()
    };
    let x2 = dap.evaluate("Proc(2).x");
    assert_ne!(x2, dap.evaluate("Proc(1).x"), "the test needs them apart");
    assert_eq!(in_frame(&mut dap, "x"), x2);
    assert_eq!(
        in_frame(&mut dap, "pid + id"),
        format!("{}", 2 + dap.evaluate("id").parse::<i32>().unwrap())
    );
    assert_eq!(in_frame(&mut dap, "cs && Proc(1).cs"), "true");
    // The frame below the location is the edge the last step took.
    let body = dap.ok("stackTrace", json!({"threadId": last["threadId"]}));
    assert_eq!(body["stackFrames"][1]["name"], "via wait -> cs");
    assert_eq!(
        body["stackFrames"][1]["line"],
        line_of(&text, "wait -> cs    when")
    );
    // Past the end: the same state, saying why.
    let stop = dap.step("next");
    assert!(
        stop["description"]
            .as_str()
            .unwrap()
            .contains("the end of the trace")
    );
    // Back one, then back to the start.
    let stop = dap.step("stepBack");
    assert_eq!(stop["description"], "state 5 of 6");
    assert_eq!(dap.evaluate("Proc(1).cs && Proc(2).cs"), "false");
    let stop = dap.step("reverseContinue");
    assert_eq!(stop["description"], "state 0 of 6");
    // A step that cannot be taken still stops, saying why.
    let stop = dap.step("stepBack");
    assert_eq!(
        stop["description"],
        "state 0 of 6: already at the initial state"
    );
    // `goto`: the states whose step entered `cs` (line of `location cs`).
    let targets = dap.ok(
        "gotoTargets",
        json!({"source": {"path": file}, "line": cs_line}),
    );
    let labels: Vec<&str> = targets["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"state 6"), "{labels:?}");
    let target = targets["targets"][0]["id"].clone();
    dap.ok("goto", json!({"threadId": 1, "targetId": target}));
    assert_eq!(dap.event("stopped")["reason"], "goto");
    assert_eq!(dap.evaluate("Proc(1).cs || Proc(2).cs"), "true");
    dap.finish();
}

#[test]
fn the_trace_agrees_with_zeno_check() {
    // The same check and search through `zeno check --format json`.
    let file = model("fischer-buggy.zeno");
    let out = zeno(&["check", "--format", "json", "--search", "bfs", &file]);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let mutex = report["files"][0]["checks"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == "mutex"))
        .unwrap_or_else(|| panic!("no mutex in {report}"));
    let trace = mutex["trace"]["steps"].as_array().unwrap();
    let mut dap = Dap::start();
    dap.launch(json!({"program": file, "check": "mutex", "search": "bfs"}));
    let stop = dap.step("continue");
    assert_eq!(stop["description"], "violation");
    let globals = dap.variables(1);
    assert!(
        value(&globals, "(state)").starts_with(&format!("{} of {}", trace.len(), trace.len())),
        "{globals:?}"
    );
    // The last state's variables and locations are the report's.
    let last = &trace[trace.len() - 1]["after"];
    for v in last["variables"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        assert_eq!(
            value(&globals, name).split(' ').next().unwrap(),
            v["value"].to_string()
        );
    }
    let clocks = dap.variables(2);
    for c in last["clocks"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        assert_eq!(value(&clocks, name).split(' ').next().unwrap(), c["value"]);
    }
    for (k, l) in last["locations"].as_array().unwrap().iter().enumerate() {
        let (frame, _) = dap.top_frame(k as i64 + 1);
        assert!(
            frame.starts_with(l["location"].as_str().unwrap()),
            "{frame} vs {l}"
        );
    }
    dap.finish();
}

#[test]
fn breakpoints_on_edges_locations_and_conditions() {
    let file = model("fischer-buggy.zeno");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut dap = Dap::start();
    dap.ok("initialize", json!({}));
    dap.ok(
        "launch",
        json!({"program": file, "check": "mutex", "search": "bfs"}),
    );
    let edge_line = line_of(&text, "req  -> wait");
    let answer = dap.ok(
        "setBreakpoints",
        json!({"source": {"path": file}, "breakpoints": [
            {"line": edge_line}, {"line": 1}, {"line": line_of(&text, "location cs;"), "condition": "nosuch > 1"},
        ]}),
    );
    let b = &answer["breakpoints"];
    assert_eq!(b[0]["verified"], true);
    assert_eq!(b[1]["verified"], false);
    assert_eq!(b[1]["message"], "no location or edge on this line");
    assert_eq!(b[2]["verified"], false);
    assert!(
        b[2]["message"]
            .as_str()
            .unwrap()
            .contains("unknown name `nosuch`")
    );
    dap.ok("configurationDone", json!({}));
    dap.event("stopped");
    // `continue` stops where a step takes `req -> wait` (which sets `id`).
    let stop = dap.step("continue");
    assert_eq!(stop["reason"], "breakpoint");
    assert_eq!(stop["hitBreakpointIds"], json!([b[0]["id"]]));
    let thread = stop["threadId"].as_i64().unwrap();
    let body = dap.ok("stackTrace", json!({"threadId": thread}));
    assert_eq!(body["stackFrames"][0]["name"], "wait");
    assert_eq!(body["stackFrames"][1]["line"], edge_line);
    assert_eq!(dap.evaluate("id"), thread.to_string());
    dap.finish();

    // A simulation: `continue` runs random transitions until a process
    // enters `cs` while `id == 2`.
    let mut dap = Dap::start();
    dap.ok("initialize", json!({}));
    dap.ok("launch", json!({"program": file, "seed": 7}));
    let cs_line = line_of(&text, "location cs;");
    let answer = dap.ok(
        "setBreakpoints",
        json!({"source": {"path": file}, "breakpoints": [{"line": cs_line, "condition": "id == 2"}]}),
    );
    assert_eq!(answer["breakpoints"][0]["verified"], true);
    dap.ok("configurationDone", json!({}));
    assert_eq!(dap.event("stopped")["description"], "state 0");
    let stop = dap.step("continue");
    assert_eq!(stop["reason"], "breakpoint", "{stop}");
    assert_eq!(dap.evaluate("id"), "2");
    let thread = stop["threadId"].as_i64().unwrap();
    assert_eq!(dap.top_frame(thread), ("cs".to_string(), cs_line));
    // Back and forward again follow the same run.
    let here = value(&dap.variables(1), "(state)").to_string();
    dap.step("stepBack");
    dap.step("next");
    assert_eq!(value(&dap.variables(1), "(state)"), here);
    dap.finish();
}

#[test]
fn a_lasso_marks_its_loop_says_why_and_steps_round_it() {
    // `A<> P.c` with `c` unreachable: the only counterexample is the
    // cycle a -> b -> a (the invariants force each move within 1).
    let dir = scratch("dap-lasso");
    let file = dir.join("loop.zeno");
    std::fs::write(
        &file,
        "template P() {\n  clock x;\n  init location a invariant x <= 1;\n  location b invariant x <= 1;\n  location c;\n  a -> b do x = 0;\n  b -> a do x = 0;\n}\nsystem P;\ncheck never_c: A<> P.c;\n",
    )
    .unwrap();
    let mut dap = Dap::start();
    let entry = dap.launch(json!({"program": path(&file), "check": "never_c"}));
    assert_eq!(entry["description"], "state 0 of 2: loop start");
    // Why it ends: the words `zeno check` uses (report::Ending).
    let why = "loop: back at the initial state (clocks in its zone), steps 1–2 repeat forever, never reaching `P.c`, so `never_c` (A<> P.c) is violated";
    assert_eq!(
        entry["text"],
        format!("the trace's last state (state 2) comes back here: {why}")
    );
    let stop = dap.step("continue");
    assert_eq!(stop["reason"], "exception");
    assert_eq!(stop["description"], "loop to 0");
    assert_eq!(stop["text"], format!("state 2 of 2: {why}"));
    assert_eq!(dap.top_frame(1).0, "a (loop to 0)");
    // Past the end, round the loop again: the state after its first step
    // (P at b), a second time.
    let round = dap.step("next");
    assert_eq!(round["description"], "state 1 of 2 (round 2 of the loop)");
    assert_eq!(dap.top_frame(1).0, "b");
    assert_eq!(dap.evaluate("P.b"), "true");
    // Back from there is the end of the first round.
    let back = dap.step("stepBack");
    assert_eq!(back["description"], "loop to 0");
    assert_eq!(dap.top_frame(1).0, "a (loop to 0)");
    // `continue` goes one round and stops at the end again.
    dap.step("next");
    let again = dap.step("continue");
    assert_eq!(again["reason"], "exception");
    assert_eq!(
        again["text"],
        format!("state 2 of 2 (round 2 of the loop): {why}")
    );
    dap.finish();
}

#[test]
fn a_model_error_ends_the_trace_with_its_message() {
    // The third `a -> a` would set n to 3, outside [0, 2]: two steps, then
    // the error (worked out by hand).
    let dir = scratch("dap-model-error");
    let file = dir.join("overflow.zeno");
    std::fs::write(
        &file,
        "int[0,2] n = 0;\ntemplate P() {\n  init location a;\n  a -> a do n = n + 1;\n}\nsystem P;\ncheck small: E<> n == 5;\n",
    )
    .unwrap();
    let mut dap = Dap::start();
    dap.launch(json!({"program": path(&file), "check": "small"}));
    let stop = dap.step("continue");
    assert_eq!(stop["reason"], "exception");
    assert_eq!(stop["description"], "model error");
    assert_eq!(
        stop["text"],
        "state 2 of 2: model error: value 3 is outside the range [0, 2] of `n` (taking P: a -> a here)"
    );
    assert_eq!(value(&dap.variables(1), "n"), "2 (was 1)");
    dap.finish();
}

/// A model whose time unit is refined (`2 >= 5 * x` bounds `x` by 2/5,
/// docs/language.md "Time scaling") is refused at launch with the reason,
/// rather than stepped in other units than the model's; the adapter stays
/// usable and ends cleanly.
#[test]
fn a_model_with_a_refined_time_unit_is_refused_with_the_reason() {
    let dir = scratch("dap-refined");
    let file = dir.join("refined.zeno");
    std::fs::write(
        &file,
        "clock x;\ntemplate P() { init location a invariant 2 >= 5 * x; }\nsystem P;\n",
    )
    .unwrap();
    let mut dap = Dap::start();
    let message = dap.error("launch", json!({"program": path(&file)}));
    assert!(
        message.contains("time unit is refined by 5") && message.contains("does not show"),
        "{message}"
    );
    dap.finish();
}

#[test]
fn a_simulation_pauses_and_stops_where_nothing_is_enabled() {
    // fischer-buggy never deadlocks (its comment): `continue` without a
    // breakpoint pauses after maxSteps transitions.
    let mut dap = Dap::start();
    dap.launch(json!({"program": model("fischer-buggy.zeno"), "maxSteps": 5}));
    let stop = dap.step("continue");
    assert_eq!(stop["reason"], "pause");
    assert_eq!(
        stop["description"],
        "state 5: 5 steps without a breakpoint hit (maxSteps)"
    );
    dap.finish();
    // One edge, a -> b, then nothing: the second step cannot be taken.
    let dir = scratch("dap-stuck");
    let file = dir.join("once.zeno");
    std::fs::write(
        &file,
        "template P() {\n  init location a;\n  location b;\n  a -> b;\n}\nsystem P;\n",
    )
    .unwrap();
    let mut dap = Dap::start();
    dap.launch(json!({"program": path(&file)}));
    assert_eq!(dap.step("next")["description"], "state 1");
    assert_eq!(
        dap.step("next")["description"],
        "state 1: no transition is enabled"
    );
    assert_eq!(
        dap.step("continue")["description"],
        "state 1: no transition is enabled"
    );
    assert_eq!(dap.evaluate("deadlock"), "true");
    dap.finish();
}

#[test]
fn an_array_is_one_entry_with_its_elements_below() {
    let dir = scratch("dap-array");
    let file = dir.join("array.zeno");
    std::fs::write(
        &file,
        "int a[3];\nbool flag;\ntemplate P() {\n  init location s;\n  location t;\n  s -> t do a[1] = 5, flag = true;\n}\nsystem P;\ncheck set: E<> a[1] == 5;\n",
    )
    .unwrap();
    let mut dap = Dap::start();
    dap.launch(json!({"program": path(&file), "check": "set"}));
    dap.step("next");
    let body = dap.ok("variables", json!({"variablesReference": 1}));
    let a = body["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "a")
        .unwrap_or_else(|| panic!("no array a in {body}"))
        .clone();
    assert_eq!(a["value"], "[0, 5, 0] (was [0, 0, 0])");
    assert_eq!(a["indexedVariables"], 3);
    assert_eq!(value(&dap.variables(1), "flag"), "true (was false)");
    let elements = dap.variables(a["variablesReference"].as_i64().unwrap());
    assert_eq!(
        elements,
        [
            ("a[0]".to_string(), "0".to_string()),
            ("a[1]".to_string(), "5 (was 0)".to_string()),
            ("a[2]".to_string(), "0".to_string()),
        ]
    );
    assert_eq!(dap.evaluate("a[1] + a[2]"), "5");
    dap.finish();
}

#[test]
fn an_imported_model_is_placed_in_its_xml() {
    let dir = scratch("dap-xml");
    let file = dir.join("lock.xml");
    let xml = std::fs::read_to_string(crate::support::cli::data_file("import", "lock.xml"))
        .unwrap()
        .replace("A[] not (P1.busy and P2.busy)", "E&lt;&gt; P1.busy");
    std::fs::write(&file, &xml).unwrap();
    let mut dap = Dap::start();
    dap.launch(json!({"program": path(&file), "check": 0}));
    assert_eq!(
        dap.top_frame(1),
        ("idle".to_string(), line_of(&xml, "<name>idle"))
    );
    let stop = dap.step("next");
    assert_eq!(stop["description"], "state 1 of 1: goal");
    assert_eq!(
        stop["text"],
        "`P1.busy` holds here, so `mutex` (E<> P1.busy) is witnessed"
    );
    let body = dap.ok("stackTrace", json!({"threadId": 1}));
    assert_eq!(body["stackFrames"][0]["line"], line_of(&xml, "<name>busy"));
    assert_eq!(
        body["stackFrames"][1]["line"],
        line_of(&xml, "<label kind=\"guard\">lock == 0")
    );
    assert_eq!(body["stackFrames"][1]["source"]["path"], path(&file));
    assert_eq!(value(&dap.variables(1), "lock"), "1 (was 0)");
    dap.finish();
}

#[test]
fn bad_input_gets_error_responses() {
    let mut dap = Dap::start();
    // Before launch: no state to show.
    assert!(
        dap.error("stackTrace", json!({"threadId": 1}))
            .contains("no model is launched yet")
    );
    assert_eq!(dap.ok("threads", json!({}))["threads"], json!([]));
    // Not JSON, not an object, no command, arguments not an object.
    for raw in ["hello", "[1, 2]"] {
        dap.write_raw(format!("Content-Length: {}\r\n\r\n{raw}", raw.len()).as_bytes());
        let r = dap.read();
        assert_eq!(r["success"], false, "{r}");
        assert!(
            r["message"]
                .as_str()
                .unwrap()
                .starts_with("malformed message")
        );
    }
    dap.write_raw(b"Content-Type: text\r\n\r\n");
    let r = dap.read();
    assert_eq!(
        r["message"],
        "malformed message: a header without Content-Length"
    );
    let body = r#"{"seq": 40, "type": "request"}"#;
    dap.write_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let r = dap.response(40);
    assert_eq!(r["success"], false);
    let body = r#"{"seq": 41, "type": "request", "command": "launch", "arguments": 3}"#;
    dap.write_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    assert!(
        dap.response(41)["message"]
            .as_str()
            .unwrap()
            .contains("\"arguments\" must be an object")
    );
    assert_eq!(
        dap.error("fly", json!({})),
        "zeno dap does not support the request `fly`"
    );
    // Launch errors: a missing file, an unknown check, a bad expression.
    let file = model("fischer-buggy.zeno");
    assert!(
        dap.error("launch", json!({"program": "no/such.zeno"}))
            .starts_with("cannot read `no/such.zeno`")
    );
    assert_eq!(
        dap.error("launch", json!({"program": file, "check": "mutx"})),
        "no check named `mutx`: the model's checks are mutex, can_enter, no_deadlock"
    );
    assert!(
        dap.error("launch", json!({"program": file, "check": "no_deadlock"}))
            .starts_with("check `no_deadlock` has no trace to debug: ")
    );
    // Still serving: a good launch after the bad ones.
    dap.ok("launch", json!({"program": file, "check": "can_enter"}));
    dap.event("initialized");
    dap.ok("configurationDone", json!({}));
    dap.event("stopped");
    assert_eq!(
        dap.error("evaluate", json!({"expression": "id +"})),
        "expected an expression, found `)` (column 5 of the expression)"
    );
    dap.finish();
}
