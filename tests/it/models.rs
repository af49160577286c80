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

/// Checks the expectations of one model file (all of them, or only the
/// `only`-th) under every configuration: the number of runs and what went
/// wrong.
fn check_model_file(path: &std::path::Path, only: Option<usize>) -> (usize, Vec<String>) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let expectations = expect::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let analysis = zeno::semantics::analyze(&text);
    let Some(network) = analysis.network else {
        panic!("{name} does not analyse: {:?}", analysis.diagnostics);
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for (k, expectation) in expectations.iter().enumerate() {
        if only.is_some_and(|o| o != k) {
            continue;
        }
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
                config: zeno::checker::config::Config {
                    search,
                    heuristic,
                    safe_abstraction,
                    ..Default::default()
                },
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
                &mut zeno::checker::no_progress,
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
    (checked, failures)
}

#[test]
fn every_model_every_order_agrees_and_replays() {
    let files = expect::model_files();
    assert!(files.len() >= 10, "bundled models not found: {files:?}");
    // Every expectation of every file is independent: they are checked on
    // as many threads as there are cores (one file's checks can take most
    // of the time: the pattern database on the function model).
    let items: Vec<(&std::path::PathBuf, usize)> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            let n = expect::parse(&text).map_or(1, |e| e.len().max(1));
            (0..n).map(move |k| (path, k))
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(path, k)) = items.get(i) else {
                            break;
                        };
                        let started = std::time::Instant::now();
                        mine.push(check_model_file(path, Some(k)));
                        eprintln!("{} #{k}: {:.1?}", path.display(), started.elapsed());
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a model file's check panicked"))
            .collect()
    });
    let checked: usize = results.iter().map(|(n, _)| n).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|(_, f)| f).collect();
    eprintln!("{checked} runs over {} model files", files.len());
    assert!(checked >= 300, "only {checked} runs: expectations missing?");
    assert!(
        failures.is_empty(),
        "{} of {checked} runs wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
