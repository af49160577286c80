//! Random small networks (`tests/support/random_net.rs`): every search order must agree, BFS traces must be
//! shortest, and every trace must replay under the concrete semantics (both
//! with the independent simulator in `tests/support`).

mod support;

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
                let options = Options { search: order, seed: 3, max_states: Some(20_000), ..Options::default() };
                let r = check(&net, k, &options, &Cancel::new(), &mut |_| {});
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
            // and dL are admissible, so A* keeps the BFS length.
            for heuristic in [HeuristicKind::DL, HeuristicKind::DU, HeuristicKind::HL, HeuristicKind::HU] {
                for (search, ties) in [SearchOrder::Greedy, SearchOrder::AStar]
                    .into_iter()
                    .flat_map(|s| [(s, Ties::Fifo), (s, Ties::Lifo)])
                {
                    let options = Options { search, heuristic, ties, max_states: Some(20_000), ..Options::default() };
                    let r = check(&net, k, &options, &Cancel::new(), &mut |_| {});
                    // A reachable model error the blind orders happened to
                    // miss (they stopped at the goal first) is a right answer too.
                    if let (Verdict::ModelError(_), Some(t)) = (&r.verdict, &r.trace) {
                        prop_assert!(support::simulator::replay(&net, k, t).is_ok());
                        continue;
                    }
                    prop_assert_eq!(&r.verdict, &results[0].verdict, "{:?} {:?} {:?}", search, heuristic, ties);
                    if let Some(t) = &r.trace {
                        prop_assert!(support::simulator::replay(&net, k, t).is_ok());
                        if search == SearchOrder::AStar
                            && matches!(heuristic, HeuristicKind::DL | HeuristicKind::HL)
                        {
                            let bfs = results[0].trace.as_ref().unwrap().len();
                            prop_assert_eq!(t.len(), bfs, "{:?}", heuristic);
                        }
                    }
                }
            }
        }
    }
}
