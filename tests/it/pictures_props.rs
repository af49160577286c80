//! Pictures of arbitrary small networks: never a panic, always well-formed
//! SVG with one group per location and per edge, names escaped.

use proptest::prelude::*;
use quick_xml::Reader;
use quick_xml::events::Event;

use zeno::checker::{ConcreteState, Step, Trace, TraceEnd, Transition};
use zeno::ir::*;
use zeno::pictures::{self, LayoutEngine};

fn span() -> Span {
    Span::default()
}

/// One process whose names carry XML and DOT metacharacters, with `n_locs`
/// locations and the given edges (indices taken modulo `n_locs`).
fn network(n_locs: usize, edges: &[(usize, usize, bool)]) -> Network {
    let locations = (0..n_locs)
        .map(|i| Location {
            name: format!("l{i}<&\"'>"),
            kind: match i % 3 {
                0 => LocationKind::Normal,
                1 => LocationKind::Urgent,
                _ => LocationKind::Committed,
            },
            invariant: vec![],
            data_invariant: None,
            stopped: Vec::new(),
            running: Vec::new(),
            data_rates: Vec::new(),
            span: span(),
        })
        .collect();
    let edges = edges
        .iter()
        .map(|&(s, t, labelled)| Edge {
            source: (s % n_locs) as LocId,
            target: (t % n_locs) as LocId,
            guard: labelled
                .then(|| Expr::Binary(BinOp::Lt, Box::new(Expr::Var(0)), Box::new(Expr::Const(3)))),
            clock_guard: vec![],
            sync: None,
            label: None,
            updates: vec![],
            selects: vec![],
            span: span(),
        })
        .collect();
    Network {
        time_scale: Default::default(),
        variables: vec![Variable {
            name: "v\\\"x".into(),
            lo: 0,
            hi: 5,
            init: 0,
            is_bool: false,
            span: span(),
        }],
        clocks: vec![Clock {
            name: "0".into(),
            span: span(),
        }],
        channels: vec![],
        processes: vec![Process {
            name: "P<\"&>".into(),
            template: "T".into(),
            locations,
            edges,
            initial: 0,
            span: span(),
        }],
        vectors: vec![],
        priorities: Default::default(),
        // A trace is drawn for a check: one whose name needs escaping too.
        checks: vec![zeno::ir::Check {
            name: "c<&>".into(),
            kind: zeno::ir::CheckKind::Reachable(zeno::ir::Formula::True),
            span: span(),
            name_span: span(),
        }],
        lines: None,
        symmetry: Default::default(),
    }
}

/// Counts `<g class=...>` groups by class, failing on malformed XML.
fn groups(svg: &str, class: &str) -> usize {
    let mut reader = Reader::from_str(svg);
    let mut n = 0;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) if e.name().as_ref() == b"g" => {
                let c = e
                    .attributes()
                    .filter_map(Result::ok)
                    .find(|a| a.key.as_ref() == b"class")
                    .map(|a| a.unescape_value().expect("attr").into_owned());
                if c.as_deref() == Some(class) {
                    n += 1;
                }
            }
            Event::Eof => return n,
            _ => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_small_graph_draws(
        n_locs in 1usize..6,
        edges in prop::collection::vec((0usize..6, 0usize..6, any::<bool>()), 0..9),
    ) {
        let net = network(n_locs, &edges);
        let svg = pictures::graph_svg_with(&net, None, None, LayoutEngine::Builtin);
        // `layout-rs` asserts on some graphs; the retries with fewer
        // refinements must still draw every location and edge.
        let svg = svg.expect("built-in layout");
        prop_assert_eq!(groups(&svg, "node"), n_locs);
        prop_assert_eq!(groups(&svg, "edge"), edges.len());
        if pictures::graphviz_available() {
            let svg = pictures::graph_svg_with(&net, None, None, LayoutEngine::Graphviz)
                .expect("Graphviz");
            prop_assert_eq!(groups(&svg, "node"), n_locs);
            prop_assert_eq!(groups(&svg, "edge"), edges.len());
        }
        let dot = pictures::graph_dot(&net, Some("T"), None).expect("dot");
        prop_assert_eq!(dot.matches(" -> ").count(), edges.len());
    }

    #[test]
    fn any_walk_draws_as_a_timeline(
        n_locs in 1usize..5,
        walk in prop::collection::vec((0usize..5, 0i64..4, 1i64..4), 0..8),
    ) {
        // A walk of edges l -> l' with the given delays; the picture does not
        // check the semantics, only draws.
        let edges: Vec<(usize, usize, bool)> = walk
            .iter()
            .scan(0usize, |at, &(to, _, _)| {
                let e = (*at, to % n_locs, true);
                *at = to % n_locs;
                Some(e)
            })
            .collect();
        let net = network(n_locs, &edges);
        let state = |l: usize, v: i32| ConcreteState {
            locations: vec![l as LocId],
            variables: vec![v],
            clocks: vec![num_rational::Rational64::from_integer(0)],
        };
        let steps: Vec<Step> = walk
            .iter()
            .enumerate()
            .map(|(k, &(to, num, den))| Step {
                delay: num_rational::Rational64::new(num, den),
                transition: Transition { edges: vec![(0, k as EdgeId)] },
                after: state(to % n_locs, k as i32 % 5),
            })
            .collect();
        let trace = Trace {
            initial: state(0, 0),
            steps,
            end: TraceEnd::Goal { delay: num_rational::Rational64::new(1, 2) },
        };
        let svg = pictures::trace_svg(&net, net.check_at(0).unwrap(), &trace);
        prop_assert_eq!(groups(&svg, "lane"), 1);
        prop_assert_eq!(groups(&svg, "step"), walk.len());
        let json = pictures::trace_json(&net, net.check_at(0).unwrap(), &trace);
        prop_assert_eq!(json["steps"].as_array().map(Vec::len), Some(walk.len()));
        let text = pictures::trace_text(&net, net.check_at(0).unwrap(), &trace);
        prop_assert_eq!(text.matches("\nstep ").count(), walk.len());
    }
}
