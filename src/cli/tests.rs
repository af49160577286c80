//! Renderer tests on the hand-built fixture: every expected string below was
//! written from the fixture text by hand (line numbers counted in `TEXT`).

use super::args::TraceDetail;
use super::fixture;
use super::report::{self, FileReport, VerdictKind};
use super::{json, sarif, text};

fn file_with(results: &[(usize, zeno::checker::CheckResult)]) -> FileReport {
    let source = fixture::source();
    let net = fixture::network();
    let mut f = FileReport::new(&source, &[]);
    for (i, r) in results {
        f.checks.push(report::check_report(
            &source,
            &net,
            net.check_at(*i).unwrap(),
            r,
        ));
    }
    f
}

#[test]
fn verdict_lines() {
    let f = file_with(&[
        (0, fixture::violated()),
        (0, fixture::holds()),
        (1, fixture::violated()), // E<> with verdict Fails: no witness
        (1, fixture::limit()),
        (0, fixture::model_error()),
    ]);
    let summaries: Vec<_> = f.checks.iter().map(|c| c.summary.as_str()).collect();
    assert_eq!(
        summaries,
        [
            "violated — trace of 1 step",
            "holds",
            "fails — no reachable state satisfies it",
            "unknown: state limit reached",
            "model error: value 4 is outside the range [0, 3] of `id` — trace of 0 steps",
        ]
    );
    let codes: Vec<_> = f.checks.iter().map(|c| c.verdict.exit_code()).collect();
    assert_eq!(codes, [1, 0, 1, 3, 1]);
    assert_eq!(f.checks[3].limit, Some("states"));
}

#[test]
fn short_trace_text() {
    let f = file_with(&[(0, fixture::violated())]);
    let expected = "\
m.zeno
  mutex: violated — trace of 1 step
    A[] !(A.cs && B.done)
    explored 10 states, generated 12, stored 9, 0.250 s, peak memory 2.0 KiB
    1. delay 3/2: A: idle -> cs (go!), B: wait -> done (go?)
    then delay 0: `!(A.cs && B.done)` is false here, so `mutex` (A[] !(A.cs && B.done)) is violated
";
    assert_eq!(text::file(&f, TraceDetail::Short), expected);
}

#[test]
fn full_trace_text_has_states_and_edge_sources() {
    let f = file_with(&[(0, fixture::violated())]);
    let expected = "  mutex: violated — trace of 1 step
    A[] !(A.cs && B.done)
    explored 10 states, generated 12, stored 9, 0.250 s, peak memory 2.0 KiB
    0. initial: A.idle, B.wait; id = 0; A.x = 0
    1. delay 3/2: A: idle -> cs (go!), B: wait -> done (go?)
       at m.zeno:7:5: idle -> cs when x >= 1 sync go! do id = 1;
       at m.zeno:12:5: wait -> done sync go?;
       state: A.cs, B.done; id = 1; A.x = 3/2
    then delay 0: `!(A.cs && B.done)` is false here, so `mutex` (A[] !(A.cs && B.done)) is violated
";
    assert_eq!(text::check(&f, &f.checks[0], TraceDetail::Full), expected);
}

#[test]
fn no_trace_and_model_error_text() {
    let f = file_with(&[(0, fixture::violated()), (0, fixture::model_error())]);
    let none = text::check(&f, &f.checks[0], TraceDetail::None);
    // The verdict, the formula, the statistics.
    assert_eq!(none.lines().count(), 3, "{none}");
    let err = text::check(&f, &f.checks[1], TraceDetail::Short);
    assert!(
        err.ends_with(
            "    then delay 1/3: A: idle -> cs (go!), B: wait -> done (go?) fails: \
             value 4 is outside the range [0, 3] of `id`\n"
        ),
        "{err}"
    );
}

#[test]
fn one_state_is_singular() {
    let mut f = file_with(&[(0, fixture::limit())]);
    f.checks[0].stats.explored = 1;
    assert!(text::stats(&f.checks[0].stats).starts_with("explored 1 state, generated 12"));
}

#[test]
fn byte_sizes() {
    assert_eq!(text::bytes(0), "0 B");
    assert_eq!(text::bytes(1023), "1023 B");
    assert_eq!(text::bytes(1536), "1.5 KiB");
    assert_eq!(text::bytes(3 * 1024 * 1024), "3.0 MiB");
}

#[test]
fn json_document_fields() {
    let f = file_with(&[(0, fixture::violated()), (1, fixture::holds())]);
    let doc: serde_json::Value = serde_json::from_str(&json::document(&[f], 1)).unwrap();
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["exit_code"], 1);
    let file = &doc["files"][0];
    assert_eq!(file["path"], "m.zeno");
    assert!(file.get("error").is_none());
    let c = &file["checks"][0];
    assert_eq!(c["name"], "mutex");
    assert_eq!(c["kind"], "invariant");
    assert_eq!(c["verdict"], "fails");
    assert_eq!(c["range"]["start"]["line"], 15);
    assert_eq!(c["range"]["start"]["column"], 1);
    assert_eq!(c["stats"]["explored"], 10);
    assert_eq!(c["stats"]["time_seconds"], 0.25);
    assert_eq!(c["stats"]["trace_length"], 1);
    let step = &c["trace"]["steps"][0];
    assert_eq!(step["delay"], "3/2");
    assert_eq!(step["edges"][0]["process"], "A");
    assert_eq!(step["edges"][0]["source"], "idle");
    assert_eq!(step["edges"][0]["target"], "cs");
    assert_eq!(step["edges"][0]["sync"], "go!");
    assert_eq!(step["edges"][1]["range"]["start"]["line"], 12);
    assert_eq!(step["after"]["clocks"][0]["name"], "A.x");
    assert_eq!(step["after"]["clocks"][0]["value"], "3/2");
    assert_eq!(step["after"]["variables"][0]["value"], 1);
    assert_eq!(step["after"]["locations"][1]["location"], "done");
    assert_eq!(c["trace"]["end"]["kind"], "goal");
    let holds = &file["checks"][1];
    assert_eq!(holds["verdict"], "holds");
    assert_eq!(holds["kind"], "reachable");
    assert!(holds["trace"].is_null());
}

#[test]
fn sarif_results_and_code_flows() {
    use zeno::diagnostics::Diagnostic;
    let source = fixture::source();
    let mut f = FileReport::new(
        &source,
        &[Diagnostic::warning(
            fixture::span("clock x;"),
            "clock `x` is never read",
        )],
    );
    let net = fixture::network();
    f.checks.push(report::check_report(
        &source,
        &net,
        net.check_at(0).unwrap(),
        &fixture::violated(),
    ));
    f.checks.push(report::check_report(
        &source,
        &net,
        net.check_at(1).unwrap(),
        &fixture::holds(),
    ));
    let doc = sarif::document(&[f]);
    assert_eq!(doc["version"], "2.1.0");
    let results = doc["runs"][0]["results"].as_array().unwrap();
    // The warning and the violated check; the holding check is no result.
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["ruleId"], "diagnostic");
    assert_eq!(results[0]["level"], "warning");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        4
    );
    let v = &results[1];
    assert_eq!(v["ruleId"], "violated");
    assert_eq!(v["level"], "error");
    let region = &v["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], 15);
    let flow = v["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap();
    // One step with two edges (a handshake): one location per edge taken,
    // then why the trace ends, at the last edge.
    assert_eq!(flow.len(), 3);
    assert_eq!(
        flow[2]["location"]["message"]["text"],
        "then delay 0: `!(A.cs && B.done)` is false here, so `mutex` (A[] !(A.cs && B.done)) is violated"
    );
    assert_eq!(
        flow[0]["location"]["physicalLocation"]["region"]["startLine"],
        7
    );
    assert_eq!(
        flow[1]["location"]["physicalLocation"]["region"]["startLine"],
        12
    );
    assert_eq!(
        flow[0]["location"]["message"]["text"],
        "step 1: delay 3/2, A: idle -> cs (go!)"
    );
}

#[test]
fn bad_ids_from_the_checker_do_not_panic() {
    let mut r = fixture::violated();
    if let Some(t) = r.trace.as_mut() {
        t.steps[0].transition.edges.push((7, 9));
        t.steps[0].after.locations.push(42);
    }
    // A check that is not the network's cannot be asked for: `CheckId`
    // comes only from the network.
    let f = file_with(&[(0, r)]);
    let s = text::file(&f, TraceDetail::Full);
    assert!(s.contains("#7: ? -> ?"), "{s}");
}

#[test]
fn a_verdict_whose_trace_a_limit_stopped_says_so() {
    let mut violated = fixture::violated();
    violated.trace = None;
    violated.stats.trace_limit = Some(zeno::checker::Limit::Time);
    let mut error = fixture::model_error();
    error.trace = None;
    error.stats.trace_limit = Some(zeno::checker::Limit::Cancelled);
    let f = file_with(&[(0, violated), (0, error)]);
    assert_eq!(
        f.checks[0].summary,
        "violated — no trace: time limit reached while building it"
    );
    assert_eq!(
        f.checks[1].summary,
        "model error: value 4 is outside the range [0, 3] of `id` — no trace: cancelled while building it"
    );
    // The verdict stands (exit 1); JSON names the limit.
    assert_eq!(f.checks[0].verdict, VerdictKind::Fails);
    assert_eq!(f.checks[0].verdict.exit_code(), 1);
    assert_eq!(f.checks[0].limit, Some("time"));
    // With `--trace none` no trace was asked for: the verdict alone.
    let none = text::file(&f, TraceDetail::None);
    assert!(none.contains("  mutex: violated\n"), "{none}");
    assert!(!none.contains("no trace"), "{none}");
    let short = text::file(&f, TraceDetail::Short);
    assert!(
        short.contains("no trace: time limit reached while building it"),
        "{short}"
    );
}

#[test]
fn a_query_files_check_shows_where_it_is_and_its_comment() {
    let mut f = file_with(&[(0, fixture::holds())]);
    f.query_files.push(report::QueryFileReport {
        path: "m.q".into(),
        beside_model: true,
    });
    let c = &mut f.checks[0];
    c.formula = "A[] not (A.cs and B.done)".into();
    c.comment = Some("never both".into());
    c.path = Some("m.q".into());
    c.range.start = super::source::Position { line: 4, column: 1 };
    let range = c.range;
    f.not_checked.push(report::NotCheckedReport {
        name: "line7".into(),
        formula: "Pr[<=10](<> A.cs)".into(),
        comment: None,
        path: "m.q".into(),
        range: report::Range {
            start: super::source::Position { line: 7, column: 1 },
            ..range
        },
        reason: "statistical query",
        construct: Some("Pr"),
        error: None,
    });
    let out = text::file(&f, TraceDetail::None);
    assert!(
        out.starts_with(
            "m.zeno\n  queries from m.q (found beside the model; --no-queries-file skips it)\n  mutex: holds\n    A[] not (A.cs and B.done)   at m.q:4:1   // never both\n"
        ),
        "{out}"
    );
    assert_eq!(
        text::not_checked(&f),
        "  line7: not checked: statistical query (`Pr`)\n    Pr[<=10](<> A.cs)   at m.q:7:1\n"
    );
}
