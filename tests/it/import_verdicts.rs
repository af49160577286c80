//! The public UPPAAL/TChecker instances with a reference verdict (the
//! `EXPECTED.md` of the shared model directory): each is imported from its
//! UPPAAL XML and from its TChecker file (with the labels of the question),
//! checked under breadth-first search and under greedy search with `hU`; the
//! verdicts must match the reference, the two formats must agree, and every
//! trace must replay in the independent simulator.
//!
//! The largest instances (Fischer N = 8…10, mutex N = 3 with delay 2) take
//! minutes in the debug profile: they are in ignored tests, run with
//! `cargo test --release --test it -- --ignored import_verdicts::large`.

use crate::support;

use std::path::PathBuf;

use support::simulator;
use zeno::checker::{self, Cancel, HeuristicKind, Options, SearchOrder, Verdict};
use zeno::import::{ImportOptions, import};

/// The shared model directory; `None` (skip) when it is absent, except under
/// CI, where a missing directory is a failure. `ZENO_TICKTAC_DIR` overrides
/// the location.
fn models_dir() -> Option<PathBuf> {
    let dir = match std::env::var("ZENO_TICKTAC_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/models/ticktac"
        )),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} not found: the public models must be checked out beside the repository under CI",
        dir.display()
    );
    println!("note: {} not found; skipping", dir.display());
    None
}

/// The two search configurations the reference verdicts are checked under.
const BFS: (SearchOrder, HeuristicKind) = (SearchOrder::Bfs, HeuristicKind::Zero);
const GREEDY_HU: (SearchOrder, HeuristicKind) = (SearchOrder::Greedy, HeuristicKind::HU);

/// How the question appears in the UPPAAL file's first query.
#[derive(Clone, Copy)]
enum XmlQuery {
    /// `A[] not (X(i).L and X(j).L)`: holds exactly when the labels are unreachable.
    Safety,
    /// `E<> X.L and Y.L`: holds exactly when the labels are reachable.
    Reach,
}

/// One instance: its files (relative to the model directory), the TChecker
/// labels of the question, and the reference answer "reachable?".
struct Instance {
    /// `None` when the UPPAAL file is not the same model (see `mutex`).
    xml: Option<&'static str>,
    tck: &'static str,
    labels: &'static str,
    query: XmlQuery,
    reachable: bool,
}

/// Imports `rel`, lowers it and checks its first check under each
/// configuration; returns the verdicts, "holds" as `true`.
fn verdicts(
    dir: &std::path::Path,
    rel: &str,
    labels: &str,
    configs: &[(SearchOrder, HeuristicKind)],
    failures: &mut Vec<String>,
) -> Vec<Option<bool>> {
    let text = match std::fs::read_to_string(dir.join(rel)) {
        Ok(t) => t,
        Err(e) => {
            failures.push(format!("{rel}: {e}"));
            return vec![];
        }
    };
    let opts = ImportOptions {
        labels: labels
            .split(',')
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect(),
    };
    let imported = match import(rel, &text, &opts) {
        Ok(i) => i,
        Err(d) => {
            failures.push(format!("{rel}: import failed: {}", d[0]));
            return vec![];
        }
    };
    let analysis = zeno::semantics::analyze(&imported.zeno);
    let Some(network) = analysis.network.filter(|_| {
        !analysis
            .diagnostics
            .iter()
            .any(|d| d.severity == zeno::diagnostics::Severity::Error)
    }) else {
        failures.push(format!(
            "{rel}: imported text does not lower: {:?}",
            analysis.diagnostics
        ));
        return vec![];
    };
    if network.checks.is_empty() {
        failures.push(format!("{rel}: no check"));
        return vec![];
    }
    let mut out = Vec::new();
    for &(search, heuristic) in configs {
        let options = Options {
            config: zeno::checker::config::Config {
                search,
                heuristic,
                ..Default::default()
            },
            ..Options::default()
        };
        let result = checker::check(
            &network,
            network.check_at(0).unwrap(),
            &options,
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        let config = format!("{rel} {search:?}/{heuristic:?}");
        if std::env::var_os("SHOW_STATS").is_some() {
            println!(
                "{config}: {:?} explored {} stored {} in {:.2?}",
                result.verdict, result.stats.explored, result.stats.stored, result.stats.elapsed
            );
        }
        match &result.verdict {
            Verdict::Holds => out.push(Some(true)),
            Verdict::Fails => out.push(Some(false)),
            other => {
                failures.push(format!("{config}: no verdict: {other:?}"));
                out.push(None);
            }
        }
        if let Some(trace) = &result.trace
            && let Err(e) = simulator::replay(&network, 0, trace)
        {
            failures.push(format!("{config}: trace does not replay: {e}"));
        }
    }
    out
}

/// Checks every instance under every configuration and fails with the list
/// of disagreements.
fn run(instances: &[Instance], configs: &[(SearchOrder, HeuristicKind)]) {
    let Some(dir) = models_dir() else { return };
    let mut failures = Vec::new();
    for inst in instances {
        // TChecker: the imported `check labels: E<> ...` holds when reachable.
        let tck = verdicts(&dir, inst.tck, inst.labels, configs, &mut failures);
        let mut answers = vec![(inst.tck, tck.clone())];
        if let Some(xml_file) = inst.xml {
            // The UPPAAL query, read as an answer to "reachable?".
            let xml: Vec<Option<bool>> = verdicts(&dir, xml_file, "", configs, &mut failures)
                .into_iter()
                .map(|v| match inst.query {
                    XmlQuery::Safety => v.map(|holds| !holds),
                    XmlQuery::Reach => v,
                })
                .collect();
            if xml.len() == tck.len() && xml != tck {
                failures.push(format!(
                    "{xml_file} and {} disagree: {xml:?} vs {tck:?}",
                    inst.tck
                ));
            }
            answers.push((xml_file, xml));
        }
        for (file, answers) in &answers {
            for (answer, (search, heuristic)) in answers.iter().zip(configs) {
                if let Some(reachable) = answer
                    && *reachable != inst.reachable
                {
                    failures.push(format!(
                        "{file} {search:?}/{heuristic:?}: reachable = {reachable}, expected {}",
                        inst.reachable
                    ));
                }
            }
            if answers.len() != configs.len() {
                failures.push(format!("{file}: not every configuration ran"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn fischer(n: u32) -> Instance {
    // The file names are built from `n`; leak them to keep `Instance` plain.
    let xml: &'static str = Box::leak(format!("fischer/fischer_{n}_10_10.xml").into_boxed_str());
    let tck: &'static str = Box::leak(format!("fischer/fischer_{n}_10_10.tck").into_boxed_str());
    Instance {
        xml: Some(xml),
        tck,
        labels: "cs1,cs2",
        query: XmlQuery::Safety,
        reachable: false,
    }
}

#[test]
fn fischer_small() {
    let small: Vec<Instance> = (2..=7).map(fischer).collect();
    run(&small, &[BFS, GREEDY_HU]);
}

#[test]
#[ignore = "minutes in the debug profile: cargo test --release --test it -- --ignored import_verdicts::large"]
fn large_fischer() {
    let large: Vec<Instance> = (8..=10).map(fischer).collect();
    run(&large, &[BFS, GREEDY_HU]);
}

#[test]
#[ignore = "over a minute in the debug profile: cargo test --release --test it -- --ignored import_verdicts::large"]
fn large_mutex_three_delay_two() {
    run(
        &[mutex(
            "mutex/mutex_3_1_2_lab.tck",
            Some("mutex/mutex_3_1_2.xml"),
        )],
        &[BFS, GREEDY_HU],
    );
}

#[test]
fn arbiter_tree() {
    run(
        &[
            Instance {
                xml: Some("arbiter_tree/arbiter_tree_d2_N3.xml"),
                tck: "arbiter_tree/arbiter_tree_d2_N3_lab.tck",
                labels: "work1,work2",
                query: XmlQuery::Reach,
                reachable: true,
            },
            Instance {
                xml: Some("arbiter_tree/arbiter_tree_d3_N7.xml"),
                tck: "arbiter_tree/arbiter_tree_d3_N7_lab.tck",
                labels: "work1,work2",
                query: XmlQuery::Reach,
                reachable: true,
            },
        ],
        &[BFS, GREEDY_HU],
    );
}

/// Dierks' mutual exclusion. The TChecker generator writes a single round
/// (each `A` ends in `Done` after its critical section, the controller ends
/// in `Done` after granting every process once); the UPPAAL generator writes
/// the cyclic protocol (`Unsafe -> Safe`, the grant passed on forever).
/// With a mutex delay of 2 both are safe and the files are compared; with
/// delay 0 zeno finds the cyclic UPPAAL model unsafe (a different model,
/// so not the reference's question; see docs/import.md), and only the
/// TChecker file is checked against the reference.
fn mutex(tck: &'static str, xml: Option<&'static str>) -> Instance {
    Instance {
        xml,
        tck,
        labels: "unsafe1,unsafe2",
        query: XmlQuery::Safety,
        reachable: false,
    }
}

#[test]
fn mutex_two() {
    run(
        &[
            mutex("mutex/mutex_2_1_0_lab.tck", None),
            mutex("mutex/mutex_2_1_2_lab.tck", Some("mutex/mutex_2_1_2.xml")),
        ],
        &[BFS, GREEDY_HU],
    );
}

#[test]
fn mutex_three() {
    run(
        &[
            mutex("mutex/mutex_3_1_0_lab.tck", None),
            // mutex_3_1_2 is in `large_mutex_three_delay_two` (ignored).
        ],
        &[BFS, GREEDY_HU],
    );
}

/// Fig. 1 of Morbé et al. has only an UPPAAL version, with `A[] true`.
#[test]
fn fig1_holds() {
    let Some(dir) = models_dir() else { return };
    let mut failures = Vec::new();
    let rel = "fig1-Morbe_et_al-CAV2011/static/fig1-Morbe_et_al-CAV2011.xml";
    let answers = verdicts(&dir, rel, "", &[BFS, GREEDY_HU], &mut failures);
    assert_eq!(answers, [Some(true), Some(true)], "{failures:?}");
    assert!(failures.is_empty(), "{failures:?}");
}

/// The cyclic UPPAAL mutex with mutex delay 0 (see `mutex`): zeno finds the
/// `A[]` query violated, and the concrete counterexample must replay. Its
/// strict guards once made the trace's rationals grow until they overflowed
/// `i64`; now every value shares one small denominator.
#[test]
fn mutex_delay_zero_uppaal_counterexample() {
    let Some(dir) = models_dir() else { return };
    for name in ["mutex_2_1_0.xml", "mutex_3_1_0.xml"] {
        let text = std::fs::read_to_string(dir.join("mutex").join(name)).expect("readable");
        let imported = import(name, &text, &ImportOptions::default()).expect("imports");
        let network = zeno::semantics::analyze(&imported.zeno)
            .network
            .expect("lowers");
        let options = Options {
            config: zeno::checker::config::Config {
                search: SearchOrder::Bfs,
                ..Default::default()
            },
            ..Options::default()
        };
        let result = checker::check(
            &network,
            network.check_at(0).unwrap(),
            &options,
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        assert_eq!(result.verdict, Verdict::Fails, "{name}");
        let trace = result.trace.expect("a counterexample");
        simulator::replay(&network, 0, &trace).expect("the counterexample replays");
        // The construction bounds every denominator by steps + 2 (the
        // model has no broadcast channels).
        let bound = trace.steps.len() as i64 + 2;
        let largest = trace
            .steps
            .iter()
            .flat_map(|s| s.after.clocks.iter().chain([&s.delay]))
            .map(|q| *q.denom())
            .max()
            .unwrap_or(1);
        eprintln!(
            "{name}: {} steps, largest denominator {largest}",
            trace.steps.len()
        );
        assert!(largest <= bound, "{name}: denominator {largest} > {bound}");
    }
}

// ---- synchronisation vectors: the `sts` and `csmacd-full` families ----

/// Imports `rel`, appends `extra` checks to the zeno text, and runs every
/// check under BFS and greedy `hU`: both must give the same verdict and every
/// trace must replay. Returns the verdicts ("holds") and BFS explored counts.
fn agree(rel: &str, labels: &str, extra: &str) -> Vec<(String, bool, u64)> {
    let Some(dir) = models_dir() else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(dir.join(rel)).expect("readable model");
    let opts = ImportOptions {
        labels: labels
            .split(',')
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect(),
    };
    let imported = import(rel, &text, &opts).unwrap_or_else(|d| panic!("{rel}: {}", d[0]));
    let zeno = format!("{}\n{extra}\n", imported.zeno);
    let analysis = zeno::semantics::analyze(&zeno);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{rel}: {errors:?}");
    let network = analysis.network.expect("lowers");
    assert!(
        !network.vectors.is_empty(),
        "{rel}: no synchronisation vector"
    );
    let mut out = Vec::new();
    for (k, c) in network.checks.iter().enumerate() {
        let mut answers = Vec::new();
        for (search, heuristic) in [BFS, GREEDY_HU] {
            let options = Options {
                config: zeno::checker::config::Config {
                    search,
                    heuristic,
                    ..Default::default()
                },
                ..Options::default()
            };
            let r = checker::check(
                &network,
                network.check_at(k).unwrap(),
                &options,
                &Cancel::new(),
                &mut zeno::checker::no_progress,
            );
            let config = format!("{rel} {} {search:?}/{heuristic:?}", c.name);
            if std::env::var_os("SHOW_STATS").is_some() {
                println!(
                    "{config}: {:?} explored {} stored {} in {:.2?}",
                    r.verdict, r.stats.explored, r.stats.stored, r.stats.elapsed
                );
            }
            if let Some(t) = &r.trace {
                simulator::replay(&network, k, t)
                    .unwrap_or_else(|e| panic!("{config}: trace does not replay: {e}"));
            }
            let holds = match r.verdict {
                Verdict::Holds => true,
                Verdict::Fails => false,
                other => panic!("{config}: no verdict: {other:?}"),
            };
            answers.push((holds, r.stats.explored));
        }
        assert_eq!(
            answers[0].0, answers[1].0,
            "{rel} {}: BFS and greedy hU disagree",
            c.name
        );
        out.push((c.name.clone(), answers[0].0, answers[0].1));
    }
    out
}

/// The full CSMA/CD (a three-or-more-party `cd` vector), as a whole-space
/// exploration (`A[] true`) and a deadlock question, small N.
#[test]
fn csmacd_full_small() {
    for n in [2, 3] {
        let rel = format!("csmacd/csmacd-full_{n}_808_26_fix.tck");
        let answers = agree(
            &rel,
            "",
            "check explore: A[] true;\ncheck no_deadlock: A[] !deadlock;",
        );
        if answers.is_empty() {
            return;
        }
        assert!(answers[0].1, "{rel}: `A[] true` must hold");
    }
}

/// N = 8 for comparison with TChecker's 6,242 visited / 5,880 stored states
/// (EXPECTED.md): `SHOW_STATS=1 cargo test --release --test it --
/// --ignored import_verdicts::csmacd_full_eight --nocapture`.
#[test]
#[ignore = "large: cargo test --release --test it -- --ignored import_verdicts::csmacd_full_eight"]
fn csmacd_full_eight() {
    let answers = agree(
        "csmacd/csmacd-full_8_808_26_fix.tck",
        "",
        "check explore: A[] true;",
    );
    for (name, holds, explored) in answers {
        println!("{name}: holds {holds}, BFS explored {explored}");
    }
}

/// Single-track segment: the TChecker file (an n-ary `go` vector) and the
/// UPPAAL file ask the same question (are two `Go` locations reachable at
/// once?); EXPECTED.md has no reference verdict, so the two formats and the
/// two search orders must agree with each other.
fn sts_agree(n: u32) {
    let tck = agree(&format!("sts/sts_{n}_1_2_lab.tck"), "go1,go2", "");
    if tck.is_empty() {
        return;
    }
    let xml = verdicts(
        &models_dir().expect("present"),
        &format!("sts/sts_{n}_1_2.xml"),
        "",
        &[BFS, GREEDY_HU],
        &mut Vec::new(),
    );
    // The XML query is `A[] not (A(i).Go and A(j).Go)`: it holds exactly
    // when the labels are unreachable.
    let reachable = tck[0].1;
    assert_eq!(
        xml,
        [Some(!reachable), Some(!reachable)],
        "sts N = {n}: TChecker says reachable = {reachable}"
    );
}

/// About 3 minutes in release (1.8 million states per run); N = 3 does not
/// finish in 2 minutes per run.
#[test]
#[ignore = "large: cargo test --release --test it -- --ignored import_verdicts::sts"]
fn sts_two() {
    sts_agree(2);
}
