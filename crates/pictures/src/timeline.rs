//! A trace drawn as a timeline: one lane per process showing its locations
//! over the steps, synchronisations as vertical connectors between lanes, a
//! time axis with the concrete delays, and a table of variable and clock
//! values after each step (changed values highlighted).

use std::fmt::Write;

use num_rational::Rational64;

use zeno_checker::{ConcreteState, Trace, TraceEnd, Transition};
use zeno_ir::{CheckId, Network, SyncDir};
use zeno_report::Ending;

use super::pretty;
use super::style::{self, esc, num, text_width};
use super::trace_text::{check_role, delayed, edges_of, location_name};

const FONT: f64 = 12.0;
const LANE_H: f64 = 40.0;
const ROW_H: f64 = 20.0;
const MARGIN: f64 = 16.0;

/// One column of the picture: the initial state, a step, or the end.
struct Column {
    time: Rational64,
    delay: Rational64,
    transition: Option<Transition>,
    locations: Vec<u32>,
    variables: Vec<i32>,
    clocks: Vec<Rational64>,
    kind: ColumnKind,
}

#[derive(PartialEq)]
enum ColumnKind {
    Start,
    Step(usize),
    Goal,
    Error(String),
    /// How the trace ends in a word or two (`violation`, `timelock`,
    /// `loop to 2`) and in a sentence, shown when the header is hovered.
    End(String, Option<String>),
}

fn columns(network: &Network, trace: &Trace) -> Vec<Column> {
    let mut cols = Vec::new();
    let state_col = |s: &ConcreteState, time, delay, transition, kind| Column {
        time,
        delay,
        transition,
        locations: s.locations.clone(),
        variables: s.variables.clone(),
        clocks: s.clocks.clone(),
        kind,
    };
    let zero = Rational64::from_integer(0);
    cols.push(state_col(
        &trace.initial,
        zero,
        zero,
        None,
        ColumnKind::Start,
    ));
    let mut time = zero;
    let mut prev = &trace.initial;
    for (k, step) in trace.steps.iter().enumerate() {
        time += step.delay;
        cols.push(state_col(
            &step.after,
            time,
            step.delay,
            Some(step.transition.clone()),
            ColumnKind::Step(k + 1),
        ));
        prev = &step.after;
    }
    match &trace.end {
        TraceEnd::Goal { delay } => {
            let mut c = state_col(prev, time + *delay, *delay, None, ColumnKind::Goal);
            c.clocks = delayed(prev, *delay);
            cols.push(c);
        }
        TraceEnd::ModelError {
            delay,
            transition,
            error,
        } => {
            let mut c = state_col(
                prev,
                time + *delay,
                *delay,
                Some(transition.clone()),
                ColumnKind::Error(zeno_report::describe_error(network, error)),
            );
            c.clocks = delayed(prev, *delay);
            cols.push(c);
        }
        TraceEnd::Loop { delay, start, .. } => {
            let kind = ColumnKind::End(format!("loop to {start}"), None);
            let mut c = state_col(prev, time + *delay, *delay, None, kind);
            c.clocks = delayed(prev, *delay);
            cols.push(c);
        }
        TraceEnd::Deadlock { delay } => {
            let kind = ColumnKind::End("deadlock".to_owned(), None);
            let mut c = state_col(prev, time + *delay, *delay, None, kind);
            c.clocks = delayed(prev, *delay);
            cols.push(c);
        }
        TraceEnd::TimeDiverges => {
            let kind = ColumnKind::End("time diverges".to_owned(), None);
            cols.push(state_col(prev, time, zero, None, kind));
        }
    }
    cols
}

/// The processes taking part in a column's transition.
fn movers(col: &Column) -> Vec<usize> {
    col.transition.as_ref().map_or_else(Vec::new, |t| {
        t.edges.iter().map(|&(p, _)| p as usize).collect()
    })
}

/// The synchronisation label of a transition: the sender's channel (`go!`)
/// or, for a synchronisation vector, the first participant's label (`go`),
/// with an array index evaluated in the state `vars` the transition starts
/// from (`stop[2]!` rather than `stop[list[len - 1]]!`).
fn sync_label(network: &Network, t: &Transition, vars: &[i32]) -> Option<String> {
    let &(p, e) = t.edges.first()?;
    let edge = network.processes.get(p as usize)?.edges.get(e as usize)?;
    let Some(s) = edge.sync.as_ref() else {
        // A synchronisation vector: the first participant's action label.
        return edge.label.clone().filter(|_| t.edges.len() > 1);
    };
    let dir = match s.dir {
        SyncDir::Send => '!',
        SyncDir::Receive => '?',
    };
    match s
        .channel
        .resolve(vars)
        .ok()
        .and_then(|c| network.channels.get(c as usize))
    {
        Some(ch) => Some(format!("{}{dir}", ch.name)),
        None => Some(pretty::sync(network, s)),
    }
}

/// The trace as a self-contained SVG timeline. `check` indexes
/// `network.checks` and only names the picture (`A[]` counterexample or
/// `E<>` witness).
pub fn trace_svg(network: &Network, check: CheckId, trace: &Trace) -> String {
    let ending = zeno_simulate::ending(network, network.check(check), trace);
    timeline_svg(network, check_role(network, check), trace, Some(&ending))
}

/// A run made by hand in the simulator as a timeline: the same picture,
/// titled as a run, not as a check's trace.
pub fn run_svg(network: &Network, trace: &Trace) -> String {
    timeline_svg(
        network,
        ("simulation".to_string(), "(by hand)", "run"),
        trace,
        None,
    )
}

/// The picture, under the title `NAME KIND: ROLE, N step(s), total time T`.
fn timeline_svg(
    network: &Network,
    (name, kind, role): (String, &'static str, &'static str),
    trace: &Trace,
    ending: Option<&Ending>,
) -> String {
    let (trace, unit) = super::trace_text::in_model_time(network, trace);
    let mut cols = columns(network, &trace);
    // The last column says why the trace ends (a run by hand just stops).
    if let Some(last) = cols.last_mut()
        && matches!(last.kind, ColumnKind::Goal | ColumnKind::End(..))
    {
        last.kind = match ending {
            Some(e) => ColumnKind::End(e.label(), Some(e.event(None))),
            None => ColumnKind::End("now".to_string(), None),
        };
    }
    let n_proc = network.processes.len();
    let var_names: Vec<String> = network.variables.iter().map(|v| v.name.clone()).collect();
    let clock_names: Vec<String> = (1..network.clocks.len())
        .map(|c| pretty::clock_name(network, c as u32))
        .collect();

    // Widths: the left column holds names, every step column the widest
    // text that can appear in it.
    let mut left: f64 = 80.0;
    for n in network
        .processes
        .iter()
        .map(|p| &p.name)
        .chain(&var_names)
        .chain(&clock_names)
    {
        left = left.max(text_width(n, FONT) + 2.0 * MARGIN);
    }
    let mut colw: f64 = 70.0;
    for p in &network.processes {
        for l in &p.locations {
            colw = colw.max(text_width(&l.name, FONT) + 28.0);
        }
    }
    for (i, c) in cols.iter().enumerate() {
        colw = colw.max(text_width(&format!("t = {}", c.time), FONT) + 16.0);
        for v in c.clocks.iter().map(|v| v.to_string()) {
            colw = colw.max(text_width(&v, FONT) + 16.0);
        }
        if let Some(t) = &c.transition
            && let Some(s) = sync_label(network, t, &cols[i.saturating_sub(1)].variables)
        {
            colw = colw.max(text_width(&s, FONT) + 24.0);
        }
    }
    let colw = colw.min(260.0);
    let x_of = |c: usize| left + colw * (c as f64 + 0.5);
    // The lanes and the time axis span the same columns, so they are ruled
    // alike.
    let rule = |out: &mut String, y: f64, stroke: &str, stroke_width: &str| {
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{stroke}\" stroke-width=\"{stroke_width}\"/>",
            num(x_of(0)),
            num(x_of(cols.len() - 1)),
        );
    };
    let width = left + colw * cols.len() as f64 + MARGIN;

    let title_y = 24.0;
    let header_y = 56.0;
    let lanes_top = 76.0;
    let lane_y = |p: usize| lanes_top + LANE_H * (p as f64 + 0.5);
    let axis_y = lanes_top + LANE_H * n_proc as f64 + 14.0;
    let table_top = axis_y + 44.0;
    let n_rows = var_names.len() + clock_names.len();
    let section_gap = if var_names.is_empty() || clock_names.is_empty() {
        0.0
    } else {
        8.0
    };
    let height = table_top + ROW_H * n_rows as f64 + section_gap + MARGIN;

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{}\" font-size=\"{FONT}\">",
        style::FONT_SVG,
        w = num(width),
        h = num(height),
    );
    let _ = writeln!(
        out,
        "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>",
        style::BACKGROUND
    );
    let total = cols.last().map_or(Rational64::from_integer(0), |c| c.time);
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{title_y}\" font-size=\"15\" font-weight=\"bold\" fill=\"{}\">{}</text>",
        num(MARGIN),
        style::INK,
        esc(&format!(
            "{name} {kind}: {role}, {} step(s), total time {total}{unit}",
            trace.len()
        ))
    );

    // Step separators behind everything.
    for c in 0..cols.len() {
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#e4e4e4\" stroke-dasharray=\"3,3\"/>",
            num(header_y + 8.0),
            num(height - MARGIN),
            x = num(x_of(c))
        );
    }

    // Column headers.
    for (c, col) in cols.iter().enumerate() {
        let (text, color) = match &col.kind {
            ColumnKind::Start => ("start".to_owned(), style::MUTED),
            ColumnKind::Step(k) => (k.to_string(), style::TRACE),
            ColumnKind::Goal => ("goal".to_owned(), style::MUTED),
            ColumnKind::Error(_) => ("error".to_owned(), style::ERROR),
            ColumnKind::End(words, _) => (words.clone(), style::MUTED),
        };
        if let ColumnKind::Step(_) = col.kind {
            continue; // drawn with the step below
        }
        let title = match &col.kind {
            ColumnKind::End(_, Some(why)) => format!("<title>{}</title>", esc(why)),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{color}\" font-weight=\"bold\">{title}{}</text>",
            num(x_of(c)),
            num(header_y + 4.0),
            esc(&text)
        );
    }

    // Lanes: name, then one segment per stay in a location.
    for (p, proc) in network.processes.iter().enumerate() {
        let y = lane_y(p);
        let _ = writeln!(
            out,
            "<g class=\"lane\" id=\"{}\">",
            esc(&format!("lane {}", proc.name))
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-weight=\"bold\" fill=\"{}\">{}</text>",
            num(MARGIN),
            num(y + 4.0),
            style::INK,
            esc(&proc.name)
        );
        rule(&mut out, y, style::FRAME, "1");
        let mut start = 0;
        while start < cols.len() {
            // The stay ends at the next column in which this process moves.
            let mut end = start + 1;
            while end < cols.len() && !movers(&cols[end]).contains(&p) {
                end += 1;
            }
            let x1 = x_of(start) + 8.0;
            let x2 = if end < cols.len() {
                x_of(end) - 8.0
            } else {
                x_of(cols.len() - 1) + colw / 2.0 - 6.0
            };
            let loc = cols[start].locations.get(p).copied().unwrap_or(0);
            let lname = location_name(network, p, loc);
            let _ = writeln!(
                out,
                "<rect class=\"stay\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"24\" rx=\"12\" fill=\"{}\" stroke=\"{}\"/>",
                num(x1),
                num(y - 12.0),
                num((x2 - x1).max(4.0)),
                style::TRACE_FILL,
                style::TRACE
            );
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
                num((x1 + x2) / 2.0),
                num(y + 4.0),
                style::INK,
                esc(&lname)
            );
            start = end;
        }
        let _ = writeln!(out, "</g>");
    }

    // Steps: the number, a dot on each lane taking part, and for a
    // synchronisation a connector joining the lanes.
    for (c, col) in cols.iter().enumerate() {
        let Some(t) = &col.transition else { continue };
        let x = x_of(c);
        let color = if matches!(col.kind, ColumnKind::Error(_)) {
            style::ERROR
        } else {
            style::TRACE
        };
        let ps = movers(col);
        let detail: Vec<String> = edges_of(network, t)
            .iter()
            .map(|e| {
                format!(
                    "{}: {} -> {} {}",
                    e.process_name,
                    e.source,
                    e.target,
                    e.label.join("; ")
                )
            })
            .collect();
        let _ = writeln!(out, "<g class=\"step\">");
        let _ = writeln!(out, "<title>{}</title>", esc(&detail.join("\n")));
        if let ColumnKind::Step(k) = col.kind {
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"10\" fill=\"{color}\"/>",
                num(x),
                num(header_y)
            );
            let _ = writeln!(
                out,
                "<text class=\"step-number\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#ffffff\" font-weight=\"bold\" font-size=\"11\">{k}</text>",
                num(x),
                num(header_y + 4.0)
            );
        }
        if ps.len() >= 2 {
            let top = ps.iter().copied().min().unwrap_or(0);
            let bottom = ps.iter().copied().max().unwrap_or(0);
            let _ = writeln!(out, "<g class=\"sync\">");
            let _ = writeln!(
                out,
                "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{color}\" stroke-width=\"3\"/>",
                num(lane_y(top)),
                num(lane_y(bottom)),
                x = num(x)
            );
            if let Some(s) = sync_label(network, t, &cols[c.saturating_sub(1)].variables) {
                // In the gap below the top lane, clear of the location boxes.
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" fill=\"{color}\" paint-order=\"stroke\" stroke=\"{}\" stroke-width=\"4\">{}</text>",
                    num(x + 8.0),
                    num(lane_y(top) + LANE_H / 2.0 + 4.0),
                    style::BACKGROUND,
                    esc(&s)
                );
            }
            let _ = writeln!(out, "</g>");
        }
        for p in ps {
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{color}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                num(x),
                num(lane_y(p)),
                style::BACKGROUND
            );
        }
        let _ = writeln!(out, "</g>");
    }

    // The time axis: absolute times at the ticks, delays between them.
    let _ = writeln!(out, "<g class=\"axis\">");
    rule(&mut out, axis_y, style::INK, "1.5");
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" fill=\"{}\">time</text>",
        num(MARGIN),
        num(axis_y + 18.0),
        style::MUTED
    );
    for (c, col) in cols.iter().enumerate() {
        let x = x_of(c);
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
            num(axis_y - 4.0),
            num(axis_y + 4.0),
            style::INK,
            x = num(x)
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
            num(x),
            num(axis_y + 18.0),
            style::INK,
            esc(&format!("t = {}", col.time))
        );
        if c > 0 {
            let d = col.delay;
            let color = if d == Rational64::from_integer(0) {
                style::MUTED
            } else {
                style::TRACE
            };
            let _ = writeln!(
                out,
                "<text class=\"delay\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"{color}\">{}</text>",
                num(x - colw / 2.0),
                num(axis_y - 6.0),
                esc(&format!("+{d}"))
            );
        }
    }
    let _ = writeln!(out, "</g>");

    // Values after each step; a change from the previous column is highlighted.
    let _ = writeln!(out, "<g class=\"values\">");
    let mut row_y = table_top;
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    for (i, n) in var_names.iter().enumerate() {
        rows.push((
            n.clone(),
            cols.iter()
                .map(|c| c.variables.get(i).map_or(String::new(), |v| v.to_string()))
                .collect(),
        ));
    }
    let n_vars = rows.len();
    for (k, n) in clock_names.iter().enumerate() {
        rows.push((
            n.clone(),
            cols.iter()
                .map(|c| c.clocks.get(k + 1).map_or(String::new(), |v| v.to_string()))
                .collect(),
        ));
    }
    for (r, (label, values)) in rows.iter().enumerate() {
        if r == n_vars && r > 0 {
            row_y += section_gap;
        }
        let is_clock = r >= n_vars;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" fill=\"{}\" font-family=\"{}\">{}</text>",
            num(MARGIN),
            num(row_y + 14.0),
            if is_clock { style::MUTED } else { style::INK },
            style::FONT_MONO,
            esc(label)
        );
        for (c, v) in values.iter().enumerate() {
            // Clocks change by themselves; only variable changes are news.
            let changed = !is_clock && c > 0 && values[c - 1] != *v;
            if changed {
                let _ = writeln!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\"/>",
                    num(x_of(c) - colw / 2.0 + 4.0),
                    num(row_y + 1.0),
                    num(colw - 8.0),
                    num(ROW_H - 2.0),
                    style::CHANGED_FILL
                );
            }
            let weight = if changed { " font-weight=\"bold\"" } else { "" };
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\" font-family=\"{}\"{weight}>{}</text>",
                num(x_of(c)),
                num(row_y + 14.0),
                if is_clock { style::MUTED } else { style::INK },
                style::FONT_MONO,
                esc(v)
            );
        }
        row_y += ROW_H;
    }
    let _ = writeln!(out, "</g>");
    if let Some(ColumnKind::Error(e)) = cols.last().map(|c| &c.kind) {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{}\">{}</text>",
            num(width - MARGIN),
            num(title_y),
            style::ERROR,
            esc(e)
        );
    }
    out.push_str("</svg>\n");
    out
}
