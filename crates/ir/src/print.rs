//! Prints ir expressions as model text, with the fewest parentheses that
//! keep C's precedence and left associativity.
//!
//! The ir knows variables only by slot; a [`Names`] says how a slot and an
//! array are called in the text being written (display names for pictures,
//! flattened identifiers for the exporters), and a [`Style`] covers the
//! spellings in which the target languages differ.

use super::{BinOp, Call, Expr, UnOp, VarId};
use zeno_base::operators::Prec;

/// How the text being written names what the ir indexes.
pub trait Names {
    /// A variable slot read on its own: `x`, `P1.count`, `a[2]`.
    fn var(&self, v: VarId) -> String;
    /// The array an indexed read starting at slot `base` names, and the
    /// position of `base` in it (not 0 when the read covers only part of a
    /// bigger array; the printer then adds it to the index).
    fn array(&self, base: VarId) -> (String, u32);
    /// The slots one step of the named array skips (more than 1 for the
    /// fields of an array of records written as an array of their own:
    /// `q[i].id` as `q_id[i]`); the index `i * stride` is then written `i`.
    fn stride(&self, base: VarId) -> u32 {
        let _ = base;
        1
    }
    /// A constant table `t` with `t[k] == k` for `k` in `0..len`, through
    /// which an index checked against a dimension of `len` is written
    /// (`t[i]`, an error where `i` is outside the table, as the check is);
    /// `None` writes the index alone (for display, where the array's
    /// declaration says what the index ranges over).
    fn checked(&self, len: u32) -> Option<String> {
        let _ = len;
        None
    }
    /// How a call is written; `None` writes the function's name and the
    /// arguments as written at the call site (for display).
    fn call(&self, c: &Call) -> Option<String> {
        let _ = c;
        None
    }
    /// A clock's name (in a function's [`super::Stmt::ResetClock`]).
    fn clock(&self, c: super::ClockId) -> String {
        format!("_c{c}")
    }
}

/// The spellings in which the target languages differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// `a <? b` and `a >? b` (UPPAAL's, TChecker's and zeno's infix
    /// minimum and maximum) rather than calls `min(a, b)` and `max(a, b)`.
    pub infix_min_max: bool,
    /// `(a < b) < c` rather than `a < b < c`: comparisons never chain.
    pub unchained_comparisons: bool,
}

impl Style {
    /// zeno's own syntax.
    pub const ZENO: Style = Style {
        infix_min_max: true,
        unchained_comparisons: false,
    };
    /// The expressions UPPAAL and TChecker read.
    pub const UPPAAL: Style = Style {
        infix_min_max: true,
        unchained_comparisons: true,
    };
}

// Binding strengths, higher binds tighter: the levels of the one operator
// table (`zeno_base::operators`).
const COND: u8 = Prec::Cond.level();
const EQUALITY: u8 = Prec::Equality.level();
const RELATION: u8 = Prec::Relation.level();
const UNARY: u8 = Prec::Prefix.level();
const ATOM: u8 = Prec::Atom.level();

fn binop_prec(op: BinOp, style: Style) -> u8 {
    match op {
        // Printed as calls, which need no parentheses.
        BinOp::Min | BinOp::Max if !style.infix_min_max => ATOM,
        _ => op.prec().level(),
    }
}

/// The operator's text (`+`, `&&`; `min`/`max` or `<?`/`>?` by style).
pub fn binop_text(op: BinOp, style: Style) -> &'static str {
    match op {
        BinOp::Min if !style.infix_min_max => "min",
        BinOp::Max if !style.infix_min_max => "max",
        _ => op.spelling(),
    }
}

fn unop_text(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::Not => "!",
        UnOp::BitNot => "~",
    }
}

/// Writes expressions with the names of `N` in a [`Style`].
pub struct Printer<'n, N: Names + ?Sized> {
    names: &'n N,
    style: Style,
}

impl<'n, N: Names + ?Sized> Printer<'n, N> {
    /// A printer naming slots, clocks and channels by `names`.
    pub fn new(names: &'n N, style: Style) -> Printer<'n, N> {
        Printer { names, style }
    }

    /// The expression as text.
    pub fn expr(&self, e: &Expr) -> String {
        let mut out = String::new();
        self.write(&mut out, e, 0);
        out
    }

    /// The expression as an operand of `op` (either side): parenthesised
    /// unless it binds tighter, so `a || b` next to `&&` is `(a || b)`.
    pub fn operand(&self, e: &Expr, op: BinOp) -> String {
        let mut out = String::new();
        self.write(&mut out, e, binop_prec(op, self.style) + 1);
        out
    }

    /// `-e` as text, folding a constant or a negation away: `-3`, `x`
    /// for `-(-x)`, `-(x + 1)`. `i32::MIN` has no negation in `i32`:
    /// `-(-2147483648)`. The text is the right-hand side of a clock
    /// comparison (`x >= -b`), so a folded `-(-e)` keeps its parentheses
    /// where `e` binds looser than a comparison: `x >= (c ? 1 : 2)`.
    pub fn negated(&self, e: &Expr) -> String {
        match e {
            Expr::Const(n) => n.checked_neg().map_or(format!("-({n})"), |v| v.to_string()),
            Expr::Unary(UnOp::Neg, inner) => self.operand(inner, BinOp::Le),
            _ => {
                let mut out = String::from("-");
                self.write(&mut out, e, UNARY);
                out
            }
        }
    }

    fn prec(&self, e: &Expr) -> u8 {
        match e {
            Expr::Const(_) | Expr::Var(_) | Expr::Index { .. } | Expr::Call(_) => ATOM,
            Expr::Checked { index, len } => match self.names.checked(*len) {
                Some(_) => ATOM,
                None => self.prec(index),
            },
            Expr::Unary(..) => UNARY,
            Expr::Binary(op, ..) => binop_prec(*op, self.style),
            Expr::Cond(..) => COND,
        }
    }

    /// Writes `e`, in parentheses when it binds looser than `min`.
    fn write(&self, out: &mut String, e: &Expr, min: u8) {
        if let Expr::Checked { index, len } = e {
            match self.names.checked(*len) {
                Some(table) => {
                    out.push_str(&table);
                    out.push('[');
                    self.write(out, index, 0);
                    out.push(']');
                }
                // The index as written.
                None => self.write(out, index, min),
            }
            return;
        }
        let prec = self.prec(e);
        let paren = prec < min;
        if paren {
            out.push('(');
        }
        match e {
            Expr::Const(n) => out.push_str(&n.to_string()),
            Expr::Var(v) => out.push_str(&self.names.var(*v)),
            Expr::Index { base, index, .. } => {
                let (array, offset) = self.names.array(*base);
                let stride = self.names.stride(*base);
                let index = match &**index {
                    Expr::Binary(BinOp::Mul, i, k)
                        if stride > 1 && **k == Expr::Const(stride as i32) =>
                    {
                        i
                    }
                    _ => index,
                };
                out.push_str(&array);
                out.push('[');
                self.write(out, index, 0);
                if offset != 0 {
                    out.push_str(&format!(" + {offset}"));
                }
                out.push(']');
            }
            Expr::Checked { .. } => {}
            Expr::Unary(op, a) => {
                out.push_str(unop_text(*op));
                let mut operand = String::new();
                self.write(&mut operand, a, UNARY);
                // `-(-x)` written `--x` would be a decrement.
                if *op == UnOp::Neg && operand.starts_with('-') {
                    out.push(' ');
                }
                out.push_str(&operand);
            }
            Expr::Call(c) => {
                if let Some(text) = self.names.call(c) {
                    out.push_str(&text);
                    return;
                }
                out.push_str(&c.name);
                out.push('(');
                for (i, a) in c.args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write(out, a, 0);
                }
                out.push(')');
            }
            Expr::Binary(op @ (BinOp::Min | BinOp::Max), a, b) if !self.style.infix_min_max => {
                out.push_str(binop_text(*op, self.style));
                out.push('(');
                self.write(out, a, 0);
                out.push_str(", ");
                self.write(out, b, 0);
                out.push(')');
            }
            Expr::Binary(op, a, b) => {
                // Left-associative: the right operand needs parentheses at
                // equal precedence, and so does the left one of a comparison
                // when comparisons do not chain.
                let comparison = matches!(prec, EQUALITY | RELATION);
                let left = if comparison && self.style.unchained_comparisons {
                    prec + 1
                } else {
                    prec
                };
                self.write(out, a, left);
                out.push(' ');
                out.push_str(binop_text(*op, self.style));
                out.push(' ');
                self.write(out, b, prec + 1);
            }
            Expr::Cond(c, a, b) => {
                self.write(out, c, COND + 1);
                out.push_str(" ? ");
                self.write(out, a, COND + 1);
                out.push_str(" : ");
                self.write(out, b, COND);
            }
        }
        if paren {
            out.push(')');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_exprs::{bin, c, var};

    /// Slot `v` is `s{v}`; arrays start at slot 10, and slot 12 is
    /// position 2 of the array at 10.
    struct Plain;

    impl Names for Plain {
        fn var(&self, v: VarId) -> String {
            format!("s{v}")
        }
        fn array(&self, base: VarId) -> (String, u32) {
            ("arr".into(), base - 10)
        }
    }

    fn zeno(e: &Expr) -> String {
        Printer::new(&Plain, Style::ZENO).expr(e)
    }

    fn uppaal(e: &Expr) -> String {
        Printer::new(&Plain, Style::UPPAAL).expr(e)
    }

    #[test]
    fn min_and_max_are_infix_in_zeno_and_uppaal() {
        let e = bin(BinOp::Add, bin(BinOp::Min, var(1), c(2)), c(1));
        // `<?` binds looser than `+`.
        assert_eq!(zeno(&e), "(s1 <? 2) + 1");
        assert_eq!(uppaal(&e), "(s1 <? 2) + 1");
        let e = bin(BinOp::Max, var(1), bin(BinOp::Add, var(2), c(1)));
        assert_eq!(zeno(&e), "s1 >? s2 + 1");
        assert_eq!(uppaal(&e), "s1 >? s2 + 1");
        // ... and tighter than a comparison, looser than a shift.
        let e = bin(
            BinOp::Lt,
            bin(BinOp::Max, var(1), bin(BinOp::Shl, var(2), c(1))),
            c(3),
        );
        assert_eq!(zeno(&e), "s1 >? s2 << 1 < 3");
        let e = bin(BinOp::Shl, bin(BinOp::Max, var(1), var(2)), c(1));
        assert_eq!(zeno(&e), "(s1 >? s2) << 1");
    }

    #[test]
    fn bit_operators_follow_c_precedence() {
        // `&` binds looser than `==`, `^` looser than `&`, `|` looser than `^`.
        let e = bin(BinOp::BitAnd, var(1), bin(BinOp::Eq, var(2), c(1)));
        assert_eq!(zeno(&e), "s1 & s2 == 1");
        let e = bin(BinOp::Eq, bin(BinOp::BitAnd, var(1), var(2)), c(1));
        assert_eq!(zeno(&e), "(s1 & s2) == 1");
        let e = bin(
            BinOp::BitOr,
            bin(BinOp::BitXor, var(1), var(2)),
            bin(BinOp::BitAnd, var(3), c(4)),
        );
        assert_eq!(zeno(&e), "s1 ^ s2 | s3 & 4");
        let e = bin(BinOp::BitAnd, bin(BinOp::BitOr, var(1), var(2)), c(4));
        assert_eq!(zeno(&e), "(s1 | s2) & 4");
        let e = Expr::Unary(UnOp::BitNot, bin(BinOp::Shr, var(1), c(2)));
        assert_eq!(zeno(&e), "~(s1 >> 2)");
    }

    #[test]
    fn a_negation_of_a_negative_is_no_decrement() {
        // `--s1` would be a decrement in zeno and UPPAAL (it was printed
        // so, and exported to XTA as `x = --y` for `x = -(-y)`).
        let neg = |e| Box::new(Expr::Unary(UnOp::Neg, e));
        assert_eq!(zeno(&neg(neg(var(1)))), "- -s1");
        assert_eq!(uppaal(&neg(c(-3))), "- -3");
        assert_eq!(zeno(&Expr::Unary(UnOp::Not, neg(var(1)))), "!-s1");
    }

    #[test]
    fn comparisons_chain_only_in_zeno() {
        let e = bin(BinOp::Lt, bin(BinOp::Lt, var(1), var(2)), var(3));
        assert_eq!(zeno(&e), "s1 < s2 < s3");
        assert_eq!(uppaal(&e), "(s1 < s2) < s3");
        // A relation under an equality binds tighter in both.
        let e = bin(BinOp::Eq, bin(BinOp::Lt, var(1), var(2)), c(0));
        assert_eq!(uppaal(&e), "s1 < s2 == 0");
    }

    #[test]
    fn sub_array_reads_shift_the_index() {
        let read = |base| Expr::Index {
            base,
            len: 2,
            index: var(1),
        };
        assert_eq!(zeno(&read(10)), "arr[s1]");
        assert_eq!(zeno(&read(12)), "arr[s1 + 2]");
    }

    #[test]
    fn operands_and_negations() {
        let p = Printer::new(&Plain, Style::ZENO);
        let or = bin(BinOp::Or, var(1), var(2));
        assert_eq!(p.operand(&or, BinOp::And), "(s1 || s2)");
        assert_eq!(p.operand(&var(1), BinOp::And), "s1");
        assert_eq!(p.negated(&c(3)), "-3");
        assert_eq!(p.negated(&c(i32::MIN)), "-(-2147483648)");
        assert_eq!(p.negated(&Expr::Unary(UnOp::Neg, var(1))), "s1");
        assert_eq!(p.negated(&bin(BinOp::Add, var(1), c(1))), "-(s1 + 1)");
        let cond = Expr::Cond(or, c(1), Box::new(Expr::Unary(UnOp::Not, var(3))));
        assert_eq!(p.expr(&cond), "s1 || s2 ? 1 : !s3");
    }
}
