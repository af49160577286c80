//! Semantic types, symbols and constant folding.

use std::sync::Arc;

use zeno_ir::{self as ir, BinOp, ChanId, ChannelKind, ClockId, UnOp, VarId};

/// Range of plain `int`.
pub const INT_MIN: i64 = -32768;
/// Upper end of the range of plain `int`.
pub const INT_MAX: i64 = 32767;

/// The most instances, select copies or quantifier values one construct may
/// expand into; beyond this the model is rejected with a diagnostic instead of
/// exhausting memory.
pub const MAX_EXPANSION: i64 = 10_000;

/// A semantic type: a [`TypeRef`](crate::hir::TypeRef) with its
/// typedefs and sizes resolved.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `int[lo, hi]`; plain `int` is [`Ty::int`].
    Int {
        /// The smallest value.
        lo: i64,
        /// The largest value.
        hi: i64,
    },
    /// `bool`.
    Bool,
    /// `clock`.
    Clock,
    /// A channel.
    Chan {
        /// Binary or broadcast.
        kind: ChannelKind,
        /// Whether it is `urgent`.
        urgent: bool,
    },
    /// `len` elements, indexed `first ..= first + len - 1` (0 for a size,
    /// the type's lower bound for an array indexed by a type, `int a[pid_t]`).
    Array {
        /// The type of each element.
        elem: Box<Ty>,
        /// The number of elements.
        len: u32,
        /// The index of the first element.
        first: i32,
    },
    /// `struct { … }`: named fields, stored one after the other.
    Record(Vec<(String, Ty)>),
    /// Already reported; suppresses follow-up errors.
    Error,
}

/// The most variable slots (or channels) one declaration may occupy.
pub const MAX_SLOTS: u32 = 100_000;

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
    /// Plain `int`: `int[INT_MIN, INT_MAX]`.
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

    /// Whether it is an integer or boolean type (or [`Ty::Error`]).
    pub fn is_data(&self) -> bool {
        matches!(self, Ty::Int { .. } | Ty::Bool | Ty::Error)
    }

    /// An array or a record (a value of several slots).
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Ty::Array { .. } | Ty::Record(_))
    }

    /// The number of slots a value of this type occupies, `None` when a
    /// length is unknown (a template checked on its own) or the total is
    /// beyond [`MAX_SLOTS`].
    pub fn slots(&self) -> Option<u32> {
        match self {
            Ty::Array { elem, len, .. } => {
                elem.slots()?.checked_mul(*len).filter(|n| *n <= MAX_SLOTS)
            }
            Ty::Record(fields) => fields
                .iter()
                .try_fold(0u32, |acc, (_, t)| acc.checked_add(t.slots()?))
                .filter(|n| *n <= MAX_SLOTS),
            _ => Some(1),
        }
    }

    /// The scalar types stored in the slots of a value of this type, in
    /// slot order, each with the path that names it (`[1][2]`, `.a`).
    /// Only for types whose [`Ty::slots`] is known.
    pub fn leaves(&self, path: &mut String, out: &mut Vec<(String, Ty)>) {
        match self {
            Ty::Array { elem, len, first } => {
                for k in 0..*len as i64 {
                    let at = path.len();
                    path.push_str(&format!("[{}]", *first as i64 + k));
                    elem.leaves(path, out);
                    path.truncate(at);
                }
            }
            Ty::Record(fields) => {
                for (name, t) in fields {
                    let at = path.len();
                    path.push('.');
                    path.push_str(name);
                    t.leaves(path, out);
                    path.truncate(at);
                }
            }
            t => out.push((path.clone(), t.clone())),
        }
    }

    /// The innermost element type: `int` for `int[2][3]`, the record for
    /// an array of records.
    pub fn scalar_part(&self) -> &Ty {
        match self {
            Ty::Array { elem, .. } => elem.scalar_part(),
            t => t,
        }
    }

    /// Whether a value of type `b` can be assigned to or compared with one
    /// of type `self`: the same shape (dimensions, their first indices,
    /// field names), any integer and boolean ranges in the slots (a value
    /// outside a range is caught when assigned, as for scalars).
    pub fn same_shape(&self, b: &Ty) -> bool {
        match (self, b) {
            (Ty::Error, _) | (_, Ty::Error) => true,
            (Ty::Int { .. } | Ty::Bool, Ty::Int { .. } | Ty::Bool) => true,
            (
                Ty::Array {
                    elem: e1,
                    len: n1,
                    first: f1,
                },
                Ty::Array {
                    elem: e2,
                    len: n2,
                    first: f2,
                },
            ) => n1 == n2 && f1 == f2 && e1.same_shape(e2),
            (Ty::Record(f1), Ty::Record(f2)) => {
                f1.len() == f2.len()
                    && f1
                        .iter()
                        .zip(f2)
                        .all(|((n1, t1), (n2, t2))| n1 == n2 && t1.same_shape(t2))
            }
            _ => false,
        }
    }

    /// The type in words, for diagnostics: `int[0, 3][2]`,
    /// `struct { bool b; }`.
    pub fn describe(&self) -> String {
        match self {
            Ty::Int { lo, hi } => format!("int[{lo}, {hi}]"),
            Ty::Bool => "bool".into(),
            Ty::Clock => "clock".into(),
            Ty::Chan { .. } => "chan".into(),
            Ty::Array { .. } => {
                // `int[0, 3][2][int[1, 3]]`: dimensions outermost first, as declared.
                let mut dims = String::new();
                let mut t = self;
                while let Ty::Array { elem, len, first } = t {
                    if *first == 0 {
                        dims.push_str(&format!("[{len}]"));
                    } else {
                        let last = *first as i64 + *len as i64 - 1;
                        dims.push_str(&format!("[int[{first}, {last}]]"));
                    }
                    t = elem;
                }
                format!("{}{dims}", t.describe())
            }
            Ty::Record(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|(n, t)| format!("{} {n};", t.describe()))
                    .collect();
                format!("struct {{ {} }}", fields.join(" "))
            }
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
        /// The value.
        value: Option<i64>,
        /// Its type.
        ty: Ty,
    },
    /// A variable (or array) stored from slot `base`.
    Var {
        /// The first slot.
        base: VarId,
        /// Its type.
        ty: Ty,
    },
    /// A clock.
    Clock {
        /// The clock.
        id: ClockId,
    },
    /// A clock array (`clock x[3]`, `clock x[2][2]`): `shape` is an array
    /// of [`Ty::Clock`], its elements the clocks from `base` in slot order.
    Clocks {
        /// The first clock.
        base: ClockId,
        /// The array type whose elements are the clocks.
        shape: Ty,
    },
    /// A channel, or a channel array (`shape` is then an array of
    /// [`Ty::Chan`]) stored from channel `base`.
    Chan {
        /// The first channel.
        base: ChanId,
        /// The channel or channel array type.
        shape: Ty,
        /// Binary or broadcast.
        kind: ChannelKind,
        /// Whether it is `urgent`.
        urgent: bool,
    },
    /// A constant array or record: its values in slot order (`None`
    /// while a template is checked on its own and they depend on its
    /// parameters).
    ConstData {
        /// The values in slot order.
        values: Option<Arc<[i32]>>,
        /// Its type.
        ty: Ty,
    },
    /// A type name (`typedef`).
    Typedef(Ty),
    /// A function.
    Function(std::sync::Arc<FunctionDef>),
}

/// A function as its callers see it: its declaration, inlined at every
/// call in the scope it was declared in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FunctionDef {
    /// The declaration.
    pub hir: std::sync::Arc<crate::hir::Function>,
    /// How many scopes were open where it was declared (1: global, 2: a
    /// template's): its body sees those and nothing of the caller's.
    pub scope_depth: u32,
    /// The result type (`None` for `void`); an array or a record is
    /// returned in frame slots the caller provides.
    pub ret: Option<Ty>,
}

impl Sym {
    /// What kind of symbol it is, in words (`constant`, `variable`, `clock`
    /// …), for diagnostics.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Sym::Const { .. } | Sym::ConstData { .. } => "constant",
            Sym::Var { .. } => "variable",
            Sym::Clock { .. } => "clock",
            Sym::Clocks { .. } => "clock array",
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

/// Folds a unary operation on a constant, or `None` when it is undefined.
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

/// Builds `op a`, folding it when `a` is a constant.
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
