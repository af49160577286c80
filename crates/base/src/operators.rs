//! zeno's operators: how each is spelled, how tightly it binds and which
//! way it associates — the one table that zeno's parser, the printers (the
//! ir's, the importer's) and the importer's reader of UPPAAL expressions
//! share. It depends on nothing else in the crate.
//!
//! The order is UPPAAL's (C's, with `<?`/`>?` between the shifts and the
//! comparisons), so that an expression means the same in both languages,
//! plus zeno's `imply` (below `||`, right-associative) and `not` (between
//! `&&` and `|`: `not a == b` is `not (a == b)`). UPPAAL's own words differ
//! in places; the importer says how (`import/expr.rs`).

/// How tightly an operator binds, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prec {
    /// `=`, `+=`, … (right-associative).
    Assign,
    /// `c ? a : b` (right-associative).
    Cond,
    /// `imply` (right-associative).
    Imply,
    /// `||`, `or`.
    Or,
    /// `&&`, `and`.
    And,
    /// The operand of `not`.
    Not,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `&`.
    BitAnd,
    /// `==`, `!=`.
    Equality,
    /// `<`, `<=`, `>=`, `>`.
    Relation,
    /// `<?`, `>?`.
    MinMax,
    /// `<<`, `>>`.
    Shift,
    /// `+`, `-`.
    Additive,
    /// `*`, `/`, `%`.
    Multiplicative,
    /// `**` (looser than a prefix operator: `-2 ** 2` is 4).
    Power,
    /// `-e`, `!e`, `~e`, `+e`, `++v`, `--v`.
    Prefix,
    /// Literals, names, calls, indexing, postfix operators, parentheses.
    Atom,
}

/// Which way a chain of operators of one level groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assoc {
    /// `a - b - c` is `(a - b) - c`.
    Left,
    /// `a = b = c` is `a = (b = c)`.
    Right,
}

impl Prec {
    /// The level as a number (higher binds tighter), for printers that
    /// compare levels.
    pub const fn level(self) -> u8 {
        self as u8
    }

    /// The next tighter level (itself for [`Prec::Atom`]).
    pub const fn tighter(self) -> Prec {
        match self {
            Prec::Assign => Prec::Cond,
            Prec::Cond => Prec::Imply,
            Prec::Imply => Prec::Or,
            Prec::Or => Prec::And,
            Prec::And => Prec::Not,
            Prec::Not => Prec::BitOr,
            Prec::BitOr => Prec::BitXor,
            Prec::BitXor => Prec::BitAnd,
            Prec::BitAnd => Prec::Equality,
            Prec::Equality => Prec::Relation,
            Prec::Relation => Prec::MinMax,
            Prec::MinMax => Prec::Shift,
            Prec::Shift => Prec::Additive,
            Prec::Additive => Prec::Multiplicative,
            Prec::Multiplicative => Prec::Power,
            Prec::Power => Prec::Prefix,
            Prec::Prefix | Prec::Atom => Prec::Atom,
        }
    }

    /// A Pratt parser's binding powers (left, right) of an infix operator
    /// of this level: higher binds tighter, and the right one is the
    /// higher for a left-associative operator.
    pub const fn infix_binding_power(self, assoc: Assoc) -> (u8, u8) {
        let base = 2 * self.level();
        match assoc {
            Assoc::Left => (base + 1, base + 2),
            Assoc::Right => (base + 2, base + 1),
        }
    }

    /// The binding power with which a prefix operator of this level (or a
    /// construct that ends in an expression, as a quantifier's body) reads
    /// its operand: every infix operator of this level or tighter joins it.
    pub const fn operand_binding_power(self) -> u8 {
        2 * self.level() + 1
    }
}

/// A binary operator of zeno's expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `&&` or `and`
    And,
    /// `||` or `or`
    Or,
    /// `imply`
    Imply,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<?`: the smaller operand
    Min,
    /// `>?`: the larger operand
    Max,
    /// `**`: integer power
    Pow,
}

/// One binary operator's entry in [`BINARY`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binary {
    /// The operator.
    pub op: BinaryOp,
    /// How zeno writes it.
    pub spelling: &'static str,
    /// The keyword that means the same (`and` for `&&`), if any.
    pub word: Option<&'static str>,
    /// How tightly it binds.
    pub prec: Prec,
    /// Which way a chain of it groups.
    pub assoc: Assoc,
}

const fn left(op: BinaryOp, spelling: &'static str, prec: Prec) -> Binary {
    Binary {
        op,
        spelling,
        word: None,
        prec,
        assoc: Assoc::Left,
    }
}

/// Every binary operator, loosest first.
pub const BINARY: &[Binary] = &[
    Binary {
        op: BinaryOp::Imply,
        spelling: "imply",
        word: None,
        prec: Prec::Imply,
        assoc: Assoc::Right,
    },
    Binary {
        word: Some("or"),
        ..left(BinaryOp::Or, "||", Prec::Or)
    },
    Binary {
        word: Some("and"),
        ..left(BinaryOp::And, "&&", Prec::And)
    },
    left(BinaryOp::BitOr, "|", Prec::BitOr),
    left(BinaryOp::BitXor, "^", Prec::BitXor),
    left(BinaryOp::BitAnd, "&", Prec::BitAnd),
    left(BinaryOp::Eq, "==", Prec::Equality),
    left(BinaryOp::Ne, "!=", Prec::Equality),
    left(BinaryOp::Lt, "<", Prec::Relation),
    left(BinaryOp::Le, "<=", Prec::Relation),
    left(BinaryOp::Ge, ">=", Prec::Relation),
    left(BinaryOp::Gt, ">", Prec::Relation),
    left(BinaryOp::Min, "<?", Prec::MinMax),
    left(BinaryOp::Max, ">?", Prec::MinMax),
    left(BinaryOp::Shl, "<<", Prec::Shift),
    left(BinaryOp::Shr, ">>", Prec::Shift),
    left(BinaryOp::Add, "+", Prec::Additive),
    left(BinaryOp::Sub, "-", Prec::Additive),
    left(BinaryOp::Mul, "*", Prec::Multiplicative),
    left(BinaryOp::Div, "/", Prec::Multiplicative),
    left(BinaryOp::Mod, "%", Prec::Multiplicative),
    left(BinaryOp::Pow, "**", Prec::Power),
];

/// The assignment operators (all [`Prec::Assign`], right-associative).
pub const ASSIGNMENTS: &[&str] = &[
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
];

/// The prefix operators and the level each reads its operand at.
pub const PREFIX: &[(&str, Prec)] = &[
    ("-", Prec::Prefix),
    ("+", Prec::Prefix),
    ("!", Prec::Prefix),
    ("~", Prec::Prefix),
    ("++", Prec::Prefix),
    ("--", Prec::Prefix),
    ("not", Prec::Not),
];

/// The postfix operators: `v++`, `v--` and a clock's rate `x'`.
pub const POSTFIX: &[&str] = &["++", "--", "'"];

impl BinaryOp {
    /// Its entry in [`BINARY`].
    pub fn entry(self) -> &'static Binary {
        BINARY
            .iter()
            .find(|b| b.op == self)
            .expect("every binary operator has an entry in BINARY")
    }

    /// How zeno writes it.
    pub fn spelling(self) -> &'static str {
        self.entry().spelling
    }

    /// How tightly it binds.
    pub fn prec(self) -> Prec {
        self.entry().prec
    }

    /// Which way a chain of it groups.
    pub fn assoc(self) -> Assoc {
        self.entry().assoc
    }

    /// The operator spelled `text` (a symbol or its keyword), if any.
    pub fn from_spelling(text: &str) -> Option<BinaryOp> {
        BINARY
            .iter()
            .find(|b| b.spelling == text || b.word == Some(text))
            .map(|b| b.op)
    }

    /// Whether it is one of `<`, `<=`, `==`, `!=`, `>=`, `>`.
    pub fn is_comparison(self) -> bool {
        matches!(self.prec(), Prec::Equality | Prec::Relation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_operator_has_one_entry_and_each_spelling_one_operator() {
        for b in BINARY {
            assert_eq!(BINARY.iter().filter(|c| c.op == b.op).count(), 1, "{b:?}");
            assert_eq!(BinaryOp::from_spelling(b.spelling), Some(b.op));
            if let Some(w) = b.word {
                assert_eq!(BinaryOp::from_spelling(w), Some(b.op));
            }
        }
        // The table runs loosest first.
        assert!(BINARY.windows(2).all(|w| w[0].prec <= w[1].prec));
    }

    #[test]
    fn binding_powers_follow_the_levels() {
        // By hand: `||` is level 3 (7, 8), `imply` level 2 right (6, 5),
        // assignment level 0 right (2, 1), a prefix operand 2 * 16 + 1.
        assert_eq!(Prec::Or.infix_binding_power(Assoc::Left), (7, 8));
        assert_eq!(Prec::Imply.infix_binding_power(Assoc::Right), (6, 5));
        assert_eq!(Prec::Assign.infix_binding_power(Assoc::Right), (2, 1));
        assert_eq!(Prec::Prefix.operand_binding_power(), 33);
        assert_eq!(Prec::Not.operand_binding_power(), 11);
        assert_eq!(Prec::Assign.tighter(), Prec::Cond);
        assert_eq!(Prec::Atom.tighter(), Prec::Atom);
    }
}
