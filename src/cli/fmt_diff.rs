//! The unified diff `zeno fmt --check` prints: what formatting would change
//! in a file, line by line, with three lines of context (`diff -u`'s form).

use std::fmt::Write;

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// Past this many cells of the comparison table (the changed middle's
/// lines, old times new), only the changed range is named.
const MAX_CELLS: usize = 4_000_000;

/// One line of the diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line<'a> {
    Same(&'a str),
    Gone(&'a str),
    Added(&'a str),
}

/// The unified diff of `old` (the file as it is) and `new` (formatted),
/// headed `--- PATH` / `+++ PATH (formatted)`; empty when they are equal.
pub fn unified(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let mut out = format!("--- {path}\n+++ {path} (formatted)\n");
    let Some(lines) = compare(&a, &b) else {
        let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let _ = writeln!(
            out,
            "@@ lines {} to {} change; too many to show them one by one @@",
            prefix + 1,
            a.len()
        );
        return out;
    };
    // Hunks: runs of changes with their context, merged when close.
    let changed: Vec<usize> = (0..lines.len())
        .filter(|&i| !matches!(lines[i], Line::Same(_)))
        .collect();
    if changed.is_empty() {
        // Only the final newline differs.
        out.push_str("@@ the end of the file: a final newline @@\n");
        return out;
    }
    let mut hunks: Vec<(usize, usize)> = Vec::new();
    for &i in &changed {
        let (lo, hi) = (
            i.saturating_sub(CONTEXT),
            (i + CONTEXT + 1).min(lines.len()),
        );
        match hunks.last_mut() {
            Some(h) if lo <= h.1 => h.1 = hi,
            _ => hunks.push((lo, hi)),
        }
    }
    // Line numbers in the old and the new text at each position.
    let mut at = Vec::with_capacity(lines.len() + 1);
    let (mut x, mut y) = (1, 1);
    for l in &lines {
        at.push((x, y));
        match l {
            Line::Same(_) => (x, y) = (x + 1, y + 1),
            Line::Gone(_) => x += 1,
            Line::Added(_) => y += 1,
        }
    }
    for (lo, hi) in hunks {
        let part = &lines[lo..hi];
        let olds = part.iter().filter(|l| !matches!(l, Line::Added(_))).count();
        let news = part.iter().filter(|l| !matches!(l, Line::Gone(_))).count();
        let _ = writeln!(out, "@@ -{},{olds} +{},{news} @@", at[lo].0, at[lo].1);
        for l in part {
            let _ = match l {
                Line::Same(t) => writeln!(out, " {t}"),
                Line::Gone(t) => writeln!(out, "-{t}"),
                Line::Added(t) => writeln!(out, "+{t}"),
            };
        }
    }
    out
}

/// The lines of `a` and `b` as kept, removed and added: the common prefix
/// and suffix, and a longest common subsequence of the middle. `None` when
/// the middle is too large to compare.
fn compare<'a>(a: &[&'a str], b: &[&'a str]) -> Option<Vec<Line<'a>>> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        return None;
    }
    // lcs[i][j]: the longest common subsequence of ma[i..] and mb[j..].
    let w = mb.len() + 1;
    let mut lcs = vec![0u32; (ma.len() + 1) * w];
    for i in (0..ma.len()).rev() {
        for j in (0..mb.len()).rev() {
            lcs[i * w + j] = if ma[i] == mb[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut out: Vec<Line> = a[..prefix].iter().map(|t| Line::Same(t)).collect();
    let (mut i, mut j) = (0, 0);
    while i < ma.len() || j < mb.len() {
        if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
            out.push(Line::Same(ma[i]));
            (i, j) = (i + 1, j + 1);
        } else if i < ma.len() && (j == mb.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            // Removed lines before the added ones, as `diff` writes them.
            out.push(Line::Gone(ma[i]));
            i += 1;
        } else {
            out.push(Line::Added(mb[j]));
            j += 1;
        }
    }
    out.extend(a[a.len() - suffix..].iter().map(|t| Line::Same(t)));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_shown_with_its_context_and_line_numbers() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nE\nf\ng\nh\ni\n";
        assert_eq!(
            unified("m.zeno", old, new),
            "--- m.zeno\n+++ m.zeno (formatted)\n\
             @@ -2,7 +2,8 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n+i\n"
        );
        assert_eq!(unified("m.zeno", old, old), "");
    }

    #[test]
    fn far_apart_changes_are_separate_hunks() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new: String = (1..=20)
            .map(|i| match i {
                2 => "two\n".to_string(),
                19 => "nineteen\n".to_string(),
                i => format!("{i}\n"),
            })
            .collect();
        let d = unified("m", &old, &new);
        assert!(
            d.contains("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"),
            "{d}"
        );
        assert!(
            d.contains("@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n"),
            "{d}"
        );
    }
}
