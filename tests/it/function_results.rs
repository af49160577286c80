//! Functions that return records and arrays, and value parameters passed
//! on by reference. Every verdict is worked out by hand from the model
//! text; each model is also written without the feature, which must give
//! the same verdicts and explore the same states breadth-first.

use crate::support::{errors, every_order};
use zeno::checker::Verdict;
use zeno::ir::ErrorKind;

/// The BFS explored states of each check, checked under every order.
fn explored(text: &str, expected: &[Verdict]) -> Vec<u64> {
    every_order(text, expected)
        .iter()
        .map(|r| r.stats.explored)
        .collect()
}

/// By hand: `a -> b` runs with make(1) = {1, false}: q[0] = {2, true},
/// m = {3, true}, i = 1. `b -> c` sees make(3) == m and ramp(1)[3] =
/// (3 + 1) % 4 = 0; it sets g = local() + first(make(1)) = (4 + 2) + 1 = 7,
/// rows = ramp(2) = {2, 3, 0, 1} and q[1] = make(5) = {5, true} (push
/// writes at i = 1). So `reached` holds in 2 steps, `invariant` holds and
/// `flag_off` (q[1].f false at c) fails.
#[test]
fn records_and_arrays_returned_by_functions() {
    let decls = "typedef struct { int[0,9] a; bool f; } msg_t;\n\
                 typedef int[0,3] row_t[4];\n\
                 msg_t q[3];\nmsg_t m;\nint[0,3] i;\nint[0,9] g;\nrow_t rows;\n";
    let checks = "check reached: E<> P.c && g == 7 && q[0].a == 2 && q[0].f && m.a == 3 \
                  && rows[0] == 2 && rows[2] == 0 && q[1].a == 5;\n\
                  check stays: A[] !P.c || (i == 1 && rows[3] == 1);\n\
                  check flag_off: E<> P.c && !q[1].f;\n";
    let with = format!(
        "{decls}\
         msg_t make(int a) {{ msg_t r; r.a = a; r.f = a > 1; return r; }}\n\
         row_t ramp(int k) {{ row_t r; for (j : int[0,3]) r[j] = (j + k) % 4; return r; }}\n\
         int first(msg_t x) {{ return x.a; }}\n\
         void push(msg_t &dst[3], msg_t v) {{ dst[i] = v; }}\n\
         int local() {{ msg_t l = make(4); return l.a + make(2).a; }}\n\
         template P() {{ init location a; location b; location c;\n\
         a -> b when make(1).a == 1 && !make(1).f do q[i] = make(2), m = make(3), i++;\n\
         b -> c when make(3) == m && ramp(1)[3] == 0\n\
           do g = local() + first(make(1)), rows = ramp(2), push(q, make(5)); }}\n\
         system P;\n{checks}"
    );
    let without = format!(
        "{decls}\
         template P() {{ init location a; location b; location c;\n\
         a -> b do q[i].a = 2, q[i].f = true, m.a = 3, m.f = true, i++;\n\
         b -> c when m.a == 3 && m.f\n\
           do g = 7, rows[0] = 2, rows[1] = 3, rows[2] = 0, rows[3] = 1, \
              q[i].a = 5, q[i].f = true; }}\n\
         system P;\n{checks}"
    );
    let expected = [Verdict::Holds, Verdict::Holds, Verdict::Fails];
    let bfs = every_order(&with, &expected);
    let steps: Vec<Option<usize>> = bfs
        .iter()
        .map(|r| r.trace.as_ref().map(|t| t.steps.len()))
        .collect();
    assert_eq!(steps[0], Some(2));
    assert_eq!(explored(&with, &expected), explored(&without, &expected));
}

/// A queue of records: `push` takes a record argument that a call
/// returns, `pop` returns one and has effects, which run once. By hand:
/// `a -> b` pushes {1, {0, 2}} and {2, {0, 1}} (len = 2); `b -> c` pops
/// the first into `got` (len = 1, pops = 1, q[0] = {2, {0, 1}}); `c -> d`
/// compares records returned by calls, passes one to a constant
/// reference (3 + 0 + 3 = 6) and an array field of one by value
/// (0 + 2 = 2), and stores a record with an array of records inside
/// (`fill`) whole, and a part of one. So `stored` holds in 3 steps,
/// `popped_twice` fails and `got_first` holds.
#[test]
fn a_queue_of_records_through_functions() {
    let decls = "typedef struct { int[0,9] id; int[0,3] data[2]; } msg_t;\n\
                 typedef struct { msg_t slot[2]; int[0,2] n; } box_t;\n\
                 box_t boxes[2][2];\nmsg_t q[4];\nint[0,4] len;\nint[0,99] pops;\nmsg_t got;\n";
    let checks = "check stored: E<> P.d && pops == 1 && len == 1 && boxes[1][0].slot[1].id == 7 \
                  && boxes[1][0].slot[1].data[1] == 3 && boxes[1][0].n == 1 \
                  && boxes[0][1].slot[0].id == 8 && boxes[0][1].n == 0;\n\
                  check popped_twice: E<> P.d && pops != 1;\n\
                  check got_first: A[] P.c imply got.id == 1 && got.data[1] == 2;\n";
    let with = format!(
        "{decls}\
         msg_t pop() {{ msg_t r = q[0]; for (k : int[0,2]) q[k] = q[k+1]; len--; pops++; return r; }}\n\
         void push(msg_t &dst[4], msg_t v) {{ dst[len] = v; len++; }}\n\
         int sm(const msg_t &v) {{ return v.id + v.data[0] + v.data[1]; }}\n\
         int total(const int a[2]) {{ return a[0] + a[1]; }}\n\
         msg_t mk(int id, int d) {{ msg_t r; r.id = id; r.data[1] = d; return r; }}\n\
         box_t fill(int id) {{ box_t b; b.slot[1] = mk(id, 3); b.n = 1; return b; }}\n\
         template P() {{ init location a; location b; location c; location d;\n\
         a -> b do push(q, mk(1, 2)), push(q, mk(2, 1));\n\
         b -> c when len == 2 do got = pop();\n\
         c -> d when got == mk(1, 2) && q[0] == mk(2, 1) && sm(mk(3, 3)) == 6 \
                && total(mk(0, 2).data) == 2\n\
           do boxes[1][0] = fill(7), boxes[0][1].slot[0] = fill(8).slot[1]; }}\n\
         system P;\n{checks}"
    );
    let without = format!(
        "{decls}\
         template P() {{ init location a; location b; location c; location d;\n\
         a -> b do q[0].id = 1, q[0].data[1] = 2, q[1].id = 2, q[1].data[1] = 1, len = 2;\n\
         b -> c when len == 2 do got = q[0], q[0] = q[1], q[1] = q[2], q[2] = q[3], \
                len--, pops++;\n\
         c -> d when got.id == 1 && got.data[0] == 0 && got.data[1] == 2 && q[0].id == 2 \
                && q[0].data[0] == 0 && q[0].data[1] == 1\n\
           do boxes[1][0].slot[1].id = 7, boxes[1][0].slot[1].data[1] = 3, boxes[1][0].n = 1, \
              boxes[0][1].slot[0].id = 8, boxes[0][1].slot[0].data[1] = 3; }}\n\
         system P;\n{checks}"
    );
    let expected = [Verdict::Holds, Verdict::Fails, Verdict::Holds];
    let bfs = every_order(&with, &expected);
    assert_eq!(bfs[0].trace.as_ref().map(|t| t.steps.len()), Some(3));
    assert_eq!(explored(&with, &expected), explored(&without, &expected));
}

/// A field whose value does not fit the result type's range is a model
/// error where it is copied: 50 into `int[0,9]`, located in `cut`.
#[test]
fn a_result_outside_its_range_is_a_model_error() {
    let text = "typedef struct { int[0,9] a; } narrow_t;\ntypedef struct { int a; } wide_t;\n\
                narrow_t n;\nint[0,99] v = 50;\n\
                narrow_t cut() { wide_t w; w.a = v; return w; }\n\
                template P() { init location a; location b; a -> b do n = cut(); }\n\
                system P;\ncheck E<> P.b;\n";
    let a = zeno::semantics::analyze(text);
    let net = a.network.expect("lowers");
    let r = zeno::checker::check(
        &net,
        net.check_at(0).unwrap(),
        &zeno::checker::Options::default(),
        &zeno::checker::Cancel::default(),
        &mut zeno::checker::no_progress,
    );
    assert!(
        matches!(&r.verdict, Verdict::ModelError(e)
            if matches!(e.kind, ErrorKind::OutOfRange { value: 50, lo: 0, hi: 9, .. })
            && e.site.is_some()),
        "{:?}",
        r.verdict
    );
}

/// Where a returned record cannot go: a located error each.
#[test]
fn misused_results_are_located_errors() {
    let head = "typedef struct { int[0,9] a; bool f; } msg_t;\nmsg_t m;\nint x;\n\
                msg_t make(int a) { msg_t r; r.a = a; return r; }\n\
                void inc(int &v) { v++; }\n";
    let cases: [(&str, &str, &str); 6] = [
        (
            "x = make(1)",
            "`make` returns struct { int[0, 9] a; bool f; }: use a field or an element of it, or assign, compare or pass it whole",
            "make(1)",
        ),
        (
            "make(1).a = 2",
            "cannot assign to the result of a call",
            "make(1).a",
        ),
        (
            "make(2) = m",
            "cannot assign to the result of a call",
            "make(2)",
        ),
        (
            "inc(make(1).a)",
            "the reference parameter `v` needs a variable, not the result of a call",
            "make(1).a",
        ),
        (
            "x = make(1) + 1",
            "`make` returns struct { int[0, 9] a; bool f; }: use a field or an element of it, or assign, compare or pass it whole",
            "make(1)",
        ),
        (
            "m = make(1, 2)",
            "`make` takes 1 argument, not 2",
            "make(1, 2)",
        ),
    ];
    for (update, message, at) in cases {
        let text =
            format!("{head}template P() {{ init location a; a -> a do {update}; }}\nsystem P;\n");
        let errs = errors(&text);
        assert!(
            errs.iter().any(|(m, a)| m == message && a == at),
            "{update}: {errs:?}"
        );
    }
    let errs = errors(
        "msg_t f() { int z[2]; return z; }\n"
            .replace("msg_t f", &format!("{head}msg_t f"))
            .as_str(),
    );
    assert!(
        errs.iter().any(|(m, a)| m
            == "the function returns struct { int[0, 9] a; bool f; }, not int[-32768, 32767][2]"
            && a == "z"),
        "{errs:?}"
    );
    let errs = errors(
        "typedef struct { int[0,9] a; } msg_t;\nmsg_t q[3];\nint[0,3] len = 2;\n\
         msg_t pop() { len--; return q[len]; }\n\
         template P() { init location a; a -> a when len > 0 do q[len] = pop(); }\nsystem P;\n",
    );
    assert!(
        errs.iter().any(|(m, a)| m
            == "the call on the right changes a variable that an index on the left reads; \
                copy the result to a local or a variable first"
            && a == "q[len] = pop()"),
        "{errs:?}"
    );
    // The same for a scalar: `a[len] = popi()`, in an update and in a body.
    let errs = errors(
        "int a[3];\nint[0,3] len = 2;\nint popi() { len--; return a[len]; }\n\
         void f() { a[len] = popi(); }\n\
         template P() { init location s; s -> s when len > 0 do a[len] = popi(); }\nsystem P;\n",
    );
    let clashes: Vec<&str> = errs
        .iter()
        .filter(|(m, _)| m.starts_with("the call on the right changes a variable"))
        .map(|(_, a)| a.as_str())
        .collect();
    assert_eq!(clashes, ["a[len] = popi()", "a[len] = popi()"], "{errs:?}");
    let errs = errors(&format!("{head}msg_t g() {{ return 3; }}\n"));
    assert!(
        errs.iter()
            .any(|(m, a)| m == "expected an array or a record" && a == "3"),
        "{errs:?}"
    );
    let errs = errors("clock y;\nclock f() { return y; }\n");
    assert!(
        errs.iter().any(|(m, a)| m
            == "a function returns an integer, a boolean, or an array or record of them"
            && a == "clock"),
        "{errs:?}"
    );
}

/// A function's value parameter passed on to a reference parameter:
/// the callee changes the copy, not the argument. By hand: f(4) = 5;
/// h(r) copies r, increments the copy's a (0 -> 1) and b[1] (0 -> 2):
/// 1 * 10 + 2 = 12; k(arr) copies arr and returns the copy's a[1] + 1 = 1.
/// So loc = 13, g = 5, and r and arr stay 0.
#[test]
fn value_parameters_passed_on_by_reference() {
    let text = "int g;\nint arr[3];\ntypedef struct { int a; int b[2]; } rec_t;\nrec_t r;\n\
                void inc(int &v) { v++; }\n\
                void incr(rec_t &x) { x.a++; x.b[1] += 2; }\n\
                int f(int a) { inc(a); return a; }\n\
                int h(rec_t x) { incr(x); return x.a * 10 + x.b[1]; }\n\
                int k(int a[3]) { inc(a[1]); return a[1]; }\n\
                template P() { int loc; init location a; location b;\n\
                a -> b do g = f(4), loc = h(r) + k(arr); }\n\
                system P;\n\
                check E<> P.b && g == 5 && P.loc == 13 && r.a == 0 && r.b[1] == 0 && arr[1] == 0;\n\
                check E<> P.b && g != 5;\n";
    every_order(text, &[Verdict::Holds, Verdict::Fails]);
    // A template's value parameter is a constant of the instance (as in
    // UPPAAL): it cannot be bound to a reference that may write it.
    let errs = errors(
        "void inc(int &v) { v++; }\ntemplate P(int k) { init location a; a -> a do inc(k); }\n\
         Q = P(7);\nsystem Q;\n",
    );
    assert!(
        errs.iter().any(|(m, a)| m
            == "the reference parameter `v` needs a variable, not a constant"
            && a == "k"),
        "{errs:?}"
    );
}

/// A local array or record initialised from a list of expressions, read
/// when the declaration runs (a nested record from a call). By hand:
/// mk(2) = {2, {2, 3}}, so `s -> t` sets g = 2 + 2 + 3 = 7; the same
/// model with the values assigned one by one explores the same states.
#[test]
fn local_lists_of_expressions() {
    let decls = "typedef struct { int[0,9] a; int[0,9] b[2]; } rec_t;\n\
                 typedef struct { rec_t r; bool f; } outer_t;\nint[0,30] g;\n";
    let checks = "check set: E<> P.t && g == 7;\ncheck other: E<> P.t && g != 7;\n";
    let with = format!(
        "{decls}rec_t mk(int k) {{ rec_t r = {{ k, {{ k, k + 1 }} }}; return r; }}\n\
         int total(int k) {{ outer_t o = {{ mk(k), true }}; \
         return o.f ? o.r.a + o.r.b[0] + o.r.b[1] : 0; }}\n\
         template P() {{ init location s; location t; s -> t do g = total(2); }}\n\
         system P;\n{checks}"
    );
    let without = format!(
        "{decls}template P() {{ init location s; location t; s -> t do g = 7; }}\n\
         system P;\n{checks}"
    );
    let expected = [Verdict::Holds, Verdict::Fails];
    assert_eq!(explored(&with, &expected), explored(&without, &expected));
    let errs = errors("int f(int k) { int a[2] = { k }; return a[0]; }\n");
    assert!(
        errs.iter().any(
            |(m, a)| m == "expected 2 value(s) for int[-32768, 32767][2], found 1" && a == "{ k }"
        ),
        "{errs:?}"
    );
}

/// A constant reference parameter bound to a value (a constant, an
/// expression, a template's value parameter): the parameter is that value.
/// By hand: peek(K) + peek(g + 1) + peek(k) = 4 + 1 + 3 = 8 with g = 0 and
/// the instance's k = 3, the same as the model that adds the values itself.
#[test]
fn constant_references_bound_to_values() {
    let checks = "check set: E<> P.t && g == 8;\ncheck other: E<> P.t && g != 8;\n";
    let with = format!(
        "const int K = 4;\nint[0,9] g;\nint peek(const int &x) {{ return x; }}\n\
         template T(const int k) {{ init location s; location t;\n\
         s -> t do g = peek(K) + peek(g + 1) + peek(k); }}\nP = T(3);\nsystem P;\n{checks}"
    );
    let without = format!(
        "const int K = 4;\nint[0,9] g;\n\
         template T(const int k) {{ init location s; location t;\n\
         s -> t do g = K + (g + 1) + k; }}\nP = T(3);\nsystem P;\n{checks}"
    );
    let expected = [Verdict::Holds, Verdict::Fails];
    assert_eq!(explored(&with, &expected), explored(&without, &expected));
}

/// Results in every place a UPPAAL model puts them: an array of records
/// (`queue_t`), a record with a record inside, an array passed to a
/// constant reference, a template's function, a quantifier, a `select`,
/// a clock bound in a guard and in an invariant (`x <= make(3).a`, whose
/// bound is the field's range [0, 9], so the zone stays exact), a check.
/// By hand: `a -> b` (k = 0 or 1, once 1 <= x <= 3) stores qs = {k + 2,
/// k + 3}, o = {{4, true}, 2}, mine = make(0 + 1) and resets x; `b -> c`
/// passes every comparison and sets cnt = 1, mine = make(1). So `one` (k
/// = 1) and `two` (k = 0) hold in 2 steps, `never` fails, `inv` holds,
/// and `q` holds in 1 step.
#[test]
fn results_in_uppaal_places() {
    let text = "typedef struct { int[0,9] a; bool f; } msg_t;\ntypedef msg_t queue_t[2];\n\
        typedef struct { msg_t inner; int[0,3] n; } outer_t;\n\
        queue_t qs;\nouter_t o;\nint[0,9] cnt;\nclock x;\n\
        msg_t make(int a) { msg_t r; r.a = a; r.f = true; return r; }\n\
        queue_t both(int a) { queue_t q; q[0] = make(a); q[1] = make(a + 1); return q; }\n\
        outer_t wrap(int a) { outer_t w; w.inner = make(a); w.n = 2; return w; }\n\
        int sum4(const int &v[4]) { return v[0] + v[1] + v[2] + v[3]; }\n\
        typedef int[0,3] row_t[4];\n\
        row_t ones() { row_t r = {1, 1, 1, 1}; return r; }\n\
        msg_t bump() { cnt++; return make(cnt); }\n\
        template P() { msg_t mine;\n\
          msg_t loc() { return make(mine.a + 1); }\n\
          init location a invariant x <= make(3).a; location b; location c;\n\
          a -> b select k : int[0, 1] when forall (i : int[0,2]) make(i).a == i \
            && x >= make(1).a do qs = both(k + 2), o = wrap(4), mine = loc(), x = 0;\n\
          b -> c when o.inner == make(4) && wrap(4) == o && sum4(ones()) == 4 \
            && qs[1] == make(qs[0].a + 1) do mine = bump(); }\n\
        system P;\n\
        check one: E<> P.c && qs[0].a == 3 && qs[1].a == 4 && P.mine.a == 1 && cnt == 1;\n\
        check two: E<> P.c && qs[0].a == 2;\n\
        check never: E<> P.c && cnt != 1;\n\
        check inv: A[] P.a imply x <= 3;\n\
        check q: E<> make(4) == o.inner;\n";
    let expected = [
        Verdict::Holds,
        Verdict::Holds,
        Verdict::Fails,
        Verdict::Holds,
        Verdict::Holds,
    ];
    let bfs = every_order(text, &expected);
    let steps: Vec<Option<usize>> = bfs
        .iter()
        .map(|r| r.trace.as_ref().map(|t| t.steps.len()))
        .collect();
    assert_eq!(steps, [Some(2), Some(2), None, None, Some(1)]);
    let errs = errors(
        "typedef struct { int[0,9] a; } msg_t;\nint[0,9] cnt;\n\
         msg_t bump() { cnt++; msg_t r; r.a = cnt; return r; }\n\
         template P() { init location a; a -> a when bump().a == 1; }\nsystem P;\n",
    );
    assert!(
        errs.iter()
            .any(|(m, a)| m.starts_with("`bump` changes variables") && a == "bump()"),
        "{errs:?}"
    );
}

/// Returns inside branches and loops, a result passed on to a function
/// that returns one in turn, nested three deep. By hand: q[1] = make(3) =
/// {3, true}; pick(0) finds q[1] (q[0].f is false) so g = {3, true};
/// chain() = via(via(make(1))): via adds 2 to `a` (1 -> 3 -> 5), pick(2)
/// is make(2), so r = 5 + 2 = 7; q[0] = pick(0) = {3, true}.
#[test]
fn returns_in_branches_and_chained_results() {
    let text = "typedef struct { int[0,9] a; bool f; } msg_t;\nmsg_t q[2];\nmsg_t g;\nint[0,9] r;\n\
        msg_t make(int a) { msg_t m; m.a = a; m.f = a > 2; return m; }\n\
        msg_t pick(int k) { if (k > 0) return make(k); else { int j = 0; \
          while (j < 2) { if (q[j].f) return q[j]; j++; } } return make(9); }\n\
        msg_t via(msg_t m) { msg_t t = make(m.a + 1); return make(t.a + 1); }\n\
        msg_t chain() { return via(via(make(1))); }\n\
        template P() { init location a; location b;\n\
          a -> b do q[1] = make(3), g = pick(0), r = chain().a + pick(2).a, q[0] = pick(0); }\n\
        system P;\n\
        check c1: E<> P.b && g.a == 3 && g.f && r == 7 && q[0].a == 3 && q[0].f;\n\
        check c2: E<> P.b && r != 7;\n";
    every_order(text, &[Verdict::Holds, Verdict::Fails]);
    let errs = errors(
        "typedef struct { int a; } msg_t;\nmsg_t make(int a) { msg_t m; m.a = a; return m; }\n\
         msg_t g = make(1);\n",
    );
    assert!(
        errs.iter().any(|(m, a)| m
            == "the initial value of a variable is a constant, not a call of `make`: \
                assign the call's result in an update"
            && a == "make(1)"),
        "{errs:?}"
    );
}

/// A result type whose length is a template parameter is a located error
/// (and is never expanded while the template is checked on its own, where
/// the length is unknown: this once enumerated 2^32 elements).
#[test]
fn a_result_length_from_a_template_parameter_is_a_located_error() {
    let errs = errors(
        "template T(const int[1,3] n) {\n  typedef int[0,5] row_t[n];\n  row_t rows;\n\
         row_t fill(int v) { return rows; }\n  init location s; location t;\n\
         s -> t when fill(2)[0] == 2 do rows = fill(3);\n}\nP = T(2);\nsystem P;\n",
    );
    assert!(
        errs.iter().any(|(m, a)| m
            == "a function's result cannot have a length that depends on a template \
                parameter: return it through a reference parameter"
            && a == "row_t"),
        "{errs:?}"
    );
}
