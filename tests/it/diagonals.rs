//! Diagonal constraints (`x - y ≺ c`): every search order and the liveness
//! checks end on them, with the verdicts derived by hand next to each model,
//! traces that replay in the independent simulator, and, on random
//! networks with diagonal guards, the verdicts of the exact search (no
//! extrapolation, where it ends within its state limit).

use proptest::prelude::*;

use crate::support;
use crate::support::net::{EdgeExt, Net, and, at, c, ge, le, not};
use crate::support::random_net::run;
use zeno::checker::dbm::{Dbm, bound};
use zeno::checker::{Options, SearchOrder, Verdict};
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
/// - `leads`: `l --> bad` fails for the same run.
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
check leads: P.l --> P.bad;
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

#[test]
fn the_one_location_loop_ends_with_hand_derived_verdicts() {
    let bfs = support::every_order(LOOP, &[Holds, Holds, Holds, Holds, Fails, Fails]);
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

/// One random edge: process, source, target, a clock guard `(clock,
/// upper?, c)`, a diagonal guard `(x1 - x2 or x2 - x1, strict?, c)`, and
/// the clocks it resets (bit 0: `x1`, bit 1: `x2`).
type EdgeSpec = (
    u32,
    u32,
    u32,
    Option<(u32, bool, i32)>,
    Option<(bool, bool, i32)>,
    u8,
);

/// Two processes of three locations over two shared clocks, with random
/// guards, diagonal guards, invariants and resets; the checks: reach a pair
/// of locations where a diagonal constraint holds, and a pair of
/// locations never together.
fn diagonal_network(
    invariants: &[Option<(u32, i32)>],
    edges: &[EdgeSpec],
    goal: (u32, u32, bool, bool, i32),
) -> Network {
    let mut n = Net::new();
    let x = [n.clock("x1"), n.clock("x2")];
    for p in 0..2 {
        n.normal(&format!("P{p}"), &["l0", "l1", "l2"]);
        for l in 0..3 {
            if let Some((clock, bound)) = invariants[p * 3 + l] {
                n.inv(p as u32, l as u32, le(x[clock as usize], bound));
            }
        }
    }
    let diagonal = |flip: bool, strict: bool, bound: i32| {
        let (i, j) = if flip { (x[1], x[0]) } else { (x[0], x[1]) };
        ClockConstraint {
            i,
            j,
            strict,
            bound: c(bound),
        }
    };
    for &(p, from, to, guard, diag, resets) in edges {
        let edge = n.edge(p, from, to);
        if let Some((clock, upper, bound)) = guard {
            let x = x[clock as usize];
            edge.when(if upper { le(x, bound) } else { ge(x, bound) });
        }
        if let Some((flip, strict, bound)) = diag {
            edge.when(diagonal(flip, strict, bound));
        }
        for (k, &clock) in x.iter().enumerate() {
            if resets & (1 << k) != 0 {
                edge.reset(clock);
            }
        }
    }
    let (l0, l1, flip, strict, bound) = goal;
    n.reach(and(vec![
        at(0, l0),
        at(1, l1),
        Formula::Clock(diagonal(flip, strict, bound)),
    ]));
    n.always(not(and(vec![at(0, l1), at(1, l0)])));
    n.n
}

fn edge_spec() -> impl Strategy<Value = EdgeSpec> {
    (
        0u32..2,
        0u32..3,
        0u32..3,
        proptest::option::weighted(0.5, (0u32..2, any::<bool>(), 0i32..4)),
        proptest::option::weighted(0.6, (any::<bool>(), any::<bool>(), -2i32..3)),
        0u8..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every order ends with one verdict, which the exact search (without
    /// extrapolation) confirms whenever it ends within its limit; traces
    /// replay.
    #[test]
    fn random_networks_with_diagonals_agree_with_the_exact_search(
        invariants in proptest::collection::vec(proptest::option::weighted(0.3, (0u32..2, 1i32..4)), 6),
        edges in proptest::collection::vec(edge_spec(), 4..12),
        goal in (0u32..3, 0u32..3, any::<bool>(), any::<bool>(), -3i32..4),
    ) {
        let net = diagonal_network(&invariants, &edges, goal);
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
