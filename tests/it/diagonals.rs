//! Diagonal constraints (`x - y ≺ c`): every search order and the liveness
//! checks end on them, with the verdicts derived by hand next to each model,
//! traces that replay in the independent simulator, and, on random
//! networks with diagonal guards, the verdicts of the exact search (no
//! extrapolation, where it ends within its state limit).

use proptest::prelude::*;

use crate::support;
use crate::support::net::{and, c};
use crate::support::random_net::{build, spec};
use zeno::checker::dbm::{Dbm, bound};
use zeno::checker::{Cancel, CheckResult, Options, SearchOrder, Verdict, check};
use zeno::ir::{ClockConstraint, Formula, Network};

use Verdict::{Fails, Holds};

/// One location, `y` reset each time it reaches 1, `x` never: after `k`
/// loops `x - y = k` exactly (resets happen at `y = 1`, delays keep the
/// difference), so the exact zone graph has a zone per `k` and an exact
/// search never ends.
///
/// - `ordered`: `x - y` is `k >= 0`: holds.
/// - `never_bad`: `bad` needs `0 < x - y < 1`, never true of an integer:
///   holds. Extra+_LU with the bounds of the non-diagonal constraints alone
///   (`x` is compared nowhere else) would forget `x` and let `x - y` be
///   anything, reaching `bad` (`naive_extrapolation_would_reach_bad`).
/// - `far`: `x - y > 5` needs `k = 6`: reachable, shortest trace 6 loops.
/// - `stays`: the loop runs for ever in `l` (time diverges, one unit per
///   loop): holds, a witness.
/// - `leaves`: that same run never reaches `bad`: fails.
///
/// With the bounds `M(x) = M(y) = 1` of `ordered` (no reset to a value
/// other than 0), the zones of `l` are `k = 0`, `k = 1` and, for every
/// `k >= 2`, `0 <= y <= 1 && x - y > 1` (Extra_M; the loop maps it into
/// itself): 3 states.
const LOOP: &str = "template P() {
    clock x, y;
    init location l invariant y <= 1;
    location bad;
    l -> l when y == 1 do y = 0;
    l -> bad when x - y > 0 && x - y < 1;
}
system P;
check ordered: A[] P.x - P.y >= 0;
check never_bad: A[] !P.bad;
check far: E<> P.x - P.y > 5;
check stays: E[] P.l;
check leaves: A<> P.bad;
";

/// `x` belongs to `A`, `y` to `B`, each reset once. `A` wins with
/// `x - y < 0`: `x` reset strictly after `y`, i.e. only in the interleaving
/// `B` moves, time passes, `A` moves (then `A` wins: 3 transitions). It
/// ties with `x - y == 0` (both resets without a delay between, either
/// order: 3 transitions). It loses with `x - y > 0` (`A` first, then a
/// delay, then `B`). `both` (wins and loses in one run) is impossible:
/// `A` leaves `a1` once.
const ORDER: &str = "clock x, y;
int[0, 1] done = 0;
template A() {
    init location a0;
    location a1;
    location win;
    location tie;
    location lose;
    a0 -> a1 do x = 0;
    a1 -> win when done == 1 && x - y < 0;
    a1 -> tie when done == 1 && x - y == 0;
    a1 -> lose when done == 1 && x - y > 0;
}
template B() {
    init location b0;
    location b1;
    b0 -> b1 do y = 0, done = 1;
}
system A, B;
check win: E<> A.win;
check tie: E<> A.tie;
check lose: E<> A.lose;
check none_both: A[] !(A.win && A.lose);
";

fn network(text: &str) -> Network {
    zeno::semantics::analyze(text)
        .network
        .unwrap_or_else(|| panic!("{text}"))
}

fn run(net: &Network, k: usize, options: &Options) -> CheckResult {
    check(
        net,
        net.check_at(k).unwrap(),
        options,
        &Cancel::new(),
        &mut |_| {},
    )
}

#[test]
fn the_one_location_loop_ends_with_hand_derived_verdicts() {
    let bfs = support::every_order(LOOP, &[Holds, Holds, Holds, Holds, Fails]);
    assert_eq!((bfs[0].stats.explored, bfs[0].stats.stored), (3, 3));
    assert_eq!(bfs[2].trace.as_ref().map(|t| t.len()), Some(6));
    // Two threads (the parallel breadth-first search) end too.
    let net = network(LOOP);
    for k in 0..3 {
        let r = run(
            &net,
            k,
            &Options {
                threads: 2,
                ..Options::default()
            },
        );
        assert_eq!(r.verdict, [Holds, Holds, Holds][k], "check {k}");
    }
}

#[test]
fn naive_extrapolation_would_reach_bad() {
    // After one loop of LOOP: x - y = 1, 0 <= y <= 1.
    let mut z = Dbm::zero(3);
    z.up();
    assert!(z.constrain(2, 0, bound::le(1)));
    assert!(z.constrain(0, 2, bound::le(-1)));
    z.reset(2, 0);
    z.up();
    assert!(z.constrain(2, 0, bound::le(1)));
    let bad = |z: &Dbm| {
        let mut g = z.clone();
        g.constrain(2, 1, bound::lt(0)) && g.constrain(1, 2, bound::lt(1))
    };
    assert!(!bad(&z));
    // LU bounds without the diagonals: x never compared (-1), y up to 1.
    let mut naive = z.clone();
    naive.extrapolate_lu(&[0, -1, 1], &[0, -1, 1]);
    assert!(bad(&naive), "{naive:?}");
}

#[test]
fn a_diagonal_guard_is_reached_only_through_its_interleaving() {
    let bfs = support::every_order(ORDER, &[Holds, Holds, Holds, Holds]);
    let net = network(ORDER);
    let a = net.processes.iter().position(|p| p.name == "A").unwrap() as u32;
    let b = a ^ 1;
    for (k, first) in [(0, b), (2, a)] {
        let t = bfs[k].trace.as_ref().expect("a witness");
        assert_eq!(t.len(), 3, "check {k}");
        // The process that resets first is the one the interleaving needs.
        assert_eq!(t.steps[0].transition.edges[0].0, first, "check {k}");
    }
    assert_eq!(bfs[1].trace.as_ref().map(|t| t.len()), Some(3));
}

/// A diagonal guard `x_i - x_j ≺ c` over the random networks' clocks.
fn diagonal(i: u32, j: u32, strict: bool, bound: i32) -> ClockConstraint {
    ClockConstraint {
        i,
        j,
        strict,
        bound: c(bound),
    }
}

/// Adds diagonal guards to edges that may carry clock guards (no channel,
/// no label), and one to the reachability goal.
fn with_diagonals(
    mut net: Network,
    guards: &[(usize, bool, bool, i32)],
    goal: (bool, i32),
) -> Network {
    for &(e, flip, strict, b) in guards {
        let edges: Vec<(usize, usize)> = (0..net.processes.len())
            .flat_map(|p| (0..net.processes[p].edges.len()).map(move |k| (p, k)))
            .collect();
        let (p, k) = edges[e % edges.len()];
        let edge = &mut net.processes[p].edges[k];
        if edge.sync.is_none() && edge.label.is_none() {
            let (i, j) = if flip { (2, 1) } else { (1, 2) };
            edge.clock_guard.push(diagonal(i, j, strict, b));
        }
    }
    let reach = &mut net.checks[0].kind;
    if let zeno::ir::CheckKind::Reachable(f) = reach {
        *f = and(vec![
            f.clone(),
            Formula::Clock(diagonal(1, 2, goal.0, goal.1)),
        ]);
    }
    net
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every order ends with one verdict, which the exact search (without
    /// extrapolation) confirms whenever it ends within its limit; traces
    /// replay.
    #[test]
    fn random_networks_with_diagonals_agree_with_the_exact_search(
        s in spec(),
        guards in proptest::collection::vec((0usize..12, any::<bool>(), any::<bool>(), -2i32..3), 1..4),
        goal in (any::<bool>(), -2i32..3),
    ) {
        let net = with_diagonals(build(&s), &guards, goal);
        for k in 0..net.checks.len() {
            let mut verdicts = Vec::new();
            for order in SearchOrder::ALL {
                let r = support::check_in_order(&net, k, order);
                prop_assert!(!matches!(r.verdict, Verdict::Unknown(_)), "{order:?}: {:?}", r.verdict);
                if let Some(t) = &r.trace {
                    let replayed = support::simulator::replay(&net, k, t);
                    prop_assert!(replayed.is_ok(), "check {k}, {order:?}: {replayed:?}");
                }
                verdicts.push(r.verdict);
            }
            prop_assert!(verdicts.iter().all(|v| *v == verdicts[0]), "{verdicts:?}");
            let exact = run(&net, k, &Options {
                extrapolate: false,
                max_states: Some(3_000),
                ..Options::default()
            });
            if !matches!(exact.verdict, Verdict::Unknown(_)) {
                prop_assert_eq!(&exact.verdict, &verdicts[0], "check {}", k);
            }
        }
    }
}
