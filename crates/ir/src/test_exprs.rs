//! Short constructors of expressions for the unit tests of `ir`.

use super::{BinOp, Expr, VarId};

pub(crate) fn c(v: i32) -> Box<Expr> {
    Box::new(Expr::Const(v))
}

pub(crate) fn var(v: VarId) -> Box<Expr> {
    Box::new(Expr::Var(v))
}

pub(crate) fn bin(op: BinOp, a: Box<Expr>, b: Box<Expr>) -> Box<Expr> {
    Box::new(Expr::Binary(op, a, b))
}
