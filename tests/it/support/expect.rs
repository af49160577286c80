//! The expectation headers of the model files.
//!
//! Every model in `models/` and `tests/data/models/` states what its checks
//! should give, computed by hand, in comment lines of the form
//!
//! ```text
//! // expect <check-name>: holds|fails|model-error [shortest N]
//! ```
//!
//! `shortest N` is the least number of transitions of a counterexample or
//! witness (for `model-error`, the transitions taken before the failing one:
//! the trace's length). It is what breadth-first search and A* with an
//! admissible heuristic must find.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Holds,
    Fails,
    ModelError,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    pub check: String,
    pub verdict: Expected,
    pub shortest: Option<usize>,
}

/// The expectations stated in a model text, in order.
pub fn parse(text: &str) -> Result<Vec<Expectation>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line
            .trim()
            .strip_prefix("//")
            .and_then(|c| c.trim_start().strip_prefix("expect "))
        else {
            continue;
        };
        let bad = |why: &str| format!("line {}: {why}: `{}`", n + 1, line.trim());
        let (check, claim) = rest.split_once(':').ok_or_else(|| bad("no `:`"))?;
        let check = check.trim();
        if check.is_empty() || !check.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return Err(bad("bad check name"));
        }
        let words: Vec<&str> = claim.split_whitespace().collect();
        let verdict = match words.first() {
            Some(&"holds") => Expected::Holds,
            Some(&"fails") => Expected::Fails,
            Some(&"model-error") => Expected::ModelError,
            _ => return Err(bad("expected holds, fails or model-error")),
        };
        let shortest = match &words[1..] {
            [] => None,
            ["shortest", n] => Some(n.parse().map_err(|_| bad("bad length"))?),
            _ => return Err(bad("expected `shortest N` or nothing")),
        };
        out.push(Expectation {
            check: check.to_string(),
            verdict,
            shortest,
        });
    }
    Ok(out)
}

/// Every `.zeno` file of `models/` and `tests/data/models/`, sorted.
pub fn model_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["models", "tests/data/models"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "zeno") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Compares a checker's answer with an expectation. `verdict` and
/// `trace_len` come from a `CheckResult`; `shortest_order` says whether the
/// search order guarantees shortest traces (breadth-first, A* with an
/// admissible heuristic): then the length must be exactly `N`, otherwise at
/// least `N`.
pub fn compare(
    expected: &Expectation,
    verdict: &zeno::checker::Verdict,
    trace_len: Option<usize>,
    shortest_order: bool,
) -> Result<(), String> {
    use zeno::checker::Verdict;
    let name = &expected.check;
    let verdict_ok = match expected.verdict {
        Expected::Holds => matches!(verdict, Verdict::Holds),
        Expected::Fails => matches!(verdict, Verdict::Fails),
        Expected::ModelError => matches!(verdict, Verdict::ModelError(_)),
    };
    if !verdict_ok {
        return Err(format!(
            "check `{name}`: expected {:?}, got {verdict:?}",
            expected.verdict
        ));
    }
    let Some(n) = expected.shortest else {
        return Ok(());
    };
    match trace_len {
        None => Err(format!(
            "check `{name}`: expected a trace of length {n}, got none"
        )),
        Some(len) if shortest_order && len != n => Err(format!(
            "check `{name}`: expected a shortest trace of length {n}, got {len}"
        )),
        Some(len) if len < n => Err(format!(
            "check `{name}`: a trace of length {len} is shorter than the shortest, {n}"
        )),
        Some(_) => Ok(()),
    }
}
