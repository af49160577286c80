//! `docs/language.md` agrees with the parser: every `zeno` example parses
//! (fragments of a template body inside a template), the first model is
//! already formatted, and the keyword list is the lexer's.

use zeno::syntax::{SyntaxKind, parse};

const DOC: &str = include_str!("../../docs/language.md");

fn zeno_blocks() -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in DOC.lines() {
        match &mut current {
            None if line.trim_start() == "```zeno" => current = Some(String::new()),
            Some(block) if line.trim_start() == "```" => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

#[test]
fn every_example_parses() {
    let blocks = zeno_blocks();
    assert!(blocks.len() >= 6, "examples went missing");
    for block in &blocks {
        let as_is = parse(block);
        if as_is.errors().is_empty() {
            continue;
        }
        let wrapped = format!("template T() {{\n{block}}}\n");
        assert_eq!(
            parse(&wrapped).errors(),
            &[],
            "example does not parse:\n{block}"
        );
    }
}

#[test]
fn first_model_is_formatted() {
    let first = &zeno_blocks()[0];
    assert_eq!(zeno::fmt::format(first).unwrap(), *first);
}

#[test]
fn keyword_list_matches_the_lexer() {
    let start = DOC.find("- **Keywords**").expect("keyword list");
    let end = start
        + DOC[start..]
            .find("- **Path quantifiers**")
            .expect("end of list");
    let documented: Vec<&str> = DOC[start..end].split('`').skip(1).step_by(2).collect();
    let lexer: Vec<String> = SyntaxKind::all()
        .iter()
        .filter(|k| k.is_keyword())
        .map(|k| k.describe().trim_matches('`').to_string())
        .collect();
    assert_eq!(documented, lexer);
    // And each keyword really lexes as itself.
    for keyword in &lexer {
        let parse = parse(keyword);
        let token = parse.syntax_node().first_token().expect("a token");
        assert!(token.kind().is_keyword(), "{keyword}");
    }
}
