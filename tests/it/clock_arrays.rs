//! Clock arrays (`clock x[N]`, `clock x[pid_t]`, `clock w[2][2]`): one clock
//! per element, an element picked by a constant, a template parameter, a
//! `select` or a reference argument; verdicts computed by hand, the same
//! under every search order, every trace replayed by the independent
//! simulator; bad uses are located errors.

use crate::support;
use crate::support::errors;
use zeno::checker::{SearchOrder, Verdict};
use zeno::diagnostics::Severity;

/// Checks every check of `text` under every search order against
/// `expected`, replays each trace; returns the states BFS explored per
/// check.
fn verdicts(text: &str, expected: &[Verdict]) -> Vec<u64> {
    support::every_order(text, expected)
        .iter()
        .map(|r| r.stats.explored)
        .collect()
}

/// Fischer's protocol with one clock per process: `clock x;` in the
/// template, or a global `clock x[pid_t]` indexed by the parameter.
fn fischer(array: bool, enter: &str) -> String {
    let (global, local, x) = match array {
        true => ("clock x[pid_t];", "", "x[pid]"),
        false => ("", "clock x;", "x"),
    };
    format!(
        "const int N = 3;\nconst int K = 2;\ntypedef int[1, N] pid_t;\nint[0, N] id = 0;\n{global}\n\
         template Proc(const pid_t pid) {{\n{local}\n\
         init location idle;\nlocation req invariant {x} <= K;\nlocation wait;\nlocation cs;\n\
         idle -> req when id == 0 do {x} = 0;\n\
         req -> wait when {x} <= K do {x} = 0, id = pid;\n\
         wait -> req when id == 0 do {x} = 0;\n\
         wait -> cs when {x} {enter} K && id == pid;\n\
         cs -> idle do id = 0;\n}}\n\
         system Proc;\n\
         check mutex: A[] !(Proc(1).cs && Proc(2).cs);\n\
         check can_enter: E<> Proc(3).cs;\n"
    )
}

/// Fischer's protocol is correct with `x > K` and wrong with `x >= K`
/// (two processes can both wait exactly K); as an array the model is the
/// same one, clock for clock (x[1], x[2], x[3] take the places of
/// Proc(1).x, Proc(2).x, Proc(3).x), so BFS explores as many states.
#[test]
fn fischer_with_a_clock_array_is_fischer() {
    for (enter, mutex) in [(">", Verdict::Holds), (">=", Verdict::Fails)] {
        let expected = [mutex, Verdict::Holds];
        let with_array = verdicts(&fischer(true, enter), &expected);
        let with_locals = verdicts(&fischer(false, enter), &expected);
        assert_eq!(with_array, with_locals, "x {enter} K");
    }
    let net = zeno::semantics::analyze(&fischer(true, ">"))
        .network
        .unwrap();
    let names: Vec<&str> = net.clocks.iter().skip(1).map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["x[1]", "x[2]", "x[3]"]);
}

/// By hand: P leaves `a` at exactly 5 (invariant and guard), resetting
/// x[0] through a reference parameter and its own y[1]: at `b`,
/// x[1] - x[0] = 5 and y[1] = x[0]. It leaves `b` by the only `select`
/// value with k == 1, when w[1][1] = 7 exactly (guard and invariant),
/// resetting w[1][0]: at `c`, w[0][0] - w[1][0] = 7.
#[test]
fn elements_by_constant_select_and_reference() {
    let text = "clock x[2];\nclock w[2][2];\nvoid rst(clock &c) { c = 0; }\n\
        template P() {\n    clock y[2];\n\
        init location a invariant x[0] <= 5;\n    location b invariant w[1][1] <= 7;\n    location c;\n\
        a -> b when x[0] >= 5 do rst(x[0]), y[1] = 0;\n\
        b -> c select k : int[0, 1] when w[k][1] >= 7 && k == 1 do w[k][0] = 0;\n}\n\
        system P;\n\
        check diff5: E<> P.b && x[1] - x[0] >= 5;\n\
        check diff_more: E<> P.b && x[1] - x[0] > 5;\n\
        check local: E<> P.b && P.y[1] - x[0] < 0;\n\
        check c: E<> P.c && w[1][0] >= 0 && w[0][0] - w[1][0] >= 7;\n\
        check c_more: E<> P.c && w[0][0] - w[1][0] > 7;\n\
        check c_less: E<> P.c && w[0][0] - w[1][0] < 7;\n";
    use Verdict::{Fails, Holds};
    verdicts(text, &[Holds, Fails, Fails, Holds, Fails, Fails]);
    let net = zeno::semantics::analyze(text).network.unwrap();
    let names: Vec<&str> = net.clocks.iter().skip(1).map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "x[0]", "x[1]", "w[0][0]", "w[0][1]", "w[1][0]", "w[1][1]", "P.y[0]", "P.y[1]"
        ]
    );
}

#[test]
fn bad_uses_of_clock_arrays_are_located_errors() {
    let variable = "a clock array can only be indexed by a variable in an edge's guard and in \
                    clock resets (elsewhere: by a constant, a template parameter, a `select` or \
                    quantifier binding)";
    let arithmetic = "clocks can only be compared in a conjunction of a guard, an invariant or a check (not under `||` or `!`, not in arithmetic)";
    let cases: &[(&str, &str, &str)] = &[
        ("init location a invariant x[i] <= 3;", variable, "x[i]"),
        // (A reset at a variable index after an assignment, or in a
        // function, is run as it stands: tests/it/clock_resets.rs.)
        (
            "init location a; a -> a do i = 1, x[i] = x[1];",
            arithmetic,
            "x[1]",
        ),
        (
            "init location a; a -> a when x[3] > 1;",
            "index 3 is out of range [0, 2]",
            "3",
        ),
        (
            "void r(clock &c) { c = 0; } init location a; a -> a do r(x[i]);",
            "the reference parameter `c` needs a clock or an element of a clock array with a constant index",
            "x[i]",
        ),
        (
            "init location a; a -> a do x[-1] = 0;",
            "index -1 is out of range [0, 2]",
            "-1",
        ),
        (
            "init location a; a -> a do i = x[1] + 1;",
            arithmetic,
            "x[1]",
        ),
        (
            "init location a; a -> a when x > 1;",
            "`x` is a clock array and cannot be used as a value",
            "x",
        ),
        (
            "init location a; a -> a when w[1] > 1;",
            "this is a clock array (clock[2]): index it",
            "w[1]",
        ),
    ];
    for (body, message, at) in cases {
        let text = format!(
            "clock x[3];\nclock w[2][2];\nint[0, 5] i;\ntemplate P() {{ {body} }}\nsystem P;"
        );
        let errs = errors(&text);
        assert!(
            errs.iter().any(|(m, a)| m == message && a == at),
            "{body}: {errs:?}"
        );
        assert!(zeno::semantics::analyze(&text).network.is_none(), "{body}");
    }
    let text = "clock z[0];\nint[0, 1] i;\ntemplate P() { init location a; }\nsystem P;\n\
                check c: E<> x[5] > 3;\ncheck d: E<> x[i] > 3;\nclock x[2];";
    let errs = errors(text);
    assert!(
        errs.contains(&(
            "array size 0 must be between 1 and 10000".into(),
            "0".into()
        )),
        "{errs:?}"
    );
    assert!(
        errs.contains(&("index 5 is out of range [0, 1]".into(), "5".into())),
        "{errs:?}"
    );
    assert!(errs.contains(&(variable.into(), "x[i]".into())), "{errs:?}");
    let text = "typedef struct { clock c; int a; } r_t;\nr_t v;\ntemplate P() { init location a; }\nsystem P;";
    assert_eq!(
        errors(text),
        [(
            "clocks in records are not supported".to_string(),
            "v".to_string()
        )]
    );
}

/// A token passes along three clocks: the edge `a -> a` waits 2 on the
/// clock `x[t]` its holder `t` names, resets it and passes the token. By
/// hand, with T0 <= T1 the times of the two passes (T0 >= 2, T1 >= T0 and
/// T1 >= 2 since x[1] is never reset before): at t == 2, x[2] - x[0] = T0
/// (so `done`, which needs T0 >= 4, is reachable), x[0] - x[2] = -T0 < 4
/// always, x[2] - x[1] = T1 is never below 2 and can exceed 2. Each value
/// of `t` is a copy of the edge guarded by `t == k`: 3 copies.
#[test]
fn an_index_of_the_state_splits_the_edge() {
    let model = |guard: &str| {
        format!(
            "clock x[3];\nint[0, 3] t = 0;\n\
             template P() {{\n    init location a;\n    location done;\n\
             a -> a when x[t] >= 2{guard} do x[t] = 0, t = t + 1;\n\
             a -> done when t == 2 && x[2] - x[0] >= 4;\n}}\n\
             system P;\n\
             check reach: E<> P.done;\n\
             check t2: E<> t == 2 && x[0] - x[2] < 4;\n\
             check below: E<> t == 2 && x[2] - x[1] < 2;\n\
             check above: E<> t == 2 && x[2] - x[1] > 2;\n\
             check all: A[] t <= 3;\n"
        )
    };
    use Verdict::{Fails, Holds};
    let text = model(" && t < 3");
    verdicts(&text, &[Holds, Holds, Fails, Holds, Holds]);
    let net = zeno::semantics::analyze(&text).network.unwrap();
    assert_eq!(net.processes[0].edges.len(), 4);
    // Without `t < 3` the token reaches t == 3: x[3] does not exist, a
    // model error (never another clock), under every order.
    let text = model("");
    let net = zeno::semantics::analyze(&text).network.unwrap();
    for order in SearchOrder::ALL {
        let r = support::check_in_order(&net, 4, order);
        assert!(
            matches!(&r.verdict, Verdict::ModelError(e) if e.to_string().contains("index 3")),
            "{order:?}: {:?}",
            r.verdict
        );
    }
}

/// `tests/data/import/clock-array.xml`: UPPAAL's Fischer with two
/// processes and a global `clock x[pid_t]`. By hand: mutual exclusion
/// holds (`x[pid] > K` to enter); x[1] is never reset while Proc(1) stays
/// idle, Proc(2) enters after waiting more than K since its last reset, so
/// `x[1] - x[2] > 3` is reachable at Proc(2).cs.
#[test]
fn an_uppaal_clock_array_is_imported() {
    let path = support::cli::data_file("import", "clock-array.xml");
    let xml = std::fs::read_to_string(&path).unwrap();
    let imported =
        zeno::import::import(&path, &xml, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        imported.zeno.contains("clock x[pid_t];"),
        "{}",
        imported.zeno
    );
    let explored = verdicts(&imported.zeno, &[Verdict::Holds, Verdict::Holds]);
    assert!(explored.iter().all(|&n| n > 0));
}

/// The exporters write one clock per element (`x_1`, `x_2`, `x_3`); the XTA
/// text read back is the same model (same verdicts, same BFS state
/// counts); a flattened name that clashes is a located error.
#[test]
fn clock_arrays_are_exported_element_by_element() {
    for enter in [">", ">="] {
        let text = fischer(true, enter);
        let net = zeno::semantics::analyze(&text).network.unwrap();
        let (xta, queries) = zeno::import::export_xta(&net).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(
            xta.contains("clock x_1;\nclock x_2;\nclock x_3;\n"),
            "{xta}"
        );
        let back = zeno::import::import("back.xta", &xta, &Default::default())
            .unwrap_or_else(|e| panic!("{e:?}\n{xta}"));
        let (checks, errors) = zeno::import::import_query_file(&queries, &back.renaming);
        assert!(errors.is_empty(), "{errors:?}");
        let mut again = back.zeno;
        for (k, (_, formula)) in checks.iter().enumerate() {
            again.push_str(&format!("check q{k}: {formula};\n"));
        }
        let mutex = if enter == ">" {
            Verdict::Holds
        } else {
            Verdict::Fails
        };
        let expected = [mutex, Verdict::Holds];
        assert_eq!(verdicts(&again, &expected), verdicts(&text, &expected));
        let tck = zeno::import::export_tchecker(&net, "fischer").unwrap();
        assert!(
            tck.contains("clock:1:x_1\nclock:1:x_2\nclock:1:x_3\n"),
            "{tck}"
        );
        assert!(tck.contains("invariant:x_2 <= 2"), "{tck}");
    }
    let text = "clock x[2];\nclock x_1;\ntemplate P() { init location a invariant x[1] <= 3 && x_1 <= 4; }\nsystem P;";
    let net = zeno::semantics::analyze(text).network.unwrap();
    let message = "the clock `x_1` would be exported as `x_1`, as `x[1]` is: rename one of them";
    for errs in [
        zeno::import::export_xta(&net).unwrap_err(),
        zeno::import::export_tchecker(&net, "s").unwrap_err(),
    ] {
        assert!(
            errs.iter().any(|d| d.message == message
                && &text[d.range.start as usize..d.range.end as usize] == "x_1"),
            "{errs:?}"
        );
    }
}

/// Hover, definition, references and rename of a clock array, as for any
/// array: every occurrence of `x` (declaration, invariant, guard, reset,
/// check) and nothing else.
#[test]
fn the_language_server_knows_clock_arrays() {
    let text = fischer(true, ">");
    let a = zeno::ide::Analysis::from_text(&text);
    let decl = text.find("clock x[pid_t]").unwrap() as u32 + 6;
    let uses: Vec<u32> = text
        .match_indices("x[pid]")
        .map(|(k, _)| k as u32)
        .collect();
    assert_eq!(uses.len(), 6, "{text}");
    let h = a.hover(uses[0]).expect("a hover");
    assert!(h.markdown.contains("clock x[pid_t]"), "{}", h.markdown);
    let d = a.definition(uses[3]).expect("a definition");
    assert_eq!((d.name.as_str(), d.range.start), ("x", decl));
    let mut all = vec![decl];
    all.extend(&uses);
    let refs: Vec<u32> = a
        .references(uses[1], true)
        .iter()
        .map(|s| s.start)
        .collect();
    assert_eq!(refs, all);
    let renamed: Vec<u32> = a
        .rename(uses[2], "clk")
        .unwrap()
        .iter()
        .map(|s| s.start)
        .collect();
    assert_eq!(renamed, all);
}

/// TChecker's `clock:2:x` is imported as `clock x[2];` and checked. By hand:
/// `a` is left when x[1] = 3 exactly, resetting x[1], so at `b`
/// x[0] - x[1] = 3: `>= 3` holds, `> 3` does not.
#[test]
fn a_tchecker_clock_array_is_imported() {
    let tck = "system:s\nevent:tau\nclock:2:x\nprocess:P\n\
               location:P:a{initial: : invariant:x[1] <= 3}\nlocation:P:b{}\n\
               edge:P:a:b:tau{provided:x[1] >= 3 && x[0] - x[1] >= 0 : do:x[1] = 0}\n";
    let imported =
        zeno::import::import("s.tck", tck, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(imported.zeno.contains("clock x[2];"), "{}", imported.zeno);
    let text = format!(
        "{}\ncheck three: E<> P.b && x[0] - x[1] >= 3;\ncheck more: E<> P.b && x[0] - x[1] > 3;\n",
        imported.zeno
    );
    verdicts(&text, &[Verdict::Holds, Verdict::Fails]);
}

/// A template-local clock array sized by a parameter: checked on its own
/// (the length unknown) without errors, and each instance's edge split
/// into one copy per element of its own array.
#[test]
fn a_clock_array_sized_by_a_parameter() {
    let text = "int[0, 2] i;\n\
                template P(const int n) { clock x[n]; init location a; \
                a -> a when x[i] > 1 do x[i] = 0; }\n\
                Q = P(2);\nR = P(3);\nsystem Q, R;\n";
    let a = zeno::semantics::analyze(text);
    let errs: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errs.is_empty(), "{errs:?}");
    let net = a.network.unwrap();
    let copies: Vec<usize> = net.processes.iter().map(|p| p.edges.len()).collect();
    assert_eq!(copies, [2, 3]);
    let names: Vec<&str> = net.clocks.iter().skip(1).map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Q.x[0]", "Q.x[1]", "R.x[0]", "R.x[1]", "R.x[2]"]);
}

/// A function that resets a clock array in a `for (i : T)` loop, or the
/// same resets written out on the edge.
fn restart_model(in_function: bool) -> String {
    let resets = match in_function {
        true => "restart()",
        false => "x[0] = 0, x[1] = 0, rounds = rounds < 3 ? rounds + 1 : 3",
    };
    format!(
        "const int N = 2;\ntypedef int[0, N - 1] id_t;\nclock x[N];\nint[0, 3] rounds;\n\
         void restart() {{ for (i : id_t) {{ x[i] = 0; }} rounds = rounds < 3 ? rounds + 1 : 3; }}\n\
         template P() {{\ninit location a invariant x[1] <= 5;\nlocation b;\n\
         a -> b when x[0] >= 2 do {resets};\nb -> a when x[1] >= 1;\n}}\nsystem P;\n\
         check synced: A[] x[0] - x[1] <= 0 && x[1] - x[0] <= 0;\n\
         check late: E<> P.b && x[0] >= 2;\n\
         check early: E<> P.a && x[0] >= 6;\n\
         check three: E<> rounds == 3;\n"
    )
}

/// Both clocks start at 0 and are always reset together, so they stay
/// equal (`synced`); `b` has no invariant, so time passes there (`late`);
/// at `a` the invariant x[1] <= 5 bounds x[0] too (`early` fails); each
/// `a -> b` counts a round (`three`). The loop is unrolled, so the model is
/// the one with the resets written out, state for state.
#[test]
fn a_loop_over_a_clock_array_resets_every_clock() {
    let expected = [
        Verdict::Holds,
        Verdict::Holds,
        Verdict::Fails,
        Verdict::Holds,
    ];
    let unrolled = verdicts(&restart_model(true), &expected);
    let written_out = verdicts(&restart_model(false), &expected);
    assert_eq!(unrolled, written_out);
}

/// A reset under `if` in a loop over a clock array runs where it stands
/// (once rejected): only x[0] is reset, as the edge written out does.
#[test]
fn a_conditional_clock_reset_inside_a_loop_runs_where_it_stands() {
    let model = |decl: &str, update: &str| {
        format!(
            "const int N = 2;\ntypedef int[0, N - 1] id_t;\nclock x[N];\n{decl}\n\
             template P() {{ init location a; location b; a -> b when x[1] >= 1 do {update}; }}\n\
             system P;\ncheck apart: E<> P.b && x[1] - x[0] >= 1;\n\
             check together: E<> P.b && x[1] - x[0] < 1;\n"
        )
    };
    let expected = [Verdict::Holds, Verdict::Fails];
    let in_loop = verdicts(
        &model(
            "void some() { for (i : id_t) if (i == 0) x[i] = 0; }",
            "some()",
        ),
        &expected,
    );
    let written_out = verdicts(&model("", "x[0] = 0"), &expected);
    assert_eq!(in_loop, written_out);
}

/// `forall (i : T)` over clock comparisons is a conjunction, one part per
/// value, in an invariant and in a guard, as UPPAAL reads it (zeno once
/// rejected it: "clocks can only be compared in a conjunction"). In `a`
/// neither clock has been reset, so x[0] = x[1], and the invariant
/// x[0] <= 3 && x[1] <= 5 keeps both at most 3: x[1] > 3 is unreachable
/// there. The guard needs x[0] >= 2 and x[1] >= 2, so `b` is never entered
/// with x[1] < 2; after the reset of x[0], x[1] grows without bound in `b`
/// and reaches 4, so `c` is reachable.
#[test]
fn forall_over_clock_comparisons_is_a_conjunction() {
    let text = "const int N = 2;\ntypedef int[0, N - 1] id_t;\n\
                const int d[N] = {3, 5};\nclock x[N];\n\
                template P() {\n\
                init location a invariant forall (i : id_t) x[i] <= d[i];\n\
                location b;\nlocation c;\n\
                a -> b when forall (i : id_t) x[i] >= 2 do x[0] = 0;\n\
                b -> c when x[1] >= 4;\n}\nsystem P;\n\
                check q1: A[] P.a imply x[0] <= 3;\n\
                check q2: E<> P.a && x[1] > 3;\n\
                check q3: E<> P.c;\n\
                check q4: E<> P.b && x[1] < 2;\n";
    verdicts(
        text,
        &[
            Verdict::Holds,
            Verdict::Fails,
            Verdict::Holds,
            Verdict::Fails,
        ],
    );
    // A lower bound under `forall` is read too: in the initial location
    // it excludes the initial valuation (all clocks 0), so no state exists
    // and nothing is reachable.
    let lower = text.replace("x[i] <= d[i];", "x[i] >= 1;");
    let errs = errors(&lower);
    assert!(errs.is_empty(), "{errs:?}");
    verdicts(
        &lower,
        &[
            Verdict::Holds,
            Verdict::Fails,
            Verdict::Fails,
            Verdict::Fails,
        ],
    );
}

/// `exists` over clock comparisons in a guard, or the same guard written as
/// a disjunction: `x[0]` is reset whenever it reaches 1, `x[1]` never, so
/// x[0] <= x[1] always, and `b` is entered when some clock is in [3, 4].
fn exists_model(quantified: bool) -> String {
    let guard = match quantified {
        true => "exists (i : id_t) x[i] >= 3 && x[i] <= 4",
        false => "(x[0] >= 3 && x[0] <= 4) || (x[1] >= 3 && x[1] <= 4)",
    };
    format!(
        "const int N = 2;\ntypedef int[0, N - 1] id_t;\nclock x[N];\n\
         template P() {{\ninit location a;\nlocation b;\n\
         a -> a when x[0] >= 1 do x[0] = 0;\na -> b when {guard};\n}}\nsystem P;\n\
         check low_first: E<> P.b && x[1] < 3;\n\
         check low_second: E<> P.b && x[0] < 3;\n\
         check both_late: E<> P.b && x[0] > 4 && x[1] > 4;\n"
    )
}

/// `low_first` fails: entering `b` needs some clock in [3, 4], and
/// x[0] <= x[1], so x[1] >= 3. `low_second` holds (x[1] = 3 after x[0] was
/// reset at 1: x[0] = 2). `both_late` holds: `b` has no invariant. The
/// quantifier is its instances' disjunction, state for state.
#[test]
fn exists_over_clock_comparisons_is_a_disjunction() {
    let expected = [Verdict::Fails, Verdict::Holds, Verdict::Holds];
    let quantified = verdicts(&exists_model(true), &expected);
    let written_out = verdicts(&exists_model(false), &expected);
    assert_eq!(quantified, written_out);
}
