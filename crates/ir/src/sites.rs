//! Where run-time errors inside functions happened, in words: the spans a
//! [`FnSite`](super::FnSite) holds made absolute when an instance is placed
//! in the network, the function's name found from its declaration's span,
//! and the line of a span.

use std::sync::Arc;

use super::{Call, Expr, Formula, Network, Process, Span, Stmt, Update};

impl Network {
    /// The name of the function declared at `decl` (the span of its name),
    /// if the network calls it anywhere.
    pub fn function_name(&self, decl: Span) -> Option<String> {
        let mut found = None;
        let mut look = |c: &Call| {
            c.visit(&mut |c| {
                if found.is_none() && c.decl == decl {
                    found = Some(c.name.clone());
                }
            })
        };
        for p in &self.processes {
            for_each_call(p, &mut look);
        }
        for f in self.checks.iter().flat_map(|c| c.kind.formulas()) {
            formula_calls(f, &mut look);
        }
        found
    }

    /// The line (from 1) of a byte offset, when the network knows its
    /// text's lines (`lines`).
    pub fn line_of(&self, offset: u32) -> Option<usize> {
        Some(self.lines.as_ref()?.line(offset) as usize + 1)
    }
}

fn formula_calls(f: &Formula, look: &mut impl FnMut(&Call)) {
    match f {
        Formula::Data(e) => e.for_each_call(look),
        Formula::Clock(c) => c.bound.for_each_call(look),
        Formula::Not(g) => formula_calls(g, look),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().for_each(|g| formula_calls(g, look)),
        Formula::True | Formula::False | Formula::At { .. } | Formula::Deadlock => {}
    }
}

/// Calls `f` on every call a process's guards, invariants, synchronisations
/// and updates make (not the calls inside them).
fn for_each_call(p: &Process, f: &mut impl FnMut(&Call)) {
    for l in &p.locations {
        l.invariant.iter().for_each(|c| c.bound.for_each_call(f));
        if let Some(d) = &l.data_invariant {
            d.for_each_call(f);
        }
    }
    for e in &p.edges {
        if let Some(g) = &e.guard {
            g.for_each_call(f);
        }
        e.clock_guard.iter().for_each(|c| c.bound.for_each_call(f));
        if let Some(i) = e.sync.as_ref().and_then(|s| s.channel.index.as_ref()) {
            i.for_each_call(f);
        }
        for u in &e.updates {
            match u {
                Update::Call(c) => f(c),
                _ => u.operands().for_each(|x| x.for_each_call(f)),
            }
        }
    }
}

/// Makes the spans of the template-local functions a process calls
/// absolute: `offset` is its template's place in the text. Lowering an
/// instance gives them relative to the template, so that the instance
/// stays the same when text before the template moves.
pub fn shift_local_calls(p: &mut Process, offset: u32) {
    let shift = |e: &mut Expr| shift_calls(e, offset);
    for l in &mut p.locations {
        l.invariant.iter_mut().for_each(|c| shift(&mut c.bound));
        if let Some(d) = &mut l.data_invariant {
            shift(d);
        }
    }
    for e in &mut p.edges {
        if let Some(g) = &mut e.guard {
            shift(g);
        }
        e.clock_guard.iter_mut().for_each(|c| shift(&mut c.bound));
        if let Some(i) = e.sync.as_mut().and_then(|s| s.channel.index.as_mut()) {
            shift(i);
        }
        for u in &mut e.updates {
            match u {
                Update::Assign { target, value } => {
                    if let Some(i) = &mut target.index {
                        shift(i);
                    }
                    shift(value);
                }
                Update::ResetClock { .. } => {}
                Update::Call(c) => shift_call(c, offset),
            }
        }
    }
}

/// Makes the spans of the template-local function calls in `e` absolute,
/// `offset` being their template's place in the text (a check's
/// `P(1).f()`).
pub fn shift_local_calls_in(e: &mut Expr, offset: u32) {
    shift_calls(e, offset);
}

fn shift_calls(e: &mut Expr, offset: u32) {
    e.for_each_call_mut(&mut |c| shift_call(c, offset));
}

/// Shifts a call that has template-relative spans in it; a call without
/// any (every call of a global function only) is left shared.
fn shift_call(c: &mut Arc<Call>, offset: u32) {
    if !c.has_local() {
        return;
    }
    let c = Arc::make_mut(c);
    if c.local {
        c.decl = c.decl.shifted(offset);
        c.local = false;
        shift_stmts(&mut c.body, offset, true);
    } else {
        shift_stmts(&mut c.body, offset, false);
    }
}

/// Shifts the `At` spans of a local function's own statements (`own`) and
/// the calls made in them.
fn shift_stmts(stmts: &mut [Stmt], offset: u32, own: bool) {
    for s in stmts {
        match s {
            Stmt::At(span) => {
                if own {
                    *span = span.shifted(offset);
                }
            }
            Stmt::Assign { target, value, .. }
            | Stmt::ResetClock {
                clock: target,
                value,
            } => {
                if let Some(i) = &mut target.index {
                    shift_calls(i, offset);
                }
                shift_calls(value, offset);
            }
            Stmt::Eval(e) => shift_calls(e, offset),
            Stmt::If { cond, then, els } => {
                shift_calls(cond, offset);
                shift_stmts(then, offset, own);
                shift_stmts(els, offset, own);
            }
            Stmt::Loop { cond, body, .. } => {
                shift_calls(cond, offset);
                shift_stmts(body, offset, own);
            }
            Stmt::ForRange { body, .. } => shift_stmts(body, offset, own),
            Stmt::Return { value, .. } => {
                if let Some(e) = value {
                    shift_calls(e, offset);
                }
            }
        }
    }
}
