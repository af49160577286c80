//! UPPAAL/TChecker expressions: parse into a small tree, then print as zeno.
//!
//! Re-printing (rather than copying text) normalises `:=` to `=`, `and` to
//! `&&` and so on, and lets the parser reject what zeno has no equivalent
//! for (decimal literals, an assignment inside a value) with a located error.

use super::lex::{Cursor, PResult, Tok, describe};

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

/// Binary operators: (token, normalised zeno operator, binding power).
/// As in the current UPPAAL parser (libutap, UPPAAL 4.1 and 5): `or`, `xor`
/// and `imply` bind as `||` (left-associative: `a imply b || c` is
/// `(a imply b) || c`), `and` as `&&`; UPPAAL 4.0 put the words below `?:`.
/// The symbolic ones follow C, with `<?`/`>?` between the shifts and the
/// comparisons (UPPAAL's table, which zeno shares).
const BINARY: &[(&str, &str, u8)] = &[
    ("imply", "imply", 8),
    ("or", "||", 8),
    ("xor", "xor", 8),
    ("and", "&&", 9),
    ("||", "||", 8),
    ("&&", "&&", 9),
    ("|", "|", 10),
    ("^", "^", 11),
    ("&", "&", 12),
    ("==", "==", 13),
    ("!=", "!=", 13),
    ("<", "<", 14),
    ("<=", "<=", 14),
    (">=", ">=", 14),
    (">", ">", 14),
    ("<?", "<?", 15),
    (">?", ">?", 15),
    ("<<", "<<", 16),
    (">>", ">>", 16),
    ("+", "+", 17),
    ("-", "-", 17),
    ("*", "*", 18),
    ("/", "/", 18),
    ("%", "%", 18),
    // UPPAAL's current parser puts `**` above `*` (and below the prefix
    // operators), left-associative.
    ("**", "**", 19),
];

const ASSIGN_BP: u8 = 6;
const COND_BP: u8 = 7;
const UNARY_BP: u8 = 20;

thread_local! {
    /// Whether the model being imported defines a function `abs` of its
    /// own (UPPAAL 4 allowed it; UPPAAL 5 made `abs` a built-in). Set by
    /// the declaration reader, which sees a function before its calls.
    static USER_ABS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Forgets the previous model's `abs` (at the start of an import).
pub(crate) fn reset_user_abs() {
    USER_ABS.with(|f| f.set(false));
}

/// Notes that the model defines its own `abs`: its calls stay calls.
pub(crate) fn note_user_abs() {
    USER_ABS.with(|f| f.set(true));
}

fn user_abs() -> bool {
    USER_ABS.with(|f| f.get())
}

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
            if let Some((_, norm, bp)) = BINARY.iter().find(|(t, _, _)| *t == op) {
                if *bp < min_bp {
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
                    if s == "abs" && args.len() == 1 && !user_abs() {
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
            return Ok(format!("int[{}, {}]", print(&lo), print(&hi)));
        }
        Ok(sanitize(&name))
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

/// Words that are keywords in zeno but may be ordinary names in UPPAAL or
/// TChecker files; such names get a trailing `_` (more than one where the
/// file has that name too: see [`prepare_renaming`]).
const ZENO_KEYWORDS: &[&str] = &[
    "template",
    "location",
    "init",
    "committed",
    "urgent",
    "invariant",
    "when",
    "sync",
    "do",
    "select",
    "check",
    "system",
    "typedef",
    "const",
    "clock",
    "chan",
    "broadcast",
    "int",
    "bool",
    "forall",
    "exists",
    "sum",
    "imply",
    "and",
    "or",
    "not",
    "priority",
    "default",
];

thread_local! {
    /// The file's new name for each keyword it uses as a name.
    static RENAMED: std::cell::RefCell<std::collections::HashMap<&'static str, String>> =
        std::cell::RefCell::default();
}

/// Chooses, before a file is translated, the name each keyword used as a
/// name gets: the first of `init_`, `init__`, … that no word of the file
/// spells, so that a renamed name never meets another (a file with both
/// `init` and `init_` gets `init__` and `init_`). Names without a keyword
/// stay as they are, so zeno's own exported text imports unchanged.
pub(crate) fn prepare_renaming(text: &str) {
    let words: std::collections::HashSet<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let renamed = ZENO_KEYWORDS
        .iter()
        .filter(|k| words.contains(**k))
        .map(|k| {
            let mut name = format!("{k}_");
            while words.contains(name.as_str()) {
                name.push('_');
            }
            (*k, name)
        })
        .collect();
    RENAMED.with(|r| *r.borrow_mut() = renamed);
}

pub(crate) fn sanitize(name: &str) -> String {
    match ZENO_KEYWORDS.iter().find(|k| **k == name) {
        Some(k) => RENAMED
            .with(|r| r.borrow().get(k).cloned())
            .unwrap_or_else(|| format!("{name}_")),
        None => name.to_string(),
    }
}

/// Precedence when printing (zeno's, which is C's plus `imply` lowest).
fn prec(e: &Expr) -> u8 {
    match e {
        Expr::Quant(..) | Expr::Assign(..) => 0,
        Expr::Binary("imply", ..) => 1,
        Expr::Cond(..) => 2,
        Expr::Binary(op, ..) => match *op {
            "||" => 3,
            "&&" => 4,
            "|" => 5,
            "^" => 6,
            "&" => 7,
            "==" | "!=" => 8,
            "<" | "<=" | ">=" | ">" => 9,
            "<?" | ">?" => 10,
            "<<" | ">>" => 11,
            "+" | "-" => 12,
            "**" => 14,
            _ => 13,
        },
        Expr::Unary(..) => UNARY_PREC,
        Expr::Int(n) if *n < 0 => UNARY_PREC,
        _ => ATOM_PREC,
    }
}

const UNARY_PREC: u8 = 15;
const ATOM_PREC: u8 = 16;

fn child(out: &mut String, e: &Expr, min: u8) {
    if prec(e) < min {
        out.push('(');
        write(out, e);
        out.push(')');
    } else {
        write(out, e);
    }
}

/// `(a, b)`: a call's arguments.
fn write_args(out: &mut String, args: &[Expr]) {
    out.push('(');
    for (k, a) in args.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        child(out, a, 1);
    }
    out.push(')');
}

fn write(out: &mut String, e: &Expr) {
    match e {
        Expr::Int(n) => out.push_str(&n.to_string()),
        Expr::Ident(s) => {
            if matches!(s.as_str(), "true" | "false" | "deadlock") {
                out.push_str(s)
            } else {
                out.push_str(&sanitize(s))
            }
        }
        Expr::Index(a, i) => {
            child(out, a, ATOM_PREC);
            out.push('[');
            write(out, i);
            out.push(']');
        }
        Expr::Field(a, f) => {
            child(out, a, ATOM_PREC);
            out.push('.');
            out.push_str(&sanitize(f));
        }
        Expr::Call(f, args) => {
            out.push_str(&sanitize(f));
            write_args(out, args);
        }
        Expr::ProcessCall(p, f, args) => {
            child(out, p, ATOM_PREC);
            out.push('.');
            out.push_str(&sanitize(f));
            write_args(out, args);
        }
        Expr::Unary(op, a) => {
            out.push_str(op);
            let mut operand = String::new();
            child(&mut operand, a, UNARY_PREC);
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
            // Comparisons do not chain in zeno: parenthesise both sides.
            let (lmin, rmin) = if p == 8 || p == 9 {
                (p + 1, p + 1)
            } else {
                (p, p + 1)
            };
            child(out, l, lmin.max(if p == 1 { 2 } else { 0 }));
            out.push(' ');
            out.push_str(op);
            out.push(' ');
            child(out, r, rmin);
        }
        Expr::Cond(c, t, f) => {
            child(out, c, 3);
            out.push_str(" ? ");
            child(out, t, 2);
            out.push_str(" : ");
            child(out, f, 2);
        }
        Expr::Assign(op, l, r) => {
            write(out, l);
            out.push(' ');
            out.push_str(op);
            out.push(' ');
            // `i = j = 0` needs no parentheses: assignments are right-associative.
            let min = if matches!(**r, Expr::Assign(..)) {
                0
            } else {
                1
            };
            child(out, r, min);
        }
        Expr::PostIncr(op, a) => {
            child(out, a, ATOM_PREC);
            out.push_str(op);
        }
        Expr::Quant(kind, var, ty, body) => {
            out.push_str(&format!("{kind} ({} : {ty}) ", sanitize(var)));
            write(out, body);
        }
    }
}

/// The zeno text of an expression.
pub(crate) fn print(e: &Expr) -> String {
    let mut s = String::new();
    write(&mut s, e);
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
        let mut c = Cursor::new(toks);
        let e = Parser { c: &mut c }.expr().map_err(|e| e.1)?;
        assert!(c.at_eof(), "trailing tokens in {text}");
        Ok(print(&e))
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
        prepare_renaming("when + when_ + when__");
        assert_eq!(model("when + when_ + when__"), "when___ + when_ + when__");
        prepare_renaming("");
        assert_eq!(model("true && !deadlock"), "true && !deadlock");
    }
}
