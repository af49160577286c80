//! How many diagnostics one document shows.

use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::Span;

/// The most diagnostics shown for one document. A megabyte of junk gives
/// tens of thousands, which no one reads and which slow an editor down.
pub const MAX_DIAGNOSTICS: usize = 1000;

/// At most `limit` of `all` (which is sorted by position), errors kept
/// first, still in position order, and when some were left out one more
/// diagnostic at the start of the text saying how many.
pub fn cap_diagnostics(all: Vec<Diagnostic>, limit: usize) -> Vec<Diagnostic> {
    if all.len() <= limit {
        return all;
    }
    let total = all.len();
    // Keep the most severe: a stable sort keeps the position order within
    // one severity; then put the kept ones back in position order.
    let mut ranked: Vec<(usize, Diagnostic)> = all.into_iter().enumerate().collect();
    ranked.sort_by_key(|(_, d)| rank(d.severity));
    ranked.truncate(limit);
    ranked.sort_by_key(|(i, _)| *i);
    let mut kept: Vec<Diagnostic> = ranked.into_iter().map(|(_, d)| d).collect();
    let summary = Diagnostic::warning(
        Span::new(0, 0),
        format!(
            "{} more diagnostics not shown ({limit} of {total} shown, errors first)",
            total - limit
        ),
    );
    kept.insert(0, summary);
    kept
}

fn rank(s: Severity) -> u8 {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
        Severity::Hint => 3,
    }
}
