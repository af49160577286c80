//! Arithmetic is exact or an error, never wrapped: the checker's evaluator,
//! the range analysis and the semantic layer's constant folding against an
//! independent wide-integer reference, on random expressions.
use proptest::prelude::*;
use zeno::ir::{BinOp, Expr, UnOp};
use zeno::semantics;

/// The reference: every intermediate value is computed exactly in i128
/// (no operation on two i32 operands comes near its range: the largest is
/// a product or a shift, below 2^63) and must lie within i32, or the
/// evaluation fails (`None`). `&&`, `||` and `?:` evaluate only what they
/// need.
fn reference(e: &Expr, vars: &[i32]) -> Option<i32> {
    let fit = |v: i128| i32::try_from(v).ok();
    let big = i128::from;
    Some(match e {
        Expr::Const(c) => *c,
        Expr::Var(v) => vars[*v as usize],
        Expr::Index { base, len, index } => {
            let i = reference(index, vars)?;
            if i < 0 || i as u32 >= *len {
                return None;
            }
            vars[(base + i as u32) as usize]
        }
        Expr::Checked { index, len } => {
            let i = reference(index, vars)?;
            if i < 0 || i as u32 >= *len {
                return None;
            }
            i
        }
        Expr::Unary(op, a) => {
            let a = reference(a, vars)?;
            match op {
                UnOp::Neg => fit(-big(a))?,
                UnOp::Not => (a == 0) as i32,
                // Two's complement: !a = -a - 1, always within i32.
                UnOp::BitNot => fit(-big(a) - 1)?,
            }
        }
        Expr::Binary(BinOp::And, a, b) => {
            (reference(a, vars)? != 0 && reference(b, vars)? != 0) as i32
        }
        Expr::Binary(BinOp::Or, a, b) => {
            (reference(a, vars)? != 0 || reference(b, vars)? != 0) as i32
        }
        Expr::Binary(BinOp::Imply, a, b) => {
            (reference(a, vars)? == 0 || reference(b, vars)? != 0) as i32
        }
        Expr::Binary(op, a, b) => {
            let (x, y) = (reference(a, vars)?, reference(b, vars)?);
            let (bx, by) = (big(x), big(y));
            match op {
                BinOp::Add => fit(bx + by)?,
                BinOp::Sub => fit(bx - by)?,
                BinOp::Mul => fit(bx * by)?,
                // i128's `/` and `%` truncate toward zero, as C does.
                BinOp::Div if y == 0 => return None,
                BinOp::Div => fit(bx / by)?,
                BinOp::Mod if y == 0 => return None,
                BinOp::Mod => fit(bx % by)?,
                BinOp::Shl | BinOp::Shr if !(0..32).contains(&y) => return None,
                BinOp::Shl => fit(bx * 2i128.pow(y as u32))?,
                // Arithmetic shift: the floor of x / 2^y.
                BinOp::Shr => {
                    let d = 2i128.pow(y as u32);
                    let q = bx / d;
                    fit(if bx < 0 && q * d != bx { q - 1 } else { q })?
                }
                BinOp::Lt => (x < y) as i32,
                BinOp::Le => (x <= y) as i32,
                BinOp::Eq => (x == y) as i32,
                BinOp::Ne => (x != y) as i32,
                BinOp::Ge => (x >= y) as i32,
                BinOp::Gt => (x > y) as i32,
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::Min => x.min(y),
                BinOp::Max => x.max(y),
                BinOp::Pow if y < 0 => return None,
                // |x| >= 2 leaves i32 before the 32nd factor (and i128
                // past 40 factors of up to 2^31: then it is outside too).
                BinOp::Pow => match x {
                    0 => (y == 0) as i32,
                    1 => 1,
                    -1 => 1 - 2 * (y % 2),
                    _ if y > 40 => return None,
                    _ => fit(bx.checked_pow(y as u32)?)?,
                },
                BinOp::And | BinOp::Or | BinOp::Imply => unreachable!("short-circuit above"),
            }
        }
        Expr::Cond(c, a, b) => {
            if reference(c, vars)? != 0 {
                reference(a, vars)?
            } else {
                reference(b, vars)?
            }
        }
        Expr::Call(_) => unreachable!("the generated expressions have no calls"),
    })
}

/// Constants where arithmetic goes wrong (0, ±1, the ends of i32, values
/// whose products or shifts overflow), and two variables.
fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        prop::sample::select(vec![
            0,
            1,
            -1,
            2,
            3,
            -7,
            31,
            32,
            46341,
            -46341,
            65536,
            100000,
            1 << 30,
            i32::MIN,
            i32::MIN + 1,
            i32::MAX,
            i32::MAX - 1,
        ])
        .prop_map(Expr::Const),
        (0u32..2).prop_map(Expr::Var),
    ]
}

fn expr(ops: Vec<BinOp>, unops: Vec<UnOp>, lazy: bool) -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(4, 24, 3, move |inner| {
        let unary = (prop::sample::select(unops.clone()), inner.clone())
            .prop_map(|(op, a)| Expr::Unary(op, Box::new(a)));
        let binary = (
            prop::sample::select(ops.clone()),
            inner.clone(),
            inner.clone(),
        )
            .prop_map(|(op, a, b)| Expr::Binary(op, Box::new(a), Box::new(b)));
        let cond = (inner.clone(), inner.clone(), inner)
            .prop_map(|(c, a, b)| Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        if lazy {
            prop_oneof![unary, binary, cond].boxed()
        } else {
            prop_oneof![unary, binary].boxed()
        }
    })
}

const ALL_BINARY: [BinOp; 22] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Mod,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Ge,
    BinOp::Gt,
    BinOp::And,
    BinOp::Or,
    BinOp::Imply,
    BinOp::BitAnd,
    BinOp::BitOr,
    BinOp::BitXor,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::Min,
    BinOp::Max,
    BinOp::Pow,
];

/// The operators zeno's syntax writes today, without the lazy ones: in a
/// constant, a subexpression that fails is an error even where `&&`, `||`
/// or `?:` would skip it (tested by hand below).
const STRICT_SYNTAX: [BinOp; 12] = [
    BinOp::Pow,
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Mod,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Ge,
    BinOp::Gt,
];

/// A constant expression in zeno syntax, fully parenthesised. `i32::MIN`
/// has no literal (2147483648 is too large), so it is written `(-2147483647 - 1)`.
fn zeno_text(e: &Expr) -> String {
    match e {
        Expr::Const(i32::MIN) => "(-2147483647 - 1)".to_string(),
        Expr::Const(c) if *c < 0 => format!("(-{})", -(*c as i64)),
        Expr::Const(c) => c.to_string(),
        Expr::Unary(UnOp::Neg, a) => format!("(-{})", zeno_text(a)),
        Expr::Unary(UnOp::Not, a) => format!("(!{})", zeno_text(a)),
        Expr::Binary(op, a, b) => {
            let sym = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                BinOp::Mod => "%",
                BinOp::Lt => "<",
                BinOp::Le => "<=",
                BinOp::Eq => "==",
                BinOp::Ne => "!=",
                BinOp::Ge => ">=",
                BinOp::Gt => ">",
                BinOp::Pow => "**",
                other => unreachable!("{other:?} is not generated for the text route"),
            };
            format!("({} {sym} {})", zeno_text(a), zeno_text(b))
        }
        other => unreachable!("{other:?} is not generated for the text route"),
    }
}

/// The value zeno gives the constant `C = text`, or `None` when it reports
/// an error about it.
fn zeno_constant(text: &str) -> Option<i32> {
    let model = format!(
        "const int[-2147483647 - 1, 2147483647] C = {text};\n\
         int[-2147483647 - 1, 2147483647] x = C;\n\
         template T() {{ init location a; }}\n\
         system T;\n\
         check c: A[] x == x;\n"
    );
    let analysis = semantics::analyze(&model);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == zeno::diagnostics::Severity::Error)
        .collect();
    match analysis.network {
        Some(net) if errors.is_empty() => Some(net.variables[0].init),
        _ => None,
    }
}

fn constants_only(e: &Expr) -> bool {
    let mut reads = false;
    e.for_each_read(&mut |_| reads = true);
    !reads
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The checker's evaluator computes exactly what the reference does, and
    /// fails exactly where it fails.
    #[test]
    fn evaluation_is_exact_or_fails(
        e in expr(ALL_BINARY.to_vec(), vec![UnOp::Neg, UnOp::Not, UnOp::BitNot], true),
        x in prop::sample::select(vec![0, 1, -1, 31, 32, 65536, i32::MIN, i32::MAX]),
        y in -40i32..40,
    ) {
        let want = reference(&e, &[x, y]);
        let got = e.eval(&[x, y]).ok();
        prop_assert_eq!(got, want, "{:?} at x = {}, y = {}", e, x, y);
    }

    /// The range analysis covers the exact value, and says "may fail"
    /// wherever the reference fails.
    #[test]
    fn ranges_cover_the_exact_values(
        e in expr(ALL_BINARY.to_vec(), vec![UnOp::Neg, UnOp::Not, UnOp::BitNot], true),
        x in -3i32..3,
        y in 29i32..33,
    ) {
        let r = e.range(&[(-3, 2), (29, 32)]);
        match reference(&e, &[x, y]) {
            Some(v) => prop_assert!(r.lo <= v as i64 && v as i64 <= r.hi, "{v} outside {r:?}"),
            None => prop_assert!(r.may_fail, "{e:?} fails at ({x}, {y}) but {r:?} cannot"),
        }
    }

    /// A constant declaration gets the exact value, or an error; never a
    /// wrapped value.
    #[test]
    fn constants_are_exact_or_rejected(
        e in expr(STRICT_SYNTAX.to_vec(), vec![UnOp::Neg, UnOp::Not], false)
            .prop_filter("constants only", constants_only),
    ) {
        let text = zeno_text(&e);
        prop_assert_eq!(zeno_constant(&text), reference(&e, &[]), "const C = {}", text);
    }
}

#[test]
fn the_reported_overflows() {
    // The two constants of the report: both wrapped silently before.
    assert_eq!(zeno_constant("100000 * 100000"), None);
    assert_eq!(zeno_constant("2147483647 + 1"), None);
    assert_eq!(zeno_constant("46340 * 46340"), Some(2147395600));
    let analysis = semantics::analyze("const int BIG = 100000 * 100000;\n");
    let overflow = analysis
        .diagnostics
        .iter()
        .find(|d| d.severity == zeno::diagnostics::Severity::Error)
        .expect("an error");
    assert!(
        overflow
            .message
            .contains("integer overflow: 100000 * 100000 = 10000000000"),
        "{}",
        overflow.message
    );
    // Located on the product.
    assert_eq!((overflow.range.start, overflow.range.end), (16, 31));
}

#[test]
fn a_failing_constant_is_an_error_even_where_it_would_be_skipped() {
    // Like a compiler, zeno rejects a constant subexpression that can never
    // be evaluated, even behind `&&`, `||` or `?:` (docs/language.md).
    assert_eq!(zeno_constant("0 && (2147483647 + 1 > 0)"), None);
    assert_eq!(zeno_constant("1 || (1 / 0 > 0)"), None);
    assert_eq!(zeno_constant("1 ? 2 : 2147483647 * 2"), None);
    assert_eq!(zeno_constant("0 && 1 > 0"), Some(0));
}

#[test]
fn minimum_remainder_and_shifts_are_exact() {
    let e = |op, a, b| Expr::Binary(op, Box::new(Expr::Const(a)), Box::new(Expr::Const(b)));
    // i32::MIN % -1 is 0 exactly; i32::MIN / -1 does not fit.
    assert_eq!(e(BinOp::Mod, i32::MIN, -1).eval(&[]), Ok(0));
    assert!(e(BinOp::Div, i32::MIN, -1).eval(&[]).is_err());
    // 1 << 30 fits, 1 << 31 would wrap to i32::MIN; -1 << 31 is i32::MIN exactly.
    assert_eq!(e(BinOp::Shl, 1, 30).eval(&[]), Ok(1 << 30));
    assert!(e(BinOp::Shl, 1, 31).eval(&[]).is_err());
    assert_eq!(e(BinOp::Shl, -1, 31).eval(&[]), Ok(i32::MIN));
    assert_eq!(e(BinOp::Shr, -7, 1).eval(&[]), Ok(-4));
    assert!(e(BinOp::Shr, 1, 32).eval(&[]).is_err());
}

/// The verdicts of every check of `text`, breadth-first on one and two
/// threads and depth-first (and the liveness search for `A<>`).
fn clock_verdicts(text: &str) -> Vec<zeno::checker::Verdict> {
    use zeno::checker::{Cancel, Options, SearchOrder, check};
    let analysis = semantics::analyze(text);
    let net = analysis.network.expect("the model lowers");
    let mut out = Vec::new();
    for id in net.check_ids() {
        for (order, threads) in [
            (SearchOrder::Bfs, 1),
            (SearchOrder::Bfs, 2),
            (SearchOrder::Dfs, 1),
        ] {
            let options = Options {
                config: zeno::checker::config::Config {
                    search: order,
                    ..Default::default()
                },
                threads,
                ..Options::default()
            };
            out.push(
                check(
                    &net,
                    id,
                    &options,
                    &Cancel::new(),
                    &mut zeno::checker::no_progress,
                )
                .verdict,
            );
        }
    }
    out
}

/// A location left once `x` passes `k` (the invariant holds it until `u`).
fn leave_after(u: &str, guard: &str) -> String {
    format!(
        "clock x;\ntemplate T() {{\n init location l invariant x <= {u};\n location m;\n \
         l -> m when {guard};\n}}\nsystem T;\ncheck reach: E<> T.m;\ncheck live: A<> T.m;\n"
    )
}

#[test]
fn clock_constants_beyond_a_zone_are_unknown_never_a_wrong_verdict() {
    use zeno::checker::{Limit, Verdict};
    let max = zeno::ir::MAX_CLOCK_CONSTANT;
    assert_eq!(max, 268_435_455);
    // At the largest constant: decided, by hand. `x > max - 1` can hold
    // under `x <= max`, so `m` is reachable; `x > max` cannot, so it is not
    // (and `A<> T.m` fails: `l` may stay at x = max for ever).
    let reach = clock_verdicts(&leave_after(&max.to_string(), &format!("x > {}", max - 1)));
    assert!(reach[..3].iter().all(|v| *v == Verdict::Holds), "{reach:?}");
    let never = clock_verdicts(&leave_after(&max.to_string(), &format!("x > {max}")));
    assert!(never.iter().all(|v| *v == Verdict::Fails), "{never:?}");

    // One beyond it: the bound would saturate to "no bound" and `m` would
    // look reachable under `x <= 2147483646` with `x > 2147483646`.
    let beyond = leave_after("2147483646", "x > 2147483646");
    let analysis = semantics::analyze(&beyond);
    let warnings: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("beyond ±268435455"))
        .collect();
    assert_eq!(warnings.len(), 2, "{:?}", analysis.diagnostics);
    assert_eq!(
        &beyond[warnings[0].range.start as usize..][..10],
        "2147483646"
    );
    let verdicts = clock_verdicts(&beyond);
    assert!(
        verdicts
            .iter()
            .all(|v| *v == Verdict::Unknown(Limit::ClockRange)),
        "{verdicts:?}"
    );
    // Through a variable whose declared range goes beyond it, and through a
    // reset: unknown as well.
    let through_variable = "int[0, 300000000] k = 1;\nclock x;\ntemplate T() {\n init location l;\n \
         location m;\n l -> m when x >= k;\n}\nsystem T;\ncheck reach: E<> T.m;\n";
    assert!(
        clock_verdicts(through_variable)
            .iter()
            .all(|v| *v == Verdict::Unknown(Limit::ClockRange))
    );
    let reset = "clock x;\ntemplate T() {\n init location l;\n location m;\n \
         l -> m do x = 300000000;\n}\nsystem T;\ncheck reach: E<> T.m;\n";
    assert!(
        clock_verdicts(reset)
            .iter()
            .all(|v| *v == Verdict::Unknown(Limit::ClockRange))
    );
}

/// `**` in a model, as UPPAAL's current parser reads it (tighter than
/// `*`, looser than a prefix `-`, left-associative; utap's test model
/// `powers.xml` has `A * B ** C`). By hand: 1 + 2 ** 3 = 9,
/// 1 * (2 ** 3) = 8, 2 * (3 ** 2) = 18 (not (2 * 3) ** 2 = 36),
/// (-2) ** 2 = 4 (not -(2 ** 2) = -4), (2 ** 3) ** 2 = 64, 3 ** 3 = 27. `a -> b` sets r = 2 ** 3 = 8 and e = 5; `b -> c` sets
/// r = (-2) ** 5 = -32 and e = -1; then `c -> c` computes 2 ** -1, a model
/// error two steps from the start.
#[test]
fn power_in_a_model() {
    let text = "const int A = 1;\nconst int B = 2;\nconst int C = A + B;\n\
                const int PREC1 = A + B ** C;\nconst int PREC2 = A * B ** C;\n\
                const int PREC3 = 2 * 3 ** 2;\nconst int NEG = -2 ** 2;\n\
                const int LEFT = 2 ** 3 ** 2;\nint[0, 31] ii = 3 ** 3;\n\
                int[-3, 40] e = 3;\nint[-8, 8] base = 2;\nint r;\n\
                template P() { init location a; location b; location c;\n\
                a -> b do r = base ** e, e = e + 2;\n\
                b -> c when e > 0 do r = (-base) ** e, e = -1;\n\
                c -> c do r = base ** e; }\nsystem P;\n\
                check consts: E<> PREC1 == 9 && PREC2 == 8 && PREC3 == 18 && NEG == 4 && LEFT == 64 && ii == 27;\n\
                check b: E<> P.b && r == 8;\ncheck c: E<> P.c && r == -32;\n";
    crate::support::every_order(
        text,
        &[
            zeno::checker::Verdict::Holds,
            zeno::checker::Verdict::Holds,
            zeno::checker::Verdict::Holds,
        ],
    );
    let a = semantics::analyze(&format!("{text}check err: A[] true;\n"));
    let net = a.network.expect("lowers");
    let r = zeno::checker::check(
        &net,
        net.check_at(3).unwrap(),
        &zeno::checker::Options::default(),
        &zeno::checker::Cancel::default(),
        &mut zeno::checker::no_progress,
    );
    assert!(
        matches!(&r.verdict, zeno::checker::Verdict::ModelError(e)
            if e.kind == zeno::ir::ErrorKind::NegativeExponent { exponent: -1 }),
        "{:?}",
        r.verdict
    );
    assert_eq!(r.trace.map(|t| t.steps.len()), Some(2));
    let errs = crate::support::errors("const int X = 2 ** 31;\nconst int Y = 2 ** -1;\n");
    assert_eq!(
        errs,
        [
            (
                "integer overflow: 2 ** 31 = 2147483648 is outside the 32-bit integers [-2147483648, 2147483647]"
                    .to_string(),
                "2 ** 31".to_string()
            ),
            (
                "negative exponent -1 in `**`: the value is not an integer".to_string(),
                "2 ** -1".to_string()
            )
        ]
    );
}

#[test]
fn plain_int_constants_may_be_any_32_bit_integer() {
    // UPPAAL keeps constants out of the state and checks no range on them:
    // `const int INF = 1000000;` is common in real models. The constant is
    // the number itself; a variable stays within its declared range.
    // `x` starts at INF / 1000 = 1000 and the edge sets it to INF - 999999
    // = 1, so P reaches B with x == 1 and never with x == 2; the least
    // 32-bit integer is written as in C.
    let text = "const int INF = 1000000;\n\
                const int LOW = -2147483648;\n\
                int[0, 1000] x = INF / 1000;\n\
                template P() {\n\
                    init location A;\n\
                    location B;\n\
                    A -> B when INF > 32767 && LOW < -32768 do x = INF - 999999;\n\
                }\n\
                system P;\n\
                check reach: E<> P.B && x == 1;\n\
                check start: A[] P.A imply x == 1000;\n\
                check never_two: E<> x == 2;\n";
    use zeno::checker::Verdict;
    crate::support::every_order(text, &[Verdict::Holds, Verdict::Holds, Verdict::Fails]);
    // A variable of plain `int` still has `int`'s range.
    let analysis = semantics::analyze("int v = 1000000;\n");
    assert!(
        analysis
            .diagnostics
            .iter()
            .any(|d| d.severity == zeno::diagnostics::Severity::Error
                && d.message
                    .contains("1000000 is outside the range [-32768, 32767]")),
        "{:?}",
        analysis.diagnostics
    );
}
