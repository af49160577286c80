//! One benchmark run's figures (the columns of the papers' tables) and the
//! table they are printed in: Markdown for the docs, JSON for scripts.

use serde::Serialize;

use super::summary::Summary;
use zeno_checker::{CheckResult, Limit, Verdict};

/// The figures of one model × check × configuration run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The model's name.
    pub model: String,
    /// The check's name.
    pub check: String,
    /// The configuration, as `checker::config` spells it.
    pub config: String,
    /// `holds`, `fails`, `model-error`, or `unknown (states|time|cancelled)`.
    pub verdict: String,
    /// States taken from the frontier and expanded.
    pub explored: u64,
    /// Successors computed.
    pub generated: u64,
    /// States kept in the store at the end.
    pub stored: u64,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
    /// The run's peak memory in bytes, as `Stats::peak_memory` reports it.
    pub peak_memory_bytes: u64,
    /// Transitions of the counterexample or witness, if any.
    pub trace_length: Option<usize>,
    /// The thesis' #d: deferred explored states over explored states.
    pub deferred_ratio: f64,
    /// With safe abstraction: the thesis' #s (components removed) and the
    /// trace as `x + y` (reduced network's steps, inserted moves).
    pub safe_removed: Option<u64>,
    /// With safe abstraction: the trace's abstract and completing steps.
    pub trace_split: Option<(u64, u64)>,
    /// States a pattern database proved unable to reach the goal.
    pub pruned: u64,
    /// Pushes and pops per frontier queue (one queue without enhancement).
    pub queue_pushes: Vec<u64>,
    /// With an enhancement: states popped from each queue, in queue order.
    pub queue_pops: Vec<u64>,
    /// Threads the search ran on.
    pub threads: u32,
}

impl Row {
    /// The row of one run's result.
    pub fn new(model: &str, check: &str, config: &str, result: &CheckResult) -> Row {
        let s = &result.stats;
        Row {
            model: model.to_string(),
            check: check.to_string(),
            config: config.to_string(),
            verdict: verdict_name(&result.verdict).to_string(),
            explored: s.explored,
            generated: s.generated,
            stored: s.stored,
            seconds: s.elapsed.as_secs_f64(),
            peak_memory_bytes: s.peak_memory,
            trace_length: result.trace.as_ref().map(|t| t.len()),
            deferred_ratio: s.deferred_ratio(),
            safe_removed: s.safe.as_ref().map(|safe| safe.removed),
            trace_split: s
                .safe
                .as_ref()
                .and_then(|safe| Some((safe.abstract_steps?, safe.inserted_steps?))),
            pruned: s.pruned,
            queue_pushes: s.queue_pushes.clone(),
            queue_pops: s.queue_pops.clone(),
            threads: s.threads.max(1),
        }
    }
}

/// The verdict's word in tables (`holds`, `violated`, …).
pub fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails => "fails",
        Verdict::ModelError(_) => "model-error",
        Verdict::Unknown(Limit::States) => "unknown (states)",
        Verdict::Unknown(Limit::Time) => "unknown (time)",
        Verdict::Unknown(Limit::Cancelled) => "unknown (cancelled)",
        Verdict::Unknown(Limit::Memory) => "unknown (memory)",
        Verdict::Unknown(Limit::ClockRange) => "unknown (clock range)",
        Verdict::Unknown(Limit::Unconfirmed) => "unknown (unconfirmed)",
        Verdict::Unknown(Limit::Stopwatches) => "unknown (stopwatches)",
        Verdict::Unknown(Limit::Peer) => "unknown (peer)",
    }
}

/// The Markdown table's header, one column per field of [`Row`].
pub const HEADER: &str = "| model | check | configuration | verdict | explored | generated | stored | time (s) | peak memory (KiB) | trace | #d | #s | pruned | pushes per queue | pops per queue | threads |\n|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|";

/// One Markdown table line.
pub fn markdown_row(r: &Row) -> String {
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {} | {} | {:.3} | {} | {} | {} | {} | {} |",
        r.model,
        r.check,
        r.config,
        r.verdict,
        r.explored,
        r.generated,
        r.stored,
        r.seconds,
        r.peak_memory_bytes.div_ceil(1024),
        match (r.trace_split, r.trace_length) {
            (Some((x, y)), _) => format!("{x} + {y}"),
            (None, Some(n)) => n.to_string(),
            (None, None) => "-".to_string(),
        },
        r.deferred_ratio,
        r.safe_removed.map_or("-".to_string(), |n| n.to_string()),
        r.pruned,
        per_queue(&r.queue_pushes),
        per_queue(&r.queue_pops),
        r.threads,
    )
}

/// `q0:12 q1:3`, non-empty queues only (`-` when all are empty).
fn per_queue(counts: &[u64]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(q, c)| format!("q{q}:{c}"))
        .collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    }
}

/// The whole table as JSON: `{"rows": [...]}`, with `"summary": {...}`
/// when one is given.
pub fn json(rows: &[Row], summary: Option<&Summary>) -> String {
    let value = match summary {
        None => serde_json::json!({ "rows": rows }),
        Some(summary) => serde_json::json!({ "rows": rows, "summary": summary }),
    };
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_has_one_cell_per_header_column() {
        let r = Row {
            model: "H3".into(),
            check: "solved".into(),
            config: "bfs".into(),
            verdict: "fails".into(),
            explored: 20,
            generated: 50,
            stored: 27,
            seconds: 0.0,
            peak_memory_bytes: 2048,
            trace_length: Some(7),
            deferred_ratio: 0.0,
            safe_removed: None,
            trace_split: None,
            pruned: 0,
            queue_pushes: vec![3, 0, 2],
            queue_pops: vec![],
            threads: 2,
        };
        let header_cells = HEADER.lines().next().unwrap().matches('|').count();
        let line = markdown_row(&r);
        assert_eq!(line.matches('|').count(), header_cells);
        assert!(line.contains("| 2 | 7 |"), "{line}");
        assert!(line.contains("| - | 0 | q0:3 q2:2 | - | 2 |"), "{line}");
        let safe = Row {
            safe_removed: Some(2),
            trace_split: Some((3, 8)),
            ..r
        };
        let line = markdown_row(&safe);
        assert!(line.contains("| 3 + 8 | 0.000 | 2 | 0 |"), "{line}");
    }
}
