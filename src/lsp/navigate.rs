//! Go to definition and completion by scope lookup in the item tree.
//!
//! zeno's scopes are flat: a template's parameters, declarations and
//! locations, then the globals (declarations, templates, instances). The
//! location after a dot (`Proc(1).cs`, `P1.cs`) belongs to the template of the
//! process before it. `select` bindings are not resolved here.

use crate::ir::Span;
use crate::semantics::hir::{ItemTree, Name, Template};
use crate::syntax::SyntaxKind;

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifier around a byte offset, with its start.
fn word_at(text: &str, offset: usize) -> Option<(usize, &str)> {
    let bytes = text.as_bytes();
    let offset = offset.min(bytes.len());
    let mut start = offset;
    while start > 0 && is_ident(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = offset;
    while end < bytes.len() && is_ident(bytes[end]) {
        end += 1;
    }
    (start < end && !bytes[start].is_ascii_digit()).then(|| (start, &text[start..end]))
}

/// For `Proc(1).cs` or `P.cs` with the word at `start`: the name before the dot.
fn qualifier(text: &str, start: usize) -> Option<&str> {
    let before = text[..start].trim_end();
    let before = before.strip_suffix('.')?.trim_end();
    let before = match before.strip_suffix(')') {
        Some(inner) => &inner[..inner.rfind('(')?],
        None => before,
    }
    .trim_end();
    word_at(before, before.len()).map(|(_, w)| w)
}

fn shift(span: Span, by: u32) -> Span {
    Span::new(span.start + by, span.end + by)
}

fn find_in_template<'a>(t: &'a Template, word: &str) -> Option<&'a Name> {
    t.params
        .iter()
        .map(|p| &p.name)
        .chain(t.decls.iter().map(|d| d.name()))
        .chain(t.locations.iter().map(|l| &l.name))
        .find(|n| n.text == word)
}

/// The span of the declaration of the name at `offset`.
pub fn definition(text: &str, tree: &ItemTree, offset: u32) -> Option<Span> {
    let (start, word) = word_at(text, offset as usize)?;
    let template_named = |name: &str| {
        tree.templates
            .iter()
            .find(|t| t.data.name.text == name)
            .or_else(|| {
                let inst = tree.instances.iter().find(|i| i.name.text == name)?;
                tree.templates
                    .iter()
                    .find(|t| t.data.name.text == inst.template.text)
            })
    };
    if let Some(q) = qualifier(text, start) {
        let t = template_named(q)?;
        if let Some(loc) = t.data.locations.iter().find(|l| l.name.text == word) {
            return Some(shift(loc.name.span, t.offset));
        }
        // `Bus.cd` in a synchronisation vector: the action label.
        return first_label(t, word);
    }
    // Inside a template: its own scope first.
    let inside = tree.templates.iter().find(|t| {
        let s = shift(t.data.span, t.offset);
        s.start <= offset && offset < s.end
    });
    if let Some(t) = inside
        && let Some(n) = find_in_template(&t.data, word)
    {
        return Some(shift(n.span, t.offset));
    }
    // An action label (`sync cd`) is "declared" by the template's first edge
    // carrying it, so that every use in the template and in the vectors
    // resolves to one place (and a rename renames them all).
    if let Some(t) = inside
        && t.data.edges.iter().any(|e| {
            e.label
                .as_ref()
                .is_some_and(|l| shift(l.span, t.offset).start == start as u32)
        })
    {
        return first_label(t, word);
    }
    tree.globals
        .iter()
        .map(|d| d.name())
        .filter(|n| n.text == word)
        .map(|n| n.span)
        .chain(
            tree.templates
                .iter()
                .filter(|t| t.data.name.text == word)
                .map(|t| shift(t.data.name.span, t.offset)),
        )
        .chain(
            tree.instances
                .iter()
                .filter(|i| i.name.text == word)
                .map(|i| i.name.span),
        )
        .next()
}

fn first_label(t: &crate::semantics::hir::TemplateItem, word: &str) -> Option<Span> {
    t.data
        .edges
        .iter()
        .filter_map(|e| e.label.as_ref())
        .find(|l| l.text == word)
        .map(|l| shift(l.span, t.offset))
}

/// Every use of the name declared where the name at `offset` is declared
/// (the declaration included), in text order.
pub fn references(text: &str, tree: &ItemTree, offset: u32) -> Vec<Span> {
    let Some(target) = definition(text, tree, offset) else {
        return Vec::new();
    };
    let parse = crate::syntax::parse(text);
    parse
        .syntax_node()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == crate::syntax::SyntaxKind::IDENT)
        .map(|t| {
            let r = t.text_range();
            Span::new(r.start().into(), r.end().into())
        })
        .filter(|s| definition(text, tree, s.start) == Some(target))
        .collect()
}

/// Why `new_name` cannot replace the name at `offset`, if it cannot.
pub fn rename_conflict(text: &str, tree: &ItemTree, offset: u32, new_name: &str) -> Option<String> {
    let valid = new_name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && new_name.bytes().all(is_ident);
    if !valid {
        return Some(format!("`{new_name}` is not a name"));
    }
    if SyntaxKind::keywords().any(|k| k == new_name) {
        return Some(format!("`{new_name}` is a keyword"));
    }
    let sites = references(text, tree, offset);
    if sites.is_empty() {
        return Some("nothing to rename here".to_string());
    }
    // At any use, the new name must not already mean something else.
    sites
        .iter()
        .any(|s| {
            completions(text, tree, s.start)
                .iter()
                .any(|(n, kind)| n == new_name && *kind != NameKind::Keyword)
        })
        .then(|| format!("`{new_name}` is already declared in this scope"))
}

/// What a completion item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    Keyword,
    Variable,
    Type,
    Template,
    Instance,
    Location,
}

/// The names that may be typed at `offset`: after `P.` or `Proc(1).` the
/// locations of that process's template; elsewhere the enclosing template's
/// names, the globals and the keywords.
pub fn completions(text: &str, tree: &ItemTree, offset: u32) -> Vec<(String, NameKind)> {
    let offset = (offset as usize).min(text.len());
    let start = word_at(text, offset).map_or(offset, |(s, _)| s);
    let template_named = |name: &str| {
        tree.templates
            .iter()
            .find(|t| t.data.name.text == name)
            .or_else(|| {
                let inst = tree.instances.iter().find(|i| i.name.text == name)?;
                tree.templates
                    .iter()
                    .find(|t| t.data.name.text == inst.template.text)
            })
    };
    if let Some(q) = qualifier(text, start) {
        return template_named(q).map_or_else(Vec::new, |t| {
            t.data
                .locations
                .iter()
                .map(|l| (l.name.text.clone(), NameKind::Location))
                .collect()
        });
    }
    let mut out = Vec::new();
    let offset = offset as u32;
    if let Some(t) = tree.templates.iter().find(|t| {
        let s = shift(t.data.span, t.offset);
        s.start <= offset && offset < s.end
    }) {
        out.extend(
            t.data
                .params
                .iter()
                .map(|p| (p.name.text.clone(), NameKind::Variable)),
        );
        out.extend(
            t.data
                .decls
                .iter()
                .map(|d| (d.name().text.clone(), NameKind::Variable)),
        );
        out.extend(
            t.data
                .locations
                .iter()
                .map(|l| (l.name.text.clone(), NameKind::Location)),
        );
    }
    for d in &tree.globals {
        let kind = match d {
            crate::semantics::hir::Decl::Typedef(_) => NameKind::Type,
            crate::semantics::hir::Decl::Var(_) => NameKind::Variable,
        };
        out.push((d.name().text.clone(), kind));
    }
    out.extend(
        tree.templates
            .iter()
            .map(|t| (t.data.name.text.clone(), NameKind::Template)),
    );
    out.extend(
        tree.instances
            .iter()
            .map(|i| (i.name.text.clone(), NameKind::Instance)),
    );
    out.extend(SyntaxKind::keywords().map(|k| (k.to_string(), NameKind::Keyword)));
    let mut seen = std::collections::HashSet::new();
    out.retain(|(n, _)| seen.insert(n.clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_qualifiers() {
        assert_eq!(word_at("a + bc_1;", 5), Some((4, "bc_1")));
        assert_eq!(word_at("a + bc_1;", 8), Some((4, "bc_1")));
        assert_eq!(word_at("a + 12;", 5), None);
        assert_eq!(word_at("(  )", 1), None);
        let t = "Proc(1).cs && P2 . wait";
        assert_eq!(qualifier(t, 8), Some("Proc"));
        assert_eq!(qualifier(t, 19), Some("P2"));
        assert_eq!(qualifier(t, 0), None);
    }

    #[test]
    fn labels_resolve_to_the_first_labelled_edge() {
        let text = "template P() { init location a; a -> a sync go; a -> a sync go; }\n\
                    template Q() { init location a; a -> a sync go; }\n\
                    system P, Q;\nsync P.go, Q.go;\n";
        let tree = crate::semantics::AnalysisHost::new();
        let mut host = tree;
        host.set_text(text);
        let tree = host.item_tree();
        let first_p = text.find("go").unwrap() as u32;
        let second_p = text[first_p as usize + 1..].find("go").unwrap() as u32 + first_p + 1;
        let in_q = text.find("Q() {").unwrap();
        let first_q = (text[in_q..].find("go").unwrap() + in_q) as u32;
        let vector = text.find("sync P.go").unwrap() as u32;
        let def = |at: u32| definition(text, &tree, at).map(|s| s.start);
        assert_eq!(def(second_p), Some(first_p));
        assert_eq!(def(vector + 7), Some(first_p)); // `P.go`
        assert_eq!(def(vector + 13), Some(first_q)); // `Q.go`
        assert_eq!(def(first_q), Some(first_q));
    }
}
