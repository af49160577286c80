//! Name resolution, type checking and lowering of HIR to [`ir::Network`].
//!
//! One walker does all three, so the rules live in one place. It runs in two
//! modes: [`Mode::Check`] checks a template on its own (parameters and
//! `select` values unknown; used by the per-template salsa query), and
//! [`Mode::Lower`] builds the network for concrete instances. Lowering never
//! panics on bad input: every problem becomes a diagnostic and a placeholder.

use rustc_hash::{FxHashMap, FxHashSet};

use super::hir::{self, AssignOp, BinaryOp, Decl, ExprKind, QuantKind, TypeRef, UnaryOp};
use super::ty::{self, MAX_EXPANSION, Sym, Ty};
use crate::diagnostics::Diagnostic;
use crate::ir::{self, BinOp, ChannelKind, ClockConstraint, ClockId, Span, UnOp};

/// The most elements (instances, select copies, quantifier values) a whole
/// model may expand into.
pub const MAX_TOTAL_EXPANSION: i64 = 1_000_000;

/// Slot used for values unknown while a template is checked alone.
const UNKNOWN: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Check,
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
pub struct ProcInfo {
    pub name: String,
    pub template: String,
    pub args: Vec<i64>,
    pub locals: FxHashMap<String, Sym>,
    pub locations: FxHashMap<String, ir::LocId>,
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
    pub symbols: Vec<(String, Sym)>,
}

pub struct Ctx {
    pub net: ir::Network,
    pub diags: Vec<Diagnostic>,
    scopes: Vec<Scope>,
    /// Added to every span: the template's offset when lowering its body.
    offset: u32,
    pub mode: Mode,
    /// Global names read anywhere this context looked.
    pub used_globals: FxHashSet<String>,
    pub procs: Vec<ProcInfo>,
    /// Expansion work left (instances, select copies, quantifier values),
    /// so that nested expansions cannot multiply into billions.
    budget: i64,
    budget_reported: bool,
}

impl Ctx {
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

    /// Looks a name up in the global scope only.
    pub fn lookup_global(&mut self, name: &str) -> Option<Sym> {
        let e = self.scopes[0].map.get_mut(name)?;
        e.used = true;
        self.used_globals.insert(name.to_string());
        Some(e.sym.clone())
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
        Span::new(span.start + self.offset, span.end + self.offset)
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

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    /// Pops a scope, warning about its unused entries when asked to.
    fn pop_scope(&mut self, warn_unused: bool) {
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

    fn define(&mut self, name: &hir::Name, sym: Sym) {
        let offset = self.offset;
        let Some(scope) = self.scopes.last_mut() else {
            return;
        };
        if let Some(first) = scope.map.get(&name.text) {
            let first_span = Span::new(first.span.start + offset, first.span.end + offset);
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

    /// Binds a name without duplicate checks (select and quantifier variables).
    fn bind(&mut self, name: &str, sym: Sym) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.map.insert(
                name.to_string(),
                Entry {
                    sym,
                    span: Span::default(),
                    used: true,
                },
            );
        }
    }

    fn lookup(&mut self, name: &str) -> Option<Sym> {
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

    fn lookup_or_error(&mut self, name: &str, span: Span) -> Option<Sym> {
        let sym = self.lookup(name);
        if sym.is_none() {
            self.error(span, format!("unknown name `{name}`"));
        }
        sym
    }

    // ---- types and constants ----

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
            TypeRef::Named(n) => match self.lookup_or_error(&n.text, n.span) {
                Some(Sym::Typedef(t)) => t,
                Some(other) => {
                    self.error(
                        n.span,
                        format!("`{}` is a {}, not a type", n.text, other.kind_name()),
                    );
                    Ty::Error
                }
                None => Ty::Error,
            },
        }
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
                    self.define(&t.name, Sym::Typedef(ty));
                }
                Decl::Var(v) => self.declare_var(v, prefix),
            }
        }
    }

    fn declare_var(&mut self, v: &hir::VarDecl, prefix: &str) {
        let ty = self.resolve_type(&v.ty);
        let len = match &v.array {
            None => None,
            Some(size) => match self.const_eval(size) {
                Some(n) if (1..=MAX_EXPANSION).contains(&n) => Some(n as u32),
                Some(n) => {
                    self.error(
                        size.span,
                        format!("array size {n} must be between 1 and {MAX_EXPANSION}"),
                    );
                    Some(1)
                }
                None => Some(1),
            },
        };
        let display = format!("{prefix}{}", v.name.text);
        let span = self.abs(v.span);
        if v.is_const {
            if len.is_some() {
                self.error(v.span, "constant arrays are not supported");
            }
            if !ty.is_data() {
                self.error(v.ty.span(), "only integers and booleans can be constant");
            }
            let value = match &v.init {
                Some(init) => self.const_eval(init),
                None => {
                    self.error(
                        v.name.span,
                        format!("constant `{}` needs a value", v.name.text),
                    );
                    None
                }
            };
            if let (Some(val), Some(init)) = (value, &v.init) {
                self.check_range(val, &ty, init.span, "value");
            }
            let value = value.or(if self.mode == Mode::Lower {
                Some(0)
            } else {
                None
            });
            self.define(&v.name, Sym::Const { value, ty });
            return;
        }
        match ty {
            Ty::Clock => {
                if len.is_some() {
                    self.error(v.span, "clock arrays are not supported");
                }
                if let Some(init) = &v.init {
                    self.error(
                        init.span,
                        "clocks start at 0 and cannot have an initial value",
                    );
                }
                let id = self.net.clocks.len() as ClockId;
                self.net.clocks.push(ir::Clock {
                    name: display,
                    span,
                });
                self.define(&v.name, Sym::Clock { id });
            }
            Ty::Chan { kind, urgent } => {
                if let Some(init) = &v.init {
                    self.error(init.span, "channels cannot have an initial value");
                }
                let base = self.net.channels.len() as ir::ChanId;
                for i in 0..len.unwrap_or(1) {
                    let name = match len {
                        Some(_) => format!("{display}[{i}]"),
                        None => display.clone(),
                    };
                    self.net.channels.push(ir::Channel {
                        name,
                        kind,
                        urgent,
                        span,
                    });
                }
                self.define(
                    &v.name,
                    Sym::Chan {
                        base,
                        len,
                        kind,
                        urgent,
                    },
                );
            }
            Ty::Int { .. } | Ty::Bool | Ty::Error => {
                let (lo, hi) = ty.bounds().unwrap_or((ty::INT_MIN, ty::INT_MAX));
                let mut init = if (lo..=hi).contains(&0) { 0 } else { lo };
                if let Some(e) = &v.init
                    && let Some(val) = self.const_eval(e)
                {
                    self.check_range(val, &ty, e.span, "initial value");
                    init = val;
                }
                let base = self.net.variables.len() as ir::VarId;
                let (lo32, hi32) = (clamp32(lo), clamp32(hi));
                for i in 0..len.unwrap_or(1) {
                    let name = match len {
                        Some(_) => format!("{display}[{i}]"),
                        None => display.clone(),
                    };
                    self.net.variables.push(ir::Variable {
                        name,
                        lo: lo32,
                        hi: hi32,
                        init: clamp32(init),
                        is_bool: matches!(ty, Ty::Bool),
                        span,
                    });
                }
                let ty = match len {
                    Some(n) => Ty::Array(Box::new(ty), n),
                    None => ty,
                };
                self.define(&v.name, Sym::Var { base, ty });
            }
            Ty::Array(..) => {
                self.error(v.ty.span(), "nested array types are not supported");
            }
        }
    }

    // ---- data expressions ----

    fn data(&mut self, e: &hir::Expr) -> Typed {
        match &e.kind {
            ExprKind::Missing => Typed::error(),
            ExprKind::Int(v) => match i32::try_from(*v) {
                Ok(v) => Typed {
                    expr: ir::Expr::Const(v),
                    ty: Ty::int(),
                    is_const: true,
                },
                Err(_) => {
                    self.error(e.span, format!("the integer {v} is too large"));
                    Typed::error()
                }
            },
            ExprKind::Bool(b) => Typed {
                expr: ir::Expr::Const(*b as i32),
                ty: Ty::Bool,
                is_const: true,
            },
            ExprKind::Name(n) => match self.lookup_or_error(n, e.span) {
                Some(sym) => self.sym_value(sym, n, e.span),
                None => Typed::error(),
            },
            ExprKind::Field(base, field) => match self.resolve_field(base, field) {
                FieldRes::Sym(sym) => self.sym_value(sym, &field.text, e.span),
                FieldRes::Location(..) => {
                    self.error(e.span, "a location test is not a value here");
                    Typed::error()
                }
                FieldRes::Error => Typed::error(),
            },
            ExprKind::Index(arr, idx) => self.index(arr, idx, e.span),
            ExprKind::Call(name, _) => {
                self.error(
                    name.span,
                    format!(
                        "`{}(...)` can only be used to name a process in a check",
                        name.text
                    ),
                );
                Typed::error()
            }
            ExprKind::Unary(op, a) => {
                let a = self.data(a);
                let (op, ty) = match op {
                    UnaryOp::Plus => return a,
                    UnaryOp::Neg => (UnOp::Neg, Ty::int()),
                    UnaryOp::Not => (UnOp::Not, Ty::Bool),
                    UnaryOp::BitNot => (UnOp::BitNot, Ty::int()),
                };
                Typed {
                    expr: ty::unary(op, a.expr),
                    ty,
                    is_const: a.is_const,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.data(a), self.data(b));
                let is_const = a.is_const && b.is_const;
                let (expr, ty) = match op {
                    BinaryOp::Imply => (
                        ty::binary(BinOp::Or, ty::unary(UnOp::Not, a.expr), b.expr),
                        Ty::Bool,
                    ),
                    _ => {
                        let bop = bin_op(*op);
                        let ty = if op.is_comparison() || matches!(op, BinaryOp::And | BinaryOp::Or)
                        {
                            Ty::Bool
                        } else {
                            Ty::int()
                        };
                        if matches!(bop, BinOp::Div | BinOp::Mod)
                            && matches!(b.expr, ir::Expr::Const(0))
                        {
                            self.error(e.span, "division by zero");
                        }
                        (ty::binary(bop, a.expr, b.expr), ty)
                    }
                };
                Typed { expr, ty, is_const }
            }
            ExprKind::Cond(c, a, b) => {
                let (c, a, b) = (self.data(c), self.data(a), self.data(b));
                let is_const = c.is_const && a.is_const && b.is_const;
                let expr = match c.expr {
                    ir::Expr::Const(v) => {
                        if v != 0 {
                            a.expr
                        } else {
                            b.expr
                        }
                    }
                    c => ir::Expr::Cond(Box::new(c), Box::new(a.expr), Box::new(b.expr)),
                };
                Typed {
                    expr,
                    ty: a.ty,
                    is_const,
                }
            }
            ExprKind::Assign(..) | ExprKind::Incr(..) => {
                self.error(e.span, "an assignment is not allowed here");
                Typed::error()
            }
            ExprKind::Quant(kind, name, tyref, body) => {
                let Some(values) = self.quant_values(name, tyref) else {
                    return Typed::error();
                };
                let (op, unit) = match kind {
                    QuantKind::Forall => (BinOp::And, 1),
                    QuantKind::Exists => (BinOp::Or, 0),
                    QuantKind::Sum => (BinOp::Add, 0),
                };
                let mut acc = ir::Expr::Const(unit);
                let mut is_const = true;
                for v in values {
                    self.push_scope();
                    self.bind_value(&name.text, v, tyref);
                    let t = self.data(body);
                    self.pop_scope(false);
                    is_const &= t.is_const;
                    acc = ty::binary(op, acc, t.expr);
                }
                let ty = if *kind == QuantKind::Sum {
                    Ty::int()
                } else {
                    Ty::Bool
                };
                Typed {
                    expr: acc,
                    ty,
                    is_const,
                }
            }
            ExprKind::Deadlock => {
                self.error(e.span, "`deadlock` can only be used in a check");
                Typed::error()
            }
        }
    }

    fn sym_value(&mut self, sym: Sym, name: &str, span: Span) -> Typed {
        match sym {
            Sym::Const { value, ty } => Typed {
                expr: match value {
                    Some(v) => ir::Expr::Const(clamp32(v)),
                    None => ir::Expr::Var(UNKNOWN),
                },
                ty,
                is_const: true,
            },
            Sym::Var {
                base,
                ty: Ty::Array(..),
            } => {
                self.error(span, format!("`{name}` is an array: index it"));
                let _ = base;
                Typed::error()
            }
            Sym::Var { base, ty } => Typed {
                expr: ir::Expr::Var(base),
                ty,
                is_const: false,
            },
            Sym::Clock { .. } => {
                self.error(
                    span,
                    "clocks can only be compared in a conjunction of a guard, an invariant or a check (not under `||` or `!`, not in arithmetic)",
                );
                Typed::error()
            }
            other => {
                self.error(
                    span,
                    format!(
                        "`{name}` is a {} and cannot be used as a value",
                        other.kind_name()
                    ),
                );
                Typed::error()
            }
        }
    }

    fn index(&mut self, arr: &hir::Expr, idx: &hir::Expr, span: Span) -> Typed {
        let sym = match &arr.kind {
            ExprKind::Name(n) => self.lookup_or_error(n, arr.span),
            ExprKind::Field(b, f) => match self.resolve_field(b, f) {
                FieldRes::Sym(s) => Some(s),
                _ => None,
            },
            _ => {
                self.error(arr.span, "only arrays can be indexed");
                None
            }
        };
        let i = self.data(idx);
        let Some(sym) = sym else {
            return Typed::error();
        };
        let Sym::Var {
            base,
            ty: Ty::Array(elem, len),
        } = sym
        else {
            self.error(arr.span, format!("a {} cannot be indexed", sym.kind_name()));
            return Typed::error();
        };
        let expr = match self.const_index(&i.expr, len, idx.span) {
            Some(k) => ir::Expr::Var(base.wrapping_add(k)),
            None => ir::Expr::Index {
                base,
                len,
                index: Box::new(i.expr),
            },
        };
        let _ = span;
        Typed {
            expr,
            ty: *elem,
            is_const: false,
        }
    }

    /// A constant index, checked against the length.
    fn const_index(&mut self, e: &ir::Expr, len: u32, span: Span) -> Option<u32> {
        let ir::Expr::Const(k) = e else { return None };
        if *k < 0 || *k as i64 >= len as i64 {
            self.error(
                span,
                format!("index {k} is out of range [0, {}]", len as i64 - 1),
            );
            return Some(0);
        }
        Some(*k as u32)
    }

    /// The values a bound variable ranges over; `[None]` in check mode.
    fn quant_values(&mut self, name: &hir::Name, tyref: &TypeRef) -> Option<Vec<Option<i64>>> {
        let ty = self.resolve_type(tyref);
        let Some((lo, hi)) = ty.bounds() else {
            self.error(
                name.span,
                format!("`{}` needs a bounded integer type", name.text),
            );
            return None;
        };
        if self.mode == Mode::Check {
            return Some(vec![None]);
        }
        if hi - lo + 1 > MAX_EXPANSION {
            self.error(
                tyref.span(),
                format!(
                    "the range [{lo}, {hi}] has {} values, more than the {MAX_EXPANSION} that can be expanded",
                    hi - lo + 1
                ),
            );
            return None;
        }
        if !self.spend(hi - lo + 1, tyref.span()) {
            return None;
        }
        Some((lo..=hi).map(Some).collect())
    }

    fn bind_value(&mut self, name: &str, value: Option<i64>, tyref: &TypeRef) {
        let ty = match tyref {
            TypeRef::Bool { .. } => Ty::Bool,
            _ => Ty::int(),
        };
        self.bind(name, Sym::Const { value, ty });
    }

    // ---- process references in checks ----

    fn resolve_field(&mut self, base: &hir::Expr, field: &hir::Name) -> FieldRes {
        match &base.kind {
            ExprKind::Name(p) => {
                let found = self.procs.iter().position(|pi| pi.name == *p);
                if found.is_none() {
                    self.error(base.span, format!("unknown process `{p}`"));
                }
                found
            }
            ExprKind::Call(t, args) => {
                let vals: Option<Vec<i64>> = args.iter().map(|a| self.const_eval(a)).collect();
                let Some(vals) = vals else {
                    return FieldRes::Error;
                };
                let found = self.procs.iter().position(|pi| {
                    pi.template == t.text && pi.args == vals && pi.name.contains('(')
                });
                if found.is_none() && self.mode == Mode::Lower {
                    let args: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
                    self.error(
                        base.span,
                        format!("no process `{}({})` in the system", t.text, args.join(", ")),
                    );
                }
                found
            }
            _ => {
                self.error(base.span, "expected a process name");
                None
            }
        }
        .map_or(FieldRes::Error, |pid| {
            let p = &self.procs[pid];
            if let Some(l) = p.locations.get(&field.text) {
                FieldRes::Location(pid as ir::ProcId, *l)
            } else if let Some(s) = p.locals.get(&field.text) {
                FieldRes::Sym(s.clone())
            } else {
                let msg = format!(
                    "process `{}` has no location or variable `{}`",
                    p.name, field.text
                );
                self.error(field.span, msg);
                FieldRes::Error
            }
        })
    }

    // ---- clocks ----

    /// `x` or `x - y` as DBM indices, without reporting anything.
    fn clock_term(&mut self, e: &hir::Expr) -> Option<(ClockId, ClockId)> {
        match &e.kind {
            ExprKind::Name(n) => match self.peek(n) {
                Some(Sym::Clock { id }) => {
                    self.lookup(n);
                    Some((id, 0))
                }
                _ => None,
            },
            ExprKind::Field(b, f) => {
                let pid = self.find_process(b)?;
                match self.procs[pid].locals.get(&f.text) {
                    Some(Sym::Clock { id }) => Some((*id, 0)),
                    _ => None,
                }
            }
            ExprKind::Binary(BinaryOp::Sub, a, b) => {
                let (x, _) = self.clock_term(a)?;
                let (y, _) = self.clock_term(b)?;
                Some((x, y))
            }
            _ => None,
        }
    }

    /// The process `P1` or `Proc(1)` names, without reporting anything.
    fn find_process(&mut self, base: &hir::Expr) -> Option<usize> {
        match &base.kind {
            ExprKind::Name(p) => self.procs.iter().position(|pi| pi.name == *p),
            ExprKind::Call(t, args) => {
                let reported = self.diags.len();
                let vals: Vec<Option<i64>> = args.iter().map(|a| self.const_eval(a)).collect();
                self.diags.truncate(reported);
                let vals: Vec<i64> = vals.into_iter().collect::<Option<_>>()?;
                self.procs.iter().position(|pi| {
                    pi.template == t.text && pi.args == vals && pi.name.contains('(')
                })
            }
            _ => None,
        }
    }

    fn peek(&self, name: &str) -> Option<Sym> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.map.get(name).map(|e| e.sym.clone()))
    }

    /// Lowers `term ~ bound` or `bound ~ term`; `None` when `e` is not a
    /// clock comparison.
    fn clock_cmp(&mut self, e: &hir::Expr) -> Option<Vec<ClockConstraint>> {
        let ExprKind::Binary(op, a, b) = &e.kind else {
            return None;
        };
        if !op.is_comparison() {
            return None;
        }
        let (term, bound, op) = if let Some(t) = self.clock_term(a) {
            (t, b, *op)
        } else if let Some(t) = self.clock_term(b) {
            let flipped = match op {
                BinaryOp::Lt => BinaryOp::Gt,
                BinaryOp::Le => BinaryOp::Ge,
                BinaryOp::Gt => BinaryOp::Lt,
                BinaryOp::Ge => BinaryOp::Le,
                o => *o,
            };
            (t, a, flipped)
        } else {
            return None;
        };
        let bound = self.data(bound).expr;
        let (i, j) = term;
        let upper = |strict| ClockConstraint {
            i,
            j,
            strict,
            bound: bound.clone(),
        };
        let lower = |strict| ClockConstraint {
            i: j,
            j: i,
            strict,
            bound: ty::unary(UnOp::Neg, bound.clone()),
        };
        Some(match op {
            BinaryOp::Lt => vec![upper(true)],
            BinaryOp::Le => vec![upper(false)],
            BinaryOp::Gt => vec![lower(true)],
            BinaryOp::Ge => vec![lower(false)],
            BinaryOp::Eq => vec![upper(false), lower(false)],
            _ => {
                self.error(e.span, "clocks cannot be compared with `!=`");
                vec![]
            }
        })
    }

    /// Splits a conjunction into its data part and clock constraints.
    fn conjunction(
        &mut self,
        e: &hir::Expr,
        ctx: ClockCtx,
        data: &mut Vec<ir::Expr>,
        clocks: &mut Vec<ClockConstraint>,
    ) {
        if let ExprKind::Binary(BinaryOp::And, a, b) = &e.kind {
            self.conjunction(a, ctx, data, clocks);
            self.conjunction(b, ctx, data, clocks);
            return;
        }
        if let Some(cs) = self.clock_cmp(e) {
            if ctx == ClockCtx::Invariant && cs.iter().any(|c| c.i == 0) {
                self.error(e.span, "an invariant can only bound clocks from above");
            }
            clocks.extend(cs);
            return;
        }
        let t = self.data(e);
        if ctx == ClockCtx::Invariant {
            if !matches!(t.ty, Ty::Error) {
                self.error(
                    e.span,
                    "an invariant must be a conjunction of clock upper bounds",
                );
            }
            return;
        }
        match t.expr {
            ir::Expr::Const(v) if v != 0 => {}
            expr => data.push(expr),
        }
    }

    // ---- formulas ----

    pub fn formula(&mut self, e: &hir::Expr) -> ir::Formula {
        use ir::Formula as F;
        match &e.kind {
            ExprKind::Bool(true) => F::True,
            ExprKind::Bool(false) => F::False,
            ExprKind::Deadlock => F::Deadlock,
            ExprKind::Binary(BinaryOp::And, a, b) => F::And(vec![self.formula(a), self.formula(b)]),
            ExprKind::Binary(BinaryOp::Or, a, b) => F::Or(vec![self.formula(a), self.formula(b)]),
            ExprKind::Binary(BinaryOp::Imply, a, b) => {
                F::Or(vec![F::Not(Box::new(self.formula(a))), self.formula(b)])
            }
            ExprKind::Unary(UnaryOp::Not, a) => F::Not(Box::new(self.formula(a))),
            ExprKind::Quant(kind @ (QuantKind::Forall | QuantKind::Exists), name, tyref, body) => {
                let Some(values) = self.quant_values(name, tyref) else {
                    return F::False;
                };
                let mut parts = Vec::new();
                for v in values {
                    self.push_scope();
                    self.bind_value(&name.text, v, tyref);
                    parts.push(self.formula(body));
                    self.pop_scope(false);
                }
                if *kind == QuantKind::Forall {
                    F::And(parts)
                } else {
                    F::Or(parts)
                }
            }
            ExprKind::Field(base, field) => match self.resolve_field(base, field) {
                FieldRes::Location(process, location) => F::At { process, location },
                FieldRes::Sym(sym) => F::Data(self.sym_value(sym, &field.text, e.span).expr),
                FieldRes::Error => F::False,
            },
            _ => {
                if let Some(cs) = self.clock_cmp(e) {
                    let mut parts: Vec<F> = cs.into_iter().map(F::Clock).collect();
                    return if parts.len() == 1 {
                        parts.pop().unwrap_or(F::True)
                    } else {
                        F::And(parts)
                    };
                }
                match self.data(e).expr {
                    ir::Expr::Const(0) => F::False,
                    ir::Expr::Const(_) => F::True,
                    expr => F::Data(expr),
                }
            }
        }
    }

    // ---- updates and syncs ----

    fn update(&mut self, e: &hir::Expr) -> Option<ir::Update> {
        let (op, lhs, rhs) = match &e.kind {
            ExprKind::Assign(op, l, r) => (*op, &**l, Some(&**r)),
            ExprKind::Incr(l, _) => (AssignOp::Add, &**l, None),
            _ => {
                self.error(e.span, "expected an assignment");
                return None;
            }
        };
        if let Some((clock, 0)) = self.clock_term(lhs) {
            if op != AssignOp::Assign || !matches!(e.kind, ExprKind::Assign(..)) {
                self.error(e.span, "a clock can only be reset with `=`");
                return None;
            }
            let value = match rhs.map(|r| self.data(r)) {
                Some(Typed {
                    expr: ir::Expr::Const(v),
                    ..
                }) => v as i64,
                Some(t) if t.is_const => return None,
                Some(t) if matches!(t.ty, Ty::Error) => return None,
                _ => -1,
            };
            if value < 0 {
                self.error(
                    e.span,
                    "a clock can only be reset to a non-negative constant",
                );
                return None;
            }
            return Some(ir::Update::ResetClock {
                clock,
                value: value as i32,
            });
        }
        let (target, ty) = self.lvalue(lhs)?;
        let value = match rhs {
            Some(r) => self.data(r),
            None => Typed {
                expr: ir::Expr::Const(match e.kind {
                    ExprKind::Incr(_, false) => -1,
                    _ => 1,
                }),
                ty: Ty::int(),
                is_const: true,
            },
        };
        let read = match &target.index {
            None => ir::Expr::Var(target.base),
            Some(i) => ir::Expr::Index {
                base: target.base,
                len: target.len,
                index: Box::new(i.clone()),
            },
        };
        let value = match op {
            AssignOp::Assign => {
                if let ir::Expr::Const(v) = value.expr {
                    self.check_range(v as i64, &ty, e.span, "value");
                }
                value.expr
            }
            AssignOp::Add => ty::binary(BinOp::Add, read, value.expr),
            AssignOp::Sub => ty::binary(BinOp::Sub, read, value.expr),
            AssignOp::Mul => ty::binary(BinOp::Mul, read, value.expr),
            AssignOp::Div => ty::binary(BinOp::Div, read, value.expr),
        };
        Some(ir::Update::Assign { target, value })
    }

    fn lvalue(&mut self, e: &hir::Expr) -> Option<(ir::LValue, Ty)> {
        let (name, span, idx) = match &e.kind {
            ExprKind::Name(n) => (n, e.span, None),
            ExprKind::Index(a, i) => match &a.kind {
                ExprKind::Name(n) => (n, a.span, Some(&**i)),
                _ => {
                    self.error(e.span, "cannot assign to this expression");
                    return None;
                }
            },
            ExprKind::Missing => return None,
            _ => {
                self.error(e.span, "cannot assign to this expression");
                return None;
            }
        };
        let sym = self.lookup_or_error(name, span)?;
        match (sym, idx) {
            (Sym::Var { base, ty }, None) if !matches!(ty, Ty::Array(..)) => Some((
                ir::LValue {
                    base,
                    len: 1,
                    index: None,
                },
                ty,
            )),
            (
                Sym::Var {
                    base,
                    ty: Ty::Array(elem, len),
                },
                Some(i),
            ) => {
                let iv = self.data(i).expr;
                Some(match self.const_index(&iv, len, i.span) {
                    Some(k) => (
                        ir::LValue {
                            base: base.wrapping_add(k),
                            len: 1,
                            index: None,
                        },
                        *elem,
                    ),
                    None => (
                        ir::LValue {
                            base,
                            len,
                            index: Some(iv),
                        },
                        *elem,
                    ),
                })
            }
            (Sym::Var { .. }, None) => {
                self.error(e.span, format!("`{name}` is an array: assign its elements"));
                None
            }
            (Sym::Var { .. }, Some(_)) => {
                self.error(span, format!("`{name}` is not an array"));
                None
            }
            (Sym::Const { .. }, _) => {
                self.error(span, format!("cannot assign to the constant `{name}`"));
                None
            }
            (other, _) => {
                self.error(
                    span,
                    format!("cannot assign to the {} `{name}`", other.kind_name()),
                );
                None
            }
        }
    }

    /// Lowers a synchronisation; also returns whether the channel is urgent.
    fn sync(&mut self, s: &hir::SyncHir) -> Option<(ir::Sync, bool)> {
        let (name, span, idx) = match &s.channel.kind {
            ExprKind::Name(n) => (n, s.channel.span, None),
            ExprKind::Index(a, i) => match &a.kind {
                ExprKind::Name(n) => (n, a.span, Some(&**i)),
                _ => {
                    self.error(s.channel.span, "expected a channel");
                    return None;
                }
            },
            ExprKind::Missing => return None,
            _ => {
                self.error(s.channel.span, "expected a channel");
                return None;
            }
        };
        let sym = self.lookup_or_error(name, span)?;
        let Sym::Chan {
            base, len, urgent, ..
        } = sym
        else {
            self.error(
                span,
                format!("`{name}` is a {}, not a channel", sym.kind_name()),
            );
            return None;
        };
        let channel = match (len, idx) {
            (None, None) => ir::ChanRef {
                base,
                len: 1,
                index: None,
            },
            (Some(len), Some(i)) => {
                let iv = self.data(i).expr;
                match self.const_index(&iv, len, i.span) {
                    Some(k) => ir::ChanRef {
                        base: base.wrapping_add(k),
                        len: 1,
                        index: None,
                    },
                    None => ir::ChanRef {
                        base,
                        len,
                        index: Some(iv),
                    },
                }
            }
            (Some(_), None) => {
                self.error(span, format!("`{name}` is a channel array: index it"));
                return None;
            }
            (None, Some(_)) => {
                self.error(s.channel.span, format!("`{name}` is not an array"));
                return None;
            }
        };
        Some((
            ir::Sync {
                channel,
                dir: s.dir,
            },
            urgent,
        ))
    }

    // ---- templates ----

    /// Checks (in check mode) or lowers (in lower mode, with `params` bound
    /// and `offset` the template's position) one template.
    pub fn template(
        &mut self,
        t: &hir::Template,
        params: Option<&[Sym]>,
        proc_name: &str,
        offset: u32,
    ) -> Option<(ir::Process, ProcInfo)> {
        self.offset = offset;
        self.push_scope();
        for (k, p) in t.params.iter().enumerate() {
            let ty = self.resolve_type(&p.ty);
            let sym = match params.and_then(|ps| ps.get(k)) {
                Some(s) => s.clone(),
                None if p.is_ref => Sym::Var { base: UNKNOWN, ty },
                None => Sym::Const { value: None, ty },
            };
            self.define(&p.name, sym);
            // Parameters often only tell instances apart (`pid` in
            // symmetric models): never warn about them.
            if let Some(e) = self
                .scopes
                .last_mut()
                .and_then(|s| s.map.get_mut(&p.name.text))
            {
                e.used = true;
            }
        }
        self.declare(&t.decls, &format!("{proc_name}."));

        // Locations.
        let mut locations = Vec::new();
        let mut loc_ids: FxHashMap<String, (ir::LocId, Span)> = FxHashMap::default();
        let mut initial: Option<(ir::LocId, Span)> = None;
        for l in &t.locations {
            let id = locations.len() as ir::LocId;
            if let Some((_, first)) = loc_ids.get(&l.name.text) {
                let first = self.abs(*first);
                let d = Diagnostic::error(
                    self.abs(l.name.span),
                    format!("location `{}` is already defined", l.name.text),
                )
                .with_related(first, "first defined here");
                self.diags.push(d);
                continue;
            }
            loc_ids.insert(l.name.text.clone(), (id, l.name.span));
            if l.init {
                if let Some((_, first)) = initial {
                    let first = self.abs(first);
                    let d = Diagnostic::error(
                        self.abs(l.name.span),
                        format!(
                            "template `{}` has more than one initial location",
                            t.name.text
                        ),
                    )
                    .with_related(first, "first initial location");
                    self.diags.push(d);
                } else {
                    initial = Some((id, l.name.span));
                }
            }
            let mut invariant = Vec::new();
            if let Some(inv) = &l.invariant {
                self.conjunction(inv, ClockCtx::Invariant, &mut Vec::new(), &mut invariant);
            }
            locations.push(ir::Location {
                name: l.name.text.clone(),
                kind: l.kind,
                invariant,
                span: self.abs(l.span),
            });
        }
        if initial.is_none() && self.mode == Mode::Check {
            self.error(
                t.name.span,
                format!(
                    "template `{}` has no initial location (mark one `init`)",
                    t.name.text
                ),
            );
        }

        // Edges.
        let mut edges = Vec::new();
        let mut succ: Vec<Vec<ir::LocId>> = vec![Vec::new(); locations.len()];
        for e in &t.edges {
            let mut ends = [0; 2];
            let mut ok = true;
            for (k, n) in [&e.source, &e.target].into_iter().enumerate() {
                match loc_ids.get(&n.text) {
                    Some((id, _)) => ends[k] = *id,
                    None => {
                        if !n.text.is_empty() {
                            self.error(n.span, format!("unknown location `{}`", n.text));
                        }
                        ok = false;
                    }
                }
            }
            if ok && let Some(s) = succ.get_mut(ends[0] as usize) {
                s.push(ends[1]);
            }
            for assignment in self.select_values(e) {
                self.push_scope();
                let mut selects = Vec::new();
                for (s, v) in e.selects.iter().zip(&assignment) {
                    self.bind_value(&s.name.text, *v, &s.ty);
                    if let Some(v) = v {
                        selects.push((s.name.text.clone(), clamp32(*v)));
                    }
                }
                let (mut data, mut clock_guard) = (Vec::new(), Vec::new());
                if let Some(g) = &e.guard {
                    self.conjunction(g, ClockCtx::Guard, &mut data, &mut clock_guard);
                }
                let sync = e.sync.as_ref().and_then(|s| {
                    let (sync, urgent) = self.sync(s)?;
                    if urgent && !clock_guard.is_empty() {
                        self.error(
                            e.guard.as_ref().map_or(s.span, |g| g.span),
                            "edges synchronising on an urgent channel cannot have clock guards",
                        );
                    }
                    Some(sync)
                });
                let updates = e.updates.iter().filter_map(|u| self.update(u)).collect();
                self.pop_scope(false);
                let guard = data.into_iter().reduce(|a, b| ty::binary(BinOp::And, a, b));
                edges.push(ir::Edge {
                    source: ends[0],
                    target: ends[1],
                    guard,
                    clock_guard,
                    sync,
                    updates,
                    selects,
                    span: self.abs(e.span),
                });
            }
        }

        if self.mode == Mode::Check
            && let Some((init, _)) = initial
        {
            let mut seen = vec![false; locations.len()];
            let mut stack = vec![init];
            while let Some(l) = stack.pop() {
                if let Some(s) = seen.get_mut(l as usize) {
                    if *s {
                        continue;
                    }
                    *s = true;
                }
                stack.extend(succ.get(l as usize).into_iter().flatten().copied());
            }
            for (k, l) in t.locations.iter().enumerate() {
                if let Some((id, span)) = loc_ids.get(&l.name.text)
                    && *span == l.name.span
                    && !seen.get(*id as usize).copied().unwrap_or(true)
                {
                    let _ = k;
                    self.warning(
                        l.name.span,
                        format!("location `{}` is unreachable", l.name.text),
                    );
                }
            }
        }

        let locals: FxHashMap<String, Sym> = self
            .scopes
            .last()
            .map(|s| {
                s.map
                    .iter()
                    .map(|(k, e)| (k.clone(), e.sym.clone()))
                    .collect()
            })
            .unwrap_or_default();
        self.pop_scope(true);
        let span = self.abs(t.span);
        self.offset = 0;
        let process = ir::Process {
            name: proc_name.to_string(),
            template: t.name.text.clone(),
            locations,
            edges,
            initial: initial.map_or(0, |(i, _)| i),
            span,
        };
        let info = ProcInfo {
            name: proc_name.to_string(),
            template: t.name.text.clone(),
            args: Vec::new(),
            locals,
            locations: loc_ids.into_iter().map(|(k, (id, _))| (k, id)).collect(),
        };
        Some((process, info))
    }

    /// Every combination of `select` values of an edge (one unknown
    /// combination in check mode); empty when the expansion is too large.
    fn select_values(&mut self, e: &hir::Edge) -> Vec<Vec<Option<i64>>> {
        let mut combos: Vec<Vec<Option<i64>>> = vec![Vec::new()];
        for s in &e.selects {
            let Some(values) = self.quant_values(&s.name, &s.ty) else {
                return Vec::new();
            };
            if (combos.len() as i64).saturating_mul(values.len() as i64) > MAX_EXPANSION {
                self.error(
                    s.name.span,
                    format!("this select makes more than {MAX_EXPANSION} edges"),
                );
                return Vec::new();
            }
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(*v);
                        c
                    })
                })
                .collect();
        }
        if self.mode == Mode::Lower && !self.spend(combos.len() as i64, e.span) {
            return Vec::new();
        }
        combos
    }
}

fn clamp32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

fn bin_op(op: BinaryOp) -> BinOp {
    match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Mod => BinOp::Mod,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::Le => BinOp::Le,
        BinaryOp::Eq => BinOp::Eq,
        BinaryOp::Ne => BinOp::Ne,
        BinaryOp::Ge => BinOp::Ge,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::And | BinaryOp::Imply => BinOp::And,
        BinaryOp::Or => BinOp::Or,
        BinaryOp::BitAnd => BinOp::BitAnd,
        BinaryOp::BitOr => BinOp::BitOr,
        BinaryOp::BitXor => BinOp::BitXor,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::Min => BinOp::Min,
        BinaryOp::Max => BinOp::Max,
    }
}
