//! A check's trace loaded into the history, to step through it (`back`,
//! `forward`) and leave it at any step by taking another transition.
//!
//! The trace is replayed by the simulator itself, so every state of the
//! history is one the simulator computed; a trace that does not replay is
//! reported, never shown.

use num_rational::Rational64;
use num_traits::Zero;

use zeno_checker::{ConcreteState, Step, Trace, TraceEnd};

use super::{Clocks, SimError, Simulator, State};

type Q = Rational64;

impl Simulator<'_> {
    /// Replaces the history with `trace` and goes to its initial state.
    /// In concrete mode each step is its delay (when not 0) then its
    /// transition, and the final delay of the trace's end follows; in
    /// symbolic mode each step is one transition.
    pub fn load_trace(&mut self, trace: &Trace) -> Result<(), SimError> {
        self.reset();
        let result = self.replay(trace);
        match result {
            Ok(()) => {
                self.cursor = 0;
                if let TraceEnd::Loop { start, .. } = trace.end
                    && start < trace.steps.len()
                {
                    self.lasso = Some(Lasso {
                        cycle: trace.steps[start..].to_vec(),
                        next: 0,
                        end: self.history.len(),
                    });
                }
                Ok(())
            }
            Err(e) => {
                self.reset();
                Err(e)
            }
        }
    }

    fn replay(&mut self, trace: &Trace) -> Result<(), SimError> {
        let mismatch = |step: usize, why: String| SimError::TraceMismatch { step, why };
        matches(self.state(), &trace.initial).map_err(|why| mismatch(0, why))?;
        for (k, step) in trace.steps.iter().enumerate() {
            let n = k + 1;
            let concrete = matches!(self.state().clocks, Clocks::Values(_));
            if concrete && !step.delay.is_zero() {
                self.delay(step.delay)
                    .map_err(|e| mismatch(n, e.to_string()))?;
            }
            let enabled = self.enabled().map_err(|e| mismatch(n, e.to_string()))?;
            // The option taking these edges; in symbolic mode, the zone
            // piece holding the trace's valuation after the step.
            let position = enabled.iter().position(|o| {
                o.transition == step.transition
                    && match &o.successor {
                        Some(s) => holds(s, &step.after),
                        None => o.now(),
                    }
            });
            let Some(i) = position else {
                return Err(mismatch(n, "its transition is not enabled".to_string()));
            };
            self.fire(i + 1).map_err(|e| mismatch(n, e.to_string()))?;
            matches(self.state(), &step.after).map_err(|why| mismatch(n, why))?;
        }
        let last = match &trace.end {
            TraceEnd::Goal { delay }
            | TraceEnd::ModelError { delay, .. }
            | TraceEnd::Loop { delay, .. }
            | TraceEnd::Deadlock { delay } => *delay,
            TraceEnd::TimeDiverges => Q::zero(),
        };
        if matches!(self.state().clocks, Clocks::Values(_)) && !last.is_zero() {
            self.delay(last)
                .map_err(|e| mismatch(trace.steps.len(), e.to_string()))?;
        }
        Ok(())
    }
}

/// The cycle of a loaded lasso: the steps after the state it returns to,
/// which the run can take again and again.
#[derive(Debug, Clone)]
pub struct Lasso {
    /// The cycle's steps, in order.
    cycle: Vec<Step>,
    /// The cycle's step to take next.
    next: usize,
    /// The length of the history whose last state is where the lasso, or
    /// the last way round it, ended.
    end: usize,
}

impl Simulator<'_> {
    /// At the end of a loaded lasso, takes the cycle's next step (its delay
    /// first, in concrete mode): `false` when there is no lasso to follow.
    ///
    /// The clocks are back in the zone of the state the cycle starts from,
    /// not at its values, so a step's own delay may not fit: then the least
    /// delay (else one strictly inside the window) after which its
    /// transition can be taken.
    pub(super) fn go_round(&mut self) -> Result<bool, SimError> {
        let Some(mut lasso) = self.lasso.take() else {
            return Ok(false);
        };
        if lasso.end != self.history.len() || self.cursor + 1 != self.history.len() {
            return Ok(false);
        }
        let step = &lasso.cycle[lasso.next];
        let lost = |why: String| SimError::TraceMismatch {
            step: lasso.next + 1,
            why: format!("going round the loop again: {why}"),
        };
        let before = self.history.len();
        if matches!(self.state().clocks, Clocks::Values(_)) {
            let options = self.enabled()?;
            let option = options
                .iter()
                .find(|o| o.transition == step.transition)
                .ok_or_else(|| lost("its transition is not enabled".to_string()))?;
            let delay = match option.windows.iter().any(|w| w.contains(step.delay)) {
                true => step.delay,
                false => option
                    .windows
                    .iter()
                    .find_map(|w| w.least().or_else(|| w.inner().ok().flatten()))
                    .ok_or_else(|| lost("no delay enables its transition".to_string()))?,
            };
            if !delay.is_zero() {
                self.delay(delay)?;
            }
        }
        let options = self.enabled()?;
        let Some(i) = options
            .iter()
            .position(|o| o.transition == step.transition && o.now())
        else {
            // Nothing recorded yet is kept: the history is as it was.
            self.history.truncate(before);
            self.cursor = before - 1;
            return Err(lost("its transition is not enabled".to_string()));
        };
        if let Err(e) = self.fire(i + 1) {
            self.history.truncate(before);
            self.cursor = before - 1;
            return Err(e);
        }
        // The cursor stays where it was: `forward` moves it one state on.
        self.cursor = before - 1;
        lasso.next = (lasso.next + 1) % lasso.cycle.len();
        lasso.end = self.history.len();
        self.lasso = Some(lasso);
        Ok(true)
    }
}

/// Whether the simulator's state is the trace's: the same locations and
/// variables, and the same clock values (concrete) or a zone holding them
/// (symbolic).
fn matches(state: &State, trace: &ConcreteState) -> Result<(), String> {
    if state.locations != trace.locations || state.variables != trace.variables {
        return Err(format!(
            "the trace reaches locations {:?} and variables {:?}, the simulator {:?} and {:?}",
            trace.locations, trace.variables, state.locations, state.variables
        ));
    }
    if !holds(state, trace) {
        return Err("the trace's clock values are not the simulator's".to_string());
    }
    Ok(())
}

/// Whether the clocks of `state` are (concrete) or hold (symbolic) the
/// trace state's clock values.
fn holds(state: &State, trace: &ConcreteState) -> bool {
    match &state.clocks {
        Clocks::Values(v) => *v == trace.clocks,
        Clocks::Zone(z) => {
            // Over a common denominator, as `Dbm::contains_point` wants.
            let Some(den) = trace
                .clocks
                .iter()
                .try_fold(1i64, |d, c| lcm(d, *c.denom()))
            else {
                return false;
            };
            let num: Option<Vec<i64>> = trace
                .clocks
                .iter()
                .map(|c| (*c.numer()).checked_mul(den / *c.denom()))
                .collect();
            // Products of bounds and the denominator must fit in i64 too.
            num.is_some_and(|num| {
                den < (1 << 32)
                    && num.iter().all(|n| n.abs() < (1 << 60))
                    && z.contains_point(&num, den)
            })
        }
    }
}

/// The least common multiple, `None` on overflow.
fn lcm(a: i64, b: i64) -> Option<i64> {
    let g = num_integer_gcd(a, b);
    (a / g).checked_mul(b)
}

fn num_integer_gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs().max(1)
}
