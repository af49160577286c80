//! Arrays, records and constant data: array dimensions, initialisers, and
//! accesses to parts of a variable (`a[i][j]`, `rs[i].c[j]`).
//!
//! Every variable is flattened into consecutive slots in C's order: the
//! last index varies fastest, record fields follow one another in their
//! declaration order. An access is a [`Place`]: the variable (or channel
//! array, or constant), a slot offset known at compile time, and the index
//! terms that depend on the state. Each index is checked against its own
//! dimension ([`ir::Expr::Checked`]), so an index past its dimension is a
//! model error, never a read of a neighbouring element.

use std::sync::Arc;

use super::function::checked_assign;
use super::*;

/// Where an accessed value is stored.
#[derive(Debug, Clone)]
pub(super) enum Store {
    /// Variable slots from this one.
    Var(ir::VarId),
    /// Channels from this one.
    Chan {
        base: ir::ChanId,
        kind: ChannelKind,
        urgent: bool,
    },
    /// A constant's values in slot order; `None` while a template is
    /// checked on its own and they depend on its parameters.
    Const(Option<Arc<[i32]>>),
    /// Clocks from this one (a clock array).
    Clock(ClockId),
}

/// A part of a variable, of a channel array or of a constant.
#[derive(Debug, Clone)]
pub(super) struct Place {
    pub store: Store,
    /// Slots before the accessed part that are known at compile time.
    pub offset: u32,
    /// Indices that depend on the state: (index counted from 0, the
    /// dimension's length, the slots one step of the index skips).
    pub terms: Vec<(ir::Expr, u32, u32)>,
    pub ty: Ty,
    /// Whether every index is a compile-time constant.
    pub is_const: bool,
    /// Slots of the whole variable, which an assignment to any part of it
    /// may write.
    pub root_slots: u32,
}

impl Place {
    /// The offset that depends on the state and the number of positions it
    /// can designate (its largest value plus one); `None` when every index
    /// is a constant. With `checked`, even a lone index of a
    /// one-dimensional array is checked against its dimension here (a
    /// constant table has no array read to check it).
    pub(super) fn dynamic(&self, checked: bool) -> Option<(ir::Expr, u32)> {
        match self.terms.as_slice() {
            [] => None,
            // A lone index into consecutive slots: the array read itself
            // checks it against the length.
            [(i, len, 1)] if !checked => Some((i.clone(), *len)),
            terms => {
                let mut sum: Option<ir::Expr> = None;
                let mut extent: u32 = 1;
                for (i, len, stride) in terms {
                    let check = ir::Expr::Checked {
                        index: Box::new(i.clone()),
                        len: *len,
                    };
                    let term = if *stride == 1 {
                        check
                    } else {
                        ty::binary(BinOp::Mul, check, ir::Expr::Const(clamp32(*stride as i64)))
                    };
                    sum = Some(match sum {
                        None => term,
                        Some(s) => ty::binary(BinOp::Add, s, term),
                    });
                    extent = extent.saturating_add(len.saturating_sub(1).saturating_mul(*stride));
                }
                sum.map(|s| (s, extent))
            }
        }
    }

    /// The slot or element this place names in storage that starts at
    /// `base`: (first slot, length, index) as `ir::LValue` and `ir::ChanRef`
    /// take them; a place at a fixed offset is one slot without an index.
    pub(super) fn element(&self, base: u32) -> (u32, u32, Option<ir::Expr>) {
        let base = base.wrapping_add(self.offset);
        match self.dynamic(false) {
            None => (base, 1, None),
            // More positions than any array has: a length unknown while a
            // template is checked on its own (`int buf[n]`, `n` a
            // parameter), where one slot stands for the whole array (see
            // `declare`). The element is that slot; its footprint must
            // not span 2^32 slots.
            Some((index, len)) if len > ty::MAX_SLOTS => (base, 1, Some(index)),
            Some((index, len)) => (base, len, Some(index)),
        }
    }

    /// The reads of this place's scalars in slot order, in storage that
    /// starts at `base`: the copy of an array or record at an index that
    /// depends on the state (`f(st[cur])`), taken at a call.
    pub(super) fn leaf_reads(&self, base: u32) -> Vec<ir::Expr> {
        let mut leaves = Vec::new();
        self.ty.leaves(&mut String::new(), &mut leaves);
        leaves
            .into_iter()
            .enumerate()
            .map(|(k, (_, ty))| {
                let (base, len, index) = self.at(k as u32, ty).element(base);
                ir::LValue { base, len, index }.read()
            })
            .collect()
    }

    /// The scalar at `k` slots into this place, of type `ty`.
    pub(super) fn at(&self, k: u32, ty: Ty) -> Place {
        let mut p = self.clone();
        p.offset = p.offset.saturating_add(k);
        p.ty = ty;
        p
    }
}

/// A constant table read at a position that depends on the state: a
/// balanced tree of `index < mid ? … : …` over `values`, so that evaluation
/// takes a logarithmic number of steps and interval arithmetic (the LU
/// bounds of `x <= delay[i]`) sees the hull of the values.
fn table(values: &[i32], index: &ir::Expr, lo: usize, hi: usize) -> ir::Expr {
    if hi <= lo + 1 {
        return ir::Expr::Const(values.get(lo).copied().unwrap_or(0));
    }
    let mid = lo + (hi - lo) / 2;
    let (left, right) = (table(values, index, lo, mid), table(values, index, mid, hi));
    if let (ir::Expr::Const(a), ir::Expr::Const(b)) = (&left, &right)
        && a == b
    {
        return left;
    }
    ir::Expr::Cond(
        Box::new(ir::Expr::Binary(
            BinOp::Lt,
            Box::new(index.clone()),
            Box::new(ir::Expr::Const(clamp32(mid as i64))),
        )),
        Box::new(left),
        Box::new(right),
    )
}

/// "an array" or "a record", for messages.
fn a_kind(ty: &Ty) -> &'static str {
    match ty {
        Ty::Record(_) => "a record",
        _ => "an array",
    }
}

impl Ctx {
    // ---- types ----

    /// `ty` with array dimensions `dims` (outermost first) around it.
    pub(super) fn with_dims(&mut self, mut ty: Ty, dims: &[hir::Expr]) -> Ty {
        for d in dims.iter().rev() {
            let Some((len, first)) = self.dim(d) else {
                return Ty::Error;
            };
            ty = Ty::Array {
                elem: Box::new(ty),
                len,
                first,
            };
        }
        if !dims.is_empty() && ty.slots().is_none() && !has_unknown_len(&ty) {
            if let Some(d) = dims.first() {
                self.error(
                    d.span,
                    format!("the array has more than {} elements", ty::MAX_SLOTS),
                );
            }
            return Ty::Error;
        }
        ty
    }

    /// One dimension: a size `N` (indices `0 ..= N - 1`) or a bounded type
    /// `pid_t` (its values are the indices, as in UPPAAL); the length and
    /// the first index.
    fn dim(&mut self, d: &hir::Expr) -> Option<(u32, i32)> {
        if let ExprKind::Name(n) = &d.kind {
            let ty = match self.peek(n, d.span) {
                Some(Sym::Typedef(t)) => {
                    self.lookup(n, d.span);
                    Some(t)
                }
                None => ty::builtin_int_type(n),
                Some(_) => None,
            };
            if let Some(t) = ty {
                let Some((lo, hi)) = t.bounds() else {
                    if !matches!(t, Ty::Error) {
                        self.error(
                            d.span,
                            format!(
                                "`{n}` is {}: an array is indexed by a size or a bounded integer type",
                                t.describe()
                            ),
                        );
                    }
                    return None;
                };
                let len = hi - lo + 1;
                if len > MAX_EXPANSION || lo < i32::MIN as i64 {
                    self.error(
                        d.span,
                        format!(
                            "`{n}` has {len} values: an array may have at most {MAX_EXPANSION} elements in a dimension"
                        ),
                    );
                    return None;
                }
                return Some((len as u32, lo as i32));
            }
        }
        match self.const_eval(d) {
            Some(n) if (1..=MAX_EXPANSION).contains(&n) => Some((n as u32, 0)),
            Some(n) => {
                self.error(
                    d.span,
                    format!("array size {n} must be between 1 and {MAX_EXPANSION}"),
                );
                None
            }
            // Known only per instance (a parameter): any index goes.
            None => Some((UNKNOWN_LEN, 0)),
        }
    }

    /// `struct { … }`: each field's type, in order. A field's name may
    /// appear once; fields hold no initial value and are not constant
    /// (a record variable is, as a whole).
    pub(super) fn record_type(&mut self, fields: &[hir::VarDecl]) -> Ty {
        let mut out: Vec<(String, Ty)> = Vec::new();
        let mut seen: FxHashMap<&str, Span> = FxHashMap::default();
        for f in fields {
            let ty = self.resolve_type(&f.ty);
            let ty = self.with_dims(ty, &f.array);
            if let Some(init) = &f.init {
                self.error(
                    init.span,
                    "a field has no initial value of its own: initialise the record variable",
                );
            }
            if f.is_const {
                self.error(
                    f.ty.span(),
                    "a field cannot be constant: declare the record variable `const`",
                );
            }
            if f.name.text.is_empty() {
                continue;
            }
            if let Some(first) = seen.get(f.name.text.as_str()) {
                let d = Diagnostic::error(
                    self.abs(f.name.span),
                    format!("field `{}` is already defined", f.name.text),
                )
                .with_related(self.abs(*first), "first defined here");
                self.diags.push(d);
                continue;
            }
            seen.insert(&f.name.text, f.name.span);
            out.push((f.name.text.clone(), ty));
        }
        let record = Ty::Record(out);
        // An unknown length is the one reason a record's size may be
        // unknown; a size beyond the limit is an error here, so that no
        // declaration of this type is laid out in too few slots.
        if record.slots().is_none() && !has_unknown_len(&record) {
            let at = fields.first().map_or(Span::default(), |f| f.name.span);
            self.error(
                at,
                format!("the record has more than {} elements", ty::MAX_SLOTS),
            );
            return Ty::Error;
        }
        record
    }

    // ---- initialisers ----

    /// The initial values of a value of type `ty` from `init`, in slot
    /// order (`None` for a value unknown while a template is checked on its
    /// own). Reports a list of the wrong shape, a value outside its range
    /// and a value that is not a constant, each where it is written.
    pub(super) fn init_values(&mut self, init: &hir::Expr, ty: &Ty, out: &mut Vec<Option<i32>>) {
        let n = ty.slots().unwrap_or(1) as usize;
        match (ty, &init.kind) {
            (Ty::Error, _) | (_, ExprKind::Missing) => out.extend(std::iter::repeat_n(None, n)),
            (Ty::Array { elem, len, .. }, ExprKind::List(items)) => {
                if *len != UNKNOWN_LEN && items.len() != *len as usize {
                    self.error(
                        init.span,
                        format!(
                            "expected {len} element(s) for {}, found {}",
                            ty.describe(),
                            items.len()
                        ),
                    );
                    out.extend(std::iter::repeat_n(None, n));
                    return;
                }
                for item in items {
                    self.init_values(item, elem, out);
                }
            }
            (Ty::Record(fields), ExprKind::List(items)) => {
                if items.len() != fields.len() {
                    self.error(
                        init.span,
                        format!(
                            "expected {} field value(s) for {}, found {}",
                            fields.len(),
                            ty.describe(),
                            items.len()
                        ),
                    );
                    out.extend(std::iter::repeat_n(None, n));
                    return;
                }
                for (item, (_, t)) in items.iter().zip(fields) {
                    self.init_values(item, t, out);
                }
            }
            (Ty::Array { .. } | Ty::Record(_), _) => {
                if self.init_from_constant(init, ty, out) {
                    return;
                }
                if let ExprKind::Call(name, _) = &init.kind {
                    self.error(
                        init.span,
                        format!(
                            "the initial value of a variable is a constant, not a call of `{}`: \
                             assign the call's result in an update",
                            name.text
                        ),
                    );
                    out.extend(std::iter::repeat_n(None, n));
                    return;
                }
                self.error(
                    init.span,
                    format!(
                        "{} ({}) is initialised with a list `{{ … }}`",
                        a_kind(ty),
                        ty.describe()
                    ),
                );
                out.extend(std::iter::repeat_n(None, n));
            }
            (_, ExprKind::List(_)) => {
                self.error(
                    init.span,
                    format!(
                        "a list `{{ … }}` initialises an array or a record, not {}",
                        ty.describe()
                    ),
                );
                out.push(None);
            }
            _ => {
                let value = self.const_eval(init);
                if let Some(v) = value {
                    self.check_range(v, ty, init.span, "initial value");
                }
                out.push(value.map(clamp32));
            }
        }
    }

    /// `int a[2] = K;` where `K` is a constant array or record of the same
    /// shape (UPPAAL allows any constant initialiser): `K`'s values, each
    /// checked against the range of its slot. False when `init` is not
    /// such a constant.
    fn init_from_constant(
        &mut self,
        init: &hir::Expr,
        ty: &Ty,
        out: &mut Vec<Option<i32>>,
    ) -> bool {
        let ExprKind::Name(n) = &init.kind else {
            return false;
        };
        let Some(Sym::ConstData { values, ty: src }) = self.peek(n, init.span) else {
            return false;
        };
        if !src.same_shape(ty) || ty.slots() != src.slots() {
            return false;
        }
        // Marks the constant as used.
        let _ = self.lookup_or_error(n, init.span);
        let Some(values) = values else {
            out.extend(std::iter::repeat_n(None, ty.slots().unwrap_or(1) as usize));
            return true;
        };
        let mut leaves = Vec::new();
        ty.leaves(&mut String::new(), &mut leaves);
        for (v, (_, leaf)) in values.iter().zip(&leaves) {
            self.check_range(i64::from(*v), leaf, init.span, "initial value");
            out.push(Some(*v));
        }
        true
    }

    // ---- accesses ----

    /// Whether `base.f` reads a record field (rather than naming a
    /// process's location or variable, `P1.cs`, `Proc(1).x`): a location
    /// test has a process name or a call before the dot.
    pub(super) fn is_record_base(&self, base: &hir::Expr) -> bool {
        match &base.kind {
            ExprKind::Name(n) => matches!(
                self.peek(n, base.span),
                Some(Sym::Var { .. } | Sym::ConstData { .. } | Sym::Const { .. })
            ),
            // `make(1).a`: a field of the record a function returns.
            ExprKind::Call(n, _) => self.returns_aggregate(n),
            _ => true,
        }
    }

    /// Whether `e` names an array or a record (a whole aggregate), without
    /// reporting anything.
    pub(super) fn is_aggregate_quiet(&mut self, e: &hir::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => match self.peek(n, e.span) {
                Some(Sym::Var { ty, .. } | Sym::ConstData { ty, .. }) => ty.is_aggregate(),
                _ => false,
            },
            ExprKind::Call(n, _) => self.returns_aggregate(n),
            // A choice between two (of the same shape, checked where it is
            // used).
            ExprKind::Cond(_, a, b) => self.is_aggregate_quiet(a) || self.is_aggregate_quiet(b),
            ExprKind::Index(..) | ExprKind::Field(..) => {
                let reported = self.diags.len();
                // Nothing of this trial may remain: neither its reports
                // nor the effects of assignments nested in its indices
                // (`a[n++] = x` in a function), nor the calls it makes
                // (`make(1).b`) and their frame slots.
                let pre = self.fns.pre.as_ref().map(Vec::len);
                let results = self.fns.results.replace(Vec::new());
                let top = self.fns.top;
                let p = self.place(e);
                self.fns.top = top;
                self.fns.results = results;
                self.diags.truncate(reported);
                if let (Some(n), Some(v)) = (pre, self.fns.pre.as_mut()) {
                    v.truncate(n);
                }
                p.is_some_and(|p| p.ty.is_aggregate())
            }
            _ => false,
        }
    }

    /// The place `e` designates: a name, an element `a[i]` or a field
    /// `r.f` of one, or a process's variable in a check (`P1.x`).
    pub(super) fn place(&mut self, e: &hir::Expr) -> Option<Place> {
        match &e.kind {
            ExprKind::Name(n) => {
                let sym = self.lookup_or_error(n, e.span)?;
                self.sym_place(sym, n, e.span)
            }
            ExprKind::Index(a, i) => {
                let p = self.place(a);
                let iv = self.data(i);
                let mut p = p?;
                let (elem, len, first) = match &p.ty {
                    Ty::Array { elem, len, first } => ((**elem).clone(), *len, *first),
                    _ => {
                        return self.wrong_type(p, a.span, "cannot be indexed: it is not an array");
                    }
                };
                let stride = elem.slots().unwrap_or(1);
                match iv.expr {
                    ir::Expr::Const(k) if len != UNKNOWN_LEN => {
                        let pos = k as i64 - first as i64;
                        if (pos < 0 || pos >= len as i64) && !holds_data(&elem) {
                            // A clock or channel is picked when the model
                            // is read: its index must be right then.
                            self.error(
                                i.span,
                                format!(
                                    "index {k} is out of range [{first}, {}]",
                                    first as i64 + len as i64 - 1
                                ),
                            );
                        } else if pos < 0 || pos >= len as i64 {
                            // As in UPPAAL, an error only when evaluated
                            // (an edge that never fires is no error): the
                            // index is checked at run time, like a
                            // variable's.
                            self.warning(
                                i.span,
                                format!(
                                    "index {k} is out of range [{first}, {}]: evaluating it is a run-time error",
                                    first as i64 + len as i64 - 1
                                ),
                            );
                            // Clamped, it stays out of range (never wraps).
                            let pos = pos.clamp(i32::MIN.into(), i32::MAX.into()) as i32;
                            p.terms.push((ir::Expr::Const(pos), len, stride));
                            p.is_const = false;
                        } else {
                            p.offset = p.offset.saturating_add((pos as u32).saturating_mul(stride));
                        }
                    }
                    index => {
                        let index = if first == 0 {
                            index
                        } else {
                            ty::binary(BinOp::Sub, index, ir::Expr::Const(first))
                        };
                        p.terms.push((index, len, stride));
                    }
                }
                p.is_const &= iv.is_const;
                p.ty = elem;
                Some(p)
            }
            ExprKind::Field(b, f) if self.is_record_base(b) => {
                let mut p = self.place(b)?;
                let fields = match &p.ty {
                    Ty::Record(fields) => fields.clone(),
                    _ => return self.wrong_type(p, f.span, "has no fields: it is not a record"),
                };
                let mut offset = 0u32;
                // Only while names are recorded: lowering needs no copy.
                if self.names.is_some()
                    && let Some(index) = fields.iter().position(|(name, _)| *name == f.text)
                {
                    let fields = fields.iter().map(|(name, _)| name.clone()).collect();
                    self.record_name(f.span, LoweredName::Field { fields, index });
                }
                for (name, t) in fields {
                    if name == f.text {
                        p.offset = p.offset.saturating_add(offset);
                        p.ty = t;
                        return Some(p);
                    }
                    offset = offset.saturating_add(t.slots().unwrap_or(1));
                }
                self.error(f.span, format!("the record has no field `{}`", f.text));
                None
            }
            ExprKind::Field(b, f) => match self.resolve_field(b, f) {
                FieldRes::Sym(sym) => self.sym_place(sym, &f.text, e.span),
                FieldRes::Location(..) => {
                    self.error(e.span, "a location test is not a value here");
                    None
                }
                FieldRes::Error => None,
            },
            ExprKind::Call(n, _) if self.returns_aggregate(n) => self.result_place(e),
            ExprKind::Cond(c, a, b) => self.cond_place(e, c, a, b),
            ExprKind::Missing => None,
            _ => {
                self.error(
                    e.span,
                    "expected a variable, an array element or a record field",
                );
                None
            }
        }
    }

    /// A place indexed or selected from that is no array or record:
    /// reports its type with `why` (at `span`), unless the type is already
    /// an error, reported where it arose, which passes on silently.
    fn wrong_type(&mut self, p: Place, span: Span, why: &str) -> Option<Place> {
        if matches!(p.ty, Ty::Error) {
            return Some(p);
        }
        self.error(span, format!("{} {why}", p.ty.describe()));
        None
    }

    fn sym_place(&mut self, sym: Sym, name: &str, span: Span) -> Option<Place> {
        let (store, ty) = match sym {
            Sym::Var { base, ty } => (Store::Var(base), ty),
            Sym::ConstData { values, ty } => (Store::Const(values), ty),
            Sym::Const { value, ty } => (
                Store::Const(value.map(|v| Arc::from([clamp32(v)].as_slice()))),
                ty,
            ),
            Sym::Chan {
                base,
                shape,
                kind,
                urgent,
            } => (Store::Chan { base, kind, urgent }, shape),
            Sym::Clocks { base, shape } => (Store::Clock(base), shape),
            Sym::Function(_) => {
                self.error(span, format!("`{name}` is a function: call it"));
                return None;
            }
            Sym::Clock { .. } => {
                self.error(
                    span,
                    "clocks can only be compared in a conjunction of a guard, an invariant or a check (not under `||` or `!`, not in arithmetic)",
                );
                return None;
            }
            Sym::Typedef(_) => {
                self.error(
                    span,
                    format!("`{name}` is a type and cannot be used as a value"),
                );
                return None;
            }
        };
        Some(Place {
            store,
            offset: 0,
            terms: Vec::new(),
            root_slots: ty.slots().unwrap_or(1),
            is_const: true,
            ty,
        })
    }

    /// The value of a scalar place.
    pub(super) fn read(&mut self, p: Place, span: Span) -> Typed {
        match &p.ty {
            Ty::Error => return Typed::error(),
            t @ (Ty::Array { .. } | Ty::Record(_)) => {
                let msg = match t {
                    Ty::Record(_) => format!(
                        "this is a record ({}): use one of its fields, or compare or assign it whole",
                        t.describe()
                    ),
                    _ => format!("this is an array ({}): index it", t.describe()),
                };
                self.error(span, msg);
                return Typed::error();
            }
            _ => {}
        }
        let ty = p.ty.clone();
        match &p.store {
            Store::Var(base) => {
                let (base, len, index) = p.element(*base);
                let expr = ir::LValue { base, len, index }.read();
                Typed {
                    expr,
                    ty,
                    is_const: false,
                }
            }
            Store::Const(None) => Typed {
                expr: ir::Expr::Var(UNKNOWN),
                ty,
                is_const: p.is_const,
            },
            Store::Const(Some(values)) => {
                let start = (p.offset as usize).min(values.len());
                let expr = match p.dynamic(true) {
                    None => ir::Expr::Const(values.get(start).copied().unwrap_or(0)),
                    Some((index, extent)) => {
                        let end = start.saturating_add(extent as usize).min(values.len());
                        table(&values[start..end], &index, 0, end - start)
                    }
                };
                Typed {
                    expr,
                    ty,
                    is_const: p.is_const,
                }
            }
            Store::Chan { .. } => {
                self.error(span, "a channel cannot be used as a value");
                Typed::error()
            }
            Store::Clock(_) => {
                self.error(
                    span,
                    "clocks can only be compared in a conjunction of a guard, an invariant or a check (not under `||` or `!`, not in arithmetic)",
                );
                Typed::error()
            }
        }
    }

    /// A scalar place assigned to.
    pub(super) fn place_lvalue(&mut self, p: Place, span: Span) -> Option<(ir::LValue, Ty)> {
        match (&p.store, &p.ty) {
            (_, Ty::Error) => None,
            (Store::Var(_), t) if t.is_aggregate() => {
                self.error(
                    span,
                    format!(
                        "this is {} ({}): assign its elements, or a whole value of the same shape",
                        a_kind(t),
                        t.describe()
                    ),
                );
                None
            }
            (Store::Var(base), _) => {
                let (base, len, index) = p.element(*base);
                Some((ir::LValue { base, len, index }, p.ty))
            }
            (Store::Const(_), _) => {
                self.error(span, "cannot assign to a constant");
                None
            }
            (Store::Chan { .. }, _) => {
                self.error(span, "cannot assign to a channel");
                None
            }
            (Store::Clock(_), _) => {
                self.error(span, "a clock can only be reset to a non-negative constant");
                None
            }
        }
    }

    /// A channel place used in a synchronisation.
    pub(super) fn place_channel(
        &mut self,
        p: Place,
        span: Span,
    ) -> Option<(ir::ChanRef, ChannelKind, bool)> {
        let Store::Chan { base, kind, urgent } = p.store else {
            self.error(span, "expected a channel");
            return None;
        };
        if p.ty.is_aggregate() {
            self.error(
                span,
                format!("this is a channel array ({}): index it", p.ty.describe()),
            );
            return None;
        }
        let (base, len, index) = p.element(base);
        Some((ir::ChanRef { base, len, index }, kind, urgent))
    }

    /// The scalar parts of two places of the same shape, side by side.
    fn leaf_pairs(&mut self, a: &Place, b: &Place, span: Span) -> Option<Vec<(Place, Place)>> {
        // Unknown lengths (a template checked on its own): nothing to pair,
        // and the shapes are compared per instance.
        if has_unknown_len(&a.ty) || has_unknown_len(&b.ty) {
            return None;
        }
        if !a.ty.same_shape(&b.ty) {
            self.error(
                span,
                format!(
                    "{} and {} do not have the same shape",
                    a.ty.describe(),
                    b.ty.describe()
                ),
            );
            return None;
        }
        a.ty.slots()?;
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        a.ty.leaves(&mut String::new(), &mut la);
        b.ty.leaves(&mut String::new(), &mut lb);
        Some(
            la.into_iter()
                .zip(lb)
                .enumerate()
                .map(|(k, ((_, ta), (_, tb)))| (a.at(k as u32, ta), b.at(k as u32, tb)))
                .collect(),
        )
    }

    /// `a == b` or `a != b` on whole arrays or records: every slot equal.
    pub(super) fn aggregate_equality(
        &mut self,
        op: BinaryOp,
        a: &hir::Expr,
        b: &hir::Expr,
        span: Span,
    ) -> Typed {
        let (pa, pb) = (self.place(a), self.place(b));
        let (Some(pa), Some(pb)) = (pa, pb) else {
            return Typed::error();
        };
        if !matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            self.error(
                span,
                "arrays and records can only be compared with `==` and `!=`",
            );
            return Typed::error();
        }
        let Some(pairs) = self.leaf_pairs(&pa, &pb, span) else {
            return Typed::error();
        };
        let mut all = ir::Expr::Const(1);
        let mut is_const = true;
        for (x, y) in pairs {
            let (x, y) = (self.read(x, a.span), self.read(y, b.span));
            is_const &= x.is_const && y.is_const;
            all = ty::binary(BinOp::And, all, ty::binary(BinOp::Eq, x.expr, y.expr));
        }
        let expr = if op == BinaryOp::Ne {
            ty::unary(UnOp::Not, all)
        } else {
            all
        };
        Typed {
            expr,
            ty: Ty::Bool,
            is_const,
        }
    }

    /// `a = b` on whole arrays or records: one assignment per slot.
    pub(super) fn aggregate_assign(
        &mut self,
        e: &hir::Expr,
        op: AssignOp,
        lhs: &hir::Expr,
        rhs: Option<&hir::Expr>,
        out: &mut Vec<(ir::Update, Ty)>,
    ) {
        let Some(rhs) = rhs.filter(|_| op == AssignOp::Assign) else {
            self.error(
                e.span,
                "arrays and records can only be assigned whole with `=`",
            );
            return;
        };
        if self.rooted_in_call(lhs) {
            self.error(lhs.span, "cannot assign to the result of a call");
            return;
        }
        if !matches!(
            rhs.kind,
            ExprKind::Name(_)
                | ExprKind::Index(..)
                | ExprKind::Field(..)
                | ExprKind::Call(..)
                | ExprKind::Cond(..)
        ) {
            // `a = 2`: a scalar was meant for an element or a field.
            let (what, parts) = match self.place(lhs).map(|p| p.ty) {
                Some(Ty::Record(_)) => ("a record", "fields"),
                _ => ("an array", "elements"),
            };
            let msg = match &lhs.kind {
                ExprKind::Name(n) => format!("`{n}` is {what}: assign its {parts}"),
                _ => format!("this is {what}: assign its {parts}"),
            };
            self.data(rhs);
            self.error(e.span, msg);
            return;
        }
        // A call's result (`q[i] = make(2)`) is computed first, then
        // copied: the whole assignment is one nameless call.
        let outer = self.fns.results.replace(Vec::new());
        let mut copies = Vec::new();
        self.copy_aggregate(e, lhs, rhs, &mut copies);
        let mut body = std::mem::replace(&mut self.fns.results, outer).unwrap_or_default();
        if body.is_empty() {
            out.extend(copies);
            return;
        }
        for (u, ty) in copies {
            if let ir::Update::Assign { target, value } = u {
                body.push(checked_assign(target, value, &ty));
            }
        }
        let call = self.nameless_call(body, self.fns.peak, e.span, None);
        out.push((ir::Update::Call(Arc::new(call)), Ty::int()));
    }

    /// `q[len] = pop()` with `pop` changing `len`: which element the target
    /// means depends on an order C leaves open, so it is an error, reported
    /// at `span` when one of `indices` reads a slot in `writes`.
    pub(super) fn index_changed_by_call<'e>(
        &mut self,
        indices: impl IntoIterator<Item = &'e ir::Expr>,
        writes: &[ir::VarId],
        span: Span,
    ) -> bool {
        let mut clash = false;
        for index in indices {
            index.for_each_read(&mut |v| clash |= writes.contains(&v));
        }
        if clash {
            self.error(
                span,
                "the call on the right changes a variable that an index on the left reads; \
                 copy the result to a local or a variable first",
            );
        }
        clash
    }

    /// The copies of [`Ctx::aggregate_assign`], one per slot.
    fn copy_aggregate(
        &mut self,
        e: &hir::Expr,
        lhs: &hir::Expr,
        rhs: &hir::Expr,
        out: &mut Vec<(ir::Update, Ty)>,
    ) {
        let (target, source) = (self.place(lhs), self.place(rhs));
        let (Some(target), Some(source)) = (target, source) else {
            return;
        };
        if self.mode == Mode::Lower
            && let Some(calls) = self.fns.results.as_ref()
            && !calls.is_empty()
        {
            let (_, writes) = ir::footprint(calls);
            let indices = target.terms.iter().map(|(index, _, _)| index);
            if self.index_changed_by_call(indices, &writes, e.span) {
                return;
            }
        }
        if !source.ty.is_aggregate() {
            self.error(
                rhs.span,
                format!(
                    "expected {} of the same shape ({}) to copy",
                    a_kind(&target.ty),
                    target.ty.describe()
                ),
            );
            return;
        }
        let Store::Var(root) = target.store else {
            self.place_lvalue(target, lhs.span);
            return;
        };
        // The slots are assigned one after the other: an index that reads
        // the variable being assigned could change half-way through.
        if self.mode == Mode::Lower {
            let written = root..root.saturating_add(target.root_slots);
            let mut reads_target = false;
            for (index, _, _) in target.terms.iter().chain(&source.terms) {
                index.for_each_read(&mut |v| reads_target |= written.contains(&v));
            }
            if reads_target {
                self.error(
                    e.span,
                    "an index of this assignment reads the variable it assigns; copy through a separate index variable",
                );
                return;
            }
        }
        let Some(pairs) = self.leaf_pairs(&target, &source, e.span) else {
            return;
        };
        for (t, s) in pairs {
            let value = self.read(s, rhs.span);
            if let Some((target, ty)) = self.place_lvalue(t, lhs.span) {
                if let ir::Expr::Const(v) = value.expr {
                    self.check_range(v as i64, &ty, e.span, "value");
                }
                out.push((
                    ir::Update::Assign {
                        target,
                        value: value.expr,
                    },
                    ty,
                ));
            }
        }
    }
}

/// Whether a length is unknown somewhere in `ty` (a template checked on
/// its own, before its parameters are known).
pub(super) fn has_unknown_len(ty: &Ty) -> bool {
    match ty {
        Ty::Array { elem, len, .. } => *len == UNKNOWN_LEN || has_unknown_len(elem),
        Ty::Record(fields) => fields.iter().any(|(_, t)| has_unknown_len(t)),
        _ => false,
    }
}

/// Whether a value of type `ty` holds data only (no clock, no channel).
fn holds_data(ty: &Ty) -> bool {
    match ty {
        Ty::Clock | Ty::Chan { .. } => false,
        Ty::Array { elem, .. } => holds_data(elem),
        Ty::Record(fields) => fields.iter().all(|(_, t)| holds_data(t)),
        _ => true,
    }
}
