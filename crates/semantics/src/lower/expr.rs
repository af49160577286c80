//! Data expressions, and names of processes in checks.

use super::*;

impl Ctx {
    // ---- data expressions ----

    pub(super) fn data(&mut self, e: &hir::Expr) -> Typed {
        match &e.kind {
            ExprKind::Missing => Typed::error(),
            ExprKind::Int(v) => match i32::try_from(*v) {
                Ok(v) => Typed {
                    expr: ir::Expr::Const(v),
                    ty: Ty::int(),
                    is_const: true,
                },
                Err(_) => {
                    // `i64::MAX` also stands for a literal too long for
                    // i64 (from_ast), whose value is not known: the snippet
                    // shows it as written.
                    let what = if *v == i64::MAX {
                        "this integer literal".to_string()
                    } else {
                        format!("the integer {v}")
                    };
                    let (lo, hi) = (i32::MIN, i32::MAX);
                    self.error(
                        e.span,
                        format!("{what} is too large: integers are in [{lo}, {hi}]"),
                    );
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
            ExprKind::Field(base, _) if self.is_record_base(base) => {
                self.with_results(e.span, |this| match this.place(e) {
                    Some(p) => this.read(p, e.span),
                    None => Typed::error(),
                })
            }
            ExprKind::Field(base, field) => match self.resolve_field(base, field) {
                FieldRes::Sym(sym) => self.sym_value(sym, &field.text, e.span),
                FieldRes::Location(..) => {
                    self.error(e.span, "a location test is not a value here");
                    Typed::error()
                }
                FieldRes::Error => Typed::error(),
            },
            ExprKind::Index(..) => self.with_results(e.span, |this| match this.place(e) {
                Some(p) => this.read(p, e.span),
                None => Typed::error(),
            }),
            ExprKind::List(_) => {
                self.error(
                    e.span,
                    "a list `{ … }` can only be the initial value of an array or a record",
                );
                Typed::error()
            }
            ExprKind::Call(name, args) => match self.peek(&name.text, name.span) {
                Some(Sym::Function(_)) => self.call(name, args, e.span),
                other => {
                    self.fns.call_statement = false;
                    let message = match other {
                        None => format!("unknown function `{}`", name.text),
                        Some(sym) => {
                            format!("`{}` is a {}, not a function", name.text, sym.kind_name())
                        }
                    };
                    self.error(name.span, message);
                    Typed::error()
                }
            },
            ExprKind::ProcessCall(process, function, args) => {
                self.process_call(process, function, args, e.span)
            }
            // The least 32-bit integer, written as in C (and UPPAAL): its
            // magnitude alone is out of range.
            ExprKind::Unary(UnaryOp::Neg, a) if matches!(a.kind, ExprKind::Int(v) if v == 1 << 31) => {
                Typed {
                    expr: ir::Expr::Const(i32::MIN),
                    ty: Ty::int(),
                    is_const: true,
                }
            }
            ExprKind::Unary(op, a) => {
                let a = self.data(a);
                let (op, ty) = match op {
                    UnaryOp::Plus => return a,
                    UnaryOp::Neg => (UnOp::Neg, Ty::int()),
                    UnaryOp::Not => (UnOp::Not, Ty::Bool),
                    UnaryOp::BitNot => (UnOp::BitNot, Ty::int()),
                };
                let expr = ty::unary(op, a.expr);
                self.report_overflow(&expr, e.span);
                Typed {
                    expr,
                    ty,
                    is_const: a.is_const,
                }
            }
            ExprKind::Binary(op, a, b)
                if op.is_comparison()
                    && (self.is_aggregate_quiet(a) || self.is_aggregate_quiet(b)) =>
            {
                self.with_results(e.span, |this| this.aggregate_equality(*op, a, b, e.span))
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.data(a);
                // The right operand of `&&` and `||` may not run at all.
                let b = if matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Imply) {
                    let (b, effects) = self.lazy_operand(b);
                    if !effects.is_empty() {
                        return self.short_circuit_with_effects(*op, a, b, effects);
                    }
                    b
                } else {
                    self.data(b)
                };
                let is_const = a.is_const && b.is_const;
                let (expr, ty) = match op {
                    BinaryOp::Imply => (
                        ty::binary(BinOp::Or, ty::unary(UnOp::Not, a.expr), b.expr),
                        Ty::Bool,
                    ),
                    _ => {
                        let bop = *op;
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
                self.report_overflow(&expr, e.span);
                Typed { expr, ty, is_const }
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.data(c);
                let (a, a_effects) = self.lazy_operand(a);
                let (b, b_effects) = self.lazy_operand(b);
                if !a_effects.is_empty() || !b_effects.is_empty() {
                    return self.cond_with_effects(c, (a, a_effects), (b, b_effects));
                }
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
            ExprKind::Assign(..) | ExprKind::Incr(..) if self.fns.pre.is_some() => {
                self.nested_assignment(e).unwrap_or_else(Typed::error)
            }
            ExprKind::Assign(..) | ExprKind::Incr(..) => {
                self.error(
                    e.span,
                    "an assignment is not allowed here: assignments belong in `do` clauses",
                );
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
                    self.bind_value(name, v, tyref);
                    let t = self.data(body);
                    self.pop_scope(false);
                    is_const &= t.is_const;
                    acc = ty::binary(op, acc, t.expr);
                    self.report_overflow(&acc, e.span);
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
            ExprKind::Rate(_) => {
                self.error(
                    e.span,
                    "a clock rate `x'` can only be set as `x' == 0` or `x' == 1`, a conjunct of a location's invariant",
                );
                Typed::error()
            }
        }
    }

    /// Reports an operation on two constants that did not fold: its value
    /// does not fit in 32 bits (or the shift amount is out of range), and
    /// evaluating it at run time would fail on every path, so it is an error
    /// here rather than a silently wrong constant. Division by a constant
    /// zero is reported where the division is lowered.
    fn report_overflow(&mut self, expr: &ir::Expr, span: Span) {
        let message = match expr {
            ir::Expr::Binary(op, a, b) => match (&**a, &**b) {
                (ir::Expr::Const(x), ir::Expr::Const(y)) => match ir::apply_binary(*op, *x, *y) {
                    Err(ir::ErrorKind::Overflow) => overflow_message(*op, *x, *y),
                    Err(ir::ErrorKind::NegativeExponent { exponent }) => {
                        format!("negative exponent {exponent} in `**`: the value is not an integer")
                    }
                    _ => return,
                },
                _ => return,
            },
            ir::Expr::Unary(UnOp::Neg, a) => match &**a {
                ir::Expr::Const(x) if x.checked_neg().is_none() => {
                    format!("integer overflow: -({x}) = {} {OUTSIDE_I32}", -(*x as i64))
                }
                _ => return,
            },
            _ => return,
        };
        self.error(span, message);
    }

    pub(super) fn sym_value(&mut self, sym: Sym, name: &str, span: Span) -> Typed {
        match sym {
            Sym::Const { value, ty } => Typed {
                expr: match value {
                    Some(v) => ir::Expr::Const(clamp32(v)),
                    None => ir::Expr::Var(UNKNOWN),
                },
                ty,
                is_const: true,
            },
            Sym::Var { ty, .. } | Sym::ConstData { ty, .. } if ty.is_aggregate() => {
                let msg = match ty {
                    Ty::Record(_) => format!(
                        "`{name}` is a record: use one of its fields, or compare or assign it whole"
                    ),
                    _ => format!("`{name}` is an array: index it"),
                };
                self.error(span, msg);
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

    /// The values a bound variable ranges over; `[None]` in check mode.
    pub(super) fn quant_values(
        &mut self,
        name: &hir::Name,
        tyref: &TypeRef,
    ) -> Option<Vec<Option<i64>>> {
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

    pub(super) fn bind_value(&mut self, name: &hir::Name, value: Option<i64>, tyref: &TypeRef) {
        let ty = match tyref {
            TypeRef::Bool { .. } => Ty::Bool,
            _ => Ty::int(),
        };
        self.bind_at(&name.text, name.span, Sym::Const { value, ty });
    }

    // ---- process references in checks and synchronisation vectors ----

    /// `P1` or `Proc(1)`: the index of the process, or a reported error.
    pub fn resolve_process(&mut self, base: &hir::Expr) -> Option<usize> {
        match &base.kind {
            ExprKind::Name(p) => {
                let found = self.denoted_process(base.span, p, None);
                if found.is_none() {
                    self.error(base.span, format!("unknown process `{p}`"));
                }
                found
            }
            ExprKind::Call(t, args) => {
                let vals: Option<Vec<i64>> = args.iter().map(|a| self.const_eval(a)).collect();
                let vals = vals?;
                let found = self.denoted_process(t.span, &t.text, Some(&vals));
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
    }

    /// The process that `text`, written at `at`, names: `P1` (`args`
    /// `None`) or, with the argument values, `Proc(1)`. The resolver says
    /// which instance or template the name denotes (instances first, as in
    /// the `system` line); the process is the one placed from that
    /// definition, with those values. Outside the network's checks and
    /// vectors no file resolutions are at hand, and no name is a process.
    pub(super) fn denoted_process(
        &self,
        at: Span,
        text: &str,
        args: Option<&[i64]>,
    ) -> Option<usize> {
        let def = self.resolved.as_ref()?.def_of(self.abs(at), text)?;
        if !matches!(def.kind, DefKind::Instance | DefKind::Template) {
            return None;
        }
        self.procs.iter().position(|pi| {
            pi.defined_by == def.span
                && match args {
                    None => !pi.name.contains('('),
                    Some(values) => pi.name.contains('(') && pi.args == values,
                }
        })
    }

    pub(super) fn resolve_field(&mut self, base: &hir::Expr, field: &hir::Name) -> FieldRes {
        self.resolve_process(base).map_or(FieldRes::Error, |pid| {
            let p = &self.procs[pid];
            let template = p.template.clone();
            let member = |location| LoweredName::Member { template, location };
            let (location, local) = (p.locations.get(&field.text), p.locals.get(&field.text));
            let found = match (location, local) {
                (Some(&l), _) => Some((true, FieldRes::Location(pid as ir::ProcId, l))),
                (None, Some(s)) => Some((false, FieldRes::Sym(s.clone()))),
                (None, None) => None,
            };
            if let Some((is_location, res)) = found {
                self.record_name(field.span, member(is_location));
                res
            } else {
                let near = super::suggest::closest(
                    &field.text,
                    p.locations
                        .keys()
                        .chain(p.locals.keys())
                        .map(String::as_str),
                );
                let msg = format!(
                    "process `{}` has no location or variable `{}`{}",
                    p.name,
                    field.text,
                    super::suggest::did_you_mean(near)
                );
                self.error(field.span, msg);
                FieldRes::Error
            }
        })
    }
}

const OUTSIDE_I32: &str = "is outside the 32-bit integers [-2147483648, 2147483647]";

/// Why `a op b` overflowed, with the exact value where there is one.
fn overflow_message(op: BinOp, a: i32, b: i32) -> String {
    let (x, y) = (a as i128, b as i128);
    let exact = match op {
        BinOp::Add => Some(x + y),
        BinOp::Sub => Some(x - y),
        BinOp::Mul => Some(x * y),
        BinOp::Div => Some(x / y),
        BinOp::Mod => {
            return format!("integer overflow: {a} % {b} is undefined in 32-bit integers");
        }
        BinOp::Shl if (0..32).contains(&b) => Some(x << b),
        // Past i128 too: no exact value to show.
        BinOp::Pow => x.checked_pow(b as u32),
        BinOp::Shl | BinOp::Shr => {
            return format!("shift by {b}: the amount must be between 0 and 31");
        }
        _ => None,
    };
    let sym = zeno_ir::print::binop_text(op, zeno_ir::print::Style::ZENO);
    match exact {
        Some(v) => format!("integer overflow: {a} {sym} {b} = {v} {OUTSIDE_I32}"),
        None => "integer overflow".to_string(),
    }
}
