//! Useless transitions, interference contexts, context bounding and hCG on
//! faulty Fischer (thesis Tables 3.1, 3.2, 4.1–4.3, 5.1): F5, F10, F15 (or
//! the sizes given as arguments), then on the thesis' Figures 3.1 and 4.1
//! (`models/useless-transitions.zeno`, `models/interference-contexts.zeno`),
//! 5.1 (`models/safe-abstraction.zeno`) and a family that generalises Fig. 5.1
//! to `k` safe counters (`Ck`).
//! Prints a Markdown table with the papers' columns: explored states, runtime,
//! trace length, #d (deferred explored / explored) and the queue accesses
//! (pushes and pops per non-empty queue); with safe abstraction (`+ safe`)
//! also #s (components removed) and the trace as `x + y` (abstract steps +
//! inserted moves).

#[path = "../tests/it/support/net.rs"]
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
        ("greedy hL", Greedy, HL, Plain, false),
        ("greedy hL + UT", Greedy, HL, UT, false),
        ("greedy hL + CE", Greedy, HL, CE, false),
        ("greedy hL + IB_P", Greedy, HL, IBP, false),
        ("greedy hL + IB_I", Greedy, HL, IBI, false),
        ("greedy hU", Greedy, HU, Plain, false),
        ("greedy hU + UT", Greedy, HU, UT, false),
        ("greedy hCG", Greedy, HCG, Plain, false),
        ("greedy hCG + UT", Greedy, HCG, UT, false),
        ("greedy dL", Greedy, DL, Plain, false),
        ("greedy dU", Greedy, DU, Plain, false),
        ("greedy dU + UT", Greedy, DU, UT, false),
        ("greedy dU + CE", Greedy, DU, CE, false),
        ("greedy dU + IB_P", Greedy, DU, IBP, false),
        ("greedy dU + IB_I", Greedy, DU, IBI, false),
        ("BFS", Bfs, Zero, Plain, false),
        ("BFS + CE", Bfs, Zero, CE, false),
        ("BFS + IB_P", Bfs, Zero, IBP, false),
        ("BFS + IB_I", Bfs, Zero, IBI, false),
        ("greedy hL + safe", Greedy, HL, Plain, true),
        ("greedy hU + safe", Greedy, HU, Plain, true),
        ("greedy hCG + safe", Greedy, HCG, Plain, true),
        ("greedy hCG + safe + UT", Greedy, HCG, UT, true),
        ("BFS + safe", Bfs, Zero, Plain, true),
    ];
    println!(
        "| model | configuration | verdict | explored | time (s) | trace | #s | x + y | #d | pushes per queue | pops per queue |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---|---:|---|---|");
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
        ("Fig. 5.1", include_str!("../models/safe-abstraction.zeno")),
    ] {
        match zeno::semantics::analyze(text).network {
            Some(net) => models.push((name.to_string(), net)),
            None => eprintln!("{name}: the model does not lower"),
        }
    }
    for k in [2, 4, 6] {
        models.push((format!("C{k}"), counters(k)));
    }
    for (model, net) in &models {
        for (name, search, heuristic, enhance, safe_abstraction) in configs {
            let options = Options {
                config: zeno::checker::config::Config {
                    search,
                    heuristic,
                    enhance,
                    safe_abstraction,
                    ..Default::default()
                },
                timeout: Some(Duration::from_secs(60)),
                max_states: Some(5_000_000),
                ..Options::default()
            };
            let r = check(
                net,
                net.check_at(0).expect("a check"),
                &options,
                &Cancel::new(),
                &mut |_| {},
            );
            let s = &r.stats;
            let (removed, split) = match &s.safe {
                Some(f) => (
                    f.removed.to_string(),
                    match (f.abstract_steps, f.inserted_steps, f.fell_back) {
                        (_, _, true) => "fell back".to_string(),
                        (Some(x), Some(y), _) => format!("{x} + {y}"),
                        _ => "-".to_string(),
                    },
                ),
                None => ("-".to_string(), "-".to_string()),
            };
            println!(
                "| {model} | {name} | {:?} | {} | {:.2} | {} | {removed} | {split} | {:.3} | {} | {} |",
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

/// Fig. 5.1 with `k` counters in [0, 3], each moved up and down modulo 4 by a
/// one-location process: P walks `l0 -> l1 -> ... -> lk` taking `l(i) ->
/// l(i+1)` when counter `i` is 2, then `lk -> done` when every counter is 0.
/// `A[] !P.done` fails; the shortest trace has `4k + k + 1` steps (each
/// counter 0 -> 2 -> 0 takes 4 moves); the state space has `4^k (k + 2)`
/// states. Every counter is safe: the reduced network is P alone.
fn counters(k: usize) -> zeno::ir::Network {
    use net::*;
    use zeno::ir::{BinOp, Formula};
    let mut n = Net::new();
    let vars: Vec<_> = (0..k).map(|i| n.var(&format!("c{i}"), 0, 3, 0)).collect();
    let names: Vec<String> = (0..=k)
        .map(|i| format!("l{i}"))
        .chain(["done".into()])
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let p = n.normal("P", &refs);
    for (i, &x) in vars.iter().enumerate() {
        let q = n.normal(&format!("Counter{i}"), &["idle"]);
        let modulo = |d: i32| bin(BinOp::Mod, add(v(x), c(d)), c(4));
        n.edge(q, 0, 0).set(x, modulo(1));
        n.edge(q, 0, 0).set(x, modulo(3));
        n.edge(p, i as u32, i as u32 + 1).guard(eq(v(x), c(2)));
    }
    let all_zero = vars
        .iter()
        .map(|&x| eq(v(x), c(0)))
        .reduce(|a, b| bin(BinOp::And, a, b))
        .unwrap_or(c(1));
    n.edge(p, k as u32, k as u32 + 1).guard(all_zero);
    n.always(Formula::Not(Box::new(at(p, k as u32 + 1))));
    n.n
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
