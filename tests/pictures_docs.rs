//! The example pictures in `docs/pictures/`, drawn from the bundled Fischer
//! models. Run with `ZENO_WRITE_PICTURES=1` to rewrite them; without it the
//! test only checks that they can be made and rendered.

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
