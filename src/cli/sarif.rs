//! `zeno check --format sarif`: SARIF 2.1.0 for code-scanning tools.
//!
//! A violated check (or a reachable model error) is a result at the `check`
//! declaration whose trace is a `codeFlows` thread flow with one location per
//! step, at the edge taken. Syntax and semantic diagnostics are results too.

use std::fmt::Write;

use serde_json::{Value, json};

use super::report::{CheckReport, EdgeReport, EndReport, FileReport, Range, VerdictKind};
use super::text;

const RULES: [(&str, &str); 8] = [
    ("violated", "An invariant (A[]) check is violated"),
    (
        "no-witness",
        "No reachable state satisfies a reachability (E<>) check",
    ),
    ("model-error", "A run-time error of the model is reachable"),
    ("unknown", "The search stopped at a limit before a verdict"),
    ("value", "The answer of a sup: or inf: query"),
    (
        "diagnostic",
        "A syntax or semantic error or warning in the model",
    ),
    ("query-refused", "A symbolic UPPAAL query zeno cannot check"),
    (
        "query-not-symbolic",
        "A query for another UPPAAL engine (statistical, controller synthesis, ...), not checked",
    ),
];

pub fn document(files: &[FileReport]) -> Value {
    let mut results = Vec::new();
    for f in files {
        if let Some(e) = &f.error {
            results.push(json!({
                "ruleId": "diagnostic",
                "level": "error",
                "message": { "text": e },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": f.path } } }],
            }));
        }
        for d in f.diagnostics.iter().chain(&f.import_warnings) {
            let level = match d.severity {
                "error" => "error",
                "warning" => "warning",
                _ => "note",
            };
            let related: Vec<Value> = d
                .related
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let mut l = location(&f.path, &r.range, Some(&r.message));
                    l["id"] = json!(i);
                    l
                })
                .collect();
            // A diagnostic located in an imported file's zeno text has no
            // region in the file: it names the file alone, and says where
            // in the imported text it is.
            if d.in_imported_text {
                let at = d.range.start;
                results.push(json!({
                    "ruleId": "diagnostic",
                    "level": level,
                    "message": { "text": format!(
                        "{} (at {}:{} of the imported zeno text, which `zeno import` prints)",
                        d.message, at.line, at.column
                    ) },
                    "locations": [{ "physicalLocation": { "artifactLocation": { "uri": f.path } } }],
                }));
                continue;
            }
            results.push(json!({
                "ruleId": "diagnostic",
                "level": level,
                "message": { "text": d.message },
                "locations": [location(&f.path, &d.range, None)],
                "relatedLocations": related,
            }));
        }
        for c in &f.checks {
            if let Some(r) = check_result(&f.path, c) {
                results.push(r);
            }
        }
        for n in &f.not_checked {
            let (rule, level, text) = match &n.error {
                Some(e) => (
                    "query-refused",
                    "error",
                    format!("{}: not checked: {e}", n.name),
                ),
                None => (
                    "query-not-symbolic",
                    "note",
                    format!("{}: not checked: {}", n.name, n.reason),
                ),
            };
            results.push(json!({
                "ruleId": rule,
                "level": level,
                "message": { "text": text },
                "locations": [location(&n.path, &n.range, None)],
                "properties": { "check": n.name, "formula": n.formula },
            }));
        }
    }
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, text)| json!({ "id": id, "shortDescription": { "text": text } }))
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "zeno",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            } },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

fn check_result(path: &str, c: &CheckReport) -> Option<Value> {
    let (rule, level) = match c.verdict {
        // A value query's answer is information, not a finding.
        VerdictKind::Holds if c.values.is_some() => ("value", "note"),
        VerdictKind::Holds => return None,
        VerdictKind::Fails if matches!(c.kind, "invariant" | "inevitable" | "leads_to") => {
            ("violated", "error")
        }
        VerdictKind::Fails => ("no-witness", "error"),
        VerdictKind::ModelError => ("model-error", "error"),
        VerdictKind::Unknown => ("unknown", "warning"),
    };
    // The verdict, then why its trace ends.
    let mut message = format!("{}: {} ({})", c.name, c.summary, c.formula);
    if let Some(t) = &c.trace {
        let _ = write!(message, ": {}", t.ending.words);
    }
    let mut result = json!({
        "ruleId": rule,
        "level": level,
        "message": { "text": message },
        // A query file's check is at its line there; its trace is in the model.
        "locations": [location(c.path.as_deref().unwrap_or(path), &c.range, None)],
        "properties": {
            "check": c.name,
            "formula": c.formula,
            "explored": c.stats.explored,
            "generated": c.stats.generated,
            "stored": c.stats.stored,
        },
    });
    if let Some(trace) = &c.trace {
        let mut steps = Vec::new();
        for (i, step) in trace.steps.iter().enumerate() {
            // A lasso's cycle: steps `loop_start + 1 ..`, one level deeper.
            let cycle = trace.loop_start.is_some_and(|s| i >= s);
            for e in &step.edges {
                let mark = if cycle { " (cycle)" } else { "" };
                let msg = format!("step {}{mark}: delay {}, {}", i + 1, step.delay, edge(e));
                let mut l = json!({ "location": location(path, &e.range, Some(&msg)) });
                if cycle {
                    l["nestingLevel"] = json!(1);
                }
                steps.push(l);
            }
        }
        if let EndReport::ModelError {
            delay,
            edges,
            error,
            statement,
        } = &trace.end
        {
            for e in edges {
                let msg = format!("then delay {delay}, {} fails: {error}", edge(e));
                steps.push(json!({ "location": location(path, &e.range, Some(&msg)) }));
            }
            if let Some(at) = statement {
                let msg = format!("the failing statement: {error}");
                steps
                    .push(json!({ "location": location(path, at, Some(&msg)), "nestingLevel": 1 }));
            }
        }
        if let EndReport::Loop { delay, loop_start } = &trace.end
            && let Some(e) = trace.steps.get(*loop_start).and_then(|s| s.edges.first())
        {
            // The way back: the cycle's first step again, and for ever.
            let msg = format!("then delay {delay}: {}", trace.ending.words);
            steps.push(
                json!({ "location": location(path, &e.range, Some(&msg)), "nestingLevel": 1 }),
            );
            result["properties"]["loop_start"] = json!(loop_start);
        }
        // The trace's end, said once at its last step (or at the check when
        // it has none). A model error and a lasso said theirs above.
        if !matches!(
            trace.end,
            EndReport::ModelError { .. } | EndReport::Loop { .. }
        ) {
            let msg = match &trace.end {
                EndReport::Goal { delay } | EndReport::Deadlock { delay } => {
                    format!("then delay {delay}: {}", trace.ending.words)
                }
                _ => format!("then {}", trace.ending.words),
            };
            let at = match trace.steps.last().and_then(|s| s.edges.first()) {
                Some(e) => location(path, &e.range, Some(&msg)),
                None => location(c.path.as_deref().unwrap_or(path), &c.range, Some(&msg)),
            };
            steps.push(json!({ "location": at }));
        }
        result["codeFlows"] = json!([{ "threadFlows": [{ "locations": steps }] }]);
    }
    Some(result)
}

fn edge(e: &EdgeReport) -> String {
    text::edges(std::slice::from_ref(e))
}

fn location(path: &str, range: &Range, message: Option<&str>) -> Value {
    let mut l = json!({
        "physicalLocation": {
            "artifactLocation": { "uri": path },
            "region": {
                "startLine": range.start.line,
                "startColumn": range.start.column,
                "endLine": range.end.line,
                "endColumn": range.end.column,
            },
        },
    });
    if let Some(m) = message {
        l["message"] = json!({ "text": m });
    }
    l
}
