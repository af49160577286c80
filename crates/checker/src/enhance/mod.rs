//! Transition-based search enhancements (thesis chapters 3 and 4): they do not
//! change which states exist, only the order in which the frontier hands them
//! out, by sorting successors into several queues (see
//! [`MultiQueue`](super::frontier::MultiQueue)). Every state still gets
//! explored eventually, so verdicts are those of the plain search.
//!
//! - [`Enhance::UselessTransitions`] (§3.2): a state reached by a relatively
//!   useless transition goes to the deferred queue 1, others to queue 0.
//! - [`Enhance::InterferenceContexts`] (§4.2): a state `t'[s]`, where `s` was
//!   reached by `t`, goes to queue `n` for the smallest `n` with `t'` in
//!   `C_n(t)` when `t` is innocent, to queue 0 otherwise. The thesis prunes
//!   `t'[s]` when `t'` is outside `C(t)`; that argument does not survive zone
//!   subsumption, so such states go to the last queue ([`OUT_OF_CONTEXT`]).
//! - [`Enhance::ContextBoundingProcesses`] and
//!   [`Enhance::ContextBoundingInterference`] (the thesis' baselines IB_P and
//!   IB_I, §4.4.1, after Musuvathi and Qadeer): queue `k` holds states reached
//!   with `k` context switches, so all states within `k` switches are explored
//!   before any with `k + 1` (iterative context bounding without re-running the
//!   search). A switch is a transition sharing no process with the previous one
//!   (IB_P), or outside `C_2` of the previous one (IB_I). A state keeps the count
//!   of the path that first reached it, which need not be the smallest.

mod context;
mod footprint;
mod useless;

pub use context::{Contexts, UNRELATED};
pub use footprint::Footprints;
pub(crate) use footprint::{clock_reads, expr_reads};
pub use useless::Useless;

/// Which enhancement orders the frontier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Enhance {
    /// No enhancement: one queue.
    #[default]
    None,
    /// Defer states reached by relatively useless transitions (needs a
    /// heuristic other than `Zero` to be of any use; with `Zero` every
    /// transition is useless and the order is the plain one).
    UselessTransitions,
    /// Multi-queue by interference context; works with every search order.
    InterferenceContexts,
    /// Iterative context bounding, a switch being a change of process (IB_P).
    ContextBoundingProcesses,
    /// Iterative context bounding, a switch being a transition outside the
    /// interference context `C_2` of the previous one (IB_I).
    ContextBoundingInterference,
}

/// The context bound of IB_I (the thesis found 2 best).
pub const IB_LEVEL: u16 = 2;

/// Whether `to` after `from` is a context switch for IB_P: no shared process
/// (the initial state's empty `from` switches to nothing).
pub fn process_switch(from: &[(u32, u32)], to: &[(u32, u32)]) -> bool {
    !from.is_empty() && !to.iter().any(|(p, _)| from.iter().any(|(q, _)| p == q))
}

/// Whether `to` after `from` is a context switch for IB_I.
pub fn interference_switch(ctx: &mut Contexts, from: &[(u32, u32)], to: &[(u32, u32)]) -> bool {
    !from.is_empty() && ctx.level(from, to) > IB_LEVEL
}

/// Highest context level with a queue of its own; deeper levels share it.
pub const MAX_LEVEL: usize = 62;
/// Queue of states reached by a transition outside the context `C(t)`.
pub const OUT_OF_CONTEXT: usize = MAX_LEVEL + 1;

/// Queue index for a successor by transition `to` of a state reached by `from`
/// (`from` is empty for the initial state).
pub fn context_queue(ctx: &mut Contexts, from: &[(u32, u32)], to: &[(u32, u32)]) -> usize {
    if from.is_empty() || !ctx.innocent(from) {
        return 0;
    }
    match ctx.level(from, to) {
        UNRELATED => OUT_OF_CONTEXT,
        n => (n as usize).min(MAX_LEVEL),
    }
}
