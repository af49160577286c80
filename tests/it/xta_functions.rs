//! Functions through the XTA export: the model is exported, the XTA read
//! back (with its query file), and every check must get the same outcome
//! and, by breadth-first search, explore and store the same states (a
//! function's frame is local, never part of a state).

use zeno::checker::{CheckResult, SearchOrder};
use zeno::import::{export_xta, import, import_query_file};
use zeno::ir::Network;
use zeno::report::Outcome;
use zeno::semantics::analyze;

/// Every statement kind, nested calls, a local array indexed by a
/// variable, a typed local, a call in a guard and a template's function.
/// `fill()` writes `acc` = 0 + 1 + 2 = 3 on the first move; `pick()` is 2
/// then; the loop in `count_down` counts `n` from 2 to 0 in two moves of
/// `Q`. `E<> acc == 6 && n == 0` needs both (`mix` adds 3 when n is 0).
const STATEMENTS: &str = "int[0, 9] acc = 0;
int[0, 2] n = 2;
int[0, 3] twice(int[0, 1] k) { return 2 * k + 1 - 1; }
int[0, 2] pick() {
    int seen[3];
    int i = 0;
    for (j : int[0, 2]) { seen[j] = j; }
    do { i++; } while (i < 2);
    if (seen[i] == 2) return seen[i]; else return 0;
}
void fill() {
    int[0, 9] s = 0;
    for (j : int[0, 2]) s += j;
    acc = s;
}
template P() {
    void mix() {
        if (n == 0) { acc += 3; } else { acc += 0; }
    }
    init location a;
    location b;
    location c;
    a -> b when pick() == 2 && twice(1) == 2 do fill();
    b -> c when n == 0 do mix();
}
template Q() {
    void count_down() {
        while (n > 0 && n % 2 == 0) { n--; }
        if (n > 0) n = n - 1;
    }
    init location q;
    q -> q when n > 0 do count_down();
}
system P, Q;
check done: E<> acc == 6 && n == 0;
check bounded: A[] acc <= 6;
check no_deadlock: A[] !deadlock;
";

fn network(text: &str) -> Network {
    let a = analyze(text);
    a.network
        .unwrap_or_else(|| panic!("{:#?}\n{text}", a.diagnostics))
}

fn bfs(net: &Network, k: usize) -> CheckResult {
    crate::support::check_in_order(net, k, SearchOrder::Bfs)
}

/// The exported model read back, its queries as checks.
fn round_trip(net: &Network) -> (String, Network) {
    let (xta, queries) = export_xta(net).unwrap_or_else(|e| panic!("{e:?}"));
    let back =
        import("back.xta", &xta, &Default::default()).unwrap_or_else(|e| panic!("{e:?}\n{xta}"));
    let (checks, errors) = import_query_file(&queries, &back.renaming);
    assert!(errors.is_empty(), "{errors:?}");
    let mut text = back.zeno;
    for (k, (_, formula)) in checks.iter().enumerate() {
        text.push_str(&format!("check q{k}: {formula};\n"));
    }
    let again = network(&text);
    (xta, again)
}

fn same_outcomes(text: &str) -> String {
    let net = network(text);
    let (xta, back) = round_trip(&net);
    assert_eq!(back.checks.len(), net.checks.len(), "{xta}");
    for k in 0..net.checks.len() {
        let (a, b) = (bfs(&net, k), bfs(&back, k));
        let name = &net.checks[k].name;
        // A model error's kind; its site is in the other text.
        let outcome = |o: Outcome| match o {
            Outcome::ModelError(e) => format!("model error: {}", e.kind),
            o => format!("{o:?}"),
        };
        assert_eq!(
            outcome(Outcome::of(&net.checks[k], &a)),
            outcome(Outcome::of(&back.checks[k], &b)),
            "{name}\n{xta}"
        );
        assert_eq!(
            (a.stats.explored, a.stats.stored),
            (b.stats.explored, b.stats.stored),
            "{name}\n{xta}"
        );
        assert_eq!(
            a.trace.as_ref().map(|t| t.len()),
            b.trace.as_ref().map(|t| t.len()),
            "{name}"
        );
    }
    xta
}

#[test]
fn every_statement_kind_round_trips() {
    let net = network(STATEMENTS);
    // The hand-computed verdicts first: `done` holds (3 moves: P's fill,
    // Q's two count-downs, then P's mix), `bounded` and `no_deadlock` too
    // (all three processes stop: P in c, Q once n is 0 — a deadlock!).
    let outcomes: Vec<Outcome> = (0..3)
        .map(|k| Outcome::of(&net.checks[k], &bfs(&net, k)))
        .collect();
    assert_eq!(outcomes[0], Outcome::Witnessed);
    assert_eq!(outcomes[1], Outcome::Holds);
    assert_eq!(outcomes[2], Outcome::Violated);
    let xta = same_outcomes(STATEMENTS);
    assert!(xta.contains("for (_i"), "{xta}");
    assert!(xta.contains("} while ("), "{xta}");
    assert!(xta.contains("_fr[3]"), "{xta}");
}

#[test]
fn the_train_gate_with_functions_meets_its_expectations() {
    // The header's hand-computed expectations (those of train-gate.zeno):
    // `safe` and `no_deadlock` hold, the witnesses are 2, 3 and 4 steps.
    let text = include_str!("../../benches/models/train-gate-functions.zeno");
    let net = network(text);
    let expected = [
        (Outcome::Holds, None),
        (Outcome::Holds, None),
        (Outcome::Witnessed, Some(2)),
        (Outcome::Witnessed, Some(3)),
        (Outcome::Witnessed, Some(4)),
    ];
    for (k, (outcome, shortest)) in expected.into_iter().enumerate() {
        let r = bfs(&net, k);
        assert_eq!(Outcome::of(&net.checks[k], &r), outcome, "check {k}");
        assert_eq!(r.trace.as_ref().map(|t| t.len()), shortest, "check {k}");
        if let Some(t) = &r.trace {
            crate::support::simulator::replay(&net, k, t).unwrap();
        }
    }
    // The same reachable states as the inline queue of train-gate.zeno.
    let inline = network(include_str!("../../models/train-gate.zeno"));
    let (a, b) = (bfs(&net, 0), bfs(&inline, 0));
    assert_eq!(
        (a.stats.explored, a.stats.stored),
        (b.stats.explored, b.stats.stored)
    );
}

#[test]
fn the_train_gate_with_functions_round_trips() {
    same_outcomes(include_str!(
        "../../benches/models/train-gate-functions.zeno"
    ));
}

#[test]
fn a_model_error_inside_a_function_stays_one() {
    // The fourth `enqueue` writes list[3] of a three-element array: the
    // same error, in the exported function, after the same three steps.
    same_outcomes(
        "int[0, 3] len = 0;\nint[0, 9] list[3];\n\
         void enqueue(int[0, 9] e) { list[len] = e; len++; }\n\
         template P() { init location a; a -> a do enqueue(len); }\n\
         system P;\ncheck c: A[] true;\n",
    );
}

/// Clock resets under `if`, in a loop over the ids, at a variable index and
/// to a variable value (tests/it/clock_resets.rs works the verdicts out):
/// the exported functions assign the clocks as the model does (an element
/// chosen at run time by comparisons after the `_idxN` check), so the
/// model read back explores the same states. TChecker has no functions.
const DYNAMIC_RESETS: &str = "const int N = 2;\ntypedef int[0, N - 1] id_t;\n\
    clock x[N], y;\nbool active[N] = { true, false };\nint[0, 1] cur;\nint[0, 3] d;\nint[0, 3] k;\n\
    void reset_active() { for (i : id_t) if (active[i]) x[i] = 0; }\n\
    void start(id_t j) { if (d > 1) y = 0; x[j] = d; }\n\
    template P() { init location S; location A; location B; location C;\n\
    S -> A select a : int[0, 1], c : int[0, 1], v : int[0, 3]\n\
      do active[1] = (a == 1), cur = c, d = v;\n\
    A -> B when x[0] >= 1 do reset_active(), x[cur] = 0, x[1] = d;\n\
    B -> C when y >= 1 do start(cur);\n\
    C -> C when y >= 3 && k < 3 do k = k + 1, x[k] = 0; }\nsystem P;\n\
    check d_wins: E<> P.B && x[1] == 2 && x[0] == 0;\n\
    check start: E<> P.C && d == 3 && cur == 1 && y == 0 && x[1] == 3;\n\
    check bad_index: E<> k == 3;\n";

#[test]
fn dynamic_clock_resets_round_trip() {
    let xta = same_outcomes(DYNAMIC_RESETS);
    assert!(xta.contains("if (_k == 0) x_0 = _v;"), "{xta}");
    let net = network(DYNAMIC_RESETS);
    let errs = zeno::import::export_tchecker(&net, "resets").expect_err("no functions");
    // Located on the edges: `reset_active()` and `x[1] = d` (A -> B, and
    // `start(cur)` (B -> C); `x[k] = 0` after `k = k + 1` (C -> C).
    let dynamic: Vec<&str> = errs
        .iter()
        .filter(|d| {
            d.message
                .contains("TChecker resets clocks to constants only")
        })
        .map(|d| &DYNAMIC_RESETS[d.range.start as usize..d.range.end as usize])
        .collect();
    assert!(
        dynamic.iter().any(|at| at.starts_with("A -> B")),
        "{errs:?}"
    );
    assert!(
        dynamic.iter().any(|at| at.starts_with("C -> C")),
        "{errs:?}"
    );
}

/// An array of records whose fields differ in range, indexed by a
/// variable (`q[len].id = 3`, `m = q[i]`): each field is written as an
/// array of its own (`q_id[len]`). By hand: every push writes {3, true} at
/// `len`, every pop copies `q[i]` to `m` and moves `i` on, so `m` is
/// {3, true} after a push and a pop, `m.id` is only ever 0 or 3, and after
/// two pushes and a pop (i = 1) m equals q[0].
#[test]
fn arrays_of_records_indexed_by_a_variable_round_trip() {
    let text = "typedef struct { int[0,5] id; bool ok; } msg_t;\n\
                msg_t q[3];\nint[0,3] len;\nint[0,2] i;\nmsg_t m;\n\
                template P() { init location a;\n\
                a -> a when len < 3 do q[len].id = 3, q[len].ok = true, len++;\n\
                a -> a when len > 0 do m = q[i], i = (i + 1) % 3; }\n\
                system P;\n\
                check got: E<> m.id == 3 && m.ok;\n\
                check only: A[] m.id == 0 || m.id == 3;\n\
                check copy: E<> m == q[0] && len == 2 && i == 1;\n\
                check never: E<> m.id == 3 && !m.ok;\n";
    let net = network(text);
    let verdicts: Vec<_> = (0..4).map(|k| bfs(&net, k).verdict).collect();
    use zeno::checker::Verdict::{Fails, Holds};
    assert_eq!(verdicts, [Holds, Holds, Holds, Fails]);
    let xta = same_outcomes(text);
    assert!(
        xta.contains("int[0, 5] q_id[3];") && xta.contains("bool q_ok[3];"),
        "{xta}"
    );
}

/// Functions that return records and take them by reference, and `**`,
/// through the export. By hand: `a -> b` stores q[0] = {2, true},
/// m = {3, true}, i = 1, p = 8; `b -> c` sets g = 4 + 1 = 5, q[1] = {5,
/// true} and p = 8 ** 2 = 64: `reached` holds, `flag` fails.
#[test]
fn record_results_and_powers_round_trip() {
    let text = "typedef struct { int[0,9] a; bool f; } msg_t;\nmsg_t q[3];\nmsg_t m;\nint[0,3] i;\n\
         int[0,9] g;\nint[0,64] p;\n\
         msg_t make(int a) { msg_t r; r.a = a; r.f = a > 1; return r; }\n\
         void push(msg_t &dst[3], msg_t v) { dst[i] = v; }\n\
         template P() { init location a; location b; location c;\n\
         a -> b when make(1).a == 1 do q[i] = make(2), m = make(3), i++, p = 2 ** 3;\n\
         b -> c when make(3) == m do g = make(4).a + 1, push(q, make(5)), p = p ** 2; }\n\
         system P;\n\
         check reached: E<> P.c && g == 5 && q[0].a == 2 && q[1].a == 5 && p == 64;\n\
         check flag: E<> P.c && !q[1].f;\n";
    let net = network(text);
    use zeno::checker::Verdict::{Fails, Holds};
    assert_eq!([bfs(&net, 0).verdict, bfs(&net, 1).verdict], [Holds, Fails]);
    same_outcomes(text);
}

/// Strided accesses whose elements share one range: the two fields of an
/// array of records of `int`s (`r[i].a`, `r[i].b`) and a column of a
/// two-dimensional array (`g[i][2]`, no other access). By hand: `i` takes
/// 0 and 1 (each step sets r[i] = {1, 2} and g[i][2] = 3), so r[1] and
/// g[1][2] are written only after r[0]; `g[2][2]` never is.
#[test]
fn strided_accesses_of_one_range_round_trip() {
    let text = "typedef struct { int[0,3] a; int[0,3] b; } pair_t;\npair_t r[2];\n\
                int[0,3] g[3][4];\nint[0,2] i;\n\
                template P() { init location s;\n\
                s -> s when i < 2 do r[i].a = 1, r[i].b = r[i].a + 2, g[i][2] = 3, i++; }\n\
                system P;\n\
                check both: E<> r[1].a == 1 && r[1].b == 3 && g[1][2] == 3;\n\
                check order: A[] r[1].a == 0 || r[0].b == 3;\n\
                check last: E<> g[2][2] == 3;\n";
    let net = network(text);
    use zeno::checker::Verdict::{Fails, Holds};
    let verdicts: Vec<_> = (0..3).map(|k| bfs(&net, k).verdict).collect();
    assert_eq!(verdicts, [Holds, Holds, Fails]);
    same_outcomes(text);
}
