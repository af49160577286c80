//! A process drawn where a UPPAAL file puts it: each location at its
//! coordinates, each edge bending at its transition's nails, each label
//! where the file puts the transition's first label. The coordinates are
//! spread out (never drawn closer) until the location boxes, larger than
//! UPPAAL's circles, no longer overlap.

use layout::core::geometry::Point;

use zeno_import::TemplateLayout;

use super::builtin::{PAD, Placed, RecordedArrow, bounded, label_x, lines_size, self_loop};
use super::diagram::ProcessGraph;

/// The most the coordinates are spread out.
const MAX_SPREAD: f64 = 4.0;

/// `g` placed by `drawing`; `None` when the drawing lacks a location of `g`
/// (then the process is laid out as any other).
pub(super) fn place(g: &ProcessGraph, drawing: &TemplateLayout) -> Option<Placed> {
    let centres: Vec<(f64, f64)> = g
        .nodes
        .iter()
        .map(|n| {
            drawing
                .locations
                .iter()
                .find(|(name, _)| *name == n.name)
                .map(|(_, at)| *at)
        })
        .collect::<Option<_>>()?;
    let sizes: Vec<Point> = g
        .nodes
        .iter()
        .map(|n| lines_size(&n.label_lines()))
        .collect();
    let k = spread(&centres, &sizes);
    let at = |p: (f64, f64)| Point::new(p.0 * k, p.1 * k);
    let nodes: Vec<(Point, Point)> = centres
        .iter()
        .zip(&sizes)
        .map(|(&c, &size)| {
            let c = at(c);
            (Point::new(c.x - size.x / 2.0, c.y - size.y / 2.0), size)
        })
        .collect();
    let mut edges = Vec::with_capacity(g.edges.len());
    let mut label_left = vec![false; g.edges.len()];
    for (ei, e) in g.edges.iter().enumerate() {
        let (src, dst) = (&g.nodes[e.source].name, &g.nodes[e.target].name);
        // The drawn edge's transition: the same place among the edges
        // between these locations as among the file's transitions.
        let nth = g.edges[..ei]
            .iter()
            .filter(|o| o.source == e.source && o.target == e.target)
            .count();
        let same: Vec<_> = drawing
            .transitions
            .iter()
            .filter(|t| t.source == *src && t.target == *dst)
            .collect();
        let drawn_between = g
            .edges
            .iter()
            .filter(|o| o.source == e.source && o.target == e.target)
            .count();
        // Only when the edges match the transitions one to one.
        let t = (same.len() == drawn_between).then(|| same[nth]);
        let nails: Vec<Point> =
            t.map_or_else(Vec::new, |t| t.nails.iter().map(|&p| at(p)).collect());
        let (s_tl, s_size) = nodes[e.source];
        let (d_tl, d_size) = nodes[e.target];
        let label_at = t.and_then(|t| t.labels.first()).map(|&p| at(p));
        let lines = e.label_lines();
        let size = lines_size(&lines);
        // The middle the label is drawn from (`builtin::label_x`): the
        // block's top left at the file's label point.
        let m = |p: Point| Point::new(p.x + PAD - 8.0, p.y + size.y / 2.0);
        if e.source == e.target && nails.is_empty() {
            let centre = Point::new(s_tl.x + s_size.x + 30.0, s_tl.y + s_size.y / 2.0);
            let mid = label_at.map_or(centre, m);
            label_left[ei] = mid.x < s_tl.x + s_size.x / 2.0;
            edges.push((
                vec![self_loop(s_tl, s_size, mid, ei)],
                (!lines.is_empty()).then_some(mid),
            ));
            continue;
        }
        let mut points = vec![centre(s_tl, s_size)];
        points.extend(nails.iter().copied());
        points.push(centre(d_tl, d_size));
        let last = points.len() - 1;
        points[0] = border(s_tl, s_size, points[1]);
        points[last] = border(d_tl, d_size, points[last - 1]);
        // Without a label point: the middle of the middle segment.
        let mid = label_at.map(m).unwrap_or_else(|| {
            let i = (points.len() - 1) / 2;
            let (a, b) = (points[i], points[i + 1]);
            Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
        });
        edges.push((
            vec![polyline(&points, ei)],
            (!lines.is_empty()).then_some(mid),
        ));
    }
    clear_labels(g, &nodes, &mut edges, &label_left);
    Some(bounded(g, nodes, edges, label_left))
}

/// A rectangle: left, top, right, bottom.
type Rect = (f64, f64, f64, f64);

/// Where the text of edge `ei`'s label is drawn, its middle at `m`.
fn label_rect(g: &ProcessGraph, ei: usize, m: Point, left: bool) -> Rect {
    let size = lines_size(&g.edges[ei].label_lines());
    let x = label_x(m, size, left) + PAD;
    let y = m.y - size.y / 2.0 + PAD / 2.0;
    (x, y, x + size.x - 2.0 * PAD, y + size.y - PAD)
}

/// Whether the segment `a`–`b` meets the rectangle `r` (Liang–Barsky).
pub(super) fn crosses(a: Point, b: Point, r: Rect) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.x - r.0),
        (dx, r.2 - a.x),
        (-dy, a.y - r.1),
        (dy, r.3 - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The straight segments of every edge (a self loop's curve by its ends
/// and control points).
fn segments(edges: &[(Vec<RecordedArrow>, Option<Point>)]) -> Vec<(Point, Point)> {
    let mut out = Vec::new();
    for (arrows, _) in edges {
        for a in arrows {
            let pts: Vec<Point> = a.path.iter().flat_map(|&(p, c)| [p, c]).collect();
            out.extend(pts.windows(2).map(|w| (w[0], w[1])));
        }
    }
    out
}

/// Moves each label that crosses an edge, a location or an earlier label to
/// the nearest place, in steps of 4 px up to 120 px in the eight
/// directions, where it crosses none, else where it crosses fewest.
fn clear_labels(
    g: &ProcessGraph,
    nodes: &[(Point, Point)],
    edges: &mut [(Vec<RecordedArrow>, Option<Point>)],
    label_left: &[bool],
) {
    let segs = segments(edges);
    let boxes: Vec<Rect> = nodes
        .iter()
        .map(|(tl, size)| (tl.x, tl.y, tl.x + size.x, tl.y + size.y))
        .collect();
    let mut placed: Vec<Rect> = Vec::new();
    for ei in 0..edges.len() {
        let Some(m) = edges[ei].1 else {
            continue;
        };
        let conflicts = |r: Rect| {
            segs.iter().filter(|&&(a, b)| crosses(a, b, r)).count()
                + boxes
                    .iter()
                    .chain(&placed)
                    .filter(|&&o| overlaps(o, r))
                    .count()
        };
        let mut best = (conflicts(label_rect(g, ei, m, label_left[ei])), m);
        'search: for step in 1..=30 {
            let d = 4.0 * step as f64;
            for (ux, uy) in [
                (0.0, -1.0),
                (0.0, 1.0),
                (1.0, 0.0),
                (-1.0, 0.0),
                (1.0, -1.0),
                (-1.0, -1.0),
                (1.0, 1.0),
                (-1.0, 1.0),
            ] {
                if best.0 == 0 {
                    break 'search;
                }
                let at = Point::new(m.x + ux * d, m.y + uy * d);
                let n = conflicts(label_rect(g, ei, at, label_left[ei]));
                if n < best.0 {
                    best = (n, at);
                }
            }
        }
        let best = best.1;
        edges[ei].1 = Some(best);
        placed.push(label_rect(g, ei, best, label_left[ei]));
    }
}

fn centre(tl: Point, size: Point) -> Point {
    Point::new(tl.x + size.x / 2.0, tl.y + size.y / 2.0)
}

/// How far the coordinates are spread out so that no two boxes overlap
/// (with a little room): the least factor that separates every pair along
/// x or along y, at least 1, at most `MAX_SPREAD`.
fn spread(centres: &[(f64, f64)], sizes: &[Point]) -> f64 {
    let mut k: f64 = 1.0;
    for i in 0..centres.len() {
        for j in i + 1..centres.len() {
            let (dx, dy) = (
                (centres[i].0 - centres[j].0).abs(),
                (centres[i].1 - centres[j].1).abs(),
            );
            let need_x = (sizes[i].x + sizes[j].x) / 2.0 + 20.0;
            let need_y = (sizes[i].y + sizes[j].y) / 2.0 + 20.0;
            let along = |need: f64, d: f64| if d > 0.0 { need / d } else { f64::INFINITY };
            k = k.max(along(need_x, dx).min(along(need_y, dy)));
        }
    }
    k.clamp(1.0, MAX_SPREAD)
}

/// Where the segment from the centre of the box `tl`, `size` towards `to`
/// leaves the box.
fn border(tl: Point, size: Point, to: Point) -> Point {
    let c = centre(tl, size);
    let (dx, dy) = (to.x - c.x, to.y - c.y);
    if dx == 0.0 && dy == 0.0 {
        return c;
    }
    let tx = if dx != 0.0 {
        size.x / 2.0 / dx.abs()
    } else {
        f64::INFINITY
    };
    let ty = if dy != 0.0 {
        size.y / 2.0 / dy.abs()
    } else {
        f64::INFINITY
    };
    let t = tx.min(ty).min(1.0);
    Point::new(c.x + dx * t, c.y + dy * t)
}

/// Straight segments through `points`, in the path form `builtin` writes
/// (a point and its control point, the same point: no curve).
fn polyline(points: &[Point], ei: usize) -> RecordedArrow {
    RecordedArrow {
        tag: ei.to_string(),
        path: points.iter().map(|&p| (p, p)).collect(),
        head_start: false,
        head_end: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_are_spread_apart_and_edges_leave_at_the_border() {
        let sizes = [Point::new(60.0, 25.0), Point::new(60.0, 25.0)];
        // 40 apart in x: they need 80 (60 + 20): spread by 2.
        assert_eq!(spread(&[(0.0, 0.0), (40.0, 0.0)], &sizes), 2.0);
        // Far apart: drawn as they are.
        assert_eq!(spread(&[(0.0, 0.0), (400.0, 0.0)], &sizes), 1.0);
        let p = border(
            Point::new(0.0, 0.0),
            Point::new(60.0, 20.0),
            Point::new(130.0, 10.0),
        );
        assert_eq!((p.x, p.y), (60.0, 10.0));
    }
}
