//! Safe abstraction (thesis §5.3) and the portfolio race: which components are
//! removed on small hand-built networks (reasoned by hand in each test), the
//! `x + y` split of the trace, agreement with BFS on random networks with a
//! safe counter and a safe observer added, and every trace replayed by the
//! independent simulator on the original network.

#![allow(dead_code)]

use crate::support;

use proptest::prelude::*;
use support::net::*;
use support::random_net::{build, spec};
use support::simulator;
use zeno::checker::portfolio::{self, Config};
use zeno::checker::*;
use zeno::ir::*;

fn run(net: &Network, check: usize, options: &Options) -> CheckResult {
    let result = zeno::checker::check(
        net,
        net.check_at(check).unwrap(),
        options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    if let Some(t) = &result.trace {
        simulator::replay(net, check, t).unwrap_or_else(|e| panic!("trace does not replay: {e}"));
    }
    result
}

fn safe(search: SearchOrder, heuristic: HeuristicKind) -> Options {
    Options {
        config: zeno::checker::config::Config {
            search,
            heuristic,
            safe_abstraction: true,
            ..Default::default()
        },
        ..Options::default()
    }
}

fn figures(r: &CheckResult) -> (u64, Option<u64>, Option<u64>) {
    let s = r.stats.safe.clone().expect("safe abstraction figures");
    assert!(!s.fell_back, "fell back to the original network");
    (s.removed, s.abstract_steps, s.inserted_steps)
}

/// A counter `s` in [0, 3] moved by a one-location process, `+1` (and `-1`
/// when `both_ways`) modulo 4; returns the slot.
fn counter(n: &mut Net, both_ways: bool) -> VarId {
    let s = n.var("s", 0, 3, 0);
    let p = n.normal("Counter", &["idle"]);
    let modulo = |k: i32| bin(BinOp::Mod, add(v(s), c(k)), c(4));
    n.edge(p, 0, 0).set(s, modulo(1));
    if both_ways {
        n.edge(p, 0, 0).set(s, modulo(3));
    }
    s
}

/// Fig. 5.1 of the thesis as the bundled model: both counters are removed,
/// P3 alone takes 3 steps, and 8 counter moves are inserted (v: 0 -> 2, w:
/// 0 -> 2, then each back to 0 in 2 steps), 11 in all, the shortest.
#[test]
fn figure_5_1_removes_both_counters() {
    let text = std::fs::read_to_string("models/safe-abstraction.zeno").unwrap();
    let net = zeno::semantics::analyze(&text).network.unwrap();
    for search in [SearchOrder::Bfs, SearchOrder::Greedy] {
        let r = run(&net, 0, &safe(search, HeuristicKind::HCG));
        assert_eq!(r.verdict, Verdict::Fails);
        assert_eq!(figures(&r), (2, Some(3), Some(8)));
        assert_eq!(r.trace.unwrap().len(), 11);
        // The goal mentions w == 3: one more move (0 -> 3 downwards) at the end.
        let r = run(&net, 1, &safe(search, HeuristicKind::HCG));
        assert_eq!(r.verdict, Verdict::Holds);
        assert_eq!(figures(&r), (2, Some(3), Some(9)));
    }
}

/// `models/safe-cascade.zeno` (reasoned in its header): round 1 removes the
/// counter `s`, round 2 the toggled `t` and the Watch observer, 3 in all.
/// The walk alone takes 2 steps (BFS explores `a` and `b`, and finds `g`
/// among `b`'s successors); 8 moves are inserted, so the trace has 10 steps
/// where plain BFS's shortest has 8. The invariant explores all 48 states
/// plainly and Walk's 3 with the cascade.
#[test]
fn cascade_removes_what_became_safe() {
    let text = std::fs::read_to_string("models/safe-cascade.zeno").unwrap();
    let net = zeno::semantics::analyze(&text).network.unwrap();
    let bfs = Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::Bfs,
            ..Default::default()
        },
        ..Options::default()
    };
    let plain = run(&net, 0, &bfs);
    assert_eq!(plain.verdict, Verdict::Holds);
    assert_eq!(plain.trace.unwrap().len(), 8);
    for search in [SearchOrder::Bfs, SearchOrder::Greedy] {
        let r = run(&net, 0, &safe(search, HeuristicKind::HCG));
        assert_eq!(r.verdict, Verdict::Holds);
        assert_eq!(figures(&r), (3, Some(2), Some(8)));
        assert_eq!(r.trace.unwrap().len(), 10);
    }
    let r = run(&net, 0, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!(r.stats.explored, 2);

    let plain = run(&net, 1, &bfs);
    assert_eq!((plain.verdict, plain.stats.explored), (Verdict::Holds, 48));
    let r = run(&net, 1, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!((r.verdict.clone(), r.stats.explored), (Verdict::Holds, 3));
    assert_eq!(figures(&r), (3, None, None));

    // The goal names s, t and Watch: each round's goal enumerates its own
    // components' values (4, then 2 * 2); 4 + 1 moves inserted by round 2
    // (t three times, Watch once) and 3 + 2 + 1 by round 1 (s), 12 in all.
    let plain = run(&net, 2, &bfs);
    assert_eq!(plain.trace.unwrap().len(), 12);
    let r = run(&net, 2, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(figures(&r), (3, Some(2), Some(10)));
}

/// A process waiting for `s == 2`: with `+1` only the counter still cycles
/// 0 -> 1 -> 2 -> 3 -> 0, so it is safe (2 inserted moves); a counter that
/// stops at 3 (`s < 3` guard, no wrap) is not strongly connected: not safe.
#[test]
fn counter_is_safe_only_when_strongly_connected() {
    let mut n = Net::new();
    let s = counter(&mut n, false);
    let p = n.normal("P", &["a", "b"]);
    n.edge(p, 0, 1).guard(eq(v(s), c(2)));
    n.reach(at(p, 1));
    let r = run(&n.n, 0, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(figures(&r), (1, Some(1), Some(2)));

    let mut n = Net::new();
    let s = n.var("s", 0, 3, 0);
    let q = n.normal("Counter", &["idle"]);
    n.edge(q, 0, 0)
        .guard(bin(BinOp::Lt, v(s), c(3)))
        .set(s, add(v(s), c(1)));
    let p = n.normal("P", &["a", "b"]);
    n.edge(p, 0, 1).guard(eq(v(s), c(2)));
    n.reach(at(p, 1));
    let r = run(&n.n, 0, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!(r.verdict, Verdict::Holds);
    assert_eq!(figures(&r), (0, None, None));
    assert_eq!(r.trace.unwrap().len(), 3);
}

/// Clocks and urgency make a counter unsafe: a writer that resets a clock,
/// or a reader synchronising on an urgent channel.
#[test]
fn clocks_and_urgent_channels_keep_a_component() {
    let mut n = Net::new();
    let x = n.clock("x");
    let s = counter(&mut n, true);
    n.n.processes[0].edges[0]
        .updates
        .push(Update::ResetClock { clock: x, value: 0 });
    let p = n.normal("P", &["a", "b"]);
    n.edge(p, 0, 1).guard(eq(v(s), c(2)));
    n.reach(at(p, 1));
    let r = run(&n.n, 0, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!(figures(&r).0, 0);
    assert_eq!(r.verdict, Verdict::Holds);

    let mut n = Net::new();
    let s = counter(&mut n, true);
    let u = n.chan("u", ChannelKind::Binary, true);
    let p = n.normal("P", &["a", "b"]);
    let q = n.normal("Q", &["a", "b"]);
    n.edge(p, 0, 1).guard(eq(v(s), c(2))).send(u);
    n.edge(q, 0, 1).recv(u);
    n.reach(at(q, 1));
    let r = run(&n.n, 0, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!(figures(&r).0, 0);
    assert_eq!(r.verdict, Verdict::Holds);
}

/// A handshake whose partners need different values of the counter can never
/// happen: the counter must stay, or the reduced network would let it happen.
#[test]
fn handshake_partners_must_agree_on_the_counter() {
    let mut n = Net::new();
    let s = counter(&mut n, true);
    let ch = n.chan("h", ChannelKind::Binary, false);
    let p = n.normal("P", &["a", "b"]);
    let q = n.normal("Q", &["a", "b"]);
    n.edge(p, 0, 1).guard(eq(v(s), c(1))).send(ch);
    n.edge(q, 0, 1).guard(eq(v(s), c(2))).recv(ch);
    n.reach(at(q, 1));
    let r = run(&n.n, 0, &safe(SearchOrder::Greedy, HeuristicKind::HU));
    assert_eq!(figures(&r).0, 0);
    assert_eq!(r.verdict, Verdict::Fails);
}

/// An observer process that only walks a cycle a -> b -> c -> a, seen only by
/// the goal: removed, and the 2 moves to `c` are inserted at the end; with
/// `deadlock` in the goal nothing is removed (the observer can always move).
#[test]
fn observer_process_and_deadlock_goals() {
    let mut n = Net::new();
    let obs = n.normal("Obs", &["a", "b", "c"]);
    n.edge(obs, 0, 1);
    n.edge(obs, 1, 2);
    n.edge(obs, 2, 0);
    let p = n.normal("P", &["a", "b"]);
    n.edge(p, 0, 1);
    n.reach(and(vec![at(p, 1), at(obs, 2)]));
    n.always(not(Formula::Deadlock));
    for heuristic in [HeuristicKind::DL, HeuristicKind::HL, HeuristicKind::HCG] {
        let r = run(&n.n, 0, &safe(SearchOrder::Greedy, heuristic));
        assert_eq!(r.verdict, Verdict::Holds);
        assert_eq!(figures(&r), (1, Some(1), Some(2)));
    }
    let r = run(&n.n, 1, &safe(SearchOrder::Bfs, HeuristicKind::Zero));
    assert_eq!(figures(&r).0, 0);
    assert_eq!(r.verdict, Verdict::Holds);
}

/// Safe abstraction combines with every frontier enhancement.
#[test]
fn combines_with_enhancements() {
    let text = std::fs::read_to_string("models/safe-abstraction.zeno").unwrap();
    let net = zeno::semantics::analyze(&text).network.unwrap();
    for enhance in [
        Enhance::UselessTransitions,
        Enhance::InterferenceContexts,
        Enhance::ContextBoundingProcesses,
        Enhance::ContextBoundingInterference,
    ] {
        let base = safe(SearchOrder::Greedy, HeuristicKind::HCG);
        let options = Options {
            config: zeno::checker::config::Config {
                enhance,
                ..base.config
            },
            ..base
        };
        let r = run(&net, 0, &options);
        assert_eq!(r.verdict, Verdict::Fails, "{enhance:?}");
        assert_eq!(figures(&r).0, 2);
    }
}

/// The portfolio's verdict is its winner's, and the winner is named.
#[test]
fn portfolio_reports_a_winner_with_its_verdict() {
    let net = fischer(3, 2, true);
    let configs = portfolio::default_configs(&Options::default());
    let race = portfolio::race(&net, net.check_at(0).unwrap(), &configs, &Cancel::new());
    let w = race.winner.expect("a winner");
    assert!(w < configs.len());
    assert_eq!(race.result.verdict, Verdict::Fails);
    let trace = race.result.trace.expect("a counterexample");
    simulator::replay(&net, 0, &trace).unwrap();
    // Every configuration stopping at a limit: `Unknown`, no winner.
    let limited: Vec<Config> = portfolio::default_configs(&Options {
        max_states: Some(0),
        ..Options::default()
    });
    let net = fischer(4, 2, false);
    let race = portfolio::race(&net, net.check_at(0).unwrap(), &limited, &Cancel::new());
    assert_eq!(race.winner, None);
    assert_eq!(race.result.verdict, Verdict::Unknown(Limit::States));
}

/// The random network with a safe counter `s` (read by some guards and by the
/// goal) and a safe observer process added; an observer that `waits` leaves
/// `a` only when `s == 1`, so it is safe only once `s` is removed (the
/// cascade's second round).
fn with_safe_parts(
    mut net: Network,
    reads: &[(usize, i32)],
    goal: Option<i32>,
    waits: bool,
) -> Network {
    let mut n = Net { n: net.clone() };
    let s = counter(&mut n, true);
    let obs = n.normal("Obs", &["a", "b"]);
    let leave = n.edge(obs, 0, 1);
    if waits {
        leave.guard(eq(v(s), c(1)));
    }
    n.edge(obs, 1, 0);
    net = n.n;
    let mut k = 0;
    for (p, proc_) in net.processes.iter_mut().enumerate().take(2) {
        for edge in proc_.edges.iter_mut() {
            if let Some(&(_, value)) = reads.iter().find(|(i, _)| *i == k) {
                let test = eq(v(s), c(value));
                edge.guard = Some(match edge.guard.take() {
                    Some(g) => bin(BinOp::And, g, test),
                    None => test,
                });
            }
            k += 1;
            let _ = p;
        }
    }
    if let Some(value) = goal {
        let obs_id = (net.processes.len() - 1) as ProcId;
        for chk in net.checks.iter_mut() {
            if let CheckKind::Reachable(f) = &chk.kind {
                chk.kind = CheckKind::Reachable(and(vec![
                    f.clone(),
                    Formula::Data(eq(v(s), c(value))),
                    at(obs_id, 1),
                ]));
            }
        }
    }
    net
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn safe_abstraction_agrees_with_bfs_and_traces_replay(
        s in spec(),
        reads in proptest::collection::vec((0..12usize, 0..4i32), 0..4),
        goal in proptest::option::of(0..4i32),
        waits in any::<bool>(),
    ) {
        let net = with_safe_parts(build(&s), &reads, goal, waits);
        for k in 0..net.checks.len() {
            let base = Options { max_states: Some(20_000), seed: 5, ..Options::default() };
            let bfs = check(&net, net.check_at(k).unwrap(), &base, &Cancel::new(), &mut zeno::checker::no_progress);
            prop_assert!(!matches!(bfs.verdict, Verdict::Unknown(_)));
            for search in [SearchOrder::Bfs, SearchOrder::Dfs, SearchOrder::Greedy, SearchOrder::AStar] {
                for heuristic in [HeuristicKind::DL, HeuristicKind::DU, HeuristicKind::HL, HeuristicKind::HU, HeuristicKind::HCG] {
                    if search == SearchOrder::Bfs && heuristic != HeuristicKind::DL {
                        continue;
                    }
                    let options = Options { config: zeno::checker::config::Config { search, heuristic, safe_abstraction: true, ..Default::default() }, ..base.clone() };
                    let r = check(&net, net.check_at(k).unwrap(), &options, &Cancel::new(), &mut zeno::checker::no_progress);
                    let ctx = format!("{search:?} {heuristic:?} check {k}");
                    prop_assert!(!matches!(r.verdict, Verdict::Unknown(_)), "{}", ctx);
                    let figures = r.stats.safe.clone().unwrap();
                    prop_assert!(!figures.fell_back, "{}: fell back", ctx);
                    // The observer is always safe (if it waits, once `s`
                    // is removed, which the random reads may prevent),
                    // unless the goal is a deadlock or mentions it in a
                    // network with committed locations.
                    let deadlock_goal = s.goal.3 && k == 1;
                    let committed = s.kinds.iter().flatten().any(|&k| k == 1);
                    if deadlock_goal {
                        prop_assert_eq!(figures.removed, 0, "{}", ctx);
                    } else if !(waits || committed && goal.is_some()) {
                        prop_assert!(figures.removed >= 1, "{}", ctx);
                    }
                    if let Some(t) = &r.trace {
                        let replayed = simulator::replay(&net, k, t);
                        prop_assert!(replayed.is_ok(), "{}: {:?}\n{:#?}", ctx, replayed, t);
                    }
                    let error = |v: &Verdict| matches!(v, Verdict::ModelError(_));
                    if error(&bfs.verdict) || error(&r.verdict) {
                        continue;
                    }
                    prop_assert_eq!(&r.verdict, &bfs.verdict, "{}", ctx);
                    prop_assert_eq!(r.trace.is_some(), bfs.trace.is_some(), "{}", ctx);
                    if let (Some(t), Some(b)) = (&r.trace, &bfs.trace) {
                        prop_assert!(b.len() <= t.len(), "{}", ctx);
                        if !figures.fell_back && figures.removed > 0 {
                            prop_assert_eq!(
                                figures.abstract_steps.unwrap() + figures.inserted_steps.unwrap(),
                                t.len() as u64, "{}", ctx
                            );
                        }
                    }
                }
            }
        }
    }
}
