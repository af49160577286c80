//! UPPAAL's C-like declarations (global, local, parameters, the system
//! section) translated to zeno declarations.

use super::Sink;
use super::expr::{Expr, Parser, eval_const, print};
use super::lex::{Cursor, PResult, Tok};
use std::collections::HashMap;
use zeno_ir::Span;

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
    /// For each function read so far (its zeno name), which parameters are
    /// references that may be written (`int &v`, not `const int &v`).
    pub(crate) ref_params: HashMap<String, Vec<bool>>,
}

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
    /// The priority level of each entry of `system` (`<` starts a higher one).
    pub system_levels: Vec<u32>,
}

fn expr(c: &mut Cursor) -> PResult<Expr> {
    Parser { c }.expr()
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
                format!("int[{}, {}]", print(&lo, &c.cx), print(&hi, &c.cx))
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
            format!("scalar[{}]", print(&size, &c.cx))
        }
        "double" | "string" => {
            return Err((start, format!("`{base}` types are not supported")));
        }
        name if env.typedefs.contains_key(name) || env.other_types.contains(name) => {
            c.cx.name(name)
        }
        // UPPAAL's built-in sized integers are zeno's too.
        name if zeno_semantics::ty::builtin_int_type(name).is_some() => name.to_string(),
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
        fields.extend(c.comma_list(|c| {
            let name = c.ident()?;
            let d = dims(c)?;
            Ok(format!("{} {}{d};", ty.text, c.cx.name(&name)))
        })?);
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
    Ok(sized_dims(c, None)?.0)
}

/// Array dimensions as zeno text, and each one's size where `env` knows
/// it (a constant expression, or a typedef'd range `[id_t]`).
fn sized_dims(c: &mut Cursor, env: Option<&Env>) -> PResult<(String, Vec<Option<i64>>)> {
    let mut out = String::new();
    let mut sizes = Vec::new();
    while c.at("[") {
        c.bump();
        let e = item(c)?;
        c.expect("]")?;
        out.push_str(&format!("[{}]", print(&e, &c.cx)));
        sizes.push(env.and_then(|env| dimension_size(env, &e)));
    }
    Ok((out, sizes))
}

/// The number of elements of a dimension `[e]`: `e` itself, or the size of
/// the range a type name stands for.
fn dimension_size(env: &Env, e: &Expr) -> Option<i64> {
    if let Expr::Ident(name) = e
        && let Some((lo, hi)) = env.typedefs.get(name)
    {
        return Some(env.value(hi)? - env.value(lo)? + 1);
    }
    env.value(e)
}

/// The zero of a declared type's elements (`0`, `false`), for the
/// elements an initialiser leaves out; `None` for records and other types.
fn zero_of(ty: &str, env: &Env) -> Option<&'static str> {
    let mut base = ty;
    for prefix in ["const ", "meta "] {
        base = base.strip_prefix(prefix).unwrap_or(base);
    }
    if base == "bool" {
        Some("false")
    } else if base.starts_with("int")
        || zeno_semantics::ty::builtin_int_type(base).is_some()
        || env.typedefs.contains_key(base)
    {
        Some("0")
    } else {
        None
    }
}

/// An array of zeros of the dimensions `sizes` (all known), as zeno text.
fn zeros(zero: &str, sizes: &[Option<i64>]) -> Option<String> {
    match sizes.split_first() {
        None => Some(zero.to_string()),
        Some((n, rest)) => {
            let inner = zeros(zero, rest)?;
            let n = usize::try_from((*n)?).ok().filter(|&n| n <= 4096)?;
            Some(format!("{{ {} }}", vec![inner; n].join(", ")))
        }
    }
}

/// An initialiser list `{ … }` for an array of dimensions `sizes`, with
/// the elements UPPAAL fills in itself when the list is shorter than the
/// array (zeros) appended, and a warning where that happened.
fn padded_initialiser(
    c: &mut Cursor,
    sizes: &[Option<i64>],
    zero: &str,
    sink: &mut Sink,
) -> PResult<String> {
    let (Some((size, rest)), true) = (sizes.split_first(), c.at("{")) else {
        return initialiser(c, 0);
    };
    let start = c.span();
    c.bump();
    let mut items = c.list_until("}", |c| {
        if c.at("{") && !rest.is_empty() {
            padded_initialiser(c, rest, zero, sink)
        } else {
            initialiser(c, 1)
        }
    })?;
    if let (Some(n), Some(filler)) = (
        size.and_then(|n| usize::try_from(n).ok()),
        zeros(zero, rest),
    ) && items.len() < n
    {
        sink.warning(
            start,
            format!(
                "the list gives {} of the array's {n} elements; the others start at {zero}, as UPPAAL fills them",
                items.len()
            ),
        );
        items.resize(n, filler);
    }
    Ok(format!("{{ {} }}", items.join(", ")))
}

/// The number of items of the list `{ … }` at the cursor (which stays
/// where it is), counting the commas at its own depth.
fn list_len(c: &Cursor) -> usize {
    let (mut depth, mut items, mut k) = (0usize, 0usize, 0usize);
    loop {
        match c.peek_at(k) {
            Tok::Eof => return items,
            Tok::Punct("{" | "(" | "[") => {
                if depth == 1 && items == 0 {
                    items = 1;
                }
                depth += 1;
            }
            Tok::Punct("}" | ")" | "]") => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return items;
                }
            }
            Tok::Punct(",") if depth == 1 => items += 1,
            _ if depth == 1 && items == 0 => items = 1,
            _ => {}
        }
        k += 1;
    }
}

/// Is the cursor at an instantiation, `Q = P(2);` or `Q := P(2);`, or a
/// partial one, `P(const id_t i) = T(i);`? (A name followed by `(` starts
/// no declaration: those start with a type and then a name.)
pub(crate) fn at_instantiation(c: &Cursor) -> bool {
    matches!(c.peek(), Tok::Ident(_))
        && (matches!(c.peek_at(1), Tok::Punct("=") | Tok::Punct(":="))
            && matches!(c.peek_at(2), Tok::Ident(_))
            && c.peek_at(3) == &Tok::Punct("(")
            || c.peek_at(1) == &Tok::Punct("("))
}

/// An initial value: an expression or a list `{ … }`, possibly nested.
fn initialiser(c: &mut Cursor, depth: u32) -> PResult<String> {
    if !c.at("{") {
        return Ok(print(&item(c)?, &c.cx));
    }
    if depth > 64 {
        return Err((c.span(), "initialiser lists nested too deeply".into()));
    }
    c.bump();
    let items = c.list_until("}", |c| {
        // UPPAAL's `{ a: 1, b: true }` names the record's fields.
        if matches!(c.peek(), Tok::Ident(_)) && c.peek_at(1) == &Tok::Punct(":") {
            return Err((
                c.span(),
                "a field initialised by name (`a: …`) is not supported: list the values in the record's order".into(),
            ));
        }
        initialiser(c, depth + 1)
    })?;
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
    // UPPAAL's declarations that zeno has no counterpart for, named (they
    // would read as an unknown type).
    if let Tok::Ident(w) = c.peek() {
        let what = match w.as_str() {
            "before_update" | "after_update" => Some(format!("the `{w}` block")),
            "import" => Some("an external library (`import`)".to_string()),
            "dynamic" => Some("a dynamic template (`dynamic`)".to_string()),
            _ => None,
        };
        if let Some(what) = what {
            return Err((c.span(), format!("{what} is not supported in zeno")));
        }
    }
    if c.at_kw("chan") && matches!(c.peek_at(1), Tok::Ident(s) if s == "priority") {
        return chan_priority(c).map(|line| vec![line]);
    }
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
            Some((lo, hi)) => format!("int[{}, {}]", print(lo, &c.cx), print(hi, &c.cx)),
            None => {
                c.set_pos(start);
                parse_type(c, env)?.text
            }
        };
        let lines = c.comma_list(|c| {
            let name = c.ident()?;
            let d = dims(c)?;
            let line = format!("typedef {ty} {}{d};", c.cx.name(&name));
            match &range {
                Some(r) if d.is_empty() => {
                    env.typedefs.insert(name, r.clone());
                }
                _ => {
                    env.other_types.insert(name);
                }
            }
            Ok(line)
        })?;
        c.expect(";")?;
        return Ok(lines);
    }
    let ty = parse_type(c, env)?;
    let mut lines = Vec::new();
    loop {
        let name = c.ident()?;
        if c.at("(") {
            return function(c, env, sink, &ty.text, &name).map(|f| vec![f]);
        }
        // UPPAAL 5's `int a[] = { 1, 2, 3 };`: the size is the list's length.
        let open = c.at("[") && c.peek_at(1) == &Tok::Punct("]");
        let open_at = c.span();
        if open {
            c.bump();
            c.bump();
        }
        let (mut d, sizes) = sized_dims(c, Some(env))?;
        let mut init = None;
        if open && !(c.at("=") || c.at(":=")) || open && !matches!(c.peek_at(1), Tok::Punct("{")) {
            return Err((
                open_at,
                "an array of unstated size `[]` needs a list `{ … }` of initial values".into(),
            ));
        }
        if c.eat("=") || c.eat(":=") {
            if c.at("{") {
                if open {
                    let len = list_len(c);
                    d = format!("[{len}]{d}");
                    init = Some(initialiser(c, 0)?);
                } else if let Some(zero) = zero_of(&ty.text, env) {
                    init = Some(padded_initialiser(c, &sizes, zero, sink)?);
                } else {
                    init = Some(initialiser(c, 0)?);
                }
            } else {
                let e = item(c)?;
                if ty.is_const
                    && let Some(v) = env.value(&e)
                {
                    env.consts.insert(name.clone(), v);
                }
                init = Some(print(&e, &c.cx));
            }
        }
        let mut line = format!("{} {}{}", ty.text, c.cx.name(&name), d);
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

/// `chan priority a, d[0] < default < b;` becomes zeno's
/// `priority a, d[0] < default < b;` (docs/language.md, "Priorities").
fn chan_priority(c: &mut Cursor) -> PResult<String> {
    c.bump();
    c.bump();
    let mut out = String::from("priority ");
    loop {
        let name = c.ident()?;
        if name == "default" {
            out.push_str("default");
        } else {
            out.push_str(&c.cx.name(&name));
            while c.eat("[") {
                let i = expr(c)?;
                c.expect("]")?;
                out.push_str(&format!("[{}]", print(&i, &c.cx)));
            }
        }
        if c.eat("<") {
            out.push_str(" < ");
        } else if c.eat(",") {
            out.push_str(", ");
        } else {
            break;
        }
    }
    c.expect(";")?;
    out.push(';');
    Ok(out)
}

/// The type and name of a value parameter that is not `const` (zeno text).
pub(crate) type ValueParam = (String, String);

/// A template parameter list (without parentheses): value parameters become
/// `const T p`, references `T &p` stay. Each parameter comes with its type
/// and name when it is a value parameter UPPAAL lets the template change
/// (not `const`, not a reference, not an array): see
/// [`Template::copy_written_value_params`](super::model::Template::copy_written_value_params).
pub(crate) fn parameters(c: &mut Cursor, env: &Env) -> PResult<Vec<(String, Option<ValueParam>)>> {
    if c.at_eof() || c.at(")") {
        return Ok(Vec::new());
    }
    c.comma_list(|c| {
        let ty = parse_type(c, env)?;
        let by_ref = c.eat("&");
        let name = c.ident()?;
        let d = dims(c)?;
        Ok(if by_ref {
            (format!("{} &{}{}", ty.text, c.cx.name(&name), d), None)
        } else if ty.is_const {
            (format!("{} {}{}", ty.text, c.cx.name(&name), d), None)
        } else {
            let value = d.is_empty().then(|| (ty.text.clone(), c.cx.name(&name)));
            (
                format!("const {} {}{}", ty.text, c.cx.name(&name), d),
                value,
            )
        })
    })
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

/// One item of the global declarations: an instantiation (`Q = P(2);`,
/// which UPPAAL's grammar lets stand there too) or a declaration, whose
/// lines go to the model's globals with the source span they came from.
pub(crate) fn global_item(
    c: &mut Cursor,
    env: &mut Env,
    sink: &mut Sink,
    sys: &mut SystemDecl,
    model: &mut super::model::Model,
) {
    if at_instantiation(c) {
        system_statement(c, env, sink, sys, &mut model.globals);
    } else {
        let start = c.span().start;
        let lines = declaration(c, env, sink);
        let origin = Span::new(start, c.prev_span().end);
        super::model::extend_traced(&mut model.globals, &mut model.global_origins, lines, origin);
    }
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
            // Process priorities: `<` puts the processes to its right higher.
            let mut level = sys.system_levels.last().copied().unwrap_or(0);
            loop {
                let name = c.ident()?;
                sys.system.push(c.cx.name(&name));
                sys.system_levels.push(level);
                if c.eat("<") {
                    level += 1;
                } else if !c.eat(",") {
                    break;
                }
            }
            c.expect(";")?;
            return Ok(());
        }
        // `P1 = T(1);`, or a partial instantiation `P(int[0,2] i) = T(i, 1);`
        // whose free parameters become zeno's instance parameters.
        let instance = matches!(c.peek(), Tok::Ident(_))
            && matches!(
                c.peek_at(1),
                Tok::Punct("=") | Tok::Punct(":=") | Tok::Punct("(")
            );
        if instance {
            let name = c.ident()?;
            let mut params = String::new();
            if c.eat("(") {
                let ps: Vec<String> = parameters(c, env)?.into_iter().map(|p| p.0).collect();
                c.expect(")")?;
                if !ps.is_empty() {
                    params = format!("({})", ps.join(", "));
                }
            }
            if !c.eat("=") && !c.eat(":=") {
                return Err((c.span(), "expected `=`".into()));
            }
            let tmpl = c.ident()?;
            c.expect("(")?;
            let args = c.list_until(")", |c| Ok(print(&expr_no_comma(c)?, &c.cx)))?;
            c.expect(";")?;
            sys.instances.push(format!(
                "{}{params} = {}({});",
                c.cx.name(&name),
                c.cx.name(&tmpl),
                args.join(", ")
            ));
            return Ok(());
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

/// A function, from its parameter list: `T name(params) { statements }`
/// in zeno's syntax, which is UPPAAL's (names that are zeno keywords are
/// renamed, `:=` becomes `=`).
fn function(
    c: &mut Cursor,
    env: &mut Env,
    sink: &mut Sink,
    ty: &str,
    name: &str,
) -> PResult<String> {
    if name == "abs" {
        c.cx.note_user_abs();
    }
    c.expect("(")?;
    let mut writable = Vec::new();
    let params = c.list_until(")", |c| {
        let t = parse_type(c, env)?;
        let r = if c.eat("&") { "&" } else { "" };
        writable.push(!r.is_empty() && !t.is_const);
        let p = c.ident()?;
        let d = dims(c)?;
        Ok(format!("{} {r}{}{d}", t.text, c.cx.name(&p)))
    })?;
    env.ref_params.insert(c.cx.name(name), writable);
    let open = c.pos();
    c.expect("{")?;
    let mut body = Body {
        env,
        sink,
        out: format!("{ty} {}({}) {{\n", c.cx.name(name), params.join(", ")),
    };
    if let Err((span, why)) = body.block(c, 1) {
        // Reported, and the rest of the body skipped: the declarations
        // after it still translate.
        body.sink
            .error(span, format!("in function `{name}`: {why}"));
        c.set_pos(open);
        recover(c);
        return Ok(format!("// function `{name}` could not be translated"));
    }
    body.out.push('}');
    Ok(body.out)
}

/// A comma-separated list of expressions up to `end` (consumed), as zeno
/// text: one part of a `for` header.
fn for_part(c: &mut Cursor, end: &str) -> PResult<String> {
    let mut es = Vec::new();
    while !c.at(end) {
        es.push(print(&expr(c)?, &c.cx));
        if !c.eat(",") {
            break;
        }
    }
    c.expect(end)?;
    Ok(es.join(", "))
}

/// After `for (init;`: `cond; step) ` as zeno text.
fn for_rest(c: &mut Cursor) -> PResult<String> {
    let cond = for_part(c, ";")?;
    let step = for_part(c, ")")?;
    Ok(format!("; {cond}; {step}) "))
}

/// Is the cursor at a local declaration (a type, then a name)?
fn at_declaration(c: &Cursor, env: &Env) -> bool {
    match c.peek() {
        Tok::Ident(w) => {
            matches!(
                w.as_str(),
                "int" | "bool" | "const" | "clock" | "chan" | "typedef" | "meta" | "struct"
            ) || ((env.typedefs.contains_key(w.as_str())
                || env.other_types.contains(w.as_str())
                || zeno_semantics::ty::builtin_int_type(w).is_some())
                && matches!(c.peek_at(1), Tok::Ident(_)))
        }
        _ => false,
    }
}

/// UPPAAL 5's statements that zeno's functions lack, named for the error
/// (rather than read as an unknown variable or a call).
fn unsupported_statement(word: &str, next: &Tok) -> Option<&'static str> {
    match (word, next) {
        ("break", Tok::Punct(";")) => Some("`break`"),
        ("continue", Tok::Punct(";")) => Some("`continue`"),
        ("switch", Tok::Punct("(")) => Some("a `switch` statement"),
        ("assert", Tok::Punct("(")) => Some("an `assert` statement"),
        _ => None,
    }
}

/// A function body being translated: its local declarations go into `env`,
/// errors inside them to `sink`, and the zeno text to `out`.
struct Body<'e, 's> {
    env: &'e mut Env,
    sink: &'s mut Sink,
    out: String,
}

impl Body<'_, '_> {
    /// Statements up to the closing `}` of a block (consumed), one per line.
    fn block(&mut self, c: &mut Cursor, depth: usize) -> PResult<()> {
        while !c.eat("}") {
            if c.at_eof() {
                return Err((c.span(), "unterminated function body".into()));
            }
            self.out.push_str(&"    ".repeat(depth));
            self.statement(c, depth)?;
            self.out.push('\n');
        }
        Ok(())
    }

    fn statement(&mut self, c: &mut Cursor, depth: usize) -> PResult<()> {
        c.enter()?;
        let done = self.statement_here(c, depth);
        c.leave();
        done
    }

    fn statement_here(&mut self, c: &mut Cursor, depth: usize) -> PResult<()> {
        let paren_expr = |c: &mut Cursor| -> PResult<String> {
            c.expect("(")?;
            let e = expr(c)?;
            c.expect(")")?;
            Ok(print(&e, &c.cx))
        };
        if let Tok::Ident(w) = c.peek()
            && let Some(what) = unsupported_statement(w, c.peek_at(1))
        {
            return Err((c.span(), format!("{what} is not supported in zeno")));
        }
        if c.eat(";") {
            self.out.push(';');
        } else if c.eat("{") {
            self.out.push_str("{\n");
            self.block(c, depth + 1)?;
            self.out.push_str(&"    ".repeat(depth));
            self.out.push('}');
        } else if c.eat_kw("if") {
            self.out.push_str(&format!("if ({}) ", paren_expr(c)?));
            self.statement(c, depth)?;
            if c.eat_kw("else") {
                self.out.push_str(" else ");
                self.statement(c, depth)?;
            }
        } else if c.eat_kw("while") {
            self.out.push_str(&format!("while ({}) ", paren_expr(c)?));
            self.statement(c, depth)?;
        } else if c.eat_kw("do") {
            self.out.push_str("do ");
            self.statement(c, depth)?;
            if !c.eat_kw("while") {
                return Err((c.span(), "expected `while` after the body of `do`".into()));
            }
            self.out.push_str(&format!(" while ({});", paren_expr(c)?));
            c.expect(";")?;
        } else if c.eat_kw("for") {
            c.expect("(")?;
            if matches!(c.peek(), Tok::Ident(_)) && c.peek_at(1) == &Tok::Punct(":") {
                let var = c.ident()?;
                c.bump();
                let t = parse_type(c, self.env)?;
                c.expect(")")?;
                self.out
                    .push_str(&format!("for ({} : {}) ", c.cx.name(&var), t.text));
            } else if at_declaration(c, self.env) {
                // `for (int i = 0; …)`: the declaration goes into a block of
                // its own around the loop, where it is visible as in C.
                let decl = declaration_inner(c, self.env, self.sink)?;
                self.out.push_str(&format!("{{ {} for (", decl.join(" ")));
                let rest = for_rest(c)?;
                self.out.push_str(&rest);
                self.statement(c, depth)?;
                self.out.push_str(" }");
                return Ok(());
            } else {
                let init = for_part(c, ";")?;
                self.out.push_str(&format!("for ({init}{}", for_rest(c)?));
            }
            self.statement(c, depth)?;
        } else if c.eat_kw("return") {
            if c.eat(";") {
                self.out.push_str("return;");
            } else {
                let e = expr(c)?;
                c.expect(";")?;
                self.out.push_str(&format!("return {};", print(&e, &c.cx)));
            }
        } else if at_declaration(c, self.env) {
            let lines = declaration_inner(c, self.env, self.sink)?;
            self.out.push_str(&lines.join(" "));
        } else {
            let e = expr(c)?;
            c.expect(";")?;
            self.out.push_str(&print(&e, &c.cx));
            self.out.push(';');
        }
        Ok(())
    }
}

/// An assignment label: updates separated by `,`.
pub(crate) fn updates(c: &mut Cursor, _env: &Env) -> PResult<Vec<Expr>> {
    c.comma_list(expr)
}
