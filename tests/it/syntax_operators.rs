//! Operator precedence and associativity of the parser, as fully
//! parenthesised text, against UPPAAL's table (docs/language.md,
//! "Expressions"). Each expected string is written by hand from the table.

use zeno::syntax::ast::{self, AstNode};
use zeno::syntax::parse;

/// The declaration `int x = <text>;` parsed, its initial value written with
/// a pair of parentheses around every operator application.
fn grouped(text: &str) -> String {
    let source = format!("int x = {text};");
    let parse = parse(&source);
    assert!(parse.errors().is_empty(), "{text}: {:?}", parse.errors());
    let init = parse
        .syntax_node()
        .descendants()
        .find_map(ast::VarDeclarator::cast)
        .and_then(|d| d.init())
        .expect("an initial value");
    show(&init)
}

fn show(e: &ast::Expr) -> String {
    let sub = |e: Option<ast::Expr>| e.map_or("?".to_string(), |e| show(&e));
    match e {
        ast::Expr::Literal(_) | ast::Expr::NameRef(_) => e.syntax().text().to_string(),
        ast::Expr::ParenExpr(p) => sub(p.expr()),
        ast::Expr::PrefixExpr(p) => {
            let op = p.op_token().unwrap();
            let space = if op.text() == "not" { " " } else { "" };
            format!("({}{space}{})", op.text(), sub(p.expr()))
        }
        ast::Expr::BinExpr(b) => format!(
            "({} {} {})",
            sub(b.lhs()),
            b.op_token().unwrap().text(),
            sub(b.rhs())
        ),
        ast::Expr::AssignExpr(a) => format!(
            "({} {} {})",
            sub(a.lhs()),
            a.op_token().unwrap().text(),
            sub(a.rhs())
        ),
        ast::Expr::CondExpr(c) => format!(
            "({} ? {} : {})",
            sub(c.condition()),
            sub(c.then_branch()),
            sub(c.else_branch())
        ),
        ast::Expr::IndexExpr(i) => format!("{}[{}]", sub(i.base()), sub(i.index())),
        ast::Expr::PostfixExpr(p) => format!("({}{})", sub(p.expr()), p.op_token().unwrap().text()),
        other => other.syntax().text().to_string(),
    }
}

#[test]
fn bit_operators_bind_as_in_c_and_uppaal() {
    // `&` looser than `==`, `^` looser than `&`, `|` looser than `^`, all
    // tighter than `&&`.
    assert_eq!(grouped("a & b == c"), "(a & (b == c))");
    assert_eq!(grouped("a | b ^ c & d"), "(a | (b ^ (c & d)))");
    assert_eq!(grouped("a && b | c"), "(a && (b | c))");
    assert_eq!(grouped("a | b || c"), "((a | b) || c)");
    // Left-associative.
    assert_eq!(grouped("a & b & c"), "((a & b) & c)");
    assert_eq!(grouped("a ^ b ^ c"), "((a ^ b) ^ c)");
    // Shifts: looser than `+`, tighter than comparisons.
    assert_eq!(grouped("1 << n + 1"), "(1 << (n + 1))");
    assert_eq!(grouped("a >> 1 < b"), "((a >> 1) < b)");
    assert_eq!(grouped("a << 1 << 2"), "((a << 1) << 2)");
    // `~` is a prefix operator like `-`.
    assert_eq!(grouped("~a & b"), "((~a) & b)");
    assert_eq!(grouped("~-a"), "(~(-a))");
    // `not` still takes a whole comparison, and now a bitwise operand.
    assert_eq!(grouped("not a | b"), "(not (a | b))");
}

#[test]
fn min_and_max_sit_between_shifts_and_comparisons() {
    assert_eq!(grouped("a <? b < c"), "((a <? b) < c)");
    assert_eq!(grouped("a >? b << 1"), "(a >? (b << 1))");
    assert_eq!(grouped("a <? b >? c"), "((a <? b) >? c)");
    assert_eq!(grouped("a + b <? c"), "((a + b) <? c)");
    assert_eq!(grouped("a <? b == c"), "((a <? b) == c)");
}

#[test]
fn compound_assignments_and_prefix_increments() {
    for op in ["%=", "&=", "|=", "^=", "<<=", ">>="] {
        assert_eq!(
            grouped(&format!("v {op} a | b")),
            format!("(v {op} (a | b))")
        );
    }
    // Right-associative: `i = j = 0` assigns `j` first.
    assert_eq!(grouped("i = j = 0"), "(i = (j = 0))");
    assert_eq!(grouped("i += j <<= 1"), "(i += (j <<= 1))");
    // Prefix `++`/`--` apply to a postfix expression.
    assert_eq!(grouped("++a[i]"), "(++a[i])");
    assert_eq!(grouped("--v + 1"), "((--v) + 1)");
    assert_eq!(grouped("- --v"), "(-(--v))");
    assert_eq!(grouped("+a"), "(+a)");
    assert_eq!(grouped("v++ + 1"), "((v++) + 1)");
}

#[test]
fn the_lexer_takes_the_longest_operator() {
    // `<<=` is one token, `<?` too; `a<-b` stays `<` and `-`.
    assert_eq!(grouped("a<<=b"), "(a <<= b)");
    assert_eq!(grouped("a<?b"), "(a <? b)");
    assert_eq!(grouped("a<-b"), "(a < (-b))");
    assert_eq!(grouped("a>>b"), "(a >> b)");
}
