//! Every bundled model under every search configuration: verdicts agree with
//! the hand-computed expectations in the model headers, breadth-first search
//! and A* with an admissible heuristic find traces of the stated shortest
//! length, every other order finds one at least that long, and every trace
//! replays in the independent simulator.

use crate::support;

use support::expect;
use support::simulator;
use zeno::checker::{self, Cancel, HeuristicKind, Options, SearchOrder};

/// Each configuration, whether it guarantees shortest traces, whether it
/// uses safe abstraction (whose inserted moves need not be shortest), and
/// whether the pattern database also selects a clock pattern.
const CONFIGS: &[(SearchOrder, HeuristicKind, bool, bool, bool)] = &[
    (SearchOrder::Bfs, HeuristicKind::Zero, true, false, false),
    (SearchOrder::Dfs, HeuristicKind::Zero, false, false, false),
    (
        SearchOrder::RandomDfs,
        HeuristicKind::Zero,
        false,
        false,
        false,
    ),
    (SearchOrder::Greedy, HeuristicKind::DL, false, false, false),
    (SearchOrder::Greedy, HeuristicKind::DU, false, false, false),
    (SearchOrder::Greedy, HeuristicKind::HL, false, false, false),
    (SearchOrder::Greedy, HeuristicKind::HU, false, false, false),
    (SearchOrder::AStar, HeuristicKind::Zero, true, false, false),
    (SearchOrder::AStar, HeuristicKind::DL, true, false, false),
    (SearchOrder::AStar, HeuristicKind::HL, true, false, false),
    (SearchOrder::Greedy, HeuristicKind::HCG, false, true, false),
    (SearchOrder::Bfs, HeuristicKind::Zero, false, true, false),
    (SearchOrder::AStar, HeuristicKind::Pdb, true, false, false),
    (SearchOrder::Greedy, HeuristicKind::Pdb, false, false, false),
    (SearchOrder::AStar, HeuristicKind::Pdb, true, false, true),
    (SearchOrder::Greedy, HeuristicKind::Pdb, false, false, true),
];

#[test]
fn every_model_every_order_agrees_and_replays() {
    let files = expect::model_files();
    assert!(files.len() >= 10, "bundled models not found: {files:?}");
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let expectations = expect::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let analysis = zeno::semantics::analyze(&text);
        let Some(network) = analysis.network else {
            panic!("{name} does not analyse: {:?}", analysis.diagnostics);
        };
        for expectation in &expectations {
            let Some(index) = network
                .checks
                .iter()
                .position(|c| c.name == expectation.check)
            else {
                failures.push(format!("{name}: no check `{}`", expectation.check));
                continue;
            };
            for &(search, heuristic, shortest_guaranteed, safe_abstraction, clocks) in CONFIGS {
                let options = Options {
                    search,
                    heuristic,
                    safe_abstraction,
                    seed: 7,
                    pdb: checker::PdbOptions {
                        clocks,
                        ..checker::PdbOptions::default()
                    },
                    ..Options::default()
                };
                let result = checker::check(
                    &network,
                    network.check_at(index).unwrap(),
                    &options,
                    &Cancel::new(),
                    &mut |_| {},
                );
                let config = format!(
                    "{name} {} {search:?}/{heuristic:?} safe={safe_abstraction} clocks={clocks}",
                    expectation.check
                );
                checked += 1;
                let trace_len = result.trace.as_ref().map(|t| t.len());
                if let Err(e) =
                    expect::compare(expectation, &result.verdict, trace_len, shortest_guaranteed)
                {
                    failures.push(format!("{config}: {e}"));
                }
                if let Some(trace) = &result.trace
                    && let Err(e) = simulator::replay(&network, index, trace)
                {
                    failures.push(format!("{config}: trace does not replay: {e}"));
                }
            }
        }
    }
    eprintln!("{checked} runs over {} model files", files.len());
    assert!(checked >= 300, "only {checked} runs: expectations missing?");
    assert!(
        failures.is_empty(),
        "{} of {checked} runs wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
