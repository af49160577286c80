//! Hover over names: the declaration a name resolves to, described from the
//! item tree (types, a location's invariant, a template's parameters), the
//! values the semantics layer folds global constants and typedefs to, and,
//! for global variables, the range the lowered model gives them.

use zeno_ir::{self as ir, Span};
use zeno_semantics::hir::{Decl, Param, Template, TemplateItem, TypeRef};
use zeno_semantics::lower::GlobalScope;
use zeno_semantics::resolve::{Def, DefKind, absolute};
use zeno_semantics::ty::{Sym, Ty};

use super::{Analysis, source};

/// What a hover shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    /// Markdown.
    pub markdown: String,
    /// The hovered name.
    pub range: Span,
}

/// The type as written, with the range the model resolves it to when the
/// written type does not show it (`pid_t`, `int`).
fn type_text(text: &str, ty: Span, var: Option<&ir::Variable>) -> String {
    let written = source(text, ty).to_string();
    match var {
        Some(v) if !v.is_bool => {
            let range = format!("int[{}, {}]", v.lo, v.hi);
            if written.replace(' ', "") == range.replace(' ', "") {
                written
            } else {
                format!("{written} (= {range})")
            }
        }
        _ => written,
    }
}

/// What the semantics layer folded a global name to: `K = 6` for a
/// constant, `pid_t = int[1, 3]` for a typedef. `None` for locals (their
/// values may depend on the parameters) and for what did not fold.
fn folded(sym: Option<&Sym>, name: &str) -> Option<String> {
    match sym? {
        Sym::Const {
            value: Some(v),
            ty: Ty::Bool,
        } => Some(format!("{name} = {}", *v != 0)),
        Sym::Const { value: Some(v), .. } => Some(format!("{name} = {v}")),
        Sym::Typedef(ty) if *ty != Ty::Error => Some(format!("{name} = {}", ty.describe())),
        _ => None,
    }
}

fn lookup<'a>(scope: &'a GlobalScope, name: &str) -> Option<&'a Sym> {
    scope
        .symbols
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, s)| s)
}

fn code(s: String) -> String {
    format!("```zeno\n{s}\n```")
}

/// Markdown for a declaration: as written in a code block, then its folded
/// value when it has one. `at` makes the declaration's spans absolute.
fn decl_hover(
    text: &str,
    d: &Decl,
    at: impl Fn(Span) -> Span,
    var: Option<&ir::Variable>,
    sym: Option<&Sym>,
) -> String {
    let written = match d {
        Decl::Var(v) => {
            let ty = if v.is_const {
                source(text, at(v.ty.span())).to_string()
            } else {
                type_text(text, at(v.ty.span()), var)
            };
            let konst = if v.is_const { "const " } else { "" };
            let mut s = format!("{konst}{ty} {}", v.name.text);
            for d in &v.array {
                s.push_str(&format!("[{}]", source(text, at(d.span))));
            }
            if let Some(init) = &v.init {
                s.push_str(&format!(" = {}", source(text, at(init.span))));
            }
            s
        }
        Decl::Typedef(t) => format!("typedef {} {}", source(text, at(t.ty.span())), t.name.text),
        Decl::Function(f) => function_signature(text, f, &at),
    };
    let mut s = code(written);
    if let Some(value) = folded(sym, &d.name().text) {
        s.push_str(&format!("\n\n`{value}`"));
    }
    s
}

/// `int f(const int a, int &b)`: the function's header as written.
pub(super) fn function_signature(
    text: &str,
    f: &zeno_semantics::hir::Function,
    at: &impl Fn(Span) -> Span,
) -> String {
    let ret = match &f.ret {
        Some(t) => source(text, at(t.span())),
        None => "void",
    };
    let params: Vec<&str> = f.params.iter().map(|p| source(text, at(p.span))).collect();
    format!("{ret} {}({})", f.name.text, params.join(", "))
}

fn param_text<'t>(text: &'t str, t: &TemplateItem, p: &Param) -> &'t str {
    source(text, absolute(t, p.span))
}

/// `Proc(const pid_t pid)`: a template's signature as written, and its
/// parameters.
pub(super) fn signature(text: &str, t: &TemplateItem) -> (String, Vec<String>) {
    let data: &Template = &t.data;
    let params: Vec<String> = data
        .params
        .iter()
        .map(|p| param_text(text, t, p).to_string())
        .collect();
    (format!("{}({})", data.name.text, params.join(", ")), params)
}

pub(super) fn hover(a: &Analysis, offset: u32) -> Option<HoverResult> {
    let res = a.resolutions();
    let at = res.at(offset)?;
    let markdown = describe(a, res.def(at.def))?;
    Some(HoverResult {
        markdown,
        range: at.span,
    })
}

/// The one of `items`, declared in template `t`, whose name (at the span
/// `name` gives, relative to the template) lies at `at` in the text.
fn named_at<'i, T: 'i>(
    t: &TemplateItem,
    items: impl IntoIterator<Item = &'i T>,
    name: impl Fn(&T) -> Span,
    at: Span,
) -> Option<&'i T> {
    items.into_iter().find(|x| absolute(t, name(x)) == at)
}

fn describe(a: &Analysis, def: &Def) -> Option<String> {
    let text = a.text();
    let tree = a.tree();
    let template = def.template.and_then(|k| tree.templates.get(k as usize));
    match (def.kind, template) {
        (DefKind::Template, Some(t)) => Some(code(format!("template {}", signature(text, t).0))),
        (DefKind::Instance, _) => {
            let i = tree.instances.iter().find(|i| i.name.span == def.span)?;
            Some(code(source(text, i.span).to_string()))
        }
        (DefKind::Parameter, Some(t)) => {
            let p = named_at(t, &t.data.params, |p| p.name.span, def.span)?;
            let mut s = format!(
                "parameter of {}: {}",
                t.data.name.text,
                param_text(text, t, p)
            );
            // The range of a typedef'd parameter, as folded.
            if let TypeRef::Named(n) = &p.ty
                && let Some(range) = folded(lookup(&a.global_scope(), &n.text), &n.text)
            {
                s.push_str(&format!("\n\n`{range}`"));
            }
            Some(s)
        }
        (DefKind::Variable | DefKind::Constant | DefKind::Typedef, Some(t)) => {
            let d = named_at(t, &t.data.decls, |d| d.name().span, def.span)?;
            // Locals have no single range in the model: one per process.
            Some(decl_hover(text, d, |s| absolute(t, s), None, None))
        }
        (DefKind::Variable | DefKind::Constant | DefKind::Typedef, None) => {
            let d = tree.globals.iter().find(|d| d.name().span == def.span)?;
            let network = a.network();
            let var = network
                .as_ref()
                .and_then(|n| n.variables.iter().find(|v| v.name == def.name));
            let scope = a.global_scope();
            Some(decl_hover(text, d, |s| s, var, lookup(&scope, &def.name)))
        }
        (DefKind::Location, Some(t)) => {
            let l = named_at(t, &t.data.locations, |l| l.name.span, def.span)?;
            let mut s = format!("location `{}` of {}", l.name.text, t.data.name.text);
            match &l.invariant {
                Some(inv) => s.push_str(&format!(
                    "\n\ninvariant: `{}`",
                    source(text, absolute(t, inv.span))
                )),
                None => s.push_str("\n\nno invariant"),
            }
            Some(s)
        }
        (DefKind::Select, Some(t)) => {
            let selects = t.data.edges.iter().flat_map(|e| &e.selects);
            let s = named_at(t, selects, |s| s.name.span, def.span)?;
            Some(format!(
                "`select` binding of an edge of {}: `{} : {}`",
                t.data.name.text,
                s.name.text,
                source(text, absolute(t, s.ty.span()))
            ))
        }
        (DefKind::Quantifier, _) => Some(format!("quantified variable `{}`", def.name)),
        (DefKind::Field, _) => {
            // The field's declaration as written: `int[0, 3] a`.
            let f = tree.globals.iter().find_map(|d| match d {
                Decl::Var(v) => super::completion::field_decl(&v.ty, def.span),
                Decl::Typedef(t) => super::completion::field_decl(&t.ty, def.span),
                Decl::Function(_) => None,
            })?;
            Some(format!(
                "record field\n\n{}",
                code(format!(
                    "{} {}",
                    source(text, f.ty.span()),
                    source(text, Span::new(f.name.span.start, f.span.end))
                ))
            ))
        }
        (DefKind::Label, Some(t)) => Some(format!(
            "action label `{}` of {}",
            def.name, t.data.name.text
        )),
        _ => None,
    }
}
