//! Fischer's protocol, N = 4..8 (or the range given as `FROM TO` arguments):
//! the correct version (`A[] mutex` holds, full exploration) and the buggy one
//! (`x >= k`), per search order. Prints a Markdown table.

#[path = "../tests/checker_net.rs"]
#[allow(dead_code)]
mod net;

use std::time::Duration;

use zeno::checker::*;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (from, to) = match args.as_slice() {
        [a, b, ..] => (*a, *b),
        [a] => (*a, *a),
        [] => (4, 8),
    };
    let orders = [
        ("BFS", SearchOrder::Bfs, HeuristicKind::Zero),
        ("DFS", SearchOrder::Dfs, HeuristicKind::Zero),
        ("RDFS", SearchOrder::RandomDfs, HeuristicKind::Zero),
        ("greedy hU", SearchOrder::Greedy, HeuristicKind::HU),
        ("A* hL", SearchOrder::AStar, HeuristicKind::HL),
    ];
    println!(
        "| model | order | verdict | trace | explored | stored | time (s) | states/s | peak memory (KiB) |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|");
    for n in from..=to {
        for buggy in [false, true] {
            let net = net::fischer(n, 2, buggy);
            for (name, search, heuristic) in orders {
                let options = Options {
                    search,
                    heuristic,
                    timeout: Some(Duration::from_secs(120)),
                    seed: 1,
                    ..Options::default()
                };
                let r = check(&net, 0, &options, &Cancel::new(), &mut |_| {});
                let s = &r.stats;
                let secs = s.elapsed.as_secs_f64();
                println!(
                    "| F{n}{} | {name} | {:?} | {} | {} | {} | {:.3} | {:.0} | {} |",
                    if buggy { " buggy" } else { "" },
                    r.verdict,
                    r.trace
                        .as_ref()
                        .map_or("-".to_string(), |t| t.len().to_string()),
                    s.explored,
                    s.stored,
                    secs,
                    s.explored as f64 / secs.max(1e-9),
                    s.peak_memory / 1024,
                );
            }
        }
    }
}
