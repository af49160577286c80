//! Name resolution, type checking and lowering of HIR to [`ir::Network`].
//!
//! One walker does all three, so the rules live in one place. It runs in two
//! modes: [`Mode::Check`] checks a template on its own (parameters and
//! `select` values unknown; used by the per-template salsa query), and
//! [`Mode::Lower`] builds the network for concrete instances. Lowering never
//! panics on bad input: every problem becomes a diagnostic and a placeholder.
//!
//! This module holds the context, scopes, types and declarations;
//! `expr` data expressions, `data` arrays, records, initialisers and
//! accesses to their parts, `clocks` clock constraints and check
//! formulas, `template` updates, synchronisations and templates.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::hir::{self, AssignOp, BinaryOp, Decl, ExprKind, QuantKind, TypeRef, UnaryOp};
use super::resolve::{DefKind, LocalDef, Resolutions, TemplateNames};
use super::ty::{self, MAX_EXPANSION, Sym, Ty};
use zeno_base::diagnostics::Diagnostic;
use zeno_ir::{self as ir, BinOp, ChannelKind, ClockConstraint, ClockId, Span, UnOp};

mod clocks;
pub use clocks::MAX_TIME_SCALE;
mod counts;
mod data;
mod disjunction;
mod expr;
mod function;
mod priorities;
mod rates;
mod suggest;
mod template;
mod vectors;

/// The most elements (instances, select copies, quantifier values) a whole
/// model may expand into.
pub const MAX_TOTAL_EXPANSION: i64 = 1_000_000;

/// Length of an array whose size is unknown while its template is checked
/// on its own.
const UNKNOWN_LEN: u32 = u32::MAX;

/// Slot used for values unknown while a template is checked alone.
const UNKNOWN: u32 = u32::MAX;

/// What the walker does: check a template alone, or lower instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Checks a template on its own, parameters and `select` values unknown.
    Check,
    /// Builds the network for concrete instances.
    Lower,
}

struct Entry {
    sym: Sym,
    span: Span,
    used: bool,
}

#[derive(Default)]
struct Scope {
    map: FxHashMap<String, Entry>,
    order: Vec<String>,
}

/// A lowered data expression.
struct Typed {
    expr: ir::Expr,
    ty: Ty,
    /// Known at compile time (possibly with a value still unknown in check mode).
    is_const: bool,
}

impl Typed {
    fn error() -> Typed {
        Typed {
            expr: ir::Expr::Const(0),
            ty: Ty::Error,
            is_const: true,
        }
    }
}

/// Where a clock comparison appears, which decides what is allowed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ClockCtx {
    Guard,
    Invariant,
}

/// What a process looks like from a check formula.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcInfo {
    /// The process's name (`P1`, `P(1)`).
    pub name: String,
    /// The template it instantiates; for a partial instance, the instance's
    /// name (checks name these processes `P(1)`).
    pub template: String,
    /// The parameter values in the name (`1` in `P(1)`); empty for a named
    /// instance.
    pub args: Vec<i64>,
    /// The process's local symbols (parameters and declarations), by name.
    pub locals: FxHashMap<String, Sym>,
    /// Its locations, by name.
    pub locations: FxHashMap<String, ir::LocId>,
    /// Where its template starts in the text (the spans of the template's
    /// functions are relative to it); 0 until the instance is placed.
    pub offset: u32,
    /// The definition a check's name of the process denotes: the
    /// instance's name (`P1 = T(1);`, a partial instance `P(…) = T(…);`)
    /// or, for a template listed in `system`, the template's name, as file
    /// positions; empty until the instance is placed.
    pub defined_by: Span,
}

enum FieldRes {
    Location(ir::ProcId, ir::LocId),
    Sym(Sym),
    Error,
}

/// The global declarations as seen by templates: names and symbols only (no
/// spans), so that it stays equal when text moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct GlobalScope {
    /// Each global name with its symbol, in declaration order.
    pub symbols: Vec<(String, Sym)>,
}

/// The lowering context: scopes, the network being built and the
/// diagnostics, for one file, template or instance.
pub struct Ctx {
    /// The network being built.
    pub net: ir::Network,
    /// The diagnostics, in the order they are found.
    pub diags: Vec<Diagnostic>,
    scopes: Vec<Scope>,
    /// Added to every span: the template's offset when lowering its body.
    offset: u32,
    /// Whether it checks or lowers.
    pub mode: Mode,
    /// Global names read anywhere this context looked.
    pub used_globals: FxHashSet<String>,
    /// The processes lowered so far, indexed by process id.
    pub procs: Vec<ProcInfo>,
    /// Expansion work left (instances, select copies, quantifier values),
    /// so that nested expansions cannot multiply into billions.
    budget: i64,
    budget_reported: bool,
    /// First variable, clock and channel index this context allocates
    /// (non-zero when one instance is lowered on its own).
    bases: (u32, u32, u32),
    /// Functions being inlined and their frames.
    fns: function::FnState,
    /// While an edge's guard and updates are lowered: the clock-array
    /// indices that depend on the state, and the value each copy of the
    /// edge gives them.
    clock_split: Option<clocks::ClockSplit>,
    /// While a location's invariant is lowered: the clock rates it sets.
    rates: Option<rates::Rates>,
    /// The refinement of the time unit in force: every clock bound and
    /// reset value of the text is multiplied by it (see
    /// [`ir::Network::time_scale`]).
    pub time_scale: i64,
    /// The least refinement that makes every clock quotient met so far an
    /// integer (`5` for `2 >= 5*x`): the lcm of their denominators.
    pub needed_scale: i64,
    /// When set, every name looked up in a scope, with what it resolved
    /// to (for the test that holds `resolve` to lowering's answers; the
    /// ends of edges lowering reads from `resolve` itself).
    pub names: Option<Vec<(Span, LoweredName)>>,
    /// The whole file's names, while the checks and synchronisation
    /// vectors are lowered: which instance or template a process
    /// reference denotes ([`Ctx::resolve_process`]).
    resolved: Option<Arc<Resolutions>>,
}

/// What a name written at some place resolved to in lowering's scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoweredName {
    /// The global declaration of this name.
    Global(String),
    /// A definition of the template, of a function, a
    /// `select` or quantifier binding or a partial instantiation's
    /// parameter, at this span (relative to the template while one is
    /// checked, as the HIR's).
    Local(Span),
    /// A field of a record type (found through the type of what it is
    /// read from): the `index`th of the record's `fields`, by name.
    Field {
        /// The names of the record type's fields, in order.
        fields: Vec<String>,
        /// Which of them.
        index: usize,
    },
    /// A member of a process named in a check (`P1.x`, `P(1).cs`): a
    /// location or a local symbol of the process's template (for a
    /// partial instance, of the instance's: [`ProcInfo::template`]).
    Member {
        /// [`ProcInfo::template`] of the process.
        template: String,
        /// Whether it is a location.
        location: bool,
    },
}

impl Ctx {
    /// A context in the given mode, with only the global scope open.
    pub fn new(mode: Mode) -> Ctx {
        let mut net = ir::Network::default();
        net.clocks.push(ir::Clock {
            name: "0".into(),
            span: Span::default(),
        });
        Ctx {
            net,
            diags: Vec::new(),
            scopes: vec![Scope::default()],
            offset: 0,
            mode,
            used_globals: FxHashSet::default(),
            procs: Vec::new(),
            budget: MAX_TOTAL_EXPANSION,
            budget_reported: false,
            bases: (0, 0, 0),
            fns: function::FnState::default(),
            clock_split: None,
            rates: None,
            time_scale: 1,
            needed_scale: 1,
            names: None,
            resolved: None,
        }
    }

    /// A check-mode context whose global scope is `globals`.
    pub fn with_globals(globals: &GlobalScope) -> Ctx {
        let mut ctx = Ctx::new(Mode::Check);
        for (name, sym) in &globals.symbols {
            ctx.scopes[0].order.push(name.clone());
            ctx.scopes[0].map.insert(
                name.clone(),
                Entry {
                    sym: sym.clone(),
                    span: Span::default(),
                    used: true,
                },
            );
        }
        ctx
    }

    /// The whole file's names, for the process references of checks and
    /// vectors ([`Ctx::resolve_process`]).
    pub(crate) fn set_resolutions(&mut self, resolved: Arc<Resolutions>) {
        self.resolved = Some(resolved);
    }

    /// A lower-mode context for one instance: globals from `globals`, new
    /// variables, clocks and channels numbered from `bases`.
    pub fn for_instance(globals: &GlobalScope, bases: (u32, u32, u32)) -> Ctx {
        let mut ctx = Ctx::with_globals(globals);
        ctx.mode = Mode::Lower;
        ctx.net.clocks.clear();
        ctx.bases = bases;
        ctx
    }

    /// Expansion work still allowed.
    pub fn budget_left(&self) -> i64 {
        self.budget
    }

    /// The global scope as templates see it.
    pub fn global_scope(&self) -> GlobalScope {
        let scope = &self.scopes[0];
        GlobalScope {
            symbols: scope
                .order
                .iter()
                .filter_map(|n| scope.map.get(n).map(|e| (n.clone(), e.sym.clone())))
                .collect(),
        }
    }

    /// Global entries with their definition spans, for unused warnings.
    pub fn global_entries(&self) -> Vec<(String, Span, &'static str)> {
        let scope = &self.scopes[0];
        scope
            .order
            .iter()
            .filter_map(|n| {
                scope
                    .map
                    .get(n)
                    .map(|e| (n.clone(), e.span, e.sym.kind_name()))
            })
            .collect()
    }

    /// Looks a name, written at `at`, up in the global scope only, marking
    /// it used and recording it (when names are recorded).
    pub fn lookup_global(&mut self, name: &str, at: Span) -> Option<Sym> {
        let e = self.scopes[0].map.get_mut(name)?;
        e.used = true;
        let sym = e.sym.clone();
        self.record_name(at, LoweredName::Global(name.to_string()));
        self.used_globals.insert(name.to_string());
        Some(sym)
    }

    /// Sets the span offset, returning the previous one.
    pub fn set_offset(&mut self, offset: u32) -> u32 {
        std::mem::replace(&mut self.offset, offset)
    }

    /// Takes `n` units of expansion work; false (reported once) when the
    /// model would expand beyond [`MAX_TOTAL_EXPANSION`].
    pub fn spend(&mut self, n: i64, span: Span) -> bool {
        self.budget -= n;
        if self.budget >= 0 {
            return true;
        }
        if !self.budget_reported {
            self.budget_reported = true;
            self.error(
                span,
                format!(
                    "the model expands into more than {MAX_TOTAL_EXPANSION} instances, edges and quantifier terms"
                ),
            );
        }
        false
    }

    fn abs(&self, span: Span) -> Span {
        span.shifted(self.offset)
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        let d = Diagnostic::error(self.abs(span), msg);
        self.diags.push(d);
    }

    fn warning(&mut self, span: Span, msg: impl Into<String>) {
        let d = Diagnostic::warning(self.abs(span), msg);
        self.diags.push(d);
    }

    // ---- scopes ----

    /// Runs `f` with `binds` (each name with its defining span) visible as
    /// names (a partial instantiation's parameters while its arguments are
    /// evaluated).
    pub fn with_bindings<R>(
        &mut self,
        binds: &[(String, Span, Sym)],
        f: impl FnOnce(&mut Ctx) -> R,
    ) -> R {
        self.push_scope();
        for (name, span, sym) in binds {
            self.bind_at(name, *span, sym.clone());
        }
        let r = f(self);
        self.pop_scope(false);
        r
    }

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    /// Pops a scope, warning about its unused entries when asked to.
    fn pop_scope(&mut self, warn_unused: bool) {
        // The global scope (index 0) is never popped.
        if self.scopes.len() <= 1 {
            return;
        }
        let Some(scope) = self.scopes.pop() else {
            return;
        };
        if warn_unused && self.mode == Mode::Check {
            for name in &scope.order {
                if let Some(e) = scope.map.get(name)
                    && !e.used
                {
                    let d = Diagnostic::warning(
                        self.abs(e.span),
                        format!("{} `{name}` is never used", e.sym.kind_name()),
                    );
                    self.diags.push(d);
                }
            }
        }
    }

    /// Defines a parameter: like [`Self::define`], but marked used, since
    /// parameters often only tell instances apart (`pid` in symmetric
    /// models) and an unused one is no mistake worth a warning.
    fn define_param(&mut self, name: &hir::Name, sym: Sym) {
        self.define(name, sym);
        if let Some(e) = self
            .scopes
            .last_mut()
            .and_then(|s| s.map.get_mut(&name.text))
        {
            e.used = true;
        }
    }

    /// Where `name` is defined in the innermost scope (absolute), if it is.
    fn defined_here(&self, name: &str) -> Option<Span> {
        let entry = self.scopes.last()?.map.get(name)?;
        Some(entry.span.shifted(self.offset))
    }

    fn define(&mut self, name: &hir::Name, sym: Sym) {
        let offset = self.offset;
        let Some(scope) = self.scopes.last_mut() else {
            return;
        };
        if let Some(first) = scope.map.get(&name.text) {
            let first_span = first.span.shifted(offset);
            let d = Diagnostic::error(
                self.abs(name.span),
                format!("`{}` is already defined", name.text),
            )
            .with_related(first_span, "first defined here");
            self.diags.push(d);
            return;
        }
        scope.order.push(name.text.clone());
        scope.map.insert(
            name.text.clone(),
            Entry {
                sym,
                span: name.span,
                used: false,
            },
        );
    }

    /// Binds a name without duplicate checks (a partial instantiation's
    /// parameters, a process's variables for its function).
    fn bind(&mut self, name: &str, sym: Sym) {
        self.bind_at(name, Span::default(), sym);
    }

    /// Binds a name defined at `span` without duplicate checks (select and
    /// quantifier variables).
    fn bind_at(&mut self, name: &str, span: Span, sym: Sym) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.map.insert(
                name.to_string(),
                Entry {
                    sym,
                    span,
                    used: true,
                },
            );
        }
    }

    /// Looks up `name`, written at `at`, marking it used and recording what
    /// it resolved to (when names are recorded).
    fn lookup(&mut self, name: &str, at: Span) -> Option<Sym> {
        if self.names.is_some() {
            let found = self
                .scopes
                .iter()
                .enumerate()
                .rev()
                .find_map(|(depth, scope)| {
                    scope.map.get(name).map(|entry| match depth {
                        0 => LoweredName::Global(name.to_string()),
                        _ => LoweredName::Local(entry.span),
                    })
                });
            if let Some(found) = found {
                self.record_name(at, found);
            }
        }
        let depth = self.scopes.len();
        for (i, scope) in self.scopes.iter_mut().enumerate().rev() {
            if let Some(e) = scope.map.get_mut(name) {
                e.used = true;
                let sym = e.sym.clone();
                if i == 0 && depth > 0 {
                    self.used_globals.insert(name.to_string());
                }
                return Some(sym);
            }
        }
        None
    }

    /// Records what the name written at `span` resolved to, when names are
    /// recorded. A call's inlined body (and its parameters' types) is the
    /// called function's text: only the names of the text being lowered (a
    /// declared function's body included) are recorded.
    fn record_name(&mut self, span: Span, found: LoweredName) {
        if let Some(names) = self.names.as_mut().filter(|_| self.fns.calls == 0) {
            names.push((span, found));
        }
    }

    fn lookup_or_error(&mut self, name: &str, span: Span) -> Option<Sym> {
        let sym = self.lookup(name, span);
        if sym.is_none() {
            // The nearest name in scope, for a typo.
            let near = suggest::closest(
                name,
                self.scopes
                    .iter()
                    .flat_map(|s| s.map.keys().map(String::as_str)),
            )
            .map(str::to_string);
            self.error(
                span,
                format!(
                    "unknown name `{name}`{}",
                    suggest::did_you_mean(near.as_deref())
                ),
            );
        }
        sym
    }

    // ---- types and constants ----

    /// Resolves a type as written to a semantic type, reporting what is wrong
    /// with it.
    pub fn resolve_type(&mut self, t: &TypeRef) -> Ty {
        match t {
            TypeRef::Int { range: None, .. } => Ty::int(),
            TypeRef::Int {
                range: Some(range),
                span,
            } => {
                let (lo, hi) = &**range;
                let (Some(l), Some(h)) = (self.const_eval(lo), self.const_eval(hi)) else {
                    return Ty::int();
                };
                if l > h {
                    self.error(*span, format!("the range [{l}, {h}] is empty"));
                    return Ty::Error;
                }
                Ty::Int { lo: l, hi: h }
            }
            TypeRef::Bool { .. } => Ty::Bool,
            TypeRef::Clock { .. } => Ty::Clock,
            TypeRef::Chan {
                urgent, broadcast, ..
            } => Ty::Chan {
                kind: if *broadcast {
                    ChannelKind::Broadcast
                } else {
                    ChannelKind::Binary
                },
                urgent: *urgent,
            },
            TypeRef::Struct { fields, .. } => self.record_type(fields),
            // Without symmetry reduction a scalar set is its values' range.
            TypeRef::Scalar { size, .. } => match self.const_eval(size) {
                Some(n) if (1..=MAX_EXPANSION).contains(&n) => Ty::Int { lo: 0, hi: n - 1 },
                Some(n) => {
                    self.error(
                        size.span,
                        format!("a scalar set has between 1 and {MAX_EXPANSION} values, not {n}"),
                    );
                    Ty::Error
                }
                None => Ty::Error,
            },
            TypeRef::Named(n) => match self.peek(&n.text, n.span) {
                None => match ty::builtin_int_type(&n.text) {
                    Some(t) => t,
                    None => {
                        self.lookup_or_error(&n.text, n.span);
                        Ty::Error
                    }
                },
                Some(_) => self.resolve_named_type(n),
            },
        }
    }

    fn resolve_named_type(&mut self, n: &hir::Name) -> Ty {
        match self.lookup_or_error(&n.text, n.span) {
            Some(Sym::Typedef(t)) => t,
            Some(other) => {
                self.error(
                    n.span,
                    format!("`{}` is a {}, not a type", n.text, other.kind_name()),
                );
                Ty::Error
            }
            None => Ty::Error,
        }
    }

    /// A parameter's type, arrays included.
    pub fn param_type(&mut self, p: &hir::Param) -> Ty {
        let ty = self.resolve_type(&p.ty);
        let ty = self.with_dims(ty, &p.array);
        // A size known only per instance is not a shape a reference can
        // be checked against.
        if data::has_unknown_len(&ty) {
            return Ty::Error;
        }
        ty
    }

    /// The values, in slot order, of a constant array or record (`D`,
    /// `TABLE[1]`) bound to a template parameter `ty` taken by value
    /// (`P(const int d[3])` instantiated with `P(D)`); `None` after
    /// reporting at `e`.
    pub fn const_data(&mut self, e: &hir::Expr, ty: &Ty, param: &str) -> Option<Arc<[i32]>> {
        let p = self.place(e)?;
        let (data::Store::Const(Some(values)), true) = (&p.store, p.terms.is_empty()) else {
            self.error(
                e.span,
                format!("`{param}` takes a constant array or record (with constant indices)"),
            );
            return None;
        };
        let n =
            p.ty.slots()
                .filter(|n| Some(*n) == ty.slots() && ty.same_shape(&p.ty));
        let start = p.offset as usize;
        let Some(values) = n.and_then(|n| values.get(start..start + n as usize)) else {
            self.error(
                e.span,
                format!(
                    "this is {}, but `{param}` expects {}",
                    p.ty.describe(),
                    ty.describe()
                ),
            );
            return None;
        };
        let mut leaves = Vec::new();
        ty.leaves(&mut String::new(), &mut leaves);
        for ((path, leaf), v) in leaves.iter().zip(values) {
            if let Some((lo, hi)) = leaf.bounds()
                && !(lo..=hi).contains(&(*v as i64))
            {
                self.error(
                    e.span,
                    format!("the value {v} of `{param}{path}` is outside the range [{lo}, {hi}]"),
                );
                return None;
            }
        }
        Some(Arc::from(values))
    }

    /// Evaluates a constant expression; `None` when it is not constant
    /// (reported) or only known once the template is instantiated.
    pub fn const_eval(&mut self, e: &hir::Expr) -> Option<i64> {
        let t = self.data(e);
        if matches!(t.ty, Ty::Error) {
            return None;
        }
        if !t.is_const {
            self.error(e.span, "expected a constant expression");
            return None;
        }
        match t.expr {
            ir::Expr::Const(v) => Some(v as i64),
            _ => None,
        }
    }

    fn check_range(&mut self, value: i64, ty: &Ty, span: Span, what: &str) {
        if let Ty::Int { lo, hi } = ty
            && (value < *lo || value > *hi)
        {
            self.error(
                span,
                format!("{what} {value} is outside the range [{lo}, {hi}]"),
            );
        }
        if matches!(ty, Ty::Bool) && !(0..=1).contains(&value) {
            self.error(span, format!("{what} {value} is not a boolean"));
        }
    }

    // ---- declarations ----

    /// Declares variables, constants, clocks, channels and typedefs;
    /// `prefix` qualifies display names of locals (`P1.`).
    pub fn declare(&mut self, decls: &[Decl], prefix: &str) {
        for d in decls {
            match d {
                Decl::Typedef(t) => {
                    let ty = self.resolve_type(&t.ty);
                    let ty = self.with_dims(ty, &t.array);
                    self.define(&t.name, Sym::Typedef(ty));
                }
                Decl::Var(v) => self.declare_var(v, prefix),
                Decl::Function(f) => self.declare_function(f),
            }
        }
    }

    fn declare_var(&mut self, v: &hir::VarDecl, prefix: &str) {
        let elem = self.resolve_type(&v.ty);
        let ty = self.with_dims(elem, &v.array);
        let display = format!("{prefix}{}", v.name.text);
        let span = self.abs(v.span);
        if v.is_const {
            self.declare_const(v, ty);
            return;
        }
        // What the slots hold: clocks, channels or data.
        let mut leaves = Vec::new();
        match ty.slots() {
            Some(_) => ty.leaves(&mut String::new(), &mut leaves),
            // An unknown length (a template checked on its own): one slot
            // stands for the whole array.
            None => leaves.push((String::new(), ty.scalar_part().clone())),
        }
        let has = |f: fn(&Ty) -> bool| leaves.iter().any(|(_, t)| f(t));
        if has(|t| matches!(t, Ty::Clock)) {
            if has(|t| !matches!(t, Ty::Clock | Ty::Error))
                || matches!(ty.scalar_part(), Ty::Record(_))
            {
                self.error(v.span, "clocks in records are not supported");
                return;
            }
            if let Some(init) = &v.init {
                self.error(
                    init.span,
                    "clocks start at 0 and cannot have an initial value",
                );
            }
            let id = self.bases.1 + self.net.clocks.len() as ClockId;
            if ty.is_aggregate() {
                // A clock array: one clock per element, `x[0]`, `x[1]`, …
                if ty.slots().is_none() || data::has_unknown_len(&ty) {
                    // A template checked on its own with a dimension that
                    // depends on its parameters: one clock stands for all.
                    self.net.clocks.push(ir::Clock {
                        name: display,
                        span,
                    });
                } else {
                    for (path, _) in &leaves {
                        self.net.clocks.push(ir::Clock {
                            name: format!("{display}{path}"),
                            span,
                        });
                    }
                }
                self.define(
                    &v.name,
                    Sym::Clocks {
                        base: id,
                        shape: ty,
                    },
                );
                return;
            }
            self.net.clocks.push(ir::Clock {
                name: display,
                span,
            });
            self.define(&v.name, Sym::Clock { id });
            return;
        }
        if let Some((_, Ty::Chan { kind, urgent })) = leaves.first().cloned()
            && !ty.scalar_part().is_aggregate()
        {
            if let Some(init) = &v.init {
                self.error(init.span, "channels cannot have an initial value");
            }
            let base = self.bases.2 + self.net.channels.len() as ir::ChanId;
            for (path, _) in &leaves {
                self.net.channels.push(ir::Channel {
                    name: format!("{display}{path}"),
                    kind,
                    urgent,
                    span,
                });
            }
            self.define(
                &v.name,
                Sym::Chan {
                    base,
                    shape: ty,
                    kind,
                    urgent,
                },
            );
            return;
        }
        if has(|t| matches!(t, Ty::Chan { .. })) {
            self.error(v.span, "channels in records are not supported");
            return;
        }
        let mut init = vec![None; leaves.len()];
        if let Some(e) = &v.init {
            init.clear();
            self.init_values(e, &ty, &mut init);
        }
        let base = self.bases.0 + self.net.variables.len() as ir::VarId;
        for (k, (path, t)) in leaves.iter().enumerate() {
            let (lo, hi) = t.bounds().unwrap_or((ty::INT_MIN, ty::INT_MAX));
            // The default: 0, or the lower bound when 0 is outside the range.
            let default = if (lo..=hi).contains(&0) {
                0
            } else {
                clamp32(lo)
            };
            self.net.variables.push(ir::Variable {
                name: format!("{display}{path}"),
                lo: clamp32(lo),
                hi: clamp32(hi),
                init: init.get(k).copied().flatten().unwrap_or(default),
                is_bool: matches!(t, Ty::Bool),
                span,
            });
        }
        self.define(&v.name, Sym::Var { base, ty });
    }

    /// `const T name… = init;`: a compile-time value, folded wherever it
    /// is read.
    fn declare_const(&mut self, v: &hir::VarDecl, ty: Ty) {
        let data = |t: &Ty| matches!(t, Ty::Int { .. } | Ty::Bool | Ty::Error);
        let mut leaves = Vec::new();
        if ty.slots().is_some() {
            ty.leaves(&mut String::new(), &mut leaves);
        }
        if !leaves.iter().all(|(_, t)| data(t)) {
            self.error(v.ty.span(), "only integers and booleans can be constant");
        }
        let Some(init) = &v.init else {
            self.error(
                v.name.span,
                format!("constant `{}` needs a value", v.name.text),
            );
            let sym = match ty.is_aggregate() {
                true => Sym::ConstData { values: None, ty },
                false => Sym::Const { value: None, ty },
            };
            self.define(&v.name, sym);
            return;
        };
        if ty.is_aggregate() {
            let mut values = Vec::new();
            self.init_values(init, &ty, &mut values);
            // Unknown while the template is checked on its own; after an
            // error, zeros keep lowering going (the model is rejected).
            let values: Option<Vec<i32>> = match self.mode {
                Mode::Check => values.into_iter().collect(),
                Mode::Lower => Some(values.into_iter().map(|v| v.unwrap_or(0)).collect()),
            };
            let values = values.map(Arc::from);
            self.define(&v.name, Sym::ConstData { values, ty });
            return;
        }
        let value = match &init.kind {
            ExprKind::List(_) => {
                let mut values = Vec::new();
                self.init_values(init, &ty, &mut values);
                None
            }
            _ => self.const_eval(init),
        };
        // A plain `const int` names a number, not a variable of `int`'s
        // range: UPPAAL keeps constants out of the state and checks no
        // range on them (`const int INF = 1000000;`), so it may be any
        // 32-bit integer, and its type is the 32-bit integers then.
        let plain_int = matches!(v.ty, hir::TypeRef::Int { range: None, .. }) && v.array.is_empty();
        let ty = match value {
            Some(val)
                if plain_int && !matches!(ty, Ty::Int { lo, hi } if (lo..=hi).contains(&val)) =>
            {
                Ty::Int {
                    lo: i32::MIN as i64,
                    hi: i32::MAX as i64,
                }
            }
            _ => ty,
        };
        if let Some(val) = value {
            self.check_range(val, &ty, init.span, "value");
        }
        let value = value.or(if self.mode == Mode::Lower {
            Some(0)
        } else {
            None
        });
        self.define(&v.name, Sym::Const { value, ty });
    }
}

fn clamp32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}
