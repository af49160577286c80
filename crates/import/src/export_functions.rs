//! Functions in the XTA export. The network keeps every call inlined with
//! its arguments bound ([`ir::Call`]), so each distinct call is written as a
//! function of its own, without parameters:
//!
//! - `f_k(int32_t &_fr[F])` runs the call's statements on the frame `_fr`
//!   (the checker's frame slots, [`ir::FRAME`]): parameters and locals are
//!   its elements, and a nested call passes the same frame on, as the
//!   checker's nested calls share one buffer;
//! - `f_k_()` declares a frame of its own and calls `f_k`: the guards,
//!   invariants and updates call it. The frame is local, so it is not part
//!   of a state, and a call without effects stays one.
//!
//! What the checker checks at run time stays checked: an element of the
//! frame assigned a narrower range (a typed parameter or local) goes
//! through a local of that type, an index into a local array through the
//! `_idxN` table, and the result through the function's result type.

use std::sync::Arc;

use zeno_ir::print::{self, Names, Style};
use zeno_ir::{self as ir, Call, Expr, FRAME, LValue, Stmt, VarId, is_frame_slot};

/// The distinct calls of a network and the size of the frame they share.
#[derive(Default)]
pub(super) struct Functions {
    calls: Vec<Arc<Call>>,
    frame: u32,
}

impl Functions {
    /// Every call the network makes, nested calls included; the dimensions
    /// of local arrays are added to `checks` (their indices go through the
    /// `_idxN` tables).
    pub(super) fn collect(
        net: &ir::Network,
        checks: &mut std::collections::BTreeSet<u32>,
    ) -> Functions {
        let mut fns = Functions::default();
        let mut add = |c: &Call| fns.add(c);
        for p in &net.processes {
            for l in &p.locations {
                l.invariant
                    .iter()
                    .for_each(|c| c.bound.for_each_call(&mut add));
                if let Some(d) = &l.data_invariant {
                    d.for_each_call(&mut add);
                }
            }
            for e in &p.edges {
                if let Some(g) = &e.guard {
                    g.for_each_call(&mut add);
                }
                e.clock_guard
                    .iter()
                    .for_each(|c| c.bound.for_each_call(&mut add));
                if let Some(i) = e.sync.as_ref().and_then(|s| s.channel.index.as_ref()) {
                    i.for_each_call(&mut add);
                }
                for u in &e.updates {
                    match u {
                        ir::Update::Assign { target, value } => {
                            if let Some(i) = &target.index {
                                i.for_each_call(&mut add);
                            }
                            value.for_each_call(&mut add);
                        }
                        ir::Update::ResetClock { .. } => {}
                        ir::Update::Call(c) => add(c),
                    }
                }
            }
        }
        // The checks' calls too (`E<> twice(g) == 2`, `P(1).f()`): their
        // formulas are printed as queries over the same functions.
        for c in &net.checks {
            c.kind.formulas().for_each(|f| formula_calls(f, &mut add));
            if let ir::CheckKind::Bound(b) = &c.kind {
                for t in &b.terms {
                    if let ir::BoundValue::Data(e) = &t.value {
                        e.for_each_call(&mut add);
                    }
                }
            }
        }
        for c in &fns.calls {
            local_arrays(&c.body, checks);
        }
        fns
    }

    /// Adds `c` after the calls it makes: a function is declared after the
    /// ones it calls.
    fn add(&mut self, c: &Call) {
        let mut nested = Vec::new();
        each_expr(
            &c.body,
            &mut |e| e.for_each_call(&mut |n| nested.push(n.clone())),
            &mut |_| {},
        );
        for n in &nested {
            self.add(n);
        }
        self.frame = self.frame.max(c.frame_len);
        if !self.calls.iter().any(|k| **k == *c) {
            self.calls.push(Arc::new(c.clone()));
        }
    }

    /// The arrays the calls' statements index, for the exporter to declare
    /// as arrays: `(base, len)` of state variables.
    pub(super) fn state_arrays(&self, out: &mut std::collections::BTreeSet<super::export::Access>) {
        for c in &self.calls {
            let mut targets = Vec::new();
            each_expr(&c.body, &mut |e| state_indices(e, out), &mut |l| {
                if let Some(i) = &l.index
                    && !is_frame_slot(l.base)
                {
                    targets.push(super::export::access(l.base, l.len, i));
                }
            });
            out.extend(targets);
        }
    }

    fn index(&self, c: &Call) -> usize {
        self.calls
            .iter()
            .position(|k| **k == *c)
            .expect("every call was collected")
    }

    /// `f_k`: the call's function over a frame.
    fn body_name(&self, c: &Call) -> String {
        let name = if c.name.is_empty() {
            "_update"
        } else {
            &c.name
        };
        format!("{}_{}", super::export::clean(name), self.index(c))
    }

    /// The call as the guards, invariants and updates write it.
    pub(super) fn entry(&self, c: &Call) -> String {
        format!("{}_()", self.body_name(c))
    }

    /// The declarations of every function, for the global declarations.
    pub(super) fn declarations(&self, names: &dyn Names) -> String {
        let mut out = String::new();
        let frame = self.frame.max(1);
        for c in &self.calls {
            let ty = match c.result {
                // A nameless call's result has no range of its own.
                Some((i32::MIN, i32::MAX)) => "int32_t".to_string(),
                Some((lo, hi)) => format!("int[{lo}, {hi}]"),
                None => "void".to_string(),
            };
            let name = self.body_name(c);
            let body = Body { fns: self, names };
            out.push_str(&format!("\n{ty} {name}(int32_t &_fr[{frame}]) {{\n"));
            body.block(&c.body, 1, &mut out);
            out.push_str("}\n");
            let run = format!("{name}(_fr)");
            let call = if c.result.is_some() {
                format!("return {run};")
            } else {
                format!("{run};")
            };
            out.push_str(&format!(
                "{ty} {name}_() {{\n    int32_t _fr[{frame}];\n    {call}\n}}\n"
            ));
        }
        out
    }
}

/// Names inside a function's statements: frame slots are elements of `_fr`,
/// and calls pass the frame on.
struct Body<'a> {
    fns: &'a Functions,
    names: &'a dyn Names,
}

impl Names for Body<'_> {
    fn var(&self, v: VarId) -> String {
        if is_frame_slot(v) {
            format!("_fr[{}]", v - FRAME)
        } else {
            self.names.var(v)
        }
    }

    fn array(&self, base: VarId) -> (String, u32) {
        if is_frame_slot(base) {
            ("_fr".to_string(), base - FRAME)
        } else {
            self.names.array(base)
        }
    }

    fn stride(&self, base: VarId) -> u32 {
        if is_frame_slot(base) {
            1
        } else {
            self.names.stride(base)
        }
    }

    fn checked(&self, len: u32) -> Option<String> {
        self.names.checked(len)
    }

    fn call(&self, c: &Call) -> Option<String> {
        Some(format!("{}(_fr)", self.fns.body_name(c)))
    }

    fn clock(&self, c: ir::ClockId) -> String {
        self.names.clock(c)
    }
}

impl Body<'_> {
    fn expr(&self, e: &Expr) -> String {
        print::Printer::new(self, Style::UPPAAL).expr(&checked_locals(e))
    }

    fn target(&self, t: &LValue) -> String {
        match &t.index {
            None => self.var(t.base),
            Some(i) => self.expr(&Expr::Index {
                base: t.base,
                len: t.len,
                index: Box::new(i.clone()),
            }),
        }
    }

    /// `head` on a line at `pad`, then `body` one level deeper (the caller
    /// closes it).
    fn nested(&self, pad: &str, head: &str, body: &[Stmt], depth: usize, out: &mut String) {
        out.push_str(&format!("{pad}{head}\n"));
        self.block(body, depth + 1, out);
    }

    fn block(&self, stmts: &[Stmt], depth: usize, out: &mut String) {
        let pad = "    ".repeat(depth);
        for s in stmts {
            match s {
                Stmt::At(_) => {}
                Stmt::Assign {
                    target,
                    value,
                    lo,
                    hi,
                } => {
                    let (lhs, rhs) = (self.target(target), self.expr(value));
                    if is_frame_slot(target.base) && (*lo, *hi) != (i32::MIN, i32::MAX) {
                        // The frame is `int32_t`: the range goes through a
                        // local of the slot's type.
                        out.push_str(&format!(
                            "{pad}{{ int[{lo}, {hi}] _r = {rhs}; {lhs} = _r; }}\n"
                        ));
                    } else {
                        out.push_str(&format!("{pad}{lhs} = {rhs};\n"));
                    }
                }
                Stmt::Eval(e) => out.push_str(&format!("{pad}{};\n", self.expr(e))),
                Stmt::If { cond, then, els } => {
                    let head = format!("if ({}) {{", self.expr(cond));
                    self.nested(&pad, &head, then, depth, out);
                    if !els.is_empty() {
                        self.nested(&pad, "} else {", els, depth, out);
                    }
                    out.push_str(&format!("{pad}}}\n"));
                }
                Stmt::Loop {
                    cond,
                    body,
                    test_first,
                } => {
                    let cond = self.expr(cond);
                    if *test_first {
                        self.nested(&pad, &format!("while ({cond}) {{"), body, depth, out);
                        out.push_str(&format!("{pad}}}\n"));
                    } else {
                        self.nested(&pad, "do {", body, depth, out);
                        out.push_str(&format!("{pad}}} while ({cond});\n"));
                    }
                }
                Stmt::ForRange { var, lo, hi, body } => {
                    let i = format!("_i{}", var - FRAME);
                    let head = format!(
                        "for ({i} : int[{lo}, {hi}]) {{\n{pad}    {} = {i};",
                        self.var(*var)
                    );
                    self.nested(&pad, &head, body, depth, out);
                    out.push_str(&format!("{pad}}}\n"));
                }
                Stmt::ResetClock { clock, value } => {
                    let value = self.expr(value);
                    match &clock.index {
                        None => {
                            let x = self.clock(clock.base);
                            out.push_str(&format!("{pad}{x} = {value};\n"));
                        }
                        // The export names each clock of an array on its
                        // own: the element is chosen by comparisons, after
                        // the index is checked as the checker checks it.
                        Some(i) => {
                            let k = self.expr(&Expr::Checked {
                                index: Box::new(i.clone()),
                                len: clock.len,
                            });
                            out.push_str(&format!(
                                "{pad}{{ int32_t _k = {k}; int32_t _v = {value};\n"
                            ));
                            for n in 0..clock.len {
                                let x = self.clock(clock.base + n);
                                let head = if n == 0 { "if" } else { "else if" };
                                out.push_str(&format!("{pad}    {head} (_k == {n}) {x} = _v;\n"));
                            }
                            out.push_str(&format!("{pad}}}\n"));
                        }
                    }
                }
                Stmt::Return { value: None, .. } => out.push_str(&format!("{pad}return;\n")),
                Stmt::Return { value: Some(e), .. } => {
                    out.push_str(&format!("{pad}return {};\n", self.expr(e)))
                }
            }
        }
    }
}

/// `e` with every index into a local array checked against the array's own
/// length (the frame `_fr` is longer: an index past the local array would
/// read a neighbouring slot).
fn checked_locals(e: &Expr) -> Expr {
    match e {
        Expr::Index { base, len, index } if is_frame_slot(*base) => Expr::Index {
            base: *base,
            len: *len,
            index: Box::new(Expr::Checked {
                index: Box::new(checked_locals(index)),
                len: *len,
            }),
        },
        _ => e.map_operands(checked_locals),
    }
}

/// Calls `f` on every expression of the statements (not inside calls) and
/// `t` on every assignment's target.
fn each_expr(stmts: &[Stmt], f: &mut impl FnMut(&Expr), t: &mut impl FnMut(&LValue)) {
    for s in stmts {
        match s {
            Stmt::At(_) | Stmt::Return { value: None, .. } => {}
            Stmt::Assign { target, value, .. } => {
                t(target);
                if let Some(i) = &target.index {
                    f(i);
                }
                f(value);
            }
            // A clock is not a variable: its index (checked against the
            // array's length when written) and value are read.
            Stmt::ResetClock { clock, value } => {
                if let Some(i) = &clock.index {
                    f(&Expr::Checked {
                        index: Box::new(i.clone()),
                        len: clock.len,
                    });
                }
                f(value);
            }
            Stmt::Eval(e) | Stmt::Return { value: Some(e), .. } => f(e),
            Stmt::If { cond, then, els } => {
                f(cond);
                each_expr(then, f, t);
                each_expr(els, f, t);
            }
            Stmt::Loop { cond, body, .. } => {
                f(cond);
                each_expr(body, f, t);
            }
            Stmt::ForRange { body, .. } => each_expr(body, f, t),
        }
    }
}

/// The lengths of the local arrays the statements index (reads and writes).
fn local_arrays(stmts: &[Stmt], checks: &mut std::collections::BTreeSet<u32>) {
    let mut reads = |e: &Expr| {
        for_each_node(e, &mut |n| match n {
            Expr::Index { base, len, .. } if is_frame_slot(*base) => {
                checks.insert(*len);
            }
            Expr::Checked { len, .. } => {
                checks.insert(*len);
            }
            _ => {}
        })
    };
    let mut lens = Vec::new();
    each_expr(stmts, &mut reads, &mut |l| {
        if l.index.is_some() && is_frame_slot(l.base) {
            lens.push(l.len);
        }
    });
    checks.extend(lens);
}

/// The state arrays an expression indexes.
fn state_indices(e: &Expr, out: &mut std::collections::BTreeSet<super::export::Access>) {
    for_each_node(e, &mut |n| {
        if let Expr::Index { base, len, index } = n
            && !is_frame_slot(*base)
        {
            out.insert(super::export::access(*base, *len, index));
        }
    });
}

/// Calls `f` on the expression and on each of its subexpressions (not
/// inside calls), outermost first.
/// The calls a check formula makes, in its data and in its clock bounds.
fn formula_calls(f: &ir::Formula, add: &mut impl FnMut(&Call)) {
    match f {
        ir::Formula::Data(e) => e.for_each_call(add),
        ir::Formula::Clock(c) => c.bound.for_each_call(add),
        ir::Formula::Not(g) => formula_calls(g, add),
        ir::Formula::And(gs) | ir::Formula::Or(gs) => gs.iter().for_each(|g| formula_calls(g, add)),
        _ => {}
    }
}

pub(super) fn for_each_node(e: &Expr, f: &mut impl FnMut(&Expr)) {
    f(e);
    match e {
        Expr::Const(_) | Expr::Var(_) | Expr::Call(_) => {}
        Expr::Index { index: a, .. } | Expr::Checked { index: a, .. } | Expr::Unary(_, a) => {
            for_each_node(a, f)
        }
        Expr::Binary(_, a, b) => {
            for_each_node(a, f);
            for_each_node(b, f);
        }
        Expr::Cond(c, a, b) => {
            for_each_node(c, f);
            for_each_node(a, f);
            for_each_node(b, f);
        }
    }
}
