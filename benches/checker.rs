//! Fischer's protocol, N = 4..8 (or the range given as `FROM TO` arguments):
//! the correct version (`A[] mutex` holds, full exploration) and the buggy one
//! (`x >= k`), per search order. Prints a Markdown table.
//!
//! `--threads N` (default 1) runs breadth-first search on `N` threads; the
//! table's `threads` column says what each search ran on.

#[path = "../tests/it/support/net.rs"]
#[allow(dead_code, clippy::new_without_default)]
mod net;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use zeno::checker::*;

/// Counts heap allocations, to show how many the search makes per successor.
struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    // `--threads N`; the other numbers are the range.
    let threads = raw
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| raw.get(i + 1))
        .map_or(1, |n| n.parse::<usize>().expect("--threads N").max(1));
    let args: Vec<usize> = raw
        .iter()
        .enumerate()
        .filter(|&(i, _)| i == 0 || raw[i - 1] != "--threads")
        .filter_map(|(_, a)| a.parse().ok())
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
        "| model | order | verdict | trace | explored | generated | stored | time (s) | states/s | peak memory (KiB) | allocations / generated | threads |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in from..=to {
        for buggy in [false, true] {
            let net = net::fischer(n, 2, buggy);
            for (name, search, heuristic) in orders {
                let options = Options {
                    config: zeno::checker::config::Config {
                        search,
                        heuristic,
                        ..Default::default()
                    },
                    timeout: Some(Duration::from_secs(120)),
                    seed: 1,
                    threads,
                    ..Options::default()
                };
                let allocations_before = ALLOCATIONS.load(Ordering::Relaxed);
                let r = check(
                    &net,
                    net.check_at(0).expect("a check"),
                    &options,
                    &Cancel::new(),
                    &mut |_| {},
                );
                let allocations = ALLOCATIONS.load(Ordering::Relaxed) - allocations_before;
                let s = &r.stats;
                let secs = s.elapsed.as_secs_f64();
                println!(
                    "| F{n}{} | {name} | {:?} | {} | {} | {} | {} | {:.3} | {:.0} | {} | {:.1} | {} |",
                    if buggy { " buggy" } else { "" },
                    r.verdict,
                    r.trace
                        .as_ref()
                        .map_or("-".to_string(), |t| t.len().to_string()),
                    s.explored,
                    s.generated,
                    s.stored,
                    secs,
                    s.explored as f64 / secs.max(1e-9),
                    s.peak_memory / 1024,
                    allocations as f64 / s.generated.max(1) as f64,
                    s.threads,
                );
            }
        }
    }
}
