//! Clock constraints (guards, invariants) and check formulas.

use super::*;

/// An edge whose guard or resets index a clock array by a value of the
/// state (`x[i] > 3`, `x[i] = 0`) is lowered once per value of the index:
/// each copy names the element's clock and has the data guard `i == k`
/// (the index checked against the array's length, so that an index out of
/// range is a model error, never another clock).
#[derive(Debug, Default)]
pub(super) struct ClockSplit {
    /// The values this copy gives the indices (by their printed form).
    pub pinned: Vec<(String, u32)>,
    /// The indices met that have no value yet: key, index (checked, counted
    /// from 0) and how many positions it designates.
    pub found: Vec<(String, ir::Expr, u32)>,
    /// Whether a state-dependent index is allowed where lowering is now
    /// (not once an update before it may have changed the state).
    pub allowed: bool,
}

impl Ctx {
    // ---- clocks ----

    /// `x` or `x - y` as DBM indices, without reporting anything.
    pub(super) fn clock_term(&mut self, e: &hir::Expr) -> Option<(ClockId, ClockId)> {
        match &e.kind {
            ExprKind::Name(n) => match self.peek(n, e.span) {
                Some(Sym::Clock { id }) => {
                    self.lookup(n, e.span);
                    Some((id, 0))
                }
                _ => None,
            },
            ExprKind::Field(b, f) => {
                let pid = self.find_process(b)?;
                let p = &self.procs[pid];
                match p.locals.get(&f.text) {
                    Some(&Sym::Clock { id }) => {
                        let template = p.template.clone();
                        let member = LoweredName::Member {
                            template,
                            location: false,
                        };
                        self.record_name(f.span, member);
                        Some((id, 0))
                    }
                    _ => None,
                }
            }
            ExprKind::Index(..) if self.indexes_clock_array(e) => {
                Some((self.clock_element(e).unwrap_or(UNKNOWN), 0))
            }
            ExprKind::Binary(BinaryOp::Sub, a, b) => {
                let (x, _) = self.clock_term(a)?;
                let (y, _) = self.clock_term(b)?;
                Some((x, y))
            }
            _ => None,
        }
    }

    /// Whether `e` indexes a clock array (`x[i]`, `x[i][j]`, `P.x[i]`),
    /// without reporting anything.
    pub(super) fn indexes_clock_array(&mut self, e: &hir::Expr) -> bool {
        match &e.kind {
            ExprKind::Index(a, _) => self.indexes_clock_array(a),
            ExprKind::Name(n) => matches!(self.peek(n, e.span), Some(Sym::Clocks { .. })),
            ExprKind::Field(b, f) => self.find_process(b).is_some_and(|pid| {
                matches!(
                    self.procs[pid].locals.get(&f.text),
                    Some(Sym::Clocks { .. })
                )
            }),
            _ => false,
        }
    }

    /// The clock an element of a clock array names; `None` after an
    /// error (reported). The index must be known when the model is built:
    /// a constant, a template parameter, a `select` or quantifier binding.
    /// A clock constraint names its clocks, so an index that depends on
    /// the state is rejected (located) rather than guessed.
    pub(super) fn clock_element(&mut self, e: &hir::Expr) -> Option<ClockId> {
        let p = self.place(e)?;
        if matches!(p.ty, Ty::Error) {
            return None;
        }
        if p.ty.is_aggregate() {
            self.error(
                e.span,
                format!("this is a clock array ({}): index it", p.ty.describe()),
            );
            return None;
        }
        let data::Store::Clock(base) = p.store else {
            return None;
        };
        if !p.terms.is_empty() {
            if p.is_const || p.terms.iter().any(|(_, len, _)| *len == UNKNOWN_LEN) {
                // Checked on its own: the index or the length is a
                // parameter.
                return Some(UNKNOWN);
            }
            let base = base.wrapping_add(p.offset);
            let inside = self.fns.inside_function();
            if let Some((index, extent)) = p.dynamic(true)
                && !index.has_effects()
                && !inside
                && let Some(split) = self.clock_split.as_mut()
                && split.allowed
            {
                let key = format!("{index:?}");
                if let Some((_, v)) = split.pinned.iter().find(|(k, _)| *k == key) {
                    return Some(base.wrapping_add(*v));
                }
                if !split.found.iter().any(|(k, _, _)| *k == key) {
                    split.found.push((key, index, extent));
                }
                return Some(base);
            }
            self.error(
                e.span,
                "a clock array can only be indexed by a variable in an edge's guard and in \
                 clock resets (elsewhere: by a constant, a template parameter, a `select` or \
                 quantifier binding)",
            );
            return None;
        }
        Some(base.wrapping_add(p.offset))
    }

    /// The process `P1` or `Proc(1)` names, without reporting anything.
    pub(super) fn find_process(&mut self, base: &hir::Expr) -> Option<usize> {
        match &base.kind {
            ExprKind::Name(p) => self.denoted_process(base.span, p, None),
            ExprKind::Call(t, args) => {
                let reported = self.diags.len();
                let vals: Vec<Option<i64>> = args.iter().map(|a| self.const_eval(a)).collect();
                self.diags.truncate(reported);
                let vals: Vec<i64> = vals.into_iter().collect::<Option<_>>()?;
                self.denoted_process(t.span, &t.text, Some(&vals))
            }
            _ => None,
        }
    }

    /// What `name`, written at `at`, stands for, without marking it used:
    /// the question lowering asks before it knows whether it will use the
    /// name (is it a clock? a typedef? a function returning a record?).
    /// `at` is where the resolver records the name, so the answer can come
    /// from it (`Resolutions::def_of`) once lowering's scopes go.
    pub(super) fn peek(&self, name: &str, _at: Span) -> Option<Sym> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.map.get(name).map(|e| e.sym.clone()))
    }

    /// Lowers `term ~ bound` or `bound ~ term`; `None` when `e` is not a
    /// clock comparison.
    pub(super) fn clock_cmp(&mut self, e: &hir::Expr) -> Option<Vec<ClockConstraint>> {
        let ExprKind::Binary(op, a, b) = &e.kind else {
            return None;
        };
        if !op.is_comparison() {
            return None;
        }
        // Two clocks compared, `x <= y` (as UPPAAL reads it): `x - y <= 0`.
        if let (Some((x, 0)), Some((y, 0))) = (self.clock_term(a), self.clock_term(b)) {
            return Some(self.clock_bound(e, (x, y), *op, ir::Expr::Const(0)));
        }
        let (term, bound, op) = if let Some(t) = self.clock_term(a) {
            (t, b, *op)
        } else if let Some(t) = self.clock_term(b) {
            (t, a, flip(*op))
        } else {
            return self.scaled_clock_cmp(e, *op, a, b);
        };
        let bound_span = bound.span;
        let bound = self.data(bound).expr;
        let Some(bound) = self.scale_time(bound, bound_span) else {
            return Some(vec![]);
        };
        if let ir::Expr::Const(v) = bound {
            self.warn_beyond_zone(bound_span, v);
        }
        Some(self.clock_bound(e, term, op, bound))
    }

    /// `k * x ~ c` or `c ~ x * k` (UPPAAL models write `2 >= 5*xabs`), `x`
    /// a clock or a difference of two, `k` and `c` constants: the bound of
    /// `x` is `c / k`. A zone holds integer bounds only, so where `c / k`
    /// is no integer in the time unit in force, its denominator is noted
    /// ([`Ctx::needed_scale`]) and the network is lowered again with the
    /// time unit refined (`system.rs`). `None` when `e` compares no scaled
    /// clock.
    fn scaled_clock_cmp(
        &mut self,
        e: &hir::Expr,
        op: BinaryOp,
        a: &hir::Expr,
        b: &hir::Expr,
    ) -> Option<Vec<ClockConstraint>> {
        let (term, factor, bound, op) = if let Some((t, k)) = self.scaled_clock_term(a) {
            (t, k, b, op)
        } else if let Some((t, k)) = self.scaled_clock_term(b) {
            (t, k, a, flip(op))
        } else {
            return None;
        };
        if self.mentions_clock(bound) {
            self.error(
                e.span,
                "a clock multiplied by a constant can only be compared with a constant",
            );
            return Some(vec![]);
        }
        let (Some(k), Some(c)) = (self.scale_constant(factor), self.scale_constant(bound)) else {
            // Reported, or a template parameter while the template is
            // checked on its own (the instances are checked when lowered).
            return Some(vec![]);
        };
        // `k*x ~ c` with `k < 0` is `|k|*x ~' -c`, `~'` the flipped `~`.
        let (k, c, op) = if k < 0 {
            (-k, -c, flip(op))
        } else {
            (k, c, op)
        };
        if k == 0 {
            self.error(
                e.span,
                "a clock multiplied by 0 compares no clock: write the comparison without it",
            );
            return Some(vec![]);
        }
        // `k` and `c` are `i32` values, the scale at most `MAX_TIME_SCALE`:
        // no product leaves `i128`.
        let scaled = i128::from(c) * i128::from(self.time_scale);
        if scaled % i128::from(k) != 0 {
            self.note_denominator(e.span, k / gcd(c.abs(), k));
            return Some(vec![]);
        }
        let Ok(bound) = i32::try_from(scaled / i128::from(k)) else {
            self.error(
                e.span,
                format!(
                    "the clock bound {c}/{k} leaves the integers once the time unit is refined by {}",
                    self.time_scale
                ),
            );
            return Some(vec![]);
        };
        self.warn_beyond_zone(e.span, bound);
        Some(self.clock_bound(e, term, op, ir::Expr::Const(bound)))
    }

    /// Notes that the time unit must be refined by `denominator` (with
    /// every other one met: their lcm); an error located at `span` when
    /// the refinement would exceed [`MAX_TIME_SCALE`].
    fn note_denominator(&mut self, span: Span, denominator: i64) {
        let g = gcd(self.needed_scale, denominator);
        match (self.needed_scale / g).checked_mul(denominator) {
            Some(l) if l <= MAX_TIME_SCALE => self.needed_scale = l,
            _ => self.error(
                span,
                format!(
                    "this bound needs the time unit refined by {denominator}, and with the \
                     model's other clock quotients by more than {MAX_TIME_SCALE}: multiply \
                     the model's time constants instead"
                ),
            ),
        }
    }

    /// A clock bound or reset value of the text in the time unit in force
    /// (multiplied by [`Ctx::time_scale`]); `None` after an error located at
    /// `span` (a constant that leaves the integers; a value computed at run
    /// time is multiplied then, with its overflow a model error).
    pub(super) fn scale_time(&mut self, value: ir::Expr, span: Span) -> Option<ir::Expr> {
        if self.time_scale == 1 {
            return Some(value);
        }
        match value {
            ir::Expr::Const(v) => match i32::try_from(i64::from(v) * self.time_scale) {
                Ok(v) => Some(ir::Expr::Const(v)),
                Err(_) => {
                    self.error(
                        span,
                        format!(
                            "{v} leaves the integers once the time unit is refined by {}",
                            self.time_scale
                        ),
                    );
                    None
                }
            },
            // `time_scale <= MAX_TIME_SCALE` fits an `i32`.
            other => Some(ty::binary(
                BinOp::Mul,
                ir::Expr::Const(self.time_scale as i32),
                other,
            )),
        }
    }

    /// Warns about a constant clock bound beyond what a zone holds.
    fn warn_beyond_zone(&mut self, span: Span, v: i32) {
        if v.unsigned_abs() > zeno_ir::MAX_CLOCK_CONSTANT as u32 {
            let refined = if self.time_scale > 1 {
                format!(" (in the time unit refined by {})", self.time_scale)
            } else {
                String::new()
            };
            self.warning(
                span,
                format!(
                    "clock constant {v}{refined} is beyond ±{}, more than a zone holds: checks of this model end `unknown`",
                    zeno_ir::MAX_CLOCK_CONSTANT
                ),
            );
        }
    }

    /// `k * t` or `t * k` with `t` a clock term and `k` naming no clock.
    fn scaled_clock_term<'e>(
        &mut self,
        e: &'e hir::Expr,
    ) -> Option<((ClockId, ClockId), &'e hir::Expr)> {
        let ExprKind::Binary(BinaryOp::Mul, a, b) = &e.kind else {
            return None;
        };
        if let Some(t) = self.clock_term(a)
            && !self.mentions_clock(b)
        {
            return Some((t, b));
        }
        if let Some(t) = self.clock_term(b)
            && !self.mentions_clock(a)
        {
            return Some((t, a));
        }
        None
    }

    /// The value of a scale factor or of the bound it is compared with:
    /// a constant; `None` when it is not one (reported) or while a template
    /// is checked on its own and it names a parameter.
    fn scale_constant(&mut self, e: &hir::Expr) -> Option<i64> {
        let t = self.data(e);
        match (t.ty, t.expr) {
            (Ty::Error, _) => None,
            (_, ir::Expr::Const(v)) if t.is_const => Some(i64::from(v)),
            _ if t.is_const && self.mode == Mode::Check => None,
            _ => {
                self.error(
                    e.span,
                    "a clock multiplied by a constant is compared with constants only \
                     (its bound is divided by the factor when the model is built)",
                );
                None
            }
        }
    }

    /// The constraints of `term op bound`, `term` a clock or a difference
    /// of two.
    fn clock_bound(
        &mut self,
        e: &hir::Expr,
        term: (ClockId, ClockId),
        op: BinaryOp,
        bound: ir::Expr,
    ) -> Vec<ClockConstraint> {
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
        match op {
            BinaryOp::Lt => vec![upper(true)],
            BinaryOp::Le => vec![upper(false)],
            BinaryOp::Gt => vec![lower(true)],
            BinaryOp::Ge => vec![lower(false)],
            BinaryOp::Eq => vec![upper(false), lower(false)],
            _ => {
                self.error(e.span, "clocks cannot be compared with `!=`");
                vec![]
            }
        }
    }

    /// Splits a conjunction into its data part and clock constraints. An
    /// invariant may bound clocks from below too (UPPAAL 5 reads `x >= 3`
    /// there as a clock invariant): the valuations below do not exist in
    /// the location, like those above an upper bound.
    pub(super) fn conjunction(
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
        // `forall (i : T) x[i] <= 5`: a conjunction too, one part per value
        // of `T` (UPPAAL reads it so in invariants and guards).
        if let ExprKind::Quant(QuantKind::Forall, name, tyref, body) = &e.kind
            && self.forall_mentions_clock(body)
        {
            let Some(values) = self.quant_values(name, tyref) else {
                return;
            };
            for v in values {
                self.push_scope();
                self.bind_value(name, v, tyref);
                self.conjunction(body, ctx, data, clocks);
                self.pop_scope(false);
            }
            return;
        }
        if self.clock_rate(e, ctx) {
            return;
        }
        if let Some(mut cs) = self.clock_cmp(e) {
            if ctx == ClockCtx::Invariant {
                // `x >= 0` (UPPAAL models write it) holds for every clock
                // value: nothing to keep.
                cs.retain(|c| !always_true(c));
            }
            clocks.extend(cs);
            return;
        }
        // A condition on data (UPPAAL: "boolean expressions not involving
        // clocks"), in guards and invariants alike: it holds or not in a
        // discrete state, whatever the clocks.
        let t = self.data(e);
        match t.expr {
            ir::Expr::Const(v) if v != 0 => {}
            expr => data.push(expr),
        }
    }

    /// Whether the body of a `forall`, or of the `forall`s nested in it,
    /// names a clock.
    fn forall_mentions_clock(&self, body: &hir::Expr) -> bool {
        match &body.kind {
            ExprKind::Quant(QuantKind::Forall, _, _, inner) => self.forall_mentions_clock(inner),
            _ => self.mentions_clock(body),
        }
    }

    // ---- formulas ----

    /// An expression of a `sup`/`inf` query: a clock, or an integer
    /// expression (UPPAAL: "must evaluate to either an integer or a
    /// clock"); `None` after a reported error.
    pub fn bound_term(&mut self, e: &hir::Expr) -> Option<ir::BoundTerm> {
        let value = match self.clock_term(e) {
            Some((x, 0)) if x != UNKNOWN => ir::BoundValue::Clock(x),
            Some(_) => {
                self.error(
                    e.span,
                    "`sup` and `inf` take a clock or an integer expression, not a difference of clocks",
                );
                return None;
            }
            None if self.mentions_clock(e) => {
                self.error(
                    e.span,
                    "`sup` and `inf` take a clock or an integer expression, not a clock constraint \
                     or an expression over clocks",
                );
                return None;
            }
            None => {
                let t = self.data(e);
                match t.ty {
                    Ty::Error => return None,
                    Ty::Int { .. } => ir::BoundValue::Data(t.expr),
                    other => {
                        self.error(
                            e.span,
                            format!(
                                "`sup` and `inf` take a clock or an integer expression, not {}",
                                other.describe()
                            ),
                        );
                        return None;
                    }
                }
            }
        };
        Some(ir::BoundTerm {
            span: self.abs(e.span),
            value,
        })
    }

    /// Lowers a check formula (`A[]`, `E<>` … operand) to an [`ir::Formula`].
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
                    self.bind_value(name, v, tyref);
                    parts.push(self.formula(body));
                    self.pop_scope(false);
                }
                if *kind == QuantKind::Forall {
                    F::And(parts)
                } else {
                    F::Or(parts)
                }
            }
            ExprKind::Field(base, field) if !self.is_record_base(base) => {
                match self.resolve_field(base, field) {
                    FieldRes::Location(process, location) => F::At { process, location },
                    FieldRes::Sym(sym) => F::Data(self.sym_value(sym, &field.text, e.span).expr),
                    FieldRes::Error => F::False,
                }
            }
            _ => {
                if let ExprKind::Binary(op, a, b) = &e.kind
                    && op.is_comparison()
                    && let Some(f) = self.location_count_cmp(*op, a, b, e.span)
                {
                    return f;
                }
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
}

/// The greatest refinement of the time unit lowering makes: `2/5` and
/// `1/3` refine it by 15, and a zone's bounds stay within
/// [`zeno_ir::MAX_CLOCK_CONSTANT`] only for small refinements anyway.
pub const MAX_TIME_SCALE: i64 = 1_000_000;

/// The greatest common divisor of two non-negative numbers (`gcd(0, k)`
/// is `k`).
fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The comparison with its operands swapped: `a < b` is `b > a`.
fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        o => o,
    }
}

/// Whether a clock constraint holds for every clock value: a lower bound
/// `0 - x <= b` with a constant `b >= 0` (`x >= 0`, `x > -1`), or `< b`
/// with `b > 0`. Clocks are never negative.
fn always_true(c: &ClockConstraint) -> bool {
    c.i == 0 && c.j != 0 && matches!(c.bound, ir::Expr::Const(b) if b > 0 || b == 0 && !c.strict)
}
