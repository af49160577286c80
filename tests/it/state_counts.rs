//! Explored, stored and generated states pinned under every search order
//! (breadth-first, depth-first, greedy hL, parallel breadth-first) and the
//! liveness checks, on the bundled models, the liveness test models and
//! small peer instances (`../shared/peer/models/`, skipped where absent).
//! The figures in `tests/data/state_counts.tsv` come from the checker as
//! it was before the searches shared one zone-graph step
//! (`checker/zone_graph.rs`) and before the store packed discrete parts
//! (`checker/packed_key.rs`): both changes must leave every count as it was.
//! The liveness rows of discrete formulas changed once since, on purpose,
//! when those checks began on Extra+_LU (docs/checker.md, "Leads-to at
//! scale"): their verdicts stayed, their counts are the new search's.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::cli::zeno;

/// One pinned row: the check's name, verdict, explored, stored, generated.
type Row = (String, String, u64, u64, u64);

#[test]
fn state_counts_are_those_of_the_checker_before_the_zone_graph_step() {
    let text = std::fs::read_to_string("tests/data/state_counts.tsv").expect("fixture");
    // (file, flags) -> the rows of its checks.
    let mut runs: BTreeMap<(String, String), Vec<Row>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "{line}");
        let n = |s: &str| s.parse::<u64>().expect("a count");
        runs.entry((f[0].into(), f[1].into())).or_default().push((
            f[2].into(),
            f[3].into(),
            n(f[4]),
            n(f[5]),
            n(f[6]),
        ));
    }
    assert!(runs.len() > 90, "{} runs", runs.len());
    let runs: Vec<_> = runs
        .into_iter()
        .filter(|((file, _), _)| !file.starts_with("../") || Path::new(file).exists())
        .collect();
    let mismatches: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = runs
            .chunks(runs.len().div_ceil(4))
            .map(|chunk| s.spawn(move || chunk.iter().flat_map(compare).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    });
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// Runs `zeno check` on one file with one set of flags and lists the
/// checks whose figures differ from the pinned `rows`.
fn compare(((file, flags), rows): &((String, String), Vec<Row>)) -> Vec<String> {
    let mut args = vec![
        "check",
        "--trace",
        "none",
        "--format",
        "json",
        "--max-states",
        "200000",
    ];
    args.extend(flags.split(' '));
    args.push(file);
    let out = zeno(&args);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{file} {flags}: {e}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let checks = json["files"][0]["checks"].as_array().expect("checks");
    let mut bad = Vec::new();
    for (name, verdict, explored, stored, generated) in rows {
        let Some(c) = checks.iter().find(|c| c["name"] == name.as_str()) else {
            bad.push(format!("{file} {flags}: no check {name}"));
            continue;
        };
        let s = &c["stats"];
        let got = (
            c["verdict"].as_str().unwrap_or("").to_string(),
            s["explored"].as_u64(),
            s["stored"].as_u64(),
            s["generated"].as_u64(),
        );
        let want = (
            verdict.clone(),
            Some(*explored),
            Some(*stored),
            Some(*generated),
        );
        if got != want {
            bad.push(format!("{file} {flags} {name}: {got:?}, pinned {want:?}"));
        }
    }
    bad
}
