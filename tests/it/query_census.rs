//! The decided fraction of UPPAAL users' queries: `zeno check MODEL
//! --timeout 10` (which reads the `.q` file beside the model) on every
//! UPPAAL model (`.xml`, `.xta`) we hold, counting the symbolic query lines
//! that were read, became checks, were decided, and were refused (by
//! reason). Slow (seconds per model), so ignored in `cargo test`:
//!
//! ```sh
//! cargo test --release --test it query_census -- --ignored --nocapture
//! ZENO_CENSUS_DIRS=path/a:path/b cargo test …   # more folders
//! ZENO_BIN=target/release/zeno cargo test --test it query_census -- --ignored --nocapture
//! ```
//!
//! (`ZENO_BIN` runs another build of zeno, e.g. a release binary from a
//! debug test build.)
//!
//! The figures go into docs/import.md ("Queries answered"). The test fails
//! only where the harness cannot read zeno's answer (its JSON), never on a
//! fraction: the figures are a measure, not a verdict.

use crate::support::cli::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use zeno::import::{QueryOutcome, read_query_file};

/// The folders searched (recursively) for models by default.
const DEFAULT_DIRS: [&str; 3] = [
    "tests/data/uppaal",
    "tests/data/import/case",
    "../shared/models/ticktac",
];

fn models_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            models_under(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("xml" | "xta")) {
            out.push(p);
        }
    }
}

/// The symbolic queries of a model zeno could not read, counted without
/// it: the `.q` file's lines and the XML `<formula>`s, each classified by
/// the query reader (a statistical query is not counted).
fn symbolic_queries_of(model: &Path) -> usize {
    let symbolic = |text: &str| {
        read_query_file(text, &Default::default())
            .queries
            .iter()
            .filter(|q| !matches!(q.outcome, QueryOutcome::OtherEngine(_)))
            .count()
    };
    let mut n = std::fs::read_to_string(model.with_extension("q")).map_or(0, |t| symbolic(&t));
    if let Ok(text) = std::fs::read_to_string(model) {
        let mut rest = text.as_str();
        while let Some(start) = rest.find("<formula>") {
            let after = &rest[start + "<formula>".len()..];
            let end = after.find("</formula>").unwrap_or(after.len());
            let formula = after[..end]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
                .replace('\n', " ");
            n += symbolic(&formula);
            rest = &after[end..];
        }
    }
    n
}

/// A refusal's reason without its particulars (names, numbers in quotes),
/// so that the same reason counts once.
fn reason_class(message: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in message.chars() {
        match c {
            '`' if !in_code => {
                in_code = true;
                out.push_str("`…");
            }
            '`' => {
                in_code = false;
                out.push('`');
            }
            _ if in_code => {}
            _ => out.push(c),
        }
    }
    out.split(" (in ").next().unwrap_or(&out).to_string()
}

#[derive(Default)]
struct Census {
    models: usize,
    models_rejected: usize,
    read: usize,
    checked: usize,
    decided: usize,
    unknown: usize,
    other_engine: usize,
    verdicts: BTreeMap<String, usize>,
    refused: BTreeMap<String, usize>,
}

#[test]
#[ignore = "runs zeno for up to 10 s per query over every UPPAAL model held; run by hand"]
fn query_census() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<PathBuf> = DEFAULT_DIRS.iter().map(|d| root.join(d)).collect();
    if let Ok(more) = std::env::var("ZENO_CENSUS_DIRS") {
        dirs.extend(more.split(':').filter(|d| !d.is_empty()).map(PathBuf::from));
    }
    let bin = std::env::var("ZENO_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_zeno").to_string());
    let mut models = Vec::new();
    for d in &dirs {
        models_under(d, &mut models);
    }
    let mut c = Census::default();
    for model in &models {
        c.models += 1;
        let path = model.to_str().unwrap();
        let o = std::process::Command::new(&bin)
            .args(["check", path, "--timeout", "10", "--format", "json"])
            .env("NO_COLOR", "1")
            .output()
            .expect("spawn zeno");
        let doc: serde_json::Value = serde_json::from_str(&stdout(&o))
            .unwrap_or_else(|e| panic!("{path}: no JSON report ({e}): {}", stderr(&o)));
        let report = &doc["files"][0];
        let checks = report["checks"].as_array().cloned().unwrap_or_default();
        let not_checked = report["not_checked"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let first_error = report["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|d| d["severity"] == "error")
            .map(|d| d["message"].as_str().unwrap_or("").to_string());
        let short = path
            .strip_prefix(root.to_str().unwrap())
            .map_or(path, |p| p.trim_start_matches('/'));
        if checks.is_empty()
            && not_checked.is_empty()
            && let Some(e) = first_error
        {
            // The model itself was not read: every query it has is refused.
            let n = symbolic_queries_of(model);
            c.models_rejected += 1;
            c.read += n;
            *c.refused
                .entry(format!("model not read: {}", reason_class(&e)))
                .or_default() += n;
            println!("{short}: model not read ({n} symbolic queries): {e}");
            continue;
        }
        for check in &checks {
            c.read += 1;
            c.checked += 1;
            let verdict = check["verdict"].as_str().unwrap_or("?").to_string();
            if verdict == "unknown" {
                c.unknown += 1;
                println!(
                    "{short}: {} unknown: {}",
                    check["formula"].as_str().unwrap_or(""),
                    check["summary"].as_str().unwrap_or("")
                );
            } else {
                c.decided += 1;
            }
            *c.verdicts.entry(verdict).or_default() += 1;
        }
        for n in &not_checked {
            if n["reason"] == "error" {
                c.read += 1;
                let e = n["error"].as_str().unwrap_or("");
                *c.refused.entry(reason_class(e)).or_default() += 1;
                println!(
                    "{short}: {} refused: {e}",
                    n["formula"].as_str().unwrap_or("")
                );
            } else {
                c.other_engine += 1;
            }
        }
    }
    let pct = |n: usize| {
        if c.read == 0 {
            0.0
        } else {
            100.0 * n as f64 / c.read as f64
        }
    };
    println!();
    println!(
        "{} models ({} not read); {} symbolic queries read, {} checked ({:.0}%), {} decided ({:.0}%), \
         {} unknown; {} queries for other engines not counted",
        c.models,
        c.models_rejected,
        c.read,
        c.checked,
        pct(c.checked),
        c.decided,
        pct(c.decided),
        c.unknown,
        c.other_engine
    );
    println!("verdicts: {:?}", c.verdicts);
    let mut refused: Vec<_> = c.refused.iter().collect();
    refused.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (reason, n) in refused {
        println!("refused {n:4}: {reason}");
    }
    assert!(c.models > 0, "no model found under {dirs:?}");
}
