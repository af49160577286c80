//! Diagnostics shared by every layer: syntax, semantics, importers and checker
//! results all speak this type, and the CLI and the language server render it.

use crate::text::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

/// A message about a range of a source text, with optional related ranges
/// ("first defined here", "step 3 of the trace").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub range: Span,
    pub related: Vec<Related>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub range: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn error(range: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            range,
            related: Vec::new(),
        }
    }

    pub fn warning(range: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(range, message)
        }
    }

    pub fn with_related(mut self, range: Span, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            range,
            message: message.into(),
        });
        self
    }
}
