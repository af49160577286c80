//! Random functions in UPPAAL's data language against an independent
//! interpreter.
//!
//! A strategy builds three small functions over the bounded globals `a`,
//! `b`, `c` and the array `q`: `h(w)`, without effects, called inside
//! expressions (lazy operands included); `g(v, &r)`, with a value and a
//! reference parameter; and `f()`, which has locals (one declared first in
//! every loop's body, set again on each iteration) and loops, and calls `g`
//! as a statement or beside operands that read only `f`'s locals, so that
//! no effect's order is in question. The interpreter below runs them from
//! the tree the strategy built, after docs/language.md: exact 32-bit
//! arithmetic where overflow is an error, C's truncating `/` and `%`, a
//! range check on every assignment, argument and result, short-circuit
//! `&&`, `||` and `?:`. For every valuation of `a`, `b`, `c` (and two
//! contents of `q`) it predicts the outputs or a run-time error. zeno then checks the printed model, whose only edge is
//! `A -> B do res = f();`: `E<> P.B` with the predicted outputs must hold,
//! or be a model error where the interpreter says so, and every trace must
//! replay in the independent simulator.

use std::fmt::Write;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;
use zeno::checker::{Cancel, CheckResult, Options, Verdict, check};
use zeno::ir::Network;

use crate::support;

// ---------------------------------------------------------------- programs

/// A scalar variable a function can name.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Var {
    A,
    B,
    C,
    /// `f`'s locals.
    X,
    Y,
    /// `g`'s value parameter and reference parameter.
    V,
    R,
    /// `h`'s parameter.
    W,
}

impl Var {
    fn name(self) -> &'static str {
        ["a", "b", "c", "x", "y", "v", "r", "w"][self as usize]
    }

    /// The declared range (`r` is declared `int[0, 3] &r`, and is only
    /// bound to variables of that range).
    fn range(self) -> (i32, i32) {
        match self {
            Var::A | Var::B | Var::R => (0, 3),
            Var::C | Var::V => (-4, 4),
            Var::X | Var::W => (-8, 8),
            Var::Y => INT,
        }
    }
}

/// Plain `int`.
const INT: (i32, i32) = (-32768, 32767);
/// The range of `q`'s elements.
const Q: (i32, i32) = (0, 3);
/// `f`'s result type, and `res`'s.
const F_RESULT: (i32, i32) = (-8, 8);
/// The range of the loops' locals `t`.
const T: (i32, i32) = (-8, 8);
/// `g`'s result type, and `h`'s.
const G_RESULT: (i32, i32) = (-4, 4);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Min,
    Max,
}

const OPS: [Op; 12] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::Div,
    Op::Rem,
    Op::And,
    Op::Or,
    Op::Xor,
    Op::Shl,
    Op::Shr,
    Op::Min,
    Op::Max,
];

impl Op {
    fn token(self) -> &'static str {
        [
            "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<?", ">?",
        ][self as usize]
    }

    /// Binding strength, docs/language.md's table (higher binds tighter).
    fn prec(self) -> u8 {
        match self {
            Op::Or => 5,
            Op::Xor => 6,
            Op::And => 7,
            Op::Min | Op::Max => 10,
            Op::Shl | Op::Shr => 11,
            Op::Add | Op::Sub => 12,
            Op::Mul | Op::Div | Op::Rem => 13,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn token(self) -> &'static str {
        ["==", "!=", "<", "<=", ">", ">="][self as usize]
    }

    fn prec(self) -> u8 {
        match self {
            Cmp::Eq | Cmp::Ne => 8,
            _ => 9,
        }
    }
}

const PREC_COND: u8 = 1;
const PREC_OR: u8 = 2;
const PREC_AND: u8 = 3;
const PREC_UNARY: u8 = 14;
const PREC_ATOM: u8 = 15;

#[derive(Clone, Debug)]
enum IExpr {
    Lit(i32),
    Var(Var),
    /// The variable of the `n`-th enclosing loop, 0 the innermost.
    Loop(u8),
    /// The local `t` declared first in the `n`-th enclosing loop's body.
    Temp(u8),
    Q(Box<IExpr>),
    Neg(Box<IExpr>),
    /// `~`
    Flip(Box<IExpr>),
    Bin(Op, Box<IExpr>, Box<IExpr>),
    Cond(Box<BExpr>, Box<IExpr>, Box<IExpr>),
    /// `h(e)`
    H(Box<IExpr>),
}

#[derive(Clone, Debug)]
enum BExpr {
    Lit(bool),
    Cmp(Cmp, IExpr, IExpr),
    And(Box<BExpr>, Box<BExpr>),
    Or(Box<BExpr>, Box<BExpr>),
    Not(Box<BExpr>),
}

#[derive(Clone, Debug)]
enum Place {
    Var(Var),
    Temp(u8),
    Q(IExpr),
}

/// What `g`'s reference parameter is bound to: a variable of `r`'s range,
/// or an element of `q` at a constant index.
#[derive(Clone, Copy, Debug)]
enum RefArg {
    A,
    B,
    Q(u8),
}

#[derive(Clone, Debug)]
enum Stmt {
    /// `p = e`, or `p op= e`.
    Assign(Place, Option<Op>, IExpr),
    /// `p++` (`up`) or `p--`, written prefix when `prefix`.
    Incr(Place, bool, bool),
    If(BExpr, Vec<Stmt>, Vec<Stmt>),
    /// `for (k = 0; k < n; k++) { … }`
    For(u8, Vec<Stmt>),
    /// `k = 0; while (k < n && cond) { k++; … }`
    While(u8, BExpr, Vec<Stmt>),
    /// `for (i : int[0, 2]) { … }`
    Range(Vec<Stmt>),
    /// `g(e, r);` or `p = g(e, r);` (a scalar `p`: no index to evaluate
    /// around the call).
    Call(Option<Var>, IExpr, RefArg),
    /// `t = g(e, r) op l;`, or `t = l op g(e, r);` when not `call_first`,
    /// where `t` and `l` are `f`'s locals only, which `g` cannot change: the
    /// call's effects run before the statement (docs/language.md), and the
    /// order is then in no question.
    CallIn(Var, Op, bool, IExpr, IExpr, RefArg),
    Return(IExpr),
    /// `int[-8, 8] tN = e;`, the first statement of every loop's body:
    /// set again on every iteration.
    Decl(IExpr),
}

#[derive(Clone, Debug)]
struct Program {
    /// `h(w)`'s result: a function without effects, called in expressions.
    h: IExpr,
    g: Vec<Stmt>,
    g_return: IExpr,
    x_init: IExpr,
    y_init: IExpr,
    f: Vec<Stmt>,
    f_return: IExpr,
    /// Two initial contents of `q`.
    qs: [[i32; 3]; 2],
}

// ---------------------------------------------------------------- printing

fn int(e: &IExpr, min: u8, loops: &[String], out: &mut String) {
    let prec = match e {
        IExpr::Lit(n) if *n < 0 => PREC_UNARY,
        IExpr::Lit(_) | IExpr::Var(_) | IExpr::Loop(_) | IExpr::Temp(_) | IExpr::Q(_) => PREC_ATOM,
        IExpr::H(_) => PREC_ATOM,
        IExpr::Neg(_) | IExpr::Flip(_) => PREC_UNARY,
        IExpr::Bin(op, ..) => op.prec(),
        IExpr::Cond(..) => PREC_COND,
    };
    if prec < min {
        out.push('(');
    }
    match e {
        IExpr::Lit(n) => write!(out, "{n}").unwrap(),
        IExpr::Var(v) => out.push_str(v.name()),
        IExpr::Loop(n) => out.push_str(&loops[loops.len() - 1 - *n as usize]),
        IExpr::Temp(n) => write!(out, "t{}", loops.len() - 1 - *n as usize).unwrap(),
        IExpr::Q(i) => {
            out.push_str("q[");
            int(i, 0, loops, out);
            out.push(']');
        }
        IExpr::H(w) => {
            out.push_str("h(");
            int(w, 0, loops, out);
            out.push(')');
        }
        IExpr::Neg(a) | IExpr::Flip(a) => {
            out.push(if matches!(e, IExpr::Neg(_)) { '-' } else { '~' });
            // An operand that is not an atom gets parentheses, so that no
            // `--` or `-~` can be misread.
            int(a, PREC_ATOM, loops, out);
        }
        IExpr::Bin(op, a, b) => {
            int(a, op.prec(), loops, out);
            write!(out, " {} ", op.token()).unwrap();
            int(b, op.prec() + 1, loops, out);
        }
        IExpr::Cond(c, a, b) => {
            boolean(c, PREC_OR, loops, out);
            out.push_str(" ? ");
            int(a, PREC_OR, loops, out);
            out.push_str(" : ");
            int(b, PREC_COND, loops, out);
        }
    }
    if prec < min {
        out.push(')');
    }
}

fn boolean(e: &BExpr, min: u8, loops: &[String], out: &mut String) {
    let prec = match e {
        BExpr::Lit(_) => PREC_ATOM,
        BExpr::Cmp(c, ..) => c.prec(),
        BExpr::And(..) => PREC_AND,
        BExpr::Or(..) => PREC_OR,
        BExpr::Not(_) => PREC_UNARY,
    };
    if prec < min {
        out.push('(');
    }
    match e {
        BExpr::Lit(b) => write!(out, "{b}").unwrap(),
        BExpr::Cmp(c, a, b) => {
            int(a, c.prec(), loops, out);
            write!(out, " {} ", c.token()).unwrap();
            int(b, c.prec() + 1, loops, out);
        }
        BExpr::And(a, b) => {
            boolean(a, PREC_AND, loops, out);
            out.push_str(" && ");
            boolean(b, PREC_AND + 1, loops, out);
        }
        BExpr::Or(a, b) => {
            boolean(a, PREC_OR, loops, out);
            out.push_str(" || ");
            boolean(b, PREC_OR + 1, loops, out);
        }
        BExpr::Not(a) => {
            out.push('!');
            boolean(a, PREC_ATOM, loops, out);
        }
    }
    if prec < min {
        out.push(')');
    }
}

fn ref_arg(r: RefArg) -> String {
    match r {
        RefArg::A => "a".into(),
        RefArg::B => "b".into(),
        RefArg::Q(k) => format!("q[{k}]"),
    }
}

/// Prints statements at `indent`; `loops` names the enclosing loops'
/// variables, innermost last.
fn stmts(body: &[Stmt], indent: usize, loops: &mut Vec<String>, out: &mut String) {
    let pad = "    ".repeat(indent);
    let expr = |e: &IExpr, loops: &[String]| {
        let mut s = String::new();
        int(e, 0, loops, &mut s);
        s
    };
    let place = |p: &Place, loops: &[String]| match p {
        Place::Var(v) => v.name().to_string(),
        Place::Temp(n) => format!("t{}", loops.len() - 1 - *n as usize),
        Place::Q(i) => format!("q[{}]", expr(i, loops)),
    };
    for s in body {
        match s {
            Stmt::Assign(p, op, e) => {
                let op = op.map_or("", |op| op.token());
                writeln!(out, "{pad}{} {op}= {};", place(p, loops), expr(e, loops)).unwrap()
            }
            Stmt::Incr(p, up, prefix) => {
                let op = if *up { "++" } else { "--" };
                let p = place(p, loops);
                if *prefix {
                    writeln!(out, "{pad}{op}{p};").unwrap()
                } else {
                    writeln!(out, "{pad}{p}{op};").unwrap()
                }
            }
            Stmt::If(c, then, els) => {
                let mut cond = String::new();
                boolean(c, 0, loops, &mut cond);
                writeln!(out, "{pad}if ({cond}) {{").unwrap();
                stmts(then, indent + 1, loops, out);
                if els.is_empty() {
                    writeln!(out, "{pad}}}").unwrap();
                } else {
                    writeln!(out, "{pad}}} else {{").unwrap();
                    stmts(els, indent + 1, loops, out);
                    writeln!(out, "{pad}}}").unwrap();
                }
            }
            Stmt::For(n, body) => {
                let k = format!("k{}", loops.len());
                writeln!(out, "{pad}for ({k} = 0; {k} < {n}; {k}++) {{").unwrap();
                loops.push(k);
                stmts(body, indent + 1, loops, out);
                loops.pop();
                writeln!(out, "{pad}}}").unwrap();
            }
            Stmt::While(n, c, body) => {
                let k = format!("k{}", loops.len());
                loops.push(k.clone());
                let mut cond = String::new();
                boolean(c, PREC_AND + 1, loops, &mut cond);
                writeln!(out, "{pad}{k} = 0;").unwrap();
                writeln!(out, "{pad}while ({k} < {n} && {cond}) {{").unwrap();
                writeln!(out, "{pad}    {k}++;").unwrap();
                stmts(body, indent + 1, loops, out);
                loops.pop();
                writeln!(out, "{pad}}}").unwrap();
            }
            Stmt::Range(body) => {
                let i = format!("i{}", loops.len());
                writeln!(out, "{pad}for ({i} : int[0, 2]) {{").unwrap();
                loops.push(i);
                stmts(body, indent + 1, loops, out);
                loops.pop();
                writeln!(out, "{pad}}}").unwrap();
            }
            Stmt::Call(target, e, r) => {
                let call = format!("g({}, {})", expr(e, loops), ref_arg(*r));
                match target {
                    Some(v) => writeln!(out, "{pad}{} = {call};", v.name()).unwrap(),
                    None => writeln!(out, "{pad}{call};").unwrap(),
                }
            }
            Stmt::CallIn(t, op, call_first, l, e, r) => {
                let call = format!("g({}, {})", expr(e, loops), ref_arg(*r));
                let mut rhs = String::new();
                if *call_first {
                    rhs.push_str(&call);
                    write!(rhs, " {} ", op.token()).unwrap();
                    int(l, op.prec() + 1, loops, &mut rhs);
                } else {
                    int(l, op.prec(), loops, &mut rhs);
                    write!(rhs, " {} {call}", op.token()).unwrap();
                }
                writeln!(out, "{pad}{} = {rhs};", t.name()).unwrap()
            }
            Stmt::Return(e) => writeln!(out, "{pad}return {};", expr(e, loops)).unwrap(),
            Stmt::Decl(e) => {
                let t = loops.len() - 1;
                writeln!(out, "{pad}int[-8, 8] t{t} = {};", expr(e, loops)).unwrap()
            }
        }
    }
}

/// How deep `for` and `while` loops nest in `body`: the counters `k0`, `k1`,
/// … the function declares.
fn counters(body: &[Stmt], depth: usize) -> usize {
    body.iter()
        .map(|s| match s {
            Stmt::If(_, a, b) => counters(a, depth).max(counters(b, depth)),
            Stmt::For(_, b) | Stmt::While(_, _, b) => counters(b, depth + 1).max(depth + 1),
            Stmt::Range(b) => counters(b, depth + 1),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn declare_counters(body: &[Stmt], out: &mut String) {
    for k in 0..counters(body, 0) {
        writeln!(out, "    int k{k};").unwrap();
    }
}

/// One run's inputs: `a`, `b`, `c` and `q`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Inputs {
    a: i32,
    b: i32,
    c: i32,
    q: [i32; 3],
}

/// The outputs of a run: the globals and `res`, `f`'s result.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Outputs {
    a: i32,
    b: i32,
    c: i32,
    q: [i32; 3],
    res: i32,
}

/// The model text: `inputs` and `expected` as the initial values of the
/// globals and of their `e…` copies that the check compares with.
fn model(p: &Program, inputs: Inputs, expected: Outputs) -> String {
    let mut out = String::new();
    let Inputs { a, b, c, q } = inputs;
    let e = expected;
    writeln!(
        out,
        "int[0, 3] a = {a};\nint[0, 3] b = {b};\nint[-4, 4] c = {c};\n\
         int[0, 3] q[3] = {{ {}, {}, {} }};\nint[-8, 8] res;\n\
         // The outputs the interpreter predicts (any values for an error).\n\
         int[0, 3] ea = {};\nint[0, 3] eb = {};\nint[-4, 4] ec = {};\n\
         int[0, 3] eq[3] = {{ {}, {}, {} }};\nint[-8, 8] eres = {};\n",
        q[0], q[1], q[2], e.a, e.b, e.c, e.q[0], e.q[1], e.q[2], e.res
    )
    .unwrap();
    let mut h = String::new();
    int(&p.h, 0, &[], &mut h);
    writeln!(out, "int[-4, 4] h(int[-8, 8] w) {{\n    return {h};\n}}\n").unwrap();
    out.push_str("int[-4, 4] g(int[-4, 4] v, int[0, 3] &r) {\n");
    declare_counters(&p.g, &mut out);
    stmts(&p.g, 1, &mut Vec::new(), &mut out);
    writeln!(out, "    return {};\n}}\n", {
        let mut s = String::new();
        int(&p.g_return, 0, &[], &mut s);
        s
    })
    .unwrap();
    out.push_str("int[-8, 8] f() {\n");
    let print = |e: &IExpr| {
        let mut s = String::new();
        int(e, 0, &[], &mut s);
        s
    };
    writeln!(out, "    int[-8, 8] x = {};", print(&p.x_init)).unwrap();
    writeln!(out, "    int y = {};", print(&p.y_init)).unwrap();
    declare_counters(&p.f, &mut out);
    stmts(&p.f, 1, &mut Vec::new(), &mut out);
    writeln!(out, "    return {};\n}}\n", print(&p.f_return)).unwrap();
    out.push_str(
        "template P() {\n    init location A;\n    location B;\n    A -> B do res = f();\n}\n\
         system P;\n\
         check out: E<> P.B && a == ea && b == eb && c == ec && q[0] == eq[0] \
         && q[1] == eq[1] && q[2] == eq[2] && res == eres;\n",
    );
    out
}

// ---------------------------------------------------------------- interpreter

/// Why a run fails (for messages only: zeno is asked whether, not why).
type Run<T> = Result<T, String>;

/// A place a value lives in.
#[derive(Clone, Copy, Debug)]
enum Loc {
    A,
    B,
    C,
    Q(usize),
    X,
    Y,
    V,
    W,
    /// The local `t` of the loop at this depth.
    T(usize),
}

/// More iterations than any generated program can make (loops run at most
/// 3 times and nest twice, in `f` and in `g`): reaching it is a bug here.
const BUDGET: u32 = 10_000;

struct Machine<'p> {
    /// `h`'s body.
    h: &'p IExpr,
    a: i32,
    b: i32,
    c: i32,
    q: [i32; 3],
    steps: u32,
}

/// A function's frame: its locals (`x`, `y` in `f`; `v` in `g`), what `r`
/// refers to, and the enclosing loops' variables, innermost last.
#[derive(Default)]
struct Frame {
    x: i32,
    y: i32,
    v: i32,
    w: i32,
    r: Option<Loc>,
    /// The loop variable and the local `t` of each enclosing loop.
    loops: Vec<[i32; 2]>,
}

enum Flow {
    Next,
    Return(i32),
}

fn in_range(value: i32, (lo, hi): (i32, i32), what: &str) -> Run<i32> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{what} = {value} is outside [{lo}, {hi}]"))
    }
}

fn apply(op: Op, x: i32, y: i32) -> Run<i32> {
    let overflow = || format!("{x} {} {y} overflows", op.token());
    let shift = |y: i32| -> Run<u32> {
        if (0..32).contains(&y) {
            Ok(y as u32)
        } else {
            Err(format!("shift by {y}"))
        }
    };
    match op {
        Op::Add => x.checked_add(y).ok_or_else(overflow),
        Op::Sub => x.checked_sub(y).ok_or_else(overflow),
        Op::Mul => x.checked_mul(y).ok_or_else(overflow),
        Op::Div | Op::Rem if y == 0 => Err("division by zero".into()),
        // Rust's `/` and `%` truncate, as C's; `i32::MIN / -1` overflows,
        // `i32::MIN % -1` is 0 (docs/language.md).
        Op::Div => x.checked_div(y).ok_or_else(overflow),
        Op::Rem => Ok(x.wrapping_rem(y)),
        Op::And => Ok(x & y),
        Op::Or => Ok(x | y),
        Op::Xor => Ok(x ^ y),
        // Exact: a shift that loses significant bits overflows.
        Op::Shl => i32::try_from((x as i64) << shift(y)?).map_err(|_| overflow()),
        Op::Shr => Ok(x >> shift(y)?),
        Op::Min => Ok(x.min(y)),
        Op::Max => Ok(x.max(y)),
    }
}

impl Machine<'_> {
    fn int(&self, e: &IExpr, fr: &Frame) -> Run<i32> {
        Ok(match e {
            IExpr::Lit(n) => *n,
            IExpr::Var(v) => self.read(self.var(*v, fr), fr),
            IExpr::Loop(n) => fr.loops[fr.loops.len() - 1 - *n as usize][0],
            IExpr::Temp(n) => fr.loops[fr.loops.len() - 1 - *n as usize][1],
            IExpr::Q(i) => self.read(self.element(i, fr)?, fr),
            IExpr::Neg(a) => {
                let a = self.int(a, fr)?;
                a.checked_neg().ok_or(format!("-{a} overflows"))?
            }
            IExpr::Flip(a) => !self.int(a, fr)?,
            IExpr::Bin(op, a, b) => apply(*op, self.int(a, fr)?, self.int(b, fr)?)?,
            IExpr::Cond(c, a, b) => {
                if self.boolean(c, fr)? {
                    self.int(a, fr)?
                } else {
                    self.int(b, fr)?
                }
            }
            IExpr::H(w) => {
                let w = in_range(self.int(w, fr)?, Var::W.range(), "argument w")?;
                let h = Frame {
                    w,
                    ..Frame::default()
                };
                in_range(self.int(self.h, &h)?, G_RESULT, "h's result")?
            }
        })
    }

    fn boolean(&self, e: &BExpr, fr: &Frame) -> Run<bool> {
        Ok(match e {
            BExpr::Lit(b) => *b,
            BExpr::Cmp(c, a, b) => {
                let (a, b) = (self.int(a, fr)?, self.int(b, fr)?);
                match c {
                    Cmp::Eq => a == b,
                    Cmp::Ne => a != b,
                    Cmp::Lt => a < b,
                    Cmp::Le => a <= b,
                    Cmp::Gt => a > b,
                    Cmp::Ge => a >= b,
                }
            }
            BExpr::And(a, b) => self.boolean(a, fr)? && self.boolean(b, fr)?,
            BExpr::Or(a, b) => self.boolean(a, fr)? || self.boolean(b, fr)?,
            BExpr::Not(a) => !self.boolean(a, fr)?,
        })
    }

    fn var(&self, v: Var, fr: &Frame) -> Loc {
        match v {
            Var::A => Loc::A,
            Var::B => Loc::B,
            Var::C => Loc::C,
            Var::X => Loc::X,
            Var::Y => Loc::Y,
            Var::V => Loc::V,
            Var::W => Loc::W,
            Var::R => fr.r.expect("`r` outside `g`"),
        }
    }

    fn element(&self, i: &IExpr, fr: &Frame) -> Run<Loc> {
        let i = self.int(i, fr)?;
        if (0..3).contains(&i) {
            Ok(Loc::Q(i as usize))
        } else {
            Err(format!("index {i} of q"))
        }
    }

    fn place(&self, p: &Place, fr: &Frame) -> Run<Loc> {
        match p {
            Place::Var(v) => Ok(self.var(*v, fr)),
            Place::Temp(n) => Ok(Loc::T(fr.loops.len() - 1 - *n as usize)),
            Place::Q(i) => self.element(i, fr),
        }
    }

    fn read(&self, at: Loc, fr: &Frame) -> i32 {
        match at {
            Loc::A => self.a,
            Loc::B => self.b,
            Loc::C => self.c,
            Loc::Q(i) => self.q[i],
            Loc::X => fr.x,
            Loc::Y => fr.y,
            Loc::V => fr.v,
            Loc::W => fr.w,
            Loc::T(d) => fr.loops[d][1],
        }
    }

    /// Assigns with the range check of the place's declaration.
    fn write(&mut self, at: Loc, value: i32, fr: &mut Frame) -> Run<()> {
        let (slot, range, name) = match at {
            Loc::A => (&mut self.a, Var::A.range(), "a"),
            Loc::B => (&mut self.b, Var::B.range(), "b"),
            Loc::C => (&mut self.c, Var::C.range(), "c"),
            Loc::Q(i) => (&mut self.q[i], Q, "q[_]"),
            Loc::X => (&mut fr.x, Var::X.range(), "x"),
            Loc::Y => (&mut fr.y, Var::Y.range(), "y"),
            Loc::V => (&mut fr.v, Var::V.range(), "v"),
            Loc::W => unreachable!("`h` assigns nothing"),
            Loc::T(d) => (&mut fr.loops[d][1], T, "t"),
        };
        *slot = in_range(value, range, name)?;
        Ok(())
    }

    fn tick(&mut self) {
        self.steps += 1;
        assert!(self.steps <= BUDGET, "a generated loop runs away");
    }

    fn run(&mut self, p: &Program, body: &[Stmt], fr: &mut Frame) -> Run<Flow> {
        for s in body {
            if let Flow::Return(v) = self.stmt(p, s, fr)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    /// Runs `body` once per value of the loop variable, `0..n`.
    fn repeat(&mut self, p: &Program, n: i32, body: &[Stmt], fr: &mut Frame) -> Run<Flow> {
        fr.loops.push([0, 0]);
        for i in 0..n {
            fr.loops.last_mut().unwrap()[0] = i;
            self.tick();
            if let Flow::Return(v) = self.run(p, body, fr)? {
                return Ok(Flow::Return(v));
            }
        }
        fr.loops.pop();
        Ok(Flow::Next)
    }

    /// `g(e, r)`'s result.
    fn call(&mut self, p: &Program, e: &IExpr, r: RefArg, fr: &Frame) -> Run<i32> {
        let v = in_range(self.int(e, fr)?, Var::V.range(), "argument v")?;
        let r = match r {
            RefArg::A => Loc::A,
            RefArg::B => Loc::B,
            RefArg::Q(k) => Loc::Q(k as usize),
        };
        let mut g = Frame {
            v,
            r: Some(r),
            ..Frame::default()
        };
        let result = match self.run(p, &p.g, &mut g)? {
            Flow::Return(v) => v,
            Flow::Next => self.int(&p.g_return, &g)?,
        };
        in_range(result, G_RESULT, "g's result")
    }

    fn stmt(&mut self, p: &Program, s: &Stmt, fr: &mut Frame) -> Run<Flow> {
        match s {
            Stmt::Assign(place, op, e) => {
                let at = self.place(place, fr)?;
                let value = self.int(e, fr)?;
                let value = match op {
                    Some(op) => apply(*op, self.read(at, fr), value)?,
                    None => value,
                };
                self.write(at, value, fr)?;
            }
            Stmt::Incr(place, up, _) => {
                let at = self.place(place, fr)?;
                let value = self.read(at, fr) + if *up { 1 } else { -1 };
                self.write(at, value, fr)?;
            }
            Stmt::If(c, then, els) => {
                let body = if self.boolean(c, fr)? { then } else { els };
                return self.run(p, body, fr);
            }
            Stmt::For(n, body) => return self.repeat(p, *n as i32, body, fr),
            Stmt::While(n, c, body) => {
                // The counter is 0 for the first test, and the body sees it
                // already incremented: `k++` is the body's first statement.
                fr.loops.push([0, 0]);
                for k in 0..*n as i32 {
                    fr.loops.last_mut().unwrap()[0] = k;
                    if !self.boolean(c, fr)? {
                        break;
                    }
                    fr.loops.last_mut().unwrap()[0] = k + 1;
                    self.tick();
                    if let Flow::Return(v) = self.run(p, body, fr)? {
                        return Ok(Flow::Return(v));
                    }
                }
                fr.loops.pop();
            }
            Stmt::Range(body) => return self.repeat(p, 3, body, fr),
            Stmt::Call(target, e, r) => {
                let result = self.call(p, e, *r, fr)?;
                if let Some(t) = target {
                    let at = self.var(*t, fr);
                    self.write(at, result, fr)?;
                }
            }
            Stmt::CallIn(t, op, call_first, l, e, r) => {
                let result = self.call(p, e, *r, fr)?;
                let l = self.int(l, fr)?;
                let value = if *call_first {
                    apply(*op, result, l)?
                } else {
                    apply(*op, l, result)?
                };
                let at = self.var(*t, fr);
                self.write(at, value, fr)?;
            }
            Stmt::Return(e) => return Ok(Flow::Return(self.int(e, fr)?)),
            Stmt::Decl(e) => {
                let t = in_range(self.int(e, fr)?, T, "t")?;
                fr.loops.last_mut().unwrap()[1] = t;
            }
        }
        Ok(Flow::Next)
    }
}

/// What `res = f()` does from `inputs`.
fn interpret(p: &Program, inputs: Inputs) -> Run<Outputs> {
    let mut m = Machine {
        h: &p.h,
        a: inputs.a,
        b: inputs.b,
        c: inputs.c,
        q: inputs.q,
        steps: 0,
    };
    // The initialisers read only globals.
    let x = in_range(m.int(&p.x_init, &Frame::default())?, Var::X.range(), "x")?;
    let y = in_range(m.int(&p.y_init, &Frame::default())?, Var::Y.range(), "y")?;
    let mut fr = Frame {
        x,
        y,
        ..Frame::default()
    };
    let result = match m.run(p, &p.f, &mut fr)? {
        Flow::Return(v) => v,
        Flow::Next => m.int(&p.f_return, &fr)?,
    };
    let res = in_range(result, F_RESULT, "f's result")?;
    Ok(Outputs {
        a: m.a,
        b: m.b,
        c: m.c,
        q: m.q,
        res,
    })
}

// ---------------------------------------------------------------- constants

/// A subexpression without variables is a constant, and one that cannot be
/// computed is an error of the model text, found by the analysis, even
/// where it would never run (docs/language.md, "Expressions"). A constant
/// index out of bounds is not: as in UPPAAL, it fails only where it is
/// evaluated (docs/language.md, "Index checks"), as a variable one does.
/// `Err` for such an error, else the constant's value, `None` for an
/// expression that reads variables.
fn constant(e: &IExpr) -> Result<Option<i32>, ()> {
    Ok(match e {
        IExpr::Lit(n) => Some(*n),
        IExpr::Var(_) | IExpr::Loop(_) | IExpr::Temp(_) => None,
        IExpr::Q(i) => {
            constant(i)?;
            None
        }
        IExpr::Neg(a) => match constant(a)? {
            Some(a) => Some(a.checked_neg().ok_or(())?),
            None => None,
        },
        IExpr::Flip(a) => constant(a)?.map(|a| !a),
        IExpr::H(w) if misfit(w, Var::W.range()) => return Err(()),
        IExpr::H(_) => None,
        IExpr::Bin(op, a, b) => match (constant(a)?, constant(b)?) {
            (Some(a), Some(b)) => Some(apply(*op, a, b).map_err(|_| ())?),
            // zeno also rejects a division by a constant 0 (`b / 0`).
            (None, Some(0)) if matches!(op, Op::Div | Op::Rem) => return Err(()),
            _ => None,
        },
        // A constant condition chooses its branch; both must be computable.
        IExpr::Cond(c, a, b) => match (constant_bool(c)?, constant(a)?, constant(b)?) {
            (Some(true), a, _) => a,
            (Some(false), _, b) => b,
            _ => None,
        },
    })
}

fn constant_bool(e: &BExpr) -> Result<Option<bool>, ()> {
    Ok(match e {
        BExpr::Lit(b) => Some(*b),
        BExpr::Cmp(c, a, b) => match (constant(a)?, constant(b)?) {
            (Some(a), Some(b)) => Some(match c {
                Cmp::Eq => a == b,
                Cmp::Ne => a != b,
                Cmp::Lt => a < b,
                Cmp::Le => a <= b,
                Cmp::Gt => a > b,
                Cmp::Ge => a >= b,
            }),
            _ => None,
        },
        BExpr::And(a, b) => match (constant_bool(a)?, constant_bool(b)?) {
            (Some(a), Some(b)) => Some(a && b),
            _ => None,
        },
        BExpr::Or(a, b) => match (constant_bool(a)?, constant_bool(b)?) {
            (Some(a), Some(b)) => Some(a || b),
            _ => None,
        },
        BExpr::Not(a) => constant_bool(a)?.map(|a| !a),
    })
}

/// Whether `e` cannot be computed, or is a constant outside `range`: zeno
/// rejects a constant assignment, argument, initialiser or result that can
/// never fit, as it rejects `int[0, 3] a = 7;`.
fn misfit(e: &IExpr, (lo, hi): (i32, i32)) -> bool {
    match constant(e) {
        Err(()) => true,
        Ok(Some(v)) => !(lo..=hi).contains(&v),
        Ok(None) => false,
    }
}

/// Whether a statement of `body`, in a function whose result is in
/// `result`, has a constant error.
fn constant_error_in(body: &[Stmt], result: (i32, i32)) -> bool {
    let int = |e: &IExpr| constant(e).is_err();
    let index = |p: &Place| matches!(p, Place::Q(i) if constant(i).is_err());
    let range = |p: &Place| match p {
        Place::Var(v) => v.range(),
        Place::Q(_) => Q,
        Place::Temp(_) => T,
    };
    body.iter().any(|s| match s {
        Stmt::Assign(p, None, e) => index(p) || misfit(e, range(p)),
        Stmt::Assign(p, Some(op), e) => {
            let by_zero = matches!(op, Op::Div | Op::Rem) && constant(e) == Ok(Some(0));
            index(p) || int(e) || by_zero
        }
        Stmt::Incr(p, ..) => index(p),
        Stmt::If(c, a, b) => {
            constant_bool(c).is_err()
                || constant_error_in(a, result)
                || constant_error_in(b, result)
        }
        Stmt::For(_, b) | Stmt::Range(b) => constant_error_in(b, result),
        Stmt::While(_, c, b) => constant_bool(c).is_err() || constant_error_in(b, result),
        Stmt::Call(_, e, _) => misfit(e, Var::V.range()),
        Stmt::CallIn(_, op, call_first, l, e, _) => {
            let by_zero =
                *call_first && matches!(op, Op::Div | Op::Rem) && constant(l) == Ok(Some(0));
            misfit(e, Var::V.range()) || int(l) || by_zero
        }
        Stmt::Return(e) => misfit(e, result),
        Stmt::Decl(e) => misfit(e, T),
    })
}

/// Whether the analysis must reject `p` for a constant error.
fn constant_error(p: &Program) -> bool {
    misfit(&p.h, G_RESULT)
        || misfit(&p.g_return, G_RESULT)
        || misfit(&p.x_init, Var::X.range())
        || misfit(&p.y_init, Var::Y.range())
        || misfit(&p.f_return, F_RESULT)
        || constant_error_in(&p.g, G_RESULT)
        || constant_error_in(&p.f, F_RESULT)
}

// ---------------------------------------------------------------- strategies

/// Where an expression stands: in `g` or in `f` (their own variables), and
/// how many loops enclose it.
#[derive(Clone, Copy)]
struct Ctx {
    /// In `h`, which reads `w` and calls nothing.
    in_h: bool,
    in_g: bool,
    /// `f`'s locals are declared (not in their own initialisers).
    locals: bool,
    /// Only `f`'s locals may be read: no globals, no `q`, no `h`.
    only_locals: bool,
    /// The enclosing loops' locals `t` are declared.
    temps: bool,
    loops: u8,
}

impl Ctx {
    fn readable(self) -> Vec<Var> {
        if self.only_locals {
            return vec![Var::X, Var::Y];
        }
        let mut vars = vec![Var::A, Var::B, Var::C];
        if self.in_h {
            vars.push(Var::W);
        } else if self.in_g {
            vars.extend([Var::V, Var::R]);
        } else if self.locals {
            vars.extend([Var::X, Var::Y]);
        }
        vars
    }

    fn inner_loop(self) -> Ctx {
        Ctx {
            loops: self.loops + 1,
            ..self
        }
    }
}

fn literal() -> impl Strategy<Value = i32> {
    // Few zeros and few large values: a constant divisor 0 or a constant
    // out of its variable's range is an error of the text, and a large
    // value makes every run fail.
    prop_oneof![
        8 => 1..=4,
        1 => Just(0),
        2 => -3..=-1,
        1 => select(vec![5, 8, 16, 31, 32, 255, 40_000, 65_536, i32::MAX]),
    ]
}

fn int_expr(ctx: Ctx) -> BoxedStrategy<IExpr> {
    let mut leaves = vec![
        (2, literal().prop_map(IExpr::Lit).boxed()),
        (5, select(ctx.readable()).prop_map(IExpr::Var).boxed()),
    ];
    let globals = !ctx.only_locals;
    if globals {
        let q = (0..3).prop_map(|k| IExpr::Q(Box::new(IExpr::Lit(k))));
        leaves.push((2, q.boxed()));
    }
    if ctx.loops > 0 {
        leaves.push((3, (0..ctx.loops).prop_map(IExpr::Loop).boxed()));
    }
    if ctx.loops > 0 && ctx.temps {
        leaves.push((2, (0..ctx.loops).prop_map(IExpr::Temp).boxed()));
    }
    let calls = globals && !ctx.in_h;
    Union::new_weighted(leaves)
        .prop_recursive(3, 24, 3, move |inner| {
            let bin = (op(), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| IExpr::Bin(op, Box::new(a), Box::new(b)));
            let cond = (bool_of(inner.clone()), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| IExpr::Cond(Box::new(c), Box::new(a), Box::new(b)));
            let mut choices = vec![
                (8, bin.boxed()),
                (
                    1,
                    inner.clone().prop_map(|a| IExpr::Neg(Box::new(a))).boxed(),
                ),
                (
                    1,
                    inner.clone().prop_map(|a| IExpr::Flip(Box::new(a))).boxed(),
                ),
                (2, cond.boxed()),
            ];
            if globals {
                let q = index(inner.clone()).prop_map(|i| IExpr::Q(Box::new(i)));
                choices.push((2, q.boxed()));
            }
            if calls {
                let call = fitting(inner, Var::W.range()).prop_map(|w| IExpr::H(Box::new(w)));
                choices.push((2, call.boxed()));
            }
            Union::new_weighted(choices)
        })
        .boxed()
}

/// The operators, the partial ones (`/`, `%`, shifts) less often, so that
/// runs often go on.
fn op() -> impl Strategy<Value = Op> {
    let weights = [3, 3, 2, 1, 1, 2, 1, 1, 1, 1, 2, 2];
    Union::new_weighted(
        OPS.iter()
            .zip(weights)
            .map(|(op, w)| (w, Just(*op)))
            .collect(),
    )
}

/// An index of `q`: mostly one that stays in bounds (`e & 1`, `e % 3` of a
/// value that is not negative), for runs that go on.
fn index(e: BoxedStrategy<IExpr>) -> BoxedStrategy<IExpr> {
    let bin = |op, e, n| IExpr::Bin(op, Box::new(e), Box::new(IExpr::Lit(n)));
    prop_oneof![
        2 => e.clone().prop_map(move |e| bin(Op::And, e, 1)),
        2 => e.clone().prop_map(move |e| bin(Op::Rem, bin(Op::And, e, 3), 3)),
        1 => e,
    ]
    .boxed()
}

fn bool_of(int: BoxedStrategy<IExpr>) -> BoxedStrategy<BExpr> {
    let cmp = select(vec![Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge]);
    prop_oneof![
        6 => (cmp, int.clone(), int).prop_map(|(c, a, b)| BExpr::Cmp(c, a, b)),
        1 => any::<bool>().prop_map(BExpr::Lit),
    ]
    .prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| BExpr::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| BExpr::Or(Box::new(a), Box::new(b))),
            inner.prop_map(|a| BExpr::Not(Box::new(a))),
        ]
    })
    .boxed()
}

/// An expression whose value is often within `var`'s range (`e & 3` for
/// `[0, 3]`, `e % 5` for `[-4, 4]`, …), so that runs often go on.
fn value_for(ctx: Ctx, var: Option<Var>) -> BoxedStrategy<IExpr> {
    fitting(int_expr(ctx), var.map_or(Q, Var::range))
}

/// Expressions of `e`, often made to fit in `range`.
fn fitting(e: BoxedStrategy<IExpr>, range: (i32, i32)) -> BoxedStrategy<IExpr> {
    let mask = match range {
        (0, 3) => Some((Op::And, 3)),
        (-4, 4) => Some((Op::Rem, 5)),
        (-8, 8) => Some((Op::Rem, 9)),
        _ => None,
    };
    (e, any::<bool>())
        .prop_map(move |(e, masked)| match mask {
            Some((op, n)) if masked => IExpr::Bin(op, Box::new(e), Box::new(IExpr::Lit(n))),
            _ => e,
        })
        .boxed()
}

fn place(ctx: Ctx) -> BoxedStrategy<Place> {
    let vars = if ctx.in_g {
        vec![Var::A, Var::B, Var::C, Var::V, Var::R]
    } else {
        vec![Var::A, Var::B, Var::C, Var::X, Var::Y]
    };
    let mut places = vec![
        (3, select(vars).prop_map(Place::Var).boxed()),
        (2, index(int_expr(ctx)).prop_map(Place::Q).boxed()),
    ];
    if ctx.loops > 0 {
        places.push((2, (0..ctx.loops).prop_map(Place::Temp).boxed()));
    }
    Union::new_weighted(places).boxed()
}

fn simple(ctx: Ctx) -> BoxedStrategy<Stmt> {
    let scalar = |p: &Place| match p {
        Place::Var(v) => Some(*v),
        Place::Q(_) | Place::Temp(_) => None,
    };
    let assign = place(ctx)
        .prop_flat_map(move |p| {
            let e = value_for(ctx, scalar(&p));
            (Just(p), e)
        })
        .prop_map(|(p, e)| Stmt::Assign(p, None, e));
    let compound = (
        place(ctx),
        op().prop_filter("no `<?=`", |op| !matches!(op, Op::Min | Op::Max)),
        int_expr(ctx),
    )
        .prop_map(|(p, op, e)| Stmt::Assign(p, Some(op), e));
    let incr = (place(ctx), any::<bool>(), any::<bool>())
        .prop_map(|(p, up, prefix)| Stmt::Incr(p, up, prefix));
    let ret = value_for(ctx, Some(if ctx.in_g { Var::V } else { Var::X })).prop_map(Stmt::Return);
    let mut choices = vec![
        (6, assign.boxed()),
        (2, compound.boxed()),
        (1, incr.boxed()),
        (1, ret.boxed()),
    ];
    if !ctx.in_g {
        let target = prop::option::of(select(vec![Var::A, Var::B, Var::C, Var::X, Var::Y]));
        let arg = select(vec![
            RefArg::A,
            RefArg::B,
            RefArg::Q(0),
            RefArg::Q(1),
            RefArg::Q(2),
        ]);
        let call = (target, value_for(ctx, Some(Var::V)), arg.clone())
            .prop_map(|(t, e, r)| Stmt::Call(t, e, r));
        choices.push((3, call.boxed()));
        let local = Ctx {
            only_locals: true,
            ..ctx
        };
        let call_in = (
            select(vec![Var::X, Var::Y]),
            op(),
            any::<bool>(),
            int_expr(local),
            value_for(ctx, Some(Var::V)),
            arg,
        )
            .prop_map(|(t, op, first, l, e, r)| Stmt::CallIn(t, op, first, l, e, r));
        choices.push((2, call_in.boxed()));
    }
    Union::new_weighted(choices).boxed()
}

fn stmt(ctx: Ctx, depth: u32) -> BoxedStrategy<Stmt> {
    if depth == 0 {
        return simple(ctx);
    }
    let inner = ctx.inner_loop();
    // What a loop's condition and its local's initialiser may read: not
    // the local itself, not yet declared.
    let before = Ctx {
        temps: false,
        ..inner
    };
    let body = || {
        (fitting(int_expr(before), T), block(inner, depth - 1)).prop_map(|(e, mut b)| {
            b.insert(0, Stmt::Decl(e));
            b
        })
    };
    let cond = || bool_of(int_expr(ctx));
    prop_oneof![
        6 => simple(ctx),
        2 => (cond(), block(ctx, depth - 1), block(ctx, depth - 1))
            .prop_map(|(c, a, b)| Stmt::If(c, a, b)),
        1 => (1..=3u8, body()).prop_map(|(n, b)| Stmt::For(n, b)),
        1 => (1..=3u8, bool_of(int_expr(before)), body())
            .prop_map(|(n, c, b)| Stmt::While(n, c, b)),
        1 => body().prop_map(Stmt::Range),
    ]
    .boxed()
}

fn block(ctx: Ctx, depth: u32) -> BoxedStrategy<Vec<Stmt>> {
    prop::collection::vec(stmt(ctx, depth), 0..=2).boxed()
}

fn program() -> impl Strategy<Value = Program> {
    let h = Ctx {
        in_h: true,
        in_g: false,
        locals: false,
        only_locals: false,
        temps: true,
        loops: 0,
    };
    let g = Ctx {
        in_h: false,
        in_g: true,
        ..h
    };
    let f = Ctx {
        in_h: false,
        locals: true,
        ..h
    };
    let globals = Ctx { locals: false, ..f };
    let q = [0..=3, 0..=3, 0..=3];
    (
        value_for(h, Some(Var::V)),
        (block(g, 1), value_for(g, Some(Var::V))),
        (value_for(globals, Some(Var::X)), int_expr(globals)),
        (
            prop::collection::vec(stmt(f, 2), 1..=4),
            value_for(f, Some(Var::X)),
        ),
        [q.clone(), q],
    )
        .prop_map(
            |(h, (g, g_return), (x_init, y_init), (f, f_return), qs)| Program {
                h,
                g,
                g_return,
                x_init,
                y_init,
                f,
                f_return,
                qs,
            },
        )
}

// ---------------------------------------------------------------- the check

/// Every valuation of the inputs: all of `a`, `b`, `c`, with each of the
/// program's contents of `q`.
fn valuations(p: &Program) -> impl Iterator<Item = Inputs> + '_ {
    p.qs.iter().flat_map(|&q| {
        (0..=3).flat_map(move |a| {
            (0..=3).flat_map(move |b| (-4..=4).map(move |c| Inputs { a, b, c, q }))
        })
    })
}

/// Sets the initial values of `net`'s inputs and expected outputs, which is
/// what analysing `model(p, inputs, expected)` gives, without analysing the
/// text once per valuation.
fn set_initial(net: &mut Network, inputs: Inputs, expected: Outputs) {
    let values = [
        ("a", inputs.a),
        ("b", inputs.b),
        ("c", inputs.c),
        ("q[0]", inputs.q[0]),
        ("q[1]", inputs.q[1]),
        ("q[2]", inputs.q[2]),
        ("ea", expected.a),
        ("eb", expected.b),
        ("ec", expected.c),
        ("eq[0]", expected.q[0]),
        ("eq[1]", expected.q[1]),
        ("eq[2]", expected.q[2]),
        ("eres", expected.res),
    ];
    for (name, value) in values {
        let v = net.variables.iter_mut().find(|v| v.name == name);
        v.unwrap_or_else(|| panic!("no variable {name}")).init = value;
    }
}

/// The outputs to write into the model for a run that fails: any in range.
fn placeholder(inputs: Inputs) -> Outputs {
    Outputs {
        a: inputs.a,
        b: inputs.b,
        c: inputs.c,
        q: inputs.q,
        res: 0,
    }
}

/// The default (breadth-first) search: the model has one transition, so
/// every search order explores the same two states.
fn check_bfs(net: &Network) -> CheckResult {
    let k = net.check_at(0).unwrap();
    check(
        net,
        k,
        &Options::default(),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
}

/// zeno's verdict on `p` from `inputs` agrees with the interpreter's, and
/// its trace replays in the simulator; `Err` says how not, with the model.
fn agree(p: &Program, net: &mut Network, inputs: Inputs) -> Result<(), String> {
    let predicted = interpret(p, inputs);
    let expected = predicted.clone().unwrap_or_else(|_| placeholder(inputs));
    set_initial(net, inputs, expected);
    let r = check_bfs(net);
    let ok = matches!(
        (&predicted, &r.verdict),
        (Ok(_), Verdict::Holds) | (Err(_), Verdict::ModelError(_))
    );
    let replay = match &r.trace {
        Some(t) => support::simulator::replay(net, 0, t),
        None => Err("no trace".into()),
    };
    if ok && replay.is_ok() {
        return Ok(());
    }
    Err(format!(
        "inputs {inputs:?}: the interpreter says {predicted:?}, zeno {:?}; replay: {replay:?}\n{}",
        r.verdict,
        model(p, inputs, expected)
    ))
}

proptest! {
    // 288 valuations a case, each a check of a two-state model.
    #![proptest_config(ProptestConfig { cases: 64, max_shrink_iters: 4096, .. ProptestConfig::default() })]

    #[test]
    fn random_functions_compute_what_the_interpreter_says(
        p in program().prop_filter("a constant error", |p| !constant_error(p))
    ) {
        let first = Inputs { a: 0, b: 0, c: 0, q: p.qs[0] };
        let text = model(&p, first, placeholder(first));
        let analysis = zeno::semantics::analyze(&text);
        let net = analysis.network;
        prop_assert!(net.is_some(), "{:#?}\n{}", analysis.diagnostics, text);
        let mut net = net.unwrap();
        for inputs in valuations(&p) {
            if let Err(why) = agree(&p, &mut net, inputs) {
                prop_assert!(false, "{}", why);
            }
        }
    }

    /// The analysis rejects exactly the programs with a constant error.
    #[test]
    fn constant_errors_are_errors_of_the_text(p in program()) {
        let first = Inputs { a: 0, b: 0, c: 0, q: p.qs[0] };
        let text = model(&p, first, placeholder(first));
        let analysis = zeno::semantics::analyze(&text);
        prop_assert_eq!(
            analysis.network.is_none(),
            constant_error(&p),
            "{:#?}\n{}",
            analysis.diagnostics,
            text
        );
    }
}

#[test]
fn the_interpreter_computes_as_the_docs_say() {
    // docs/language.md, "Expressions": `/` and `%` truncate, shifts are
    // exact, and what does not fit in 32 bits is an error.
    assert_eq!(apply(Op::Div, -7, 2), Ok(-3));
    assert_eq!(apply(Op::Rem, -7, 2), Ok(-1));
    assert_eq!(apply(Op::Rem, 7, -2), Ok(1));
    assert_eq!(apply(Op::Rem, i32::MIN, -1), Ok(0));
    assert!(apply(Op::Div, i32::MIN, -1).is_err());
    assert!(apply(Op::Rem, 1, 0).is_err());
    assert_eq!(apply(Op::Shr, -8, 1), Ok(-4));
    assert_eq!(apply(Op::Shl, -1, 31), Ok(i32::MIN));
    assert!(apply(Op::Shl, 1, 31).is_err());
    assert!(apply(Op::Shl, 1, 32).is_err());
    assert!(apply(Op::Shr, 1, -1).is_err());
    assert_eq!(apply(Op::Min, 3, -2), Ok(-2));
}

/// A program worked out by hand: `g` writes `a` through `r` and then reads
/// `a`; `||` keeps `1 / b` from running when `b == 0`; `q[2] += 2`
/// leaves `q`'s range when `q[2]` is 2. The interpreter, the model text
/// analysed for each valuation, and the network whose initial values
/// `set_initial` changes all agree with the hand's answers.
#[test]
fn a_program_worked_out_by_hand() {
    let lit = |n| Box::new(IExpr::Lit(n));
    let p = Program {
        h: IExpr::Lit(0),
        // r = v & 3; return a;
        g: vec![Stmt::Assign(
            Place::Var(Var::R),
            None,
            IExpr::Bin(Op::And, Box::new(IExpr::Var(Var::V)), lit(3)),
        )],
        g_return: IExpr::Var(Var::A),
        x_init: IExpr::Lit(0),
        y_init: IExpr::Lit(0),
        f: vec![
            // c = g(2, a);
            Stmt::Call(Some(Var::C), IExpr::Lit(2), RefArg::A),
            // for (i0 : int[0, 2]) { q[i0] += i0; }
            Stmt::Range(vec![Stmt::Assign(
                Place::Q(IExpr::Loop(0)),
                Some(Op::Add),
                IExpr::Loop(0),
            )]),
            // if (b == 0 || 1 / b == 1) {} else { return -1; }
            Stmt::If(
                BExpr::Or(
                    Box::new(BExpr::Cmp(Cmp::Eq, IExpr::Var(Var::B), IExpr::Lit(0))),
                    Box::new(BExpr::Cmp(
                        Cmp::Eq,
                        IExpr::Bin(Op::Div, lit(1), Box::new(IExpr::Var(Var::B))),
                        IExpr::Lit(1),
                    )),
                ),
                vec![],
                vec![Stmt::Return(IExpr::Lit(-1))],
            ),
        ],
        // return c - a;
        f_return: IExpr::Bin(
            Op::Sub,
            Box::new(IExpr::Var(Var::C)),
            Box::new(IExpr::Var(Var::A)),
        ),
        qs: [[1, 1, 1], [1, 1, 2]],
    };
    let inputs = |b, q| Inputs { a: 3, b, c: 0, q };
    let outputs = |b, res| Outputs {
        a: 2,
        b,
        c: 2,
        q: [1, 2, 3],
        res,
    };
    let cases = [
        (inputs(0, [1, 1, 1]), Some(outputs(0, 0))),
        (inputs(1, [1, 1, 1]), Some(outputs(1, 0))),
        (inputs(2, [1, 1, 1]), Some(outputs(2, -1))),
        (inputs(0, [1, 1, 2]), None),
    ];
    let text = model(&p, cases[0].0, placeholder(cases[0].0));
    let mut net = zeno::semantics::analyze(&text).network.unwrap();
    for (inputs, expected) in cases {
        assert_eq!(interpret(&p, inputs).ok(), expected, "{inputs:?}");
        let text = model(&p, inputs, expected.unwrap_or(placeholder(inputs)));
        let verdict = check_bfs(&zeno::semantics::analyze(&text).network.unwrap()).verdict;
        match expected {
            Some(_) => assert_eq!(verdict, Verdict::Holds, "{text}"),
            None => assert!(matches!(verdict, Verdict::ModelError(_)), "{text}"),
        }
        assert_eq!(agree(&p, &mut net, inputs), Ok(()));
    }
}
