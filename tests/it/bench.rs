//! The benchmark harness and its models: the generated families against
//! hand-checkable truths and against the ticktac suite's own instances, the
//! faulty mutex and single-track variants, and `zeno bench` on the command
//! line (rows and columns, never timings).
//!
//! The large faulty instances take minutes in the debug profile; they are
//! ignored tests: `cargo test --release --test it -- --ignored bench::`.

use crate::support;

use std::path::{Path, PathBuf};

use support::cli::{scratch, stderr, stdout, zeno};
use support::simulator;
use zeno::bench::{self, Limits, families};
use zeno::checker::{self, Cancel, Verdict};
use zeno::ir::Network;

fn network(text: &str) -> Network {
    let a = zeno::semantics::analyze(text);
    a.network
        .unwrap_or_else(|| panic!("does not analyse: {:?}", a.diagnostics))
}

fn generated(spec: &str) -> Network {
    let mut i = families::parse(spec).unwrap();
    assert_eq!(i.len(), 1);
    network(&i.pop().unwrap().text)
}

/// Runs check 0 under `config`; asserts the trace (if any) replays in the
/// independent simulator and returns the verdict and trace length.
fn run(net: &Network, config: &str) -> (Verdict, Option<usize>, u64) {
    let options = zeno::checker::config::parse(config).unwrap().options();
    let r = checker::check(
        net,
        net.check_at(0).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    if let Some(t) = &r.trace {
        simulator::replay(net, 0, t).unwrap_or_else(|e| panic!("{config}: {e}"));
    }
    (r.verdict, r.trace.map(|t| t.len()), r.stats.stored)
}

const CONFIGS: &[&str] = &[
    "bfs",
    "dfs",
    "greedy:hl",
    "greedy:hu",
    "astar:hl",
    "greedy:hl+ut",
    "bfs+ce",
    "greedy:du+ibp",
    "greedy:hl+lifo",
    "greedy:hl+ut+lifo",
    "astar:hl+lifo",
];

/// Configurations whose traces are shortest: BFS, and A* with the
/// admissible hL whatever its ties.
fn shortest_config(config: &str) -> bool {
    matches!(config, "bfs" | "astar:hl" | "astar:hl+lifo")
}

/// H_n is solved in 2^n - 1 moves at best (disk d must move 2^(n-d) times):
/// breadth-first search finds exactly that, and A* with hL too; every other
/// configuration agrees that the goal is reachable.
#[test]
fn hanoi_shortest_solution_is_two_to_the_n_minus_one() {
    for n in 1..=4u32 {
        let net = generated(&format!("hanoi:{n}"));
        let shortest = (1usize << n) - 1;
        for config in CONFIGS {
            let (verdict, len, _) = run(&net, config);
            assert_eq!(verdict, Verdict::Fails, "H{n} {config}");
            let len = len.expect("a counterexample");
            if shortest_config(config) {
                assert_eq!(len, shortest, "H{n} {config}");
            } else {
                assert!(len >= shortest, "H{n} {config}: {len}");
            }
        }
    }
}

/// The hL paper's Fischer variant B (goal: processes 1 and 2 in `cs`). Each
/// of the two must take `A -> req`, `req -> wait` and `wait -> cs`, so no
/// trace is shorter than 6; and 6 is reached: both request at time 0, process
/// 1 writes `id = 1` at 0 and enters at `x = K = 2` (the faulty `>=`), process
/// 2 writes `id = 2` at time 2 (still `x <= K` in `req`) and enters at 4. The
/// other processes never need to move, so the length does not grow with N.
/// Breadth-first search finds exactly 6, every configuration finds the
/// violation, and every trace replays.
#[test]
fn fischer_atg_shortest_violation_is_six_steps() {
    for n in 2..=4 {
        let net = generated(&format!("fischer-atg:{n}"));
        for config in CONFIGS {
            let (verdict, len, _) = run(&net, config);
            assert_eq!(verdict, Verdict::Fails, "F{n}B {config}");
            let len = len.expect("a counterexample");
            if shortest_config(config) {
                assert_eq!(len, 6, "F{n}B {config}");
            } else {
                assert!(len >= 6, "F{n}B {config}: {len}");
            }
        }
    }
}

/// The thesis' headline shape on Fischer variant B (Table 3.1), with
/// newest-first ties: greedy hL + UT is a perfect run for every N (the goal
/// is tested at generation, so a perfect run explores exactly the 6 states
/// before the goal on the 6-step shortest trace), while plain greedy hL
/// leaves that path and explores more, and more as N grows.
#[test]
fn fischer_atg_useless_transitions_keep_greedy_hl_flat() {
    let explored = |n: usize, config: &str| {
        let net = generated(&format!("fischer-atg:{n}"));
        let options = zeno::checker::config::parse(config).unwrap().options();
        let r = checker::check(
            &net,
            net.check_at(0).unwrap(),
            &options,
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        assert_eq!(r.verdict, Verdict::Fails, "F{n}B {config}");
        r.stats.explored
    };
    let plain: Vec<u64> = (3..=5).map(|n| explored(n, "greedy:hl+lifo")).collect();
    for (n, &p) in (3..=5).zip(&plain) {
        assert_eq!(explored(n, "greedy:hl+ut+lifo"), 6, "F{n}B");
        assert!(p > 6, "F{n}B plain greedy hL: {p}");
    }
    assert!(plain[0] < plain[1] && plain[1] < plain[2], "{plain:?}");
}

fn ticktac() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/models/ticktac");
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} not found",
            dir.display()
        );
        None
    }
}

/// The arbiter generator builds the same zone graph as the ticktac suite's
/// generator (independent text, templates per node there, parameterised
/// here): breadth-first search stores as many states and finds a trace as
/// long on both, for depths 2 and 3.
#[test]
fn arbiter_tree_matches_the_ticktac_instances() {
    let Some(dir) = ticktac() else { return };
    for (d, file) in [(2, "arbiter_tree_d2_N3.xml"), (3, "arbiter_tree_d3_N7.xml")] {
        let xml = std::fs::read_to_string(dir.join("arbiter_tree").join(file)).unwrap();
        let imported = zeno::import::import(file, &xml, &Default::default()).unwrap();
        let theirs = network(&imported.zeno);
        let ours = generated(&format!("arbiter:{d}"));
        let (v1, len1, stored1) = run(&theirs, "bfs");
        let (v2, len2, stored2) = run(&ours, "bfs");
        // ticktac's query is `E<>` both clients working; ours is its negation as `A[]`.
        assert_eq!((v1, v2), (Verdict::Holds, Verdict::Fails), "A{d}");
        assert_eq!(len1, len2, "A{d}");
        assert_eq!(stored1, stored2, "A{d}");
    }
}

fn benchmark_model(name: &str) -> Network {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models/benchmarks")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    network(&text)
}

/// Each faulty variant is its ticktac source, imported, with exactly the one
/// bound its header names raised: the file minus its header comment equals
/// the import with that one line changed.
#[test]
fn faulty_variants_differ_from_their_source_in_one_bound() {
    let Some(dir) = ticktac() else { return };
    for (file, source, location) in [
        ("mutex-faulty-2.zeno", "mutex/mutex_2_1_2.xml", "Safe"),
        ("mutex-faulty-3.zeno", "mutex/mutex_3_1_2.xml", "Safe"),
        ("sts-faulty-2.zeno", "sts/sts_2_1_2.xml", "Wait"),
        ("sts-faulty-3.zeno", "sts/sts_3_1_2.xml", "Wait"),
    ] {
        let xml = std::fs::read_to_string(dir.join(source)).unwrap();
        let imported = zeno::import::import(source, &xml, &Default::default())
            .unwrap()
            .zeno;
        let correct = format!("location {location} invariant z < CYCLE;");
        assert_eq!(imported.matches(&correct).count(), 1, "{file}");
        let expected = imported.replace(
            &correct,
            &format!("location {location} invariant z < 2; // faulty: was z < CYCLE (CYCLE = 1)"),
        );
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("models/benchmarks")
                .join(file),
        )
        .unwrap();
        let body: String = text
            .lines()
            .skip_while(|l| l.starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        // `zeno import` also formats (long edges broken over lines): compare
        // the token sequences.
        let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(words(&body), words(&expected), "{file}");
    }
}

/// The faulty mutual-exclusion protocol: breadth-first search finds the
/// violation with the length its header states, and the trace replays.
#[test]
fn mutex_faulty_2_fails() {
    let net = benchmark_model("mutex-faulty-2.zeno");
    assert_eq!(net.checks[0].name, "q1");
    let (verdict, len, _) = run(&net, "bfs");
    assert_eq!((verdict, len), (Verdict::Fails, Some(51)));
}

/// The shared-variable re-encoding keeps the protocol: with the faulty bound
/// restored, breadth-first search explores the whole zone graph and mutual
/// exclusion holds; with it, the violation has the same shortest length (51)
/// as in the ticktac encoding. Every configuration agrees, and its trace
/// replays in the independent simulator.
#[test]
fn mutex_shared_keeps_the_protocol_and_its_error() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/benchmarks/mutex-shared-faulty-2.zeno");
    let text = std::fs::read_to_string(path).unwrap();
    let faulty_bound = "location Safe invariant z < 2; // faulty: was z < CYCLE (CYCLE = 1)";
    assert_eq!(text.matches(faulty_bound).count(), 1);
    let correct = network(&text.replace(faulty_bound, "location Safe invariant z < CYCLE;"));
    assert_eq!(run(&correct, "bfs").0, Verdict::Holds);

    let net = network(&text);
    assert_eq!(net.checks[0].name, "q1");
    for config in CONFIGS
        .iter()
        .chain(&["bfs+ce", "greedy:hl+ce", "greedy:du+ce", "dfs+ce"])
    {
        let (verdict, len, _) = run(&net, config);
        assert_eq!(verdict, Verdict::Fails, "{config}");
        if shortest_config(config) {
            assert_eq!(len, Some(51), "{config}");
        }
    }
}

#[test]
#[ignore = "minutes in debug; run with --release"]
fn large_faulty_variants_fail() {
    for (file, config, len) in [
        ("mutex-faulty-3.zeno", "bfs", Some(58)),
        ("mutex-shared-faulty-3.zeno", "bfs", Some(58)),
        ("sts-faulty-2.zeno", "bfs", Some(35)),
        ("sts-faulty-3.zeno", "dfs", None),
    ] {
        let net = benchmark_model(file);
        let (verdict, found, _) = run(&net, config);
        assert_eq!(verdict, Verdict::Fails, "{file}");
        if len.is_some() {
            assert_eq!(found, len, "{file}");
        }
    }
}

/// The limits reach the checker: one explored state is not enough for H3.
#[test]
fn limits_stop_a_run() {
    let net = generated("hanoi:3");
    let config = zeno::checker::config::parse("bfs").unwrap();
    let limits = Limits {
        max_states: Some(1),
        timeout: None,
        threads: 1,
    };
    let row = bench::run(
        "H3",
        &net,
        net.check_at(0).unwrap(),
        &config,
        &limits,
        &Cancel::new(),
    );
    assert_eq!(row.verdict, "unknown (states)");
    assert_eq!(row.trace_length, None);
}

/// Markdown cells of the data rows (header and separator dropped).
fn cells(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn cli_prints_one_row_per_model_and_configuration() {
    let o = zeno(&[
        "bench",
        "--family",
        "hanoi:2..3",
        "--config",
        "bfs,greedy:hl",
        "--config",
        "bfs+ce",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let header: Vec<&str> = out
        .lines()
        .next()
        .unwrap()
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(
        &header[1..header.len() - 1],
        [
            "model",
            "check",
            "configuration",
            "verdict",
            "explored",
            "generated",
            "stored",
            "time (s)",
            "peak memory (KiB)",
            "trace",
            "#d",
            "#s",
            "pruned",
            "pushes per queue",
            "pops per queue",
            "threads"
        ]
    );
    let rows = cells(&out);
    let keys: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str(), r[2].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            ("H2", "solved", "bfs", "fails"),
            ("H2", "solved", "greedy:hl", "fails"),
            ("H2", "solved", "bfs+ce", "fails"),
            ("H3", "solved", "bfs", "fails"),
            ("H3", "solved", "greedy:hl", "fails"),
            ("H3", "solved", "bfs+ce", "fails"),
        ]
    );
    assert!(rows.iter().all(|r| r.len() == 16));
    // Sequential runs unless --threads says otherwise.
    assert!(rows.iter().all(|r| r[15] == "1"));
    // Trace lengths: 2^n - 1 under BFS.
    assert_eq!(rows[0][9], "3");
    assert_eq!(rows[3][9], "7");
    // Without an enhancement there is one queue, and #d is 0.
    assert_eq!(rows[0][10], "0.000");
    // No safe abstraction (#s `-`), no pattern database (nothing pruned).
    assert_eq!((rows[0][11].as_str(), rows[0][12].as_str()), ("-", "0"));
    assert!(rows[0][13].starts_with("q0:") && !rows[0][13].contains("q1"));
}

#[test]
fn cli_json_and_model_files() {
    let dir = scratch("bench-json");
    let model = dir.join("h2.zeno");
    std::fs::write(&model, &families::parse("hanoi:2").unwrap()[0].text).unwrap();
    let o = zeno(&[
        "bench",
        model.to_str().unwrap(),
        "--config",
        "astar:hl",
        "--format",
        "json",
        "--max-states",
        "1000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["model"], "h2");
    assert_eq!(rows[0]["config"], "astar:hl");
    assert_eq!(rows[0]["trace_length"], 3);
}

#[test]
fn cli_emit_writes_the_generated_models() {
    let dir = scratch("bench-emit");
    let o = zeno(&[
        "bench",
        "--family",
        "fischer:2",
        "--family",
        "arbiter:2",
        "--emit",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for name in ["F2.zeno", "A2.zeno"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(zeno::semantics::analyze(&text).network.is_some(), "{name}");
    }
}

#[test]
fn cli_bad_input_is_a_usage_error() {
    for (args, message) in [
        (
            &["bench", "--family", "hanoi:3", "--config", "bfs:hl"][..],
            "does not use a heuristic",
        ),
        (
            &["bench", "--family", "hanoi:3", "--config", "sideways"][..],
            "unknown search order",
        ),
        (
            &["bench", "--family", "towers:3"][..],
            "unknown family `towers`",
        ),
        (&["bench", "--family", "hanoi:99"][..], "from 1 to 20"),
        (&["bench"][..], "nothing to run"),
        (
            &["bench", "--family", "hanoi:2", "--timeout=-1"][..],
            "invalid --timeout",
        ),
        (
            &["bench", "--family", "hanoi:2", "--check", "nope"][..],
            "no check named `nope`",
        ),
        (&["bench", "no-such-file.zeno"][..], "no-such-file.zeno"),
    ] {
        let o = zeno(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

/// `zeno check --ties` reaches the search: on variant B of Fischer with
/// five processes, greedy hL explores 10 states with first-in first-out
/// ties and 166 with last-in first-out ones (the thesis' 179; see
/// docs/checker.md), both finding the violation.
#[test]
fn check_ties_flag_changes_the_greedy_order() {
    let dir = scratch("check-ties");
    let model = dir.join("f5b.zeno");
    std::fs::write(&model, &families::parse("fischer-atg:5").unwrap()[0].text).unwrap();
    let explored = |ties: &str| {
        let o = zeno(&[
            "check",
            model.to_str().unwrap(),
            "--search",
            "greedy",
            "--heuristic",
            "hl",
            "--ties",
            ties,
            "--format",
            "json",
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        v["files"][0]["checks"][0]["stats"]["explored"]
            .as_u64()
            .unwrap()
    };
    let (fifo, lifo) = (explored("fifo"), explored("lifo"));
    assert!(fifo < lifo, "fifo {fifo}, lifo {lifo}");
}

/// `zeno bench --summary` end to end on Fischer variant B with 2 and 3
/// processes under `bfs` and `bfs+ce` (one group, `bfs`), limited to 20
/// explored states: the figures are recomputed here from the JSON rows of
/// the same run, and BFS's trace is the hand-derived 6 steps (see
/// `fischer_atg_shortest_violation_is_six_steps`).
#[test]
fn cli_summary_averages_over_the_instances_every_configuration_solved() {
    let args = |format: &str| {
        let o = zeno(&[
            "bench",
            "--family",
            "fischer-atg:2,3",
            "--config",
            "bfs,bfs+ce",
            "--max-states",
            "20",
            "--summary",
            "--format",
            format,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let v: serde_json::Value = serde_json::from_str(&args("json")).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let row = |model: &str, config: &str| {
        rows.iter()
            .find(|r| r["model"] == model && r["config"] == config)
            .unwrap_or_else(|| panic!("no row {model} {config}"))
    };
    let solved = |r: &serde_json::Value| !r["verdict"].as_str().unwrap().starts_with("unknown");
    // The limit is what makes this test: BFS needs more than 20 states on
    // F3B, so only F2B is common to the group.
    let common: Vec<&str> = ["F2B", "F3B"]
        .into_iter()
        .filter(|m| solved(row(m, "bfs")) && solved(row(m, "bfs+ce")))
        .collect();
    assert_eq!(common, ["F2B"], "{rows:?}");
    assert!(solved(row("F3B", "bfs+ce")));

    let s = &v["summary"];
    assert_eq!(s["instances"], 2);
    let groups = s["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["group"], "bfs");
    assert_eq!(groups[0]["common"], serde_json::json!(["F2B/mutex"]));
    let configs = groups[0]["configs"].as_array().unwrap();
    let names: Vec<&str> = configs
        .iter()
        .map(|c| c["config"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bfs", "bfs+ce"]);
    for c in configs {
        let config = c["config"].as_str().unwrap();
        // One common instance: average = median = its row's figure.
        let explored = row("F2B", config)["explored"].as_f64().unwrap();
        assert_eq!(
            c["explored"]["average"].as_f64(),
            Some(explored),
            "{config}"
        );
        assert_eq!(c["explored"]["median"].as_f64(), Some(explored), "{config}");
    }
    assert_eq!(configs[0]["trace_length"]["average"].as_f64(), Some(6.0));
    assert_eq!(configs[0]["solved"], 1);
    assert_eq!(configs[1]["solved"], 2);

    // Markdown: the rows, a blank line, then one summary line per configuration.
    let out = args("markdown");
    let (table, summary) = out.split_once("\n\n").expect("a summary after the rows");
    assert_eq!(cells(table).len(), 4);
    let lines = cells(summary);
    assert_eq!(lines.len(), 2, "{summary}");
    assert!(summary.starts_with("| group | configuration | common |"));
    assert_eq!(lines[0][..3], ["bfs", "bfs", "1"]);
    assert_eq!(lines[0][7..], ["6.0", "6.0", "1/2"]);
    assert_eq!(lines[1][..2], ["bfs", "bfs+ce"]);
    assert_eq!(lines[1][9], "2/2");
}
