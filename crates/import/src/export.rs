//! Export of a lowered network ([`ir::Network`]) to TChecker and UPPAAL XTA,
//! so that a zeno model can be cross-checked with those tools.
//!
//! Working from the lowered network (templates instantiated, `select`
//! expanded, constants folded) keeps this independent of the source syntax.
//! Arrays are rebuilt from the indexed accesses; names are flattened
//! (`P1.x` → `P1_x`, `Proc(1)` → `Proc_1`).

use std::collections::{BTreeMap, BTreeSet};
use zeno_base::diagnostics::Diagnostic;
use zeno_ir::print::{self, Names, Style, binop_text};
use zeno_ir::{
    BinOp, ChanRef, ChannelKind, CheckKind, ClockConstraint, Expr, Formula, LocationKind, Network,
    Span, UnOp, Update, VarId,
};

use super::export_functions::{Functions, for_each_node};

/// A flattened identifier: `P1.x` → `P1_x`, `Proc(1, 2)` → `Proc_1_2`.
pub(super) fn clean(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => out.push(c),
            ')' | ' ' | ']' => {}
            _ => out.push('_'),
        }
    }
    if out.chars().next().is_none_or(|c| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// Clocks are exported one by one under flattened names (`x[1]` of a
/// clock array → `x_1`): a clock whose flattened name is another clock's
/// or a variable's would be confused with it, so that is a located error.
fn clock_clashes(net: &Network, errors: &mut Vec<Diagnostic>) {
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for v in &net.variables {
        seen.entry(clean(&v.name)).or_insert(&v.name);
        seen.entry(array_name(&v.name)).or_insert(&v.name);
    }
    for c in net.clocks.iter().skip(1) {
        let name = clean(&c.name);
        match seen.get(&name) {
            Some(other) => errors.push(Diagnostic::error(
                c.span,
                format!(
                    "the clock `{}` would be exported as `{name}`, as `{other}` is: rename one of them",
                    c.name
                ),
            )),
            None => {
                seen.insert(name, &c.name);
            }
        }
    }
}

/// `a[0]` → `a`, `g[0][0]` → `g`: the name of an array from its first slot.
fn array_name(first_slot: &str) -> String {
    let mut name = first_slot;
    while let Some(outer) = name.strip_suffix("[0]") {
        name = outer;
    }
    clean(name)
}

/// An indexed access: its first slot and extent (as [`Expr::Index`] has
/// them), and the elements it reaches: their number and the slots between
/// two of them (1, or more for a field of an array of records, `q[i].id`,
/// whose index is `i * stride`).
pub(super) type Access = (u32, u32, u32, u32);

/// The access `base[index]` of `len` slots.
pub(super) fn access(base: u32, len: u32, index: &Expr) -> Access {
    match index {
        Expr::Binary(BinOp::Mul, i, k) => match (&**i, &**k) {
            (Expr::Checked { len: n, .. }, Expr::Const(s)) if *s > 1 => (base, len, *n, *s as u32),
            _ => (base, len, len, 1),
        },
        _ => (base, len, len, 1),
    }
}

/// For each slot, the array `(base, len)` it belongs to, from the indexed
/// accesses found in the network; or the strided array `(first slot,
/// elements, stride)`: a field of an array of records whose fields differ
/// in range, which is written as an array of its own (`q[i].id` as
/// `q_id[i]`).
struct Arrays {
    of: Vec<Option<(u32, u32)>>,
    strided: Vec<Option<(u32, u32, u32)>>,
}

impl Arrays {
    /// `uniform` tells whether slots `a..b` share one type (an array of
    /// records with fields of different ranges does not: its fields'
    /// accesses become strided arrays).
    fn new(
        slots: usize,
        accesses: &BTreeSet<Access>,
        uniform: &dyn Fn(std::ops::Range<usize>) -> bool,
        span: &dyn Fn(u32) -> Span,
        errors: &mut Vec<Diagnostic>,
        what: &str,
    ) -> Arrays {
        let mut of = vec![None; slots];
        let mut strided = vec![None; slots];
        // A strided access (`q[i].id`, `g[i][2]`) reads the array an access
        // by consecutive slots declares, if one contains it (`g[i][j]`);
        // otherwise it is an array of its own, so that the fields of an
        // array of records need neither one range nor consecutive slots.
        let flat: Vec<(u32, u32)> = accesses
            .iter()
            .filter(|a| a.3 == 1)
            .map(|a| (a.0, a.1))
            .collect();
        let (mut groups, mut fields) = (BTreeSet::new(), Vec::new());
        for &(base, len, n, s) in accesses {
            let end = base.saturating_add(len);
            let contained = flat
                .iter()
                .any(|&(b, l)| b <= base && end <= b.saturating_add(l));
            let extent = base as usize..(end as usize).min(slots);
            if s > 1 && !(contained && uniform(extent)) {
                fields.push((base, n, s));
            } else {
                groups.insert((base, len));
            }
        }
        // Largest first, so a sub-range access reuses the enclosing array.
        let mut sorted: Vec<_> = groups.iter().copied().collect();
        sorted.sort_by_key(|&(b, l)| (std::cmp::Reverse(l), b));
        for (base, len) in sorted {
            let range = base as usize..(base + len) as usize;
            if range.end > slots {
                errors.push(Diagnostic::error(
                    Span::default(),
                    format!("{what} array access out of the network's slots"),
                ));
                continue;
            }
            let inside = of[range.clone()].iter().all(|g| g.is_none());
            let covered = of[range.clone()]
                .iter()
                .all(|g| matches!(g, Some((b, l)) if *b <= base && base + len <= b + l));
            if inside {
                for g in &mut of[range] {
                    *g = Some((base, len));
                }
            } else if !covered {
                errors.push(Diagnostic::error(
                    span(base),
                    format!(
                        "overlapping {what} arrays cannot be exported (indexed accesses reach \
                         parts of this array that overlap without one containing the other)"
                    ),
                ));
            }
        }
        for (start, n, s) in fields {
            let reached: Vec<usize> = (0..n)
                .map(|k| (start as usize).saturating_add((k as usize).saturating_mul(s as usize)))
                .collect();
            if reached.iter().any(|&v| v >= slots) {
                continue;
            }
            let group = Some((start, n, s));
            if reached
                .iter()
                .all(|&v| of[v].is_none() && (strided[v].is_none() || strided[v] == group))
            {
                for &v in &reached {
                    strided[v] = group;
                }
            } else {
                errors.push(Diagnostic::error(
                    span(start),
                    format!(
                        "overlapping {what} arrays cannot be exported (a field of an array of \
                         records is also reached by another indexed access)"
                    ),
                ));
            }
        }
        Arrays { of, strided }
    }
}

/// Reports `message` at an array's first slot when its slots differ in
/// `key`: both formats declare one type (TChecker also one initial value)
/// for a whole array.
fn check_uniform<K: PartialEq>(
    slots: &[&zeno_ir::Variable],
    key: impl Fn(&zeno_ir::Variable) -> K,
    message: &str,
    errors: &mut Vec<Diagnostic>,
) {
    let first = key(slots[0]);
    if slots.iter().any(|s| key(s) != first) {
        errors.push(Diagnostic::error(slots[0].span, message));
    }
}

/// What the expressions of a network use: indexed arrays `(base, len)`,
/// and the dimensions that indices are checked against.
#[derive(Default)]
struct Uses {
    arrays: BTreeSet<Access>,
    checks: BTreeSet<u32>,
}

fn collect_expr(e: &Expr, uses: &mut Uses) {
    for_each_node(e, &mut |n| match n {
        Expr::Index { base, len, index } => {
            uses.arrays.insert(access(*base, *len, index));
        }
        Expr::Checked { len, .. } => {
            uses.checks.insert(*len);
        }
        _ => {}
    });
}

fn collect_formula(f: &Formula, uses: &mut Uses) {
    match f {
        Formula::Data(e) => collect_expr(e, uses),
        Formula::Clock(c) => collect_expr(&c.bound, uses),
        Formula::Not(a) => collect_formula(a, uses),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| collect_formula(f, uses)),
        _ => {}
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    TChecker,
    Xta,
}

/// Names and printing shared by both exporters.
struct Printer<'n> {
    net: &'n Network,
    vars: Arrays,
    dialect: Dialect,
    /// The dimensions indices are checked against (XTA writes a table for
    /// each).
    checks: BTreeSet<u32>,
    /// The calls, written as functions (XTA only).
    fns: Functions,
}

impl<'n> Printer<'n> {
    fn new(net: &'n Network, dialect: Dialect, errors: &mut Vec<Diagnostic>) -> Printer<'n> {
        let mut uses = Uses::default();
        for p in &net.processes {
            for l in &p.locations {
                l.invariant
                    .iter()
                    .for_each(|c| collect_expr(&c.bound, &mut uses));
                if let Some(d) = &l.data_invariant {
                    collect_expr(d, &mut uses);
                }
            }
            for e in &p.edges {
                if let Some(g) = &e.guard {
                    collect_expr(g, &mut uses);
                }
                e.clock_guard
                    .iter()
                    .for_each(|c| collect_expr(&c.bound, &mut uses));
                for u in &e.updates {
                    if let Update::Assign { target, value } = u {
                        if let Some(i) = &target.index {
                            uses.arrays.insert(access(target.base, target.len, i));
                            collect_expr(i, &mut uses);
                        }
                        collect_expr(value, &mut uses);
                    }
                }
                if let Some(s) = &e.sync
                    && let Some(i) = &s.channel.index
                {
                    collect_expr(i, &mut uses);
                }
            }
        }
        // A check's goal holds every formula of the check (negated or
        // conjoined, which changes nothing here).
        for c in &net.checks {
            collect_formula(&c.kind.goal(), &mut uses);
        }
        let fns = match dialect {
            Dialect::Xta => Functions::collect(net, &mut uses.checks),
            Dialect::TChecker => Functions::default(),
        };
        fns.state_arrays(&mut uses.arrays);
        let uniform = |r: std::ops::Range<usize>| {
            let slots = &net.variables[r];
            slots
                .iter()
                .all(|s| (s.lo, s.hi, s.is_bool) == (slots[0].lo, slots[0].hi, slots[0].is_bool))
        };
        let span = |v: u32| {
            net.variables
                .get(v as usize)
                .map_or_else(Span::default, |x| x.span)
        };
        let vars = Arrays::new(
            net.variables.len(),
            &uses.arrays,
            &uniform,
            &span,
            errors,
            "variable",
        );
        Printer {
            net,
            vars,
            dialect,
            checks: uses.checks,
            fns,
        }
    }

    /// The variables in declaration order: each array (its name and its
    /// slots) once, and each scalar (`None`, one slot).
    fn declared_vars(&self) -> Vec<(Option<String>, Vec<&'n zeno_ir::Variable>)> {
        let all = &self.net.variables;
        let mut out = Vec::new();
        let mut v = 0usize;
        while v < all.len() {
            if let Some((start, n, s)) = self.vars.strided[v] {
                if start as usize == v {
                    let slots = (0..n).map(|k| &all[(start + k * s) as usize]).collect();
                    out.push((Some(self.strided_ident(start)), slots));
                }
                v += 1;
                continue;
            }
            match self.vars.of[v] {
                Some((base, len)) if base as usize == v => {
                    let slots = all[v..v + len as usize].iter().collect();
                    out.push((Some(self.array_ident(base)), slots));
                    v += len as usize;
                }
                Some(_) => v += 1,
                None => {
                    out.push((None, vec![&all[v]]));
                    v += 1;
                }
            }
        }
        out
    }

    /// `q[0].id` → `q_id`: the name of the strided array from `start`.
    fn strided_ident(&self, start: u32) -> String {
        self.net
            .variables
            .get(start as usize)
            .map_or(format!("_v{start}"), |x| {
                clean(&x.name.replacen("[0]", "", 1))
            })
    }

    fn var(&self, v: u32) -> String {
        if let Some((start, _, s)) = self.vars.strided.get(v as usize).copied().flatten() {
            return format!("{}[{}]", self.strided_ident(start), (v - start) / s);
        }
        match self.vars.of.get(v as usize).copied().flatten() {
            Some((base, _)) => format!("{}[{}]", self.array_ident(base), v - base),
            None => self
                .net
                .variables
                .get(v as usize)
                .map_or(format!("_v{v}"), |x| clean(&x.name)),
        }
    }

    fn array_ident(&self, base: u32) -> String {
        self.net
            .variables
            .get(base as usize)
            .map_or(format!("_v{base}"), |x| array_name(&x.name))
    }

    fn clock(&self, c: u32) -> String {
        self.net
            .clocks
            .get(c as usize)
            .map_or(format!("_c{c}"), |x| clean(&x.name))
    }

    /// `e` in UPPAAL's syntax (which TChecker shares), reporting at `span`
    /// what TChecker cannot read.
    fn expr(&self, e: &Expr, span: Span, errors: &mut Vec<Diagnostic>) -> String {
        if self.dialect == Dialect::TChecker {
            reject_checked(e, span, errors);
        }
        self.check_dialect(e, span, errors);
        print::Printer::new(self, Style::UPPAAL).expr(e)
    }

    /// `e` as an operand of `op` (parenthesised unless it binds tighter):
    /// a conjunct of a guard, the bound of a clock constraint (`x <= (c ?
    /// 1 : 2)`, never `(x <= c) ? 1 : 2`).
    fn operand(&self, e: &Expr, op: BinOp, span: Span, errors: &mut Vec<Diagnostic>) -> String {
        if self.dialect == Dialect::TChecker {
            reject_checked(e, span, errors);
        }
        self.check_dialect(e, span, errors);
        print::Printer::new(self, Style::UPPAAL).operand(e, op)
    }

    /// `-e`, folding a constant or a negation away, as `expr`.
    fn negated(&self, e: &Expr, span: Span, errors: &mut Vec<Diagnostic>) -> String {
        if self.dialect == Dialect::TChecker {
            reject_checked(e, span, errors);
        }
        self.check_dialect(e, span, errors);
        print::Printer::new(self, Style::UPPAAL).negated(e)
    }

    /// Reports the operators of `e` that the dialect lacks, outermost first.
    fn check_dialect(&self, e: &Expr, span: Span, errors: &mut Vec<Diagnostic>) {
        if self.dialect == Dialect::Xta {
            return;
        }
        if let Expr::Call(c) = e {
            errors.push(no_functions(&c.name, span));
            return;
        }
        match e {
            Expr::Const(_) | Expr::Var(_) | Expr::Call(_) => {}
            Expr::Index { index, .. } | Expr::Checked { index, .. } => {
                self.check_dialect(index, span, errors)
            }
            Expr::Unary(op, a) => {
                if *op == UnOp::BitNot {
                    errors.push(Diagnostic::error(span, "TChecker has no bitwise `~`"));
                }
                self.check_dialect(a, span, errors);
            }
            Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                errors.push(Diagnostic::error(
                    span,
                    if *op == BinOp::Or {
                        "TChecker has no `||`".to_string()
                    } else {
                        "TChecker reads `&&` only between the conjuncts of a guard or an \
                         invariant, not inside an expression"
                            .to_string()
                    },
                ));
                self.check_dialect(a, span, errors);
                self.check_dialect(b, span, errors);
            }
            Expr::Binary(op, a, b) => {
                if matches!(
                    op,
                    BinOp::BitAnd
                        | BinOp::BitOr
                        | BinOp::BitXor
                        | BinOp::Shl
                        | BinOp::Shr
                        | BinOp::Min
                        | BinOp::Max
                        | BinOp::Pow
                ) {
                    errors.push(Diagnostic::error(
                        span,
                        format!(
                            "TChecker has no operator `{}`",
                            binop_text(*op, Style::UPPAAL)
                        ),
                    ));
                }
                self.check_dialect(a, span, errors);
                self.check_dialect(b, span, errors);
            }
            Expr::Cond(c, a, b) => {
                errors.push(Diagnostic::error(
                    span,
                    "TChecker has no conditional expression `c ? a : b`",
                ));
                self.check_dialect(c, span, errors);
                self.check_dialect(a, span, errors);
                self.check_dialect(b, span, errors);
            }
        }
    }

    /// The conjuncts of a location's invariant: its data condition first,
    /// then its clock bounds (XTA and TChecker both take integer conditions
    /// in invariants, with UPPAAL's meaning).
    /// Clock rates (stopwatches) come last, as UPPAAL writes them; TChecker
    /// has none.
    fn invariant(&self, l: &zeno_ir::Location, errors: &mut Vec<Diagnostic>) -> Vec<String> {
        let mut parts = self.conjuncts(l.data_invariant.as_ref(), &l.invariant, l.span, errors);
        let rated = !(l.stopped.is_empty() && l.running.is_empty() && l.data_rates.is_empty());
        if self.dialect == Dialect::TChecker && rated {
            errors.push(Diagnostic::error(
                l.span,
                "TChecker has no clock rates (stopwatches, `x' == 0`)",
            ));
        }
        let rate = |x: &u32, r: u8| format!("{}' == {r}", self.clock(*x));
        parts.extend(l.stopped.iter().map(|x| rate(x, 0)));
        parts.extend(l.running.iter().map(|x| rate(x, 1)));
        for (x, e) in &l.data_rates {
            let value = self.expr(e, l.span, errors);
            parts.push(format!("{}' == ({value})", self.clock(*x)));
        }
        parts
    }

    /// The conjuncts of an edge's guard, in the same order.
    fn guard(&self, e: &zeno_ir::Edge, errors: &mut Vec<Diagnostic>) -> Vec<String> {
        self.conjuncts(e.guard.as_ref(), &e.clock_guard, e.span, errors)
    }

    /// A data condition, then clock constraints, each as one conjunct.
    fn conjuncts(
        &self,
        data: Option<&Expr>,
        clocks: &[ClockConstraint],
        span: Span,
        errors: &mut Vec<Diagnostic>,
    ) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        match data {
            Some(d) if self.dialect == Dialect::TChecker => {
                self.tchecker_atoms(d, span, errors, &mut parts)
            }
            Some(d) => parts.push(self.operand(d, BinOp::And, span, errors)),
            None => {}
        }
        parts.extend(clocks.iter().map(|c| self.constraint(c, span, errors)));
        parts
    }

    /// A data condition as TChecker's conjuncts. TChecker reads `&&` only
    /// between the atoms of the one top-level conjunction (`(a && b) && c`
    /// and `!(a && b)` are syntax errors), has no `||`, and tests only
    /// truth values (`v` alone "is not bool valued"): conjunctions are
    /// flattened, an integer `e` tested is written `e != 0` (`!e`: `e ==
    /// 0`), and what is left (a disjunction, a negated conjunction, truth
    /// values compared) is reported.
    fn tchecker_atoms(
        &self,
        e: &Expr,
        span: Span,
        errors: &mut Vec<Diagnostic>,
        out: &mut Vec<String>,
    ) {
        let truth = |e: &Expr| {
            matches!(
                e,
                Expr::Unary(UnOp::Not, _)
                    | Expr::Binary(
                        BinOp::Lt
                            | BinOp::Le
                            | BinOp::Eq
                            | BinOp::Ne
                            | BinOp::Ge
                            | BinOp::Gt
                            | BinOp::And
                            | BinOp::Or,
                        _,
                        _
                    )
            )
        };
        let comparison = |e: &Expr| match e {
            Expr::Binary(
                BinOp::Lt | BinOp::Le | BinOp::Eq | BinOp::Ne | BinOp::Ge | BinOp::Gt,
                a,
                b,
            ) => !truth(a) && !truth(b),
            _ => false,
        };
        match e {
            Expr::Binary(BinOp::And, a, b) => {
                self.tchecker_atoms(a, span, errors, out);
                self.tchecker_atoms(b, span, errors, out);
            }
            e if comparison(e) => out.push(self.expr(e, span, errors)),
            Expr::Unary(UnOp::Not, a) if comparison(a) => {
                out.push(format!("!({})", self.expr(a, span, errors)));
            }
            Expr::Unary(UnOp::Not, a) if !truth(a) => {
                out.push(format!("{} == 0", self.operand(a, BinOp::Eq, span, errors)));
            }
            e if !truth(e) => {
                out.push(format!("{} != 0", self.operand(e, BinOp::Ne, span, errors)));
            }
            _ => errors.push(Diagnostic::error(
                span,
                "TChecker cannot express this condition: its guards and invariants are \
                 conjunctions of comparisons (no `||`, no `!` of a conjunction, no \
                 comparison of truth values)",
            )),
        }
    }

    fn constraint(&self, c: &ClockConstraint, span: Span, errors: &mut Vec<Diagnostic>) -> String {
        let rel = if c.strict { "<" } else { "<=" };
        if c.j == 0 {
            format!(
                "{} {rel} {}",
                self.clock(c.i),
                self.operand(&c.bound, BinOp::Le, span, errors)
            )
        } else if c.i == 0 {
            let rel = if c.strict { ">" } else { ">=" };
            let neg = self.negated(&c.bound, span, errors);
            format!("{} {rel} {neg}", self.clock(c.j))
        } else {
            format!(
                "{} - {} {rel} {}",
                self.clock(c.i),
                self.clock(c.j),
                self.operand(&c.bound, BinOp::Le, span, errors)
            )
        }
    }

    fn formula(&self, f: &Formula, span: Span, errors: &mut Vec<Diagnostic>) -> String {
        match f {
            Formula::True => "true".into(),
            Formula::False => "false".into(),
            Formula::At { process, location } => {
                let p = &self.net.processes[*process as usize];
                let l = p
                    .locations
                    .get(*location as usize)
                    .map_or("?", |l| l.name.as_str());
                format!("{}.{}", clean(&p.name), l)
            }
            Formula::Data(e) => format!("({})", self.expr(e, span, errors)),
            Formula::Clock(c) => format!("({})", self.constraint(c, span, errors)),
            Formula::Deadlock => "deadlock".into(),
            Formula::Not(a) => format!("!{}", self.formula(a, span, errors)),
            Formula::And(fs) | Formula::Or(fs) => {
                if fs.is_empty() {
                    return if matches!(f, Formula::And(_)) {
                        "true".into()
                    } else {
                        "false".into()
                    };
                }
                let sep = if matches!(f, Formula::And(_)) {
                    " && "
                } else {
                    " || "
                };
                let parts: Vec<String> = fs.iter().map(|g| self.formula(g, span, errors)).collect();
                format!("({})", parts.join(sep))
            }
        }
    }

    /// The channel slot an edge synchronises on, when known statically.
    fn chan_slot(&self, c: &ChanRef, span: Span, errors: &mut Vec<Diagnostic>) -> Option<u32> {
        match &c.index {
            None => Some(c.base),
            Some(i) if i.is_constant() => match i.eval(&[]) {
                Ok(k) if k >= 0 && (k as u32) < c.len => Some(c.base + k as u32),
                _ => {
                    errors.push(Diagnostic::error(span, "channel index out of bounds"));
                    None
                }
            },
            Some(_) => {
                errors.push(Diagnostic::error(
                    span,
                    "a channel index that depends on variables cannot be exported to TChecker",
                ));
                None
            }
        }
    }
}

/// Reports, once per expression, an index of a multi-dimensional array or
/// of an array of records that depends on variables (for TChecker): arrays
/// are written flat, where an index past its own dimension would read a
/// neighbouring element instead of being the error it is in zeno, and
/// TChecker has no constant table to check it through as XTA does.
fn reject_checked(e: &Expr, span: Span, errors: &mut Vec<Diagnostic>) {
    fn has_checked(e: &Expr) -> bool {
        match e {
            Expr::Checked { .. } => true,
            Expr::Const(_) | Expr::Var(_) | Expr::Call(_) => false,
            Expr::Index { index: a, .. } | Expr::Unary(_, a) => has_checked(a),
            Expr::Binary(_, a, b) => has_checked(a) || has_checked(b),
            Expr::Cond(c, a, b) => has_checked(c) || has_checked(a) || has_checked(b),
        }
    }
    if has_checked(e) {
        errors.push(Diagnostic::error(
            span,
            "an index into a multi-dimensional array or an array of records that depends on \
             variables cannot be exported to TChecker (the exported array is flat, where an index \
             past its own dimension would read a neighbouring element; export to XTA instead)",
        ));
    }
}

/// Names slots as the exported declarations do: rebuilt arrays and
/// flattened identifiers.
impl Names for Printer<'_> {
    fn var(&self, v: VarId) -> String {
        Printer::var(self, v)
    }

    fn array(&self, base: VarId) -> (String, u32) {
        if let Some((start, _, s)) = self.vars.strided.get(base as usize).copied().flatten() {
            return (self.strided_ident(start), (base - start) / s);
        }
        match self.vars.of.get(base as usize).copied().flatten() {
            // A sub-range of a bigger array is read with a shifted index.
            Some((b, _)) => (self.array_ident(b), base - b),
            None => (self.array_ident(base), 0),
        }
    }

    /// XTA: `_idxN`, declared `const int _idxN[N] = { 0, …, N - 1 };`, so
    /// that UPPAAL reports an index outside its own dimension as zeno
    /// does. TChecker has no constant arrays: such an index is rejected.
    fn stride(&self, base: VarId) -> u32 {
        self.vars
            .strided
            .get(base as usize)
            .copied()
            .flatten()
            .map_or(1, |(_, _, s)| s)
    }

    fn checked(&self, len: u32) -> Option<String> {
        (self.dialect == Dialect::Xta).then(|| checked_table(len))
    }

    fn call(&self, c: &zeno_ir::Call) -> Option<String> {
        (self.dialect == Dialect::Xta).then(|| self.fns.entry(c))
    }

    fn clock(&self, c: u32) -> String {
        Printer::clock(self, c)
    }
}

fn checked_table(len: u32) -> String {
    format!("_idx{len}")
}

/// Locations whose joint occupation a check asks about, when the check is a
/// plain conjunction of locations (`E<> P1.cs && P2.cs` or `A[] !(...)`).
fn location_atoms(kind: &CheckKind) -> Option<Vec<Vec<(u32, u32)>>> {
    let f = match kind {
        CheckKind::Reachable(f) => f,
        CheckKind::Invariant(Formula::Not(f)) => f,
        CheckKind::Invariant(_) => return None,
        // TChecker's reachability labels cannot say anything about runs.
        CheckKind::Inevitable(_)
        | CheckKind::Potentially(_)
        | CheckKind::LeadsTo(..)
        | CheckKind::Bound(_) => {
            return None;
        }
    };
    // One conjunct: a location, or a disjunction of locations (one label
    // on each of them: a state carries the labels of all its locations).
    let conjunct = |g: &Formula| match g {
        Formula::At { process, location } => Some(vec![(*process, *location)]),
        Formula::Or(gs) if !gs.is_empty() => gs
            .iter()
            .map(|h| match h {
                Formula::At { process, location } => Some((*process, *location)),
                _ => None,
            })
            .collect(),
        _ => None,
    };
    match f {
        Formula::And(fs) => fs.iter().map(conjunct).collect(),
        f => Some(vec![conjunct(f)?]),
    }
}

/// TChecker has no functions (XTA writes them: `export_functions.rs`).
fn no_functions(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        span,
        format!(
            "the call of `{name}` cannot be exported: TChecker has no functions (export to XTA instead)"
        ),
    )
}

fn updates_text(
    pr: &Printer,
    us: &[Update],
    span: Span,
    errors: &mut Vec<Diagnostic>,
    sep: &str,
) -> String {
    let parts: Vec<String> = us
        .iter()
        .map(|u| match u {
            Update::Assign { target, value } => {
                let lhs = match &target.index {
                    None => pr.var(target.base),
                    Some(i) => pr.expr(
                        &Expr::Index {
                            base: target.base,
                            len: target.len,
                            index: Box::new(i.clone()),
                        },
                        span,
                        errors,
                    ),
                };
                format!("{lhs} = {}", pr.expr(value, span, errors))
            }
            Update::ResetClock { clock, value } => format!("{} = {value}", pr.clock(*clock)),
            Update::Call(c) if pr.dialect == Dialect::Xta => pr.fns.entry(c),
            // A reset to a value or at an index that depends on the state
            // (a nameless call of its own, or inside a function).
            Update::Call(c) if c.resets_dynamically() => {
                errors.push(Diagnostic::error(
                    span,
                    "a clock reset to a value or at an index that depends on the state, or \
                     under a condition, cannot be exported: TChecker resets clocks to \
                     constants only (export to XTA instead)",
                ));
                format!("{}()", c.name)
            }
            Update::Call(c) => {
                errors.push(no_functions(&c.name, span));
                format!("{}()", c.name)
            }
        })
        .collect();
    parts.join(sep)
}

/// Writes the network in TChecker's format. Binary channels become one
/// synchronisation vector per (sender, receiver) pair of processes,
/// broadcast channels one vector per sender with weak (`?`) receivers.
/// Checks that are conjunctions of locations become location labels and a
/// comment with the `tck-reach -l` question.
/// Priorities are not written out: TChecker has none, and the XTA exporter
/// does not rebuild the declaration over its flattened names. Each is a
/// located error, so an export never silently changes a model's behaviour.
fn priority_errors(net: &Network, format: &str) -> Vec<Diagnostic> {
    let p = &net.priorities;
    let mut errors = Vec::new();
    if !p.channel.is_empty() {
        errors.push(Diagnostic::error(
            p.channel_span.unwrap_or_default(),
            format!("channel priorities are not exported to {format}"),
        ));
    }
    if !p.process.is_empty() {
        errors.push(Diagnostic::error(
            p.process_span.unwrap_or_default(),
            format!("process priorities (`<` in the system line) are not exported to {format}"),
        ));
    }
    errors
}

/// Writes the network as a TChecker file whose system is named
/// `system_name`. A check on a conjunction of locations becomes labels on
/// those locations, with a comment giving the `tck-reach -l` question;
/// other checks are listed as not expressible.
pub fn export_tchecker(net: &Network, system_name: &str) -> Result<String, Vec<Diagnostic>> {
    let mut errors = priority_errors(net, "TChecker");
    clock_clashes(net, &mut errors);
    let pr = Printer::new(net, Dialect::TChecker, &mut errors);
    let mut out = format!("# exported from zeno\nsystem:{}\n\n", clean(system_name));
    // Labels for the checks.
    let mut labels: BTreeMap<(u32, u32), Vec<String>> = BTreeMap::new();
    let mut notes = Vec::new();
    for c in &net.checks {
        match location_atoms(&c.kind) {
            Some(atoms) => {
                let names: Vec<String> = (1..=atoms.len())
                    .map(|k| format!("{}_{k}", clean(&c.name)))
                    .collect();
                for (locations, n) in atoms.iter().zip(&names) {
                    for a in locations {
                        let on = labels.entry(*a).or_default();
                        if !on.contains(n) {
                            on.push(n.clone());
                        }
                    }
                }
                let meaning = if matches!(c.kind, CheckKind::Reachable(_)) {
                    "holds iff reachable"
                } else {
                    "holds iff not reachable"
                };
                notes.push(format!(
                    "# check {}: tck-reach -l {} ({meaning})",
                    c.name,
                    names.join(",")
                ));
            }
            None => notes.push(format!(
                "# check {}: not expressible with labels (only `E<>` and `A[] !` of \
                 locations, disjunctions of locations, and conjunctions of these are)",
                c.name
            )),
        }
    }
    for n in &notes {
        out.push_str(n);
        out.push('\n');
    }
    // Events: one per channel slot and direction, plus `tau`.
    let mut senders: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut receivers: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let chan_name = |c: u32| {
        net.channels
            .get(c as usize)
            .map_or(format!("_ch{c}"), |x| clean(&x.name))
    };
    let mut edge_events: Vec<Vec<Option<String>>> = Vec::new();
    for (pi, p) in net.processes.iter().enumerate() {
        let mut evs = Vec::new();
        for e in &p.edges {
            let ev = e.sync.as_ref().and_then(|s| {
                let slot = pr.chan_slot(&s.channel, e.span, &mut errors)?;
                if net.channels.get(slot as usize).is_some_and(|c| c.urgent) {
                    errors.push(Diagnostic::error(e.span, "TChecker has no urgent channels"));
                }
                let send = matches!(s.dir, zeno_ir::SyncDir::Send);
                if send {
                    senders.entry(slot).or_default().insert(pi as u32);
                } else {
                    receivers.entry(slot).or_default().insert(pi as u32);
                }
                Some(format!(
                    "{}_{}",
                    chan_name(slot),
                    if send { "snd" } else { "rcv" }
                ))
            });
            // An action label is its own event (internal when no vector
            // names it, in TChecker as in zeno).
            let ev = ev.or_else(|| e.label.as_deref().map(clean));
            evs.push(ev);
        }
        edge_events.push(evs);
    }
    out.push_str("\nevent:tau\n");
    // A vector may name a label no edge of its process carries (the
    // vector then never fires, or that weak participant stays out); the
    // event must be declared all the same.
    let vector_events: Vec<String> = net
        .vectors
        .iter()
        .flat_map(|v| &v.participants)
        .map(|p| clean(&p.label))
        .collect();
    let all_events: BTreeSet<&String> = edge_events
        .iter()
        .flatten()
        .flatten()
        .chain(&vector_events)
        .collect();
    for e in &all_events {
        out.push_str(&format!("event:{e}\n"));
    }
    out.push('\n');
    // Variables: arrays where an indexed access exists, scalars otherwise.
    for (array, slots) in pr.declared_vars() {
        let x = &slots[0];
        check_uniform(
            &slots,
            |s| (s.lo, s.hi, s.init),
            "TChecker arrays need one range and initial value for all elements",
            &mut errors,
        );
        let name = array.unwrap_or_else(|| clean(&x.name));
        out.push_str(&format!(
            "int:{}:{}:{}:{}:{name}\n",
            slots.len(),
            x.lo,
            x.hi,
            x.init,
        ));
    }
    for c in 1..net.clocks.len() {
        out.push_str(&format!("clock:1:{}\n", pr.clock(c as u32)));
    }
    for (pi, p) in net.processes.iter().enumerate() {
        let pname = clean(&p.name);
        out.push_str(&format!("\nprocess:{pname}\n"));
        for (li, l) in p.locations.iter().enumerate() {
            let mut attrs = Vec::new();
            if li as u32 == p.initial {
                attrs.push("initial:".to_string());
            }
            match l.kind {
                LocationKind::Committed => attrs.push("committed:".into()),
                LocationKind::Urgent => attrs.push("urgent:".into()),
                LocationKind::Normal => {}
            }
            let inv = pr.invariant(l, &mut errors);
            if !inv.is_empty() {
                attrs.push(format!("invariant:{}", inv.join("&&")));
            }
            if let Some(ls) = labels.get(&(pi as u32, li as u32)) {
                attrs.push(format!("labels:{}", ls.join(",")));
            }
            out.push_str(&format!(
                "location:{pname}:{}{{{}}}\n",
                l.name,
                attrs.join(" : ")
            ));
        }
        for (ei, e) in p.edges.iter().enumerate() {
            let src = &p.locations[e.source as usize].name;
            let dst = &p.locations[e.target as usize].name;
            let ev = edge_events[pi][ei].clone();
            // A handshake with no possible partner can never fire.
            if let (Some(ev), Some(s)) = (&ev, &e.sync)
                && let Some(slot) = pr.chan_slot(&s.channel, e.span, &mut Vec::new())
            {
                let partners = if matches!(s.dir, zeno_ir::SyncDir::Send) {
                    &receivers
                } else {
                    &senders
                };
                let kind = net.channels.get(slot as usize).map(|c| c.kind);
                let has_partner = partners
                    .get(&slot)
                    .is_some_and(|ps| ps.iter().any(|q| *q != pi as u32));
                let alone_ok =
                    kind == Some(ChannelKind::Broadcast) && matches!(s.dir, zeno_ir::SyncDir::Send);
                if !has_partner && !alone_ok {
                    out.push_str(&format!(
                        "# edge {src} -> {dst} on {ev} never fires: no partner process\n"
                    ));
                    continue;
                }
            }
            let guard = pr.guard(e, &mut errors);
            let mut attrs = Vec::new();
            if !guard.is_empty() {
                attrs.push(format!("provided:{}", guard.join("&&")));
            }
            if !e.updates.is_empty() {
                attrs.push(format!(
                    "do:{}",
                    updates_text(&pr, &e.updates, e.span, &mut errors, ";")
                ));
            }
            out.push_str(&format!(
                "edge:{pname}:{src}:{dst}:{}{{{}}}\n",
                ev.as_deref().unwrap_or("tau"),
                attrs.join(" : ")
            ));
        }
    }
    out.push('\n');
    for (slot, ss) in &senders {
        let name = chan_name(*slot);
        let rs = receivers.get(slot).cloned().unwrap_or_default();
        let broadcast = net
            .channels
            .get(*slot as usize)
            .is_some_and(|c| c.kind == ChannelKind::Broadcast);
        for s in ss {
            let sname = clean(&net.processes[*s as usize].name);
            if broadcast {
                let weak: Vec<String> = rs
                    .iter()
                    .filter(|r| *r != s)
                    .map(|r| format!("{}@{name}_rcv?", clean(&net.processes[*r as usize].name)))
                    .collect();
                if !weak.is_empty() {
                    out.push_str(&format!("sync:{sname}@{name}_snd:{}\n", weak.join(":")));
                }
            } else {
                for r in rs.iter().filter(|r| *r != s) {
                    let rname = clean(&net.processes[*r as usize].name);
                    out.push_str(&format!("sync:{sname}@{name}_snd:{rname}@{name}_rcv\n"));
                }
            }
        }
    }
    for v in &net.vectors {
        let parts: Vec<String> = v
            .participants
            .iter()
            .map(|x| {
                format!(
                    "{}@{}{}",
                    clean(&net.processes[x.process as usize].name),
                    clean(&x.label),
                    if x.weak { "?" } else { "" }
                )
            })
            .collect();
        out.push_str(&format!("sync:{}\n", parts.join(":")));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Writes the network as a UPPAAL XTA 4.x file, and its checks as a UPPAAL
/// query file (one query per line).
pub fn export_xta(net: &Network) -> Result<(String, String), Vec<Diagnostic>> {
    let mut errors = priority_errors(net, "XTA");
    for v in &net.vectors {
        let parts: Vec<String> = v
            .participants
            .iter()
            .map(|x| {
                let p = net
                    .processes
                    .get(x.process as usize)
                    .map_or("?", |p| &p.name);
                format!("{p}.{}{}", x.label, if x.weak { "?" } else { "" })
            })
            .collect();
        errors.push(Diagnostic::error(
            v.span,
            format!(
                "UPPAAL has no synchronisation vectors (only binary and broadcast channels): \
                 `sync {};` cannot be exported to XTA (export to TChecker instead)",
                parts.join(", ")
            ),
        ));
    }
    clock_clashes(net, &mut errors);
    let pr = Printer::new(net, Dialect::Xta, &mut errors);
    let mut out = String::from("// exported from zeno\n");
    for (array, slots) in pr.declared_vars() {
        let x = &slots[0];
        let ty = if x.is_bool {
            "bool".to_string()
        } else {
            format!("int[{}, {}]", x.lo, x.hi)
        };
        let val = |s: &zeno_ir::Variable| {
            if s.is_bool {
                (if s.init != 0 { "true" } else { "false" }).to_string()
            } else {
                s.init.to_string()
            }
        };
        match array {
            Some(name) => {
                let len = slots.len();
                let inits: Vec<String> = slots.iter().map(|s| val(s)).collect();
                check_uniform(
                    &slots,
                    |s| (s.lo, s.hi, s.is_bool),
                    "array elements with different ranges cannot be exported",
                    &mut errors,
                );
                // All-zero arrays need no initialiser.
                if slots.iter().all(|s| s.init == 0) {
                    out.push_str(&format!("{ty} {name}[{len}];\n"));
                } else {
                    out.push_str(&format!("{ty} {name}[{len}] = {{{}}};\n", inits.join(", ")));
                }
            }
            None => out.push_str(&format!("{ty} {} = {};\n", clean(&x.name), val(x))),
        }
    }
    for &len in &pr.checks {
        let values: Vec<String> = (0..len).map(|k| k.to_string()).collect();
        out.push_str(&format!(
            "const int {}[{len}] = {{{}}};\n",
            checked_table(len),
            values.join(", ")
        ));
    }
    for c in 1..net.clocks.len() {
        out.push_str(&format!("clock {};\n", pr.clock(c as u32)));
    }
    // Channels: arrays rebuilt from indexed synchronisations.
    let mut chan_groups = BTreeSet::new();
    for p in &net.processes {
        for e in &p.edges {
            if let Some(s) = &e.sync
                && s.channel.index.is_some()
            {
                chan_groups.insert((s.channel.base, s.channel.len, s.channel.len, 1));
            }
        }
    }
    // Channel indices are never strided (a channel array has no records).
    let chans = Arrays::new(
        net.channels.len(),
        &chan_groups,
        &|_| true,
        &|c| {
            net.channels
                .get(c as usize)
                .map_or_else(Span::default, |x| x.span)
        },
        &mut errors,
        "channel",
    );
    let chan_array = |b: u32| {
        net.channels
            .get(b as usize)
            .map_or(format!("_ch{b}"), |c| array_name(&c.name))
    };
    let mut c = 0usize;
    while c < net.channels.len() {
        let ch = &net.channels[c];
        let mut kw = String::new();
        if ch.urgent {
            kw.push_str("urgent ");
        }
        if ch.kind == ChannelKind::Broadcast {
            kw.push_str("broadcast ");
        }
        match chans.of[c] {
            Some((base, len)) if base as usize == c => {
                out.push_str(&format!("{kw}chan {}[{len}];\n", chan_array(base)));
                c += len as usize;
            }
            Some(_) => c += 1,
            None => {
                out.push_str(&format!("{kw}chan {};\n", clean(&ch.name)));
                c += 1;
            }
        }
    }
    out.push_str(&pr.fns.declarations(&pr));
    let mut names = Vec::new();
    for p in &net.processes {
        let pname = clean(&p.name);
        names.push(pname.clone());
        out.push_str(&format!("\nprocess {pname}() {{\n"));
        let states: Vec<String> = p
            .locations
            .iter()
            .map(|l| {
                let inv = pr.invariant(l, &mut errors);
                if inv.is_empty() {
                    l.name.clone()
                } else {
                    format!("{} {{ {} }}", l.name, inv.join(" && "))
                }
            })
            .collect();
        out.push_str(&format!("state\n    {};\n", states.join(",\n    ")));
        let of_kind = |k: LocationKind| -> Vec<&str> {
            p.locations
                .iter()
                .filter(|l| l.kind == k)
                .map(|l| l.name.as_str())
                .collect()
        };
        let committed = of_kind(LocationKind::Committed);
        if !committed.is_empty() {
            out.push_str(&format!("commit {};\n", committed.join(", ")));
        }
        let urgent = of_kind(LocationKind::Urgent);
        if !urgent.is_empty() {
            out.push_str(&format!("urgent {};\n", urgent.join(", ")));
        }
        let init = p
            .locations
            .get(p.initial as usize)
            .map_or("?", |l| l.name.as_str());
        out.push_str(&format!("init {init};\n"));
        if !p.edges.is_empty() {
            let mut trans = Vec::new();
            for e in &p.edges {
                let mut labels = Vec::new();
                let guard = pr.guard(e, &mut errors);
                if !guard.is_empty() {
                    labels.push(format!("guard {};", guard.join(" && ")));
                }
                if let Some(s) = &e.sync {
                    let ch = match &s.channel.index {
                        // A constant index folded away by lowering: the
                        // slot may still be an element of a rebuilt array.
                        None => match chans.of.get(s.channel.base as usize).copied().flatten() {
                            Some((b, _)) => {
                                format!("{}[{}]", chan_array(b), s.channel.base - b)
                            }
                            None => net
                                .channels
                                .get(s.channel.base as usize)
                                .map_or(String::new(), |c| clean(&c.name)),
                        },
                        Some(i) => format!(
                            "{}[{}]",
                            chan_array(s.channel.base),
                            pr.expr(i, e.span, &mut errors)
                        ),
                    };
                    let dir = if matches!(s.dir, zeno_ir::SyncDir::Send) {
                        "!"
                    } else {
                        "?"
                    };
                    labels.push(format!("sync {ch}{dir};"));
                }
                if !e.updates.is_empty() {
                    labels.push(format!(
                        "assign {};",
                        updates_text(&pr, &e.updates, e.span, &mut errors, ", ")
                    ));
                }
                trans.push(format!(
                    "    {} -> {} {{ {} }}",
                    p.locations[e.source as usize].name,
                    p.locations[e.target as usize].name,
                    labels.join(" ")
                ));
            }
            out.push_str(&format!("trans\n{};\n", trans.join(",\n")));
        }
        out.push_str("}\n");
    }
    out.push_str(&format!("\nsystem {};\n", names.join(", ")));
    let mut queries = String::new();
    for c in &net.checks {
        let query = match &c.kind {
            CheckKind::Invariant(f) => format!("A[] {}", pr.formula(f, c.span, &mut errors)),
            CheckKind::Reachable(f) => format!("E<> {}", pr.formula(f, c.span, &mut errors)),
            CheckKind::Inevitable(f) => format!("A<> {}", pr.formula(f, c.span, &mut errors)),
            CheckKind::Potentially(f) => format!("E[] {}", pr.formula(f, c.span, &mut errors)),
            CheckKind::LeadsTo(p, q) => format!(
                "({}) --> ({})",
                pr.formula(p, c.span, &mut errors),
                pr.formula(q, c.span, &mut errors)
            ),
            CheckKind::Bound(b) => {
                let terms: Vec<String> = b
                    .terms
                    .iter()
                    .map(|t| match &t.value {
                        zeno_ir::BoundValue::Clock(x) => pr.clock(*x),
                        zeno_ir::BoundValue::Data(e) => {
                            pr.formula(&Formula::Data(e.clone()), c.span, &mut errors)
                        }
                    })
                    .collect();
                let word = match b.extremum {
                    zeno_ir::Extremum::Sup => "sup",
                    zeno_ir::Extremum::Inf => "inf",
                };
                format!(
                    "{word}{{{}}}: {}",
                    pr.formula(&b.pred, c.span, &mut errors),
                    terms.join(", ")
                )
            }
        };
        queries.push_str(&format!("/* {} */\n{query}\n", c.name));
    }
    if errors.is_empty() {
        Ok((out, queries))
    } else {
        Err(errors)
    }
}
