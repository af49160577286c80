//! The quick fix "declare the missing name": for an unknown name, a
//! declaration with the type its uses imply, inserted where the name is in
//! scope for all of them.
//!
//! The type comes from every unresolved use of the name in the file (the
//! item tree walked, with the resolution map telling declared names from
//! undeclared ones):
//! - `chan` when every use is a synchronisation `c!` or `c?`;
//! - `clock` when a use is in a location's invariant, has a rate (`x'`), is
//!   compared with or subtracted from a declared clock, or, failing those,
//!   when it is only ever compared by order (`<`, `<=`, `>`, `>=`) and
//!   assigned constants (the shape of `x > 2 … x = 0`);
//! - `bool` when it is a condition (`when b`, `!b`, `b && …`) or compared
//!   with or assigned `true`/`false`;
//! - `int` otherwise.
//!
//! No fix is offered when the uses disagree (a channel also read as a
//! value, a clock in arithmetic), when the name is indexed (an array's size
//! cannot be guessed) or used as a process or record.
//!
//! A clock whose uses all lie in one template is declared in that template
//! (each process gets its own, as clocks usually are); every other name is
//! declared globally (channels and shared variables are). The declaration
//! goes after the scope's last declaration before the name's first use
//! (declarations are read in order), else at the scope's start.

use zeno_ir::Span;
use zeno_semantics::hir::{
    AssignOp, BinaryOp, Decl, Expr, ExprKind, ItemTree, Stmt, StmtKind, TemplateItem, TypeRef,
    UnaryOp,
};
use zeno_semantics::resolve::{DefKind, Resolutions, absolute};

use super::Analysis;

/// A declaration to insert for an undeclared name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// The name declared.
    pub name: String,
    /// The type inferred from its uses: `clock`, `chan`, `bool` or `int`.
    pub ty: &'static str,
    /// The template it is declared in; `None` for a global.
    pub template: Option<String>,
    /// Where the text is inserted (a byte offset).
    pub at: u32,
    /// The text inserted: the declaration with its line break and indent.
    pub insert: String,
}

impl Declaration {
    /// The fix's title: ``Declare `clock x` in template `P` ``.
    pub fn title(&self) -> String {
        match &self.template {
            Some(t) => format!("Declare `{} {}` in template `{t}`", self.ty, self.name),
            None => format!("Declare `{} {}` globally", self.ty, self.name),
        }
    }
}

/// Where a use of the name stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Guard,
    Invariant,
    Update,
    /// A check's formula, an initialiser, a function's statement, an
    /// argument.
    Other,
}

/// What the uses of the name say about its type.
#[derive(Debug, Default)]
struct Evidence {
    /// Every unresolved use (absolute span) and the template it is in.
    uses: Vec<(Span, Option<usize>)>,
    sync: bool,
    clock: bool,
    /// Compared by order in a guard, invariant or check.
    ordered: bool,
    boolean: bool,
    /// Read as a number (arithmetic, assigned a non-constant, incremented).
    data: bool,
    /// Indexed, used as a process or record, called: no guess.
    unsupported: bool,
}

/// The declaration that would make the unknown name at `span` known, when
/// its uses agree on a type.
pub(crate) fn declare_missing(a: &Analysis, span: Span) -> Option<Declaration> {
    let text = a.text();
    let name = text.get(span.start as usize..span.end as usize)?;
    let tree = a.tree();
    let res = a.resolutions();
    let walker = Walker {
        tree: &tree,
        res: &res,
        name,
    };
    let mut ev = Evidence::default();
    walker.file(&mut ev);
    // The span must be one of the name's unresolved uses.
    if !ev.uses.iter().any(|(s, _)| *s == span) || ev.unsupported {
        return None;
    }
    let ty = if ev.sync {
        let only_sync = !(ev.clock || ev.ordered || ev.boolean || ev.data);
        only_sync.then_some("chan")?
    } else if ev.clock {
        (!ev.boolean && !ev.data).then_some("clock")?
    } else if ev.boolean {
        (!ev.data && !ev.ordered).then_some("bool")?
    } else if ev.ordered && !ev.data {
        "clock"
    } else {
        "int"
    };
    // One template holds every use: a clock goes there.
    let first_template = ev.uses[0].1;
    let local = match first_template {
        Some(k) if ty == "clock" && ev.uses.iter().all(|(_, t)| *t == Some(k)) => Some(k),
        _ => None,
    };
    let first_use = ev.uses.iter().map(|(s, _)| s.start).min()?;
    let decl = format!("{ty} {name};");
    let (at, insert) = match local {
        Some(k) => {
            let t = &tree.templates[k];
            let mut decls = t.data.decls.iter().map(|d| absolute(t, decl_span(d)));
            match decls.rfind(|d| d.end <= first_use) {
                Some(after) => after_line_of(text, after, &decl),
                None => template_start(text, t, &decl)?,
            }
        }
        None => {
            let mut decls = tree.globals.iter().map(decl_span);
            match decls.rfind(|d| d.end <= first_use) {
                Some(after) => after_line_of(text, after, &decl),
                None => {
                    let first = first_item(&tree)?;
                    let line = line_start(text, first);
                    (line, format!("{decl}\n"))
                }
            }
        }
    };
    Some(Declaration {
        name: name.to_string(),
        ty,
        template: local.map(|k| tree.templates[k].data.name.text.clone()),
        at,
        insert,
    })
}

fn decl_span(d: &Decl) -> Span {
    match d {
        Decl::Var(v) => v.span,
        Decl::Typedef(t) => t.span,
        Decl::Function(f) => f.span,
    }
}

/// The start of the line holding `offset`.
fn line_start(text: &str, offset: u32) -> u32 {
    text[..offset as usize]
        .rfind('\n')
        .map_or(0, |i| i as u32 + 1)
}

/// The end of the line holding `offset` (before its line break).
fn line_end(text: &str, offset: u32) -> u32 {
    text[offset as usize..]
        .find('\n')
        .map_or(text.len() as u32, |i| offset + i as u32)
}

/// The indentation of the line holding `offset`.
fn indent_of(text: &str, offset: u32) -> &str {
    let start = line_start(text, offset) as usize;
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `decl` after the declaration at `after`: on a line of its own, indented
/// as that one, when only a comment follows it on its line; else beside it.
fn after_line_of(text: &str, after: Span, decl: &str) -> (u32, String) {
    let mut end = after.end;
    if text[end as usize..].starts_with(';') {
        end += 1;
    }
    beside_or_below(text, end, indent_of(text, after.start), decl)
}

/// `decl` inserted at `at`: on a new line indented by `indent` when the
/// rest of the line is empty or a comment, else on the same line.
fn beside_or_below(text: &str, at: u32, indent: &str, decl: &str) -> (u32, String) {
    let end = line_end(text, at);
    let rest = text[at as usize..end as usize].trim();
    if rest.is_empty() || rest.starts_with("//") {
        (end, format!("\n{indent}{decl}"))
    } else {
        (at, format!(" {decl}"))
    }
}

/// `decl` as the template body's first declaration: after its `{`, on a
/// line of its own indented as the body's first item (or by four spaces)
/// when the `{` ends its line.
fn template_start(text: &str, t: &TemplateItem, decl: &str) -> Option<(u32, String)> {
    let name_end = absolute(t, t.data.name.span).end;
    let brace = name_end + text.get(name_end as usize..)?.find('{')? as u32;
    let end = line_end(text, brace);
    let first_item = [
        t.data.decls.first().map(decl_span),
        t.data.locations.first().map(|l| l.span),
        t.data.edges.first().map(|e| e.span),
    ]
    .into_iter()
    .flatten()
    .map(|s| absolute(t, s).start)
    .min();
    let indent = match first_item {
        Some(o) if o > end => indent_of(text, o),
        _ => "    ",
    };
    Some(beside_or_below(text, brace + 1, indent, decl))
}

/// Where the file's first item starts.
fn first_item(tree: &ItemTree) -> Option<u32> {
    let globals = tree.globals.iter().map(|d| decl_span(d).start);
    let templates = tree
        .templates
        .iter()
        .map(|t| absolute(t, t.data.span).start);
    let instances = tree.instances.iter().map(|i| i.span.start);
    let checks = tree.checks.iter().map(|c| c.span.start);
    globals
        .chain(templates)
        .chain(instances)
        .chain(checks)
        .chain(tree.system_span.map(|s| s.start))
        .min()
}

struct Walker<'a> {
    tree: &'a ItemTree,
    res: &'a Resolutions,
    name: &'a str,
}

impl Walker<'_> {
    fn file(&self, ev: &mut Evidence) {
        let global = |s: Span| s;
        for d in &self.tree.globals {
            self.decl(d, &global, None, ev);
        }
        for (k, t) in self.tree.templates.iter().enumerate() {
            let at = |s: Span| absolute(t, s);
            let inside = Some(k);
            for d in &t.data.decls {
                self.decl(d, &at, inside, ev);
            }
            for l in &t.data.locations {
                if let Some(i) = &l.invariant {
                    self.condition(i, Place::Invariant, &at, inside, ev);
                }
            }
            for e in &t.data.edges {
                if let Some(g) = &e.guard {
                    self.condition(g, Place::Guard, &at, inside, ev);
                }
                if let Some(s) = &e.sync {
                    if self.is_use(&s.channel, &at) {
                        ev.sync = true;
                        ev.uses.push((at(s.channel.span), inside));
                    } else {
                        self.expr(&s.channel, Place::Other, &at, inside, ev);
                    }
                }
                for u in &e.updates {
                    self.expr(u, Place::Update, &at, inside, ev);
                }
            }
        }
        for i in &self.tree.instances {
            for e in &i.args {
                self.expr(e, Place::Other, &global, None, ev);
            }
        }
        for c in &self.tree.checks {
            let parts = std::iter::once(&c.formula).chain(&c.target).chain(&c.terms);
            for e in parts {
                self.condition(e, Place::Other, &global, None, ev);
            }
        }
    }

    /// Whether `e` is the name itself, unresolved.
    fn is_use(&self, e: &Expr, at: &dyn Fn(Span) -> Span) -> bool {
        matches!(&e.kind, ExprKind::Name(n) if n == self.name)
            && self
                .res
                .at(at(e.span).start)
                .is_none_or(|r| r.span != at(e.span))
    }

    /// Whether `e` mentions a declared clock.
    fn mentions_clock(&self, e: &Expr, at: &dyn Fn(Span) -> Span) -> bool {
        match &e.kind {
            ExprKind::Name(_) => self.is_clock(at(e.span)),
            ExprKind::Index(a, _) => self.mentions_clock(a, at),
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, b) => {
                self.mentions_clock(a, at) || self.mentions_clock(b, at)
            }
            _ => false,
        }
    }

    /// Whether the name at `span` resolves to a variable declared `clock`.
    fn is_clock(&self, span: Span) -> bool {
        let Some(r) = self.res.at(span.start).filter(|r| r.span == span) else {
            return false;
        };
        let def = self.res.def(r.def);
        if def.kind != DefKind::Variable {
            return false;
        }
        let clock = |d: &Decl, at: &dyn Fn(Span) -> Span| matches!(d, Decl::Var(v) if at(v.name.span) == def.span && matches!(v.ty, TypeRef::Clock { .. }));
        match def
            .template
            .and_then(|k| self.tree.templates.get(k as usize))
        {
            Some(t) => t.data.decls.iter().any(|d| clock(d, &|s| absolute(t, s))),
            None => self.tree.globals.iter().any(|d| clock(d, &|s| s)),
        }
    }

    fn decl(&self, d: &Decl, at: &dyn Fn(Span) -> Span, inside: Option<usize>, ev: &mut Evidence) {
        match d {
            Decl::Var(v) => {
                // Sizes and initial values are constants: the name would
                // need a value, which its uses do not tell.
                let mut uses = Evidence::default();
                for e in v.array.iter().chain(&v.init) {
                    self.expr(e, Place::Other, at, inside, &mut uses);
                }
                ev.unsupported |= !uses.uses.is_empty();
                ev.uses.extend(uses.uses);
            }
            Decl::Typedef(_) => {}
            Decl::Function(f) => {
                for s in &f.body {
                    self.stmt(s, at, inside, ev);
                }
            }
        }
    }

    fn stmt(&self, s: &Stmt, at: &dyn Fn(Span) -> Span, inside: Option<usize>, ev: &mut Evidence) {
        let expr = |e: &Expr, ev: &mut Evidence| self.expr(e, Place::Update, at, inside, ev);
        match &s.kind {
            StmtKind::Block(b) => b.iter().for_each(|s| self.stmt(s, at, inside, ev)),
            StmtKind::Decl(d) => self.decl(d, at, inside, ev),
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr(e, ev),
            StmtKind::If(c, a, b) => {
                self.condition(c, Place::Other, at, inside, ev);
                self.stmt(a, at, inside, ev);
                if let Some(b) = b {
                    self.stmt(b, at, inside, ev);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.condition(c, Place::Other, at, inside, ev);
                self.stmt(b, at, inside, ev);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                init.iter().chain(step).for_each(|e| expr(e, ev));
                if let Some(c) = cond {
                    self.condition(c, Place::Other, at, inside, ev);
                }
                self.stmt(body, at, inside, ev);
            }
            StmtKind::ForRange { body, .. } => self.stmt(body, at, inside, ev),
            StmtKind::Return(None) | StmtKind::Empty => {}
        }
    }

    /// An expression whose value is a condition (a guard, an invariant, a
    /// formula): the name standing alone there is a `bool`.
    fn condition(
        &self,
        e: &Expr,
        place: Place,
        at: &dyn Fn(Span) -> Span,
        inside: Option<usize>,
        ev: &mut Evidence,
    ) {
        if self.is_use(e, at) {
            ev.boolean = true;
        }
        self.expr(e, place, at, inside, ev);
    }

    fn expr(
        &self,
        e: &Expr,
        place: Place,
        at: &dyn Fn(Span) -> Span,
        inside: Option<usize>,
        ev: &mut Evidence,
    ) {
        let is = |x: &Expr| self.is_use(x, at);
        let sub = |x: &Expr, ev: &mut Evidence| self.expr(x, place, at, inside, ev);
        match &e.kind {
            ExprKind::Name(_) => {
                if is(e) {
                    ev.uses.push((at(e.span), inside));
                }
            }
            ExprKind::Missing | ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Deadlock => {}
            ExprKind::Index(a, i) => {
                ev.unsupported |= is(a);
                sub(a, ev);
                sub(i, ev);
            }
            ExprKind::Field(b, _) => {
                ev.unsupported |= is(b);
                sub(b, ev);
            }
            ExprKind::Call(_, args) => {
                // An argument's type is the function's to say.
                ev.unsupported |= args.iter().any(is);
                args.iter().for_each(|x| sub(x, ev));
            }
            ExprKind::ProcessCall(p, _, args) => {
                ev.unsupported |= is(p) || args.iter().any(is);
                sub(p, ev);
                args.iter().for_each(|x| sub(x, ev));
            }
            ExprKind::Unary(op, x) => {
                if is(x) {
                    match op {
                        UnaryOp::Not => ev.boolean = true,
                        _ => ev.data = true,
                    }
                }
                sub(x, ev);
            }
            ExprKind::Binary(op, a, b) => {
                self.binary(*op, a, b, place, at, ev);
                for side in [a, b] {
                    match &side.kind {
                        // A difference in a comparison is the comparison's
                        // (`x - y < 3`), not arithmetic.
                        ExprKind::Binary(BinaryOp::Sub, x, y)
                            if op.is_comparison() && (is(x) || is(y)) =>
                        {
                            sub(x, ev);
                            sub(y, ev);
                        }
                        _ => sub(side, ev),
                    }
                }
            }
            ExprKind::Cond(c, a, b) => {
                ev.boolean |= is(c);
                ev.data |= is(a) || is(b);
                sub(c, ev);
                sub(a, ev);
                sub(b, ev);
            }
            ExprKind::Assign(op, lhs, rhs) => {
                if is(lhs) {
                    match (op, &rhs.kind) {
                        (AssignOp::Assign, ExprKind::Bool(_)) => ev.boolean = true,
                        // A constant: a reset, as for a clock, or a value.
                        (AssignOp::Assign, ExprKind::Int(_)) => {}
                        (AssignOp::Assign, _) if self.mentions_clock(rhs, at) => ev.clock = true,
                        _ => ev.data = true,
                    }
                }
                // Read on the right: a value.
                ev.data |= is(rhs);
                sub(lhs, ev);
                sub(rhs, ev);
            }
            ExprKind::Incr(x, _) => {
                ev.data |= is(x);
                sub(x, ev);
            }
            ExprKind::Rate(x) => {
                ev.clock |= is(x);
                sub(x, ev);
            }
            ExprKind::Quant(_, _, _, body) => sub(body, ev),
            ExprKind::List(items) => items.iter().for_each(|x| sub(x, ev)),
        }
    }

    /// What `a op b` says about the name when it is an operand (or, for a
    /// comparison, half of a difference `name - y` on one side).
    fn binary(
        &self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        place: Place,
        at: &dyn Fn(Span) -> Span,
        ev: &mut Evidence,
    ) {
        use BinaryOp::*;
        let is = |x: &Expr| self.is_use(x, at);
        match op {
            Lt | Le | Eq | Ne | Ge | Gt => {
                // The name, or a difference with the name, on one side.
                let sides = [(a, b), (b, a)];
                for (side, other) in sides {
                    let (own, partner) = match &side.kind {
                        _ if is(side) => (true, None),
                        ExprKind::Binary(Sub, x, y) if is(x) => (true, Some(&**y)),
                        ExprKind::Binary(Sub, x, y) if is(y) => (true, Some(&**x)),
                        _ => (false, None),
                    };
                    if !own {
                        continue;
                    }
                    let against_clock = self.mentions_clock(other, at)
                        || partner.is_some_and(|p| self.mentions_clock(p, at));
                    if against_clock || place == Place::Invariant {
                        ev.clock = true;
                    } else if matches!(other.kind, ExprKind::Bool(_)) {
                        ev.boolean = true;
                    } else if matches!(op, Lt | Le | Ge | Gt) && place != Place::Update {
                        ev.ordered = true;
                    } else if partner.is_some() || !matches!(op, Lt | Le | Ge | Gt) {
                        // `n == 3`, `n != m`: a value (clocks are not
                        // compared for equality in a guard).
                        ev.data = true;
                    }
                }
            }
            And | Or | Imply => ev.boolean |= is(a) || is(b),
            // A difference outside a comparison, or any other arithmetic.
            _ => ev.data |= is(a) || is(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first "unknown name" diagnostic's fix applied: the new text and
    /// the fix's title.
    fn fixed(text: &str) -> Option<(String, String)> {
        let a = Analysis::from_text(text);
        let unknown = a
            .diagnostics()
            .into_iter()
            .find(|d| d.message.starts_with("unknown name"))
            .expect("an unknown name");
        let d = a.declare_missing(unknown.range)?;
        let mut out = text.to_string();
        out.insert_str(d.at as usize, &d.insert);
        Some((out, d.title()))
    }

    /// The fixed text has no errors left: the semantics layer accepts the
    /// declaration with its type at its place.
    fn assert_clean(text: &str) {
        let errors: Vec<_> = Analysis::from_text(text)
            .diagnostics()
            .into_iter()
            .filter(|d| d.severity == zeno_base::diagnostics::Severity::Error)
            .map(|d| d.message)
            .collect();
        assert!(errors.is_empty(), "{errors:?} in\n{text}");
    }

    #[test]
    fn a_clock_compared_in_a_guard_and_reset_is_declared_in_its_template() {
        let text = "template P() {\n    int n;\n    init location a invariant x <= 3;\n    a -> a when x > 2 do x = 0;\n}\nsystem P;\n";
        let (out, title) = fixed(text).unwrap();
        assert_eq!(title, "Declare `clock x` in template `P`");
        assert_eq!(
            out,
            "template P() {\n    int n;\n    clock x;\n    init location a invariant x <= 3;\n    a -> a when x > 2 do x = 0;\n}\nsystem P;\n"
        );
        assert_clean(&out);
        // Without an invariant, order comparisons and resets alone; and
        // with no declaration in the template, at the body's start.
        let text = "template P() {\n    init location a;\n    a -> a when y >= 1 do y = 0;\n}\nsystem P;\n";
        let (out, _) = fixed(text).unwrap();
        assert_eq!(
            out,
            "template P() {\n    clock y;\n    init location a;\n    a -> a when y >= 1 do y = 0;\n}\nsystem P;\n"
        );
        assert_clean(&out);
    }

    #[test]
    fn a_name_compared_with_a_clock_is_a_clock() {
        // Compared with the clock `x` (a difference bound): a clock, even
        // with an equality.
        let text =
            "template P() { clock x; init location a; a -> a when x - z == 1; }\nsystem P;\n";
        let (out, title) = fixed(text).unwrap();
        assert_eq!(title, "Declare `clock z` in template `P`");
        assert_eq!(
            out,
            "template P() { clock x; clock z; init location a; a -> a when x - z == 1; }\nsystem P;\n"
        );
        assert_clean(&out);
        // Compared with a global clock in a check only: global.
        let text = "clock x;\ntemplate P() { init location a; a -> a do x = 0; }\nsystem P;\ncheck c: E<> x >= w;\n";
        let (out, title) = fixed(text).unwrap();
        assert_eq!(title, "Declare `clock w` globally");
        assert_eq!(
            out,
            "clock x;\nclock w;\ntemplate P() { init location a; a -> a do x = 0; }\nsystem P;\ncheck c: E<> x >= w;\n"
        );
        assert_clean(&out);
    }

    #[test]
    fn a_synchronised_name_is_a_global_channel() {
        let text = "int k;\ntemplate P() { init location a; a -> a sync go!; }\ntemplate Q() { init location b; b -> b sync go?; }\nsystem P, Q;\n";
        let (out, title) = fixed(text).unwrap();
        assert_eq!(title, "Declare `chan go` globally");
        assert_eq!(
            out,
            "int k;\nchan go;\ntemplate P() { init location a; a -> a sync go!; }\ntemplate Q() { init location b; b -> b sync go?; }\nsystem P, Q;\n"
        );
        assert_clean(&out);
    }

    #[test]
    fn variables_are_global_before_their_first_use() {
        // `id` is assigned a parameter: a value, shared by the processes.
        // No global declaration precedes it: the file's first item.
        let text = "// header\ntemplate P(const int[1, 2] pid) { init location a; a -> a when id == 0 do id = pid; }\nsystem P;\n";
        let (out, title) = fixed(text).unwrap();
        assert_eq!(title, "Declare `int id` globally");
        assert_eq!(
            out,
            "// header\nint id;\ntemplate P(const int[1, 2] pid) { init location a; a -> a when id == 0 do id = pid; }\nsystem P;\n"
        );
        assert_clean(&out);
        // Declared before the first use, after the declarations above it.
        let text = "int k;\ntemplate P() { init location a; a -> a do n++; }\nint m;\nsystem P;\ncheck c: A[] n < 3;\n";
        let (out, title) = fixed(text).unwrap();
        assert_eq!(title, "Declare `int n` globally");
        assert_eq!(
            out,
            "int k;\nint n;\ntemplate P() { init location a; a -> a do n++; }\nint m;\nsystem P;\ncheck c: A[] n < 3;\n"
        );
        assert_clean(&out);
    }

    #[test]
    fn a_condition_is_a_bool() {
        let text =
            "template P() { init location a; a -> a when !ready do ready = true; }\nsystem P;\n";
        let (out, title) = fixed(text).unwrap();
        assert_eq!(title, "Declare `bool ready` globally");
        assert_eq!(
            out,
            "bool ready;\ntemplate P() { init location a; a -> a when !ready do ready = true; }\nsystem P;\n"
        );
        assert_clean(&out);
    }

    #[test]
    fn uses_that_disagree_or_cannot_be_typed_get_no_fix() {
        // A channel read as a value.
        let text = "template P() { init location a; a -> a when c > 0 sync c!; }\nsystem P;\n";
        assert_eq!(fixed(text), None);
        // An array: its size cannot be guessed.
        let text = "template P() { init location a; a -> a do v[0] = 1; }\nsystem P;\n";
        assert_eq!(fixed(text), None);
        // A clock in arithmetic.
        let text =
            "template P() { init location a invariant x <= 2; a -> a do n = x + 1; }\nsystem P;\n";
        let a = Analysis::from_text(text);
        let x = a
            .diagnostics()
            .into_iter()
            .find(|d| d.message.starts_with("unknown name `x`"))
            .unwrap();
        assert_eq!(a.declare_missing(x.range), None);
        // In a constant (an initial value): a value would be needed.
        let text = "const int a = 1;\nint copy = b + 1;\n";
        assert_eq!(fixed(text), None);
        // A span that is no unknown name.
        let a = Analysis::from_text("int x;\n");
        assert_eq!(a.declare_missing(Span::new(4, 5)), None);
    }
}
