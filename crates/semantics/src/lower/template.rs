//! Updates, synchronisations and whole templates.

use rustc_hash::FxHashMap;

use super::function::checked_assign;
use super::*;

impl Ctx {
    // ---- updates and syncs ----

    /// Lowers one update expression, appending its ir updates to `out`.
    ///
    /// An assignment's right-hand side may itself be an assignment
    /// (`i = j = 0`, `i = ++j`, as UPPAAL allows): the inner one runs first
    /// and the outer one assigns the inner target's new value. That is the
    /// C value of an assignment expression, and it keeps every ir update a
    /// plain `target = value`.
    ///
    /// A call (`do enqueue(id)`) runs the function for its effects, and then
    /// its clock resets. An assignment whose value calls a function with
    /// effects (`i = pop()`) runs as one call too: the checker evaluates
    /// plain assignments on the state before them, read-only.
    pub(super) fn update(&mut self, e: &hir::Expr, out: &mut Vec<ir::Update>) {
        let effects = std::mem::replace(&mut self.fns.effects_allowed, true);
        if let ExprKind::Call(..) = e.kind {
            self.fns.call_statement = true;
            let t = self.data(e);
            self.fns.call_statement = false;
            if let ir::Expr::Call(c) = t.expr {
                let resets = c.resets.clone();
                out.push(ir::Update::Call(c));
                out.extend(
                    resets
                        .into_iter()
                        .map(|(clock, value)| ir::Update::ResetClock { clock, value }),
                );
            }
            self.fns.effects_allowed = effects;
            return;
        }
        if matches!(
            e.kind,
            ExprKind::Cond(..)
                | ExprKind::Binary(BinaryOp::And | BinaryOp::Or | BinaryOp::Imply, ..)
        ) {
            self.lazy_update(e, out);
            self.fns.effects_allowed = effects;
            return;
        }
        // Assignments nested in the update's expressions (`b = (a = 1) + 2`,
        // `q[len++] = x`) run first, in order, as in a function body.
        let outer_pre = self.fns.pre.replace(Vec::new());
        let (top, peak) = (self.fns.top, self.fns.peak);
        let mut typed = Vec::new();
        self.update_value_typed(e, &mut typed);
        let pre = std::mem::replace(&mut self.fns.pre, outer_pre).unwrap_or_default();
        let frame_used = self.fns.peak;
        (self.fns.top, self.fns.peak) = (top, peak);
        self.fns.effects_allowed = effects;
        if !pre.is_empty() {
            self.update_with_nested_assignments(e, pre, typed, frame_used, out);
            return;
        }
        for (u, ty) in typed {
            match u {
                ir::Update::Assign { target, value }
                    if value.has_effects()
                        || target.index.as_ref().is_some_and(ir::Expr::has_effects) =>
                {
                    let body = vec![checked_assign(target, value, &ty)];
                    out.push(self.update_call(body, 0, e.span));
                }
                u => out.push(u),
            }
        }
    }

    /// An update `c ? a : b`, `a && b` or `a || b`, whose operands assign
    /// (`ok || (err++ > 0)`): one call that runs it as a statement of a
    /// function would (`if (!ok) err++;`).
    fn lazy_update(&mut self, e: &hir::Expr, out: &mut Vec<ir::Update>) {
        let outer_pre = self.fns.pre.replace(Vec::new());
        let (top, peak) = (self.fns.top, self.fns.peak);
        let mut body = Vec::new();
        let reported = self.diags.len();
        self.expr_statement(e, &mut body);
        self.fns.pre = outer_pre;
        let frame_used = self.fns.peak;
        (self.fns.top, self.fns.peak) = (top, peak);
        let call = self.nameless_call(body, frame_used, e.span, None);
        if call.writes.is_empty() && call.may_reset.is_empty() && self.diags.len() == reported {
            self.error(
                e.span,
                "this update changes nothing: expected an assignment in an operand",
            );
            return;
        }
        out.push(ir::Update::Call(std::sync::Arc::new(call)));
    }

    /// An update whose expressions assign (`b = (a = 1) + 2`): one call that
    /// runs the nested assignments (`pre`), then the update's own, followed
    /// by its clock resets.
    fn update_with_nested_assignments(
        &mut self,
        e: &hir::Expr,
        pre: Vec<ir::Stmt>,
        typed: Vec<(ir::Update, Ty)>,
        frame_used: u32,
        out: &mut Vec<ir::Update>,
    ) {
        let mut body = pre;
        let mut resets = Vec::new();
        for (u, ty) in typed {
            match u {
                ir::Update::Assign { target, value } => {
                    body.push(checked_assign(target, value, &ty))
                }
                ir::Update::ResetClock { .. } => resets.push(u),
                ir::Update::Call(c) => body.push(ir::Stmt::Eval(ir::Expr::Call(c))),
            }
        }
        out.push(self.update_call(body, frame_used, e.span));
        out.extend(resets);
    }

    /// An update that runs `body` as one nameless call (the checker runs
    /// plain assignments read-only on the state before them, so an update
    /// with effects inside its expressions needs statements run in order).
    /// Its frame covers `frame_used` and the frames of the calls it makes.
    fn update_call(&self, body: Vec<ir::Stmt>, frame_used: u32, span: Span) -> ir::Update {
        ir::Update::Call(std::sync::Arc::new(
            self.nameless_call(body, frame_used, span, None),
        ))
    }

    /// Lowers an assignment expression, appending its ir updates with the
    /// types of their targets to `out`; returns what the assignment
    /// expression evaluates to once it has run (`None` after an error).
    pub(super) fn update_value_typed(
        &mut self,
        e: &hir::Expr,
        out: &mut Vec<(ir::Update, Ty)>,
    ) -> Option<Typed> {
        let (op, lhs, rhs) = match &e.kind {
            ExprKind::Assign(op, l, r) => (*op, &**l, Some(&**r)),
            ExprKind::Incr(l, _) => (AssignOp::Add, &**l, None),
            _ => {
                self.error(e.span, "expected an assignment");
                return None;
            }
        };
        if self.is_aggregate_quiet(lhs) {
            self.aggregate_assign(e, op, lhs, rhs, out);
            return None;
        }
        let rhs_value = |this: &mut Ctx, out: &mut Vec<(ir::Update, Ty)>| -> Option<Typed> {
            match rhs {
                Some(
                    r @ hir::Expr {
                        kind: ExprKind::Assign(_, inner, _),
                        ..
                    },
                ) if this.is_aggregate_quiet(inner) => {
                    this.error(
                        r.span,
                        "the copy of an array or a record has no value to assign further",
                    );
                    None
                }
                Some(r) if matches!(r.kind, ExprKind::Assign(..)) => {
                    this.update_value_typed(r, out)
                }
                Some(
                    r @ hir::Expr {
                        kind: ExprKind::Incr(_, up),
                        ..
                    },
                ) => {
                    let (post, pre) = if *up { ("++", "++v") } else { ("--", "--v") };
                    this.error(
                        r.span,
                        format!(
                            "the value of `v{post}` (the old value) cannot be used; \
                             write `{pre}` for the new value, or two updates"
                        ),
                    );
                    None
                }
                Some(r) => Some(this.data(r)),
                None => Some(Typed {
                    expr: ir::Expr::Const(match e.kind {
                        ExprKind::Incr(_, false) => -1,
                        _ => 1,
                    }),
                    ty: Ty::int(),
                    is_const: true,
                }),
            }
        };
        if let Some(target) = self.dynamic_clock_target(lhs) {
            // `x[i] = e` with `i` depending on the state, where the edge
            // cannot be split per value (inside a function, or after an
            // update that may change `i`): the reset is run at its place.
            if op != AssignOp::Assign || !matches!(e.kind, ExprKind::Assign(..)) {
                self.error(e.span, "a clock can only be reset with `=`");
                return None;
            }
            let value = rhs_value(self, out)?;
            return self.dynamic_reset(target, value, e.span, out);
        }
        if let Some((clock, 0)) = self.clock_term(lhs) {
            if op != AssignOp::Assign || !matches!(e.kind, ExprKind::Assign(..)) {
                self.error(e.span, "a clock can only be reset with `=`");
                return None;
            }
            let value = match rhs_value(self, out) {
                Some(Typed {
                    expr: ir::Expr::Const(v),
                    ..
                }) => v as i64,
                Some(t) if t.is_const => return None,
                Some(t) if matches!(t.ty, Ty::Error) => return None,
                None => return None,
                // A value that depends on the state: checked when it runs.
                Some(t) => {
                    let target = ir::LValue {
                        base: clock,
                        len: 1,
                        index: None,
                    };
                    return self.dynamic_reset(target, t, e.span, out);
                }
            };
            // A constant beyond the zones' range is left to the LU table
            // (the search stops with `Limit::ClockRange`).
            if value < 0 {
                self.error(e.span, "a clock can only be reset to a non-negative value");
                return None;
            }
            // In the time unit in force (`x = 1` is `x = 5` refined by 5).
            let Some(ir::Expr::Const(scaled)) =
                self.scale_time(ir::Expr::Const(value as i32), e.span)
            else {
                return None;
            };
            out.push((
                ir::Update::ResetClock {
                    clock,
                    value: scaled,
                },
                Ty::Clock,
            ));
            return Some(Typed {
                expr: ir::Expr::Const(value as i32),
                ty: Ty::int(),
                is_const: true,
            });
        }
        let value = rhs_value(self, out)?;
        // `v /= 0` is as sure an error as `v / 0`, which `data` reports.
        if matches!(op, AssignOp::Div | AssignOp::Rem) && matches!(value.expr, ir::Expr::Const(0)) {
            self.error(e.span, "division by zero");
        }
        let (target, ty) = self.lvalue(lhs)?;
        if self.mode == Mode::Lower
            && let Some(index) = &target.index
        {
            let mut writes = Vec::new();
            value
                .expr
                .for_each_call(&mut |c| writes.extend_from_slice(&c.writes));
            if self.index_changed_by_call([index], &writes, e.span) {
                return None;
            }
        }
        let read = target.read();
        let bin = |op: BinOp, read: ir::Expr, value: ir::Expr| ty::binary(op, read, value);
        let value = match op {
            AssignOp::Assign => {
                if let ir::Expr::Const(v) = value.expr {
                    self.check_range(v as i64, &ty, e.span, "value");
                }
                value.expr
            }
            AssignOp::Add => bin(BinOp::Add, read.clone(), value.expr),
            AssignOp::Sub => bin(BinOp::Sub, read.clone(), value.expr),
            AssignOp::Mul => bin(BinOp::Mul, read.clone(), value.expr),
            AssignOp::Div => bin(BinOp::Div, read.clone(), value.expr),
            AssignOp::Rem => bin(BinOp::Mod, read.clone(), value.expr),
            AssignOp::BitAnd => bin(BinOp::BitAnd, read.clone(), value.expr),
            AssignOp::BitOr => bin(BinOp::BitOr, read.clone(), value.expr),
            AssignOp::BitXor => bin(BinOp::BitXor, read.clone(), value.expr),
            AssignOp::Shl => bin(BinOp::Shl, read.clone(), value.expr),
            AssignOp::Shr => bin(BinOp::Shr, read.clone(), value.expr),
        };
        out.push((ir::Update::Assign { target, value }, ty.clone()));
        Some(Typed {
            expr: read,
            ty,
            is_const: false,
        })
    }

    /// A clock reset that runs as a statement ([`ir::Stmt::ResetClock`]):
    /// one nameless call at an edge, its statement inlined in a function
    /// ([`Ctx::push_update`]). Returns the value assigned.
    fn dynamic_reset(
        &mut self,
        clock: ir::LValue,
        value: Typed,
        span: Span,
        out: &mut Vec<(ir::Update, Ty)>,
    ) -> Option<Typed> {
        if !value.ty.is_data() {
            if value.ty != Ty::Error {
                self.error(span, "a clock can only be reset to an integer value");
            }
            return None;
        }
        if value.expr.has_effects() {
            self.error(
                span,
                "a clock reset's value cannot call a function with effects: assign it to a \
                 variable first",
            );
            return None;
        }
        // In the time unit in force: multiplied when it runs, an overflow
        // then a model error.
        let scaled = self.scale_time(value.expr.clone(), span)?;
        let stmt = ir::Stmt::ResetClock {
            clock,
            value: scaled,
        };
        out.push((self.update_call(vec![stmt], 0, span), Ty::Clock));
        Some(value)
    }

    /// The element of a clock array that `e` names, when its index depends
    /// on the state and the edge cannot be split per value (see
    /// [`Ctx::clock_element`]): inside a function, or at an edge after an
    /// update that may change the index. `None` otherwise (without
    /// reporting anything).
    fn dynamic_clock_target(&mut self, e: &hir::Expr) -> Option<ir::LValue> {
        if !matches!(e.kind, ExprKind::Index(..)) || !self.indexes_clock_array(e) {
            return None;
        }
        let splits = self.clock_split.as_ref().is_some_and(|s| s.allowed);
        if !self.fns.inside_function() && splits {
            return None;
        }
        // Anything else is `clock_term`'s to lower and report, once.
        let mark = self.diags.len();
        let dynamic = self.place(e).filter(|p| {
            !p.ty.is_aggregate()
                && !p.terms.is_empty()
                && !p.is_const
                && !p
                    .terms
                    .iter()
                    .any(|(i, len, _)| *len == UNKNOWN_LEN || i.has_effects())
        });
        let (Some(p), true) = (dynamic, self.diags.len() == mark) else {
            self.diags.truncate(mark);
            return None;
        };
        let data::Store::Clock(base) = p.store else {
            return None;
        };
        let (base, len, index) = p.element(base);
        Some(ir::LValue { base, len, index })
    }

    pub(super) fn lvalue(&mut self, e: &hir::Expr) -> Option<(ir::LValue, Ty)> {
        if self.rooted_in_call(e) {
            self.error(e.span, "cannot assign to the result of a call");
            return None;
        }
        let (name, span) = match &e.kind {
            ExprKind::Name(n) => (n, e.span),
            ExprKind::Index(..) | ExprKind::Field(..) => {
                let p = self.place(e)?;
                return self.place_lvalue(p, e.span);
            }
            ExprKind::Missing => return None,
            _ => {
                self.error(e.span, "cannot assign to this expression");
                return None;
            }
        };
        match self.lookup_or_error(name, span)? {
            Sym::Var { base, ty } if !ty.is_aggregate() => Some((
                ir::LValue {
                    base,
                    len: 1,
                    index: None,
                },
                ty,
            )),
            Sym::Var { .. } => {
                self.error(e.span, format!("`{name}` is an array: assign its elements"));
                None
            }
            Sym::Const { .. } | Sym::ConstData { .. } => {
                self.error(span, format!("cannot assign to the constant `{name}`"));
                None
            }
            other => {
                self.error(
                    span,
                    format!("cannot assign to the {} `{name}`", other.kind_name()),
                );
                None
            }
        }
    }

    /// Lowers a synchronisation; also returns the channel's kind and whether
    /// it is urgent.
    pub(super) fn sync(&mut self, s: &hir::SyncHir) -> Option<(ir::Sync, ChannelKind, bool)> {
        let span = s.channel.span;
        match &s.channel.kind {
            ExprKind::Missing => return None,
            ExprKind::Name(name) => match self.lookup_or_error(name, span)? {
                Sym::Chan { shape, .. } if shape.is_aggregate() => {
                    self.error(span, format!("`{name}` is a channel array: index it"));
                    return None;
                }
                Sym::Chan { .. } => {}
                sym => {
                    self.error(
                        span,
                        format!("`{name}` is a {}, not a channel", sym.kind_name()),
                    );
                    return None;
                }
            },
            ExprKind::Index(..) | ExprKind::Field(..) => {}
            _ => {
                self.error(span, "expected a channel");
                return None;
            }
        }
        let p = self.place(&s.channel)?;
        let (channel, kind, urgent) = self.place_channel(p, span)?;
        Some((
            ir::Sync {
                channel,
                dir: s.dir,
            },
            kind,
            urgent,
        ))
    }

    // ---- templates ----

    /// Checks (in check mode) or lowers (in lower mode, with `params` bound
    /// and `offset` the template's position) one template; `names` is the
    /// resolver's answer for it ([`resolve::template_names`]), which says
    /// what the names written in it denote.
    pub fn template(
        &mut self,
        t: &hir::Template,
        names: &TemplateNames,
        params: Option<&[Sym]>,
        proc_name: &str,
        offset: u32,
    ) -> (ir::Process, ProcInfo) {
        self.offset = offset;
        self.push_scope();
        for (k, p) in t.params.iter().enumerate() {
            let ty = self.param_type(p);
            let sym = match params.and_then(|ps| ps.get(k)) {
                Some(s) => s.clone(),
                // A reference to a channel (or a channel array): any one.
                None if p.is_ref => match *ty.scalar_part() {
                    Ty::Chan { kind, urgent } => Sym::Chan {
                        base: UNKNOWN,
                        shape: ty,
                        kind,
                        urgent,
                    },
                    // A reference to a clock: any one.
                    Ty::Clock => Sym::Clock { id: UNKNOWN },
                    _ => Sym::Var { base: UNKNOWN, ty },
                },
                None => Sym::Const { value: None, ty },
            };
            self.define_param(&p.name, sym);
        }
        self.declare(&t.decls, &format!("{proc_name}."));

        // Locations: by name for the checks' `P.name`, by definition for
        // the edges, whose ends the resolver resolves.
        let mut locations = Vec::new();
        let mut loc_ids: FxHashMap<String, (ir::LocId, Span)> = FxHashMap::default();
        let mut loc_by_def: FxHashMap<LocalDef, ir::LocId> = FxHashMap::default();
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
            // UPPAAL rejects a location named as a parameter or local
            // variable of its template (one scope holds both); zeno would
            // otherwise accept it, and a query's `P.name` would be ambiguous.
            if let Some(var) = self.defined_here(&l.name.text) {
                let d = Diagnostic::error(
                    self.abs(l.name.span),
                    format!(
                        "location `{}` has the name of a parameter or variable of `{}`",
                        l.name.text, t.name.text
                    ),
                )
                .with_related(var, "defined here");
                self.diags.push(d);
            }
            loc_ids.insert(l.name.text.clone(), (id, l.name.span));
            let def = LocalDef {
                span: l.name.span,
                kind: DefKind::Location,
            };
            loc_by_def.insert(def, id);
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
            let (mut data, mut invariant) = (Vec::new(), Vec::new());
            self.rates = None;
            if let Some(inv) = &l.invariant {
                self.conjunction(inv, ClockCtx::Invariant, &mut data, &mut invariant);
            }
            let rates = self.rates.take().unwrap_or_default();
            let data_invariant = data.into_iter().reduce(|a, b| ty::binary(BinOp::And, a, b));
            locations.push(ir::Location {
                name: l.name.text.clone(),
                kind: l.kind,
                invariant,
                data_invariant,
                stopped: rates.stopped,
                running: rates.running,
                data_rates: rates.data,
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
        let names = names.index();
        let mut edges = Vec::new();
        let mut succ: Vec<Vec<ir::LocId>> = vec![Vec::new(); locations.len()];
        for e in &t.edges {
            let mut ends = [0; 2];
            let mut ok = true;
            for (k, n) in [&e.source, &e.target].into_iter().enumerate() {
                let def = names.local_def(n.span, &n.text);
                match def.and_then(|d| Some((d, *loc_by_def.get(&d)?))) {
                    Some((_, id)) => ends[k] = id,
                    None => {
                        if !n.text.is_empty() {
                            let near = super::suggest::closest(
                                &n.text,
                                loc_ids.keys().map(String::as_str),
                            );
                            let msg = format!(
                                "unknown location `{}`{}",
                                n.text,
                                super::suggest::did_you_mean(near)
                            );
                            self.error(n.span, msg);
                        }
                        ok = false;
                    }
                }
            }
            if ok && let Some(s) = succ.get_mut(ends[0] as usize) {
                s.push(ends[1]);
            }
            // Most guards give one disjunct, the guard itself.
            let disjuncts = self.guard_disjuncts(e.guard.as_ref());
            let selections = self.select_values(e);
            let diags_before = self.diags.len();
            let lowerings: Vec<(&Option<hir::Expr>, Vec<Option<i64>>)> = disjuncts
                .iter()
                .flat_map(|g| selections.iter().cloned().map(move |a| (g, a)))
                .collect();
            for (guard, assignment) in lowerings {
                // One copy per value of the clock-array indices that depend on
                // the state (see `ClockSplit`); most edges have none.
                let mut pins: Vec<Vec<(String, u32)>> = vec![Vec::new()];
                let mut guards: Vec<Vec<ir::Expr>> = vec![Vec::new()];
                while let Some(pinned) = pins.pop() {
                    let pin_guards = guards.pop().unwrap_or_default();
                    let reported = self.diags.len();
                    let edges_before = edges.len();
                    self.clock_split = Some(clocks::ClockSplit {
                        pinned,
                        found: Vec::new(),
                        allowed: true,
                    });
                    self.push_scope();
                    let mut selects = Vec::new();
                    for (s, v) in e.selects.iter().zip(&assignment) {
                        self.bind_value(&s.name, *v, &s.ty);
                        if let Some(v) = v {
                            selects.push((s.name.text.clone(), clamp32(*v)));
                        }
                    }
                    let (mut data, mut clock_guard) = (Vec::new(), Vec::new());
                    if let Some(g) = guard {
                        self.conjunction(g, ClockCtx::Guard, &mut data, &mut clock_guard);
                    }
                    let sync = e.sync.as_ref().and_then(|s| {
                        let (sync, _, urgent) = self.sync(s)?;
                        let at = guard.as_ref().map_or(s.span, |g| g.span);
                        if urgent && !clock_guard.is_empty() {
                            self.error(
                                at,
                                "edges synchronising on an urgent channel cannot have clock guards",
                            );
                        }
                        Some(sync)
                    });
                    let label = e.label.as_ref().map(|l| {
                        if let Some(Sym::Chan { .. }) = self.peek(&l.text, l.span) {
                            self.error(
                                l.span,
                                format!(
                                    "`{0}` is a channel: write `sync {0}!` or `sync {0}?` \
                                 (without `!`/`?` it is an action label)",
                                    l.text
                                ),
                            );
                        }
                        l.text.clone()
                    });
                    let mut updates = Vec::new();
                    for u in &e.updates {
                        if let Some(split) = self.clock_split.as_mut() {
                            // An update that only resets clocks leaves
                            // the index as the guard saw it.
                            split.allowed = updates.iter().all(|u| match u {
                                ir::Update::ResetClock { .. } => true,
                                ir::Update::Call(c) => c.writes.is_empty(),
                                ir::Update::Assign { .. } => false,
                            });
                        }
                        self.update(u, &mut updates);
                    }
                    self.pop_scope(false);
                    let split = self.clock_split.take().unwrap_or_default();
                    if let Some((key, index, extent)) = split.found.into_iter().next() {
                        // An index without a value: lower the edge again once
                        // per value (the copies report what this one did).
                        self.diags.truncate(reported);
                        edges.truncate(edges_before);
                        if !self.spend(extent as i64, e.span) {
                            continue;
                        }
                        for v in (0..extent).rev() {
                            let mut p = split.pinned.clone();
                            p.push((key.clone(), v));
                            let mut g = pin_guards.clone();
                            g.push(ty::binary(
                                BinOp::Eq,
                                index.clone(),
                                ir::Expr::Const(v as i32),
                            ));
                            pins.push(p);
                            guards.push(g);
                        }
                        continue;
                    }
                    data.extend(pin_guards);
                    let guard = data.into_iter().reduce(|a, b| ty::binary(BinOp::And, a, b));
                    edges.push(ir::Edge {
                        source: ends[0],
                        target: ends[1],
                        guard,
                        clock_guard,
                        sync,
                        label,
                        updates,
                        selects,
                        span: self.abs(e.span),
                    });
                }
            }
            if disjuncts.len() > 1 {
                // The disjuncts share the edge's sync and updates: report
                // what they have in common once.
                let mut seen = FxHashSet::default();
                let mut k = diags_before;
                while k < self.diags.len() {
                    let d = &self.diags[k];
                    if seen.insert((d.range.start, d.range.end, d.message.clone())) {
                        k += 1;
                    } else {
                        self.diags.remove(k);
                    }
                }
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
            offset: 0,
            defined_by: Span::default(),
        };
        (process, info)
    }

    /// Every combination of `select` values of an edge (one unknown
    /// combination in check mode); empty when the expansion is too large.
    pub(super) fn select_values(&mut self, e: &hir::Edge) -> Vec<Vec<Option<i64>>> {
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
