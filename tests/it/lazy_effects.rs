//! Assignments (and calls with effects) inside operands that may not be
//! evaluated: a branch of `?:`, the right side of `&&`, `||` and `imply`.
//! Their effects run only where the operand is evaluated, left to right as
//! in C and UPPAAL. Each model is checked under every search order (traces
//! replayed by the independent simulator) with verdicts worked out by hand,
//! and compared with the same model written without the feature (the
//! branches as guarded edges or `if` statements): same verdicts, same
//! states explored by breadth-first search.

use zeno::checker::Verdict;

use crate::support::{errors, every_order};

/// Checks `lazy` and `plain` (the same model without lazy effects) under
/// every order with `expected`, and compares their breadth-first figures.
fn same_as_plain(lazy: &str, plain: &str, expected: &[Verdict]) -> Vec<u64> {
    let a = every_order(lazy, expected);
    let b = every_order(plain, expected);
    let explored = |rs: &[zeno::checker::CheckResult]| -> Vec<u64> {
        rs.iter().map(|r| r.stats.explored).collect()
    };
    assert_eq!(explored(&a), explored(&b), "{lazy}\n{plain}");
    explored(&a)
}

/// The checks of the edge models. By hand: `b` is chosen first; with `b`,
/// `m -> t` sets x = 1 and resets c, and `t -> u` sets y = x + 1 = 2 and,
/// `!b` being false, evaluates `err++ > 0` (err becomes 1); without `b`,
/// x = 2, d is reset, y stays 0 and `err++` is skipped. Time may pass in
/// `m`, so the clock reset there is the younger one. Seven states in all
/// (s, two m, two t, two u): a failing check explores all of them.
const EDGE_CHECKS: &str = "\
check taken: E<> P.u && x == 1 && y == 2 && err == 1 && v == 1;
check skipped: E<> P.u && x == 2 && y == 0 && err == 0 && v == 0;
check mixed: E<> P.u && x == 2 && err == 1;
check c_reset: E<> P.t && b && c < d;
check c_not_reset: E<> P.t && b && d < c;
check d_reset: E<> P.t && !b && d < c;
";

const EDGE_DECLS: &str = "int[0,3] x; int[0,3] y; int[0,3] err; int[0,3] v; bool b;\n\
clock c; clock d;\ntemplate P() {\ninit location s; location m; location t; location u;\n\
s -> m do b = true;\ns -> m do b = false;\n";

#[test]
fn effects_in_lazy_operands_of_an_edge_update() {
    use Verdict::{Fails, Holds};
    let lazy = format!(
        "{EDGE_DECLS}m -> t do b ? (x = 1) : (x = 2), b ? (c = 0) : (d = 0);\n\
         t -> u do b && (y = x + 1), !b || (err++ > 0), v = b ? (err > 0) : 0;\n}}\n\
         system P;\n{EDGE_CHECKS}"
    );
    let plain = format!(
        "{EDGE_DECLS}m -> t when b do x = 1, c = 0;\nm -> t when !b do x = 2, d = 0;\n\
         t -> u when b do y = x + 1, err++, v = 1;\nt -> u when !b;\n}}\n\
         system P;\n{EDGE_CHECKS}"
    );
    let explored = same_as_plain(&lazy, &plain, &[Holds, Holds, Fails, Holds, Fails, Holds]);
    assert_eq!(explored[2], 7);
    assert_eq!(explored[4], 7);
}

/// In a function body, as statements and in value position. By hand, with
/// `b`: x = 1; `y = (z = 3)` gives y = z = 3; `err = err + 1` runs (err =
/// 1); `err++ > 0` runs (1 > 0, err = 2) so z = 4; only `make(4)` is called
/// (cnt = 1, w = 4). Without `b`: x = 2, y = 0, z stays 0, err stays 0,
/// `!b` is true so z = 1, and only `make(5)` is called (cnt = 1, w = 5).
/// Five states (s, two m, two t).
const FN_CHECKS: &str = "\
check with_b: E<> P.t && x == 1 && y == 3 && z == 4 && err == 2 && cnt == 1 && w == 4;
check without_b: E<> P.t && x == 2 && y == 0 && z == 1 && err == 0 && cnt == 1 && w == 5;
check both_made: E<> P.t && cnt != 1;
check implied: E<> P.t && k != 1;
";

const FN_DECLS: &str = "int[0,5] x; int[0,5] y; int[0,5] z; int[0,5] err; int[0,5] cnt;\n\
int[0,5] w; int[0,5] k; bool b;\ntypedef struct { int[0,5] a; } R;\n\
R make(int[0,5] v) { R r; cnt++; r.a = v; return r; }\n";

const FN_TEMPLATE: &str = "template P() {\ninit location s; location m; location t;\n\
s -> m do b = true;\ns -> m do b = false;\nm -> t do f();\n}\nsystem P;\n";

#[test]
fn effects_in_lazy_operands_of_a_function_body() {
    use Verdict::{Fails, Holds};
    // `b imply (k = 1)`: with `b` it assigns k = 1 (and is true); without,
    // `k = 1` is skipped and the statement after it sets k = 1.
    let lazy = format!(
        "{FN_DECLS}void f() {{\n  b ? (x = 1) : (x = 2);\n  y = b ? (z = 3) : 0;\n\
         b && (err = err + 1);\n  if (!b || (err++ > 0)) z++;\n\
         w = b ? make(4).a : make(5).a;\n  if (!(b imply (k = 1))) k = 5; else if (!b) k = 1;\n}}\n\
         {FN_TEMPLATE}{FN_CHECKS}"
    );
    let plain = format!(
        "{FN_DECLS}void f() {{\n  if (b) {{ x = 1; z = 3; y = 3; err = 2; z = 4; w = make(4).a; }}\n\
         else {{ x = 2; y = 0; z = 1; w = make(5).a; }}\n  k = 1;\n}}\n\
         {FN_TEMPLATE}{FN_CHECKS}"
    );
    let explored = same_as_plain(&lazy, &plain, &[Holds, Holds, Fails, Fails]);
    assert_eq!(explored[2], 5);
}

/// An update `c ? a : b` or `a && b` that assigns nothing is reported.
#[test]
fn a_lazy_update_without_effects_is_a_located_error() {
    let errs = errors(
        "int x; bool b;\ntemplate P() { init location s; s -> s do b ? x : 1; }\nsystem P;\n",
    );
    assert!(
        errs.iter()
            .any(|(m, at)| m.contains("changes nothing") && at == "b ? x : 1"),
        "{errs:?}"
    );
}
