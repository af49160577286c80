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

/// The numbers after `key="` on `line`.
fn attr_f(line: &str, key: &str) -> Option<f64> {
    let at = line.find(&format!(" {key}=\""))? + key.len() + 3;
    line[at..].split('"').next()?.parse().ok()
}

/// One process of a built-in SVG: its location boxes by name (the first
/// rect of each), its edges' points (ends and control points of the
/// paths), and its labels' text boxes, all in the process's own frame. A
/// label line's box is taken narrow (6 px a character, 10 px above the
/// baseline): a crossing found is one for certain.
struct Drawn {
    nodes: Vec<(String, (f64, f64, f64, f64))>,
    paths: Vec<Vec<(f64, f64)>>,
    labels: Vec<(f64, f64, f64, f64)>,
}

fn drawn_process(svg: &str, process: &str) -> Drawn {
    let start = svg
        .find(&format!("id=\"process {process}\""))
        .expect("the process");
    let body = &svg[start..];
    let body = &body[..body[1..]
        .find("<g class=\"cluster\"")
        .map_or(body.len(), |i| i + 1)];
    let mut d = Drawn {
        nodes: Vec::new(),
        paths: Vec::new(),
        labels: Vec::new(),
    };
    let mut node: Option<String> = None;
    for line in body.lines() {
        if let Some(rest) = line.strip_prefix("<g class=\"node\" id=\"") {
            node = rest.split('"').next().map(str::to_string);
        } else if line.starts_with("<rect ")
            && let Some(name) = node.take()
        {
            let (x, y) = (attr_f(line, "x").unwrap(), attr_f(line, "y").unwrap());
            let (w, h) = (
                attr_f(line, "width").unwrap(),
                attr_f(line, "height").unwrap(),
            );
            d.nodes.push((name, (x, y, x + w, y + h)));
        } else if let Some(rest) = line.strip_prefix("<path d=\"M ") {
            let path = rest.split('"').next().unwrap();
            let nums: Vec<f64> = path
                .split([' ', ','])
                .filter_map(|w| w.parse().ok())
                .collect();
            d.paths.push(nums.chunks(2).map(|p| (p[0], p[1])).collect());
        } else if line.starts_with("<text ") && line.contains("text-anchor=\"start\"") {
            let (x, y) = (attr_f(line, "x").unwrap(), attr_f(line, "y").unwrap());
            let text = line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            let w = 6.0 * text.chars().count() as f64;
            d.labels.push((x, y - 10.0, x + w, y));
        }
    }
    d
}

/// Whether the segment a–b meets the rectangle r.
fn segment_meets(a: (f64, f64), b: (f64, f64), r: (f64, f64, f64, f64)) -> bool {
    // Sampled finely: enough for boxes taller and wider than 1 px.
    (0..=400).any(|k| {
        let t = k as f64 / 400.0;
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        r.0 < x && x < r.2 && r.1 < y && y < r.3
    })
}

/// The file's coordinates of each location in `part` of a UPPAAL XML
/// file, read by hand from its `<location x=.. y=..>` and `<name>`.
pub(crate) fn file_locations(part: &str) -> Vec<(String, (f64, f64))> {
    let mut at = Vec::new();
    for part in part.split("<location ").skip(1) {
        let head = &part[..part.find('>').unwrap()];
        let name = &part[part.find("\">").unwrap() + 2..];
        let name = &name[name.find('>').map_or(0, |i| i + 1)..];
        let name = name[..name.find('<').unwrap()].trim().to_string();
        at.push((
            name,
            (attr_f(head, "x").unwrap(), attr_f(head, "y").unwrap()),
        ));
    }
    at
}

/// Asserts that `process` is drawn in `svg` with each location of `at` at
/// k·(x, y) + offset, one k >= 1 for both axes and every location.
pub(crate) fn assert_drawn_at(svg: &str, process: &str, at: &[(String, (f64, f64))]) {
    let d = drawn_process(svg, process);
    let centre = |name: &str| {
        let (_, r) = d
            .nodes
            .iter()
            .find(|(n, _)| n == &format!("{process}.{name}"))
            .unwrap_or_else(|| panic!("no {name} in {:?}", d.nodes));
        ((r.0 + r.2) / 2.0, (r.1 + r.3) / 2.0)
    };
    let (a, b) = (&at[0], &at[1]);
    let (ca, cb) = (centre(&a.0), centre(&b.0));
    let k = if (b.1.0 - a.1.0).abs() > (b.1.1 - a.1.1).abs() {
        (cb.0 - ca.0) / (b.1.0 - a.1.0)
    } else {
        (cb.1 - ca.1) / (b.1.1 - a.1.1)
    };
    assert!(k >= 1.0, "spread, never shrunk: {k}");
    for (name, p) in at {
        let c = centre(name);
        let expect = (ca.0 + k * (p.0 - a.1.0), ca.1 + k * (p.1 - a.1.1));
        assert!(
            (c.0 - expect.0).abs() < 0.2 && (c.1 - expect.1).abs() < 0.2,
            "{name}: drawn at {c:?}, the file's coordinates give {expect:?}"
        );
    }
}

#[test]
fn a_uppaal_file_is_drawn_at_its_coordinates_with_labels_clear_of_edges() {
    let xml = "tests/data/uppaal/train-gate/train-gate.xml";
    let o = zeno(&["graph", xml]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = stdout(&o);
    // The file's coordinates of Train's locations (by hand from the XML).
    let text = std::fs::read_to_string(xml).unwrap();
    let train = &text[..text.find("<name x=\"40\" y=\"16\">Gate</name>").unwrap()];
    let at = file_locations(train);
    assert_eq!(at.len(), 5, "{at:?}");
    assert_drawn_at(&svg, "Train(0)", &at);
    // No label line crosses an edge or a location, in any process.
    for process in ["Train(0)", "Train(1)", "Train(2)", "Gate"] {
        let d = drawn_process(&svg, process);
        assert!(!d.labels.is_empty() && !d.paths.is_empty());
        for l in &d.labels {
            for p in &d.paths {
                for w in p.windows(2) {
                    assert!(
                        !segment_meets(w[0], w[1], *l),
                        "{process}: a label at {l:?} crosses an edge"
                    );
                }
            }
            for (n, r) in &d.nodes {
                let apart = l.2 <= r.0 || r.2 <= l.0 || l.3 <= r.1 || r.3 <= l.1;
                assert!(apart, "{process}: a label at {l:?} covers {n}");
            }
        }
    }
}
