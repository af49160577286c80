//! Lossless, error-resilient syntax: lexer, parser, rowan tree and typed AST.
//!
//! [`parse`] never fails and never panics: every byte of the input ends up in
//! the tree (comments and unknown characters included), and what the parser
//! cannot make sense of becomes `ERROR` nodes plus diagnostics. Other layers
//! read the tree through the typed views in [`ast`].
//!
//! Limits that keep every layer safe on hostile input: nesting beyond
//! [`MAX_RECURSION`] levels, or trees deeper than [`MAX_TREE_DEPTH`] (plus a
//! few levels of items), are cut off with a "nesting too deep" error, and at
//! most a thousand errors are reported.
#![warn(missing_docs)]

pub mod ast;
mod grammar;
mod kind;
mod lexer;
#[cfg(test)]
mod operator_table;
mod parser;

use rowan::GreenNode;

pub use ast::AstNode;
pub use kind::{SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken, ZenoLanguage};
pub use parser::{MAX_RECURSION, MAX_TREE_DEPTH};

use zeno_base::diagnostics::Diagnostic;
use zeno_base::text::Span;

/// The result of parsing a text: a lossless tree and the syntax errors.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<Diagnostic>,
}

impl Parse {
    /// The root of the tree.
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    /// The root, typed.
    pub fn tree(&self) -> ast::SourceFile {
        // The root is always a SOURCE_FILE node (see `grammar::source_file`).
        match ast::SourceFile::cast(self.syntax_node()) {
            Some(file) => file,
            None => unreachable_root(),
        }
    }

    /// Lexical and syntax errors, sorted by position.
    pub fn errors(&self) -> &[Diagnostic] {
        &self.errors
    }

    /// The immutable tree rowan shares between versions.
    pub fn green(&self) -> &GreenNode {
        &self.green
    }

    /// An indented dump of the tree with kinds, ranges and token texts,
    /// followed by the errors: what the snapshot tests compare.
    pub fn debug_dump(&self) -> String {
        let mut out = String::new();
        dump_node(&self.syntax_node(), 0, &mut out);
        for error in &self.errors {
            out.push_str(&format!(
                "error {}..{}: {}\n",
                error.range.start, error.range.end, error.message
            ));
        }
        out
    }
}

fn dump_node(node: &SyntaxNode, indent: usize, out: &mut String) {
    use std::fmt::Write;
    let _ = writeln!(
        out,
        "{:indent$}{:?}@{:?}",
        "",
        node.kind(),
        node.text_range()
    );
    for element in node.children_with_tokens() {
        match element {
            rowan::NodeOrToken::Node(child) => dump_node(&child, indent + 2, out),
            rowan::NodeOrToken::Token(token) => {
                let _ = writeln!(
                    out,
                    "{:width$}{:?}@{:?} {:?}",
                    "",
                    token.kind(),
                    token.text_range(),
                    token.text(),
                    width = indent + 2
                );
            }
        }
    }
}

#[cold]
fn unreachable_root() -> ! {
    unreachable!("the parser always produces a SOURCE_FILE root")
}

/// Inputs are limited to what rowan's 32-bit offsets can address.
const MAX_INPUT: usize = u32::MAX as usize;

/// Parses a zeno model.
pub fn parse(text: &str) -> Parse {
    if text.len() > MAX_INPUT {
        // Keep the tree lossless for what can be addressed, and say why the
        // rest is missing.
        let mut cut = MAX_INPUT;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut parse = parse(&text[..cut]);
        parse.errors.push(Diagnostic::error(
            Span::new(cut as u32, cut as u32),
            "file too large: only the first 4 GiB are read",
        ));
        return parse;
    }
    let (tokens, mut errors) = lexer::tokenize(text);
    let mut p = parser::Parser::new(text, &tokens);
    grammar::source_file(&mut p);
    let events = p.finish();
    let (green, parse_errors) = parser::build_tree(text, &tokens, events);
    errors.extend(parse_errors);
    errors.sort_by_key(|e| (e.range.start, e.range.end));
    // One message per position: a missing target and the `;` after it are
    // one mistake.
    errors.dedup_by(|later, earlier| later.range == earlier.range);
    Parse { green, errors }
}
