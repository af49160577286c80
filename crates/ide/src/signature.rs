//! Signature help for template instantiation and function calls: inside
//! the argument list of `P1 = Proc(…` (or of a process reference
//! `Proc(1).cs` in a check), the template's parameters, and inside that of
//! a call `enqueue(…` of a user function (global or a template's own), the
//! function's, with the one the cursor is on active.
//!
//! Read from the syntax tree rather than the text: commas inside nested
//! expressions or comments do not count, and the error-resilient parser
//! still gives an argument list for incomplete code (`P1 = Proc(1, ` at the
//! end of the text). The callee is the template its name resolves to.

use rowan::TextSize;

use zeno_base::text::Span;
use zeno_semantics::hir::{Decl, ItemTree};
use zeno_semantics::parsed::relative;
use zeno_semantics::resolve::{Def, DefKind, absolute};
use zeno_syntax::ast::{self, AstNode};
use zeno_syntax::{SyntaxKind, SyntaxNode};

use super::Analysis;

/// A template's or function's signature with the active parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    /// `Proc(const int a, const int b)`, `void enqueue(id_t e)`
    pub label: String,
    /// Each parameter as written: `const int a`.
    pub parameters: Vec<String>,
    /// Index into `parameters`.
    pub active: u32,
}

pub(super) fn signature_help(a: &Analysis, offset: u32) -> Option<SignatureHelp> {
    let syntax = a.syntax();
    let (start, root) = syntax.chunk_at(offset)?;
    let (callee, argument) = argument_at(&root, relative(offset, start))?;
    let res = a.resolutions();
    let def = res.def(res.at(start + callee)?.def);
    let tree = a.tree();
    let (label, parameters) = match def.kind {
        DefKind::Template => {
            let t = tree.templates.get(def.template? as usize)?;
            super::hover::signature(a.text(), t)
        }
        DefKind::Function => function(a.text(), &tree, def)?,
        _ => return None,
    };
    if parameters.is_empty() {
        return None;
    }
    // Past the last parameter (too many arguments): keep the last active.
    let active = argument.min(parameters.len() as u32 - 1);
    Some(SignatureHelp {
        label,
        parameters,
        active,
    })
}

/// A function's header as written and its parameters: a global function,
/// or one declared in the template the definition belongs to.
fn function(text: &str, tree: &ItemTree, def: &Def) -> Option<(String, Vec<String>)> {
    let is_it = |d: &&Decl, at: &dyn Fn(Span) -> Span| matches!(d, Decl::Function(f) if at(f.name.span) == def.span);
    let (decl, at): (&Decl, Box<dyn Fn(Span) -> Span>) = match def.template {
        Some(k) => {
            let t = tree.templates.get(k as usize)?;
            let at = move |s: Span| absolute(t, s);
            (t.data.decls.iter().find(|d| is_it(d, &at))?, Box::new(at))
        }
        None => {
            let at = |s: Span| s;
            (tree.globals.iter().find(|d| is_it(d, &at))?, Box::new(at))
        }
    };
    let Decl::Function(f) = decl else {
        return None;
    };
    let label = super::hover::function_signature(text, f, &at);
    let parameters = f
        .params
        .iter()
        .map(|p| super::source(text, at(p.span)).to_string())
        .collect();
    Some((label, parameters))
}

/// The start of the callee's name (relative to the root) and the index of
/// the argument the cursor is on, when the cursor is after the `(` of an
/// argument list and not after its `)`.
fn argument_at(root: &SyntaxNode, offset: TextSize) -> Option<(u32, u32)> {
    let offset = offset.min(root.text_range().end());
    // The last token before the cursor that is not whitespace or a comment:
    // the cursor belongs to the list that token belongs to.
    let mut token = root.token_at_offset(offset).left_biased()?;
    while token.kind().is_trivia() {
        token = token.prev_token()?;
    }
    let list = token.parent_ancestors().find_map(ast::ArgList::cast)?;
    let list = list.syntax();
    if token.kind() == SyntaxKind::R_PAREN && token.parent().as_ref() == Some(list) {
        return None;
    }
    // The callee: the name just before the list (`NAME_REF` of an
    // instance, the callee of a call).
    let callee = list
        .prev_sibling()?
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == SyntaxKind::IDENT)
        .last()?;
    let argument = list
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == SyntaxKind::COMMA && t.text_range().end() <= offset)
        .count();
    Some((u32::from(callee.text_range().start()), argument as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `argument_at` with the cursor where `|` is in `marked`: the callee's
    /// text and the argument's index.
    fn at(marked: &str) -> Option<(String, u32)> {
        let offset = marked.find('|').unwrap();
        let text = marked.replacen('|', "", 1);
        let root = zeno_syntax::parse(&text).syntax_node();
        let (callee, arg) = argument_at(&root, TextSize::from(offset as u32))?;
        let name: String = text[callee as usize..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        Some((name, arg))
    }

    fn proc_arg(i: u32) -> Option<(String, u32)> {
        Some(("Proc".to_string(), i))
    }

    #[test]
    fn the_argument_under_the_cursor() {
        assert_eq!(at("P1 = Proc(|1, 2);"), proc_arg(0));
        assert_eq!(at("P1 = Proc(1|, 2);"), proc_arg(0));
        assert_eq!(at("P1 = Proc(1,| 2);"), proc_arg(1));
        assert_eq!(at("P1 = Proc(1, 2|);"), proc_arg(1));
        assert_eq!(at("P1 = Proc(1, 2, |3);"), proc_arg(2));
        // Before the `(` and after the `)`: outside.
        assert_eq!(at("P1 = Proc|(1, 2);"), None);
        assert_eq!(at("P1 = Proc(1, 2)|;"), None);
        assert_eq!(at("P1 = Proc(1, 2);|"), None);
        assert_eq!(at("|P1 = Proc(1, 2);"), None);
    }

    #[test]
    fn nested_commas_and_comments_do_not_count() {
        // The comma inside the parenthesised expression is not the list's.
        assert_eq!(at("P1 = Proc((1 + 2) * 3, (4)|);"), proc_arg(1));
        // A comma in a comment is no argument separator; the cursor in a
        // comment belongs to the argument before it.
        assert_eq!(at("P1 = Proc(1 /* a, b */, |2);"), proc_arg(1));
        assert_eq!(at("P1 = Proc(1 /* a,| b */, 2);"), proc_arg(0));
    }

    #[test]
    fn incomplete_code() {
        // At the end of the text, after a comma and a space.
        assert_eq!(at("P1 = Proc(1, |"), proc_arg(1));
        assert_eq!(at("P1 = Proc(|"), proc_arg(0));
        // An unclosed list followed by more lines.
        assert_eq!(at("P1 = Proc(1, |\nsystem P1;\n"), proc_arg(1));
    }

    #[test]
    fn non_ascii_before_the_cursor() {
        // `é` is 2 bytes, `→` 3 and `𝄞` 4: offsets are bytes here.
        assert_eq!(at("// é → 𝄞\nP1 = Proc(1, /* 𝄞 */ |"), proc_arg(1));
        assert_eq!(at("P1 = Proc(/* é, → */ 1|, 2);"), proc_arg(0));
    }

    #[test]
    fn process_references_in_checks() {
        assert_eq!(at("check c: E<> Proc(1,| 2).cs;"), proc_arg(1));
        assert_eq!(at("check c: E<> Proc(1, 2).|cs;"), None);
    }
}
