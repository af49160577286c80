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

/// The ir's printer names slot `v` as `v{v}` (no arrays in these trees).
struct Slots;

impl zeno::ir::print::Names for Slots {
    fn var(&self, v: zeno::ir::VarId) -> String {
        format!("v{v}")
    }
    fn array(&self, base: zeno::ir::VarId) -> (String, u32) {
        (format!("a{base}"), 0)
    }
}

/// Random ir expressions over every operator the ir has.
fn ir_expr() -> impl proptest::strategy::Strategy<Value = zeno::ir::Expr> {
    use proptest::prelude::*;
    use zeno::ir::{BinOp, Expr, UnOp};
    const BINARY: [BinOp; 21] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Mod,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Ge,
        BinOp::Gt,
        BinOp::And,
        BinOp::Or,
        BinOp::BitAnd,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Min,
        BinOp::Max,
        BinOp::Pow,
    ];
    let leaf = prop_oneof![
        (0i32..10).prop_map(Expr::Const),
        (0u32..3).prop_map(Expr::Var)
    ];
    leaf.prop_recursive(5, 40, 3, |inner| {
        prop_oneof![
            (
                prop::sample::select(vec![UnOp::Neg, UnOp::Not, UnOp::BitNot]),
                inner.clone()
            )
                .prop_map(|(op, a)| Expr::Unary(op, Box::new(a))),
            (
                prop::sample::select(BINARY.to_vec()),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| Expr::Binary(op, Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone(), inner).prop_map(|(c, a, b)| Expr::Cond(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
        ]
    })
}

/// The tree written with a pair of parentheses around every operator
/// application, as [`show`] writes a parse: its shape, spelled by hand
/// from zeno's operators (not by the printer under test).
fn shape(e: &zeno::ir::Expr) -> String {
    use zeno::ir::{BinOp, Expr, UnOp};
    match e {
        Expr::Const(n) => n.to_string(),
        Expr::Var(v) => format!("v{v}"),
        Expr::Unary(op, a) => {
            let op = match op {
                UnOp::Neg => "-",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            };
            format!("({op}{})", shape(a))
        }
        Expr::Binary(op, a, b) => {
            let op = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Mod => "%",
                BinOp::Lt => "<",
                BinOp::Le => "<=",
                BinOp::Eq => "==",
                BinOp::Ne => "!=",
                BinOp::Ge => ">=",
                BinOp::Gt => ">",
                BinOp::And => "&&",
                BinOp::Or => "||",
                BinOp::Imply => "imply",
                BinOp::BitAnd => "&",
                BinOp::BitOr => "|",
                BinOp::BitXor => "^",
                BinOp::Shl => "<<",
                BinOp::Shr => ">>",
                BinOp::Min => "<?",
                BinOp::Max => ">?",
                BinOp::Pow => "**",
            };
            format!("({} {op} {})", shape(a), shape(b))
        }
        Expr::Cond(c, a, b) => format!("({} ? {} : {})", shape(c), shape(a), shape(b)),
        other => panic!("not generated: {other:?}"),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(300))]

    /// The ir's printer (zeno's style) and zeno's parser agree on every
    /// operator's precedence and associativity: what is printed parses
    /// back into the tree it was printed from.
    #[test]
    fn printed_expressions_parse_back_to_their_tree(e in ir_expr()) {
        use zeno::ir::print::{Printer, Style};
        let text = Printer::new(&Slots, Style::ZENO).expr(&e);
        proptest::prop_assert_eq!(grouped(&text), shape(&e), "printed as {}", text);
    }
}
