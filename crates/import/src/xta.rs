//! UPPAAL XTA 4.x (textual format): declarations, `process` bodies with
//! `state`, `commit`, `urgent`, `init` and `trans`, instances and `system`.
//! Queries live in a separate `.q` file in this format and are not read.

use super::Sink;
use super::context::Context;
use super::decl::{self, Env, SystemDecl};
use super::expr::{Parser, print};
use super::lex::{Cursor, PResult, Tok, describe, split_direction, tokenize};
use super::model::{Edge, Location, Model, Template, extend_traced};
use std::rc::Rc;
use zeno_ir::Span;

pub(crate) fn read(text: &str, cx: &Rc<Context>, sink: &mut Sink) -> Option<Model> {
    let toks = match tokenize(text, &|i| i as u32) {
        Ok(t) => t,
        Err((span, msg)) => {
            sink.error(span, msg);
            return None;
        }
    };
    let mut c = Cursor::new(toks, cx);
    let mut model = Model::default();
    let mut env = Env::default();
    let mut sys = SystemDecl::default();
    while !c.at_eof() {
        if c.at_kw("process") {
            let start = c.pos();
            match process(&mut c, &mut env, sink) {
                Ok(t) => model.templates.push(t),
                Err((span, msg)) => {
                    sink.error(span, msg);
                    c.set_pos(start);
                    skip_process(&mut c);
                }
            }
        } else if c.at_kw("system") {
            decl::system_statement(&mut c, &mut env, sink, &mut sys, &mut model.globals);
        } else {
            decl::global_item(&mut c, &mut env, sink, &mut sys, &mut model);
        }
    }
    model.instances = sys.instances;
    model.system = sys.system;
    model.system_levels = sys.system_levels;
    if model.system.is_empty() && !sink.has_errors() {
        sink.error(c.span(), "the model has no `system` line");
    }
    Some(model)
}

/// Error recovery: from `process`, skip to the `}` closing its body.
fn skip_process(c: &mut Cursor) {
    let mut depth = 0i32;
    while !c.at_eof() {
        match c.bump() {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth -= 1;
                if depth <= 0 {
                    return;
                }
            }
            _ => {}
        }
    }
}

/// The source range of the tokens `c` passed since `start` (a label's
/// text, after `take_until`).
fn since(c: &Cursor, start: u32) -> Span {
    Span::new(start, c.prev_span().end.max(start))
}

fn process(c: &mut Cursor, env: &mut Env, sink: &mut Sink) -> PResult<Template> {
    let process_start = c.span().start;
    c.bump();
    let name_span = c.span();
    let name = c.ident()?;
    let mut t = Template {
        name: c.cx.name(&name),
        ..Template::default()
    };
    c.expect("(")?;
    let params_start = c.span().start;
    let mut params = c.take_until(&[")"]);
    t.params_origin = Some(since(c, params_start));
    let value: Vec<_>;
    (t.params, value) = decl::parameters(&mut params, env)?.into_iter().unzip();
    params.expect_eof("in the parameters")?;
    c.expect(")")?;
    c.expect("{")?;
    // Local declarations come first, up to `state`.
    while !c.at_kw("state") && !c.at("}") && !c.at_eof() {
        let start = c.span().start;
        let lines = decl::declaration(c, env, sink);
        extend_traced(&mut t.locals, &mut t.local_origins, lines, since(c, start));
    }
    if !c.eat_kw("state") {
        return Err((
            c.span(),
            format!("process `{name}` has no `state` declaration"),
        ));
    }
    t.locations = c.comma_list(|c| {
        let lname = c.ident()?;
        let mut loc = Location {
            name: c.cx.name(&lname),
            ..Location::default()
        };
        if c.eat("{") {
            let start = c.span().start;
            let mut inv = c.take_until(&["}"]);
            let e = Parser { c: &mut inv }.expr()?;
            inv.expect_eof("in the invariant")?;
            loc.invariant = Some(print(&e, &inv.cx));
            loc.invariant_origin = Some(since(c, start));
            c.expect("}")?;
        }
        Ok(loc)
    })?;
    c.expect(";")?;
    let mut has_init = false;
    loop {
        let kw_span = c.span();
        if c.eat_kw("commit") || c.eat_kw("committed") || c.eat_kw("urgent") {
            let urgent = matches!(&c.prev_tok(), Tok::Ident(k) if k == "urgent");
            c.comma_list(|c| {
                let span = c.span();
                let l = c.zeno_name()?;
                match t.locations.iter_mut().find(|x| x.name == l) {
                    Some(x) if urgent => x.urgent = true,
                    Some(x) => x.committed = true,
                    None => return Err((span, format!("`{l}` is not a state of `{name}`"))),
                }
                Ok(())
            })?;
            c.expect(";")?;
        } else if c.eat_kw("init") {
            let span = c.span();
            let l = c.zeno_name()?;
            match t.locations.iter_mut().find(|x| x.name == l) {
                Some(x) => x.init = true,
                None => return Err((span, format!("`{l}` is not a state of `{name}`"))),
            }
            has_init = true;
            c.expect(";")?;
        } else if c.eat_kw("trans") {
            let mut prev_src: Option<String> = None;
            // UPPAAL TIGA's uncontrollable edge `A -u-> B`: for the
            // checks zeno decides (no `control:` query) the environment's
            // edges are edges like any other.
            let arrow = |c: &mut Cursor| {
                if c.at("-")
                    && matches!(c.peek_at(1), Tok::Ident(u) if u == "u")
                    && c.peek_at(2) == &Tok::Punct("->")
                {
                    c.bump();
                    c.bump();
                }
            };
            c.comma_list(|c| {
                let edge_start = c.span().start;
                arrow(c);
                let src = if c.at("->") {
                    prev_src.clone().ok_or((
                        c.span(),
                        "`-> target` needs a previous transition".to_string(),
                    ))?
                } else {
                    c.zeno_name()?
                };
                arrow(c);
                c.expect("->")?;
                let dst = c.zeno_name()?;
                for l in [&src, &dst] {
                    if !t.locations.iter().any(|x| x.name == *l) {
                        return Err((c.prev_span(), format!("`{l}` is not a state of `{name}`")));
                    }
                }
                let mut e = Edge {
                    src: src.clone(),
                    dst,
                    ..Edge::default()
                };
                c.expect("{")?;
                labels(c, &mut e, env)?;
                c.expect("}")?;
                e.origins.whole = Some(since(c, edge_start));
                t.edges.push(e);
                prev_src = Some(src);
                Ok(())
            })?;
            c.expect(";")?;
        } else if c.at_kw("priority") || c.at_kw("branchpoint") {
            return Err((
                kw_span,
                format!("`{}` in a process is not supported", describe(c.peek())),
            ));
        } else {
            break;
        }
    }
    c.expect("}")?;
    t.origin = Some(since(c, process_start));
    if !has_init {
        return Err((name_span, format!("process `{name}` has no `init` state")));
    }
    t.copy_written_value_params(&value, &env.ref_params);
    Ok(t)
}

/// `select ...; guard ...; sync ...; assign ...;` inside a transition.
fn labels(c: &mut Cursor, e: &mut Edge, env: &Env) -> PResult<()> {
    while !c.at("}") && !c.at_eof() {
        let span = c.span();
        let kw = c.ident()?;
        let start = c.span().start;
        let mut part = c.take_until(&[";"]);
        let origin = Some(since(c, start));
        match kw.as_str() {
            "select" => loop {
                let v = part.ident()?;
                part.expect(":")?;
                let ty = Parser { c: &mut part }.bounded_type()?;
                e.select.push(format!("{} : {ty}", part.cx.name(&v)));
                e.origins.select = origin;
                if !part.eat(",") {
                    break;
                }
            },
            "guard" => {
                let g = Parser { c: &mut part }.expr()?;
                e.guard = Some(print(&g, &part.cx));
                e.origins.guard = origin;
            }
            "sync" => {
                let cx = Rc::clone(&part.cx);
                let (toks, dir) = split_direction(part.into_tokens())?;
                part = Cursor::new(toks, &cx);
                let ch = Parser { c: &mut part }.expr()?;
                e.sync = Some(format!("{}{dir}", print(&ch, &part.cx)));
                e.origins.sync = origin;
            }
            "assign" => {
                let us = decl::updates(&mut part, env)?;
                e.updates = us.iter().map(|u| print(u, &part.cx)).collect();
                e.origins.updates = origin;
            }
            "probability" => return Err((span, "probabilities are not supported".into())),
            other => return Err((span, format!("unknown transition label `{other}`"))),
        }
        part.expect_eof(&format!("in the `{kw}` label"))?;
        c.expect(";")?;
    }
    Ok(())
}
