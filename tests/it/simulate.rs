//! The simulator (`zeno::simulate`) against two independent routes:
//!
//! - concrete mode against the test simulator of `support/simulator.rs`
//!   (its own evaluator, its own reading of UPPAAL's semantics): in every
//!   state of random runs on random networks (committed and urgent
//!   locations, urgent and broadcast channels, a synchronisation vector),
//!   the transitions the simulator offers now are exactly those that
//!   simulator accepts, they lead to the same states, and the same delays
//!   are allowed;
//! - symbolic mode against the checker: the fewest transitions the
//!   simulator's successors need to reach a check's goal equal the length
//!   of the checker's breadth-first (shortest) trace, and no goal is
//!   reached where the checker finds none;
//! - the two modes against each other: every concrete state lies in the
//!   zone of the symbolic state reached by the same transitions.

use crate::support;

use num_rational::Rational64;
use proptest::prelude::*;
use support::random_net::{build, spec};
use support::simulator as independent;
use zeno::checker::dbm::{Dbm, bound};
use zeno::checker::*;
use zeno::ir::*;
use zeno::simulate::{Clocks, Mode, Simulator, State};

fn q(n: i64, d: i64) -> Rational64 {
    Rational64::new(n, d)
}

/// Every transition a two-process network could take in `state`: one edge
/// leaving a current location, or two edges of different processes in
/// either order (a handshake, a broadcast with one receiver, a vector).
fn candidates(net: &Network, state: &ConcreteState) -> Vec<Transition> {
    let leaving = |p: usize| -> Vec<(ProcId, EdgeId)> {
        let proc_ = &net.processes[p];
        (0..proc_.edges.len())
            .filter(|&e| proc_.edges[e].source == state.locations[p])
            .map(|e| (p as ProcId, e as EdgeId))
            .collect()
    };
    let mut out = Vec::new();
    for p in 0..net.processes.len() {
        for a in leaving(p) {
            out.push(Transition { edges: vec![a] });
            for r in (0..net.processes.len()).filter(|&r| r != p) {
                for b in leaving(r) {
                    out.push(Transition { edges: vec![a, b] });
                }
            }
        }
    }
    out
}

fn sorted(mut v: Vec<Transition>) -> Vec<Vec<(ProcId, EdgeId)>> {
    v.sort_by(|a, b| a.edges.cmp(&b.edges));
    v.into_iter().map(|t| t.edges).collect()
}

/// Whether a concrete valuation lies in a zone (over a common denominator).
fn in_zone(zone: &Dbm, clocks: &[Rational64]) -> bool {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let den = clocks
        .iter()
        .fold(1i64, |d, c| d / gcd(d, *c.denom()) * c.denom());
    let num: Vec<i64> = clocks
        .iter()
        .map(|c| c.numer() * (den / c.denom()))
        .collect();
    zone.contains_point(&num, den)
}

/// Checks the simulator's current concrete state against the independent
/// simulator: the transitions offered now, their successors and the delays.
fn agrees_here(net: &Network, sim: &mut Simulator) -> Result<(), TestCaseError> {
    let state = sim.concrete_state().expect("concrete mode");
    let Ok(enabled) = sim.enabled() else {
        // A guard that fails to evaluate; the random networks have none.
        return Err(TestCaseError::fail(
            "the random networks raise no guard errors",
        ));
    };
    let now: Vec<Transition> = enabled
        .iter()
        .filter(|o| o.now())
        .map(|o| o.transition.clone())
        .collect();
    let accepted: Vec<Transition> = candidates(net, &state)
        .into_iter()
        .filter(|t| independent::fire(net, &state, t).is_ok())
        .collect();
    prop_assert_eq!(sorted(now), sorted(accepted), "in {:?}", state);
    for (i, option) in enabled.iter().enumerate() {
        if !option.now() {
            continue;
        }
        let expected = independent::fire(net, &state, &option.transition).expect("accepted above");
        match expected {
            Ok(next) => {
                prop_assert!(option.error.is_none());
                sim.fire(i + 1).expect("fires");
                prop_assert_eq!(sim.concrete_state().unwrap(), next);
                sim.back().unwrap();
            }
            Err(_) => prop_assert!(
                option.error.is_some(),
                "{:?} fails in {:?}",
                option.transition,
                state
            ),
        }
    }
    // Delays: at the ends of what is allowed, and just past them.
    let allowed = sim.allowed_delays().unwrap().unwrap();
    let mut delays = vec![q(1, 2), q(1, 1), q(3, 1)];
    if let Some((hi, _)) = allowed.hi {
        delays.extend([hi, hi + q(1, 3)]);
    }
    for d in delays {
        let ours = sim.delay(d);
        let theirs = independent::delay(net, &state, d);
        prop_assert_eq!(
            ours.is_ok(),
            theirs.is_ok(),
            "delay {} in {:?}: {:?} / {:?}",
            d,
            state,
            ours,
            theirs
        );
        if ours.is_ok() {
            prop_assert_eq!(sim.concrete_state().unwrap(), theirs.unwrap());
            sim.back().unwrap();
        }
    }
    Ok(())
}

/// The zone of a symbolic state where the random networks' goal (process
/// locations, maybe a clock bound) holds is not empty.
fn goal_in(goal: &Formula, s: &State) -> bool {
    let Clocks::Zone(zone) = &s.clocks else {
        return false;
    };
    let mut z = zone.clone();
    fn walk(f: &Formula, s: &State, z: &mut Dbm) -> bool {
        match f {
            Formula::And(fs) => fs.iter().all(|g| walk(g, s, z)),
            Formula::At { process, location } => s.locations[*process as usize] == *location,
            Formula::Clock(c) => {
                let Expr::Const(k) = c.bound else {
                    panic!("constant bounds in the random goals")
                };
                z.constrain(c.i as usize, c.j as usize, bound::raw(k, c.strict)) && !z.is_empty()
            }
            Formula::True => true,
            other => panic!("not a random network's goal: {other:?}"),
        }
    }
    walk(goal, s, &mut z)
}

/// The fewest simulator transitions from the initial state to a state
/// where `goal` holds, searching up to `limit` transitions (breadth-first;
/// a state whose zone is included in one already seen at no greater depth
/// adds nothing). `None` when no goal is within the limit.
fn fewest_steps(net: &Network, goal: &Formula, limit: usize) -> Option<usize> {
    let mut sim = Simulator::new(net, Mode::Symbolic).expect("an initial state");
    let mut seen: Vec<State> = Vec::new();
    let mut layer = vec![sim.state().clone()];
    let covered = |seen: &[State], s: &State| {
        seen.iter().any(|t| {
            t.locations == s.locations
                && t.variables == s.variables
                && match (&s.clocks, &t.clocks) {
                    (Clocks::Zone(a), Clocks::Zone(b)) => a.is_subset_of(b),
                    _ => false,
                }
        })
    };
    for depth in 0..=limit {
        if layer.iter().any(|s| goal_in(goal, s)) {
            return Some(depth);
        }
        seen.extend(layer.iter().cloned());
        let mut next = Vec::new();
        for s in &layer {
            let mut from = Simulator::new(net, Mode::Symbolic).unwrap();
            from.restart_from(s.clone()).unwrap();
            // A transition whose update fails leads nowhere. (A check
            // whose search meets one ends with a model error, and such
            // checks are not compared.)
            for option in from.enabled().ok()? {
                if option.error.is_some() {
                    continue;
                }
                let t = option.successor.expect("symbolic successors");
                if !covered(&seen, &t) && !covered(&next, &t) {
                    next.push(t);
                }
            }
        }
        layer = next;
        sim.reset();
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn concrete_steps_agree_with_the_independent_simulator(s in spec(), seed in 0u64..1000) {
        let net = build(&s);
        let mut sim = Simulator::new(&net, Mode::Concrete).expect("the initial state satisfies its invariants");
        let mut symbolic = Simulator::new(&net, Mode::Symbolic).unwrap();
        for step in 0..8u64 {
            agrees_here(&net, &mut sim)?;
            // The concrete state lies in the symbolic state's zone.
            let concrete = sim.concrete_state().unwrap();
            let Clocks::Zone(zone) = &symbolic.state().clocks else { unreachable!() };
            prop_assert_eq!(&symbolic.state().locations, &concrete.locations);
            prop_assert_eq!(&symbolic.state().variables, &concrete.variables);
            prop_assert!(in_zone(zone, &concrete.clocks), "{:?} outside the zone", concrete);
            let before = sim.position();
            let run = sim.random(1, seed * 31 + step).unwrap();
            if run.taken == 0 {
                break;
            }
            // Follow the transition just taken in symbolic mode: the piece
            // whose zone holds the new valuation.
            let last = sim.history()[sim.position()].clone();
            prop_assert!(sim.position() > before);
            let zeno::simulate::Move::Fire(t) = &last.via else {
                return Err(TestCaseError::fail("a random step ends in a transition"));
            };
            let now = sim.concrete_state().unwrap();
            let options = symbolic.enabled().unwrap();
            let found = options.iter().position(|o| {
                &o.transition == t
                    && matches!(&o.successor, Some(State { clocks: Clocks::Zone(z), .. }) if in_zone(z, &now.clocks))
            });
            prop_assert!(found.is_some(), "{:?} is not a symbolic successor", t);
            symbolic.fire(found.unwrap() + 1).unwrap();
        }
    }

    #[test]
    fn symbolic_successors_reach_goals_as_the_checker_does(s in spec()) {
        let net = build(&s);
        let options = Options { config: zeno::checker::config::Config { search: SearchOrder::Bfs, ..Default::default() }, max_states: Some(20_000), ..Options::default() };
        // The random networks' reachability check comes first.
        let k = net.check_at(0).expect("a reachability check");
        let r = check(&net, k, &options, &Cancel::new(), &mut zeno::checker::no_progress);
        let goal = net.check(k).kind.goal();
        const LIMIT: usize = 7;
        match (&r.verdict, &r.trace) {
            (Verdict::Holds, Some(t)) if t.len() <= LIMIT => {
                prop_assert_eq!(fewest_steps(&net, &goal, LIMIT), Some(t.len()));
            }
            (Verdict::Fails, _) => prop_assert_eq!(fewest_steps(&net, &goal, LIMIT), None),
            _ => {} // a model error, or a witness longer than the search here
        }
    }
}

#[test]
fn the_random_network_generator_reaches_both_kinds_of_verdict() {
    // Guards the property above against comparing nothing: some fixed
    // seeds give networks with a witness and some without.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut holds, mut fails) = (0, 0);
    for _ in 0..64 {
        let net = build(&spec().new_tree(&mut runner).unwrap().current());
        let options = Options {
            config: zeno::checker::config::Config {
                search: SearchOrder::Bfs,
                ..Default::default()
            },
            ..Options::default()
        };
        let k = net.check_at(0).expect("a reachability check");
        match check(
            &net,
            k,
            &options,
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        )
        .verdict
        {
            Verdict::Holds => holds += 1,
            Verdict::Fails => fails += 1,
            _ => {}
        }
    }
    assert!(
        holds > 5 && fails > 5,
        "{holds} with a witness, {fails} without"
    );
}
