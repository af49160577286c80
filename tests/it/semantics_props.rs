//! `analyze` is total: mutated models and arbitrary text never panic, and
//! huge ranges are capped instead of exhausting memory or time.

use proptest::prelude::*;
use zeno::diagnostics::Severity;
use zeno::semantics::analyze;

const SAMPLES: &[&str] = &[
    include_str!("../data/semantics/fischer.zeno"),
    include_str!("../data/semantics/checks.zeno"),
    include_str!("../data/semantics/system_line.zeno"),
    include_str!("../data/semantics/select_and_arrays.zeno"),
    include_str!("../data/semantics/clock_constraints.zeno"),
    include_str!("../data/semantics/channels.zeno"),
];

/// Snippets that stress the semantic rules when spliced anywhere.
const SNIPPETS: &[&str] = &[
    "int[0, 2000000000]",
    "select i : int[-2000000000, 2000000000]",
    "x",
    "Proc(1).",
    "forall (i : int) ",
    "[99999999999]",
    " || x > 1",
    "!",
    "&",
    ";",
    "}",
    "{",
    "(",
    "-> ",
    "system Proc;",
    "const int N = 1 / 0;",
    "2147483647 + 1",
    "-2147483648",
    "sum (i : int[0, 3]) ",
];

fn edit(text: &str, at: usize, del: usize, insert: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    let end = (at + del).min(chars.len());
    chars.splice(at..end, insert.chars());
    chars.into_iter().collect()
}

fn check_invariants(text: &str) {
    let a = analyze(text);
    let errors = a.diagnostics.iter().any(|d| d.severity == Severity::Error);
    assert_eq!(a.network.is_some(), !errors);
    for d in &a.diagnostics {
        assert!(d.range.start <= d.range.end);
        assert!(d.range.end as usize <= text.len(), "{d:?}");
    }
    assert!(
        a.diagnostics
            .windows(2)
            .all(|w| w[0].range.start <= w[1].range.start)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn mutated_samples(
        sample in 0..SAMPLES.len(),
        edits in prop::collection::vec((any::<usize>(), 0usize..8, prop::sample::select(SNIPPETS)), 1..4),
    ) {
        let mut text = SAMPLES[sample].to_string();
        for (at, del, ins) in edits {
            text = edit(&text, at, del, ins);
        }
        check_invariants(&text);
    }

    #[test]
    fn arbitrary_text(text in "\\PC{0,200}") {
        check_invariants(&text);
    }

    #[test]
    fn token_soup(parts in prop::collection::vec(prop::sample::select(vec![
        "int", "bool", "clock", "chan", "const", "template", "P", "(", ")", "{", "}",
        "init", "location", "l", "->", "when", "do", "x", "=", "0", ";", ",", "[", "]",
        "system", "check", "c", ":", "A[]", "E<>", "<=", ">", "&&", "||", "!", "select",
        "i", "sync", "?", "typedef", "forall", "&", ".", "2000000000", "-", "invariant",
    ]), 0..60)) {
        check_invariants(&parts.join(" "));
    }
}

#[test]
fn huge_ranges_are_capped() {
    let text = "template P(const int[0, 2000000000] id) {\n\
                init location s;\n\
                s -> s select i : int[0, 2000000000];\n\
                }\n\
                system P;\n\
                check c: E<> forall (k : int[0, 2000000000]) k >= 0;";
    let a = analyze(text);
    let msgs: Vec<&str> = a.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains("would make 2000000001 processes")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|m| m.contains("more than the 10000 that can be expanded")),
        "{msgs:?}"
    );
    assert!(a.network.is_none());
}

#[test]
fn nested_expansions_share_one_budget() {
    // Each quantifier alone is within the per-construct cap, together they
    // would make 10^12 terms.
    let text = "template P() { init location s; }\n\
                system P;\n\
                check c: E<> forall (i : int[0, 9999]) forall (j : int[0, 9999]) forall (k : int[0, 9999]) i + j + k >= 0;";
    let a = analyze(text);
    let msgs: Vec<&str> = a.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains("expands into more than 1000000")),
        "{msgs:?}"
    );
    assert!(a.network.is_none());
}

#[test]
fn deeply_nested_expressions_do_not_overflow_the_stack() {
    // The parser caps nesting; everything after it must cope with the cap
    // (test threads have small stacks).
    for n in [100, 1000, 1100, 5000] {
        let chain = vec!["id"; n].join(" + ");
        let parens = format!("{}id{}", "(".repeat(n), ")".repeat(n));
        let nots = format!("{}(id == 0)", "!".repeat(n));
        for e in [chain, parens, nots] {
            let text = format!(
                "int id;\ntemplate P() {{ clock x; init location s; s -> s when {e} && x > 1 do id = {e}; }}\nsystem P;\ncheck c: E<> {e};"
            );
            check_invariants(&text);
            if n >= 1000 {
                let a = analyze(&text);
                assert!(
                    a.diagnostics.iter().any(|d| d.message.contains("nest")),
                    "{:?}",
                    a.diagnostics
                );
            }
        }
    }
}
