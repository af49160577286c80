//! The default search (`Options::take_turns`): best-first search taking
//! turns with breadth-first search and random depth-first restarts. Whoever
//! decides, the verdict is breadth-first search's and every trace replays
//! in the independent simulator.

use crate::support;

use proptest::prelude::*;
use support::net::fischer;
use support::random_net::{build, spec};
use zeno::checker::config::Config;
use zeno::checker::*;
use zeno::ir::*;

/// The default of `zeno check`: greedy hU taking turns.
fn default_search(threads: usize) -> Options {
    Options {
        config: Config::plain(SearchOrder::Greedy, HeuristicKind::HU),
        take_turns: true,
        threads,
        max_states: Some(20_000),
        ..Options::default()
    }
}

fn bfs() -> Options {
    Options {
        max_states: Some(20_000),
        ..Options::default()
    }
}

fn run(net: &Network, k: usize, options: &Options) -> CheckResult {
    check(
        net,
        net.check_at(k).unwrap(),
        options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
}

/// Checks a result of the default search against breadth-first search's:
/// the same verdict (where a model error is reachable, whatever is found
/// first is a right answer), a
/// trace that replays, and breadth-first search's own figures when it
/// decided.
fn agrees(net: &Network, k: usize, r: &CheckResult, plain: &CheckResult) -> Result<(), String> {
    let along = r.stats.alongside.as_ref().ok_or("no alongside figures")?;
    if let Some(t) = &r.trace {
        support::simulator::replay(net, k, t).map_err(|e| format!("{e:?}"))?;
    }
    // With a reachable model error the first thing found depends on the
    // order (as in `checker_random.rs`): the trace replayed is the check.
    if matches!(r.verdict, Verdict::ModelError(_))
        || matches!(plain.verdict, Verdict::ModelError(_))
    {
        return Ok(());
    }
    if r.verdict != plain.verdict {
        return Err(format!(
            "{:?} by {}, BFS {:?}",
            r.verdict, along.decided_by, plain.verdict
        ));
    }
    if along.decided_by == "breadth-first search" && r.stats.explored != plain.stats.explored {
        return Err(format!(
            "explored {} against BFS's {}",
            r.stats.explored, plain.stats.explored
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn the_default_agrees_with_breadth_first_search(s in spec(), threads in 1usize..=2) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let plain = run(&net, k, &bfs());
            prop_assume!(!matches!(plain.verdict, Verdict::Unknown(_)));
            let r = run(&net, k, &default_search(threads));
            prop_assert!(!matches!(r.verdict, Verdict::Unknown(_)), "{:?}", r.verdict);
            let needs_trace = matches!(
                (&net.checks[k].kind, &r.verdict),
                (_, Verdict::ModelError(_))
                    | (CheckKind::Invariant(_), Verdict::Fails)
                    | (CheckKind::Reachable(_), Verdict::Holds)
            );
            prop_assert_eq!(r.trace.is_some(), needs_trace);
            let agreed = agrees(&net, k, &r, &plain);
            prop_assert!(agreed.is_ok(), "check {}: {:?}", k, agreed);
        }
    }
}

/// A property that holds on a network too large for the head start:
/// breadth-first search or best-first search decides (random restarts
/// cannot prove it unless one run exhausts the graph), with the verdict
/// of breadth-first search and, when breadth-first search decided, its
/// figures.
#[test]
fn a_full_exploration_is_decided_as_breadth_first_search_decides_it() {
    let net = fischer(4, 2, false);
    let unlimited = |o: Options| Options {
        max_states: None,
        ..o
    };
    let plain = run(&net, 0, &unlimited(bfs()));
    assert_eq!(plain.verdict, Verdict::Holds);
    for threads in [1, 2] {
        let r = run(&net, 0, &unlimited(default_search(threads)));
        agrees(&net, 0, &r, &plain).unwrap();
    }
}

/// Gossiping girls (the `gossip` bench family): greedy hU is lost on them
/// (`docs/checker.md`), random restarts find both goals; the traces replay.
#[test]
fn random_restarts_find_the_gossip_goals() {
    let text = zeno::bench::families::gossip(7);
    let net = zeno::semantics::analyze(&text).network.expect("lowers");
    for k in 0..2 {
        let r = run(&net, k, &default_search(1));
        assert_eq!(r.verdict, Verdict::Holds, "check {k}");
        let t = r.trace.as_ref().expect("a witness");
        support::simulator::replay(&net, k, t).unwrap();
        let along = r.stats.alongside.as_ref().unwrap();
        assert_ne!(along.decided_by, "breadth-first search", "check {k}");
    }
}
