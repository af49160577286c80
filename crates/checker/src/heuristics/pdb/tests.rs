//! Abstract distances computed by hand on tiny networks for given patterns,
//! the static error analysis, and pattern selection.

use super::errors::cannot_raise_errors;
use super::pattern::Pattern;
use super::projection::Abstraction;
use super::space::{Space, UNREACHABLE};
use super::{PatternDatabase, PdbOptions};
use crate::heuristics::goal::dnf;
use crate::heuristics::tests::{assign, at, cmp, edge, edge_mut, handshake, net, process, var};
use crate::heuristics::{EdgeSet, Heuristic};
use zeno_ir::*;

/// The distance of every abstract state, by key, for `pattern`.
fn distances(n: &Network, goal: &Formula, pattern: Pattern) -> Vec<(Vec<i32>, u32)> {
    let d = dnf(n, goal);
    let abs = Abstraction::new(n, pattern, &d, &EdgeSet::none(n)).expect("small");
    let space = Space::enumerate(n, &abs, 10_000);
    assert!(space.complete);
    let mut table: Vec<(Vec<i32>, u32)> = space
        .into_table()
        .into_iter()
        .map(|(k, v)| (k.to_vec(), v))
        .collect();
    table.sort();
    table
}

fn pattern(n: &Network, procs: &[u32], vars: &[u32]) -> Pattern {
    let mut p = Pattern {
        procs: vec![false; n.processes.len()],
        vars: vec![false; n.variables.len()],
    };
    procs.iter().for_each(|&i| p.procs[i as usize] = true);
    vars.iter().for_each(|&i| p.vars[i as usize] = true);
    p
}

/// The paper's Fig. 2 without its clock: P sets `a` to 1 and back to 0, Q
/// walks q0 → q1 → q2 and enters q3 only when `a == 1`; the goal is Q.q3.
fn paper_example() -> (Network, Formula) {
    let mut n = net();
    let a = var(&mut n, 0, 1, 0);
    let p = process(&mut n, 2);
    assign(edge(&mut n, p, 0, 1), a, Expr::Const(1));
    assign(edge(&mut n, p, 1, 0), a, Expr::Const(0));
    let q = process(&mut n, 4);
    edge(&mut n, q, 0, 1);
    edge(&mut n, q, 1, 2);
    edge(&mut n, q, 2, 3).guard = Some(cmp(BinOp::Eq, a, 1));
    (n, at(q, 3))
}

#[test]
fn dropping_the_writer_keeps_its_effects_as_self_loops() {
    let (n, goal) = paper_example();
    // Pattern {Q, a}: P's edges become self-loops `a = 1` and `a = 0`, so all
    // 4 × 2 (Q location, a) pairs are reachable. From (q, a) Q needs 3 - q
    // steps, plus one to set a = 1 unless it already is 1 (q3 is the goal).
    let t = distances(&n, &goal, pattern(&n, &[1], &[0]));
    let expected: Vec<(Vec<i32>, u32)> = vec![
        (vec![0, 0], 4),
        (vec![0, 1], 3),
        (vec![1, 0], 3),
        (vec![1, 1], 2),
        (vec![2, 0], 2),
        (vec![2, 1], 1),
        (vec![3, 0], 0),
        (vec![3, 1], 0),
    ];
    assert_eq!(t, expected);
}

#[test]
fn dropping_the_variable_drops_the_guard() {
    let (n, goal) = paper_example();
    // Pattern {Q}: the guard `a == 1` reads a dropped slot, so Q walks freely.
    let t = distances(&n, &goal, pattern(&n, &[1], &[]));
    assert_eq!(
        t,
        vec![(vec![0], 3), (vec![1], 2), (vec![2], 1), (vec![3], 0)]
    );
}

#[test]
fn the_full_pattern_is_exact() {
    let (n, goal) = paper_example();
    // Keys are (P, Q, a); P at p1 iff a = 1. From the initial state the
    // shortest path takes 4 steps (three of Q, one of P setting a = 1).
    let t = distances(&n, &goal, Pattern::full(&n));
    assert_eq!(t.len(), 8);
    let get = |k: &[i32]| t.iter().find(|(key, _)| key == k).map(|(_, d)| *d);
    assert_eq!(get(&[0, 0, 0]), Some(4));
    assert_eq!(get(&[1, 0, 1]), Some(3));
    assert_eq!(get(&[1, 2, 1]), Some(1));
    assert_eq!(get(&[0, 2, 0]), Some(2));
    assert_eq!(get(&[0, 3, 0]), Some(0));
}

#[test]
fn a_goal_over_dropped_parts_is_true() {
    let (n, goal) = paper_example();
    let t = distances(&n, &goal, pattern(&n, &[0], &[0]));
    assert!(t.iter().all(|(_, d)| *d == 0), "{t:?}");
}

#[test]
fn synchronisation_with_a_dropped_process_is_assumed_possible() {
    let mut n = net();
    let v = var(&mut n, 0, 1, 0);
    let (p, q) = handshake(&mut n, ChannelKind::Binary);
    edge_mut(&mut n, q, 0).guard = Some(cmp(BinOp::Eq, v, 1)); // never true: v stays 0
    let goal = at(p, 1);
    let full = distances(&n, &goal, Pattern::full(&n));
    assert_eq!(full, vec![(vec![0, 0, 0], UNREACHABLE)]);
    let only_p = distances(&n, &goal, pattern(&n, &[p], &[]));
    assert_eq!(only_p, vec![(vec![0], 1), (vec![1], 0)]);
}

#[test]
fn an_assignment_reading_dropped_slots_takes_every_value() {
    let mut n = net();
    let x = var(&mut n, 0, 2, 0);
    let y = var(&mut n, 0, 2, 0); // never written: x = y always gives 0
    let p = process(&mut n, 3);
    assign(edge(&mut n, p, 0, 1), x, Expr::Var(y));
    edge(&mut n, p, 1, 2).guard = Some(cmp(BinOp::Eq, x, 2));
    let goal = at(p, 2);
    let full = distances(&n, &goal, Pattern::full(&n));
    assert!(full.iter().all(|(_, d)| *d == UNREACHABLE), "{full:?}");
    // Pattern {P, x}: after the assignment x is 0, 1 or 2.
    let t = distances(&n, &goal, pattern(&n, &[p], &[x]));
    assert_eq!(
        t,
        vec![
            (vec![0, 0], 2),
            (vec![1, 0], UNREACHABLE),
            (vec![1, 1], UNREACHABLE),
            (vec![1, 2], 1),
            (vec![2, 2], 0),
        ]
    );
}

#[test]
fn broadcast_receivers_may_stay_out() {
    // A sender and a receiver that writes `w = 1`; the goal `w == 0 && P.l1`
    // needs the receiver to stay out, which the concrete broadcast forbids
    // (the receiver is enabled), but the abstraction allows: distance 1.
    let mut n = net();
    let w = var(&mut n, 0, 1, 0);
    let (p, q) = handshake(&mut n, ChannelKind::Broadcast);
    assign(edge_mut(&mut n, q, 0), w, Expr::Const(1));
    let goal = Formula::And(vec![at(p, 1), Formula::Data(cmp(BinOp::Eq, w, 0))]);
    let t = distances(&n, &goal, Pattern::full(&n));
    let get = |k: &[i32]| t.iter().find(|(key, _)| key == k).map(|(_, d)| *d);
    assert_eq!(get(&[0, 0, 0]), Some(1));
    assert_eq!(get(&[1, 1, 1]), Some(UNREACHABLE));
}

#[test]
fn error_analysis() {
    let mut n = net();
    let v = var(&mut n, 0, 3, 0);
    let p = process(&mut n, 2);
    let goal = at(p, 1);
    assign(edge(&mut n, p, 0, 1), v, Expr::Const(3));
    assert!(cannot_raise_errors(&n, &goal));
    // v + 1 may leave [0, 3] ...
    let inc = Expr::Binary(BinOp::Add, Box::new(Expr::Var(v)), Box::new(Expr::Const(1)));
    assign(edge(&mut n, p, 1, 0), v, inc);
    assert!(!cannot_raise_errors(&n, &goal));
    // ... unless the guard bounds it.
    n.processes[p as usize].edges[1].guard = Some(cmp(BinOp::Lt, v, 3));
    assert!(cannot_raise_errors(&n, &goal));
    // Division by a variable whose range holds 0.
    let div = Expr::Binary(BinOp::Div, Box::new(Expr::Const(6)), Box::new(Expr::Var(v)));
    edge(&mut n, p, 0, 0).guard = Some(Expr::Binary(
        BinOp::Gt,
        Box::new(div),
        Box::new(Expr::Const(1)),
    ));
    assert!(!cannot_raise_errors(&n, &goal));
}

#[test]
fn error_analysis_sees_indices_and_receivers() {
    let mut n = net();
    let i = var(&mut n, 0, 2, 0);
    var(&mut n, 0, 1, 0);
    var(&mut n, 0, 1, 0); // a[2] in slots 1 and 2
    let p = process(&mut n, 2);
    let goal = at(p, 1);
    edge(&mut n, p, 0, 1).guard = Some(Expr::Index {
        base: 1,
        len: 2,
        index: Box::new(Expr::Var(i)), // i may be 2
    });
    assert!(!cannot_raise_errors(&n, &goal));

    // A receiver's guard `v < 3` does not protect `v = v + 1`: the sender
    // may have set v = 3 first.
    let mut n = net();
    let v = var(&mut n, 0, 3, 0);
    let (p, q) = handshake(&mut n, ChannelKind::Binary);
    assign(edge_mut(&mut n, p, 0), v, Expr::Const(3));
    let r = edge_mut(&mut n, q, 0);
    r.guard = Some(cmp(BinOp::Lt, v, 3));
    let inc = Expr::Binary(BinOp::Add, Box::new(Expr::Var(v)), Box::new(Expr::Const(1)));
    assign(r, v, inc);
    assert!(!cannot_raise_errors(&n, &at(q, 1)));
}

#[test]
fn selection_fits_the_budget_and_is_deterministic() {
    let (n, goal) = paper_example();
    let d = dnf(&n, &goal);
    let options = |max| PdbOptions {
        max_states: max,
        selection_states: 10_000,
        selection_time: None,
        clocks: false,
    };
    // Everything fits: the full pattern, exact at the initial state.
    let mut full =
        PatternDatabase::new(&n, &goal, &d, &EdgeSet::none(&n), &options(100), &|| false).unwrap();
    assert_eq!(full.pattern_size(), (2, 1));
    assert_eq!(full.estimate(&[0, 0], &[0]), Some(4));
    assert!(full.prunes());
    // Four states: {Q} (distance 3 at the start) beats {P, a} (distance 0),
    // and {Q, a} (8 states) does not fit.
    let mut small =
        PatternDatabase::new(&n, &goal, &d, &EdgeSet::none(&n), &options(4), &|| false).unwrap();
    assert_eq!(small.pattern_size(), (1, 0));
    assert_eq!(small.abstract_states(), 4);
    assert_eq!(small.estimate(&[0, 0], &[0]), Some(3));
    assert_eq!(small.estimate(&[1, 2], &[1]), Some(1));
    let again =
        PatternDatabase::new(&n, &goal, &d, &EdgeSet::none(&n), &options(4), &|| false).unwrap();
    assert_eq!(again.report(), small.report());
}

/// The zone `lo <= x <= hi` of a network with one clock.
fn zone(lo: i32, hi: i32) -> crate::dbm::Dbm {
    use crate::dbm::{Dbm, bound};
    let mut z = Dbm::universe(2);
    assert!(z.constrain(1, 0, bound::raw(hi, false)));
    assert!(z.constrain(0, 1, bound::raw(-lo, false)));
    z
}

#[test]
fn the_clock_lookup_reads_the_zone() {
    use super::zones::{ClockSet, ZoneSpace};
    // s -> a at x >= 3 (no reset), a -> c at x <= 4; locations s, a, c are
    // 0, 1, 2.
    let text = "template P() {\n clock x;\n init location s;\n location a invariant x <= 5;\n \
                location c;\n s -> a when x >= 3;\n a -> c when x <= 4;\n}\n\
                system P;\ncheck reach: E<> P.c;\n";
    let n = zeno_semantics::test_network(text);
    let goal = n.checks[0].kind.goal();
    let d = dnf(&n, &goal);
    let full = Pattern::full(&n);
    let abs = Abstraction::new(&n, full.clone(), &d, &EdgeSet::none(&n)).expect("small");
    let clocks = ClockSet::new(&n, &full, &[true, true]);
    assert_eq!(clocks.count(), 1);
    let lu = crate::lu::LuTable::new(&n, &goal);
    let mut space = ZoneSpace::enumerate(&n, &abs, clocks, &lu, 100, &|| false);
    // s with x >= 0 (distance 2), a with x >= 3 (x <= 5 is dropped by the
    // extrapolation: no lower bound of x is tested from a), c (distance 0).
    assert!(space.complete);
    assert_eq!(space.len, 3);
    assert_eq!(space.initial_distance, Some(2));
    assert!(space.may_reach_goal(&[1], &zone(3, 4)));
    assert!(space.may_reach_goal(&[1], &zone(2, 3)));
    // No stored zone of a meets x in [0, 2]: a is entered at x >= 3.
    assert!(!space.may_reach_goal(&[1], &zone(0, 2)));
    assert!(space.may_reach_goal(&[0], &zone(0, 2)));
    // Without the clock a's zone is unconstrained.
    let no_clock = ClockSet::new(&n, &full, &[true, false]);
    assert_eq!(no_clock.count(), 0);
    let mut space = ZoneSpace::enumerate(&n, &abs, no_clock.clone(), &lu, 100, &|| false);
    assert!(space.may_reach_goal(&[1], &zone(0, 2)));
    // A stop request (the run's time limit, Ctrl-C) ends the enumeration,
    // incomplete, so clock pattern selection obeys the run's limits.
    let stopped = ZoneSpace::enumerate(&n, &abs, no_clock, &lu, 100, &|| true);
    assert!(!stopped.complete);
}

#[test]
fn clocks_reset_by_dropped_processes_are_not_kept() {
    use super::zones::ClockSet;
    // Q resets P's clock x: a pattern without Q cannot keep x.
    let text = "clock x;\ntemplate P() {\n init location a;\n location b;\n a -> b when x >= 1;\n}\n\
                template Q() {\n init location q;\n q -> q do x = 0;\n}\n\
                system P, Q;\ncheck reach: E<> P.b;\n";
    let n = zeno_semantics::test_network(text);
    let with_q = Pattern::full(&n);
    assert_eq!(ClockSet::new(&n, &with_q, &[true, true]).count(), 1);
    let without_q = pattern(&n, &[0], &[]);
    assert_eq!(ClockSet::new(&n, &without_q, &[true, true]).count(), 0);
}

#[test]
fn clocks_compared_beyond_the_largest_constant_are_not_kept() {
    use super::zones::ClockSet;
    // d / 2 ∈ [0, 5] is within the LU bounds; d * 100000000 reaches 10^9,
    // beyond MAX_CONST (2^28 - 1), so y's extrapolation would be unsound.
    let text = "int[0, 10] d = 4;\nclock x, y;\ntemplate P() {\n init location a;\n location b;\n \
                a -> b when x <= d / 2 && y < d * 100000000;\n}\n\
                system P;\ncheck reach: E<> P.b;\n";
    let n = zeno_semantics::test_network(text);
    let kept = ClockSet::new(&n, &Pattern::full(&n), &[true, true, true]);
    assert_eq!(kept.kept, vec![true, true, false]);
}

/// A two-cell queue filled by `push`, written as a function or inline.
fn queue(with_function: bool) -> (Network, Formula) {
    let update = if with_function {
        "push(len + 1)"
    } else {
        "q[len] = len + 1, len++"
    };
    let text = format!(
        "int[0, 2] len = 0;
         int[0, 3] q[2];
         void push(int v) {{ q[len] = v; len++; }}
         template P() {{
             init location a;
             location b;
             a -> b when len < 2 do {update};
             b -> a;
         }}
         system P;
         check second: E<> q[1] == 2;"
    );
    let analysis = zeno_semantics::analyze(&text);
    let n = analysis.network.expect("the model lowers");
    let goal = n.checks[0].kind.goal();
    (n, goal)
}

#[test]
fn a_call_reading_kept_slots_runs_exactly() {
    // Keys are (P, len, q[0], q[1]). Pushing 1 then 2 reaches the goal
    // q[1] == 2 after four steps (a -> b, b -> a, a -> b); a call treated
    // as writing any value would reach many more keys, and sooner.
    let (n, goal) = queue(true);
    let t = distances(&n, &goal, Pattern::full(&n));
    let expected: Vec<(Vec<i32>, u32)> = vec![
        (vec![0, 0, 0, 0], 3),
        (vec![0, 1, 1, 0], 1),
        (vec![0, 2, 1, 2], 0),
        (vec![1, 1, 1, 0], 2),
        (vec![1, 2, 1, 2], 0),
    ];
    assert_eq!(t, expected);
    let (inline, goal) = queue(false);
    assert_eq!(distances(&inline, &goal, Pattern::full(&inline)), expected);
}
