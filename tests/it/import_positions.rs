//! Every diagnostic of an imported file is located in that file, whatever
//! phase finds it: the importer, the analysis of the translated text, its
//! lowering, or the search (a run-time error). One test per phase, with
//! positions counted by hand in the file (TChecker and UPPAAL query files,
//! the formats whose positions were missing).

use crate::support::cli::*;

/// A TChecker model whose edge `l0 -> l1` has the attributes `attrs`.
fn tck(attrs: &str) -> String {
    format!(
        "system:s\nevent:a\nint:2:0:3:0:v\nprocess:P\nlocation:P:l0{{initial:}}\nlocation:P:l1{{labels:done}}\nedge:P:l0:l1:a{{{attrs}}}\n"
    )
}

fn json_of(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o)).expect("json")
}

/// `(line, column)` (1-based) of the first `needle` in `text`.
fn at(text: &str, needle: &str) -> (u64, u64) {
    let offset = text.find(needle).unwrap();
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |k| k + 1) + 1;
    (line as u64, column as u64)
}

fn start(v: &serde_json::Value) -> (u64, u64) {
    (
        v["start"]["line"].as_u64().unwrap(),
        v["start"]["column"].as_u64().unwrap(),
    )
}

fn write(test: &str, name: &str, text: &str) -> std::path::PathBuf {
    let file = scratch(test).join(name);
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn import_phase_a_malformed_query_line() {
    // The model is fine; line 2 of its query file lacks an operand.
    let dir = scratch("positions-import");
    let model = dir.join("m.xta");
    std::fs::write(&model, "process P() { state a; init a; }\nsystem P;\n").unwrap();
    let q = "E<> P.a\nA[] P.a and\nA[] P.a\n";
    std::fs::write(dir.join("m.q"), q).unwrap();
    let o = zeno(&["check", path(&model), "--format", "json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let doc = json_of(&o);
    let refused = &doc["files"][0]["not_checked"][0];
    assert!(refused["path"].as_str().unwrap().ends_with("m.q"), "{doc}");
    // At the end of `A[] P.a and`: line 2, column 12.
    assert_eq!(start(&refused["range"]), (2, 12), "{doc}");
    // Nothing else is lost: lines 1 and 3 are checked.
    let names: Vec<&str> = doc["files"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["line1", "line3"], "{doc}");
}

#[test]
fn import_phase_an_unknown_process_in_a_query() {
    let dir = scratch("positions-unknown-process");
    let model = dir.join("m.xta");
    std::fs::write(&model, "process P() { state a; init a; }\nsystem P;\n").unwrap();
    std::fs::write(dir.join("m.q"), "// ok\nE<> P.a\nA[] Q.a\n").unwrap();
    let o = zeno(&["check", path(&model), "--format", "json"]);
    let doc = json_of(&o);
    let refused = &doc["files"][0]["not_checked"][0];
    assert_eq!(refused["error"], "unknown process `Q`", "{doc}");
    assert_eq!(start(&refused["range"]), (3, 1), "{doc}");
    assert_eq!(doc["files"][0]["checks"][0]["name"], "ok", "{doc}");
    assert!(stderr(&o).contains("m.q:3:1"), "{}", stderr(&o));
}

#[test]
fn analysis_phase_an_unknown_name_in_a_tchecker_guard() {
    let text = tck("provided:w == 1");
    let file = write("positions-analysis", "m.tck", &text);
    let o = zeno(&["check", path(&file), "--labels", "done", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let doc = json_of(&o);
    let d = doc["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["severity"] == "error")
        .unwrap();
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("unknown name `w`"),
        "{doc}"
    );
    assert_eq!(d.get("in_imported_text"), None, "{doc}");
    assert_eq!(start(&d["range"]), at(&text, "w == 1"), "{doc}");
}

#[test]
fn lowering_phase_a_value_out_of_range_in_a_tchecker_update() {
    let text = tck("do:v[0] = 7");
    let file = write("positions-lowering", "m.tck", &text);
    let o = zeno(&["check", path(&file), "--labels", "done", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let doc = json_of(&o);
    let d = &doc["files"][0]["diagnostics"][0];
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("value 7 is outside the range [0, 3]"),
        "{doc}"
    );
    assert_eq!(start(&d["range"]), at(&text, "v[0] = 7"), "{doc}");
}

#[test]
fn run_time_phase_an_overflowing_tchecker_update() {
    // v[0] starts at 0; `v[0] = v[0] + 5` leaves its range when the edge
    // fires: a model error, its failing edge at the edge's line.
    let text = tck("do:v[0] = v[0] + 5");
    let file = write("positions-run-time", "m.tck", &text);
    let o = zeno(&["check", path(&file), "--labels", "done", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_of(&o);
    let check = &doc["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "model_error", "{doc}");
    let edge = &check["trace"]["end"]["edges"][0];
    assert_eq!(start(&edge["range"]), at(&text, "edge:P:l0:l1"), "{doc}");
}

#[test]
fn run_time_phase_an_index_out_of_range_in_an_xml_update() {
    // The XML twin: the failing edge at its first label (the assignment).
    let xml = r#"<nta><declaration>int a[2];</declaration>
<template><name>P</name>
<location id="a"><name>a</name></location><location id="b"><name>b</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">a[5] = 1</label></transition>
</template>
<system>system P;</system>
<queries><query><formula>E&lt;&gt; P.b</formula></query></queries></nta>"#;
    let file = write("positions-run-time-xml", "m.xml", xml);
    let o = zeno(&["check", path(&file), "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc = json_of(&o);
    let check = &doc["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "model_error", "{doc}");
    assert_eq!(start(&check["range"]), at(xml, "E&lt;&gt; P.b"), "{doc}");
    let edge = &check["trace"]["end"]["edges"][0];
    assert_eq!(start(&edge["range"]), at(xml, "a[5] = 1"), "{doc}");
    // The static warning is on the index in the XML.
    let w = &doc["files"][0]["diagnostics"][0];
    assert_eq!(w["severity"], "warning", "{doc}");
    assert_eq!(start(&w["range"]), at(xml, "5] = 1"), "{doc}");
}

/// The expressions of a value query are located in the file that holds
/// the query: each on its own text where that is written once in the
/// query (`x` and `n` of line 2, `x` after the predicate on line 3), the
/// whole query where it is not (`x` is written twice on line 4); in a
/// `.q` file and in an XML `<formula>` alike.
#[test]
fn value_query_terms_are_located_in_the_query() {
    let xta = "clock x;\nint[0, 5] n;\nprocess P() { state a { x <= 4 }, b; init a; \
               trans a -> b { guard x >= 1; assign n = 3; }; }\nsystem P;\n";
    let q = "// values\nsup: x, n\ninf{P.b}: x\nsup{x > 1}: x\n";
    let dir = scratch("positions-value-terms");
    let model = dir.join("m.xta");
    std::fs::write(&model, xta).unwrap();
    std::fs::write(dir.join("m.q"), q).unwrap();
    let o = zeno(&["check", path(&model), "--format", "json"]);
    let doc = json_of(&o);
    let checks = doc["files"][0]["checks"].as_array().unwrap();
    let terms: Vec<((u64, u64), (u64, u64))> = checks
        .iter()
        .flat_map(|c| c["values"].as_array().unwrap().clone())
        .map(|v| {
            (
                start(&v["range"]),
                (
                    v["range"]["end"]["line"].as_u64().unwrap(),
                    v["range"]["end"]["column"].as_u64().unwrap(),
                ),
            )
        })
        .collect();
    assert_eq!(
        terms,
        [
            ((2, 6), (2, 7)),
            ((2, 9), (2, 10)),
            ((3, 11), (3, 12)),
            ((4, 1), (4, 14)),
        ],
        "{doc}"
    );
    for c in checks {
        assert!(c["path"].as_str().unwrap().ends_with("m.q"), "{doc}");
    }

    let xml = r#"<nta><declaration>int[0,5] n;</declaration>
<template><name>P</name><declaration>clock x;</declaration>
<location id="a"><name>a</name></location><location id="b"><name>b</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">n = 3</label></transition>
</template>
<system>system P;</system>
<queries><query><formula>sup{P.b}: P.x, n</formula></query></queries></nta>"#;
    let file = write("positions-value-terms-xml", "m.xml", xml);
    let o = zeno(&["check", path(&file), "--format", "json"]);
    let doc = json_of(&o);
    let values = doc["files"][0]["checks"][0]["values"].as_array().unwrap();
    let starts: Vec<(u64, u64)> = values.iter().map(|v| start(&v["range"])).collect();
    assert_eq!(starts, [at(xml, "P.x"), at(xml, "n</formula>")], "{doc}");
}
