//! Evaluation of ir expressions on a valuation of the variable slots.

use super::{BinOp, Call, ChanId, ChanRef, Expr, LValue, Span, UnOp, VarId};

/// A run-time error of the model: the checker reports it as a reachable
/// error. `site` says where inside a function it happened, when it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{kind}")]
pub struct EvalError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The statement of the innermost function being run; `None` outside
    /// functions (the edge, guard or invariant is then the place).
    pub site: Option<FnSite>,
}

/// Where inside a function a run-time error happened: spans into the model
/// text (`report::describe_error` turns them into the function's name and
/// a line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FnSite {
    /// The function's name in its declaration.
    pub function: Span,
    /// The statement being run.
    pub statement: Span,
}

impl From<ErrorKind> for EvalError {
    fn from(kind: ErrorKind) -> EvalError {
        EvalError { kind, site: None }
    }
}

/// What went wrong in a run-time error of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ErrorKind {
    /// An array index outside the array.
    #[error("array index {index} is out of bounds 0..{len}")]
    IndexOutOfBounds {
        /// The index, 0-based.
        index: i32,
        /// The array's length.
        len: u32,
    },
    /// `/` or `%` by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// An integer result outside the range of `i32`.
    #[error("integer overflow")]
    Overflow,
    /// `a ** b` with `b < 0` (its value is not an integer).
    #[error("negative exponent {exponent} in `**`")]
    NegativeExponent {
        /// The exponent.
        exponent: i32,
    },
    /// An assignment of a value outside the variable's range.
    #[error("value {value} is outside the range [{lo}, {hi}] of variable #{var}")]
    OutOfRange {
        /// The variable's slot.
        var: VarId,
        /// The value assigned.
        value: i32,
        /// The smallest value the variable allows.
        lo: i32,
        /// The largest value the variable allows.
        hi: i32,
    },
    /// A function returned a value outside its result type.
    #[error("a function returned {value}, outside its result range [{lo}, {hi}]")]
    ResultOutOfRange {
        /// The value returned.
        value: i32,
        /// The smallest value the result type allows.
        lo: i32,
        /// The largest value the result type allows.
        hi: i32,
    },
    /// A call ran more than [`MAX_LOOP_STEPS`](super::MAX_LOOP_STEPS) loop
    /// iterations.
    #[error(
        "a loop in a function ran more than {} iterations",
        super::MAX_LOOP_STEPS
    )]
    LoopLimit,
    /// A function called in a condition (a guard, an invariant) tried to
    /// write a variable.
    #[error("a function called in a condition tried to change a variable")]
    EffectInCondition,
    /// A clock reset to a value it cannot take (negative, or beyond the
    /// largest clock constant).
    #[error(
        "a clock reset to {value}: a clock can be reset to 0..={}",
        super::MAX_CLOCK_CONSTANT
    )]
    ClockValue {
        /// The value.
        value: i32,
    },
    /// A clock rate given by data (`x' == b`) evaluated to a value other
    /// than 0 or 1: zeno's clocks are stopwatches.
    #[error("a clock rate of {value}: a clock's rate can be 0 or 1 (a stopwatch)")]
    ClockRate {
        /// The value.
        value: i32,
    },
}

pub(super) fn index_in(index: i32, len: u32) -> Result<u32, ErrorKind> {
    if index >= 0 && (index as u32) < len {
        Ok(index as u32)
    } else {
        Err(ErrorKind::IndexOutOfBounds { index, len })
    }
}

fn truth(b: bool) -> i32 {
    b as i32
}

/// Where an expression reads its variables and runs its calls: the state's
/// slots ([`Expr::eval`]), or those and the frame of a function being run.
pub(super) trait Env {
    /// The value of variable slot `slot`.
    fn slot(&mut self, slot: VarId) -> i32;
    /// The value of `call`.
    fn value(&mut self, call: &Call) -> Result<i32, EvalError>;
}

/// The state's variable slots, read only.
struct Slots<'a>(&'a [i32]);

impl Env for Slots<'_> {
    fn slot(&mut self, slot: VarId) -> i32 {
        self.0[slot as usize]
    }
    fn value(&mut self, call: &Call) -> Result<i32, EvalError> {
        call.value(self.0)
    }
}

/// Generates a walk over an expression's direct operands, by reference or
/// (with `mut`) by mutable reference, from one match. A call's arguments are
/// not operands: they are assigned in its body.
macro_rules! operand_walk {
    ($(#[$doc:meta])* $name:ident $($mut:tt)?) => {
        $(#[$doc])*
        pub(super) fn $name<'e>(&'e $($mut)? self, mut f: impl FnMut(&'e $($mut)? Expr)) {
            match self {
                Expr::Const(_) | Expr::Var(_) | Expr::Call(_) => {}
                Expr::Index { index: e, .. } | Expr::Checked { index: e, .. } | Expr::Unary(_, e) => {
                    f(e)
                }
                Expr::Binary(_, a, b) => {
                    f(a);
                    f(b);
                }
                Expr::Cond(c, a, b) => {
                    f(c);
                    f(a);
                    f(b);
                }
            }
        }
    };
}

impl Expr {
    operand_walk!(
        /// Calls `f` on each direct operand, left to right.
        for_each_operand
    );
    operand_walk!(
        /// [`Expr::for_each_operand`], with each operand to change.
        for_each_operand_mut mut
    );

    /// This node with each direct operand replaced by `f(operand)` (a
    /// call, a constant and a variable are copied as they are): the one
    /// rebuild that substitutions and rewrites recurse through.
    pub fn map_operands(&self, mut f: impl FnMut(&Expr) -> Expr) -> Expr {
        let mut out = self.clone();
        out.for_each_operand_mut(|o| *o = f(o));
        out
    }

    /// The value of the expression, reading variable slots from `vars`.
    pub fn eval(&self, vars: &[i32]) -> Result<i32, EvalError> {
        self.eval_in(&mut Slots(vars))
    }

    /// The value of the expression in `env`.
    pub(super) fn eval_in(&self, env: &mut impl Env) -> Result<i32, EvalError> {
        match self {
            Expr::Const(c) => Ok(*c),
            Expr::Var(v) => Ok(env.slot(*v)),
            Expr::Index { base, len, index } => {
                let i = index_in(index.eval_in(env)?, *len)?;
                Ok(env.slot(*base + i))
            }
            Expr::Checked { index, len } => Ok(index_in(index.eval_in(env)?, *len)? as i32),
            Expr::Unary(op, e) => Ok(apply_unary(*op, e.eval_in(env)?)?),
            Expr::Binary(BinOp::And, a, b) => {
                Ok(truth(a.eval_in(env)? != 0 && b.eval_in(env)? != 0))
            }
            Expr::Binary(BinOp::Or, a, b) => {
                Ok(truth(a.eval_in(env)? != 0 || b.eval_in(env)? != 0))
            }
            Expr::Binary(BinOp::Imply, a, b) => {
                Ok(truth(a.eval_in(env)? == 0 || b.eval_in(env)? != 0))
            }
            Expr::Binary(op, a, b) => Ok(apply_binary(*op, a.eval_in(env)?, b.eval_in(env)?)?),
            Expr::Cond(c, a, b) => {
                if c.eval_in(env)? != 0 {
                    a.eval_in(env)
                } else {
                    b.eval_in(env)
                }
            }
            Expr::Call(c) => env.value(c),
        }
    }

    /// Whether the expression reads no variable.
    pub fn is_constant(&self) -> bool {
        match self {
            Expr::Const(_) => true,
            Expr::Var(_) | Expr::Index { .. } => false,
            Expr::Checked { index, .. } | Expr::Unary(_, index) => index.is_constant(),
            Expr::Binary(_, a, b) => a.is_constant() && b.is_constant(),
            Expr::Cond(c, a, b) => c.is_constant() && a.is_constant() && b.is_constant(),
            Expr::Call(_) => false,
        }
    }

    /// Pushes the top-level conjuncts of the expression (itself when it is
    /// not an `&&`).
    pub fn conjuncts_into<'e>(&'e self, out: &mut Vec<&'e Expr>) {
        match self {
            Expr::Binary(BinOp::And, a, b) => {
                a.conjuncts_into(out);
                b.conjuncts_into(out);
            }
            _ => out.push(self),
        }
    }

    /// Calls `f` on every variable slot the expression may read (every element
    /// of an indexed array).
    pub fn for_each_read(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Expr::Var(v) => f(*v),
            Expr::Index { base, len, .. } => (*base..*base + *len).for_each(&mut *f),
            Expr::Call(c) => c.reads.iter().copied().for_each(&mut *f),
            _ => {}
        }
        self.for_each_operand(|e| e.for_each_read(f));
    }
}

/// `op a`, exactly or an error: the one definition of the unary operators'
/// arithmetic (constant folding uses it too).
pub fn apply_unary(op: UnOp, a: i32) -> Result<i32, ErrorKind> {
    match op {
        UnOp::Neg => a.checked_neg().ok_or(ErrorKind::Overflow),
        UnOp::Not => Ok(truth(a == 0)),
        UnOp::BitNot => Ok(!a),
    }
}

/// `a << b` when it equals `a · 2^b` exactly: a shift that drops significant
/// bits (or changes the sign) is an overflow, like a multiplication would be,
/// and so is a shift by a negative amount or by 32 or more.
fn shift_left(a: i32, b: i32) -> Option<i32> {
    let r = a.checked_shl(u32::try_from(b).ok()?)?;
    (r >> b == a).then_some(r)
}

/// `a op b` on two values, exactly or an error (`&&`, `||` and `imply`
/// here take both values; [`Expr::eval`] short-circuits them before calling this): the
/// one definition of the binary operators' arithmetic, which constant folding
/// in the semantics layer uses too, so that a constant and the same
/// expression evaluated at run time can never disagree.
pub fn apply_binary(op: BinOp, a: i32, b: i32) -> Result<i32, ErrorKind> {
    let overflow = ErrorKind::Overflow;
    Ok(match op {
        BinOp::Add => a.checked_add(b).ok_or(overflow)?,
        BinOp::Sub => a.checked_sub(b).ok_or(overflow)?,
        BinOp::Mul => a.checked_mul(b).ok_or(overflow)?,
        BinOp::Div if b == 0 => return Err(ErrorKind::DivisionByZero),
        BinOp::Div => a.checked_div(b).ok_or(overflow)?,
        BinOp::Mod if b == 0 => return Err(ErrorKind::DivisionByZero),
        // `i32::MIN % -1` is 0 exactly (only the quotient overflows).
        BinOp::Mod => a.checked_rem(b).unwrap_or(0),
        BinOp::Lt => truth(a < b),
        BinOp::Le => truth(a <= b),
        BinOp::Eq => truth(a == b),
        BinOp::Ne => truth(a != b),
        BinOp::Ge => truth(a >= b),
        BinOp::Gt => truth(a > b),
        BinOp::And => truth(a != 0 && b != 0),
        BinOp::Or => truth(a != 0 || b != 0),
        BinOp::Imply => truth(a == 0 || b != 0),
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Shl => shift_left(a, b).ok_or(overflow)?,
        // Arithmetic shift: never loses a significant bit.
        BinOp::Shr => u32::try_from(b)
            .ok()
            .and_then(|b| a.checked_shr(b))
            .ok_or(overflow)?,
        BinOp::Min => a.min(b),
        BinOp::Max => a.max(b),
        BinOp::Pow => match u32::try_from(b) {
            Ok(b) => a.checked_pow(b).ok_or(overflow)?,
            Err(_) => return Err(ErrorKind::NegativeExponent { exponent: b }),
        },
    })
}

impl LValue {
    /// The slot this lvalue designates in the current valuation.
    pub fn resolve(&self, vars: &[i32]) -> Result<VarId, EvalError> {
        match &self.index {
            None => Ok(self.base),
            Some(index) => Ok(self.base + index_in(index.eval(vars)?, self.len)?),
        }
    }
}

impl ChanRef {
    /// The channel this reference designates in the current valuation.
    pub fn resolve(&self, vars: &[i32]) -> Result<ChanId, EvalError> {
        match &self.index {
            None => Ok(self.base),
            Some(index) => Ok(self.base + index_in(index.eval(vars)?, self.len)?),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_exprs::c;

    #[test]
    fn conjuncts_split_top_level_and_only() {
        // (1 && (2 && 3)) && (4 || 5): three conjuncts, the `||` kept whole.
        let and = |a, b| Expr::Binary(BinOp::And, a, b);
        let or = Expr::Binary(BinOp::Or, c(4), c(5));
        let e = and(
            Box::new(and(c(1), Box::new(and(c(2), c(3))))),
            Box::new(or.clone()),
        );
        let mut out = Vec::new();
        e.conjuncts_into(&mut out);
        assert_eq!(out, vec![&*c(1), &*c(2), &*c(3), &or]);
    }

    #[test]
    fn deadlock_goals_are_found() {
        use crate::Formula;
        let dl = Formula::Not(Box::new(Formula::Deadlock));
        assert!(Formula::Not(Box::new(dl)).mentions_deadlock());
        assert!(Formula::Or(vec![Formula::True, Formula::Deadlock]).mentions_deadlock());
        assert!(!Formula::And(vec![Formula::True, Formula::False]).mentions_deadlock());
    }

    #[test]
    fn arithmetic_follows_c() {
        let vars = [];
        let e = |op, a, b| Expr::Binary(op, c(a), c(b)).eval(&vars);
        assert_eq!(e(BinOp::Div, -7, 2), Ok(-3));
        assert_eq!(e(BinOp::Mod, -7, 2), Ok(-1));
        assert_eq!(e(BinOp::Div, 1, 0), Err(ErrorKind::DivisionByZero.into()));
        assert_eq!(e(BinOp::Add, i32::MAX, 1), Err(ErrorKind::Overflow.into()));
        assert_eq!(e(BinOp::Le, 3, 3), Ok(1));
    }

    #[test]
    fn index_out_of_bounds_is_a_model_error() {
        let vars = [10, 20, 30];
        let read = |i| {
            Expr::Index {
                base: 1,
                len: 2,
                index: c(i),
            }
            .eval(&vars)
        };
        assert_eq!(read(1), Ok(30));
        assert_eq!(
            read(2),
            Err(ErrorKind::IndexOutOfBounds { index: 2, len: 2 }.into())
        );
        assert_eq!(
            read(-1),
            Err(ErrorKind::IndexOutOfBounds { index: -1, len: 2 }.into())
        );
    }

    #[test]
    fn logical_operators_short_circuit() {
        // 0 && (1 / 0) must not evaluate the division.
        let div0 = Box::new(Expr::Binary(BinOp::Div, c(1), c(0)));
        let and = Expr::Binary(BinOp::And, c(0), div0.clone());
        assert_eq!(and.eval(&[]), Ok(0));
        let or = Expr::Binary(BinOp::Or, c(1), div0.clone());
        assert_eq!(or.eval(&[]), Ok(1));
        // 0 imply (1 / 0) is true without the division; 1 imply 0 is false.
        let imply = Expr::Binary(BinOp::Imply, c(0), div0);
        assert_eq!(imply.eval(&[]), Ok(1));
        assert_eq!(Expr::Binary(BinOp::Imply, c(1), c(0)).eval(&[]), Ok(0));
        assert_eq!(Expr::Binary(BinOp::Imply, c(2), c(3)).eval(&[]), Ok(1));
    }
}
