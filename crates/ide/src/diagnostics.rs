//! How many diagnostics one document shows.

use zeno_base::diagnostics::{Diagnostic, most_severe};
use zeno_ir::Span;

/// The most diagnostics shown for one document. A megabyte of junk gives
/// tens of thousands, which no one reads and which slow an editor down.
pub const MAX_DIAGNOSTICS: usize = 1000;

/// At most `limit` of `all` (which is sorted by position), errors kept
/// first, still in position order, and when some were left out one more
/// diagnostic at the start of the text saying how many.
pub fn cap_diagnostics(all: Vec<Diagnostic>, limit: usize) -> Vec<Diagnostic> {
    let (kept, (errors, others)) = most_severe(&all, limit);
    if errors + others == 0 {
        return all;
    }
    let total = all.len();
    let summary = Diagnostic::warning(
        Span::new(0, 0),
        format!(
            "{} more diagnostics not shown ({limit} of {total} shown, errors first)",
            errors + others
        ),
    );
    std::iter::once(summary)
        .chain(kept.into_iter().cloned())
        .collect()
}
