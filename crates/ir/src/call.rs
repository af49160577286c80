//! Functions: a call's statements and the machine that runs them.
//!
//! Lowering inlines every call at its call site: the body is lowered with
//! the arguments bound, into a [`Call`] that assigns the parameters and runs
//! the statements. Parameters and local variables live in the *frame*, not
//! in the state: inside a call's statements, a slot at or above [`FRAME`]
//! is frame slot `slot - FRAME`. Frames are allocated at compile time like a
//! stack (recursion is rejected), so the nested calls of one call use
//! disjoint slots and one buffer of [`Call::frame_len`] slots serves them
//! all. The buffer is kept per thread and reused: running a call does not
//! allocate once it has grown to the largest frame.
//!
//! Clock resets inside functions: when every reset of a call stands
//! unconditionally at its top level with a constant clock and value (the
//! common case), lowering hoists them to `ResetClock` updates after the
//! call ([`Call::resets`]), and the checker's clock handling never sees the
//! function. Otherwise (a reset inside `if` or a loop, an index or a value
//! that depends on the state) they stay in the body as
//! [`Stmt::ResetClock`], run in order with the other statements:
//! [`Call::run_resetting`] reports each reset made, and the static analyses
//! read [`Call::may_reset`] and [`Call::must_reset`].

use std::cell::Cell;
use std::sync::Arc;

use super::Span;
use super::eval::{Env, index_in};
use super::{ClockId, ErrorKind, EvalError, Expr, FnSite, LValue, VarId};

/// Slots at or above this are the call frame's, inside a call's statements.
pub const FRAME: VarId = 1 << 31;

/// Whether `slot` is a frame slot (a parameter or local of a function).
pub fn is_frame_slot(slot: VarId) -> bool {
    slot >= FRAME
}

/// The most loop iterations one call (with the calls inside it) may run;
/// a loop that runs longer is a model error ([`EvalError::LoopLimit`]),
/// never a hang.
pub const MAX_LOOP_STEPS: u32 = 1_000_000;

/// One inlined call of a function.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The function's name, for messages and printing.
    pub name: String,
    /// The arguments as written at the call site, for printing.
    pub args: Vec<Expr>,
    /// Parameter assignments, then the body.
    pub body: Vec<Stmt>,
    /// Frame slots this call and the calls inside it use.
    pub frame_len: u32,
    /// State slots the call may read, and may write (its footprint, nested
    /// calls included; an indexed array counts whole).
    pub reads: Vec<VarId>,
    /// The state slots the call may write.
    pub writes: Vec<VarId>,
    /// The range of the result (`None` for `void`).
    pub result: Option<(i32, i32)>,
    /// The clock resets the function makes when they are all unconditional
    /// and constant (at its top level): lowering emits them as `ResetClock`
    /// updates after the call, which does not run them itself.
    pub resets: Vec<(super::ClockId, i32)>,
    /// Every clock a [`Stmt::ResetClock`] of the call (or of a call inside
    /// it) may reset, sorted: an over-approximation of what a run resets.
    /// Empty for a call without such statements (the common case).
    pub may_reset: Vec<ClockId>,
    /// The clocks its statements reset on every path that ends normally,
    /// with their final value where it is the same constant on every path:
    /// an under-approximation, sorted by clock.
    pub must_reset: Vec<(ClockId, Option<i32>)>,
    /// The call expression.
    pub span: Span,
    /// The function's name in its declaration (run-time errors inside the
    /// body name the function by it).
    pub decl: Span,
    /// Declared inside a template: `decl` and the statements' spans are
    /// relative to the template until the instance is placed in the
    /// network ([`Call::shift_local`]).
    pub local: bool,
}

/// A statement of a function body.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// The statements up to the next `At` come from the statement at this
    /// span: a run-time error among them is located there ([`FnSite`]).
    At(Span),
    /// `target = value`; a value outside `[lo, hi]` (the target's type) is
    /// a model error.
    Assign {
        /// Where the value goes.
        target: LValue,
        /// The value.
        value: Expr,
        /// The smallest value the target allows.
        lo: i32,
        /// The largest value the target allows.
        hi: i32,
    },
    /// An expression evaluated for its effects (a call).
    Eval(Expr),
    /// `if (cond) then else els`; `els` is empty without `else`.
    If {
        /// The condition.
        cond: Expr,
        /// The statements run when it holds.
        then: Vec<Stmt>,
        /// The statements run otherwise.
        els: Vec<Stmt>,
    },
    /// `while (cond) body` (`test_first`) or `do body while (cond)`.
    Loop {
        /// The condition.
        cond: Expr,
        /// The loop body.
        body: Vec<Stmt>,
        /// Whether the condition is tested before the first run of the body.
        test_first: bool,
    },
    /// `for (i : T) body`: frame slot `var` takes every value of `lo..=hi`.
    ForRange {
        /// The frame slot of the loop variable.
        var: VarId,
        /// The first value.
        lo: i32,
        /// The last value.
        hi: i32,
        /// The loop body.
        body: Vec<Stmt>,
    },
    /// `x = e`, `x[i] = e` for a clock: `clock.base` is a clock id (not a
    /// variable slot), the element `clock.index` chooses of `clock.len`
    /// (out of range is a model error). A value outside
    /// `0..=MAX_CLOCK_CONSTANT` is a model error.
    ResetClock {
        /// The clock, or the element of a clock array.
        clock: LValue,
        /// Its new value.
        value: Expr,
    },
    /// `return e;` (a value outside `[lo, hi]`, the result type, is a model
    /// error) or `return;`.
    Return {
        /// The returned value; `None` for `return;`.
        value: Option<Expr>,
        /// The smallest value the result type allows.
        lo: i32,
        /// The largest value the result type allows.
        hi: i32,
    },
}

/// What running statements did.
enum Flow {
    Next,
    Return(i32),
}

/// The state's variables: read-only when a call is evaluated in a guard,
/// invariant or check (lowering rejects effects there), writable in updates.
enum Vars<'a> {
    Read(&'a [i32]),
    Write(&'a mut [i32]),
}

/// Where a run reports the clock resets it makes, in order.
type ResetSink<'a> = &'a mut dyn FnMut(ClockId, i32);

struct Machine<'a> {
    vars: Vars<'a>,
    /// Reports each clock reset; `None`: resets are dropped (a run for the
    /// data effects only), or an error where the state is read-only.
    reset: Option<ResetSink<'a>>,
    frame: &'a mut [i32],
    steps_left: u32,
    /// The statement of the innermost running function, once its body has
    /// started (its parameters' assignments are the caller's).
    at: Option<Span>,
}

thread_local! {
    /// The frame buffer of this thread, reused across calls.
    static FRAME_BUFFER: Cell<Vec<i32>> = const { Cell::new(Vec::new()) };
}

/// Runs `f` on a zeroed frame of `len` slots from this thread's buffer.
fn with_frame<R>(len: u32, f: impl FnOnce(&mut [i32]) -> R) -> R {
    FRAME_BUFFER.with(|cell| {
        let mut buffer = cell.take();
        let len = len as usize;
        if buffer.len() < len {
            buffer.resize(len, 0);
        }
        buffer[..len].fill(0);
        let result = f(&mut buffer[..len]);
        cell.set(buffer);
        result
    })
}

impl Call {
    /// The call's value in a guard, invariant or check (`vars` unchanged).
    pub fn value(&self, vars: &[i32]) -> Result<i32, EvalError> {
        with_frame(self.frame_len, |frame| {
            Machine {
                vars: Vars::Read(vars),
                reset: None,
                frame,
                steps_left: MAX_LOOP_STEPS,
                at: None,
            }
            .call(self)
        })
    }

    /// Runs the call in an update, writing the state's variables; the
    /// clock resets it makes inside its body are dropped (for an analysis
    /// of the data only: the checker uses [`Call::run_resetting`]).
    pub fn run(&self, vars: &mut [i32]) -> Result<(), EvalError> {
        self.run_with(vars, None)
    }

    /// Runs the call in an update, and calls `reset(clock, value)` for each
    /// clock reset its statements make, in order (a later reset of the same
    /// clock overrides an earlier one). Nothing is allocated: the caller
    /// applies each reset as it comes.
    pub fn run_resetting(
        &self,
        vars: &mut [i32],
        reset: &mut dyn FnMut(ClockId, i32),
    ) -> Result<(), EvalError> {
        self.run_with(vars, Some(reset))
    }

    /// Whether running the call may reset a clock itself (statements in
    /// its body, rather than hoisted `ResetClock` updates).
    pub fn resets_dynamically(&self) -> bool {
        !self.may_reset.is_empty()
    }

    fn run_with(
        &self,
        vars: &mut [i32],
        mut reset: Option<&mut dyn FnMut(ClockId, i32)>,
    ) -> Result<(), EvalError> {
        with_frame(self.frame_len, |frame| {
            Machine {
                vars: Vars::Write(vars),
                reset: match &mut reset {
                    Some(r) => Some(&mut **r),
                    None => None,
                },
                frame,
                steps_left: MAX_LOOP_STEPS,
                at: None,
            }
            .call(self)
            .map(|_| ())
        })
    }
}

impl Machine<'_> {
    fn call(&mut self, call: &Call) -> Result<i32, EvalError> {
        let caller = self.at.take();
        let flow = self.block(&call.body);
        let at = std::mem::replace(&mut self.at, caller);
        // The innermost function that had started its body locates the
        // error; an error in the argument assignments is the caller's.
        let flow = flow.map_err(|mut e| {
            if e.site.is_none()
                && let Some(statement) = at
            {
                e.site = Some(FnSite {
                    function: call.decl,
                    statement,
                });
            }
            e
        })?;
        match flow {
            Flow::Return(v) => Ok(v),
            // A `void` function, or one lowering proved always returns.
            Flow::Next => Ok(0),
        }
    }

    fn read(&self, slot: VarId) -> i32 {
        if is_frame_slot(slot) {
            self.frame[(slot - FRAME) as usize]
        } else {
            match &self.vars {
                Vars::Read(v) => v[slot as usize],
                Vars::Write(v) => v[slot as usize],
            }
        }
    }

    fn write(&mut self, slot: VarId, value: i32) -> Result<(), EvalError> {
        if is_frame_slot(slot) {
            self.frame[(slot - FRAME) as usize] = value;
            return Ok(());
        }
        match &mut self.vars {
            Vars::Write(v) => {
                v[slot as usize] = value;
                Ok(())
            }
            // Lowering only allows calls without effects where the state
            // is read-only; this is the defence if that ever fails.
            Vars::Read(_) => Err(ErrorKind::EffectInCondition.into()),
        }
    }

    fn step(&mut self) -> Result<(), EvalError> {
        self.steps_left = self.steps_left.checked_sub(1).ok_or(ErrorKind::LoopLimit)?;
        Ok(())
    }

    fn block(&mut self, stmts: &[Stmt]) -> Result<Flow, EvalError> {
        for s in stmts {
            if let Flow::Return(v) = self.stmt(s)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, s: &Stmt) -> Result<Flow, EvalError> {
        match s {
            Stmt::At(span) => self.at = Some(*span),
            Stmt::Assign {
                target,
                value,
                lo,
                hi,
            } => {
                let slot = match &target.index {
                    None => target.base,
                    Some(i) => target.base + index_in(self.eval(i)?, target.len)?,
                };
                let v = self.eval(value)?;
                if v < *lo || v > *hi {
                    return Err(ErrorKind::OutOfRange {
                        var: slot,
                        value: v,
                        lo: *lo,
                        hi: *hi,
                    }
                    .into());
                }
                self.write(slot, v)?;
            }
            Stmt::Eval(e) => {
                self.eval(e)?;
            }
            Stmt::If { cond, then, els } => {
                let branch = if self.eval(cond)? != 0 { then } else { els };
                return self.block(branch);
            }
            Stmt::Loop {
                cond,
                body,
                test_first,
            } => {
                if *test_first && self.eval(cond)? == 0 {
                    return Ok(Flow::Next);
                }
                loop {
                    self.step()?;
                    if let Flow::Return(v) = self.block(body)? {
                        return Ok(Flow::Return(v));
                    }
                    if self.eval(cond)? == 0 {
                        break;
                    }
                }
            }
            Stmt::ForRange { var, lo, hi, body } => {
                for i in *lo..=*hi {
                    self.step()?;
                    self.write(*var, i)?;
                    if let Flow::Return(v) = self.block(body)? {
                        return Ok(Flow::Return(v));
                    }
                }
            }
            Stmt::ResetClock { clock, value } => {
                let id = match &clock.index {
                    None => clock.base,
                    Some(i) => clock.base + index_in(self.eval(i)?, clock.len)?,
                };
                let v = self.eval(value)?;
                if !(0..=super::MAX_CLOCK_CONSTANT).contains(&v) {
                    return Err(ErrorKind::ClockValue { value: v }.into());
                }
                match (&mut self.reset, &self.vars) {
                    (Some(reset), _) => reset(id, v),
                    (None, Vars::Write(_)) => {}
                    (None, Vars::Read(_)) => return Err(ErrorKind::EffectInCondition.into()),
                }
            }
            Stmt::Return { value, lo, hi } => {
                let v = match value {
                    Some(e) => self.eval(e)?,
                    None => 0,
                };
                if value.is_some() && (v < *lo || v > *hi) {
                    return Err(ErrorKind::ResultOutOfRange {
                        value: v,
                        lo: *lo,
                        hi: *hi,
                    }
                    .into());
                }
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    /// [`Expr::eval`] with frame slots and calls.
    fn eval(&mut self, e: &Expr) -> Result<i32, EvalError> {
        e.eval_in(self)
    }
}

impl Env for Machine<'_> {
    fn slot(&mut self, slot: VarId) -> i32 {
        self.read(slot)
    }
    fn value(&mut self, call: &Call) -> Result<i32, EvalError> {
        self.call(call)
    }
}

/// Every state slot the statements may read or write, for a call's
/// footprint: `(reads, writes)`, each sorted and without repeats.
pub fn footprint(stmts: &[Stmt]) -> (Vec<VarId>, Vec<VarId>) {
    fn expr(e: &Expr, reads: &mut Vec<VarId>) {
        e.for_each_read(&mut |v| {
            if !is_frame_slot(v) {
                reads.push(v)
            }
        });
    }
    fn walk(stmts: &[Stmt], reads: &mut Vec<VarId>, writes: &mut Vec<VarId>) {
        for s in stmts {
            match s {
                Stmt::Assign { target, value, .. } => {
                    if let Some(i) = &target.index {
                        expr(i, reads);
                    }
                    expr(value, reads);
                    if !is_frame_slot(target.base) {
                        let n = if target.index.is_some() {
                            target.len
                        } else {
                            1
                        };
                        writes.extend(target.base..target.base + n);
                    }
                    collect_call_writes(value, writes);
                }
                Stmt::Eval(e) => {
                    expr(e, reads);
                    collect_call_writes(e, writes);
                }
                Stmt::If { cond, then, els } => {
                    expr(cond, reads);
                    collect_call_writes(cond, writes);
                    walk(then, reads, writes);
                    walk(els, reads, writes);
                }
                Stmt::Loop { cond, body, .. } => {
                    expr(cond, reads);
                    collect_call_writes(cond, writes);
                    walk(body, reads, writes);
                }
                Stmt::ForRange { body, .. } => walk(body, reads, writes),
                // A clock is not a variable slot: only what it reads counts.
                Stmt::ResetClock { clock, value } => {
                    if let Some(i) = &clock.index {
                        expr(i, reads);
                        collect_call_writes(i, writes);
                    }
                    expr(value, reads);
                    collect_call_writes(value, writes);
                }
                Stmt::At(_) => {}
                Stmt::Return { value, .. } => {
                    if let Some(e) = value {
                        expr(e, reads);
                        collect_call_writes(e, writes);
                    }
                }
            }
        }
    }
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    walk(stmts, &mut reads, &mut writes);
    for v in [&mut reads, &mut writes] {
        v.sort_unstable();
        v.dedup();
    }
    (reads, writes)
}

/// What the statements may and must reset, for [`Call::may_reset`] and
/// [`Call::must_reset`] (nested calls give theirs).
pub fn reset_summary(stmts: &[Stmt]) -> (Vec<ClockId>, Vec<(ClockId, Option<i32>)>) {
    let mut may = Vec::new();
    may_resets(stmts, &mut may);
    may.sort_unstable();
    may.dedup();
    let mut must = Vec::new();
    must_resets(stmts, &mut must);
    must.sort_unstable_by_key(|m| m.0);
    (may, must)
}

/// Every clock the statements might reset.
fn may_resets(stmts: &[Stmt], may: &mut Vec<ClockId>) {
    stmt_calls(stmts, &mut |c| may.extend(&c.may_reset));
    for s in stmts {
        match s {
            Stmt::ResetClock { clock, .. } => match clock.index {
                None => may.push(clock.base),
                Some(_) => may.extend(clock.base..clock.base + clock.len),
            },
            Stmt::If { then, els, .. } => {
                may_resets(then, may);
                may_resets(els, may);
            }
            Stmt::Loop { body, .. } | Stmt::ForRange { body, .. } => may_resets(body, may),
            _ => {}
        }
    }
}

/// Adds to `must` the clocks the statements reset on every path, run after
/// what `must` holds; a value becomes `None` wherever a path may set
/// another. Returns whether every path reaches the end (no `return`): after
/// one that may return, nothing more is certain.
fn must_resets(stmts: &[Stmt], must: &mut Vec<(ClockId, Option<i32>)>) -> bool {
    let weaken = |must: &mut Vec<(ClockId, Option<i32>)>, s: &[Stmt]| {
        let mut may = Vec::new();
        may_resets(s, &mut may);
        for m in must.iter_mut() {
            if may.contains(&m.0) {
                m.1 = None;
            }
        }
    };
    let set = |must: &mut Vec<(ClockId, Option<i32>)>, x: ClockId, v: Option<i32>| {
        must.retain(|m| m.0 != x);
        must.push((x, v));
    };
    let mut live = true;
    for s in stmts {
        let one = std::slice::from_ref(s);
        if !live {
            weaken(must, one);
            continue;
        }
        match s {
            Stmt::ResetClock { clock, value } => {
                weaken(must, one);
                if clock.index.is_none() {
                    let v = match value {
                        Expr::Const(v) => Some(*v),
                        _ => None,
                    };
                    set(must, clock.base, v);
                }
            }
            Stmt::If { then, els, .. } => {
                weaken(must, one);
                let (mut a, mut b) = (must.clone(), must.clone());
                live = must_resets(then, &mut a) & must_resets(els, &mut b);
                must.clear();
                for (x, va) in a {
                    if let Some(&(_, vb)) = b.iter().find(|m| m.0 == x) {
                        must.push((x, if va == vb { va } else { None }));
                    }
                }
            }
            Stmt::Loop { body, .. } | Stmt::ForRange { body, .. } => {
                weaken(must, one);
                live = !returns(body);
            }
            Stmt::Eval(Expr::Call(c)) => {
                weaken(must, one);
                for &(x, v) in &c.must_reset {
                    set(must, x, v);
                }
            }
            Stmt::Return { .. } => live = false,
            _ => weaken(must, one),
        }
    }
    live
}

/// Whether the statements contain a `return`.
fn returns(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Return { .. } => true,
        Stmt::If { then, els, .. } => returns(then) || returns(els),
        Stmt::Loop { body, .. } | Stmt::ForRange { body, .. } => returns(body),
        _ => false,
    })
}

/// The writes of the calls inside an expression.
fn collect_call_writes(e: &Expr, writes: &mut Vec<VarId>) {
    e.for_each_call(&mut |c| writes.extend(c.writes.iter().copied()));
}

impl Call {
    /// Calls `f` on this call and on every call inside its body.
    pub fn visit(&self, f: &mut impl FnMut(&Call)) {
        f(self);
        stmt_calls(&self.body, &mut |c| c.visit(f));
    }

    /// Calls `f` on the value of every constant [`Stmt::ResetClock`] of
    /// the call and of the calls inside it (for the LU table's check that
    /// zones hold every constant).
    pub fn for_each_constant_reset(&self, f: &mut impl FnMut(i32)) {
        fn walk(stmts: &[Stmt], f: &mut impl FnMut(i32)) {
            for s in stmts {
                match s {
                    Stmt::ResetClock {
                        value: Expr::Const(v),
                        ..
                    } => f(*v),
                    Stmt::If { then, els, .. } => {
                        walk(then, f);
                        walk(els, f);
                    }
                    Stmt::Loop { body, .. } | Stmt::ForRange { body, .. } => walk(body, f),
                    _ => {}
                }
            }
        }
        self.visit(&mut |c| walk(&c.body, f));
    }

    /// Calls `f` on the value of every [`Stmt::ResetClock`] of the call and
    /// of the calls inside it, constant or not (for the largest value a
    /// clock may be reset to, `checker/diagonal.rs`).
    pub fn for_each_reset_value(&self, f: &mut impl FnMut(&Expr)) {
        fn walk(stmts: &[Stmt], f: &mut impl FnMut(&Expr)) {
            for s in stmts {
                match s {
                    Stmt::ResetClock { value, .. } => f(value),
                    Stmt::If { then, els, .. } => {
                        walk(then, f);
                        walk(els, f);
                    }
                    Stmt::Loop { body, .. } | Stmt::ForRange { body, .. } => walk(body, f),
                    _ => {}
                }
            }
        }
        self.visit(&mut |c| walk(&c.body, f));
    }

    /// Whether this call, or one inside it, still has template-relative
    /// spans ([`Call::local`]).
    pub(super) fn has_local(&self) -> bool {
        let mut any = false;
        self.visit(&mut |c| any |= c.local);
        any
    }
}

/// Calls `f` on every call the statements make (not inside calls).
fn stmt_calls(stmts: &[Stmt], f: &mut impl FnMut(&Call)) {
    for s in stmts {
        match s {
            Stmt::At(_) | Stmt::Return { value: None, .. } => {}
            Stmt::Assign { target, value, .. } => {
                if let Some(i) = &target.index {
                    i.for_each_call(f);
                }
                value.for_each_call(f);
            }
            Stmt::ResetClock { clock, value } => {
                if let Some(i) = &clock.index {
                    i.for_each_call(f);
                }
                value.for_each_call(f);
            }
            Stmt::Eval(e) | Stmt::Return { value: Some(e), .. } => e.for_each_call(f),
            Stmt::If { cond, then, els } => {
                cond.for_each_call(f);
                stmt_calls(then, f);
                stmt_calls(els, f);
            }
            Stmt::Loop { cond, body, .. } => {
                cond.for_each_call(f);
                stmt_calls(body, f);
            }
            Stmt::ForRange { body, .. } => stmt_calls(body, f),
        }
    }
}

impl Expr {
    /// [`Expr::for_each_call`], with each call to change (shared calls are
    /// copied on write with [`Arc::make_mut`]).
    pub fn for_each_call_mut(&mut self, f: &mut impl FnMut(&mut Arc<Call>)) {
        match self {
            Expr::Call(c) => f(c),
            e => e.for_each_operand_mut(|o| o.for_each_call_mut(f)),
        }
    }

    /// Calls `f` on every call in the expression (not inside calls).
    pub fn for_each_call(&self, f: &mut impl FnMut(&Call)) {
        match self {
            Expr::Call(c) => f(c),
            e => e.for_each_operand(|o| o.for_each_call(f)),
        }
    }

    /// Whether the expression calls a function.
    pub fn calls_any(&self) -> bool {
        let mut any = false;
        self.for_each_call(&mut |_| any = true);
        any
    }

    /// Whether evaluating the expression may write the state (it calls a
    /// function with effects).
    pub fn has_effects(&self) -> bool {
        let mut writes = Vec::new();
        collect_call_writes(self, &mut writes);
        !writes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BinOp;
    use crate::test_exprs::c;

    fn call(body: Vec<Stmt>, frame_len: u32) -> Call {
        let (reads, writes) = footprint(&body);
        Call {
            name: "f".into(),
            args: vec![],
            body,
            frame_len,
            reads,
            writes,
            result: Some((i32::MIN, i32::MAX)),
            resets: vec![],
            may_reset: vec![],
            must_reset: vec![],
            span: Span::default(),
            decl: Span::default(),
            local: false,
        }
    }

    fn local(k: u32) -> Expr {
        Expr::Var(FRAME + k)
    }

    fn assign(slot: VarId, value: Expr) -> Stmt {
        Stmt::Assign {
            target: LValue {
                base: slot,
                len: 1,
                index: None,
            },
            value,
            lo: -100,
            hi: 100,
        }
    }

    #[test]
    fn a_loop_sums_into_a_local_and_returns_it() {
        // int s = 0; for (i : int[1, 4]) s += i; return s;   = 10
        let body = vec![
            assign(FRAME, Expr::Const(0)),
            Stmt::ForRange {
                var: FRAME + 1,
                lo: 1,
                hi: 4,
                body: vec![assign(
                    FRAME,
                    Expr::Binary(BinOp::Add, Box::new(local(0)), Box::new(local(1))),
                )],
            },
            Stmt::Return {
                value: Some(local(0)),
                lo: -100,
                hi: 100,
            },
        ];
        assert_eq!(call(body, 2).value(&[]), Ok(10));
    }

    #[test]
    fn effects_need_a_writable_state() {
        let f = call(vec![assign(0, Expr::Const(7))], 0);
        assert_eq!(f.writes, vec![0]);
        let mut vars = [1, 2];
        assert_eq!(f.run(&mut vars), Ok(()));
        assert_eq!(vars, [7, 2]);
        assert_eq!(f.value(&[1, 2]), Err(ErrorKind::EffectInCondition.into()));
    }

    #[test]
    fn a_loop_that_does_not_end_is_a_model_error() {
        let f = call(
            vec![Stmt::Loop {
                cond: *c(1),
                body: vec![],
                test_first: true,
            }],
            0,
        );
        assert_eq!(f.value(&[]), Err(ErrorKind::LoopLimit.into()));
    }

    #[test]
    fn assignments_and_results_are_range_checked() {
        let f = call(vec![assign(FRAME, Expr::Const(101))], 1);
        assert!(matches!(
            f.value(&[]),
            Err(EvalError {
                kind: ErrorKind::OutOfRange { value: 101, .. },
                site: None
            })
        ));
        let g = call(
            vec![Stmt::Return {
                value: Some(Expr::Const(5)),
                lo: 0,
                hi: 3,
            }],
            0,
        );
        assert_eq!(
            g.value(&[]),
            Err(ErrorKind::ResultOutOfRange {
                value: 5,
                lo: 0,
                hi: 3
            }
            .into())
        );
    }

    #[test]
    fn nested_calls_share_the_frame_buffer() {
        // g() { return 2; }  f() { int a = 3; return a * g(); }  = 6
        let g = call(
            vec![Stmt::Return {
                value: Some(Expr::Const(2)),
                lo: -100,
                hi: 100,
            }],
            0,
        );
        let f = call(
            vec![
                assign(FRAME, Expr::Const(3)),
                Stmt::Return {
                    value: Some(Expr::Binary(
                        BinOp::Mul,
                        Box::new(local(0)),
                        Box::new(Expr::Call(std::sync::Arc::new(g))),
                    )),
                    lo: -100,
                    hi: 100,
                },
            ],
            1,
        );
        assert_eq!(Expr::Call(std::sync::Arc::new(f)).eval(&[]), Ok(6));
    }

    fn reset(clock: ClockId, len: u32, index: Option<Expr>, value: Expr) -> Stmt {
        Stmt::ResetClock {
            clock: LValue {
                base: clock,
                len,
                index,
            },
            value,
        }
    }

    fn when(cond: Expr, then: Vec<Stmt>, els: Vec<Stmt>) -> Stmt {
        Stmt::If { cond, then, els }
    }

    #[test]
    fn may_and_must_resets_follow_every_path() {
        let x0 = || reset(1, 1, None, Expr::Const(0));
        let x5 = || reset(1, 1, None, Expr::Const(5));
        let cond = || Expr::Var(0);
        // Both branches reset x to 0: must, with its value.
        let both = reset_summary(&[when(cond(), vec![x0()], vec![x0()])]);
        assert_eq!(both, (vec![1], vec![(1, Some(0))]));
        // To different values: must, value unknown.
        let differ = reset_summary(&[when(cond(), vec![x0()], vec![x5()])]);
        assert_eq!(differ, (vec![1], vec![(1, None)]));
        // One branch only: may, not must.
        let one = reset_summary(&[when(cond(), vec![x0()], vec![])]);
        assert_eq!(one, (vec![1], vec![]));
        // Reset, then maybe again to 5: must, value unknown.
        let again = reset_summary(&[x0(), when(cond(), vec![x5()], vec![])]);
        assert_eq!(again, (vec![1], vec![(1, None)]));
        // A value that depends on the state: must, value unknown.
        assert_eq!(
            reset_summary(&[reset(1, 1, None, Expr::Var(0))]),
            (vec![1], vec![(1, None)])
        );
        // An element chosen at run time of clocks 2..5: may any of them;
        // clock 3, reset before, stays must but with its value unknown.
        let indexed = reset_summary(&[
            reset(3, 1, None, Expr::Const(0)),
            reset(2, 3, Some(Expr::Var(0)), Expr::Const(0)),
        ]);
        assert_eq!(indexed, (vec![2, 3, 4], vec![(3, None)]));
        // After a path that may return, nothing more is certain.
        let ret = Stmt::Return {
            value: None,
            lo: 0,
            hi: 0,
        };
        let returns = reset_summary(&[when(cond(), vec![ret], vec![]), x0()]);
        assert_eq!(returns, (vec![1], vec![]));
        // A loop body may not run.
        let looped = reset_summary(&[Stmt::Loop {
            cond: cond(),
            body: vec![x0()],
            test_first: true,
        }]);
        assert_eq!(looped, (vec![1], vec![]));
        // A nested call gives its own summary.
        let mut inner = call(vec![x5()], 0);
        (inner.may_reset, inner.must_reset) = reset_summary(&inner.body);
        let outer = reset_summary(&[Stmt::Eval(Expr::Call(Arc::new(inner)))]);
        assert_eq!(outer, (vec![1], vec![(1, Some(5))]));
    }

    #[test]
    fn resets_are_reported_in_order_and_checked() {
        // x[v0] = 3; if (v0 == 1) x[0] = v1;  with x at clocks 1..=2.
        let body = vec![
            reset(1, 2, Some(Expr::Var(0)), Expr::Const(3)),
            when(
                Expr::Binary(BinOp::Eq, Box::new(Expr::Var(0)), Box::new(Expr::Const(1))),
                vec![reset(1, 1, None, Expr::Var(1))],
                vec![],
            ),
        ];
        let f = call(body, 0);
        let mut seen = Vec::new();
        let mut vars = vec![1, 7];
        f.run_resetting(&mut vars, &mut |x, v| seen.push((x, v)))
            .unwrap();
        assert_eq!(seen, [(2, 3), (1, 7)]);
        let mut vars = vec![2, 7];
        assert_eq!(
            f.run_resetting(&mut vars, &mut |_, _| {}),
            Err(ErrorKind::IndexOutOfBounds { index: 2, len: 2 }.into())
        );
        let mut vars = vec![1, -4];
        assert_eq!(
            f.run_resetting(&mut vars, &mut |_, _| {}),
            Err(ErrorKind::ClockValue { value: -4 }.into())
        );
        // In a condition, a reset is an effect.
        assert_eq!(f.value(&[1, 7]), Err(ErrorKind::EffectInCondition.into()));
    }
}
