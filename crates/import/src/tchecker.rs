//! TChecker's declaration format: `system:`, `event:`, `process:`, `int:`,
//! `clock:`, `location:`, `edge:`, `sync:` lines.
//!
//! Processes become parameterless templates with one instance each.
//! Binary synchronisation vectors become one channel each (first participant
//! sends, second receives), as zeno's handshakes are exactly that; vectors
//! with three or more participants or with weak (`?`) participants become
//! zeno synchronisation vectors over edge labels (`sync P.a, Q.b, R.c?;`).

use super::context::Context;
use super::expr::{Parser, print};
use super::lex::{Cursor, tokenize};
use super::model::{Check, Edge, EdgeOrigins, Location, Model, Template, extend_traced};
use super::{Sink, is_ident};
use std::collections::HashSet;
use std::rc::Rc;
use zeno_ir::Span;

/// A piece of a line with its offset in the file.
#[derive(Debug, Clone, Copy)]
struct Part<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Part<'a> {
    fn span(&self) -> Span {
        Span::new(self.at as u32, (self.at + self.text.len()) as u32)
    }

    fn trim(self) -> Part<'a> {
        let lead = self.text.len() - self.text.trim_start().len();
        Part {
            text: self.text.trim(),
            at: self.at + lead,
        }
    }

    fn split(self, sep: char) -> Vec<Part<'a>> {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, c) in self.text.char_indices() {
            if c == sep {
                out.push(Part {
                    text: &self.text[start..i],
                    at: self.at + start,
                });
                start = i + 1;
            }
        }
        out.push(Part {
            text: &self.text[start..],
            at: self.at + start,
        });
        out
    }

    fn cursor(&self, cx: &Rc<Context>) -> Result<Cursor, (Span, String)> {
        let at = self.at;
        tokenize(self.text, &|i| (at + i) as u32).map(|toks| Cursor::new(toks, cx))
    }
}

struct TLoc {
    name: String,
    loc: Location,
    labels: Vec<String>,
}

struct TEdge {
    src: String,
    dst: String,
    event: String,
    guard: Option<String>,
    updates: Vec<String>,
    span: Span,
    /// The `provided:` and `do:` values in the file.
    guard_at: Option<Span>,
    updates_at: Option<Span>,
}

#[derive(Default)]
struct TProc {
    name: String,
    span: Span,
    locs: Vec<TLoc>,
    edges: Vec<TEdge>,
}

struct SyncVec {
    parts: Vec<(String, String, bool)>,
}

pub(crate) fn read(
    text: &str,
    labels: &[String],
    cx: &Rc<Context>,
    sink: &mut Sink,
) -> Option<Model> {
    let mut model = Model::default();
    let mut procs: Vec<TProc> = Vec::new();
    let mut events: HashSet<String> = HashSet::new();
    let mut syncs: Vec<SyncVec> = Vec::new();
    let mut used: HashSet<String> = HashSet::new();
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let line_at = offset;
        offset += raw.len();
        let line = raw.split('#').next().unwrap_or("");
        let part = Part {
            text: line.trim_end(),
            at: line_at,
        }
        .trim();
        if part.text.is_empty() {
            continue;
        }
        if let Err((span, msg)) = statement(
            part,
            &mut model,
            &mut procs,
            &mut events,
            &mut syncs,
            &mut used,
            cx,
        ) {
            sink.error(span, msg);
        }
    }
    // Channels for binary vectors; n-ary and weak ones become vectors over
    // edge labels, one label per event (named apart from every global).
    let mut chans: Vec<Option<String>> = Vec::new();
    let mut label_of: std::collections::HashMap<String, String> = Default::default();
    for v in &syncs {
        if is_vector(v) {
            for (_, ev, _) in &v.parts {
                if !label_of.contains_key(ev) {
                    let name = fresh_name(&mut used, cx.name(ev));
                    label_of.insert(ev.clone(), name);
                }
            }
            chans.push(None);
            continue;
        }
        let (e1, e2) = (&v.parts[0].1, &v.parts[1].1);
        let base = if e1 == e2 {
            cx.name(e1)
        } else if let Some(c) = e1.strip_suffix("_snd")
            && e2.strip_suffix("_rcv") == Some(c)
        {
            // zeno's exporter writes channel `c` as the events `c_snd` and
            // `c_rcv`: naming it back `c` makes export → import stable.
            cx.name(c)
        } else {
            format!("{}_{}", cx.name(e1), cx.name(e2))
        };
        let name = fresh_name(&mut used, base);
        model.globals.push(format!("chan {name};"));
        chans.push(Some(name));
    }
    for p in &procs {
        let mut t = Template {
            name: cx.name(&p.name),
            origin: Some(p.span),
            ..Template::default()
        };
        let inits = p.locs.iter().filter(|l| l.loc.init).count();
        if inits != 1 {
            sink.error(
                p.span,
                format!(
                    "process `{}` has {inits} initial locations (needs exactly one)",
                    p.name
                ),
            );
        }
        for l in &p.locs {
            t.locations.push(Location {
                name: l.loc.name.clone(),
                init: l.loc.init,
                urgent: l.loc.urgent,
                committed: l.loc.committed,
                invariant: l.loc.invariant.clone(),
                invariant_origin: l.loc.invariant_origin,
                origin: l.loc.origin,
            });
        }
        for e in &p.edges {
            if !events.contains(&e.event) {
                sink.error(e.span, format!("undeclared event `{}`", e.event));
            }
            for (name, what) in [(&e.src, "source"), (&e.dst, "target")] {
                if !p.locs.iter().any(|l| l.name == *name) {
                    sink.error(
                        e.span,
                        format!(
                            "{what} location `{name}` is not declared in process `{}`",
                            p.name
                        ),
                    );
                }
            }
            let base = Edge {
                src: cx.name(&e.src),
                dst: cx.name(&e.dst),
                guard: e.guard.clone(),
                updates: e.updates.clone(),
                origins: EdgeOrigins {
                    whole: Some(e.span),
                    guard: e.guard_at,
                    updates: e.updates_at,
                    ..EdgeOrigins::default()
                },
                ..Edge::default()
            };
            let mut synced = false;
            let mut labelled = false;
            for (v, chan) in syncs.iter().zip(&chans) {
                let Some(k) = v
                    .parts
                    .iter()
                    .position(|(pp, ev, _)| *pp == p.name && *ev == e.event)
                else {
                    continue;
                };
                synced = true;
                if let Some(c) = chan {
                    let mut ed = base.clone();
                    ed.sync = Some(format!("{c}{}", if k == 0 { "!" } else { "?" }));
                    t.edges.push(ed);
                } else if !labelled {
                    // One labelled copy serves every vector naming the event.
                    labelled = true;
                    let mut ed = base.clone();
                    ed.sync = label_of.get(&e.event).cloned();
                    t.edges.push(ed);
                }
            }
            if !synced {
                t.edges.push(base);
            }
        }
        model.system.push(t.name.clone());
        model.templates.push(t);
    }
    for v in syncs.iter().filter(|v| is_vector(v)) {
        let parts: Vec<String> = v
            .parts
            .iter()
            .map(|(p, ev, weak)| {
                let label = label_of.get(ev).map_or("", String::as_str);
                format!("{}.{label}{}", cx.name(p), if *weak { "?" } else { "" })
            })
            .collect();
        model.vectors.push(format!("sync {};", parts.join(", ")));
    }
    if !labels.is_empty() {
        let mut conj = Vec::new();
        for lab in labels {
            let holders: Vec<String> = procs
                .iter()
                .flat_map(|p| {
                    p.locs
                        .iter()
                        .filter(|l| l.labels.contains(lab))
                        .map(move |l| format!("{}.{}", cx.name(&p.name), l.loc.name))
                })
                .collect();
            match holders.len() {
                0 => sink.error(
                    Span::default(),
                    format!("no location carries the label `{lab}`"),
                ),
                1 => conj.push(holders[0].clone()),
                _ => conj.push(format!("({})", holders.join(" || "))),
            }
        }
        model.checks.push(Check {
            comment: vec![format!("reachability of the labels {}", labels.join(", "))],
            name: "labels".into(),
            formula: Some(format!("E<> {}", conj.join(" && "))),
            formula_origin: None,
        });
    }
    Some(model)
}

/// `base`, or `base_2`, `base_3`, … if taken; the result is marked taken.
fn fresh_name(used: &mut HashSet<String>, base: String) -> String {
    let mut name = base.clone();
    let mut k = 2;
    while used.contains(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    used.insert(name.clone());
    name
}

/// A vector that is not a binary handshake: three or more participants, or
/// a weak one.
fn is_vector(v: &SyncVec) -> bool {
    v.parts.len() != 2 || v.parts.iter().any(|p| p.2)
}

fn expr_text(p: Part, cx: &Rc<Context>) -> Result<String, (Span, String)> {
    let mut c = p.cursor(cx)?;
    let e = Parser { c: &mut c }.expr()?;
    c.expect_eof("in the expression")?;
    Ok(print(&e, cx))
}

/// `x=0;y=y+1`: statements separated by `;` (`nop` is dropped).
fn statements(p: Part, cx: &Rc<Context>) -> Result<Vec<String>, (Span, String)> {
    let mut c = p.cursor(cx)?;
    let mut out = Vec::new();
    while !c.at_eof() {
        if c.eat(";") {
            continue;
        }
        if c.eat_kw("nop") {
            continue;
        }
        for kw in ["if", "while", "local"] {
            if c.at_kw(kw) {
                return Err((c.span(), format!("`{kw}` statements are not supported")));
            }
        }
        let e = Parser { c: &mut c }.expr()?;
        out.push(print(&e, cx));
        if !c.at_eof() {
            c.expect(";")?;
        }
    }
    Ok(out)
}

/// `key:value : key:value`.
fn attributes(p: Part) -> Result<Vec<(Part, Part)>, (Span, String)> {
    let p = p.trim();
    if p.text.is_empty() {
        return Ok(Vec::new());
    }
    let items = p.split(':');
    if !items.len().is_multiple_of(2) {
        return Err((
            p.span(),
            "malformed attributes: expected `key:value` pairs separated by ` : `".into(),
        ));
    }
    Ok(items
        .chunks(2)
        .map(|kv| (kv[0].trim(), kv[1].trim()))
        .collect())
}

fn number(p: Part) -> Result<i64, (Span, String)> {
    p.trim().text.parse().map_err(|_| {
        (
            p.span(),
            format!("expected an integer, found `{}`", p.text.trim()),
        )
    })
}

fn statement(
    line: Part,
    model: &mut Model,
    procs: &mut Vec<TProc>,
    events: &mut HashSet<String>,
    syncs: &mut Vec<SyncVec>,
    used: &mut HashSet<String>,
    cx: &Rc<Context>,
) -> Result<(), (Span, String)> {
    let (head, attrs) = match line.text.find('{') {
        Some(i) => {
            if !line.text.ends_with('}') {
                return Err((
                    line.span(),
                    "missing `}` at the end of the attributes".into(),
                ));
            }
            (
                Part {
                    text: &line.text[..i],
                    at: line.at,
                },
                Part {
                    text: &line.text[i + 1..line.text.len() - 1],
                    at: line.at + i + 1,
                },
            )
        }
        None => (
            line,
            Part {
                text: "",
                at: line.at + line.text.len(),
            },
        ),
    };
    let fields: Vec<Part> = head.split(':').into_iter().map(Part::trim).collect();
    let kind = fields[0].text;
    // Every field but the kind and numbers is a name zeno must be able to use.
    for f in &fields[1..] {
        let plain = f.text.strip_suffix('?').unwrap_or(f.text);
        let ok = plain
            .split('@')
            .all(|n| is_ident(n) || n.parse::<i64>().is_ok());
        if !ok {
            return Err((f.span(), format!("`{}` is not a name zeno can use", f.text)));
        }
    }
    let want = |n: usize| -> Result<(), (Span, String)> {
        if fields.len() == n {
            Ok(())
        } else {
            Err((
                head.span(),
                format!(
                    "`{kind}` declaration needs {} fields separated by `:`, found {}",
                    n - 1,
                    fields.len() - 1
                ),
            ))
        }
    };
    // Each global declaration comes from this line.
    let globals_before = model.globals.len();
    let proc_of = |procs: &mut Vec<TProc>, name: Part| -> Result<usize, (Span, String)> {
        procs
            .iter()
            .position(|p| p.name == name.text)
            .ok_or_else(|| (name.span(), format!("undeclared process `{}`", name.text)))
    };
    match kind {
        "system" => {
            want(2)?;
            model.header.push(format!(
                "imported from the TChecker system `{}`",
                fields[1].text
            ));
        }
        "event" => {
            want(2)?;
            events.insert(fields[1].text.to_string());
        }
        "process" => {
            want(2)?;
            used.insert(cx.name(fields[1].text));
            procs.push(TProc {
                name: fields[1].text.to_string(),
                span: line.span(),
                ..TProc::default()
            });
        }
        "int" => {
            want(6)?;
            let size = number(fields[1])?;
            let (lo, hi, init) = (number(fields[2])?, number(fields[3])?, number(fields[4])?);
            let name = cx.name(fields[5].text);
            used.insert(name.clone());
            if size == 1 {
                model
                    .globals
                    .push(format!("int[{lo}, {hi}] {name} = {init};"));
            } else {
                let default = if lo <= 0 && 0 <= hi { 0 } else { lo };
                if init == default {
                    model
                        .globals
                        .push(format!("int[{lo}, {hi}] {name}[{size}];"));
                } else {
                    // Every element starts at `init`: an initialiser lists it
                    // `size` times (a size beyond zeno's array limit is
                    // reported when the model is read).
                    let count = usize::try_from(size).unwrap_or(0).min(100_000);
                    let values = vec![init.to_string(); count].join(", ");
                    model
                        .globals
                        .push(format!("int[{lo}, {hi}] {name}[{size}] = {{ {values} }};"));
                }
            }
        }
        "clock" => {
            want(3)?;
            let size = number(fields[1])?;
            let name = cx.name(fields[2].text);
            used.insert(name.clone());
            if size == 1 {
                model.globals.push(format!("clock {name};"));
            } else {
                model.globals.push(format!("clock {name}[{size}];"));
            }
        }
        "location" => {
            want(3)?;
            let p = proc_of(procs, fields[1])?;
            let mut l = TLoc {
                name: fields[2].text.to_string(),
                loc: Location {
                    name: cx.name(fields[2].text),
                    origin: Some(line.span()),
                    ..Location::default()
                },
                labels: Vec::new(),
            };
            for (k, v) in attributes(attrs)? {
                match k.text {
                    "initial" => l.loc.init = true,
                    "committed" => l.loc.committed = true,
                    "urgent" => l.loc.urgent = true,
                    "invariant" => {
                        l.loc.invariant = Some(expr_text(v, cx)?);
                        l.loc.invariant_origin = Some(v.span());
                    }
                    "labels" => l
                        .labels
                        .extend(v.text.split(',').map(|s| s.trim().to_string())),
                    other => {
                        return Err((k.span(), format!("unknown location attribute `{other}`")));
                    }
                }
            }
            procs[p].locs.push(l);
        }
        "edge" => {
            want(5)?;
            let p = proc_of(procs, fields[1])?;
            let mut e = TEdge {
                src: fields[2].text.to_string(),
                dst: fields[3].text.to_string(),
                event: fields[4].text.to_string(),
                guard: None,
                updates: Vec::new(),
                span: line.span(),
                guard_at: None,
                updates_at: None,
            };
            for (k, v) in attributes(attrs)? {
                match k.text {
                    "provided" => {
                        e.guard = Some(expr_text(v, cx)?);
                        e.guard_at = Some(v.span());
                    }
                    "do" => {
                        e.updates = statements(v, cx)?;
                        e.updates_at = Some(v.span());
                    }
                    other => return Err((k.span(), format!("unknown edge attribute `{other}`"))),
                }
            }
            procs[p].edges.push(e);
        }
        "sync" => {
            let mut parts = Vec::new();
            for f in &fields[1..] {
                let (text, weak) = match f.text.strip_suffix('?') {
                    Some(t) => (t, true),
                    None => (f.text, false),
                };
                let Some((pp, ev)) = text.split_once('@') else {
                    return Err((
                        f.span(),
                        format!("expected `process@event`, found `{}`", f.text),
                    ));
                };
                proc_of(procs, Part { text: pp, at: f.at })?;
                if !events.contains(ev) {
                    return Err((f.span(), format!("undeclared event `{ev}`")));
                }
                parts.push((pp.to_string(), ev.to_string(), weak));
            }
            if parts.len() < 2 {
                return Err((
                    line.span(),
                    "a synchronisation vector needs at least two participants".into(),
                ));
            }
            syncs.push(SyncVec { parts });
        }
        other => return Err((fields[0].span(), format!("unknown declaration `{other}`"))),
    }
    if model.globals.len() > globals_before {
        let new = model.globals.split_off(globals_before);
        extend_traced(
            &mut model.globals,
            &mut model.global_origins,
            new,
            line.span(),
        );
    }
    Ok(())
}
