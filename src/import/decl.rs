//! UPPAAL's C-like declarations (global, local, parameters, the system
//! section) translated to zeno declarations.

use super::Sink;
use super::expr::{Ctx, Expr, Parser, eval_const, print, sanitize};
use super::lex::{Cursor, PResult, Tok};
use crate::ir::Span;
use std::collections::HashMap;

/// What later declarations need to know: constant values (for array sizes)
/// and the bounds of named integer types (for arrays indexed by a type).
#[derive(Debug, Default)]
pub(crate) struct Env {
    consts: HashMap<String, i64>,
    typedefs: HashMap<String, (Expr, Expr)>,
    /// Typedefs of other types (arrays, `bool`, records), which zeno
    /// declares the same way.
    other_types: std::collections::HashSet<String>,
    /// How deeply `struct`s being read are nested (bounded, so that a
    /// hostile input cannot exhaust the stack).
    struct_depth: std::cell::Cell<u32>,
    /// Simple `void f()` functions, as the updates they perform (loops
    /// unrolled); calls in assignment labels are replaced by these.
    functions: HashMap<String, Vec<Expr>>,
}

/// Upper bound on the updates an inlined function may expand to.
const MAX_INLINED: usize = 10_000;

impl Env {
    fn value(&self, e: &Expr) -> Option<i64> {
        eval_const(e, &|n| self.consts.get(n).copied())
    }
}

/// The system section's content.
#[derive(Debug, Default)]
pub(crate) struct SystemDecl {
    pub instances: Vec<String>,
    pub system: Vec<String>,
}

fn expr(c: &mut Cursor) -> PResult<Expr> {
    Parser { c, ctx: Ctx::Model }.expr()
}

/// Parses an expression that stops before `,` (initialisers, bounds).
fn item(c: &mut Cursor) -> PResult<Expr> {
    let e = expr(c)?;
    Ok(e)
}

/// Skips to just after the next `;` at bracket depth 0 (error recovery), or
/// over a `{ ... }` body.
pub(crate) fn recover(c: &mut Cursor) {
    let mut depth = 0i32;
    loop {
        match c.peek() {
            Tok::Eof => return,
            Tok::Punct("{") | Tok::Punct("(") | Tok::Punct("[") => depth += 1,
            Tok::Punct("}") => {
                depth -= 1;
                if depth <= 0 {
                    c.bump();
                    c.eat(";");
                    return;
                }
            }
            Tok::Punct(")") | Tok::Punct("]") => depth -= 1,
            Tok::Punct(";") if depth <= 0 => {
                c.bump();
                return;
            }
            _ => {}
        }
        c.bump();
    }
}

/// A declared type, as zeno text, plus what kind of thing it is.
struct Type {
    text: String,
    is_const: bool,
}

fn parse_type(c: &mut Cursor, env: &Env) -> PResult<Type> {
    let start = c.span();
    let mut prefix = Vec::new();
    let mut is_const = false;
    loop {
        if c.eat_kw("const") {
            is_const = true;
        } else if c.eat_kw("urgent") {
            prefix.push("urgent");
        } else if c.eat_kw("broadcast") {
            prefix.push("broadcast");
        } else if c.eat_kw("meta") {
            // zeno stores a meta variable as an ordinary one.
            prefix.push("meta");
        } else if c.at_kw("hybrid") {
            return Err((
                c.span(),
                format!("`{}` declarations are not supported", kw_of(c)),
            ));
        } else {
            break;
        }
    }
    let base = c
        .ident()
        .map_err(|(s, _)| (s, "expected a type".to_string()))?;
    let text = match base.as_str() {
        "int" => {
            if c.eat("[") {
                let lo = item(c)?;
                c.expect(",")?;
                let hi = item(c)?;
                c.expect("]")?;
                format!("int[{}, {}]", print(&lo), print(&hi))
            } else {
                "int".to_string()
            }
        }
        "bool" | "clock" | "chan" | "void" => base.clone(),
        "struct" => struct_fields(c, env)?,
        "scalar" => {
            c.expect("[")?;
            let size = item(c)?;
            c.expect("]")?;
            format!("scalar[{}]", print(&size))
        }
        "double" | "string" => {
            return Err((start, format!("`{base}` types are not supported")));
        }
        name if env.typedefs.contains_key(name) || env.other_types.contains(name) => sanitize(name),
        // UPPAAL's built-in sized integers are zeno's too.
        name if crate::semantics::ty::builtin_int_type(name).is_some() => name.to_string(),
        name => {
            return Err((start, format!("unknown type `{name}`")));
        }
    };
    let mut words: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    if is_const {
        words.insert(0, "const".into());
    }
    words.push(text);
    Ok(Type {
        text: words.join(" "),
        is_const,
    })
}

/// `struct { T a; T b[2], c; }` after `struct`, as zeno text (the same).
fn struct_fields(c: &mut Cursor, env: &Env) -> PResult<String> {
    let depth = env.struct_depth.get();
    if depth >= 32 {
        return Err((c.span(), "`struct`s nested too deeply".into()));
    }
    env.struct_depth.set(depth + 1);
    let fields = struct_fields_inner(c, env);
    env.struct_depth.set(depth);
    fields
}

fn struct_fields_inner(c: &mut Cursor, env: &Env) -> PResult<String> {
    c.expect("{")?;
    let mut fields = Vec::new();
    while !c.eat("}") {
        if c.at_eof() {
            return Err((c.span(), "unterminated `struct`".into()));
        }
        let ty = parse_type(c, env)?;
        loop {
            let name = c.ident()?;
            let d = dims(c)?;
            fields.push(format!("{} {}{d};", ty.text, sanitize(&name)));
            if !c.eat(",") {
                break;
            }
        }
        c.expect(";")?;
    }
    Ok(format!("struct {{ {} }}", fields.join(" ")))
}

fn kw_of(c: &Cursor) -> String {
    match c.peek() {
        Tok::Ident(s) => s.clone(),
        _ => String::new(),
    }
}

/// `[N]` or `[pid_t]`: zeno indexes an array declared with a type by the
/// type's values, as UPPAAL does, so both are written as they are.
fn dims(c: &mut Cursor) -> PResult<String> {
    let mut out = String::new();
    while c.at("[") {
        c.bump();
        let e = item(c)?;
        c.expect("]")?;
        out.push_str(&format!("[{}]", print(&e)));
    }
    Ok(out)
}

/// An initial value: an expression or a list `{ … }`, possibly nested.
fn initialiser(c: &mut Cursor, depth: u32) -> PResult<String> {
    if !c.at("{") {
        return Ok(print(&item(c)?));
    }
    if depth > 64 {
        return Err((c.span(), "initialiser lists nested too deeply".into()));
    }
    c.bump();
    let mut items = Vec::new();
    if !c.at("}") {
        loop {
            items.push(initialiser(c, depth + 1)?);
            if !c.eat(",") {
                break;
            }
        }
    }
    c.expect("}")?;
    Ok(format!("{{ {} }}", items.join(", ")))
}

/// One declaration statement (up to its `;`); returns zeno lines.
pub(crate) fn declaration(c: &mut Cursor, env: &mut Env, sink: &mut Sink) -> Vec<String> {
    let start = c.span();
    match declaration_inner(c, env, sink) {
        Ok(lines) => lines,
        Err((span, msg)) => {
            sink.error(if span == Span::default() { start } else { span }, msg);
            recover(c);
            Vec::new()
        }
    }
}

fn declaration_inner(c: &mut Cursor, env: &mut Env, sink: &mut Sink) -> PResult<Vec<String>> {
    if c.eat_kw("typedef") {
        let start = c.pos();
        // `typedef int[lo, hi] name;` names a range, which later array
        // sizes, loops and types may use.
        let range = if c.at_kw("int") && c.peek_at(1) == &Tok::Punct("[") {
            c.bump();
            c.bump();
            let lo = item(c)?;
            c.expect(",")?;
            let hi = item(c)?;
            c.expect("]")?;
            Some((lo, hi))
        } else {
            None
        };
        let ty = match &range {
            Some((lo, hi)) => format!("int[{}, {}]", print(lo), print(hi)),
            None => {
                c.set_pos(start);
                parse_type(c, env)?.text
            }
        };
        let mut lines = Vec::new();
        loop {
            let name = c.ident()?;
            let d = dims(c)?;
            lines.push(format!("typedef {ty} {}{d};", sanitize(&name)));
            match &range {
                Some(r) if d.is_empty() => {
                    env.typedefs.insert(name, r.clone());
                }
                _ => {
                    env.other_types.insert(name);
                }
            }
            if !c.eat(",") {
                break;
            }
        }
        c.expect(";")?;
        return Ok(lines);
    }
    let ty = parse_type(c, env)?;
    let mut lines = Vec::new();
    loop {
        let name_span = c.span();
        let name = c.ident()?;
        if c.at("(") {
            if ty.text == "void"
                && c.peek_at(1) == &Tok::Punct(")")
                && c.peek_at(2) == &Tok::Punct("{")
            {
                c.bump();
                c.bump();
                let open = c.pos();
                c.bump();
                match block_body(c, env) {
                    Ok(body) => {
                        env.functions.insert(name.clone(), body);
                        return Ok(vec![format!(
                            "// function {name}() is inlined where it is called"
                        )]);
                    }
                    Err((span, why)) => {
                        sink.error(span, format!("function `{name}` is not supported: {why} (only assignments and `for (i : T)` loops can be inlined)"));
                        // Skip the whole body, from its `{`.
                        c.set_pos(open);
                        recover(c);
                        return Ok(Vec::new());
                    }
                }
            }
            return Err((
                name_span,
                format!("function `{name}` is not supported (zeno has no functions)"),
            ));
        }
        let d = dims(c)?;
        let mut init = None;
        if c.eat("=") || c.eat(":=") {
            if c.at("{") {
                init = Some(initialiser(c, 0)?);
            } else {
                let e = item(c)?;
                if ty.is_const
                    && let Some(v) = env.value(&e)
                {
                    env.consts.insert(name.clone(), v);
                }
                init = Some(print(&e));
            }
        }
        let mut line = format!("{} {}{}", ty.text, sanitize(&name), d);
        if let Some(i) = init {
            line.push_str(&format!(" = {i}"));
        }
        line.push(';');
        lines.push(line);
        if !c.eat(",") {
            break;
        }
    }
    c.expect(";")?;
    Ok(lines)
}

/// A template parameter list (without parentheses): value parameters become
/// `const T p`, references `T &p` stay.
pub(crate) fn parameters(c: &mut Cursor, env: &Env) -> PResult<Vec<String>> {
    let mut out = Vec::new();
    if c.at_eof() || c.at(")") {
        return Ok(out);
    }
    loop {
        let ty = parse_type(c, env)?;
        let by_ref = c.eat("&");
        let name = c.ident()?;
        let d = dims(c)?;
        let text = if by_ref {
            format!("{} &{}{}", ty.text, sanitize(&name), d)
        } else if ty.is_const {
            format!("{} {}{}", ty.text, sanitize(&name), d)
        } else {
            format!("const {} {}{}", ty.text, sanitize(&name), d)
        };
        out.push(text);
        if !c.eat(",") {
            return Ok(out);
        }
    }
}

/// Skips a balanced `{ ... }` block (the cursor at its `{`); `false`, having
/// consumed nothing but what it read, when there is no complete block.
fn skip_braced(c: &mut Cursor) -> bool {
    if !c.eat("{") {
        return false;
    }
    let mut depth = 1usize;
    while !c.at_eof() {
        if c.at("{") {
            depth += 1;
        } else if c.at("}") {
            depth -= 1;
            if depth == 0 {
                c.bump();
                return true;
            }
        }
        c.bump();
    }
    false
}

/// One statement of the system section: an instance, the `system` line, or a
/// declaration (returned in `globals`).
pub(crate) fn system_statement(
    c: &mut Cursor,
    env: &mut Env,
    sink: &mut Sink,
    sys: &mut SystemDecl,
    globals: &mut Vec<String>,
) {
    let start = c.span();
    if c.at_kw("progress") || c.at_kw("gantt") {
        // UPPAAL's symbolic verifier uses neither for a verdict: `progress`
        // measures only speed up its own exploration and `gantt` only draws
        // charts in its simulator.
        let kw = kw_of(c);
        c.bump();
        if skip_braced(c) {
            let why = if kw == "gantt" {
                "it only draws charts in UPPAAL's simulator"
            } else {
                "progress measures only speed up UPPAAL's own exploration"
            };
            sink.warning(start, format!("`{kw}` section ignored: {why}"));
        } else {
            sink.error(
                start,
                format!("`{kw}` must be followed by a `{{ ... }}` block"),
            );
        }
        return;
    }
    let r: PResult<()> = (|| {
        if c.at_kw("system") {
            c.bump();
            loop {
                let name = c.ident()?;
                sys.system.push(sanitize(&name));
                if c.at("<") {
                    return Err((
                        c.span(),
                        "process priorities (`<` in the system line) are not supported".into(),
                    ));
                }
                if !c.eat(",") {
                    break;
                }
            }
            c.expect(";")?;
            return Ok(());
        }
        if c.at_kw("chan") && matches!(c.peek_at(1), Tok::Ident(s) if s == "priority") {
            return Err((c.span(), format!("`{}` is not supported", kw_of(c))));
        }
        if matches!(c.peek(), Tok::Ident(_))
            && matches!(c.peek_at(1), Tok::Punct("=") | Tok::Punct(":="))
        {
            let name = c.ident()?;
            c.bump();
            let tmpl = c.ident()?;
            c.expect("(")?;
            let mut args = Vec::new();
            if !c.at(")") {
                loop {
                    args.push(print(&expr_no_comma(c)?));
                    if !c.eat(",") {
                        break;
                    }
                }
            }
            c.expect(")")?;
            c.expect(";")?;
            sys.instances.push(format!(
                "{} = {}({});",
                sanitize(&name),
                sanitize(&tmpl),
                args.join(", ")
            ));
            return Ok(());
        }
        if matches!(c.peek(), Tok::Ident(_)) && c.peek_at(1) == &Tok::Punct("(") {
            return Err((
                c.span(),
                "partial instantiation `P(...) = T(...)` is not supported".into(),
            ));
        }
        let lines = declaration(c, env, sink);
        globals.extend(lines);
        Ok(())
    })();
    if let Err((span, msg)) = r {
        sink.error(if span == Span::default() { start } else { span }, msg);
        recover(c);
    }
}

fn expr_no_comma(c: &mut Cursor) -> PResult<Expr> {
    expr(c)
}

/// Statements up to the closing `}` of a function body (consumed).
fn block_body(c: &mut Cursor, env: &Env) -> PResult<Vec<Expr>> {
    let mut out = Vec::new();
    while !c.eat("}") {
        if c.at_eof() {
            return Err((c.span(), "unterminated function body".into()));
        }
        statement(c, env, &mut out)?;
    }
    Ok(out)
}

fn statement(c: &mut Cursor, env: &Env, out: &mut Vec<Expr>) -> PResult<()> {
    if c.eat(";") {
        return Ok(());
    }
    if c.eat("{") {
        out.extend(block_body(c, env)?);
        return Ok(());
    }
    if c.at_kw("for") {
        let span = c.span();
        c.bump();
        c.expect("(")?;
        let var = c.ident()?;
        if !c.eat(":") {
            return Err((span, "C-style `for (init; cond; step)` loops".into()));
        }
        let ty_span = c.span();
        let ty = c.ident()?;
        let (lo, hi) = if ty == "int" {
            c.expect("[")?;
            let lo = item(c)?;
            c.expect(",")?;
            let hi = item(c)?;
            c.expect("]")?;
            (lo, hi)
        } else {
            env.typedefs
                .get(&ty)
                .cloned()
                .ok_or((ty_span, format!("unknown type `{ty}` in the loop")))?
        };
        c.expect(")")?;
        let (Some(lo), Some(hi)) = (env.value(&lo), env.value(&hi)) else {
            return Err((ty_span, "loop bounds that are not constants".into()));
        };
        let mut body = Vec::new();
        statement(c, env, &mut body)?;
        for k in lo..=hi {
            for e in &body {
                out.push(subst(e, &var, k));
            }
            if out.len() > MAX_INLINED {
                return Err((span, format!("more than {MAX_INLINED} inlined updates")));
            }
        }
        return Ok(());
    }
    for kw in [
        "if", "while", "do", "return", "for", "int", "bool", "clock", "const",
    ] {
        if c.at_kw(kw) {
            return Err((c.span(), format!("`{kw}`")));
        }
    }
    let e = expr(c)?;
    c.expect(";")?;
    out.push(e);
    Ok(())
}

/// `e` with the loop variable `var` replaced by `k`.
fn subst(e: &Expr, var: &str, k: i64) -> Expr {
    let s = |x: &Expr| Box::new(subst(x, var, k));
    match e {
        Expr::Ident(n) if n == var => Expr::Int(k),
        Expr::Int(_) | Expr::Ident(_) => e.clone(),
        Expr::Index(a, i) => Expr::Index(s(a), s(i)),
        Expr::Field(a, f) => Expr::Field(s(a), f.clone()),
        Expr::Call(f, args) => {
            Expr::Call(f.clone(), args.iter().map(|a| subst(a, var, k)).collect())
        }
        Expr::Unary(op, a) => Expr::Unary(op, s(a)),
        Expr::Binary(op, a, b) => Expr::Binary(op, s(a), s(b)),
        Expr::Cond(a, b, c) => Expr::Cond(s(a), s(b), s(c)),
        Expr::Assign(op, a, b) => Expr::Assign(op, s(a), s(b)),
        Expr::PostIncr(op, a) => Expr::PostIncr(op, s(a)),
        // A quantifier rebinding the same name hides the loop variable.
        Expr::Quant(q, v, t, b) if v == var => Expr::Quant(q, v.clone(), t.clone(), b.clone()),
        Expr::Quant(q, v, t, b) => Expr::Quant(q, v.clone(), t.clone(), s(b)),
    }
}

/// An assignment label: updates separated by `,`, where a call `f()` of an
/// inlined function stands for its updates.
pub(crate) fn updates(c: &mut Cursor, env: &Env) -> PResult<Vec<Expr>> {
    let mut out = Vec::new();
    loop {
        let inlined = match (c.peek(), c.peek_at(1), c.peek_at(2), c.peek_at(3)) {
            (Tok::Ident(f), Tok::Punct("("), Tok::Punct(")"), Tok::Punct(",") | Tok::Eof) => {
                env.functions.get(f).cloned()
            }
            _ => None,
        };
        match inlined {
            Some(body) => {
                c.bump();
                c.bump();
                c.bump();
                out.extend(body);
            }
            None => out.push(expr(c)?),
        }
        if !c.eat(",") {
            return Ok(out);
        }
    }
}
