//! Completion: after `P.` or `Proc(1).` the locations of that process's
//! template, after `r.` the fields of a record; elsewhere the enclosing
//! template's names, the globals and the keywords.

use rustc_hash::FxHashSet;

use zeno_semantics::hir::{Decl, ItemTree, TypeRef, VarDecl};
use zeno_semantics::parsed::relative;
use zeno_semantics::resolve::{DefKind, absolute};
use zeno_syntax::ast::{self, AstNode};
use zeno_syntax::{SyntaxKind, SyntaxToken};

use super::Analysis;

/// What a completion item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    /// A keyword of the language.
    Keyword,
    /// A variable, constant or parameter.
    Variable,
    /// A type or typedef.
    Type,
    /// A template.
    Template,
    /// A process instance.
    Instance,
    /// A location.
    Location,
    /// A function.
    Function,
}

/// One completion candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    /// The text inserted.
    pub label: String,
    /// What the name is.
    pub kind: CompletionKind,
}

fn item(label: &str, kind: CompletionKind) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind,
    }
}

fn prev_significant(mut t: SyntaxToken) -> Option<SyntaxToken> {
    loop {
        t = t.prev_token()?;
        if !t.kind().is_trivia() {
            return Some(t);
        }
    }
}

/// For a cursor after `P.` or `Proc(1).` (possibly inside the name being
/// typed): the absolute offset of the process's name, `P` or `Proc`.
fn qualifier(a: &Analysis, offset: u32) -> Option<u32> {
    let syntax = a.syntax();
    let (start, root) = syntax.chunk_at(offset)?;
    let at = relative(offset, start).min(root.text_range().end());
    let mut t = root.token_at_offset(at).left_biased()?;
    if t.kind().is_trivia() || t.kind() == SyntaxKind::IDENT {
        t = prev_significant(t)?;
    }
    if t.kind() != SyntaxKind::DOT {
        return None;
    }
    let mut t = prev_significant(t)?;
    if t.kind() == SyntaxKind::R_PAREN {
        // Back over the argument list to the callee.
        let mut depth = 0u32;
        loop {
            match t.kind() {
                SyntaxKind::R_PAREN => depth += 1,
                SyntaxKind::L_PAREN => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            t = t.prev_token()?;
        }
        t = prev_significant(t)?;
    }
    (t.kind() == SyntaxKind::IDENT).then(|| start + u32::from(t.text_range().start()))
}

/// The fields of the record a variable, parameter or field is declared
/// with, following global typedefs.
fn record_fields<'t>(
    tree: &'t ItemTree,
    def: &zeno_semantics::resolve::Def,
) -> Option<&'t [VarDecl]> {
    let template = def.template.and_then(|k| tree.templates.get(k as usize));
    let mut ty: &TypeRef = match (def.kind, template) {
        (DefKind::Variable | DefKind::Constant, None) => {
            tree.globals.iter().find_map(|d| match d {
                Decl::Var(v) if v.name.span == def.span => Some(&v.ty),
                _ => None,
            })?
        }
        (DefKind::Variable | DefKind::Constant, Some(t)) => {
            t.data.decls.iter().find_map(|d| match d {
                Decl::Var(v) if absolute(t, v.name.span) == def.span => Some(&v.ty),
                _ => None,
            })?
        }
        (DefKind::Parameter, Some(t)) => {
            &t.data
                .params
                .iter()
                .find(|p| absolute(t, p.name.span) == def.span)?
                .ty
        }
        (DefKind::Field, _) => {
            &tree
                .globals
                .iter()
                .find_map(|d| match d {
                    Decl::Var(v) => field_decl(&v.ty, def.span),
                    Decl::Typedef(t) => field_decl(&t.ty, def.span),
                    Decl::Function(_) => None,
                })?
                .ty
        }
        _ => return None,
    };
    // Through typedefs (a cycle is an error elsewhere: stop after a few).
    for _ in 0..16 {
        match ty {
            TypeRef::Struct { fields, .. } => return Some(fields),
            TypeRef::Named(n) => {
                ty = tree.globals.iter().find_map(|d| match d {
                    Decl::Typedef(t) if t.name.text == n.text => Some(&t.ty),
                    _ => None,
                })?;
            }
            _ => return None,
        }
    }
    None
}

/// The field of a record type in `ty` (nested ones included) whose name is
/// at `span`.
pub(super) fn field_decl(ty: &TypeRef, span: zeno_ir::Span) -> Option<&VarDecl> {
    let TypeRef::Struct { fields, .. } = ty else {
        return None;
    };
    fields
        .iter()
        .find(|f| f.name.span == span)
        .or_else(|| fields.iter().find_map(|f| field_decl(&f.ty, span)))
}

pub(super) fn completion(a: &Analysis, offset: u32) -> Vec<CompletionItem> {
    let tree = a.tree();
    let offset = offset.min(a.text().len() as u32);
    if let Some(q) = qualifier(a, offset) {
        let res = a.resolutions();
        let Some(def) = res.at(q).map(|n| res.def(n.def)) else {
            return Vec::new();
        };
        if let Some(fields) = record_fields(&tree, def) {
            return fields
                .iter()
                .map(|f| item(&f.name.text, CompletionKind::Variable))
                .collect();
        }
        // A template, or an instance (whose `template` is the one it
        // instantiates).
        let t = match def.kind {
            DefKind::Template | DefKind::Instance => def.template,
            _ => None,
        };
        return t
            .and_then(|k| tree.templates.get(k as usize))
            .map_or_else(Vec::new, |t| {
                t.data
                    .locations
                    .iter()
                    .map(|l| item(&l.name.text, CompletionKind::Location))
                    .collect()
            });
    }
    let mut out = Vec::new();
    if let Some(t) = tree.templates.iter().find(|t| {
        let s = absolute(t, t.data.span);
        s.start <= offset && offset < s.end
    }) {
        let t = &t.data;
        out.extend(
            t.params
                .iter()
                .map(|p| item(&p.name.text, CompletionKind::Variable)),
        );
        out.extend(
            t.decls
                .iter()
                .map(|d| item(&d.name().text, CompletionKind::Variable)),
        );
        out.extend(
            t.locations
                .iter()
                .map(|l| item(&l.name.text, CompletionKind::Location)),
        );
    }
    for d in &tree.globals {
        let kind = match d {
            Decl::Typedef(_) => CompletionKind::Type,
            Decl::Var(_) => CompletionKind::Variable,
            Decl::Function(_) => CompletionKind::Function,
        };
        out.push(item(&d.name().text, kind));
    }
    out.extend(
        tree.templates
            .iter()
            .map(|t| item(&t.data.name.text, CompletionKind::Template)),
    );
    out.extend(
        tree.instances
            .iter()
            .map(|i| item(&i.name.text, CompletionKind::Instance)),
    );
    out.extend(SyntaxKind::keywords().map(|k| item(k, CompletionKind::Keyword)));
    let mut seen = FxHashSet::default();
    out.retain(|c| !c.label.is_empty() && seen.insert(c.label.clone()));
    if in_expression(a, offset) {
        out.retain(|c| match c.kind {
            CompletionKind::Variable | CompletionKind::Function => true,
            CompletionKind::Keyword => EXPRESSION_KEYWORDS.contains(&c.label.as_str()),
            CompletionKind::Type
            | CompletionKind::Template
            | CompletionKind::Instance
            | CompletionKind::Location => false,
        });
    }
    out
}

/// The keywords an expression of an edge or an invariant may hold.
const EXPRESSION_KEYWORDS: [&str; 9] = [
    "true", "false", "not", "and", "or", "imply", "forall", "exists", "sum",
];

/// Whether the cursor is in a guard, a synchronisation, an update or an
/// invariant: there only values and functions make sense, not templates,
/// types, instances, locations or the keywords of declarations.
fn in_expression(a: &Analysis, offset: u32) -> bool {
    let syntax = a.syntax();
    let Some((start, root)) = syntax.chunk_at(offset) else {
        return false;
    };
    let at = relative(offset, start).min(root.text_range().end());
    let Some(t) = root.token_at_offset(at).left_biased() else {
        return false;
    };
    let clause = |k: SyntaxKind| {
        matches!(
            k,
            SyntaxKind::WHEN_KW
                | SyntaxKind::DO_KW
                | SyntaxKind::SYNC_KW
                | SyntaxKind::INVARIANT_KW
        )
    };
    // Right after the clause's keyword, its node may not hold the cursor yet.
    let word = if t.kind().is_trivia() || t.kind() == SyntaxKind::IDENT {
        prev_significant(t.clone())
    } else {
        Some(t.clone())
    };
    let inside = |t: &SyntaxToken| {
        t.parent_ancestors().any(|n| {
            let k = n.kind();
            ast::Guard::can_cast(k)
                || ast::Sync::can_cast(k)
                || ast::Update::can_cast(k)
                || ast::Invariant::can_cast(k)
        })
    };
    // The cursor's token, or the word before it (after `x > 1 && `, the
    // blank is the edge's, the `&&` the guard's).
    word.as_ref().is_some_and(|w| clause(w.kind()) || inside(w)) || inside(&t)
}
