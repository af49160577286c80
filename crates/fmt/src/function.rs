//! Functions: the header on one line, the body one statement per line, as C
//! is usually written:
//!
//! ```text
//! int front() {
//!     if (len == 0) {
//!         return 0;
//!     }
//!     return list[0];
//! }
//! ```
//!
//! A branch or loop body that is not a block goes on the next line, one
//! level deeper; `else` follows a block's `}` on the same line. A statement
//! with comments inside it (not between statements) is written as the
//! other items are, on its own line with its comments kept.

use zeno_syntax::ast::{self, AstNode};
use zeno_syntax::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

use super::{INDENT, entries, format_item, inline, push_trailing};

/// Whether a node of this kind is a statement of a function body.
fn is_stmt(kind: SyntaxKind) -> bool {
    ast::Stmt::can_cast(kind)
}

/// The tokens of `node`'s children before its first statement (or block).
fn head(node: &SyntaxNode) -> String {
    let tokens: Vec<SyntaxToken> = node
        .children_with_tokens()
        .take_while(|e| !is_stmt(e.kind()) && !ast::ElseBranch::can_cast(e.kind()))
        .flat_map(tokens_of)
        .collect();
    inline::render_tokens(tokens.into_iter(), 0).text
}

/// The tokens after the statement of a `do … while (c);`.
fn tail(node: &SyntaxNode) -> String {
    let tokens: Vec<SyntaxToken> = node
        .children_with_tokens()
        .skip_while(|e| !is_stmt(e.kind()))
        .skip(1)
        .flat_map(tokens_of)
        .collect();
    inline::render_tokens(tokens.into_iter(), 0).text
}

fn tokens_of(e: rowan::NodeOrToken<SyntaxNode, SyntaxToken>) -> Vec<SyntaxToken> {
    match e {
        rowan::NodeOrToken::Node(n) => n
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .collect(),
        rowan::NodeOrToken::Token(t) => vec![t],
    }
}

/// `int f(params) { … }` at `depth`, without the final newline.
pub fn format_function(f: &ast::Function, depth: usize, out: &mut String) {
    out.push_str(&INDENT.repeat(depth));
    out.push_str(&head(f.syntax()));
    if let Some(body) = f.body() {
        out.push(' ');
        block(body.syntax(), depth, out);
    }
}

/// `{ … }` whose `{` is already at the right place on the current line.
fn block(node: &SyntaxNode, depth: usize, out: &mut String) {
    let (opener, items) = entries(node);
    out.push('{');
    if let Some(comment) = opener {
        push_trailing(out, &comment);
    }
    out.push('\n');
    let indent = INDENT.repeat(depth + 1);
    for entry in items {
        match entry {
            super::Entry::BlankLine => out.push('\n'),
            super::Entry::Comment(token) => {
                out.push_str(&indent);
                out.push_str(inline::comment_text(&token));
                out.push('\n');
            }
            super::Entry::Item { node, trailing } => {
                statement(&node, depth + 1, out);
                if let Some(comment) = trailing {
                    push_trailing(out, &comment);
                }
                out.push('\n');
            }
        }
    }
    out.push_str(&INDENT.repeat(depth));
    out.push('}');
}

/// One statement at `depth` (indentation included), without the final
/// newline.
fn statement(node: &SyntaxNode, depth: usize, out: &mut String) {
    let Some(stmt) = ast::Stmt::cast(node.clone()) else {
        out.push_str(&INDENT.repeat(depth));
        out.push_str(&inline::render(node, depth).text);
        return;
    };
    if let ast::Stmt::VarDecl(_) | ast::Stmt::TypedefDecl(_) = stmt {
        format_item(node, depth, out);
        return;
    }
    let indent = INDENT.repeat(depth);
    let structured = matches!(
        stmt,
        ast::Stmt::Block(_)
            | ast::Stmt::IfStmt(_)
            | ast::Stmt::WhileStmt(_)
            | ast::Stmt::DoStmt(_)
            | ast::Stmt::ForStmt(_)
            | ast::Stmt::ForRangeStmt(_)
    );
    // Comments inside the statement's own tokens (not inside its blocks)
    // are kept by writing it as other items are.
    let own_comments = node.children_with_tokens().any(|e| match e {
        rowan::NodeOrToken::Token(t) => t.kind() == COMMENT,
        rowan::NodeOrToken::Node(n) => {
            !is_stmt(n.kind()) && !ast::ElseBranch::can_cast(n.kind()) && inline::has_comments(&n)
        }
    });
    if !structured || own_comments {
        out.push_str(&indent);
        out.push_str(&inline::render(node, depth).text);
        return;
    }
    out.push_str(&indent);
    if let ast::Stmt::Block(b) = &stmt {
        block(b.syntax(), depth, out);
        return;
    }
    out.push_str(&head(node));
    // The body of a loop, the `then` branch of an `if`.
    let body = node.children().find_map(ast::Stmt::cast);
    let body_was_block = body_after(body.as_ref(), depth, out);
    match &stmt {
        ast::Stmt::DoStmt(_) => {
            if !body_was_block {
                out.push('\n');
                out.push_str(&indent);
            } else {
                out.push(' ');
            }
            out.push_str(&tail(node));
        }
        ast::Stmt::IfStmt(i) => {
            if let Some(els) = i.else_branch() {
                if body_was_block {
                    out.push(' ');
                } else {
                    out.push('\n');
                    out.push_str(&indent);
                }
                out.push_str("else");
                match els {
                    // `else if` stays on one line.
                    ast::Stmt::IfStmt(nested_if) => {
                        out.push(' ');
                        let mut nested = String::new();
                        statement(nested_if.syntax(), depth, &mut nested);
                        out.push_str(nested.trim_start());
                    }
                    other => {
                        body_after(Some(&other), depth, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Writes a branch or loop body after its header: ` { … }` for a block
/// (true), else the statement on the next line, one level deeper.
fn body_after(body: Option<&ast::Stmt>, depth: usize, out: &mut String) -> bool {
    match body {
        Some(ast::Stmt::Block(b)) => {
            out.push(' ');
            block(b.syntax(), depth, out);
            true
        }
        Some(b) => {
            out.push('\n');
            statement(b.syntax(), depth + 1, out);
            false
        }
        None => false,
    }
}
