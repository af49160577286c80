//! Hover over names: the declaration a name resolves to, described from the
//! item tree (types, constant values, a location's invariant, a template's
//! parameters) and, for variables, the range the lowered model gives them.

use crate::ir::{self, Span};
use crate::semantics::hir::{Decl, ItemTree, Param, Template, TypeRef};

use super::navigate;

fn src(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize)
        .unwrap_or("")
        .trim()
}

fn shift(span: Span, by: u32) -> Span {
    Span::new(span.start + by, span.end + by)
}

/// The type as written, with the range the model resolves it to when the
/// written type does not show it (`pid_t`, `int`).
fn type_text(text: &str, ty: &TypeRef, var: Option<&ir::Variable>, base: u32) -> String {
    let written = src(text, shift(ty.span(), base)).to_string();
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

fn decl_hover(
    text: &str,
    d: &Decl,
    base: u32,
    var: impl Fn(&str) -> Option<ir::Variable>,
) -> String {
    match d {
        Decl::Var(v) => {
            let name = &v.name.text;
            match (&v.init, v.is_const) {
                (Some(init), true) => {
                    let ty = src(text, shift(v.ty.span(), base));
                    format!(
                        "const {ty} {name}\n\n`{name} = {}`",
                        src(text, shift(init.span, base))
                    )
                }
                _ => {
                    let ty = type_text(text, &v.ty, var(name).as_ref(), base);
                    let mut s = format!("{ty} {name}");
                    if let Some(init) = &v.init {
                        s.push_str(&format!(" = {}", src(text, shift(init.span, base))));
                    }
                    s
                }
            }
        }
        Decl::Typedef(t) => format!(
            "typedef {} {}",
            src(text, shift(t.ty.span(), base)),
            t.name.text
        ),
    }
}

fn param_text(text: &str, p: &Param, base: u32) -> String {
    src(text, shift(p.span, base)).to_string()
}

/// `Proc(const pid_t pid)`: a template's signature as written.
pub fn signature(text: &str, t: &Template, base: u32) -> (String, Vec<String>) {
    let params: Vec<String> = t.params.iter().map(|p| param_text(text, p, base)).collect();
    (format!("{}({})", t.name.text, params.join(", ")), params)
}

/// Markdown describing the declaration of the name at `offset`.
pub fn hover(
    text: &str,
    tree: &ItemTree,
    network: Option<&ir::Network>,
    offset: u32,
) -> Option<(String, Span)> {
    let target = navigate::definition(text, tree, offset)?;
    let variable =
        |name: &str| network.and_then(|n| n.variables.iter().find(|v| v.name == name).cloned());
    let code = |s: String| format!("```zeno\n{s}\n```");
    for d in &tree.globals {
        if d.name().span == target {
            return Some((code(decl_hover(text, d, 0, variable)), target));
        }
    }
    for t in &tree.templates {
        let base = t.offset;
        let data = &t.data;
        if shift(data.name.span, base) == target {
            let (sig, _) = signature(text, data, base);
            return Some((code(format!("template {sig}")), target));
        }
        for p in &data.params {
            if shift(p.name.span, base) == target {
                let s = format!(
                    "parameter of {}: {}",
                    data.name.text,
                    param_text(text, p, base)
                );
                return Some((s, target));
            }
        }
        for d in &data.decls {
            if shift(d.name().span, base) == target {
                // Locals have no single range in the model: one per process.
                return Some((code(decl_hover(text, d, base, |_| None)), target));
            }
        }
        for l in &data.locations {
            if shift(l.name.span, base) == target {
                let mut s = format!("location `{}` of {}", l.name.text, data.name.text);
                match &l.invariant {
                    Some(inv) => s.push_str(&format!(
                        "\n\ninvariant: `{}`",
                        src(text, shift(inv.span, base))
                    )),
                    None => s.push_str("\n\nno invariant"),
                }
                return Some((s, target));
            }
        }
    }
    for i in &tree.instances {
        if i.name.span == target {
            return Some((code(src(text, i.span).to_string()), target));
        }
    }
    None
}
