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

mod context;
mod footprint;
mod useless;

pub use context::{Contexts, UNRELATED};
pub use footprint::Footprints;
pub use useless::Useless;

/// Which enhancement orders the frontier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Enhance {
    #[default]
    None,
    /// Defer states reached by relatively useless transitions (needs a
    /// heuristic other than `Zero` to be of any use; with `Zero` every
    /// transition is useless and the order is the plain one).
    UselessTransitions,
    /// Multi-queue by interference context; works with every search order.
    InterferenceContexts,
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
