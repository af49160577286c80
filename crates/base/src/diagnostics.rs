//! Diagnostics shared by every layer: syntax, semantics, importers and checker
//! results all speak this type, and the CLI and the language server render it.

use crate::text::Span;

/// How serious a diagnostic is, most serious first (the order sorts by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The model cannot be checked (exit 2 in the CLI).
    Error,
    /// Something is likely wrong, but the model can be checked.
    Warning,
    /// Information, such as a check's verdict in the editor.
    Info,
    /// A suggestion.
    Hint,
}

/// A message about a range of a source text, with optional related ranges
/// ("first defined here", "step 3 of the trace").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where, in the text the diagnostic is about.
    pub range: Span,
    /// Other places that explain it.
    pub related: Vec<Related>,
}

/// A place related to a diagnostic, with what it shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    /// Where, in the same text.
    pub range: Span,
    /// What is there ("first defined here").
    pub message: String,
}

impl Diagnostic {
    /// An error at `range`.
    pub fn error(range: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            range,
            related: Vec::new(),
        }
    }

    /// A warning at `range`.
    pub fn warning(range: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(range, message)
        }
    }

    /// A note at `range` (information a user should not be surprised by).
    pub fn info(range: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Info,
            ..Diagnostic::error(range, message)
        }
    }

    /// The diagnostic with one more related place.
    pub fn with_related(mut self, range: Span, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            range,
            message: message.into(),
        });
        self
    }
}

/// The `limit` most severe of `all` (errors first; within a severity, the
/// earlier first), in their original order, and how many were left out:
/// `(errors, the others)`. Front ends show these when a file of junk or a
/// generated model produces more diagnostics than anyone reads.
pub fn most_severe(all: &[Diagnostic], limit: usize) -> (Vec<&Diagnostic>, (usize, usize)) {
    if all.len() <= limit {
        return (all.iter().collect(), (0, 0));
    }
    // A stable sort keeps the original order within one severity; the kept
    // ones then go back to their original order.
    let mut ranked: Vec<(usize, &Diagnostic)> = all.iter().enumerate().collect();
    ranked.sort_by_key(|(_, d)| d.severity);
    let left_out = &ranked[limit..];
    let errors = left_out
        .iter()
        .filter(|(_, d)| d.severity == Severity::Error)
        .count();
    let omitted = (errors, left_out.len() - errors);
    ranked.truncate(limit);
    ranked.sort_by_key(|(i, _)| *i);
    (ranked.into_iter().map(|(_, d)| d).collect(), omitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_severe_keeps_errors_first_in_order() {
        let w = |i: u32| Diagnostic::warning(Span::new(i, i), format!("w{i}"));
        let e = |i: u32| Diagnostic::error(Span::new(i, i), format!("e{i}"));
        let all = vec![w(0), e(1), w(2), e(3), w(4)];
        let (kept, omitted) = most_severe(&all, 3);
        let names: Vec<&str> = kept.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(names, ["w0", "e1", "e3"]);
        assert_eq!(omitted, (0, 2));
        let (kept, omitted) = most_severe(&all, 1);
        assert_eq!(kept[0].message, "e1");
        assert_eq!(omitted, (1, 3));
        assert_eq!(most_severe(&all, 5).1, (0, 0));
    }
}
