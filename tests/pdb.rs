//! The pattern database's pruning: a correct model proven safe with fewer
//! explored states than breadth-first search, and no pruning where a model
//! error could hide behind it.

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
    let analysis = zeno::semantics::analyze(text);
    let network = analysis
        .network
        .unwrap_or_else(|| panic!("{:?}", analysis.diagnostics));
    let index = network.checks.iter().position(|c| c.name == check).unwrap();
    let options = Options {
        search,
        heuristic,
        pdb: checker::PdbOptions {
            selection_time: None,
            ..checker::PdbOptions::default()
        },
        ..Options::default()
    };
    checker::check(&network, index, &options, &Cancel::new(), &mut |_| {})
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
