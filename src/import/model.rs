//! The translated model, already in zeno terms, and its formatting.

/// A zeno model under construction. Declarations, guards and updates are
/// zeno text produced by the expression printer.
#[derive(Debug, Default)]
pub(crate) struct Model {
    /// Leading comment lines (source format, notes).
    pub header: Vec<String>,
    /// Global declarations, one per line, with their `;`.
    pub globals: Vec<String>,
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
}

#[derive(Debug, Default)]
pub(crate) struct Template {
    pub name: String,
    /// Parameters as zeno text, e.g. `const pid_t pid`.
    pub params: Vec<String>,
    pub locals: Vec<String>,
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
}

#[derive(Debug)]
pub(crate) struct Check {
    /// Comment lines printed above the check.
    pub comment: Vec<String>,
    pub name: String,
    /// `A[] ...` / `E<> ...`, or `None` for a query kept only as a comment.
    pub formula: Option<String>,
}

impl Model {
    pub(crate) fn write(&self) -> String {
        let mut out = String::new();
        push_paragraph(&mut out, "// ", &self.header);
        push_paragraph(&mut out, "", &self.globals);
        for t in &self.templates {
            t.write(&mut out);
            out.push('\n');
        }
        push_lines(&mut out, "", &self.instances);
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
        push_lines(&mut out, "", &self.vectors);
        if !self.checks.is_empty() {
            out.push('\n');
        }
        for c in &self.checks {
            push_lines(&mut out, "// ", &c.comment);
            if let Some(f) = &c.formula {
                out.push_str(&format!("check {}: {f};\n", c.name));
            }
        }
        out
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

    fn write(&self, out: &mut String) {
        out.push_str(&format!(
            "template {}({}) {{\n",
            self.name,
            self.params.join(", ")
        ));
        push_paragraph(out, "    ", &self.locals);
        for l in &self.locations {
            let mut s = String::from("    ");
            if l.init {
                s.push_str("init ");
            }
            if l.urgent {
                s.push_str("urgent ");
            }
            if l.committed {
                s.push_str("committed ");
            }
            s.push_str("location ");
            s.push_str(&l.name);
            if let Some(inv) = &l.invariant {
                s.push_str(" invariant ");
                s.push_str(inv);
            }
            s.push_str(";\n");
            out.push_str(&s);
        }
        if !self.edges.is_empty() {
            out.push('\n');
        }
        for e in &self.edges {
            let mut s = format!("    {} -> {}", e.src, e.dst);
            if !e.select.is_empty() {
                s.push_str(&format!(" select {}", e.select.join(", ")));
            }
            if let Some(g) = &e.guard {
                s.push_str(&format!(" when {g}"));
            }
            if let Some(c) = &e.sync {
                s.push_str(&format!(" sync {c}"));
            }
            if !e.updates.is_empty() {
                s.push_str(&format!(" do {}", e.updates.join(", ")));
            }
            s.push_str(";\n");
            out.push_str(&s);
        }
        out.push_str("}\n");
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
