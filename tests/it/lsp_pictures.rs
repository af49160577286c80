//! `zeno/traceSvg` and `zeno/graphSvg` end to end, through the same
//! in-memory client as the other language server tests.

use crate::support;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::{Value, json};
use support::lsp_client::{TestClient, position};

const FISCHER_BUGGY: &str = include_str!("../../models/fischer-buggy.zeno");
const URI: &str = "file:///models/fischer-buggy.zeno";

/// The text content of every element of an SVG document; panics if the
/// document is not well-formed XML.
fn svg_texts(svg: &str) -> Vec<String> {
    let mut reader = Reader::from_str(svg);
    let mut texts = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Text(t)) => texts.push(t.unescape().expect("text").into_owned()),
            Ok(Event::Eof) => return texts,
            Ok(_) => {}
            Err(e) => panic!("malformed SVG at {}: {e}", reader.buffer_position()),
        }
    }
}

fn mentions(texts: &[String], needle: &str) -> bool {
    texts.iter().any(|t| t.contains(needle))
}

/// A client with the buggy Fischer model open and every check finished.
async fn checked_fischer() -> TestClient {
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 20}})).await;
    c.open(URI, FISCHER_BUGGY).await;
    c.diagnostics_when_quiescent(URI).await;
    c
}

fn result(r: &Value) -> &Value {
    assert!(r.get("error").is_none(), "{r}");
    &r["result"]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeline_of_a_checks_trace() {
    let mut c = checked_fischer().await;
    let r = c
        .request("zeno/traceSvg", json!({"uri": URI, "check": "mutex"}))
        .await;
    let svg = result(&r)["svg"].as_str().expect("an svg string");
    assert!(svg.contains("<svg"), "{svg}");
    let texts = svg_texts(svg);
    // The counterexample puts Proc(1) and Proc(2) in cs: both get a lane.
    assert!(mentions(&texts, "Proc(1)"), "{texts:?}");
    assert!(mentions(&texts, "Proc(2)"), "{texts:?}");
    assert!(mentions(&texts, "cs"), "{texts:?}");

    // A check that holds has no counterexample; an unknown one has nothing.
    for check in ["no_deadlock", "no_such_check"] {
        let r = c
            .request("zeno/traceSvg", json!({"uri": URI, "check": check}))
            .await;
        assert_eq!(result(&r), &Value::Null, "{check}: {r}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn automaton_under_the_cursor() {
    let mut c = checked_fischer().await;
    let inside = position(FISCHER_BUGGY, FISCHER_BUGGY.find("location wait;").unwrap());
    let r = c
        .request("zeno/graphSvg", json!({"uri": URI, "position": inside}))
        .await;
    let answer = result(&r);
    assert_eq!(answer["template"], "Proc", "{answer}");
    let texts = svg_texts(answer["svg"].as_str().expect("an svg string"));
    // `system Proc;` with pid_t = [1, 3] makes three instances.
    for p in ["Proc(1)", "Proc(2)", "Proc(3)"] {
        assert!(mentions(&texts, p), "{p} in {texts:?}");
    }
    for l in ["idle", "req", "wait", "cs"] {
        assert!(texts.iter().any(|t| t == l || t.contains(l)), "{l}");
    }
    // `mutex` is violated: its counterexample's first step is numbered.
    assert!(mentions(&texts, "#1"), "{texts:?}");

    // Outside every template (the global declarations, the checks): null.
    for needle in ["const int N", "check mutex"] {
        let outside = position(FISCHER_BUGGY, FISCHER_BUGGY.find(needle).unwrap());
        let r = c
            .request("zeno/graphSvg", json!({"uri": URI, "position": outside}))
            .await;
        assert_eq!(result(&r), &Value::Null, "{needle}: {r}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pictures_of_a_closed_document_are_an_error() {
    let mut c = TestClient::start().await;
    c.initialize(json!({})).await;
    let r = c
        .request(
            "zeno/traceSvg",
            json!({"uri": "file:///nowhere.zeno", "check": "mutex"}),
        )
        .await;
    assert!(r.get("error").is_some(), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uppaal_file_is_drawn_at_its_own_coordinates_for_the_template_under_the_cursor() {
    let text = std::fs::read_to_string("tests/data/uppaal/train-gate/train-gate.xml").unwrap();
    let uri = "file:///models/train-gate.xml";
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 20}})).await;
    c.open(uri, &text).await;
    c.diagnostics_when_quiescent(uri).await;
    let gate = text.find("<name x=\"40\" y=\"16\">Gate</name>").unwrap();
    let graph = |offset: usize| json!({"uri": uri, "position": position(&text, offset)});
    // The cursor on Train's first location: Train, at the file's
    // coordinates (read by hand from the XML).
    let on_train = text.find("<location ").unwrap();
    assert!(on_train < gate);
    let r = c.request("zeno/graphSvg", graph(on_train)).await;
    assert_eq!(result(&r)["template"], "Train", "{r}");
    let svg = result(&r)["svg"].as_str().unwrap();
    let at = crate::cli_pictures::file_locations(&text[..gate]);
    assert_eq!(at.len(), 5, "{at:?}");
    crate::cli_pictures::assert_drawn_at(svg, "Train(0)", &at);
    // Inside Gate's template: Gate.
    let r = c.request("zeno/graphSvg", graph(gate + 30)).await;
    assert_eq!(result(&r)["template"], "Gate", "{r}");
    // Outside every template (the XML header): nothing.
    let r = c.request("zeno/graphSvg", graph(0)).await;
    assert_eq!(result(&r), &Value::Null, "{r}");
}
