//! Every picture of every bundled model rendered to pixels, to prove the SVG
//! is valid and not empty; and the example pictures in `docs/pictures/`,
//! rewritten when the test runs with `ZENO_WRITE_PICTURES=1`.

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
        search: SearchOrder::Bfs,
        ..Options::default()
    };
    let result = checker::check(net, index, &options, &Cancel::new(), &mut |_| {});
    assert_eq!(result.verdict, expected);
    (index, result.trace.expect("a trace"))
}

/// Renders `svg` to a PNG, and counts the pixels that are not background.
fn render(svg: &str) -> (Vec<u8>, usize) {
    let mut opt = resvg::usvg::Options::default();
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
    let timeline = pictures::trace_svg(&net, check, &trace);
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures");
    for (name, svg) in [("fischer-graph", &graph), ("fischer-trace", &timeline)] {
        let (png, ink) = render(svg);
        assert!(ink > 1000, "{name} renders almost empty ({ink} pixels)");
        if std::env::var_os("ZENO_WRITE_PICTURES").is_some() {
            std::fs::write(out.join(format!("{name}.svg")), svg).expect("write svg");
            std::fs::write(out.join(format!("{name}.png")), png).expect("write png");
        }
    }
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
            let result = checker::check(&net, index, &options, &Cancel::new(), &mut |_| {});
            let Some(trace) = result.trace else { continue };
            traces += 1;
            let svg = pictures::trace_svg(&net, index, &trace);
            let (png, ink) = render(&svg);
            dump(&format!("{name}-{}-trace.png", check.name), &png);
            assert!(
                ink > 1000,
                "{name} {}: trace renders almost empty",
                check.name
            );
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
