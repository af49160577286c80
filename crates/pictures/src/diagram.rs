//! The picture of a set of processes, independent of how it is laid out:
//! labelled locations and edges, with the steps of a trace attached.
//! Both the DOT writer and the built-in SVG layout read this.

use zeno_checker::{Trace, TraceEnd};
use zeno_ir::{LocationKind, Network};

use super::{PictureError, pretty};

/// One process drawn as a graph.
#[derive(Debug, Clone)]
pub(crate) struct ProcessGraph {
    pub name: String,
    /// The process's template (whose drawing a UPPAAL file may carry).
    pub template: String,
    pub nodes: Vec<Node>,
    pub edges: Vec<GraphEdge>,
}

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub name: String,
    pub kind: LocationKind,
    pub initial: bool,
    /// The invariant, one conjunct per entry.
    pub invariant: Vec<String>,
    /// The trace passes through this location.
    pub visited: bool,
}

impl Node {
    /// Lines of the node's label: name (with `U`/`C` marker), then the invariant.
    pub fn label_lines(&self) -> Vec<String> {
        let mut lines = vec![match self.kind {
            LocationKind::Normal => self.name.clone(),
            LocationKind::Urgent => format!("{} (U)", self.name),
            LocationKind::Committed => format!("{} (C)", self.name),
        }];
        lines.extend(self.invariant.iter().cloned());
        lines
    }
}

#[derive(Debug, Clone)]
pub(crate) struct GraphEdge {
    pub source: usize,
    pub target: usize,
    /// select, guard, sync and update lines.
    pub label: Vec<String>,
    /// 1-based trace steps that take this edge, in order.
    pub steps: Vec<usize>,
    /// For an edge drawn once for all values of its `select`, the values
    /// each step took (`e = 1`), beside `steps`; empty otherwise.
    pub step_notes: Vec<String>,
    /// The trace ends with this edge failing (a model error).
    pub error: bool,
    /// The trace is a lasso whose cycle is the steps after this one: they
    /// are marked `↻` (they repeat for ever).
    pub loop_start: Option<usize>,
}

impl GraphEdge {
    /// Label lines with the trace step numbers first (`#1 #4`).
    pub fn label_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.steps.is_empty() || self.error {
            let mut nums: Vec<String> = self
                .steps
                .iter()
                .enumerate()
                .map(|(k, &s)| {
                    let mut n = match self.loop_start {
                        Some(start) if s > start => format!("#{s}↻"),
                        _ => format!("#{s}"),
                    };
                    if let Some(values) = self.step_notes.get(k) {
                        n.push_str(&format!(" ({values})"));
                    }
                    n
                })
                .collect();
            if self.error {
                nums.push("#error".to_owned());
            }
            lines.push(nums.join(" "));
        }
        lines.extend(self.label.iter().cloned());
        lines
    }

    pub fn highlighted(&self) -> bool {
        !self.steps.is_empty() || self.error
    }
}

/// The processes selected by `filter` (a process name or a template name;
/// `None` is every process), with `trace` attached.
pub(crate) fn build(
    net: &Network,
    filter: Option<&str>,
    trace: Option<&Trace>,
) -> Result<Vec<ProcessGraph>, PictureError> {
    let selected: Vec<usize> = net
        .processes
        .iter()
        .enumerate()
        .filter(|(_, p)| filter.is_none_or(|f| p.name == f || p.template == f))
        .map(|(i, _)| i)
        .collect();
    if selected.is_empty()
        && let Some(name) = filter
    {
        let mut known: Vec<String> = Vec::new();
        for p in &net.processes {
            for n in [&p.template, &p.name] {
                if !known.contains(n) {
                    known.push(n.clone());
                }
            }
        }
        return Err(PictureError::UnknownProcess {
            name: name.to_owned(),
            known,
        });
    }
    Ok(selected
        .into_iter()
        .map(|pi| process_graph(net, pi, trace))
        .collect())
}

fn process_graph(net: &Network, pi: usize, trace: Option<&Trace>) -> ProcessGraph {
    let p = &net.processes[pi];
    let mut nodes: Vec<Node> = p
        .locations
        .iter()
        .enumerate()
        .map(|(li, l)| Node {
            name: l.name.clone(),
            kind: l.kind,
            initial: li == p.initial as usize,
            invariant: l
                .data_invariant
                .iter()
                .map(|d| pretty::expr(net, d))
                .chain(pretty::constraints(net, &l.invariant))
                .collect(),
            visited: false,
        })
        .collect();
    let mut edges: Vec<GraphEdge> = p
        .edges
        .iter()
        .map(|e| GraphEdge {
            source: e.source as usize,
            target: e.target as usize,
            label: pretty::edge_label(net, e),
            steps: Vec::new(),
            step_notes: Vec::new(),
            error: false,
            loop_start: trace.and_then(|t| match t.end {
                TraceEnd::Loop { start, .. } => Some(start),
                _ => None,
            }),
        })
        .collect();
    if let Some(t) = trace {
        let mut visit = |locs: &[u32]| {
            if let Some(node) = locs.get(pi).and_then(|&l| nodes.get_mut(l as usize)) {
                node.visited = true;
            }
        };
        visit(&t.initial.locations);
        for (k, step) in t.steps.iter().enumerate() {
            visit(&step.after.locations);
            for &(proc, edge) in &step.transition.edges {
                if proc as usize == pi
                    && let Some(e) = edges.get_mut(edge as usize)
                {
                    e.steps.push(k + 1);
                }
            }
        }
        if let TraceEnd::ModelError { transition, .. } = &t.end {
            for &(proc, edge) in &transition.edges {
                if proc as usize == pi
                    && let Some(e) = edges.get_mut(edge as usize)
                {
                    e.error = true;
                }
            }
        }
    }
    // One drawn edge per `select` edge, not one per value.
    let mut edges = super::selects::merge(edges, &p.edges);
    // A well-formed network never has an edge to a missing location; if one
    // does, leave it out rather than fail on it when laying out.
    let n_locs = nodes.len();
    edges.retain(|e| e.source < n_locs && e.target < n_locs);
    // Inside one process's picture its own names need no qualification:
    // `x`, not `Proc(1).x`.
    let prefix = format!("{}.", p.name);
    let local = |s: &mut String| *s = s.replace(&prefix, "");
    for n in &mut nodes {
        n.invariant.iter_mut().for_each(local);
    }
    for e in &mut edges {
        e.label.iter_mut().for_each(local);
    }
    ProcessGraph {
        name: p.name.clone(),
        template: p.template.clone(),
        nodes,
        edges,
    }
}
