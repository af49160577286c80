//! The pure-Rust layout: each process is laid out by `layout-rs` (a
//! Sugiyama-style layered layout), with every edge label placed as a node of
//! its own so that labels take space in the layout and cannot overlap. The
//! SVG is written here, with the same `node`/`edge`/`cluster` groups as
//! Graphviz's SVG.

use std::cell::Cell;
use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use layout::adt::dag::NodeHandle;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

use zeno_ir::LocationKind;

use super::PictureError;
use super::diagram::ProcessGraph;
use super::style::{self, esc, num, text_width};

const FONT: f64 = 12.0;
const LINE: f64 = 15.0;
pub(super) const PAD: f64 = 10.0;
const GAP: f64 = 30.0;
const TITLE: f64 = 28.0;

/// Keeps the arrows `layout-rs` routes; nodes and labels are drawn from
/// their laid-out positions instead, so that the SVG groups are ours.
#[derive(Default)]
struct Recorder {
    arrows: Vec<RecordedArrow>,
}

pub(super) struct RecordedArrow {
    pub tag: String,
    pub path: Vec<(Point, Point)>,
    pub head_start: bool,
    pub head_end: bool,
}

impl RenderBackend for Recorder {
    fn draw_rect(
        &mut self,
        _: Point,
        _: Point,
        _: &StyleAttr,
        _: Option<String>,
        _: Option<ClipHandle>,
    ) {
    }
    fn draw_line(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}
    fn draw_circle(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}
    fn draw_text(&mut self, _: Point, _: &str, _: &StyleAttr) {}
    fn draw_arrow(
        &mut self,
        path: &[(Point, Point)],
        _dashed: bool,
        head: (bool, bool),
        _look: &StyleAttr,
        properties: Option<String>,
        _text: &str,
    ) {
        if let Some(tag) = properties {
            self.arrows.push(RecordedArrow {
                tag,
                path: path.to_vec(),
                head_start: head.0,
                head_end: head.1,
            });
        }
    }
    fn create_clip(&mut self, _: Point, _: Point, _: usize) -> ClipHandle {
        0
    }
}

/// One process laid out, in its own coordinates.
pub(super) struct Placed {
    /// Top-left and size of each location box.
    pub nodes: Vec<(Point, Point)>,
    /// Per edge: its arrows and the middle of its label.
    pub edges: Vec<(Vec<RecordedArrow>, Option<Point>)>,
    /// Per edge: its label goes left of its point (a self loop on the left).
    pub label_left: Vec<bool>,
    pub min: Point,
    pub max: Point,
}

fn look() -> StyleAttr {
    // Layout reserves `font_size` px per character and per line around an
    // edge's passing point; the drawn 12 px text (about 7.5 px per
    // character) fits in the right half of that.
    StyleAttr::new(Color::fast("black"), 1, None, 0, 16)
}

pub(super) fn lines_size(lines: &[String]) -> Point {
    let w = lines
        .iter()
        .map(|l| text_width(l, FONT))
        .fold(0.0, f64::max);
    Point::new(w + 2.0 * PAD, lines.len() as f64 * LINE + PAD)
}

fn place(g: &ProcessGraph, disable_opt: bool, disable_layout: bool) -> Placed {
    let dir = Orientation::TopToBottom;
    let mut vg = VisualGraph::new(dir);
    let handles: Vec<_> = g
        .nodes
        .iter()
        .map(|n| {
            let lines = n.label_lines();
            let size = lines_size(&lines);
            vg.add_node(Element::create(
                ShapeKind::new_box(&lines.join("\n")),
                look(),
                dir,
                size,
            ))
        })
        .collect();
    // An unlabelled edge gets a one-space label all the same: its connector
    // node keeps it apart from an edge between the same locations in the
    // other direction, which would otherwise be drawn on top of it.
    let texts: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            let text = e.label_lines().join("\n");
            if text.is_empty() {
                " ".to_owned()
            } else {
                text
            }
        })
        .collect();
    for (ei, e) in g.edges.iter().enumerate() {
        // A labelled edge runs through a connector node sized to its label,
        // so labels take part in the layout.
        let mut a = Arrow::simple(&texts[ei]);
        a.properties = Some(format!("{ei}"));
        vg.add_edge(a, handles[e.source], handles[e.target]);
    }
    let mut rec = Recorder::default();
    vg.do_it(false, disable_opt, disable_layout, &mut rec);

    let nodes: Vec<(Point, Point)> = handles
        .iter()
        .map(|&h| {
            let pos = vg.pos(h);
            (pos.bbox(false).0, pos.size(false))
        })
        .collect();
    let mut edges: Vec<(Vec<RecordedArrow>, Option<Point>)> =
        g.edges.iter().map(|_| (Vec::new(), None)).collect();
    for a in rec.arrows {
        if let Some(slot) = a.tag.parse::<usize>().ok().and_then(|i| edges.get_mut(i)) {
            slot.0.push(a);
        }
    }
    // Find each label's connector: the nodes after ours whose text is the
    // label, the one nearest to the edge's source (for a self loop, the loop's).
    let mut taken = vec![false; vg.num_nodes()];
    let mut label_left = vec![false; g.edges.len()];
    for (ei, e) in g.edges.iter().enumerate() {
        if texts[ei].is_empty() {
            continue;
        }
        let from = vg.pos(handles[e.source]).center();
        let to = vg.pos(handles[e.target]).center();
        let mid = Point::new((from.x + to.x) / 2.0, (from.y + to.y) / 2.0);
        // The edge is routed through its own connector: the connector
        // nearest to the edge's own path is its label's, even when another
        // edge between the same locations has the same text. Without a
        // path, the one nearest to the middle between the locations.
        let path: Vec<Point> = edges[ei]
            .0
            .iter()
            .flat_map(|a| a.path.iter().flat_map(|&(p, c)| [p, c]))
            .collect();
        let distance = |m: Point| match path.is_empty() {
            true => m.distance_to(mid),
            false => path
                .iter()
                .map(|p| p.distance_to(m))
                .fold(f64::MAX, f64::min),
        };
        let mut best: Option<(f64, usize)> = None;
        for (i, &used) in taken.iter().enumerate().skip(handles.len()) {
            let h = NodeHandle::new(i);
            if used {
                continue;
            }
            if let ShapeKind::Connector(Some(t)) = &vg.element(h).shape
                && *t == texts[ei]
            {
                let d = distance(vg.pos(h).middle());
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, i));
                }
            }
        }
        if let Some((_, i)) = best {
            taken[i] = true;
            let m = vg.pos(NodeHandle::new(i)).middle();
            edges[ei].1 = Some(m);
            if e.source == e.target {
                let (tl, size) = nodes[e.source];
                edges[ei].0 = vec![self_loop(tl, size, m, ei)];
                label_left[ei] = m.x < tl.x + size.x / 2.0;
            }
        }
    }
    bounded(g, nodes, edges, label_left)
}

/// The placement with the box around everything drawn.
pub(super) fn bounded(
    g: &ProcessGraph,
    nodes: Vec<(Point, Point)>,
    edges: Vec<(Vec<RecordedArrow>, Option<Point>)>,
    label_left: Vec<bool>,
) -> Placed {
    let mut min = Point::new(f64::MAX, f64::MAX);
    let mut max = Point::new(f64::MIN, f64::MIN);
    let mut grow = |p: Point| {
        min = Point::new(min.x.min(p.x), min.y.min(p.y));
        max = Point::new(max.x.max(p.x), max.y.max(p.y));
    };
    for (tl, size) in &nodes {
        grow(*tl);
        grow(tl.add(*size));
    }
    for (ei, (arrows, label)) in edges.iter().enumerate() {
        for a in arrows {
            for (p, c) in &a.path {
                grow(*p);
                grow(*c);
            }
        }
        if let Some(m) = label {
            let size = lines_size(&g.edges[ei].label_lines());
            let x = label_x(*m, size, label_left[ei]);
            grow(Point::new(x, m.y - size.y / 2.0));
            grow(Point::new(x + size.x, m.y + size.y / 2.0));
        }
    }
    if min.x > max.x {
        min = Point::zero();
        max = Point::zero();
    }
    Placed {
        nodes,
        edges,
        label_left,
        min,
        max,
    }
}

/// A loop out of the side of a location box facing its label's connector
/// `m`, reaching just short of the label. (`layout-rs` routes self loops
/// through the connector's corner, which can leave the picture.)
pub(super) fn self_loop(tl: Point, size: Point, m: Point, ei: usize) -> RecordedArrow {
    let cy = tl.y + size.y / 2.0;
    let right = m.x >= tl.x + size.x / 2.0;
    let side = if right { tl.x + size.x } else { tl.x };
    let reach = if right {
        (m.x - 2.0).max(side + 24.0)
    } else {
        (m.x + 2.0).min(side - 24.0)
    };
    // A cubic curve reaches a quarter of the way from its ends to its controls' x.
    let cx = (reach - 0.25 * side) / 0.75;
    let start = Point::new(side, cy - 6.0);
    let end = Point::new(side, cy + 6.0);
    RecordedArrow {
        tag: ei.to_string(),
        path: vec![
            (start, Point::new(cx, cy - 28.0)),
            (Point::new(cx, cy + 28.0), end),
        ],
        head_start: false,
        head_end: true,
    }
}

/// Left edge of a label's box (text starts `PAD` further right). The edge
/// runs through the middle `m` of the space reserved for the label; the
/// text goes in the reserved half right of it, or left for a loop on the left.
pub(super) fn label_x(m: Point, size: Point, left: bool) -> f64 {
    if left { m.x - size.x } else { m.x - PAD + 8.0 }
}

fn path_d(path: &[(Point, Point)]) -> String {
    // The path format of `layout-rs`: the first pair is a point and its exit
    // control point, every later pair a control point and the next point.
    let mut d = String::new();
    if path.len() < 2 {
        return d;
    }
    let p = |q: Point| format!("{} {}", num(q.x), num(q.y));
    let _ = write!(
        d,
        "M {} C {}, {}, {}",
        p(path[0].0),
        p(path[0].1),
        p(path[1].0),
        p(path[1].1)
    );
    for q in &path[2..] {
        let _ = write!(d, " S {}, {}", p(q.0), p(q.1));
    }
    d
}

fn text_lines(
    out: &mut String,
    x: f64,
    y_top: f64,
    lines: &[String],
    anchor: &str,
    color: &str,
    bold_first: bool,
) {
    for (i, l) in lines.iter().enumerate() {
        let weight = if bold_first && i == 0 {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" fill=\"{color}\"{weight}>{}</text>",
            num(x),
            num(y_top + (i as f64 + 0.8) * LINE),
            esc(l)
        );
    }
}

/// Width and height of a process's frame: its layout, and its title.
fn frame_size(g: &ProcessGraph, p: &Placed) -> (f64, f64) {
    let w = (p.max.x - p.min.x + 2.0 * PAD).max(text_width(&g.name, 14.0) + 2.0 * PAD);
    let h = p.max.y - p.min.y + 2.0 * PAD + TITLE;
    (w, h)
}

fn write_process(out: &mut String, g: &ProcessGraph, p: &Placed, dx: f64, dy: f64) {
    let (w, h) = frame_size(g, p);
    let _ = writeln!(
        out,
        "<g class=\"cluster\" id=\"{}\" transform=\"translate({} {})\">",
        esc(&format!("process {}", g.name)),
        num(dx),
        num(dy)
    );
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"none\" stroke=\"{}\"/>",
        num(w),
        num(h),
        style::FRAME
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"19\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\" fill=\"{}\">{}</text>",
        num(w / 2.0),
        style::INK,
        esc(&g.name)
    );
    // Shift the layout's coordinates into the frame.
    let ox = PAD - p.min.x;
    let oy = PAD + TITLE - p.min.y;
    let _ = writeln!(out, "<g transform=\"translate({} {})\">", num(ox), num(oy));
    for (ei, e) in g.edges.iter().enumerate() {
        let (arrows, label) = &p.edges[ei];
        let color = if e.error {
            style::ERROR
        } else if e.highlighted() {
            style::TRACE
        } else {
            style::EDGE
        };
        let width = if e.highlighted() { 2.5 } else { 1.2 };
        let marker = if e.error {
            "arrow-error"
        } else if e.highlighted() {
            "arrow-trace"
        } else {
            "arrow"
        };
        let _ = writeln!(
            out,
            "<g class=\"edge\" id=\"{}\">",
            esc(&format!("{}.e{ei}", g.name))
        );
        for a in arrows {
            let mut attrs = String::new();
            if a.head_end {
                let _ = write!(attrs, " marker-end=\"url(#{marker})\"");
            }
            if a.head_start {
                let _ = write!(attrs, " marker-start=\"url(#{marker}-start)\"");
            }
            let _ = writeln!(
                out,
                "<path d=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{width}\"{attrs}/>",
                path_d(&a.path)
            );
        }
        if let Some(m) = label {
            let lines = e.label_lines();
            let size = lines_size(&lines);
            let x = label_x(*m, size, p.label_left[ei]) + PAD;
            let y = m.y - size.y / 2.0 + PAD / 2.0;
            let text_color = if e.highlighted() { color } else { style::INK };
            // A halo in the background colour keeps the text readable over lines.
            let _ = writeln!(
                out,
                "<g class=\"label\" paint-order=\"stroke\" stroke=\"{}\" stroke-width=\"4\" stroke-linejoin=\"round\">",
                style::BACKGROUND
            );
            text_lines(out, x, y, &lines, "start", text_color, e.highlighted());
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
    for (li, n) in g.nodes.iter().enumerate() {
        let (tl, size) = p.nodes[li];
        let fill = match n.kind {
            LocationKind::Normal if n.visited => style::TRACE_FILL,
            LocationKind::Normal => style::NODE_FILL,
            LocationKind::Urgent => style::URGENT_FILL,
            LocationKind::Committed => style::COMMITTED_FILL,
        };
        let stroke = if n.visited { style::TRACE } else { style::INK };
        let sw = if n.visited { 2.0 } else { 1.2 };
        let _ = writeln!(
            out,
            "<g class=\"node\" id=\"{}\">",
            esc(&format!("{}.{}", g.name, n.name))
        );
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{sw}\"/>",
            num(tl.x),
            num(tl.y),
            num(size.x),
            num(size.y)
        );
        if n.initial {
            let _ = writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"11\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{sw}\"/>",
                num(tl.x - 4.0),
                num(tl.y - 4.0),
                num(size.x + 8.0),
                num(size.y + 8.0)
            );
        }
        text_lines(
            out,
            tl.x + size.x / 2.0,
            tl.y + PAD / 2.0,
            &n.label_lines(),
            "middle",
            style::INK,
            true,
        );
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</g>\n</g>");
}

fn markers(out: &mut String) {
    let _ = writeln!(out, "<defs>");
    for (id, color) in [
        ("arrow", style::EDGE),
        ("arrow-trace", style::TRACE),
        ("arrow-error", style::ERROR),
    ] {
        let _ = writeln!(
            out,
            "<marker id=\"{id}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{color}\"/></marker>"
        );
        let _ = writeln!(
            out,
            "<marker id=\"{id}-start\" viewBox=\"0 0 10 10\" refX=\"1\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path d=\"M10,0 L0,5 L10,10 z\" fill=\"{color}\"/></marker>"
        );
    }
    let _ = writeln!(out, "</defs>");
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with panic messages of this thread silenced: a caught assertion
/// of `layout-rs` is handled by a retry and is no news to the user. Panics
/// of other threads are reported as before.
fn quietly<T>(f: impl FnOnce() -> T) -> T {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = f();
    QUIET.with(|q| q.set(false));
    result
}

/// Lays out `g`, retrying with fewer of `layout-rs`'s refinements when one
/// of its internal assertions fails (it asserts rather than returning
/// errors); such a failure must not take the caller down.
fn place_robustly(g: &ProcessGraph) -> Result<Placed, PictureError> {
    for (disable_opt, disable_layout) in [(false, false), (true, false), (true, true)] {
        let attempt =
            quietly(|| catch_unwind(AssertUnwindSafe(|| place(g, disable_opt, disable_layout))));
        if let Ok(p) = attempt {
            return Ok(p);
        }
    }
    Err(PictureError::Layout(format!(
        "the built-in layout failed on process {}",
        g.name
    )))
}

/// The SVG of `graphs`, processes side by side.
pub(crate) fn svg(graphs: &[ProcessGraph]) -> Result<String, PictureError> {
    svg_drawn(graphs, &[])
}

/// [`svg`], with each process whose template `drawings` has (a UPPAAL
/// file's coordinates for every location) drawn where its author put it.
pub(crate) fn svg_drawn(
    graphs: &[ProcessGraph],
    drawings: &[zeno_import::TemplateLayout],
) -> Result<String, PictureError> {
    // `layout-rs` asserts on internal invariants; a failure there must not
    // take the caller down with it.
    let placed: Vec<Placed> = graphs
        .iter()
        .map(|g| match drawings.iter().find(|d| d.name == g.template) {
            Some(d) => super::drawn::place(g, d).map_or_else(|| place_robustly(g), Ok),
            None => place_robustly(g),
        })
        .collect::<Result<_, _>>()?;
    let mut body = String::new();
    let mut x = GAP / 2.0;
    let mut height: f64 = 0.0;
    for (g, p) in graphs.iter().zip(&placed) {
        write_process(&mut body, g, p, x, GAP / 2.0);
        let (w, h) = frame_size(g, p);
        x += w + GAP;
        height = height.max(h + GAP);
    }
    let width = x - GAP / 2.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{}\" font-size=\"{FONT}\">",
        style::FONT_SVG,
        w = num(width.max(1.0)),
        h = num(height.max(1.0)),
    );
    markers(&mut out);
    let _ = writeln!(
        out,
        "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>",
        style::BACKGROUND
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{GraphEdge, Node};

    fn node(name: &str) -> Node {
        Node {
            name: name.to_string(),
            kind: LocationKind::Normal,
            initial: false,
            invariant: Vec::new(),
            visited: false,
        }
    }

    fn edge(source: usize, target: usize, steps: Vec<usize>) -> GraphEdge {
        GraphEdge {
            source,
            target,
            label: vec!["sync c!".to_string()],
            steps,
            step_notes: Vec::new(),
            error: false,
            loop_start: None,
        }
    }

    #[test]
    fn each_label_sits_on_its_own_edge() {
        // Edges with the same text between the same locations, both ways and
        // twice the same way: each label's point is on its own edge's path.
        let g = ProcessGraph {
            name: "P".to_string(),
            template: "P".to_string(),
            nodes: vec![node("a"), node("b")],
            edges: vec![
                edge(0, 1, vec![]),
                edge(1, 0, vec![]),
                edge(0, 1, vec![]),
                edge(1, 0, vec![]),
            ],
        };
        let p = place_robustly(&g).expect("placed");
        for (ei, (arrows, label)) in p.edges.iter().enumerate() {
            let m = label.expect("a label");
            let nearest = arrows
                .iter()
                .flat_map(|a| a.path.iter().flat_map(|&(q, c)| [q, c]))
                .map(|q| q.distance_to(m))
                .fold(f64::MAX, f64::min);
            // Nearer its own edge than any other edge.
            for (other, (oa, _)) in p.edges.iter().enumerate().filter(|(o, _)| *o != ei) {
                let d = oa
                    .iter()
                    .flat_map(|a| a.path.iter().flat_map(|&(q, c)| [q, c]))
                    .map(|q| q.distance_to(m))
                    .fold(f64::MAX, f64::min);
                assert!(
                    nearest <= d,
                    "edge {ei}'s label is nearer edge {other} ({nearest} > {d})"
                );
            }
        }
    }
}
