//! Clock resets anywhere in a function (under `if`, in loops, through
//! nested calls, at an index that depends on the state) and clocks
//! assigned values that are not constants. Each model is compared with the
//! same model written with its resets split into separate edges by hand:
//! both give the verdicts worked out next to them under every search order
//! (every trace replayed by the independent simulator, which runs the
//! resets with its own evaluator), and BFS explores as many states.

use crate::support;
use crate::support::errors;
use zeno::checker::{Cancel, Options, Verdict, check};
use zeno::ir::ErrorKind;

use Verdict::{Fails, Holds};

/// `dynamic` and `split` give `expected` under every search order, and
/// BFS explores as many states in both.
fn same(dynamic: &str, split: &str, expected: &[Verdict]) {
    let explored = |text: &str| -> Vec<u64> {
        support::every_order(text, expected)
            .iter()
            .map(|r| r.stats.explored)
            .collect()
    };
    assert_eq!(explored(dynamic), explored(split), "{dynamic}\n{split}");
}

/// The verdict of the model's first check.
fn verdict(text: &str) -> Verdict {
    let net = zeno::semantics::analyze(text)
        .network
        .unwrap_or_else(|| panic!("{text}"));
    check(
        &net,
        net.check_at(0).unwrap(),
        &Options::default(),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    )
    .verdict
}

/// `m` is chosen (0 or 1), then `b -> c` at `x >= 2` resets `x` only when
/// `m == 1`: at `c`, `x == 0` and `y >= 2` exactly when `m == 1`, and
/// `x == y` exactly when `m == 0`.
const IF_CHECKS: &str = "check reset: E<> P.c && x == 0 && y >= 2;\n\
    check kept_diff: E<> P.c && m == 0 && x - y < 0;\n\
    check reset_equal: E<> P.c && m == 1 && x - y >= 0;\n\
    check kept: E<> P.c && m == 0 && x >= 2 && x - y >= 0;\n";

/// `f` (defined by `functions`) runs at `b -> c`, checked against the same
/// model with the reset split by hand into an edge per value of `m`.
fn same_as_reset_when_m_is_one(functions: &str) {
    let dynamic = format!(
        "clock x, y;\nint[0, 1] m;\n{functions}\n\
         template P() {{ init location a; location b; location c;\n\
         a -> b select k : int[0, 1] do m = k;\n\
         b -> c when x >= 2 do f(); }}\nsystem P;\n{IF_CHECKS}"
    );
    let split = format!(
        "clock x, y;\nint[0, 1] m;\n\
         template P() {{ init location a; location b; location c;\n\
         a -> b select k : int[0, 1] do m = k;\n\
         b -> c when x >= 2 && m == 1 do x = 0;\n\
         b -> c when x >= 2 && m != 1; }}\nsystem P;\n{IF_CHECKS}"
    );
    same(&dynamic, &split, &[Holds, Fails, Fails, Holds]);
}

#[test]
fn a_reset_under_if_in_a_function() {
    same_as_reset_when_m_is_one("void f() { if (m == 1) x = 0; }");
}

/// The same, with the reset in a function that the `if` calls: `rx`'s own
/// reset is constant and unconditional, but the call is not.
#[test]
fn a_reset_through_a_nested_call_under_if() {
    same_as_reset_when_m_is_one("void rx() { x = 0; }\nvoid f() { if (m == 1) rx(); }");
}

/// A reset after an early `return` runs only when the function does not
/// return: here exactly when `m == 1`, as under `if`.
#[test]
fn a_reset_after_an_early_return() {
    same_as_reset_when_m_is_one("void f() { if (m == 0) return; x = 0; }");
}

/// `n` (1 to 3) is chosen, then the first `n` clocks are reset at
/// `x[0] >= 1`, by a `while` loop or a C `for` loop over a local index.
/// At `c`: `x[2] == 0` only when n == 3; with n == 2, `x[2] >= 1`; with
/// n == 1, `x[1] - x[0] >= 1`.
#[test]
fn resets_in_while_and_for_loops_at_a_variable_index() {
    let checks = "check all3: E<> P.c && x[2] == 0;\n\
        check two_keeps_last: E<> P.c && n == 2 && x[2] < 1;\n\
        check one: E<> P.c && n == 1 && x[1] - x[0] >= 1;\n\
        check one_exact: E<> P.c && n == 1 && x[1] - x[0] < 1;\n";
    let model = |decl: &str, update: &str, edges: &str| {
        format!(
            "clock x[3];\nint[0, 3] n;\n{decl}\n\
             template P() {{ init location a; location b; location c;\n\
             a -> b select k : int[1, 3] do n = k;\n{update}{edges} }}\nsystem P;\n{checks}"
        )
    };
    let split = model(
        "",
        "",
        "b -> c when x[0] >= 1 && n == 1 do x[0] = 0;\n\
         b -> c when x[0] >= 1 && n == 2 do x[0] = 0, x[1] = 0;\n\
         b -> c when x[0] >= 1 && n == 3 do x[0] = 0, x[1] = 0, x[2] = 0;\n",
    );
    let expected = [Holds, Fails, Holds, Fails];
    let with_while = model(
        "void g() { int i = 0; while (i < n) { x[i] = 0; i++; } }",
        "b -> c when x[0] >= 1 do g();\n",
        "",
    );
    same(&with_while, &split, &expected);
    let with_for = model(
        "void g() { int i; for (i = 0; i < n; i++) x[i] = 0; }",
        "b -> c when x[0] >= 1 do g();\n",
        "",
    );
    same(&with_for, &split, &expected);
}

/// `d` (0 to 3) is chosen, then `x = d` on the edge and `y = d + 1` in a
/// function: at `c`, `y - x == 1` always, and `x == 3 && y == 4` is
/// reachable (d == 3) with no delay.
#[test]
fn resets_to_a_variable_value_at_an_edge_and_in_a_function() {
    let checks = "check top: E<> P.c && x == 3 && y == 4;\n\
        check more: E<> P.c && y - x > 1;\n\
        check less: E<> P.c && y - x < 1;\n\
        check none: E<> P.c && x < 3 && y > 3 && x - y == -1;\n";
    let dynamic = format!(
        "clock x, y;\nint[0, 3] d;\nvoid set(int v) {{ y = v; }}\n\
         template P() {{ init location a; location b; location c;\n\
         a -> b select k : int[0, 3] do d = k;\n\
         b -> c do x = d, set(d + 1); }}\nsystem P;\n{checks}"
    );
    let mut edges = String::new();
    for d in 0..=3 {
        edges.push_str(&format!(
            "b -> c when d == {d} do x = {d}, y = {};\n",
            d + 1
        ));
    }
    let split = format!(
        "clock x, y;\nint[0, 3] d;\n\
         template P() {{ init location a; location b; location c;\n\
         a -> b select k : int[0, 3] do d = k;\n{edges} }}\nsystem P;\n{checks}"
    );
    // `none`: x < 3 and y > 3 with y = x + 1 means 2 < x < 3, reached by
    // letting time pass from d == 0, 1 or 2.
    same(&dynamic, &split, &[Holds, Fails, Fails, Holds]);
}

/// The idiom of real models: a loop over the ids resets the clocks of the
/// active ones, a function resets `y` in one mode and `x[j]` always, and an
/// edge resets `x[cur]` and sets `x[1]` to `d` (the last reset of a clock
/// wins). The start picks `active[1]`, `cur`, `d` and `mode`.
const IDIOM: &str = "const int N = 2;\ntypedef int[0, N - 1] id_t;\nconst int FAST = 1;\n\
    clock x[N], y;\nbool active[N] = { true, false };\nint[0, 1] cur;\nint[0, 3] d;\nint[0, 1] mode;\n";

const IDIOM_CHECKS: &str = "check d_wins: E<> P.B && x[1] == 2 && x[0] == 0;\n\
    check cur0: E<> P.B && cur == 0 && d == 3 && x[1] - x[0] == 3;\n\
    check y_kept: E<> P.B && y < 1;\n\
    check start_fast: E<> P.C && mode == 1 && y - x[1] > 0;\n\
    check start_slow: E<> P.C && mode == 0 && y - x[1] >= 1;\n\
    check slow_early: E<> P.C && mode == 0 && y - x[1] < 1;\n";

#[test]
fn the_reset_active_idiom() {
    let dynamic = format!(
        "{IDIOM}void reset_active() {{ for (i : id_t) if (active[i]) x[i] = 0; }}\n\
         void start(id_t j) {{ if (mode == FAST) y = 0; x[j] = 0; }}\n\
         template P() {{ init location S; location A; location B; location C;\n\
         S -> A select a : int[0, 1], c : int[0, 1], v : int[0, 3], f : int[0, 1]\n\
           do active[1] = (a == 1), cur = c, d = v, mode = f;\n\
         A -> B when x[0] >= 1 do reset_active(), x[cur] = 0, x[1] = d;\n\
         B -> C when y >= 1 do start(1); }}\nsystem P;\n{IDIOM_CHECKS}"
    );
    // By hand: x[0] is always active, so reset; x[1] ends at d whatever
    // `active[1]` and `cur` do; `start(1)` resets x[1], and y only in
    // FAST mode.
    let mut edges = String::new();
    for d in 0..=3 {
        edges.push_str(&format!(
            "A -> B when x[0] >= 1 && d == {d} do x[0] = 0, x[1] = {d};\n"
        ));
    }
    let split = format!(
        "{IDIOM}template P() {{ init location S; location A; location B; location C;\n\
         S -> A select a : int[0, 1], c : int[0, 1], v : int[0, 3], f : int[0, 1]\n\
           do active[1] = (a == 1), cur = c, d = v, mode = f;\n{edges}\
         B -> C when y >= 1 && mode == FAST do y = 0, x[1] = 0;\n\
         B -> C when y >= 1 && mode != FAST do x[1] = 0; }}\nsystem P;\n{IDIOM_CHECKS}"
    );
    // d_wins: d == 2 at x[0] >= 1. cur0: x[0] = 0, x[1] = 3. y_kept: y >=
    // x[0] >= 1 when A is left. start_fast: y reset with x[1]: y - x[1]
    // == 0, never > 0. start_slow: y >= 1 when x[1] is reset. slow_early:
    // then y - x[1] >= 1 always.
    same(
        &dynamic,
        &split,
        &[Holds, Holds, Fails, Fails, Holds, Fails],
    );
}

/// A reset to a negative value, found when the update runs, is a model
/// error, at an edge and in a function.
#[test]
fn a_negative_reset_value_is_a_model_error() {
    for update in ["x = d", "f()"] {
        let text = format!(
            "clock x;\nint[-2, 2] d = -1;\nvoid f() {{ if (d < 2) x = d; }}\n\
             template P() {{ init location a; location b; a -> b do {update}; }}\n\
             system P;\ncheck E<> P.b;\n"
        );
        match verdict(&text) {
            Verdict::ModelError(e) => {
                assert_eq!(e.kind, ErrorKind::ClockValue { value: -1 }, "{update}")
            }
            v => panic!("{update}: {v:?}"),
        }
    }
}

/// An index outside the clock array, found when the function runs, is a
/// model error located in the function.
#[test]
fn an_out_of_range_clock_index_is_a_model_error_in_the_function() {
    let text = "clock x[2];\nint[0, 3] k = 2;\nvoid f() { x[k] = 0; }\n\
        template P() { init location a; location b; a -> b do f(); }\n\
        system P;\ncheck E<> P.b;\n";
    match verdict(text) {
        Verdict::ModelError(e) => {
            assert_eq!(e.kind, ErrorKind::IndexOutOfBounds { index: 2, len: 2 });
            let site = e.site.expect("located in the function");
            let at = |s: zeno::ir::Span| &text[s.start as usize..s.end as usize];
            assert_eq!(at(site.function), "f");
            assert_eq!(at(site.statement), "x[k] = 0;");
        }
        v => panic!("{v:?}"),
    }
}

/// Guards and invariants have no effects: a function that resets a clock,
/// even on some paths, cannot be called there.
#[test]
fn a_clock_reset_in_a_guard_function_is_a_located_error() {
    let text = "clock x;\nint[0, 1] m;\nbool g() { if (m == 1) x = 0; return true; }\n\
        template P() { init location a; a -> a when g(); }\nsystem P;\n";
    let errs = errors(text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].0.contains("resets clocks"), "{errs:?}");
    assert_eq!(errs[0].1, "g()");
}

/// Pictures show a reset that runs as a statement as it is written, and a
/// function's call by its name.
#[test]
fn pictures_show_the_resets_as_written() {
    let text = "clock x[2];\nint[0, 3] d;\nint[0, 1] i;\n\
        void f() { if (d > 0) x[i] = d; }\n\
        template P() { init location a; a -> a do i = 1 - i, x[i] = d, f(); }\nsystem P;\n";
    let net = zeno::semantics::analyze(text).network.unwrap();
    let shown: Vec<String> = net.processes[0].edges[0]
        .updates
        .iter()
        .map(|u| zeno::pictures::pretty::update(&net, u))
        .collect();
    assert_eq!(shown, ["i = 1 - i", "x[i] = d", "f()"]);
}

/// At an edge, an index written by an earlier update of the same edge is
/// read after it: `i = 1, x[i] = d` resets x[1] to 2 and leaves x[0].
#[test]
fn an_edge_reset_at_an_index_assigned_before_it() {
    let checks = "check one: E<> P.b && x[1] == 2 && x[0] >= 1;\n\
        check zero: E<> P.b && x[0] < 1;\n";
    let model = |update: &str| {
        format!(
            "clock x[2];\nint[0, 1] i;\nint[0, 3] d = 2;\n\
             template P() {{ init location a; location b;\n\
             a -> b when x[0] >= 1 do {update}; }}\nsystem P;\n{checks}"
        )
    };
    same(
        &model("i = 1, x[i] = d"),
        &model("i = 1, x[1] = 2"),
        &[Holds, Fails],
    );
}

/// With priorities, a transition of a higher priority blocks only where it
/// is enabled, its target's invariant included after its resets. `H`'s
/// move at `x >= 2` resets `y` only when `m == 1`; its target needs
/// `y <= 1`, so with `m == 0` (y >= x >= 2) it is never enabled. `L`'s move
/// at `x >= 3` is blocked while H's is enabled: with `H` still in `h0`,
/// `L` gets to `l1` only when `m == 0`.
#[test]
fn a_blocking_transition_of_a_higher_priority_resets_as_it_runs() {
    let checks = "check blocked: E<> L.l1 && H.h0 && m == 1;\n\
        check free: E<> L.l1 && H.h0 && m == 0;\n\
        check after: E<> L.l1 && m == 1;\n";
    let model = |decl: &str, h_edges: &str| {
        format!(
            "clock x, y;\nint[0, 1] m;\n{decl}\n\
             template Lo() {{ init location s; location l0; location l1;\n\
             s -> l0 select k : int[0, 1] do m = k;\nl0 -> l1 when x >= 3; }}\n\
             template Hi() {{ init location h0; location h1 invariant y <= 1;\n{h_edges} }}\n\
             L = Lo();\nH = Hi();\nsystem L < H;\n{checks}"
        )
    };
    let dynamic = model(
        "void f() { if (m == 1) y = 0; }",
        "h0 -> h1 when x >= 2 do f();",
    );
    let split = model(
        "",
        "h0 -> h1 when x >= 2 && m == 1 do y = 0;\nh0 -> h1 when x >= 2 && m != 1;",
    );
    same(&dynamic, &split, &[Fails, Holds, Holds]);
}

/// Liveness: `P` toggles `m` at `x == 2` (invariant `x <= 2`), and `f`
/// resets `x` when `m` became 1, so every second move waits 2 time units:
/// time diverges, and `Q`, which must leave `q0` at `y == 10`, does so on
/// every run. Without the reset, time would stop at x == 2.
#[test]
fn liveness_sees_the_resets_a_function_makes() {
    let rest = "template Q() { init location q0 invariant y <= 10; location q1;\n\
        q0 -> q1 when y >= 10; }\nsystem P, Q;\n\
        check live: A<> Q.q1;\ncheck stuck: E[] Q.q0;\n";
    let dynamic = format!(
        "clock x, y;\nint[0, 1] m;\nvoid f() {{ if (m == 1) x = 0; }}\n\
         template P() {{ init location a invariant x <= 2;\n\
         a -> a when x >= 2 do m = 1 - m, f(); }}\n{rest}"
    );
    let split = format!(
        "clock x, y;\nint[0, 1] m;\n\
         template P() {{ init location a invariant x <= 2;\n\
         a -> a when x >= 2 && m == 0 do m = 1, x = 0;\n\
         a -> a when x >= 2 && m == 1 do m = 0; }}\n{rest}"
    );
    same(&dynamic, &split, &[Holds, Fails]);
}

/// Extrapolation bounds and active clocks count only the resets a call
/// makes on every path. `a -> c` resets x only when `m == 1`; with
/// `m == 0`, x == y at `c`, so `c -> d` (x < 3 and y >= 10) never fires.
/// Taking the call's reset as certain would leave x unbounded (and
/// inactive) at `a`, forget x == y there, and reach `d` with m == 0.
#[test]
fn bounds_and_active_clocks_count_only_certain_resets() {
    let checks = "check without_reset: E<> P.d && m == 0;\n\
        check with_reset: E<> P.d && m == 1;\n";
    let model = |decl: &str, edges: &str| {
        format!(
            "clock x, y;\nint[0, 1] m;\n{decl}\n\
             template P() {{ init location s; location a; location c; location d;\n\
             s -> a select k : int[0, 1] do m = k;\n{edges}\nc -> d when x < 3 && y >= 10; }}\n\
             system P;\n{checks}"
        )
    };
    let dynamic = model("void f() { if (m == 1) x = 0; }", "a -> c do f();");
    let split = model("", "a -> c when m == 1 do x = 0;\na -> c when m != 1;");
    same(&dynamic, &split, &[Fails, Holds]);
}

/// Bad resets in a function are reported once, where they are written (and
/// the call that lowers the body reports its first error, as for any
/// function).
#[test]
fn bad_resets_in_functions_are_located_once() {
    let text = "clock x[3], y;\nint[0, 2] i;\n\
        void f() { x[5] = 0; x[i] = y; if (i > 0) x[i] += 1; }\n\
        template P() { init location a; a -> a do f(); }\nsystem P;\n";
    let errs = errors(text);
    let at: Vec<&str> = errs.iter().map(|(_, at)| at.as_str()).collect();
    assert_eq!(at, ["5", "y", "x[i] += 1", "f()"], "{errs:?}");
}

/// A constant beyond the zones' range stops the search with `unknown`, in a
/// function under `if` as at an edge; a value that depends on the state is
/// checked when the reset runs.
#[test]
fn reset_values_beyond_the_clock_range() {
    let model = |body: &str| {
        format!(
            "clock x;\nint m = 1;\nint[0, 300000000] big = 300000000;\nvoid f() {{ {body} }}\n\
             template P() {{ init location a; location b; a -> b do f(); }}\n\
             system P;\ncheck E<> P.b;\n"
        )
    };
    assert_eq!(
        verdict(&model("if (m == 1) x = 300000000;")),
        Verdict::Unknown(zeno::checker::Limit::ClockRange)
    );
    assert_eq!(
        verdict(&model("x = 300000000;")),
        Verdict::Unknown(zeno::checker::Limit::ClockRange)
    );
    match verdict(&model("if (m == 1) x = big;")) {
        Verdict::ModelError(e) => {
            assert_eq!(e.kind, ErrorKind::ClockValue { value: 300000000 })
        }
        v => panic!("{v:?}"),
    }
}
