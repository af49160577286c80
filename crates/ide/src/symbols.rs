//! The outline and folding ranges, from the item tree.

use zeno_ir::Span;
use zeno_semantics::hir::{Decl, ItemTree, Name};
use zeno_semantics::resolve::{DefKind, absolute};

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The name as declared.
    pub name: String,
    /// What it declares.
    pub kind: DefKind,
    /// What it is, in words (`template`, `instance of Proc`), when the kind
    /// alone does not say.
    pub detail: Option<String>,
    /// The whole declaration; it contains `selection`.
    pub full: Span,
    /// The declared name.
    pub selection: Span,
    /// Symbols declared inside it (a template's locations, parameters and locals).
    pub children: Vec<Symbol>,
}

fn symbol(
    name: &Name,
    whole: Span,
    kind: DefKind,
    detail: Option<&str>,
    at: impl Fn(Span) -> Span,
) -> Symbol {
    let selection = at(name.span);
    let mut full = at(whole);
    // The selection must lie inside the full range.
    if full.start > selection.start || full.end < selection.end {
        full = selection;
    }
    Symbol {
        name: name.text.clone(),
        kind,
        detail: detail.map(str::to_string),
        full,
        selection,
        children: Vec::new(),
    }
}

fn decl(d: &Decl, at: impl Fn(Span) -> Span) -> Symbol {
    let (name, span, kind, detail) = match d {
        Decl::Var(v) if v.is_const => (&v.name, v.span, DefKind::Constant, None),
        Decl::Var(v) => (&v.name, v.span, DefKind::Variable, None),
        Decl::Typedef(t) => (&t.name, t.span, DefKind::Typedef, Some("typedef")),
        Decl::Function(f) => (&f.name, f.span, DefKind::Function, Some("function")),
    };
    symbol(name, span, kind, detail, at)
}

pub(super) fn symbols(tree: &ItemTree) -> Vec<Symbol> {
    let same = |s: Span| s;
    let mut out: Vec<Symbol> = tree.globals.iter().map(|d| decl(d, same)).collect();
    for t in &tree.templates {
        let at = |s: Span| absolute(t, s);
        let data = &t.data;
        let mut template = symbol(
            &data.name,
            data.span,
            DefKind::Template,
            Some("template"),
            at,
        );
        // Parameters, then local declarations, then locations.
        let params = data
            .params
            .iter()
            .map(|p| symbol(&p.name, p.span, DefKind::Parameter, Some("parameter"), at));
        let locals = data.decls.iter().map(|d| decl(d, at));
        let locations = data
            .locations
            .iter()
            .map(|l| symbol(&l.name, l.span, DefKind::Location, Some("location"), at));
        template.children = params.chain(locals).chain(locations).collect();
        out.push(template);
    }
    for i in &tree.instances {
        out.push(symbol(
            &i.name,
            i.span,
            DefKind::Instance,
            Some(&format!("instance of {}", i.template.text)),
            same,
        ));
    }
    for c in &tree.checks {
        out.push(symbol(&c.name, c.span, DefKind::Check, Some("check"), same));
    }
    out
}

pub(super) fn folding(tree: &ItemTree) -> Vec<Span> {
    tree.templates
        .iter()
        .map(|t| absolute(t, t.data.span))
        .collect()
}
