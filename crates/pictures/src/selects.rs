//! One drawn edge per `select` edge: the network has one edge per value of
//! a `select` (`select e : id_t` with three trains is three edges), which a
//! picture would fan out (the train-gate's Gate as 14 edges). The edges of
//! one template edge are drawn as one, labelled `select e ∈ 0..2`, with the
//! label's other lines written over the select's name again (`sync
//! appr[e]?`), and the trace's steps of every value on it (`#3 (e = 1)`).
//!
//! The lines are written back only where that is certain: where two
//! values' lines differ, the differing word must be the value of one
//! select name in every one of them. Otherwise (a folded `e + 1`, say) the
//! edges are drawn one per value, as before.

use std::collections::BTreeSet;

use zeno_ir::Edge;

use super::diagram::GraphEdge;

/// Merges `edges` (one per edge of `ir_edges`, in order) that came from the
/// same `select` edge.
pub(crate) fn merge(edges: Vec<GraphEdge>, ir_edges: &[Edge]) -> Vec<GraphEdge> {
    let mut out: Vec<GraphEdge> = Vec::new();
    // The members of each group: indices into `edges`.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (k, e) in ir_edges.iter().enumerate().take(edges.len()) {
        let same = |g: &Vec<usize>| {
            let first = &ir_edges[g[0]];
            !e.selects.is_empty()
                && first.span == e.span
                && first.source == e.source
                && first.target == e.target
                && first.selects.len() == e.selects.len()
        };
        match groups.iter_mut().find(|g| same(g)) {
            Some(g) => g.push(k),
            None => groups.push(vec![k]),
        }
    }
    let mut taken: Vec<Option<GraphEdge>> = edges.into_iter().map(Some).collect();
    for g in groups {
        let members: Vec<GraphEdge> = g.iter().filter_map(|&k| taken[k].take()).collect();
        let bindings: Vec<&[(String, i32)]> = g.iter().map(|&k| &ir_edges[k].selects[..]).collect();
        match (g.len() > 1).then(|| one(&members, &bindings)).flatten() {
            Some(merged) => out.push(merged),
            None => out.extend(members),
        }
    }
    out
}

/// The edges of one select edge as one, when its lines can be written back.
fn one(members: &[GraphEdge], bindings: &[&[(String, i32)]]) -> Option<GraphEdge> {
    let names: Vec<&str> = bindings[0].iter().map(|(n, _)| n.as_str()).collect();
    let labels: Vec<&[String]> = members.iter().map(|m| &m.label[..]).collect();
    let lines = labels[0].len();
    if labels.iter().any(|l| l.len() != lines) {
        return None;
    }
    let mut label = vec![select_line(&names, bindings)];
    // Line 0 of each member is its own `select e = v`.
    for i in 1..lines {
        let texts: Vec<&str> = labels.iter().map(|l| l[i].as_str()).collect();
        label.push(write_back(&texts, &names, bindings)?);
    }
    let first = &members[0];
    let mut steps: Vec<(usize, String)> = Vec::new();
    for (m, b) in members.iter().zip(bindings) {
        let values: Vec<String> = b.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        steps.extend(m.steps.iter().map(|&s| (s, values.join(", "))));
    }
    steps.sort();
    Some(GraphEdge {
        source: first.source,
        target: first.target,
        label,
        steps: steps.iter().map(|(s, _)| *s).collect(),
        step_notes: steps.into_iter().map(|(_, v)| v).collect(),
        error: members.iter().any(|m| m.error),
        loop_start: first.loop_start,
    })
}

/// `select e ∈ 0..2` (every value from the least to the greatest) or
/// `select e ∈ {0, 2}`; several names joined by `, `.
fn select_line(names: &[&str], bindings: &[&[(String, i32)]]) -> String {
    let parts: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let values: BTreeSet<i32> = bindings
                .iter()
                .filter_map(|b| b.get(k))
                .map(|b| b.1)
                .collect();
            let (lo, hi) = (values.first().copied(), values.last().copied());
            match (lo, hi) {
                (Some(lo), Some(hi))
                    if (hi as i64 - lo as i64 + 1) as usize == values.len() && lo != hi =>
                {
                    format!("{n} ∈ {lo}..{hi}")
                }
                _ => {
                    let vs: Vec<String> = values.iter().map(i32::to_string).collect();
                    format!("{n} ∈ {{{}}}", vs.join(", "))
                }
            }
        })
        .collect();
    format!("select {}", parts.join(", "))
}

/// The words of a line: runs of letters, digits and `_`, and every other
/// character on its own.
fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let next_joins = chars.get(i + 1).is_some_and(|&(_, d)| word(c) && word(d));
        if !next_joins {
            let end = at + c.len_utf8();
            out.push(&text[start..end]);
            start = end;
        }
    }
    out
}

/// One line of every member written over the select names: the words that
/// differ between members must each be one name's value in every member.
fn write_back(texts: &[&str], names: &[&str], bindings: &[&[(String, i32)]]) -> Option<String> {
    let split: Vec<Vec<&str>> = texts.iter().map(|t| words(t)).collect();
    let n = split[0].len();
    if split.iter().any(|w| w.len() != n) {
        return None;
    }
    let mut out = String::new();
    for i in 0..n {
        let column: Vec<&str> = split.iter().map(|w| w[i]).collect();
        if column.iter().all(|w| *w == column[0]) {
            out.push_str(column[0]);
            continue;
        }
        // The one name whose value is this word in every member.
        let fits = |k: usize| {
            column
                .iter()
                .zip(bindings)
                .all(|(w, b)| b.get(k).is_some_and(|(_, v)| v.to_string() == *w))
        };
        let mut which = (0..names.len()).filter(|&k| fits(k));
        let (Some(k), None) = (which.next(), which.next()) else {
            return None;
        };
        out.push_str(names[k]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(pairs: &[(&str, i32)]) -> Vec<(String, i32)> {
        pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect()
    }

    #[test]
    fn differing_words_are_written_back_as_the_select_name() {
        let (b0, b1, b2) = (b(&[("e", 0)]), b(&[("e", 1)]), b(&[("e", 2)]));
        let bs: Vec<&[(String, i32)]> = vec![&b0, &b1, &b2];
        assert_eq!(
            write_back(
                &[
                    "when 0 == list[0]",
                    "when 1 == list[0]",
                    "when 2 == list[0]"
                ],
                &["e"],
                &bs
            ),
            Some("when e == list[0]".to_string())
        );
        assert_eq!(
            write_back(
                &["do list[len] = 0", "do list[len] = 1", "do list[len] = 2"],
                &["e"],
                &bs
            ),
            Some("do list[len] = e".to_string())
        );
        // `e + 1` folded: the word is no value of `e`, nothing is guessed.
        assert_eq!(write_back(&["x = 1", "x = 2", "x = 3"], &["e"], &bs), None);
        assert_eq!(select_line(&["e"], &bs), "select e ∈ 0..2");
        let (c0, c3) = (b(&[("e", 0)]), b(&[("e", 3)]));
        assert_eq!(select_line(&["e"], &[&c0, &c3]), "select e ∈ {0, 3}");
    }

    #[test]
    fn two_names_with_the_same_value_are_ambiguous() {
        let (x, y) = (b(&[("i", 1), ("j", 1)]), b(&[("i", 2), ("j", 2)]));
        assert_eq!(write_back(&["a[1]", "a[2]"], &["i", "j"], &[&x, &y]), None);
        let (x, y) = (b(&[("i", 1), ("j", 5)]), b(&[("i", 2), ("j", 5)]));
        assert_eq!(
            write_back(&["a[1] = 5", "a[2] = 5"], &["i", "j"], &[&x, &y]),
            Some("a[i] = 5".to_string())
        );
    }
}
