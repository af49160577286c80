//! Error traces: the transitions taken, with concrete delays and clock values
//! that replay under the concrete semantics.

use num_rational::Rational64;

use super::dbm::{Dbm, bound};
use zeno_ir::{EdgeId, EvalError, LocId, ProcId};

/// A concrete valuation of the whole network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConcreteState {
    /// Location of every process.
    pub locations: Vec<LocId>,
    /// Value of every variable slot.
    pub variables: Vec<i32>,
    /// Value of every clock, indexed by `ClockId` (`clocks[0]` is always 0).
    pub clocks: Vec<Rational64>,
}

/// One action transition of the network: the edges taken together.
/// A handshake lists the sender's edge first, then the receiver's; a broadcast
/// lists the sender first, then every receiver in process order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    /// The edges, as `(process, edge)`, sender first.
    pub edges: Vec<(ProcId, EdgeId)>,
}

/// Let `delay` time units pass, then take `transition`, arriving in `after`
/// (clock values after resets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Time waited before the transition.
    pub delay: Rational64,
    /// The transition taken.
    pub transition: Transition,
    /// The state after it.
    pub after: ConcreteState,
}

/// How a trace ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceEnd {
    /// After the last step, wait `delay`; the state reached satisfies the goal.
    Goal {
        /// The final wait.
        delay: Rational64,
    },
    /// After the last step, wait `delay`, then `transition` is enabled but one
    /// of its updates fails with `error` (out-of-range assignment, bad index, …).
    ModelError {
        /// The final wait.
        delay: Rational64,
        /// The transition whose updates fail.
        transition: Transition,
        /// How they fail.
        error: EvalError,
    },
    /// A lasso (liveness checks): after the last step, wait `delay`; the
    /// state reached has the locations and variables of the state after step
    /// `start` (0: the initial state) and its clocks satisfy `zone`, the
    /// symbolic state's zone there. Steps `start + 1 ..= len` form a cycle of
    /// the zone graph, so the run can go round it forever.
    Loop {
        /// The final wait.
        delay: Rational64,
        /// The step whose state the lasso returns to (0: the initial state).
        start: usize,
        /// The zone of the symbolic state the lasso returns to.
        zone: Vec<ZoneBound>,
    },
    /// A maximal run that ends (liveness checks): after the last step, wait
    /// `delay`; from there no action transition is possible now or after
    /// any delay.
    Deadlock {
        /// The final wait.
        delay: Rational64,
    },
    /// A maximal run that ends in waiting (liveness checks): after the last
    /// step, time passes forever (no invariant bounds it, no urgency stops
    /// it), so no further action needs to happen.
    TimeDiverges,
}

impl TraceEnd {
    /// The wait after the last step (none when time diverges).
    pub fn delay(&self) -> Rational64 {
        match self {
            TraceEnd::Goal { delay }
            | TraceEnd::ModelError { delay, .. }
            | TraceEnd::Loop { delay, .. }
            | TraceEnd::Deadlock { delay } => *delay,
            TraceEnd::TimeDiverges => Rational64::from_integer(0),
        }
    }
}

/// One constraint `x_i - x_j < bound` (`strict`) or `x_i - x_j <= bound` of a
/// zone, with clock indices as in `ConcreteState::clocks` (0 is the
/// reference clock, always 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoneBound {
    /// The left clock.
    pub i: u32,
    /// The right clock.
    pub j: u32,
    /// `<` rather than `<=`.
    pub strict: bool,
    /// The constant.
    pub bound: i32,
}

impl ZoneBound {
    /// The constraint `x_i - x_j ≺ b` that entry `(i, j)` of `zone` holds;
    /// none on the diagonal or where the entry is unbounded.
    pub fn of(zone: &Dbm, i: usize, j: usize) -> Option<ZoneBound> {
        let b = zone.get(i, j);
        (i != j && b != bound::INF).then(|| ZoneBound {
            i: i as u32,
            j: j as u32,
            strict: bound::is_strict(b),
            bound: bound::value(b),
        })
    }

    /// Whether the clock values satisfy the constraint.
    pub fn holds(&self, clocks: &[Rational64]) -> bool {
        let value = |k: u32| clocks.get(k as usize).copied().unwrap_or_default();
        let d = value(self.i) - value(self.j);
        let b = Rational64::from_integer(self.bound as i64);
        if self.strict { d < b } else { d <= b }
    }
}

/// A path from the initial state to a goal (or model error); for liveness
/// checks a maximal run: a lasso, or a run that ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// The initial state.
    pub initial: ConcreteState,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// How the trace ends.
    pub end: TraceEnd,
}

impl Trace {
    /// The trace with its delays and clock values in the model's time unit
    /// (divided by `scale`, see [`zeno_ir::Network::time_scale`]), for
    /// display only: it replays on no network. A lasso's zone stays in the
    /// network's unit. `None` where a value leaves `Rational64`.
    pub fn in_model_time(&self, scale: zeno_ir::TimeScale) -> Option<Trace> {
        let state = |s: &ConcreteState| -> Option<ConcreteState> {
            Some(ConcreteState {
                clocks: s
                    .clocks
                    .iter()
                    .map(|c| scale.user_value(*c))
                    .collect::<Option<_>>()?,
                ..s.clone()
            })
        };
        let mut end = self.end.clone();
        match &mut end {
            TraceEnd::Goal { delay }
            | TraceEnd::ModelError { delay, .. }
            | TraceEnd::Loop { delay, .. }
            | TraceEnd::Deadlock { delay } => *delay = scale.user_value(*delay)?,
            TraceEnd::TimeDiverges => {}
        }
        Some(Trace {
            initial: state(&self.initial)?,
            steps: self
                .steps
                .iter()
                .map(|s| {
                    Some(Step {
                        delay: scale.user_value(s.delay)?,
                        transition: s.transition.clone(),
                        after: state(&s.after)?,
                    })
                })
                .collect::<Option<_>>()?,
            end,
        })
    }

    /// Number of action transitions (the papers' trace length).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the trace takes no transition.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}
