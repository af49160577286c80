//! Models UPPAAL accepts that zeno once refused, each read with its
//! meaning (answers derived by hand from the model): an unused LSC
//! template, an invariant `x >= 0`, an initialiser shorter than its
//! array, an out-of-range index on an edge that never fires, a function
//! named `sum`.

use crate::support::imported_verdicts;
use zeno::checker::Verdict;
use zeno::import::{ImportOptions, import};

/// A UPPAAL model with one template `P` (locations `a` and `b`, one edge
/// `a -> b` with `edge`'s labels), global `declaration`, the extra XML
/// `extra` after the template and the queries `queries`.
fn model(declaration: &str, invariant: &str, edge: &str, extra: &str, queries: &[&str]) -> String {
    let queries: String = queries
        .iter()
        .map(|q| format!("<query><formula>{q}</formula></query>"))
        .collect();
    format!(
        r#"<nta><declaration>{declaration}</declaration>
<template><name>P</name><declaration>clock x;</declaration>
<location id="a"><name>a</name>{invariant}</location><location id="b"><name>b</name></location><init ref="a"/>
<transition><source ref="a"/><target ref="b"/>{edge}</transition>
</template>{extra}
<system>system P;</system>
<queries>{queries}</queries></nta>"#
    )
}

fn verdicts(xml: &str) -> Vec<Verdict> {
    let imported = import("m.xml", xml, &ImportOptions::default()).expect("imports");
    imported_verdicts(&imported)
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

#[test]
fn an_lsc_template_no_process_uses_is_left_out() {
    let lsc = r#"<lsc><name>Chart</name><parameter></parameter><type>Universal</type><mode>Invariant</mode>
<declaration></declaration><yloccoord number="0" y="130"/>
<instance id="i0" x="100" y="0"><name>P</name></instance>
<message id="m0"><source ref="i0"/><target ref="i0"/><lsclocation>0</lsclocation><label kind="message">go</label></message>
</lsc>"#;
    let xml = model("int v;", "", "", lsc, &["E&lt;&gt; P.b"]);
    let imported = import("m.xml", &xml, &ImportOptions::default()).expect("imports");
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| w.message.starts_with("LSC template")),
        "{:?}",
        imported.warnings
    );
    assert_eq!(verdicts(&xml), [Verdict::Holds]);
}

#[test]
fn a_clock_lower_bound_that_always_holds_is_no_bound() {
    // `x >= 0` and `x > -1` hold for every clock value: `a` may be left
    // at once (E<> P.b) and time may pass in it for ever (A[] not P.b
    // fails only because the edge is there).
    for bound in ["x &gt;= 0", "x &gt; -1", "0 &lt;= x"] {
        let invariant = format!(r#"<label kind="invariant">{bound}</label>"#);
        let xml = model(
            "int v;",
            &invariant,
            "",
            "",
            &["E&lt;&gt; P.b", "E&lt;&gt; P.a and P.x &gt; 1000"],
        );
        assert_eq!(verdicts(&xml), [Verdict::Holds, Verdict::Holds], "{bound}");
    }
    // A real lower bound (`x >= 3`) is read too: lower_bound_invariants.rs.
}

#[test]
fn a_short_initialiser_is_filled_with_zeros() {
    // a = {1, 2, 0, 0}, b = {true, false, false}, m = {{1, 0, 0}, {2, 3, 0}}:
    // the guard holds exactly for these values.
    let declaration = "const int N = 3; typedef int[0, N - 1] id_t;
int a[4] = {1, 2}; bool b[id_t] = {true}; int m[2][3] = {{1}, {2, 3}};";
    let guard = r#"<label kind="guard">a[1] == 2 &amp;&amp; a[3] == 0 &amp;&amp; b[0] &amp;&amp; !b[2] &amp;&amp; m[0][2] == 0 &amp;&amp; m[1][1] == 3 &amp;&amp; m[1][2] == 0</label>"#;
    let xml = model(declaration, "", guard, "", &["E&lt;&gt; P.b"]);
    let imported = import("m.xml", &xml, &ImportOptions::default()).expect("imports");
    let filled: Vec<&str> = imported
        .warnings
        .iter()
        .filter(|w| w.message.contains("as UPPAAL fills them"))
        .map(|w| &xml[w.span.start as usize..w.span.end as usize])
        .collect();
    // One warning per short list, at its `{`.
    assert_eq!(filled, ["{", "{", "{", "{"], "{:?}", imported.warnings);
    assert_eq!(verdicts(&xml), [Verdict::Holds]);
}

#[test]
fn an_index_out_of_range_fails_only_where_it_is_evaluated() {
    // The edge's guard `v == 1` never holds: the model is checked, with a
    // warning on the index.
    let never = model(
        "int a[2]; int v;",
        "",
        r#"<label kind="guard">v == 1</label><label kind="assignment">a[5] = 1</label>"#,
        "",
        &["A[] not P.b"],
    );
    assert_eq!(verdicts(&never), [Verdict::Holds]);
    let imported = import("m.xml", &never, &ImportOptions::default()).unwrap();
    let analysis = zeno::semantics::analyze(&imported.zeno);
    assert!(
        analysis
            .diagnostics
            .iter()
            .any(|d| d.message
                == "index 5 is out of range [0, 1]: evaluating it is a run-time error"),
        "{:?}",
        analysis.diagnostics
    );
    // When it fires, the run-time error is reachable.
    let fires = never.replace("v == 1", "v == 0");
    assert!(
        matches!(verdicts(&fires)[..], [Verdict::ModelError(_)]),
        "{:?}",
        verdicts(&fires)
    );
}

#[test]
fn a_function_named_sum_is_called_and_sum_still_counts() {
    // `sum(1, 2)` is 3; `sum (i : id_t) c[i]` adds c = {1, 1, 0}: 2.
    let declaration = "typedef int[0, 2] id_t; int v; int c[id_t] = {1, 1, 0};
int sum(int a, int b) { return a + b; }";
    let edge = r#"<label kind="assignment">v = sum(1, 2) + (sum (i : id_t) c[i])</label>"#;
    let xml = model(
        declaration,
        "",
        edge,
        "",
        &["A[] P.b imply v == 5", "E&lt;&gt; v == 5"],
    );
    assert_eq!(verdicts(&xml), [Verdict::Holds, Verdict::Holds]);
}
