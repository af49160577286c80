//! The pattern database's pruning: a correct model proven safe with fewer
//! explored states than breadth-first search, and no pruning where a model
//! error could hide behind it.

use zeno::checker::dbm::{Dbm, bound};
use zeno::checker::heuristics::{self, EdgeSet, Heuristic};
use zeno::checker::{self, Cancel, HeuristicKind, Options, SearchOrder, Verdict};

/// Semaphore mutual exclusion of three processes (correct even without
/// time) beside a ticking counter that multiplies the zone graph.
const SEMAPHORE: &str = r#"
int[0, 1] lock = 0;
int[0, 3] rounds = 0;

template Proc(const int[1, 3] pid) {
    clock x;
    init location idle;
    location cs invariant x <= 2;
    idle -> cs when lock == 0 do lock = 1, x = 0;
    cs -> idle when x >= 1 do lock = 0;
}

template Counter() {
    clock y;
    init location run invariant y <= 1;
    run -> run when y >= 1 && rounds < 3 do rounds = rounds + 1, y = 0;
    run -> run when y >= 1 && rounds == 3 do rounds = 0, y = 0;
}

system Proc, Counter;

check mutex: A[] !(Proc(1).cs && Proc(2).cs);
check enter: E<> Proc(3).cs && rounds == 2;
"#;

fn run(
    text: &str,
    check: &str,
    search: SearchOrder,
    heuristic: HeuristicKind,
) -> checker::CheckResult {
    run_with(text, check, search, heuristic, false)
}

fn run_with(
    text: &str,
    check: &str,
    search: SearchOrder,
    heuristic: HeuristicKind,
    clocks: bool,
) -> checker::CheckResult {
    let analysis = zeno::semantics::analyze(text);
    let network = analysis
        .network
        .unwrap_or_else(|| panic!("{:?}", analysis.diagnostics));
    let index = network.checks.iter().position(|c| c.name == check).unwrap();
    let options = Options {
        config: zeno::checker::config::Config {
            search,
            heuristic,
            ..Default::default()
        },
        pdb: checker::PdbOptions {
            selection_time: None,
            clocks,
            ..checker::PdbOptions::default()
        },
        ..Options::default()
    };
    checker::check(
        &network,
        network.check_at(index).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
}

#[test]
fn pdb_proves_the_semaphore_safe_with_fewer_states_than_bfs() {
    let bfs = run(SEMAPHORE, "mutex", SearchOrder::Bfs, HeuristicKind::Zero);
    assert_eq!(bfs.verdict, Verdict::Holds);
    for search in [SearchOrder::AStar, SearchOrder::Greedy] {
        let pdb = run(SEMAPHORE, "mutex", search, HeuristicKind::Pdb);
        eprintln!(
            "{search:?}: bfs explored {}, pdb explored {} (pruned {})",
            bfs.stats.explored, pdb.stats.explored, pdb.stats.pruned
        );
        assert_eq!(pdb.verdict, Verdict::Holds);
        assert!(pdb.stats.pruned >= 1);
        assert!(pdb.stats.explored < bfs.stats.explored);
    }
}

#[test]
fn pdb_keeps_shortest_witnesses_on_the_semaphore() {
    // Proc(3) enters in one step; rounds == 2 needs two ticks: 3 in all.
    let bfs = run(SEMAPHORE, "enter", SearchOrder::Bfs, HeuristicKind::Zero);
    let astar = run(SEMAPHORE, "enter", SearchOrder::AStar, HeuristicKind::Pdb);
    assert_eq!(bfs.verdict, Verdict::Holds);
    assert_eq!(astar.verdict, Verdict::Holds);
    assert_eq!(bfs.trace.as_ref().map(|t| t.len()), Some(3));
    assert_eq!(astar.trace.as_ref().map(|t| t.len()), Some(3));
}

#[test]
fn no_pruning_when_a_model_error_may_be_reachable() {
    // Without `rounds < 3` the counter overflows its range after four ticks:
    // the mutex holds, but the model error is what every search must report.
    let faulty = SEMAPHORE.replace("y >= 1 && rounds < 3 do", "y >= 1 do");
    let bfs = run(&faulty, "mutex", SearchOrder::Bfs, HeuristicKind::Zero);
    assert!(
        matches!(bfs.verdict, Verdict::ModelError(_)),
        "{:?}",
        bfs.verdict
    );
    for search in [SearchOrder::AStar, SearchOrder::Greedy] {
        let pdb = run(&faulty, "mutex", search, HeuristicKind::Pdb);
        assert!(
            matches!(pdb.verdict, Verdict::ModelError(_)),
            "{:?}",
            pdb.verdict
        );
        assert_eq!(pdb.stats.pruned, 0);
    }
}

/// The public Dierks mutex (TChecker, correct: the `Unsafe` labels are
/// unreachable), the counterpart of the paper's "prove it safe" table:
/// skipped when the public models are not beside the repository.
#[test]
fn pdb_proves_the_public_mutex_safe_with_fewer_states_than_bfs() {
    let dir = std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/models/ticktac/mutex"
    ));
    let Ok(text) = std::fs::read_to_string(dir.join("mutex_2_1_0_lab.tck")) else {
        eprintln!("public models not found; skipping");
        return;
    };
    let opts = zeno::import::ImportOptions {
        labels: vec!["unsafe1".into(), "unsafe2".into()],
    };
    let imported = zeno::import::import("mutex_2_1_0_lab.tck", &text, &opts).expect("imports");
    let bfs = run(
        &imported.zeno,
        "labels",
        SearchOrder::Bfs,
        HeuristicKind::Zero,
    );
    let pdb = run(
        &imported.zeno,
        "labels",
        SearchOrder::AStar,
        HeuristicKind::Pdb,
    );
    eprintln!(
        "bfs explored {}, A* pdb explored {} (pruned {})",
        bfs.stats.explored, pdb.stats.explored, pdb.stats.pruned
    );
    // `E<> A1.Unsafe && A2.Unsafe` has no witness.
    assert_eq!(bfs.verdict, Verdict::Fails);
    assert_eq!(pdb.verdict, Verdict::Fails);
    assert!(pdb.stats.pruned >= 1);
    assert!(pdb.stats.explored < bfs.stats.explored);
}

/// `b` is entered from `a` at `x >= 3` without a reset and left to `c` only
/// at `x <= 2`: discretely `c` is two steps away, in time never.
const CLOCK_DECIDES: &str = r#"
template P() {
    clock x;
    init location a invariant x <= 5;
    location b invariant x <= 4;
    location c;
    a -> b when x >= 3;
    b -> c when x <= 2;
}

system P;

check reach_c: E<> P.c;
"#;

fn network(text: &str) -> zeno::ir::Network {
    let analysis = zeno::semantics::analyze(text);
    analysis
        .network
        .unwrap_or_else(|| panic!("{:?}", analysis.diagnostics))
}

/// The zone `lo <= x <= hi` of a network with one clock.
fn zone(lo: i32, hi: i32) -> Dbm {
    let mut z = Dbm::universe(2);
    assert!(z.constrain(1, 0, bound::raw(hi, false)));
    assert!(z.constrain(0, 1, bound::raw(-lo, false)));
    z
}

#[test]
fn a_clock_pattern_prunes_where_the_discrete_pattern_cannot() {
    let net = network(CLOCK_DECIDES);
    let goal = net.checks[0].kind.goal();
    let options = |clocks| checker::PdbOptions {
        selection_time: None,
        clocks,
        ..checker::PdbOptions::default()
    };
    let none = EdgeSet::none(&net);
    // Locations a, b, c are 0, 1, 2.
    let mut discrete = heuristics::pdb_database(&net, &goal, &none, &options(false));
    assert_eq!(discrete.clock_pattern(), None);
    assert_eq!(discrete.estimate(&[0], &[]), Some(2));
    assert_eq!(discrete.estimate_in_zone(&[0], &[], &zone(0, 5)), Some(2));
    assert_eq!(discrete.estimate_in_zone(&[1], &[], &zone(3, 4)), Some(1));
    // With x: the abstract zone graph is a [0, 5] -> b [3, 4] and stops (the
    // guard x <= 2 meets no valuation of b): no zone reaches c.
    let mut timed = heuristics::pdb_database(&net, &goal, &none, &options(true));
    assert_eq!(timed.clock_pattern(), Some((1, 0, 1, 2)));
    assert!(timed.zone_aware());
    assert_eq!(timed.estimate_in_zone(&[0], &[], &zone(0, 5)), None);
    assert_eq!(timed.estimate_in_zone(&[1], &[], &zone(3, 4)), None);
    // The discrete estimate is unchanged, and c itself is a goal.
    assert_eq!(timed.estimate(&[0], &[]), Some(2));

    // The search: BFS explores a and b; with the clock pattern the initial
    // state is pruned.
    let bfs = run(
        CLOCK_DECIDES,
        "reach_c",
        SearchOrder::Bfs,
        HeuristicKind::Zero,
    );
    assert_eq!(bfs.verdict, Verdict::Fails);
    assert_eq!(bfs.stats.explored, 2);
    let pdb = run(
        CLOCK_DECIDES,
        "reach_c",
        SearchOrder::AStar,
        HeuristicKind::Pdb,
    );
    assert_eq!(pdb.verdict, Verdict::Fails);
    assert_eq!(pdb.stats.explored, 2);
    let timed = run_with(
        CLOCK_DECIDES,
        "reach_c",
        SearchOrder::AStar,
        HeuristicKind::Pdb,
        true,
    );
    assert_eq!(timed.verdict, Verdict::Fails);
    assert_eq!(timed.stats.explored, 0);
    assert_eq!(timed.stats.pruned, 1);
}

#[test]
fn a_clock_pattern_proves_correct_fischer_safe_with_fewer_states_than_bfs() {
    let text = zeno::bench::families::fischer(3, false);
    let bfs = run(&text, "mutex", SearchOrder::Bfs, HeuristicKind::Zero);
    assert_eq!(bfs.verdict, Verdict::Holds);
    for search in [SearchOrder::AStar, SearchOrder::Greedy] {
        let discrete = run(&text, "mutex", search, HeuristicKind::Pdb);
        let timed = run_with(&text, "mutex", search, HeuristicKind::Pdb, true);
        eprintln!(
            "{search:?}: bfs explored {}, discrete pdb {}, clock pdb {} (pruned {})",
            bfs.stats.explored, discrete.stats.explored, timed.stats.explored, timed.stats.pruned
        );
        assert_eq!(discrete.verdict, Verdict::Holds);
        assert_eq!(timed.verdict, Verdict::Holds);
        assert!(timed.stats.pruned >= 1);
        assert!(timed.stats.explored < bfs.stats.explored);
        assert!(timed.stats.explored < discrete.stats.explored);
    }
}

/// A clock pattern sees a reset a function makes on some paths: `x` may be
/// reset by `f` (here it is: `m` is 1), so the abstract zone frees it and
/// `c` (x <= 2 at b) stays reachable; taking the reset for "never" would
/// make `c` unreachable in the abstraction.
#[test]
fn a_clock_pattern_frees_a_clock_a_function_may_reset() {
    let text = "clock x;\nint[0, 1] m;\nvoid f() { if (m == 1) x = 0; }\n\
        template P() { init location a invariant x <= 5; location b invariant x <= 4; location c;\n\
        a -> b when x >= 3 do m = 1, f();\nb -> c when x <= 2; }\nsystem P;\n\
        check reach_c: E<> P.c;\n";
    let bfs = run(text, "reach_c", SearchOrder::Bfs, HeuristicKind::Zero);
    assert_eq!(bfs.verdict, Verdict::Holds);
    let timed = run_with(
        text,
        "reach_c",
        SearchOrder::AStar,
        HeuristicKind::Pdb,
        true,
    );
    assert_eq!(timed.verdict, Verdict::Holds);
    // The table itself (the search above prunes nothing at an edge that
    // calls a function anyway): from a with x in [0, 5], c is two moves
    // away, as the abstract zone at b is x in [0, 4] once x is freed.
    let net = network(text);
    let goal = net.checks[0].kind.goal();
    let options = checker::PdbOptions {
        selection_time: None,
        clocks: true,
        ..checker::PdbOptions::default()
    };
    let mut table = heuristics::pdb_database(&net, &goal, &EdgeSet::none(&net), &options);
    assert!(table.zone_aware());
    assert_eq!(table.estimate_in_zone(&[0], &[0], &zone(0, 5)), Some(2));
}
