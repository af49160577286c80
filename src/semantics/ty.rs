//! Semantic types, symbols and constant folding.

use crate::ir::{self, BinOp, ChanId, ChannelKind, ClockId, UnOp, VarId};

/// Range of plain `int`.
pub const INT_MIN: i64 = -32768;
pub const INT_MAX: i64 = 32767;

/// The most instances, select copies or quantifier values one construct may
/// expand into; beyond this the model is rejected with a diagnostic instead of
/// exhausting memory.
pub const MAX_EXPANSION: i64 = 10_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ty {
    Int {
        lo: i64,
        hi: i64,
    },
    Bool,
    Clock,
    Chan {
        kind: ChannelKind,
        urgent: bool,
    },
    Array(Box<Ty>, u32),
    /// Already reported; suppresses follow-up errors.
    Error,
}

/// UPPAAL's built-in sized integer types and their ranges. They are type
/// names, not keywords (UPPAAL predeclares them the same way), so a model's
/// own declaration of the name takes precedence.
pub const BUILTIN_INT_TYPES: &[(&str, i64, i64)] = &[
    ("int8_t", -128, 127),
    ("uint8_t", 0, 255),
    ("int16_t", -32768, 32767),
    ("uint16_t", 0, 65535),
    ("int32_t", i32::MIN as i64, i32::MAX as i64),
];

/// The range of a built-in sized integer type.
pub fn builtin_int_type(name: &str) -> Option<Ty> {
    BUILTIN_INT_TYPES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, lo, hi)| Ty::Int { lo, hi })
}

impl Ty {
    pub fn int() -> Ty {
        Ty::Int {
            lo: INT_MIN,
            hi: INT_MAX,
        }
    }

    /// The values of a bounded scalar type, as used by `select`, quantifiers
    /// and `system` expansion.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        match self {
            Ty::Int { lo, hi } => Some((*lo, *hi)),
            Ty::Bool => Some((0, 1)),
            _ => None,
        }
    }

    pub fn is_data(&self) -> bool {
        matches!(self, Ty::Int { .. } | Ty::Bool | Ty::Error)
    }

    pub fn describe(&self) -> String {
        match self {
            Ty::Int { lo, hi } => format!("int[{lo}, {hi}]"),
            Ty::Bool => "bool".into(),
            Ty::Clock => "clock".into(),
            Ty::Chan { .. } => "chan".into(),
            Ty::Array(t, n) => format!("{}[{n}]", t.describe()),
            Ty::Error => "?".into(),
        }
    }
}

/// What a name stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Sym {
    /// A compile-time value: `const int`, a value parameter, a `select` or
    /// quantifier binding. `value` is `None` while a template is checked on
    /// its own, before its parameters are known.
    Const {
        value: Option<i64>,
        ty: Ty,
    },
    /// A variable (or array) stored from slot `base`.
    Var {
        base: VarId,
        ty: Ty,
    },
    Clock {
        id: ClockId,
    },
    /// A channel, or a channel array of `len` elements.
    Chan {
        base: ChanId,
        len: Option<u32>,
        kind: ChannelKind,
        urgent: bool,
    },
    Typedef(Ty),
    Function(std::sync::Arc<FunctionDef>),
}

/// A function as its callers see it: its declaration, inlined at every
/// call in the scope it was declared in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FunctionDef {
    pub hir: std::sync::Arc<crate::semantics::hir::Function>,
    /// How many scopes were open where it was declared (1: global, 2: a
    /// template's): its body sees those and nothing of the caller's.
    pub scope_depth: u32,
}

impl Sym {
    pub fn kind_name(&self) -> &'static str {
        match self {
            Sym::Const { .. } => "constant",
            Sym::Var { .. } => "variable",
            Sym::Clock { .. } => "clock",
            Sym::Chan { .. } => "channel",
            Sym::Typedef(_) => "type",
            Sym::Function(_) => "function",
        }
    }
}

/// Folds an operation on constants, or `None` when it is undefined
/// (division by zero, overflow): then the caller reports it. The arithmetic is
/// the checker's own ([`ir::apply_binary`]), so folding at compile time
/// and evaluating at run time cannot disagree.
pub fn fold_binary(op: BinOp, a: i32, b: i32) -> Option<i32> {
    ir::apply_binary(op, a, b).ok()
}

pub fn fold_unary(op: UnOp, a: i32) -> Option<i32> {
    ir::apply_unary(op, a).ok()
}

/// Builds `a op b`, folding it when both sides are constants.
pub fn binary(op: BinOp, a: ir::Expr, b: ir::Expr) -> ir::Expr {
    if let (ir::Expr::Const(x), ir::Expr::Const(y)) = (&a, &b)
        && let Some(v) = fold_binary(op, *x, *y)
    {
        return ir::Expr::Const(v);
    }
    ir::Expr::Binary(op, Box::new(a), Box::new(b))
}

pub fn unary(op: UnOp, a: ir::Expr) -> ir::Expr {
    if let ir::Expr::Const(x) = a
        && let Some(v) = fold_unary(op, x)
    {
        return ir::Expr::Const(v);
    }
    ir::Expr::Unary(op, Box::new(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        assert_eq!(fold_binary(BinOp::Div, 7, 2), Some(3));
        assert_eq!(fold_binary(BinOp::Mod, -7, 2), Some(-1));
        assert_eq!(fold_binary(BinOp::Div, 1, 0), None);
        assert_eq!(fold_binary(BinOp::Add, i32::MAX, 1), None);
        assert_eq!(
            binary(BinOp::Add, ir::Expr::Const(2), ir::Expr::Const(3)),
            ir::Expr::Const(5)
        );
        assert_eq!(unary(UnOp::Not, ir::Expr::Const(4)), ir::Expr::Const(0));
        assert!(matches!(
            binary(BinOp::Add, ir::Expr::Var(0), ir::Expr::Const(3)),
            ir::Expr::Binary(..)
        ));
    }
}
