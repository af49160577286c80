//! The language server end to end: a small JSON-RPC client talks to
//! `zeno::lsp::serve` over an in-memory duplex stream, with the same framing
//! as stdio.

use crate::support;

use serde_json::{Value, json};
use support::lsp_client::{TestClient, position};

const FISCHER_BUGGY: &str = include_str!("../../models/fischer-buggy.zeno");

fn find_diagnostic<'a>(params: &'a Value, needle: &str) -> &'a Value {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains(needle))
        .unwrap_or_else(|| panic!("no diagnostic with `{needle}` in {params}"))
}

fn diagnostic_at<'a>(params: &'a Value, start: &Value) -> &'a Value {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| &d["range"]["start"] == start)
        .unwrap_or_else(|| panic!("no diagnostic at {start} in {params}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buggy_fischer_is_violated_then_fixed() {
    let uri = "file:///models/fischer-buggy.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 20}})).await;
    c.open(uri, FISCHER_BUGGY).await;

    // The frontend's diagnostics come first, for version 1: a valid model has none.
    let first = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    assert_eq!(first["version"], 1);
    assert_eq!(first["diagnostics"], json!([]), "{first}");

    let done = c.diagnostics_when_quiescent(uri).await;
    assert_eq!(done["version"], 1);
    let mutex_at = position(
        FISCHER_BUGGY,
        FISCHER_BUGGY.find("check mutex:").unwrap() + 6,
    );
    let mutex = diagnostic_at(&done, &mutex_at);
    assert_eq!(mutex["severity"], 1, "{mutex}");
    let message = mutex["message"].as_str().unwrap();
    assert!(message.starts_with("violated: trace of "), "{message}");
    let related = mutex["relatedInformation"].as_array().unwrap();
    let steps: usize = message["violated: trace of ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(related.len(), steps);
    // Two processes need idle -> req -> wait -> cs each: at least 6 steps.
    assert!(steps >= 6, "{message}");
    for (i, r) in related.iter().enumerate() {
        let m = r["message"].as_str().unwrap();
        assert!(
            m.starts_with(&format!("step {} of {steps}: Proc(", i + 1)),
            "{m}"
        );
        assert_eq!(r["location"]["uri"], uri);
    }
    // The last step enters cs through the buggy edge `wait -> cs`.
    let buggy_edge = FISCHER_BUGGY.find("wait -> cs    when").unwrap();
    assert_eq!(
        related[steps - 1]["location"]["range"]["start"],
        position(FISCHER_BUGGY, buggy_edge)
    );
    // A hint at the edge of every step points back to the check.
    let hints: Vec<&Value> = done["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == 4)
        .collect();
    assert_eq!(hints.len(), steps, "{done}");
    for (h, r) in hints.iter().zip(related) {
        assert_eq!(h["range"], r["location"]["range"]);
        assert!(
            h["message"]
                .as_str()
                .unwrap()
                .starts_with(r["message"].as_str().unwrap())
        );
        assert_eq!(
            h["relatedInformation"][0]["location"]["range"]["start"],
            mutex_at
        );
    }
    let can_enter_at = position(
        FISCHER_BUGGY,
        FISCHER_BUGGY.find("check can_enter:").unwrap() + 6,
    );
    let can_enter = diagnostic_at(&done, &can_enter_at);
    assert_eq!(can_enter["severity"], 3);
    assert!(can_enter["message"].as_str().unwrap().starts_with("holds"));
    let r = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": mutex_at}),
        )
        .await;
    let hover = r["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        hover.starts_with("**check `mutex`**: invariant (A[])\n\nviolated: trace of 6 steps, "),
        "{hover}"
    );
    assert!(hover.ends_with(" states explored"), "{hover}");
    // No hover away from a check's name.
    let r = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
        )
        .await;
    assert_eq!(r["result"], Value::Null, "{r}");
    let no_deadlock_at = position(
        FISCHER_BUGGY,
        FISCHER_BUGGY.find("check no_deadlock:").unwrap() + 6,
    );
    let no_deadlock = diagnostic_at(&done, &no_deadlock_at);
    assert!(
        no_deadlock["message"]
            .as_str()
            .unwrap()
            .starts_with("holds")
    );

    // The structured trace.
    let r = c
        .request("zeno/errorTrace", json!({"uri": uri, "check": "mutex"}))
        .await;
    let trace = &r["result"];
    assert_eq!(trace["check"], "mutex", "{r}");
    assert_eq!(trace["verdict"], "violated");
    let trace_steps = trace["steps"].as_array().unwrap();
    assert_eq!(trace_steps.len(), steps);
    let initial_locations = &trace["initial"]["locations"];
    assert_eq!(
        initial_locations,
        &json!([{"name": "Proc(1)", "value": "idle"}, {"name": "Proc(2)", "value": "idle"},
                {"name": "Proc(3)", "value": "idle"}])
    );
    for s in trace_steps {
        assert_eq!(s["edges"].as_array().unwrap().len(), 1, "{s}");
        let delay = s["delay"].as_str().unwrap();
        assert!(
            delay.split('/').all(|p| p.parse::<u64>().is_ok()),
            "{delay}"
        );
        assert_eq!(s["after"]["clocks"].as_array().unwrap().len(), 3);
    }
    let last = &trace_steps[steps - 1];
    assert_eq!(last["edges"][0]["source"], "wait");
    assert_eq!(last["edges"][0]["target"], "cs");
    let locs = last["after"]["locations"].as_array().unwrap();
    let in_cs = locs.iter().filter(|l| l["value"] == "cs").count();
    assert_eq!(
        in_cs, 2,
        "the violating state has two processes in cs: {last}"
    );
    assert_eq!(trace["end"]["kind"], "goal");
    // Why it ends: the state breaks the `A[]` check, not "a goal".
    assert_eq!(trace["ending"]["kind"], "violation");
    assert_eq!(
        trace["why"],
        "the check's formula is false here, so `mutex` is violated"
    );

    // Fix the guard: `x >= K` becomes `x > K`.
    let ge = FISCHER_BUGGY.find("x >= K && id == pid").unwrap() + 2;
    let start = position(FISCHER_BUGGY, ge);
    let end = position(FISCHER_BUGGY, ge + 2);
    c.change(
        uri,
        2,
        json!([{"range": {"start": start, "end": end}, "text": ">"}]),
    )
    .await;
    // At once: no frontend errors, and the last verdicts, marked as being
    // re-checked (they stay until the new ones come).
    let fixed = c
        .wait_for("textDocument/publishDiagnostics", |p| p["version"] == 2)
        .await;
    let kept = fixed["diagnostics"].as_array().unwrap();
    assert_eq!(kept.len(), 3, "{fixed}");
    assert!(
        kept.iter().all(|d| d["code"] == "stale-check"
            && d["message"].as_str().unwrap().ends_with(" (re-checking…)")),
        "{fixed}"
    );
    let done = c.diagnostics_when_quiescent(uri).await;
    assert_eq!(done["version"], 2);
    let mutex = diagnostic_at(&done, &mutex_at);
    assert_eq!(mutex["severity"], 3, "{mutex}");
    assert!(
        mutex["message"].as_str().unwrap().starts_with("holds"),
        "{mutex}"
    );
    assert!(mutex.get("relatedInformation").is_none_or(Value::is_null));
    let r = c
        .request("zeno/errorTrace", json!({"uri": uri, "check": "mutex"}))
        .await;
    assert_eq!(r["result"], Value::Null, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breadth_first_finds_the_shortest_counterexample() {
    // The model's header: `expect mutex: fails shortest 6`.
    let uri = "file:///fischer.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"search": "bfs", "debounceMs": 0}))
        .await;
    c.open(uri, FISCHER_BUGGY).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    let mutex = find_diagnostic(&done, "violated");
    assert!(
        mutex["message"]
            .as_str()
            .unwrap()
            .starts_with("violated: trace of 6 steps"),
        "{mutex}"
    );
    assert_eq!(mutex["relatedInformation"].as_array().unwrap().len(), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn semantic_errors_after_non_ascii_text() {
    let uri = "file:///bad.zeno";
    let text = "// ÿ 日本 😀\nint a = /* ÿ😀 */ 1; int c = nope;\n";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, text).await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    // `nope` is on line 1 at UTF-16 column 29: "int a = /* " (11) + "ÿ" (1)
    // + "😀" (2) + " */ 1; int c = " (15); it is 4 units long.
    let nope = find_diagnostic(&d, "unknown name `nope`");
    assert_eq!(nope["range"]["start"], json!({"line": 1, "character": 29}));
    assert_eq!(nope["range"]["end"], json!({"line": 1, "character": 33}));
    assert_eq!(nope["severity"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edits_apply_in_version_order() {
    let uri = "file:///order.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, "int a;\n").await;
    let first = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    assert_eq!(first["version"], 1);
    // Version 2 turns `a` into `bca`; version 3 replaces `bca` with `ok`.
    // Sent in reverse order; applied in order they give `int ok;`, while
    // version 3 applied first would leave `int bcok` (a syntax error).
    let r = |l0: u32, c0: u32, l1: u32, c1: u32| json!({"start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}});
    c.change(uri, 3, json!([{"range": r(0, 4, 0, 7), "text": "ok"}]))
        .await;
    c.change(uri, 2, json!([{"range": r(0, 4, 0, 4), "text": "bc"}]))
        .await;
    let after = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    assert_eq!(after["version"], 3, "{after}");
    // The only diagnostic of `int ok;` is that `ok` (columns 4..6) is unused.
    let diagnostics = after["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{after}");
    assert_eq!(diagnostics[0]["message"], "variable `ok` is never used");
    assert_eq!(
        diagnostics[0]["range"],
        json!({"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 6}})
    );
    // A version not above the last one (2 after 3) is no longer dropped,
    // leaving the old diagnostics: the client renumbered, and its whole
    // text replaces the server's (logged; tests/it/lsp_resync.rs).
    c.change(uri, 2, json!([{"text": "int garbage;\n"}])).await;
    let after = c
        .wait_for("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri && p["version"] == 2
        })
        .await;
    let messages: Vec<&str> = after["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages, ["variable `garbage` is never used"], "{after}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_do_not_kill_the_server() {
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0})).await;

    let r = c.request("zeno/noSuchMethod", json!({})).await;
    assert_eq!(r["error"]["code"], -32601, "{r}");

    let r = c
        .request(
            "zeno/errorTrace",
            json!({"uri": "file:///closed.zeno", "check": "mutex"}),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");

    // Notifications about a closed document and malformed parameters.
    c.change("file:///closed.zeno", 2, json!([{"text": "int a;"}]))
        .await;
    c.notify("textDocument/didOpen", json!({"textDocument": 7}))
        .await;
    // A body that is not JSON gets a parse error without an id; a request
    // whose params are not structured gets an invalid-request error with
    // its id (JSON-RPC 2.0).
    c.write_raw("{ this is not json").await;
    let parse_error = loop {
        let msg = c.next_message().await;
        if msg.get("error").is_some() && msg["id"].is_null() {
            break msg;
        }
    };
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    c.write_raw(r#"{"jsonrpc":"2.0","id":99,"method":"zeno/errorTrace","params":7}"#)
        .await;
    let answer = loop {
        let msg = c.next_message().await;
        if msg["id"] == 99 {
            break msg;
        }
    };
    assert_eq!(answer["error"]["code"], -32600, "{answer}");

    // Still alive: an unknown check of an open document is a proper error.
    let uri = "file:///ok.zeno";
    c.open(uri, FISCHER_BUGGY).await;
    let r = c
        .request("zeno/errorTrace", json!({"uri": uri, "check": "nope"}))
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    c.diagnostics_when_quiescent(uri).await;
    let r = c.request("shutdown", Value::Null).await;
    assert_eq!(r["result"], Value::Null, "{r}");
}

/// Waits until the server is quiescent with results for `version`.
async fn quiescent_at(c: &mut TestClient, uri: &str, version: i32) -> Value {
    loop {
        let d = c.diagnostics_when_quiescent(uri).await;
        if d["version"] == version {
            return d;
        }
    }
}

fn mutex_message(d: &Value) -> Option<String> {
    d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "check" && d["range"]["start"]["line"] == 47)
        .map(|d| d["message"].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_edit_supersedes_a_running_check() {
    let uri = "file:///race.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0})).await;
    c.open(uri, FISCHER_BUGGY).await;
    // Fix the bug right away, while version 1 may still be checking.
    let ge = FISCHER_BUGGY.find("x >= K && id == pid").unwrap() + 2;
    let (start, end) = (position(FISCHER_BUGGY, ge), position(FISCHER_BUGGY, ge + 2));
    c.change(
        uri,
        2,
        json!([{"range": {"start": start, "end": end}, "text": ">"}]),
    )
    .await;
    let d = quiescent_at(&mut c, uri, 2).await;
    // `check mutex` is on line 47 (0-based) of the model.
    let m = mutex_message(&d).expect("a result for mutex");
    assert!(m.starts_with("holds"), "{d}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_on_save_and_configuration_changes() {
    let uri = "file:///save.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"checkOn": "save", "debounceMs": 0}}))
        .await;
    // Opening always checks.
    c.open(uri, FISCHER_BUGGY).await;
    let d = quiescent_at(&mut c, uri, 1).await;
    assert!(mutex_message(&d).unwrap().starts_with("violated"), "{d}");

    // An edit only re-analyses: version 2 is published with the last
    // verdicts, marked as not re-checked.
    c.change(
        uri,
        2,
        json!([{"text": FISCHER_BUGGY.replace("x >= K &&", "x > K &&")}]),
    )
    .await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["version"] == 2)
        .await;
    let kept = d["diagnostics"].as_array().unwrap();
    assert_eq!(kept.len(), 3, "{d}");
    assert!(
        kept.iter().all(|d| d["message"]
            .as_str()
            .unwrap()
            .ends_with(" (not re-checked since the last edit: checks run on save)")),
        "{d}"
    );

    // Saving checks it.
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    )
    .await;
    let d = quiescent_at(&mut c, uri, 2).await;
    assert!(mutex_message(&d).unwrap().starts_with("holds"), "{d}");

    // Back to checking on change, with breadth-first search.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"zeno": {"checkOn": "change", "search": "bfs"}}}),
    )
    .await;
    // New settings re-check the open document (still the fixed version 2).
    let d = quiescent_at(&mut c, uri, 2).await;
    assert!(mutex_message(&d).unwrap().starts_with("holds"), "{d}");
    c.change(uri, 3, json!([{"text": FISCHER_BUGGY}])).await;
    let d = quiescent_at(&mut c, uri, 3).await;
    let m = mutex_message(&d).unwrap();
    assert!(m.starts_with("violated: trace of 6 steps"), "{m}");
}

/// What the client saw of one check job's `$/progress`.
struct JobProgress {
    /// Every token in the order it was created, with its values in order.
    tokens: Vec<(Value, Vec<Value>)>,
    /// The diagnostics published last before quiescence.
    diagnostics: Value,
}

impl JobProgress {
    /// The values of the token whose `begin` title names `check`.
    fn of(&self, check: &str) -> &[Value] {
        let title = format!("zeno: checking {check}");
        let found = self
            .tokens
            .iter()
            .filter(|(_, v)| v.first().is_some_and(|b| b["title"] == title.as_str()))
            .collect::<Vec<_>>();
        assert_eq!(found.len(), 1, "one token for {check}: {:?}", self.tokens);
        &found[0].1
    }
}

/// Accepts every progress token the server creates and records its
/// `$/progress` until the server is quiescent with results for `version`.
/// `cancel_if(title, report)` is asked about every report; when it says yes,
/// the client presses that token's cancel button (once).
async fn follow_progress(
    c: &mut TestClient,
    uri: &str,
    version: i32,
    mut cancel_if: impl FnMut(&str, &Value) -> bool,
) -> JobProgress {
    let mut tokens: Vec<(Value, Vec<Value>)> = Vec::new();
    let mut cancelled: Vec<Value> = Vec::new();
    let mut last: Option<Value> = None;
    loop {
        let msg = c.next_pending().await;
        match msg["method"].as_str() {
            Some("window/workDoneProgress/create") if msg.get("id").is_some() => {
                tokens.push((msg["params"]["token"].clone(), Vec::new()));
                c.respond(&msg["id"], Value::Null).await;
            }
            Some("$/progress") => {
                let token = msg["params"]["token"].clone();
                if !tokens.iter().any(|(t, _)| *t == token) {
                    tokens.push((token.clone(), Vec::new()));
                }
                let (_, values) = tokens.iter_mut().find(|(t, _)| *t == token).unwrap();
                let value = msg["params"]["value"].clone();
                let title = values
                    .first()
                    .and_then(|b| b["title"].as_str())
                    .unwrap_or_default()
                    .to_string();
                values.push(value.clone());
                if value["kind"] == "report"
                    && !cancelled.contains(&token)
                    && cancel_if(&title, &value)
                {
                    c.notify("window/workDoneProgress/cancel", json!({"token": token}))
                        .await;
                    cancelled.push(token);
                }
            }
            Some("textDocument/publishDiagnostics") if msg["params"]["uri"] == uri => {
                last = Some(msg["params"].clone());
            }
            Some("zeno/serverStatus") if msg["params"]["quiescent"] == true => {
                if let Some(d) = last.take().filter(|d| d["version"] == version) {
                    return JobProgress {
                        tokens,
                        diagnostics: d,
                    };
                }
            }
            _ => {}
        }
    }
}

/// The explored-state counts of a token's reports (`N states explored`).
fn reported_counts(values: &[Value]) -> Vec<u64> {
    values
        .iter()
        .filter(|v| v["kind"] == "report")
        .map(|v| {
            let m = v["message"].as_str().unwrap();
            m.strip_suffix(" states explored")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("a report `{m}`"))
        })
        .collect()
}

/// The message of the diagnostic on `check NAME:` in `text`.
fn check_message(d: &Value, text: &str, name: &str) -> String {
    let at = position(text, text.find(&format!("check {name}:")).unwrap() + 6);
    diagnostic_at(d, &at)["message"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn start_with_progress(options: Value) -> TestClient {
    let mut c = TestClient::start().await;
    let r = c
        .request(
            "initialize",
            json!({"capabilities": {"window": {"workDoneProgress": true}},
                   "initializationOptions": options}),
        )
        .await;
    assert!(r["result"].is_object(), "{r}");
    c.notify("initialized", json!({})).await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_per_check_and_its_cancel_button() {
    let uri = "file:///progress.zeno";
    let text = FISCHER_BUGGY;
    let mut c = start_with_progress(json!({"debounceMs": 0})).await;
    c.open(uri, text).await;

    // Every check reports under its own token, from begin to end, and its
    // end message is the verdict its diagnostic shows.
    let job = follow_progress(&mut c, uri, 1, |_, _| false).await;
    assert_eq!(job.tokens.len(), 3, "{:?}", job.tokens);
    for name in ["mutex", "can_enter", "no_deadlock"] {
        let values = job.of(name);
        assert_eq!(values[0]["kind"], "begin", "{values:?}");
        assert_eq!(values[0]["cancellable"], true, "{values:?}");
        let end = values.last().unwrap();
        assert_eq!(end["kind"], "end", "{values:?}");
        assert!(
            values[1..values.len() - 1]
                .iter()
                .all(|v| v["kind"] == "report"),
            "{values:?}"
        );
        // Reports count the explored states, starting from 0, never down.
        let counts = reported_counts(values);
        assert_eq!(counts.first(), Some(&0), "{values:?}");
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{values:?}");
        assert_eq!(
            end["message"].as_str().unwrap(),
            check_message(&job.diagnostics, text, name)
        );
    }
    assert!(check_message(&job.diagnostics, text, "mutex").starts_with("violated"));
    assert!(check_message(&job.diagnostics, text, "can_enter").starts_with("holds"));
    assert!(check_message(&job.diagnostics, text, "no_deadlock").starts_with("holds"));

    // The user presses the cancel button of `mutex` while its token is being
    // created: only `mutex` is cancelled, the other checks still run.
    c.change(uri, 2, json!([{"text": text}])).await;
    let create = c.wait_for_request("window/workDoneProgress/create").await;
    let token = create["params"]["token"].clone();
    c.notify("window/workDoneProgress/cancel", json!({"token": token}))
        .await;
    // A round trip after the cancel notification, so that it has been handled.
    let r = c
        .request("zeno/errorTrace", json!({"uri": uri, "check": "mutex"}))
        .await;
    assert_eq!(r["result"], Value::Null, "{r}");
    c.respond(&create["id"], Value::Null).await;
    let job = follow_progress(&mut c, uri, 2, |_, _| false).await;
    let d = &job.diagnostics;
    let m = check_message(d, text, "mutex");
    assert!(m.starts_with("unknown: cancelled"), "{m}");
    assert!(
        check_message(d, text, "can_enter").starts_with("holds"),
        "{d}"
    );
    assert!(
        check_message(d, text, "no_deadlock").starts_with("holds"),
        "{d}"
    );
    let can_enter = job.of("can_enter");
    assert_ne!(token, job.tokens.last().unwrap().0);
    assert!(
        can_enter.last().unwrap()["message"]
            .as_str()
            .unwrap()
            .starts_with("holds")
    );
}

/// Two counters of 0..=30000 each: about 9 * 10^8 states.
const TWO_COUNTERS: &str = "\
const int M = 30000;
int[0, M] a = 0;
int[0, M] b = 0;

template CountA() {
    init location l;
    l -> l when a < M do a = a + 1;
}

template CountB() {
    init location l;
    l -> l when b < M do b = b + 1;
}

system CountA, CountB;

// Fails only at a == b == M, after the whole state space: only a cancel
// stops it in a test.
check endless: A[] !(a == M && b == M);
// Breadth-first: the states with a + b < 120 first (at most 7,260), then
// the witness of 60 + 60 = 120 steps.
check both_60: E<> a == 60 && b == 60;
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_one_running_check_lets_the_next_finish() {
    let uri = "file:///counters.zeno";
    let text = TWO_COUNTERS;
    let mut c = start_with_progress(json!({"debounceMs": 0, "search": "bfs"})).await;
    c.open(uri, text).await;
    // Cancel `endless` once it has explored states (its first report is
    // sent with 0, before the search starts).
    let job = follow_progress(&mut c, uri, 1, |title, report| {
        title == "zeno: checking endless" && report["message"] != "0 states explored"
    })
    .await;
    assert_eq!(job.tokens.len(), 2, "{:?}", job.tokens);
    let endless = job.of("endless");
    assert!(
        endless
            .iter()
            .any(|v| v["kind"] == "report" && v["message"] != "0 states explored"),
        "{endless:?}"
    );
    let end = endless.last().unwrap()["message"].as_str().unwrap();
    let after: u64 = end
        .strip_prefix("unknown: cancelled after ")
        .and_then(|r| r.strip_suffix(" states explored"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{end}"));
    // It stopped after the states it had reported.
    assert!(
        after >= *reported_counts(endless).last().unwrap(),
        "{endless:?}"
    );
    assert_eq!(end, check_message(&job.diagnostics, text, "endless"));

    let both = job.of("both_60");
    let end = both.last().unwrap()["message"].as_str().unwrap();
    assert!(end.starts_with("holds: witness of 120 steps, "), "{end}");
    assert_eq!(end, check_message(&job.diagnostics, text, "both_60"));
}

/// The frontend's diagnostics of a text as the server should publish them,
/// computed by a fresh analysis and the test's own position conversion.
fn expected_diagnostics(text: &str) -> Vec<Value> {
    zeno::semantics::analyze(text)
        .diagnostics
        .iter()
        .map(|d| {
            let severity = match d.severity {
                zeno::diagnostics::Severity::Error => 1,
                zeno::diagnostics::Severity::Warning => 2,
                zeno::diagnostics::Severity::Info => 3,
                zeno::diagnostics::Severity::Hint => 4,
            };
            json!({
                "message": d.message,
                "severity": severity,
                "start": position(text, d.range.start as usize),
                "end": position(text, d.range.end as usize),
                "related": d.related.len(),
            })
        })
        .collect()
}

fn published(d: &Value) -> Vec<Value> {
    d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            json!({
                "message": d["message"],
                "severity": d["severity"],
                "start": d["range"]["start"],
                "end": d["range"]["end"],
                "related": d["relatedInformation"].as_array().map_or(0, Vec::len),
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_quick_random_edits_end_in_a_fresh_analysis() {
    use rand::{Rng, SeedableRng};
    let uri = "file:///stress.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    let mut text = FISCHER_BUGGY.to_string();
    c.open(uri, &text).await;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let pieces = [
        "x", " ", "\n", ";", "}", "{", "é", "😀", "int ", "->", "// ÿ",
    ];
    let edits = 1500;
    let mut request_ids = Vec::new();
    for version in 2..edits + 2 {
        // A random char-aligned range, replaced by a random piece (or nothing).
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        let a = bounds[rng.random_range(0..bounds.len())];
        let b = bounds[rng.random_range(0..bounds.len())].min(a + 8).max(a);
        let b = *bounds.iter().find(|&&x| x >= b).unwrap();
        let new = if rng.random_bool(0.4) {
            ""
        } else {
            pieces[rng.random_range(0..pieces.len())]
        };
        let range = json!({"start": position(&text, a), "end": position(&text, b)});
        text.replace_range(a..b, new);
        let msg = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": range, "text": new}]}});
        c.write(msg).await;
        if version % 100 == 0 {
            let id = 10_000 + version as i64;
            c.write(
                json!({"jsonrpc": "2.0", "id": id, "method": "zeno/errorTrace",
                "params": {"uri": uri, "check": "mutex"}}),
            )
            .await;
            request_ids.push(id);
        }
    }
    let last_version = edits + 1;
    // Every request is answered, and the last version's diagnostics match a
    // fresh analysis of the final text.
    let mut answered = Vec::new();
    let mut final_diagnostics = None;
    while answered.len() < request_ids.len() || final_diagnostics.is_none() {
        let msg = c.next_message().await;
        if let Some(id) = msg.get("id").and_then(Value::as_i64)
            && msg.get("method").is_none()
        {
            assert!(msg.get("result").is_some() || msg.get("error").is_some());
            answered.push(id);
        }
        if msg["method"] == "textDocument/publishDiagnostics"
            && msg["params"]["version"] == last_version
        {
            final_diagnostics = Some(msg["params"].clone());
        }
    }
    answered.sort();
    assert_eq!(answered, request_ids);
    let d = final_diagnostics.unwrap();
    assert_eq!(published(&d), expected_diagnostics(&text));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_lenses_and_stepping_through_a_trace() {
    let uri = "file:///lenses.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0, "search": "bfs"}))
        .await;
    c.open(uri, FISCHER_BUGGY).await;
    quiescent_at(&mut c, uri, 1).await;

    let r = c
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let lenses = r["result"].as_array().unwrap().clone();
    let mutex_at = position(
        FISCHER_BUGGY,
        FISCHER_BUGGY.find("check mutex:").unwrap() + 6,
    );
    let titles: Vec<&str> = lenses
        .iter()
        .filter(|l| l["range"]["start"] == mutex_at)
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "✗ violated — trace of 6 steps",
            "Show trace",
            "Step through"
        ],
        "{r}"
    );
    let no_deadlock_at = position(
        FISCHER_BUGGY,
        FISCHER_BUGGY.find("check no_deadlock:").unwrap() + 6,
    );
    let titles: Vec<&str> = lenses
        .iter()
        .filter(|l| l["range"]["start"] == no_deadlock_at)
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["✓ holds"]);

    let s = run(&mut c, uri, "zeno.trace.show").await;
    assert_eq!(s["result"]["step"], 1, "{s}");
    assert_eq!(s["result"]["total"], 6);
    assert_eq!(s["result"]["edges"][0]["source"], "idle");
    assert_eq!(s["result"]["edges"][0]["target"], "req");
    // An inlay hint after the edge of step 1 shows the state after it.
    let r = c
        .request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": uri}, "range": {
                "start": {"line": 0, "character": 0}, "end": {"line": 1000, "character": 0}}}),
        )
        .await;
    let hints = r["result"].as_array().unwrap();
    assert_eq!(hints.len(), 1, "{r}");
    let edge = FISCHER_BUGGY.find("idle -> req   when").unwrap();
    let edge_end = edge + FISCHER_BUGGY[edge..].find(';').unwrap() + 1;
    assert_eq!(hints[0]["position"], position(FISCHER_BUGGY, edge_end));
    let label = hints[0]["label"].as_str().unwrap();
    assert!(label.starts_with("step 1 of 6: id = 0, "), "{label}");
    assert!(label.contains("Proc(1).x = 0"), "{label}");
    let s = run(&mut c, uri, "zeno.trace.prev").await;
    assert_eq!(s["result"]["step"], 1, "stays at the first step: {s}");
    for expected in 2..=6 {
        let s = run(&mut c, uri, "zeno.trace.next").await;
        assert_eq!(s["result"]["step"], expected, "{s}");
    }
    let s = run(&mut c, uri, "zeno.trace.next").await;
    assert_eq!(s["result"]["step"], 6, "stays at the last step: {s}");
    let cs = s["result"]["after"]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["value"] == "cs")
        .count();
    assert_eq!(cs, 2);
    let s = run(&mut c, uri, "zeno.trace.prev").await;
    assert_eq!(s["result"]["step"], 5);

    // While stepping, every edge of the trace carries its step numbers:
    // the shortest trace takes idle -> req twice, req -> wait twice and
    // wait -> cs twice.
    let r = c
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let step_titles: Vec<&str> = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .filter(|t| t.starts_with("step"))
        .collect();
    assert_eq!(step_titles.len(), 3, "{r}");
    let mut numbers: Vec<u32> = step_titles
        .iter()
        .flat_map(|t| {
            // The last step's edge also says how the trace ends:
            // `step 6 · violation`.
            let numbers = t.split(" · ").next().unwrap();
            numbers
                .trim_start_matches("steps ")
                .trim_start_matches("step ")
                .split(", ")
                .map(|n| n.parse::<u32>().unwrap())
        })
        .collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    let ends: Vec<&&str> = step_titles
        .iter()
        .filter(|t| t.ends_with(" · violation"))
        .collect();
    assert_eq!(
        ends.len(),
        1,
        "the last step's edge says how it ends: {step_titles:?}"
    );

    let r = c
        .request(
            "workspace/executeCommand",
            json!({"command": "zeno.trace.show", "arguments": [{"uri": uri, "check": "no_deadlock"}]}),
        )
        .await;
    assert_eq!(
        r["error"]["code"], -32602,
        "no trace for a holding invariant: {r}"
    );
}

async fn run(c: &mut TestClient, uri: &str, command: &str) -> Value {
    let params = json!({"command": command, "arguments": [{"uri": uri, "check": "mutex"}]});
    c.request("workspace/executeCommand", params).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outline_of_a_model() {
    let uri = "file:///outline.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, FISCHER_BUGGY).await;
    let r = c
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let symbols = r["result"].as_array().unwrap();
    let names: Vec<&str> = symbols
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "N",
            "K",
            "pid_t",
            "id",
            "Proc",
            "mutex",
            "can_enter",
            "no_deadlock"
        ],
        "{r}"
    );
    let at = |needle: &str, skip: usize| {
        position(FISCHER_BUGGY, FISCHER_BUGGY.find(needle).unwrap() + skip)
    };
    let proc_ = &symbols[4];
    assert_eq!(proc_["selectionRange"]["start"], at("template Proc", 9));
    let children: Vec<(&str, &Value)> = proc_["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), &s["selectionRange"]["start"]))
        .collect();
    let expected = [
        ("pid", at("const pid_t pid", 12)),
        ("x", at("clock x;", 6)),
        ("idle", at("init location idle", 14)),
        ("req", at("location req ", 9)),
        ("wait", at("location wait", 9)),
        ("cs", at("location cs", 9)),
    ];
    assert_eq!(children.len(), expected.len(), "{proc_}");
    for ((name, start), (want, want_start)) in children.iter().zip(&expected) {
        assert_eq!(name, want);
        assert_eq!(*start, want_start, "{name}");
    }
    assert_eq!(symbols[5]["selectionRange"]["start"], at("check mutex", 6));

    // Semantic tokens: the first one is the opening comment, a whole line
    // (type 7 in the legend announced by initialize).
    let r = c
        .request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let data = r["result"]["data"].as_array().unwrap();
    assert_eq!(data.len() % 5, 0);
    let first_line = FISCHER_BUGGY.lines().next().unwrap();
    assert_eq!(
        data[..5],
        [0, 0, first_line.len(), 7, 0].map(|n| json!(n)),
        "{r}"
    );

    // Workspace symbols: every open document, matched by substring.
    let r = c.request("workspace/symbol", json!({"query": "i"})).await;
    let mut found: Vec<(String, String)> = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["containerName"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    found.sort();
    let expected = [
        ("id", ""),
        ("idle", "Proc"),
        ("pid", "Proc"),
        ("pid_t", ""),
        ("wait", "Proc"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(found, expected, "{r}");

    // The template folds from its first line to its closing brace.
    let r = c
        .request(
            "textDocument/foldingRange",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let folds = r["result"].as_array().unwrap();
    assert_eq!(folds.len(), 1, "{r}");
    let template = FISCHER_BUGGY.find("template Proc").unwrap();
    let close = template + FISCHER_BUGGY[template..].find("\n}").unwrap() + 1;
    assert_eq!(
        folds[0]["startLine"],
        position(FISCHER_BUGGY, template)["line"]
    );
    assert_eq!(folds[0]["endLine"], position(FISCHER_BUGGY, close)["line"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_to_definition() {
    let uri = "file:///definition.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, FISCHER_BUGGY).await;
    let text = FISCHER_BUGGY;
    let at = |needle: &str, skip: usize| position(text, text.find(needle).unwrap() + skip);
    // (where the name is used, where it is declared)
    let cases = [
        // `K` in a template's invariant: the global constant.
        (at("invariant x <= K", 15), at("const int K", 10)),
        // `x` in a guard: the template's clock.
        (at("when x <= K ", 5), at("clock x;", 6)),
        // `pid` in an update: the template's parameter.
        (at("id = pid;", 5), at("const pid_t pid", 12)),
        // A location in an edge.
        (at("wait -> cs    when", 8), at("location cs", 9)),
        // A location after `Proc(1).` in a check.
        (at("Proc(2).cs)", 8), at("location cs", 9)),
        // A template in the system line.
        (at("system Proc", 7), at("template Proc", 9)),
        // `pid_t` in a parameter type: the typedef.
        (at("const pid_t pid", 6), at("] pid_t;", 2)),
    ];
    for (used, declared) in cases {
        let r = c
            .request(
                "textDocument/definition",
                json!({"textDocument": {"uri": uri}, "position": used}),
            )
            .await;
        assert_eq!(r["result"]["uri"], uri, "{used}: {r}");
        assert_eq!(r["result"]["range"]["start"], declared, "{used}: {r}");
    }
    // Nothing to go to from a keyword or a number.
    for nowhere in [at("system Proc", 2), at("const int N = 3", 14)] {
        let r = c
            .request(
                "textDocument/definition",
                json!({"textDocument": {"uri": uri}, "position": nowhere}),
            )
            .await;
        assert_eq!(r["result"], Value::Null, "{nowhere}: {r}");
    }
}

fn labels(r: &Value) -> Vec<String> {
    r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"))
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completion_of_names_in_scope() {
    let uri = "file:///complete.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    // A check being typed, right after the dot.
    let text = format!("{FISCHER_BUGGY}check t: E<> Proc(1).");
    c.open(uri, &text).await;
    let complete = |p: Value| json!({"textDocument": {"uri": uri}, "position": p});
    let r = c
        .request(
            "textDocument/completion",
            complete(position(&text, text.len())),
        )
        .await;
    assert_eq!(labels(&r), ["idle", "req", "wait", "cs"]);

    // In a guard inside the template: its own values first, then the
    // global ones and the keywords of expressions; no locations, types,
    // templates or declaration keywords.
    let guard = text.find("when x <= K ").unwrap() + 5;
    let r = c
        .request("textDocument/completion", complete(position(&text, guard)))
        .await;
    let inside = labels(&r);
    assert_eq!(inside[..5], ["pid", "x", "N", "K", "id"]);
    for gone in ["idle", "pid_t", "Proc", "deadlock", "template"] {
        assert!(!inside.iter().any(|l| l == gone), "{gone}: {inside:?}");
    }
    assert!(inside.iter().any(|l| l == "forall"));

    // Outside it: no template-local names.
    let top = text.find("int[0, N] id").unwrap();
    let r = c
        .request("textDocument/completion", complete(position(&text, top)))
        .await;
    let outside = labels(&r);
    assert!(outside.iter().any(|l| l == "K"));
    assert!(
        !outside.iter().any(|l| l == "pid" || l == "idle"),
        "{outside:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn references_and_rename() {
    let uri = "file:///rename.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, FISCHER_BUGGY).await;
    let text = FISCHER_BUGGY;
    let at = |needle: &str, skip: usize| position(text, text.find(needle).unwrap() + skip);

    // `K` is used in the invariant, both clock guards and declared once;
    // the mentions in comments are not references.
    let r = c
        .request(
            "textDocument/references",
            json!({"textDocument": {"uri": uri}, "position": at("when x <= K ", 10),
                   "context": {"includeDeclaration": true}}),
        )
        .await;
    let starts: Vec<&Value> = r["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["range"]["start"])
        .collect();
    let expected = [
        at("const int K", 10),
        at("invariant x <= K", 15),
        at("when x <= K ", 10),
        at("x >= K &&", 5),
    ];
    assert_eq!(starts, expected.iter().collect::<Vec<_>>(), "{r}");
    let r = c
        .request(
            "textDocument/references",
            json!({"textDocument": {"uri": uri}, "position": at("when x <= K ", 10),
                   "context": {"includeDeclaration": false}}),
        )
        .await;
    assert_eq!(r["result"].as_array().unwrap().len(), 3, "{r}");

    // Renaming `id` edits its declaration and its five uses in edges.
    let r = c
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri}, "position": at("int[0, N] id", 10),
                   "newName": "owner"}),
        )
        .await;
    let edits = r["result"]["changes"][uri].as_array().unwrap();
    assert_eq!(edits.len(), 6, "{r}");
    let mut renamed = text.to_string();
    let mut offsets: Vec<(usize, usize)> = edits
        .iter()
        .map(|e| {
            let line = e["range"]["start"]["line"].as_u64().unwrap() as usize;
            let col = e["range"]["start"]["character"].as_u64().unwrap() as usize;
            let line_start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
            assert_eq!(e["newText"], "owner");
            (line_start + col, 2)
        })
        .collect();
    offsets.sort();
    for (start, len) in offsets.into_iter().rev() {
        assert_eq!(&renamed[start..start + len], "id");
        renamed.replace_range(start..start + len, "owner");
    }
    assert!(renamed.contains("when owner == 0"));
    assert!(renamed.contains("x = 0, owner = pid;"));
    assert!(
        renamed.contains("written its id"),
        "comments are left alone"
    );

    // Conflicts and bad names are refused.
    for bad in ["K", "when", "9lives"] {
        let r = c
            .request(
                "textDocument/rename",
                json!({"textDocument": {"uri": uri}, "position": at("clock x;", 6),
                       "newName": bad}),
            )
            .await;
        assert_eq!(r["error"]["code"], -32602, "{bad}: {r}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn formatting_gives_the_formatter_output() {
    let uri = "file:///format.zeno";
    let messy = "const int  K=2;\nint[0,K] v   = 0;\ntemplate P() {\n  clock x;\ninit location a;\n  a->a when x>=K do x=0,v=1;\n}\nsystem P;\n";
    let expected = zeno::fmt::format(messy).expect("the test model parses");
    assert_ne!(expected, messy, "the test model must need formatting");
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, messy).await;
    let r = c
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .await;
    let edits = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
    assert_eq!(edits.len(), 1, "{r}");
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(edits[0]["range"]["end"], position(messy, messy.len()));
    assert_eq!(edits[0]["newText"], expected);

    // Formatted text needs no edit; a syntax error gets none (and no crash).
    c.change(uri, 2, json!([{"text": expected}])).await;
    let r = c
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .await;
    assert_eq!(r["result"], json!([]), "{r}");
    c.change(uri, 3, json!([{"text": "template P( {"}])).await;
    let r = c
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .await;
    assert_eq!(r["result"], json!([]), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_over_names() {
    let uri = "file:///hover.zeno";
    let text = FISCHER_BUGGY;
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, text).await;
    c.wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    let at = |needle: &str, skip: usize| position(text, text.find(needle).unwrap() + skip);
    let cases = [
        // A global variable: its type and range (`int[0, N]` with N = 3).
        (at("when id == 0", 6), "int[0, 3]"),
        // A constant: its value.
        (at("invariant x <= K", 15), "K = 2"),
        (at("int[1, N]", 7), "N = 3"),
        // A typedef: its range evaluated.
        (at("pid_t pid", 0), "`pid_t = int[1, 3]`"),
        // A location: its invariant.
        (at("idle -> req   when", 8), "invariant: `x <= K`"),
        (at("req  -> wait  when", 8), "no invariant"),
        // A template: its parameters.
        (at("system Proc", 7), "template Proc(const pid_t pid)"),
        // A parameter.
        (at("id = pid;", 5), "const pid_t pid"),
    ];
    for (pos, needle) in cases {
        let r = c
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": pos}),
            )
            .await;
        let value = r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(value.contains(needle), "{pos}: `{needle}` not in {r}");
    }
    let r = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": at("system Proc", 2)}),
        )
        .await;
    assert_eq!(r["result"], Value::Null, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signature_help_for_instantiation() {
    let uri = "file:///signature.zeno";
    // Non-ASCII before the calls: UTF-16 columns differ from byte offsets.
    let text = "// é → 𝄞\ntemplate Proc(const int a, const int b) {\n  init location l;\n}\nP1 = Proc(/* 𝄞, é */ 1, 2);\nsystem P1;\n";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, text).await;
    let help =
        |offset: usize| json!({"textDocument": {"uri": uri}, "position": position(text, offset)});
    let open = text.find("Proc(/*").unwrap() + 5;
    let one = text.find("1, 2").unwrap();
    // Just after `(`, inside the comment, after it (its comma does not
    // count), on `1`, after the comma, on `2`.
    let cases = [
        (open, 0),
        (open + 3, 0),
        (one, 0),
        (one + 1, 0),
        (one + 2, 1),
        (one + 4, 1),
    ];
    for (offset, active) in cases {
        let r = c.request("textDocument/signatureHelp", help(offset)).await;
        let s = &r["result"]["signatures"][0];
        assert_eq!(s["label"], "Proc(const int a, const int b)", "{r}");
        assert_eq!(
            s["parameters"],
            json!([{"label": "const int a"}, {"label": "const int b"}]),
            "{r}"
        );
        assert_eq!(r["result"]["activeParameter"], active, "at {offset}: {r}");
    }
    // Outside an argument list: nothing.
    let r = c
        .request(
            "textDocument/signatureHelp",
            help(text.find("system").unwrap()),
        )
        .await;
    assert_eq!(r["result"], Value::Null, "{r}");

    // Incomplete code at the end of the text: the second argument is next.
    let text = format!("{text}P2 = Proc(1, ");
    c.change(uri, 2, json!([{"text": text}])).await;
    let r = c
        .request(
            "textDocument/signatureHelp",
            json!({"textDocument": {"uri": uri}, "position": position(&text, text.len())}),
        )
        .await;
    assert_eq!(
        r["result"]["signatures"][0]["label"], "Proc(const int a, const int b)",
        "{r}"
    );
    assert_eq!(r["result"]["activeParameter"], 1, "{r}");
}

/// The message on `check mutex:` of Fischer (buggy) once quiescent at `version`.
async fn fischer_mutex_at(c: &mut TestClient, uri: &str, version: i32) -> String {
    let d = quiescent_at(c, uri, version).await;
    check_message(&d, FISCHER_BUGGY, "mutex")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_and_heuristic_from_settings() {
    let uri = "file:///limits.zeno";
    let mut c = TestClient::start().await;
    // A state limit from initializationOptions: breadth-first needs 6 steps
    // for `mutex`, far more than 3 explored states.
    c.initialize(json!({"debounceMs": 0, "search": "bfs", "maxStates": 3}))
        .await;
    c.open(uri, FISCHER_BUGGY).await;
    let m = fischer_mutex_at(&mut c, uri, 1).await;
    assert_eq!(m, "unknown: limit reached (states), 3 states explored");

    // A time limit of a nanosecond from didChangeConfiguration (0 would be
    // no limit): the search stops at its first state (which it counts as
    // explored).
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"zeno": {"maxStates": null, "timeoutSeconds": 1e-9}}}),
    )
    .await;
    let m = fischer_mutex_at(&mut c, uri, 1).await;
    assert_eq!(m, "unknown: limit reached (time), 1 state explored");

    // A* with an admissible heuristic finds the shortest trace, 6 steps
    // (see the model's header); hL and the blind heuristic 0 explore
    // different numbers of states, so the heuristic setting is applied.
    let mut explored = Vec::new();
    for heuristic in ["zero", "hl"] {
        c.notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"timeoutSeconds": 0, "search": "astar", "heuristic": heuristic}}),
        )
        .await;
        let m = fischer_mutex_at(&mut c, uri, 1).await;
        let rest = m
            .strip_prefix("violated: trace of 6 steps, ")
            .unwrap_or_else(|| panic!("{heuristic}: {m}"));
        let n: u64 = rest
            .strip_suffix(" states explored")
            .unwrap()
            .parse()
            .unwrap();
        explored.push(n);
    }
    assert_ne!(explored[0], explored[1], "{explored:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_a_document_forgets_it() {
    let uri = "file:///closing.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0, "search": "bfs"}))
        .await;
    // A warning, so that the first diagnostics are not empty.
    let text = format!("{TWO_COUNTERS}int unused;\n");
    c.open(uri, &text).await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    assert_eq!(d["diagnostics"].as_array().unwrap().len(), 1, "{d}");
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    )
    .await;
    // Its diagnostics are cleared and the server is quiescent although the
    // check `endless` of the closed document would run for hours.
    let d = c.diagnostics_when_quiescent(uri).await;
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    let r = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 10}}),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_document() {
    let uri = "file:///huge.zeno";
    // About 3.4 MB: 100,000 comment lines with non-ASCII text, then the model.
    let filler = "// filler: é → 𝄞 and more text to make the line longer\n".repeat(100_000);
    let text = format!("{filler}{FISCHER_BUGGY}");
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, &text).await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    // An incremental edit at the very end: a syntax error on the last line.
    let end = position(&text, text.len());
    c.change(
        uri,
        2,
        json!([{"range": {"start": end, "end": end}, "text": "int broken = ;\n"}]),
    )
    .await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri && p["version"] == 2
        })
        .await;
    let text = format!("{text}int broken = ;\n");
    let error = d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["severity"] == 1)
        .unwrap_or_else(|| panic!("no error in {d}"));
    assert_eq!(
        error["range"]["start"],
        // The parser reports a missing expression just after the `=`.
        position(&text, text.rfind("= ;").unwrap() + 1),
        "{d}"
    );
    // Hover far down still answers: `K` in the model's `x <= K`.
    let at = position(&text, text.find("invariant x <= K").unwrap() + 15);
    let r = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": at}),
        )
        .await;
    let value = r["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(value.contains("`K = 2`"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edits_within_the_debounce_are_checked_once() {
    let uri = "file:///debounce.zeno";
    // A debounce far longer than sending five edits takes, even on a busy
    // machine: only the job of the last edit gets to check.
    let mut c = start_with_progress(json!({"debounceMs": 3000})).await;
    c.open(uri, FISCHER_BUGGY).await;
    for version in 2..=5 {
        c.change(uri, version, json!([{"text": FISCHER_BUGGY}]))
            .await;
    }
    let job = follow_progress(&mut c, uri, 5, |_, _| false).await;
    // One token per check of one job.
    let tokens: Vec<&str> = job
        .tokens
        .iter()
        .map(|(t, _)| t.as_str().unwrap())
        .collect();
    assert_eq!(tokens.len(), 3, "{tokens:?}");
    let job_of = |t: &str| t.rsplit_once('/').unwrap().0.to_string();
    assert!(
        tokens.iter().all(|t| job_of(t) == job_of(tokens[0])),
        "{tokens:?}"
    );
    assert!(check_message(&job.diagnostics, FISCHER_BUGGY, "mutex").starts_with("violated"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn select_bindings_are_names_too() {
    // The text scan that navigation used before found no declaration for a
    // `select` binding: definition gave nothing and rename refused.
    let uri = "file:///select.zeno";
    let text = "int x;\ntemplate T() { init location l; l -> l select s : int[0, 1] do x = s; }\nsystem T;\n";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, text).await;
    // `s` is declared at byte 53 and used at 74 (both on line 1, which
    // starts at byte 7).
    let use_ = json!({"line": 1, "character": 67});
    let decl = json!({"line": 1, "character": 46});
    let r = c
        .request(
            "textDocument/definition",
            json!({"textDocument": {"uri": uri}, "position": use_}),
        )
        .await;
    assert_eq!(r["result"]["range"]["start"], decl, "{r}");
    let r = c
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri}, "position": use_, "newName": "pick"}),
        )
        .await;
    let mut starts: Vec<Value> = r["result"]["changes"][uri]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"))
        .iter()
        .map(|e| e["range"]["start"].clone())
        .collect();
    starts.sort_by_key(|p| p["character"].as_u64());
    assert_eq!(starts, [decl, use_], "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_are_capped_per_document() {
    let uri = "file:///junk.zeno";
    // 1,500 unused variables (warnings) and 1,499 redefinitions of one
    // name (errors): more than the 1,000 shown.
    let mut text: String = (0..1500).map(|i| format!("int u{i};\n")).collect();
    text.push_str(&"int dup;\n".repeat(1500));
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, &text).await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    let all = d["diagnostics"].as_array().unwrap();
    // 1,000 kept and one saying how many were left out, at the start.
    assert_eq!(all.len(), 1001, "{}", all.len());
    let summary = all[0]["message"].as_str().unwrap();
    assert!(
        summary.contains("more diagnostics not shown (1000 of "),
        "{summary}"
    );
    assert_eq!(all[0]["range"]["start"], json!({"line": 0, "character": 0}));
    // Errors first: every kept one is an error.
    assert!(all[1..].iter().all(|e| e["severity"] == 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_name_suggests_the_nearest_and_a_quick_fix_replaces_it() {
    let uri = "file:///typo.zeno";
    let text = "int length;\nint copy = lenght;\n";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, text).await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    let typo = find_diagnostic(&d, "unknown name `lenght`; did you mean `length`?");
    let r = c
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": typo["range"],
                "context": {"diagnostics": [typo]},
            }),
        )
        .await;
    let actions = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
    assert_eq!(actions.len(), 1, "{r}");
    assert_eq!(actions[0]["title"], "Replace with `length`");
    assert_eq!(actions[0]["kind"], "quickfix");
    let edits = &actions[0]["edit"]["changes"][uri];
    assert_eq!(
        edits,
        &json!([{"range": {"start": {"line": 1, "character": 11}, "end": {"line": 1, "character": 17}}, "newText": "length"}])
    );
    // Nothing to fix: no actions.
    let r = c
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": typo["range"],
                "context": {"diagnostics": []},
            }),
        )
        .await;
    assert!(r["result"].is_null(), "{r}");
}

/// `changes[uri]` of a code action, applied to `text` (edits given by
/// line and character; the texts here are ASCII).
fn apply_edits(text: &str, action: &Value, uri: &str) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + p["character"].as_u64().unwrap() as usize
    };
    let mut edits: Vec<(usize, usize, &str)> = action["edit"]["changes"][uri]
        .as_array()
        .unwrap_or_else(|| panic!("{action}"))
        .iter()
        .map(|e| {
            let r = &e["range"];
            (
                offset(&r["start"]),
                offset(&r["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, new) in edits {
        out.replace_range(start..end, new);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undeclared_clock_or_channel_gets_its_declaration_as_a_quick_fix() {
    let uri = "file:///undeclared.zeno";
    let text = "template P() {\n    init location a invariant x <= 3;\n    a -> a when x > 2 sync go! do x = 0;\n}\ntemplate Q() {\n    init location b;\n    b -> b sync go?;\n}\nsystem P, Q;\n";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, text).await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    let mut fixed = Vec::new();
    for needle in ["unknown name `x`", "unknown name `go`"] {
        let unknown = find_diagnostic(&d, needle);
        let r = c
            .request(
                "textDocument/codeAction",
                json!({
                    "textDocument": {"uri": uri},
                    "range": unknown["range"],
                    "context": {"diagnostics": [unknown]},
                }),
            )
            .await;
        let actions = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
        assert_eq!(actions.len(), 1, "{r}");
        assert_eq!(actions[0]["kind"], "quickfix");
        fixed.push((
            actions[0]["title"].as_str().unwrap().to_string(),
            apply_edits(text, &actions[0], uri),
        ));
    }
    // The clock in the template that uses it, at the body's start; the
    // channel two templates share, globally, before the first template.
    assert_eq!(fixed[0].0, "Declare `clock x` in template `P`");
    assert_eq!(
        fixed[0].1,
        text.replace("template P() {\n", "template P() {\n    clock x;\n")
    );
    assert_eq!(fixed[1].0, "Declare `chan go` globally");
    assert_eq!(fixed[1].1, format!("chan go;\n{text}"));
    // Both applied, the model has no errors left.
    let both = fixed[1]
        .1
        .replace("template P() {\n", "template P() {\n    clock x;\n");
    let analysis = zeno::semantics::analyze(&both);
    assert!(analysis.network.is_some(), "{:?}", analysis.diagnostics);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misspelt_location_in_an_edge_or_a_query_gets_did_you_mean_and_its_fix() {
    let uri = "file:///locations.zeno";
    // `Critcal` at line 2, character 12 (the edge) and line 5, character
    // 15 (the query), counted from 0.
    let text = "template P() {\n    init location Idle; location Critical;\n    Idle -> Critcal;\n}\nsystem P;\ncheck c: E<> P.Critcal;\n";
    let mut c = TestClient::start().await;
    c.initialize(json!({"checkOn": "save"})).await;
    c.open(uri, text).await;
    let d = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    for (needle, line, character) in [
        (
            "unknown location `Critcal`; did you mean `Critical`?",
            2,
            12,
        ),
        (
            "process `P` has no location or variable `Critcal`; did you mean `Critical`?",
            5,
            15,
        ),
    ] {
        let typo = find_diagnostic(&d, needle);
        let start = json!({"line": line, "character": character});
        assert_eq!(typo["range"]["start"], start, "{typo}");
        let r = c
            .request(
                "textDocument/codeAction",
                json!({
                    "textDocument": {"uri": uri},
                    "range": typo["range"],
                    "context": {"diagnostics": [typo]},
                }),
            )
            .await;
        let actions = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
        assert_eq!(actions.len(), 1, "{r}");
        assert_eq!(actions[0]["title"], "Replace with `Critical`");
        let fixed = apply_edits(text, &actions[0], uri);
        assert_eq!(fixed.matches("Critcal").count(), 1, "{fixed}");
    }
}
