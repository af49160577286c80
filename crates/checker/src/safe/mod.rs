//! Safe abstraction (thesis §5.3): components of the network that change
//! independently of everything else, and can reach every value they may need
//! from every value they may be in, are taken out before the search; an error
//! trace of the reduced network is turned into one of the original network by
//! inserting the removed components' moves where they are needed.
//!
//! A *component* is one integer slot or one process, as a variable domain
//! process of the causal graph (`heuristics/cg.rs`). The thesis' condition — no
//! causal-graph predecessor and a strongly connected domain transition graph —
//! is checked here directly on the network, conservatively, because timed
//! automata have more ways to couple components than its variable domain
//! systems (clocks, urgency, committed locations, broadcast, model errors).
//! A slot `x` is safe when (`analysis.rs` has the full list):
//!
//! - every edge writing `x` belongs to a one-location process whose location
//!   is ordinary, has no synchronisation, no clock guard and no clock reset,
//!   reads only `x` and writes only `x` (so its moves change nothing else and
//!   are restricted by nothing else: no causal-graph predecessor), and never
//!   fails to evaluate on a value `x` can take;
//! - every other read of `x` is a top-level conjunct of an edge guard that
//!   reads `x` alone and never fails to evaluate, on an edge that leaves an
//!   ordinary or urgent location, does not receive on a broadcast channel,
//!   does not synchronise on an urgent channel, and whose synchronisation
//!   partners leave no committed location; or an atom of the goal;
//! - the values reachable from the initial value form one strongly connected
//!   part of `x`'s domain transition graph;
//! - two handshake partners reading `x` can agree on a value.
//!
//! A process is safe when its edges have no guard, no synchronisation and no
//! update, its locations are ordinary without invariants, and its reachable
//! locations are strongly connected: only the goal can see where it is.
//!
//! Clocks: a component whose moves have clock guards or resets, or whose
//! locations have invariants (on clocks or data; nor is a slot that a data
//! invariant reads), is never safe; a removed move changes no clock,
//! so it can be taken after any delay without changing any zone.
//!
//! The reduced network keeps every process, slot and edge (so that ids in a
//! trace need no mapping back): a removed component's edges get the guard
//! `false`, and each guard conjunct on a removed slot becomes the constant
//! "some reachable value satisfies it". The goal `φ` becomes `∃ values of the
//! removed components that it mentions. φ` (a disjunction over their
//! reachable values; at most [`MAX_GOAL_COMBINATIONS`] of them).
//!
//! Why verdicts carry over: (1) every trace of the original network projects
//! to one of the reduced network (drop the removed moves, add up the delays
//! around them): the dropped moves change no clock, no location other
//! components see and no other slot; every kept guard conjunct on a removed
//! slot held for its value, so its replacement is `true`; urgency and
//! committedness do not depend on removed components; a model error raised by
//! a kept guard or update is raised in the reduced network too (conjuncts on
//! removed slots never fail, and their replacements are no less true); the
//! goal holds for some reachable value. So if the reduced network has no error
//! trace, the original has none. (2) Conversely, every trace of the reduced
//! network extends: before each transition, move each removed slot it reads to
//! a value its conjuncts accept (reachable by strong connectivity, and allowed
//! since the state before such a transition has no committed process), and at
//! the end move the goal's components to values satisfying the goal (the
//! goal's components are only removed from networks without committed
//! locations, so that nothing forbids these last moves).
//! [`insert::concretize`] does this; should it fail anyway, the caller
//! searches the original network instead and says so.
//!
//! The abstraction cascades (thesis §5.3: `S(M)[P']` may admit further safe
//! abstractions): [`cascade`] analyses the reduced network again, skipping
//! the components already removed (their switched-off edges would make them
//! look safe once more), until a round removes nothing. In a reduced network
//! a guard whose conjuncts all read removed slots is a constant, so a process
//! that only waited for removed slots is an observer there, and a writer
//! that was guarded by one now reads its own slot alone. Each round is an
//! ordinary analysis of an ordinary network `N_{k-1}` giving `N_k`, so the
//! argument above holds for each pair: `N_{k-1}` has an error trace iff
//! `N_k` has, and by induction the original has one iff the last reduced
//! network has. Completion follows the induction backwards: the last round's
//! moves are inserted into the searched trace to give a trace of the network
//! that round analysed, and so on down to round 1 on the original network
//! (reverse order of removal). The order matters: a round-2 component's
//! moves may read a round-1 slot (in `N_1` that conjunct is a constant), so
//! they must already be in the trace when round 1 inserts the slot's moves
//! before them; conversely a round-1 component never reads a round-2 one
//! (its moves read only itself), so round 2 needs nothing from round 1.
//! The goal of `N_k` is the disjunction over round `k`'s goal components of
//! `N_{k-1}`'s goal, and the rounds share the [`MAX_GOAL_COMBINATIONS`] bound.

mod analysis;
mod insert;
#[cfg(test)]
mod tests;

pub(crate) use analysis::analyse;
use analysis::{Abstraction, Kind};
pub(crate) use insert::concretize;

use zeno_ir as ir;

use super::trace::Trace;
use super::{CheckResult, SafeStats, Stop, Task, Verdict};

/// Most combinations of goal values of removed components the reduced goal
/// may enumerate; components beyond it are kept.
pub const MAX_GOAL_COMBINATIONS: usize = 64;

/// The rounds of the cascade: each round analyses the previous round's
/// reduced network (the first, `network`) and removes at least one
/// component; the last round's reduced network is the one searched. Empty
/// if nothing is safe.
pub(crate) fn cascade(network: &ir::Network, check: ir::CheckId) -> Vec<Abstraction> {
    let mut rounds: Vec<Abstraction> = Vec::new();
    let mut removed: Vec<Kind> = Vec::new();
    let mut goal_budget = MAX_GOAL_COMBINATIONS;
    loop {
        let current = rounds.last().map_or(network, |r| &r.reduced);
        let round = analyse(current, check, &removed, goal_budget);
        if round.removed == 0 {
            return rounds;
        }
        // Each round's goal is a disjunction over the previous one's: the
        // product of the rounds' combinations stays within the bound.
        goal_budget /= round.goal_combinations;
        removed.extend(round.components.iter().map(|c| c.kind));
        rounds.push(round);
    }
}

/// [`super::check`] with safe abstraction: search the reduced network, then
/// turn its trace into one of the `task`'s network.
pub(crate) fn check(task: Task, progress: &mut dyn FnMut(&super::Stats)) -> CheckResult {
    let chk = task.net.check(task.check);
    let rounds = cascade(task.net, task.check);
    let Some(last) = rounds.last() else {
        let mut result = super::reach_until(task, progress);
        result.stats.safe = Some(SafeStats::default());
        return result;
    };
    let reduced = Task {
        net: &last.reduced,
        ..task
    };
    let mut result = super::reach_until(reduced, progress);
    // The reduced check is `E<> goal'`: map its verdict back.
    let (found, none) = Verdict::of_reachability(&chk.kind);
    let reached = match &result.verdict {
        Verdict::Holds => true,
        Verdict::Fails => {
            result.verdict = none;
            false
        }
        Verdict::ModelError(_) => true,
        Verdict::Unknown(_) => false,
    };
    let mut safe = SafeStats {
        removed: rounds.iter().map(|r| r.removed as u64).sum(),
        ..SafeStats::default()
    };
    if reached && result.trace.is_none() && result.stats.trace_limit.is_some() {
        // A limit stopped the reduced trace's construction: the verdict
        // holds for `network` (removing safe components keeps it), the
        // trace is missing for the reason the statistics give.
        if result.verdict == Verdict::Holds {
            result.verdict = found;
        }
    } else if reached {
        let concrete = result
            .trace
            .as_ref()
            .and_then(|t| complete(task.net, task.check, &rounds, t, task.stop));
        if concrete.is_none()
            && let Some(limit) = task.stop.reason()
        {
            // Stopped while completing the trace: as above.
            if result.verdict == Verdict::Holds {
                result.verdict = found;
            }
            result.trace = None;
            result.stats.trace_limit = Some(limit);
            result.stats.safe = Some(safe);
            return result;
        }
        match concrete {
            Some((trace, inserted)) => {
                safe.abstract_steps = Some(trace.len() as u64 - inserted as u64);
                safe.inserted_steps = Some(inserted as u64);
                if result.verdict == Verdict::Holds {
                    result.verdict = found;
                }
                result.trace = Some(trace);
            }
            None => {
                // Should not happen; never report a trace of the wrong network.
                let before = result.stats.clone();
                let mut fallback = super::reach_until(task, progress);
                fallback.stats.explored += before.explored;
                fallback.stats.generated += before.generated;
                fallback.stats.elapsed += before.elapsed;
                safe.fell_back = true;
                fallback.stats.safe = Some(safe);
                return fallback;
            }
        }
    }
    result.stats.safe = Some(safe);
    result
}

/// The trace of `network` for the last round's trace, and the number of
/// moves inserted in all: each round's moves are inserted into the trace of
/// its reduced network to give one of the network it analysed, last round
/// first.
fn complete(
    network: &ir::Network,
    check: ir::CheckId,
    rounds: &[Abstraction],
    last_trace: &Trace,
    stop: &Stop,
) -> Option<(Trace, usize)> {
    let mut trace = last_trace.clone();
    let mut inserted = 0;
    for (k, round) in rounds.iter().enumerate().rev() {
        let outer = if k == 0 {
            network
        } else {
            &rounds[k - 1].reduced
        };
        let goal = outer.check(check).kind.goal();
        let (completed, n) = concretize(round, outer, &goal, &trace, stop)?;
        trace = completed;
        inserted += n;
    }
    Some((trace, inserted))
}
