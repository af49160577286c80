//! The hand-written corpus: every `tests/data/syntax/broken/*.zeno` has a
//! `.errors` file next to it listing the expected diagnostics as
//! `line:col: message`, written by hand. Valid models must parse cleanly.

use std::fs;
use std::path::Path;

use zeno::line_index::line_col;
use zeno::syntax::parse;

fn data_dir(sub: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/syntax")
        .join(sub)
}

fn render(text: &str) -> String {
    let parse = parse(text);
    assert_eq!(parse.syntax_node().to_string(), text);
    parse
        .errors()
        .iter()
        .map(|e| {
            let (line, col) = line_col(text, e.range.start);
            format!("{line}:{col}: {}\n", e.message)
        })
        .collect()
}

#[test]
fn broken_inputs_give_the_expected_diagnostics() {
    let mut failures = Vec::new();
    let mut count = 0;
    let mut entries: Vec<_> = fs::read_dir(data_dir("broken"))
        .expect("corpus directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "zeno"))
        .collect();
    entries.sort();
    for path in entries {
        count += 1;
        let text = fs::read_to_string(&path).expect("model");
        let expected = fs::read_to_string(path.with_extension("errors")).expect("errors file");
        let actual = render(&text);
        if actual != expected {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(count >= 10, "the corpus went missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn valid_models_parse_cleanly() {
    for entry in fs::read_dir(data_dir("valid")).expect("valid directory") {
        let path = entry.expect("entry").path();
        let text = fs::read_to_string(&path).expect("model");
        assert_eq!(render(&text), "", "{}", path.display());
    }
}

#[test]
fn nesting_limit_is_reported_where_it_is_hit() {
    // 200 parentheses: the 129th opening one is where the parser gives up.
    let text = format!("int x = {}1{};", "(".repeat(200), ")".repeat(200));
    assert_eq!(
        render(&text),
        format!(
            "1:{}: nesting too deep: the parser gives up on this construct\n",
            8 + 129
        )
    );
}

#[test]
fn line_col_counts_characters() {
    assert_eq!(line_col("ab\ncé d", 0), (1, 1));
    assert_eq!(line_col("ab\ncé d", 3), (2, 1));
    // `é` is two bytes but one column.
    assert_eq!(line_col("ab\ncé d", 7), (2, 4));
}
