//! The translated model, already in zeno terms, and its formatting, with
//! a [`SourceMap`] from the written text back to the source file.

use super::source_map::SourceMap;
use zeno_ir::Span;

/// A zeno model under construction. Declarations, guards and updates are
/// zeno text produced by the expression printer.
#[derive(Debug, Default)]
pub(crate) struct Model {
    /// Leading comment lines (source format, notes).
    pub header: Vec<String>,
    /// Global declarations, one per line, with their `;`.
    pub globals: Vec<String>,
    /// Where each of `globals` came from, where known (may be shorter).
    pub global_origins: Vec<Option<Span>>,
    pub templates: Vec<Template>,
    /// `P1 = P(1);` lines.
    pub instances: Vec<String>,
    /// The names in `system ...;`.
    pub system: Vec<String>,
    /// Their priority levels (`system A < B;`); empty when all are 0.
    pub system_levels: Vec<u32>,
    /// Synchronisation vectors, `sync P.a, Q.b?;` lines with their `;`.
    pub vectors: Vec<String>,
    pub checks: Vec<Check>,
    /// Every query of the source, with what became of it.
    pub queries: Vec<super::Query>,
}

#[derive(Debug, Default)]
pub(crate) struct Template {
    pub name: String,
    /// Parameters as zeno text, e.g. `const pid_t pid`.
    pub params: Vec<String>,
    pub locals: Vec<String>,
    /// The whole template in the source.
    pub origin: Option<Span>,
    /// The parameter list in the source.
    pub params_origin: Option<Span>,
    /// Where each of `locals` came from, where known (may be shorter).
    pub local_origins: Vec<Option<Span>>,
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
}

#[derive(Debug, Default)]
pub(crate) struct Location {
    pub name: String,
    pub init: bool,
    pub urgent: bool,
    pub committed: bool,
    pub invariant: Option<String>,
    /// The invariant's label in the source.
    pub invariant_origin: Option<Span>,
    /// The whole location in the source (`<location>`, a TChecker
    /// `location:` line).
    pub origin: Option<Span>,
}

#[derive(Debug, Default, Clone)]
pub(crate) struct Edge {
    pub src: String,
    pub dst: String,
    /// `i : pid_t` items.
    pub select: Vec<String>,
    pub guard: Option<String>,
    /// `c!`, `c[i]?`.
    pub sync: Option<String>,
    pub updates: Vec<String>,
    /// Where its labels are in the source.
    pub origins: EdgeOrigins,
}

/// The source ranges of an edge's labels.
#[derive(Debug, Default, Clone)]
pub(crate) struct EdgeOrigins {
    /// The whole edge (`<transition>`).
    pub whole: Option<Span>,
    pub select: Option<Span>,
    pub guard: Option<Span>,
    pub sync: Option<Span>,
    pub updates: Option<Span>,
}

#[derive(Debug)]
pub(crate) struct Check {
    /// Comment lines printed above the check.
    pub comment: Vec<String>,
    pub name: String,
    /// `A[] ...` / `E<> ...`, or `None` for a query kept only as a comment.
    pub formula: Option<String>,
    /// The formula in the source.
    pub formula_origin: Option<Span>,
}

/// Appends `new` lines to `lines`, each recorded in `origins` as coming
/// from `origin` (lines appended before without an origin get `None`).
pub(crate) fn extend_traced(
    lines: &mut Vec<String>,
    origins: &mut Vec<Option<Span>>,
    new: Vec<String>,
    origin: Span,
) {
    origins.resize(lines.len(), None);
    origins.extend(new.iter().map(|_| Some(origin)));
    lines.extend(new);
}

/// The text being written and the map of where its pieces came from.
struct Writer {
    out: String,
    map: SourceMap,
}

impl Writer {
    /// Appends `text`, recorded as coming from `origin` (when known).
    fn traced(&mut self, text: &str, origin: Option<Span>, what: impl FnOnce() -> String) {
        let start = self.out.len() as u32;
        self.out.push_str(text);
        if let Some(source) = origin {
            let generated = Span::new(start, self.out.len() as u32);
            self.map.record(generated, source, what());
        }
    }

    /// `lines`, each on a line of its own after `prefix` and traced to its
    /// origin; then a blank line when there was any.
    fn paragraph(
        &mut self,
        prefix: &str,
        lines: &[String],
        origins: &[Option<Span>],
        what: &dyn Fn() -> String,
    ) {
        for (k, line) in lines.iter().enumerate() {
            self.out.push_str(prefix);
            self.traced(line, origins.get(k).copied().flatten(), what);
            self.out.push('\n');
        }
        if !lines.is_empty() {
            self.out.push('\n');
        }
    }
}

impl Model {
    /// The zeno text, where its pieces came from in the source, and the
    /// source's queries.
    pub(crate) fn write(&self) -> (String, SourceMap, Vec<super::Query>) {
        let mut w = Writer {
            out: String::new(),
            map: SourceMap::default(),
        };
        push_paragraph(&mut w.out, "// ", &self.header);
        w.paragraph("", &self.globals, &self.global_origins, &|| {
            "in the global declarations".to_string()
        });
        for t in &self.templates {
            let start = w.out.len() as u32;
            t.write(&mut w);
            if let Some(source) = t.origin {
                let generated = Span::new(start, w.out.len() as u32);
                w.map
                    .record(generated, source, format!("in template {}", t.name));
            }
            w.out.push('\n');
        }
        let out = &mut w.out;
        push_lines(out, "", &self.instances);
        if !self.system.is_empty() {
            let level = |k: usize| self.system_levels.get(k).copied().unwrap_or(0);
            out.push_str("system ");
            for (k, name) in self.system.iter().enumerate() {
                if k > 0 {
                    out.push_str(if level(k) > level(k - 1) { " < " } else { ", " });
                }
                out.push_str(name);
            }
            out.push_str(";\n");
        }
        push_lines(out, "", &self.vectors);
        if !self.checks.is_empty() {
            out.push('\n');
        }
        for c in &self.checks {
            push_lines(&mut w.out, "// ", &c.comment);
            if let Some(f) = &c.formula {
                let what = || format!("in the formula of the query checked as `{}`", c.name);
                let start = w.out.len() as u32;
                w.out.push_str(&format!("check {}: ", c.name));
                w.traced(f, c.formula_origin, what);
                w.out.push(';');
                // The whole check (its verdict) is at the formula too.
                if let Some(source) = c.formula_origin {
                    let generated = Span::new(start, w.out.len() as u32);
                    w.map.record(generated, source, what());
                }
                w.out.push('\n');
            }
        }
        (w.out, w.map, self.queries.clone())
    }
}

impl Template {
    /// UPPAAL's value parameters that are not `const` (`T(int v)`) are
    /// variables of each process, initialised with the argument, which the
    /// template may change (`v = v + 1`); zeno's value parameters are
    /// constants. For each such parameter (`value[k]` gives the type and
    /// name of parameter `k`) that an update or a local function writes, the
    /// parameter is renamed `v_arg` and a local `int v = v_arg;` holds the
    /// variable, so that the template, the queries (`P.v`) and the instances
    /// read the same. A parameter only read stays a constant, as zeno may
    /// need it in a type or an array size.
    pub(crate) fn copy_written_value_params(
        &mut self,
        value: &[Option<super::decl::ValueParam>],
        ref_params: &std::collections::HashMap<String, Vec<bool>>,
    ) {
        let mut copies = Vec::new();
        for (k, v) in value.iter().enumerate() {
            let Some((ty, name)) = v else { continue };
            let written = self
                .edges
                .iter()
                .flat_map(|e| &e.updates)
                .chain(&self.locals)
                .any(|text| writes(text, name) || passed_by_reference(text, name, ref_params));
            if !written {
                continue;
            }
            let mut arg = format!("{name}_arg");
            while self.mentions(&arg) {
                arg.push('_');
            }
            self.params[k] = format!("const {ty} {arg}");
            copies.push(format!("{ty} {name} = {arg};"));
        }
        self.local_origins
            .splice(0..0, copies.iter().map(|_| None::<Span>));
        self.locals.splice(0..0, copies);
    }

    /// Whether `name` occurs as a word anywhere in the template.
    fn mentions(&self, name: &str) -> bool {
        let edge_texts = self.edges.iter().flat_map(|e| {
            e.select
                .iter()
                .chain(&e.guard)
                .chain(&e.sync)
                .chain(&e.updates)
        });
        let inv = self.locations.iter().flat_map(|l| &l.invariant);
        self.params
            .iter()
            .chain(&self.locals)
            .chain(edge_texts)
            .chain(inv)
            .any(|t| words(t).any(|(_, w)| w == name))
    }

    fn write(&self, w: &mut Writer) {
        let name = &self.name;
        w.out.push_str(&format!("template {name}("));
        w.traced(&self.params.join(", "), self.params_origin, || {
            format!("in the parameters of template {name}")
        });
        w.out.push_str(") {\n");
        w.paragraph("    ", &self.locals, &self.local_origins, &|| {
            format!("in the declarations of template {name}")
        });
        for l in &self.locations {
            w.out.push_str("    ");
            let start = w.out.len() as u32;
            if l.init {
                w.out.push_str("init ");
            }
            if l.urgent {
                w.out.push_str("urgent ");
            }
            if l.committed {
                w.out.push_str("committed ");
            }
            w.out.push_str("location ");
            w.out.push_str(&l.name);
            if let Some(inv) = &l.invariant {
                w.out.push_str(" invariant ");
                w.traced(inv, l.invariant_origin, || {
                    format!("in the invariant of location {} of template {name}", l.name)
                });
            }
            w.out.push(';');
            if let Some(source) = l.origin {
                let generated = Span::new(start, w.out.len() as u32);
                w.map.record(
                    generated,
                    source,
                    format!("in location {} of template {name}", l.name),
                );
            }
            w.out.push('\n');
        }
        if !self.edges.is_empty() {
            w.out.push('\n');
        }
        for e in &self.edges {
            w.out.push_str("    ");
            let start = w.out.len() as u32;
            w.out.push_str(&format!("{} -> {}", e.src, e.dst));
            let what = |label: &str| {
                format!(
                    "in the {label} of an edge of template {name}, from {} to {}",
                    e.src, e.dst
                )
            };
            if !e.select.is_empty() {
                w.out.push_str(" select ");
                w.traced(&e.select.join(", "), e.origins.select, || what("select"));
            }
            if let Some(g) = &e.guard {
                w.out.push_str(" when ");
                w.traced(g, e.origins.guard, || what("guard"));
            }
            if let Some(c) = &e.sync {
                w.out.push_str(" sync ");
                w.traced(c, e.origins.sync, || what("synchronisation"));
            }
            if !e.updates.is_empty() {
                w.out.push_str(" do ");
                w.traced(&e.updates.join(", "), e.origins.updates, || {
                    what("assignment")
                });
            }
            w.out.push(';');
            if let Some(source) = e.origins.whole {
                let generated = Span::new(start, w.out.len() as u32);
                let what = format!("on an edge of template {name}, from {} to {}", e.src, e.dst);
                w.map.record(generated, source, what);
            }
            w.out.push('\n');
        }
        w.out.push_str("}\n");
    }
}

/// Each item on a line of its own, after `prefix`.
fn push_lines(out: &mut String, prefix: &str, items: &[String]) {
    for item in items {
        out.push_str(&format!("{prefix}{item}\n"));
    }
}

/// [`push_lines`], then a blank line when there was any: a section of its
/// own.
fn push_paragraph(out: &mut String, prefix: &str, items: &[String]) {
    push_lines(out, prefix, items);
    if !items.is_empty() {
        out.push('\n');
    }
}

/// The identifiers of a zeno text, with their byte offsets.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = text.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            if is_word(b[i]) {
                let start = i;
                while i < b.len() && is_word(b[i]) {
                    i += 1;
                }
                if !b[start].is_ascii_digit() {
                    return Some((start, &text[start..i]));
                }
            } else {
                i += 1;
            }
        }
        None
    })
}

/// Whether the zeno text `text` passes the variable `name` itself as an
/// argument of a call to a reference parameter that may write it
/// (`bump(v)` with `void bump(int &x)`); `ref_params` gives, for each
/// function, which parameters are such references.
fn passed_by_reference(
    text: &str,
    name: &str,
    ref_params: &std::collections::HashMap<String, Vec<bool>>,
) -> bool {
    words(text).any(|(at, w)| {
        if w != name {
            return false;
        }
        let before = text[..at].trim_end();
        let after = text[at + w.len()..].trim_start();
        if !(before.ends_with('(') || before.ends_with(','))
            || !(after.starts_with(')') || after.starts_with(','))
        {
            return false;
        }
        // Back to the `(` that opens the argument list, counting the
        // arguments before this one at its depth.
        let (mut depth, mut position) = (0i32, 0usize);
        for (i, ch) in before.char_indices().rev() {
            match ch {
                ')' | ']' | '}' => depth += 1,
                '[' | '{' if depth > 0 => depth -= 1,
                '(' if depth > 0 => depth -= 1,
                ',' if depth == 0 => position += 1,
                '(' => {
                    let callee = before[..i].trim_end();
                    let start = callee
                        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .map_or(0, |k| k + 1);
                    return ref_params
                        .get(&callee[start..])
                        .and_then(|flags| flags.get(position))
                        .copied()
                        .unwrap_or(false);
                }
                '[' | '{' => return false,
                _ => {}
            }
        }
        false
    })
}

/// Whether the zeno text `text` (updates, a function) assigns to the
/// variable `name` itself: `name = e`, `name op= e`, `name++`, `++name`.
/// A field or element (`name.f = 1`, `name[0] = 1`) is not the variable, nor
/// is `r.name = 1`.
fn writes(text: &str, name: &str) -> bool {
    words(text).any(|(at, w)| {
        if w != name {
            return false;
        }
        let before = text[..at].trim_end();
        if before.ends_with('.') {
            return false;
        }
        if before.ends_with("++") || before.ends_with("--") {
            return true;
        }
        let after = text[at + w.len()..].trim_start();
        if after.starts_with("++") || after.starts_with("--") {
            return true;
        }
        // `=` but not `==`; `+=`, `<<=`, … (`<=`, `>=`, `!=` are no writes).
        let compound = ["<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="];
        (after.starts_with('=') && !after.starts_with("=="))
            || compound.iter().any(|op| after.starts_with(op))
    })
}
