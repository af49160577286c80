//! Renders one node on one line with canonical spacing between tokens.
//! Comments are kept: block comments inline, line comments end the line and
//! the rest continues on the next one, indented one more level.

use zeno_syntax::{SyntaxKind::*, SyntaxNode, SyntaxToken};

use super::INDENT;

/// The rendered text, and whether it ends with a line comment (so nothing
/// may follow on the same line).
pub struct Inline {
    pub text: String,
    pub ends_with_line_comment: bool,
}

pub fn is_line_comment(token: &SyntaxToken) -> bool {
    token.kind() == COMMENT && token.text().starts_with("//")
}

/// A comment's text as printed: line comments lose trailing whitespace
/// (including a `\r` from CRLF files).
pub fn comment_text(token: &SyntaxToken) -> &str {
    if is_line_comment(token) {
        token.text().trim_end()
    } else {
        token.text()
    }
}

pub fn has_comments(node: &SyntaxNode) -> bool {
    node.descendants_with_tokens().any(|e| e.kind() == COMMENT)
}

/// Renders `node` (its tokens, in order); `depth` is the indentation level
/// of the line the node starts on.
pub fn render(node: &SyntaxNode, depth: usize) -> Inline {
    render_tokens(
        node.descendants_with_tokens()
            .filter_map(|e| e.into_token()),
        depth,
    )
}

pub fn render_tokens(tokens: impl Iterator<Item = SyntaxToken>, depth: usize) -> Inline {
    let mut text = String::new();
    let mut prev: Option<SyntaxToken> = None;
    let mut after_line_comment = false;
    for token in tokens {
        if token.kind() == WHITESPACE {
            continue;
        }
        if after_line_comment {
            text.push('\n');
            text.push_str(&INDENT.repeat(depth + 1));
        } else if let Some(prev) = &prev
            && space_between(prev, &token)
        {
            text.push(' ');
        }
        if token.kind() == COMMENT {
            text.push_str(comment_text(&token));
        } else {
            text.push_str(token.text());
        }
        after_line_comment = is_line_comment(&token);
        prev = Some(token);
    }
    Inline {
        text,
        ends_with_line_comment: after_line_comment,
    }
}

fn parent_kind(token: &SyntaxToken) -> Option<zeno_syntax::SyntaxKind> {
    token.parent().map(|p| p.kind())
}

/// Whether a space separates two consecutive (non-whitespace) tokens.
pub fn space_between(prev: &SyntaxToken, next: &SyntaxToken) -> bool {
    let (p, n) = (prev.kind(), next.kind());
    if p == COMMENT || n == COMMENT {
        return true;
    }
    let prefix_op = matches!(p, MINUS | BANG | PLUS | TILDE | PLUS2 | MINUS2)
        && parent_kind(prev) == Some(PREFIX_EXPR);
    if prefix_op {
        // `- -x` must not become `--x`, nor `- --x` become `---x` (which
        // reads as `--(-x)`); likewise for `+`.
        return match p {
            MINUS => matches!(n, MINUS | MINUS2),
            PLUS => matches!(n, PLUS | PLUS2),
            _ => false,
        };
    }
    match n {
        R_PAREN | R_BRACK | COMMA | SEMICOLON | DOT => return false,
        // Postfix `v++` is written tight; a prefix `++v` is spaced like any
        // operand (`a + ++v`, never `a +++v`).
        PLUS2 | MINUS2 if parent_kind(next) == Some(POSTFIX_EXPR) => return false,
        // A clock's rate `x'` too.
        PRIME => return false,
        BANG | QUESTION if matches!(parent_kind(next), Some(SYNC | SYNC_PARTICIPANT)) => {
            return false;
        }
        COLON if parent_kind(next) == Some(CHECK) => return false,
        L_BRACK | L_PAREN if matches!(p, IDENT | INT_KW | SCALAR_KW | R_BRACK | R_PAREN) => {
            return false;
        }
        R_CURLY if p == L_CURLY => return false,
        _ => {}
    }
    // `&` of a reference parameter hugs the name; a bitwise `&` is spaced.
    if p == AMP && parent_kind(prev) != Some(BIN_EXPR) {
        return false;
    }
    !matches!(p, L_PAREN | L_BRACK | DOT)
}
