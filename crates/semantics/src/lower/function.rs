//! Functions: declarations, calls (inlined at every call site) and the
//! statements of their bodies.
//!
//! A function is checked once where it is declared, with its parameters as
//! unknown values, and its diagnostics are reported there. Every call then
//! lowers the body again with the arguments bound, in the scope the
//! function was declared in (it sees the globals, and a template's own
//! declarations, but nothing of the caller's). An error only that binding
//! shows (a reference to something that is not a variable, a recursion) is
//! reported at the call.
//!
//! Parameters and locals live in the call frame (`ir::FRAME` slots),
//! allocated like a stack at compile time: a call's parameters first, then
//! the frames of the calls in its arguments and body above them. Recursion
//! is rejected, so no slot is ever live twice.

use std::sync::Arc;

use super::*;
use crate::hir::{Stmt, StmtKind};
use crate::ty::FunctionDef;

/// Calls nested deeper than this are rejected (they cannot come from a
/// non-recursive program of reasonable size).
const MAX_CALL_DEPTH: usize = 64;

/// What the body being lowered needs to know about its function.
pub(super) struct FnFrame {
    name: String,
    /// The result range; `None` for `void`.
    result: Option<(i32, i32)>,
    /// An array or record result: the frame slots (absolute) it is
    /// returned in, and its type.
    aggregate: Option<(u32, Ty)>,
    /// Inside an `if` or a loop: a clock reset there cannot be hoisted.
    conditional: u32,
    /// Clock resets at the top level of the body (and of the calls it makes
    /// there), constant: hoisted to updates after the call unless `dynamic`.
    resets: Vec<(ir::ClockId, i32)>,
    /// A reset was lowered that cannot be hoisted (under `if` or in a loop,
    /// or of a clock or to a value that depends on the state): every reset
    /// stays a statement of the body, in order.
    dynamic: bool,
    /// A `return` was lowered: a reset after it, even at the top level,
    /// runs only on the paths that did not return (not hoisted).
    returned: bool,
}

/// The function-related state of the lowering walker.
#[derive(Default)]
pub(super) struct FnState {
    /// Functions being inlined, innermost last (recursion detection).
    frames: Vec<FnFrame>,
    /// Calls being inlined (a declaration's check is not one): their
    /// bodies are the called function's text, not the text being lowered.
    pub(super) calls: u32,
    /// Next free frame slot, and the highest slot used since `peak` was reset.
    pub(super) top: u32,
    pub(super) peak: u32,
    /// Calls with effects are allowed (updates and function bodies).
    pub(super) effects_allowed: bool,
    /// The expression being lowered is a call standing as a statement of
    /// its own, whose clock resets may be hoisted.
    pub(super) call_statement: bool,
    /// Inside a function's statement: the effects of assignments nested in
    /// its expressions (`a[n++] = x`), run before it, in order.
    pub(super) pre: Option<Vec<ir::Stmt>>,
    /// Where the calls of functions that return an array or a record go
    /// (`make(1).a`): each runs before what reads its result from the
    /// frame. `None` where such a result cannot be used.
    pub(super) results: Option<Vec<ir::Stmt>>,
    /// A call made through a process (`P(1).f()` in a check): the next
    /// inlined function's body sees that process's variables as its
    /// template's scope.
    process_scope: Option<FxHashMap<String, Sym>>,
}

impl FnState {
    /// Whether a function body is being inlined.
    pub(super) fn inside_function(&self) -> bool {
        !self.frames.is_empty()
    }
}

/// The message of an error found in a call of `name`: `in this call of
/// `name`: …`, with a chain of more than three nested calls shortened to its
/// outermost call, their number and the innermost message.
fn call_chain_message(name: &str, inner: &str) -> String {
    const PREFIX: &str = "in this call of `";
    let mut rest = inner;
    let mut nested = 0;
    while let Some(after) = rest.strip_prefix(PREFIX)
        && let Some(tick) = after.find('`')
    {
        let tail = &after[tick + 1..];
        if let Some(r) = tail.strip_prefix(": ") {
            rest = r;
            nested += 1;
        } else if let Some((count, r)) = tail
            .strip_prefix(" (through ")
            .and_then(|t| t.split_once(" nested calls): "))
            && let Ok(k) = count.parse::<usize>()
        {
            rest = r;
            nested += 1 + k;
        } else {
            break;
        }
    }
    if nested < 3 {
        format!("{PREFIX}{name}`: {inner}")
    } else {
        format!("{PREFIX}{name}` (through {nested} nested calls): {rest}")
    }
}

/// The error for a call that closes a cycle of calls: `cycle` is the
/// functions being inlined from the called one on, in call order.
fn recursion_message(cycle: &[&str]) -> String {
    const UNSUPPORTED: &str = "recursive functions are not supported";
    let quoted: Vec<String> = cycle.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [one] => format!("{one} calls itself: {UNSUPPORTED}"),
        [init @ .., last] => {
            let path = format!("{} → {}", quoted.join(" → "), quoted[0]);
            format!(
                "{} and {last} call each other ({path}): {UNSUPPORTED}",
                init.join(", ")
            )
        }
        [] => UNSUPPORTED.to_string(),
    }
}

/// The most values a `for (i : T)` loop that resets clocks is unrolled for
/// (a longer one runs its resets as statements).
const MAX_UNROLLED: i64 = 1024;

fn slot_range(ty: &Ty) -> (i32, i32) {
    match ty.bounds() {
        Some((lo, hi)) => (clamp32(lo), clamp32(hi)),
        None => (i32::MIN, i32::MAX),
    }
}

/// The statement `target = value`, checked against the range of `ty` (the
/// target's type) when it runs: how an update's assignment becomes a
/// statement of a call's body.
pub(super) fn checked_assign(target: ir::LValue, value: ir::Expr, ty: &Ty) -> ir::Stmt {
    let (lo, hi) = slot_range(ty);
    ir::Stmt::Assign {
        target,
        value,
        lo,
        hi,
    }
}

/// Assigns `values` to the frame slots from `base` on, one per leaf of a
/// value in slot order, each checked against its leaf's range when written.
fn assign_leaves(
    base: u32,
    leaves: &[(String, Ty)],
    values: impl IntoIterator<Item = ir::Expr>,
    out: &mut Vec<ir::Stmt>,
) {
    for (k, ((_, leaf), value)) in leaves.iter().zip(values).enumerate() {
        let (lo, hi) = slot_range(leaf);
        out.push(ir::Stmt::Assign {
            target: ir::LValue {
                base: base + k as u32,
                len: 1,
                index: None,
            },
            value,
            lo,
            hi,
        });
    }
}

/// Whether running `stmts` always ends in a `return` (loops are assumed
/// to end, so a body whose last statement is a loop is accepted; falling
/// out of it is then a model error at run time).
fn always_returns(stmts: &[Stmt]) -> bool {
    match stmts.last().map(|s| &s.kind) {
        Some(StmtKind::Return(_)) => true,
        Some(StmtKind::Block(b)) => always_returns(b),
        Some(StmtKind::If(_, t, Some(e))) => {
            always_returns(std::slice::from_ref(t)) && always_returns(std::slice::from_ref(e))
        }
        Some(
            StmtKind::While(..)
            | StmtKind::DoWhile(..)
            | StmtKind::For { .. }
            | StmtKind::ForRange { .. },
        ) => true,
        _ => false,
    }
}

/// An argument, evaluated in the caller's scope.
enum Bound {
    /// A value parameter's frame slot and the argument's value.
    Value(u32, Typed),
    /// What a reference parameter stands for.
    Reference(Sym),
    /// A copy of an array, a record or a scalar read at an index that
    /// depends on the state (`f(st[cur])`): the parameter's frame slot, the
    /// argument's type and the reads of its scalars in slot order.
    Copy(u32, Ty, Vec<ir::Expr>),
    /// A reference to an element at an index that depends on the state
    /// (`inc(a[i])`), copied in at the call and out when the function
    /// ends: the slot that keeps the element's position, the position, and
    /// the copy as in [`Bound::Copy`].
    InOut(u32, ir::Expr, u32, Ty, Vec<ir::Expr>),
}

/// A reference parameter copied in and out ([`Bound::InOut`]).
struct CopyOut<'a> {
    /// The argument's variable and its slots.
    root: u32,
    slots: u32,
    /// The argument and the parameter, for messages.
    span: Span,
    param: &'a str,
    /// The copy's frame slot, and the element's scalars with their ranges.
    slot: u32,
    targets: Vec<(ir::LValue, (i32, i32))>,
}

/// The reads of a place's scalars ([`data::Place::leaf_reads`]); unknown
/// ones for a reference parameter of a template checked on its own.
fn leaf_reads(place: &data::Place, base: u32) -> Vec<ir::Expr> {
    if base == UNKNOWN {
        vec![ir::Expr::Var(UNKNOWN); place.ty.slots().unwrap_or(1) as usize]
    } else {
        place.leaf_reads(base)
    }
}

/// Puts `outs` before every `return` of `stmts`, at any depth.
fn before_returns(stmts: &mut Vec<ir::Stmt>, outs: &[ir::Stmt]) {
    for mut s in std::mem::take(stmts) {
        match &mut s {
            ir::Stmt::Return { .. } => stmts.extend(outs.iter().cloned()),
            ir::Stmt::If { then, els, .. } => {
                before_returns(then, outs);
                before_returns(els, outs);
            }
            ir::Stmt::Loop { body, .. } | ir::Stmt::ForRange { body, .. } => {
                before_returns(body, outs)
            }
            _ => {}
        }
        stmts.push(s);
    }
}

/// How a call's parameters are bound.
enum Args<'a> {
    /// Checking the declaration: every parameter an unknown value.
    Declaration,
    /// A call with these arguments (already checked for their number).
    Call(&'a [hir::Expr], Span),
}

impl Ctx {
    /// Declares a function and checks its body.
    pub(super) fn declare_function(&mut self, f: &Arc<hir::Function>) {
        let ret = f.ret.as_ref().map(|t| {
            let ty = self.resolve_type(t);
            if matches!(ty, Ty::Error) {
                return Ty::Error;
            }
            if data::has_unknown_len(&ty) {
                // A length only an instance knows (its leaves are not
                // enumerated: there may be 2^32).
                self.error(
                    t.span(),
                    "a function's result cannot have a length that depends on a template \
                     parameter: return it through a reference parameter",
                );
                return Ty::Error;
            }
            let mut leaves = Vec::new();
            if ty.slots().is_some() {
                ty.leaves(&mut String::new(), &mut leaves);
            }
            if ty.slots().is_none() || !leaves.iter().all(|(_, t)| t.is_data()) {
                self.error(
                    t.span(),
                    "a function returns an integer, a boolean, or an array or record of them",
                );
                Ty::Error
            } else {
                ty
            }
        });
        let def = Arc::new(FunctionDef {
            hir: f.clone(),
            scope_depth: self.scopes.len() as u32,
            ret,
        });
        // Defined before its body is checked: a call of itself inside it
        // is then a recursion, not an unknown name.
        self.define(&f.name, Sym::Function(def.clone()));
        if self.scopes.len() == 1 {
            self.special_function(f);
        }
        if f.ret.is_some() && !always_returns(&f.body) {
            self.error(
                f.end,
                format!(
                    "function `{}` can end without returning a value",
                    f.name.text
                ),
            );
        }
        let top = self.fns.top;
        let results = self.fns.results.take();
        self.inline(&def, Args::Declaration, None);
        self.fns.results = results;
        self.fns.top = top;
    }

    /// UPPAAL calls global functions of some names on its own: around every
    /// transition and when a query starts. zeno does not, so a model that
    /// relies on them would mean something else here: an error, except for
    /// the ones that run after the verification and cannot change it.
    fn special_function(&mut self, f: &hir::Function) {
        let when = match f.name.text.as_str() {
            "before_update" => "before every transition",
            "after_update" => "after every transition",
            "__ON_CONSTRUCT__" => "once the model is built, before the initial state is taken",
            "__ON_BEGIN__" => "before each query, on the initial state",
            "__ON_END__" | "__ON_DESTRUCT__" => {
                self.warning(
                    f.name.span,
                    format!(
                        "UPPAAL calls `{}` after a verification; zeno never calls it (it cannot change a verdict)",
                        f.name.text
                    ),
                );
                return;
            }
            _ => return,
        };
        self.error(
            f.name.span,
            format!(
                "UPPAAL calls `{}` {when}; zeno does not, so the model's checks would not mean what they mean in UPPAAL (call it from the edges' updates, under another name)",
                f.name.text
            ),
        );
    }

    /// `f(args)` in an expression: the inlined call.
    pub(super) fn call(&mut self, name: &hir::Name, args: &[hir::Expr], span: Span) -> Typed {
        self.call_returning(name, args, span, false).0
    }

    /// Whether `name` is a function that returns an array or a record.
    pub(super) fn returns_aggregate(&self, name: &hir::Name) -> bool {
        matches!(self.peek(&name.text, name.span), Some(Sym::Function(def))
            if def.ret.as_ref().is_some_and(Ty::is_aggregate))
    }

    /// Whether `e` is the result of such a call or a part of one
    /// (`make(1).a`, `row()[2]`).
    pub(super) fn rooted_in_call(&self, e: &hir::Expr) -> bool {
        match &e.kind {
            ExprKind::Call(n, _) => self.returns_aggregate(n),
            ExprKind::Index(a, _) | ExprKind::Field(a, _) => self.rooted_in_call(a),
            _ => false,
        }
    }

    /// The place of the array or record that the call `e` returns, in the
    /// frame; the call goes to [`FnState::results`], to run first.
    pub(super) fn result_place(&mut self, e: &hir::Expr) -> Option<data::Place> {
        let ExprKind::Call(name, args) = &e.kind else {
            return None;
        };
        if self.fns.results.is_none() {
            self.error(
                e.span,
                format!(
                    "the array or record that `{}` returns can only be read, compared, \
                     assigned or passed by value here",
                    name.text
                ),
            );
            return None;
        }
        let (t, base) = self.call_returning(name, args, e.span, true);
        let base = base?;
        if let Some(r) = self.fns.results.as_mut() {
            r.push(ir::Stmt::Eval(t.expr));
        }
        Some(data::Place {
            store: data::Store::Var(base),
            offset: 0,
            terms: Vec::new(),
            root_slots: t.ty.slots().unwrap_or(1),
            is_const: true,
            ty: t.ty,
        })
    }

    /// `c ? a : b` whose branches are arrays or records (`b ? q[0] : q[1]`,
    /// `b ? make(1) : make(2)`): `if (c) t = a; else t = b;`, copied slot
    /// by slot into frame slots `t`, runs with the calls whose results are
    /// read (only the branch taken is evaluated), and the place is `t`.
    pub(super) fn cond_place(
        &mut self,
        e: &hir::Expr,
        c: &hir::Expr,
        a: &hir::Expr,
        b: &hir::Expr,
    ) -> Option<data::Place> {
        if self.fns.results.is_none() {
            self.error(
                e.span,
                "a choice between arrays or records can only be read, compared, assigned or \
                 passed by value here",
            );
            return None;
        }
        let cond = self.data(c);
        let (mut then, mut els) = (Vec::new(), Vec::new());
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional += 1;
        }
        let from_a = self.aggregate_value(a, &mut then);
        let from_b = self.aggregate_value(b, &mut els);
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional -= 1;
        }
        let ((ty, reads_a), (ty_b, reads_b)) = (from_a?, from_b?);
        // Unknown lengths (a template checked on its own) are compared per
        // instance.
        let unknown = data::has_unknown_len(&ty) || data::has_unknown_len(&ty_b);
        if !unknown && !ty.same_shape(&ty_b) {
            self.error(
                e.span,
                format!(
                    "{} and {} do not have the same shape",
                    ty.describe(),
                    ty_b.describe()
                ),
            );
            return None;
        }
        // A length unknown while a template is checked on its own: one
        // slot stands for the whole value, and nothing is copied.
        let n = ty.slots().filter(|_| !unknown).unwrap_or(1);
        let base = ir::FRAME + self.alloc(n);
        if !unknown && ty.slots().is_some() {
            let mut leaves = Vec::new();
            ty.leaves(&mut String::new(), &mut leaves);
            assign_leaves(base, &leaves, reads_a, &mut then);
            assign_leaves(base, &leaves, reads_b, &mut els);
            let run = match cond.expr {
                ir::Expr::Const(v) if v != 0 => then,
                ir::Expr::Const(_) => els,
                cond => vec![ir::Stmt::If { cond, then, els }],
            };
            if let Some(r) = self.fns.results.as_mut() {
                r.extend(run);
            }
        }
        Some(data::Place {
            store: data::Store::Var(base),
            offset: 0,
            terms: Vec::new(),
            root_slots: n,
            is_const: true,
            ty,
        })
    }

    /// Lowers `f` with a sink for the calls that return arrays or records
    /// in it; when there are some, the value becomes a nameless call that
    /// runs them and then evaluates it.
    pub(super) fn with_results(&mut self, span: Span, f: impl FnOnce(&mut Ctx) -> Typed) -> Typed {
        let outer = self.fns.results.replace(Vec::new());
        let (top, pre) = (self.fns.top, self.fns.pre.as_ref().map(Vec::len));
        let t = f(self);
        let mut body = std::mem::replace(&mut self.fns.results, outer).unwrap_or_default();
        // The result slots are read inside the nameless call only; slots
        // of nested assignments that run before the statement are kept.
        if self.fns.pre.as_ref().map(Vec::len) == pre {
            self.fns.top = top;
        }
        if body.is_empty() || matches!(t.ty, Ty::Error) {
            return t;
        }
        // The value's own range (a field's, a comparison's 0 or 1), which
        // the range analysis of clock bounds reads from the call.
        let (lo, hi) = match t.ty {
            Ty::Bool => (0, 1),
            _ => slot_range(&t.ty),
        };
        body.push(ir::Stmt::Return {
            value: Some(t.expr),
            lo,
            hi,
        });
        let call = self.nameless_call(body, self.fns.peak, span, Some((lo, hi)));
        Typed {
            expr: ir::Expr::Call(Arc::new(call)),
            ty: t.ty,
            is_const: false,
        }
    }

    /// A call without a function of its own that runs `body`; its frame
    /// covers `frame_used` and the frames of the calls it makes.
    pub(super) fn nameless_call(
        &self,
        body: Vec<ir::Stmt>,
        frame_used: u32,
        span: Span,
        result: Option<(i32, i32)>,
    ) -> ir::Call {
        let mut frame_len = frame_used;
        for s in &body {
            let mut each = |c: &ir::Call| frame_len = frame_len.max(c.frame_len);
            match s {
                ir::Stmt::Assign { value, .. }
                | ir::Stmt::Eval(value)
                | ir::Stmt::Return {
                    value: Some(value), ..
                } => value.for_each_call(&mut each),
                ir::Stmt::ResetClock { clock, value } => clock
                    .index
                    .iter()
                    .chain([value])
                    .for_each(|e| e.for_each_call(&mut each)),
                _ => {}
            }
        }
        let (reads, writes) = ir::footprint(&body);
        let (may_reset, must_reset) = ir::reset_summary(&body);
        ir::Call {
            name: String::new(),
            args: Vec::new(),
            body,
            frame_len,
            reads,
            writes,
            result,
            resets: Vec::new(),
            may_reset,
            must_reset,
            span: self.abs(span),
            // No statement of its own: an error is the edge's, or located
            // in the function it calls.
            decl: Span::default(),
            local: false,
        }
    }

    /// `f(args)`; with `aggregate`, a function that returns an array or a
    /// record may be called, and the frame slots of its result come back.
    fn call_returning(
        &mut self,
        name: &hir::Name,
        args: &[hir::Expr],
        span: Span,
        aggregate: bool,
    ) -> (Typed, Option<u32>) {
        let def = match self.lookup_or_error(&name.text, name.span) {
            Some(Sym::Function(def)) => def,
            Some(other) => {
                self.fns.call_statement = false;
                self.error(
                    name.span,
                    format!("`{}` is a {}, not a function", name.text, other.kind_name()),
                );
                return (Typed::error(), None);
            }
            None => {
                self.fns.call_statement = false;
                return (Typed::error(), None);
            }
        };
        self.call_def(def, name, args, span, aggregate)
    }

    /// `P(1).f(args)` in a check: `f`, a function of the process's
    /// template, inlined with the process's own variables and parameters
    /// (as UPPAAL evaluates it). Its template-relative spans are made
    /// absolute with the template's place in the text.
    pub(super) fn process_call(
        &mut self,
        process: &hir::Expr,
        function: &hir::Name,
        args: &[hir::Expr],
        span: Span,
    ) -> Typed {
        if self.procs.is_empty() {
            self.error(
                span,
                format!(
                    "`.{}(…)` calls a function of a process: only a check can do that",
                    function.text
                ),
            );
            return Typed::error();
        }
        let Some(pid) = self.resolve_process(process) else {
            return Typed::error();
        };
        let info = &self.procs[pid];
        let def = match info.locals.get(&function.text) {
            Some(Sym::Function(def)) => def.clone(),
            other => {
                let message = match other {
                    Some(sym) => format!(
                        "`{}` is a {} of process `{}`, not a function",
                        function.text,
                        sym.kind_name(),
                        info.name
                    ),
                    None => format!(
                        "process `{}` has no function `{}`",
                        info.name, function.text
                    ),
                };
                self.error(function.span, message);
                return Typed::error();
            }
        };
        let (locals, offset) = (info.locals.clone(), info.offset);
        self.fns.process_scope = Some(locals);
        let (mut t, _) = self.call_def(def, function, args, span, false);
        // Only a call that was made consumed it.
        self.fns.process_scope = None;
        ir::shift_local_calls_in(&mut t.expr, offset);
        t
    }

    /// The call of `def` (named `name` at the call).
    fn call_def(
        &mut self,
        def: Arc<FunctionDef>,
        name: &hir::Name,
        args: &[hir::Expr],
        span: Span,
        aggregate: bool,
    ) -> (Typed, Option<u32>) {
        let as_statement = std::mem::take(&mut self.fns.call_statement);
        let params = def.hir.params.len();
        if params != args.len() {
            self.error(
                span,
                format!(
                    "`{}` takes {params} argument{}, not {}",
                    name.text,
                    if params == 1 { "" } else { "s" },
                    args.len()
                ),
            );
            return (Typed::error(), None);
        }
        // An array or record result: frame slots below the callee's frame,
        // which stay allocated for the caller to read.
        let result_base = match &def.ret {
            Some(ret) if ret.is_aggregate() => {
                if !aggregate && !as_statement {
                    self.error(
                        span,
                        format!(
                            "`{}` returns {}: use a field or an element of it, or assign, \
                             compare or pass it whole",
                            name.text,
                            ret.describe()
                        ),
                    );
                    return (Typed::error(), None);
                }
                Some(self.alloc(ret.slots().unwrap_or(1)))
            }
            _ => None,
        };
        let top = self.fns.top;
        let results = self.fns.results.take();
        self.fns.calls += 1;
        let inlined = self.inline(&def, Args::Call(args, span), result_base);
        self.fns.calls -= 1;
        self.fns.results = results;
        self.fns.top = top;
        let Some((call, ty)) = inlined else {
            return (Typed::error(), None);
        };
        if !call.writes.is_empty() && !self.fns.effects_allowed {
            self.error(
                span,
                format!(
                    "`{}` changes variables, so it can only be called in a `do` clause \
                     (guards, invariants and checks have no effects)",
                    name.text
                ),
            );
        }
        if (!call.resets.is_empty() || call.resets_dynamically()) && !as_statement {
            self.error(
                span,
                format!(
                    "`{}` resets clocks, so it must be called as an update of its own \
                     (`do {}(…)`), not inside an expression",
                    name.text, name.text
                ),
            );
        }
        if def.hir.ret.is_none() && !as_statement {
            self.error(
                span,
                format!(
                    "`{}` returns no value (it is `void`): call it as an update or a \
                     statement of its own, not inside an expression",
                    name.text
                ),
            );
            return (Typed::error(), None);
        }
        let typed = Typed {
            expr: ir::Expr::Call(Arc::new(call)),
            ty,
            is_const: false,
        };
        (typed, result_base.map(|b| ir::FRAME + b))
    }

    fn alloc(&mut self, n: u32) -> u32 {
        let base = self.fns.top;
        self.fns.top = self.fns.top.saturating_add(n);
        self.fns.peak = self.fns.peak.max(self.fns.top);
        base
    }

    /// Lowers the function's body with its parameters bound; `None` when
    /// the call cannot be made (reported).
    fn inline(
        &mut self,
        def: &Arc<FunctionDef>,
        args: Args,
        result_base: Option<u32>,
    ) -> Option<(ir::Call, Ty)> {
        let f = &def.hir;
        let name = f.name.text.clone();
        let call_span = match &args {
            Args::Call(_, span) => Some(*span),
            Args::Declaration => None,
        };
        if let Some(first) = self.fns.frames.iter().position(|fr| fr.name == name) {
            let at = call_span.unwrap_or(f.name.span);
            let cycle: Vec<&str> = self.fns.frames[first..]
                .iter()
                .map(|fr| fr.name.as_str())
                .collect();
            self.error(at, recursion_message(&cycle));
            return None;
        }
        if self.fns.frames.len() >= MAX_CALL_DEPTH {
            let at = call_span.unwrap_or(f.name.span);
            self.error(
                at,
                format!("calls are nested more than {MAX_CALL_DEPTH} deep"),
            );
            return None;
        }
        let mark = self.diags.len();
        let peak = std::mem::replace(&mut self.fns.peak, self.fns.top);
        let effects = std::mem::replace(&mut self.fns.effects_allowed, true);
        // Taken before the arguments, whose own calls must not see it.
        let process_scope = self.fns.process_scope.take();

        // Parameter slots first, then the arguments (whose calls use the
        // frame above them), in the caller's scope.
        let mut body = Vec::new();
        let mut bound: Vec<Bound> = Vec::new();
        // Constant references bound to a copy: (the argument's variable,
        // its slots, the argument, the parameter).
        let mut copies: Vec<(u32, u32, Span, &str)> = Vec::new();
        let mut outs: Vec<CopyOut> = Vec::new();
        // Arguments that are results of calls (`send(make(1))`) run first
        // (the caller restores its own sink).
        self.fns.results = Some(Vec::new());
        if let Args::Call(args, _) = &args {
            for (p, a) in f.params.iter().zip(args.iter()) {
                if p.is_ref && !p.is_const && self.rooted_in_call(a) {
                    self.error(
                        a.span,
                        format!(
                            "the reference parameter `{}` needs a variable, not the result of a call",
                            p.name.text
                        ),
                    );
                    return None;
                }
                let scalar = p.array.is_empty() && !self.names_aggregate_type(&p.ty);
                bound.push(if p.is_ref && p.is_const && scalar && self.is_a_value(a) {
                    // `peek(K)`, `peek(n + 1)`: nothing to refer to, and
                    // nothing can change it during the call, so the
                    // parameter is the value, as UPPAAL binds it.
                    self.value_argument(a, false)
                } else if p.is_ref && p.is_const && !matches!(a.kind, ExprKind::Name(_)) {
                    // A constant reference cannot write its argument: one
                    // at an index that depends on the state reads a copy,
                    // unless the function writes the variable (below).
                    let place = self.place(a)?;
                    match place.store {
                        data::Store::Var(base) if !place.terms.is_empty() && !place.is_const => {
                            if base != UNKNOWN {
                                copies.push((base, place.root_slots, a.span, &p.name.text));
                            }
                            let slot = self.alloc(place.ty.slots().unwrap_or(1));
                            Bound::Copy(slot, place.ty.clone(), leaf_reads(&place, base))
                        }
                        _ => Bound::Reference(self.reference_place(place, a, &p.name.text)?),
                    }
                } else if p.is_ref && !matches!(a.kind, ExprKind::Name(_)) {
                    // An element at an index that depends on the state:
                    // copied in and out, unless the function reads or
                    // writes the variable otherwise (below).
                    let place = self.place(a)?;
                    match (&place.store, place.dynamic(false)) {
                        // A reference parameter of a template checked on
                        // its own: any element.
                        (&data::Store::Var(UNKNOWN), Some(_)) if !place.is_const => {
                            Bound::Reference(Sym::Var {
                                base: UNKNOWN,
                                ty: place.ty.clone(),
                            })
                        }
                        (&data::Store::Var(base), Some((index, _))) if !place.is_const => {
                            let at = self.alloc(1);
                            let slot = self.alloc(place.ty.slots().unwrap_or(1));
                            let mut leaves = Vec::new();
                            place.ty.leaves(&mut String::new(), &mut leaves);
                            let targets: Vec<(ir::LValue, (i32, i32))> = leaves
                                .iter()
                                .enumerate()
                                .map(|(k, (_, t))| {
                                    let (b, len, _) = place.at(k as u32, t.clone()).element(base);
                                    let index = Some(ir::Expr::Var(ir::FRAME + at));
                                    (
                                        ir::LValue {
                                            base: b,
                                            len,
                                            index,
                                        },
                                        slot_range(t),
                                    )
                                })
                                .collect();
                            let reads = targets.iter().map(|(t, _)| t.read()).collect();
                            outs.push(CopyOut {
                                root: base,
                                slots: place.root_slots,
                                span: a.span,
                                param: &p.name.text,
                                slot,
                                targets,
                            });
                            Bound::InOut(at, index, slot, place.ty.clone(), reads)
                        }
                        _ => Bound::Reference(self.reference_place(place, a, &p.name.text)?),
                    }
                } else if p.is_ref {
                    Bound::Reference(self.reference_argument(a, &p.name.text)?)
                } else {
                    let aggregate = !p.array.is_empty() || self.names_aggregate_type(&p.ty);
                    self.value_argument(a, aggregate)
                });
            }
        }
        body.extend(self.fns.results.take().unwrap_or_default());

        // The declaration's scope: the globals, and for a function of a
        // template the variables of the process it is called for.
        let depth = (def.scope_depth as usize).clamp(1, self.scopes.len());
        let saved = match &process_scope {
            Some(locals) => {
                let saved = self.scopes.split_off(1);
                self.push_scope();
                for (name, sym) in locals {
                    self.bind(name, sym.clone());
                }
                saved
            }
            None => self.scopes.split_off(depth),
        };
        self.push_scope();
        let mut bound = bound.into_iter();
        for p in &f.params {
            let ty = self.param_type(p);
            let sym = match bound.next() {
                Some(Bound::Value(slot, value)) => {
                    self.bind_value_parameter(p, &ty, slot, value, &mut body)
                }
                Some(Bound::Reference(sym)) => sym,
                Some(Bound::Copy(slot, from, reads)) => {
                    self.bind_copied_parameter(p, &ty, slot, &from, reads, &mut body)
                }
                Some(Bound::InOut(at, index, slot, from, reads)) => {
                    body.push(ir::Stmt::Assign {
                        target: ir::LValue {
                            base: ir::FRAME + at,
                            len: 1,
                            index: None,
                        },
                        value: index,
                        lo: i32::MIN,
                        hi: i32::MAX,
                    });
                    // The reference has its argument's type, as bound in place.
                    self.bind_copied_parameter(p, &from, slot, &from, reads, &mut body)
                }
                None => {
                    // The declaration: an unknown value of the type.
                    let slot = self.alloc(ty.slots().unwrap_or(1));
                    match ty.scalar_part() {
                        // A reference to a clock or channel: any one.
                        Ty::Clock => Sym::Clock { id: UNKNOWN },
                        &Ty::Chan { kind, urgent } => Sym::Chan {
                            base: UNKNOWN,
                            shape: ty.clone(),
                            kind,
                            urgent,
                        },
                        _ => Sym::Var {
                            base: ir::FRAME + slot,
                            ty,
                        },
                    }
                }
            };
            self.define_param(&p.name, sym);
        }
        let result = def.ret.clone();
        let aggregate = match &result {
            Some(ty) if ty.is_aggregate() => {
                let base = match result_base {
                    Some(b) => b,
                    None => self.alloc(ty.slots().unwrap_or(1)),
                };
                Some((ir::FRAME + base, ty.clone()))
            }
            _ => None,
        };
        self.fns.frames.push(FnFrame {
            name: name.clone(),
            // An array or record is returned in the frame; the call's own
            // value is a 0 that nobody reads.
            result: result.as_ref().map(|t| {
                if t.is_aggregate() {
                    (0, 0)
                } else {
                    slot_range(t)
                }
            }),
            aggregate,
            conditional: 0,
            resets: Vec::new(),
            dynamic: false,
            returned: false,
        });
        let start = body.len();
        self.block(&f.body, &mut body);
        let frame = self.fns.frames.pop();
        let result_range = frame.as_ref().and_then(|fr| fr.result);
        self.pop_scope(false);
        if process_scope.is_some() {
            self.pop_scope(false);
        }
        self.scopes.extend(saved);
        self.fns.effects_allowed = effects;
        let frame_len = self.fns.peak;
        self.fns.peak = peak.max(frame_len);

        if let Some(span) = call_span {
            // The body was checked at its declaration; what shows only now
            // is reported at the call, once.
            let new: Vec<Diagnostic> = self.diags.drain(mark..).collect();
            if let Some(first) = new
                .iter()
                .find(|d| d.severity == zeno_base::diagnostics::Severity::Error)
            {
                let message = call_chain_message(&name, &first.message);
                self.error(span, message);
                return None;
            }
        }
        if !outs.is_empty() {
            let (reads, writes) = ir::footprint(&body[start..]);
            let mut copy_out = Vec::new();
            for (n, out) in outs.iter().enumerate() {
                let aliased = out.root..out.root.saturating_add(out.slots);
                // Another copy of the same variable (`swap(a[i], a[j])`)
                // would not see this one's writes when i == j.
                let overlaps = |root: u32, slots: u32| {
                    root < aliased.end && aliased.start < root.saturating_add(slots)
                };
                let shared = outs
                    .iter()
                    .enumerate()
                    .any(|(m, o)| m != n && overlaps(o.root, o.slots))
                    || copies.iter().any(|c| overlaps(c.0, c.1));
                if self.mode == Mode::Lower
                    && (shared || reads.iter().chain(&writes).any(|v| aliased.contains(v)))
                {
                    self.error(
                        out.span,
                        format!(
                            "`{name}` reads or writes the variable that its reference parameter \
                             `{}` is bound to, at an index that depends on the state; bind it \
                             to a part with constant indices",
                            out.param
                        ),
                    );
                    return None;
                }
                for (k, (target, (lo, hi))) in out.targets.iter().enumerate() {
                    copy_out.push(ir::Stmt::Assign {
                        target: target.clone(),
                        value: ir::Expr::Var(ir::FRAME + out.slot + k as u32),
                        lo: *lo,
                        hi: *hi,
                    });
                }
            }
            let mut own = body.split_off(start);
            before_returns(&mut own, &copy_out);
            body.extend(own);
            // Falling off the end: only a `void` function may (for another,
            // it is a model error, and nothing is written back).
            if f.ret.is_none() {
                body.extend(copy_out);
            }
        }
        // Resets that are all constant and at the top level are hoisted
        // (the checker's hot path, and the analyses, see them as plain
        // `ResetClock` updates); they are the only reset statements then.
        // Clocks are never read inside a function, so moving resets after
        // its other statements changes nothing.
        let (resets, may_reset, must_reset) = match frame {
            Some(fr) if !fr.dynamic => {
                body.retain(|s| !matches!(s, ir::Stmt::ResetClock { .. }));
                (fr.resets, Vec::new(), Vec::new())
            }
            _ => {
                let (may, must) = ir::reset_summary(&body);
                (Vec::new(), may, must)
            }
        };
        let (reads, writes) = ir::footprint(&body);
        if self.mode == Mode::Lower {
            for (root, slots, span, param) in copies {
                let aliased = root..root.saturating_add(slots);
                if writes.iter().any(|w| aliased.contains(w)) {
                    self.error(
                        span,
                        format!(
                            "`{name}` writes the variable that its constant reference parameter \
                             `{param}` is bound to, at an index that depends on the state; \
                             bind it to a part with constant indices"
                        ),
                    );
                    return None;
                }
            }
        }
        let call = ir::Call {
            name,
            args: Vec::new(),
            body,
            frame_len,
            reads,
            writes,
            result: result_range,
            resets,
            may_reset,
            must_reset,
            span: call_span.map(|s| self.abs(s)).unwrap_or_default(),
            decl: self.abs(f.name.span),
            // Declared in a template (scope 1 is the globals'): its spans are
            // relative to the template until the instance is placed.
            local: def.scope_depth > 1,
        };
        Some((call, result.unwrap_or(Ty::int())))
    }

    /// A value argument: its frame slots, and its value (lowered in the
    /// caller's scope). An array or record is copied slot by slot from a
    /// part of a variable with constant indices.
    fn value_argument(&mut self, a: &hir::Expr, aggregate: bool) -> Bound {
        if aggregate {
            if let Some(p) = self.place(a)
                && let data::Store::Var(base) = p.store
                && let Some(n) = p.ty.slots()
            {
                let slot = self.alloc(n);
                if !p.terms.is_empty() {
                    // At an index that depends on the state (`f(m[row])`).
                    return Bound::Copy(slot, p.ty.clone(), leaf_reads(&p, base));
                }
                return Bound::Value(
                    slot,
                    Typed {
                        expr: ir::Expr::Var(base.wrapping_add(p.offset)),
                        ty: p.ty,
                        is_const: false,
                    },
                );
            }
            self.error(a.span, "expected an array or record variable");
            return Bound::Value(self.alloc(1), Typed::error());
        }
        let slot = self.alloc(1);
        Bound::Value(slot, self.data(a))
    }

    /// Binds a parameter to a copy of its argument read at an index that
    /// depends on the state ([`Bound::Copy`]), assigned at the call.
    fn bind_copied_parameter(
        &mut self,
        p: &hir::Param,
        ty: &Ty,
        slot: u32,
        from: &Ty,
        reads: Vec<ir::Expr>,
        body: &mut Vec<ir::Stmt>,
    ) -> Sym {
        let base = ir::FRAME + slot;
        let sym = Sym::Var {
            base,
            ty: ty.clone(),
        };
        if matches!(from, Ty::Error) || matches!(ty, Ty::Error) {
            return sym;
        }
        let mut mine = Vec::new();
        if let Some(n) = ty.slots() {
            ty.leaves(&mut String::new(), &mut mine);
            if from.slots() == Some(n)
                && ty.is_aggregate() == from.is_aggregate()
                && ty.same_shape(from)
            {
                assign_leaves(base, &mine, reads, body);
                return sym;
            }
        }
        self.error(
            p.span,
            format!(
                "the argument is {}, the parameter {}",
                from.describe(),
                ty.describe()
            ),
        );
        sym
    }

    /// Binds a value parameter to its frame slots and assigns the argument.
    fn bind_value_parameter(
        &mut self,
        p: &hir::Param,
        ty: &Ty,
        slot: u32,
        value: Typed,
        body: &mut Vec<ir::Stmt>,
    ) -> Sym {
        let base = ir::FRAME + slot;
        let sym = Sym::Var {
            base,
            ty: ty.clone(),
        };
        if matches!(value.ty, Ty::Error) || matches!(ty, Ty::Error) {
            return sym;
        }
        if ty.is_aggregate() || value.ty.is_aggregate() {
            let (Some(n), Some(m)) = (ty.slots(), value.ty.slots()) else {
                return sym;
            };
            let (mut mine, mut theirs) = (Vec::new(), Vec::new());
            ty.leaves(&mut String::new(), &mut mine);
            value.ty.leaves(&mut String::new(), &mut theirs);
            if n != m || !ty.is_aggregate() || !value.ty.is_aggregate() {
                self.error(
                    p.span,
                    format!(
                        "the argument is {}, the parameter {}",
                        value.ty.describe(),
                        ty.describe()
                    ),
                );
                return sym;
            }
            let ir::Expr::Var(from) = value.expr else {
                return sym;
            };
            let copies = (0..mine.len() as u32).map(|k| ir::Expr::Var(from + k));
            assign_leaves(base, &mine, copies, body);
            return sym;
        }
        match ty {
            Ty::Int { .. } | Ty::Bool => {
                let (lo, hi) = slot_range(ty);
                if let ir::Expr::Const(v) = value.expr {
                    self.check_range(v as i64, ty, p.span, "argument");
                }
                body.push(ir::Stmt::Assign {
                    target: ir::LValue {
                        base,
                        len: 1,
                        index: None,
                    },
                    value: value.expr,
                    lo,
                    hi,
                });
            }
            _ => {
                self.error(
                    p.span,
                    "clocks and channels can only be passed by reference (`clock &x`)",
                );
            }
        }
        sym
    }

    /// What a reference parameter stands for: a variable, a part of one
    /// with constant indices, a clock or a channel.
    pub(crate) fn reference_argument(&mut self, a: &hir::Expr, param: &str) -> Option<Sym> {
        if let ExprKind::Name(n) = &a.kind
            && let Some(sym @ Sym::Clock { .. }) = self.peek(n, a.span)
        {
            self.lookup(n, a.span);
            return Some(sym);
        }
        let p = self.place(a)?;
        self.reference_place(p, a, param)
    }

    /// What a reference parameter bound to the place `p` (the argument `a`)
    /// stands for.
    fn reference_place(&mut self, p: data::Place, a: &hir::Expr, param: &str) -> Option<Sym> {
        // While a template is checked on its own, an index may be an
        // unknown constant: any element stands for it.
        if !p.terms.is_empty() && !p.is_const && !matches!(p.store, data::Store::Clock(_)) {
            self.error(
                a.span,
                format!(
                    "the reference parameter `{param}` needs a variable, or a part of one \
                     with constant indices"
                ),
            );
            return None;
        }
        match p.store {
            data::Store::Clock(base) => {
                if matches!(p.ty, Ty::Error) {
                    return None;
                }
                if p.is_const && !p.terms.is_empty() {
                    // An index only known once the template is instantiated.
                    return Some(Sym::Clock { id: UNKNOWN });
                }
                if p.ty.is_aggregate() || !p.terms.is_empty() {
                    self.error(
                        a.span,
                        format!(
                            "the reference parameter `{param}` needs a clock or an element of a clock array with a constant index"
                        ),
                    );
                    return None;
                }
                Some(Sym::Clock {
                    id: base.wrapping_add(p.offset),
                })
            }
            data::Store::Var(base) => Some(Sym::Var {
                base: base.wrapping_add(p.offset),
                ty: p.ty,
            }),
            data::Store::Chan { base, kind, urgent } => Some(Sym::Chan {
                base: base.wrapping_add(p.offset),
                shape: p.ty,
                kind,
                urgent,
            }),
            data::Store::Const(_) => {
                self.error(
                    a.span,
                    format!("the reference parameter `{param}` needs a variable, not a constant"),
                );
                None
            }
        }
    }

    // ---- statements ----

    /// A block: its declarations end with it, and so do their frame slots.
    fn block(&mut self, stmts: &[Stmt], out: &mut Vec<ir::Stmt>) {
        let top = self.fns.top;
        self.push_scope();
        for s in stmts {
            self.statement(s, out);
        }
        self.pop_scope(false);
        self.fns.top = top;
    }

    /// A branch or loop body: a scope of its own, where a clock reset is
    /// conditional (it cannot be hoisted).
    fn nested(&mut self, s: &Stmt) -> Vec<ir::Stmt> {
        let mut out = Vec::new();
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional += 1;
        }
        self.block(std::slice::from_ref(s), &mut out);
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional -= 1;
        }
        out
    }

    /// Lowers `e` in a statement, the effects of the assignments nested in
    /// it appended to `out` first.
    fn with_effects(&mut self, e: &hir::Expr, out: &mut Vec<ir::Stmt>) -> Typed {
        let outer = self.fns.pre.replace(Vec::new());
        let t = self.data(e);
        let pre = std::mem::replace(&mut self.fns.pre, outer).unwrap_or_default();
        out.extend(pre);
        t
    }

    /// A condition of `if` (whose nested effects run before it).
    fn condition(&mut self, e: &hir::Expr, out: &mut Vec<ir::Stmt>) -> ir::Expr {
        self.with_effects(e, out).expr
    }

    /// A loop condition, evaluated again and again: no effects allowed.
    fn loop_condition(&mut self, e: &hir::Expr) -> ir::Expr {
        let mut pre = Vec::new();
        let t = self.with_effects(e, &mut pre);
        if !pre.is_empty() {
            self.error(e.span, "a loop condition cannot change variables");
        }
        t.expr
    }

    /// `v++`, `v--`, `++v`, `v = e` nested in an expression of a function:
    /// the assignment runs before the statement, and the expression reads
    /// the old value (`v++`) or the new one. `None` outside functions.
    pub(super) fn nested_assignment(&mut self, e: &hir::Expr) -> Option<Typed> {
        self.fns.pre.as_ref()?;
        let mut pre = Vec::new();
        let value = match &e.kind {
            ExprKind::Incr(l, up) => {
                let (target, ty) = self.lvalue(l)?;
                let read = target.read();
                let (lo, hi) = slot_range(&ty);
                let old = ir::FRAME + self.alloc(1);
                pre.push(ir::Stmt::Assign {
                    target: ir::LValue {
                        base: old,
                        len: 1,
                        index: None,
                    },
                    value: read.clone(),
                    lo: i32::MIN,
                    hi: i32::MAX,
                });
                let op = if *up { BinOp::Add } else { BinOp::Sub };
                pre.push(ir::Stmt::Assign {
                    target,
                    value: ty::binary(op, read, ir::Expr::Const(1)),
                    lo,
                    hi,
                });
                Typed {
                    expr: ir::Expr::Var(old),
                    ty,
                    is_const: false,
                }
            }
            _ => {
                let mut updates = Vec::new();
                let t = self.update_value_typed(e, &mut updates)?;
                for (u, ty) in updates {
                    if matches!(u, ir::Update::ResetClock { .. }) && self.fns.frames.is_empty() {
                        // On an edge, resets are the edge's own updates.
                        self.error(e.span, "a clock reset cannot be used as a value");
                        return None;
                    }
                    self.push_update(u, &ty, &mut pre);
                }
                t
            }
        };
        if let Some(p) = self.fns.pre.as_mut() {
            p.extend(pre);
        }
        Some(value)
    }

    /// Lowers an operand that may not be evaluated (a branch of `?:`, the
    /// right side of `&&`/`||`), returning with it the effects nested in it
    /// (assignments, calls whose results are read from the frame), which
    /// must run only where it is evaluated, before its value is read.
    pub(super) fn lazy_operand(&mut self, e: &hir::Expr) -> (Typed, Vec<ir::Stmt>) {
        let outer_pre = self.fns.pre.as_ref().map(|_| Vec::new());
        let outer_pre = std::mem::replace(&mut self.fns.pre, outer_pre);
        let outer_results = self.fns.results.as_ref().map(|_| Vec::new());
        let outer_results = std::mem::replace(&mut self.fns.results, outer_results);
        // A clock reset in it is conditional: it cannot be hoisted.
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional += 1;
        }
        let t = self.data(e);
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional -= 1;
        }
        let mut effects = std::mem::replace(&mut self.fns.pre, outer_pre).unwrap_or_default();
        effects.extend(std::mem::replace(&mut self.fns.results, outer_results).unwrap_or_default());
        (t, effects)
    }

    /// Runs `stmts` before the expression being lowered reads its value:
    /// with the nested assignments where there are some (a statement, an
    /// update), else with the calls whose results it reads. One of them
    /// collects whenever [`Ctx::lazy_operand`] returned effects.
    fn run_first(&mut self, stmts: Vec<ir::Stmt>) {
        if let Some(pre) = self.fns.pre.as_mut() {
            pre.extend(stmts);
        } else if let Some(results) = self.fns.results.as_mut() {
            results.extend(stmts);
        }
    }

    /// A frame slot that keeps the value of a lazy operation, computed by
    /// statements that run first.
    fn lazy_slot(&mut self) -> ir::LValue {
        ir::LValue {
            base: ir::FRAME + self.alloc(1),
            len: 1,
            index: None,
        }
    }

    /// `c ? a : b` whose branches have effects: `if (c) { a's effects;
    /// t = a } else { b's effects; t = b }` runs first, and the value is `t`.
    pub(super) fn cond_with_effects(
        &mut self,
        c: Typed,
        (a, a_effects): (Typed, Vec<ir::Stmt>),
        (b, b_effects): (Typed, Vec<ir::Stmt>),
    ) -> Typed {
        if let ir::Expr::Const(v) = c.expr {
            let (taken, effects) = if v != 0 {
                (a, a_effects)
            } else {
                (b, b_effects)
            };
            self.run_first(effects);
            return Typed {
                is_const: false,
                ..taken
            };
        }
        let ty = a.ty.clone();
        let slot = self.lazy_slot();
        let branch = |value: ir::Expr, mut effects: Vec<ir::Stmt>| {
            effects.push(ir::Stmt::Assign {
                target: slot.clone(),
                value,
                lo: i32::MIN,
                hi: i32::MAX,
            });
            effects
        };
        let then = branch(a.expr, a_effects);
        let els = branch(b.expr, b_effects);
        let read = slot.read();
        self.run_first(vec![ir::Stmt::If {
            cond: c.expr,
            then,
            els,
        }]);
        Typed {
            expr: read,
            ty,
            is_const: false,
        }
    }

    /// `a && b`, `a || b`, `a imply b` whose right operand has effects:
    /// `t = a != 0; if (t) { b's effects; t = b != 0 }` (for `&&`; `||`
    /// tests `!t`, and `imply` starts from `a == 0`) runs first, and the
    /// value is `t`.
    pub(super) fn short_circuit_with_effects(
        &mut self,
        op: BinaryOp,
        a: Typed,
        b: Typed,
        effects: Vec<ir::Stmt>,
    ) -> Typed {
        let slot = self.lazy_slot();
        let truth = |e: ir::Expr, test: BinOp| ty::binary(test, e, ir::Expr::Const(0));
        let first = truth(
            a.expr,
            if op == BinaryOp::Imply {
                BinOp::Eq
            } else {
                BinOp::Ne
            },
        );
        let assign = |value| ir::Stmt::Assign {
            target: slot.clone(),
            value,
            lo: 0,
            hi: 1,
        };
        let mut then = effects;
        then.push(assign(truth(b.expr, BinOp::Ne)));
        let read = slot.read();
        let cond = match op {
            BinaryOp::And => read.clone(),
            _ => ty::unary(UnOp::Not, read.clone()),
        };
        self.run_first(vec![
            assign(first),
            ir::Stmt::If {
                cond,
                then,
                els: Vec::new(),
            },
        ]);
        Typed {
            expr: read,
            ty: Ty::Bool,
            is_const: false,
        }
    }

    fn statement(&mut self, s: &Stmt, out: &mut Vec<ir::Stmt>) {
        if self.mode == Mode::Lower && !self.spend(1, s.span) {
            return;
        }
        // Run-time errors from here on are this statement's (a block's
        // statements mark themselves).
        if !matches!(s.kind, StmtKind::Block(_) | StmtKind::Empty) {
            out.push(ir::Stmt::At(self.abs(s.span)));
        }
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => self.block(b, out),
            StmtKind::Decl(Decl::Var(v)) => self.declare_local(v, out),
            StmtKind::Decl(Decl::Typedef(t)) => {
                let ty = self.resolve_type(&t.ty);
                self.define(&t.name, Sym::Typedef(ty));
            }
            StmtKind::Decl(Decl::Function(f)) => {
                self.error(f.name.span, "functions cannot be declared inside functions");
            }
            StmtKind::Expr(e) => self.expr_statement(e, out),
            StmtKind::If(c, t, e) => {
                let cond = self.condition(c, out);
                let then = self.nested(t);
                let els = e.as_ref().map(|e| self.nested(e)).unwrap_or_default();
                out.push(ir::Stmt::If { cond, then, els });
            }
            StmtKind::While(c, b) => {
                let cond = self.loop_condition(c);
                let mut body = self.nested(b);
                // The condition is evaluated again after the body.
                body.push(ir::Stmt::At(self.abs(s.span)));
                out.push(ir::Stmt::Loop {
                    cond,
                    body,
                    test_first: true,
                });
            }
            StmtKind::DoWhile(b, c) => {
                let mut body = self.nested(b);
                body.push(ir::Stmt::At(self.abs(s.span)));
                let cond = self.loop_condition(c);
                out.push(ir::Stmt::Loop {
                    cond,
                    body,
                    test_first: false,
                });
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                for e in init {
                    self.expr_statement(e, out);
                }
                let cond = match cond {
                    Some(c) => self.loop_condition(c),
                    None => ir::Expr::Const(1),
                };
                if let Some(fr) = self.fns.frames.last_mut() {
                    fr.conditional += 1;
                }
                let mut lowered = self.nested(body);
                lowered.push(ir::Stmt::At(self.abs(s.span)));
                for e in step {
                    self.expr_statement(e, &mut lowered);
                }
                if let Some(fr) = self.fns.frames.last_mut() {
                    fr.conditional -= 1;
                }
                out.push(ir::Stmt::Loop {
                    cond,
                    body: lowered,
                    test_first: true,
                });
            }
            StmtKind::ForRange { name, ty, body } => {
                let t = self.resolve_type(ty);
                let Some((lo, hi)) = t.bounds() else {
                    if t != Ty::Error {
                        self.error(
                            name.span,
                            format!("`{}` needs a bounded integer type", name.text),
                        );
                    }
                    return;
                };
                let values = hi - lo + 1;
                if values <= MAX_UNROLLED && self.resets_a_clock(body) {
                    // `for (i : id_t) x[i] = 0;`: run once per value with
                    // `i` a constant, so that each reset names its clock
                    // and stands at the function's top level (hoisted, as
                    // before dynamic resets; a longer loop resets
                    // `x[i]` as it runs).
                    for v in lo..=hi {
                        let top = self.fns.top;
                        self.push_scope();
                        self.define(
                            name,
                            Sym::Const {
                                value: Some(v),
                                ty: t.clone(),
                            },
                        );
                        self.statement(body, out);
                        self.pop_scope(false);
                        self.fns.top = top;
                    }
                    return;
                }
                let top = self.fns.top;
                let slot = self.alloc(1);
                self.push_scope();
                self.define(
                    name,
                    Sym::Var {
                        base: ir::FRAME + slot,
                        ty: t.clone(),
                    },
                );
                let mut lowered = self.nested(body);
                lowered.push(ir::Stmt::At(self.abs(s.span)));
                self.pop_scope(false);
                self.fns.top = top;
                out.push(ir::Stmt::ForRange {
                    var: ir::FRAME + slot,
                    lo: clamp32(lo),
                    hi: clamp32(hi),
                    body: lowered,
                });
            }
            StmtKind::Return(value) => {
                if let Some(fr) = self.fns.frames.last_mut() {
                    fr.returned = true;
                }
                let aggregate = self.fns.frames.last().and_then(|fr| fr.aggregate.clone());
                if let Some((base, ty)) = aggregate {
                    self.return_aggregate(value.as_ref(), s.span, base, &ty, out);
                    return;
                }
                let result = self.fns.frames.last().map(|fr| fr.result);
                match (value, result) {
                    (Some(e), Some(Some((lo, hi)))) => {
                        let v = self.with_effects(e, out);
                        if let ir::Expr::Const(c) = v.expr
                            && (c < lo || c > hi)
                        {
                            self.error(
                                e.span,
                                format!("the result {c} is outside the range [{lo}, {hi}]"),
                            );
                        }
                        out.push(ir::Stmt::Return {
                            value: Some(v.expr),
                            lo,
                            hi,
                        });
                    }
                    (Some(e), Some(None)) => {
                        self.error(e.span, "a `void` function cannot return a value");
                    }
                    (None, Some(Some(_))) => {
                        self.error(s.span, "this function must return a value");
                    }
                    (None, _) => out.push(ir::Stmt::Return {
                        value: None,
                        lo: 0,
                        hi: 0,
                    }),
                    (Some(_), None) => {}
                }
            }
        }
    }

    /// `return e;` in a function that returns an array or a record: `e`
    /// is copied, slot by slot, to the result's frame slots from `base`.
    fn return_aggregate(
        &mut self,
        value: Option<&hir::Expr>,
        span: Span,
        base: u32,
        ty: &Ty,
        out: &mut Vec<ir::Stmt>,
    ) {
        let Some(e) = value else {
            self.error(span, "this function must return a value");
            return;
        };
        let Some((from, reads)) = self.aggregate_value(e, out) else {
            return;
        };
        if !ty.same_shape(&from) {
            self.error(
                e.span,
                format!(
                    "the function returns {}, not {}",
                    ty.describe(),
                    from.describe()
                ),
            );
            return;
        }
        let mut leaves = Vec::new();
        ty.leaves(&mut String::new(), &mut leaves);
        assign_leaves(base, &leaves, reads, out);
        out.push(ir::Stmt::Return {
            value: Some(ir::Expr::Const(0)),
            lo: 0,
            hi: 0,
        });
    }

    /// An array or record value in a statement: a variable or a part of
    /// one, or the result of a call. The statements that compute it (the
    /// calls, the assignments nested in its indices) are appended to `out`;
    /// returns its type and the reads of its scalars in slot order.
    pub(super) fn aggregate_value(
        &mut self,
        e: &hir::Expr,
        out: &mut Vec<ir::Stmt>,
    ) -> Option<(Ty, Vec<ir::Expr>)> {
        if !self.is_aggregate_quiet(e) {
            let t = self.data(e);
            if !matches!(t.ty, Ty::Error) {
                self.error(e.span, "expected an array or a record");
            }
            return None;
        }
        let outer_pre = self.fns.pre.replace(Vec::new());
        let outer_results = self.fns.results.replace(Vec::new());
        let place = self.place(e);
        let results = std::mem::replace(&mut self.fns.results, outer_results).unwrap_or_default();
        let pre = std::mem::replace(&mut self.fns.pre, outer_pre).unwrap_or_default();
        out.extend(pre);
        out.extend(results);
        let place = place?;
        if place.ty.slots().is_none() {
            // A length unknown while a template is checked on its own:
            // no scalars to read (the callers' shape checks fail first).
            return Some((place.ty, Vec::new()));
        }
        let mut leaves = Vec::new();
        place.ty.leaves(&mut String::new(), &mut leaves);
        let reads = leaves
            .into_iter()
            .enumerate()
            .map(|(k, (_, t))| self.read(place.at(k as u32, t), e.span).expr)
            .collect();
        Some((place.ty, reads))
    }

    /// An expression statement: an assignment, or a call.
    pub(super) fn expr_statement(&mut self, e: &hir::Expr, out: &mut Vec<ir::Stmt>) {
        match &e.kind {
            ExprKind::Assign(..) | ExprKind::Incr(..) => {
                let outer = self.fns.pre.replace(Vec::new());
                let mut updates = Vec::new();
                self.update_value_typed(e, &mut updates);
                let pre = std::mem::replace(&mut self.fns.pre, outer).unwrap_or_default();
                out.extend(pre);
                for (u, ty) in updates {
                    self.push_update(u, &ty, out);
                }
            }
            ExprKind::Call(..) => {
                self.fns.call_statement = true;
                let t = self.with_effects(e, out);
                self.fns.call_statement = false;
                let call = match &t.expr {
                    ir::Expr::Call(call) => Some(call.clone()),
                    _ => None,
                };
                out.push(ir::Stmt::Eval(t.expr));
                if let Some(call) = call {
                    if call.resets_dynamically()
                        && let Some(fr) = self.fns.frames.last_mut()
                    {
                        fr.dynamic = true;
                    }
                    for &(clock, value) in &call.resets {
                        self.reset_statement(clock, value, out);
                    }
                }
            }
            // `c ? a : b` as a statement is `if (c) a; else b;`, `a && b` is
            // `if (a) b;` and `a || b` is `if (!a) b;`.
            ExprKind::Cond(c, a, b) => {
                let cond = self.condition(c, out);
                let then = self.lazy_statement(a);
                let els = self.lazy_statement(b);
                out.push(ir::Stmt::If { cond, then, els });
            }
            ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or | BinaryOp::Imply), a, b) => {
                let a = self.condition(a, out);
                let cond = match op {
                    BinaryOp::Or => ty::unary(UnOp::Not, a),
                    _ => a,
                };
                let then = self.lazy_statement(b);
                out.push(ir::Stmt::If {
                    cond,
                    then,
                    els: Vec::new(),
                });
            }
            ExprKind::Missing => {}
            _ => {
                // Evaluated for its errors only, as C would.
                let t = self.with_effects(e, out);
                out.push(ir::Stmt::Eval(t.expr));
            }
        }
    }

    /// An operand of `?:`, `&&` or `||` standing as a statement, run only
    /// when the operator evaluates it.
    fn lazy_statement(&mut self, e: &hir::Expr) -> Vec<ir::Stmt> {
        let mut out = Vec::new();
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional += 1;
        }
        self.expr_statement(e, &mut out);
        if let Some(fr) = self.fns.frames.last_mut() {
            fr.conditional -= 1;
        }
        out
    }

    /// Whether `s` assigns a clock directly (a loop with such a body is
    /// unrolled).
    fn resets_a_clock(&mut self, s: &Stmt) -> bool {
        fn root(e: &hir::Expr) -> Option<(&str, Span)> {
            match &e.kind {
                ExprKind::Name(n) => Some((n, e.span)),
                ExprKind::Index(a, _) | ExprKind::Field(a, _) => root(a),
                _ => None,
            }
        }
        fn assigned<'s>(s: &'s Stmt, out: &mut Vec<(&'s str, Span)>) {
            match &s.kind {
                StmtKind::Expr(e) => {
                    if let ExprKind::Assign(_, lhs, _) = &e.kind
                        && let Some(r) = root(lhs)
                    {
                        out.push(r);
                    }
                }
                StmtKind::Block(b) => b.iter().for_each(|s| assigned(s, out)),
                StmtKind::If(_, t, e) => {
                    assigned(t, out);
                    if let Some(e) = e {
                        assigned(e, out);
                    }
                }
                StmtKind::While(_, b)
                | StmtKind::DoWhile(b, _)
                | StmtKind::For { body: b, .. }
                | StmtKind::ForRange { body: b, .. } => assigned(b, out),
                StmtKind::Empty | StmtKind::Decl(_) | StmtKind::Return(_) => {}
            }
        }
        let mut names = Vec::new();
        assigned(s, &mut names);
        names.iter().any(|&(n, at)| {
            matches!(
                self.peek(n, at),
                Some(Sym::Clock { .. } | Sym::Clocks { .. })
            )
        })
    }

    /// A constant clock reset in the body being lowered (or one a call it
    /// makes hoisted): a statement, and a reset to hoist if it stands at
    /// the top level.
    fn reset_statement(&mut self, clock: ir::ClockId, value: i32, out: &mut Vec<ir::Stmt>) {
        out.push(ir::Stmt::ResetClock {
            clock: ir::LValue {
                base: clock,
                len: 1,
                index: None,
            },
            value: ir::Expr::Const(value),
        });
        match self.fns.frames.last_mut() {
            Some(fr) if fr.conditional == 0 && !fr.returned => fr.resets.push((clock, value)),
            Some(fr) => fr.dynamic = true,
            None => {}
        }
    }

    fn push_update(&mut self, u: ir::Update, ty: &Ty, out: &mut Vec<ir::Stmt>) {
        match u {
            ir::Update::Assign { target, value } => out.push(checked_assign(target, value, ty)),
            ir::Update::ResetClock { clock, value } => self.reset_statement(clock, value, out),
            // A reset that runs as a statement (`Ctx::dynamic_reset`).
            ir::Update::Call(c)
                if c.name.is_empty()
                    && matches!(c.body.as_slice(), [ir::Stmt::ResetClock { .. }]) =>
            {
                if let Some(fr) = self.fns.frames.last_mut() {
                    fr.dynamic = true;
                }
                out.extend(c.body.iter().cloned());
            }
            ir::Update::Call(c) => out.push(ir::Stmt::Eval(ir::Expr::Call(c))),
        }
    }

    /// A local variable or constant of a function: its frame slots, set
    /// to its initial value (or the type's default) each time it is declared.
    fn declare_local(&mut self, v: &hir::VarDecl, out: &mut Vec<ir::Stmt>) {
        if v.is_const {
            // A constant is folded as anywhere else.
            self.declare(&[Decl::Var(v.clone())], "");
            return;
        }
        let elem = self.resolve_type(&v.ty);
        let ty = self.with_dims(elem, &v.array);
        if data::has_unknown_len(&ty) {
            // A size that is a template's parameter (`int tmp[N];`), known
            // per instance, where the function is lowered again: while the
            // template is checked on its own, one slot stands for the
            // whole array, as for the template's own variables, and the
            // initial value is checked per instance.
            let slot = self.alloc(1);
            self.define(
                &v.name,
                Sym::Var {
                    base: ir::FRAME + slot,
                    ty,
                },
            );
            return;
        }
        let Some(n) = ty.slots() else {
            if !matches!(ty, Ty::Error) {
                self.error(v.span, "the size of a local array must be known");
            }
            return;
        };
        let mut leaves = Vec::new();
        ty.leaves(&mut String::new(), &mut leaves);
        if leaves.iter().any(|(_, t)| !t.is_data()) {
            self.error(
                v.ty.span(),
                "only integers, booleans, and arrays and records of them can be local variables of a function",
            );
            return;
        }
        // The initial value is read before the variable exists (`int x = x;`
        // reads an outer `x`, as in C).
        let mut values: Vec<ir::Expr> = leaves
            .iter()
            .map(|(_, t)| {
                let (lo, hi) = slot_range(t);
                ir::Expr::Const(if (lo..=hi).contains(&0) { 0 } else { lo })
            })
            .collect();
        if let Some(init) = &v.init {
            let copies_aggregate = !matches!(init.kind, ExprKind::List(_) | ExprKind::Missing)
                && ty.is_aggregate()
                && self.is_aggregate_quiet(init);
            if copies_aggregate {
                // `msg_t m = queue[0];`, `msg_t m = make(1);`: a copy, slot
                // by slot, of a record or array of the same shape, read
                // when the local is declared (each slot's range checked as
                // it is written).
                if let Some((from, reads)) = self.aggregate_value(init, out) {
                    if ty.same_shape(&from) {
                        values = reads;
                    } else {
                        self.error(
                            init.span,
                            format!(
                                "{} and {} do not have the same shape",
                                ty.describe(),
                                from.describe()
                            ),
                        );
                    }
                }
            } else if ty.is_aggregate() && matches!(init.kind, ExprKind::List(_)) {
                // `row_t r = { a, a + 1 };`: a list of expressions, evaluated
                // in order when the declaration runs, as UPPAAL does.
                let mut listed = Vec::new();
                if self.local_list(init, &ty, out, &mut listed) {
                    values = listed;
                }
            } else if ty.is_aggregate() {
                let mut consts = Vec::new();
                self.init_values(init, &ty, &mut consts);
                for (value, c) in values.iter_mut().zip(consts) {
                    if let Some(c) = c {
                        *value = ir::Expr::Const(c);
                    }
                }
            } else {
                let t = self.with_effects(init, out);
                if let ir::Expr::Const(c) = t.expr {
                    self.check_range(c as i64, &ty, init.span, "initial value");
                }
                values[0] = t.expr;
            }
        }
        let slot = self.alloc(n);
        assign_leaves(ir::FRAME + slot, &leaves, values, out);
        self.define(
            &v.name,
            Sym::Var {
                base: ir::FRAME + slot,
                ty,
            },
        );
    }

    /// The values of a local's list initialiser `{ … }` of type `ty`, in
    /// slot order, appended to `values` (their effects to `out`); false
    /// after an error (reported).
    fn local_list(
        &mut self,
        init: &hir::Expr,
        ty: &Ty,
        out: &mut Vec<ir::Stmt>,
        values: &mut Vec<ir::Expr>,
    ) -> bool {
        let parts: Vec<Ty> = match ty {
            Ty::Array { elem, len, .. } => vec![(**elem).clone(); *len as usize],
            Ty::Record(fields) => fields.iter().map(|(_, t)| t.clone()).collect(),
            _ => Vec::new(),
        };
        match &init.kind {
            ExprKind::List(items) if ty.is_aggregate() => {
                if items.len() != parts.len() {
                    self.error(
                        init.span,
                        format!(
                            "expected {} value(s) for {}, found {}",
                            parts.len(),
                            ty.describe(),
                            items.len()
                        ),
                    );
                    return false;
                }
                items
                    .iter()
                    .zip(&parts)
                    .all(|(item, t)| self.local_list(item, t, out, values))
            }
            ExprKind::List(_) => {
                self.error(
                    init.span,
                    format!(
                        "a list `{{ … }}` initialises an array or a record, not {}",
                        ty.describe()
                    ),
                );
                false
            }
            _ if ty.is_aggregate() => {
                // `{ make(1), m }`: a whole record or array of the same shape.
                let Some((from, reads)) = self.aggregate_value(init, out) else {
                    return false;
                };
                if !ty.same_shape(&from) {
                    self.error(
                        init.span,
                        format!(
                            "{} and {} do not have the same shape",
                            ty.describe(),
                            from.describe()
                        ),
                    );
                    return false;
                }
                values.extend(reads);
                true
            }
            _ => {
                let t = self.with_effects(init, out);
                if let ir::Expr::Const(c) = t.expr {
                    self.check_range(c as i64, ty, init.span, "initial value");
                }
                values.push(t.expr);
                true
            }
        }
    }

    /// Whether the argument `a` is a value rather than a variable or a part
    /// of one: a constant, a literal, arithmetic, a call's scalar result.
    fn is_a_value(&self, a: &hir::Expr) -> bool {
        match &a.kind {
            ExprKind::Name(n) => {
                matches!(
                    self.peek(n, a.span),
                    Some(Sym::Const { .. } | Sym::ConstData { .. })
                )
            }
            ExprKind::Index(b, _) => self.is_a_value(b),
            ExprKind::Field(b, _) => self.is_record_base(b) && self.is_a_value(b),
            ExprKind::Call(n, _) => !self.returns_aggregate(n),
            ExprKind::Missing => false,
            _ => true,
        }
    }

    /// Whether a parameter's type names an array or record type.
    fn names_aggregate_type(&self, t: &TypeRef) -> bool {
        matches!(t, TypeRef::Named(n)
            if matches!(self.peek(&n.text, n.span), Some(Sym::Typedef(ty)) if ty.is_aggregate()))
    }
}
