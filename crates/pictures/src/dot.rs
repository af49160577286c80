//! Graphviz DOT for process graphs: one cluster per process.

use std::fmt::Write;

use zeno_ir::LocationKind;

use super::diagram::ProcessGraph;
use super::style;

/// A DOT string literal.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Lines joined as a DOT label, each line left-justified (`\l`).
fn left_lines(lines: &[String]) -> String {
    let mut out = String::from("\"");
    for l in lines {
        let q = quote(l);
        out.push_str(&q[1..q.len() - 1]);
        out.push_str("\\l");
    }
    out.push('"');
    out
}

pub(crate) fn node_id(pi: usize, li: usize) -> String {
    format!("p{pi}_l{li}")
}

pub(crate) fn write(graphs: &[ProcessGraph]) -> String {
    let mut out = String::new();
    let font = style::FONT_DOT;
    // `writeln!` into a String cannot fail.
    let _ = writeln!(out, "digraph zeno {{");
    let _ = writeln!(
        out,
        "  graph [rankdir=LR, fontname={}, fontsize=14, nodesep=0.4, ranksep=0.6];",
        quote(font)
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"{}\", color=\"{}\", fontname={}, fontsize=12];",
        style::NODE_FILL,
        style::INK,
        quote(font)
    );
    let _ = writeln!(
        out,
        "  edge [color=\"{}\", fontcolor=\"{}\", fontname={}, fontsize=11, arrowsize=0.8];",
        style::EDGE,
        style::INK,
        quote(font)
    );
    // With `rankdir=LR`, Graphviz stacks clusters upwards in the order they
    // are written; writing them last to first puts the first process on top.
    for (pi, g) in graphs.iter().enumerate().rev() {
        let _ = writeln!(out, "  subgraph cluster_{pi} {{");
        // Title at the left: Graphviz centres it, where it places the
        // labels of edges running over the top of the cluster too.
        let _ = writeln!(
            out,
            "    label={}; id={}; color=\"{}\"; style=rounded; labeljust=l;",
            quote(&g.name),
            quote(&format!("process {}", g.name)),
            style::FRAME
        );
        for (li, n) in g.nodes.iter().enumerate() {
            let mut attrs = vec![
                format!("label={}", quote(&n.label_lines().join("\n"))),
                format!("id={}", quote(&format!("{}.{}", g.name, n.name))),
            ];
            if n.initial {
                attrs.push("peripheries=2".to_owned());
            }
            match n.kind {
                LocationKind::Normal => {}
                LocationKind::Urgent => attrs.push(format!("fillcolor=\"{}\"", style::URGENT_FILL)),
                LocationKind::Committed => {
                    attrs.push(format!("fillcolor=\"{}\"", style::COMMITTED_FILL))
                }
            }
            if n.visited {
                attrs.push(format!("color=\"{}\", penwidth=2", style::TRACE));
                if n.kind == LocationKind::Normal {
                    attrs.push(format!("fillcolor=\"{}\"", style::TRACE_FILL));
                }
            }
            let _ = writeln!(out, "    {} [{}];", node_id(pi, li), attrs.join(", "));
        }
        for (ei, e) in g.edges.iter().enumerate() {
            let lines = e.label_lines();
            let mut attrs = vec![format!("id={}", quote(&format!("{}.e{ei}", g.name)))];
            if !lines.is_empty() {
                attrs.push(format!("label={}", left_lines(&lines)));
            }
            if e.highlighted() {
                let c = if e.error { style::ERROR } else { style::TRACE };
                attrs.push(format!("color=\"{c}\", fontcolor=\"{c}\", penwidth=2.5"));
            }
            let _ = writeln!(
                out,
                "    {} -> {} [{}];",
                node_id(pi, e.source),
                node_id(pi, e.target),
                attrs.join(", ")
            );
        }
        let _ = writeln!(out, "  }}");
    }
    let _ = writeln!(out, "}}");
    out
}
