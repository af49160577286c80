//! A deliberately simple concrete simulator for timed-automata networks.
//!
//! It replays a [`Trace`] on a [`Network`] step by step under UPPAAL's concrete
//! semantics and reports the first step that does not follow them. It is an
//! independent route to the checker's answers: it shares no code with the
//! checker and has its own expression evaluator (it never calls
//! `ir::Expr::eval`), so a bug in one is unlikely to hide the same bug in the
//! other.
//!
//! Everything is concrete: clocks are exact rationals, delays are the trace's
//! delays. The only place where all delays must be considered is the
//! `deadlock` formula; there every clock constraint on `x + d` is an interval
//! of `d`, so enabledness is decided exactly by intersecting intervals.

use num_rational::Rational64;
use zeno::checker::{ConcreteState, Trace, TraceEnd, Transition};
use zeno::ir::{
    BinOp, Call, ChanId, ChanRef, ChannelKind, ClockConstraint, ErrorKind, EvalError, Expr, FRAME,
    FnSite, Formula, LValue, LocationKind, MAX_LOOP_STEPS, Network, ProcId, Span, Stmt, SyncDir,
    UnOp, Update,
};

mod priority;

type Q = Rational64;

fn q(v: i32) -> Q {
    Q::from_integer(v as i64)
}

/// Replays `trace` as a counterexample or witness for `network.checks[check]`.
/// Returns `Err` with a message naming the first wrong step.
pub fn replay(network: &Network, check: usize, trace: &Trace) -> Result<(), String> {
    let check = network
        .checks
        .get(check)
        .ok_or_else(|| format!("the network has no check #{check}"))?;
    let sim = Sim { net: network };

    let initial = sim.initial_state();
    if trace.initial != initial {
        return Err(format!(
            "initial state: the trace starts in {:?}, the network in {:?}",
            trace.initial, initial
        ));
    }
    sim.check_invariants(&initial)
        .map_err(|e| format!("initial state: {e}"))?;

    let mut state = initial;
    // Every state of the run, for the liveness checks' lassos.
    let mut states = vec![state.clone()];
    for (k, step) in trace.steps.iter().enumerate() {
        let at = format!("step {} ({:?})", k + 1, step.transition.edges);
        let delayed = sim
            .delay(&state, step.delay)
            .map_err(|e| format!("{at}: {e}"))?;
        let next = match sim
            .fire(&delayed, &step.transition)
            .map_err(|e| format!("{at}: {e}"))?
        {
            Ok(next) => next,
            Err(error) => return Err(format!("{at}: an update fails: {error}")),
        };
        if next != step.after {
            return Err(format!(
                "{at}: the trace arrives in {:?}, the semantics in {:?}",
                step.after, next
            ));
        }
        state = next;
        states.push(state.clone());
    }

    let at = format!("end of the trace (after {} steps)", trace.steps.len());
    if check.kind.is_liveness() && !matches!(trace.end, TraceEnd::ModelError { .. }) {
        // Every instant of the run, delays included: a formula on clocks
        // must hold while time passes too.
        let instants = sim
            .instants(&check.kind, &states, trace)
            .map_err(|e| format!("{at}: {e}"))?;
        sim.run_keeps_formula(&check.kind, &instants)
            .map_err(|e| format!("{at}: {e}"))?;
    }
    match &trace.end {
        TraceEnd::Loop { .. } | TraceEnd::Deadlock { .. } | TraceEnd::TimeDiverges => {
            replay_run_end(&sim, &states, &trace.end).map_err(|e| format!("{at}: {e}"))
        }
        TraceEnd::Goal { delay } => {
            let last = sim
                .delay(&state, *delay)
                .map_err(|e| format!("{at}: {e}"))?;
            let goal = check.kind.goal();
            if !sim
                .formula(&goal, &last)
                .map_err(|e| format!("{at}: {e}"))?
            {
                return Err(format!(
                    "{at}: the goal of check `{}` does not hold in {:?}",
                    check.name, last
                ));
            }
            Ok(())
        }
        TraceEnd::ModelError {
            delay,
            transition,
            error,
        } => {
            let last = sim
                .delay(&state, *delay)
                .map_err(|e| format!("{at}: {e}"))?;
            // No transition: one of the check's formulas is undefined here.
            if transition.edges.is_empty() {
                let actual = check
                    .kind
                    .formulas()
                    .find_map(|f| sim.formula_error(f, &last));
                return match actual {
                    Some(actual) if actual == *error => Ok(()),
                    Some(actual) => Err(format!(
                        "{at}: the formula fails with `{actual}`, the trace says `{error}`"
                    )),
                    None => Err(format!(
                        "{at}: the check's formulas evaluate, the trace says they fail with `{error}`"
                    )),
                };
            }
            // A guard that cannot be evaluated (a bad index, a division by
            // zero) is a run-time error too, found before any update runs.
            if let Some(actual) = sim.guard_error(&last, transition) {
                return if actual == *error {
                    Ok(())
                } else {
                    Err(format!(
                        "{at}: a guard fails with `{actual}`, the trace says `{error}`"
                    ))
                };
            }
            match sim
                .fire(&last, transition)
                .map_err(|e| format!("{at}: {e}"))?
            {
                Ok(next) => Err(format!(
                    "{at}: the transition {:?} succeeds (arriving in {next:?}) instead of failing with `{error}`",
                    transition.edges
                )),
                Err(actual) if actual == *error => Ok(()),
                Err(actual) => Err(format!(
                    "{at}: the transition fails with `{actual}`, the trace says `{error}`"
                )),
            }
        }
    }
}

/// The end of a maximal run (liveness checks): a lasso closes on the state
/// it loops back to, a deadlock is one, and time can diverge where the trace
/// says it does.
fn replay_run_end(sim: &Sim, states: &[ConcreteState], end: &TraceEnd) -> Result<(), String> {
    let last = states.last().expect("the initial state");
    match end {
        TraceEnd::Loop { delay, start, zone } => {
            let closed = sim.delay(last, *delay)?;
            let back = states
                .get(*start)
                .ok_or_else(|| format!("the loop starts at state {start}, past the trace"))?;
            if closed.locations != back.locations || closed.variables != back.variables {
                return Err(format!(
                    "the cycle does not close: {closed:?} is not the discrete state of {back:?}"
                ));
            }
            if *start >= states.len() - 1 {
                return Err("the cycle has no step".to_string());
            }
            for (what, s) in [
                ("the loop's start", back),
                ("the state closing the cycle", &closed),
            ] {
                if let Some(b) = zone.iter().find(|b| !b.holds(&s.clocks)) {
                    return Err(format!("{what} {s:?} is outside the loop's zone ({b:?})"));
                }
            }
            Ok(())
        }
        TraceEnd::Deadlock { delay } => {
            let stuck = sim.delay(last, *delay)?;
            if !sim.formula(&Formula::Deadlock, &stuck)? {
                return Err(format!("{stuck:?} is not a deadlock"));
            }
            Ok(())
        }
        TraceEnd::TimeDiverges => {
            if sim.urgent(last)? {
                return Err(format!("time may not pass in {last:?}"));
            }
            // The delays the invariants allow, with each clock at its
            // rate (a bound on a stopped clock does not stop time).
            if sim.allowed_delays(last)?.hi.is_some() {
                return Err(format!("the invariants of {last:?} bound time"));
            }
            Ok(())
        }
        TraceEnd::Goal { .. } | TraceEnd::ModelError { .. } => {
            Err("a liveness check's trace must end in a loop, a deadlock or divergence".into())
        }
    }
}

/// Whether `state` satisfies `formula` (`deadlock` included). Exposed so that
/// tests can ask the simulator about single states.
pub fn holds(network: &Network, formula: &Formula, state: &ConcreteState) -> Result<bool, String> {
    Sim { net: network }.formula(formula, state)
}

struct Sim<'a> {
    net: &'a Network,
}

// ---------------------------------------------------------------------------
// Expressions: an evaluator of our own.

fn eval_in(e: &Expr, m: &mut Mem) -> Result<i32, EvalError> {
    match e {
        Expr::Const(c) => Ok(*c),
        Expr::Var(v) => m.read(*v),
        Expr::Index { base, len, index } => {
            let i = element(eval_in(index, m)?, *len)?;
            m.read(base + i)
        }
        // An index checked against its own dimension.
        Expr::Checked { index, len } => Ok(element(eval_in(index, m)?, *len)? as i32),
        Expr::Unary(UnOp::Neg, a) => eval_in(a, m)?
            .checked_neg()
            .ok_or(EvalError::from(ErrorKind::Overflow)),
        Expr::Unary(UnOp::Not, a) => Ok((eval_in(a, m)? == 0) as i32),
        Expr::Unary(UnOp::BitNot, a) => Ok(!eval_in(a, m)?),
        Expr::Binary(BinOp::And, a, b) => Ok((eval_in(a, m)? != 0 && eval_in(b, m)? != 0) as i32),
        Expr::Binary(BinOp::Or, a, b) => Ok((eval_in(a, m)? != 0 || eval_in(b, m)? != 0) as i32),
        Expr::Binary(BinOp::Imply, a, b) => Ok((eval_in(a, m)? == 0 || eval_in(b, m)? != 0) as i32),
        Expr::Binary(op, a, b) => {
            let (x, y) = (eval_in(a, m)?, eval_in(b, m)?);
            let ov = EvalError::from(ErrorKind::Overflow);
            Ok(match op {
                BinOp::Add => x.checked_add(y).ok_or(ov)?,
                BinOp::Sub => x.checked_sub(y).ok_or(ov)?,
                BinOp::Mul => x.checked_mul(y).ok_or(ov)?,
                BinOp::Div | BinOp::Mod if y == 0 => {
                    return Err(EvalError::from(ErrorKind::DivisionByZero));
                }
                // Rust's `/` and `%` on integers truncate toward zero, as C does.
                BinOp::Div => x.checked_div(y).ok_or(ov)?,
                // In i64, where `i32::MIN % -1` is the exact 0.
                BinOp::Mod => (x as i64 % y as i64) as i32,
                BinOp::Lt => (x < y) as i32,
                BinOp::Le => (x <= y) as i32,
                BinOp::Eq => (x == y) as i32,
                BinOp::Ne => (x != y) as i32,
                BinOp::Ge => (x >= y) as i32,
                BinOp::Gt => (x > y) as i32,
                BinOp::And | BinOp::Or | BinOp::Imply => {
                    unreachable!("handled above (short circuit)")
                }
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                // x · 2^y and ⌊x / 2^y⌋, computed in i64; amounts 0 to 31 only.
                BinOp::Shl | BinOp::Shr if !(0..32).contains(&y) => return Err(ov),
                BinOp::Shl => i32::try_from((x as i64) << y).map_err(|_| ov)?,
                BinOp::Shr => ((x as i64) >> y) as i32,
                BinOp::Min => x.min(y),
                BinOp::Max => x.max(y),
                BinOp::Pow if y < 0 => {
                    return Err(EvalError::from(ErrorKind::NegativeExponent { exponent: y }));
                }
                BinOp::Pow => power(x, y).ok_or(ov)?,
            })
        }
        Expr::Cond(c, a, b) => {
            if eval_in(c, m)? != 0 {
                eval_in(a, m)
            } else {
                eval_in(b, m)
            }
        }
        Expr::Call(c) => m.call(c),
    }
}

/// The value of `e` on `vars`. A function called here must not change
/// them (lowering only allows calls without effects in conditions): a
/// change is reported as an error of its own kind.
fn eval(e: &Expr, vars: &[i32]) -> Result<i32, EvalError> {
    let mut m = Mem::new(vars.to_vec());
    let v = eval_in(e, &mut m)?;
    if m.vars != vars || !m.resets.is_empty() {
        return Err(EvalError::from(ErrorKind::EffectInCondition));
    }
    Ok(v)
}

/// `x ** y` for `y >= 0` by repeated multiplication in i64, `None` once
/// outside i32; bases 0, 1 and -1 in closed form (any other base leaves i32
/// within 32 factors).
fn power(x: i32, y: i32) -> Option<i32> {
    match x {
        0 => Some((y == 0) as i32),
        1 => Some(1),
        -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
        _ => {
            let mut r: i64 = 1;
            for _ in 0..y {
                r *= x as i64;
                i32::try_from(r).ok()?;
            }
            i32::try_from(r).ok()
        }
    }
}

/// Where function calls run: a copy of the state's variables, and the call
/// frame as a map from frame slot to value (not a buffer, as the checker's).
struct Mem {
    vars: Vec<i32>,
    frame: std::collections::HashMap<u32, i32>,
    steps: u32,
    /// The running calls, innermost last: each function's declaration and
    /// the statement it is at (none before its body starts).
    calls: Vec<(Span, Option<Span>)>,
    /// The clock resets the calls made, in order: (clock, value).
    resets: Vec<(u32, i32)>,
}

/// What running statements did.
enum Flow {
    Next,
    Return(i32),
}

impl Mem {
    fn new(vars: Vec<i32>) -> Mem {
        Mem {
            vars,
            frame: std::collections::HashMap::new(),
            steps: 0,
            calls: Vec::new(),
            resets: Vec::new(),
        }
    }

    fn read(&self, slot: u32) -> Result<i32, EvalError> {
        // Slots come from the lowering, not from the model's values; a bad
        // one (or a frame slot read before it is written) is a bug in the
        // network, reported as an error no model can produce.
        let missing = EvalError::from(ErrorKind::IndexOutOfBounds {
            index: slot as i32,
            len: 0,
        });
        if slot >= FRAME {
            self.frame.get(&(slot - FRAME)).copied().ok_or(missing)
        } else {
            self.vars.get(slot as usize).copied().ok_or(missing)
        }
    }

    fn write(&mut self, slot: u32, value: i32) -> Result<(), EvalError> {
        if slot >= FRAME {
            self.frame.insert(slot - FRAME, value);
            return Ok(());
        }
        match self.vars.get_mut(slot as usize) {
            Some(v) => {
                *v = value;
                Ok(())
            }
            None => Err(EvalError::from(ErrorKind::IndexOutOfBounds {
                index: slot as i32,
                len: 0,
            })),
        }
    }

    /// Runs a call: its statements, then its result (0 without one).
    /// An error inside a function names the innermost call whose body has
    /// started, at its statement.
    fn call(&mut self, c: &Call) -> Result<i32, EvalError> {
        self.calls.push((c.decl, None));
        let flow = self.run(&c.body);
        let (decl, at) = self.calls.pop().expect("pushed above");
        match flow {
            Ok(Flow::Return(v)) => Ok(v),
            Ok(Flow::Next) => Ok(0),
            Err(mut e) => {
                if let (None, Some(statement)) = (e.site, at) {
                    e.site = Some(FnSite {
                        function: decl,
                        statement,
                    });
                }
                Err(e)
            }
        }
    }

    fn tick(&mut self) -> Result<(), EvalError> {
        self.steps += 1;
        if self.steps > MAX_LOOP_STEPS {
            return Err(EvalError::from(ErrorKind::LoopLimit));
        }
        Ok(())
    }

    fn run(&mut self, stmts: &[Stmt]) -> Result<Flow, EvalError> {
        for s in stmts {
            match s {
                Stmt::At(span) => {
                    if let Some(top) = self.calls.last_mut() {
                        top.1 = Some(*span);
                    }
                }
                Stmt::Assign {
                    target,
                    value,
                    lo,
                    hi,
                } => {
                    let k = match &target.index {
                        None => target.base,
                        Some(i) => {
                            let i = eval_in(i, self)?;
                            target.base + element(i, target.len)?
                        }
                    };
                    let v = eval_in(value, self)?;
                    if v < *lo || v > *hi {
                        return Err(EvalError::from(ErrorKind::OutOfRange {
                            var: k,
                            value: v,
                            lo: *lo,
                            hi: *hi,
                        }));
                    }
                    self.write(k, v)?;
                }
                Stmt::ResetClock { clock, value } => {
                    let x = match &clock.index {
                        None => clock.base,
                        Some(i) => {
                            let i = eval_in(i, self)?;
                            clock.base + element(i, clock.len)?
                        }
                    };
                    let v = eval_in(value, self)?;
                    if !(0..=zeno::ir::MAX_CLOCK_CONSTANT).contains(&v) {
                        return Err(EvalError::from(ErrorKind::ClockValue { value: v }));
                    }
                    self.resets.push((x, v));
                }
                Stmt::Eval(e) => {
                    eval_in(e, self)?;
                }
                Stmt::If { cond, then, els } => {
                    let branch = if eval_in(cond, self)? != 0 { then } else { els };
                    if let Flow::Return(v) = self.run(branch)? {
                        return Ok(Flow::Return(v));
                    }
                }
                Stmt::Loop {
                    cond,
                    body,
                    test_first,
                } => {
                    let mut first = true;
                    loop {
                        if (!first || *test_first) && eval_in(cond, self)? == 0 {
                            break;
                        }
                        first = false;
                        self.tick()?;
                        if let Flow::Return(v) = self.run(body)? {
                            return Ok(Flow::Return(v));
                        }
                    }
                }
                Stmt::ForRange { var, lo, hi, body } => {
                    let mut i = *lo as i64;
                    while i <= *hi as i64 {
                        self.tick()?;
                        self.write(*var, i as i32)?;
                        if let Flow::Return(v) = self.run(body)? {
                            return Ok(Flow::Return(v));
                        }
                        i += 1;
                    }
                }
                Stmt::Return { value, lo, hi } => {
                    let Some(e) = value else {
                        return Ok(Flow::Return(0));
                    };
                    let v = eval_in(e, self)?;
                    if v < *lo || v > *hi {
                        return Err(EvalError::from(ErrorKind::ResultOutOfRange {
                            value: v,
                            lo: *lo,
                            hi: *hi,
                        }));
                    }
                    return Ok(Flow::Return(v));
                }
            }
        }
        Ok(Flow::Next)
    }
}

fn element(index: i32, len: u32) -> Result<u32, EvalError> {
    if index >= 0 && (index as i64) < len as i64 {
        Ok(index as u32)
    } else {
        Err(EvalError::from(ErrorKind::IndexOutOfBounds { index, len }))
    }
}

fn channel(c: &ChanRef, vars: &[i32]) -> Result<ChanId, String> {
    match &c.index {
        None => Ok(c.base),
        Some(i) => {
            let i = eval(i, vars).map_err(|e| format!("channel index: {e}"))?;
            Ok(c.base + element(i, c.len).map_err(|e| format!("channel index: {e}"))?)
        }
    }
}

fn slot(l: &LValue, vars: &[i32]) -> Result<u32, EvalError> {
    match &l.index {
        None => Ok(l.base),
        Some(i) => Ok(l.base + element(eval(i, vars)?, l.len)?),
    }
}

fn clock_holds(c: &ClockConstraint, vars: &[i32], clocks: &[Q]) -> Result<bool, String> {
    let value = |k: u32| {
        clocks
            .get(k as usize)
            .copied()
            .ok_or_else(|| format!("clock #{k} does not exist"))
    };
    let diff = value(c.i)? - value(c.j)?;
    let bound = q(eval(&c.bound, vars).map_err(|e| format!("clock bound: {e}"))?);
    Ok(if c.strict {
        diff < bound
    } else {
        diff <= bound
    })
}

fn guard_holds(guard: &Option<Expr>, vars: &[i32]) -> Result<bool, String> {
    match guard {
        None => Ok(true),
        Some(g) => Ok(eval(g, vars).map_err(|e| format!("guard: {e}"))? != 0),
    }
}

// ---------------------------------------------------------------------------
// Concrete steps.

impl Sim<'_> {
    fn initial_state(&self) -> ConcreteState {
        ConcreteState {
            locations: self.net.processes.iter().map(|p| p.initial).collect(),
            variables: self.net.variables.iter().map(|v| v.init).collect(),
            clocks: vec![Q::from_integer(0); self.net.clocks.len()],
        }
    }

    fn location(&self, p: usize, s: &ConcreteState) -> &zeno::ir::Location {
        &self.net.processes[p].locations[s.locations[p] as usize]
    }

    /// The formula a liveness check's run keeps: `p` in every state for
    /// `E[] p`, `!p` in every state for `A<> p`, and for `p --> q` a state
    /// with `p && !q` from which `!q` holds to the end. `states` are the
    /// run's instants (`Sim::instants`), delays included.
    fn run_keeps_formula(
        &self,
        kind: &zeno::ir::CheckKind,
        states: &[ConcreteState],
    ) -> Result<(), String> {
        use zeno::ir::CheckKind;
        let all = |f: &Formula, from: usize| -> Result<Option<usize>, String> {
            for (k, s) in states.iter().enumerate().skip(from) {
                if !self.formula(f, s)? {
                    return Ok(Some(k));
                }
            }
            Ok(None)
        };
        let not = |f: &Formula| Formula::Not(Box::new(f.clone()));
        match kind {
            CheckKind::Potentially(p) => match all(p, 0)? {
                Some(k) => Err(format!("state {k} of the witness leaves the formula")),
                None => Ok(()),
            },
            CheckKind::Inevitable(p) => match all(&not(p), 0)? {
                Some(k) => Err(format!(
                    "state {k} of the counterexample reaches the formula"
                )),
                None => Ok(()),
            },
            CheckKind::LeadsTo(p, q) => {
                let trigger = Formula::And(vec![p.clone(), not(q)]);
                for (k, s) in states.iter().enumerate() {
                    if self.formula(&trigger, s)? && all(&not(q), k)?.is_none() {
                        return Ok(());
                    }
                }
                Err(
                    "no state satisfies the premise and is followed by a run without the target"
                        .into(),
                )
            }
            CheckKind::Invariant(_) | CheckKind::Reachable(_) | CheckKind::Bound(_) => Ok(()),
        }
    }

    fn mentions_deadlock(f: &Formula) -> bool {
        match f {
            Formula::Deadlock => true,
            Formula::Not(g) => Self::mentions_deadlock(g),
            Formula::And(gs) | Formula::Or(gs) => gs.iter().any(Self::mentions_deadlock),
            _ => false,
        }
    }

    /// The clock constraints of a formula.
    fn clock_constraints<'f>(f: &'f Formula, out: &mut Vec<&'f ClockConstraint>) {
        match f {
            Formula::Clock(c) => out.push(c),
            Formula::Not(g) => Self::clock_constraints(g, out),
            Formula::And(gs) | Formula::Or(gs) => {
                gs.iter().for_each(|g| Self::clock_constraints(g, out))
            }
            _ => {}
        }
    }

    /// The delays from `s`, up to `d` (`None`: without end), that stand for
    /// every instant of that delay as far as the constraints `cs` go: 0, `d`,
    /// each delay at which one of them changes its value, and one delay
    /// inside each interval between those (a constraint `x - y ≺ c` changes
    /// its value at most once while time passes, when `x` or `y` is the
    /// reference clock; after the last such instant nothing changes).
    fn sample_delays(
        &self,
        cs: &[&ClockConstraint],
        s: &ConcreteState,
        d: Option<Q>,
    ) -> Result<Vec<Q>, String> {
        let mut cuts: Vec<Q> = Vec::new();
        for c in cs {
            let b = eval(&c.bound, &s.variables).map_err(|e| e.to_string())?;
            let b = Q::from_integer(b as i64);
            let t = match (c.i, c.j) {
                (i, 0) if i != 0 => b - s.clocks[i as usize],
                (0, j) if j != 0 => -b - s.clocks[j as usize],
                _ => continue,
            };
            if t > Q::from_integer(0) && d.is_none_or(|d| t < d) {
                cuts.push(t);
            }
        }
        cuts.sort();
        cuts.dedup();
        let mut out = vec![Q::from_integer(0)];
        let mut last = Q::from_integer(0);
        for t in cuts {
            out.push((last + t) / 2);
            out.push(t);
            last = t;
        }
        match d {
            Some(d) if d > last => {
                out.push((last + d) / 2);
                out.push(d);
            }
            Some(_) => {}
            None => out.push(last + 1),
        }
        Ok(out)
    }

    /// The states of a run at the instants that decide a liveness check's
    /// formulas: in each state of `states`, its delay sampled (see
    /// `Sim::sample_delays`); after a run that lets time diverge, the wait
    /// without end; after a deadlock, every delay the invariants still allow.
    fn instants(
        &self,
        kind: &zeno::ir::CheckKind,
        states: &[ConcreteState],
        trace: &Trace,
    ) -> Result<Vec<ConcreteState>, String> {
        let mut cs = Vec::new();
        for f in kind.formulas() {
            Self::clock_constraints(f, &mut cs);
        }
        // `deadlock` changes its value while time passes only where a
        // guard or an invariant (of a source or a target) does: sample at
        // all of those.
        if kind.formulas().any(Self::mentions_deadlock) {
            for p in &self.net.processes {
                cs.extend(p.locations.iter().flat_map(|l| &l.invariant));
                cs.extend(p.edges.iter().flat_map(|e| &e.clock_guard));
            }
        }
        let delays: Vec<Option<Q>> = trace
            .steps
            .iter()
            .map(|s| Some(s.delay))
            .chain(std::iter::once(match &trace.end {
                TraceEnd::TimeDiverges => None,
                end => Some(end.delay()),
            }))
            .collect();
        let mut out = Vec::new();
        for (s, d) in states.iter().zip(&delays) {
            for t in self.sample_delays(&cs, s, *d)? {
                out.push(self.delay(s, t)?);
            }
        }
        if let TraceEnd::Deadlock { delay } = &trace.end {
            let stuck = self.delay(states.last().expect("a state"), *delay)?;
            let mut bounds = cs.clone();
            for p in 0..self.net.processes.len() {
                bounds.extend(self.location(p, &stuck).invariant.iter());
            }
            for t in self.sample_delays(&bounds, &stuck, None)? {
                // Only the delays the invariants allow.
                if let Ok(later) = self.delay(&stuck, t) {
                    out.push(later);
                }
            }
        }
        Ok(out)
    }

    /// Every process's invariant holds in `s`.
    fn check_invariants(&self, s: &ConcreteState) -> Result<(), String> {
        for (p, proc_) in self.net.processes.iter().enumerate() {
            let loc = self.location(p, s);
            if let Some(d) = &loc.data_invariant
                && eval(d, &s.variables).map_err(|e| format!("invariant: {e}"))? == 0
            {
                return Err(format!(
                    "the invariant of {}.{} is violated (variables {:?})",
                    proc_.name, loc.name, s.variables
                ));
            }
            for c in &loc.invariant {
                if !clock_holds(c, &s.variables, &s.clocks)? {
                    return Err(format!(
                        "the invariant of {}.{} is violated (clocks {:?})",
                        proc_.name, loc.name, s.clocks
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether time may not pass in `s`: an urgent or committed location, a
    /// synchronisation on an urgent channel enabled by its data guards, or
    /// clock rates that two invariants set differently.
    fn urgent(&self, s: &ConcreteState) -> Result<bool, String> {
        for p in 0..self.net.processes.len() {
            if self.location(p, s).kind != LocationKind::Normal {
                return Ok(true);
            }
        }
        if self.rates_conflict(s) {
            return Ok(true);
        }
        for (p, proc_) in self.net.processes.iter().enumerate() {
            for e in &proc_.edges {
                let Some(sync) = &e.sync else { continue };
                if e.source != s.locations[p]
                    || sync.dir != SyncDir::Send
                    || !guard_holds(&e.guard, &s.variables)?
                {
                    continue;
                }
                let c = channel(&sync.channel, &s.variables)?;
                let chan = &self.net.channels[c as usize];
                if !chan.urgent {
                    continue;
                }
                if chan.kind == ChannelKind::Broadcast {
                    return Ok(true);
                }
                for (r, other) in self.net.processes.iter().enumerate() {
                    if r == p {
                        continue;
                    }
                    for e2 in &other.edges {
                        if e2.source == s.locations[r]
                            && e2
                                .sync
                                .as_ref()
                                .is_some_and(|s2| s2.dir == SyncDir::Receive)
                            && guard_holds(&e2.guard, &s.variables)?
                            && channel(&e2.sync.as_ref().unwrap().channel, &s.variables)? == c
                        {
                            return Ok(true);
                        }
                    }
                }
            }
        }
        Ok(false)
    }

    /// Lets `d` time units pass.
    fn delay(&self, s: &ConcreteState, d: Q) -> Result<ConcreteState, String> {
        if d < Q::from_integer(0) {
            return Err(format!("negative delay {d}"));
        }
        if d > Q::from_integer(0) && self.urgent(s)? {
            return Err(format!(
                "delay {d} where time may not pass (urgent or committed location, or an enabled urgent channel)"
            ));
        }
        // Invariants are conjunctions of difference constraints, so the set of
        // delays satisfying them is convex: the two ends suffice.
        self.check_invariants(s)
            .map_err(|e| format!("before the delay: {e}"))?;
        // Stopped clocks (stopwatches) keep their values.
        let moves = self.moving(s);
        let mut t = s.clone();
        for (x, m) in t.clocks.iter_mut().zip(&moves) {
            if *m {
                *x += d;
            }
        }
        self.check_invariants(&t)
            .map_err(|e| format!("after the delay {d}: {e}"))?;
        Ok(t)
    }

    /// Takes `tr` in `s` (already delayed), ignoring priorities (see
    /// `fire`). The outer error is a violation of the semantics; the inner
    /// one a run-time error of the model's updates.
    fn fire_unprioritised(
        &self,
        s: &ConcreteState,
        tr: &Transition,
    ) -> Result<Result<ConcreteState, EvalError>, String> {
        let net = self.net;
        if tr.edges.is_empty() {
            return Err("a transition without edges".into());
        }
        // Each edge belongs to its process, leaves its current location and is enabled.
        let mut edges = Vec::new();
        for (n, &(p, e)) in tr.edges.iter().enumerate() {
            let proc_ = net
                .processes
                .get(p as usize)
                .ok_or_else(|| format!("no process #{p}"))?;
            let edge = proc_
                .edges
                .get(e as usize)
                .ok_or_else(|| format!("process {} has no edge #{e}", proc_.name))?;
            if tr.edges[..n].iter().any(|&(p2, _)| p2 == p) {
                return Err(format!("process {} takes two edges", proc_.name));
            }
            if edge.source != s.locations[p as usize] {
                return Err(format!(
                    "edge #{e} of {} leaves {}, but the process is in {}",
                    proc_.name,
                    proc_.locations[edge.source as usize].name,
                    proc_.locations[s.locations[p as usize] as usize].name
                ));
            }
            if !self.edge_enabled(p, edge, s)? {
                return Err(format!(
                    "the guard of edge #{e} of {} does not hold (variables {:?}, clocks {:?})",
                    proc_.name, s.variables, s.clocks
                ));
            }
            edges.push((p, edge));
        }

        // The synchronisation structure.
        let (sender_p, first) = edges[0];
        match &first.sync {
            None if first
                .label
                .as_deref()
                .is_some_and(|l| self.labelled(sender_p, l)) =>
            {
                self.check_vector(s, &edges)?;
            }
            None => {
                if edges.len() != 1 {
                    return Err("an edge without sync is taken together with others".into());
                }
            }
            Some(sync) if sync.dir == SyncDir::Receive => {
                return Err("the first edge receives; the sender must be listed first".into());
            }
            Some(sync) => {
                let c = channel(&sync.channel, &s.variables)?;
                let chan = &net.channels[c as usize];
                for &(p, e) in &edges[1..] {
                    let ok = e.sync.as_ref().is_some_and(|r| {
                        r.dir == SyncDir::Receive
                            && channel(&r.channel, &s.variables).ok() == Some(c)
                    });
                    if !ok {
                        return Err(format!(
                            "the edge of {} does not receive on {}",
                            net.processes[p as usize].name, chan.name
                        ));
                    }
                }
                match chan.kind {
                    ChannelKind::Binary => {
                        if edges.len() != 2 {
                            return Err(format!(
                                "a handshake on {} needs exactly one receiver, the transition has {}",
                                chan.name,
                                edges.len() - 1
                            ));
                        }
                    }
                    ChannelKind::Broadcast => {
                        let listed: Vec<ProcId> = edges[1..].iter().map(|&(p, _)| p).collect();
                        if listed.windows(2).any(|w| w[0] >= w[1]) {
                            return Err(format!(
                                "broadcast receivers are not in process order: {listed:?}"
                            ));
                        }
                        let enabled = self.enabled_receivers(sender_p, c, s)?;
                        if listed != enabled {
                            return Err(format!(
                                "broadcast on {}: the receivers taken are {listed:?}, the enabled ones {enabled:?}",
                                chan.name
                            ));
                        }
                    }
                }
            }
        }

        // Committed locations: the transition must involve a committed process.
        let committed = |p: usize| self.location(p, s).kind == LocationKind::Committed;
        if (0..net.processes.len()).any(committed)
            && !edges.iter().any(|&(p, _)| committed(p as usize))
        {
            return Err("a process is committed, but the transition involves none".into());
        }

        // Updates: sender first, then the receivers, each left to right.
        let mut t = s.clone();
        for &(p, e) in &edges {
            t.locations[p as usize] = e.target;
            for u in &e.updates {
                match u {
                    Update::Assign { target, value } => {
                        let result = slot(target, &t.variables).and_then(|k| {
                            let v = eval(value, &t.variables)?;
                            let var = &net.variables[k as usize];
                            if v < var.lo || v > var.hi {
                                return Err(EvalError::from(ErrorKind::OutOfRange {
                                    var: k,
                                    value: v,
                                    lo: var.lo,
                                    hi: var.hi,
                                }));
                            }
                            Ok((k, v))
                        });
                        match result {
                            Ok((k, v)) => t.variables[k as usize] = v,
                            Err(error) => return Ok(Err(error)),
                        }
                    }
                    Update::ResetClock { clock, value } => {
                        if *value < 0 {
                            return Err(format!("reset of clock #{clock} to {value}"));
                        }
                        t.clocks[*clock as usize] = q(*value);
                    }
                    Update::Call(c) => {
                        let mut m = Mem::new(std::mem::take(&mut t.variables));
                        let result = m.call(c);
                        t.variables = m.vars;
                        if let Err(error) = result {
                            return Ok(Err(error));
                        }
                        for (x, v) in m.resets {
                            t.clocks[x as usize] = q(v);
                        }
                    }
                }
            }
        }
        if let Some(error) = self.rate_error(&t) {
            return Ok(Err(error));
        }
        self.check_invariants(&t)
            .map_err(|e| format!("on arrival: {e}"))?;
        Ok(Ok(t))
    }

    /// The rate of a location's `x' == b` evaluated to `b` in `s`: 0 or 1,
    /// or the run-time error of the state (an evaluation error, or another
    /// value). Only where the location's data invariant holds (elsewhere the
    /// state does not exist).
    fn data_rate(&self, e: &Expr, s: &ConcreteState) -> Result<bool, EvalError> {
        match eval(e, &s.variables)? {
            0 => Ok(false),
            1 => Ok(true),
            value => Err(ErrorKind::ClockRate { value }.into()),
        }
    }

    /// The first rate error of a state, process by process.
    fn rate_error(&self, s: &ConcreteState) -> Option<EvalError> {
        for p in 0..self.net.processes.len() {
            let loc = self.location(p, s);
            if let Some(d) = &loc.data_invariant
                && eval(d, &s.variables) == Ok(0)
            {
                continue;
            }
            for (_, e) in &loc.data_rates {
                if let Err(error) = self.data_rate(e, s) {
                    return Some(error);
                }
            }
        }
        None
    }

    /// The first evaluation error of the transition's guards, sync indices
    /// and clock bounds, edge by edge, if any.
    fn guard_error(&self, s: &ConcreteState, tr: &Transition) -> Option<EvalError> {
        for &(p, e) in &tr.edges {
            let edge = self.net.processes.get(p as usize)?.edges.get(e as usize)?;
            if let Some(g) = &edge.guard
                && let Err(error) = eval(g, &s.variables)
            {
                return Some(error);
            }
            if let Some(sync) = &edge.sync
                && let Some(i) = &sync.channel.index
            {
                match eval(i, &s.variables) {
                    Err(error) => return Some(error),
                    Ok(i) => {
                        if let Err(error) = element(i, sync.channel.len) {
                            return Some(error);
                        }
                    }
                }
            }
            for c in &edge.clock_guard {
                if let Err(error) = eval(&c.bound, &s.variables) {
                    return Some(error);
                }
            }
        }
        None
    }

    fn edge_enabled(
        &self,
        _p: ProcId,
        e: &zeno::ir::Edge,
        s: &ConcreteState,
    ) -> Result<bool, String> {
        if !guard_holds(&e.guard, &s.variables)? {
            return Ok(false);
        }
        for c in &e.clock_guard {
            if !clock_holds(c, &s.variables, &s.clocks)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether some synchronisation vector names `label` for process `p`
    /// (otherwise an edge with that label moves alone).
    fn labelled(&self, p: ProcId, label: &str) -> bool {
        self.net
            .vectors
            .iter()
            .flat_map(|v| &v.participants)
            .any(|x| x.process == p && x.label == label)
    }

    /// The transition's edges must be, in order, one vector's participants:
    /// every strong one, and every weak one that has an enabled edge with
    /// its label (weak edges have no clock guards, so "enabled" is the
    /// data guard).
    fn check_vector(
        &self,
        s: &ConcreteState,
        edges: &[(ProcId, &zeno::ir::Edge)],
    ) -> Result<(), String> {
        'vectors: for v in &self.net.vectors {
            let mut k = 0;
            for part in &v.participants {
                let taken = edges.get(k).filter(|(p, _)| *p == part.process);
                match taken {
                    Some((_, e)) => {
                        if e.label.as_deref() != Some(part.label.as_str()) {
                            continue 'vectors;
                        }
                        k += 1;
                    }
                    None => {
                        if !part.weak {
                            continue 'vectors;
                        }
                        let proc_ = &self.net.processes[part.process as usize];
                        for e in &proc_.edges {
                            if e.source == s.locations[part.process as usize]
                                && e.label.as_deref() == Some(part.label.as_str())
                                && self.edge_enabled(part.process, e, s)?
                            {
                                continue 'vectors; // it had to join
                            }
                        }
                    }
                }
            }
            if k == edges.len() {
                return Ok(());
            }
        }
        let taken: Vec<String> = edges
            .iter()
            .map(|(p, e)| {
                format!(
                    "{}.{}",
                    self.net.processes[*p as usize].name,
                    e.label.as_deref().unwrap_or("-")
                )
            })
            .collect();
        Err(format!(
            "the edges {} are no synchronisation vector's participants",
            taken.join(", ")
        ))
    }

    /// Every transition of the synchronisation vectors in `s` on the data
    /// part: the product of the participants' enabled labelled edges.
    fn vector_combinations(&self, s: &ConcreteState) -> Result<Vec<Vec<(ProcId, u32)>>, String> {
        let mut all = Vec::new();
        'vectors: for v in &self.net.vectors {
            let mut combos: Vec<Vec<(ProcId, u32)>> = vec![Vec::new()];
            for part in &v.participants {
                let p = part.process as usize;
                let mut options = Vec::new();
                for (ei, e) in self.net.processes[p].edges.iter().enumerate() {
                    if e.source == s.locations[p]
                        && e.label.as_deref() == Some(part.label.as_str())
                        && guard_holds(&e.guard, &s.variables)?
                    {
                        options.push((part.process, ei as u32));
                    }
                }
                if options.is_empty() {
                    if part.weak {
                        continue;
                    }
                    continue 'vectors;
                }
                combos = combos
                    .into_iter()
                    .flat_map(|c| {
                        options.iter().map(move |&o| {
                            let mut c = c.clone();
                            c.push(o);
                            c
                        })
                    })
                    .collect();
            }
            all.extend(combos);
        }
        Ok(all)
    }

    /// The processes other than `sender` with an enabled edge receiving on `c`, in order.
    fn enabled_receivers(
        &self,
        sender: ProcId,
        c: ChanId,
        s: &ConcreteState,
    ) -> Result<Vec<ProcId>, String> {
        let mut out = Vec::new();
        for (r, proc_) in self.net.processes.iter().enumerate() {
            if r as ProcId == sender {
                continue;
            }
            for e in &proc_.edges {
                let receives = e.sync.as_ref().is_some_and(|x| x.dir == SyncDir::Receive);
                if e.source == s.locations[r]
                    && receives
                    && channel(&e.sync.as_ref().unwrap().channel, &s.variables)? == c
                    && self.edge_enabled(r as ProcId, e, s)?
                {
                    out.push(r as ProcId);
                    break;
                }
            }
        }
        Ok(out)
    }

    // -----------------------------------------------------------------------
    // Formulas.

    /// The error evaluating `f` at `s`, if any: its parts are evaluated
    /// left to right, `&&` and `||` stopping at a part on data and
    /// locations that decides (a part with clocks never stops them: the
    /// checker evaluates those on whole zones).
    fn formula_error(&self, f: &Formula, s: &ConcreteState) -> Option<EvalError> {
        fn timed(f: &Formula) -> bool {
            match f {
                Formula::Clock(_) | Formula::Deadlock => true,
                Formula::Not(g) => timed(g),
                Formula::And(gs) | Formula::Or(gs) => gs.iter().any(timed),
                _ => false,
            }
        }
        match f {
            Formula::Data(e) => eval(e, &s.variables).err(),
            Formula::Clock(c) => eval(&c.bound, &s.variables).err(),
            Formula::Not(g) => self.formula_error(g, s),
            Formula::And(gs) | Formula::Or(gs) => {
                let decides = matches!(f, Formula::Or(_));
                for g in gs {
                    if let Some(e) = self.formula_error(g, s) {
                        return Some(e);
                    }
                    if !timed(g) && self.formula(g, s).ok()? == decides {
                        return None;
                    }
                }
                None
            }
            Formula::True | Formula::False | Formula::At { .. } | Formula::Deadlock => None,
        }
    }

    fn formula(&self, f: &Formula, s: &ConcreteState) -> Result<bool, String> {
        Ok(match f {
            Formula::True => true,
            Formula::False => false,
            Formula::At { process, location } => s.locations[*process as usize] == *location,
            Formula::Data(e) => eval(e, &s.variables).map_err(|e| format!("formula: {e}"))? != 0,
            Formula::Clock(c) => clock_holds(c, &s.variables, &s.clocks)?,
            Formula::Deadlock => self.deadlocked(s)?,
            Formula::Not(g) => !self.formula(g, s)?,
            Formula::And(gs) => {
                for g in gs {
                    if !self.formula(g, s)? {
                        return Ok(false);
                    }
                }
                true
            }
            Formula::Or(gs) => {
                for g in gs {
                    if self.formula(g, s)? {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }
}

// ---------------------------------------------------------------------------
// Deadlock: exact, with intervals of delays.

/// A set of delays `d >= 0`: from `lo` to `hi` (`None` is infinity).
#[derive(Debug, Clone, Copy)]
struct Interval {
    lo: Q,
    lo_open: bool,
    hi: Option<Q>,
    hi_open: bool,
}

impl Interval {
    fn all() -> Interval {
        Interval {
            lo: Q::from_integer(0),
            lo_open: false,
            hi: None,
            hi_open: false,
        }
    }

    fn point(d: Q) -> Interval {
        Interval {
            lo: d,
            lo_open: false,
            hi: Some(d),
            hi_open: false,
        }
    }

    fn empty() -> Interval {
        Interval {
            lo: Q::from_integer(1),
            lo_open: false,
            hi: Some(Q::from_integer(0)),
            hi_open: false,
        }
    }

    fn is_empty(&self) -> bool {
        match self.hi {
            None => false,
            Some(h) => h < self.lo || (h == self.lo && (self.lo_open || self.hi_open)),
        }
    }

    fn contains(&self, d: Q) -> bool {
        let above = d > self.lo || (d == self.lo && !self.lo_open);
        let below = match self.hi {
            None => true,
            Some(h) => d < h || (d == h && !self.hi_open),
        };
        above && below
    }

    fn meet(self, o: Interval) -> Interval {
        let (lo, lo_open) = if self.lo > o.lo {
            (self.lo, self.lo_open)
        } else if o.lo > self.lo {
            (o.lo, o.lo_open)
        } else {
            (self.lo, self.lo_open || o.lo_open)
        };
        let (hi, hi_open) = match (self.hi, o.hi) {
            (None, _) => (o.hi, o.hi_open),
            (_, None) => (self.hi, self.hi_open),
            (Some(a), Some(b)) if a < b => (Some(a), self.hi_open),
            (Some(a), Some(b)) if b < a => (Some(b), o.hi_open),
            (Some(a), _) => (Some(a), self.hi_open || o.hi_open),
        };
        Interval {
            lo,
            lo_open,
            hi,
            hi_open,
        }
    }
}

/// Clock values as functions of the delay: `base[k] + d` when `moves[k]`, else `base[k]`.
struct Affine<'a> {
    base: &'a [Q],
    moves: &'a [bool],
}

impl Affine<'_> {
    /// The delays `d >= 0` at which `c` holds.
    fn interval(&self, c: &ClockConstraint, vars: &[i32]) -> Result<Interval, String> {
        let (i, j) = (c.i as usize, c.j as usize);
        if i >= self.base.len() || j >= self.base.len() {
            return Err("a clock constraint names a missing clock".into());
        }
        let bound = q(eval(&c.bound, vars).map_err(|e| format!("clock bound: {e}"))?);
        // (base_i + m_i d) - (base_j + m_j d) ~ bound  <=>  k d ~ r
        let k = self.moves[i] as i32 - self.moves[j] as i32;
        let r = bound - (self.base[i] - self.base[j]);
        let zero = Q::from_integer(0);
        Ok(match k {
            0 => {
                if zero < r || (!c.strict && zero == r) {
                    Interval::all()
                } else {
                    Interval::empty()
                }
            }
            1 => Interval::all().meet(Interval {
                lo: zero,
                lo_open: false,
                hi: Some(r),
                hi_open: c.strict,
            }),
            _ => Interval::all().meet(Interval {
                lo: -r,
                lo_open: c.strict,
                hi: None,
                hi_open: false,
            }),
        })
    }
}

impl Sim<'_> {
    /// Which clocks run in `s`: all but the reference clock and those a
    /// current location stops (`x' == 0`, a stopwatch).
    fn moving(&self, s: &ConcreteState) -> Vec<bool> {
        let mut moves: Vec<bool> = (0..s.clocks.len()).map(|k| k != 0).collect();
        for p in 0..self.net.processes.len() {
            for &x in &self.location(p, s).stopped {
                moves[x as usize] = false;
            }
            for (x, e) in &self.location(p, s).data_rates {
                if self.data_rate(e, s) == Ok(false) {
                    moves[*x as usize] = false;
                }
            }
        }
        moves
    }

    /// Whether one location stops a clock that another says runs
    /// (`x' == 1`): the invariants together then allow no delay.
    fn rates_conflict(&self, s: &ConcreteState) -> bool {
        let moves = self.moving(s);
        (0..self.net.processes.len()).any(|p| {
            let loc = self.location(p, s);
            loc.running.iter().any(|&x| !moves[x as usize])
                || loc
                    .data_rates
                    .iter()
                    .any(|(x, e)| self.data_rate(e, s) == Ok(true) && !moves[*x as usize])
        })
    }

    /// Delays allowed in `s` by urgency and the invariants.
    fn allowed_delays(&self, s: &ConcreteState) -> Result<Interval, String> {
        let moves = self.moving(s);
        let now = Affine {
            base: &s.clocks,
            moves: &moves,
        };
        let mut allowed = if self.urgent(s)? {
            Interval::point(Q::from_integer(0))
        } else {
            Interval::all()
        };
        for p in 0..self.net.processes.len() {
            for c in &self.location(p, s).invariant {
                allowed = allowed.meet(now.interval(c, &s.variables)?);
            }
        }
        Ok(allowed)
    }

    /// Whether no action transition is possible in `s`, now or after any delay.
    fn deadlocked(&self, s: &ConcreteState) -> Result<bool, String> {
        let allowed = self.allowed_delays(s)?;
        if allowed.is_empty() {
            return Ok(true);
        }
        let net = self.net;
        let moves = self.moving(s);
        let now = Affine {
            base: &s.clocks,
            moves: &moves,
        };
        let guard_interval = |e: &zeno::ir::Edge| -> Result<Interval, String> {
            let mut i = Interval::all();
            for c in &e.clock_guard {
                i = i.meet(now.interval(c, &s.variables)?);
            }
            Ok(i)
        };
        for (p, proc_) in net.processes.iter().enumerate() {
            for (ei, e) in proc_.edges.iter().enumerate() {
                if e.source != s.locations[p] || !guard_holds(&e.guard, &s.variables)? {
                    continue;
                }
                let me = (p as ProcId, ei as u32);
                match &e.sync {
                    // Only in its vectors, tried below.
                    None if e
                        .label
                        .as_deref()
                        .is_some_and(|l| self.labelled(p as ProcId, l)) => {}
                    None => {
                        if self.feasible(s, &[me], allowed)? {
                            return Ok(false);
                        }
                    }
                    Some(sync) if sync.dir == SyncDir::Receive => {}
                    Some(sync) => {
                        let c = channel(&sync.channel, &s.variables)?;
                        // Candidate partners: receiving edges on `c` of other
                        // processes whose data guard holds, with the delays
                        // at which their clock guards hold.
                        let mut partners: Vec<(ProcId, u32, Interval)> = Vec::new();
                        for (r, other) in net.processes.iter().enumerate() {
                            if r == p {
                                continue;
                            }
                            for (ri, re) in other.edges.iter().enumerate() {
                                let Some(rs) = &re.sync else { continue };
                                if re.source == s.locations[r]
                                    && rs.dir == SyncDir::Receive
                                    && guard_holds(&re.guard, &s.variables)?
                                    && channel(&rs.channel, &s.variables)? == c
                                {
                                    partners.push((r as ProcId, ri as u32, guard_interval(re)?));
                                }
                            }
                        }
                        if net.channels[c as usize].kind == ChannelKind::Binary {
                            for &(r, ri, _) in &partners {
                                if self.feasible(s, &[me, (r, ri)], allowed)? {
                                    return Ok(false);
                                }
                            }
                        } else if self.broadcast_feasible(s, me, &partners, allowed)? {
                            return Ok(false);
                        }
                    }
                }
            }
        }
        for combo in self.vector_combinations(s)? {
            if self.feasible(s, &combo, allowed)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// A broadcast's receivers change with the delay: split the delays at the
    /// ends of the receivers' guard intervals; on each piece the set of
    /// enabled receivers is fixed.
    fn broadcast_feasible(
        &self,
        s: &ConcreteState,
        sender: (ProcId, u32),
        partners: &[(ProcId, u32, Interval)],
        allowed: Interval,
    ) -> Result<bool, String> {
        let mut points = vec![Q::from_integer(0)];
        for (_, _, i) in partners {
            points.push(i.lo);
            points.extend(i.hi);
        }
        points.sort();
        points.dedup();
        let mut pieces: Vec<(Interval, Q)> = Vec::new();
        for (n, &a) in points.iter().enumerate() {
            pieces.push((Interval::point(a), a));
            let (hi, rep) = match points.get(n + 1) {
                Some(&b) => (Some(b), (a + b) / Q::from_integer(2)),
                None => (None, a + Q::from_integer(1)),
            };
            let open = Interval {
                lo: a,
                lo_open: true,
                hi,
                hi_open: true,
            };
            pieces.push((open, rep));
        }
        for (piece, rep) in pieces {
            let piece = piece.meet(allowed);
            if piece.is_empty() {
                continue;
            }
            // Per receiving process, the edges enabled on this piece; each
            // process takes exactly one of them.
            let mut choices: Vec<Vec<(ProcId, u32)>> = Vec::new();
            for &(r, ri, i) in partners {
                if !i.contains(rep) {
                    continue;
                }
                match choices.last_mut() {
                    Some(last) if last[0].0 == r => last.push((r, ri)),
                    _ => choices.push(vec![(r, ri)]),
                }
            }
            let mut pick = vec![0usize; choices.len()];
            loop {
                let mut edges = vec![sender];
                edges.extend(choices.iter().zip(&pick).map(|(c, &k)| c[k]));
                if self.feasible(s, &edges, piece)? {
                    return Ok(true);
                }
                // Next combination (odometer).
                let mut k = 0;
                while k < pick.len() {
                    pick[k] += 1;
                    if pick[k] < choices[k].len() {
                        break;
                    }
                    pick[k] = 0;
                    k += 1;
                }
                if k == pick.len() {
                    break;
                }
            }
        }
        Ok(false)
    }

    /// Whether the transition `edges` (data guards already true) can be taken
    /// after some delay in `within`: clock guards, the committed rule, and the
    /// invariants on arrival. A transition whose updates fail counts as
    /// possible: it is an action (leading to a model error), not a deadlock.
    fn feasible(
        &self,
        s: &ConcreteState,
        edges: &[(ProcId, u32)],
        within: Interval,
    ) -> Result<bool, String> {
        let net = self.net;
        let committed = |p: usize| self.location(p, s).kind == LocationKind::Committed;
        if (0..net.processes.len()).any(committed)
            && !edges.iter().any(|&(p, _)| committed(p as usize))
        {
            return Ok(false);
        }
        let moves = self.moving(s);
        let now = Affine {
            base: &s.clocks,
            moves: &moves,
        };
        let mut ok = within;
        let mut vars = s.variables.clone();
        let mut locations = s.locations.clone();
        let mut base = s.clocks.clone();
        let mut post_moves = moves.clone();
        for &(p, e) in edges {
            let edge = &net.processes[p as usize].edges[e as usize];
            for c in &edge.clock_guard {
                ok = ok.meet(now.interval(c, &s.variables)?);
            }
        }
        if ok.is_empty() {
            return Ok(false);
        }
        for &(p, e) in edges {
            let edge = &net.processes[p as usize].edges[e as usize];
            locations[p as usize] = edge.target;
            for u in &edge.updates {
                match u {
                    Update::Assign { target, value } => {
                        let result = slot(target, &vars).and_then(|k| Ok((k, eval(value, &vars)?)));
                        match result {
                            Ok((k, v)) => {
                                let var = &net.variables[k as usize];
                                if v < var.lo || v > var.hi {
                                    return Ok(true);
                                }
                                vars[k as usize] = v;
                            }
                            Err(_) => return Ok(true),
                        }
                    }
                    Update::ResetClock { clock, value } => {
                        base[*clock as usize] = q(*value);
                        post_moves[*clock as usize] = false;
                    }
                    Update::Call(c) => {
                        let mut m = Mem::new(std::mem::take(&mut vars));
                        let result = m.call(c);
                        vars = m.vars;
                        if result.is_err() {
                            return Ok(true);
                        }
                        for (x, v) in m.resets {
                            base[x as usize] = q(v);
                            post_moves[x as usize] = false;
                        }
                    }
                }
            }
        }
        let after = Affine {
            base: &base,
            moves: &post_moves,
        };
        for (p, proc_) in net.processes.iter().enumerate() {
            let loc = &proc_.locations[locations[p] as usize];
            // A data invariant that fails to evaluate is a model error: the
            // transition counts as enabled, as one whose updates fail.
            if let Some(d) = &loc.data_invariant {
                match eval(d, &vars) {
                    Ok(0) => return Ok(false),
                    Ok(_) => {}
                    Err(_) => return Ok(true),
                }
            }
            // So is a rate given by data that is not 0 or 1 there.
            if loc
                .data_rates
                .iter()
                .any(|(_, e)| !matches!(eval(e, &vars), Ok(0 | 1)))
            {
                return Ok(true);
            }
            for c in &loc.invariant {
                ok = ok.meet(after.interval(c, &vars)?);
            }
        }
        Ok(!ok.is_empty())
    }
}

/// Lets `d` time units pass in `state`; an error names why the semantics
/// forbid it (for tests that drive a run step by step).
pub fn delay(network: &Network, state: &ConcreteState, d: Q) -> Result<ConcreteState, String> {
    Sim { net: network }.delay(state, d)
}

/// Takes `transition` in `state` without waiting. The outer error says why
/// the semantics forbid it; the inner one is a run-time error of its updates.
pub fn fire(
    network: &Network,
    state: &ConcreteState,
    transition: &Transition,
) -> Result<Result<ConcreteState, EvalError>, String> {
    let sim = Sim { net: network };
    if let Some(error) = sim.guard_error(state, transition) {
        return Ok(Err(error));
    }
    sim.fire(state, transition)
}
