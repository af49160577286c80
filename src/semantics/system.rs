//! Whole-network lowering: global declarations, the `system` line with its
//! instances, and the checks.

use rustc_hash::{FxHashMap, FxHashSet};

use super::hir::{self, ExprKind, ItemTree, Quantifier};
use super::lower::{Ctx, Mode};
use super::ty::{MAX_EXPANSION, Sym, Ty};
use crate::diagnostics::Diagnostic;
use crate::ir;

use crate::ir::Span;

/// Lowers the whole file. `template_uses` are the global names used by the
/// templates (from their own checks), so unused warnings see every use.
pub fn lower_network(
    tree: &ItemTree,
    template_uses: &FxHashSet<String>,
) -> (ir::Network, Vec<Diagnostic>) {
    let mut ctx = Ctx::new(Mode::Lower);
    ctx.declare(&tree.globals, "");

    let mut templates: FxHashMap<&str, &hir::TemplateItem> = FxHashMap::default();
    for t in &tree.templates {
        let name = &t.data.name;
        let abs = shift(name.span, t.offset);
        if let Some(first) = templates.get(name.text.as_str()) {
            let d = Diagnostic::error(abs, format!("template `{}` is already defined", name.text))
                .with_related(
                    shift(first.data.name.span, first.offset),
                    "first defined here",
                );
            ctx.diags.push(d);
            continue;
        }
        if ctx.global_entries().iter().any(|(n, _, _)| *n == name.text) {
            ctx.diags.push(Diagnostic::error(
                abs,
                format!("`{}` is already a global name", name.text),
            ));
        }
        templates.insert(&name.text, t);
    }

    let mut instances: FxHashMap<&str, &hir::InstanceDecl> = FxHashMap::default();
    for inst in &tree.instances {
        if let Some(first) = instances.get(inst.name.text.as_str()) {
            let d = Diagnostic::error(
                inst.name.span,
                format!("instance `{}` is already defined", inst.name.text),
            )
            .with_related(first.name.span, "first defined here");
            ctx.diags.push(d);
            continue;
        }
        if !templates.contains_key(inst.template.text.as_str()) {
            ctx.diags.push(Diagnostic::error(
                inst.template.span,
                format!("unknown template `{}`", inst.template.text),
            ));
        }
        instances.insert(&inst.name.text, inst);
    }

    // The processes, in `system` order.
    let mut seen: FxHashMap<&str, Span> = FxHashMap::default();
    let mut used_templates: FxHashSet<&str> = FxHashSet::default();
    let mut used_instances: FxHashSet<&str> = FxHashSet::default();
    for entry in &tree.system {
        if let Some(first) = seen.get(entry.text.as_str()) {
            let d = Diagnostic::error(
                entry.span,
                format!("`{}` is already in the system", entry.text),
            )
            .with_related(*first, "first listed here");
            ctx.diags.push(d);
            continue;
        }
        seen.insert(&entry.text, entry.span);
        if let Some(inst) = instances.get(entry.text.as_str()) {
            used_instances.insert(&inst.name.text);
            let Some(t) = templates.get(inst.template.text.as_str()) else {
                continue;
            };
            used_templates.insert(&t.data.name.text);
            if let Some(bound) = bind_args(&mut ctx, t, inst) {
                instantiate(&mut ctx, t, &bound, &inst.name.text, Vec::new(), inst.span);
            }
        } else if let Some(t) = templates.get(entry.text.as_str()) {
            used_templates.insert(&t.data.name.text);
            expand(&mut ctx, t, entry);
        } else {
            ctx.diags.push(Diagnostic::error(
                entry.span,
                format!("unknown template or instance `{}`", entry.text),
            ));
        }
    }
    if tree.system.is_empty() && !tree.templates.is_empty() {
        let at = tree.templates[0].data.name.span;
        ctx.diags.push(Diagnostic::error(
            shift(at, tree.templates[0].offset),
            "the model has no `system` line",
        ));
    }
    for t in &tree.templates {
        if !used_templates.contains(t.data.name.text.as_str()) {
            ctx.diags.push(Diagnostic::warning(
                shift(t.data.name.span, t.offset),
                format!("template `{}` is never instantiated", t.data.name.text),
            ));
        }
    }
    for inst in &tree.instances {
        if !used_instances.contains(inst.name.text.as_str()) {
            ctx.diags.push(Diagnostic::warning(
                inst.name.span,
                format!("instance `{}` is not in the system", inst.name.text),
            ));
        }
    }

    // Checks.
    let mut check_names: FxHashMap<&str, Span> = FxHashMap::default();
    for c in &tree.checks {
        if let Some(first) = check_names.get(c.name.text.as_str()) {
            let d = Diagnostic::error(
                c.name.span,
                format!("check `{}` is already defined", c.name.text),
            )
            .with_related(*first, "first defined here");
            ctx.diags.push(d);
        } else {
            check_names.insert(&c.name.text, c.name.span);
        }
        let phi = ctx.formula(&c.formula);
        let kind = match c.quantifier {
            Quantifier::Always => ir::CheckKind::Invariant(phi),
            Quantifier::Eventually => ir::CheckKind::Reachable(phi),
        };
        ctx.net.checks.push(ir::Check {
            name: c.name.text.clone(),
            kind,
            span: c.span,
            name_span: c.name.span,
        });
    }

    for (name, span, kind) in ctx.global_entries() {
        if !ctx.used_globals.contains(&name) && !template_uses.contains(&name) {
            ctx.diags.push(Diagnostic::warning(
                span,
                format!("{kind} `{name}` is never used"),
            ));
        }
    }
    (ctx.net, ctx.diags)
}

fn shift(span: Span, offset: u32) -> Span {
    Span::new(span.start + offset, span.end + offset)
}

/// The symbols a named instance's arguments bind its parameters to.
fn bind_args(ctx: &mut Ctx, t: &hir::TemplateItem, inst: &hir::InstanceDecl) -> Option<Vec<Sym>> {
    let params = &t.data.params;
    if params.len() != inst.args.len() {
        ctx.diags.push(Diagnostic::error(
            inst.span,
            format!(
                "template `{}` takes {} argument(s), but {} were given",
                t.data.name.text,
                params.len(),
                inst.args.len()
            ),
        ));
        return None;
    }
    let mut bound = Vec::new();
    let mut ok = true;
    for (p, arg) in params.iter().zip(&inst.args) {
        // Parameter types are written inside the template but resolved in
        // the global scope, where every typedef they may use lives.
        let ty = ctx.resolve_type_at(&p.ty, t.offset);
        if p.is_ref {
            let ExprKind::Name(n) = &arg.kind else {
                ctx.diags.push(Diagnostic::error(
                    arg.span,
                    format!(
                        "`{}` is a reference parameter: pass a global variable",
                        p.name.text
                    ),
                ));
                ok = false;
                continue;
            };
            match ctx.lookup_global(n) {
                Some(Sym::Var { base, ty: vty }) => {
                    if !compatible(&ty, &vty) {
                        ctx.diags.push(Diagnostic::error(
                            arg.span,
                            format!(
                                "`{n}` has type {}, but `{}` expects {}",
                                vty.describe(),
                                p.name.text,
                                ty.describe()
                            ),
                        ));
                        ok = false;
                    }
                    bound.push(Sym::Var { base, ty: vty });
                }
                _ => {
                    ctx.diags.push(Diagnostic::error(
                        arg.span,
                        format!("`{n}` is not a global variable"),
                    ));
                    ok = false;
                }
            }
        } else {
            match ctx.const_eval(arg) {
                Some(v) => {
                    if let Some((lo, hi)) = ty.bounds()
                        && (v < lo || v > hi)
                    {
                        ctx.diags.push(Diagnostic::error(
                            arg.span,
                            format!(
                                "argument {v} is outside the range [{lo}, {hi}] of `{}`",
                                p.name.text
                            ),
                        ));
                        ok = false;
                    }
                    bound.push(Sym::Const { value: Some(v), ty });
                }
                None => ok = false,
            }
        }
    }
    ok.then_some(bound)
}

/// Reference parameters need the same shape; integer ranges may differ.
fn compatible(param: &Ty, arg: &Ty) -> bool {
    match (param, arg) {
        (Ty::Error, _) | (_, Ty::Error) => true,
        (Ty::Int { .. } | Ty::Bool, Ty::Int { .. } | Ty::Bool) => true,
        (Ty::Array(_, n), Ty::Array(_, m)) => n == m,
        _ => false,
    }
}

/// `system Proc;`: one instance per combination of parameter values.
fn expand(ctx: &mut Ctx, t: &hir::TemplateItem, entry: &hir::Name) {
    let mut ranges = Vec::new();
    for p in &t.data.params {
        let ty = ctx.resolve_type_at(&p.ty, t.offset);
        match ty.bounds() {
            Some((lo, hi)) if !p.is_ref => ranges.push((lo, hi, ty)),
            _ => {
                ctx.diags.push(Diagnostic::error(
                    entry.span,
                    format!(
                        "`system {}` needs every parameter to be a bounded integer; `{}` is not",
                        t.data.name.text, p.name.text
                    ),
                ));
                return;
            }
        }
    }
    let count = ranges
        .iter()
        .fold(1i64, |acc, (lo, hi, _)| acc.saturating_mul(hi - lo + 1));
    if count > MAX_EXPANSION {
        ctx.diags.push(Diagnostic::error(
            entry.span,
            format!(
                "`system {}` would make {count} processes, more than the {MAX_EXPANSION} allowed",
                t.data.name.text
            ),
        ));
        return;
    }
    if !ctx.spend(count, entry.span) {
        return;
    }
    let mut combos: Vec<Vec<i64>> = vec![Vec::new()];
    for (lo, hi, _) in &ranges {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (*lo..=*hi).map(move |v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    for values in combos {
        let name = if values.is_empty() {
            t.data.name.text.clone()
        } else {
            let args: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            format!("{}({})", t.data.name.text, args.join(", "))
        };
        let bound: Vec<Sym> = values
            .iter()
            .zip(&ranges)
            .map(|(v, (_, _, ty))| Sym::Const {
                value: Some(*v),
                ty: ty.clone(),
            })
            .collect();
        instantiate(ctx, t, &bound, &name, values, entry.span);
    }
}

fn instantiate(
    ctx: &mut Ctx,
    t: &hir::TemplateItem,
    bound: &[Sym],
    name: &str,
    args: Vec<i64>,
    at: Span,
) {
    let size = (t.data.edges.len() + t.data.locations.len() + 1) as i64;
    if !ctx.spend(size, at) {
        return;
    }
    if let Some((process, mut info)) = ctx.template(&t.data, Some(bound), name, t.offset) {
        info.args = args;
        ctx.net.processes.push(process);
        ctx.procs.push(info);
    }
}

impl Ctx {
    fn resolve_type_at(&mut self, t: &hir::TypeRef, offset: u32) -> Ty {
        let saved = self.set_offset(offset);
        let ty = self.resolve_type(t);
        self.set_offset(saved);
        ty
    }
}
