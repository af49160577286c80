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
/// `!b` being false, evaluates `err++ > 0` (err becomes 1), so v = 1, and
/// skips `bump()`; without `b`, x = 2, d is reset, y stays 0, `err++` is
/// skipped, v = 0 and `bump()` is called (calls = 1). Time may pass in `m`,
/// so the clock reset there is the younger one. Seven states in all (s,
/// two m, two t, two u): a failing check explores all of them. A check
/// reading `d < c` makes the search split zones along `c = d`
/// (docs/checker.md, "Diagonal constraints"): without `b`, `t` and `u`
/// have `d <= c`, split into `d < c` and `d = c`, so nine states.
const EDGE_CHECKS: &str = "\
check taken: E<> P.u && x == 1 && y == 2 && err == 1 && v == 1 && calls == 0;
check skipped: E<> P.u && x == 2 && y == 0 && err == 0 && v == 0 && calls == 1;
check mixed: E<> P.u && x == 2 && err == 1;
check c_reset: E<> P.t && b && c < d;
check c_not_reset: E<> P.t && b && d < c;
check d_reset: E<> P.t && !b && d < c;
";

const EDGE_DECLS: &str = "int[0,3] x; int[0,3] y; int[0,3] err; int[0,3] v; bool b;\n\
int[0,3] calls;\nbool bump() { calls++; return true; }\n\
clock c; clock d;\ntemplate P() {\ninit location s; location m; location t; location u;\n\
s -> m do b = true;\ns -> m do b = false;\n";

#[test]
fn effects_in_lazy_operands_of_an_edge_update() {
    use Verdict::{Fails, Holds};
    let lazy = format!(
        "{EDGE_DECLS}m -> t do b ? (x = 1) : (x = 2), b ? (c = 0) : (d = 0);\n\
         t -> u do b && (y = x + 1), !b || (err++ > 0), v = b ? (err > 0) : 0, !b && bump();\n}}\n\
         system P;\n{EDGE_CHECKS}"
    );
    let plain = format!(
        "{EDGE_DECLS}m -> t when b do x = 1, c = 0;\nm -> t when !b do x = 2, d = 0;\n\
         t -> u when b do y = x + 1, err++, v = 1;\nt -> u when !b do bump();\n}}\n\
         system P;\n{EDGE_CHECKS}"
    );
    let explored = same_as_plain(&lazy, &plain, &[Holds, Holds, Fails, Holds, Fails, Holds]);
    assert_eq!(explored[2], 7);
    assert_eq!(explored[4], 9);
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

const AGG_DECLS: &str = "typedef struct { int[0,9] a; int[0,9] c; } R;\n\
R q[2] = {{1, 2}, {3, 4}}; R m; R h; R l; bool b; bool same;\n\
int[0,9] row_a[2] = {5, 6}; int[0,9] row_b[2] = {7, 8}; int[0,9] r[2];\n\
int[0,9] got; int[0,9] got2; int[0,9] made;\n\
R make(int[0,9] v) { R x; made++; x.a = v; x.c = v + 1; return x; }\n\
int[0,9] first(R x) { return x.a; }\n";

/// The checks of the models with record and array ternaries. By hand,
/// with `b`: h = make(1) = {1, 2} (one call: made = 1), m = q[0] = {1, 2},
/// r = row_a = {5, 6}, got = q[0].a = 1, `q[0] == q[0]` so `same`, got2 =
/// q[0].c = 2 and l = q[0]. Without `b`: h = {2, 3}, m = q[1] = {3, 4}, r
/// = {7, 8}, got = 3, not `same`, got2 = 4, l = make(3) = {3, 4} (made =
/// 2). The guard `(b ? q[0] : q[1]).a < 9` always holds. Five states.
const AGG_CHECKS: &str = "\
check with_b: E<> P.t && b && h.a == 1 && h.c == 2 && made == 1 && m.a == 1 && m.c == 2 \
&& r[0] == 5 && r[1] == 6 && got == 1 && same && got2 == 2 && l.a == 1 && l.c == 2;
check without_b: E<> P.t && !b && h.a == 2 && h.c == 3 && made == 2 && m.a == 3 \
&& m.c == 4 && r[0] == 7 && r[1] == 8 && got == 3 && !same && got2 == 4 && l == q[1];
check wrong: E<> made > 2 || (P.t && same != b) || (P.t && l != m);
";

#[test]
fn ternaries_between_records_and_arrays() {
    use Verdict::{Fails, Holds};
    let template = |pick: &str, f: &str, edges: &str| {
        format!(
            "{AGG_DECLS}{pick}{f}template P() {{\ninit location s; location m; location t;\n\
             s -> m do b = true;\ns -> m do b = false;\n{edges}}}\nsystem P;\n{AGG_CHECKS}"
        )
    };
    let lazy = template(
        "R pick(bool w) { return w ? q[0] : q[1]; }\n",
        "void f() { R x = b ? q[0] : make(3); l = x; got2 = pick(b).c; }\n",
        "m -> t when (b ? q[0] : q[1]).a < 9 do h = b ? make(1) : make(2), \
         m = b ? q[0] : q[1], r = b ? row_a : row_b, got = first(b ? q[0] : q[1]), \
         same = (b ? q[0] : q[1]) == q[0], f();\n",
    );
    let plain = template(
        "R pick(bool w) { if (w) return q[0]; else return q[1]; }\n",
        "void f() { if (b) l = q[0]; else l = make(3); got2 = pick(b).c; }\n",
        "m -> t when b && q[0].a < 9 do h = make(1), m = q[0], r = row_a, got = first(q[0]), \
         same = q[0] == q[0], f();\n\
         m -> t when !b && q[1].a < 9 do h = make(2), m = q[1], r = row_b, got = first(q[1]), \
         same = q[1] == q[0], f();\n",
    );
    let explored = same_as_plain(&lazy, &plain, &[Holds, Holds, Fails]);
    assert_eq!(explored[2], 5);
}

/// Branches of different shapes, or not both aggregates, are reported.
#[test]
fn ternaries_between_different_shapes_are_located_errors() {
    let errs = errors(&format!(
        "{AGG_DECLS}template P() {{ init location s;\n\
         s -> s do m = b ? q[0] : row_a;\ns -> s do r = b ? row_a : 1; }}\nsystem P;\n"
    ));
    assert!(
        errs.iter().any(|(msg, at)| msg.contains("do not have the same shape")
            && at == "b ? q[0] : row_a"),
        "{errs:?}"
    );
    assert!(
        errs.iter()
            .any(|(msg, at)| msg == "expected an array or a record" && at == "1"),
        "{errs:?}"
    );
}
