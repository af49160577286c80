//! UPPAAL/TChecker expressions: parse into a small tree, then print as zeno.
//!
//! Re-printing (rather than copying text) normalises `:=` to `=`, `and` to
//! `&&` and so on, and lets the parser reject what zeno has no equivalent
//! for (decimal literals, an assignment inside a value) with a located error.

use super::context::Context;
use super::lex::{Cursor, PResult, Tok, describe};
use zeno_base::operators::{BinaryOp, Prec};

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Int(i64),
    Ident(String),
    Index(Box<Expr>, Box<Expr>),
    /// `P(1).cs`, `P1.x`: a process's location or variable (queries only).
    Field(Box<Expr>, String),
    /// `P(1)` before a `.` in a query: an instance of a parameterised template.
    Call(String, Vec<Expr>),
    /// `P(1).f(args)`: a function of a process's template called through
    /// the process (queries only).
    ProcessCall(Box<Expr>, String, Vec<Expr>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Assign(&'static str, Box<Expr>, Box<Expr>),
    /// A postfix operator: `v++`, `v--`, and a clock's rate `x'`
    /// (stopwatches; zeno checks where it may stand).
    PostIncr(&'static str, Box<Expr>),
    /// `forall (i : T) body`, `exists`, `sum`; the type is already zeno text.
    Quant(&'static str, String, String, Box<Expr>),
}

/// A binary operator of UPPAAL's: its zeno spelling and level. The
/// symbolic ones are zeno's (the one table, `zeno_base::operators`, which
/// follows UPPAAL's); the words differ. As in the current UPPAAL parser
/// (libutap, UPPAAL 4.1 and 5), `or`, `xor` and `imply` bind as `||`
/// (left-associative: `a imply b || c` is `(a imply b) || c`), `and` as
/// `&&`; UPPAAL 4.0 put the words below `?:`.
fn binary(token: &str) -> Option<(&'static str, Prec)> {
    match token {
        "imply" => Some(("imply", Prec::Or)),
        "xor" => Some(("xor", Prec::Or)),
        _ => BinaryOp::from_spelling(token).map(|op| (op.spelling(), op.prec())),
    }
}

/// The binding power of a level in this parser: above 0 (a whole
/// expression, where an assignment may stand) and 1 (a conditional's
/// middle, where it may not).
const fn bp(prec: Prec) -> u8 {
    prec.level() + 2
}

const ASSIGN_BP: u8 = bp(Prec::Assign);
const COND_BP: u8 = bp(Prec::Cond);
const UNARY_BP: u8 = bp(Prec::Prefix);

/// UPPAAL's built-in `abs(e)` as `(e < 0 ? -e : e)`. The operand is
/// written twice, so it must be free of effects (an assignment, an
/// increment or a call, which could be a function with effects).
fn absolute(span: zeno_ir::Span, e: &Expr) -> PResult<Expr> {
    fn pure(e: &Expr) -> bool {
        match e {
            Expr::Int(_) | Expr::Ident(_) => true,
            Expr::Index(a, b) | Expr::Binary(_, a, b) => pure(a) && pure(b),
            Expr::Field(a, _) => pure(a),
            Expr::Unary(op, a) => !matches!(*op, "++" | "--") && pure(a),
            Expr::Cond(a, b, c) => pure(a) && pure(b) && pure(c),
            Expr::Quant(_, _, _, body) => pure(body),
            Expr::Call(..) | Expr::ProcessCall(..) | Expr::Assign(..) | Expr::PostIncr(..) => false,
        }
    }
    if !pure(e) {
        return Err((
            span,
            "`abs` of an expression with a call, an assignment or an increment is not supported"
                .into(),
        ));
    }
    Ok(Expr::Cond(
        Box::new(Expr::Binary(
            "<",
            Box::new(e.clone()),
            Box::new(Expr::Int(0)),
        )),
        Box::new(Expr::Unary("-", Box::new(e.clone()))),
        Box::new(e.clone()),
    ))
}

/// UPPAAL's assignment operators and their zeno spelling.
const ASSIGN: &[(&str, &str)] = &[
    ("=", "="),
    (":=", "="),
    ("+=", "+="),
    ("-=", "-="),
    ("*=", "*="),
    ("/=", "/="),
    ("%=", "%="),
    ("&=", "&="),
    ("|=", "|="),
    ("^=", "^="),
    ("<<=", "<<="),
    (">>=", ">>="),
];

pub(crate) struct Parser<'c> {
    pub c: &'c mut Cursor,
}

impl Parser<'_> {
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.expr_bp(0)
    }

    /// An expression that stops before `,` (argument lists, updates).
    fn expr_bp(&mut self, min_bp: u8) -> PResult<Expr> {
        let depth = self.c.depth;
        self.c.enter()?;
        let e = self.expr_bp_here(min_bp);
        // Also undoes the levels a chain of operators entered.
        self.c.depth = depth;
        e
    }

    fn expr_bp_here(&mut self, min_bp: u8) -> PResult<Expr> {
        let mut lhs = self.prefix()?;
        loop {
            let op = match self.c.peek() {
                Tok::Punct(p) => *p,
                Tok::Ident(s) if s == "xor" => "xor",
                Tok::Ident(s) if s == "and" => "and",
                Tok::Ident(s) if s == "or" => "or",
                Tok::Ident(s) if s == "imply" => "imply",
                _ => break,
            };
            if let Some((norm, prec)) = binary(op) {
                let bp = bp(prec);
                if bp < min_bp {
                    break;
                }
                // `1 + 1 + … + 1` builds a tree as deep as the chain is
                // long: it counts against the nesting limit (as in zeno's
                // parser), so that printing it cannot exhaust the stack.
                self.c.enter()?;
                self.c.bump();
                let rhs = self.expr_bp(bp + 1)?;
                lhs = if op == "xor" {
                    // UPPAAL 5's logical exclusive or: the truth values
                    // differ (`!a != !b` holds for integer operands too).
                    let not = |e| Box::new(Expr::Unary("!", Box::new(e)));
                    Expr::Binary("!=", not(lhs), not(rhs))
                } else {
                    Expr::Binary(norm, Box::new(lhs), Box::new(rhs))
                };
                continue;
            }
            match op {
                "?" if COND_BP >= min_bp => {
                    self.c.bump();
                    let then = self.expr_bp(1)?;
                    self.c.expect(":")?;
                    let els = self.expr_bp(COND_BP)?;
                    lhs = Expr::Cond(Box::new(lhs), Box::new(then), Box::new(els));
                }
                _ if ASSIGN.iter().any(|(t, _)| *t == op) => {
                    // An assignment is the whole expression, the right-hand
                    // side of another one (`i = j = 0`) or parenthesised
                    // (`(a = 1) + 2`), as UPPAAL's grammar has it.
                    if min_bp > 0 && min_bp != ASSIGN_BP {
                        return Err((
                            self.c.span(),
                            "assignment inside an expression is not supported".into(),
                        ));
                    }
                    self.c.bump();
                    let norm = ASSIGN
                        .iter()
                        .find(|(t, _)| *t == op)
                        .map_or("=", |(_, n)| *n);
                    let rhs = self.expr_bp(ASSIGN_BP)?;
                    lhs = Expr::Assign(norm, Box::new(lhs), Box::new(rhs));
                }
                _ => break,
            }
        }
        Ok(lhs)
    }

    fn prefix(&mut self) -> PResult<Expr> {
        let span = self.c.span();
        match self.c.peek().clone() {
            Tok::Punct("!") => {
                self.c.bump();
                Ok(Expr::Unary("!", Box::new(self.expr_bp(UNARY_BP)?)))
            }
            Tok::Punct("-") => {
                self.c.bump();
                match self.expr_bp(UNARY_BP)? {
                    Expr::Int(n) => Ok(Expr::Int(-n)),
                    e => Ok(Expr::Unary("-", Box::new(e))),
                }
            }
            Tok::Punct("+") => {
                self.c.bump();
                self.expr_bp(UNARY_BP)
            }
            Tok::Punct("~") => {
                self.c.bump();
                Ok(Expr::Unary("~", Box::new(self.expr_bp(UNARY_BP)?)))
            }
            Tok::Punct(op @ ("++" | "--")) => {
                self.c.bump();
                Ok(Expr::Unary(op, Box::new(self.expr_bp(UNARY_BP)?)))
            }
            Tok::Punct("(") => {
                self.c.bump();
                // An assignment may stand in parentheses (`b = (a = 1) + 2`);
                // zeno decides where it may run.
                let e = self.expr_bp(0)?;
                self.c.expect(")")?;
                self.postfix(e)
            }
            Tok::Int(n) => {
                self.c.bump();
                Ok(Expr::Int(n))
            }
            // UPPAAL's lexer has decimal integers only (and doubles, which
            // zeno lacks): `0x1F` is no number there either.
            Tok::Float(s) if s.starts_with("0x") || s.starts_with("0X") => Err((
                span,
                format!("`{s}`: UPPAAL has no hexadecimal literals; write the number in decimal"),
            )),
            Tok::Float(s) => Err((
                span,
                format!("unsupported number `{s}`: only integers are supported"),
            )),
            // `not` is `!` in the current UPPAAL parser: `not a == b` is
            // `(not a) == b` (UPPAAL 4.0 read it as `not (a == b)`).
            Tok::Ident(s) if s == "not" => {
                self.c.bump();
                Ok(Expr::Unary("!", Box::new(self.expr_bp(UNARY_BP)?)))
            }
            // Quantifiers are expressions everywhere, as in UPPAAL (guards,
            // updates, function bodies), with the body as far right as it goes.
            // `sum (i : T) e` is a quantifier; `sum(a, b)` calls a function
            // the model names `sum` (UPPAAL does not reserve the word, and
            // models use it), which zeno renames like its other keywords.
            Tok::Ident(s)
                if matches!(s.as_str(), "forall" | "exists" | "sum")
                    && matches!(self.c.peek_at(1), Tok::Punct("("))
                    && matches!(self.c.peek_at(2), Tok::Ident(_))
                    && matches!(self.c.peek_at(3), Tok::Punct(":")) =>
            {
                self.c.bump();
                let kind = match s.as_str() {
                    "forall" => "forall",
                    "exists" => "exists",
                    _ => "sum",
                };
                self.c.expect("(")?;
                let var = self.c.ident()?;
                self.c.expect(":")?;
                let ty = self.bounded_type()?;
                self.c.expect(")")?;
                let body = self.expr_bp(0)?;
                Ok(Expr::Quant(kind, var, ty, Box::new(body)))
            }
            Tok::Ident(s) => {
                self.c.bump();
                let e = if self.c.at("(") {
                    self.c.bump();
                    let args = self
                        .c
                        .list_until(")", |c| Parser { c }.expr_bp(ASSIGN_BP + 1))?;
                    if s == "abs" && args.len() == 1 && !self.c.cx.user_abs() {
                        return self.postfix(absolute(span, &args[0])?);
                    }
                    // `Proc(1).cs` in a query, or a function's call (in a
                    // query too, as UPPAAL allows: a function with effects
                    // there is rejected by the analysis, and the query
                    // alone is set aside, see `load::set_aside_failing_checks`).
                    Expr::Call(s, args)
                } else {
                    Expr::Ident(s)
                };
                self.postfix(e)
            }
            t => Err((
                span,
                format!("expected an expression, found {}", describe(&t)),
            )),
        }
    }

    fn postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.c.eat("[") {
                let i = self.expr_bp(1)?;
                self.c.expect("]")?;
                e = Expr::Index(Box::new(e), Box::new(i));
            } else if self.c.at(".") {
                self.c.bump();
                let f = self.c.ident()?;
                e = if self.c.eat("(") {
                    let args = self
                        .c
                        .list_until(")", |c| Parser { c }.expr_bp(ASSIGN_BP + 1))?;
                    Expr::ProcessCall(Box::new(e), f, args)
                } else {
                    Expr::Field(Box::new(e), f)
                };
            } else if self.c.at("++") || self.c.at("--") {
                let op = if self.c.at("++") { "++" } else { "--" };
                self.c.bump();
                e = Expr::PostIncr(op, Box::new(e));
            } else if self.c.eat("'") {
                e = Expr::PostIncr("'", Box::new(e));
            } else {
                return Ok(e);
            }
        }
    }

    /// `T` or `int[lo, hi]`, printed as zeno text.
    pub(crate) fn bounded_type(&mut self) -> PResult<String> {
        let name = self.c.ident()?;
        if name == "int" && self.c.eat("[") {
            let lo = self.expr_bp(ASSIGN_BP + 1)?;
            self.c.expect(",")?;
            let hi = self.expr_bp(ASSIGN_BP + 1)?;
            self.c.expect("]")?;
            return Ok(format!(
                "int[{}, {}]",
                print(&lo, &self.c.cx),
                print(&hi, &self.c.cx)
            ));
        }
        Ok(self.c.cx.name(&name))
    }

    /// Expressions separated by `,` (assignment labels, argument lists).
    pub(crate) fn list(&mut self) -> PResult<Vec<Expr>> {
        let mut out = vec![self.expr_bp(0)?];
        while self.c.eat(",") {
            out.push(self.expr_bp(0)?);
        }
        Ok(out)
    }
}

/// How tightly an expression binds when printed as zeno text (the one
/// operator table, `zeno_base::operators`).
fn prec(e: &Expr) -> Prec {
    match e {
        Expr::Quant(..) | Expr::Assign(..) => Prec::Assign,
        Expr::Cond(..) => Prec::Cond,
        // The operators here are zeno's spellings (see `binary`).
        Expr::Binary(op, ..) => BinaryOp::from_spelling(op).map_or(Prec::Atom, BinaryOp::prec),
        Expr::Unary(..) => Prec::Prefix,
        Expr::Int(n) if *n < 0 => Prec::Prefix,
        _ => Prec::Atom,
    }
}

fn child(out: &mut String, cx: &Context, e: &Expr, min: Prec) {
    if prec(e) < min {
        out.push('(');
        write(out, cx, e);
        out.push(')');
    } else {
        write(out, cx, e);
    }
}

/// `(a, b)`: a call's arguments.
fn write_args(out: &mut String, cx: &Context, args: &[Expr]) {
    out.push('(');
    for (k, a) in args.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        child(out, cx, a, Prec::Cond);
    }
    out.push(')');
}

fn write(out: &mut String, cx: &Context, e: &Expr) {
    match e {
        Expr::Int(n) => out.push_str(&n.to_string()),
        Expr::Ident(s) => {
            if matches!(s.as_str(), "true" | "false" | "deadlock") {
                out.push_str(s)
            } else {
                out.push_str(&cx.name(s))
            }
        }
        Expr::Index(a, i) => {
            child(out, cx, a, Prec::Atom);
            out.push('[');
            write(out, cx, i);
            out.push(']');
        }
        Expr::Field(a, f) => {
            child(out, cx, a, Prec::Atom);
            out.push('.');
            out.push_str(&cx.name(f));
        }
        Expr::Call(f, args) => {
            out.push_str(&cx.name(f));
            write_args(out, cx, args);
        }
        Expr::ProcessCall(p, f, args) => {
            child(out, cx, p, Prec::Atom);
            out.push('.');
            out.push_str(&cx.name(f));
            write_args(out, cx, args);
        }
        Expr::Unary(op, a) => {
            out.push_str(op);
            let mut operand = String::new();
            child(&mut operand, cx, a, Prec::Prefix);
            // `-(-x)` printed as `--x` would be a decrement.
            if let (Some(o), Some(first)) = (op.chars().last(), operand.chars().next())
                && (o == '-' || o == '+')
                && first == o
            {
                out.push(' ');
            }
            out.push_str(&operand);
        }
        Expr::Binary(op, l, r) => {
            let p = prec(e);
            // Comparisons do not chain in zeno, and `imply` is kept apart
            // from its neighbours: parenthesise both sides at equal level.
            let both = matches!(p, Prec::Equality | Prec::Relation | Prec::Imply);
            let lmin = if both { p.tighter() } else { p };
            child(out, cx, l, lmin);
            out.push(' ');
            out.push_str(op);
            out.push(' ');
            child(out, cx, r, p.tighter());
        }
        Expr::Cond(c, t, f) => {
            child(out, cx, c, Prec::Or);
            out.push_str(" ? ");
            branch(out, cx, t);
            out.push_str(" : ");
            branch(out, cx, f);
        }
        Expr::Assign(op, l, r) => {
            write(out, cx, l);
            out.push(' ');
            out.push_str(op);
            out.push(' ');
            // `i = j = 0` needs no parentheses: assignments are right-associative.
            let min = if matches!(**r, Expr::Assign(..)) {
                Prec::Assign
            } else {
                Prec::Cond
            };
            child(out, cx, r, min);
        }
        Expr::PostIncr(op, a) => {
            child(out, cx, a, Prec::Atom);
            out.push_str(op);
        }
        Expr::Quant(kind, var, ty, body) => {
            out.push_str(&format!("{kind} ({} : {ty}) ", cx.name(var)));
            write(out, cx, body);
        }
    }
}

/// A branch of `c ? a : b`: an `imply` there keeps its parentheses for the
/// reader (zeno would read it the same without).
fn branch(out: &mut String, cx: &Context, e: &Expr) {
    let min = if prec(e) == Prec::Imply {
        Prec::Or
    } else {
        Prec::Cond
    };
    child(out, cx, e, min);
}

/// The zeno text of an expression.
pub(crate) fn print(e: &Expr, cx: &Context) -> String {
    let mut s = String::new();
    write(&mut s, cx, e);
    s
}

/// Evaluates an expression made of integer literals and known constants.
pub(crate) fn eval_const(e: &Expr, lookup: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    match e {
        Expr::Int(n) => Some(*n),
        Expr::Ident(s) => lookup(s),
        // Checked throughout: a constant of a hostile file may overflow.
        Expr::Unary("-", a) => eval_const(a, lookup)?.checked_neg(),
        Expr::Unary("~", a) => eval_const(a, lookup).map(|v| !v),
        Expr::Binary(op, l, r) => {
            let (l, r) = (eval_const(l, lookup)?, eval_const(r, lookup)?);
            match *op {
                "+" => l.checked_add(r),
                "-" => l.checked_sub(r),
                "*" => l.checked_mul(r),
                // A negative exponent has no integer value; an overflow is
                // left to zeno, which reports it.
                "**" => u32::try_from(r).ok().and_then(|r| l.checked_pow(r)),
                "/" => l.checked_div(r),
                "%" => l.checked_rem(r),
                "<?" => Some(l.min(r)),
                ">?" => Some(l.max(r)),
                "&" => Some(l & r),
                "|" => Some(l | r),
                "^" => Some(l ^ r),
                // zeno's rule: a shift by less than 0 or 32 or more is an
                // error, so it has no value here either.
                "<<" if (0..32).contains(&r) => l.checked_mul(1i64 << r),
                ">>" if (0..32).contains(&r) => Some(l >> r),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::lex::{Cursor, tokenize};
    use super::*;

    fn round(text: &str) -> Result<String, String> {
        let toks = tokenize(text, &|i| i as u32).map_err(|e| e.1)?;
        let mut c = Cursor::new(toks, &std::rc::Rc::new(Context::new(text)));
        let e = Parser { c: &mut c }.expr().map_err(|e| e.1)?;
        assert!(c.at_eof(), "trailing tokens in {text}");
        Ok(print(&e, &c.cx))
    }

    fn model(text: &str) -> String {
        round(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// Each model text printed back as zeno text.
    fn assert_prints(cases: &[(&str, &str)]) {
        for (text, zeno) in cases {
            assert_eq!(model(text), *zeno, "{text}");
        }
    }

    #[test]
    fn precedence_is_kept_with_minimal_parentheses() {
        assert_prints(&[
            ("(a + b) * c", "(a + b) * c"),
            ("a + (b * c)", "a + b * c"),
            ("a - (b - c)", "a - (b - c)"),
            ("(a - b) - c", "a - b - c"),
            ("not (a and b) or c", "!(a && b) || c"),
            // `not` is `!` in UPPAAL 5: not a == b is (!a) == b.
            ("not a == b", "!a == b"),
            ("not a && b", "!a && b"),
            // `and`/`or`/`imply` bind as `&&`/`||`, left-associative.
            ("a and b || c", "a && b || c"),
            ("a or b and c", "a || b && c"),
            ("a imply b || c", "(a imply b) || c"),
            ("a || b imply c", "a || b imply c"),
            ("c ? a : b or d", "c ? a : b || d"),
            ("a || b && c", "a || b && c"),
            ("(a || b) && c", "(a || b) && c"),
            ("x := y + 1", "x = y + 1"),
            ("a[i] += 2", "a[i] += 2"),
            ("c ? 1 : 2 + 3", "c ? 1 : 2 + 3"),
            ("-(x)", "-x"),
            ("-3", "-3"),
            ("a[i+1][j]", "a[i + 1][j]"),
            ("a imply b imply c", "(a imply b) imply c"),
        ]);
    }

    #[test]
    fn a_conditional_beside_imply_keeps_its_parentheses() {
        // zeno's `imply` binds tighter than `?:` (the one operator table):
        // `c ? t : f imply x` reads as `c ? t : (f imply x)` and
        // `a imply c ? x : y` as `(a imply c) ? x : y`, so a conditional
        // operand of `imply` must stay in parentheses (it lost them before).
        assert_prints(&[
            ("(b ? c : d) imply e", "(b ? c : d) imply e"),
            ("a imply (c ? x : y)", "a imply (c ? x : y)"),
            ("b ? c : (d imply e)", "b ? c : (d imply e)"),
            ("(a imply b) ? c : d", "(a imply b) ? c : d"),
        ]);
    }

    #[test]
    fn bit_operators_min_max_and_prefix_increments_keep_uppaal_precedence() {
        assert_prints(&[
            // C's (and UPPAAL's) table: `&` is looser than `==`, `^` than `&`,
            // `|` than `^`; shifts are looser than `+`; `<?`/`>?` sit between
            // the shifts and the comparisons.
            ("a & b == c", "a & b == c"),
            ("(a & b) == c", "(a & b) == c"),
            ("a | b ^ c & d", "a | b ^ c & d"),
            ("(a | b) & c", "(a | b) & c"),
            ("1 << n + 1", "1 << n + 1"),
            ("(1 << n) + 1", "(1 << n) + 1"),
            ("a <? b << 1 < c", "a <? b << 1 < c"),
            ("(a >? b) << 1", "(a >? b) << 1"),
            ("~x & 3", "~x & 3"),
            ("~(x & 3)", "~(x & 3)"),
            ("a && b | c", "a && b | c"),
            ("x <<= 2", "x <<= 2"),
            ("x %= 2", "x %= 2"),
            ("x ^= y | 1", "x ^= y | 1"),
            ("++x", "++x"),
            ("--a[i]", "--a[i]"),
            ("-(-x)", "- -x"),
            ("-(--x)", "- --x"),
            ("i = j := 0", "i = j = 0"),
            ("i = ++j", "i = ++j"),
        ]);
    }

    #[test]
    fn queries_allow_instances_and_quantifiers() {
        let q = round("exists (i : int[0,N-1]) P(i+1).cs and x > 1").unwrap();
        assert_eq!(q, "exists (i : int[0, N - 1]) P(i + 1).cs && x > 1");
        // Quantifiers are expressions in models too (guards, functions).
        assert_eq!(
            round("forall (i : T) a[i] > 0"),
            Ok("forall (i : T) a[i] > 0".to_string())
        );
    }

    #[test]
    fn unsupported_operators_are_rejected() {
        // A call is a function's (zeno has them too).
        assert_eq!(round("f(1, x)"), Ok("f(1, x)".to_string()));
        for (text, word) in [
            ("1.5", "integers"),
            ("a[i = 1]", "assignment inside"),
            ("c ? x = 1 : 2", "assignment inside"),
        ] {
            let err = round(text).expect_err(text);
            assert!(err.contains(word), "{text}: {err}");
        }
        // In parentheses an assignment is read, as UPPAAL's grammar has it;
        // zeno decides where it may run (in an update, first).
        assert_eq!(round("b = (a = 1) + 2"), Ok("b = (a = 1) + 2".to_string()));
    }

    #[test]
    fn keyword_names_are_renamed() {
        assert_eq!(model("init + location"), "init_ + location_");
        // The renaming keeps distinct names distinct.
        assert_eq!(model("when + when_ + when__"), "when___ + when_ + when__");
        assert_eq!(model("true && !deadlock"), "true && !deadlock");
    }
}
