//! Evaluation of the goal formula on a symbolic state: the part of the zone
//! where it holds, as a union of zones (clock constraints, negation and
//! `deadlock` cut zones into pieces).

use zeno_ir::{EvalError, Formula};

use super::dbm::{self, Dbm, bound};
use super::semantics::{Model, TransitionBuf};

pub struct Goal {
    pub formula: Formula,
    /// Whether the formula mentions clocks or `deadlock` (else it is decided on
    /// the discrete part alone).
    symbolic: bool,
}

pub(super) fn is_symbolic(f: &Formula) -> bool {
    match f {
        Formula::Clock(_) | Formula::Deadlock => true,
        Formula::Not(g) => is_symbolic(g),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().any(is_symbolic),
        _ => false,
    }
}

impl Goal {
    pub fn new(formula: Formula) -> Goal {
        Goal {
            symbolic: is_symbolic(&formula),
            formula,
        }
    }

    /// The pieces of `zone` satisfying the goal (empty when none). Where the
    /// formula cannot be evaluated (an index out of range, a division by
    /// zero), the whole zone: the search stops at the state, and
    /// [`Goal::error`] turns the verdict into that model error.
    pub fn satisfied(
        &self,
        model: &Model,
        key: &[i32],
        zone: &Dbm,
        buf: &mut TransitionBuf,
    ) -> Vec<Dbm> {
        match self.pieces(model, key, zone, buf) {
            Ok(pieces) => pieces,
            Err(_) => vec![zone.clone()],
        }
    }

    /// The error evaluating the goal at this state, if there is one. A check
    /// whose formula is undefined in a reachable state has no verdict: the
    /// state is reported as a model error, never read as `false`.
    pub fn error(
        &self,
        model: &Model,
        key: &[i32],
        zone: &Dbm,
        buf: &mut TransitionBuf,
    ) -> Option<EvalError> {
        self.pieces(model, key, zone, buf).err()
    }

    fn pieces(
        &self,
        model: &Model,
        key: &[i32],
        zone: &Dbm,
        buf: &mut TransitionBuf,
    ) -> Result<Vec<Dbm>, EvalError> {
        if !self.symbolic {
            return Ok(if discrete(model, &self.formula, key)? {
                vec![zone.clone()]
            } else {
                Vec::new()
            });
        }
        symbolic(model, &self.formula, key, zone, buf)
    }
}

/// Data and location parts, evaluated left to right and lazily (`&&` and
/// `||` stop at the first part that decides), as UPPAAL evaluates them: an
/// error in a part that is evaluated is the formula's error.
pub(super) fn discrete(model: &Model, f: &Formula, key: &[i32]) -> Result<bool, EvalError> {
    Ok(match f {
        Formula::True => true,
        Formula::False => false,
        Formula::At { process, location } => {
            key.get(*process as usize) == Some(&(*location as i32))
        }
        Formula::Data(e) => e.eval(model.vars(key))? != 0,
        Formula::Clock(_) | Formula::Deadlock => true,
        Formula::Not(g) => !discrete(model, g, key)?,
        Formula::And(gs) => {
            for g in gs {
                if !discrete(model, g, key)? {
                    return Ok(false);
                }
            }
            true
        }
        Formula::Or(gs) => {
            for g in gs {
                if discrete(model, g, key)? {
                    return Ok(true);
                }
            }
            false
        }
    })
}

pub(super) fn symbolic(
    model: &Model,
    f: &Formula,
    key: &[i32],
    zone: &Dbm,
    buf: &mut TransitionBuf,
) -> Result<Vec<Dbm>, EvalError> {
    let whole = |b: bool| if b { vec![zone.clone()] } else { Vec::new() };
    Ok(match f {
        Formula::True | Formula::False | Formula::At { .. } | Formula::Data(_) => {
            whole(discrete(model, f, key)?)
        }
        Formula::Clock(c) => {
            let mut z = zone.clone();
            let b = c.bound.eval(model.vars(key))?;
            if z.constrain(c.i as usize, c.j as usize, bound::raw(b, c.strict)) {
                vec![z]
            } else {
                Vec::new()
            }
        }
        Formula::Deadlock => deadlocked(model, key, zone, buf),
        Formula::Not(g) => {
            let mut rest = vec![zone.clone()];
            for hole in symbolic(model, g, key, zone, buf)? {
                rest = dbm::subtract_all(&rest, &hole);
                if rest.is_empty() {
                    break;
                }
            }
            rest
        }
        // A part on data and locations decides alone when it can (`&&`
        // false, `||` true), and the parts after it are not evaluated; a
        // part with clocks never does (the same rule as the test
        // simulator's, which evaluates at one valuation of the zone).
        Formula::And(gs) => {
            let mut acc = vec![zone.clone()];
            for g in gs {
                if !is_symbolic(g) {
                    if !discrete(model, g, key)? {
                        return Ok(Vec::new());
                    }
                    continue;
                }
                let part = symbolic(model, g, key, zone, buf)?;
                let mut next = Vec::new();
                for a in &acc {
                    for b in &part {
                        let mut z = a.clone();
                        if z.intersect(b) {
                            next.push(z);
                        }
                    }
                }
                acc = next;
            }
            acc
        }
        Formula::Or(gs) => {
            let mut all = Vec::new();
            for g in gs {
                if !is_symbolic(g) {
                    if discrete(model, g, key)? {
                        return Ok(vec![zone.clone()]);
                    }
                    continue;
                }
                all.extend(symbolic(model, g, key, zone, buf)?);
            }
            all
        }
    })
}

/// The valuations of `zone` from which no action transition is possible now
/// or after any delay: `zone` minus, for each transition, the valuations that
/// reach its enabling set (guard, and target invariants after the resets).
pub fn deadlocked(model: &Model, key: &[i32], zone: &Dbm, buf: &mut TransitionBuf) -> Vec<Dbm> {
    if model.transitions(key, buf).is_err() {
        // The evaluation error is reported as a model error by the search.
        return Vec::new();
    }
    let can_delay = model.can_delay(key);
    let dim = model.dim;
    let mut rest = vec![zone.clone()];
    let mut new_key = Vec::new();
    for k in 0..buf.len() {
        let edges = buf.get(k);
        let mut enabled = Dbm::universe(dim);
        match model.guards(key, edges, &mut enabled) {
            Ok(false) => continue,
            Ok(true) => {
                new_key.clear();
                new_key.extend_from_slice(key);
                // The final value of each clock reset from `key` (exact,
                // also for resets inside functions).
                let mut resets: Vec<(usize, i32)> = Vec::new();
                let record = &mut |x, v| {
                    resets.retain(|r: &(usize, i32)| r.0 != x);
                    resets.push((x, v));
                };
                if model.update_with(&mut new_key, edges, record).is_ok() {
                    // Pre-image of the target invariants under the resets.
                    let mut target = Dbm::universe(dim);
                    match model.invariants(&new_key, &mut target) {
                        Ok(true) => {
                            for &(x, v) in &resets {
                                target.constrain(x, 0, bound::le(v));
                                target.constrain(0, x, bound::le(-v));
                            }
                            for &(x, _) in &resets {
                                target.free(x);
                            }
                            if !enabled.intersect(&target) {
                                continue;
                            }
                        }
                        Ok(false) => continue,
                        // Errors surface as model errors when the state is expanded.
                        Err(_) => return Vec::new(),
                    }
                } else {
                    return Vec::new();
                }
            }
            Err(_) => return Vec::new(),
        }
        // A broadcast fires with exactly the receivers enabled: the zone
        // where this choice of receivers is the enabled one.
        let mut pieces = Vec::new();
        if model
            .split_broadcast(key, edges, &enabled, &mut pieces)
            .is_err()
        {
            return Vec::new();
        }
        for mut piece in pieces {
            if can_delay {
                if !matches!(model.invariants(key, &mut piece), Ok(true)) {
                    continue;
                }
                model.down(key, &mut piece);
            }
            rest = dbm::subtract_all(&rest, &piece);
        }
        if rest.is_empty() {
            break;
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use zeno_ir::*;

    #[test]
    fn clocked_loop_never_deadlocks() {
        let cc = |i, j, b| ClockConstraint {
            i,
            j,
            strict: false,
            bound: Expr::Const(b),
        };
        let net = Network {
            clocks: vec![
                Clock {
                    name: "0".into(),
                    span: Span::default(),
                },
                Clock {
                    name: "x".into(),
                    span: Span::default(),
                },
            ],
            processes: vec![Process {
                name: "P".into(),
                template: "P".into(),
                locations: vec![Location {
                    name: "l0".into(),
                    kind: LocationKind::Normal,
                    invariant: vec![cc(1, 0, 2)],
                    data_invariant: None,
                    stopped: Vec::new(),
                    running: Vec::new(),
                    data_rates: Vec::new(),
                    span: Span::default(),
                }],
                edges: vec![Edge {
                    source: 0,
                    target: 0,
                    guard: None,
                    clock_guard: vec![cc(0, 1, -1)],
                    sync: None,
                    label: None,
                    updates: vec![Update::ResetClock { clock: 1, value: 0 }],
                    selects: vec![],
                    span: Span::default(),
                }],
                initial: 0,
                span: Span::default(),
            }],
            ..Network::default()
        };
        let mut net = net;
        net.checks.push(Check {
            name: "c".into(),
            kind: CheckKind::Invariant(Formula::Not(Box::new(Formula::Deadlock))),
            span: Span::default(),
            name_span: Span::default(),
        });
        let r = crate::check(
            &net,
            zeno_ir::CheckId::nth(0),
            &Default::default(),
            &Default::default(),
            &mut |_| {},
        );
        // Extrapolation must not invent valuations beyond the invariant x <= 2.
        assert_eq!(r.verdict, crate::Verdict::Holds);
        let f = Formula::Deadlock;
        let model = Model::new(&net, &f);
        let (key, zone) = model.initial().unwrap().unwrap();
        let mut buf = TransitionBuf::default();
        let d = deadlocked(&model, &key, &zone, &mut buf);
        assert!(d.is_empty());
    }
}
