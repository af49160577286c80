//! `zeno graph` and `zeno trace` end to end. The expected step numbers come
//! from the trace itself (`zeno trace --format json`), so the test does not
//! depend on which of the shortest traces the search finds.

use crate::support;

use quick_xml::Reader;
use quick_xml::events::Event;
use support::cli::*;

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

fn trace_json(model_name: &str, check: &str) -> serde_json::Value {
    let out = zeno(&[
        "trace",
        &model(model_name),
        "--check",
        check,
        "--format",
        "json",
        "--search",
        "bfs",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("trace JSON")
}

#[test]
fn graph_numbers_the_edges_of_the_trace_taken_by_the_process() {
    let trace = trace_json("fischer-buggy.zeno", "mutex");
    let steps = trace["steps"].as_array().expect("steps");
    assert_eq!(
        steps.len(),
        6,
        "BFS finds the shortest counterexample, 6 steps"
    );
    // Steps (1-based) in which Proc(1) moves.
    let expected: Vec<String> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s["edges"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["process"] == "Proc(1)")
        })
        .map(|(i, _)| format!("#{}", i + 1))
        .collect();
    // Proc(1) goes idle -> req -> wait -> cs: three of the six steps.
    assert_eq!(expected.len(), 3);

    let out = zeno(&[
        "graph",
        &model("fischer-buggy.zeno"),
        "--template",
        "Proc(1)",
        "--trace",
        "mutex",
        "--search",
        "bfs",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut numbers: Vec<String> = svg_texts(&stdout(&out))
        .iter()
        .flat_map(|t| t.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|w| w.len() > 1 && w.starts_with('#') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .collect();
    numbers.sort();
    assert_eq!(numbers, expected);
}

#[test]
fn graph_dot_lists_every_location() {
    let out = zeno(&["graph", &model("fischer.zeno"), "--format", "dot"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dot = stdout(&out);
    assert!(dot.starts_with("digraph"), "{dot}");
    for location in ["idle", "req", "wait", "cs"] {
        assert!(dot.contains(location), "no `{location}` in\n{dot}");
    }
}

#[test]
fn trace_svg_is_well_formed_and_written_to_a_file() {
    let dir = scratch("pictures-trace");
    let out_file = dir.join("trace.svg");
    let out = zeno(&[
        "trace",
        &model("fischer-buggy.zeno"),
        "--check",
        "mutex",
        "-o",
        path(&out_file),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = std::fs::read_to_string(&out_file).expect("trace.svg written");
    let texts = svg_texts(&svg);
    for process in ["Proc(1)", "Proc(2)", "Proc(3)"] {
        assert!(texts.iter().any(|t| t == process), "no lane for {process}");
    }
}

#[test]
fn no_trace_to_draw_is_explained() {
    // The correct protocol keeps mutual exclusion: no counterexample exists.
    let out = zeno(&["trace", &model("fischer.zeno"), "--check", "mutex"]);
    assert_eq!(out.status.code(), Some(1));
    // In the words `zeno check` prints, not the checker's `Holds`.
    assert!(
        stderr(&out).contains("check `mutex` has no trace to draw: holds\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn unknown_names_are_errors_listing_what_exists() {
    let out = zeno(&["trace", &model("fischer.zeno"), "--check", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("mutex, can_enter, no_deadlock"),
        "{}",
        stderr(&out)
    );

    let out = zeno(&["graph", &model("fischer.zeno"), "--template", "Nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Proc(1)"), "{}", stderr(&out));
}

/// The edges of a DOT graph: one `->` line each.
fn dot_edges(dot: &str) -> Vec<&str> {
    dot.lines().filter(|l| l.contains(" -> ")).collect()
}

#[test]
fn a_select_edge_is_drawn_once_with_its_select() {
    // The train-gate's Gate has five transitions in the UPPAAL file, three
    // of them with `select e : id_t` (N = 3): drawn as 5 edges, not 11.
    let xml = "tests/data/uppaal/train-gate/train-gate.xml";
    let text = std::fs::read_to_string(xml).unwrap();
    let gate = &text[text.find("<name x=\"40\" y=\"16\">Gate</name>").unwrap()..];
    let gate = &gate[..gate.find("</template>").unwrap()];
    let transitions = gate.matches("<transition").count();
    assert_eq!(transitions, 5);
    let o = zeno(&["graph", xml, "--template", "Gate", "--format", "dot"]);
    let dot = stdout(&o);
    let edges = dot_edges(&dot);
    assert_eq!(edges.len(), transitions, "{dot}");
    let selects: Vec<&&str> = edges
        .iter()
        .filter(|e| e.contains("select e ∈ 0..2"))
        .collect();
    assert_eq!(selects.len(), 3, "{dot}");
    // The lines below the select read as written: the channel of the
    // select's value is `appr[e]`, the guard `e == front()`.
    assert!(dot.contains("sync appr[e]?"), "{dot}");
    assert!(dot.contains("when e == front()"), "{dot}");

    // A trace's step on such an edge says which value it took.
    let o = zeno(&[
        "graph",
        &model("train-gate.zeno"),
        "--template",
        "Gate",
        "--trace",
        "train1_stops",
        "--search",
        "bfs",
        "--format",
        "dot",
    ]);
    let dot = stdout(&o);
    assert_eq!(dot_edges(&dot).len(), 5, "{dot}");
    let json = trace_json("train-gate.zeno", "train1_stops");
    let first = &json["steps"][0]["edges"];
    let gate_edge = first
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["process"] == "Gate")
        .expect("the gate takes part in the first step");
    let value = gate_edge["label"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|l| l.as_str().unwrap().strip_prefix("select e = "))
        .expect("the step's select value")
        .to_string();
    assert!(dot.contains(&format!("#1 (e = {value})")), "{dot}");
}
