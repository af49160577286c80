//! `zeno/simulate` end to end through the in-memory client: the steps a
//! client keeps are replayed on the document's current network. Expected
//! states worked out by hand from `models/fischer-buggy.zeno` (see
//! `cli_simulate.rs`).

use crate::support;

use serde_json::{Value, json};
use support::lsp_client::TestClient;

const FISCHER_BUGGY: &str = include_str!("../../models/fischer-buggy.zeno");
const URI: &str = "file:///models/fischer-buggy.zeno";

async fn checked_fischer() -> TestClient {
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 20}})).await;
    c.open(URI, FISCHER_BUGGY).await;
    c.diagnostics_when_quiescent(URI).await;
    c
}

async fn simulate(c: &mut TestClient, params: Value) -> Value {
    let r = c.request("zeno/simulate", params).await;
    assert!(r.get("error").is_none(), "{r}");
    r["result"].clone()
}

fn locations(r: &Value) -> Vec<String> {
    r["state"]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{}.{}",
                l["name"].as_str().unwrap(),
                l["value"].as_str().unwrap()
            )
        })
        .collect()
}

fn labels(r: &Value) -> Vec<&str> {
    r["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fire_back_and_delay_by_steps() {
    let mut c = checked_fischer().await;
    let start = simulate(&mut c, json!({"uri": URI})).await;
    assert_eq!(
        labels(&start),
        [
            "Proc(1): idle -> req",
            "Proc(2): idle -> req",
            "Proc(3): idle -> req"
        ]
    );
    assert_eq!(start["steps"], json!([]));
    // The edge's range, for highlights: `idle -> req` is on line 39 of the
    // model, 38 counted from 0.
    assert_eq!(
        start["transitions"][0]["edges"][0]["range"]["start"]["line"],
        38
    );
    let first = start["transitions"][0]["step"].clone();
    assert_eq!(
        first,
        json!({"kind": "fire", "edges": [[0, 0]], "piece": 0})
    );

    let one = simulate(&mut c, json!({"uri": URI, "steps": [first]})).await;
    assert_eq!(
        locations(&one),
        ["Proc(1).req", "Proc(2).idle", "Proc(3).idle"]
    );
    assert_eq!(one["state"]["delays"], "[0, 2]");
    // Proc(1) is in `req`, declared on line 35 (34 from 0); the others in
    // `idle`, line 33.
    let lines: Vec<&Value> = one["state"]["locationRanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["start"]["line"])
        .collect();
    assert_eq!(lines, [&json!(34), &json!(33), &json!(33)]);
    let second = one["transitions"][1]["step"].clone();
    let two = simulate(&mut c, json!({"uri": URI, "steps": [first, second]})).await;
    assert_eq!(
        locations(&two),
        ["Proc(1).req", "Proc(2).req", "Proc(3).idle"]
    );
    // Back is the same steps without the last.
    let back = simulate(&mut c, json!({"uri": URI, "steps": [first]})).await;
    assert_eq!(back, one);

    let delayed = simulate(
        &mut c,
        json!({"uri": URI, "steps": [first, {"kind": "delay", "delay": "3/2"}]}),
    )
    .await;
    assert_eq!(
        delayed["state"]["clocks"][0],
        json!({"name": "Proc(1).x", "value": "3/2"})
    );
    // A step that does not apply stops the replay and says why.
    let bad = simulate(
        &mut c,
        json!({"uri": URI, "steps": [first, {"kind": "delay", "delay": "3"}, second]}),
    )
    .await;
    assert_eq!(
        bad["error"],
        "step 2 no longer applies: the invariants forbid a delay of 3: the delays allowed here are [0, 2]"
    );
    assert_eq!(bad["steps"], json!([first]));
    assert_eq!(locations(&bad), locations(&one));

    // The run as a timeline, on request: one step drawn, after 3/2.
    assert!(delayed.get("timeline").is_none());
    let drawn = simulate(
        &mut c,
        json!({"uri": URI, "timeline": true,
        "steps": [first, {"kind": "delay", "delay": "3/2"}, one["transitions"][0]["step"]]}),
    )
    .await;
    let svg = drawn["timeline"].as_str().expect("a timeline");
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(
        svg.contains("simulation (by hand): run, 2 step(s), total time 3/2"),
        "{svg}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checks_trace_as_steps_and_symbolic_zones() {
    let mut c = checked_fischer().await;
    let r = simulate(&mut c, json!({"uri": URI, "trace": "mutex"})).await;
    let fires = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "fire")
        .count();
    let errors = c
        .request("zeno/errorTrace", json!({"uri": URI, "check": "mutex"}))
        .await;
    let trace_steps = errors["result"]["steps"].as_array().unwrap().len();
    assert_eq!(
        fires, trace_steps,
        "every transition of the trace is a step"
    );
    assert_eq!(
        locations(&r).iter().filter(|l| l.ends_with(".cs")).count(),
        2
    );
    // Replaying the steps it gave reaches the same state.
    let again = simulate(&mut c, json!({"uri": URI, "steps": r["steps"]})).await;
    assert_eq!(again["state"], r["state"]);

    let holds = c
        .request("zeno/simulate", json!({"uri": URI, "trace": "no_deadlock"}))
        .await;
    assert_eq!(
        holds["error"]["message"],
        "check `no_deadlock` has no trace to step through: holds"
    );
    let unknown = c
        .request("zeno/simulate", json!({"uri": URI, "trace": "nope"}))
        .await;
    assert_eq!(unknown["error"]["message"], "no check named `nope`");

    let sym = simulate(
        &mut c,
        json!({"uri": URI, "mode": "symbolic", "steps": [{"kind": "fire", "edges": [[0, 0]]}]}),
    )
    .await;
    assert_eq!(sym["state"]["clocks"], json!([]));
    assert_eq!(sym["state"]["zone"][0], "Proc(1).x <= 2");
}

/// A model whose time unit lowering refines (`2 >= 5 * x`): the editors'
/// simulator refuses it with the reason (it steps in fifths and would show
/// them), as an error of the request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_with_a_refined_time_unit_is_refused() {
    const REFINED: &str = "file:///models/refined.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 20}})).await;
    c.open(
        REFINED,
        "clock x;\ntemplate P() { init location a invariant 2 >= 5 * x; }\nsystem P;\n",
    )
    .await;
    c.diagnostics_when_quiescent(REFINED).await;
    let r = c.request("zeno/simulate", json!({"uri": REFINED})).await;
    let message = r["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("time unit is refined by 5") && message.contains("does not show"),
        "{r}"
    );
}
