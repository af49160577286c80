//! `zeno import`, `zeno export`, and `zeno check` on UPPAAL and TChecker
//! files, end to end. The fixtures in `tests/data/import` are small
//! hand-written models whose verdicts are evident from their text.

use crate::support;

use std::path::Path;

use support::cli::*;

fn data(name: &str) -> String {
    data_file("import", name)
}

// ---- zeno import ----

#[test]
fn import_tchecker_with_labels_prints_the_reachability_check() {
    let o = zeno(&["import", &data("handshake.tck"), "--labels", "p_met,q_met"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // `sync:P@a:Q@a`: the first participant sends.
    assert!(out.contains("sync a!"), "{out}");
    assert!(out.contains("sync a?"), "{out}");
    assert!(out.contains("check labels: E<> P.met && Q.met;"), "{out}");
    // The output is already formatted.
    assert_eq!(zeno::fmt::format(&out).as_deref(), Ok(out.as_str()));
}

#[test]
fn import_writes_the_output_file() {
    let dir = scratch("cli-import-out");
    let out = dir.join("lock.zeno");
    let o = zeno(&["import", &data("lock.xml"), "-o", path(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(
        text.contains("check mutex: A[] !(P1.busy && P2.busy);"),
        "{text}"
    );
    // The written file is an ordinary zeno model: `lock` keeps one process
    // out of `busy` while the other is there.
    let o = zeno(&["check", path(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("mutex: holds"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn truncated_xml_is_a_located_error() {
    let o = zeno(&["import", &data("truncated.xml")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    // The file is cut inside `x &gt;= 1` on line 17.
    assert!(err.contains("error: unexpected end of the file"), "{err}");
    assert!(err.contains("truncated.xml:17:"), "{err}");
    assert_eq!(stdout(&o), "");
}

#[test]
fn unknown_format_is_an_error() {
    let o = zeno(&["import", &data("notes.txt")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot tell the format"), "{err}");
    assert!(err.contains("notes.txt:1:1"), "{err}");
}

#[test]
fn missing_file_is_an_error() {
    let o = zeno(&["import", &data("missing.xml")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

// ---- zeno check on foreign files ----

#[test]
fn check_tchecker_labels_reachable_and_unreachable() {
    // P meets Q on `a` after 2 time units: both `met` locations together.
    let o = zeno(&["check", &data("handshake.tck"), "--labels", "p_met,q_met"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("handshake.tck\n"), "{out}");
    assert!(out.contains("labels: holds — witness of 1 step"), "{out}");
    assert!(
        out.contains("P: start -> met (a!), Q: wait -> met (a?)"),
        "{out}"
    );
    // `gave_up` (label `never`) is only entered without meeting Q.
    let o = zeno(&["check", &data("handshake.tck"), "--labels", "never,q_met"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("labels: fails — no reachable state satisfies it"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_unknown_label_is_a_located_error() {
    let o = zeno(&["check", &data("handshake.tck"), "--labels", "nowhere"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nowhere"), "{}", stderr(&o));
}

#[test]
fn check_uppaal_xml_directly() {
    let o = zeno(&["check", &data("lock.xml"), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let file = &v["files"][0];
    // Reports name the file the user gave, not the imported text.
    assert!(
        file["path"]
            .as_str()
            .is_some_and(|p| p.ends_with("lock.xml")),
        "{v}"
    );
    assert_eq!(file["checks"][0]["name"], "mutex");
    assert_eq!(file["checks"][0]["verdict"], "holds");
}

#[test]
fn format_is_recognised_by_content() {
    let dir = scratch("cli-import-content");
    let m = dir.join("lock.model");
    std::fs::copy(data("lock.xml"), &m).expect("copy");
    let o = zeno(&["check", path(&m)]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("mutex: holds"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 1-based line and column (in characters) where `needle` starts in
/// `text`, which must hold it exactly once: the place a diagnostic about it
/// should point at, worked out from the fixture itself.
fn position_of(text: &str, needle: &str) -> (usize, usize) {
    assert_eq!(
        text.matches(needle).count(),
        1,
        "`{needle}` once in the fixture"
    );
    let at = text.find(needle).expect("found");
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (
        text[..at].matches('\n').count() + 1,
        text[line_start..at].chars().count() + 1,
    )
}

#[test]
fn semantic_errors_in_imported_text_point_into_the_file() {
    let o = zeno(&["check", &data("undeclared.xml")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("unknown name `lokc`"), "{err}");
    assert!(
        err.contains("in the guard of an edge of template P, from idle to busy"),
        "{err}"
    );
    // At the name in the XML, not in the imported text: no note needed.
    let xml = std::fs::read_to_string(data("undeclared.xml")).unwrap();
    let (line, col) = position_of(&xml, "lokc");
    assert!(
        err.contains(&format!("undeclared.xml:{line}:{col}")),
        "{err}"
    );
    assert!(!err.contains("(imported)"), "{err}");
    assert!(!err.contains("was imported from"), "{err}");
}

/// `srcmap.xml` and `srcmap.xta` have the same errors: an unknown name on
/// the 3rd line of the global declarations, an unused variable in the
/// template's declarations, an unknown name in an assignment and a channel
/// used as a value in a guard (the XML also a type error in a query).
fn assert_located_in(file: &str, query: bool) {
    let o = zeno(&["check", &data(file)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    let text = std::fs::read_to_string(data(file)).unwrap();
    let at = |needle: &str| {
        let (line, col) = position_of(&text, needle);
        format!("{file}:{line}:{col}")
    };
    let expect = |message: &str, place: String| {
        let i = err
            .find(message)
            .unwrap_or_else(|| panic!("`{message}` in\n{err}"));
        // codespan prints the location on the line after the message.
        let after = &err[i..];
        let next = after.lines().nth(1).unwrap_or_default();
        assert!(next.ends_with(&place), "`{message}` at {place}:\n{err}");
    };
    expect(
        "unknown name `nosuch` (in the global declarations)",
        at("nosuch"),
    );
    expect(
        "variable `spare` is never used (in the declarations of template Train)",
        at("spare"),
    );
    expect(
        "unknown name `missing` (in the assignment of an edge of template Train, from Far to Appr)",
        at("missing"),
    );
    let guard = if query { "appr &gt; 0" } else { "appr > 0" };
    expect(
        "cannot be used as a value (in the guard of an edge of template Train, from Appr to Cross)",
        at(guard),
    );
    if query {
        expect(
            "(in the formula of the query checked as `cross`)",
            at("Train.Cross"),
        );
    }
    assert!(!err.contains("(imported)"), "{err}");
}

#[test]
fn xml_diagnostics_are_located_in_the_xml() {
    assert_located_in("srcmap.xml", true);
    // The 3rd line of the global declarations is the file's 5th.
    let err = stderr(&zeno(&["check", &data("srcmap.xml")]));
    assert!(err.contains("srcmap.xml:5:18"), "{err}");
}

#[test]
fn xta_diagnostics_are_located_in_the_xta() {
    assert_located_in("srcmap.xta", false);
}

#[test]
fn a_model_error_in_an_imported_file_is_located_at_its_transitions_label() {
    let xml = r#"<nta>
  <declaration>int lock = 0;
int a[2];</declaration>
  <template>
    <name>P</name>
    <location id="id0"><name>idle</name></location>
    <location id="id1"><name>busy</name></location>
    <init ref="id0"/>
    <transition>
      <source ref="id0"/><target ref="id1"/>
      <label kind="assignment">lock := lock + 1, a[lock + 1] := 1</label>
    </transition>
  </template>
  <system>system P;</system>
  <queries>
    <query><formula>A[] not P.busy</formula></query>
  </queries>
</nta>
"#;
    let dir = scratch("cli-import-model-error");
    let m = dir.join("index.xml");
    std::fs::write(&m, xml).unwrap();
    let o = zeno(&["check", path(&m), "--trace", "full"]);
    let out = stdout(&o);
    assert!(out.contains("out of bounds"), "{out}");
    // The edge is shown at its first label, the assignment.
    let (line, col) = position_of(xml, "lock := lock + 1");
    assert!(
        out.contains(&format!("index.xml:{line}:{col}: idle -> busy")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_diagnostics_of_an_imported_file_are_in_its_coordinates() {
    let o = zeno(&["check", &data("srcmap.xml"), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let diags = v["files"][0]["diagnostics"]
        .as_array()
        .expect("diagnostics");
    let text = std::fs::read_to_string(data("srcmap.xml")).unwrap();
    let (line, col) = position_of(&text, "missing");
    let d = diags
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("`missing`"))
        .expect("the unknown name is reported");
    assert_eq!(d["range"]["start"]["line"], line);
    assert_eq!(d["range"]["start"]["column"], col);
    assert!(d.get("in_imported_text").is_none(), "{d}");
}

#[test]
fn labels_on_zeno_text_are_an_error() {
    let dir = scratch("cli-import-labels");
    let m = dir.join("m.zeno");
    std::fs::write(
        &m,
        "template P() { init location a; }\nsystem P;\ncheck c: A[] true;\n",
    )
    .expect("write");
    let o = zeno(&["check", path(&m), "--labels", "a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--labels applies to TChecker models"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- zeno export ----

#[test]
fn export_tchecker_round_trip_keeps_the_verdict() {
    let dir = scratch("cli-import-export-tck");
    let tck = dir.join("lock.tck");
    let o = zeno(&[
        "export",
        "--to",
        "tchecker",
        &data("lock.xml"),
        "-o",
        path(&tck),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&tck).expect("written");
    assert!(text.contains("system:lock"), "{text}");
    // `A[] !(P1.busy && P2.busy)` becomes the labels `mutex_1`, `mutex_2`
    // on the two `busy` locations, with the question in a comment.
    assert!(text.contains("labels:mutex_1"), "{text}");
    assert!(text.contains("tck-reach -l mutex_1,mutex_2"), "{text}");
    // Unreachable together, as the original `A[]` holds.
    let o = zeno(&["check", path(&tck), "--labels", "mutex_1,mutex_2"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("labels: fails — no reachable state satisfies it"),
        "{}",
        stdout(&o)
    );
    // Export → import → export: the re-imported check is named `labels`,
    // so the labels become `labels_1`, `labels_2`; from then on the text
    // is stable.
    let tck2 = dir.join("lock2.tck");
    let export = |from: &Path, labels: &str, to: &Path| {
        let o = zeno(&[
            "export",
            "--to",
            "tchecker",
            path(from),
            "--labels",
            labels,
            "-o",
            path(to),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read_to_string(to).expect("written")
    };
    // Comments and the system name (from the file name) aside.
    let body = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("system:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let text2 = export(&tck, "mutex_1,mutex_2", &tck2);
    assert_eq!(body(&text2), body(&text).replace("mutex_", "labels_"));
    let text3 = export(&tck2, "labels_1,labels_2", &dir.join("lock3.tck"));
    assert_eq!(body(&text3), body(&text2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_xta_writes_the_query_file_beside() {
    let dir = scratch("cli-import-export-xta");
    let xta = dir.join("lock.xta");
    let o = zeno(&["export", "--to", "xta", &data("lock.xml"), "-o", path(&xta)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let q = std::fs::read_to_string(dir.join("lock.q")).expect("query file");
    assert!(q.contains("A[]"), "{q}");
    assert!(q.contains("P1.busy && P2.busy"), "{q}");
    // The XTA text imports and its model checks (XTA has no queries: the
    // imported text has no check, so there is nothing to decide).
    let o = zeno(&["import", path(&xta)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("system P1, P2;"), "{text}");
    assert!(
        text.contains("location busy invariant P1_x <= 2;"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_to_stdout_and_errors() {
    let o = zeno(&["export", "--to", "xta", &data("lock.xml")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("system P1, P2;"), "{}", stdout(&o));
    // The queries follow as comments on stdout.
    assert!(stdout(&o).contains("// A[]"), "{}", stdout(&o));
    let o = zeno(&["export", "--to", "tchecker", &data("truncated.xml")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("truncated.xml:17:"), "{}", stderr(&o));
}

// ---- import warnings in machine-readable output ----

#[test]
fn import_warnings_and_refused_queries_are_in_json_and_sarif() {
    // indexed.xml with a `testcode` label (ignored with a warning) and a
    // second query that does not parse: `A[] P(1).done and`.
    let xml = std::fs::read_to_string(data("indexed.xml"))
        .unwrap()
        .replace(
            "<label kind=\"assignment\">",
            "<label kind=\"testcode\">t();</label><label kind=\"assignment\">",
        )
        .replace("Pr[&lt;=1](&lt;&gt; true)", "A[] P(1).done and");
    let dir = scratch("cli-import-json-warnings");
    let file = dir.join("indexed.xml");
    std::fs::write(&file, &xml).unwrap();
    let o = zeno(&["check", path(&file), "--format", "json"]);
    // The refused query is an input error: exit 2, the other query decided.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let w = &v["files"][0]["import_warnings"][0];
    assert_eq!(w["severity"], "warning", "{v}");
    assert!(
        w["message"]
            .as_str()
            .is_some_and(|m| m.contains("test code")),
        "{v}"
    );
    let (line, col) = position_of(&xml, "<label kind=\"testcode\">");
    assert_eq!(w["range"]["start"]["line"], line, "{v}");
    assert_eq!(w["range"]["start"]["column"], col, "{v}");
    let check = &v["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "holds", "{v}");
    assert_eq!(check["name"], "both", "{v}");
    assert_eq!(check["formula"], "E<> P(1).done and P(2).done", "{v}");
    // The refused query: not checked, an error at the end of its formula
    // (where an operand is missing), with its name from the comment.
    let refused = &v["files"][0]["not_checked"][0];
    assert_eq!(refused["name"], "bound", "{v}");
    assert_eq!(refused["reason"], "error", "{v}");
    assert_eq!(refused["formula"], "A[] P(1).done and", "{v}");
    let (line, col) = position_of(&xml, "A[] P(1).done and");
    assert_eq!(refused["range"]["start"]["line"], line, "{v}");
    assert_eq!(
        refused["range"]["start"]["column"],
        col + "A[] P(1).done and".len(),
        "{v}"
    );

    let o = zeno(&["check", path(&file), "--format", "sarif"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("sarif");
    let results = v["runs"][0]["results"].as_array().expect("results");
    assert!(
        results.iter().any(|r| r["level"] == "warning"
            && r["message"]["text"]
                .as_str()
                .is_some_and(|m| m.contains("test code"))),
        "{v}"
    );
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "query-refused" && r["level"] == "error"),
        "{v}"
    );
}

// ---- synchronisation vectors ----

#[test]
fn check_tchecker_vector_with_a_weak_participant() {
    // `sync:P@a:Q@a:R@w?`: one step moves all three (R can join, so it does).
    let o = zeno(&["check", &data("vector.tck"), "--labels", "done,seen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("labels: holds — witness of 1 step"), "{out}");
    assert!(
        out.contains("P: l0 -> l1 (a), Q: l0 -> l1 (a), R: l0 -> l1 (w)"),
        "{out}"
    );
    let o = zeno(&["import", &data("vector.tck")]);
    assert!(
        stdout(&o).contains("sync P.a, Q.a, R.w?;"),
        "{}",
        stdout(&o)
    );
    // UPPAAL has no vectors: the XTA exporter names the vector it refuses.
    let o = zeno(&["export", "--to", "xta", &data("vector.tck")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`sync P.a, Q.a, R.w?;` cannot be exported to XTA"),
        "{}",
        stderr(&o)
    );
}

/// Statistical parts of a UPPAAL model (exponential rates, `simulate` and
/// `Pr` queries with `#`) and the `progress` and `gantt` sections are
/// skipped with a warning each; the symbolic queries are still decided.
#[test]
fn statistical_parts_are_skipped_with_warnings() {
    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<nta>
<declaration>int x = 0;</declaration>
<template><name>P</name>
<location id="a"><name>a</name><label kind="exponentialrate">2</label></location>
<location id="b"><name>b</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">x = 1</label></transition>
</template>
<system>system P;
progress { x; }
gantt {
  G: P.a -> 1;
}
</system>
<queries>
<query><formula>simulate [&lt;=100] {x}</formula></query>
<query><formula>Pr[#&lt;=10](&lt;&gt; P.b)</formula></query>
<query><formula>E&lt;&gt; P.b</formula></query>
</queries>
</nta>
"#;
    let dir = scratch("statistical-parts");
    let file = dir.join("smc.xml");
    std::fs::write(&file, xml).unwrap();
    let o = zeno(&["check", path(&file)]);
    let err = stderr(&o);
    // Queries for the statistical engine are listed as not checked, with
    // their place, and change no exit code.
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("warning: exponential rate ignored"), "{err}");
    let out = stdout(&o);
    assert!(
        out.contains(
            "  q1: not checked: statistical query (`simulate`)\n    simulate [<=100] {x}   at "
        ),
        "{out}"
    );
    assert!(
        out.contains("  q2: not checked: statistical query (`Pr`)\n"),
        "{out}"
    );
    assert!(!err.contains("statistical query"), "{err}");
    assert!(err.contains("`progress` section ignored"), "{err}");
    assert!(err.contains("`gantt` section ignored"), "{err}");
    // The third query, `E<> P.b`, is decided: `a -> b` is always enabled.
    assert!(
        stdout(&o).contains("q3: holds — witness of 1 step"),
        "{}",
        stdout(&o)
    );
}

/// Writes `text` as `name` in a scratch directory and checks it.
fn check_scratch(test: &str, name: &str, text: &str) -> std::process::Output {
    let dir = scratch(test);
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    zeno(&["check", path(&file)])
}

#[test]
fn deeply_nested_input_is_a_located_error_not_a_crash() {
    // A guard of 50,000 parentheses: the importer's expression parser
    // recurses, and stops at its nesting limit where the limit is crossed.
    let depth = 50_000;
    let guard = format!("{}x{}", "(".repeat(depth), ")".repeat(depth));
    let xml = format!(
        r#"<nta><declaration>int x;</declaration><template><name>P</name><location id="a"/><init ref="a"/><transition><source ref="a"/><target ref="a"/><label kind="guard">{guard}</label></transition></template><system>system P;</system></nta>"#
    );
    let out = check_scratch("deep-guard", "m.xml", &xml);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("error: nested more than 200 levels deep: zeno does not read it"),
        "{err}"
    );
    // The 201st parenthesis, 1-based, on line 1.
    let guard_at = xml.find(&guard).unwrap();
    assert!(
        err.contains(&format!("m.xml:1:{}", guard_at + 201)),
        "{err}"
    );

    // Statements nest too: 5,000 blocks in a function body.
    let body = format!("{}{}", "{".repeat(5_000), "}".repeat(5_000));
    let xml = format!(
        r#"<nta><declaration>void f() {body}</declaration><template><name>P</name><location id="a"/><init ref="a"/></template><system>system P;</system></nta>"#
    );
    let out = check_scratch("deep-body", "m.xml", &xml);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nested more than 200 levels deep"));

    // 100,000 nested elements: refused at the 65th, at once.
    let xml = format!(
        "<nta>{}{}</nta>",
        "<a>".repeat(100_000),
        "</a>".repeat(100_000)
    );
    let out = check_scratch("deep-xml", "m.xml", &xml);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("XML nested more than 64 elements deep"),
        "{err}"
    );
    // `<nta>` and 63 `<a>` are open; the next `<a>` starts at byte 5 + 63 * 3.
    assert!(
        err.contains(&format!("m.xml:1:{}", 5 + 63 * 3 + 1)),
        "{err}"
    );
}

/// A UPPAAL model whose queries call functions: `a` counts 0, 1, 2, 3 and
/// stops (`a < 3` guards the only edge), so by hand:
/// - `A[] twice(a) <= 6` holds (2a is at most 6);
/// - `A[] bump() < 100` calls a function with an effect, which a query may
///   not: zeno's analysis rejects it, and that query alone is set aside;
/// - `E<> twice(a) == 6` is witnessed after three steps (a = 3);
/// - `A[] a < 3` fails after three steps.
const CALLS_IN_QUERIES: &str = r#"<nta>
<declaration>int a;
int twice(int v) { return 2 * v; }
int bump() { a++; return a; }</declaration>
<template><name>P</name>
<location id="l"><name>l</name></location><init ref="l"/>
<transition><source ref="l"/><target ref="l"/>
<label kind="guard">a &lt; 3</label><label kind="assignment">a++</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>A[] twice(a) &lt;= 6</formula></query>
<query><formula>A[] bump() &lt; 100</formula></query>
<query><formula>E&lt;&gt; twice(a) == 6</formula></query>
<query><formula>A[] a &lt; 3</formula></query>
</queries>
</nta>
"#;

#[test]
fn one_query_zeno_rejects_is_set_aside_and_the_others_are_decided() {
    let o = check_scratch("cli-set-aside", "calls.xml", CALLS_IN_QUERIES);
    let (out, err) = (stdout(&o), stderr(&o));
    // A query zeno refuses is an input error (exit 2, above the violation
    // among the decided checks), and the others are decided.
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(out.contains("q1: holds"), "{out}");
    assert!(out.contains("q3: holds — witness of 3 steps"), "{out}");
    assert!(out.contains("q4: violated — trace of 3 steps"), "{out}");
    assert!(
        out.contains("  q2: not checked: error: `bump` changes variables"),
        "{out}"
    );
    assert!(
        err.contains("error: `bump` changes variables")
            && err.contains("this query is not checked"),
        "{err}"
    );
    // The error is located on the query's formula in the XML.
    let (line, col) = position_of(CALLS_IN_QUERIES, "A[] bump() &lt; 100");
    assert!(err.contains(&format!("calls.xml:{line}:{col}")), "{err}");
    assert!(out.contains(&format!("calls.xml:{line}:{col}")), "{out}");
    assert!(!err.contains("(imported)"), "{err}");
}

#[test]
fn a_query_file_check_zeno_rejects_is_set_aside() {
    let dir = scratch("cli-set-aside-q");
    let model = dir.join("count.zeno");
    std::fs::write(
        &model,
        "int a;\nint bump() { a++; return a; }\ntemplate P() { init location l; l -> l when a < 3 do a++; }\nsystem P;\n",
    )
    .unwrap();
    let queries = dir.join("count.q");
    std::fs::write(&queries, "A[] bump() < 100\nA[] a <= 3\n").unwrap();
    let o = zeno(&["check", path(&model), "--queries", path(&queries)]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(out.contains("line2: holds\n    A[] a <= 3   at "), "{out}");
    assert!(
        out.contains("line1: not checked: error: `bump` changes variables"),
        "{out}"
    );
    // Located on its line of the query file.
    assert!(err.contains("count.q:1:1"), "{err}");
}

#[test]
fn a_check_written_in_zeno_is_never_set_aside() {
    // The user's own text: its error is an error, and nothing is decided.
    let o = check_scratch(
        "cli-set-aside-zeno",
        "own.zeno",
        "int a;\nint bump() { a++; return a; }\ntemplate P() { init location l; l -> l when a < 3 do a++; }\nsystem P;\ncheck bad: A[] bump() < 100;\ncheck good: A[] a <= 3;\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("error: `bump` changes variables"));
    assert!(!stdout(&o).contains("good: holds"), "{}", stdout(&o));
}

#[test]
fn an_imported_error_outside_the_queries_still_stops_the_model() {
    // `b` is undeclared in the guard: no query is to blame, so none is set
    // aside and the model is not decided.
    let text = CALLS_IN_QUERIES.replace("a &lt; 3</label>", "b &lt; 3</label>");
    let o = check_scratch("cli-set-aside-model", "undeclared.xml", &text);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("unknown name `b`"), "{err}");
    assert!(!err.contains("set aside"), "{err}");
}

#[test]
fn xml_with_latin1_comments_is_read() {
    // `ä` and `µ` as single bytes (0xe4, 0xb5) in comments, as files saved
    // by older tools have them: with `encoding="ISO-8859-1"` declared the
    // file is read silently; declaring UTF-8 it is read the same way, with
    // a warning. The lock keeps the two processes apart.
    let model = |encoding: &str| -> Vec<u8> {
        let mut b = format!("<?xml version=\"1.0\" encoding=\"{encoding}\"?>\n").into_bytes();
        b.extend_from_slice(
            b"<nta><declaration>// Z\xe4hler in \xb5s\nint[0,1] lock;</declaration>\n",
        );
        b.extend_from_slice(
            br#"<template><name>P</name>
<location id="a"><name>idle</name></location><location id="b"><name>busy</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="guard">lock == 0</label><label kind="assignment">lock = 1</label></transition>
</template>
<system>P1 = P(); P2 = P(); system P1, P2;</system>
<queries><query><formula>A[] not (P1.busy and P2.busy)</formula><comment>mutex</comment></query></queries></nta>"#,
        );
        b
    };
    let dir = scratch("cli-import-latin1");
    for (encoding, warns) in [("ISO-8859-1", false), ("utf-8", true)] {
        let file = dir.join(format!("{encoding}.xml"));
        std::fs::write(&file, model(encoding)).unwrap();
        let o = zeno(&["check", path(&file)]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("mutex: holds"), "{}", stdout(&o));
        assert_eq!(
            stderr(&o).contains("read as ISO-8859-1"),
            warns,
            "{}",
            stderr(&o)
        );
    }
}

/// The source map is followed through the formatting of the imported text
/// (which changes only whitespace) for every bundled UPPAAL model: were it
/// lost, every diagnostic would fall back to the imported text.
#[test]
fn every_bundled_uppaal_model_keeps_its_source_map() {
    let mut dirs = vec![data("")];
    dirs.push(data("case"));
    let mut seen = 0;
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let file = entry.unwrap().path();
            let name = file.to_string_lossy().into_owned();
            if !(name.ends_with(".xml") || name.ends_with(".xta")) {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            // Files the importer rejects have no zeno text to map.
            let Ok(loaded) = zeno::load::load(&name, &text, &[]) else {
                continue;
            };
            let map = loaded.source_map.expect(&name);
            assert!(!map.pieces().is_empty(), "{name}");
            seen += 1;
        }
    }
    assert!(seen >= 10, "{seen} models");
}

/// A diagnostic about text the import wrote itself (the `system` line,
/// assembled from the XML's system section) stays in the imported text,
/// and the reports say so rather than pairing the file's name with
/// positions of another text.
#[test]
fn unmapped_diagnostics_are_marked_as_in_the_imported_text() {
    let dir = scratch("cli-import-unmapped");
    let m = dir.join("dup.xml");
    std::fs::write(
        &m,
        r#"<nta><template><name>P</name>
<location id="a"><name>a</name></location><init ref="a"/>
</template>
<system>A = P(); system A, A;</system></nta>"#,
    )
    .unwrap();
    let o = zeno(&["check", path(&m)]);
    assert!(stderr(&o).contains("dup.xml (imported)"), "{}", stderr(&o));
    let o = zeno(&["check", path(&m), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let d = &v["files"][0]["diagnostics"][0];
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("already in the system"),
        "{d}"
    );
    assert_eq!(d["in_imported_text"], true, "{d}");
    let o = zeno(&["check", path(&m), "--format", "sarif"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("sarif");
    let r = &v["runs"][0]["results"][0];
    let text = r["message"]["text"].as_str().unwrap();
    assert!(text.contains("of the imported zeno text"), "{r}");
    assert!(
        r["locations"][0]["physicalLocation"]["region"].is_null(),
        "{r}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
