//! The formatter: works on the lossless tree, keeps comments, idempotent.
//!
//! Layout rules: 4-space indentation; one item (and one declared variable)
//! per line; at most one blank line between items, as in the input;
//! canonical spacing inside a line; consecutive edges of a template aligned
//! in columns (source, `->`, target, `select`, `when`, `sync`, `do`), with
//! their trailing comments aligned too. Files with syntax errors are refused,
//! as rustfmt does.
#![warn(missing_docs)]

mod edges;
mod function;
mod inline;

use zeno_base::diagnostics::Diagnostic;
use zeno_syntax::ast::{self, AstNode};
use zeno_syntax::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken, parse};

const INDENT: &str = "    ";

/// Formats a model text; returns its syntax errors instead if it has any.
pub fn format(text: &str) -> Result<String, Vec<Diagnostic>> {
    let parse = parse(text);
    if !parse.errors().is_empty() {
        return Err(parse.errors().to_vec());
    }
    let mut out = String::new();
    let root = parse.syntax_node();
    format_items(&root, 0, &mut out);
    Ok(out)
}

/// One line-level element of a file or template body.
enum Entry {
    Item {
        node: SyntaxNode,
        trailing: Option<SyntaxToken>,
    },
    Comment(SyntaxToken),
    BlankLine,
}

/// Splits a container (the file or a template body) into entries, deciding
/// for each comment whether it trails an item on the same line.
fn entries(container: &SyntaxNode) -> (Option<SyntaxToken>, Vec<Entry>) {
    let mut entries: Vec<Entry> = Vec::new();
    // A comment on the line of a body's `{`.
    let mut opener_comment = None;
    let mut newlines = 0usize;
    let mut seen_opener = false;
    let mut at_start = true;
    for element in container.children_with_tokens() {
        match element {
            rowan::NodeOrToken::Token(token) => match token.kind() {
                WHITESPACE => newlines += token.text().matches('\n').count(),
                L_CURLY => seen_opener = true,
                R_CURLY => {}
                COMMENT => {
                    if newlines == 0 && !at_start {
                        if let Some(Entry::Item { trailing, .. }) = entries.last_mut()
                            && trailing.is_none()
                        {
                            *trailing = Some(token);
                            continue;
                        }
                    } else if newlines == 0 && seen_opener && opener_comment.is_none() {
                        opener_comment = Some(token);
                        at_start = false;
                        continue;
                    }
                    if newlines >= 2 && !entries.is_empty() {
                        entries.push(Entry::BlankLine);
                    }
                    entries.push(Entry::Comment(token));
                    newlines = 0;
                    at_start = false;
                }
                // Other tokens cannot occur directly here in an error-free tree.
                _ => {}
            },
            rowan::NodeOrToken::Node(node) => {
                if newlines >= 2 && !entries.is_empty() {
                    entries.push(Entry::BlankLine);
                }
                entries.push(Entry::Item {
                    node,
                    trailing: None,
                });
                newlines = 0;
                at_start = false;
            }
        }
    }
    (opener_comment, entries)
}

fn format_items(container: &SyntaxNode, depth: usize, out: &mut String) {
    let (_, entries) = entries(container);
    let indent = INDENT.repeat(depth);
    let mut i = 0;
    while i < entries.len() {
        match &entries[i] {
            Entry::BlankLine => out.push('\n'),
            Entry::Comment(token) => {
                out.push_str(&indent);
                out.push_str(inline::comment_text(token));
                out.push('\n');
            }
            Entry::Item { node, trailing } => {
                let is_edge = |n: &SyntaxNode| ast::Edge::can_cast(n.kind());
                if is_edge(node) && edges::alignable(node) {
                    let mut group = Vec::new();
                    while let Some(Entry::Item { node, trailing }) = entries.get(i) {
                        if !is_edge(node) || !edges::alignable(node) {
                            break;
                        }
                        group.push((node.clone(), trailing.clone()));
                        i += 1;
                    }
                    edges::format_group(&group, depth, out);
                    continue;
                }
                format_item(node, depth, out);
                if let Some(comment) = trailing {
                    push_trailing(out, comment);
                }
                out.push('\n');
            }
        }
        i += 1;
    }
}

/// Appends a trailing comment to the current line.
fn push_trailing(out: &mut String, comment: &SyntaxToken) {
    out.push(' ');
    out.push_str(inline::comment_text(comment));
}

/// Writes one item starting at the current position (indentation included),
/// without the final newline.
fn format_item(node: &SyntaxNode, depth: usize, out: &mut String) {
    let indent = INDENT.repeat(depth);
    let item = ast::Item::cast(node.clone());
    // A declaration of a record type: `struct { … } r;`.
    let record = match &item {
        Some(ast::Item::VarDecl(v)) => v.ty(),
        Some(ast::Item::TypedefDecl(t)) => t.ty(),
        _ => None,
    }
    .and_then(|ty| match ty {
        ast::Type::StructType(record) => Some(record),
        _ => None,
    });
    match item {
        Some(ast::Item::Template(t)) => format_template(&t, depth, out),
        Some(ast::Item::Function(f)) if !header_has_comments(node) => {
            function::format_function(&f, depth, out)
        }
        Some(ast::Item::VarDecl(_) | ast::Item::TypedefDecl(_))
            if record.is_some() && !inline::has_comments(node) =>
        {
            if let Some(record) = record {
                format_record_decl(node, &record, depth, out);
            }
        }
        Some(ast::Item::VarDecl(v)) if !inline::has_comments(node) => {
            let prefix = tokens_before(node, ast::VarDeclarator::can_cast);
            let prefix = inline::render_tokens(prefix.into_iter(), depth).text;
            for (n, declarator) in v.declarators().enumerate() {
                if n > 0 {
                    out.push('\n');
                }
                out.push_str(&indent);
                out.push_str(&prefix);
                out.push(' ');
                out.push_str(&inline::render(declarator.syntax(), depth).text);
                out.push(';');
            }
        }
        _ => {
            out.push_str(&indent);
            out.push_str(&inline::render(node, depth).text);
        }
    }
}

/// Comments in a function's header (not its body) keep it on one line.
fn header_has_comments(node: &SyntaxNode) -> bool {
    node.children_with_tokens()
        .take_while(|e| !ast::Block::can_cast(e.kind()))
        .any(|e| match e {
            rowan::NodeOrToken::Token(t) => t.kind() == COMMENT,
            rowan::NodeOrToken::Node(n) => inline::has_comments(&n),
        })
}

/// Every token of the elements of `node` that `keep` selects, in order.
fn tokens_of(
    node: &SyntaxNode,
    mut keep: impl FnMut(&rowan::NodeOrToken<SyntaxNode, SyntaxToken>) -> bool,
) -> Vec<SyntaxToken> {
    node.children_with_tokens()
        .filter(|e| keep(e))
        .flat_map(|e| match e {
            rowan::NodeOrToken::Node(n) => n
                .descendants_with_tokens()
                .filter_map(|e| e.into_token())
                .collect::<Vec<_>>(),
            rowan::NodeOrToken::Token(t) => vec![t],
        })
        .collect()
}

/// Every token of `node` before its first child that `stop` accepts
/// (`ast::Block::can_cast` and the like).
fn tokens_before(node: &SyntaxNode, stop: fn(SyntaxKind) -> bool) -> Vec<SyntaxToken> {
    let mut before = true;
    tokens_of(node, |e| {
        before &= !stop(e.kind());
        before
    })
}

/// A declaration whose type is a `struct { … }`: one field per line,
/// indented, and the rest (`} name;`, all declared names together, as they
/// share the one record type) after the closing brace.
fn format_record_decl(node: &SyntaxNode, record: &ast::StructType, depth: usize, out: &mut String) {
    let indent = INDENT.repeat(depth);
    let record = record.syntax();
    let is_record =
        |e: &rowan::NodeOrToken<SyntaxNode, SyntaxToken>| e.as_node().is_some_and(|n| n == record);
    let mut seen = false;
    let before = tokens_of(node, |e| {
        seen |= is_record(e);
        !seen
    });
    let mut seen = false;
    let after = tokens_of(node, |e| {
        let keep = seen;
        seen |= is_record(e);
        keep
    });
    out.push_str(&indent);
    let before = inline::render_tokens(before.into_iter(), depth).text;
    if !before.is_empty() {
        out.push_str(&before);
        out.push(' ');
    }
    out.push_str("struct {\n");
    for field in ast::StructType::cast(record.clone())
        .into_iter()
        .flat_map(|r| r.fields())
    {
        format_item(field.syntax(), depth + 1, out);
        out.push('\n');
    }
    out.push_str(&indent);
    out.push('}');
    let after = inline::render_tokens(after.into_iter(), depth).text;
    if !after.starts_with(';') {
        out.push(' ');
    }
    out.push_str(&after);
}

fn format_template(template: &ast::Template, depth: usize, out: &mut String) {
    let indent = INDENT.repeat(depth);
    let header = tokens_before(template.syntax(), ast::TemplateBody::can_cast);
    let header = inline::render_tokens(header.into_iter(), depth);
    out.push_str(&indent);
    out.push_str(&header.text);
    if header.ends_with_line_comment {
        out.push('\n');
        out.push_str(&indent);
        out.push('{');
    } else {
        out.push_str(" {");
    }
    if let Some(body) = template.body() {
        let body = body.syntax();
        let (opener_comment, _) = entries(body);
        if let Some(comment) = opener_comment {
            push_trailing(out, &comment);
        }
        out.push('\n');
        format_items(body, depth + 1, out);
    } else {
        out.push('\n');
    }
    out.push_str(&indent);
    out.push('}');
}
