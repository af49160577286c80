//! Every picture of every bundled model rendered to pixels, to prove the SVG
//! is valid and not empty; and the example pictures in `docs/pictures/`,
//! rewritten when the test runs with `ZENO_WRITE_PICTURES=1` and
//! `--features render-text`.

use std::path::Path;

use zeno::checker::{self, Cancel, Options, SearchOrder, Trace, Verdict};
use zeno::ir::Network;
use zeno::pictures::{self, LayoutEngine};

fn load(file: &str) -> Network {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("bundled model");
    let analysis = zeno::semantics::analyze(&text);
    analysis.network.expect("bundled model lowers")
}

fn trace_of(net: &Network, check: &str, expected: Verdict) -> (usize, Trace) {
    let index = net
        .checks
        .iter()
        .position(|c| c.name == check)
        .expect("check");
    let options = Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::Bfs,
            ..Default::default()
        },
        ..Options::default()
    };
    let result = checker::check(
        net,
        net.check_at(index).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(result.verdict, expected);
    (index, result.trace.expect("a trace"))
}

/// Renders `svg` to a PNG, and counts the pixels that are not background.
/// Text is drawn only with the `render-text` feature (its font stack is a
/// large share of a clean build); the counts below need only the shapes.
fn render(svg: &str) -> (Vec<u8>, usize) {
    #[cfg_attr(not(feature = "render-text"), allow(unused_mut))]
    let mut opt = resvg::usvg::Options::default();
    #[cfg(feature = "render-text")]
    opt.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(svg, &opt).expect("valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("size");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let ink = pixmap
        .pixels()
        .iter()
        .filter(|p| p.alpha() > 0 && (p.red() < 250 || p.green() < 250 || p.blue() < 250))
        .count();
    (pixmap.encode_png().expect("png"), ink)
}

#[test]
fn docs_pictures() {
    let net = load("fischer-buggy.zeno");
    let (check, trace) = trace_of(&net, "mutex", Verdict::Fails);
    let graph =
        pictures::graph_svg_with(&net, Some("Proc(1)"), Some(&trace), LayoutEngine::Builtin)
            .expect("graph");
    let timeline = pictures::trace_svg(&net, net.check_at(check).unwrap(), &trace);
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures");
    for (name, svg) in [("fischer-graph", &graph), ("fischer-trace", &timeline)] {
        let (png, ink) = render(svg);
        assert!(ink > 1000, "{name} renders almost empty ({ink} pixels)");
        if std::env::var_os("ZENO_WRITE_PICTURES").is_some() {
            write_docs_picture(&out, name, svg, &png);
        }
    }
}

/// Rewrites one of the pictures in `docs/pictures/`.
#[cfg(feature = "render-text")]
fn write_docs_picture(out: &Path, name: &str, svg: &str, png: &[u8]) {
    std::fs::write(out.join(format!("{name}.svg")), svg).expect("write svg");
    std::fs::write(out.join(format!("{name}.png")), png).expect("write png");
}

#[cfg(not(feature = "render-text"))]
fn write_docs_picture(_: &Path, _: &str, _: &str, _: &[u8]) {
    panic!("the pictures in docs/ have text: run with `--features render-text`");
}

/// Keeps a rendered picture in `$ZENO_PICTURES_DIR`, when set, to look at.
fn dump(file: &str, png: &[u8]) {
    if let Some(dir) = std::env::var_os("ZENO_PICTURES_DIR") {
        std::fs::write(Path::new(&dir).join(file), png).expect("write png");
    }
}

#[test]
fn every_bundled_model_renders() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("models")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".zeno"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "bundled models: {files:?}");
    let mut traces = 0;
    for file in &files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        let net = load(name);
        let locations: usize = net.processes.iter().map(|p| p.locations.len()).sum();
        for engine in [LayoutEngine::Builtin, LayoutEngine::Auto] {
            let svg = pictures::graph_svg_with(&net, None, None, engine).expect("graph");
            let (png, ink) = render(&svg);
            dump(&format!("{name}-{engine:?}.png"), &png);
            // Each location box alone covers far more than 100 pixels.
            assert!(
                ink > 100 * locations,
                "{name} {engine:?}: {ink} pixels for {locations} locations"
            );
        }
        for (index, check) in net.checks.iter().enumerate() {
            let options = Options {
                max_states: Some(100_000),
                ..Options::default()
            };
            let result = checker::check(
                &net,
                net.check_at(index).unwrap(),
                &options,
                &Cancel::new(),
                &mut zeno::checker::no_progress,
            );
            let Some(trace) = result.trace else { continue };
            traces += 1;
            let svg = pictures::trace_svg(&net, net.check_at(index).unwrap(), &trace);
            let (png, ink) = render(&svg);
            dump(&format!("{name}-{}-trace.png", check.name), &png);
            assert!(
                ink > 1000,
                "{name} {}: trace renders almost empty",
                check.name
            );
            if let Some(dir) = std::env::var_os("ZENO_PICTURES_DIR") {
                let dot = pictures::graph_dot(&net, None, Some(&trace)).expect("dot");
                let file = Path::new(&dir).join(format!("{name}-{}.dot", check.name));
                std::fs::write(file, dot).expect("write dot");
            }
            let svg = pictures::graph_svg(&net, None, Some(&trace)).expect("graph");
            let (png, ink) = render(&svg);
            assert!(ink > 100 * locations);
            dump(&format!("{name}-{}-graph.png", check.name), &png);
            let graph = pictures::graph_svg_with(&net, None, Some(&trace), LayoutEngine::Builtin)
                .expect("highlighted graph");
            let steps = trace.len();
            for k in 1..=steps {
                assert!(
                    graph.contains(&format!("#{k}")),
                    "{name} {}: no #{k}",
                    check.name
                );
            }
            let (_, ink) = render(&graph);
            assert!(ink > 100 * locations);
        }
    }
    assert!(traces >= 3, "only {traces} traces among the bundled models");
}

/// A box `(x0, y0, x1, y1)` in a process frame's coordinates.
type Rect = (f64, f64, f64, f64);

fn overlap(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn num_attr(e: &quick_xml::events::BytesStart, name: &str) -> f64 {
    e.attributes()
        .filter_map(Result::ok)
        .find(|a| a.key.as_ref() == name.as_bytes())
        .and_then(|a| String::from_utf8_lossy(&a.value).parse().ok())
        .unwrap_or(f64::NAN)
}

/// The location boxes and label text boxes of each process frame of a
/// built-in SVG. Text is measured at 7 px per character (DejaVu Sans at
/// 12 px averages about 6.9), from 11 px above the baseline to 3 below.
fn frames(svg: &str) -> Vec<(Vec<Rect>, Vec<Rect>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut out: Vec<(Vec<Rect>, Vec<Rect>)> = Vec::new();
    // What the innermost open <g> is: 1 node, 2 label, 0 other.
    let mut groups: Vec<u8> = Vec::new();
    let mut in_text: Option<(f64, f64)> = None;
    let mut node_has_box = false;
    loop {
        match reader.read_event().expect("XML") {
            Event::Start(e) if e.name().as_ref() == b"g" => {
                let class = e
                    .attributes()
                    .filter_map(Result::ok)
                    .find(|a| a.key.as_ref() == b"class")
                    .map(|a| String::from_utf8_lossy(&a.value).into_owned());
                match class.as_deref() {
                    Some("cluster") => out.push((Vec::new(), Vec::new())),
                    Some("node") => node_has_box = false,
                    _ => {}
                }
                groups.push(match class.as_deref() {
                    Some("node") => 1,
                    Some("label") => 2,
                    _ => 0,
                });
            }
            Event::End(e) if e.name().as_ref() == b"g" => {
                groups.pop();
            }
            Event::Empty(e) if e.name().as_ref() == b"rect" && groups.last() == Some(&1) => {
                // The first rect is the location; a second is the initial marker.
                if !node_has_box && let Some(f) = out.last_mut() {
                    let (x, y) = (num_attr(&e, "x"), num_attr(&e, "y"));
                    f.0.push((x, y, x + num_attr(&e, "width"), y + num_attr(&e, "height")));
                    node_has_box = true;
                }
            }
            Event::Start(e) if e.name().as_ref() == b"text" && groups.last() == Some(&2) => {
                in_text = Some((num_attr(&e, "x"), num_attr(&e, "y")));
            }
            Event::Text(t) => {
                if let (Some((x, y)), Some(f)) = (in_text.take(), out.last_mut()) {
                    let len = t.unescape().expect("text").chars().count() as f64;
                    f.1.push((x, y - 11.0, x + 7.0 * len, y + 3.0));
                }
            }
            Event::End(e) if e.name().as_ref() == b"text" => in_text = None,
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

#[test]
fn builtin_layout_keeps_labels_apart() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("models") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_owned();
        if !name.ends_with(".zeno") {
            continue;
        }
        let net = load(&name);
        let svg = pictures::graph_svg_with(&net, None, None, LayoutEngine::Builtin).expect("svg");
        for (nodes, labels) in frames(&svg) {
            for (i, a) in labels.iter().enumerate() {
                for b in &labels[i + 1..] {
                    assert!(!overlap(*a, *b), "{name}: labels overlap: {a:?} {b:?}");
                }
                for n in &nodes {
                    assert!(
                        !overlap(*a, *n),
                        "{name}: label over a location: {a:?} {n:?}"
                    );
                }
                checked += 1;
            }
            for (i, a) in nodes.iter().enumerate() {
                for b in &nodes[i + 1..] {
                    assert!(!overlap(*a, *b), "{name}: locations overlap: {a:?} {b:?}");
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} label lines checked");
}
