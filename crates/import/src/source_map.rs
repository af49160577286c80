//! Where each part of an imported model's zeno text came from in the
//! source file, so that errors found in the zeno text (by the analysis,
//! after the import) can be reported where the user can fix them.
//!
//! The importer translates labels and declarations rather than copying
//! them, so a piece of zeno text maps to the whole source label or
//! declaration it was printed from. Inside a piece, a span is narrowed to
//! the same token in the source only when that token occurs exactly once
//! in both (a name, a literal): a guess between two occurrences could
//! point at the wrong one.

use zeno_ir::Span;

/// One stretch of generated zeno text and the source text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The byte range in the zeno text.
    pub generated: Span,
    /// The byte range in the source file.
    pub source: Span,
    /// Where that is in the source's terms, e.g. `in the guard of an edge
    /// of template Train, from Appr to Cross`.
    pub what: String,
}

/// The pieces of one imported model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    pieces: Vec<Piece>,
}

/// A span of the zeno text located in the source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapped {
    /// The byte range in the source file.
    pub span: Span,
    /// Where that is in the source's terms (see [`Piece::what`]).
    pub what: String,
    /// Whether `span` is the very text of the generated span (a token found
    /// once in both), rather than the whole label or declaration around it.
    pub exact: bool,
}

impl Piece {
    /// Locates `span` of the zeno text `generated`, which this piece holds,
    /// in the source text `source`: the same token when it occurs exactly
    /// once in the piece and once in the piece's source, else the whole
    /// source of the piece.
    pub fn narrow(&self, generated: &str, source: &str, span: Span) -> Mapped {
        let whole = Mapped {
            span: self.source,
            what: self.what.clone(),
            exact: false,
        };
        let (Some(token), Some(in_piece), Some(in_source)) = (
            generated.get(span.start as usize..span.end as usize),
            generated.get(self.generated.start as usize..self.generated.end as usize),
            source.get(self.source.start as usize..self.source.end as usize),
        ) else {
            return whole;
        };
        let token = token.trim();
        if token.is_empty() {
            return whole;
        }
        match (
            occurrences(in_piece, token).as_slice(),
            occurrences(in_source, token).as_slice(),
        ) {
            ([_], [at]) => {
                let start = self.source.start + *at as u32;
                Mapped {
                    span: Span::new(start, start + token.len() as u32),
                    exact: true,
                    ..whole
                }
            }
            _ => whole,
        }
    }
}

impl SourceMap {
    /// Records that `generated` (in the zeno text) was written from `source`.
    pub fn record(&mut self, generated: Span, source: Span, what: String) {
        self.pieces.push(Piece {
            generated,
            source,
            what,
        });
    }

    /// The recorded pieces, in the order they were written.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Locates `span` of the zeno text `generated` in the source text
    /// `source`: in the innermost piece that contains it (a label inside a
    /// template), narrowed to the token when that is unambiguous. `None`
    /// when no piece contains it (the text zeno added itself, such as a
    /// `system` line assembled from several places).
    pub fn map(&self, generated: &str, source: &str, span: Span) -> Option<Mapped> {
        let piece = self
            .pieces
            .iter()
            .filter(|p| p.generated.start <= span.start && span.end <= p.generated.end)
            .min_by_key(|p| p.generated.end - p.generated.start)?;
        Some(piece.narrow(generated, source, span))
    }

    /// Where a position of the source file is in the zeno text: the
    /// generated span of the innermost piece whose source holds `offset`
    /// (a label inside a location inside a template). `None` outside every
    /// piece.
    pub fn back(&self, offset: u32) -> Option<Span> {
        self.pieces
            .iter()
            .filter(|p| p.source.start <= offset && offset < p.source.end)
            .min_by_key(|p| p.source.end - p.source.start)
            .map(|p| p.generated)
    }

    /// The same map for `new`, a copy of the text `old` it was recorded on
    /// with only whitespace changed (by the formatter) and `//` inserted
    /// (checks commented out). `None` when `new` differs otherwise: then no
    /// position could be trusted.
    pub fn realign(&self, old: &str, new: &str) -> Option<SourceMap> {
        let at = alignment(old.as_bytes(), new.as_bytes())?;
        let moved = |o: u32| at.get(o as usize).copied();
        let pieces = self
            .pieces
            .iter()
            .map(|p| {
                Some(Piece {
                    generated: Span::new(moved(p.generated.start)?, moved(p.generated.end)?),
                    ..p.clone()
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(SourceMap { pieces })
    }
}

/// For each byte offset of `old` (and its end), the offset of the same
/// byte in `new`, where `new` is `old` with whitespace changed and `/`
/// inserted; `None` when it is not.
fn alignment(old: &[u8], new: &[u8]) -> Option<Vec<u32>> {
    let mut at = Vec::with_capacity(old.len() + 1);
    let (mut i, mut j) = (0, 0);
    while i < old.len() {
        if j < new.len() && old[i] == new[j] {
            at.push(j as u32);
            i += 1;
            j += 1;
        } else if old[i].is_ascii_whitespace() {
            at.push(j as u32);
            i += 1;
        } else if j < new.len() && (new[j].is_ascii_whitespace() || new[j] == b'/') {
            j += 1;
        } else {
            return None;
        }
    }
    at.push(j as u32);
    Some(at)
}

/// The offsets where `token` occurs in `text`; a token that begins or ends
/// with a name character only where it is not part of a longer name (`x`
/// is not in `max`).
fn occurrences(text: &str, token: &str) -> Vec<usize> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let (first, last) = (token.chars().next(), token.chars().last());
    text.match_indices(token)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = text[..at].chars().last();
            let after = text[at + token.len()..].chars().next();
            let cuts_a_name_before = word(first) && word(before);
            let cuts_a_name_after = word(last) && word(after);
            !cuts_a_name_before && !cuts_a_name_after
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_of(generated: Span, source: Span) -> SourceMap {
        let mut m = SourceMap::default();
        m.record(generated, source, "in the guard".into());
        m
    }

    #[test]
    fn a_token_found_once_in_both_maps_exactly() {
        let generated = "E when y > 1;";
        let source = "<label kind=\"guard\">y &gt; 1</label>";
        let m = map_of(Span::new(7, 12), Span::new(20, 29));
        let mapped = m.map(generated, source, Span::new(7, 8)).unwrap();
        assert_eq!((mapped.span, mapped.exact), (Span::new(20, 21), true));
        // `y > 1` is written `y &gt; 1` in XML: the whole label.
        let mapped = m.map(generated, source, Span::new(7, 12)).unwrap();
        assert_eq!((mapped.span, mapped.exact), (Span::new(20, 29), false));
        // Outside every piece: nothing.
        assert_eq!(m.map(generated, source, Span::new(0, 1)), None);
    }

    #[test]
    fn a_token_found_twice_maps_to_the_whole_piece() {
        let generated = "x == x";
        let source = "x == x";
        let m = map_of(Span::new(0, 6), Span::new(0, 6));
        let mapped = m.map(generated, source, Span::new(5, 6)).unwrap();
        assert_eq!((mapped.span, mapped.exact), (Span::new(0, 6), false));
        // A name inside a longer one is not an occurrence.
        assert_eq!(occurrences("max + x", "x"), vec![6]);
    }

    #[test]
    fn realigning_follows_whitespace_and_comment_marks_only() {
        let m = map_of(Span::new(7, 12), Span::new(0, 5));
        let old = "check  a: x>1;";
        let new = "// check a: x>1;";
        let moved = m.realign(old, new).unwrap();
        assert_eq!(moved.pieces()[0].generated, Span::new(9, 14));
        assert_eq!(m.realign(old, "check b: x>1;"), None);
    }
}

#[cfg(test)]
mod back_tests {
    use super::*;

    #[test]
    fn a_source_position_goes_back_to_its_innermost_piece() {
        let mut m = SourceMap::default();
        // A template (source 0..100) holding a guard (source 40..50).
        m.record(Span::new(0, 60), Span::new(0, 100), "in template P".into());
        m.record(Span::new(20, 25), Span::new(40, 50), "in the guard".into());
        assert_eq!(m.back(45), Some(Span::new(20, 25)));
        assert_eq!(m.back(10), Some(Span::new(0, 60)));
        // The end of a piece is outside it.
        assert_eq!(m.back(100), None);
    }
}
