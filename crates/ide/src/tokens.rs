//! Semantic tokens: keywords, numbers and comments from the syntax trees,
//! and names classified by the kind of definition they resolve to.

use zeno_ir::Span;
use zeno_semantics::parsed::FileSyntax;
use zeno_semantics::resolve::{DefKind, Resolutions};
use zeno_syntax::SyntaxKind;

/// What a token is, for highlighting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A keyword.
    Keyword,
    /// Variables, constants, clocks, channels, instances, bindings.
    Variable,
    /// A template or function parameter.
    Parameter,
    /// A location.
    Location,
    /// A template.
    Template,
    /// A type or typedef.
    Type,
    /// A number literal.
    Number,
    /// A comment.
    Comment,
    /// A function.
    Function,
}

/// One token; a comment may span several lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemanticToken {
    /// Where the token is in the text.
    pub range: Span,
    /// What it names.
    pub kind: TokenKind,
}

fn name_kind(kind: DefKind) -> TokenKind {
    match kind {
        DefKind::Location => TokenKind::Location,
        DefKind::Template => TokenKind::Template,
        DefKind::Typedef => TokenKind::Type,
        DefKind::Parameter => TokenKind::Parameter,
        DefKind::Function => TokenKind::Function,
        _ => TokenKind::Variable,
    }
}

pub(super) fn semantic_tokens(syntax: &FileSyntax, res: &Resolutions) -> Vec<SemanticToken> {
    syntax
        .tokens()
        .filter_map(|(start, token)| {
            let range = Span::new(start, start + u32::from(token.text_range().len()));
            let kind = match token.kind() {
                SyntaxKind::COMMENT => TokenKind::Comment,
                SyntaxKind::INT_NUMBER => TokenKind::Number,
                // A name that resolves to nothing (unknown, `min`) is left
                // to the editor's grammar.
                SyntaxKind::IDENT => {
                    let n = res.at(start).filter(|n| n.span == range)?;
                    name_kind(res.def(n.def).kind)
                }
                kind if kind.is_keyword() => TokenKind::Keyword,
                _ => return None,
            };
            Some(SemanticToken { range, kind })
        })
        .collect()
}
