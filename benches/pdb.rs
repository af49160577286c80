//! The pattern database heuristic against blind and other guided searches:
//! faulty and correct Fischer (built in ir), then the public TChecker models
//! that import (Fischer, Dierks' mutex, arbiter trees; `../shared/models/
//! ticktac`, or `ZENO_TICKTAC_DIR`). Prints a Markdown table: verdict,
//! explored states, states pruned by the pattern database, trace length,
//! search time, and for pdb the pattern-building time, the selected pattern
//! (processes + variable slots) and its abstract states; with `+clocks` also
//! the clock pattern (processes + variable slots + clocks) and its abstract
//! zone states.
//!
//! `cargo bench --bench pdb` (optionally `-- quick` for the smallest
//! instances; other arguments keep only the models whose name contains one).

#[path = "../tests/it/support/net.rs"]
#[allow(dead_code, clippy::new_without_default)]
mod net;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use zeno::checker::heuristics::{self, EdgeSet};
use zeno::checker::*;
use zeno::import::{ImportOptions, import};
use zeno::ir::Network;

fn ticktac_dir() -> Option<PathBuf> {
    let dir = match std::env::var("ZENO_TICKTAC_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/models/ticktac"
        )),
    };
    dir.is_dir().then_some(dir)
}

/// A TChecker model with the labels turned into a reachability check.
fn tck(dir: &std::path::Path, file: &str, labels: &[&str]) -> Option<Network> {
    let text = std::fs::read_to_string(dir.join(file)).ok()?;
    let opts = ImportOptions {
        labels: labels.iter().map(|l| l.to_string()).collect(),
    };
    let imported = import(file, &text, &opts).ok()?;
    zeno::semantics::analyze(&imported.zeno).network
}

/// A UPPAAL model; its first query becomes check 0.
fn xml(dir: &std::path::Path, file: &str) -> Option<Network> {
    let text = std::fs::read_to_string(dir.join(file)).ok()?;
    let imported = import(file, &text, &ImportOptions::default()).ok()?;
    zeno::semantics::analyze(&imported.zeno).network
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "quick" && !a.starts_with('-'))
        .collect();
    let mut models: Vec<(String, Network)> = Vec::new();
    let fischer_sizes: &[usize] = if quick { &[5] } else { &[5, 10] };
    for &n in fischer_sizes {
        models.push((format!("F{n} faulty"), net::fischer(n, 2, true)));
    }
    let correct_sizes: &[usize] = if quick { &[4] } else { &[4, 5, 6] };
    for &n in correct_sizes {
        models.push((format!("F{n} correct"), net::fischer(n, 2, false)));
    }
    if let Some(dir) = ticktac_dir() {
        let mut files: Vec<(&str, &[&str])> = vec![
            ("fischer/fischer_4_10_10.tck", &["cs1", "cs2"]),
            ("mutex/mutex_2_1_0_lab.tck", &["unsafe1", "unsafe2"]),
            ("mutex/mutex_2_1_2_lab.tck", &["unsafe1", "unsafe2"]),
            (
                "arbiter_tree/arbiter_tree_d2_N3_lab.tck",
                &["work1", "work2"],
            ),
        ];
        if !quick {
            files.extend([
                ("fischer/fischer_6_10_10.tck", &["cs1", "cs2"][..]),
                ("mutex/mutex_3_1_0_lab.tck", &["unsafe1", "unsafe2"][..]),
                ("mutex/mutex_3_1_2_lab.tck", &["unsafe1", "unsafe2"][..]),
                (
                    "arbiter_tree/arbiter_tree_d3_N7_lab.tck",
                    &["work1", "work2"][..],
                ),
            ]);
        }
        for (file, labels) in files {
            match tck(&dir, file, labels) {
                Some(net) => models.push((file.to_string(), net)),
                None => eprintln!("{file}: does not import"),
            }
        }
        // The single-track line segment (the paper's C/D/E family, correct
        // here); its TChecker files do not import, the UPPAAL ones do.
        let sts: &[&str] = if quick {
            &[]
        } else {
            &["sts/sts_2_1_2.xml", "sts/sts_3_1_2.xml"]
        };
        for file in sts {
            match xml(&dir, file) {
                Some(net) => models.push((file.to_string(), net)),
                None => eprintln!("{file}: does not import"),
            }
        }
    } else {
        eprintln!("public models not found: only the built-in Fischer instances");
    }
    use HeuristicKind::*;
    use SearchOrder::{AStar, Bfs, Greedy};
    let configs = [
        ("BFS", Bfs, Zero, false),
        ("A* hL", AStar, HL, false),
        ("A* pdb", AStar, Pdb, false),
        ("A* pdb+clocks", AStar, Pdb, true),
        ("greedy hU", Greedy, HU, false),
        ("greedy pdb", Greedy, Pdb, false),
    ];
    println!(
        "| model | configuration | verdict | explored | pruned | trace | search (s) | pdb build (s) | pattern (procs + vars) | abstract states |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---|---:|");
    models.retain(|(name, _)| {
        filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
    });
    for (model, net) in &models {
        let Some(check) = net.checks.first() else {
            continue;
        };
        let goal = check.kind.goal();
        for (name, search, heuristic, clocks) in configs {
            let options = Options {
                config: zeno::checker::config::Config {
                    search,
                    heuristic,
                    ..Default::default()
                },
                timeout: Some(Duration::from_secs(60)),
                max_states: Some(5_000_000),
                pdb: PdbOptions {
                    clocks,
                    ..PdbOptions::default()
                },
                ..Options::default()
            };
            let (r, build) = if heuristic == Pdb {
                let start = Instant::now();
                let mut db =
                    heuristics::pdb_database(net, &goal, &EdgeSet::none(net), &options.pdb);
                let built = start.elapsed();
                let (procs, vars) = db.pattern_size();
                let (timed_pattern, zone_states) = match db.clock_pattern() {
                    Some((p, v, c, n)) => (
                        format!("; clocks: {p} + {v} + {c}"),
                        format!(" + {n} zones"),
                    ),
                    None if clocks => ("; clocks: none fits".to_string(), String::new()),
                    None => (String::new(), String::new()),
                };
                let info = format!(
                    "{:.2} | {procs} + {vars} of {} + {}{timed_pattern} | {}{zone_states}",
                    built.as_secs_f64(),
                    net.processes.len(),
                    net.variables.len(),
                    db.abstract_states()
                );
                let r = check_with_heuristic(
                    net,
                    net.check_at(0).expect("a check"),
                    &options,
                    Some(&mut db),
                    &Cancel::new(),
                    &mut |_| {},
                );
                (r, info)
            } else {
                let r = zeno::checker::check(
                    net,
                    net.check_at(0).expect("a check"),
                    &options,
                    &Cancel::new(),
                    &mut |_| {},
                );
                (r, "- | - | -".to_string())
            };
            let s = &r.stats;
            println!(
                "| {model} | {name} | {:?} | {} | {} | {} | {:.2} | {build} |",
                r.verdict,
                s.explored,
                s.pruned,
                r.trace
                    .as_ref()
                    .map_or("-".to_string(), |t| t.len().to_string()),
                s.elapsed.as_secs_f64(),
            );
        }
    }
}
