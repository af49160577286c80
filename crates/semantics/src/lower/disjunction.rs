//! Guards that compare clocks under `||`, `!` or `imply` (`x < 2 || x > 5`,
//! `!(done && x == 8)`): UPPAAL reads them, and a zone holds one conjunction
//! of clock bounds, so such a guard is rewritten into a disjunction of
//! conjunctions and the edge is lowered once per disjunct. The copies have
//! the same sync and updates; where two disjuncts overlap, both copies lead
//! to the same states, so the transitions are exactly those of the guard.

use super::*;
use crate::hir::Name;

/// More disjuncts than this are an error rather than a blow-up of edges.
const MAX_DISJUNCTS: usize = 64;

impl Ctx {
    /// The guards to lower an edge with: `[guard]` itself, unless it
    /// compares a clock under `||`, `!` or `imply`; then its disjuncts,
    /// each a conjunction of clock comparisons and data conditions.
    pub(super) fn guard_disjuncts(&mut self, guard: Option<&hir::Expr>) -> Vec<Option<hir::Expr>> {
        let Some(g) = guard else {
            return vec![None];
        };
        if !self.clock_under_disjunction(g, false) {
            return vec![Some(g.clone())];
        }
        match self.dnf(g, false) {
            Some(ds) => ds
                .into_iter()
                .map(|conj| {
                    conj.into_iter().reduce(|a, b| {
                        hir::Expr::new(
                            ExprKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
                            g.span,
                        )
                    })
                })
                .collect(),
            None => {
                self.error(
                    g.span,
                    format!(
                        "this guard has more than {MAX_DISJUNCTS} alternatives once its clock comparisons are taken apart"
                    ),
                );
                vec![None]
            }
        }
    }

    /// Whether a clock appears under `||`, `!`, `imply` or in `!=` (which
    /// is `<` or `>`) in this guard.
    fn clock_under_disjunction(&self, e: &hir::Expr, under: bool) -> bool {
        match &e.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                self.clock_under_disjunction(a, under) || self.clock_under_disjunction(b, under)
            }
            ExprKind::Binary(BinaryOp::Or | BinaryOp::Imply, a, b) => {
                self.clock_under_disjunction(a, true) || self.clock_under_disjunction(b, true)
            }
            ExprKind::Unary(UnaryOp::Not, a) => self.clock_under_disjunction(a, true),
            // `exists` is a disjunction of its instances; `forall` one
            // only under `||`, `!` or `imply`.
            ExprKind::Quant(QuantKind::Exists, _, _, body) => self.mentions_clock(body),
            ExprKind::Quant(QuantKind::Forall, _, _, body) => {
                self.clock_under_disjunction(body, under)
            }
            ExprKind::Binary(BinaryOp::Ne, _, _) => self.mentions_clock(e),
            _ => under && self.mentions_clock(e),
        }
    }

    /// Whether the expression names a clock or a clock array.
    pub(super) fn mentions_clock(&self, e: &hir::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => {
                matches!(
                    self.peek(n, e.span),
                    Some(Sym::Clock { .. } | Sym::Clocks { .. })
                )
            }
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                self.mentions_clock(a) || self.mentions_clock(b)
            }
            ExprKind::Unary(_, a) | ExprKind::Rate(a) => self.mentions_clock(a),
            ExprKind::Cond(a, b, c) => {
                self.mentions_clock(a) || self.mentions_clock(b) || self.mentions_clock(c)
            }
            ExprKind::Call(_, args) => args.iter().any(|a| self.mentions_clock(a)),
            ExprKind::Quant(_, _, _, body) => self.mentions_clock(body),
            _ => false,
        }
    }

    /// The disjunctive normal form of `e` (negated when `neg`): a list of
    /// conjunctions of atoms. A negated clock comparison becomes its
    /// complement (`!(x < 3)` is `x >= 3`, `!(x == 3)` is `x < 3 || x > 3`);
    /// an atom without clocks stays as it is (negated: `!a`) and is lowered
    /// as data. `None` when there would be too many disjuncts.
    fn dnf(&mut self, e: &hir::Expr, neg: bool) -> Option<Vec<Vec<hir::Expr>>> {
        match &e.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => self.dnf_both(a, neg, b, neg, !neg),
            ExprKind::Binary(BinaryOp::Or, a, b) => self.dnf_both(a, neg, b, neg, neg),
            // a imply b = !a || b; negated: a && !b.
            ExprKind::Binary(BinaryOp::Imply, a, b) => self.dnf_both(a, !neg, b, neg, neg),
            ExprKind::Unary(UnaryOp::Not, a) => self.dnf(a, !neg),
            ExprKind::Quant(kind @ (QuantKind::Forall | QuantKind::Exists), name, tyref, body)
                if self.mentions_clock(body) =>
            {
                self.dnf_quantifier(*kind, name, tyref, body, neg)
            }
            ExprKind::Binary(
                op @ (BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Ge
                | BinaryOp::Gt),
                a,
                b,
            ) if self.mentions_clock(e) => {
                let cmp = |op: BinaryOp| {
                    hir::Expr::new(ExprKind::Binary(op, a.clone(), b.clone()), e.span)
                };
                let atoms: Vec<BinaryOp> = match (op, neg) {
                    (BinaryOp::Eq, true) | (BinaryOp::Ne, false) => {
                        vec![BinaryOp::Lt, BinaryOp::Gt]
                    }
                    (op, false) => vec![*op],
                    (BinaryOp::Lt, true) => vec![BinaryOp::Ge],
                    (BinaryOp::Le, true) => vec![BinaryOp::Gt],
                    (BinaryOp::Ge, true) => vec![BinaryOp::Lt],
                    (BinaryOp::Gt, true) => vec![BinaryOp::Le],
                    (_, true) => vec![BinaryOp::Eq],
                };
                Some(atoms.into_iter().map(|op| vec![cmp(op)]).collect())
            }
            _ if neg => Some(vec![vec![hir::Expr::new(
                ExprKind::Unary(UnaryOp::Not, Box::new(e.clone())),
                e.span,
            )]]),
            _ => Some(vec![vec![e.clone()]]),
        }
    }
}

impl Ctx {
    /// The disjunctive normal form of `a` and `b` (`and`) or `a` or `b`.
    fn dnf_both(
        &mut self,
        a: &hir::Expr,
        na: bool,
        b: &hir::Expr,
        nb: bool,
        and: bool,
    ) -> Option<Vec<Vec<hir::Expr>>> {
        let (l, r) = (self.dnf(a, na)?, self.dnf(b, nb)?);
        if and {
            product(l, r)
        } else {
            let mut l = l;
            l.extend(r);
            (l.len() <= MAX_DISJUNCTS).then_some(l)
        }
    }

    /// `exists (i : T) body` over clock comparisons: the disjunction of its
    /// instances (`forall`, the conjunction; negated, the other one). Each
    /// atom of an instance is kept as `forall (i : int[v, v]) atom`, which
    /// binds `i` to the instance's value `v` when the atom is lowered.
    fn dnf_quantifier(
        &mut self,
        kind: QuantKind,
        name: &Name,
        tyref: &TypeRef,
        body: &hir::Expr,
        neg: bool,
    ) -> Option<Vec<Vec<hir::Expr>>> {
        let Some(values) = self.quant_values(name, tyref) else {
            return Some(Vec::new()); // reported
        };
        let instance = self.dnf(body, neg)?;
        let disjunction = (kind == QuantKind::Exists) != neg;
        let mut out: Vec<Vec<hir::Expr>> = if disjunction {
            Vec::new()
        } else {
            vec![Vec::new()]
        };
        for v in values {
            let bound: Vec<Vec<hir::Expr>> = instance
                .iter()
                .map(|conj| conj.iter().map(|atom| bind(name, v, tyref, atom)).collect())
                .collect();
            if disjunction {
                out.extend(bound);
                if out.len() > MAX_DISJUNCTS {
                    return None;
                }
            } else {
                out = product(out, bound)?;
            }
        }
        Some(out)
    }
}

/// `forall (name : int[v, v]) atom`: `atom` with `name` bound to `v`; with
/// no value (a template checked on its own), `forall (name : T) atom`, which
/// checks `atom` once for an unknown value of `T`.
fn bind(name: &Name, v: Option<i64>, tyref: &TypeRef, atom: &hir::Expr) -> hir::Expr {
    let at = atom.span;
    let single = match v {
        Some(v) => {
            let value = || hir::Expr::new(ExprKind::Int(v), at);
            TypeRef::Int {
                range: Some(Box::new((value(), value()))),
                span: at,
            }
        }
        None => tyref.clone(),
    };
    hir::Expr::new(
        ExprKind::Quant(
            QuantKind::Forall,
            name.clone(),
            single,
            Box::new(atom.clone()),
        ),
        at,
    )
}

/// The conjunctions of one from each side.
fn product(l: Vec<Vec<hir::Expr>>, r: Vec<Vec<hir::Expr>>) -> Option<Vec<Vec<hir::Expr>>> {
    if l.len().saturating_mul(r.len()) > MAX_DISJUNCTS {
        return None;
    }
    let mut out = Vec::new();
    for a in &l {
        for b in &r {
            let mut c = a.clone();
            c.extend(b.iter().cloned());
            out.push(c);
        }
    }
    Some(out)
}
