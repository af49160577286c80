//! Functions: located errors for what cannot be lowered, and the run-time
//! errors of function bodies as model errors. Every expectation is worked
//! out by hand from the model text.

use crate::support::errors;
use zeno::checker::{Cancel, Options, Verdict, check};
use zeno::diagnostics::Severity;
use zeno::ir::ErrorKind;
use zeno::semantics::analyze;

/// The verdict of the model's only check.
fn verdict(text: &str) -> Verdict {
    let a = analyze(text);
    let net = a.network.unwrap_or_else(|| panic!("{:#?}", a.diagnostics));
    let only = net.check_at(0).expect("one check");
    check(
        &net,
        only,
        &Options::default(),
        &Cancel::default(),
        &mut zeno::checker::no_progress,
    )
    .verdict
}

const ONE_LOCATION: &str = "template P() { init location a; a -> a do step(); }\nsystem P;\n";

#[test]
fn recursion_is_a_located_error() {
    let text = format!("int n;\nvoid step() {{ n = 1; step(); }}\n{ONE_LOCATION}");
    let errs = errors(&text);
    assert!(
        errs.iter()
            .any(|(m, at)| m.contains("calls itself") && at == "step()"),
        "{errs:?}"
    );
}

/// Functions that call each other are named as a cycle, at the call that
/// closes it (checking `g`'s body: `g` calls `f`, whose body calls `g`).
#[test]
fn mutual_recursion_names_the_cycle() {
    let text = "int n;\nint f(int k) { return g(k); }\nint g(int k) { return f(k); }\n\
                template P() { init location a; a -> a do n = g(1); }\nsystem P;\n";
    let errs = errors(text);
    assert!(
        errs.iter().any(|(m, at)| m
            == "in this call of `f`: `g` and `f` call each other (`g` → `f` → `g`): \
                recursive functions are not supported"
            && at == "f(k)"),
        "{errs:?}"
    );
    assert!(
        !errs.iter().any(|(m, _)| m.contains("calls itself")),
        "{errs:?}"
    );
}

#[test]
fn a_missing_return_is_reported_at_the_closing_brace() {
    let errs = errors("int f(int x) { if (x > 0) return 1; }\n");
    assert_eq!(
        errs,
        [(
            "function `f` can end without returning a value".to_string(),
            "}".to_string()
        )]
    );
}

#[test]
fn effects_are_only_allowed_in_updates() {
    let text = "int n;\nbool bump() { n++; return true; }\n\
                template P() { init location a; a -> a when bump(); }\nsystem P;\n";
    let errs = errors(text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].0.contains("changes variables"), "{errs:?}");
    assert_eq!(errs[0].1, "bump()");
}

#[test]
fn clock_resets_under_if_are_accepted() {
    // Run where they stand (tests/it/clock_resets.rs checks the verdicts).
    let text = "template P() {\n clock x;\n int[0, 1] k;\n\
                void f() { if (k == 0) x = 0; }\n\
                init location a; a -> a do f(); }\nsystem P;\n";
    assert_eq!(errors(text), []);
}

#[test]
fn arguments_are_checked_at_the_call() {
    let text = "int n;\nvoid set(int &v, int x) { v = x; }\n\
                template P() { init location a; a -> a do set(n + 1, 2), set(n); }\nsystem P;\n";
    let errs = errors(text);
    assert!(
        errs.iter()
            .any(|(m, at)| m.starts_with("expected a variable") && at == "n + 1"),
        "{errs:?}"
    );
    assert!(
        errs.iter()
            .any(|(m, at)| m.contains("takes 2 arguments, not 1") && at == "set(n)"),
        "{errs:?}"
    );
}

#[test]
fn a_loop_that_never_ends_is_a_model_error() {
    // `step()` spins in `while (true)`: the first transition fails.
    let text = format!(
        "int n;\nvoid step() {{ while (true) n = 1 - n; }}\n{ONE_LOCATION}check c: A[] true;\n"
    );
    // Located at the loop (tests/it/function_errors.rs checks the sites).
    assert!(
        matches!(verdict(&text), Verdict::ModelError(e) if e.kind == ErrorKind::LoopLimit && e.site.is_some())
    );
}

#[test]
fn an_index_error_inside_a_function_is_a_model_error() {
    // `a[n]` with n = 0, 1, 2: the third call reads a[2] of a two-element array.
    let text = "int[0, 5] n;\nint a[2];\nvoid step() { a[n] = 1; n++; }\n\
                template P() { init location a; a -> a do step(); }\nsystem P;\ncheck c: A[] true;\n";
    assert!(matches!(
        verdict(text),
        Verdict::ModelError(e) if e.kind == ErrorKind::IndexOutOfBounds { index: 2, len: 2 }
    ));
}

#[test]
fn a_reference_parameter_writes_the_argument() {
    // swap(x, y) twice returns to the start; after one swap x = 2.
    let text = "int[0, 3] x = 1;\nint[0, 3] y = 2;\n\
                void swap(int &a, int &b) { int t = a; a = b; b = t; }\n\
                template P() { init location a; location b; a -> b do swap(x, y); }\nsystem P;\n\
                check c: E<> P.b && x == 2 && y == 1;\n";
    assert_eq!(verdict(text), Verdict::Holds);
}

/// The examples of UPPAAL's documentation (language reference, functions):
/// `add` returns the sum, `swap` exchanges two reference parameters, and
/// `initialize` fills an array passed by reference with its indices.
#[test]
fn uppaal_documentation_examples() {
    let model = |goal: &str| {
        format!(
            "int add(int a, int b) {{ return a + b; }}\n\
             void swap(int &a, int &b) {{ int c = a; a = b; b = c; }}\n\
             void initialize(int &a[10]) {{ for (i : int[0,9]) {{ a[i] = i; }} }}\n\
             int arr[10];\nint p = 1, q = 2, s = 0;\n\
             template T() {{ init location l; location m;\n\
             l -> m do initialize(arr), swap(p, q), s = add(p, q); }}\n\
             system T;\ncheck goal: E<> T.m && {goal};\n"
        )
    };
    // After the one edge: p and q swapped, s = 2 + 1, arr[i] = i.
    for goal in [
        "p == 2 && q == 1",
        "s == 3",
        "arr[0] == 0 && arr[9] == 9 && arr[4] == 4",
    ] {
        assert_eq!(verdict(&model(goal)), Verdict::Holds, "{goal}");
    }
    for goal in ["p == 1", "arr[9] == 0"] {
        assert_eq!(verdict(&model(goal)), Verdict::Fails, "{goal}");
    }
}

/// UPPAAL calls `before_update`/`after_update` around every transition and
/// `__ON_CONSTRUCT__`/`__ON_BEGIN__` before a query; zeno does not, so a
/// model declaring them is refused where the function is named, rather than
/// checked with another meaning. The ones called after a verification only
/// get a warning.
#[test]
fn uppaal_special_functions_are_refused_not_ignored() {
    for name in [
        "before_update",
        "after_update",
        "__ON_CONSTRUCT__",
        "__ON_BEGIN__",
    ] {
        let text =
            format!("int n;\nvoid {name}() {{ n = 1; }}\n{ONE_LOCATION}").replace("do step()", "");
        let errs = errors(&text);
        assert_eq!(errs.len(), 1, "{name}: {errs:?}");
        assert_eq!(errs[0].1, name, "located on the name");
        assert!(
            errs[0].0.contains(&format!("UPPAAL calls `{name}`")),
            "{errs:?}"
        );
    }
    let text =
        format!("int n;\nvoid __ON_END__() {{ n = 1; }}\n{ONE_LOCATION}").replace("do step()", "");
    assert!(errors(&text).is_empty());
    let analysis = analyze(&text);
    assert!(
        analysis
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Warning && d.message.contains("zeno never calls it"))
    );
    // The same names inside a template are ordinary functions.
    let local = "int n;\ntemplate P() { void after_update() { n = 1; } init location a; a -> a do after_update(); }\nsystem P;\n";
    assert!(errors(local).is_empty(), "{:?}", errors(local));
}

#[test]
fn a_local_record_or_array_is_initialised_from_a_variable() {
    // `f` copies the global record `o` = {1, true} into `r`, changes its
    // field `a` to 3 and stores it in `arr[1]`: arr[1] = {3, true}, and `o`
    // is unchanged. `g` copies the row `m[1]` = {4, 5} and writes its sum
    // (9) to `s`.
    let model = |goal: &str| {
        format!(
            "typedef struct {{ int[0, 3] a; bool f; }} cell_t;\n\
             cell_t o = {{1, true}};\ncell_t arr[2];\n\
             int m[2][2] = {{ {{2, 3}}, {{4, 5}} }};\nint s;\n\
             void f() {{ cell_t r = o; r.a = 3; arr[1] = r; }}\n\
             void g() {{ int row[2] = m[1]; s = row[0] + row[1]; }}\n\
             template P() {{ init location a; location b; a -> b do f(), g(); }}\n\
             system P;\ncheck c: {goal};\n"
        )
    };
    let holds = "E<> P.b && arr[1].a == 3 && arr[1].f && o.a == 1 && s == 9";
    assert_eq!(verdict(&model(holds)), Verdict::Holds);
    assert_eq!(verdict(&model("E<> arr[1].a == 1")), Verdict::Fails);
}

#[test]
fn a_local_initialised_from_another_shape_is_a_located_error() {
    let text = "int a[3];\nvoid step() { int b[2] = a; b[0] = 1; }\n\
                template P() { init location a; a -> a do step(); }\nsystem P;\n";
    let errs = errors(text);
    assert!(
        errs.iter()
            .any(|(m, at)| m.contains("do not have the same shape") && at == "a"),
        "{errs:?}"
    );
}

#[test]
fn a_deep_chain_of_calls_is_one_short_error() {
    // f_k calls f_(k-1), down to f0. Each body is checked at its
    // declaration: f64's calls f63, which calls f62, ... down to f0, 64
    // calls deep below f64's own frame, one more than allowed. The error is
    // reported once, at `f63(v)` in f64, with the 62 calls between it and
    // the failing one counted instead of listed.
    let mut text = String::from("int f0(int v) { return v; }\n");
    for k in 1..70 {
        text.push_str(&format!(
            "int f{k}(int v) {{ return f{}(v) + 1; }}\n",
            k - 1
        ));
    }
    text.push_str("template P() { init location a; a -> a when f69(0) > 0; }\nsystem P;\n");
    let errs = errors(&text);
    assert_eq!(
        errs.first(),
        Some(&(
            "in this call of `f63` (through 62 nested calls): calls are nested more than 64 deep"
                .to_string(),
            "f63(v)".to_string()
        )),
        "{errs:?}"
    );
}

/// A template's array sized by its parameter (`int buf[n]`), indexed by a
/// variable inside a function. While the template is checked on its own, `n`
/// is unknown; that check once took the array for 2^32 slots and asked for
/// 16 GiB. Here `P(2)` fills `buf` with `put(k + 1)` for k = 0, 1 (`put`
/// writes the first empty slot), then `full()` holds and the edge to `b`
/// copies `buf[0] + buf[1]` = 1 + 2 = 3 into the global `out` through the
/// reference parameter `r`; buf[1] is never 1.
#[test]
fn an_array_sized_by_a_parameter_is_indexed_in_a_function() {
    let model = |goal: &str| {
        format!(
            "int out;\n\
             template P(const int n, int &r) {{\n\
             int buf[n];\nint[0, 5] k;\n\
             bool full() {{ return forall (i : int[0, n - 1]) buf[i] != 0; }}\n\
             void put(int v) {{ int j = 0; while (j < n && buf[j] != 0) j++; buf[j] = v; }}\n\
             void total() {{ int s = 0; for (i : int[0, n - 1]) s += buf[i]; r = s; }}\n\
             init location a; location b;\n\
             a -> a when !full() do put(k + 1), k++;\n\
             a -> b when full() do total();\n}}\n\
             P0 = P(2, out);\nsystem P0;\ncheck c: {goal};\n"
        )
    };
    let holds = "E<> P0.b && P0.buf[0] == 1 && P0.buf[1] == 2 && out == 3";
    assert_eq!(verdict(&model(holds)), Verdict::Holds);
    assert_eq!(verdict(&model("E<> P0.buf[1] == 1")), Verdict::Fails);
}

/// UPPAAL binds a reference parameter to any element, `isOn(st[cur])`. A
/// `const` reference cannot write it, so zeno reads a copy taken at the
/// call, and copies an array or record passed by value at a state-dependent
/// index (`rowsum(m[row])`) likewise. The model: `st` = {1, off}, {2, on},
/// {3, on}, `cur` = 0. Edge a -> b needs `!isOn(st[0])` (true) and
/// `val(st[cur + 1].v)` = st[1].v = 2, then sets cur = 1 and rs = the sum
/// of row m[cur] = m[1] = 4 + 5 + 6 = 15 (cur is already 1: the updates
/// run in order). Edge b -> c needs `isOn(st[1])` (true) and `bump(st[cur])`
/// = 2 + 1 = 3 for the parameter it changes (a value copy; st[1].v stays 2).
#[test]
fn a_constant_reference_or_a_value_at_a_variable_index_is_a_copy() {
    let model = |goal: &str| {
        format!(
            "typedef struct {{ int v; bool on; }} st_t;\n\
             st_t st[3] = {{ {{1, false}}, {{2, true}}, {{3, true}} }};\n\
             int[0, 2] cur = 0;\nint m[2][3] = {{ {{1, 2, 3}}, {{4, 5, 6}} }};\nint rs, bumped;\n\
             bool isOn(const st_t &s) {{ return s.on; }}\n\
             int val(const int &x) {{ return x; }}\n\
             int rowsum(int r[3]) {{ return r[0] + r[1] + r[2]; }}\n\
             int bump(st_t s) {{ s.v++; return s.v; }}\n\
             template P() {{ init location a; location b; location c;\n\
             a -> b when !isOn(st[cur]) && val(st[cur + 1].v) == 2 do cur++, rs = rowsum(m[cur]);\n\
             b -> c when isOn(st[cur]) do bumped = bump(st[cur]); }}\n\
             system P;\ncheck q: {goal};\n"
        )
    };
    let holds = "E<> P.c && cur == 1 && rs == 15 && bumped == 3 && st[1].v == 2";
    assert_eq!(verdict(&model(holds)), Verdict::Holds);
    // `st[0]` is off, so `isOn(st[cur])` fails before the first edge.
    assert_eq!(verdict(&model("E<> P.b && cur == 0")), Verdict::Fails);
    // An index past its dimension is still a model error: with
    // `rowsum(m[cur + 1])`, the first edge reads the row m[2] of two rows.
    let past = model("A[] true").replace("rowsum(m[cur])", "rowsum(m[cur + 1])");
    assert!(matches!(
        verdict(&past),
        Verdict::ModelError(e) if e.kind == ErrorKind::IndexOutOfBounds { index: 2, len: 2 }
    ));
}

/// A function that writes the array its constant reference parameter is
/// bound to, at a state-dependent index: a copy would not see the write, so
/// it is a located error rather than a different meaning.
#[test]
fn a_constant_reference_to_an_array_the_function_writes_is_an_error() {
    let text = "int a[2];\nint[0, 1] i;\nint r;\n\
                int f(const int &x) { a[0] = 5; return x; }\n\
                template P() { init location l; l -> l do r = f(a[i]); }\nsystem P;\n";
    let errs = errors(text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].0.contains("writes the variable"), "{errs:?}");
    assert_eq!(errs[0].1, "a[i]");
}

/// A `void` function has no value: UPPAAL rejects `n = g()` and `g() == 0`
/// as type errors. zeno once read the call as 0 (so `n = g()` set n to 0,
/// and the guard `g() == 0` held); now each use is an error located on the
/// call, while `do g()` and `g();` in a function stay statements.
#[test]
fn a_void_call_has_no_value() {
    let text = "int n = 5;\nint m;\nvoid g() { m = 1; }\nvoid nop() { }\n\
                void h() { g(); }\n\
                int k() { return g() + 1; }\n\
                template P() { init location a; location b;\n\
                a -> b when nop() == 0 do n = g(), h(), g(); }\nsystem P;\n";
    let errs = errors(text);
    let at: Vec<&str> = errs.iter().map(|(_, at)| at.as_str()).collect();
    assert_eq!(at, ["g()", "nop()", "g()"], "{errs:?}");
    assert!(
        errs.iter().all(|(m, _)| m.contains("returns no value")),
        "{errs:?}"
    );
    // Calls as statements only: accepted, and g runs (m = 1).
    let ok = "int m;\nvoid g() { m = 1; }\nvoid h() { g(); }\n\
              template P() { init location a; location b; a -> b do h(), g(); }\n\
              system P;\ncheck c: E<> P.b && m == 1;\n";
    assert_eq!(verdict(ok), Verdict::Holds);
}

/// A reference parameter bound to an element at a state-dependent index,
/// `incr(a[cur])` or `movept(pp.pts[i], 1)` in a loop, as UPPAAL allows
/// (zeno once required constant indices). zeno copies the element in at the
/// call and out when the function ends, at every `return`: `a` = {1, 2, 3},
/// cur = 1. `incr(a[1])` makes a[1] = 3 > 2 and returns 1 early; `incr(a[0])`
/// makes a[0] = 2, then 20, and returns 0: cnt = 1 + 0 * 10 = 1. `movepoly`
/// moves both points of `pl` by (1, -1) through the loop and counts n = 3.
#[test]
fn a_reference_at_a_variable_index_is_copied_in_and_out() {
    let model = |goal: &str| {
        format!(
            "typedef struct {{ int x; int y; }} pt_t;\n\
             typedef struct {{ pt_t pts[2]; int n; }} poly_t;\n\
             poly_t pl = {{ {{ {{1, 2}}, {{3, 4}} }}, 2 }};\n\
             int a[3] = {{1, 2, 3}};\nint[0, 2] cur = 1;\nint cnt;\n\
             void movept(pt_t &q, int d) {{ q.x += d; q.y -= d; }}\n\
             void movepoly(poly_t &pp) {{ for (i : int[0, 1]) movept(pp.pts[i], 1); pp.n++; }}\n\
             int incr(int &v) {{ v++; if (v > 2) return 1; v *= 10; return 0; }}\n\
             template P() {{ init location a; location b;\n\
             a -> b do movepoly(pl), cnt = incr(a[cur]) + incr(a[cur - 1]) * 10; }}\n\
             system P;\ncheck q: {goal};\n"
        )
    };
    let holds = "E<> P.b && a[0] == 20 && a[1] == 3 && a[2] == 3 && cnt == 1 \
                 && pl.pts[0].x == 2 && pl.pts[0].y == 1 && pl.pts[1].x == 4 \
                 && pl.pts[1].y == 3 && pl.n == 3";
    assert_eq!(verdict(&model(holds)), Verdict::Holds);
    assert_eq!(verdict(&model("E<> a[1] == 30")), Verdict::Fails);
    // A function that reads or writes the argument's variable otherwise
    // would see a stale copy: a located error.
    let text = "int a[2];\nint[0, 1] i;\nvoid f(int &x) { x = a[1]; }\n\
                template P() { init location l; l -> l do f(a[i]); }\nsystem P;\n";
    let errs = errors(text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].0.contains("reads or writes the variable"),
        "{errs:?}"
    );
    assert_eq!(errs[0].1, "a[i]");
}

/// Two references into the same array at state-dependent indices may name
/// one element (`f(a[i], a[j])` with i == j), where copies would not see
/// each other's writes: a located error rather than another meaning.
#[test]
fn two_references_into_one_array_at_variable_indices_are_an_error() {
    let text = "int a[2];\nint[0, 1] i, j;\n\
                void f(int &x, int &y) { x = 1; y = y + x; }\n\
                template P() { init location l; l -> l do f(a[i], a[j]); }\nsystem P;\n";
    let errs = errors(text);
    assert!(!errs.is_empty(), "{errs:?}");
    assert!(
        errs.iter()
            .all(|(m, _)| m.contains("reads or writes the variable")),
        "{errs:?}"
    );
    assert_eq!(errs[0].1, "a[i]");
}

/// The same through a template's reference parameter (`int &r[3]`, bound to
/// the global `g`), which is unknown while the template is checked on its
/// own: `incr(r[k])` with k = 2 makes g[2] = 1, `get(r[k])` reads it back
/// (got = 1), and k becomes 0.
#[test]
fn a_reference_into_a_reference_parameter_at_a_variable_index() {
    let model = |goal: &str| {
        format!(
            "int g[3];\nint got;\nvoid incr(int &v) {{ v++; }}\n\
             int get(const int &v) {{ return v; }}\n\
             template T(int &r[3]) {{ int[0, 2] k = 2; init location a; location b;\n\
             a -> b do incr(r[k]), got = get(r[k]), k = 0; }}\n\
             P = T(g);\nsystem P;\ncheck q: {goal};\n"
        )
    };
    assert_eq!(
        verdict(&model(
            "E<> P.b && g[2] == 1 && g[0] == 0 && P.k == 0 && got == 1"
        )),
        Verdict::Holds
    );
    assert_eq!(verdict(&model("E<> g[0] == 1")), Verdict::Fails);
}

/// Assignments nested in an edge's update (UPPAAL's documentation example
/// `b = (a = 1) + 2`, and `q[len++] = 7`) run first, in order, as in a
/// function body. By hand: `s -> t` sets a = 1 and b = 3 (`doc_example`,
/// 1 step); each `t -> u` writes 7 at the old `len` and increments it, and
/// `u -> t` waits one time unit, so q[0] = q[1] = 7 with len = 2 takes
/// s -> t, t -> u, u -> t, t -> u (`two_pushed`, 4 steps); q[0] is written
/// only together with len = 1 (`never_back`). Every search order agrees and
/// every trace replays in the independent simulator.
#[test]
fn assignments_nested_in_an_edge_update_run_first() {
    let text = "int a; int b;\nint q[3];\nint[0, 3] len;\nclock x;\n\
                template P() {\ninit location s; location t; location u;\n\
                s -> t do b = (a = 1) + 2;\n\
                t -> u when len < 3 do q[len++] = 7, x = 0;\n\
                u -> t when len < 3 && x >= 1;\n}\nsystem P;\n\
                check doc_example: E<> P.t && a == 1 && b == 3;\n\
                check two_pushed: E<> q[0] == 7 && q[1] == 7 && len == 2;\n\
                check never_back: E<> q[0] == 7 && len == 0;\n";
    let bfs = crate::support::every_order(text, &[Verdict::Holds, Verdict::Holds, Verdict::Fails]);
    let shortest: Vec<Option<usize>> = bfs
        .iter()
        .map(|r| r.trace.as_ref().map(|t| t.steps.len()))
        .collect();
    assert_eq!(shortest, [Some(1), Some(4), None]);
    let errs = errors(
        "int b;\nclock x;\ntemplate P() { init location s; s -> s do b = (x = 0) + 1; }\nsystem P;\n",
    );
    assert!(
        errs.iter()
            .any(|(m, at)| m == "a clock reset cannot be used as a value" && at == "x = 0"),
        "{errs:?}"
    );
}

/// A function's local array sized by a constant parameter of its template
/// (`int tmp[N];`) has that size per instance. By hand: with N = 2, tmp =
/// {1, 2} and out[0] = 3; with N = 3, tmp = {1, 0, 3} and out[1] = 4. Four
/// states (each process in `a` or `b`), all explored when a check fails;
/// the same model with the sizes written out explores as many.
#[test]
fn a_local_array_sized_by_a_template_parameter() {
    use Verdict::{Fails, Holds};
    let body = |n: &str| {
        format!(
            "  int[0,9] buf[{n}];\n  void f() {{ int[0,9] tmp[{n}]; tmp[{n}-1] = {n}; \
             tmp[0] = tmp[0] + 1; buf[{n}-1] = tmp[0]; out[id] = tmp[0] + tmp[{n}-1]; }}\n  \
             init location a; location b;\n  a -> b do f();\n"
        )
    };
    let checks = "check both: E<> Q1.b && Q2.b && out[0] == 3 && out[1] == 4 && Q2.buf[2] == 1;\n\
                  check swapped: E<> out[0] == 4;\n";
    let sized = format!(
        "int[0,9] out[2];\ntemplate T(const int id, const int N) {{\n{}}}\n\
         Q1 = T(0, 2);\nQ2 = T(1, 3);\nsystem Q1, Q2;\n{checks}",
        body("N")
    );
    let plain = format!(
        "int[0,9] out[2];\ntemplate T2(const int id) {{\n{}}}\ntemplate T3(const int id) {{\n{}}}\n\
         Q1 = T2(0);\nQ2 = T3(1);\nsystem Q1, Q2;\n{checks}",
        body("2"),
        body("3")
    );
    let a = crate::support::every_order(&sized, &[Holds, Fails]);
    let b = crate::support::every_order(&plain, &[Holds, Fails]);
    assert_eq!(a[1].stats.explored, 4);
    assert_eq!(b[1].stats.explored, 4);
    assert_eq!(a[0].stats.explored, b[0].stats.explored);
    // The initial value, and the shape of a whole copy, are checked per
    // instance.
    let errs = errors(
        "int[0,9] row[2];\ntemplate T(const int N) {\n  void g() { int[0,9] acc[N] = {1, 2, 3}; \
         int[0,9] cp[N]; cp = row; }\n  init location a; a -> a do g();\n}\nQ = T(2);\nR = T(3);\n\
         system Q, R;\n",
    );
    assert!(
        errs.iter().any(|(m, at)| m
            == "in this call of `g`: int[0, 9][3] and int[0, 9][2] do not have the same shape"
            && at == "g()"),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(
            |(m, at)| m == "expected 2 value(s) for int[0, 9][2], found 3" && at == "{1, 2, 3}"
        ),
        "{errs:?}"
    );
}
