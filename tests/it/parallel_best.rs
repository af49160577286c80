//! The parallel greedy and A* search against the sequential one: on random
//! networks (`tests/support/random_net.rs`) the same verdicts with every
//! heuristic threads share, on 2 and 4 threads; traces that the
//! independent simulator replays; hL, hU and hcg falling back to one
//! thread; limits (states, time, cancel, memory) stopping it with its
//! statistics.

use crate::support;

use proptest::prelude::*;
use support::cli::{data_file, stderr, stdout, zeno};
use support::random_net::{build, run, spec};
use zeno::checker::*;
use zeno::ir::*;

fn options(search: SearchOrder, heuristic: HeuristicKind, clocks: bool, threads: usize) -> Options {
    Options {
        config: zeno::checker::config::Config {
            search,
            heuristic,
            ..Default::default()
        },
        threads,
        max_states: Some(20_000),
        pdb: PdbOptions {
            clocks,
            selection_time: None,
            ..PdbOptions::default()
        },
        ..Options::default()
    }
}

/// Whether check `k` needs a trace with `verdict`.
fn needs_trace(net: &Network, k: usize, verdict: &Verdict) -> bool {
    matches!(
        (&net.checks[k].kind, verdict),
        (_, Verdict::ModelError(_))
            | (CheckKind::Invariant(_), Verdict::Fails)
            | (CheckKind::Reachable(_), Verdict::Holds)
    )
}

/// The heuristics threads share, with the pattern database's clock pattern
/// on and off.
const SHARED: [(HeuristicKind, bool); 5] = [
    (HeuristicKind::Zero, false),
    (HeuristicKind::DL, false),
    (HeuristicKind::DU, false),
    (HeuristicKind::Pdb, false),
    (HeuristicKind::Pdb, true),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn parallel_best_first_agrees_with_sequential(s in spec()) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            for (heuristic, clocks) in SHARED {
                for search in [SearchOrder::Greedy, SearchOrder::AStar] {
                    let seq = run(&net, k, &options(search, heuristic, clocks, 1));
                    prop_assert_eq!(seq.stats.threads, 1);
                    prop_assert!(!matches!(seq.verdict, Verdict::Unknown(_)));
                    for threads in [2, 4] {
                        let what = format!("{search:?} {heuristic:?} clocks={clocks} threads {threads} check {k}");
                        let par = run(&net, k, &options(search, heuristic, clocks, threads));
                        prop_assert_eq!(par.stats.threads, threads as u32, "{}", what);
                        prop_assert!(!matches!(par.verdict, Verdict::Unknown(_)), "{}", what);
                        prop_assert_eq!(par.trace.is_some(), needs_trace(&net, k, &par.verdict), "{}: {:?}", what, par.verdict);
                        if let Some(t) = &par.trace {
                            let replayed = support::simulator::replay(&net, k, t);
                            prop_assert!(replayed.is_ok(), "{}: {:?}\n{:#?}", what, replayed, t);
                        }
                        let error = |r: &CheckResult| matches!(r.verdict, Verdict::ModelError(_));
                        if error(&seq) || error(&par) {
                            // With a reachable model error, which of the
                            // error and a goal comes first depends on the
                            // order; but neither search may finish without
                            // having found one of them.
                            prop_assert!(par.trace.is_some() && seq.trace.is_some(), "{}: {:?} vs {:?}", what, par.verdict, seq.verdict);
                        } else {
                            prop_assert_eq!(&par.verdict, &seq.verdict, "{}", what);
                        }
                    }
                }
            }
            // Safe abstraction searches its reduced networks in parallel
            // too, each with a heuristic built for it.
            let safe = |threads| { let base = options(SearchOrder::Greedy, HeuristicKind::DL, false, threads); Options { config: zeno::checker::config::Config { safe_abstraction: true, ..base.config }, ..base } };
            let (seq, par) = (run(&net, k, &safe(1)), run(&net, k, &safe(2)));
            prop_assert_eq!(par.stats.threads, 2);
            if let Some(t) = &par.trace {
                prop_assert!(support::simulator::replay(&net, k, t).is_ok());
            }
            let error = |r: &CheckResult| matches!(r.verdict, Verdict::ModelError(_));
            if error(&seq) || error(&par) {
                prop_assert!(par.trace.is_some() && seq.trace.is_some(), "safe: {:?} vs {:?}", par.verdict, seq.verdict);
            } else {
                prop_assert_eq!(&par.verdict, &seq.verdict, "safe");
            }
        }
    }

    /// A state limit stops the parallel search after exactly that many
    /// explored states, as it stops the sequential one.
    #[test]
    fn a_state_limit_stops_parallel_best_first(s in spec(), max in 1u64..40) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            for search in [SearchOrder::Greedy, SearchOrder::AStar] {
                let limited = Options { max_states: Some(max), ..options(search, HeuristicKind::DL, false, 2) };
                let par = run(&net, k, &limited);
                prop_assert!(par.stats.explored <= max, "{:?}", par.stats);
                if par.verdict == Verdict::Unknown(Limit::States) {
                    prop_assert_eq!(par.stats.explored, max);
                    prop_assert!(par.trace.is_none());
                    prop_assert!(par.stats.generated >= 1);
                } else if let Some(t) = &par.trace {
                    prop_assert!(support::simulator::replay(&net, k, t).is_ok());
                }
            }
        }
    }
}

/// hL, hU and hcg keep caches and scratch that every estimate writes: the
/// best-first orders run sequentially with them (and say so: one thread),
/// with the verdict of `--threads 1`.
#[test]
fn unshareable_heuristics_fall_back_to_one_thread() {
    let net = counter(300);
    for heuristic in [HeuristicKind::HL, HeuristicKind::HU, HeuristicKind::HCG] {
        for search in [SearchOrder::Greedy, SearchOrder::AStar] {
            let o = options(search, heuristic, false, 2);
            assert!(!runs_parallel(&o));
            assert_eq!(threads_used(&o), 1);
            let r = run(&net, 0, &o);
            assert_eq!(r.stats.threads, 1, "{heuristic:?}");
            assert_eq!(r.verdict, Verdict::Holds);
            assert_eq!(r.stats.explored, 301);
        }
    }
}

/// `shares_heuristic` says which kinds run in parallel; the heuristics
/// built must agree, or the dispatcher would fall back silently.
#[test]
fn the_shared_heuristics_are_the_ones_said() {
    let net = counter(10);
    let goal = net.checks[0].kind.goal();
    let kinds = [
        HeuristicKind::Zero,
        HeuristicKind::DL,
        HeuristicKind::DU,
        HeuristicKind::HL,
        HeuristicKind::HU,
        HeuristicKind::HCG,
        HeuristicKind::Pdb,
    ];
    for kind in kinds {
        let h = heuristics::build(kind, &net, &goal, &heuristics::EdgeSet::none(&net));
        // The constant 0 is not built for a search (no heuristic at all).
        if kind != HeuristicKind::Zero {
            assert_eq!(h.shared().is_some(), shares_heuristic(kind), "{kind:?}");
        }
    }
}

/// A chain of `n + 1` states (a counter up to `n`), so that limits meet the
/// search in the middle.
fn counter(n: u32) -> Network {
    let text = format!(
        "
        int[0, {m}] n = 0;
        template P() {{
            init location a;
            a -> a when n < {n} do n = n + 1;
        }}
        system P;
        check never: A[] n != {m};
    ",
        m = n + 1
    );
    let analysis = zeno::semantics::analyze(&text);
    assert!(
        analysis.diagnostics.is_empty(),
        "{:?}",
        analysis.diagnostics
    );
    analysis.network.expect("a network")
}

#[test]
fn the_counter_is_explored_in_full_by_parallel_greedy_and_astar() {
    let net = counter(2000);
    for search in [SearchOrder::Greedy, SearchOrder::AStar] {
        for heuristic in [HeuristicKind::Zero, HeuristicKind::DL] {
            let o = Options {
                max_states: None,
                ..options(search, heuristic, false, 2)
            };
            let r = run(&net, 0, &o);
            // n = 0, ..., 2000: by hand.
            assert_eq!(r.verdict, Verdict::Holds);
            assert_eq!(r.stats.explored, 2001);
            assert_eq!(r.stats.stored, 2001);
            assert_eq!(r.stats.threads, 2);
        }
    }
}

#[test]
fn a_cancelled_parallel_best_first_search_stops_with_its_statistics() {
    let net = counter(20_000);
    let cancel = Cancel::new();
    let mut calls = 0;
    let o = Options {
        max_states: None,
        ..options(SearchOrder::Greedy, HeuristicKind::DL, false, 2)
    };
    // Cancelled from the progress callback after the first report.
    let r = check(&net, net.check_at(0).unwrap(), &o, &cancel, &mut |s| {
        calls += 1;
        assert!(s.explored >= 1);
        cancel.cancel();
    });
    assert_eq!(r.verdict, Verdict::Unknown(Limit::Cancelled));
    assert!(calls >= 1);
    assert_eq!(r.stats.threads, 2);
    assert!(
        r.stats.explored >= 1 && r.stats.explored < 20_001,
        "{:?}",
        r.stats
    );
    assert!(r.trace.is_none());
}

#[test]
fn a_parallel_best_first_search_out_of_time_stops_as_unknown() {
    let net = counter(2000);
    // Without a heuristic to build, the deadline meets the search itself.
    let o = Options {
        max_states: None,
        timeout: Some(std::time::Duration::ZERO),
        ..options(SearchOrder::AStar, HeuristicKind::Zero, false, 2)
    };
    let r = run(&net, 0, &o);
    assert_eq!(r.verdict, Verdict::Unknown(Limit::Time));
    assert_eq!(r.stats.threads, 2);
    assert!(r.stats.explored < 2001);
}

#[test]
fn a_reachable_goal_has_a_trace_that_replays_on_two_threads() {
    let text = "
        int[0, 60] n = 0;
        template P() {
            init location a;
            location b;
            a -> a when n < 50 do n = n + 1;
            a -> a when n < 40 do n = n + 10;
            a -> b when n == 37;
        }
        system P;
        check big: E<> P.b;
    ";
    let analysis = zeno::semantics::analyze(text);
    let net = analysis.network.expect("a network");
    for search in [SearchOrder::Greedy, SearchOrder::AStar] {
        for heuristic in [HeuristicKind::DL, HeuristicKind::Pdb] {
            let r = run(&net, 0, &options(search, heuristic, false, 2));
            assert_eq!(r.verdict, Verdict::Holds);
            assert_eq!(r.stats.threads, 2);
            let t = r.trace.as_ref().expect("a witness");
            // 37 = 3 x 10 + 7 x 1, then a -> b: at least eleven steps.
            assert!(t.len() >= 11, "{}", t.len());
            assert!(support::simulator::replay(&net, 0, t).is_ok());
        }
    }
}

#[test]
fn zeno_check_reports_the_threads_of_a_parallel_greedy_search() {
    let model = data_file("cli", "fischer.zeno");
    let two = zeno(&[
        "check",
        "--search",
        "greedy",
        "--heuristic",
        "dl",
        "--threads",
        "2",
        &model,
    ]);
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    assert!(stdout(&two).contains(", 2 threads,"), "{}", stdout(&two));
    // hU (the default heuristic) cannot be shared: one thread.
    let hu = zeno(&["check", "--search", "greedy", "--threads", "2", &model]);
    assert_eq!(hu.status.code(), Some(0), "{}", stderr(&hu));
    assert!(!stdout(&hu).contains("threads"), "{}", stdout(&hu));
    // Without `--threads`, greedy and A* run on one thread (their rounds
    // cost more than two cores gain), breadth-first search on every core.
    for search in ["greedy", "astar"] {
        let o = zeno(&["check", "--search", search, "--heuristic", "dl", &model]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(!stdout(&o).contains("threads"), "{search}: {}", stdout(&o));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 {
        let o = zeno(&["check", "--search", "bfs", &model]);
        assert!(
            stdout(&o).contains(&format!(", {cores} threads,")),
            "{}",
            stdout(&o)
        );
        // A deadlock goal turns greedy search breadth-first, on every core.
        let dir = support::cli::scratch("threads-deadlock");
        let file = dir.join("m.zeno");
        std::fs::write(
            &file,
            "int[0,3] n;\ntemplate P() { init location a; a -> a when n < 3 do n++; }\nsystem P;\ncheck free: A[] !deadlock;\n",
        )
        .unwrap();
        let o = zeno(&["check", file.to_str().unwrap()]);
        // n = 3 has no move: a deadlock after three steps.
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!(", {cores} threads,")),
            "{}",
            stdout(&o)
        );
    }
}

/// The memory budget stops the parallel search with its statistics (as
/// `memory.rs` checks for breadth-first search).
#[test]
fn the_memory_budget_stops_parallel_greedy_with_its_statistics() {
    use support::cli::{path, scratch};
    let dir = scratch("parallel-best-memory");
    let o = zeno(&[
        "bench",
        "--family",
        "fischer-correct:7",
        "--emit",
        path(&dir),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let model = dir.join("F7ok.zeno");
    let greedy = [
        "check",
        path(&model),
        "--search",
        "greedy",
        "--heuristic",
        "dl",
        "--threads",
        "2",
    ];
    let full = zeno(&greedy);
    assert_eq!(full.status.code(), Some(0), "{}", stderr(&full));
    assert!(stdout(&full).contains(", 2 threads,"), "{}", stdout(&full));
    // The full exploration peaks near 3 MiB of heap: 1.5 MiB stops it.
    let mut limited = greedy.to_vec();
    limited.extend(["--memory", "1500K"]);
    let o = zeno(&limited);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("mutex: unknown: memory limit reached"),
        "{out}"
    );
    assert!(out.contains(", 2 threads,"), "{out}");
    let explored: u64 = out
        .split("explored ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("an explored count");
    assert!(explored > 0, "{out}");
}
