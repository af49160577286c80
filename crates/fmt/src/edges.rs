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
//! lone edge uses single spaces. An edge longer than [`MAX_WIDTH`] gets one
//! clause per line, and a group that would be wider than that when aligned
//! is not aligned.

use zeno_syntax::ast::{self, AstNode};
use zeno_syntax::{SyntaxNode, SyntaxToken};

use super::{INDENT, inline};

/// Edges with comments inside are laid out on their own.
pub fn alignable(edge: &SyntaxNode) -> bool {
    !inline::has_comments(edge)
}

struct Row {
    source: String,
    target: String,
    /// `select`, `when`, `sync` and `do`, each its column.
    clauses: [Option<String>; CLAUSES],
}

/// The clause columns of an edge.
const CLAUSES: usize = 4;

fn row(edge: &SyntaxNode, depth: usize) -> Row {
    let render = |n: Option<&SyntaxNode>| n.map(|n| inline::render(n, depth).text);
    let Some(edge) = ast::Edge::cast(edge.clone()) else {
        return Row {
            source: String::new(),
            target: String::new(),
            clauses: [None, None, None, None],
        };
    };
    let source = edge.source();
    let target = edge.target();
    let (select, guard) = (edge.select(), edge.guard());
    let (sync, update) = (edge.sync(), edge.update());
    Row {
        source: render(source.as_ref().map(|n| n.syntax())).unwrap_or_default(),
        target: render(target.as_ref().map(|n| n.syntax())).unwrap_or_default(),
        // The clauses in their order in the grammar, one column each.
        clauses: [
            render(select.as_ref().map(|c| c.syntax())),
            render(guard.as_ref().map(|c| c.syntax())),
            render(sync.as_ref().map(|c| c.syntax())),
            render(update.as_ref().map(|c| c.syntax())),
        ],
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn pad(s: &str, to: usize) -> String {
    format!("{s}{}", " ".repeat(to.saturating_sub(width(s))))
}

/// Edges wider than this (indentation included) are written one clause per
/// line; groups whose aligned lines would be wider are not aligned.
const MAX_WIDTH: usize = 100;

/// The edge on one line with single spaces: `a -> b when g do u;`.
fn lone_line(row: &Row) -> String {
    let mut line = format!("{} -> {}", row.source, row.target);
    for clause in row.clauses.iter().flatten() {
        line.push(' ');
        line.push_str(clause);
    }
    line.push(';');
    line
}

/// The rows aligned in columns, `gap` apart.
fn aligned_lines(rows: &[&Row]) -> Vec<String> {
    let source_w = rows.iter().map(|r| width(&r.source)).max().unwrap_or(0);
    let target_w = rows.iter().map(|r| width(&r.target)).max().unwrap_or(0);
    let clause_w: Vec<Option<usize>> = (0..CLAUSES)
        .map(|k| {
            rows.iter()
                .filter_map(|r| r.clauses[k].as_deref().map(width))
                .max()
        })
        .collect();
    rows.iter()
        .map(|r| {
            let mut line = format!(
                "{} -> {}",
                pad(&r.source, source_w),
                pad(&r.target, target_w)
            );
            for (k, w) in clause_w.iter().enumerate() {
                if let Some(w) = w {
                    line.push_str("  ");
                    line.push_str(&pad(r.clauses[k].as_deref().unwrap_or(""), *w));
                }
            }
            let mut line = line.trim_end().to_string();
            line.push(';');
            line
        })
        .collect()
}

pub fn format_group(group: &[(SyntaxNode, Option<SyntaxToken>)], depth: usize, out: &mut String) {
    let rows: Vec<Row> = group.iter().map(|(edge, _)| row(edge, depth)).collect();
    let indent_w = INDENT.len() * depth;
    let mut run: Vec<(&Row, Option<&SyntaxToken>)> = Vec::new();
    for (row, (_, comment)) in rows.iter().zip(group) {
        if indent_w + width(&lone_line(row)) > MAX_WIDTH {
            write_run(&run, depth, out);
            run.clear();
            write_multiline(row, comment.as_ref(), depth, out);
        } else {
            run.push((row, comment.as_ref()));
        }
    }
    write_run(&run, depth, out);
}

/// Writes consecutive short edges, aligned unless that makes them too wide.
fn write_run(run: &[(&Row, Option<&SyntaxToken>)], depth: usize, out: &mut String) {
    if run.is_empty() {
        return;
    }
    let rows: Vec<&Row> = run.iter().map(|(row, _)| *row).collect();
    let indent_w = INDENT.len() * depth;
    let aligned = aligned_lines(&rows);
    let fits = aligned.iter().all(|l| indent_w + width(l) <= MAX_WIDTH);
    let (lines, align_comments) = if run.len() > 1 && fits {
        (aligned, true)
    } else {
        (rows.iter().map(|r| lone_line(r)).collect(), false)
    };
    let comment_col = if align_comments {
        lines
            .iter()
            .zip(run)
            .filter(|(_, (_, comment))| comment.is_some())
            .map(|(line, _)| width(line))
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    let indent = INDENT.repeat(depth);
    for (line, (_, comment)) in lines.iter().zip(run) {
        out.push_str(&indent);
        out.push_str(line);
        if let Some(comment) = comment {
            let spaces = comment_col.saturating_sub(width(line)) + 1;
            out.push_str(&" ".repeat(spaces));
            out.push_str(inline::comment_text(comment));
        }
        out.push('\n');
    }
}

/// A long edge: `a -> b` on the first line, then one clause per line.
fn write_multiline(row: &Row, comment: Option<&SyntaxToken>, depth: usize, out: &mut String) {
    let indent = INDENT.repeat(depth);
    out.push_str(&indent);
    out.push_str(&format!("{} -> {}", row.source, row.target));
    for clause in row.clauses.iter().flatten() {
        out.push('\n');
        out.push_str(&indent);
        out.push_str(INDENT);
        out.push_str(clause);
    }
    out.push(';');
    if let Some(comment) = comment {
        out.push(' ');
        out.push_str(inline::comment_text(comment));
    }
    out.push('\n');
}
