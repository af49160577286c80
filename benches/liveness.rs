//! Directed against blind liveness search, on models with liveness bugs.
//! Prints a Markdown table: verdict, explored and stored states, the
//! lasso's shape (steps before the cycle + steps of the cycle, or how the
//! run ends), time, and the state store's estimated memory.
//!
//! Blind: breadth-first outer search of `-->`, depth-first inner searches
//! in the network's order of successors. Directed (`directed.rs`):
//! best-first outer search on the heuristic toward `p && !q`, inner
//! searches trying cycle-closing successors first.
//!
//! `cargo bench --bench liveness` (optionally `-- quick` for the smallest
//! instances).

use std::time::Instant;

use zeno::bench::families;
use zeno::checker::*;

/// A model with its liveness checks appended.
fn with_checks(text: String, checks: &str) -> zeno::ir::Network {
    let text = format!("{text}\n{checks}\n");
    let analysis = zeno::semantics::analyze(&text);
    analysis
        .network
        .unwrap_or_else(|| panic!("does not analyse: {:?}", analysis.diagnostics))
}

/// `n` urgent counters (time never passes), each of which may count up to
/// 8 or skip a turn (`s -> s`, which changes nothing: a cycle at once).
/// `A<>` all counters at 8 fails: a process may skip for ever. In the
/// network's order the counting edge comes first, so a blind depth-first
/// search counts up before it takes a skip; a cycle-closing search takes
/// the skip at once.
fn counters(n: usize) -> zeno::ir::Network {
    let text = format!(
        "const int N = {n};\ntypedef int[1, N] id_t;\nint[0, 8] c[id_t];\n\
         template C(const id_t i) {{ init urgent location s;\n\
         s -> s when c[i] < 8 do c[i] = c[i] + 1;\n s -> s; }}\n\
         system C;\ncheck all: A<> forall (i : id_t) c[i] == 8;\n"
    );
    with_checks(text, "")
}

fn shape(t: &Trace) -> String {
    match t.end {
        TraceEnd::Loop { start, .. } => format!("{start} + {}", t.len() - start),
        TraceEnd::Deadlock { .. } => format!("{}, deadlock", t.len()),
        TraceEnd::TimeDiverges => format!("{}, time diverges", t.len()),
        _ => format!("{}", t.len()),
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let sizes: &[usize] = if quick { &[3, 4] } else { &[3, 4, 5, 6, 7] };
    let configs: [(&str, SearchOrder, HeuristicKind); 3] = [
        ("blind", SearchOrder::Bfs, HeuristicKind::Zero),
        ("directed hU", SearchOrder::Greedy, HeuristicKind::HU),
        ("directed hL", SearchOrder::Greedy, HeuristicKind::HL),
    ];
    println!(
        "| model | check | search | verdict | explored | stored | lasso | time (ms) | memory (KiB) |"
    );
    println!("|---|---|---|---|---:|---:|---|---:|---:|");
    for &n in sizes {
        // Correct Fischer starves a process: Proc(1) may go round
        // req -> wait -> req for ever while the others take turns in cs.
        let starve = with_checks(
            families::fischer(n, false),
            "check starve: Proc(1).req --> Proc(1).cs;",
        );
        // Faulty Fischer breaks mutual exclusion, and nothing forces the
        // intruders out of cs (no invariant there): the breach never heals.
        let breach = with_checks(
            families::fischer(n, true),
            "check heals: Proc(1).cs && Proc(2).cs --> id == 0;",
        );
        // With an invariant in wait (x <= 3, K = 2) no process can wait
        // for ever: a run that starves Proc(1) must go round a cycle (or
        // stop in a time-lock), so the inner search has to close one.
        let bounded = with_checks(
            families::fischer(n, false)
                .replace("location wait;", "location wait invariant x <= 3;"),
            "check starve: Proc(1).req --> Proc(1).cs;",
        );
        let counting = counters(n);
        for (model, net) in [
            ("counters", &counting),
            ("fischer", &starve),
            ("fischer-faulty", &breach),
            ("fischer-bounded", &bounded),
        ] {
            let check = net.checks.len() - 1;
            for (name, search, heuristic) in configs {
                let options = Options {
                    search,
                    heuristic,
                    ..Options::default()
                };
                let started = Instant::now();
                let r = zeno::checker::check(net, check, &options, &Cancel::new(), &mut |_| {});
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                println!(
                    "| {model} N = {n} | {} | {name} | {:?} | {} | {} | {} | {ms:.1} | {} |",
                    net.checks[check].name,
                    r.verdict,
                    r.stats.explored,
                    r.stats.stored,
                    r.trace.as_ref().map_or("-".to_string(), shape),
                    r.stats.peak_memory / 1024,
                );
            }
        }
    }
}
