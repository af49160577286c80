//! Useless transitions, interference contexts, context bounding and hCG on
//! faulty Fischer (thesis Tables 3.1, 3.2, 4.1–4.3, 5.1): F5, F10, F15 (or
//! the sizes given as arguments), then on the thesis' Figures 3.1 and 4.1
//! (`models/useless-transitions.zeno`, `models/interference-contexts.zeno`).
//! Prints a Markdown table with the papers' columns: explored states, runtime,
//! trace length, #d (deferred explored / explored) and the queue accesses
//! (pushes and pops per non-empty queue).

#[path = "../tests/support/net.rs"]
#[allow(dead_code, clippy::new_without_default)]
mod net;

use std::time::Duration;

use zeno::checker::*;

fn main() {
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![5, 10, 15];
    }
    use Enhance::{
        ContextBoundingInterference as IBI, ContextBoundingProcesses as IBP,
        InterferenceContexts as CE, None as Plain, UselessTransitions as UT,
    };
    use HeuristicKind::*;
    use SearchOrder::{Bfs, Greedy};
    let configs = [
        ("greedy hL", Greedy, HL, Plain),
        ("greedy hL + UT", Greedy, HL, UT),
        ("greedy hL + CE", Greedy, HL, CE),
        ("greedy hL + IB_P", Greedy, HL, IBP),
        ("greedy hL + IB_I", Greedy, HL, IBI),
        ("greedy hU", Greedy, HU, Plain),
        ("greedy hU + UT", Greedy, HU, UT),
        ("greedy hCG", Greedy, HCG, Plain),
        ("greedy hCG + UT", Greedy, HCG, UT),
        ("greedy dL", Greedy, DL, Plain),
        ("greedy dU", Greedy, DU, Plain),
        ("greedy dU + UT", Greedy, DU, UT),
        ("greedy dU + CE", Greedy, DU, CE),
        ("greedy dU + IB_P", Greedy, DU, IBP),
        ("greedy dU + IB_I", Greedy, DU, IBI),
        ("BFS", Bfs, Zero, Plain),
        ("BFS + CE", Bfs, Zero, CE),
        ("BFS + IB_P", Bfs, Zero, IBP),
        ("BFS + IB_I", Bfs, Zero, IBI),
    ];
    println!(
        "| model | configuration | verdict | explored | time (s) | trace | #d | pushes per queue | pops per queue |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---|---|");
    // Faulty Fischer, then the thesis' motivating examples (Figs. 3.1, 4.1).
    let mut models: Vec<(String, zeno::ir::Network)> = sizes
        .iter()
        .map(|&n| (format!("F{n}"), net::fischer(n, 2, true)))
        .collect();
    for (name, text) in [
        (
            "Fig. 3.1",
            include_str!("../models/useless-transitions.zeno"),
        ),
        (
            "Fig. 4.1",
            include_str!("../models/interference-contexts.zeno"),
        ),
    ] {
        match zeno::semantics::analyze(text).network {
            Some(net) => models.push((name.to_string(), net)),
            None => eprintln!("{name}: the model does not lower"),
        }
    }
    for (model, net) in &models {
        for (name, search, heuristic, enhance) in configs {
            let options = Options {
                search,
                heuristic,
                enhance,
                timeout: Some(Duration::from_secs(60)),
                max_states: Some(5_000_000),
                ..Options::default()
            };
            let r = check(net, 0, &options, &Cancel::new(), &mut |_| {});
            let s = &r.stats;
            println!(
                "| {model} | {name} | {:?} | {} | {:.2} | {} | {:.3} | {} | {} |",
                r.verdict,
                s.explored,
                s.elapsed.as_secs_f64(),
                r.trace
                    .as_ref()
                    .map_or("-".to_string(), |t| t.len().to_string()),
                s.deferred_ratio(),
                per_queue(&s.queue_pushes),
                per_queue(&s.queue_pops),
            );
        }
    }
}

/// `q0:12 q1:3`, non-empty queues only.
fn per_queue(counts: &[u64]) -> String {
    counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(q, c)| format!("q{q}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}
