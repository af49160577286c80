//! When a run must stop: the cancel flag, the deadline and the memory
//! budget, polled by every phase of a check.

use std::time::{Duration, Instant};

use super::{Cancel, Limit};

/// When a run must stop: its cancel flag is set or its time limit is up.
/// The deadline is fixed when [`super::check`] starts, so building the heuristic
/// (pattern selection, the reduced networks of useless transitions) counts
/// against the time limit and polls the same flag as the search loop.
#[derive(Debug, Clone)]
pub(crate) struct Stop<'a> {
    pub(super) cancel: &'a Cancel,
    pub(super) deadline: Option<Instant>,
    /// Set when a table could not grow within the memory budget.
    pub(super) memory_refused: std::cell::Cell<bool>,
    /// When the run takes turns with others on one core (`turns.rs`): the
    /// gate it waits at while another holds the turn.
    pub(super) gate: Option<super::turns::Gate<'a>>,
}

impl<'a> Stop<'a> {
    pub(crate) fn new(cancel: &'a Cancel, timeout: Option<Duration>) -> Stop<'a> {
        Stop {
            cancel,
            // A timeout too large to add is no limit.
            deadline: timeout.and_then(|t| Instant::now().checked_add(t)),
            memory_refused: std::cell::Cell::new(false),
            gate: None,
        }
    }

    /// The stop condition of a run that takes turns at `gate`, stopped by
    /// `cancel` or at `deadline`.
    pub(crate) fn taking_turns(
        cancel: &'a Cancel,
        deadline: Option<Instant>,
        gate: super::turns::Gate<'a>,
    ) -> Stop<'a> {
        Stop {
            cancel,
            deadline,
            memory_refused: std::cell::Cell::new(false),
            gate: Some(gate),
        }
    }

    /// Records that a table could not grow within the memory budget: from
    /// now on the run must stop, with [`Limit::Memory`].
    pub(crate) fn memory_refused(&self) {
        self.memory_refused.set(true);
    }

    /// Why the run must stop now, if it must: one atomic load, plus a clock
    /// read when there is a time limit or the run takes turns (then it
    /// waits here while another run holds the turn).
    pub(crate) fn reason(&self) -> Option<Limit> {
        if let Some(gate) = &self.gate {
            gate.poll();
        }
        if self.cancel.is_cancelled() {
            Some(Limit::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Time)
        } else if self.memory_refused.get() || zeno_base::memory::over_budget() {
            Some(Limit::Memory)
        } else {
            None
        }
    }

    /// What an enumeration of transitions polls (see [`super::semantics::Watch`]).
    pub(crate) fn watch(&self) -> super::semantics::Watch {
        super::semantics::Watch {
            cancel: self.cancel.clone(),
            deadline: self.deadline,
        }
    }

    pub(crate) fn requested(&self) -> bool {
        self.reason().is_some()
    }
}
