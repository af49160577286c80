//! What a session prints: the state and the enabled transitions, as text
//! for people or as one JSON object per command for scripts and editors.

use serde::Serialize;
use zeno::checker::Transition;
use zeno::report::NamedValue;
use zeno::simulate::{Clocks, Enabled, Mode, Move, zone};

use super::super::report::{self as cli_report, Binding, EdgeReport, LocationValue};
use super::super::source::Source;
use super::session::{Note, Session};

/// The state and what can be done from it.
#[derive(Serialize)]
pub struct View {
    pub mode: &'static str,
    /// Index of the state in the history (0: the initial state).
    pub position: usize,
    /// States in the history, including those after `position` (after `back`).
    pub history: usize,
    /// How the state was reached.
    pub via: Via,
    pub locations: Vec<LocationValue>,
    pub variables: Vec<Binding>,
    /// Concrete mode: the clock values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<NamedValue>>,
    /// Symbolic mode: the zone, one constraint per string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<Vec<String>>,
    /// Concrete mode: the delays allowed here, `[0, 2]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delays: Option<String>,
    /// A run-time error of the model in this state (a guard that fails).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// At the end of a loaded trace: why it ends there (the violation of
    /// its check, a deadlock, the loop of a lasso).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_end: Option<TraceEndView>,
    pub transitions: Vec<TransitionView>,
}

/// The end of a loaded trace.
#[derive(Serialize)]
pub struct TraceEndView {
    pub check: String,
    #[serde(flatten)]
    pub ending: zeno::report::Ending,
    pub words: String,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Via {
    Start,
    Delay { delay: String },
    Fire { edges: Vec<EdgeReport> },
}

#[derive(Serialize)]
pub struct TransitionView {
    /// What `N` fires it with.
    pub number: usize,
    pub edges: Vec<EdgeReport>,
    /// Whether it can be taken without waiting.
    pub now: bool,
    /// Concrete mode: the delays after which it can be taken.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<String>,
    /// Symbolic mode: the zone it leads to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<Vec<String>>,
    /// Taking it raises this run-time error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

fn edges(source: &Source, session: &Session, t: &Transition) -> Vec<EdgeReport> {
    cli_report::transition(source, session.network(), t, &session.discrete())
}

/// The current state as data.
pub fn view(source: &Source, session: &Session) -> View {
    let sim = &session.sim;
    let net = session.network();
    let state = sim.state();
    let entry = &sim.history()[sim.position()];
    let via = match &entry.via {
        Move::Start => Via::Start,
        Move::Delay(d) => Via::Delay {
            delay: d.to_string(),
        },
        // The edges as they were taken: channel indices evaluated in the
        // state before (the previous history entry).
        Move::Fire(t) => Via::Fire {
            edges: cli_report::transition(source, net, t, &{
                let before = sim
                    .position()
                    .checked_sub(1)
                    .map_or(state, |i| &sim.history()[i].state);
                zeno::checker::ConcreteState {
                    locations: before.locations.clone(),
                    variables: before.variables.clone(),
                    clocks: Vec::new(),
                }
            }),
        },
    };
    let (enabled, error) = match sim.enabled() {
        Ok(e) => (e, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let (clocks, zone) = match &state.clocks {
        Clocks::Values(v) => (Some(zeno::report::clock_values(net, v)), None),
        Clocks::Zone(z) => (None, Some(zone::describe(net, z))),
    };
    View {
        mode: match sim.mode() {
            Mode::Concrete => "concrete",
            Mode::Symbolic => "symbolic",
        },
        position: sim.position(),
        history: sim.history().len(),
        via,
        locations: state
            .locations
            .iter()
            .enumerate()
            .map(|(p, &l)| {
                let proc_ = &net.processes[p];
                LocationValue {
                    process: proc_.name.clone(),
                    location: proc_
                        .locations
                        .get(l as usize)
                        .map_or(format!("#{l}"), |l| l.name.clone()),
                }
            })
            .collect(),
        variables: cli_report::variable_bindings(net, &state.variables),
        clocks,
        zone,
        delays: sim.allowed_delays().ok().flatten().map(|w| w.to_string()),
        error,
        trace_end: session.at_trace_end().map(|l| {
            let c = net.check(l.check);
            let formula = cli_report::formula_of(source.slice(c.span));
            TraceEndView {
                check: c.name.clone(),
                words: l.ending.words(&c.name, &formula),
                ending: l.ending.clone(),
            }
        }),
        transitions: enabled
            .iter()
            .enumerate()
            .map(|(i, o)| transition_view(source, session, i + 1, o))
            .collect(),
    }
}

fn transition_view(
    source: &Source,
    session: &Session,
    number: usize,
    o: &Enabled,
) -> TransitionView {
    TransitionView {
        number,
        edges: edges(source, session, &o.transition),
        now: o.now(),
        windows: o.windows.iter().map(|w| w.to_string()).collect(),
        zone: o.successor.as_ref().and_then(|s| match &s.clocks {
            Clocks::Zone(z) => Some(zone::describe(session.network(), z)),
            Clocks::Values(_) => None,
        }),
        error: o.error.clone(),
    }
}

/// One line of `--format json`: the command, then either the state or the
/// error.
#[derive(Serialize)]
pub struct JsonLine<'a> {
    /// The command line answered; `null` on the first line, which shows
    /// the initial state before any command.
    pub command: Option<&'a str>,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<View>,
}

#[derive(Serialize)]
pub struct RandomView {
    pub taken: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

#[derive(Serialize)]
pub struct TraceView {
    pub check: String,
    pub steps: usize,
}

pub fn note_json(note: Option<&Note>) -> (Option<RandomView>, Option<TraceView>) {
    match note {
        None => (None, None),
        Some(Note::Random(r)) => (
            Some(RandomView {
                taken: r.taken,
                stopped: r.stopped.clone(),
            }),
            None,
        ),
        Some(Note::Trace { check, steps }) => (
            None,
            Some(TraceView {
                check: check.clone(),
                steps: *steps,
            }),
        ),
    }
}

/// A note in words, for the text mode.
pub fn note_text(note: &Note) -> String {
    match note {
        Note::Random(r) => match &r.stopped {
            None => format!("took {}", steps(r.taken)),
            Some(why) => format!("took {}, then stopped: {why}", steps(r.taken)),
        },
        Note::Trace { check, steps: n } => format!(
            "loaded the trace of `{check}` ({}): `forward` steps through it, a transition number leaves it",
            steps(*n)
        ),
    }
}

fn steps(n: usize) -> String {
    zeno::report::steps(n)
}

/// `Proc(1): req -> wait`; a synchronisation as `zeno check` writes it,
/// `A: idle -> cs (go!), B: wait -> done (go?)`.
fn edges_text(edges: &[EdgeReport]) -> String {
    super::super::text::edges(edges)
}

/// The state and the numbered transitions, for people.
pub fn text(v: &View) -> String {
    let mut out = String::new();
    let via = match &v.via {
        Via::Start => "initial state".to_string(),
        Via::Delay { delay } => format!("after delay {delay}"),
        Via::Fire { edges } => format!("after {}", edges_text(edges)),
    };
    out.push_str(&format!(
        "state {} of {} ({via})\n",
        v.position,
        v.history - 1
    ));
    let locs: Vec<String> = v
        .locations
        .iter()
        .map(|l| format!("{}.{}", l.process, l.location))
        .collect();
    out.push_str(&format!("  locations: {}\n", locs.join("  ")));
    if !v.variables.is_empty() {
        let vars: Vec<String> = v.variables.iter().map(Binding::to_string).collect();
        out.push_str(&format!("  variables: {}\n", vars.join("  ")));
    }
    if let Some(clocks) = &v.clocks
        && !clocks.is_empty()
    {
        let cs: Vec<String> = clocks.iter().map(NamedValue::to_string).collect();
        out.push_str(&format!("  clocks: {}\n", cs.join("  ")));
    }
    if let Some(zone) = &v.zone {
        let z = if zone.is_empty() {
            "true".to_string()
        } else {
            zone.join(", ")
        };
        out.push_str(&format!("  zone: {z}\n"));
    }
    if let Some(d) = &v.delays {
        out.push_str(&format!("  delays allowed: {d}\n"));
    }
    if let Some(e) = &v.error {
        out.push_str(&format!("  error: {e}\n"));
    }
    if let Some(end) = &v.trace_end {
        out.push_str(&format!(
            "  end of the trace of `{}`: {}\n",
            end.check, end.words
        ));
        if end.ending.kind == zeno::report::EndingKind::Loop {
            out.push_str("  (`forward` goes round the loop again)\n");
        }
    }
    // Those that can be taken now, then those that need a delay first (as
    // UPPAAL's simulator lists only the first); the numbers run on.
    let (now, later): (Vec<&TransitionView>, Vec<&TransitionView>) =
        v.transitions.iter().partition(|t| t.now);
    if v.transitions.is_empty() {
        out.push_str("no transition is enabled\n");
    } else if now.is_empty() {
        out.push_str("no transition is enabled now\n");
    } else {
        out.push_str("enabled transitions:\n");
        out.push_str(&transition_lines(&now));
    }
    if !later.is_empty() {
        out.push_str("enabled after a delay (`delay` first):\n");
        out.push_str(&transition_lines(&later));
    }
    out
}

fn transition_lines(ts: &[&TransitionView]) -> String {
    let mut out = String::new();
    for t in ts {
        let mut line = format!("  {}. {}", t.number, edges_text(&t.edges));
        if !t.windows.is_empty() {
            line.push_str(&format!("  (delay in {})", t.windows.join(" or ")));
        }
        if let Some(e) = &t.error {
            line.push_str(&format!("  (fails: {e})"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}
