//! Tests of the test simulator itself: hand-built networks, hand-written
//! traces. Every kind of wrong trace must be rejected, or the simulator would
//! prove nothing about the checker.

use crate::support;

use num_rational::Rational64;
use support::simulator::{holds, replay};
use zeno::checker::{ConcreteState, Step, Trace, TraceEnd, Transition};
use zeno::ir::*;

fn r(n: i64) -> Rational64 {
    Rational64::from_integer(n)
}

fn c(v: i32) -> Expr {
    Expr::Const(v)
}

fn var(v: VarId) -> Expr {
    Expr::Var(v)
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}

/// `x <= b` / `x < b`
fn le(x: ClockId, b: i32, strict: bool) -> ClockConstraint {
    ClockConstraint {
        i: x,
        j: 0,
        strict,
        bound: c(b),
    }
}

/// `x >= b` / `x > b`
fn ge(x: ClockId, b: i32, strict: bool) -> ClockConstraint {
    ClockConstraint {
        i: 0,
        j: x,
        strict,
        bound: c(-b),
    }
}

fn loc(name: &str, kind: LocationKind, invariant: Vec<ClockConstraint>) -> Location {
    Location {
        name: name.into(),
        kind,
        invariant,
        data_invariant: None,
        stopped: Vec::new(),
        running: Vec::new(),
        data_rates: Vec::new(),
        span: Span::default(),
    }
}

fn normal(name: &str) -> Location {
    loc(name, LocationKind::Normal, vec![])
}

fn edge(source: LocId, target: LocId) -> Edge {
    Edge {
        source,
        target,
        guard: None,
        clock_guard: vec![],
        sync: None,
        label: None,
        updates: vec![],
        selects: vec![],
        span: Span::default(),
    }
}

fn sync(ch: ChanId, dir: SyncDir) -> Option<Sync> {
    Some(Sync {
        channel: ChanRef {
            base: ch,
            len: 1,
            index: None,
        },
        dir,
    })
}

fn assign(v: VarId, value: Expr) -> Update {
    Update::Assign {
        target: LValue {
            base: v,
            len: 1,
            index: None,
        },
        value,
    }
}

fn process(name: &str, locations: Vec<Location>, edges: Vec<Edge>) -> Process {
    Process {
        name: name.into(),
        template: name.into(),
        locations,
        edges,
        initial: 0,
        span: Span::default(),
    }
}

fn variable(name: &str, lo: i32, hi: i32) -> Variable {
    Variable {
        name: name.into(),
        lo,
        hi,
        init: 0,
        is_bool: false,
        span: Span::default(),
    }
}

fn clocks(names: &[&str]) -> Vec<Clock> {
    std::iter::once("0")
        .chain(names.iter().copied())
        .map(|n| Clock {
            name: n.into(),
            span: Span::default(),
        })
        .collect()
}

fn check(kind: CheckKind) -> Check {
    Check {
        name: "c".into(),
        kind,
        span: Span::default(),
        name_span: Span::default(),
    }
}

fn at(process: ProcId, location: LocId) -> Formula {
    Formula::At { process, location }
}

fn state(locations: &[LocId], variables: &[i32], clocks: &[Rational64]) -> ConcreteState {
    ConcreteState {
        locations: locations.to_vec(),
        variables: variables.to_vec(),
        clocks: clocks.to_vec(),
    }
}

fn step(delay: Rational64, edges: &[(ProcId, EdgeId)], after: ConcreteState) -> Step {
    Step {
        delay,
        transition: Transition {
            edges: edges.to_vec(),
        },
        after,
    }
}

fn goal(delay: Rational64) -> TraceEnd {
    TraceEnd::Goal { delay }
}

fn assert_rejected(result: Result<(), String>, needle: &str) {
    match result {
        Ok(()) => panic!("a wrong trace was accepted (expected an error about `{needle}`)"),
        Err(message) => assert!(
            message.contains(needle),
            "expected an error about `{needle}`, got: {message}"
        ),
    }
}

// ---------------------------------------------------------------------------
// One process, one clock: A (x <= 5) --[x >= 2, v := v + 1, x := 0]--> B.

fn timed() -> Network {
    let mut e = edge(0, 1);
    e.clock_guard = vec![ge(1, 2, false)];
    e.updates = vec![
        assign(0, bin(BinOp::Add, var(0), c(1))),
        Update::ResetClock { clock: 1, value: 0 },
    ];
    Network {
        time_scale: Default::default(),
        variables: vec![variable("v", 0, 1)],
        clocks: clocks(&["x"]),
        channels: vec![],
        processes: vec![process(
            "P",
            vec![
                loc("A", LocationKind::Normal, vec![le(1, 5, false)]),
                normal("B"),
            ],
            vec![e],
        )],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![
            check(CheckKind::Reachable(at(0, 1))),
            // E<> P.B && x >= 1
            check(CheckKind::Reachable(Formula::And(vec![
                at(0, 1),
                Formula::Clock(ge(1, 1, false)),
            ]))),
        ],
        lines: None,
        symmetry: Default::default(),
    }
}

fn timed_trace(delay: Rational64, after: ConcreteState, end_delay: Rational64) -> Trace {
    Trace {
        initial: state(&[0], &[0], &[r(0), r(0)]),
        steps: vec![step(delay, &[(0, 0)], after)],
        end: goal(end_delay),
    }
}

#[test]
fn a_correct_timed_trace_is_accepted() {
    let net = timed();
    let after = state(&[1], &[1], &[r(0), r(0)]);
    assert_eq!(
        replay(&net, 0, &timed_trace(r(3), after.clone(), r(0))),
        Ok(())
    );
    // A fractional delay at the guard's and the invariant's ends.
    assert_eq!(
        replay(&net, 0, &timed_trace(r(2), after.clone(), r(0))),
        Ok(())
    );
    assert_eq!(
        replay(&net, 0, &timed_trace(r(5), after.clone(), r(0))),
        Ok(())
    );
    let half = Rational64::new(7, 2);
    assert_eq!(
        replay(&net, 0, &timed_trace(half, after.clone(), r(0))),
        Ok(())
    );
    // The second check needs a final delay of at least 1 in B.
    assert_eq!(replay(&net, 1, &timed_trace(r(3), after, r(1))), Ok(()));
}

#[test]
fn a_guard_that_does_not_hold_is_rejected() {
    let net = timed();
    let after = state(&[1], &[1], &[r(0), r(0)]);
    let early = Rational64::new(3, 2);
    assert_rejected(replay(&net, 0, &timed_trace(early, after, r(0))), "guard");
}

#[test]
fn a_broken_invariant_is_rejected() {
    let net = timed();
    let after = state(&[1], &[1], &[r(0), r(0)]);
    let late = Rational64::new(11, 2);
    assert_rejected(
        replay(&net, 0, &timed_trace(late, after, r(0))),
        "invariant",
    );
}

#[test]
fn a_negative_delay_is_rejected() {
    let net = timed();
    let after = state(&[1], &[1], &[r(0), r(0)]);
    assert_rejected(
        replay(&net, 0, &timed_trace(r(-1), after, r(0))),
        "negative",
    );
}

#[test]
fn a_wrong_after_state_is_rejected() {
    let net = timed();
    // Variable not incremented.
    let after = state(&[1], &[0], &[r(0), r(0)]);
    assert_rejected(replay(&net, 0, &timed_trace(r(3), after, r(0))), "step 1");
    // Location not changed.
    let after = state(&[0], &[1], &[r(0), r(0)]);
    assert_rejected(replay(&net, 0, &timed_trace(r(3), after, r(0))), "step 1");
}

#[test]
fn a_wrong_clock_value_is_rejected() {
    let net = timed();
    // The reset is forgotten: x = 3 instead of 0.
    let after = state(&[1], &[1], &[r(0), r(3)]);
    assert_rejected(replay(&net, 0, &timed_trace(r(3), after, r(0))), "step 1");
    // Off by a fraction.
    let after = state(&[1], &[1], &[r(0), Rational64::new(1, 1000)]);
    assert_rejected(replay(&net, 0, &timed_trace(r(3), after, r(0))), "step 1");
}

#[test]
fn a_wrong_initial_state_is_rejected() {
    let net = timed();
    let mut trace = timed_trace(r(3), state(&[1], &[1], &[r(0), r(0)]), r(0));
    trace.initial.clocks[1] = r(1);
    assert_rejected(replay(&net, 0, &trace), "initial");
}

#[test]
fn a_goal_not_reached_is_rejected() {
    let net = timed();
    let after = state(&[1], &[1], &[r(0), r(0)]);
    // Check 1 wants x >= 1 in B; a final delay of 1/2 is not enough.
    let short = Rational64::new(1, 2);
    assert_rejected(replay(&net, 1, &timed_trace(r(3), after, short)), "goal");
    // No step at all: the goal P.B does not hold initially.
    let trace = Trace {
        initial: state(&[0], &[0], &[r(0), r(0)]),
        steps: vec![],
        end: goal(r(0)),
    };
    assert_rejected(replay(&net, 0, &trace), "goal");
}

#[test]
fn an_edge_from_the_wrong_location_is_rejected() {
    let net = timed();
    let after = state(&[1], &[1], &[r(0), r(0)]);
    let mut trace = timed_trace(r(3), after.clone(), r(0));
    // Take the edge a second time, from B.
    trace.steps.push(step(r(2), &[(0, 0)], after));
    assert_rejected(replay(&net, 0, &trace), "step 2");
}

#[test]
fn an_out_of_range_assignment_ends_a_model_error_trace() {
    let mut net = timed();
    // B -> A without reset, so that the increment overflows v's range [0, 1].
    net.processes[0].edges.push(edge(1, 0));
    let s1 = state(&[1], &[1], &[r(0), r(0)]);
    let s2 = state(&[0], &[1], &[r(0), r(0)]);
    let error = EvalError::from(ErrorKind::OutOfRange {
        var: 0,
        value: 2,
        lo: 0,
        hi: 1,
    });
    let trace = |error| Trace {
        initial: state(&[0], &[0], &[r(0), r(0)]),
        steps: vec![
            step(r(2), &[(0, 0)], s1.clone()),
            step(r(0), &[(0, 1)], s2.clone()),
        ],
        end: TraceEnd::ModelError {
            delay: r(2),
            transition: Transition {
                edges: vec![(0, 0)],
            },
            error,
        },
    };
    assert_eq!(replay(&net, 0, &trace(error)), Ok(()));
    // The wrong error is rejected.
    assert_rejected(
        replay(&net, 0, &trace(EvalError::from(ErrorKind::DivisionByZero))),
        "fails with",
    );
    // The first increment (0 -> 1) does not fail.
    let wrong = Trace {
        initial: state(&[0], &[0], &[r(0), r(0)]),
        steps: vec![],
        end: TraceEnd::ModelError {
            delay: r(2),
            transition: Transition {
                edges: vec![(0, 0)],
            },
            error,
        },
    };
    assert_rejected(replay(&net, 0, &wrong), "succeeds");
}

// ---------------------------------------------------------------------------
// Committed locations: P starts committed in C (C -> D); Q has A -> B.

fn committed() -> Network {
    Network {
        time_scale: Default::default(),
        variables: vec![],
        clocks: clocks(&["x"]),
        channels: vec![],
        processes: vec![
            process(
                "P",
                vec![loc("C", LocationKind::Committed, vec![]), normal("D")],
                vec![edge(0, 1)],
            ),
            process("Q", vec![normal("A"), normal("B")], vec![edge(0, 1)]),
        ],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![check(CheckKind::Reachable(Formula::And(vec![
            at(0, 1),
            at(1, 1),
        ])))],
        lines: None,
        symmetry: Default::default(),
    }
}

#[test]
fn committed_locations_are_respected() {
    let net = committed();
    let good = Trace {
        initial: state(&[0, 0], &[], &[r(0), r(0)]),
        steps: vec![
            step(r(0), &[(0, 0)], state(&[1, 0], &[], &[r(0), r(0)])),
            step(r(4), &[(1, 0)], state(&[1, 1], &[], &[r(0), r(4)])),
        ],
        end: goal(r(0)),
    };
    assert_eq!(replay(&net, 0, &good), Ok(()));

    // Delay while committed.
    let mut delayed = good.clone();
    delayed.steps[0].delay = r(1);
    delayed.steps[0].after.clocks[1] = r(1);
    delayed.steps[1].after.clocks[1] = r(5);
    assert_rejected(replay(&net, 0, &delayed), "step 1");

    // Q moves first, while P is committed.
    let bad = Trace {
        initial: state(&[0, 0], &[], &[r(0), r(0)]),
        steps: vec![
            step(r(0), &[(1, 0)], state(&[0, 1], &[], &[r(0), r(0)])),
            step(r(0), &[(0, 0)], state(&[1, 1], &[], &[r(0), r(0)])),
        ],
        end: goal(r(0)),
    };
    assert_rejected(replay(&net, 0, &bad), "committed");
}

// ---------------------------------------------------------------------------
// Broadcast: S sends on b; R1 receives when v == 0, R2 always, R3 never
// (guard v == 1). Channel 1 is a binary channel for a handshake S2 -> R1.

fn broadcast() -> Network {
    let mut send = edge(0, 1);
    send.sync = sync(0, SyncDir::Send);
    send.updates = vec![assign(0, c(0))];
    let receiver = |name: &str, guard: Option<Expr>, value: i32| {
        let mut e = edge(0, 1);
        e.sync = sync(0, SyncDir::Receive);
        e.guard = guard;
        // Receivers run in process order: R2 writes w after R1.
        e.updates = vec![assign(1, c(value))];
        process(name, vec![normal("A"), normal("B")], vec![e])
    };
    Network {
        time_scale: Default::default(),
        variables: vec![variable("v", 0, 1), variable("w", 0, 20)],
        clocks: clocks(&[]),
        channels: vec![Channel {
            name: "b".into(),
            kind: ChannelKind::Broadcast,
            urgent: false,
            span: Span::default(),
        }],
        processes: vec![
            process("S", vec![normal("A"), normal("B")], vec![send]),
            receiver("R1", Some(bin(BinOp::Eq, var(0), c(0))), 5),
            receiver("R2", None, 7),
            receiver("R3", Some(bin(BinOp::Eq, var(0), c(1))), 9),
        ],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![check(CheckKind::Reachable(at(0, 1)))],
        lines: None,
        symmetry: Default::default(),
    }
}

fn broadcast_trace(edges: &[(ProcId, EdgeId)], after: ConcreteState) -> Trace {
    Trace {
        initial: state(&[0, 0, 0, 0], &[0, 0], &[r(0)]),
        steps: vec![step(r(0), edges, after)],
        end: goal(r(0)),
    }
}

#[test]
fn a_full_broadcast_is_accepted() {
    let net = broadcast();
    let after = state(&[1, 1, 1, 0], &[0, 7], &[r(0)]);
    assert_eq!(
        replay(&net, 0, &broadcast_trace(&[(0, 0), (1, 0), (2, 0)], after)),
        Ok(())
    );
}

#[test]
fn a_missing_broadcast_receiver_is_rejected() {
    let net = broadcast();
    let after = state(&[1, 1, 0, 0], &[0, 5], &[r(0)]);
    assert_rejected(
        replay(&net, 0, &broadcast_trace(&[(0, 0), (1, 0)], after)),
        "receivers",
    );
    let after = state(&[1, 0, 0, 0], &[0, 0], &[r(0)]);
    assert_rejected(
        replay(&net, 0, &broadcast_trace(&[(0, 0)], after)),
        "receivers",
    );
}

#[test]
fn a_disabled_broadcast_receiver_is_rejected() {
    let net = broadcast();
    let after = state(&[1, 1, 1, 1], &[0, 9], &[r(0)]);
    assert_rejected(
        replay(
            &net,
            0,
            &broadcast_trace(&[(0, 0), (1, 0), (2, 0), (3, 0)], after),
        ),
        "guard",
    );
}

#[test]
fn broadcast_receivers_out_of_order_are_rejected() {
    let net = broadcast();
    let after = state(&[1, 1, 1, 0], &[0, 5], &[r(0)]);
    assert_rejected(
        replay(&net, 0, &broadcast_trace(&[(0, 0), (2, 0), (1, 0)], after)),
        "order",
    );
}

#[test]
fn a_receiver_alone_is_rejected() {
    let net = broadcast();
    let after = state(&[0, 0, 1, 0], &[0, 7], &[r(0)]);
    assert_rejected(
        replay(&net, 0, &broadcast_trace(&[(2, 0)], after)),
        "sender",
    );
}

// ---------------------------------------------------------------------------
// Binary and urgent channels: S --c!--> ; R --c?--> ; T has a clock and a
// free edge. When `urgent`, c is an urgent channel.

fn handshake(urgent: bool) -> Network {
    let mut send = edge(0, 1);
    send.sync = sync(0, SyncDir::Send);
    send.updates = vec![assign(0, c(3))];
    let mut recv = edge(0, 1);
    recv.sync = sync(0, SyncDir::Receive);
    // Reads what the sender wrote: the sender's update runs first.
    recv.updates = vec![assign(0, bin(BinOp::Mul, var(0), c(2)))];
    let mut recv2 = edge(0, 1);
    recv2.sync = sync(0, SyncDir::Receive);
    Network {
        time_scale: Default::default(),
        variables: vec![variable("v", 0, 10)],
        clocks: clocks(&["x"]),
        channels: vec![Channel {
            name: "c".into(),
            kind: ChannelKind::Binary,
            urgent,
            span: Span::default(),
        }],
        processes: vec![
            process("S", vec![normal("A"), normal("B")], vec![send]),
            process("R", vec![normal("A"), normal("B")], vec![recv]),
            process("R2", vec![normal("A"), normal("B")], vec![recv2]),
        ],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![check(CheckKind::Reachable(at(0, 1)))],
        lines: None,
        symmetry: Default::default(),
    }
}

fn handshake_trace(delay: Rational64, edges: &[(ProcId, EdgeId)], after: ConcreteState) -> Trace {
    Trace {
        initial: state(&[0, 0, 0], &[0], &[r(0), r(0)]),
        steps: vec![step(delay, edges, after)],
        end: goal(r(0)),
    }
}

#[test]
fn a_handshake_runs_the_sender_first() {
    let net = handshake(false);
    let after = state(&[1, 1, 0], &[6], &[r(0), r(2)]);
    assert_eq!(
        replay(&net, 0, &handshake_trace(r(2), &[(0, 0), (1, 0)], after)),
        Ok(())
    );
    // With the receiver first, v would be 3: the trace saying so is wrong.
    let after = state(&[1, 1, 0], &[3], &[r(0), r(2)]);
    assert_rejected(
        replay(&net, 0, &handshake_trace(r(2), &[(0, 0), (1, 0)], after)),
        "step 1",
    );
}

#[test]
fn a_handshake_needs_exactly_one_receiver() {
    let net = handshake(false);
    let after = state(&[1, 0, 0], &[3], &[r(0), r(0)]);
    assert_rejected(
        replay(&net, 0, &handshake_trace(r(0), &[(0, 0)], after)),
        "handshake",
    );
    let after = state(&[1, 1, 1], &[6], &[r(0), r(0)]);
    assert_rejected(
        replay(
            &net,
            0,
            &handshake_trace(r(0), &[(0, 0), (1, 0), (2, 0)], after),
        ),
        "handshake",
    );
}

#[test]
fn no_delay_while_an_urgent_synchronisation_is_enabled() {
    let net = handshake(true);
    let after = state(&[1, 1, 0], &[6], &[r(0), r(0)]);
    assert_eq!(
        replay(&net, 0, &handshake_trace(r(0), &[(0, 0), (1, 0)], after)),
        Ok(())
    );
    let after = state(&[1, 1, 0], &[6], &[r(0), r(1)]);
    assert_rejected(
        replay(&net, 0, &handshake_trace(r(1), &[(0, 0), (1, 0)], after)),
        "delay",
    );
}

// ---------------------------------------------------------------------------
// Deadlock, decided exactly over all delays.

/// One process, clock x: A (invariant `x <= 3` or `x < 3`) --guard--> B, B has no edge.
fn one_edge(inv: ClockConstraint, guard: ClockConstraint) -> Network {
    let mut e = edge(0, 1);
    e.clock_guard = vec![guard];
    Network {
        time_scale: Default::default(),
        variables: vec![],
        clocks: clocks(&["x"]),
        channels: vec![],
        processes: vec![process(
            "P",
            vec![loc("A", LocationKind::Normal, vec![inv]), normal("B")],
            vec![e],
        )],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![check(CheckKind::Invariant(Formula::Not(Box::new(
            Formula::Deadlock,
        ))))],
        lines: None,
        symmetry: Default::default(),
    }
}

#[test]
fn deadlock_is_decided_on_exact_delay_intervals() {
    let in_a = |x: Rational64| state(&[0], &[], &[r(0), x]);
    let deadlocked = |net: &Network, s| holds(net, &Formula::Deadlock, &s).unwrap();

    // x <= 3 and x >= 3: the edge is possible at exactly one delay.
    let net = one_edge(le(1, 3, false), ge(1, 3, false));
    assert!(!deadlocked(&net, in_a(r(0))));
    assert!(!deadlocked(&net, in_a(r(3))));
    // In B nothing is possible.
    assert!(deadlocked(&net, state(&[1], &[], &[r(0), r(0)])));

    // x < 3 and x >= 3: never.
    let net = one_edge(le(1, 3, true), ge(1, 3, false));
    assert!(deadlocked(&net, in_a(r(0))));
    // x < 3 and x > 2: yes, until x reaches 3.
    let net = one_edge(le(1, 3, true), ge(1, 2, true));
    assert!(!deadlocked(&net, in_a(Rational64::new(5, 2))));
    // x <= 3 and x <= 1: possible now at x = 1, not once x has passed 1.
    let net = one_edge(le(1, 3, false), le(1, 1, false));
    assert!(!deadlocked(&net, in_a(r(1))));
    assert!(deadlocked(&net, in_a(Rational64::new(3, 2))));
}

#[test]
fn deadlock_respects_target_invariants_and_resets() {
    // A --x >= 1--> B with B's invariant x <= 2: possible from x <= 2 only,
    // unless the edge resets x.
    let mut net = one_edge(le(1, 10, false), ge(1, 1, false));
    net.processes[0].locations[1].invariant = vec![le(1, 2, false)];
    let in_a = |x: Rational64| state(&[0], &[], &[r(0), x]);
    assert!(!holds(&net, &Formula::Deadlock, &in_a(r(2))).unwrap());
    assert!(holds(&net, &Formula::Deadlock, &in_a(Rational64::new(5, 2))).unwrap());
    net.processes[0].edges[0].updates = vec![Update::ResetClock { clock: 1, value: 0 }];
    assert!(!holds(&net, &Formula::Deadlock, &in_a(r(5))).unwrap());
}

#[test]
fn deadlock_with_broadcast_and_handshakes() {
    // A broadcast sender is never blocked by its receivers.
    let net = broadcast();
    let s = state(&[0, 0, 0, 0], &[0, 0], &[r(0)]);
    assert!(!holds(&net, &Formula::Deadlock, &s).unwrap());
    // A binary sender alone is: without receivers waiting, S is stuck.
    let net = handshake(false);
    assert!(
        !holds(
            &net,
            &Formula::Deadlock,
            &state(&[0, 0, 0], &[0], &[r(0), r(0)])
        )
        .unwrap()
    );
    assert!(
        holds(
            &net,
            &Formula::Deadlock,
            &state(&[0, 1, 1], &[0], &[r(0), r(0)])
        )
        .unwrap()
    );
}

#[test]
fn a_deadlock_trace_is_checked_against_the_final_state() {
    let net = one_edge(le(1, 3, false), ge(1, 3, false));
    let trace = |end| Trace {
        initial: state(&[0], &[], &[r(0), r(0)]),
        steps: vec![step(r(3), &[(0, 0)], state(&[1], &[], &[r(0), r(3)]))],
        end: goal(end),
    };
    assert_eq!(replay(&net, 0, &trace(r(0))), Ok(()));
    // Not deadlocked initially.
    let none = Trace {
        initial: state(&[0], &[], &[r(0), r(0)]),
        steps: vec![],
        end: goal(r(0)),
    };
    assert_rejected(replay(&net, 0, &none), "goal");
}

// ---------------------------------------------------------------------------
// The expectation headers of the model files (used by the checker's tests).

#[test]
fn expectation_headers_parse() {
    use support::expect::{Expectation, Expected, parse};
    let text = "// a model\n// expect mutex: fails shortest 6\n//   expect ok: holds\n\
                // expect bad_update: model-error shortest 0\ncheck mutex: A[] true;\n";
    assert_eq!(
        parse(text).unwrap(),
        vec![
            Expectation {
                check: "mutex".into(),
                verdict: Expected::Fails,
                shortest: Some(6)
            },
            Expectation {
                check: "ok".into(),
                verdict: Expected::Holds,
                shortest: None
            },
            Expectation {
                check: "bad_update".into(),
                verdict: Expected::ModelError,
                shortest: Some(0)
            },
        ]
    );
    assert!(parse("// expect mutex fails\n").is_err());
    assert!(parse("// expect mutex: maybe\n").is_err());
    assert!(parse("// expect mutex: fails shortest six\n").is_err());
    assert!(parse("// expect mutex: fails in 6\n").is_err());
}

#[test]
fn every_model_states_an_expectation_for_each_of_its_checks() {
    let files = support::expect::model_files();
    assert!(files.len() >= 14, "model files found: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let expectations =
            support::expect::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The checks declared in the file, by the draft's `check name:` syntax.
        let mut checks: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("check "))
            .filter_map(|l| l.split_once(':'))
            .map(|(name, _)| name.trim())
            .collect();
        let mut stated: Vec<&str> = expectations.iter().map(|e| e.check.as_str()).collect();
        checks.sort();
        stated.sort();
        assert_eq!(checks, stated, "{}", path.display());
        assert!(
            text.trim_start().starts_with("//"),
            "{} must start with a comment describing it",
            path.display()
        );
    }
}

#[test]
fn a_guard_that_cannot_be_evaluated_ends_a_model_error_trace() {
    // P: A --[a[v] == 0]--> A with a = a[0..2] and v := v + 1; at v == 2 the
    // guard reads outside the array.
    let mut e = edge(0, 0);
    e.guard = Some(bin(
        BinOp::Eq,
        Expr::Index {
            base: 0,
            len: 2,
            index: Box::new(var(2)),
        },
        c(0),
    ));
    e.updates = vec![assign(2, bin(BinOp::Add, var(2), c(1)))];
    let net = Network {
        time_scale: Default::default(),
        variables: vec![
            variable("a[0]", 0, 1),
            variable("a[1]", 0, 1),
            variable("v", 0, 5),
        ],
        clocks: clocks(&[]),
        channels: vec![],
        processes: vec![process("P", vec![normal("A")], vec![e])],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![check(CheckKind::Invariant(Formula::True))],
        lines: None,
        symmetry: Default::default(),
    };
    let trace = |steps: usize, error| Trace {
        initial: state(&[0], &[0, 0, 0], &[r(0)]),
        steps: (1..=steps)
            .map(|k| step(r(0), &[(0, 0)], state(&[0], &[0, 0, k as i32], &[r(0)])))
            .collect(),
        end: TraceEnd::ModelError {
            delay: r(0),
            transition: Transition {
                edges: vec![(0, 0)],
            },
            error,
        },
    };
    let bad_index = EvalError::from(ErrorKind::IndexOutOfBounds { index: 2, len: 2 });
    assert_eq!(replay(&net, 0, &trace(2, bad_index)), Ok(()));
    assert_rejected(
        replay(
            &net,
            0,
            &trace(2, EvalError::from(ErrorKind::DivisionByZero)),
        ),
        "guard fails",
    );
    // One step earlier the guard reads a[1] and the transition succeeds.
    assert_rejected(replay(&net, 0, &trace(1, bad_index)), "succeeds");
}

#[test]
fn deadlock_with_a_broadcast_receiver_enabled_by_time() {
    // S: A (x <= 5) --b!--> B. R: A --b?, x >= 3--> B with B's invariant
    // x <= 2 (x is not reset): once R is enabled, every broadcast takes R
    // into a violated invariant, so the broadcast is only possible while
    // x < 3, with S alone.
    let mut send = edge(0, 1);
    send.sync = sync(0, SyncDir::Send);
    let mut recv = edge(0, 1);
    recv.sync = sync(0, SyncDir::Receive);
    recv.clock_guard = vec![ge(1, 3, false)];
    let net = Network {
        time_scale: Default::default(),
        variables: vec![],
        clocks: clocks(&["x"]),
        channels: vec![Channel {
            name: "b".into(),
            kind: ChannelKind::Broadcast,
            urgent: false,
            span: Span::default(),
        }],
        processes: vec![
            process(
                "S",
                vec![
                    loc("A", LocationKind::Normal, vec![le(1, 5, false)]),
                    normal("B"),
                ],
                vec![send],
            ),
            process(
                "R",
                vec![
                    normal("A"),
                    loc("B", LocationKind::Normal, vec![le(1, 2, false)]),
                ],
                vec![recv],
            ),
        ],
        vectors: vec![],
        priorities: Default::default(),
        checks: vec![],
        lines: None,
        symmetry: Default::default(),
    };
    let s = |x: Rational64| state(&[0, 0], &[], &[r(0), x]);
    let deadlocked = |x| holds(&net, &Formula::Deadlock, &s(x)).unwrap();
    assert!(!deadlocked(r(0)));
    assert!(!deadlocked(Rational64::new(29, 10)));
    assert!(deadlocked(r(3)));
    assert!(deadlocked(r(4)));
}

#[test]
fn checker_answers_are_compared_with_expectations() {
    use support::expect::{Expectation, Expected, compare};
    use zeno::checker::Verdict;
    let fails6 = Expectation {
        check: "mutex".into(),
        verdict: Expected::Fails,
        shortest: Some(6),
    };
    assert_eq!(compare(&fails6, &Verdict::Fails, Some(6), true), Ok(()));
    assert_eq!(compare(&fails6, &Verdict::Fails, Some(9), false), Ok(()));
    assert!(compare(&fails6, &Verdict::Fails, Some(7), true).is_err());
    assert!(compare(&fails6, &Verdict::Fails, Some(5), false).is_err());
    assert!(compare(&fails6, &Verdict::Fails, None, false).is_err());
    assert!(compare(&fails6, &Verdict::Holds, Some(6), true).is_err());
    let error = Expectation {
        check: "bounded".into(),
        verdict: Expected::ModelError,
        shortest: Some(2),
    };
    let e = Verdict::ModelError(EvalError::from(ErrorKind::DivisionByZero));
    assert_eq!(compare(&error, &e, Some(2), true), Ok(()));
    assert!(compare(&error, &Verdict::Fails, Some(2), true).is_err());
    let holds = Expectation {
        check: "safe".into(),
        verdict: Expected::Holds,
        shortest: None,
    };
    assert_eq!(compare(&holds, &Verdict::Holds, None, true), Ok(()));
    assert!(compare(&holds, &Verdict::Fails, None, true).is_err());
}
