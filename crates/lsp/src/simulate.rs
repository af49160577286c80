//! `zeno/simulate`: the simulator ([`zeno_simulate`]) for editors.
//!
//! The request is stateless: the client keeps the steps taken so far and
//! sends them with every request; the server replays them on the
//! document's current network and answers with the state reached and the
//! transitions enabled there, each with the step that takes it (the client
//! appends it to fire it, drops the last step to go back, sends none to
//! reset). So an edit never leaves a session pointing into an old network:
//! the steps are replayed on the new one, and where one no longer applies
//! the answer says which and stops there. `trace` starts from a check's
//! current trace instead; its answer carries the trace as steps, so that
//! "simulate from here" is the trace's first steps.

use std::sync::Arc;

use num_rational::Rational64;
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{Range, Uri};

use super::places::Places;
use super::results::{EdgeView, StateView, edges_view, location_values};
use zeno_checker::{Trace, Transition};
use zeno_ir::Network;
use zeno_report::{NamedValue, clock_values};
use zeno_simulate::{Clocks, Enabled, Mode, Move, SimError, Simulator, zone};

/// Parameters of `zeno/simulate`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimulateParams {
    /// The document.
    pub uri: Uri,
    /// `concrete` (the default) or `symbolic`.
    #[serde(default)]
    pub mode: SimMode,
    /// The steps to replay from the initial state.
    #[serde(default)]
    pub steps: Vec<SimStep>,
    /// Start from this check's current trace instead of `steps`.
    #[serde(default)]
    pub trace: Option<String>,
    /// Also draw the run as a timeline (concrete mode).
    #[serde(default)]
    pub timeline: bool,
}

/// Which simulator to run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SimMode {
    /// Exact rational clock values and explicit delays.
    #[default]
    Concrete,
    /// Zones, never extrapolated.
    Symbolic,
}

/// One step of a simulation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SimStep {
    /// Take the transition made of these `[process, edge]` pairs; in
    /// symbolic mode `piece` says which zone piece of a split broadcast.
    Fire {
        /// The `[process, edge]` pairs of the transition.
        edges: Vec<[u32; 2]>,
        /// Which zone piece of a split broadcast (symbolic mode).
        #[serde(default)]
        piece: usize,
    },
    /// Let time pass (concrete mode), an exact rational: `"3/2"`.
    Delay {
        /// The delay.
        delay: String,
    },
}

/// Answer of `zeno/simulate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimulateResult {
    /// The steps replayed: all of `steps` (or of the trace) unless one
    /// failed.
    pub steps: Vec<SimStep>,
    /// Why the step after `steps` could not be replayed, if one could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The state reached.
    pub state: SimState,
    /// The transitions enabled there.
    pub transitions: Vec<SimTransition>,
    /// With `timeline` in concrete mode: the run so far as an SVG timeline
    /// (the picture of `zeno trace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<String>,
}

/// A state of a simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimState {
    /// Each process's location, each variable's value and, in concrete
    /// mode, the clock values: a trace's state, as `zeno/errorTrace` sends
    /// it (its fields stand in this object).
    #[serde(flatten)]
    pub view: StateView,
    /// Where each current location is declared, in process order (to
    /// highlight them).
    pub location_ranges: Vec<Range>,
    /// Symbolic mode: the zone, one constraint per string.
    pub zone: Vec<String>,
    /// Concrete mode: the delays allowed here, `[0, 2]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delays: Option<String>,
    /// A run-time error of the model in this state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A transition enabled in the state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimTransition {
    /// `Proc(1): req -> wait`, edges of a synchronisation joined by ` + `.
    pub label: String,
    /// Its edges.
    pub edges: Vec<EdgeView>,
    /// Whether it can be taken without waiting.
    pub now: bool,
    /// Concrete mode: the delays after which it can be taken.
    pub windows: Vec<String>,
    /// The step that takes it (only when it can be taken now).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<SimStep>,
    /// Taking it raises this run-time error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What the request needs from the server's state, copied out of the lock.
pub(crate) struct SimSnapshot {
    pub network: Arc<Network>,
    /// Where the network's spans are in the document.
    pub places: Places,
    /// The requested check's current trace: `Err` says why there is none.
    pub trace: Option<std::result::Result<Trace, SimulateError>>,
}

/// Why a `zeno/simulate` request has no answer, or where a step stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimulateError {
    /// The request names a check the document does not have.
    #[error("no check named `{0}`")]
    NoSuchCheck(String),
    /// The check's job has not decided it yet.
    #[error("check `{0}` is not decided yet")]
    Undecided(String),
    /// The check's verdict has no trace (it holds, say).
    #[error("check `{check}` has no trace to step through: {verdict}")]
    NoTrace {
        /// The check's name.
        check: String,
        /// Its verdict, as the report words it.
        verdict: String,
    },
    /// A delay step that is no rational number.
    #[error("`{0}` is not a delay (expected a rational such as 3/2)")]
    BadDelay(String),
    /// A fire step whose transition is not enabled in the state reached.
    #[error("its transition is not enabled")]
    NotEnabled,
    /// The simulator refused the step.
    #[error(transparent)]
    Simulator(#[from] SimError),
}

fn parse_delay(s: &str) -> std::result::Result<Rational64, SimulateError> {
    let bad = || SimulateError::BadDelay(s.to_string());
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    let n: i64 = n.trim().parse().map_err(|_| bad())?;
    let d: i64 = d.trim().parse().map_err(|_| bad())?;
    if d == 0 {
        return Err(bad());
    }
    Ok(Rational64::new(n, d))
}

fn transition_of(edges: &[[u32; 2]]) -> Transition {
    Transition {
        edges: edges.iter().map(|&[p, e]| (p, e)).collect(),
    }
}

/// Applies one step; the error says why it does not apply.
fn apply(sim: &mut Simulator, step: &SimStep) -> std::result::Result<(), SimulateError> {
    match step {
        SimStep::Delay { delay } => Ok(sim.delay(parse_delay(delay)?)?),
        SimStep::Fire { edges, piece } => {
            let t = transition_of(edges);
            let enabled = sim.enabled()?;
            let index = enabled
                .iter()
                .enumerate()
                .filter(|(_, o)| o.transition == t)
                .nth(*piece)
                .map(|(i, _)| i)
                .ok_or(SimulateError::NotEnabled)?;
            Ok(sim.fire(index + 1)?)
        }
    }
}

/// The trace as steps: each step's delay (when not 0), then its
/// transition; the final delay of the trace's end. `sim` is left at the
/// trace's first state.
fn trace_steps(
    sim: &mut Simulator,
    trace: &Trace,
) -> std::result::Result<Vec<SimStep>, SimulateError> {
    sim.load_trace(trace)?;
    // Which zone piece each transition took (symbolic broadcast splits):
    // replayed on a second simulator, matching the states loaded.
    let mut again = Simulator::new(sim.network(), sim.mode())?;
    let mut steps = Vec::new();
    for entry in &sim.history()[1..] {
        let step = match &entry.via {
            Move::Start => continue,
            Move::Delay(d) => SimStep::Delay {
                delay: d.to_string(),
            },
            Move::Fire(t) => {
                let options = again.enabled()?;
                let same: Vec<&Enabled> = options.iter().filter(|o| o.transition == *t).collect();
                let piece = same
                    .iter()
                    .position(|o| o.successor.as_ref().is_none_or(|s| *s == entry.state))
                    .unwrap_or(0);
                SimStep::Fire {
                    edges: t.edges.iter().map(|&(p, e)| [p, e]).collect(),
                    piece,
                }
            }
        };
        apply(&mut again, &step)?;
        steps.push(step);
    }
    Ok(steps)
}

fn label(edges: &[EdgeView]) -> String {
    edges
        .iter()
        .map(|e| format!("{}: {} -> {}", e.process, e.source, e.target))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Replays the request on the snapshot.
pub(crate) fn simulate(
    snap: &SimSnapshot,
    params: &SimulateParams,
) -> std::result::Result<SimulateResult, SimulateError> {
    let net = &*snap.network;
    let mode = match params.mode {
        SimMode::Concrete => Mode::Concrete,
        SimMode::Symbolic => Mode::Symbolic,
    };
    let mut sim = Simulator::for_user(net, mode)?;
    let mut steps = Vec::new();
    let mut error = None;
    match &snap.trace {
        Some(Ok(trace)) => {
            steps = trace_steps(&mut sim, trace)?;
            // The trace's last state.
            while sim.forward().is_ok() {}
        }
        Some(Err(why)) => return Err(why.clone()),
        None => {
            for (k, step) in params.steps.iter().enumerate() {
                if let Err(why) = apply(&mut sim, step) {
                    error = Some(format!("step {} no longer applies: {why}", k + 1));
                    break;
                }
                steps.push(step.clone());
            }
        }
    }
    let mut result = answer(&sim, &snap.places, steps, error);
    if params.timeline
        && let Ok(Some(run)) = sim.run_as_trace()
    {
        result.timeline = Some(zeno_pictures::run_svg(net, &run));
    }
    Ok(result)
}

fn answer(
    sim: &Simulator,
    places: &Places,
    steps: Vec<SimStep>,
    error: Option<String>,
) -> SimulateResult {
    let net = sim.network();
    let s = sim.state();
    let (enabled, state_error) = match sim.enabled() {
        Ok(e) => (e, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let named = |name: String, value: String| NamedValue { name, value };
    let state = SimState {
        view: StateView {
            locations: location_values(net, &s.locations),
            variables: net
                .variables
                .iter()
                .zip(&s.variables)
                .map(|(v, x)| named(v.name.clone(), x.to_string()))
                .collect(),
            clocks: match &s.clocks {
                Clocks::Values(v) => clock_values(net, v),
                Clocks::Zone(_) => Vec::new(),
            },
        },
        location_ranges: s
            .locations
            .iter()
            .enumerate()
            .filter_map(|(p, &l)| net.processes[p].locations.get(l as usize))
            .map(|l| places.range(l.span))
            .collect(),
        zone: match &s.clocks {
            Clocks::Zone(z) => zone::describe(net, z),
            Clocks::Values(_) => Vec::new(),
        },
        delays: sim.allowed_delays().ok().flatten().map(|w| w.to_string()),
        error: state_error,
    };
    let transitions = enabled
        .iter()
        .enumerate()
        .map(|(i, o)| transition(net, places, &enabled, i, o))
        .collect();
    SimulateResult {
        steps,
        error,
        state,
        transitions,
        timeline: None,
    }
}

fn transition(
    net: &Network,
    places: &Places,
    all: &[Enabled],
    i: usize,
    o: &Enabled,
) -> SimTransition {
    let edges = edges_view(net, &|s| places.range(s), &o.transition);
    // Which piece of its transition this option is (symbolic broadcast splits).
    let piece = all[..i]
        .iter()
        .filter(|p| p.transition == o.transition)
        .count();
    SimTransition {
        label: label(&edges),
        edges,
        now: o.now(),
        windows: o.windows.iter().map(|w| w.to_string()).collect(),
        step: (o.now() && o.error.is_none()).then(|| SimStep::Fire {
            edges: o.transition.edges.iter().map(|&(p, e)| [p, e]).collect(),
            piece,
        }),
        error: o.error.clone(),
    }
}
