//! Random small networks (`tests/support/random_net.rs`): with useless
//! transitions, interference contexts or context bounding, every search order and heuristic
//! agrees with plain BFS and every trace replays in the independent simulator.

use crate::support;

use proptest::prelude::*;
use support::random_net::{build, spec};
use zeno::checker::*;

const HEURISTICS: [HeuristicKind; 6] = [
    HeuristicKind::Zero,
    HeuristicKind::DL,
    HeuristicKind::HL,
    HeuristicKind::HU,
    HeuristicKind::HCG,
    HeuristicKind::Pdb,
];

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
    fn enhancements_agree_with_bfs_and_traces_replay(s in spec()) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let base = Options { max_states: Some(20_000), seed: 5, ..Options::default() };
            let bfs = check(&net, net.check_at(k).unwrap(), &base, &Cancel::new(), &mut zeno::checker::no_progress);
            prop_assert!(!matches!(bfs.verdict, Verdict::Unknown(_)));
            for enhance in [
                Enhance::UselessTransitions,
                Enhance::InterferenceContexts,
                Enhance::ContextBoundingProcesses,
                Enhance::ContextBoundingInterference,
            ] {
                for search in ORDERS {
                    for heuristic in HEURISTICS {
                        let options = Options { config: zeno::checker::config::Config { search, heuristic, enhance, ..Default::default() }, ..base.clone() };
                        let r = check(&net, net.check_at(k).unwrap(), &options, &Cancel::new(), &mut zeno::checker::no_progress);
                        let ctx = format!("{search:?} {heuristic:?} {enhance:?} check {k}");
                        prop_assert!(!matches!(r.verdict, Verdict::Unknown(_)), "{}", ctx);
                        if let Some(t) = &r.trace {
                            let replayed = support::simulator::replay(&net, k, t);
                            prop_assert!(replayed.is_ok(), "{}: {:?}\n{:#?}", ctx, replayed, t);
                        }
                        // With a reachable model error the first thing found
                        // depends on the order.
                        let error = |v: &Verdict| matches!(v, Verdict::ModelError(_));
                        if error(&bfs.verdict) || error(&r.verdict) {
                            continue;
                        }
                        prop_assert_eq!(&r.verdict, &bfs.verdict, "{}", ctx);
                        prop_assert_eq!(r.trace.is_some(), bfs.trace.is_some(), "{}", ctx);
                        if let (Some(t), Some(b)) = (&r.trace, &bfs.trace) {
                            prop_assert!(b.len() <= t.len(), "{}", ctx);
                        }
                    }
                }
            }
        }
    }
}
