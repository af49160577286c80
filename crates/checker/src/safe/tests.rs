//! The reduced network on hand-written models: which edges are switched off,
//! which guard conjuncts become constants, and how the goal is rewritten.

use zeno_ir::{CheckId, Expr, Formula};

use super::MAX_GOAL_COMBINATIONS;
use super::analysis::{Kind, analyse};

fn network(text: &str) -> zeno_ir::Network {
    let analysis = zeno_semantics::analyze(text);
    analysis
        .network
        .unwrap_or_else(|| panic!("{:?}", analysis.diagnostics))
}

const COUNTER: &str = "
int[0, 3] s = 0;
int[0, 3] t = 0;
template Counter() {
    init location idle;
    idle -> idle do s = (s + 1) % 4;
}
template P() {
    init location a;
    location b;
    location c;
    a -> b when s == 2 && t == 0;
    b -> c when s == 5;
}
C = Counter();
Q = P();
system C, Q;
check reach_c: E<> Q.c;
check s_three: E<> Q.b && s == 3;
";

/// `s` is safe (one-location writer, wraps around); `t` is never written, so
/// there is nothing to remove; P's edges stay, with `s == 2` now `1` (some
/// reachable value satisfies it) and `s == 5` now `0` (none does).
#[test]
fn counter_guards_become_constants() {
    let net = network(COUNTER);
    let a = analyse(&net, CheckId::nth(0), &[], MAX_GOAL_COMBINATIONS);
    assert_eq!(a.removed, 1);
    assert_eq!(a.components[0].kind, Kind::Var(0));
    assert_eq!(a.components[0].values().count(), 4);
    let counter = &a.reduced.processes[0];
    assert_eq!(counter.edges[0].guard, Some(Expr::Const(0)));
    let p = &a.reduced.processes[1];
    let Some(Expr::Binary(_, first, second)) = &p.edges[0].guard else {
        panic!("{:?}", p.edges[0].guard);
    };
    assert_eq!(**first, Expr::Const(1));
    assert!(matches!(**second, Expr::Binary(..)), "t == 0 stays");
    assert_eq!(p.edges[1].guard, Some(Expr::Const(0)));
    // The goal does not mention `s`: unchanged.
    assert_eq!(a.reduced.checks[0].kind, net.checks[0].kind);
}

/// A goal on `s` becomes the disjunction over its 4 reachable values.
#[test]
fn goal_on_a_removed_slot_is_enumerated() {
    let net = network(COUNTER);
    let a = analyse(&net, CheckId::nth(1), &[], MAX_GOAL_COMBINATIONS);
    assert_eq!(a.removed, 1);
    assert!(a.components[0].in_goal);
    let zeno_ir::CheckKind::Reachable(Formula::Or(ds)) = &a.reduced.checks[1].kind else {
        panic!("{:?}", a.reduced.checks[1].kind);
    };
    assert_eq!(ds.len(), 4);
}

/// A writer that also writes another slot changes something else (in the
/// causal graph, `s` and `t` are each other's predecessors): not safe. A
/// writer in a process with two locations is restricted by where that
/// process is (the process is a predecessor of `s`): not safe.
#[test]
fn writers_must_move_the_slot_alone() {
    let text = COUNTER.replace("do s = (s + 1) % 4;", "do s = (s + 1) % 4, t = 1;");
    assert_eq!(
        analyse(&network(&text), CheckId::nth(0), &[], MAX_GOAL_COMBINATIONS).removed,
        0
    );
    let text = COUNTER.replace(
        "init location idle;\n    idle -> idle",
        "init location idle;\n    location other;\n    idle -> other;\n    other -> idle;\n    idle -> idle",
    );
    // Nor is the Counter process an observer: one of its edges writes `s`.
    assert_eq!(
        analyse(&network(&text), CheckId::nth(0), &[], MAX_GOAL_COMBINATIONS).removed,
        0
    );
}

/// The rounds of the cascade on `models/safe-cascade.zeno` (reasoned in its
/// header): round 1 removes only `s` (Toggle and Watch wait for it); their
/// tests of `s` become `1`, so round 2 removes `t` and the Watch process;
/// then Walk is not strongly connected (nothing leaves `g`) and stays.
#[test]
fn removal_cascades_until_nothing_more_is_safe() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/safe-cascade.zeno"
    ))
    .unwrap();
    let net = network(&text);
    let rounds = super::cascade(&net, CheckId::nth(0));
    let kinds: Vec<Vec<Kind>> = rounds
        .iter()
        .map(|r| r.components.iter().map(|c| c.kind).collect())
        .collect();
    // Slots s = 0, t = 1; processes S, T, O, Q = 0..4.
    assert_eq!(
        kinds,
        [vec![Kind::Var(0)], vec![Kind::Var(1), Kind::Proc(2)]]
    );
    assert_eq!(rounds[0].removed + rounds[1].removed, 3);
    // Round 2's goal enumerates Watch's 2 locations; round 1's mentions
    // nothing removed.
    assert_eq!(rounds[0].goal_combinations, 1);
    assert_eq!(rounds[1].goal_combinations, 2);
    // A single round sees only `s`.
    assert_eq!(
        analyse(&net, CheckId::nth(0), &[], MAX_GOAL_COMBINATIONS).removed,
        1
    );
    // With every component in the goal: 4 values of s, then 2 * 2 of t and
    // Watch; a budget of 8 in all leaves round 2 room for only t (8 / 4 = 2).
    let rounds = super::cascade(&net, CheckId::nth(2));
    let combos: Vec<usize> = rounds.iter().map(|r| r.goal_combinations).collect();
    assert_eq!(combos, [4, 4]);
    let first = analyse(&net, CheckId::nth(2), &[], 8);
    let second = analyse(
        &first.reduced,
        CheckId::nth(2),
        &[Kind::Var(0)],
        8 / first.goal_combinations,
    );
    let kinds: Vec<Kind> = second.components.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [Kind::Var(1)]);
}

/// Fig. 5.1 does not cascade: one round removes both counters, and P3
/// (not strongly connected) stays.
#[test]
fn figure_5_1_takes_one_round() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/safe-abstraction.zeno"
    ))
    .unwrap();
    let rounds = super::cascade(&network(&text), CheckId::nth(0));
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0].removed, 2);
}
