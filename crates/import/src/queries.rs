//! UPPAAL queries → zeno checks: `A[] phi`, `E<> phi`, `A<> phi`, `E[] phi`,
//! `p --> q` and the value queries `sup{pred}: e, …` / `inf{pred}: e, …`;
//! others (statistical queries) are reported (as warnings: the model itself
//! is unaffected).

use super::Sink;
use super::expr::{Expr, Parser, print};
use super::lex::{Cursor, Tok};
use std::collections::HashSet;
use zeno_ir::Span;

/// Names a query may put before a `.` (`P1.cs`, `P(1).x`, `rec.field`):
/// every identifier of the model's global declarations, system section and
/// template names. `None` (a separate query file) accepts every name.
pub(crate) type Known<'a> = Option<&'a HashSet<String>>;

/// The check text (`A[] ...`, `p --> q`), or `None` after a reported
/// problem.
pub(crate) fn formula(
    c: &mut Cursor,
    whole: Span,
    known: Known,
    sink: &mut Sink,
) -> Option<String> {
    let quant = match (c.peek().clone(), c.peek_at(1).clone(), c.peek_at(2).clone()) {
        (Tok::Ident(a), Tok::Punct("["), Tok::Punct("]")) if a == "A" => "A[]",
        (Tok::Ident(e), Tok::Punct("<"), Tok::Punct(">")) if e == "E" => "E<>",
        (Tok::Ident(a), Tok::Punct("<"), Tok::Punct(">")) if a == "A" => "A<>",
        (Tok::Ident(e), Tok::Punct("["), Tok::Punct("]")) if e == "E" => "E[]",
        (Tok::Ident(w), Tok::Punct(":" | "{"), _) if w == "sup" || w == "inf" => {
            return bound_query(c, whole, known, sink);
        }
        // `p --> q` has no quantifier in front.
        _ => return leads_to(c, whole, known, sink),
    };
    c.bump();
    c.bump();
    c.bump();
    Some(format!("{quant} {}", side(c, whole, known, sink)?))
}

/// `p --> q` (`-->` lexes as `--` then `>`); anything else without a
/// quantifier is a query zeno has no form for.
fn leads_to(c: &mut Cursor, whole: Span, known: Known, sink: &mut Sink) -> Option<String> {
    let mut premise = c.take_until(&["--"]);
    if !(c.at("--") && matches!(c.peek_at(1), Tok::Punct(">"))) {
        sink.warning(
            whole,
            "only `A[]`, `E<>`, `A<>`, `E[]`, `-->`, `sup:` and `inf:` queries are supported (not `Pr`, `simulate`, ...); query left as a comment",
        );
        return None;
    }
    c.bump();
    c.bump();
    let p = side(&mut premise, whole, known, sink)?;
    let q = side(c, whole, known, sink)?;
    Some(format!("{p} --> {q}"))
}

/// `sup: e, …` or `sup{pred}: e, …` (and `inf`), printed as zeno text,
/// which writes them the same way.
fn bound_query(c: &mut Cursor, whole: Span, known: Known, sink: &mut Sink) -> Option<String> {
    let Tok::Ident(word) = c.bump() else {
        return None;
    };
    let pred = if c.eat("{") {
        let mut inner = c.take_until(&["}"]);
        if !c.eat("}") {
            sink.warning(
                c.span(),
                "expected `}` after the predicate; query left as a comment",
            );
            return None;
        }
        Some(side(&mut inner, whole, known, sink)?)
    } else {
        None
    };
    if !c.eat(":") {
        sink.warning(
            c.span(),
            format!("expected `:` after `{word}`; query left as a comment"),
        );
        return None;
    }
    let mut terms = Vec::new();
    loop {
        let mut term = c.take_until(&[","]);
        terms.push(side(&mut term, whole, known, sink)?);
        if !c.eat(",") {
            break;
        }
    }
    let pred = pred.map_or(String::new(), |p| format!("{{{p}}}"));
    Some(format!("{word}{pred}: {}", terms.join(", ")))
}

/// A whole state formula, printed as zeno text.
fn side(c: &mut Cursor, whole: Span, known: Known, sink: &mut Sink) -> Option<String> {
    match (Parser { c }).expr() {
        Ok(e) if c.at_eof() => {
            // A query naming a process the model does not have (left over
            // from an earlier version of the model) is that query's problem
            // alone: UPPAAL rejects it and still verifies the others.
            if let Some(known) = known
                && let Some(name) = unknown_owner(&e, known)
            {
                sink.warning(
                    whole,
                    format!(
                        "the query names `{name}`, which is not a process or a variable of the model; query left as a comment"
                    ),
                );
                return None;
            }
            Some(print(&e, &c.cx))
        }
        Ok(_) => {
            sink.warning(
                c.span(),
                format!(
                    "unexpected {} in the query; query left as a comment",
                    super::lex::describe(c.peek())
                ),
            );
            None
        }
        Err((span, msg)) => {
            sink.warning(span, format!("{msg}; query left as a comment"));
            None
        }
    }
}

/// The name of the process `base` (before a `.`) when it is not in
/// `known`, or the first such name in it.
fn unknown_process<'e>(base: &'e Expr, known: &HashSet<String>) -> Option<&'e str> {
    match base {
        Expr::Ident(n) if !known.contains(n) => Some(n),
        Expr::Call(n, _) if !known.contains(n) => Some(n),
        Expr::Call(_, args) => args.iter().find_map(|a| unknown_owner(a, known)),
        other => unknown_owner(other, known),
    }
}

/// The first name before a `.` in `e` that is not in `known`.
fn unknown_owner<'e>(e: &'e Expr, known: &HashSet<String>) -> Option<&'e str> {
    match e {
        Expr::Field(base, _) => unknown_process(base, known),
        Expr::Int(_) | Expr::Ident(_) => None,
        Expr::Index(a, b) | Expr::Binary(_, a, b) | Expr::Assign(_, a, b) => {
            unknown_owner(a, known).or_else(|| unknown_owner(b, known))
        }
        Expr::Call(_, args) => args.iter().find_map(|a| unknown_owner(a, known)),
        Expr::ProcessCall(base, _, args) => unknown_process(base, known)
            .or_else(|| args.iter().find_map(|a| unknown_owner(a, known))),
        Expr::Unary(_, a) | Expr::PostIncr(_, a) | Expr::Quant(_, _, _, a) => {
            unknown_owner(a, known)
        }
        Expr::Cond(a, b, c) => unknown_owner(a, known)
            .or_else(|| unknown_owner(b, known))
            .or_else(|| unknown_owner(c, known)),
    }
}
