//! Concrete traces of the liveness checks of formulas with clocks: the run
//! must keep the formula during its delays too, so each state's valuations
//! are kept to the zone of its node (`concrete::confined_trace`), which lies
//! in one convex piece of the formula (`timed.rs`).
//!
//! A node entered by a crossing of kind A (`timed.rs`) is entered on the
//! closure of its zone, and a node left by a crossing of kind B is left on
//! the closure of its zone; the zone's points after a point of its closure
//! are in it up to the next point of the zone, so each state needs one end
//! in the zone itself: a state with both ends on the closure is split by a
//! delay-only step at a point of the zone. The root of an inner search of
//! `-->` that is only part of its state's zone comes after such a step too
//! (the run waits until `p && !q` holds). A lasso that returns to a state
//! entered by a delay alone, or whose cycle is closed by one (the middle of
//! a delay), has no trace in this form, and none is given.

use super::super::Stop;
use super::super::concrete::{self, Confine};
use super::super::dbm::Dbm;
use super::super::semantics::{Model, TransitionBuf};
use super::super::trace::{Trace, TraceEnd};
use super::timed::{self, CROSS_A, CROSS_B, closure};
use super::{Edges, End, zone_bounds};

/// The concrete lasso of a run found by a search with clocks; `zones` has
/// one entry per state of `path` (see `liveness.rs`, `Run`).
pub(super) fn lasso(
    model: &Model,
    keep: &mut timed::Keep,
    path: &[Edges],
    zones: &[Option<Dbm>],
    end: End,
    stop: &Stop,
) -> Option<Trace> {
    let n = path.len();
    // A cycle closed by a crossing returns in the middle of a delay too.
    if matches!(end, End::Loop(..)) && path.last().is_some_and(timed::is_crossing) {
        return None;
    }
    let is = |k: usize, mark| path.get(k).is_some_and(|e| e.first() == Some(&mark));
    let mut steps: Vec<Edges> = Vec::new();
    let mut within: Vec<Confine> = Vec::new();
    // For each state of `path`, its index in the expanded path.
    let mut at = Vec::with_capacity(n + 1);
    for k in 0..=n {
        let entered_a = k > 0 && is(k - 1, CROSS_A);
        let left_b = is(k, CROSS_B);
        let split_next = path.get(k).is_some_and(|e| e.is_empty());
        at.push(within.len());
        match zones.get(k).cloned().flatten() {
            None => within.push(Confine::default()),
            // The part of the state's zone the inner search starts in: the
            // run only needs to be there when it leaves.
            Some(part) if split_next => within.push(Confine {
                entry: None,
                leave: Some(part),
            }),
            Some(z) if entered_a && left_b => {
                within.push(Confine {
                    entry: Some(closure(&z)),
                    leave: Some(z.clone()),
                });
                steps.push(Vec::new());
                within.push(Confine {
                    entry: Some(z.clone()),
                    leave: Some(closure(&z)),
                });
            }
            Some(z) => within.push(Confine {
                entry: Some(if entered_a { closure(&z) } else { z.clone() }),
                leave: Some(if left_b { closure(&z) } else { z }),
            }),
        }
        if let Some(edges) = path.get(k) {
            steps.push(if timed::is_crossing(edges) {
                Vec::new()
            } else {
                edges.clone()
            });
        }
    }
    let ends_in_deadlock = matches!(end, End::Deadlock);
    let mut buf = TransitionBuf::default();
    let mut target = |key: &[i32], z: &Dbm| -> Vec<Dbm> {
        if !ends_in_deadlock {
            return vec![z.clone()];
        }
        match keep.at(model, key, &mut buf) {
            Ok(pieces) => timed::deadlock_ends(model, key, z, &pieces, &mut buf),
            Err(_) => Vec::new(),
        }
    };
    let (mut trace, index) = concrete::confined_trace(model, &steps, &within, &mut target, stop)?;
    let delay = trace.end.delay();
    trace.end = match end {
        End::Loop(start, zone) => TraceEnd::Loop {
            delay,
            start: index[*at.get(start)?]?,
            zone: zone_bounds(&zone),
        },
        End::Deadlock => TraceEnd::Deadlock { delay },
        End::TimeDiverges => TraceEnd::TimeDiverges,
    };
    Some(trace)
}
