//! `grammar/zeno.ungram` agrees with the syntax kinds and the AST enums.

use std::collections::BTreeMap;

use zeno::syntax::SyntaxKind;
use zeno::syntax::ast::{AstNode, Expr, Item, Stmt, Type};

const UNGRAM: &str = include_str!("../../grammar/zeno.ungram");

/// Rule name → right-hand side (comments stripped).
fn rules() -> BTreeMap<String, String> {
    let mut rules = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in UNGRAM.lines() {
        let line = line.split("//").next().unwrap_or("").trim_end();
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') && line.ends_with('=') {
            let name = line.trim_end_matches('=').trim().to_string();
            rules.insert(name.clone(), String::new());
            current = Some(name);
        } else if let Some(name) = &current {
            let rhs = rules.get_mut(name).unwrap();
            rhs.push(' ');
            rhs.push_str(line.trim());
        }
    }
    rules
}

fn screaming(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn kind_named(name: &str) -> Option<SyntaxKind> {
    SyntaxKind::all()
        .iter()
        .copied()
        .find(|k| format!("{k:?}") == screaming(name))
}

const ENUMS: &[&str] = &["Item", "Type", "Expr", "Stmt"];

#[test]
fn every_rule_is_a_node_kind_and_every_node_kind_has_a_rule() {
    let rules = rules();
    assert!(rules.len() > 40, "ungrammar not read: {rules:?}");
    for name in rules.keys() {
        if ENUMS.contains(&name.as_str()) {
            continue;
        }
        let kind = kind_named(name).unwrap_or_else(|| panic!("no SyntaxKind for rule {name}"));
        assert!(!kind.is_token(), "{name} is a token kind");
    }
    for &kind in SyntaxKind::all() {
        if kind.is_token() || kind == SyntaxKind::ERROR {
            continue;
        }
        let listed = rules.keys().any(|name| kind_named(name) == Some(kind));
        assert!(listed, "{kind:?} has no rule in zeno.ungram");
    }
}

#[test]
fn enum_rules_match_the_ast_enums() {
    let rules = rules();
    let check = |name: &str, can_cast: fn(SyntaxKind) -> bool| {
        let alternatives: Vec<SyntaxKind> = rules[name]
            .split('|')
            .map(|alt| kind_named(alt.trim()).unwrap_or_else(|| panic!("{name}: {alt}")))
            .collect();
        for &kind in SyntaxKind::all() {
            assert_eq!(
                can_cast(kind),
                alternatives.contains(&kind),
                "{name} and zeno.ungram disagree on {kind:?}"
            );
        }
    };
    check("Item", Item::can_cast);
    check("Type", Type::can_cast);
    check("Expr", Expr::can_cast);
    check("Stmt", Stmt::can_cast);
}
