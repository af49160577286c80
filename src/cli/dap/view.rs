//! What the client shows of the current stop: processes as threads, each
//! process's location as its top stack frame (and, when the last step moved
//! the process, the edge it took below it), the scopes and variables, the
//! `stopped` event that says where and why the session halted.
//!
//! Ids: thread `p + 1` is process `p`; frame `2p + 1` is its location and
//! `2p + 2` the edge it came by; variables reference 1 is the global
//! variables, 2 the clocks, `3 + p` process `p`'s locals, `2^24 + i` the
//! elements of the array whose first slot is `i`.
//!
//! A value changed by the last step is marked in its text: `2 (was 0)`
//! (for a clock: a value other than the old one plus the time waited, as
//! after a reset).

use num_rational::Rational64;
use serde_json::{Value, json};
use zeno::checker::ConcreteState;
use zeno::checker::dbm::{Dbm, bound};
use zeno::ir::{ProcId, Span};
use zeno::simulate::zone;

use super::place::Target;
use super::session::Debuggee;

/// The client's line and column bases (1 unless it said otherwise).
pub struct Bases {
    pub line: u32,
    pub column: u32,
}

const GLOBALS: i64 = 1;
const CLOCKS: i64 = 2;
const LOCALS: i64 = 3;
/// Plus an array's first slot: the array's elements.
const ARRAYS: i64 = 1 << 24;

/// The `stopped` event at the current stop: `reason` as the client reads
/// it, with the trace's end (or a loop's start) and `note` (why a step
/// could not be taken) in its description and text. The end of a
/// counterexample is reported as an exception, so that editors show its
/// text at the frame.
pub fn stopped(d: &Debuggee, reason: &str, note: Option<String>) -> Value {
    let ending = d.ending();
    let mut position = match d.trace_len() {
        Some(_) => format!("state {} of {}", d.at(), d.len() - 1),
        None => format!("state {}", d.at()),
    };
    if d.lap() > 0 {
        position.push_str(&format!(" (round {} of the loop)", d.lap() + 1));
    }
    let (reason, description, text) = match (&note, &ending) {
        (Some(n), _) => (reason, format!("{position}: {n}"), n.clone()),
        (None, Some(e)) if e.violation && d.at_trace_end() => (
            "exception",
            e.short.clone(),
            format!("{position}: {}", e.text),
        ),
        (None, Some(e)) => (reason, format!("{position}: {}", e.short), e.text.clone()),
        (None, None) => (reason, position.clone(), position),
    };
    // The thread of the process that moved last (else the first).
    let thread = d
        .step_into(d.at())
        .and_then(|s| s.transition)
        .and_then(|t| t.edges.first().map(|&(p, _)| p as i64 + 1))
        .unwrap_or(1);
    json!({"type": "event", "event": "stopped", "body": {
        "reason": reason, "description": description, "text": text,
        "threadId": thread, "allThreadsStopped": true,
    }})
}

/// The frames of thread `thread`.
pub fn frames(d: &Debuggee, thread: i64, bases: &Bases) -> Result<Vec<Value>, String> {
    let p = process_of(d, thread)?;
    let state = d.state();
    let process = &d.net.processes[p as usize];
    let location = &process.locations[state.locations[p as usize] as usize];
    let mut name = location.name.clone();
    if let Some(e) = d.ending() {
        name = format!("{name} ({})", e.short);
    }
    let mut out = vec![frame(d, 2 * p as i64 + 1, name, location.span, bases)];
    if let Some(step) = d.step_into(d.at())
        && let Some(t) = &step.transition
        && let Some(&(_, e)) = t.edges.iter().find(|&&(q, _)| q == p)
    {
        let edge = &process.edges[e as usize];
        let from = &process.locations[edge.source as usize].name;
        let name = format!("via {from} -> {}", location.name);
        out.push(frame(d, 2 * p as i64 + 2, name, edge.span, bases));
    }
    Ok(out)
}

fn frame(d: &Debuggee, id: i64, name: String, span: Span, bases: &Bases) -> Value {
    let mut f = json!({"id": id, "name": name, "line": 0, "column": 0});
    if let Some(at) = d.places.place(span) {
        f["source"] = source(d);
        f["line"] = json!(at.line + bases.line);
        f["column"] = json!(at.column + bases.column);
        f["endLine"] = json!(at.end_line + bases.line);
        f["endColumn"] = json!(at.end_column + bases.column);
    }
    f
}

fn source(d: &Debuggee) -> Value {
    let path = &d.places.path;
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
    json!({"name": name, "path": path})
}

pub(super) fn process_of(d: &Debuggee, thread: i64) -> Result<ProcId, String> {
    usize::try_from(thread - 1)
        .ok()
        .filter(|&p| p < d.net.processes.len())
        .map(|p| p as ProcId)
        .ok_or_else(|| format!("there is no thread {thread}"))
}

/// The scopes of frame `frame`.
pub fn scopes(d: &Debuggee, frame: i64) -> Result<Vec<Value>, String> {
    let p = process_of(d, (frame + 1) / 2)?;
    let name = &d.net.processes[p as usize].name;
    Ok(vec![
        json!({"name": "Variables", "variablesReference": GLOBALS, "expensive": false}),
        json!({"name": "Clocks", "variablesReference": CLOCKS, "expensive": false}),
        json!({"name": format!("Locals of {name}"), "variablesReference": LOCALS + p as i64, "expensive": false}),
    ])
}

/// The variables of `reference`.
pub fn variables(d: &Debuggee, reference: i64) -> Result<Vec<Value>, String> {
    let state = d.state();
    let step = d.step_into(d.at());
    let before = step.as_ref().map(|s| &s.before);
    let delay = step
        .as_ref()
        .map_or(Rational64::from_integer(0), |s| s.delay);
    let local_of = |name: &str| {
        d.net
            .processes
            .iter()
            .position(|p| name.starts_with(&format!("{}.", p.name)))
    };
    match reference {
        GLOBALS => {
            let mut out = vec![variable("(state)", describe_stop(d))];
            out.extend(data(d, &state, before, |name| local_of(name).is_none()));
            Ok(out)
        }
        CLOCKS => Ok(clocks(d, &state, before, delay, |_| true)),
        r if (LOCALS..ARRAYS).contains(&r) && ((r - LOCALS) as usize) < d.net.processes.len() => {
            let p = (r - LOCALS) as usize;
            let mine = |name: &str| local_of(name) == Some(p);
            let mut out = data(d, &state, before, mine);
            out.extend(clocks(d, &state, before, delay, mine));
            Ok(out)
        }
        r if r >= ARRAYS
            && ((r - ARRAYS) as usize) < d.net.variables.len()
            && array_name(&d.net.variables[(r - ARRAYS) as usize].name).is_some() =>
        {
            let slots = array_slots(d, (r - ARRAYS) as usize);
            Ok(slots.map(|k| slot(d, &state, before, k)).collect())
        }
        _ => Err(format!("there is no variables reference {reference}")),
    }
}

fn variable(name: &str, value: String) -> Value {
    json!({"name": name, "value": value, "variablesReference": 0})
}

/// Where the stop is in the run and how it was reached.
fn describe_stop(d: &Debuggee) -> String {
    let mut text = match d.trace_len() {
        Some(_) => format!("{} of {}", d.at(), d.len() - 1),
        None => d.at().to_string(),
    };
    match d.step_into(d.at()) {
        None => text.push_str(", the initial state"),
        Some(step) => {
            let waited = if step.delay == Rational64::from_integer(0) {
                String::new()
            } else {
                format!("after waiting {}, ", step.delay)
            };
            match &step.transition {
                Some(t) => {
                    let edges = d.describe(t, &step.before);
                    text.push_str(&format!(", {waited}by {edges}"));
                }
                None => text.push_str(&format!(", {waited}the trace's final wait")),
            }
        }
    }
    if let Some(e) = d.ending() {
        text.push_str(&format!(" — {}", e.text));
    }
    text
}

/// The variables whose names `keep` keeps, changed ones marked; the
/// elements of an array (slots `a[0]`, `a[1]`, … one after another) as one
/// entry `a = [0, 5, 0]` whose children are the elements.
fn data(
    d: &Debuggee,
    state: &ConcreteState,
    before: Option<&ConcreteState>,
    keep: impl Fn(&str) -> bool,
) -> Vec<Value> {
    let names = &d.net.variables;
    let mut out = Vec::new();
    let mut i = 0;
    while i < names.len() {
        if !keep(&names[i].name) {
            i += 1;
            continue;
        }
        let Some(array) = array_name(&names[i].name) else {
            out.push(slot(d, state, before, i));
            i += 1;
            continue;
        };
        let slots = array_slots(d, i);
        let values = |s: &ConcreteState| {
            let shown: Vec<String> = slots.clone().map(|k| show(d, k, &s.variables)).collect();
            format!("[{}]", shown.join(", "))
        };
        let mut value = values(state);
        if let Some(b) = before
            && slots.clone().any(|k| b.variables[k] != state.variables[k])
        {
            value = format!("{value} (was {})", values(b));
        }
        out.push(json!({
            "name": array, "value": value,
            "variablesReference": ARRAYS + i as i64,
            "indexedVariables": slots.len(),
        }));
        i = slots.end;
    }
    out
}

/// The name of the array slot `name` belongs to (`a` of `a[2]`, `P.b` of
/// `P.b[0][1]`); `None` for a scalar.
fn array_name(name: &str) -> Option<&str> {
    name.find('[').map(|at| &name[..at])
}

/// The slots of the array whose first element is slot `first`.
fn array_slots(d: &Debuggee, first: usize) -> std::ops::Range<usize> {
    let names = &d.net.variables;
    let array = array_name(&names[first].name);
    let end = (first..names.len())
        .find(|&k| array_name(&names[k].name) != array)
        .unwrap_or(names.len());
    first..end
}

/// Slot `i`'s value as the model writes it (`true`, `3`).
fn show(d: &Debuggee, i: usize, values: &[i32]) -> String {
    match (d.net.variables[i].is_bool, values[i]) {
        (true, 0) => "false".to_string(),
        (true, 1) => "true".to_string(),
        (_, n) => n.to_string(),
    }
}

/// One slot, marked when the last step changed it.
fn slot(d: &Debuggee, state: &ConcreteState, before: Option<&ConcreteState>, i: usize) -> Value {
    let mut value = show(d, i, &state.variables);
    if let Some(b) = before
        && b.variables[i] != state.variables[i]
    {
        value = format!("{value} (was {})", show(d, i, &b.variables));
    }
    variable(&d.net.variables[i].name, value)
}

/// The clocks whose names `keep` keeps: value and bounds in the zone, a
/// value not reached by waiting marked; with all clocks, the whole zone
/// last (with the differences its bounds do not imply).
fn clocks(
    d: &Debuggee,
    state: &ConcreteState,
    before: Option<&ConcreteState>,
    delay: Rational64,
    keep: impl Fn(&str) -> bool,
) -> Vec<Value> {
    let zone = d.zone();
    let mut out = Vec::new();
    let mut all = true;
    for (c, clock) in d.net.clocks.iter().enumerate().skip(1) {
        if !keep(&clock.name) {
            all = false;
            continue;
        }
        let value = state.clocks[c];
        let mut text = value.to_string();
        if let Ok(z) = &zone {
            text.push_str(&format!(" ∈ {}", interval(z, c)));
        }
        if let Some(b) = before
            && b.clocks[c] + delay != value
        {
            text.push_str(&format!(" (was {})", b.clocks[c]));
        }
        out.push(variable(&clock.name, text));
    }
    if all {
        let text = match &zone {
            Ok(z) => zone::describe(d.net, z).join(" && "),
            Err(e) => e.clone(),
        };
        out.push(variable(
            "(zone)",
            if text.is_empty() { "true".into() } else { text },
        ));
    }
    out
}

/// The bounds of clock `c` in `zone`: `[2, 4]`, `(1, ∞)`.
fn interval(zone: &Dbm, c: usize) -> String {
    let lower = zone.get(0, c);
    let upper = zone.get(c, 0);
    let open = if bound::is_strict(lower) { "(" } else { "[" };
    let low = -bound::value(lower);
    if upper == bound::INF {
        return format!("{open}{low}, ∞)");
    }
    let close = if bound::is_strict(upper) { ")" } else { "]" };
    format!("{open}{low}, {}{close}", bound::value(upper))
}

/// The stops the client may jump to from `line` (0-based): those whose
/// step entered a location or took an edge written on that line, and the
/// initial state where an initial location is written there.
pub fn goto_targets(d: &Debuggee, line: u32) -> Vec<Value> {
    let targets = d.places.on_line(d.net, line);
    let mut out = Vec::new();
    for k in 0..d.len() {
        let state = d.state_at(k);
        let reached = match d.step_into(k) {
            None => targets.iter().any(|t| match *t {
                Target::Location(p, l) => state.locations[p as usize] == l,
                Target::Edge(..) => false,
            }),
            Some(step) => step.transition.is_some_and(|t| {
                targets.iter().any(|target| match *target {
                    Target::Edge(p, e) => t.edges.contains(&(p, e)),
                    Target::Location(p, l) => {
                        t.edges.iter().any(|&(q, _)| q == p) && state.locations[p as usize] == l
                    }
                })
            }),
        };
        if reached {
            out.push(json!({"id": k + 1, "label": format!("state {k}")}));
        }
    }
    out
}
