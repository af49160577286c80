//! `textDocument/foldingRange`: a range per template body spanning
//! several lines.

use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind};

use crate::snapshot::Snapshot;

pub fn folding_ranges(s: &Snapshot) -> Vec<FoldingRange> {
    s.analysis
        .folding()
        .into_iter()
        .filter_map(|span| {
            let r = s.range(span);
            (r.end.line > r.start.line).then_some(FoldingRange {
                start_line: r.start.line,
                start_character: None,
                end_line: r.end.line,
                end_character: None,
                kind: Some(FoldingRangeKind::Region),
                collapsed_text: None,
            })
        })
        .collect()
}
