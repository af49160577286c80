//! Broken models with their expected diagnostics, one snapshot per model in
//! `tests/data/semantics/NAME.expected` (`line:col severity message`, with
//! related locations indented below).

use std::fmt::Write;
use std::path::Path;

use zeno::diagnostics::Severity;

fn line_col(text: &str, offset: u32) -> (usize, usize) {
    let before = &text[..(offset as usize).min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn render(text: &str) -> String {
    let analysis = zeno::semantics::analyze(text);
    let mut out = String::new();
    for d in &analysis.diagnostics {
        let (l, c) = line_col(text, d.range.start);
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        };
        let _ = writeln!(out, "{l}:{c} {sev} {}", d.message);
        for r in &d.related {
            let (l, c) = line_col(text, r.range.start);
            let _ = writeln!(out, "    {l}:{c} {}", r.message);
        }
    }
    let has_errors = analysis
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    // The network exists exactly when there is no error.
    assert_eq!(analysis.network.is_some(), !has_errors);
    out
}

#[test]
fn corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/semantics");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "zeno"))
        .collect();
    files.sort();
    assert!(files.len() >= 10);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable model");
        let expected = path.with_extension("expected");
        expect_test::expect_file![expected].assert_eq(&render(&text));
    }
}
