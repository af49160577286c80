//! A trace as plain text and as JSON, with names instead of indices.

use std::fmt::Write;

use num_rational::Rational64;
use serde_json::{Value, json};

use zeno_checker::{ConcreteState, Trace, TraceEnd, Transition};
use zeno_ir::{CheckId, CheckKind, Network};

use super::pretty;

/// The check's operator (`A[]`, `E<>`, `A<>`, `E[]`, `-->`), and what a
/// trace of the check is.
pub(crate) fn check_role(
    network: &Network,
    check: CheckId,
) -> (String, &'static str, &'static str) {
    let c = network.check(check);
    match c.kind {
        CheckKind::Invariant(_) => (c.name.clone(), "A[]", "counterexample"),
        CheckKind::Reachable(_) => (c.name.clone(), "E<>", "witness"),
        CheckKind::Inevitable(_) => (c.name.clone(), "A<>", "counterexample"),
        CheckKind::Potentially(_) => (c.name.clone(), "E[]", "witness"),
        CheckKind::LeadsTo(..) => (c.name.clone(), "-->", "counterexample"),
        // A value query has no trace; a state where its predicate holds
        // would be a witness.
        CheckKind::Bound(_) => (c.name.clone(), "sup/inf", "witness"),
    }
}

pub(crate) fn location_name(network: &Network, p: usize, l: u32) -> String {
    network
        .processes
        .get(p)
        .and_then(|proc| proc.locations.get(l as usize))
        .map_or_else(|| format!("#{l}"), |loc| loc.name.clone())
}

/// One edge of a transition: process, source, target and label lines.
pub(crate) struct EdgeInfo {
    pub process_name: String,
    pub source: String,
    pub target: String,
    pub label: Vec<String>,
}

pub(crate) fn edges_of(network: &Network, t: &Transition) -> Vec<EdgeInfo> {
    t.edges
        .iter()
        .map(|&(p, e)| {
            let proc = network.processes.get(p as usize);
            let edge = proc.and_then(|proc| proc.edges.get(e as usize));
            EdgeInfo {
                process_name: proc.map_or_else(|| format!("#{p}"), |proc| proc.name.clone()),
                source: edge.map_or_else(String::new, |ed| {
                    location_name(network, p as usize, ed.source)
                }),
                target: edge.map_or_else(String::new, |ed| {
                    location_name(network, p as usize, ed.target)
                }),
                label: edge.map_or_else(Vec::new, |ed| pretty::edge_label(network, ed)),
            }
        })
        .collect()
}

/// Clock values `delay` after `s`: every real clock advances.
pub(crate) fn delayed(s: &ConcreteState, delay: Rational64) -> Vec<Rational64> {
    s.clocks
        .iter()
        .enumerate()
        .map(|(i, &v)| if i == 0 { v } else { v + delay })
        .collect()
}

fn edge_line(e: &EdgeInfo) -> String {
    let mut s = format!("{}: {} -> {}", e.process_name, e.source, e.target);
    if !e.label.is_empty() {
        let _ = write!(s, "  [{}]", e.label.join("; "));
    }
    s
}

fn clocks_line(network: &Network, clocks: &[Rational64]) -> String {
    let parts: Vec<String> = clocks
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, v)| format!("{} = {v}", pretty::clock_name(network, i as u32)))
        .collect();
    parts.join(", ")
}

fn var_name(network: &Network, i: usize) -> String {
    network
        .variables
        .get(i)
        .map_or_else(|| format!("v{i}"), |v| v.name.clone())
}

/// `trace` with its delays and clock values in the model's time unit
/// ([`Trace::in_model_time`]), with `""`; where a value cannot be divided
/// back, `trace` as it is with a note that says its unit.
pub(crate) fn in_model_time<'t>(
    network: &Network,
    trace: &'t Trace,
) -> (std::borrow::Cow<'t, Trace>, String) {
    match trace.in_model_time(network.time_scale) {
        _ if network.time_scale.is_unit() => (std::borrow::Cow::Borrowed(trace), String::new()),
        Some(t) => (std::borrow::Cow::Owned(t), String::new()),
        None => (
            std::borrow::Cow::Borrowed(trace),
            format!(
                " (times in 1/{} of the model's time unit)",
                network.time_scale.0
            ),
        ),
    }
}

/// The trace as readable text: the initial state, then each step with its
/// delay, absolute time, edges, variable changes and clock values.
pub fn trace_text(network: &Network, check: CheckId, trace: &Trace) -> String {
    let (name, kind, role) = check_role(network, check);
    let ending = zeno_simulate::ending(network, network.check(check), trace);
    let (trace, unit) = in_model_time(network, trace);
    let trace: &Trace = &trace;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{role} for check `{name}` {kind}, {} step(s){unit}",
        trace.len()
    );
    let locs = |s: &ConcreteState| -> String {
        let parts: Vec<String> = s
            .locations
            .iter()
            .enumerate()
            .map(|(p, &l)| {
                let pname = network
                    .processes
                    .get(p)
                    .map_or("?", |proc| proc.name.as_str());
                format!("{pname}.{}", location_name(network, p, l))
            })
            .collect();
        parts.join(", ")
    };
    let _ = writeln!(out, "initial state (t = 0)");
    let _ = writeln!(out, "  at      {}", locs(&trace.initial));
    if !trace.initial.variables.is_empty() {
        let vars: Vec<String> = trace
            .initial
            .variables
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{} = {v}", var_name(network, i)))
            .collect();
        let _ = writeln!(out, "  vars    {}", vars.join(", "));
    }
    if trace.initial.clocks.len() > 1 {
        let _ = writeln!(
            out,
            "  clocks  {}",
            clocks_line(network, &trace.initial.clocks)
        );
    }
    let mut time = Rational64::from_integer(0);
    let mut prev = &trace.initial;
    for (k, step) in trace.steps.iter().enumerate() {
        time += step.delay;
        let _ = writeln!(out, "step {}: delay {}, t = {time}", k + 1, step.delay);
        for e in edges_of(network, &step.transition) {
            let _ = writeln!(out, "  take    {}", edge_line(&e));
        }
        let changes: Vec<String> = step
            .after
            .variables
            .iter()
            .enumerate()
            .filter(|(i, v)| prev.variables.get(*i) != Some(*v))
            .map(|(i, v)| {
                let old = prev.variables.get(i).copied().unwrap_or_default();
                format!("{}: {old} -> {v}", var_name(network, i))
            })
            .collect();
        if !changes.is_empty() {
            let _ = writeln!(out, "  vars    {}", changes.join(", "));
        }
        let _ = writeln!(out, "  at      {}", locs(&step.after));
        if step.after.clocks.len() > 1 {
            let _ = writeln!(
                out,
                "  clocks  {}",
                clocks_line(network, &step.after.clocks)
            );
        }
        prev = &step.after;
    }
    // The time at the end, after the last wait.
    time += trace.end.delay();
    match &trace.end {
        TraceEnd::Goal { delay } => {
            let _ = writeln!(out, "{}: after delay {delay}, t = {time}", ending.label());
            if prev.clocks.len() > 1 {
                let _ = writeln!(
                    out,
                    "  clocks  {}",
                    clocks_line(network, &delayed(prev, *delay))
                );
            }
        }
        TraceEnd::ModelError {
            delay,
            transition,
            error,
        } => {
            let _ = writeln!(out, "model error: after delay {delay}, t = {time}");
            for e in edges_of(network, transition) {
                let _ = writeln!(out, "  take    {}", edge_line(&e));
            }
            let _ = writeln!(
                out,
                "  fails   {}",
                zeno_report::describe_error(network, error)
            );
        }
        TraceEnd::Loop { delay, start, .. } => {
            let _ = writeln!(
                out,
                "loop: after delay {delay}, t = {time}, back at the state after step {start}; the steps after it repeat"
            );
        }
        TraceEnd::Deadlock { delay } => {
            let _ = writeln!(
                out,
                "deadlock: after delay {delay}, t = {time}, no action is possible any more"
            );
        }
        TraceEnd::TimeDiverges => {
            let _ = writeln!(out, "then time passes forever");
        }
    }
    // Why it ends, in the terms of the check (a model error said it above).
    if !matches!(trace.end, TraceEnd::ModelError { .. }) {
        let _ = writeln!(out, "  why     {}", ending.event(None));
    }
    out
}

fn state_json(network: &Network, s: &ConcreteState, clocks: &[Rational64]) -> Value {
    let locations: Vec<String> = s
        .locations
        .iter()
        .enumerate()
        .map(|(p, &l)| location_name(network, p, l))
        .collect();
    let clocks: Vec<String> = clocks.iter().skip(1).map(|v| v.to_string()).collect();
    json!({ "locations": locations, "variables": s.variables, "clocks": clocks })
}

fn edges_json(network: &Network, t: &Transition) -> Value {
    Value::Array(
        edges_of(network, t)
            .into_iter()
            .map(|e| {
                json!({
                    "process": e.process_name,
                    "source": e.source,
                    "target": e.target,
                    "label": e.label,
                })
            })
            .collect(),
    )
}

/// The trace as JSON: names of processes, variables and clocks, then the
/// initial state and each step; rationals are strings such as `"5/2"`.
pub fn trace_json(network: &Network, check: CheckId, trace: &Trace) -> Value {
    let (name, kind, role) = check_role(network, check);
    let ending = zeno_simulate::ending(network, network.check(check), trace);
    // Rationals in the model's time unit; where they cannot be, the JSON
    // says which unit they are in (`time_unit`).
    let (trace, unit) = in_model_time(network, trace);
    let trace: &Trace = &trace;
    let mut time = Rational64::from_integer(0);
    let mut steps = Vec::new();
    let mut prev = &trace.initial;
    for step in &trace.steps {
        time += step.delay;
        let mut s = state_json(network, &step.after, &step.after.clocks);
        s["delay"] = json!(step.delay.to_string());
        s["time"] = json!(time.to_string());
        s["edges"] = edges_json(network, &step.transition);
        steps.push(s);
        prev = &step.after;
    }
    time += trace.end.delay();
    let end = match &trace.end {
        TraceEnd::Goal { delay } => {
            let mut s = state_json(network, prev, &delayed(prev, *delay));
            s["kind"] = json!("goal");
            s["delay"] = json!(delay.to_string());
            s["time"] = json!(time.to_string());
            s
        }
        TraceEnd::ModelError {
            delay,
            transition,
            error,
        } => {
            json!({
                "kind": "model_error",
                "delay": delay.to_string(),
                "time": time.to_string(),
                "edges": edges_json(network, transition),
                "error": zeno_report::describe_error(network, error),
            })
        }
        TraceEnd::Loop { delay, start, .. } => {
            json!({
                "kind": "loop",
                "delay": delay.to_string(),
                "time": time.to_string(),
                "loop_start": start,
            })
        }
        TraceEnd::Deadlock { delay } => {
            json!({ "kind": "deadlock", "delay": delay.to_string(), "time": time.to_string() })
        }
        TraceEnd::TimeDiverges => json!({ "kind": "time_diverges" }),
    };
    let mut end = end;
    end["ending"] = json!(ending);
    end["why"] = json!(ending.event(None));
    let mut picture = json!({
        "check": name,
        "kind": kind,
        "role": role,
        "processes": network.processes.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        "variables": network.variables.iter().map(|v| v.name.clone()).collect::<Vec<_>>(),
        "clocks": network.clocks.iter().skip(1).map(|c| c.name.clone()).collect::<Vec<_>>(),
        "initial": state_json(network, &trace.initial, &trace.initial.clocks),
        "steps": steps,
        "end": end,
    });
    if !unit.is_empty() {
        picture["time_unit"] = json!(format!("1/{}", network.time_scale.0));
    }
    picture
}
