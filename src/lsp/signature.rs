//! Signature help for template instantiation: inside the argument list of
//! `P1 = Proc(…` (or of a process reference `Proc(1).cs` in a check), the
//! template's parameters, with the one the cursor is on active.
//!
//! Read from the syntax tree rather than the text: commas inside nested
//! expressions or comments do not count, and the error-resilient parser
//! still gives an argument list for incomplete code (`P1 = Proc(1, ` at the
//! end of the text).

use rowan::TextSize;

use crate::semantics::hir::ItemTree;
use crate::syntax::{SyntaxKind, SyntaxNode};

use super::hover;

/// The signature, its parameters and the active parameter's index for the
/// call around `offset` (a byte offset), if the cursor is inside a
/// template's argument list.
pub fn signature_help(
    text: &str,
    tree: &ItemTree,
    offset: u32,
) -> Option<(String, Vec<String>, u32)> {
    let root = crate::syntax::parse(text).syntax_node();
    let (callee, argument) = argument_at(&root, offset)?;
    let t = tree.templates.iter().find(|t| t.data.name.text == callee)?;
    let (label, params) = hover::signature(text, &t.data, t.offset);
    if params.is_empty() {
        return None;
    }
    // Past the last parameter (too many arguments): keep the last active.
    let active = argument.min(params.len() as u32 - 1);
    Some((label, params, active))
}

/// The callee's name and the index of the argument the cursor is on, when
/// the cursor is after the `(` of an argument list and not after its `)`.
fn argument_at(root: &SyntaxNode, offset: u32) -> Option<(String, u32)> {
    let offset = TextSize::from(offset.min(u32::from(root.text_range().end())));
    // The last token before the cursor that is not whitespace or a comment:
    // the cursor belongs to the list that token belongs to.
    let mut token = root.token_at_offset(offset).left_biased()?;
    while token.kind().is_trivia() {
        token = token.prev_token()?;
    }
    let list = token
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::ARG_LIST)?;
    if token.kind() == SyntaxKind::R_PAREN && token.parent().as_ref() == Some(&list) {
        return None;
    }
    // `NAME_REF` of an instance, the callee expression of a reference.
    let callee = list.prev_sibling()?.text().to_string();
    let callee = callee.trim();
    if callee.is_empty()
        || !callee
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return None;
    }
    let argument = list
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == SyntaxKind::COMMA && t.text_range().end() <= offset)
        .count();
    Some((callee.to_string(), argument as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `argument_at` with the cursor where `|` is in `marked`.
    fn at(marked: &str) -> Option<(String, u32)> {
        let offset = marked.find('|').unwrap();
        let text = marked.replacen('|', "", 1);
        let root = crate::syntax::parse(&text).syntax_node();
        argument_at(&root, offset as u32)
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
