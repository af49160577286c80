//! Simulating a network by hand: the state, the transitions enabled in it,
//! firing one, letting time pass, going back and forth, restarting, stepping
//! through a check's trace and random runs.
//!
//! The simulator has no semantics of its own: which transitions are enabled
//! (committed and urgent locations, broadcast, synchronisation vectors),
//! their guards, updates, invariants and zone successors all come from the
//! checker's [`Model`](zeno_checker::semantics::Model), so what can be
//! done here is exactly what the checker explores. Two modes:
//!
//! - **symbolic** (as UPPAAL's symbolic simulator): the clocks are a zone,
//!   the exact (never extrapolated) zone of the checker's successor, closed
//!   under delay; time passes by itself.
//! - **concrete**: the clocks hold one valuation of exact rationals; time
//!   passes by `delay`, and each enabled transition comes with the delays
//!   after which it can be taken.
//!
//! Modules: `window` (delay intervals), `concrete` and `symbolic` (enabled
//! transitions and successors per mode), `zone` (a zone as constraints for
//! people), `replay` (a check's trace loaded as history), `random` (seeded
//! random runs), `standstill` (how far time may go on, and what stops it),
//! `ending` (why a check's trace ends).
#![warn(missing_docs)]

mod concrete;
mod ending;
mod random;
mod replay;
mod standstill;
mod symbolic;
pub mod window;
pub mod zone;

use num_rational::Rational64;

use zeno_checker::dbm::Dbm;
use zeno_checker::semantics::{Model, TransitionBuf};
use zeno_checker::{ConcreteState, Step, Trace, TraceEnd, Transition};
use zeno_ir::{EvalError, Formula, LocId, Network};

pub use ending::ending;
pub use random::RandomRun;
pub use standstill::TimeLimit;
pub use window::Window;

/// How clocks are shown and how time passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One valuation; time passes by explicit delays.
    Concrete,
    /// A zone closed under delay (UPPAAL's symbolic simulator).
    Symbolic,
}

/// The clocks of a state.
#[derive(Debug, Clone, PartialEq)]
pub enum Clocks {
    /// The value of every clock, by `ClockId` (`[0]`, the reference clock, is 0).
    Values(Vec<Rational64>),
    /// Every valuation the state may have: its zone.
    Zone(Dbm),
}

/// A state of the network.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Each process's location.
    pub locations: Vec<LocId>,
    /// Each variable's value.
    pub variables: Vec<i32>,
    /// The clocks: values or a zone.
    pub clocks: Clocks,
}

impl State {
    /// The checker's discrete key: locations, then variable slots.
    fn key(&self) -> Vec<i32> {
        let mut k: Vec<i32> = self.locations.iter().map(|&l| l as i32).collect();
        k.extend_from_slice(&self.variables);
        k
    }

    fn from_key(key: &[i32], nproc: usize, clocks: Clocks) -> State {
        State {
            locations: key[..nproc].iter().map(|&l| l as LocId).collect(),
            variables: key[nproc..].to_vec(),
            clocks,
        }
    }
}

/// How a state of the history was reached.
#[derive(Debug, Clone, PartialEq)]
pub enum Move {
    /// The initial state.
    Start,
    /// Time passed (concrete mode).
    Delay(Rational64),
    /// A transition taken.
    Fire(Transition),
}

/// One state of the history and the move that reached it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// How the state was reached.
    pub via: Move,
    /// The state reached.
    pub state: State,
}

/// A transition enabled in the current state.
#[derive(Debug, Clone, PartialEq)]
pub struct Enabled {
    /// The edges taken together (sender first; see [`Transition`]).
    pub transition: Transition,
    /// Concrete mode: the delays from now after which it can be taken
    /// (within what the invariants allow); more than one only for a
    /// broadcast whose receivers' guards change along the way. Empty in
    /// symbolic mode.
    pub windows: Vec<Window>,
    /// Symbolic mode: the state it leads to. A broadcast whose left-out
    /// receivers have clock guards splits the zone, and each piece is its
    /// own entry, as in the checker.
    pub successor: Option<State>,
    /// Taking it raises this run-time error of the model (an update out of
    /// range, a bad index): firing it reports the error instead.
    pub error: Option<String>,
}

impl Enabled {
    /// Whether it can be taken without waiting (always in symbolic mode).
    pub fn now(&self) -> bool {
        self.successor.is_some()
            || self
                .windows
                .iter()
                .any(|w| w.contains(Rational64::from_integer(0)))
    }
}

/// Why a command could not be carried out. The state is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// No transition is enabled.
    #[error("no transition is enabled")]
    NoTransition,
    #[error("there is no transition {given}: the enabled transitions are numbered 1 to {count}")]
    /// A transition number beyond the enabled ones.
    OutOfRange {
        /// The number given.
        given: usize,
        /// How many transitions are enabled.
        count: usize,
    },
    #[error(
        "transition {number} cannot be taken now: it is enabled after a delay in {windows} (use `delay` first)"
    )]
    /// A transition that is enabled only after a delay.
    NotNow {
        /// The transition's number.
        number: usize,
        /// The delays after which it is enabled.
        windows: String,
    },
    /// A negative delay was asked for.
    #[error("a delay must not be negative (got {0})")]
    NegativeDelay(Rational64),
    /// Time may not pass in this state (an urgent or committed location, say).
    #[error("time may not pass here: {0}")]
    TimeStopped(String),
    #[error("the invariants forbid a delay of {delay}: the delays allowed here are {allowed}")]
    /// A delay the invariants forbid.
    DelayForbidden {
        /// The delay asked for.
        delay: Rational64,
        /// The delays allowed.
        allowed: Window,
    },
    /// `delay` in symbolic mode.
    #[error("in symbolic mode the zone already holds every delay; `delay` needs the concrete mode")]
    DelayInSymbolicMode,
    /// `back` at the initial state.
    #[error("already at the initial state: there is nothing to go back to")]
    AtStart,
    /// `forward` at the newest state.
    #[error("no later step to go forward to")]
    AtEnd,
    /// A run-time error of the model (range, index, division).
    #[error("run-time error of the model: {0}")]
    Model(String),
    /// The initial state violates its invariants.
    #[error("the initial state violates its invariants")]
    NoInitialState,
    /// Clock values too large for exact arithmetic.
    #[error("clock values grew beyond what exact arithmetic can hold")]
    Overflow,
    /// A network whose time unit is refined (`2 >= 5*x`): the simulator
    /// steps in the network's unit, which the front ends do not translate
    /// (yet), so they refuse such a model rather than show other numbers
    /// than the model's.
    #[error(
        "the model's time unit is refined by {0} (a clock is compared with a non-integer \
         quotient, see docs/language.md, \"Time scaling\"): the simulator does not show such \
         models yet; `zeno check` answers their checks, with traces in the model's time unit"
    )]
    RefinedTimeUnit(u32),
    /// A clock constant zones cannot hold (the simulator steps with zones).
    #[error(
        "the model compares a clock with {0} (or resets one to it), beyond ±268435455, more than a zone holds"
    )]
    ClockRange(i64),
    /// The simulator disagrees with itself (a bug).
    #[error("internal inconsistency of the simulator: {0}")]
    Inconsistent(String),
    #[error("the trace does not replay in the simulator at step {step}: {why}")]
    /// A trace that does not replay.
    TraceMismatch {
        /// The step that differs.
        step: usize,
        /// How it differs.
        why: String,
    },
}

impl From<window::Overflow> for SimError {
    fn from(_: window::Overflow) -> SimError {
        SimError::Overflow
    }
}

/// A simulation of one network: its history of states and the position in
/// it (going back keeps the later states, so one can go forward again,
/// until a different move replaces them).
pub struct Simulator<'a> {
    net: &'a Network,
    model: Model<'a>,
    mode: Mode,
    history: Vec<Entry>,
    cursor: usize,
    /// The cycle of a lasso loaded with [`Simulator::load_trace`], while the
    /// history still ends where the lasso (or a way round it) ended:
    /// `forward` there goes round the cycle again.
    lasso: Option<replay::Lasso>,
}

impl<'a> Simulator<'a> {
    /// [`Simulator::new`] for a person at a front end (`zeno simulate`, the
    /// editors' simulator, `zeno dap`): refuses a network whose time unit is
    /// refined ([`SimError::RefinedTimeUnit`]), whose delays and clock
    /// values it would show in the wrong unit. The checker's own replays
    /// (the ending of a trace) use [`Simulator::new`].
    pub fn for_user(net: &'a Network, mode: Mode) -> Result<Simulator<'a>, SimError> {
        if !net.time_scale.is_unit() {
            return Err(SimError::RefinedTimeUnit(net.time_scale.0));
        }
        Simulator::new(net, mode)
    }

    /// A simulation in the network's initial state.
    pub fn new(net: &'a Network, mode: Mode) -> Result<Simulator<'a>, SimError> {
        // No goal: the simulator never extrapolates, so the LU bounds the
        // goal feeds are not used, and it splits no zone along diagonal
        // constraints (it shows exact zones).
        let mut model = Model::new(net, &Formula::True);
        model.extrapolate = false;
        if let Some(value) = model.beyond_zones() {
            return Err(SimError::ClockRange(value));
        }
        let state = match mode {
            Mode::Concrete => concrete::initial(&model)?,
            Mode::Symbolic => symbolic::initial(&model, net)?,
        };
        Ok(Simulator {
            net,
            model,
            mode,
            history: vec![Entry {
                via: Move::Start,
                state,
            }],
            cursor: 0,
            lasso: None,
        })
    }

    /// The network simulated.
    pub fn network(&self) -> &'a Network {
        self.net
    }

    /// The mode of the simulation.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.history[self.cursor].state
    }

    /// The whole history, including states after the position (after `back`).
    pub fn history(&self) -> &[Entry] {
        &self.history
    }

    /// The index of the current state in the history (0: the initial state).
    pub fn position(&self) -> usize {
        self.cursor
    }

    /// The transitions enabled in the current state, in the checker's
    /// order. An error when evaluating a guard or a channel index fails in
    /// this state (a run-time error of the model).
    pub fn enabled(&self) -> Result<Vec<Enabled>, SimError> {
        let state = self.state();
        let key = state.key();
        let mut buf = TransitionBuf::default();
        self.model
            .transitions(&key, &mut buf)
            .map_err(|e| SimError::Model(self.describe(&e.error)))?;
        let mut out = Vec::new();
        for k in 0..buf.len() {
            let edges = buf.get(k);
            match &state.clocks {
                Clocks::Values(v) => {
                    out.extend(concrete::option(&self.model, &key, v, edges, self.net)?)
                }
                Clocks::Zone(z) => {
                    out.extend(symbolic::options(&self.model, &key, z, edges, self.net)?)
                }
            }
        }
        Ok(out)
    }

    /// Takes enabled transition `number` (counted from 1, as listed by
    /// [`enabled`](Self::enabled)).
    pub fn fire(&mut self, number: usize) -> Result<(), SimError> {
        let enabled = self.enabled()?;
        if enabled.is_empty() {
            return Err(SimError::NoTransition);
        }
        let Some(choice) = number.checked_sub(1).and_then(|i| enabled.get(i)) else {
            return Err(SimError::OutOfRange {
                given: number,
                count: enabled.len(),
            });
        };
        if let Some(e) = &choice.error {
            return Err(SimError::Model(e.clone()));
        }
        let next = match &choice.successor {
            Some(s) => s.clone(),
            None => {
                if !choice.now() {
                    let windows: Vec<String> =
                        choice.windows.iter().map(|w| w.to_string()).collect();
                    return Err(SimError::NotNow {
                        number,
                        windows: windows.join(" or "),
                    });
                }
                concrete::take(
                    &self.model,
                    self.state(),
                    &choice.transition.edges,
                    self.net,
                )?
            }
        };
        self.push(Move::Fire(choice.transition.clone()), next);
        Ok(())
    }

    /// Lets `delay` time units pass (concrete mode).
    pub fn delay(&mut self, delay: Rational64) -> Result<(), SimError> {
        let Clocks::Values(v) = &self.state().clocks else {
            return Err(SimError::DelayInSymbolicMode);
        };
        let next = concrete::delay(&self.model, self.state(), v, delay)?;
        self.push(Move::Delay(delay), next);
        Ok(())
    }

    /// The delays allowed in the current state (concrete mode): what the
    /// invariants allow, only 0 where time may not pass.
    pub fn allowed_delays(&self) -> Result<Option<Window>, SimError> {
        match &self.state().clocks {
            Clocks::Values(v) => Ok(Some(concrete::allowed(
                &self.model,
                &self.state().key(),
                v,
            )?)),
            Clocks::Zone(_) => Ok(None),
        }
    }

    /// Goes back one state.
    pub fn back(&mut self) -> Result<(), SimError> {
        self.cursor = self.cursor.checked_sub(1).ok_or(SimError::AtStart)?;
        Ok(())
    }

    /// Goes forward one state, along the history that `back` left; at the
    /// end of a loaded lasso, round its cycle again.
    pub fn forward(&mut self) -> Result<(), SimError> {
        if self.cursor + 1 >= self.history.len() && !self.go_round()? {
            return Err(SimError::AtEnd);
        }
        self.cursor += 1;
        Ok(())
    }

    /// Back to the initial state, forgetting the history.
    pub fn reset(&mut self) {
        self.history.truncate(1);
        self.cursor = 0;
        self.lasso = None;
    }

    /// Restarts from `state` (one the simulator produced, of this mode):
    /// the history becomes that one state.
    pub fn restart_from(&mut self, state: State) -> Result<(), SimError> {
        let shape = state.locations.len() == self.net.processes.len()
            && state.variables.len() == self.net.variables.len()
            && match (&state.clocks, self.mode) {
                (Clocks::Values(v), Mode::Concrete) => v.len() == self.model.dim,
                (Clocks::Zone(z), Mode::Symbolic) => z.dim() == self.model.dim,
                _ => false,
            };
        if !shape {
            return Err(SimError::Inconsistent(
                "a state of another network or mode".to_string(),
            ));
        }
        self.history = vec![Entry {
            via: Move::Start,
            state,
        }];
        self.cursor = 0;
        self.lasso = None;
        Ok(())
    }

    /// The current state as a concrete state (concrete mode only).
    pub fn concrete_state(&self) -> Option<ConcreteState> {
        let s = self.state();
        match &s.clocks {
            Clocks::Values(v) => Some(ConcreteState {
                locations: s.locations.clone(),
                variables: s.variables.clone(),
                clocks: v.clone(),
            }),
            Clocks::Zone(_) => None,
        }
    }

    /// The run from the initial state to the current one as a trace
    /// (concrete mode; `None` in symbolic mode): the delays before each
    /// transition add up into its step's delay, and the delay after the
    /// last one is the end's. For pictures of a run made by hand.
    pub fn run_as_trace(&self) -> Result<Option<Trace>, SimError> {
        let concrete = |s: &State| match &s.clocks {
            Clocks::Values(v) => Some(ConcreteState {
                locations: s.locations.clone(),
                variables: s.variables.clone(),
                clocks: v.clone(),
            }),
            Clocks::Zone(_) => None,
        };
        let Some(initial) = concrete(&self.history[0].state) else {
            return Ok(None);
        };
        let mut steps = Vec::new();
        let mut waited = Rational64::from_integer(0);
        for entry in &self.history[1..=self.cursor] {
            match &entry.via {
                Move::Start => {}
                Move::Delay(d) => waited = window::add(waited, *d)?,
                Move::Fire(t) => steps.push(Step {
                    delay: std::mem::replace(&mut waited, Rational64::from_integer(0)),
                    transition: t.clone(),
                    after: concrete(&entry.state).ok_or(SimError::Inconsistent(
                        "a symbolic state in a concrete run".to_string(),
                    ))?,
                }),
            }
        }
        Ok(Some(Trace {
            initial,
            steps,
            end: TraceEnd::Goal { delay: waited },
        }))
    }

    /// Records a move from the current state: later states are dropped.
    fn push(&mut self, via: Move, state: State) {
        // A move of one's own leaves the lasso (going round it puts it back).
        self.lasso = None;
        self.history.truncate(self.cursor + 1);
        self.history.push(Entry { via, state });
        self.cursor += 1;
    }

    fn describe(&self, e: &EvalError) -> String {
        zeno_report::describe_error(self.net, e)
    }
}

#[cfg(test)]
mod tests;
