//! The editor grammars know exactly the keywords of the lexer.
//!
//! Keywords are read from the lexer's source (`#[token("...")]` attributes
//! whose text is a word, plus the temporal operators `A[]`, `E<>`, `A<>`,
//! `E[]`), from the TextMate grammar of the VS Code extension (the `match`
//! regexes under `repository.keywords`) and from the Vim syntax file
//! (`syntax keyword` lines, and the temporal-operator `syntax match`). A
//! keyword added to the language but not to a grammar, or left in a grammar
//! after it was removed, fails here.

use std::collections::BTreeSet;
use std::path::Path;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn is_temporal(t: &str) -> bool {
    matches!(t, "A[]" | "E<>" | "A<>" | "E[]")
}

fn is_keyword(t: &str) -> bool {
    (!t.is_empty() && t.chars().all(|c| c.is_ascii_alphabetic())) || is_temporal(t)
}

/// The texts of `#[token("...")]` attributes that are keywords.
fn lexer_keywords(source: &str) -> BTreeSet<String> {
    source
        .split("#[token(\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(text, _)| text.to_string()))
        .filter(|t| is_keyword(t))
        .collect()
}

/// The alternatives of a `\b(?:a|b|c)\b`-style regex, unescaped.
fn alternatives(regex: &str) -> Vec<String> {
    let inner = regex
        .trim_start_matches("\\b")
        .trim_start_matches("(?:")
        .trim_end_matches("\\b")
        .trim_end_matches(')');
    inner
        .split('|')
        .map(|alt| alt.replace("\\[", "[").replace("\\]", "]"))
        .collect()
}

fn textmate_keywords(grammar: &str) -> BTreeSet<String> {
    let json: serde_json::Value = serde_json::from_str(grammar).expect("grammar is valid JSON");
    let patterns = json["repository"]["keywords"]["patterns"]
        .as_array()
        .expect("repository.keywords.patterns is a list");
    patterns
        .iter()
        .flat_map(|p| alternatives(p["match"].as_str().expect("each keyword rule has a match")))
        .collect()
}

/// Words of `syntax keyword GROUP word...` lines, and the temporal operators
/// listed in the `zenoTemporal` match (written `A\[\]` etc.).
fn vim_keywords(syntax: &str) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for line in syntax.lines() {
        let mut parts = line.split_whitespace();
        match (parts.next(), parts.next(), parts.next()) {
            (Some("syntax"), Some("keyword"), Some(_group)) => {
                words.extend(parts.map(str::to_string));
            }
            (Some("syntax"), Some("match"), Some("zenoTemporal")) => {
                for op in ["A[]", "E<>", "A<>", "E[]"] {
                    let escaped = op.replace('[', "\\[").replace(']', "\\]");
                    if line.contains(&escaped) {
                        words.insert(op.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    words
}

fn assert_same(what: &str, lexer: &BTreeSet<String>, other: &BTreeSet<String>) {
    let missing: Vec<_> = lexer.difference(other).collect();
    let extra: Vec<_> = other.difference(lexer).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what} is out of sync with the lexer: missing {missing:?}, not keywords {extra:?}"
    );
}

#[test]
fn lexer_keywords_are_found() {
    // Guards the extraction itself: a few keywords every version has.
    let kw = lexer_keywords(&read("crates/syntax/src/lexer.rs"));
    for k in ["template", "location", "check", "when", "A[]", "E<>"] {
        assert!(kw.contains(k), "{k} not found among {kw:?}");
    }
    assert!(!kw.contains("->") && !kw.contains("/*"));
}

#[test]
fn textmate_grammar_has_the_lexer_keywords() {
    let lexer = lexer_keywords(&read("crates/syntax/src/lexer.rs"));
    let grammar = textmate_keywords(&read("editors/vscode/syntaxes/zeno.tmLanguage.json"));
    assert_same(
        "editors/vscode/syntaxes/zeno.tmLanguage.json",
        &lexer,
        &grammar,
    );
}

#[test]
fn vim_syntax_has_the_lexer_keywords() {
    let lexer = lexer_keywords(&read("crates/syntax/src/lexer.rs"));
    let vim = vim_keywords(&read("editors/nvim/syntax/zeno.vim"));
    assert_same("editors/nvim/syntax/zeno.vim", &lexer, &vim);
}

#[test]
fn extraction_sees_a_missing_keyword() {
    // The comparison is not vacuous: a grammar without `sum` is reported.
    let lexer = lexer_keywords("#[token(\"sum\")] #[token(\"int\")] #[token(\"->\")]");
    let grammar = textmate_keywords(
        r#"{"repository":{"keywords":{"patterns":[{"match":"\\b(?:int)\\b"}]}}}"#,
    );
    let missing: Vec<_> = lexer.difference(&grammar).cloned().collect();
    assert_eq!(missing, vec!["sum".to_string()]);
    let vim = vim_keywords("syntax keyword zenoType int\nsyntax match zenoTemporal /\\<A\\[\\]/\n");
    assert_eq!(
        vim,
        ["A[]", "int"]
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>()
    );
}
