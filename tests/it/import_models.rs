//! Every public UPPAAL/TChecker model in the shared benchmark directory
//! imports, except those that need constructs zeno does not have.

use std::path::{Path, PathBuf};
use zeno::import::{ImportOptions, import};

fn models_dir() -> Option<PathBuf> {
    // `shared/` sits beside the repository; ZENO_TICKTAC_DIR overrides it.
    let dir = match std::env::var("ZENO_TICKTAC_DIR") {
        Ok(d) => PathBuf::from(d),
        Err(_) => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/models/ticktac"
        )),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} not found: the public models must be checked out beside the repository under CI",
            dir.display()
        );
        println!(
            "note: {} not found; skipping the public-model import test",
            dir.display()
        );
        None
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("xml" | "tck" | "xta")
        ) {
            out.push(p);
        }
    }
}

/// Models that legitimately fail, with a fragment of the expected error.
fn expected_failure(name: &str) -> Option<&'static str> {
    // The `sts` family and the `_fix` CSMA/CD files use synchronisation
    // vectors with three or more or weak participants: they import (as zeno
    // synchronisation vectors). Only the unfixed full CSMA/CD files fail.
    if name.starts_with("csmacd-full") && name.ends_with(".tck") && !name.ends_with("_fix.tck") {
        // `do:y:=0`, which TChecker rejects too (see EXPECTED.md).
        return Some("malformed attributes");
    }
    None
}

#[test]
fn public_models_import() {
    let Some(dir) = models_dir() else { return };
    let mut all = Vec::new();
    files(&dir, &mut all);
    all.sort();
    assert!(!all.is_empty());
    let mut failures = Vec::new();
    for p in &all {
        let name = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let text = std::fs::read_to_string(p).expect("readable model");
        let r = import(&name, &text, &ImportOptions::default());
        match (r, expected_failure(&name)) {
            (Ok(imp), None) => {
                // The output must be valid zeno syntax.
                let parse = zeno::syntax::parse(&imp.zeno);
                if let Some(e) = parse.errors().first() {
                    let at = imp.zeno.get(e.range.start as usize..).unwrap_or_default();
                    failures.push(format!(
                        "{name}: zeno syntax error `{}` at `{}`",
                        e.message,
                        at.lines().next().unwrap_or_default()
                    ));
                }
                if std::env::var("SHOW").is_ok_and(|s| name.contains(&s)) {
                    println!("== {name}\n{}", imp.zeno);
                    for w in &imp.warnings {
                        println!("  {w}");
                    }
                }
            }
            (Ok(_), Some(_)) => failures.push(format!("{name}: imported but expected to fail")),
            (Err(diags), Some(frag)) => {
                if !diags.iter().any(|d| d.message.contains(frag)) {
                    failures.push(format!("{name}: failed differently: {}", diags[0]));
                }
            }
            (Err(diags), None) => failures.push(format!(
                "{name}: {}",
                diags
                    .iter()
                    .filter(|d| d.is_error())
                    .take(3)
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(" | ")
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fischer_tchecker_labels_become_a_reachability_check() {
    let Some(dir) = models_dir() else { return };
    let text =
        std::fs::read_to_string(dir.join("fischer/fischer_2_10_10.tck")).expect("readable model");
    let opts = ImportOptions {
        labels: vec!["cs1".into(), "cs2".into()],
    };
    let imp = import("fischer_2_10_10.tck", &text, &opts).expect("imports");
    // `location:P1:cs{labels:cs1}` and `location:P2:cs{labels:cs2}`.
    assert!(
        imp.zeno.contains("check labels: E<> P1.cs && P2.cs;"),
        "{}",
        imp.zeno
    );
    // `edge:P1:wait:cs:tau{provided:x1>10&&id==1}`: tau is in no sync vector.
    assert!(
        imp.zeno.contains("wait -> cs when x1 > 10 && id == 1;"),
        "{}",
        imp.zeno
    );
    assert!(imp.zeno.contains("system P1, P2;"));
}

#[test]
fn fischer_xml_query_and_parameter() {
    let Some(dir) = models_dir() else { return };
    let text =
        std::fs::read_to_string(dir.join("fischer/fischer_2_10_10.xml")).expect("readable model");
    let imp = import("fischer_2_10_10.xml", &text, &ImportOptions::default()).expect("imports");
    assert!(
        imp.zeno.contains("template P(const pid_t pid) {"),
        "{}",
        imp.zeno
    );
    assert!(imp.zeno.contains("id_t id = 0;"));
    assert!(imp.zeno.contains("wait -> cs when x > k && id == pid;"));
    assert!(imp.zeno.contains(
        "check q1: A[] forall (i : pid_t) forall (j : pid_t) i != j imply !(P(i).cs && P(j).cs);"
    ));
    assert!(imp.zeno.contains("check q2: A[] !deadlock;"));
    assert!(imp.warnings.is_empty(), "{:?}", imp.warnings);
}

#[test]
fn imported_fischer_lowers_to_the_expected_network() {
    let Some(dir) = models_dir() else { return };
    let text =
        std::fs::read_to_string(dir.join("fischer/fischer_4_10_10.xml")).expect("readable model");
    let imp = import("fischer_4_10_10.xml", &text, &ImportOptions::default()).expect("imports");
    let net = zeno::semantics::analyze(&imp.zeno).network.expect("lowers");
    // `system P;` with `pid_t = int[1, N]`, N = 4: four instances of 4 locations.
    assert_eq!(net.processes.len(), 4);
    assert!(
        net.processes
            .iter()
            .all(|p| p.locations.len() == 4 && p.edges.len() == 5)
    );
    assert_eq!(net.checks.len(), 2);
    // One clock per process plus the reference clock.
    assert_eq!(net.clocks.len(), 5);
}
