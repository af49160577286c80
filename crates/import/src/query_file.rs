//! UPPAAL query files (`.q`), as UPPAAL writes them: one query per line,
//! `//` and `/* */` comments, the comment just above a query describing
//! it. Each query becomes a [`Query`]: translated into a zeno check
//! formula, listed as a query for another engine, or refused with an error
//! located in the file; one query's problem costs no other query.

use super::context::{Context, Renaming};
use super::lex::{Cursor, tokenize};
use super::{ImportDiagnostic, Query, QueryOutcome, Sink, is_ident, other_engine, queries};
use std::collections::HashSet;
use std::rc::Rc;
use zeno_base::diagnostics::Severity;
use zeno_ir::Span;

/// A query file read: its queries in file order, and an error located in
/// the file for each query that was refused.
#[derive(Debug, Clone, Default)]
pub struct QueryFile {
    /// Every query, in file order.
    pub queries: Vec<Query>,
    /// The errors of the refused queries.
    pub diagnostics: Vec<ImportDiagnostic>,
}

/// A comment of the file: its byte range and its text without the
/// comment marks.
struct Comment {
    span: Span,
    text: String,
    /// A `//` comment (which a `//` comment on the next line continues).
    line: bool,
}

/// Reads a UPPAAL query file with the renaming of the model it belongs to
/// (`Renaming::default()` for none: see [`Renaming::name`]). A query is
/// named after the comment just above it (ending on the line before, or a
/// `//` comment on the same line after it) when that comment is one word,
/// an identifier no earlier query of the file took; otherwise `lineN`
/// after its line, with the comment kept beside it.
pub fn read_query_file(text: &str, renaming: &Renaming) -> QueryFile {
    let cx = Rc::new(Context::with_renaming(renaming.clone()));
    let (blanked, comments) = blank_comments(text);
    let mut sink = Sink::new(text);
    let mut queries = Vec::new();
    let mut taken = HashSet::new();
    let mut start = 0usize;
    for (n, line) in blanked.split('\n').enumerate() {
        let base = start;
        start += line.len() + 1;
        if line.trim().is_empty() {
            continue;
        }
        let at = |i: usize| (base + i) as u32;
        let whole = Span::new(
            at(line.len() - line.trim_start().len()),
            at(line.trim_end().len()),
        );
        let comment = comment_of(text, &blanked, &comments, whole);
        let line_name = format!("line{}", n + 1);
        let named = comment
            .as_deref()
            .filter(|c| is_ident(c) && !taken.contains(&cx.name(c)))
            .map(|c| cx.name(c));
        let name = named.clone().unwrap_or_else(|| line_name.clone());
        // A `lineN` name cannot clash with another line's; a comment's
        // name may take a later line's `lineN`, which then gets `_2`.
        let name = if taken.contains(&name) {
            format!("{line_name}_2")
        } else {
            name
        };
        taken.insert(name.clone());
        let before = sink.diags.len();
        let outcome = if let Some(other) = other_engine(line) {
            QueryOutcome::OtherEngine(other)
        } else {
            let translated = match tokenize(line, &at) {
                Ok(tokens) => {
                    queries::formula(&mut Cursor::new(tokens, &cx), whole, None, &mut sink)
                }
                Err((span, msg)) => {
                    sink.warning(span, msg);
                    None
                }
            };
            match translated {
                Some(check) => QueryOutcome::Check(check),
                None => {
                    // The user asked for this query: an error, not a warning.
                    for d in &mut sink.diags[before..] {
                        d.severity = Severity::Error;
                        if let Some(m) = d.message.strip_suffix("; query left as a comment") {
                            d.message = format!("{m}; this query is not checked");
                        }
                    }
                    refusal(&sink.diags[before..], whole)
                }
            }
        };
        queries.push(Query {
            comment: comment.filter(|_| named.is_none()),
            name,
            formula: one_line(line),
            span: whole,
            outcome,
        });
    }
    QueryFile {
        queries,
        diagnostics: sink.diags,
    }
}

/// The text of the comment describing the query at `query`: the comment
/// (with the `//` comments on the lines just above it) that ends on the
/// query's line or the line before, else a comment after the query on its
/// own line. A comment after another query on its line is that query's.
/// `None` when there is none or it is blank.
fn comment_of(text: &str, blanked: &str, comments: &[Comment], query: Span) -> Option<String> {
    let between = |a: u32, b: u32| text.get(a as usize..b as usize).unwrap_or("");
    let trailing = |c: &Comment| {
        let before = &blanked[..c.span.start as usize];
        !before[before.rfind('\n').map_or(0, |k| k + 1)..]
            .trim()
            .is_empty()
    };
    let just_above = |end: u32, start: u32| {
        let gap = between(end, start);
        gap.trim().is_empty() && gap.matches('\n').count() <= 1
    };
    let above = comments.iter().rposition(|c| c.span.end <= query.start);
    let mut parts: Vec<&str> = Vec::new();
    if let Some(k) =
        above.filter(|&k| !trailing(&comments[k]) && just_above(comments[k].span.end, query.start))
    {
        let mut first = k;
        // `// a` on the line above `// b`: one comment.
        while first > 0
            && comments[first].line
            && comments[first - 1].line
            && just_above(comments[first - 1].span.end, comments[first].span.start)
        {
            first -= 1;
        }
        parts.extend(comments[first..=k].iter().map(|c| c.text.as_str()));
    } else if let Some(after) = comments
        .iter()
        .find(|c| c.span.start >= query.end && !between(query.end, c.span.start).contains('\n'))
    {
        parts.push(&after.text);
    }
    let text = one_line(&parts.join(" "));
    (!text.is_empty()).then_some(text)
}

/// `text` with every comment replaced by spaces (line breaks kept), so that
/// offsets and lines stay those of the file, and the comments.
fn blank_comments(text: &str) -> (String, Vec<Comment>) {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut comments = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let (end, inner, line) = if bytes[i..].starts_with(b"//") {
            let end = bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |k| i + k);
            (end, (i + 2, end), true)
        } else if bytes[i..].starts_with(b"/*") {
            match bytes[i + 2..].windows(2).position(|w| w == b"*/") {
                Some(k) => (i + 2 + k + 2, (i + 2, i + 2 + k), false),
                None => (bytes.len(), (i + 2, bytes.len()), false),
            }
        } else {
            i += 1;
            continue;
        };
        let inner = String::from_utf8_lossy(&bytes[inner.0..inner.1]);
        // ` * ` at the start of each line of a block comment is layout.
        let inner = inner
            .lines()
            .map(|l| l.trim().trim_start_matches('*').trim())
            .collect::<Vec<_>>()
            .join(" ");
        comments.push(Comment {
            span: Span::new(i as u32, end as u32),
            text: inner,
            line,
        });
        for b in &mut out[i..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        i = end;
    }
    // Only ASCII bytes were replaced, by ASCII spaces, at character
    // boundaries of comment delimiters; multi-byte characters inside
    // comments become runs of spaces of the same length.
    let blanked = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (blanked, comments)
}

/// `text` trimmed, its line breaks and runs of blanks made single spaces.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why a query was not translated: the first problem reported on it (its
/// message without the note on what became of the query), or, should none
/// have been reported, the whole formula.
pub(crate) fn refusal(diags: &[ImportDiagnostic], whole: Span) -> QueryOutcome {
    match diags.first() {
        Some(d) => {
            let message = ["; query left as a comment", "; this query is not checked"]
                .iter()
                .find_map(|s| d.message.strip_suffix(s))
                .unwrap_or(&d.message);
            QueryOutcome::Refused {
                message: message.to_string(),
                span: d.span,
            }
        }
        None => QueryOutcome::Refused {
            message: "this query cannot be translated".to_string(),
            span: whole,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file as UPPAAL 4 saves it: a header comment, `/* */` blocks above
    /// the queries (empty ones too), and a query for the statistical engine.
    const SAVED: &str = "//This file was generated from (Academic) UPPAAL 4.1.24\n\n/*\nmutex\n*/\nA[] not (P(1).cs and P(2).cs)\n\n/*\nP(1) can enter\nits critical section\n*/\nE<> P(1).cs\n\n/*\n\n*/\nPr[<=100](<> P(1).cs)\n\nA[] x <\n// live\n// ness\nP(1).req --> P(1).cs  // not this one\nE<> P(2).cs // reach2\n";

    #[test]
    fn names_comments_and_outcomes_follow_the_file() {
        let file = read_query_file(SAVED, &Renaming::default());
        let got: Vec<(&str, Option<&str>, &str)> = file
            .queries
            .iter()
            .map(|q| (q.name.as_str(), q.comment.as_deref(), q.formula.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("mutex", None, "A[] not (P(1).cs and P(2).cs)"),
                (
                    "line12",
                    Some("P(1) can enter its critical section"),
                    "E<> P(1).cs"
                ),
                ("line17", None, "Pr[<=100](<> P(1).cs)"),
                ("line19", None, "A[] x <"),
                ("line22", Some("live ness"), "P(1).req --> P(1).cs"),
                ("reach2", None, "E<> P(2).cs"),
            ]
        );
        let q = &file.queries;
        assert_eq!(
            q[0].outcome,
            QueryOutcome::Check("A[] !(P(1).cs && P(2).cs)".into())
        );
        assert!(matches!(
            q[2].outcome,
            QueryOutcome::OtherEngine(o) if o.kind == "statistical query"
        ));
        // The formula's span is the query's text in the file.
        let at = |k: usize| &SAVED[q[k].span.start as usize..q[k].span.end as usize];
        assert_eq!(at(1), "E<> P(1).cs");
        assert_eq!(at(4), "P(1).req --> P(1).cs");
        // The malformed line is an error located on that line, and the
        // queries after it are read.
        let QueryOutcome::Refused { span, .. } = &q[3].outcome else {
            panic!("{:?}", q[3].outcome)
        };
        assert_eq!(zeno_base::line_index::line_col(SAVED, span.start).0, 19);
        assert_eq!(file.diagnostics.len(), 1);
        assert_eq!(file.diagnostics[0].severity, Severity::Error);
        assert_eq!(file.diagnostics[0].line, 19);
        assert!(
            file.diagnostics[0]
                .message
                .ends_with("; this query is not checked"),
            "{:?}",
            file.diagnostics
        );
    }

    #[test]
    fn a_comment_name_is_taken_once() {
        let file = read_query_file(
            "// ok\nE<> a\n// ok\nE<> b\n// line7\nE<> c\nE<> d\n",
            &Renaming::default(),
        );
        let names: Vec<&str> = file.queries.iter().map(|q| q.name.as_str()).collect();
        // The second `ok` is shown beside its query; the query of line 7
        // finds its name taken by the comment of line 6's.
        assert_eq!(names, ["ok", "line4", "line7", "line7_2"]);
        assert_eq!(file.queries[1].comment.as_deref(), Some("ok"));
    }
}
