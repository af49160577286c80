//! Formatter fixtures (`tests/data/fmt/NAME.in.zeno` → `NAME.out.zeno`,
//! expected outputs written by hand), idempotence, and preservation of the
//! model's tokens and comments.

use std::fs;
use std::path::Path;

use proptest::prelude::*;
use zeno::fmt::format;
use zeno::syntax::{AstNode, SyntaxKind, parse};

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fmt")
}

fn fixtures() -> Vec<(String, String, String)> {
    let mut names: Vec<_> = fs::read_dir(data_dir())
        .expect("fixture directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".in.zeno").map(str::to_string)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let input =
                fs::read_to_string(data_dir().join(format!("{name}.in.zeno"))).expect("input");
            let output = fs::read_to_string(data_dir().join(format!("{name}.out.zeno")))
                .expect("expected output");
            (name, input, output)
        })
        .collect()
}

#[test]
fn fixtures_format_as_expected() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 4, "fixtures went missing");
    for (name, input, expected) in fixtures {
        let actual = format(&input).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(actual, expected, "fixture {name}");
    }
}

#[test]
fn fixture_outputs_are_fixed_points() {
    for (name, _, expected) in fixtures() {
        assert_eq!(format(&expected).unwrap(), expected, "fixture {name}");
    }
}

#[test]
fn refuses_files_with_syntax_errors() {
    let errors = format("int x = ;\n").unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "expected an expression, found `;`");
}

#[test]
fn empty_and_blank_files() {
    assert_eq!(format("").unwrap(), "");
    assert_eq!(format("\n\n  \n").unwrap(), "");
    assert_eq!(format("int x;").unwrap(), "int x;\n");
    assert_eq!(format("template T() {}").unwrap(), "template T() {\n}\n");
}

#[test]
fn crlf_input() {
    assert_eq!(
        format("int x; // c\r\n\r\n\r\nclock y;\r\n").unwrap(),
        "int x; // c\n\nclock y;\n"
    );
}

/// Significant tokens and comments, in order: formatting must keep them
/// (it may only split `int a, b;` into `int a; int b;`, which the samples
/// below avoid).
fn tokens(text: &str) -> Vec<(SyntaxKind, String)> {
    parse(text)
        .syntax_node()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() != SyntaxKind::WHITESPACE)
        .map(|t| (t.kind(), t.text().trim_end().to_string()))
        .collect()
}

const SAMPLES: &[&str] = &[
    include_str!("../data/fmt/fischer.in.zeno"),
    include_str!("../data/fmt/comments.in.zeno"),
    include_str!("../data/fmt/edges.in.zeno"),
    include_str!("../data/fmt/long_edges.in.zeno"),
    include_str!("../data/fmt/operators.in.zeno"),
    include_str!("../data/syntax/valid/all_constructs.zeno"),
];

/// Does formatting split a declaration (`int a, b;`)? Then the tokens
/// change (`int a; int b;`) and only idempotence is compared.
fn splits_declarations(text: &str) -> bool {
    parse(text)
        .tree()
        .syntax()
        .descendants()
        .filter_map(zeno::syntax::ast::VarDecl::cast)
        .any(|d| d.declarators().count() > 1)
}

#[test]
fn formatting_keeps_tokens_and_comments() {
    let mut compared = 0;
    for sample in SAMPLES {
        let formatted = format(sample).unwrap();
        if !splits_declarations(sample) {
            assert_eq!(tokens(&formatted), tokens(sample));
            compared += 1;
        }
    }
    assert!(compared >= 3);
}

/// Where tokens start: whitespace inserted there never changes a token.
fn token_starts(text: &str) -> Vec<usize> {
    parse(text)
        .syntax_node()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .map(|t| u32::from(t.text_range().start()) as usize)
        .collect()
}

/// Whitespace-only edits between tokens: insert spaces or newlines, or
/// delete a space (which may glue two tokens; such inputs are skipped).
fn respace(text: &str, edits: &[(usize, usize)]) -> String {
    let mut text = text.to_string();
    for &(pos, what) in edits {
        let starts = token_starts(&text);
        let at = starts.get(pos % starts.len().max(1)).copied().unwrap_or(0);
        match what % 4 {
            0 => text.insert(at, ' '),
            1 => text.insert(at, '\n'),
            2 => text.insert_str(at, "\n\n\n"),
            _ => {
                if text[at..].starts_with(' ') {
                    text.remove(at);
                }
            }
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    })]

    /// Formatting is idempotent, keeps the tokens, and does not depend on
    /// the input's layout beyond blank lines and comment placement.
    #[test]
    fn idempotent_on_respaced_samples(
        sample in 0..SAMPLES.len(),
        edits in proptest::collection::vec((any::<usize>(), any::<usize>()), 0..20),
    ) {
        let text = respace(SAMPLES[sample], &edits);
        // Whitespace edits can glue or split tokens (`- >`); skip those.
        prop_assume!(parse(&text).errors().is_empty());
        let once = format(&text).unwrap();
        if !splits_declarations(&text) {
            prop_assert_eq!(tokens(&once), tokens(&text));
        }
        let twice = format(&once).unwrap();
        prop_assert_eq!(twice, once);
    }
}

const VOCABULARY: &[&str] = &[
    "int x;",
    "clock c;",
    " x ",
    " + 1",
    " && y",
    "(",
    ")",
    "-",
    "!",
    "not ",
    ";",
    ",",
    "// note\n",
    "/* c */",
    "\n",
    "\n\n",
    "a -> b;",
    "l0 -> l1 when x > 0;",
    "do x = 0",
    " sync c!",
    "location q;",
    "init location p;",
    "[0]",
    ".f",
    "(1)",
    "+",
    "++",
    "--",
    "~",
    " & 1",
    " | y",
    " ^ 2",
    " << 2",
    " >? y",
    " %= 3",
    "&",
];

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    })]

    /// On any error-free mutation of the samples, the output is error-free,
    /// keeps the tokens (when no declaration is split) and is a fixed point.
    #[test]
    fn idempotent_on_mutated_samples(
        sample in 0..SAMPLES.len(),
        edits in proptest::collection::vec((any::<usize>(), 0..VOCABULARY.len()), 1..4),
    ) {
        let mut text = SAMPLES[sample].to_string();
        for (pos, word) in edits {
            // Insert between tokens, where an insertion has a fair chance
            // to keep the model valid.
            let starts = token_starts(&text);
            let at = starts.get(pos % starts.len().max(1)).copied().unwrap_or(0);
            text.insert_str(at, VOCABULARY[word]);
        }
        prop_assume!(parse(&text).errors().is_empty());
        let once = format(&text).unwrap();
        prop_assert!(parse(&once).errors().is_empty(), "{}", once);
        if !splits_declarations(&text) {
            prop_assert_eq!(tokens(&once), tokens(&text));
        }
        let twice = format(&once).unwrap();
        prop_assert_eq!(twice, once);
    }
}

/// `zeno fmt --check models/` must pass: the bundled models are the style guide.
#[test]
fn bundled_models_are_formatted() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut seen = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "zeno") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let formatted = format(&text).unwrap_or_else(|d| panic!("{path:?}: {d:?}"));
        assert!(formatted == text, "{path:?} is not formatted");
        seen += 1;
    }
    assert!(seen >= 7, "only {seen} models found");
}
