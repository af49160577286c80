//! Pictures of small hand-built networks: the DOT structure (snapshots), the
//! SVG structure (parsed as XML) and the ir pretty-printer.

use expect_test::expect;
use num_rational::Rational64;
use quick_xml::Reader;
use quick_xml::events::Event;

use zeno::checker::{ConcreteState, Step, Trace, TraceEnd, Transition};
use zeno::ir::*;
use zeno::pictures::{self, LayoutEngine, PictureError, pretty};

fn span() -> Span {
    Span::default()
}

fn c(v: i32) -> Expr {
    Expr::Const(v)
}

fn var(v: VarId) -> Expr {
    Expr::Var(v)
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}

fn cc(i: ClockId, j: ClockId, strict: bool, bound: i32) -> ClockConstraint {
    ClockConstraint {
        i,
        j,
        strict,
        bound: c(bound),
    }
}

fn loc(name: &str, kind: LocationKind, invariant: Vec<ClockConstraint>) -> Location {
    Location {
        name: name.into(),
        kind,
        invariant,
        data_invariant: None,
        stopped: Vec::new(),
        running: Vec::new(),
        data_rates: Vec::new(),
        span: span(),
    }
}

fn edge(source: LocId, target: LocId) -> Edge {
    Edge {
        source,
        target,
        guard: None,
        clock_guard: vec![],
        sync: None,
        label: None,
        updates: vec![],
        selects: vec![],
        span: span(),
    }
}

/// Two processes: `P` (an instance of `Worker`) and `Q` (of `Listener`).
///
/// P: idle (initial) -> busy (urgent, x <= 5) -> done (committed) -> idle,
/// plus a self loop on done. Q: wait -> got on `go?`.
fn net() -> Network {
    let variables = vec![
        Variable {
            name: "v".into(),
            lo: 0,
            hi: 3,
            init: 0,
            is_bool: false,
            span: span(),
        },
        Variable {
            name: "a[0]".into(),
            lo: 0,
            hi: 3,
            init: 0,
            is_bool: false,
            span: span(),
        },
        Variable {
            name: "a[1]".into(),
            lo: 0,
            hi: 3,
            init: 0,
            is_bool: false,
            span: span(),
        },
    ];
    let clocks = vec![
        Clock {
            name: "0".into(),
            span: span(),
        },
        Clock {
            name: "P.x".into(),
            span: span(),
        },
    ];
    let channels = vec![Channel {
        name: "go".into(),
        kind: ChannelKind::Binary,
        urgent: false,
        span: span(),
    }];
    let mut e0 = edge(0, 1);
    e0.guard = Some(bin(BinOp::Eq, var(0), c(0)));
    e0.clock_guard = vec![cc(0, 1, false, -2)]; // x >= 2
    e0.sync = Some(Sync {
        channel: ChanRef {
            base: 0,
            len: 1,
            index: None,
        },
        dir: SyncDir::Send,
    });
    e0.updates = vec![
        Update::ResetClock { clock: 1, value: 0 },
        Update::Assign {
            target: LValue {
                base: 0,
                len: 1,
                index: None,
            },
            value: bin(BinOp::Add, var(0), c(1)),
        },
    ];
    let mut e1 = edge(1, 2);
    e1.selects = vec![("i".into(), 1)];
    let a_v = Expr::Index {
        base: 1,
        len: 2,
        index: Box::new(var(0)),
    };
    e1.guard = Some(bin(BinOp::Lt, a_v, c(3)));
    e1.updates = vec![Update::Assign {
        target: LValue {
            base: 1,
            len: 2,
            index: Some(c(1)),
        },
        value: c(1),
    }];
    let e2 = edge(2, 2);
    let mut e3 = edge(2, 0);
    e3.clock_guard = vec![cc(1, 0, false, 3), cc(0, 1, false, -3)]; // x == 3
    let p = Process {
        name: "P".into(),
        template: "Worker".into(),
        locations: vec![
            loc("idle", LocationKind::Normal, vec![]),
            loc("busy", LocationKind::Urgent, vec![cc(1, 0, false, 5)]),
            loc("done", LocationKind::Committed, vec![]),
        ],
        edges: vec![e0, e1, e2, e3],
        initial: 0,
        span: span(),
    };
    let mut q0 = edge(0, 1);
    q0.sync = Some(Sync {
        channel: ChanRef {
            base: 0,
            len: 1,
            index: None,
        },
        dir: SyncDir::Receive,
    });
    let q = Process {
        name: "Q".into(),
        template: "Listener".into(),
        locations: vec![
            loc("wait", LocationKind::Normal, vec![]),
            loc("got", LocationKind::Normal, vec![]),
        ],
        edges: vec![q0],
        initial: 0,
        span: span(),
    };
    Network {
        time_scale: Default::default(),
        variables,
        clocks,
        channels,
        processes: vec![p, q],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![Check {
            name: "reach".into(),
            kind: CheckKind::Reachable(Formula::At {
                process: 0,
                location: 2,
            }),
            span: span(),
            name_span: span(),
        }],
        lines: None,
        symmetry: Default::default(),
    }
}

fn r(n: i64) -> Rational64 {
    Rational64::from_integer(n)
}

fn state(locations: Vec<LocId>, variables: Vec<i32>, x: Rational64) -> ConcreteState {
    ConcreteState {
        locations,
        variables,
        clocks: vec![r(0), x],
    }
}

/// Wait 5/2, synchronise on go (P idle->busy with Q wait->got), then P
/// busy->done; the goal is reached after a further delay of 0.
fn trace() -> Trace {
    Trace {
        initial: state(vec![0, 0], vec![0, 0, 0], r(0)),
        steps: vec![
            Step {
                delay: Rational64::new(5, 2),
                transition: Transition {
                    edges: vec![(0, 0), (1, 0)],
                },
                after: state(vec![1, 1], vec![1, 0, 0], r(0)),
            },
            Step {
                delay: r(0),
                transition: Transition {
                    edges: vec![(0, 1)],
                },
                after: state(vec![2, 1], vec![1, 0, 1], r(0)),
            },
        ],
        end: TraceEnd::Goal { delay: r(0) },
    }
}

#[test]
fn pretty_printer_keeps_precedence_and_names() {
    let n = net();
    let (a, b, d) = (var(0), c(2), c(3));
    let sum_times = bin(BinOp::Mul, bin(BinOp::Add, a.clone(), b.clone()), d.clone());
    assert_eq!(pretty::expr(&n, &sum_times), "(v + 2) * 3");
    let times_sum = bin(BinOp::Add, a.clone(), bin(BinOp::Mul, b.clone(), d.clone()));
    assert_eq!(pretty::expr(&n, &times_sum), "v + 2 * 3");
    // Subtraction is left-associative: only the right operand needs parentheses.
    let left = bin(BinOp::Sub, bin(BinOp::Sub, a.clone(), b.clone()), d.clone());
    assert_eq!(pretty::expr(&n, &left), "v - 2 - 3");
    let right = bin(BinOp::Sub, a.clone(), bin(BinOp::Sub, b.clone(), d.clone()));
    assert_eq!(pretty::expr(&n, &right), "v - (2 - 3)");
    let not_and = Expr::Unary(UnOp::Not, Box::new(bin(BinOp::And, a.clone(), b.clone())));
    assert_eq!(pretty::expr(&n, &not_and), "!(v && 2)");
    let cond = Expr::Cond(
        Box::new(bin(BinOp::Or, a.clone(), b.clone())),
        Box::new(c(1)),
        Box::new(bin(BinOp::Min, a.clone(), d.clone())),
    );
    assert_eq!(pretty::expr(&n, &cond), "v || 2 ? 1 : v <? 3");
    let index = Expr::Index {
        base: 1,
        len: 2,
        index: Box::new(bin(BinOp::Add, a, c(1))),
    };
    assert_eq!(pretty::expr(&n, &index), "a[v + 1]");
    assert_eq!(pretty::constraint(&n, &cc(1, 0, true, 4)), "P.x < 4");
    assert_eq!(pretty::constraint(&n, &cc(0, 1, true, -4)), "P.x > 4");
    assert_eq!(pretty::constraint(&n, &cc(0, 1, false, 0)), "P.x >= 0");
    assert_eq!(
        pretty::constraints(&n, &[cc(1, 0, false, 3), cc(0, 1, false, -3)]),
        vec!["P.x == 3".to_owned()]
    );
    // An `||` guard is parenthesised when a clock guard is joined to it.
    let mut e = edge(0, 1);
    e.guard = Some(bin(BinOp::Or, var(0), c(1)));
    e.clock_guard = vec![cc(1, 0, false, 1)];
    assert_eq!(
        pretty::guard(&n, &e).as_deref(),
        Some("(v || 1) && P.x <= 1")
    );
}

#[test]
fn dot_structure() {
    let dot = pictures::graph_dot(&net(), None, None).expect("dot");
    expect![[r##"
        digraph zeno {
          graph [rankdir=LR, fontname="Helvetica", fontsize=14, nodesep=0.4, ranksep=0.6];
          node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#222222", fontname="Helvetica", fontsize=12];
          edge [color="#555555", fontcolor="#222222", fontname="Helvetica", fontsize=11, arrowsize=0.8];
          subgraph cluster_1 {
            label="Q"; id="process Q"; color="#bbbbbb"; style=rounded; labeljust=l;
            p1_l0 [label="wait", id="Q.wait", peripheries=2];
            p1_l1 [label="got", id="Q.got"];
            p1_l0 -> p1_l1 [id="Q.e0", label="sync go?\l"];
          }
          subgraph cluster_0 {
            label="P"; id="process P"; color="#bbbbbb"; style=rounded; labeljust=l;
            p0_l0 [label="idle", id="P.idle", peripheries=2];
            p0_l1 [label="busy (U)\nx <= 5", id="P.busy", fillcolor="#fff4c2"];
            p0_l2 [label="done (C)", id="P.done", fillcolor="#ffd9b3"];
            p0_l0 -> p0_l1 [id="P.e0", label="when v == 0 && x >= 2\lsync go!\ldo x = 0, v = v + 1\l"];
            p0_l1 -> p0_l2 [id="P.e1", label="select i = 1\lwhen a[v] < 3\ldo a[1] = 1\l"];
            p0_l2 -> p0_l2 [id="P.e2"];
            p0_l2 -> p0_l0 [id="P.e3", label="when x == 3\l"];
          }
        }
    "##]]
    .assert_eq(&dot);
}

#[test]
fn dot_of_one_template_with_a_trace() {
    let dot = pictures::graph_dot(&net(), Some("Listener"), Some(&trace())).expect("dot");
    expect![[r##"
        digraph zeno {
          graph [rankdir=LR, fontname="Helvetica", fontsize=14, nodesep=0.4, ranksep=0.6];
          node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#222222", fontname="Helvetica", fontsize=12];
          edge [color="#555555", fontcolor="#222222", fontname="Helvetica", fontsize=11, arrowsize=0.8];
          subgraph cluster_0 {
            label="Q"; id="process Q"; color="#bbbbbb"; style=rounded; labeljust=l;
            p0_l0 [label="wait", id="Q.wait", peripheries=2, color="#1565c0", penwidth=2, fillcolor="#e3f0fd"];
            p0_l1 [label="got", id="Q.got", color="#1565c0", penwidth=2, fillcolor="#e3f0fd"];
            p0_l0 -> p0_l1 [id="Q.e0", label="#1\lsync go?\l", color="#1565c0", fontcolor="#1565c0", penwidth=2.5];
          }
        }
    "##]]
    .assert_eq(&dot);
    // P takes e0 at step 1 and e1 at step 2; e2 and e3 are not taken.
    let dot = pictures::graph_dot(&net(), Some("P"), Some(&trace())).expect("dot");
    assert!(
        dot.contains("[id=\"P.e0\", label=\"#1\\lwhen v == 0"),
        "{dot}"
    );
    assert!(
        dot.contains("[id=\"P.e1\", label=\"#2\\lselect i = 1"),
        "{dot}"
    );
    assert!(dot.contains("[id=\"P.e2\"];"), "{dot}");
    assert!(
        dot.contains("[id=\"P.e3\", label=\"when x == 3\\l\"];"),
        "{dot}"
    );
}

#[test]
fn unknown_process_is_an_error() {
    let err = pictures::graph_dot(&net(), Some("Nope"), None).unwrap_err();
    assert_eq!(
        err,
        PictureError::UnknownProcess {
            name: "Nope".into(),
            known: vec!["Worker".into(), "P".into(), "Listener".into(), "Q".into()],
        }
    );
}

/// Elements of an SVG: (tag, attributes, text content of the element itself).
#[derive(Debug)]
struct Elem {
    tag: String,
    attrs: Vec<(String, String)>,
    text: String,
}

impl Elem {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses `svg` (failing the test on malformed XML) into a flat element list.
fn parse(svg: &str) -> Vec<Elem> {
    let mut reader = Reader::from_str(svg);
    let mut out: Vec<Elem> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) => {
                out.push(elem(&e));
                open.push(out.len() - 1);
            }
            Event::Empty(e) => out.push(elem(&e)),
            Event::End(_) => {
                open.pop();
            }
            Event::Text(t) => {
                if let Some(&i) = open.last() {
                    out[i].text.push_str(&t.unescape().expect("text"));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(open.is_empty(), "unclosed elements");
    out
}

fn elem(e: &quick_xml::events::BytesStart) -> Elem {
    Elem {
        tag: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
        attrs: e
            .attributes()
            .map(|a| {
                let a = a.expect("attribute");
                (
                    String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                    a.unescape_value().expect("value").into_owned(),
                )
            })
            .collect(),
        text: String::new(),
    }
}

fn count_class(elems: &[Elem], tag: &str, class: &str) -> usize {
    elems
        .iter()
        .filter(|e| e.tag == tag && e.attr("class") == Some(class))
        .count()
}

fn texts(elems: &[Elem]) -> Vec<String> {
    elems
        .iter()
        .filter(|e| e.tag == "text")
        .map(|e| e.text.trim().to_owned())
        .collect()
}

fn assert_graph_svg(svg: &str) {
    let elems = parse(svg);
    assert_eq!(elems[0].tag, "svg");
    // One group per location (3 + 2) and per edge (4 + 1), one frame per process.
    assert_eq!(count_class(&elems, "g", "node"), 5, "{svg}");
    assert_eq!(count_class(&elems, "g", "edge"), 5, "{svg}");
    assert_eq!(count_class(&elems, "g", "cluster"), 2, "{svg}");
    let t = texts(&elems);
    for label in [
        "#1",
        "#2",
        "sync go!",
        "sync go?",
        "do a[1] = 1",
        "when x == 3",
        "x <= 5",
    ] {
        assert!(t.iter().any(|s| s == label), "no text {label:?} in {t:?}");
    }
    // Self-contained: nothing is fetched from elsewhere.
    assert!(!svg.contains("xlink:href=\"http"), "{svg}");
    assert!(!svg.contains("<!DOCTYPE"), "{svg}");
    assert!(!svg.contains("@font-face"), "{svg}");
}

#[test]
fn builtin_svg_structure() {
    let svg =
        pictures::graph_svg_with(&net(), None, Some(&trace()), LayoutEngine::Builtin).expect("svg");
    assert_graph_svg(&svg);
    // Shapes only, unless text is asked for (see pictures_render::render).
    #[cfg_attr(not(feature = "render-text"), allow(unused_mut))]
    let mut opt = resvg::usvg::Options::default();
    #[cfg(feature = "render-text")]
    opt.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(&svg, &opt).expect("valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("size");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    // Trace edges are drawn in the trace colour (#1565c0).
    let blue = pixmap
        .pixels()
        .iter()
        .filter(|p| p.red() == 0x15 && p.green() == 0x65 && p.blue() == 0xc0)
        .count();
    assert!(blue > 200, "only {blue} pixels in the trace colour");
    if let Some(dir) = std::env::var_os("ZENO_PICTURES_DIR") {
        let png = pixmap.encode_png().expect("png");
        std::fs::write(std::path::Path::new(&dir).join("small.png"), png).expect("write");
    }
    let elems = parse(&svg);
    let ids: Vec<&str> = elems
        .iter()
        .filter(|e| e.attr("class") == Some("node"))
        .filter_map(|e| e.attr("id"))
        .collect();
    assert_eq!(ids, ["P.idle", "P.busy", "P.done", "Q.wait", "Q.got"]);
}

#[test]
fn graphviz_svg_structure() {
    if !pictures::graphviz_available() {
        eprintln!("Graphviz is not installed; skipped");
        return;
    }
    let svg = pictures::graph_svg_with(&net(), None, Some(&trace()), LayoutEngine::Graphviz)
        .expect("svg");
    assert_graph_svg(&svg);
}

#[test]
fn timeline_structure() {
    let n = net();
    let svg = pictures::trace_svg(&n, n.check_at(0).unwrap(), &trace());
    let elems = parse(&svg);
    assert_eq!(count_class(&elems, "g", "lane"), 2);
    assert_eq!(count_class(&elems, "g", "step"), 2);
    // Step 1 is the synchronisation of P and Q; step 2 is P alone.
    assert_eq!(count_class(&elems, "g", "sync"), 1);
    let numbers: Vec<&str> = elems
        .iter()
        .filter(|e| e.attr("class") == Some("step-number"))
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(numbers, ["1", "2"]);
    // Delays between the columns start, 1, 2, goal.
    let delays: Vec<&str> = elems
        .iter()
        .filter(|e| e.attr("class") == Some("delay"))
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(delays, ["+5/2", "+0", "+0"]);
    let t = texts(&elems);
    assert!(
        t.iter()
            .any(|s| s == "reach E<>: witness, 2 step(s), total time 5/2"),
        "{t:?}"
    );
    for s in [
        "t = 5/2", "go!", "idle", "busy", "done", "wait", "got", "a[1]", "P.x",
    ] {
        assert!(t.iter().any(|x| x == s), "no text {s:?} in {t:?}");
    }
    // P's lane shows idle, busy, done: three stays.
    let lane_p = svg
        .split("<g class=\"lane\" id=\"lane Q\"")
        .next()
        .unwrap_or("");
    assert_eq!(lane_p.matches("class=\"stay\"").count(), 3);
}

#[test]
fn timeline_of_a_model_error() {
    let n = net();
    let mut t = trace();
    t.steps.truncate(1);
    t.end = TraceEnd::ModelError {
        delay: Rational64::new(1, 3),
        transition: Transition {
            edges: vec![(0, 1)],
        },
        error: EvalError::from(ErrorKind::IndexOutOfBounds { index: 2, len: 2 }),
    };
    let svg = pictures::trace_svg(&n, n.check_at(0).unwrap(), &t);
    let elems = parse(&svg);
    // The failing transition is drawn as a step of its own, without a number.
    assert_eq!(count_class(&elems, "g", "step"), 2);
    let numbers: Vec<&str> = elems
        .iter()
        .filter(|e| e.attr("class") == Some("step-number"))
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(numbers, ["1"]);
    let t_texts = texts(&elems);
    for s in [
        "error",
        "array index 2 is out of bounds 0..2",
        "t = 17/6",
        "+1/3",
    ] {
        assert!(
            t_texts.iter().any(|x| x == s),
            "no text {s:?} in {t_texts:?}"
        );
    }
    let dot = pictures::graph_dot(&n, Some("P"), Some(&t)).expect("dot");
    assert!(dot.contains("label=\"#error\\lselect i = 1"), "{dot}");
    let text = pictures::trace_text(&n, n.check_at(0).unwrap(), &t);
    assert!(
        text.ends_with("model error: after delay 1/3, t = 17/6\n  take    P: busy -> done  [select i = 1; when a[v] < 3; do a[1] = 1]\n  fails   array index 2 is out of bounds 0..2\n"),
        "{text}"
    );
}

#[test]
fn trace_as_text_and_json() {
    let n = net();
    let text = pictures::trace_text(&n, n.check_at(0).unwrap(), &trace());
    expect![[r##"
        witness for check `reach` E<>, 2 step(s)
        initial state (t = 0)
          at      P.idle, Q.wait
          vars    v = 0, a[0] = 0, a[1] = 0
          clocks  P.x = 0
        step 1: delay 5/2, t = 5/2
          take    P: idle -> busy  [when v == 0 && P.x >= 2; sync go!; do P.x = 0, v = v + 1]
          take    Q: wait -> got  [sync go?]
          vars    v: 0 -> 1
          at      P.busy, Q.got
          clocks  P.x = 0
        step 2: delay 0, t = 5/2
          take    P: busy -> done  [select i = 1; when a[v] < 3; do a[1] = 1]
          vars    a[1]: 0 -> 1
          at      P.done, Q.got
          clocks  P.x = 0
        goal: after delay 0, t = 5/2
          clocks  P.x = 0
          why     the check's formula holds here
    "##]]
    .assert_eq(&text);
    let json = pictures::trace_json(&n, n.check_at(0).unwrap(), &trace());
    assert_eq!(json["role"], "witness");
    assert_eq!(json["steps"].as_array().map(Vec::len), Some(2));
    assert_eq!(json["steps"][0]["time"], "5/2");
    assert_eq!(json["steps"][0]["edges"][1]["process"], "Q");
    assert_eq!(
        json["steps"][1]["locations"],
        serde_json::json!(["done", "got"])
    );
    assert_eq!(json["steps"][1]["variables"], serde_json::json!([1, 0, 1]));
    assert_eq!(json["end"]["kind"], "goal");
    assert_eq!(json["end"]["ending"]["kind"], "goal");
    assert_eq!(json["end"]["why"], "the check's formula holds here");
}
