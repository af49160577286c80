//! The human-readable output of `zeno check`.

use std::fmt::Write;

use zeno::report::NamedValue;

use super::args::TraceDetail;
use super::report::{
    Binding, CheckReport, EdgeReport, EndReport, FileReport, SafeReport, StateReport, StatsReport,
};

/// The report of one file: a header line, then each check (`check::run`
/// prints the same, but streams it check by check).
#[cfg(test)]
pub fn file(report: &FileReport, detail: TraceDetail) -> String {
    let mut out = String::new();
    if report.checks.is_empty() {
        return out;
    }
    out.push_str(&header(report));
    for c in &report.checks {
        out.push_str(&check(report, c, detail));
    }
    out
}

/// A file's first line, its path, and one line per query file read for it.
pub fn header(file: &FileReport) -> String {
    let mut out = format!("{}\n", file.path);
    for q in &file.query_files {
        let how = if q.beside_model {
            "found beside the model; --no-queries-file skips it"
        } else {
            "--queries"
        };
        let _ = writeln!(out, "  queries from {} ({how})", q.path);
    }
    out
}

/// The line under a check's or query's name: its formula as written,
/// where it is when that is another file than the model, and its comment.
fn formula_line(formula: &str, at: Option<String>, comment: Option<&str>) -> String {
    let mut line = format!("    {formula}");
    if let Some(at) = at {
        let _ = write!(line, "   at {at}");
    }
    if let Some(c) = comment {
        let _ = write!(line, "   // {c}");
    }
    line.push('\n');
    line
}

/// The queries of a file that are not checked, each with why and where.
pub fn not_checked(file: &FileReport) -> String {
    let mut out = String::new();
    for n in &file.not_checked {
        match (&n.error, n.construct) {
            (Some(e), _) => {
                let _ = writeln!(out, "  {}: not checked: error: {e}", n.name);
            }
            (None, Some(c)) => {
                let _ = writeln!(out, "  {}: not checked: {} (`{c}`)", n.name, n.reason);
            }
            (None, None) => {
                let _ = writeln!(out, "  {}: not checked: {}", n.name, n.reason);
            }
        }
        let at = format!("{}:{}:{}", n.path, n.range.start.line, n.range.start.column);
        out.push_str(&formula_line(&n.formula, Some(at), n.comment.as_deref()));
    }
    out
}

/// One check: verdict line, formula, statistics, trace.
pub fn check(file: &FileReport, c: &CheckReport, detail: TraceDetail) -> String {
    let mut out = String::new();
    // `--trace none` asked for no trace: that a limit kept one from being
    // built is no news (JSON still names the limit).
    let summary = match c.summary.split_once(" — no trace: ") {
        Some((verdict, _)) if detail == TraceDetail::None => verdict,
        _ => c.summary.as_str(),
    };
    let _ = writeln!(out, "  {}: {summary}", c.name);
    let at = c
        .path
        .as_ref()
        .map(|p| format!("{p}:{}:{}", c.range.start.line, c.range.start.column));
    out.push_str(&formula_line(&c.formula, at, c.comment.as_deref()));
    if let Some(w) = &c.portfolio_winner {
        let _ = writeln!(out, "    portfolio winner: {w}");
    }
    let _ = writeln!(out, "    {}", stats(&c.stats));
    if let Some(s) = &c.stats.safe {
        let _ = writeln!(out, "    {}", safe(s));
    }
    if let Some(note) = &c.stats.reduce_note {
        let _ = writeln!(out, "    --reduce por: {note}");
    }
    let Some(trace) = c.trace.as_ref().filter(|_| detail != TraceDetail::None) else {
        return out;
    };
    let full = detail == TraceDetail::Full;
    if full {
        let _ = writeln!(out, "    0. initial: {}", state(&trace.initial));
    }
    for (i, step) in trace.steps.iter().enumerate() {
        if trace.loop_start == Some(i) {
            let _ = writeln!(out, "    -- cycle: the steps below repeat forever --");
        }
        let _ = writeln!(
            out,
            "    {}. delay {}: {}",
            i + 1,
            step.delay,
            edges(&step.edges)
        );
        if full {
            for e in &step.edges {
                let _ = writeln!(out, "       at {}: {}", location(file, e), e.text);
            }
            let _ = writeln!(out, "       state: {}", state(&step.after));
        }
    }
    let why = &trace.ending.words;
    match &trace.end {
        EndReport::Goal { delay }
        | EndReport::Loop { delay, .. }
        | EndReport::Deadlock { delay } => {
            let _ = writeln!(out, "    then delay {delay}: {why}");
        }
        EndReport::TimeDiverges => {
            let _ = writeln!(out, "    then {why}");
        }
        EndReport::ModelError {
            delay,
            edges: es,
            error,
            ..
        } => {
            // No edges: the check's own formula cannot be evaluated there.
            let what = match es.is_empty() {
                true => "the check's formula".to_string(),
                false => edges(es),
            };
            let _ = writeln!(out, "    then delay {delay}: {what} fails: {error}");
            if full {
                for e in es {
                    let _ = writeln!(out, "       at {}: {}", location(file, e), e.text);
                }
            }
        }
    }
    out
}

fn location(file: &FileReport, e: &EdgeReport) -> String {
    format!(
        "{}:{}:{}",
        file.path, e.range.start.line, e.range.start.column
    )
}

/// `explored 10 states, generated 12, stored 9, 0.004 s, peak memory 1.5 KiB`,
/// with `, 4 threads` after the time when the search ran on several.
pub fn stats(s: &StatsReport) -> String {
    let threads = if s.threads > 1 {
        format!(", {} threads", s.threads)
    } else {
        String::new()
    };
    let after = match (s.breadth_first_after, s.decided_by, s.explored_alongside) {
        (Some(n), _, _) => format!(" (breadth-first, after {n} states of best-first search)"),
        // Nothing said when the others never ran (best-first search
        // decided in its first slice).
        (None, Some(by), Some(n)) if n > 0 => format!(
            " (decided by {by}; {n} more {} explored alongside)",
            if n == 1 { "state" } else { "states" }
        ),
        _ => String::new(),
    };
    let after = match &s.symmetry {
        Some(zeno::checker::SymmetryUse::Reduced(sets)) => {
            format!("{after}; symmetry reduction over {}", sets.join(", "))
        }
        Some(zeno::checker::SymmetryUse::Off(why)) => {
            format!("{after}; no symmetry reduction: {why}")
        }
        None => after,
    };
    format!(
        "explored {} {}, generated {}, stored {}, {:.3} s{threads}, peak memory {}{after}",
        s.explored,
        if s.explored == 1 { "state" } else { "states" },
        s.generated,
        s.stored,
        s.time_seconds,
        bytes(s.peak_memory_bytes)
    )
}

/// `safe abstraction: 2 components removed, trace 5 + 3`
pub fn safe(s: &SafeReport) -> String {
    let mut out = format!(
        "safe abstraction: {} {} removed",
        s.removed,
        if s.removed == 1 {
            "component"
        } else {
            "components"
        }
    );
    if let (Some(x), Some(y)) = (s.abstract_steps, s.inserted_steps) {
        let _ = write!(out, ", trace {x} + {y}");
    }
    if s.fell_back {
        out.push_str(", trace not completed: searched the original network");
    }
    out
}

pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// `P(1): idle -> req (c!), Q: a -> b (c?)`
pub fn edges(es: &[EdgeReport]) -> String {
    let parts: Vec<String> = es
        .iter()
        .map(|e| {
            let mut s = format!("{}: {} -> {}", e.process, e.source, e.target);
            if !e.selects.is_empty() {
                let b: Vec<String> = e.selects.iter().map(Binding::to_string).collect();
                let _ = write!(s, " {{{}}}", b.join(", "));
            }
            if let Some(sync) = &e.sync {
                let _ = write!(s, " ({sync})");
            }
            s
        })
        .collect();
    parts.join(", ")
}

/// `P(1).req, P(2).idle; id = 1; P(1).x = 3/2`
pub fn state(s: &StateReport) -> String {
    let mut parts = vec![
        s.locations
            .iter()
            .map(|l| format!("{}.{}", l.process, l.location))
            .collect::<Vec<_>>()
            .join(", "),
    ];
    if !s.variables.is_empty() {
        let v: Vec<String> = s.variables.iter().map(Binding::to_string).collect();
        parts.push(v.join(", "));
    }
    if !s.clocks.is_empty() {
        let c: Vec<String> = s.clocks.iter().map(NamedValue::to_string).collect();
        parts.push(c.join(", "));
    }
    parts.join("; ")
}
