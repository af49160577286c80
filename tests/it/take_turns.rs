//! The default search (`Options::take_turns`): best-first search taking
//! turns with breadth-first search and random depth-first restarts. Whoever
//! decides, the verdict is breadth-first search's and that of each directed
//! order alone (greedy and A* with hU), and every trace replays in the
//! independent simulator. The random networks are `random_net`'s small
//! ones, its larger ones, and those times a ring of locations (tens of
//! thousands of states), on which the turns do pass between the searches.

use crate::support;

use proptest::prelude::*;
use support::net::fischer;
use support::random_net::{build, larger_spec, run, spec};
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

/// A directed order alone, with hU: what the default's best-first search
/// runs, without the turns.
fn directed(search: SearchOrder) -> Options {
    Options {
        config: Config::plain(search, HeuristicKind::HU),
        max_states: Some(20_000),
        ..Options::default()
    }
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
    fn the_default_agrees_with_breadth_first_search(
        s in prop_oneof![spec(), larger_spec()],
        threads in 1usize..=2,
    ) {
        let agreed = default_agrees(&build(&s), threads);
        prop_assert!(agreed.is_ok(), "{}", agreed.unwrap_err());
    }
}

proptest! {
    // A few dozen seconds of a debug build: fewer cases.
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// The larger networks times a ring of locations: hundreds to tens of
    /// thousands of states, so that best-first search's head start ends
    /// and the turns pass: on a debug build on a loaded 2-core machine, 14 of
    /// 128 such checks were decided by breadth-first search or random
    /// restarts after the head start (which search decides depends on the
    /// machine's speed, the verdict never; nothing here asserts who).
    #[test]
    fn the_default_agrees_when_the_turns_pass(s in larger_spec(), ring in 8u32..24) {
        let agreed = default_agrees(&with_ring(build(&s), ring), 1);
        prop_assert!(agreed.is_ok(), "{}", agreed.unwrap_err());
    }
}

/// The default search on every check of `net` against breadth-first
/// search and the directed orders alone: the same verdicts, traces that
/// replay, breadth-first search's figures where it decided.
fn default_agrees(net: &Network, threads: usize) -> Result<(), String> {
    for k in 0..net.checks.len() {
        // Breadth-first search on the default's threads: on two, a goal
        // ends the search after whole slabs, so its explored states are
        // those of the two-thread search alone.
        let plain = run(net, k, &Options { threads, ..bfs() });
        if matches!(plain.verdict, Verdict::Unknown(_)) {
            continue;
        }
        let r = run(net, k, &default_search(threads));
        if matches!(r.verdict, Verdict::Unknown(_)) {
            return Err(format!("check {k}: the default ended {:?}", r.verdict));
        }
        let needs_trace = matches!(
            (&net.checks[k].kind, &r.verdict),
            (_, Verdict::ModelError(_))
                | (CheckKind::Invariant(_), Verdict::Fails)
                | (CheckKind::Reachable(_), Verdict::Holds)
        );
        if r.trace.is_some() != needs_trace {
            return Err(format!(
                "check {k}: {:?} with trace {}",
                r.verdict,
                r.trace.is_some()
            ));
        }
        agrees(net, k, &r, &plain).map_err(|e| format!("check {k}: {e}"))?;
        // The directed orders alone decide as breadth-first search does
        // (where no model error is reachable: then whatever each finds
        // first is right, and its trace replays).
        for search in [SearchOrder::Greedy, SearchOrder::AStar] {
            let alone = run(net, k, &directed(search));
            // A directed order alone may run out of its state budget
            // where breadth-first search decides: no verdict to compare.
            if matches!(alone.verdict, Verdict::Unknown(_)) {
                continue;
            }
            if let Some(t) = &alone.trace {
                support::simulator::replay(net, k, t)
                    .map_err(|e| format!("check {k}, {search:?} alone: {e:?}"))?;
            }
            let errors = [&alone, &plain, &r]
                .iter()
                .any(|x| matches!(x.verdict, Verdict::ModelError(_)));
            if !errors && (alone.verdict != plain.verdict || r.verdict != alone.verdict) {
                return Err(format!(
                    "check {k}: {search:?} alone {:?}, BFS {:?}, default {:?}",
                    alone.verdict, plain.verdict, r.verdict
                ));
            }
        }
    }
    Ok(())
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

/// Random restarts dive first, before breadth-first search starts: on
/// the gossiping girls G5, the goal "girl 0 knows every secret" costs the
/// default, every search together, at most 1/10 of the states
/// breadth-first search alone explores to find it (when breadth-first
/// search went first, its first slice alone explored about as many).
#[test]
fn random_restarts_dive_first_on_gossip() {
    let text = zeno::bench::families::gossip(5);
    let net = zeno::semantics::analyze(&text).network.expect("lowers");
    let plain = run(&net, 0, &bfs());
    assert_eq!(plain.verdict, Verdict::Holds);
    let r = run(&net, 0, &default_search(1));
    assert_eq!(r.verdict, Verdict::Holds);
    support::simulator::replay(&net, 0, r.trace.as_ref().expect("a witness")).unwrap();
    let along = r.stats.alongside.as_ref().unwrap();
    let all = r.stats.explored + along.others_explored;
    assert!(
        all * 10 <= plain.stats.explored,
        "{all} states in all (decided by {}), BFS alone {}",
        along.decided_by,
        plain.stats.explored
    );
    // The dive finds the goal (12 states with the default seed), and
    // best-first search alone then decides (19): breadth-first search,
    // which explores hundreds of states in a slice, never ran.
    assert!(all <= 100, "{all} states in all");
}

/// A property that holds on a network so small that random restarts'
/// first dive covers it: the restarts do not decide (their exhaustive run
/// is no goal), breadth-first search does, with its own figures.
#[test]
fn a_graph_the_dive_covers_is_left_to_breadth_first_search() {
    let net = fischer(2, 1, false);
    let plain = run(&net, 0, &bfs());
    assert_eq!(plain.verdict, Verdict::Holds);
    assert!(plain.stats.explored < 100, "{}", plain.stats.explored);
    let r = run(&net, 0, &default_search(1));
    let along = r.stats.alongside.as_ref().unwrap();
    assert_eq!(along.decided_by, "breadth-first search");
    agrees(&net, 0, &r, &plain).unwrap();
}

/// `net` with one more process: a ring of `n` locations, stepping on
/// without clocks or data. It multiplies the state space by `n` and leaves
/// every verdict as it was.
fn with_ring(net: Network, n: u32) -> Network {
    let mut net = support::net::Net { n: net };
    let names: Vec<String> = (0..n).map(|l| format!("r{l}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let ring = net.normal("Ring", &names);
    for l in 0..n {
        net.edge(ring, l, (l + 1) % n);
    }
    net.n
}
