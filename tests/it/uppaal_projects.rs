//! UPPAAL projects as their users keep them (`tests/data/uppaal/`: a model
//! and its `.q` file beside it): `zeno check MODEL` finds the query file,
//! every query line and XML `<query>` is accounted for (a check with that
//! formula and name, or a query listed as not checked with its kind), and
//! the verdicts are the documented answers in each project's `EXPECTED`
//! (derived by hand in `tests/data/uppaal/README.md`).

use crate::support::cli::*;
use std::path::Path;

/// Every query of a `.q` file, found without zeno's reader: `(line, text)`
/// for each line that holds more than comments and blanks.
fn query_lines(text: &str) -> Vec<(usize, String)> {
    let mut code = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            let end = after.find("*/").map_or(after.len(), |i| i + 2);
            // Keep the comment's line breaks, so that lines still count.
            code.extend(after[..end].chars().filter(|&c| c == '\n'));
            rest = &after[end..];
        } else {
            let c = rest.chars().next().unwrap();
            code.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    code.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| (n + 1, l.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect()
}

/// Every `<formula>` of a UPPAAL XML file: `(line, text)`, entities decoded.
fn xml_formulas(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(n, l)| {
            let start = l.find("<formula>")? + "<formula>".len();
            let end = l.find("</formula>")?;
            let f = l[start..end]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            Some((n + 1, f))
        })
        .collect()
}

/// One line of `EXPECTED`: `FILE:LINE NAME VERDICT`.
struct Expected {
    file: String,
    line: usize,
    name: String,
    verdict: String,
}

fn expected(dir: &Path) -> Vec<Expected> {
    let text = std::fs::read_to_string(dir.join("EXPECTED")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.splitn(3, ' ');
            let (at, name, verdict) = (
                words.next().unwrap(),
                words.next().unwrap(),
                words.next().unwrap(),
            );
            let (file, line) = at.split_once(':').unwrap();
            Expected {
                file: file.to_string(),
                line: line.parse().unwrap(),
                name: name.to_string(),
                verdict: verdict.to_string(),
            }
        })
        .collect()
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn check_project(project: &str, model: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/uppaal")
        .join(project);
    let model_path = dir.join(model);
    let queries_path = model_path.with_extension("q");
    // Every query the files hold, found independently of zeno.
    let mut queries: Vec<(String, usize, String)> =
        query_lines(&std::fs::read_to_string(&queries_path).unwrap())
            .into_iter()
            .map(|(n, f)| (file_name(queries_path.to_str().unwrap()).to_string(), n, f))
            .collect();
    if model.ends_with(".xml") {
        queries.extend(
            xml_formulas(&std::fs::read_to_string(&model_path).unwrap())
                .into_iter()
                .map(|(n, f)| (model.to_string(), n, f)),
        );
    }
    let expected = expected(&dir);
    let mut listed: Vec<(String, usize)> =
        expected.iter().map(|e| (e.file.clone(), e.line)).collect();
    let mut found: Vec<(String, usize)> = queries.iter().map(|(f, n, _)| (f.clone(), *n)).collect();
    listed.sort();
    found.sort();
    assert_eq!(listed, found, "{project}: EXPECTED lists every query");

    let o = zeno(&["check", model_path.to_str().unwrap(), "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let report = &doc["files"][0];
    assert_eq!(
        report["query_files"][0]["beside_model"], true,
        "{project}: {report}"
    );
    let checks = report["checks"].as_array().unwrap();
    let not_checked = report["not_checked"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for e in &expected {
        let formula = &queries
            .iter()
            .find(|(f, n, _)| *f == e.file && *n == e.line)
            .unwrap()
            .2;
        let at = |v: &serde_json::Value, default: &str| {
            let path = v["path"].as_str().unwrap_or(default).to_string();
            file_name(&path) == e.file && v["range"]["start"]["line"] == e.line
        };
        let what = format!("{project}: {}:{} {}", e.file, e.line, e.name);
        if let Some(kind) = e.verdict.strip_prefix("not checked: ") {
            let n = not_checked
                .iter()
                .find(|n| at(n, ""))
                .unwrap_or_else(|| panic!("{what} is not listed as not checked: {report}"));
            assert_eq!(n["reason"], kind, "{what}");
            assert_eq!(n["name"], e.name.as_str(), "{what}");
            assert_eq!(n["formula"], formula.as_str(), "{what}");
        } else {
            let c = checks
                .iter()
                .find(|c| at(c, model))
                .unwrap_or_else(|| panic!("{what} is no check: {report}"));
            assert_eq!(c["name"], e.name.as_str(), "{what}");
            assert_eq!(c["formula"], formula.as_str(), "{what}");
            assert_eq!(c["verdict"], e.verdict.as_str(), "{what}: {}", c["summary"]);
        }
    }
    // Nothing more: as many checks and listed queries as expected lines.
    assert_eq!(
        checks.len() + not_checked.len(),
        expected.len(),
        "{project}"
    );
    // The verdicts set the exit code: a failing `E<>` is 1, and queries
    // for other engines change nothing.
    let fails = expected.iter().any(|e| e.verdict == "fails");
    assert_eq!(
        o.status.code(),
        Some(if fails { 1 } else { 0 }),
        "{project}"
    );
}

#[test]
fn fischer_xta_with_its_query_file() {
    check_project("fischer", "fischer.xta");
}

#[test]
fn train_gate_xml_with_its_query_file() {
    check_project("train-gate", "train-gate.xml");
}

#[test]
fn bridge_xml_with_its_query_file() {
    check_project("bridge", "bridge.xml");
}

#[test]
fn press_xta_lower_bounds_deadlock_in_liveness_and_values() {
    check_project("press", "press.xta");
    // The answers of the value queries (README.md, "press").
    let model = data_file("uppaal/press", "press.xta");
    let o = zeno(&["check", &model, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let summaries: Vec<&str> = doc["files"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["values"].is_array())
        .map(|c| c["summary"].as_str().unwrap())
        .collect();
    assert_eq!(
        summaries,
        ["inf: h >= 3", "sup: h <= 5, parts = 3"],
        "{doc}"
    );
}

#[test]
fn sarif_results_carry_the_formula_at_the_query_files_line() {
    let model = data_file("uppaal/fischer", "fischer.xta");
    let o = zeno(&["check", &model, "--format", "sarif"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("sarif");
    let results = doc["runs"][0]["results"].as_array().unwrap();
    // `E<> P(1).cs and P(2).cs` (line 16 of fischer.q) has no witness.
    let r = results
        .iter()
        .find(|r| r["ruleId"] == "no-witness")
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(r["properties"]["formula"], "E<> P(1).cs and P(2).cs");
    let at = &r["locations"][0]["physicalLocation"];
    assert!(
        at["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("fischer.q"),
        "{r}"
    );
    assert_eq!(at["region"]["startLine"], 16, "{r}");
    // The statistical query is a note at its line.
    let note = results
        .iter()
        .find(|r| r["ruleId"] == "query-not-symbolic")
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(note["level"], "note");
    assert_eq!(
        note["locations"][0]["physicalLocation"]["region"]["startLine"],
        32
    );
}

#[test]
fn the_query_file_beside_can_be_left_out() {
    let model = data_file("uppaal/fischer", "fischer.xta");
    let o = zeno(&["check", &model, "--no-queries-file"]);
    // XTA has no queries of its own: nothing to decide.
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("no checks to decide"), "{out}");
    assert!(!out.contains("queries from"), "{out}");
}

#[test]
fn several_query_files_and_the_one_beside_read_once() {
    let model = data_file("uppaal/fischer", "fischer.xta");
    let beside = data_file("uppaal/fischer", "fischer.q");
    let dir = scratch("uppaal-projects-queries");
    let extra = dir.join("extra.q");
    // `mutex` is taken by the file beside: the extra file's gets `mutex_2`.
    std::fs::write(&extra, "/* mutex */\nE<> P(2).cs\n").unwrap();
    let o = zeno(&[
        "check",
        &model,
        "--queries",
        &beside,
        "--queries",
        path(&extra),
        "--format",
        "json",
        "--check",
        "mutex",
        "--check",
        "mutex_2",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let files = doc["files"][0]["query_files"].as_array().unwrap();
    // The file beside, once (named again by --queries), then the extra one.
    assert_eq!(files.len(), 2, "{doc}");
    assert_eq!(files[0]["beside_model"], true);
    assert_eq!(files[1]["beside_model"], false);
    let checks = doc["files"][0]["checks"].as_array().unwrap();
    let names: Vec<&str> = checks.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, ["mutex", "mutex_2"], "{doc}");
    assert_eq!(checks[1]["formula"], "E<> P(2).cs");
    assert!(checks[1]["path"].as_str().unwrap().ends_with("extra.q"));
    assert_eq!(checks[1]["verdict"], "holds");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
