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
}

impl<'a> Stop<'a> {
    pub(crate) fn new(cancel: &'a Cancel, timeout: Option<Duration>) -> Stop<'a> {
        Stop {
            cancel,
            // A timeout too large to add is no limit.
            deadline: timeout.and_then(|t| Instant::now().checked_add(t)),
            memory_refused: std::cell::Cell::new(false),
        }
    }

    /// Records that a table could not grow within the memory budget: from
    /// now on the run must stop, with [`Limit::Memory`].
    pub(crate) fn memory_refused(&self) {
        self.memory_refused.set(true);
    }

    /// Why the run must stop now, if it must: one atomic load, plus a clock
    /// read when there is a time limit.
    pub(crate) fn reason(&self) -> Option<Limit> {
        if self.cancel.is_cancelled() {
            Some(Limit::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Time)
        } else if self.memory_refused.get() || crate::memory::over_budget() {
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
