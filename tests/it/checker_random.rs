//! Random small networks (`tests/support/random_net.rs`): every search order must agree, BFS traces must be
//! shortest, and every trace must replay under the concrete semantics (both
//! with the independent simulator in `tests/support`).

use crate::support;

use proptest::prelude::*;
use support::random_net::{build, spec};
use zeno::checker::*;
use zeno::ir::*;

const ORDERS: [SearchOrder; 5] = [
    SearchOrder::Bfs,
    SearchOrder::Dfs,
    SearchOrder::RandomDfs,
    SearchOrder::Greedy,
    SearchOrder::AStar,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn orders_agree_and_traces_replay(s in spec()) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let mut results = Vec::new();
            for order in ORDERS {
                let options = Options { config: zeno::checker::config::Config { search: order, ..Default::default() }, seed: 3, max_states: Some(20_000), ..Options::default() };
                let r = check(&net, net.check_at(k).unwrap(), &options, &Cancel::new(), &mut zeno::checker::no_progress);
                prop_assert!(!matches!(r.verdict, Verdict::Unknown(_)));
                let needs_trace = matches!(
                    (&net.checks[k].kind, &r.verdict),
                    (_, Verdict::ModelError(_))
                        | (CheckKind::Invariant(_), Verdict::Fails)
                        | (CheckKind::Reachable(_), Verdict::Holds)
                );
                prop_assert_eq!(r.trace.is_some(), needs_trace, "{:?} {:?}", order, r.verdict);
                if let Some(t) = &r.trace {
                    let replayed = support::simulator::replay(&net, k, t);
                    prop_assert!(replayed.is_ok(), "{:?} check {}: {:?}\n{:#?}", order, k, replayed, t);
                }
                results.push(r);
            }
            // With a reachable model error the first thing found depends on the order.
            if results.iter().any(|r| matches!(r.verdict, Verdict::ModelError(_))) {
                continue;
            }
            for r in &results {
                prop_assert_eq!(&r.verdict, &results[0].verdict);
            }
            if let Some(bfs) = &results[0].trace {
                for r in &results {
                    prop_assert!(bfs.len() <= r.trace.as_ref().unwrap().len());
                }
                prop_assert_eq!(bfs.len(), results[4].trace.as_ref().unwrap().len());
            }
            // The built heuristics, with either tie rule: same verdicts; hL
            // and dL are admissible and pdb consistent, so A* keeps the BFS length.
            // `clocks`: the pattern database with a clock pattern, which only
            // prunes on top of the discrete estimates (still consistent).
            let configs = [
                (HeuristicKind::DL, false),
                (HeuristicKind::DU, false),
                (HeuristicKind::HL, false),
                (HeuristicKind::HU, false),
                (HeuristicKind::Pdb, false),
                (HeuristicKind::Pdb, true),
            ];
            for (heuristic, clocks) in configs {
                for (search, ties) in [SearchOrder::Greedy, SearchOrder::AStar]
                    .into_iter()
                    .flat_map(|s| [(s, Ties::Fifo), (s, Ties::Lifo)])
                {
                    let pdb = PdbOptions { clocks, selection_time: None, ..PdbOptions::default() };
                    let options = Options { config: zeno::checker::config::Config { search, heuristic, ties, ..Default::default() }, max_states: Some(20_000), pdb, ..Options::default() };
                    let r = check(&net, net.check_at(k).unwrap(), &options, &Cancel::new(), &mut zeno::checker::no_progress);
                    // A reachable model error the blind orders happened to
                    // miss (they stopped at the goal first) is a right answer too.
                    if let (Verdict::ModelError(_), Some(t)) = (&r.verdict, &r.trace) {
                        prop_assert!(support::simulator::replay(&net, k, t).is_ok());
                        continue;
                    }
                    prop_assert_eq!(&r.verdict, &results[0].verdict, "{:?} {:?} {:?} clocks={}", search, heuristic, ties, clocks);
                    if let Some(t) = &r.trace {
                        prop_assert!(support::simulator::replay(&net, k, t).is_ok());
                        if search == SearchOrder::AStar
                            && matches!(heuristic, HeuristicKind::DL | HeuristicKind::HL | HeuristicKind::Pdb)
                        {
                            let bfs = results[0].trace.as_ref().unwrap().len();
                            prop_assert_eq!(t.len(), bfs, "{:?} clocks={}", heuristic, clocks);
                        }
                    }
                }
            }
            // Along the BFS trace (shortest, so its states are at their goal
            // distances) the pattern database is consistent and 0 at the end;
            // with a small budget it abstracts, with the default it may not.
            if let Some(t) = &results[0].trace {
                if !matches!(t.end, TraceEnd::Goal { .. }) {
                    continue;
                }
                let goal = net.checks[k].kind.goal();
                for max_states in [2, 16, 100_000] {
                    let options = PdbOptions { max_states, selection_states: 50_000, selection_time: None, clocks: false };
                    let mut h = heuristics::build_with(HeuristicKind::Pdb, &net, &goal, &heuristics::EdgeSet::none(&net), &options);
                    let mut states = vec![&t.initial];
                    states.extend(t.steps.iter().map(|s| &s.after));
                    let values: Vec<Option<u32>> = states.iter().map(|s| h.estimate(&s.locations, &s.variables)).collect();
                    for (i, w) in values.windows(2).enumerate() {
                        let (a, b) = (w[0], w[1]);
                        prop_assert!(a.is_some() && b.is_some(), "h = None on a trace to the goal: {:?}", values);
                        prop_assert!(a.unwrap() <= b.unwrap() + 1, "step {}: {:?}", i, values);
                    }
                    // Admissible: at most the remaining trace length.
                    for (i, v) in values.iter().enumerate() {
                        prop_assert!(v.is_some_and(|v| v as usize <= t.len() - i), "{:?}", values);
                    }
                    prop_assert_eq!(*values.last().unwrap(), Some(0));
                }
            }
        }
    }
}
