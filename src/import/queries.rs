//! UPPAAL queries → zeno checks. Only `A[] phi` and `E<> phi` have a zeno
//! form; others are reported (as warnings: the model itself is unaffected).

use super::Sink;
use super::expr::{Ctx, Parser, print};
use super::lex::{Cursor, Tok};
use crate::ir::Span;

/// The check text (`A[] ...`), or `None` after a reported problem.
pub(crate) fn formula(c: &mut Cursor, whole: Span, sink: &mut Sink) -> Option<String> {
    let start = c.span();
    let quant = match (c.peek().clone(), c.peek_at(1).clone(), c.peek_at(2).clone()) {
        (Tok::Ident(a), Tok::Punct("["), Tok::Punct("]")) if a == "A" => "A[]",
        (Tok::Ident(e), Tok::Punct("<"), Tok::Punct(">")) if e == "E" => "E<>",
        (Tok::Ident(a), Tok::Punct("<"), Tok::Punct(">")) if a == "A" => {
            sink.warning(
                start,
                "`A<>` (liveness) queries are not supported; query left as a comment",
            );
            return None;
        }
        (Tok::Ident(e), Tok::Punct("["), Tok::Punct("]")) if e == "E" => {
            sink.warning(
                start,
                "`E[]` queries are not supported; query left as a comment",
            );
            return None;
        }
        _ => {
            sink.warning(
                whole,
                "only `A[]` and `E<>` queries are supported (not `-->`, `sup`, `inf`, `Pr`, ...); query left as a comment",
            );
            return None;
        }
    };
    c.bump();
    c.bump();
    c.bump();
    let r = Parser { c, ctx: Ctx::Query }.expr();
    match r {
        Ok(e) if c.at_eof() => Some(format!("{quant} {}", print(&e))),
        Ok(_) => {
            let msg = if c.at("--") {
                "leads-to `-->` queries are not supported; query left as a comment".to_string()
            } else {
                format!(
                    "unexpected {} in the query; query left as a comment",
                    super::lex::describe(c.peek())
                )
            };
            sink.warning(c.span(), msg);
            None
        }
        Err((span, msg)) => {
            sink.warning(span, format!("{msg}; query left as a comment"));
            None
        }
    }
}
