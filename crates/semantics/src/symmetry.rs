//! Which `scalar` sets the network is symmetric in ([`ir::symmetry`]).
//!
//! zeno reads a scalar set as its values' integer range; the checker may
//! reduce over a set only where the model cannot tell its values apart.
//! This pass decides that on the item tree, with its own small type
//! discipline (UPPAAL's, FORMATS 2003 §3): an expression has the type of
//! a set `S` when it is a variable, parameter, element, `select` or
//! quantifier binding declared of type `S` (or a function result, a
//! conditional or an assignment of such); a value of `S` may only be
//! compared with `==`/`!=` to another value of `S`, index a dimension
//! declared over `S`, be assigned to or passed as a place of type `S`;
//! a place of type `S` takes only values of `S`, and a dimension over `S`
//! only indexes of `S` (no literal, no arithmetic, no ordering). Where a
//! model breaks the discipline, a warning at the first place says that
//! the reduction over the set is off (UPPAAL refuses such models; zeno
//! checks them without the reduction). Whatever the pass does not analyse
//! (records holding values of a set, arrays over a set inside processes
//! made for it, a dimension over a set after the first, reference
//! arguments of such processes) turns the reduction off the same way.
//!
//! A check that names one value (`P(1).cs`, `id == 0`) is decided
//! without the reduction (`Symmetry::asymmetric_checks`), with the reason
//! the CLI and the editors show.
//!
//! Under the discipline every guard, update, invariant and synchronisation
//! commutes with a permutation of the values applied to the state (the
//! parts the values own move, the stored values are mapped), so the
//! transition relation is invariant, and so is a symmetric check's goal:
//! exactly what the checker's canonical representatives need.

use rustc_hash::FxHashMap;

use super::hir::{self, Decl, ExprKind, ItemTree, StmtKind, TypeRef};
use super::lower::{GlobalScope, ProcInfo};
use super::resolve::Resolutions;
use super::ty::{Sym, Ty};
use zeno_base::diagnostics::Diagnostic;
use zeno_ir::{self as ir, Span, symmetry::ScalarSet};

/// What a declared place holds in each slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Elem {
    /// A value of set `k`.
    Set(usize),
    /// An integer, boolean, clock, channel or a record without set values.
    Plain,
}

/// A dimension of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dim {
    /// Declared over set `k` (`int a[id_t]`).
    Set(usize),
    /// Declared by a size or an integer range.
    Size,
}

/// The type of an expression, as far as the discipline cares.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// A single value: of set `k`, or plain.
    Val(Option<usize>),
    /// A whole array (or its part) not yet indexed down to a value.
    Arr(Elem, Vec<Dim>),
    /// A syntax error already reported: nothing to say.
    Unknown,
}

impl Kind {
    fn of(elem: Elem, dims: &[Dim]) -> Kind {
        if dims.is_empty() {
            Kind::Val(match elem {
                Elem::Set(k) => Some(k),
                Elem::Plain => None,
            })
        } else {
            Kind::Arr(elem, dims.to_vec())
        }
    }

    /// The sets the kind mentions.
    fn sets(&self) -> Vec<usize> {
        match self {
            Kind::Val(s) => s.iter().copied().collect(),
            Kind::Arr(e, dims) => {
                let mut out: Vec<usize> = dims
                    .iter()
                    .filter_map(|d| match d {
                        Dim::Set(k) => Some(*k),
                        Dim::Size => None,
                    })
                    .collect();
                if let Elem::Set(k) = e {
                    out.push(*k);
                }
                out
            }
            Kind::Unknown => Vec::new(),
        }
    }
}

/// What a name stands for.
#[derive(Debug, Clone)]
enum Info {
    /// A variable, constant, parameter or binding.
    Place { elem: Elem, dims: Vec<Dim> },
    /// A type name.
    Type { elem: Elem, dims: Vec<Dim> },
    /// A function: its result and parameters.
    Function { ret: Kind, params: Vec<Kind> },
    /// A location (in a process's scope, for checks).
    Location,
}

/// A template or partial instance as checks and instances see it.
struct Proto {
    /// The parameters' kinds, in order.
    params: Vec<Kind>,
    /// The names it declares (parameters, locals, functions, locations).
    locals: FxHashMap<String, Info>,
}

/// A scalar set declared by a global typedef.
struct SetDecl {
    name: String,
    span: Span,
    size: u32,
    /// The first place that breaks the discipline, if any.
    broken: Option<(Span, String)>,
    /// The templates (or partial instances) made once per value.
    families: Vec<String>,
    /// The edges with `select` bindings of the set, and their names.
    selects: Vec<(Span, Vec<String>)>,
}

struct Pass<'a> {
    tree: &'a ItemTree,
    /// Which definition each name denotes: the one resolver's answer.
    resolved: &'a Resolutions,
    sets: Vec<SetDecl>,
    /// What each definition read so far stands for, by the absolute span
    /// of its defining name (as the resolver's definitions have it).
    defs: FxHashMap<Span, Info>,
    /// How many scopes are open around the current place: 0 among the
    /// global declarations, 1 among a template's (or a partial
    /// instance's parameters), more inside functions, edges and bindings.
    depth: usize,
    /// The global declarations by name (the places the sets own).
    globals: FxHashMap<String, Info>,
    /// While a template is read: the names it declares at its top
    /// (parameters, locals, functions, locations), for checks' `P.x`.
    members: Option<FxHashMap<String, Info>>,
    protos: FxHashMap<String, Proto>,
    /// Added to spans inside the template being read.
    offset: u32,
    /// Set while a check is read: its first asymmetry.
    check: Option<Option<String>>,
    /// The result type of the function being read.
    ret: Kind,
}

/// The symmetry of `net` (filled in its `symmetry` field) and the warnings
/// saying where a scalar set is not used symmetrically.
pub fn analyse(
    tree: &ItemTree,
    resolve: &super::system::Resolver<'_>,
    globals: &GlobalScope,
    procs: &[ProcInfo],
    net: &mut ir::Network,
) -> Vec<Diagnostic> {
    let sets = declare_sets(tree, globals);
    if sets.is_empty() {
        return Vec::new();
    }
    // Names are resolved only for models with scalar sets (few), so the
    // others do not pay for it.
    let resolved = resolve();
    let mut pass = Pass {
        tree,
        resolved: &resolved,
        sets,
        defs: FxHashMap::default(),
        depth: 0,
        globals: FxHashMap::default(),
        members: None,
        protos: FxHashMap::default(),
        offset: 0,
        check: None,
        ret: Kind::Val(None),
    };
    pass.decls(&tree.globals, false);
    for t in &tree.templates {
        pass.template(t);
    }
    pass.instances();
    pass.system();
    for v in &tree.vectors {
        for p in &v.participants {
            pass.expr(&p.process);
        }
    }
    for p in &tree.priorities {
        for (entry, _) in &p.entries {
            if let hir::PriorityEntry::Channel(e) = entry {
                pass.expr(e);
            }
        }
    }
    let mut asymmetric = Vec::new();
    for c in &tree.checks {
        pass.check = Some(None);
        pass.expr(&c.formula);
        if let Some(t) = &c.target {
            pass.expr(t);
        }
        for t in &c.terms {
            pass.expr(t);
        }
        asymmetric.push(pass.check.take().flatten());
    }
    pass.build(globals, procs, net, asymmetric)
}

/// The global typedefs of scalar sets (`typedef scalar[N] S;`).
fn declare_sets(tree: &ItemTree, globals: &GlobalScope) -> Vec<SetDecl> {
    let mut sets = Vec::new();
    for d in &tree.globals {
        let Decl::Typedef(t) = d else { continue };
        if !t.array.is_empty() {
            continue;
        }
        let TypeRef::Scalar { .. } = t.ty else {
            continue;
        };
        let Some((_, Sym::Typedef(Ty::Int { lo: 0, hi }))) =
            globals.symbols.iter().find(|(n, _)| *n == t.name.text)
        else {
            continue;
        };
        sets.push(SetDecl {
            name: t.name.text.clone(),
            span: t.name.span,
            size: (*hi + 1) as u32,
            broken: None,
            families: Vec::new(),
            selects: Vec::new(),
        });
    }
    sets
}

impl Pass<'_> {
    /// What the name `text` written at `span` stands for: the definition
    /// the resolver says it denotes, as this pass has read it.
    fn lookup(&self, text: &str, span: Span) -> Option<&Info> {
        let def = self.resolved.def_of(self.abs(span), text)?;
        self.defs.get(&def.span)
    }

    /// Reads the definition of `name` as standing for `info`.
    fn bind(&mut self, name: &hir::Name, info: Info) {
        match (self.depth, &mut self.members) {
            (0, _) => {
                self.globals.insert(name.text.clone(), info.clone());
            }
            (1, Some(members)) => {
                members.insert(name.text.clone(), info.clone());
            }
            _ => {}
        }
        self.defs.insert(self.abs(name.span), info);
    }

    fn abs(&self, span: Span) -> Span {
        Span::new(span.start + self.offset, span.end + self.offset)
    }

    /// Records that the model (or the check being read) breaks the
    /// discipline of the sets in `sets` at `span`.
    fn broken(&mut self, sets: &[usize], span: Span, why: impl Fn(&str) -> String) {
        let at = self.abs(span);
        for &k in sets {
            let message = why(&self.sets[k].name);
            match &mut self.check {
                Some(first) => {
                    first.get_or_insert(format!(
                        "it tells values of `{}` apart (as naming `P(1)` does)",
                        self.sets[k].name
                    ));
                }
                None => {
                    self.sets[k].broken.get_or_insert((at, message));
                }
            }
        }
    }

    /// Requires `k` to be a plain value (an operand of arithmetic, a
    /// condition, an index of a plain dimension).
    fn plain(&mut self, k: &Kind, span: Span, what: &str) {
        let sets = k.sets();
        if !sets.is_empty() {
            self.broken(&sets, span, |s| format!("{what} a value of `{s}`"));
        }
    }

    /// Requires a value of kind `got` where one of kind `want` goes
    /// (assignment, argument, initialiser, comparison).
    fn agree(&mut self, want: &Kind, got: &Kind, span: Span) {
        if *want == Kind::Unknown || *got == Kind::Unknown || want == got {
            return;
        }
        let mut sets = want.sets();
        sets.extend(got.sets());
        sets.dedup();
        self.broken(&sets, span, |s| {
            format!("a value of `{s}` meets one of another type (only values of `{s}` go there)")
        });
    }

    /// The element and dimensions of a declared type with its own
    /// dimensions `array`.
    fn type_of(&mut self, ty: &TypeRef, array: &[hir::Expr]) -> (Elem, Vec<Dim>) {
        let mut dims: Vec<Dim> = array.iter().map(|d| self.dim(d)).collect();
        let elem = match ty {
            TypeRef::Named(n) => match self.lookup(&n.text, n.span) {
                Some(Info::Type { elem, dims: more }) => {
                    let (elem, more) = (*elem, more.clone());
                    dims.extend(more);
                    elem
                }
                _ => Elem::Plain,
            },
            TypeRef::Struct { fields, span } => {
                let mut inside = Vec::new();
                for f in fields {
                    let (e, d) = self.type_of(&f.ty, &f.array);
                    inside.extend(Kind::of(e, &d).sets());
                }
                self.broken(&inside, *span, |s| {
                    format!("a record holding values of `{s}` is not analysed for symmetry")
                });
                Elem::Plain
            }
            _ => Elem::Plain,
        };
        (elem, dims)
    }

    /// A dimension: the name of a set, or a size.
    fn dim(&mut self, d: &hir::Expr) -> Dim {
        if let ExprKind::Name(n) = &d.kind
            && let Some(Info::Type { elem, dims }) = self.lookup(n, d.span)
        {
            return match (elem, dims.is_empty()) {
                (Elem::Set(k), true) => Dim::Set(*k),
                _ => Dim::Size,
            };
        }
        let k = self.expr(d);
        self.plain(&k, d.span, "an array size is");
        Dim::Size
    }

    fn decls(&mut self, decls: &[Decl], in_family: bool) {
        for d in decls {
            self.decl(d, in_family);
        }
    }

    fn decl(&mut self, d: &Decl, in_family: bool) {
        match d {
            Decl::Typedef(t) => {
                let (elem, dims) = match &t.ty {
                    TypeRef::Scalar { .. } if t.array.is_empty() => {
                        match self.sets.iter().position(|s| s.name == t.name.text) {
                            Some(k) if self.depth == 0 => (Elem::Set(k), Vec::new()),
                            _ => (Elem::Plain, Vec::new()),
                        }
                    }
                    _ => self.type_of(&t.ty, &t.array),
                };
                self.bind(&t.name, Info::Type { elem, dims });
            }
            Decl::Var(v) => {
                let (elem, dims) = self.type_of(&v.ty, &v.array);
                self.layout(&dims, v.span, in_family);
                if let Some(init) = &v.init {
                    self.initialiser(elem, init);
                }
                self.bind(&v.name, Info::Place { elem, dims });
            }
            Decl::Function(f) => self.function(f),
        }
    }

    /// Arrays over a set are analysed when the set is their first
    /// dimension and they are global.
    fn layout(&mut self, dims: &[Dim], span: Span, in_family: bool) {
        let over: Vec<usize> = dims
            .iter()
            .enumerate()
            .filter_map(|(i, d)| match d {
                Dim::Set(k) if i > 0 || in_family || self.depth > 0 => Some(*k),
                _ => None,
            })
            .collect();
        self.broken(&over, span, |s| {
            format!(
                "an array over `{s}` is analysed for symmetry only as a global with `{s}` as its first dimension"
            )
        });
    }

    /// An initial value, `{ … }` lists element by element.
    fn initialiser(&mut self, elem: Elem, init: &hir::Expr) {
        if let ExprKind::List(items) = &init.kind {
            for i in items {
                self.initialiser(elem, i);
            }
            return;
        }
        let got = self.expr(init);
        self.agree(&Kind::of(elem, &[]), &got, init.span);
    }

    fn param(&mut self, p: &hir::Param) -> Kind {
        let (elem, dims) = self.type_of(&p.ty, &p.array);
        self.bind(
            &p.name,
            Info::Place {
                elem,
                dims: dims.clone(),
            },
        );
        Kind::of(elem, &dims)
    }

    fn function(&mut self, f: &hir::Function) {
        let ret = match &f.ret {
            Some(t) => {
                let (e, d) = self.type_of(t, &[]);
                Kind::of(e, &d)
            }
            None => Kind::Val(None),
        };
        self.depth += 1;
        let params: Vec<Kind> = f.params.iter().map(|p| self.param(p)).collect();
        let saved = std::mem::replace(&mut self.ret, ret.clone());
        self.stmts(&f.body);
        self.ret = saved;
        self.depth -= 1;
        self.bind(&f.name, Info::Function { ret, params });
    }

    fn stmts(&mut self, body: &[hir::Stmt]) {
        self.depth += 1;
        for s in body {
            self.stmt(s);
        }
        self.depth -= 1;
    }

    fn stmt(&mut self, s: &hir::Stmt) {
        match &s.kind {
            StmtKind::Block(b) => self.stmts(b),
            StmtKind::Decl(d) => self.decl(d, false),
            StmtKind::Expr(e) => {
                self.expr(e);
            }
            StmtKind::If(c, a, b) => {
                self.condition(c);
                self.stmt(a);
                if let Some(b) = b {
                    self.stmt(b);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.condition(c);
                self.stmt(b);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                for e in init.iter().chain(step) {
                    self.expr(e);
                }
                if let Some(c) = cond {
                    self.condition(c);
                }
                self.stmt(body);
            }
            StmtKind::ForRange { name, ty, body } => {
                self.depth += 1;
                let (elem, dims) = self.type_of(ty, &[]);
                self.bind(name, Info::Place { elem, dims });
                self.stmt(body);
                self.depth -= 1;
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let got = self.expr(e);
                    let want = self.ret.clone();
                    self.agree(&want, &got, e.span);
                }
            }
            StmtKind::Empty => {}
        }
    }

    fn condition(&mut self, c: &hir::Expr) {
        let k = self.expr(c);
        self.plain(&k, c.span, "a condition is");
    }

    /// The set whose values parameterise `params` when it is exactly one
    /// parameter of a set's type.
    fn family_set(params: &[Kind]) -> Option<usize> {
        match params {
            [Kind::Val(Some(k))] => Some(*k),
            _ => None,
        }
    }

    fn template(&mut self, t: &hir::TemplateItem) {
        self.offset = t.offset;
        self.depth += 1;
        self.members = Some(FxHashMap::default());
        let params: Vec<Kind> = t.data.params.iter().map(|p| self.param(p)).collect();
        let in_family = params.iter().any(|k| !k.sets().is_empty());
        self.decls(&t.data.decls, in_family);
        for l in &t.data.locations {
            self.bind(&l.name, Info::Location);
            if let Some(i) = &l.invariant {
                self.expr(i);
            }
        }
        for e in &t.data.edges {
            self.depth += 1;
            for s in &e.selects {
                let (elem, dims) = self.type_of(&s.ty, &[]);
                if let (Elem::Set(k), true) = (elem, dims.is_empty()) {
                    let at = Span::new(e.span.start + self.offset, e.span.end + self.offset);
                    match self.sets[k].selects.last_mut() {
                        Some((span, names)) if *span == at => names.push(s.name.text.clone()),
                        _ => self.sets[k].selects.push((at, vec![s.name.text.clone()])),
                    }
                }
                self.bind(&s.name, Info::Place { elem, dims });
            }
            if let Some(g) = &e.guard {
                self.condition(g);
            }
            if let Some(s) = &e.sync {
                self.expr(&s.channel);
            }
            for u in &e.updates {
                self.expr(u);
            }
            self.depth -= 1;
        }
        let locals = self.members.take().unwrap_or_default();
        self.depth -= 1;
        self.offset = 0;
        self.protos
            .insert(t.data.name.text.clone(), Proto { params, locals });
    }

    /// `P1 = T(…);` and `P(const S i) = T(i, …);`: the arguments agree
    /// with the parameters, and a partial instance is a template of its own
    /// for checks.
    fn instances(&mut self) {
        for inst in &self.tree.instances {
            self.depth += 1;
            let params: Vec<Kind> = inst.params.iter().map(|p| self.param(p)).collect();
            let wanted = self
                .protos
                .get(&inst.template.text)
                .map(|p| p.params.clone())
                .unwrap_or_default();
            for (a, want) in inst.args.iter().zip(&wanted) {
                let got = self.expr(a);
                self.agree(want, &got, a.span);
            }
            self.depth -= 1;
            let locals = self
                .protos
                .get(&inst.template.text)
                .map(|p| p.locals.clone())
                .unwrap_or_default();
            self.protos
                .insert(inst.name.text.clone(), Proto { params, locals });
        }
    }

    /// The `system` entries made once per value of a set.
    fn system(&mut self) {
        for entry in &self.tree.system {
            let explicit = self
                .tree
                .instances
                .iter()
                .find(|i| i.name.text == entry.text);
            let Some(proto) = self.protos.get(&entry.text) else {
                continue;
            };
            if explicit.is_some_and(|i| i.params.is_empty()) {
                continue;
            }
            let sets: Vec<usize> = proto.params.iter().flat_map(|k| k.sets()).collect();
            match Self::family_set(&proto.params) {
                Some(k) => self.sets[k].families.push(entry.text.clone()),
                None => self.broken(&sets, entry.span, |s| {
                    format!(
                        "`system {}` makes processes for values of `{s}` together with other parameters; symmetry reduction needs `{s}` as the one parameter",
                        entry.text
                    )
                }),
            }
        }
    }

    /// A process named in a check or a synchronisation vector: `P1`,
    /// `P(i)`; its scope for the name after the dot.
    fn process(&mut self, e: &hir::Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Name(n) if self.protos.contains_key(n) => Some(n.clone()),
            ExprKind::Call(n, args) if self.protos.contains_key(&n.text) => {
                let wanted = self.protos[&n.text].params.clone();
                for (a, want) in args.iter().zip(&wanted) {
                    let got = self.expr(a);
                    self.agree(want, &got, a.span);
                }
                Some(n.text.clone())
            }
            _ => None,
        }
    }

    fn expr(&mut self, e: &hir::Expr) -> Kind {
        match &e.kind {
            ExprKind::Missing => Kind::Unknown,
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Deadlock => Kind::Val(None),
            ExprKind::Name(n) => match self.lookup(n, e.span) {
                Some(Info::Place { elem, dims }) => Kind::of(*elem, dims),
                _ => Kind::Val(None),
            },
            ExprKind::Index(a, i) => {
                let ka = self.expr(a);
                let ki = self.expr(i);
                match ka {
                    Kind::Arr(elem, dims) => {
                        match dims[0] {
                            Dim::Set(k) => self.agree(&Kind::Val(Some(k)), &ki, i.span),
                            Dim::Size => self.plain(
                                &ki,
                                i.span,
                                "an index of an array not declared over a set is",
                            ),
                        }
                        Kind::of(elem, &dims[1..])
                    }
                    Kind::Unknown => Kind::Unknown,
                    Kind::Val(_) => {
                        self.plain(
                            &ki,
                            i.span,
                            "an index of an array not declared over a set is",
                        );
                        Kind::Val(None)
                    }
                }
            }
            ExprKind::Field(base, name) => match self.process(base) {
                Some(p) => match self.protos.get(&p).and_then(|p| p.locals.get(&name.text)) {
                    Some(Info::Place { elem, dims }) => Kind::of(*elem, dims),
                    _ => Kind::Val(None),
                },
                // A field of a record: records holding set values are refused
                // where declared, so the field is plain.
                None => {
                    self.expr(base);
                    Kind::Val(None)
                }
            },
            ExprKind::Call(name, args) => {
                if self.process(e).is_some() {
                    return Kind::Val(None);
                }
                let (ret, params) = match self.lookup(&name.text, name.span) {
                    Some(Info::Function { ret, params }) => (ret.clone(), params.clone()),
                    _ => (Kind::Val(None), Vec::new()),
                };
                for (k, a) in args.iter().enumerate() {
                    let got = self.expr(a);
                    match params.get(k) {
                        Some(want) => self.agree(want, &got, a.span),
                        None => self.plain(&got, a.span, "an argument of a built-in function is"),
                    }
                }
                ret
            }
            ExprKind::ProcessCall(p, _, args) => {
                self.process(p);
                for a in args {
                    let k = self.expr(a);
                    self.plain(
                        &k,
                        a.span,
                        "an argument of a process's function in a check is",
                    );
                }
                Kind::Val(None)
            }
            ExprKind::Unary(_, a) => {
                let k = self.expr(a);
                self.plain(&k, a.span, "an operand of a prefix operator is");
                Kind::Val(None)
            }
            ExprKind::Binary(op, a, b) => {
                let ka = self.expr(a);
                let kb = self.expr(b);
                if matches!(op, hir::BinaryOp::Eq | hir::BinaryOp::Ne) {
                    self.agree(&ka, &kb, e.span);
                } else {
                    self.plain(&ka, a.span, "an operand of arithmetic or an ordering is");
                    self.plain(&kb, b.span, "an operand of arithmetic or an ordering is");
                }
                Kind::Val(None)
            }
            ExprKind::Cond(c, a, b) => {
                self.condition(c);
                let ka = self.expr(a);
                let kb = self.expr(b);
                self.agree(&ka, &kb, e.span);
                ka
            }
            ExprKind::Assign(op, l, r) => {
                let kl = self.expr(l);
                let kr = self.expr(r);
                if *op == hir::AssignOp::Assign {
                    self.agree(&kl, &kr, e.span);
                } else {
                    self.plain(&kl, l.span, "the target of a compound assignment is");
                    self.plain(&kr, r.span, "an operand of a compound assignment is");
                }
                kl
            }
            ExprKind::Incr(a, _) => {
                let k = self.expr(a);
                self.plain(&k, a.span, "an increment's operand is");
                Kind::Val(None)
            }
            ExprKind::Rate(a) => {
                self.expr(a);
                Kind::Val(None)
            }
            ExprKind::Quant(q, name, ty, body) => {
                self.depth += 1;
                let (elem, dims) = self.type_of(ty, &[]);
                self.bind(name, Info::Place { elem, dims });
                let k = self.expr(body);
                if *q == hir::QuantKind::Sum {
                    self.plain(&k, body.span, "a sum's term is");
                } else {
                    self.plain(&k, body.span, "a quantified condition is");
                }
                self.depth -= 1;
                Kind::Val(None)
            }
            ExprKind::List(items) => {
                for i in items {
                    self.expr(i);
                }
                Kind::Unknown
            }
        }
    }

    /// The symmetry of the lowered network: for each set kept, the places
    /// each value owns.
    fn build(
        mut self,
        globals: &GlobalScope,
        procs: &[ProcInfo],
        net: &mut ir::Network,
        asymmetric: Vec<Option<String>>,
    ) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        let mut kept = Vec::new();
        for k in 0..self.sets.len() {
            let mut set = ScalarSet {
                name: self.sets[k].name.clone(),
                span: self.sets[k].span,
                size: self.sets[k].size,
                processes: Vec::new(),
                variables: Vec::new(),
                clocks: Vec::new(),
                values: Vec::new(),
                selects: std::mem::take(&mut self.sets[k].selects),
            };
            if self.sets[k].broken.is_none() {
                self.globals_of(k, globals, &mut set);
                self.families_of(k, procs, &mut set);
                tidy(&mut set);
            }
            let owns =
                !(set.processes.is_empty() && set.variables.is_empty() && set.clocks.is_empty());
            match self.sets[k].broken.take() {
                // A set nothing is made over is never permuted: nothing to say.
                Some(_) if !self.uses(k) => {}
                Some((at, why)) => diags.push(
                    Diagnostic::warning(
                        at,
                        format!(
                            "{why}: the model is checked without symmetry reduction over `{}` (UPPAAL allows a scalar value only in `==`, `!=`, assignments and as an index of arrays over its set)",
                            set.name
                        ),
                    )
                    .with_related(set.span, "the scalar set"),
                ),
                None if owns => kept.push(set),
                None => {}
            }
        }
        net.symmetry = ir::symmetry::Symmetry {
            asymmetric_checks: if kept.is_empty() {
                Vec::new()
            } else {
                asymmetric
            },
            sets: kept,
        };
        diags
    }

    /// Whether anything is made over set `k` (processes, arrays).
    fn uses(&self, k: usize) -> bool {
        !self.sets[k].families.is_empty()
            || self.globals.values().any(
                |i| matches!(i, Info::Place { dims, .. } if dims.first() == Some(&Dim::Set(k))),
            )
    }

    /// The global arrays over set `k` and the global places of its type.
    fn globals_of(&self, k: usize, globals: &GlobalScope, set: &mut ScalarSet) {
        let n = set.size;
        for (name, sym) in &globals.symbols {
            let Some(Info::Place { elem, dims }) = self.globals.get(name) else {
                continue;
            };
            let over = dims.first() == Some(&Dim::Set(k));
            match sym {
                Sym::Var { base, ty } => {
                    let slots = ty.slots().unwrap_or(0);
                    if over {
                        let stride = slots / n;
                        for off in 0..stride {
                            set.variables
                                .push((0..n).map(|v| base + v * stride + off).collect());
                        }
                    }
                    if *elem == Elem::Set(k) {
                        set.values.extend(*base..base + slots);
                    }
                }
                Sym::Clocks { base, shape } if over => {
                    let count = shape.slots().unwrap_or(0);
                    let stride = count / n;
                    for off in 0..stride {
                        set.clocks
                            .push((0..n).map(|v| base + v * stride + off).collect());
                    }
                }
                _ => {}
            }
        }
    }

    /// The processes made once per value of set `k`, and their locals.
    fn families_of(&self, k: usize, procs: &[ProcInfo], set: &mut ScalarSet) {
        let n = set.size as usize;
        for family in &self.sets[k].families {
            let mut row: Vec<Option<usize>> = vec![None; n];
            for (p, info) in procs.iter().enumerate() {
                if info.template == *family
                    && let [v] = info.args[..]
                    && let Some(slot) = usize::try_from(v).ok().and_then(|v| row.get_mut(v))
                {
                    *slot = Some(p);
                }
            }
            let Some(row) = row.into_iter().collect::<Option<Vec<usize>>>() else {
                continue;
            };
            set.processes.push(row.iter().map(|&p| p as u32).collect());
            let locals = &self.protos[family].locals;
            let mut names: Vec<&String> = procs[row[0]].locals.keys().collect();
            names.sort();
            for name in names {
                let of = |p: usize| procs[p].locals.get(name);
                match of(row[0]) {
                    Some(Sym::Var { ty, .. }) => {
                        let slots = ty.slots().unwrap_or(0);
                        let bases: Vec<u32> = row
                            .iter()
                            .filter_map(|&p| match of(p) {
                                Some(Sym::Var { base, .. }) => Some(*base),
                                _ => None,
                            })
                            .collect();
                        for off in 0..slots {
                            set.variables.push(bases.iter().map(|b| b + off).collect());
                        }
                        if matches!(locals.get(name), Some(Info::Place { elem: Elem::Set(j), .. }) if *j == k)
                        {
                            for b in &bases {
                                set.values.extend(*b..b + slots);
                            }
                        }
                    }
                    Some(Sym::Clock { .. }) | Some(Sym::Clocks { .. }) => {
                        let clocks: Vec<(u32, u32)> = row
                            .iter()
                            .filter_map(|&p| match of(p) {
                                Some(Sym::Clock { id }) => Some((*id, 1)),
                                Some(Sym::Clocks { base, shape }) => {
                                    Some((*base, shape.slots().unwrap_or(0)))
                                }
                                _ => None,
                            })
                            .collect();
                        for off in 0..clocks[0].1 {
                            set.clocks.push(clocks.iter().map(|c| c.0 + off).collect());
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Drops the rows that move nothing (a reference parameter bound to the
/// same global in every process) and repeated rows and slots (a reference
/// to an element of a global array over the set is that array's row).
fn tidy(set: &mut ScalarSet) {
    fn rows(rows: &mut Vec<Vec<u32>>) {
        rows.retain(|r| r.iter().any(|&x| x != r[0]));
        let mut seen = rustc_hash::FxHashSet::default();
        rows.retain(|r| seen.insert(r.clone()));
    }
    rows(&mut set.variables);
    rows(&mut set.clocks);
    set.values.sort_unstable();
    set.values.dedup();
}
