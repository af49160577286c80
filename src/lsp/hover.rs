//! Hover over names: the declaration a name resolves to, described from the
//! item tree (types, a location's invariant, a template's parameters), the
//! values the semantics layer folds global constants and typedefs to, and,
//! for variables, the range the lowered model gives them.

use crate::ir::{self, Span};
use crate::semantics::hir::{Decl, ItemTree, Param, Template, TypeRef};
use crate::semantics::lower::GlobalScope;
use crate::semantics::ty::{Sym, Ty};

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

/// Markdown for a declaration: as written in a code block, then its folded
/// value (see [`folded`]) when it has one.
fn decl_hover(
    text: &str,
    d: &Decl,
    base: u32,
    var: impl Fn(&str) -> Option<ir::Variable>,
    sym: Option<&Sym>,
) -> String {
    let written = match d {
        Decl::Var(v) => {
            let name = &v.name.text;
            let ty = if v.is_const {
                src(text, shift(v.ty.span(), base)).to_string()
            } else {
                type_text(text, &v.ty, var(name).as_ref(), base)
            };
            let konst = if v.is_const { "const " } else { "" };
            let mut s = format!("{konst}{ty} {name}");
            if let Some(init) = &v.init {
                s.push_str(&format!(" = {}", src(text, shift(init.span, base))));
            }
            s
        }
        Decl::Typedef(t) => format!(
            "typedef {} {}",
            src(text, shift(t.ty.span(), base)),
            t.name.text
        ),
    };
    let mut s = code(written);
    if let Some(value) = folded(sym, &d.name().text) {
        s.push_str(&format!("\n\n`{value}`"));
    }
    s
}

fn code(s: String) -> String {
    format!("```zeno\n{s}\n```")
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
    scope: &GlobalScope,
    network: Option<&ir::Network>,
    offset: u32,
) -> Option<(String, Span)> {
    let target = navigate::definition(text, tree, offset)?;
    let variable =
        |name: &str| network.and_then(|n| n.variables.iter().find(|v| v.name == name).cloned());
    for d in &tree.globals {
        if d.name().span == target {
            let sym = lookup(scope, &d.name().text);
            return Some((decl_hover(text, d, 0, variable, sym), target));
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
                let mut s = format!(
                    "parameter of {}: {}",
                    data.name.text,
                    param_text(text, p, base)
                );
                // The range of a typedef'd parameter, as folded.
                if let TypeRef::Named(n) = &p.ty
                    && let Some(range) = folded(lookup(scope, &n.text), &n.text)
                {
                    s.push_str(&format!("\n\n`{range}`"));
                }
                return Some((s, target));
            }
        }
        for d in &data.decls {
            if shift(d.name().span, base) == target {
                // Locals have no single range in the model: one per process.
                return Some((decl_hover(text, d, base, |_| None, None), target));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantics::AnalysisHost;

    const TEXT: &str = "\
const int N = 3;
const int K = N * 2;
const bool BIG = K > 5;
typedef int[1, N] pid_t;
int[0, K] x;

template P(const pid_t i) {
    const int twice = 2 * i;
    init location l;
    l -> l when x < K do x = x + 1;
}

system P;
";

    /// The hover text at the first `needle` plus `skip` bytes.
    fn hover_at(needle: &str, skip: usize) -> String {
        let mut host = AnalysisHost::new();
        host.set_text(TEXT);
        let offset = (TEXT.find(needle).unwrap() + skip) as u32;
        let network = host.network();
        hover(
            TEXT,
            &host.item_tree(),
            &host.global_scope(),
            network.as_deref(),
            offset,
        )
        .unwrap()
        .0
    }

    #[test]
    fn constants_and_typedefs_show_their_values() {
        // Folded by hand: K = 3 * 2, BIG = 6 > 5, pid_t = int[1, N].
        assert_eq!(
            hover_at("K = N", 0),
            "```zeno\nconst int K = N * 2\n```\n\n`K = 6`"
        );
        assert_eq!(
            hover_at("BIG", 0),
            "```zeno\nconst bool BIG = K > 5\n```\n\n`BIG = true`"
        );
        assert_eq!(
            hover_at("pid_t;", 0),
            "```zeno\ntypedef int[1, N] pid_t\n```\n\n`pid_t = int[1, 3]`"
        );
        // At a use, the same.
        assert!(hover_at("x < K", 4).ends_with("`K = 6`"));
        // A variable: its range from the model.
        assert_eq!(
            hover_at("x < K", 0),
            "```zeno\nint[0, K] (= int[0, 6]) x\n```"
        );
        // A parameter of a typedef'd type: the typedef's range.
        assert_eq!(
            hover_at("i;", 0),
            "parameter of P: const pid_t i\n\n`pid_t = int[1, 3]`"
        );
        // A local constant depends on the parameter: as written only.
        assert_eq!(
            hover_at("twice", 0),
            "```zeno\nconst int twice = 2 * i\n```"
        );
    }
}
