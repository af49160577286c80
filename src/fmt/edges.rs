//! Consecutive edges are aligned in columns, as in:
//!
//! ```text
//! idle -> req   when id == 0              do x = 0;
//! wait -> cs    when x >= K && id == pid; // correct protocol: x > K
//! cs   -> idle                            do id = 0;
//! ```
//!
//! Source and target are padded to the widest in the group; each clause
//! kind used by some edge of the group gets a column, two spaces apart; a
//! lone edge uses single spaces.

use crate::syntax::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

use super::{INDENT, inline};

const CLAUSES: [SyntaxKind; 4] = [SELECT_CLAUSE, GUARD, SYNC, UPDATE];

/// Edges with comments inside are laid out on their own.
pub fn alignable(edge: &SyntaxNode) -> bool {
    !inline::has_comments(edge)
}

struct Row {
    source: String,
    target: String,
    clauses: [Option<String>; 4],
}

fn row(edge: &SyntaxNode, depth: usize) -> Row {
    let mut names = edge.children().filter(|c| c.kind() == NAME_REF);
    let source = names
        .next()
        .map(|n| inline::render(&n, depth).text)
        .unwrap_or_default();
    let target = names
        .next()
        .map(|n| inline::render(&n, depth).text)
        .unwrap_or_default();
    let clauses = CLAUSES.map(|kind| {
        edge.children()
            .find(|c| c.kind() == kind)
            .map(|c| inline::render(&c, depth).text)
    });
    Row {
        source,
        target,
        clauses,
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn pad(s: &str, to: usize) -> String {
    format!("{s}{}", " ".repeat(to.saturating_sub(width(s))))
}

pub fn format_group(group: &[(SyntaxNode, Option<SyntaxToken>)], depth: usize, out: &mut String) {
    let rows: Vec<Row> = group.iter().map(|(edge, _)| row(edge, depth)).collect();
    let lone = rows.len() == 1;
    let gap = if lone { " " } else { "  " };
    let source_w = rows.iter().map(|r| width(&r.source)).max().unwrap_or(0);
    let target_w = rows.iter().map(|r| width(&r.target)).max().unwrap_or(0);
    let clause_w: Vec<Option<usize>> = (0..CLAUSES.len())
        .map(|k| {
            rows.iter()
                .filter_map(|r| r.clauses[k].as_deref().map(width))
                .max()
        })
        .collect();

    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut line = format!(
                "{} -> {}",
                pad(&r.source, source_w),
                pad(&r.target, target_w)
            );
            for (k, w) in clause_w.iter().enumerate() {
                if let Some(w) = w {
                    line.push_str(gap);
                    line.push_str(&pad(r.clauses[k].as_deref().unwrap_or(""), *w));
                }
            }
            let mut line = line.trim_end().to_string();
            line.push(';');
            line
        })
        .collect();
    let comment_col = lines
        .iter()
        .zip(group)
        .filter(|(_, (_, comment))| comment.is_some())
        .map(|(line, _)| width(line))
        .max()
        .unwrap_or(0);
    let indent = INDENT.repeat(depth);
    for (line, (_, comment)) in lines.iter().zip(group) {
        out.push_str(&indent);
        out.push_str(line);
        if let Some(comment) = comment {
            out.push_str(&" ".repeat(comment_col - width(line) + 1));
            out.push_str(inline::comment_text(comment));
        }
        out.push('\n');
    }
}
