//! A liveness check's lasso in every view: SARIF, the language server
//! (diagnostic, code lenses, stepping that goes round the cycle) and the
//! pictures. The model is `tests/data/models/liveness-cycle.zeno`: the
//! counterexample of `never` (`A<> P.goal`) is P going a -> b -> a three
//! times, n counting 0, 1, 2, 0, back at the initial state: six steps, the
//! cycle starting at the initial state (`loop_start` 0), steps 1, 3 and 5
//! along `a -> b`, steps 2, 4 and 6 along `b -> a` (see `liveness.rs`).

use crate::support;

use serde_json::{Value, json};
use support::cli::{data_file, stdout, zeno};
use support::lsp_client::{TestClient, position};

fn model_text() -> String {
    std::fs::read_to_string(data_file("models", "liveness-cycle.zeno")).unwrap()
}

/// 1-based line of the first occurrence of `needle` in the model.
fn line_of(text: &str, needle: &str) -> u64 {
    let at = text.find(needle).unwrap();
    text[..at].matches('\n').count() as u64 + 1
}

#[test]
fn sarif_marks_the_cycle_and_the_way_back() {
    let file = data_file("models", "liveness-cycle.zeno");
    let out = zeno(&["check", &file, "--check", "never", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let result = &doc["runs"][0]["results"][0];
    assert_eq!(result["properties"]["loop_start"], 0, "{result}");
    let flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap();
    // Six steps of one edge each, then the way back to step 1's edge.
    assert_eq!(flow.len(), 7, "{flow:?}");
    let text = model_text();
    let a_b = line_of(&text, "a -> b    when");
    let b_a = line_of(&text, "b -> a    when");
    let lines: Vec<u64> = flow
        .iter()
        .map(|l| {
            l["location"]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(lines, [a_b, b_a, a_b, b_a, a_b, b_a, a_b]);
    // The whole trace is the cycle here (it starts at the initial state).
    assert!(flow.iter().all(|l| l["nestingLevel"] == 1), "{flow:?}");
    let first = flow[0]["location"]["message"]["text"].as_str().unwrap();
    assert!(first.starts_with("step 1 (cycle): "), "{first}");
    let back = flow[6]["location"]["message"]["text"].as_str().unwrap();
    assert!(
        back.ends_with(
            "loop: back at the initial state (clocks in its zone), steps 1–6 repeat forever, \
             never reaching `P.goal`, so `never` (A<> P.goal) is violated"
        ),
        "{back}"
    );
    // A trace without a cycle has neither.
    let out = zeno(&[
        "check",
        &data_file("models", "liveness-deadlock.zeno"),
        "--check",
        "late",
        "--format",
        "sarif",
    ]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let result = &doc["runs"][0]["results"][0];
    assert!(result["properties"].get("loop_start").is_none(), "{result}");
    let flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap();
    assert!(flow.iter().all(|l| l.get("nestingLevel").is_none()));
}

#[test]
fn the_automaton_picture_marks_the_cycle_steps() {
    let file = data_file("models", "liveness-cycle.zeno");
    let out = zeno(&["graph", &file, "--format", "dot", "--trace", "never"]);
    assert_eq!(out.status.code(), Some(0), "{}", support::cli::stderr(&out));
    let dot = stdout(&out);
    assert!(dot.contains("label=\"#1↻ #3↻ #5↻\\l"), "{dot}");
    assert!(dot.contains("label=\"#2↻ #4↻ #6↻\\l"), "{dot}");
}

async fn quiescent(c: &mut TestClient, uri: &str) -> Value {
    loop {
        let d = c.diagnostics_when_quiescent(uri).await;
        if d["version"] == 1 {
            return d;
        }
    }
}

async fn step(c: &mut TestClient, uri: &str, command: &str) -> Value {
    let params = json!({"command": command, "arguments": [{"uri": uri, "check": "never"}]});
    c.request("workspace/executeCommand", params).await["result"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_shows_the_lasso_and_steps_round_its_cycle() {
    let text = model_text();
    let uri = "file:///liveness-cycle.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0})).await;
    c.open(uri, &text).await;
    let d = quiescent(&mut c, uri).await;
    let never_at = position(&text, text.find("check never:").unwrap() + 6);
    let diag = d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["range"]["start"] == never_at && d["code"] == "check")
        .unwrap_or_else(|| panic!("no verdict on `never`: {d}"));
    let related: Vec<&str> = diag["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["message"].as_str().unwrap())
        .collect();
    assert_eq!(related.len(), 7, "{related:?}");
    assert!(
        related[0].starts_with("step 1 of 6 (cycle): "),
        "{related:?}"
    );
    assert_eq!(
        related[6],
        "then loop: back at the initial state (clocks in its zone), steps 1–6 repeat forever, \
         never reaching the check's formula, so `never` is violated"
    );

    let lenses = c
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let title = lenses["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["range"]["start"] == never_at)
        .map(|l| l["command"]["title"].as_str().unwrap().to_string())
        .unwrap();
    assert_eq!(
        title,
        "✗ violated — trace of 6 steps, looping back to the initial state"
    );

    // Stepping: 1 to 6, then round the cycle again to step 1.
    let s = step(&mut c, uri, "zeno.trace.show").await;
    assert_eq!(
        (s["step"].clone(), s["loopStart"].clone()),
        (json!(1), json!(0))
    );
    for expected in 2..=6 {
        assert_eq!(step(&mut c, uri, "zeno.trace.next").await["step"], expected);
    }
    let s = step(&mut c, uri, "zeno.trace.next").await;
    assert_eq!(s["step"], 1, "next after the last step wraps: {s}");
    // Step 1 again: a -> b, with n back at 0 (a -> b leaves it alone).
    assert_eq!(s["edges"][0]["source"], "a", "{s}");
    assert_eq!(
        s["after"]["variables"][0]["value"], "0",
        "n after step 1: {s}"
    );

    // While stepping, the edges carry their step numbers, the cycle's marked.
    let lenses = c
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let mut steps: Vec<String> = lenses["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap().to_string())
        .filter(|t| t.starts_with("step"))
        .collect();
    steps.sort();
    // The edge of the last step also says how the trace ends.
    assert_eq!(steps, ["steps 1↻, 3↻, 5↻", "steps 2↻, 4↻, 6↻ · loop to 0"]);
}
