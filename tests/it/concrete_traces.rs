//! Concrete traces through long runs of strict guards: every trace replays
//! in the independent simulator and its denominators stay small. Picking
//! points strictly inside open intervals used to make denominators grow
//! along the trace until `i64` rationals overflowed.

use crate::support;

use proptest::prelude::*;
use support::net::*;
use zeno::checker::*;
use zeno::ir::*;

/// One edge of a chain: per clock, a guard (0 none, 1 `x > 0`, 2 `x < 1`)
/// and whether the edge resets it; plus whether the target has `x < 1` as
/// an invariant on the first clock.
#[derive(Debug, Clone)]
struct Link {
    guards: Vec<u8>,
    resets: Vec<bool>,
    invariant: bool,
}

/// A single process `l0 -> l1 -> ... -> ln` over `clocks` clocks, with a
/// global clock `g` never reset and guarded `g < 1` on every edge, so the
/// whole run must fit in one time unit; the check asks for `ln`.
fn chain(clocks: usize, links: &[Link]) -> (Network, usize) {
    let mut n = Net::new();
    let g = n.clock("g");
    let xs: Vec<ClockId> = (0..clocks).map(|i| n.clock(&format!("x{i}"))).collect();
    let names: Vec<String> = (0..=links.len()).map(|i| format!("l{i}")).collect();
    let locs: Vec<&str> = names.iter().map(String::as_str).collect();
    let p = n.normal("P", &locs);
    for (i, link) in links.iter().enumerate() {
        let from = i as LocId;
        let to = (i + 1) as LocId;
        if link.invariant {
            n.inv(p, to, lt(xs[0], 1));
        }
        let e = n.edge(p, from, to);
        e.clock_guard.push(lt(g, 1));
        for (k, &x) in xs.iter().enumerate() {
            match link.guards[k] {
                1 => e.clock_guard.push(gt(x, 0)),
                2 => e.clock_guard.push(lt(x, 1)),
                _ => {}
            }
            if link.resets[k] {
                e.updates.push(Update::ResetClock { clock: x, value: 0 });
            }
        }
    }
    let goal = n.reach(at(p, links.len() as LocId));
    (n.n, goal)
}

/// Checks with BFS, replays the witness and returns the largest denominator
/// of a delay or clock value in it.
fn witness_denominator(net: &Network, goal: usize) -> Result<i64, String> {
    let options = Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::Bfs,
            ..Default::default()
        },
        ..Options::default()
    };
    let r = check(
        net,
        net.check_at(goal).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    if r.verdict != Verdict::Holds {
        return Err(format!("verdict {:?}", r.verdict));
    }
    let t = r.trace.ok_or("no witness")?;
    support::simulator::replay(net, goal, &t)?;
    let TraceEnd::Goal { delay } = &t.end else {
        return Err("not a goal trace".into());
    };
    Ok(t.steps
        .iter()
        .flat_map(|s| s.after.clocks.iter().chain([&s.delay]))
        .chain(t.initial.clocks.iter())
        .chain([delay])
        .map(|q| *q.denom())
        .max()
        .unwrap_or(1))
}

#[test]
fn sixty_strict_steps_within_one_time_unit() {
    // Every edge needs `x0 > 0` and resets `x0`, while `g < 1` holds
    // throughout: 60 strictly increasing times in (0, 1), so some
    // denominator must exceed 60. The least-delay construction uses one
    // denominator K <= steps + 2 (no broadcasts), here 62.
    let links: Vec<Link> = (0..60)
        .map(|i| Link {
            guards: vec![1, if i % 2 == 0 { 2 } else { 1 }, 2],
            resets: vec![true, i % 3 == 0, i % 5 == 0],
            invariant: i % 2 == 1,
        })
        .collect();
    let (net, goal) = chain(3, &links);
    let den = witness_denominator(&net, goal).expect("a replaying witness");
    assert!(
        den > 60,
        "60 distinct times in (0, 1) need denominator > 60, got {den}"
    );
    assert!(den <= 62, "denominator {den}");
}

fn link(clocks: usize) -> impl Strategy<Value = Link> {
    (
        proptest::collection::vec(0u8..3, clocks),
        proptest::collection::vec(any::<bool>(), clocks),
        any::<bool>(),
    )
        .prop_map(|(guards, resets, invariant)| Link {
            guards,
            resets,
            invariant,
        })
}

fn spec() -> impl Strategy<Value = (usize, Vec<Link>)> {
    (1usize..=3).prop_flat_map(|k| (Just(k), proptest::collection::vec(link(k), 50..80)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Every such chain is reachable (take all delays equal to
    /// 1 / (2 * (steps + 1)): every clock stays below 1/2, and every clock is
    /// positive at an edge since a positive delay precedes it), so a witness
    /// must exist, replay, and keep its denominators within the bound.
    #[test]
    fn long_strict_chains_keep_denominators_small((clocks, links) in spec()) {
        let (net, goal) = chain(clocks, &links);
        let den = witness_denominator(&net, goal).map_err(TestCaseError::fail)?;
        // One denominator K <= steps + 2 (no broadcasts in a chain).
        let bound = links.len() as i64 + 2;
        prop_assert!(den <= bound, "denominator {} > {}", den, bound);
    }
}
