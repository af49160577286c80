//! The parallel breadth-first search against the sequential one: on random
//! networks (`tests/support/random_net.rs`) the same verdicts, the same
//! explored states when the whole state space is explored, the same
//! (shortest) traces, which the independent simulator replays; limits stop
//! it with a verdict of `unknown`; `--threads 0` is a usage error.

use crate::support;

use proptest::prelude::*;
use support::cli::{data_file, stderr, stdout, zeno};
use support::random_net::{self, build, run, spec};
use zeno::checker::*;
use zeno::ir::*;

fn bfs(threads: usize) -> Options {
    random_net::bfs(threads, 20_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, .. ProptestConfig::default() })]

    #[test]
    fn parallel_bfs_agrees_with_sequential_bfs(s in spec()) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let seq = run(&net, k, &bfs(1));
            prop_assert_eq!(seq.stats.threads, 1);
            prop_assert!(!matches!(seq.verdict, Verdict::Unknown(_)));
            for threads in [2, 3] {
                let par = run(&net, k, &bfs(threads));
                prop_assert_eq!(par.stats.threads, threads as u32);
                // Model errors included: the first goal or error in the
                // sequential order is the one reported.
                prop_assert_eq!(&par.verdict, &seq.verdict, "threads {}", threads);
                // The same state is reached by the same path.
                prop_assert_eq!(&par.trace, &seq.trace, "threads {}", threads);
                if let Some(t) = &par.trace {
                    let replayed = support::simulator::replay(&net, k, t);
                    prop_assert!(replayed.is_ok(), "check {}: {:?}\n{:#?}", k, replayed, t);
                }
                if seq.trace.is_none() {
                    // A full exploration: the same states are explored.
                    prop_assert_eq!(par.stats.explored, seq.stats.explored, "threads {}", threads);
                } else {
                    // Whole levels are expanded at once, never fewer states.
                    prop_assert!(par.stats.explored >= seq.stats.explored);
                }
            }
            // Safe abstraction searches its reduced networks in parallel too.
            let safe = |threads| { let base = bfs(threads); Options { config: zeno::checker::config::Config { safe_abstraction: true, ..base.config }, ..base } };
            let (seq, par) = (run(&net, k, &safe(1)), run(&net, k, &safe(2)));
            prop_assert_eq!(par.stats.threads, 2);
            prop_assert_eq!(&par.verdict, &seq.verdict);
            prop_assert_eq!(&par.trace, &seq.trace);
            if let Some(t) = &par.trace {
                prop_assert!(support::simulator::replay(&net, k, t).is_ok());
            }
        }
    }

    /// A state limit stops the parallel search exactly where it stops the
    /// sequential one: after the same number of explored states.
    #[test]
    fn a_state_limit_stops_both_alike(s in spec(), max in 1u64..40) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let limited = |threads| Options { max_states: Some(max), ..bfs(threads) };
            let seq = run(&net, k, &limited(1));
            let par = run(&net, k, &limited(2));
            prop_assert_eq!(&par.verdict, &seq.verdict);
            prop_assert_eq!(&par.trace, &seq.trace);
            if seq.verdict == Verdict::Unknown(Limit::States) {
                prop_assert_eq!(par.stats.explored, max);
                prop_assert_eq!(seq.stats.explored, max);
            }
        }
    }
}

/// A network with a long chain of states (a counter up to 2,000), so that
/// limits meet the search in the middle.
fn counter() -> Network {
    let text = "
        int[0, 2001] n = 0;
        template P() {
            init location a;
            a -> a when n < 2000 do n = n + 1;
        }
        system P;
        check never: A[] n != 2001;
    ";
    let analysis = zeno::semantics::analyze(text);
    assert!(
        analysis.diagnostics.is_empty(),
        "{:?}",
        analysis.diagnostics
    );
    analysis.network.expect("a network")
}

#[test]
fn the_counter_is_explored_in_full_on_two_threads() {
    let net = counter();
    let options = Options {
        max_states: None,
        ..bfs(2)
    };
    let r = run(&net, 0, &options);
    // n = 0, ..., 2000: by hand.
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(r.stats.explored, 2001);
    assert_eq!(r.stats.stored, 2001);
    assert_eq!(r.stats.threads, 2);
}

#[test]
fn a_cancelled_parallel_search_stops_with_its_statistics() {
    let net = counter();
    let cancel = Cancel::new();
    let mut calls = 0;
    let options = Options {
        max_states: None,
        ..bfs(2)
    };
    // Cancelled from the progress callback after the first report.
    let r = check(
        &net,
        net.check_at(0).unwrap(),
        &options,
        &cancel,
        &mut |s| {
            calls += 1;
            assert!(s.explored >= 1);
            cancel.cancel();
        },
    );
    assert_eq!(r.verdict, Verdict::Unknown(Limit::Cancelled));
    assert!(calls >= 1);
    assert!(
        r.stats.explored >= 1 && r.stats.explored < 2001,
        "{:?}",
        r.stats
    );
    assert!(r.trace.is_none());
}

#[test]
fn a_parallel_search_out_of_time_stops_as_unknown() {
    let net = counter();
    let options = Options {
        max_states: None,
        timeout: Some(std::time::Duration::ZERO),
        ..bfs(2)
    };
    let r = run(&net, 0, &options);
    assert_eq!(r.verdict, Verdict::Unknown(Limit::Time));
    assert!(r.stats.explored < 2001);
}

#[test]
fn a_reachable_goal_has_the_shortest_trace_on_two_threads() {
    let text = "
        int[0, 60] n = 0;
        template P() {
            init location a;
            a -> a when n < 50 do n = n + 1;
            a -> a when n < 40 do n = n + 10;
        }
        system P;
        check big: E<> n == 37;
    ";
    let analysis = zeno::semantics::analyze(text);
    let net = analysis.network.expect("a network");
    let r = run(&net, 0, &bfs(2));
    assert_eq!(r.verdict, Verdict::Holds);
    // 37 = 3 x 10 + 7 x 1: ten steps, by hand.
    assert_eq!(r.trace.as_ref().map(|t| t.len()), Some(10));
    assert!(support::simulator::replay(&net, 0, r.trace.as_ref().unwrap()).is_ok());
}

#[test]
fn zero_threads_is_a_usage_error() {
    let o = zeno(&["check", "--threads", "0", &data_file("cli", "fischer.zeno")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
}

#[test]
fn zeno_check_reports_the_threads_of_a_parallel_search() {
    let model = data_file("cli", "fischer.zeno");
    let o = zeno(&["check", "--search", "bfs", "--threads", "2", &model]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains(", 2 threads,"), "{}", stdout(&o));
    let one = zeno(&["check", "--search", "bfs", "--threads", "1", &model]);
    assert!(!stdout(&one).contains("threads"), "{}", stdout(&one));
    // The same explored states, whatever the threads (a full exploration).
    let explored = |o: &std::process::Output| {
        let out = stdout(o);
        out.split("explored ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .map(str::to_string)
    };
    assert_eq!(explored(&o), explored(&one));
    // Greedy search with hU (the default heuristic, which threads cannot
    // share) runs on one thread whatever --threads says.
    let greedy = zeno(&["check", "--search", "greedy", "--threads", "2", &model]);
    assert!(!stdout(&greedy).contains("threads"), "{}", stdout(&greedy));
}
