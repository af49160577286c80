//! The one operator table ([`zeno_base::operators`]) held against the lexer:
//! every operator token the lexer knows has its entry (one per role), and
//! every spelling in the table lexes as exactly one token of that text.

use super::SyntaxKind;
use super::ast::bin_op;
use super::lexer::tokenize;
use zeno_base::operators::{ASSIGNMENTS, BINARY, BinaryOp, POSTFIX, PREFIX};

/// Tokens of a fixed text that are not operators of the table: brackets
/// and separators, the conditional's `?` and `:` (a construct of its own in
/// the grammar), an edge's arrow and the temporal operators of checks.
const NOT_IN_TABLE: &[&str] = &[
    ";", ",", ":", ".", "(", ")", "[", "]", "{", "}", "?", "->", "A[]", "E<>", "A<>", "E[]", "-->",
];

/// How many entries spell `text`: in the binary table, the assignments,
/// the prefix and the postfix operators.
fn entries(text: &str) -> [usize; 4] {
    [
        BINARY
            .iter()
            .filter(|b| b.spelling == text || b.word == Some(text))
            .count(),
        ASSIGNMENTS.iter().filter(|a| **a == text).count(),
        PREFIX.iter().filter(|(p, _)| *p == text).count(),
        POSTFIX.iter().filter(|p| **p == text).count(),
    ]
}

#[test]
fn every_operator_token_has_one_entry_per_role() {
    let mut operators = 0;
    for &kind in SyntaxKind::all() {
        let Some(text) = kind.token_text() else {
            continue;
        };
        let counts = entries(text);
        assert!(counts.iter().all(|&n| n <= 1), "`{text}`: {counts:?}");
        if kind.is_keyword() || NOT_IN_TABLE.contains(&text) {
            // A keyword is an operator only if the table says so (`and`).
            assert!(
                !NOT_IN_TABLE.contains(&text) || counts == [0; 4],
                "`{text}`"
            );
            continue;
        }
        operators += 1;
        assert!(
            counts.iter().sum::<usize>() >= 1,
            "the lexer's `{text}` ({kind:?}) is in no table"
        );
        // The parser reads a binary operator through the table.
        assert_eq!(
            bin_op(kind).is_some(),
            counts[0] == 1,
            "`{text}` ({kind:?})"
        );
    }
    // By hand: 21 binary symbols, 11 assignments, `!`, `~`, `++`, `--`, `'`.
    assert_eq!(operators, 37);
}

#[test]
fn every_spelling_in_the_table_lexes_as_one_token() {
    let spellings = BINARY
        .iter()
        .flat_map(|b| std::iter::once(b.spelling).chain(b.word))
        .chain(ASSIGNMENTS.iter().copied())
        .chain(PREFIX.iter().map(|(p, _)| *p))
        .chain(POSTFIX.iter().copied());
    for text in spellings {
        let (tokens, errors) = tokenize(text);
        assert!(errors.is_empty(), "`{text}`: {errors:?}");
        let kinds: Vec<SyntaxKind> = tokens.iter().map(|t| t.kind).collect();
        assert_eq!(kinds.len(), 1, "`{text}` lexes as {kinds:?}");
        assert_eq!(kinds[0].token_text(), Some(text));
    }
    // Each binary operator is read back as itself.
    for b in BINARY {
        let (tokens, _) = tokenize(b.spelling);
        assert_eq!(bin_op(tokens[0].kind), Some(b.op));
        assert_eq!(BinaryOp::from_spelling(b.spelling), Some(b.op));
    }
}
