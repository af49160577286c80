//! Active-clock reduction (`crates/checker/src/active.rs`): the same verdicts,
//! BFS trace lengths and replayable traces with and without it on random
//! networks, never more stored states with it, and the stored counts of a
//! model where it merges states, computed by hand.

use crate::support;

use proptest::prelude::*;
use support::random_net::{build, spec};
use zeno::checker::*;
use zeno::ir::*;

fn bfs(net: &Network, k: usize, active_clocks: bool) -> CheckResult {
    let options = Options {
        max_states: Some(20_000),
        active_clocks,
        ..Options::default()
    };
    check(
        net,
        net.check_at(k).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn with_and_without_active_clocks_agree(s in spec()) {
        let net = build(&s);
        for k in 0..net.checks.len() {
            let on = bfs(&net, k, true);
            let off = bfs(&net, k, false);
            prop_assert!(!matches!(off.verdict, Verdict::Unknown(_)));
            prop_assert_eq!(&on.verdict, &off.verdict);
            prop_assert!(on.stats.stored <= off.stats.stored, "{} > {}", on.stats.stored, off.stats.stored);
            prop_assert!(on.stats.explored <= off.stats.explored);
            prop_assert_eq!(on.trace.as_ref().map(|t| t.len()), off.trace.as_ref().map(|t| t.len()));
            for t in [&on.trace, &off.trace].into_iter().flatten() {
                let replayed = support::simulator::replay(&net, k, t);
                prop_assert!(replayed.is_ok(), "check {}: {:?}\n{:#?}", k, replayed, t);
            }
        }
    }
}

/// The check reads no clock. The diagonal guard in `d` makes extrapolation
/// Extra_M with `M = 0` on zones split along its hyperplane `x = y`
/// (`checker/diagonal.rs`), which keeps the sign of `x - y`, so only the
/// reduction can forget a clock. Nothing reads `x` or `y` in `a`, `b` or
/// `c` before `c -> d` resets both. BFS without the reduction: `a`
/// (`x = y`), then `b` (`x <= y`, split into `x < y` and `x = y`) and `c`
/// (`x = y`) at depth 1, then `c` again from `b`'s `x < y` (`b`'s `x = y`
/// gives the first `c`'s zone, deeper), `d` (`x = y`) from the first `c`,
/// and the second `c`'s `d` is the same zone: 6 stored. With it, every
/// zone of `a`, `b`, `c` is free: one each, and `d`: 4 stored.
const MERGES: &str = "int[0, 1] n = 0;
template P() {
    clock x, y;
    init location a;
    location b;
    location c;
    location d;
    a -> b do x = 0;
    a -> c;
    b -> c;
    c -> d do x = 0, y = 0;
    d -> d when x - y < 0;
}
system P;
check never: A[] n == 0;
";

#[test]
fn the_reduction_merges_zones_that_differ_in_dead_clocks() {
    let analysis = zeno::semantics::analyze(MERGES);
    let net = analysis.network.expect("analyses");
    let on = bfs(&net, 0, true);
    let off = bfs(&net, 0, false);
    assert_eq!(on.verdict, Verdict::Holds);
    assert_eq!(off.verdict, Verdict::Holds);
    assert_eq!((off.stats.explored, off.stats.stored), (6, 6));
    assert_eq!((on.stats.explored, on.stats.stored), (4, 4));
}
