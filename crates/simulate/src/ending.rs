//! Why a check's trace ends ([`zeno_report::Ending`]), worked out on the
//! trace: its end as the checker gives it, read with the check's kind, and
//! for a deadlock the concrete simulator's look at the last state (is any
//! transition enabled now or after a delay, and how long may time pass).

use zeno_checker::{Trace, TraceEnd};
use zeno_ir::{Check, Network};
use zeno_report::{Ending, EndingKind};

use crate::{Clocks, Mode, SimError, Simulator, State};

/// Why `trace`, a trace of `check`, ends.
pub fn ending(network: &Network, check: &Check, trace: &Trace) -> Ending {
    let run = check.kind.is_liveness();
    let mut e = Ending {
        kind: EndingKind::Goal,
        verdict: match check.kind.is_universal() {
            true => "violated",
            false => "witnessed",
        }
        .to_string(),
        loop_start: None,
        steps: trace.len(),
        time_limit: None,
        time_stopped_by: None,
        error: None,
        run,
    };
    match &trace.end {
        TraceEnd::Goal { .. } => {
            e.kind = match check.kind.is_universal() {
                true => EndingKind::Violation,
                false => EndingKind::Goal,
            };
            // A check about deadlocks: say whether the state is one, and
            // whether time stops there too.
            if check.kind.formulas().any(|f| f.mentions_deadlock())
                && let Ok(Some(limit)) = standstill(network, trace)
            {
                e.set_deadlock(limit);
            }
        }
        TraceEnd::Deadlock { .. } => {
            e.kind = EndingKind::Deadlock;
            // When the simulator does not see the checker's deadlock, or
            // cannot look, the checker's word stands, without the detail.
            if let Ok(Some(limit)) = standstill(network, trace) {
                e.set_deadlock(limit);
            }
        }
        TraceEnd::Loop { start, .. } => {
            e.kind = EndingKind::Loop;
            e.loop_start = Some(*start);
        }
        TraceEnd::TimeDiverges => e.kind = EndingKind::TimeDiverges,
        TraceEnd::ModelError { error, .. } => {
            e.kind = EndingKind::ModelError;
            e.verdict = "model error".to_string();
            e.error = Some(zeno_report::describe_error(network, error));
        }
    }
    e
}

/// Whether no transition is enabled now or after any delay in the trace's
/// last state (after its final delay), replayed in the concrete simulator:
/// `Some` with how long time may still pass (`None` inside: forever).
fn standstill(
    network: &Network,
    trace: &Trace,
) -> Result<Option<Option<(String, String)>>, SimError> {
    let mut sim = Simulator::new(network, Mode::Concrete)?;
    let last = trace.steps.last().map_or(&trace.initial, |s| &s.after);
    sim.restart_from(State {
        locations: last.locations.clone(),
        variables: last.variables.clone(),
        clocks: Clocks::Values(last.clocks.clone()),
    })?;
    let delay = trace.end.delay();
    if delay != 0.into() {
        sim.delay(delay)?;
    }
    if !sim.enabled()?.is_empty() {
        return Ok(None);
    }
    // In the model's time unit.
    let scale = network.time_scale;
    Ok(Some(
        sim.time_limit()?.map(|l| (scale.user_text(l.most), l.why)),
    ))
}
