//! `--non-zeno`: the standard extra-clock construction (Tripakis, Yovine
//! and Bouajjani, "Checking timed Büchi automata emptiness efficiently",
//! FMSD 2005), which turns "the run lets time diverge" into a Büchi
//! condition on the transitions of a product network.
//!
//! A fresh clock `z` is added, and every edge `e` is replaced by two copies:
//! `e` with the extra guard `z < 1` (even edge id `2e`), and `e` with the
//! extra guard `z >= 1` and the reset `z = 0` (odd id `2e + 1`, a *tick*).
//! The two guards partition the valuations, so every transition of the
//! network is matched by exactly one combination of copies with a
//! satisfiable guard (a handshake or broadcast mixing a tick copy and a
//! plain copy asks for `z >= 1 && z < 1`: never enabled), and the product
//! has exactly the runs of the network, with `z` along for the ride. A
//! transition that includes a tick copy *ticks*.
//!
//! Why "infinitely many ticks" is "time diverges": between two ticks `z`
//! grows from 0 to at least 1, so infinitely many ticks take infinite time.
//! Conversely, when time diverges, `z` reaches 1 again after every tick, and
//! the next transition then ticks (the guards force it), so ticks recur. The
//! zone graph of the product, with `z` extrapolated against its only
//! constant 1, decides the existence of a cycle through a ticking transition
//! exactly (the same references as for cycles in `liveness.rs`; the LU
//! bounds of `z` come from the new guards, as for any clock).
//!
//! Traces of the product are mapped back to the network: edge `2e` and
//! `2e + 1` become `e`, and `z` is dropped from valuations and zones (a
//! projection of a valuation of the product's zone lies in the projection
//! of that zone, and the network's guards are weaker than the copies').

use zeno_ir::{self as ir, ClockConstraint, ClockId, EdgeId, Expr, Network, Update};

use super::super::trace::{ConcreteState, Trace, TraceEnd};

/// The product network: the extra clock is the last one.
pub(super) fn product(net: &Network) -> Network {
    let mut out = net.clone();
    let z = out.clocks.len() as ClockId;
    out.clocks.push(ir::Clock {
        name: "non-Zeno clock".to_string(),
        span: ir::Span::default(),
    });
    for proc_ in &mut out.processes {
        let edges = std::mem::take(&mut proc_.edges);
        for edge in edges {
            let mut fast = edge.clone();
            fast.clock_guard.push(ClockConstraint {
                i: z,
                j: 0,
                strict: true,
                bound: Expr::Const(1),
            });
            let mut tick = edge;
            tick.clock_guard.push(ClockConstraint {
                i: 0,
                j: z,
                strict: false,
                bound: Expr::Const(-1),
            });
            tick.updates.push(Update::ResetClock { clock: z, value: 0 });
            proc_.edges.push(fast);
            proc_.edges.push(tick);
        }
    }
    out
}

/// Whether a transition of the product ticks.
pub(super) fn ticks(edges: &[(ir::ProcId, EdgeId)]) -> bool {
    edges.iter().any(|&(_, e)| e % 2 == 1)
}

/// The network's edges for a transition of the product.
pub(super) fn original_edges(edges: &mut [(ir::ProcId, EdgeId)]) {
    for (_, e) in edges {
        *e /= 2;
    }
}

/// A trace of the product as a trace of the network (`clocks` is the
/// network's number of clocks, the reference clock included).
pub(super) fn project(mut trace: Trace, clocks: usize) -> Trace {
    let state = |s: &mut ConcreteState| s.clocks.truncate(clocks);
    state(&mut trace.initial);
    for step in &mut trace.steps {
        original_edges(&mut step.transition.edges);
        state(&mut step.after);
    }
    match &mut trace.end {
        TraceEnd::ModelError { transition, .. } => original_edges(&mut transition.edges),
        // The projection of a canonical DBM is its other rows and columns:
        // every constraint between the remaining clocks is kept.
        TraceEnd::Loop { zone, .. } => {
            zone.retain(|b| (b.i as usize) < clocks && (b.j as usize) < clocks)
        }
        TraceEnd::Goal { .. } | TraceEnd::Deadlock { .. } | TraceEnd::TimeDiverges => {}
    }
    trace
}
