//! Error traces: the transitions taken, with concrete delays and clock values
//! that replay under the concrete semantics.

use num_rational::Rational64;

use crate::ir::{EdgeId, EvalError, LocId, ProcId};

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
    pub edges: Vec<(ProcId, EdgeId)>,
}

/// Let `delay` time units pass, then take `transition`, arriving in `after`
/// (clock values after resets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub delay: Rational64,
    pub transition: Transition,
    pub after: ConcreteState,
}

/// How a trace ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceEnd {
    /// After the last step, wait `delay`; the state reached satisfies the goal.
    Goal { delay: Rational64 },
    /// After the last step, wait `delay`, then `transition` is enabled but one
    /// of its updates fails with `error` (out-of-range assignment, bad index, …).
    ModelError {
        delay: Rational64,
        transition: Transition,
        error: EvalError,
    },
}

/// A path from the initial state to a goal (or model error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub initial: ConcreteState,
    pub steps: Vec<Step>,
    pub end: TraceEnd,
}

impl Trace {
    /// Number of action transitions (the papers' trace length).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}
