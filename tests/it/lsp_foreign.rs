//! UPPAAL XML/XTA and TChecker files opened in the language server: imported
//! as `zeno check` imports them, with the importer's messages where they are
//! in the file, the translation's diagnostics at the UPPAAL label or
//! declaration they are about, the verdicts at the queries' `<formula>`s,
//! and what has no place in the file (TChecker's translation) at the top of
//! the file, naming the translation's line.

use crate::support;

use serde_json::{Value, json};
use support::lsp_client::{TestClient, position};

/// Two processes taking a lock (the bundled `lock.xml`) with three queries:
/// mutual exclusion holds; `P1.busy` is reachable (P1 takes the free lock),
/// so `E<>` is witnessed and `A[] not P1.busy` is violated.
const LOCK: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<nta>
  <declaration>int lock = 0;</declaration>
  <template>
    <name>P</name>
    <declaration>clock x;</declaration>
    <location id="id0"><name>idle</name></location>
    <location id="id1"><name>busy</name><label kind="invariant">x &lt;= 2</label></location>
    <init ref="id0"/>
    <transition>
      <source ref="id0"/><target ref="id1"/>
      <label kind="guard">lock == 0</label>
      <label kind="assignment">lock := 1, x := 0</label>
    </transition>
    <transition>
      <source ref="id1"/><target ref="id0"/>
      <label kind="guard">x &gt;= 1</label>
      <label kind="assignment">lock := 0</label>
    </transition>
  </template>
  <system>P1 = P(); P2 = P();
system P1, P2;</system>
  <queries>
    <query><formula>A[] not (P1.busy and P2.busy)</formula><comment>mutex</comment></query>
    <query><formula>E&lt;&gt; P1.busy</formula></query>
    <query><formula>A[] not P1.busy</formula></query>
  </queries>
</nta>
"#;

const PREFIX: &str = "of the zeno translation (`zeno import` prints it): ";

fn messages(d: &Value) -> Vec<String> {
    d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

async fn started() -> TestClient {
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 10}})).await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uppaal_model_is_checked_with_verdicts_at_their_formulas() {
    let uri = "file:///models/lock.xml";
    let mut c = started().await;
    c.open(uri, LOCK).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    let diags = done["diagnostics"].as_array().unwrap();
    let at = |formula: &str| {
        let start = LOCK.find(formula).unwrap();
        json!({"start": position(LOCK, start), "end": position(LOCK, start + formula.len())})
    };
    let verdict = |formula: &str| {
        diags
            .iter()
            .find(|d| d["range"] == at(formula) && d["code"] == "check")
            .unwrap_or_else(|| panic!("no verdict on {formula}: {done}"))
    };
    // One verdict per query, on its `<formula>` text.
    assert!(
        verdict("A[] not (P1.busy and P2.busy)")["message"]
            .as_str()
            .unwrap()
            .contains("holds"),
        "{done}"
    );
    assert!(
        verdict("E&lt;&gt; P1.busy")["message"]
            .as_str()
            .unwrap()
            .contains("holds"),
        "{done}"
    );
    let violated = verdict("A[] not P1.busy");
    assert!(
        violated["message"].as_str().unwrap().contains("violated"),
        "{violated}"
    );
    // Its trace's step (P1 takes the lock) is at the first transition's
    // first label, its guard `lock == 0` (line 11, after 6 spaces and
    // `<label kind="guard">`, counted by hand).
    let first_edge = json!({"line": 11, "character": 26});
    let related = violated["relatedInformation"].as_array().unwrap();
    assert_eq!(related.len(), 1, "{violated}");
    assert_eq!(
        related[0]["location"]["range"]["start"], first_edge,
        "{violated}"
    );
    assert!(!related[0]["message"].as_str().unwrap().contains(PREFIX));
    // Nothing is left at the top of the file.
    let top = json!({"line": 0, "character": 0});
    assert!(diags.iter().all(|d| d["range"]["start"] != top), "{done}");
    // Lenses and positions in zeno text have no place in the XML file.
    let lenses = c
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert_eq!(lenses["result"], json!([]), "{lenses}");
    let hover = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 20}}),
        )
        .await;
    assert_eq!(hover["result"], Value::Null, "{hover}");
    let trace = c
        .request("zeno/errorTrace", json!({"uri": uri, "check": "mutex"}))
        .await;
    let error = trace["error"]["message"].as_str().unwrap();
    assert!(
        error.contains("UPPAAL XML") && error.contains("zeno import"),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_errors_and_translation_errors_are_located_in_the_file() {
    let mut c = started().await;
    // Cut inside a guard: the importer's error is at the end of the file.
    let cut = &LOCK[..LOCK.find("&gt;= 1").unwrap() + 2];
    let uri = "file:///models/cut.xml";
    c.open(uri, cut).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    let diags = done["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{done}");
    assert_eq!(
        diags[0]["range"]["start"],
        position(cut, cut.len()),
        "{done}"
    );
    assert!(messages(&done)[0].contains("is not closed"), "{done}");

    // A name the model does not declare: found in the translation, shown
    // at the name in the guard label.
    let typo = LOCK.replacen("lock == 0", "lokc == 0", 1);
    let uri = "file:///models/typo.xml";
    c.open(uri, &typo).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    let all = messages(&done);
    assert_eq!(all.len(), 1, "{all:?}");
    assert!(
        all[0].contains("unknown name `lokc`")
            && all[0].contains("in the guard of an edge of template P, from idle to busy")
            && !all[0].contains(PREFIX),
        "{all:?}"
    );
    let at = typo.find("lokc").unwrap();
    let range = &done["diagnostics"][0]["range"];
    assert_eq!(range["start"], position(&typo, at), "{done}");
    assert_eq!(range["end"], position(&typo, at + "lokc".len()), "{done}");

    // The same in an XTA file, in an assignment.
    let xta =
        "int n;\nprocess P() { state a, b; init a; trans a -> b { assign n = m; }; }\nsystem P;\n";
    let uri = "file:///models/typo.xta";
    c.open(uri, xta).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    assert_eq!(messages(&done).len(), 1, "{done}");
    let at = xta.find("m;").unwrap();
    assert_eq!(
        done["diagnostics"][0]["range"]["start"],
        position(xta, at),
        "{done}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xta_and_tchecker_files_are_read_and_other_xml_is_left_alone() {
    let mut c = started().await;
    let xta =
        "clock x;\nprocess P() { state a, b; init a; trans a -> b { guard x > 1; }; }\nsystem P;\n";
    let uri = "file:///models/p.xta";
    c.open(uri, xta).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    assert_eq!(done["diagnostics"], json!([]), "{done}");
    let text = c.request("zeno/documentText", json!({"uri": uri})).await;
    assert_eq!(
        text["result"]["text"], xta,
        "the server keeps the file as opened"
    );

    // A TChecker model (no labels asked for, so no checks): no errors. Its
    // warnings are the translation's: without the edge, `b` is unreachable,
    // shown at `b` on its `location:` line.
    let tck = "system:s\nevent:e\nprocess:P\nlocation:P:a{initial:}\nlocation:P:b{labels:goal}\n";
    let uri = "file:///models/unreachable.tck";
    c.open(uri, tck).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    assert_eq!(
        messages(&done),
        ["location `b` is unreachable (in location b of template P)"]
    );
    assert_eq!(
        done["diagnostics"][0]["range"]["start"],
        position(tck, tck.find("b{labels").unwrap()),
        "{done}"
    );
    let tck = format!("{tck}edge:P:a:b:e\n");
    let uri = "file:///models/s.tck";
    c.open(uri, &tck).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    assert_eq!(done["diagnostics"], json!([]), "{done}");

    // An XML file that is no UPPAAL model gets nothing.
    let uri = "file:///project/pom.xml";
    c.open(uri, "<project><modelVersion>4.0.0</modelVersion></project>")
        .await;
    // Published once, empty.
    let done = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    assert_eq!(done["diagnostics"], json!([]), "{done}");
    let symbols = c
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert!(symbols["error"].is_null(), "{symbols}");
}

/// A query file opened in the editor is checked on the model beside it:
/// each verdict on its query's line, a refused query an error there, a
/// statistical one a note, and the model's own queries left out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_file_shows_each_verdict_on_its_line() {
    let dir = support::cli::scratch("lsp-query-file");
    std::fs::write(dir.join("lock.xml"), LOCK).unwrap();
    let q = "/* mutex */\nA[] not (P1.busy and P2.busy)\nA[] not P1.busy\nPr[<=10](<> P1.busy)\nA[] Q.busy\n";
    let path = dir.join("lock.q");
    std::fs::write(&path, q).unwrap();
    let uri = format!("file://{}", path.display());
    let mut c = started().await;
    c.open(&uri, q).await;
    let done = c.diagnostics_when_quiescent(&uri).await;
    let diags = done["diagnostics"].as_array().unwrap();
    let on_line = |line: u64| -> Vec<&Value> {
        diags
            .iter()
            .filter(|d| d["range"]["start"]["line"] == line)
            .collect()
    };
    let message = |d: &Value| d["message"].as_str().unwrap().to_string();
    // Line 2 (0-based 1): mutex holds.
    let mutex = on_line(1);
    assert_eq!(mutex.len(), 1, "{done}");
    assert!(message(mutex[0]).contains("holds"), "{done}");
    // Line 3: violated, an error with its trace.
    let violated = on_line(2);
    let verdict = violated
        .iter()
        .find(|d| d["severity"] == 1 && message(d).contains("violated"))
        .unwrap_or_else(|| panic!("{done}"));
    // Its one step (P1 takes the free lock) is in the model's file, at the
    // first transition's guard `lock == 0` (line 11, after 6 spaces and
    // `<label kind="guard">`, counted by hand), not in the query file.
    let model = format!("file://{}", dir.join("lock.xml").display());
    let steps = verdict["relatedInformation"].as_array().unwrap();
    assert_eq!(steps.len(), 1, "{verdict}");
    assert_eq!(steps[0]["location"]["uri"], model.as_str(), "{verdict}");
    assert_eq!(
        steps[0]["location"]["range"]["start"],
        json!({"line": 11, "character": 26}),
        "{verdict}"
    );
    assert!(
        !steps[0]["message"].as_str().unwrap().contains(PREFIX),
        "{verdict}"
    );
    // Line 4: not checked, a note (information); line 5: refused, an error.
    let stat = on_line(3);
    assert!(
        stat.iter()
            .any(|d| d["severity"] == 3 && message(d).contains("statistical query")),
        "{done}"
    );
    let refused = on_line(4);
    assert!(
        refused
            .iter()
            .any(|d| d["severity"] == 1 && message(d).contains("unknown process `Q`")),
        "{done}"
    );
    // The model's own three queries are not checked here: nothing else.
    assert!(
        diags
            .iter()
            .all(|d| (1..=4).contains(&d["range"]["start"]["line"].as_u64().unwrap())),
        "{done}"
    );
}

/// The last diagnostics published for each document until the server is
/// quiescent.
async fn published_until_quiescent(c: &mut TestClient) -> std::collections::HashMap<String, Value> {
    let mut last = std::collections::HashMap::new();
    loop {
        let msg = c.next_pending().await;
        if msg["method"] == "textDocument/publishDiagnostics" {
            let uri = msg["params"]["uri"].as_str().unwrap().to_string();
            last.insert(uri, msg["params"].clone());
        }
        if msg["method"] == "zeno/serverStatus" && msg["params"]["quiescent"] == true {
            return last;
        }
    }
}

/// `(line, severity)` of each verdict of a query file, in line order.
fn verdicts(published: &Value) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "check")
        .map(|d| {
            (
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["severity"].as_u64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Opening a UPPAAL model reads the query file `MODEL.q` beside it, as
/// `zeno check MODEL.xml` does: its verdicts are published on the query
/// file's lines though the editor has not opened it (with no version), an
/// edit of the model checks them again on the model's new text, whether
/// the query file is open or not, and closing the model clears them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_query_file_beside_an_opened_model_follows_the_model() {
    const ERROR: u64 = 1;
    const INFO: u64 = 3;
    let dir = support::cli::scratch("lsp-query-beside");
    std::fs::write(dir.join("lock.xml"), LOCK).unwrap();
    // Line 0: violated (P1 takes the free lock); line 1: witnessed.
    let q = "A[] not P1.busy\nE<> P2.busy\n";
    std::fs::write(dir.join("lock.q"), q).unwrap();
    let model = format!("file://{}", dir.join("lock.xml").display());
    let queries = format!("file://{}", dir.join("lock.q").display());
    let mut c = started().await;
    c.open(&model, LOCK).await;
    let seen = published_until_quiescent(&mut c).await;
    let beside = &seen[&queries];
    assert_eq!(verdicts(beside), [(0, ERROR), (1, INFO)], "{beside}");
    assert!(beside["version"].is_null(), "{beside}");
    // The model's own three verdicts stay on its `<formula>`s.
    assert_eq!(verdicts(&seen[&model]).len(), 3, "{seen:?}");
    // Requests about the query file answer as about a closed document.
    let text = c
        .request("zeno/documentText", json!({"uri": queries}))
        .await;
    assert!(
        text["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not open"),
        "{text}"
    );

    // An unsaved edit of the model: the lock is never free, so no process
    // is ever busy. The query file is checked on the edited text.
    let locked = LOCK.replace("<declaration>int lock = 0;", "<declaration>int lock = 1;");
    c.change(&model, 2, json!([{"text": locked}])).await;
    let seen = published_until_quiescent(&mut c).await;
    assert_eq!(
        verdicts(&seen[&queries]),
        [(0, INFO), (1, ERROR)],
        "{seen:?}"
    );

    // Opened in the editor too, it follows the model's edits as well.
    c.open(&queries, q).await;
    let seen = published_until_quiescent(&mut c).await;
    assert_eq!(
        verdicts(&seen[&queries]),
        [(0, INFO), (1, ERROR)],
        "{seen:?}"
    );
    assert_eq!(seen[&queries]["version"], 1, "{seen:?}");
    c.change(&model, 3, json!([{"text": LOCK}])).await;
    let seen = published_until_quiescent(&mut c).await;
    assert_eq!(
        verdicts(&seen[&queries]),
        [(0, ERROR), (1, INFO)],
        "{seen:?}"
    );
    assert_eq!(seen[&queries]["version"], 1, "{seen:?}");

    // Closed in the editor while its model is open: read from disk again.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": queries}}),
    )
    .await;
    let seen = published_until_quiescent(&mut c).await;
    assert_eq!(
        verdicts(&seen[&queries]),
        [(0, ERROR), (1, INFO)],
        "{seen:?}"
    );
    assert!(seen[&queries]["version"].is_null(), "{seen:?}");

    // Closing the model clears the query file it brought.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": model}}),
    )
    .await;
    let cleared = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == queries)
        .await;
    assert_eq!(cleared["diagnostics"], json!([]), "{cleared}");
}

/// A range on one line of a document, 0-based, counted by hand.
fn on_line(line: u32, start: u32, end: u32) -> Value {
    json!({"start": {"line": line, "character": start}, "end": {"line": line, "character": end}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_simulator_on_an_uppaal_file_points_at_location_names_and_transition_labels() {
    let uri = "file:///models/lock.xml";
    let mut c = started().await;
    c.open(uri, LOCK).await;
    c.diagnostics_when_quiescent(uri).await;
    let r = c.request("zeno/simulate", json!({"uri": uri})).await;
    let start = &r["result"];
    assert!(r.get("error").is_none(), "{r}");
    // Both processes are at `idle`: its name on line 6, after 4 spaces,
    // `<location id="id0">` (19) and `<name>` (6).
    let idle = on_line(6, 29, 33);
    assert_eq!(start["state"]["locationRanges"], json!([idle, idle]), "{r}");
    // P1 and P2 may take the lock: each edge is the first transition, at
    // its first label, the guard `lock == 0` on line 11 (6 spaces and
    // `<label kind="guard">`, 20).
    let transitions = start["transitions"].as_array().unwrap();
    assert_eq!(transitions.len(), 2, "{r}");
    for t in transitions {
        assert_eq!(t["edges"][0]["range"], on_line(11, 26, 35), "{t}");
    }
    // Taken, P1 is at `busy`, named on line 7 as `idle` on line 6.
    let step = transitions[0]["step"].clone();
    let r = c
        .request("zeno/simulate", json!({"uri": uri, "steps": [step]}))
        .await;
    assert_eq!(
        r["result"]["state"]["locationRanges"][0],
        on_line(7, 29, 33),
        "{r}"
    );
}

/// Locations without a name (none, or a blank one) and a transition whose
/// only label is a comment.
const UNNAMED: &str = r#"<nta><template><name>Q</name>
<location id="a"/>
<location id="b"><name> </name></location>
<init ref="a"/>
<transition><label kind="comments">go</label><source ref="a"/><target ref="b"/></transition>
</template><system>system Q;</system></nta>
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_name_or_a_label_the_simulator_points_at_the_tags() {
    let uri = "file:///models/unnamed.xml";
    let mut c = started().await;
    c.open(uri, UNNAMED).await;
    c.diagnostics_when_quiescent(uri).await;
    let r = c.request("zeno/simulate", json!({"uri": uri})).await;
    let start = &r["result"];
    assert!(r.get("error").is_none(), "{r}");
    // `a` has no `<name>`: its tag, the whole of line 1.
    assert_eq!(
        start["state"]["locationRanges"],
        json!([on_line(1, 0, 18)]),
        "{r}"
    );
    // The comment says nothing the edge does: its `<source ref="a"/>`,
    // after `<transition>` (12) and the comment label (33) on line 4.
    let transitions = start["transitions"].as_array().unwrap();
    assert_eq!(transitions.len(), 1, "{r}");
    assert_eq!(
        transitions[0]["edges"][0]["range"],
        on_line(4, 45, 62),
        "{r}"
    );
    // `b`'s name is blank: its start tag `<location id="b">` on line 2.
    let step = transitions[0]["step"].clone();
    let r = c
        .request("zeno/simulate", json!({"uri": uri, "steps": [step]}))
        .await;
    assert_eq!(
        r["result"]["state"]["locationRanges"][0],
        on_line(2, 0, 17),
        "{r}"
    );
}
