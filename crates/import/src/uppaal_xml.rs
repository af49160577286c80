//! UPPAAL 4.x/5.x XML (`<nta>`): the XML structure is read with quick-xml,
//! every label's text is translated with positions mapped back to the file.

use super::Sink;
use super::context::Context;
use super::decl::{self, Env, SystemDecl};
use super::expr::{Expr, Parser, print};
use super::lex::{Cursor, Tok, tokenize};
use super::model::{Check, Edge, Location, Model, Template, extend_traced};
use super::queries;
use super::query_file::{one_line, refusal};
use super::{Query, QueryOutcome, other_engine};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::rc::Rc;
use zeno_ir::Span;

/// Text of an element with, for each byte, its offset in the file (entities
/// such as `&lt;` make the two differ).
#[derive(Debug, Default, Clone)]
pub(crate) struct Chunk {
    pub text: String,
    pub map: Vec<u32>,
    pub start: u32,
}

impl Chunk {
    fn at(start: u32) -> Chunk {
        Chunk {
            start,
            ..Chunk::default()
        }
    }

    fn push_raw(&mut self, raw: &str, offset: u32) {
        let b = raw.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'&'
                && let Some(end) = raw[i..].find(';')
            {
                let ent = &raw[i + 1..i + end];
                let ch = match ent {
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "amp" => Some('&'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    _ if ent.starts_with("#x") => u32::from_str_radix(&ent[2..], 16)
                        .ok()
                        .and_then(char::from_u32),
                    _ if ent.starts_with('#') => ent[1..].parse().ok().and_then(char::from_u32),
                    _ => None,
                };
                if let Some(ch) = ch {
                    for _ in 0..ch.len_utf8() {
                        self.map.push(offset + i as u32);
                    }
                    self.text.push(ch);
                    i += end + 1;
                    continue;
                }
            }
            let ch = raw[i..].chars().next().unwrap_or(' ');
            for k in 0..ch.len_utf8() {
                self.map.push(offset + (i + k) as u32);
            }
            self.text.push(ch);
            i += ch.len_utf8();
        }
    }

    fn push_verbatim(&mut self, raw: &str, offset: u32) {
        for (i, _) in raw.bytes().enumerate() {
            self.map.push(offset + i as u32);
        }
        self.text.push_str(raw);
    }

    pub(crate) fn offset(&self, i: usize) -> u32 {
        match self.map.get(i) {
            Some(o) => *o,
            None => self.map.last().map_or(self.start, |o| o + 1),
        }
    }

    fn span(&self) -> Span {
        Span::new(self.offset(0), self.offset(self.text.len()))
    }

    /// The span of the text without its leading and trailing whitespace:
    /// where a label's content is in the file.
    fn trimmed_span(&self) -> Span {
        let start = self.text.len() - self.text.trim_start().len();
        let end = self.text.trim_end().len().max(start);
        Span::new(self.offset(start), self.offset(end).max(self.offset(start)))
    }

    /// Tokens of the text, or the lexical error reported to `sink`.
    pub(crate) fn cursor(&self, cx: &Rc<Context>, sink: &mut Sink) -> Option<Cursor> {
        match tokenize(&self.text, &|i| self.offset(i)) {
            Ok(t) => Some(Cursor::new(t, cx)),
            Err((span, msg)) => {
                sink.error(span, msg);
                None
            }
        }
    }
}

#[derive(Debug, Default)]
struct XLabel {
    kind: String,
    text: Chunk,
    span: Span,
}

impl XLabel {
    /// The label a `<label>` start tag opens; its text follows.
    fn open(e: &BytesStart, end_pos: u32, span: Span) -> XLabel {
        XLabel {
            kind: attr(e, "kind").unwrap_or_default(),
            text: Chunk::at(end_pos),
            span,
        }
    }

    /// The text of the last label, which the XML text being read belongs to.
    fn last_text(labels: &mut [XLabel]) -> Option<&mut Chunk> {
        labels.last_mut().map(|l| &mut l.text)
    }
}

#[derive(Debug, Default)]
struct XLocation {
    id: String,
    /// The `<location>` element.
    span: Span,
    name: Option<Chunk>,
    labels: Vec<XLabel>,
    urgent: bool,
    committed: bool,
}

#[derive(Debug, Default)]
struct XTransition {
    source: Option<String>,
    /// The `<source>` tag.
    source_tag: Option<Span>,
    target: Option<String>,
    labels: Vec<XLabel>,
    span: Span,
}

#[derive(Debug, Default)]
struct XTemplate {
    name: Option<Chunk>,
    parameter: Option<Chunk>,
    declaration: Option<Chunk>,
    locations: Vec<XLocation>,
    init: Option<(String, Span)>,
    transitions: Vec<XTransition>,
    span: Span,
}

#[derive(Debug, Default)]
struct XQuery {
    formula: Chunk,
    comment: Chunk,
}

#[derive(Debug, Default)]
struct Nta {
    declaration: Option<Chunk>,
    templates: Vec<XTemplate>,
    /// UPPAAL 3.x/4.0 files keep the process assignments (`P1 := P();`) in
    /// an `<instantiation>` element before `<system>`.
    instantiation: Option<Chunk>,
    system: Option<Chunk>,
    queries: Vec<XQuery>,
}

impl Nta {
    /// The location being read: the last of the last template.
    fn location(&mut self) -> Option<&mut XLocation> {
        self.templates.last_mut()?.locations.last_mut()
    }

    /// The transition being read: the last of the last template.
    fn transition(&mut self) -> Option<&mut XTransition> {
        self.templates.last_mut()?.transitions.last_mut()
    }
}

impl XLocation {
    /// Where the location is shown in the file (the simulator's and the
    /// debugger's jumps, its messages): its name, which a reader looks
    /// for, when it has one; else its start tag.
    fn place(&self) -> Span {
        match &self.name {
            Some(n) if !blank(n) => n.trimmed_span(),
            _ => self.span,
        }
    }
}

impl XTransition {
    /// Where the transition is shown in the file: its first label that
    /// says what it does (select, guard, synchronisation, assignment),
    /// else its `<source>` tag (the start tag when it has none); not the
    /// `<transition>` tag, which carries nothing to read.
    fn place(&self) -> Span {
        const SAYS: [&str; 4] = ["select", "guard", "synchronisation", "assignment"];
        self.labels
            .iter()
            .find(|l| SAYS.contains(&l.kind.as_str()) && !blank(&l.text))
            .map(|l| l.text.trimmed_span())
            .or(self.source_tag)
            .unwrap_or(self.span)
    }
}

fn attr(e: &BytesStart, name: &str) -> Option<String> {
    e.try_get_attribute(name)
        .ok()
        .flatten()
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// An element UPPAAL's format does not have where it stands (a newer
/// version's, another tool's extension): left out, and said so, since it
/// might have meant something for the model.
fn unknown_element(sink: &mut Sink, span: Span, name: &str, inside: &str) {
    sink.warning(
        span,
        format!("element `<{name}>` in {inside} is not one zeno knows; left out"),
    );
}

/// The text an element such as `<declaration>` opens. UPPAAL's format has
/// one of each; a second one (a file edited by hand) continues the first,
/// with a warning, rather than replacing it and losing its declarations.
fn open_chunk(slot: &mut Option<Chunk>, at: u32, span: Span, name: &str, sink: &mut Sink) {
    match slot {
        Some(chunk) => {
            sink.warning(
                span,
                format!("a second `<{name}>` element: read as the continuation of the first"),
            );
            chunk.push_verbatim("\n", at);
        }
        None => *slot = Some(Chunk::at(at)),
    }
}

/// How deeply the elements of an XML model may nest.
const MAX_XML_DEPTH: usize = 64;

/// Reads the XML structure; `None` after a reported error.
fn parse_xml(text: &str, sink: &mut Sink) -> Option<Nta> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(false);
    let mut nta = Nta::default();
    let mut stack: Vec<(String, u32)> = Vec::new();
    let mut saw_nta = false;
    loop {
        let pos = reader.buffer_position() as u32;
        let ev = match reader.read_event() {
            Ok(ev) => ev,
            Err(e) => {
                let at = reader.error_position() as u32;
                sink.error(Span::new(at, at + 1), format!("malformed XML: {e}"));
                return None;
            }
        };
        let end_pos = reader.buffer_position() as u32;
        let path: Vec<&str> = stack.iter().map(|(s, _)| s.as_str()).collect();
        match ev {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                let span = Span::new(pos, end_pos);
                let is_empty = matches!(ev, Event::Empty(_));
                match (path.as_slice(), name.as_str()) {
                    ([], "nta") => saw_nta = true,
                    ([], other) => {
                        sink.error(
                            span,
                            format!("expected a UPPAAL `<nta>` document, found `<{other}>`"),
                        );
                        return None;
                    }
                    (["nta"], "template") => nta.templates.push(XTemplate {
                        span,
                        ..XTemplate::default()
                    }),
                    (["nta"], "declaration") => {
                        open_chunk(&mut nta.declaration, end_pos, span, "declaration", sink)
                    }
                    (["nta"], "system") => {
                        open_chunk(&mut nta.system, end_pos, span, "system", sink)
                    }
                    (["nta"], "instantiation") => {
                        open_chunk(&mut nta.instantiation, end_pos, span, "instantiation", sink)
                    }
                    // A live sequence chart (UPPAAL 4.1 scenarios), often an
                    // empty one the editor added: it takes part only when the
                    // system lists it, and then the name is reported unknown.
                    (["nta"], "lsc") => sink.warning(
                        span,
                        "LSC template (live sequence chart) left out: zeno reads timed automata templates only",
                    ),
                    // `<imports>` names libraries of external functions; a
                    // call of one is reported where it is made.
                    (["nta"], "queries" | "imports") => {}
                    (["nta"], other) => unknown_element(sink, span, other, "<nta>"),
                    (["nta", "queries"], "query") => nta.queries.push(XQuery::default()),
                    (["nta", "queries", "query"], "formula") => {
                        if let Some(q) = nta.queries.last_mut() {
                            q.formula = Chunk::at(end_pos);
                        }
                    }
                    (["nta", "template"], child) => {
                        let Some(t) = nta.templates.last_mut() else {
                            continue;
                        };
                        match child {
                            "name" => t.name = Some(Chunk::at(end_pos)),
                            "parameter" => {
                                open_chunk(&mut t.parameter, end_pos, span, "parameter", sink)
                            }
                            "declaration" => {
                                open_chunk(&mut t.declaration, end_pos, span, "declaration", sink)
                            }
                            "location" => t.locations.push(XLocation {
                                id: attr(e, "id").unwrap_or_default(),
                                span,
                                ..XLocation::default()
                            }),
                            // UPPAAL reads one `<init>`; a second is an
                            // error rather than a silent choice.
                            "init" if t.init.is_some() => sink.error(
                                span,
                                "a second `<init>`: a template has one initial location",
                            ),
                            "init" => t.init = attr(e, "ref").map(|r| (r, span)),
                            "transition" => t.transitions.push(XTransition {
                                span,
                                ..XTransition::default()
                            }),
                            "branchpoint" => sink.error(
                                span,
                                "branchpoints (probabilistic edges) are not supported",
                            ),
                            other => unknown_element(sink, span, other, "a template"),
                        }
                    }
                    (["nta", "template", "location"], child) => {
                        if let Some(l) = nta.location() {
                            match child {
                                "name" => l.name = Some(Chunk::at(end_pos)),
                                "urgent" => l.urgent = true,
                                "committed" => l.committed = true,
                                "label" => l.labels.push(XLabel::open(e, end_pos, span)),
                                other => unknown_element(sink, span, other, "a location"),
                            }
                        }
                    }
                    (["nta", "template", "transition"], child) => {
                        if let Some(tr) = nta.transition() {
                            match child {
                                "source" => {
                                    tr.source = attr(e, "ref");
                                    tr.source_tag = Some(span);
                                }
                                "target" => tr.target = attr(e, "ref"),
                                "label" => tr.labels.push(XLabel::open(e, end_pos, span)),
                                // Drawing only.
                                "nail" => {}
                                other => unknown_element(sink, span, other, "a transition"),
                            }
                        }
                    }
                    _ => {}
                }
                if !is_empty {
                    // Every event looks at the path of open elements, so a
                    // deep tree would cost its depth per event; UPPAAL's
                    // format nests a handful of levels.
                    if stack.len() >= MAX_XML_DEPTH {
                        sink.error(
                            span,
                            format!(
                                "XML nested more than {MAX_XML_DEPTH} elements deep: a UPPAAL model nests a few"
                            ),
                        );
                        return None;
                    }
                    stack.push((name, pos));
                }
            }
            Event::End(_) => {
                stack.pop();
            }
            Event::Text(ref t) => {
                let raw = String::from_utf8_lossy(t.as_ref()).into_owned();
                if let Some(chunk) = text_target(&mut nta, &path) {
                    chunk.push_raw(&raw, pos);
                }
            }
            Event::CData(ref t) => {
                let raw = String::from_utf8_lossy(t.as_ref()).into_owned();
                if let Some(chunk) = text_target(&mut nta, &path) {
                    chunk.push_verbatim(&raw, pos + 9);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some((name, at)) = stack.last() {
        let end = text.len() as u32;
        sink.error(
            Span::new(end, end),
            format!("unexpected end of the file: `<{name}>` (opened at byte {at}) is not closed"),
        );
        return None;
    }
    if !saw_nta {
        sink.error(
            Span::new(0, 0),
            "no `<nta>` element: not a UPPAAL XML model",
        );
        return None;
    }
    Some(nta)
}

fn text_target<'a>(nta: &'a mut Nta, path: &[&str]) -> Option<&'a mut Chunk> {
    match path {
        ["nta", "declaration"] => nta.declaration.as_mut(),
        ["nta", "system"] => nta.system.as_mut(),
        ["nta", "instantiation"] => nta.instantiation.as_mut(),
        ["nta", "queries", "query", "formula"] => nta.queries.last_mut().map(|q| &mut q.formula),
        ["nta", "queries", "query", "comment"] => nta.queries.last_mut().map(|q| &mut q.comment),
        ["nta", "template", "location", "name"] => nta.location()?.name.as_mut(),
        ["nta", "template", "location", "label"] => XLabel::last_text(&mut nta.location()?.labels),
        ["nta", "template", "transition", "label"] => {
            XLabel::last_text(&mut nta.transition()?.labels)
        }
        ["nta", "template", rest @ ..] => {
            let t = nta.templates.last_mut()?;
            match rest {
                ["name"] => t.name.as_mut(),
                ["parameter"] => t.parameter.as_mut(),
                ["declaration"] => t.declaration.as_mut(),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Translates every declaration statement of a chunk.
/// Translates every declaration statement of a chunk; the lines, and for
/// each the source range of the statement it came from.
pub(crate) fn declarations(
    c: &mut Cursor,
    env: &mut Env,
    sink: &mut Sink,
) -> (Vec<String>, Vec<Option<Span>>) {
    let (mut out, mut origins) = (Vec::new(), Vec::new());
    while !c.at_eof() {
        let start = c.span().start;
        let lines = decl::declaration(c, env, sink);
        let origin = Span::new(start, c.prev_span().end);
        extend_traced(&mut out, &mut origins, lines, origin);
    }
    (out, origins)
}

/// Parses a whole chunk as one expression (guard, invariant) or a
/// comma-separated list (assignments); reports errors to `sink`.
/// Whether a label is empty or holds only comments (`// x > 3`, a guard
/// the author commented out): UPPAAL reads it as no label at all. A label
/// that does not lex is not blank, and its error is reported where it is
/// read.
fn blank(chunk: &Chunk) -> bool {
    chunk.text.trim().is_empty()
        || tokenize(&chunk.text, &|i| chunk.offset(i))
            .is_ok_and(|tokens| tokens.iter().all(|t| matches!(t.tok, Tok::Eof)))
}

fn label_exprs(
    chunk: &Chunk,
    list: bool,
    cx: &Rc<Context>,
    sink: &mut Sink,
) -> Option<Vec<String>> {
    let mut c = chunk.cursor(cx, sink)?;
    let mut p = Parser { c: &mut c };
    let r = if list {
        p.list()
    } else {
        p.expr().map(|e| vec![e])
    };
    let r = r.and_then(|es| c.expect_eof("after the expression").map(|()| es));
    match r {
        Ok(es) => Some(es.iter().map(|e| print(e, cx)).collect()),
        Err((span, msg)) => {
            sink.error(span, msg);
            None
        }
    }
}

/// An expression without effect that cannot fail: comparisons and logic
/// over names and literals (`current == -1` written for `current = -1`).
/// UPPAAL evaluates such an update and discards the value, so leaving it
/// out changes nothing; anything that could fail (an index, a division,
/// arithmetic that may overflow, a call) is kept, and zeno reports it.
fn is_inert(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::Ident(_) => true,
        Expr::Unary("!", a) => is_inert(a),
        Expr::Unary("-", a) => matches!(**a, Expr::Int(_)),
        Expr::Binary(op, a, b) => {
            matches!(*op, "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||")
                && is_inert(a)
                && is_inert(b)
        }
        _ => false,
    }
}

/// Updates, with calls of inlined functions expanded.
fn assignment_label(
    chunk: &Chunk,
    env: &Env,
    cx: &Rc<Context>,
    sink: &mut Sink,
) -> Option<Vec<String>> {
    let mut c = chunk.cursor(cx, sink)?;
    let r = decl::updates(&mut c, env).and_then(|es| c.expect_eof("after the update").map(|()| es));
    match r {
        Ok(es) => Some(
            es.iter()
                .filter(|e| {
                    let inert = is_inert(e);
                    if inert {
                        sink.warning(
                            chunk.span(),
                            format!("`{}` in an update has no effect: left out", print(e, cx)),
                        );
                    }
                    !inert
                })
                .map(|e| print(e, cx))
                .collect(),
        ),
        Err((span, msg)) => {
            sink.error(span, msg);
            None
        }
    }
}

/// `c!`, `c[i]?`: the direction is split off first, since `?` would
/// otherwise start a conditional expression.
fn sync_label(chunk: &Chunk, cx: &Rc<Context>, sink: &mut Sink) -> Option<String> {
    let toks = match tokenize(&chunk.text, &|i| chunk.offset(i)) {
        Ok(t) => t,
        Err((span, msg)) => {
            sink.error(span, msg);
            return None;
        }
    };
    match super::lex::split_direction(toks) {
        Ok((toks, dir)) => {
            let mut c = Cursor::new(toks, cx);
            let r = Parser { c: &mut c }.expr().and_then(|e| {
                if c.at_eof() {
                    Ok(e)
                } else {
                    Err((
                        c.span(),
                        "unexpected text in the synchronisation".to_string(),
                    ))
                }
            });
            match r {
                Ok(e) => Some(format!("{}{dir}", print(&e, cx))),
                Err((span, msg)) => {
                    sink.error(span, msg);
                    None
                }
            }
        }
        Err((span, msg)) => {
            sink.error(span, msg);
            None
        }
    }
}

/// `i : pid_t, j : int[0, 3]`.
fn select_label(chunk: &Chunk, cx: &Rc<Context>, sink: &mut Sink) -> Option<Vec<String>> {
    let mut c = chunk.cursor(cx, sink)?;
    let r = (|| {
        let out = c.comma_list(|c| {
            let v = c.ident()?;
            c.expect(":")?;
            let ty = Parser { c }.bounded_type()?;
            Ok(format!("{} : {ty}", cx.name(&v)))
        })?;
        if !c.at_eof() {
            return Err((c.span(), "unexpected text in the select label".to_string()));
        }
        Ok(out)
    })();
    match r {
        Ok(s) => Some(s),
        Err((span, msg)) => {
            sink.error(span, msg);
            None
        }
    }
}

pub(crate) fn read(text: &str, cx: &Rc<Context>, sink: &mut Sink) -> Option<Model> {
    let nta = parse_xml(text, sink)?;
    let mut model = Model::default();
    let mut env = Env::default();
    let mut sys = SystemDecl::default();
    if let Some(d) = &nta.declaration
        && let Some(mut c) = d.cursor(cx, sink)
    {
        // UPPAAL's grammar lets instantiations (`Q = P(2);`) stand among
        // the global declarations too.
        while !c.at_eof() {
            decl::global_item(&mut c, &mut env, sink, &mut sys, &mut model);
        }
    }
    for t in &nta.templates {
        if let Some(tm) = template(t, &mut env, cx, sink) {
            model.templates.push(tm);
        }
    }
    if nta.system.is_none() {
        sink.error(Span::new(0, 0), "the model has no `<system>` element");
    }
    for s in nta.instantiation.iter().chain(&nta.system) {
        if let Some(mut c) = s.cursor(cx, sink) {
            while !c.at_eof() {
                decl::system_statement(&mut c, &mut env, sink, &mut sys, &mut model.globals);
            }
        }
    }
    model.instances = sys.instances;
    model.system = sys.system;
    model.system_levels = sys.system_levels;
    let known = known_names(&nta);
    // Check names given so far: two queries with the same comment (`ok`,
    // `holds`), or a comment `q2` on another query than the second, must
    // not make one check hide the other.
    let mut taken = std::collections::HashSet::new();
    for (k, q) in nta.queries.iter().enumerate() {
        // An empty formula, or one that is only a comment (`// note`, as
        // in files made from `.q` files), is no query for UPPAAL either.
        let only_comments = tokenize(&q.formula.text, &|i| q.formula.offset(i))
            .is_ok_and(|tokens| tokens.iter().all(|t| matches!(t.tok, Tok::Eof)));
        if only_comments {
            continue;
        }
        let (check, info) = query(q, k + 1, &known, &mut taken, cx, sink);
        model.checks.push(check);
        model.queries.push(info);
    }
    Some(model)
}

/// Every identifier of the global declarations, the instantiation and
/// system sections, and the templates' names: what a query may name before
/// a `.` (`queries::Known`).
fn known_names(nta: &Nta) -> std::collections::HashSet<String> {
    let mut known = std::collections::HashSet::new();
    let chunks = [&nta.declaration, &nta.instantiation, &nta.system];
    for chunk in chunks.into_iter().flatten() {
        // A chunk that does not lex was reported already; its names are
        // then simply not known.
        if let Ok(tokens) = tokenize(&chunk.text, &|i| chunk.offset(i)) {
            known.extend(tokens.into_iter().filter_map(|t| match t.tok {
                Tok::Ident(n) => Some(n),
                _ => None,
            }));
        }
    }
    for t in &nta.templates {
        if let Some(name) = &t.name {
            known.insert(name.text.trim().to_string());
        }
    }
    known
}

fn query(
    q: &XQuery,
    n: usize,
    known: &std::collections::HashSet<String>,
    taken: &mut std::collections::HashSet<String>,
    cx: &Rc<Context>,
    sink: &mut Sink,
) -> (Check, Query) {
    let comment = q.comment.text.trim();
    // Named after its comment when that is a plain identifier no earlier
    // check has; otherwise `qN` (`qN_2`, … when a comment took that), with
    // the comment printed above it.
    let named = is_ident(comment) && !taken.contains(&cx.name(comment));
    let name = if named {
        cx.name(comment)
    } else {
        let mut name = format!("q{n}");
        let mut k = 1;
        while taken.contains(&name) {
            k += 1;
            name = format!("q{n}_{k}");
        }
        name
    };
    taken.insert(name.clone());
    let mut lines: Vec<String> = if named || comment.is_empty() {
        Vec::new()
    } else {
        comment.lines().map(|l| l.trim().to_string()).collect()
    };
    let before = sink.diags.len();
    let formula = if let Some(other) = other_engine(&q.formula.text) {
        // UPPAAL's symbolic verifier skips these too; the rest of the model
        // and its other queries are unaffected.
        sink.warning(
            q.formula.trimmed_span(),
            format!(
                "{} (`{}`) not checked: zeno decides symbolic queries only; left as a comment",
                other.kind, other.construct
            ),
        );
        Err(QueryOutcome::OtherEngine(other))
    } else {
        // A query that does not even lex is reported on that query alone.
        let translated = match tokenize(&q.formula.text, &|i| q.formula.offset(i)) {
            Ok(tokens) => queries::formula(
                &mut Cursor::new(tokens, cx),
                q.formula.span(),
                Some(known),
                sink,
            ),
            Err((span, msg)) => {
                sink.warning(span, format!("{msg}; query left as a comment"));
                None
            }
        };
        translated.ok_or_else(|| refusal(&sink.diags[before..], q.formula.trimmed_span()))
    };
    if formula.is_err() {
        lines.push(format!(
            "not translated: {}",
            q.formula.text.trim().replace('\n', " ")
        ));
    }
    let info = Query {
        name: name.clone(),
        comment: (!named && !comment.is_empty()).then(|| one_line(comment)),
        formula: one_line(&q.formula.text),
        span: q.formula.trimmed_span(),
        outcome: match &formula {
            Ok(f) => QueryOutcome::Check(f.clone()),
            Err(outcome) => outcome.clone(),
        },
    };
    let check = Check {
        comment: lines,
        name,
        formula_origin: Some(q.formula.trimmed_span()),
        formula: formula.ok(),
    };
    (check, info)
}

use super::is_ident;

fn template(t: &XTemplate, env: &mut Env, cx: &Rc<Context>, sink: &mut Sink) -> Option<Template> {
    // A template without a name (an unused draft left in the file) cannot
    // be instantiated by the system line, so leaving it out changes nothing.
    let name = t.name.as_ref().map_or("", |c| c.text.trim());
    if name.is_empty() {
        let at = t.name.as_ref().map_or(t.span, Chunk::span);
        sink.warning(
            at,
            "template without a name left out: nothing can instantiate it",
        );
        return None;
    }
    let Some(name_chunk) = &t.name else {
        return None;
    };
    let name = name.to_string();
    if !is_ident(&name) {
        sink.error(
            name_chunk.span(),
            format!("template name `{name}` is not a valid name"),
        );
        return None;
    }
    let mut out = Template {
        name: cx.name(&name),
        origin: Some(t.span),
        ..Template::default()
    };
    let mut value_params = Vec::new();
    if let Some(p) = &t.parameter
        && let Some(mut c) = p.cursor(cx, sink)
    {
        match decl::parameters(&mut c, env).and_then(|ps| {
            if c.at_eof() {
                Ok(ps)
            } else {
                Err((c.span(), "expected `,` between parameters".to_string()))
            }
        }) {
            Ok(ps) => {
                (out.params, value_params) = ps.into_iter().unzip();
                out.params_origin = Some(p.trimmed_span());
            }
            Err((span, msg)) => sink.error(span, msg),
        }
    }
    if let Some(d) = &t.declaration
        && let Some(mut c) = d.cursor(cx, sink)
    {
        (out.locals, out.local_origins) = declarations(&mut c, env, sink);
    }
    // Location ids are file-wide; names are what zeno uses.
    let loc_name = |id: &str| -> Option<String> {
        t.locations
            .iter()
            .find(|l| l.id == id)
            .map(|l| match &l.name {
                Some(n) if is_ident(n.text.trim()) => cx.name(n.text.trim()),
                // Ids are XML names (may hold `-` or `.`); keep them readable.
                _ => format!(
                    "_{}",
                    id.chars()
                        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                        .collect::<String>()
                ),
            })
    };
    for (k, l) in t.locations.iter().enumerate() {
        // References by id would be ambiguous (UPPAAL warns, then resolves
        // them to the last such location): an error here.
        if t.locations[..k].iter().any(|m| m.id == l.id) {
            sink.error(l.span, format!("a second location with the id `{}`", l.id));
        }
        // An empty `<name></name>` (a name the author deleted) is no name,
        // as in UPPAAL: the location gets its id's.
        if let Some(n) = &l.name
            && !n.text.trim().is_empty()
            && !is_ident(n.text.trim())
        {
            sink.error(
                n.span(),
                format!("location name `{}` is not a valid name", n.text.trim()),
            );
        }
        let mut loc = Location {
            name: loc_name(&l.id).unwrap_or_default(),
            init: t.init.as_ref().is_some_and(|(r, _)| *r == l.id),
            urgent: l.urgent,
            committed: l.committed,
            invariant: None,
            invariant_origin: None,
            origin: Some(l.place()),
        };
        for lab in &l.labels {
            match lab.kind.as_str() {
                "invariant" => {
                    if blank(&lab.text) {
                        continue;
                    }
                    if let Some(mut es) = label_exprs(&lab.text, false, cx, sink) {
                        loc.invariant = es.pop();
                        loc.invariant_origin = Some(lab.text.trimmed_span());
                    }
                }
                "comments" => {}
                // Used only by statistical model checking; the symbolic
                // semantics (UPPAAL's verifier too) ignores it.
                "exponentialrate" => sink.warning(
                    lab.span,
                    "exponential rate ignored: it matters only to statistical model checking",
                ),
                // Yggdrasil's test-case generation code, run on entering or
                // leaving the location; the verifier ignores it.
                "testcodeEnter" | "testcodeExit" => {
                    sink.warning(lab.span, "test code label ignored")
                }
                other => sink.error(lab.span, format!("unknown location label kind `{other}`")),
            }
        }
        out.locations.push(loc);
    }
    match &t.init {
        None => sink.error(
            t.span,
            format!("template `{name}` has no initial location (`<init>`)"),
        ),
        Some((r, span)) if loc_name(r).is_none() => sink.error(
            *span,
            format!("`<init ref=\"{r}\">` names no location of `{name}`"),
        ),
        _ => {}
    }
    for tr in &t.transitions {
        let (Some(s), Some(d)) = (&tr.source, &tr.target) else {
            sink.error(tr.span, "transition without `<source>` or `<target>`");
            continue;
        };
        let (Some(src), Some(dst)) = (loc_name(s), loc_name(d)) else {
            sink.error(
                tr.span,
                "transition refers to a location id that does not exist",
            );
            continue;
        };
        let mut e = Edge {
            src,
            dst,
            ..Edge::default()
        };
        e.origins.whole = Some(tr.place());
        for lab in &tr.labels {
            if blank(&lab.text) {
                continue;
            }
            let origin = Some(lab.text.trimmed_span());
            match lab.kind.as_str() {
                "guard" => {
                    e.guard = label_exprs(&lab.text, false, cx, sink).and_then(|mut v| v.pop());
                    e.origins.guard = origin;
                }
                "assignment" => {
                    e.updates = assignment_label(&lab.text, env, cx, sink).unwrap_or_default();
                    e.origins.updates = origin;
                }
                "synchronisation" => {
                    e.sync = sync_label(&lab.text, cx, sink);
                    e.origins.sync = origin;
                }
                "select" => {
                    e.select = select_label(&lab.text, cx, sink).unwrap_or_default();
                    e.origins.select = origin;
                }
                "comments" => {}
                "testcode" => sink.warning(lab.span, "test code label ignored"),
                "probability" => sink.error(lab.span, "probabilities are not supported"),
                other => sink.error(lab.span, format!("unknown transition label kind `{other}`")),
            }
        }
        out.edges.push(e);
    }
    out.copy_written_value_params(&value_params, &env.ref_params);
    Some(out)
}
