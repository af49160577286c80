//! The query language around the temporal operators: calls of a template's
//! functions through a process (`P(1).f()`, inside quantifiers, in every
//! kind of check), global functions, side effects refused, and `deadlock`
//! combined with state predicates. Verdicts are derived by hand (in each
//! model's comment); every trace is replayed by the independent simulator
//! (`support::every_order`), and the shortest witnesses' lengths are
//! breadth-first search's.

use crate::support;

use support::cli::{path, scratch, stdout, zeno};
use zeno::checker::Verdict::{Fails, Holds};

/// Each `P(id)` counts its own `k` up to 2 (one step each, at least one
/// time unit apart: `a` forces it by `x <= 3`), then moves to `b`. `done()`
/// and `count()` read the process's own `k`, `ident()` its parameter.
const COUNTERS: &str = "
const int N = 2;
typedef int[1, N] pid_t;
int g = 0;
int twice(int a) { return 2 * a; }
template P(const pid_t id) {
    int k = 0;
    clock x;
    bool done() { return k >= 2; }
    int count() { return k; }
    int ident() { return id; }
    init location a invariant x <= 3;
    location b;
    a -> a when x >= 1 && k < 2 do k = k + 1, x = 0;
    a -> b when k == 2;
}
system P;
check one_done: E<> P(1).done();
check all_done: E<> forall (p : pid_t) P(p).done();
check bounded: A[] P(1).count() <= 2;
check three: E<> P(1).count() == 3;
check own_id: A[] forall (p : pid_t) P(p).ident() == p;
check other_id: E<> P(1).ident() == 2;
check some_done: E<> exists (p : pid_t) P(p).done() && P(p).b;
check global: A[] twice(g) == 0;
check in_sum: E<> (sum (p : pid_t) P(p).count()) == 3;
check inevitably: A<> P(1).done();
check leads: P(2).count() == 1 --> P(2).done();
check stays: E[] P(1).count() < 2;
";

#[test]
fn template_functions_through_processes() {
    let results = support::every_order(
        COUNTERS,
        &[
            Holds, Holds, Holds, Fails, Holds, Fails, Holds, Holds, Holds, Holds, Holds, Fails,
        ],
    );
    // The shortest witnesses: P(1) loops twice; both processes twice; P(1)
    // twice and then into `b`; three loops in all.
    let len = |k: usize| results[k].trace.as_ref().map(|t| t.len());
    assert_eq!(len(0), Some(2));
    assert_eq!(len(1), Some(4));
    assert_eq!(len(6), Some(3));
    assert_eq!(len(8), Some(3));
}

#[test]
fn no_unused_warning_for_what_only_checks_read() {
    let diagnostics = zeno::semantics::analyze(COUNTERS).diagnostics;
    assert!(
        !diagnostics.iter().any(|d| d.message.contains("never used")),
        "{diagnostics:?}"
    );
}

#[test]
fn bad_calls_are_located_errors() {
    let model = |extra: &str, check: &str| {
        format!(
            "int g;
int bump() {{ g = g + 1; return g; }}
template P(const int[1, 2] id) {{
    int k;
    int setk() {{ k = 1; return k; }}
    int get() {{ return k; }}
    init location a;
    {extra}
}}
system P;
check q: {check};"
        )
    };
    for (extra, check, at, words) in [
        ("", "E<> Q(1).get() == 0", "Q(1)", "no process `Q(1)`"),
        ("", "E<> P(3).get() == 0", "P(3)", "no process `P(3)`"),
        ("", "E<> R.get() == 0", "R", "unknown process `R`"),
        (
            "",
            "E<> P(1).nothing()",
            "nothing",
            "has no function `nothing`",
        ),
        (
            "",
            "E<> P(1).k()",
            "k",
            "a variable of process `P(1)`, not a function",
        ),
        (
            "",
            "E<> P(1).setk() == 1",
            "P(1).setk()",
            "changes variables",
        ),
        ("", "E<> bump() == 1", "bump()", "changes variables"),
        (
            "",
            "A<> P(2).setk() == 1",
            "P(2).setk()",
            "changes variables",
        ),
        (
            "",
            "E<> P(1).get(3) == 0",
            "P(1).get(3)",
            "takes 0 arguments",
        ),
        // Nothing to call: never read as a value silently.
        ("", "E<> (g)() == 0", "(g)", "can be called"),
        (
            "a -> a when P(1).get() == 0;",
            "E<> g == 0",
            "P(1).get()",
            "only a check can do that",
        ),
    ] {
        let text = model(extra, check);
        let errors = support::errors(&text);
        assert!(
            errors.iter().any(|(m, on)| on == at && m.contains(words)),
            "{check}: {errors:?}"
        );
    }
}

/// `b` and `d` have no edges: every state there is deadlocked (`d` after a
/// reset of `x`, bounded by `x <= 4`). `a` never is: `a -> b` is enabled
/// from `x == 2` up to the invariant's 5.
const DEADLOCKS: &str = "
template P() {
    clock x;
    init location a invariant x <= 5;
    location b;
    location d invariant x <= 4;
    a -> b when x >= 2;
    a -> d when x <= 1 do x = 0;
}
system P;
check free: A[] not deadlock;
check some: E<> deadlock;
check in_a: E<> P.a && deadlock;
check in_b: E<> P.b && deadlock;
check late: A[] (P.x > 4 imply not deadlock);
check d_dead: A[] (P.d imply deadlock);
check where: A[] (deadlock imply (P.b || P.d));
check early_b: E<> deadlock && P.x < 2 && P.b;
check late_d: E<> deadlock && P.x >= 4 && P.d;
check either: E<> deadlock || P.x > 100;
check negated: A[] !(P.a && deadlock);
";

#[test]
fn deadlock_with_state_predicates() {
    // `late`: `b` is deadlocked with `x > 4`. `early_b`: `b` is entered with
    // `x >= 2`. `late_d`: `x` reaches 4 in `d`. `either`: `b` or `d`.
    let results = support::every_order(
        DEADLOCKS,
        &[
            Fails, Holds, Fails, Holds, Fails, Holds, Holds, Fails, Holds, Holds, Holds,
        ],
    );
    // Counterexamples and witnesses are one step long.
    for k in [0, 1, 3, 4, 8, 9] {
        assert_eq!(results[k].trace.as_ref().map(|t| t.len()), Some(1), "{k}");
    }
}

/// `deadlock` in a liveness check is decided (liveness.rs has more): `a`
/// has no invariant and its edge no guard, so a run may wait in `a` for
/// ever, never deadlocked (the edge stays enabled) and never in `b`; `b`
/// has no edge, so it is deadlocked.
#[test]
fn deadlock_in_liveness_checks_is_decided() {
    let text = "template P() { init location a; location b; a -> b; }
system P;
check q: A<> P.b || deadlock;
check r: E[] !deadlock;
check s: P.b --> deadlock;";
    support::every_order(text, &[Fails, Holds, Holds]);
}

/// The counters model as UPPAAL writes it, with its queries in a `.q` file
/// and in the XML: a template's function through a process, inside a
/// quantifier, and `deadlock` beside a location.
#[test]
fn imported_queries_call_template_functions() {
    let dir = scratch("query_language_import");
    let xta = "const int N = 2;
typedef int[1, N] pid_t;
process P(const pid_t id) {
    int k = 0;
    clock x;
    bool done() { return k >= 2; }
state a { x <= 3 }, b;
init a;
trans a -> a { guard x >= 1 && k < 2; assign k = k + 1, x = 0; },
      a -> b { guard k == 2; };
}
system P;
";
    let model = dir.join("counters.xta");
    std::fs::write(&model, xta).unwrap();
    let queries = dir.join("counters.q");
    std::fs::write(
        &queries,
        "E<> forall (p : pid_t) P(p).done()\nA[] not P(1).done() imply P(1).a\nE<> P(1).b and deadlock\nA[] not deadlock\n",
    )
    .unwrap();
    let out = zeno(&[
        "check",
        path(&model),
        "--queries",
        path(&queries),
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let verdicts: Vec<&str> = json["files"][0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    // Both can be done; P(1) leaves `a` only when done; both end in `b`,
    // where nothing moves any more.
    assert_eq!(verdicts, ["holds", "holds", "holds", "fails"], "{json}");

    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<nta>
<declaration>int g;</declaration>
<template><name>P</name><declaration>int k; int count() { return k; }</declaration>
<location id="a"><name>a</name></location>
<location id="b"><name>b</name></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="assignment">k = 3</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>E&lt;&gt; P.count() == 3</formula><comment></comment></query>
<query><formula>A[] P.count() &lt; 3</formula><comment></comment></query>
</queries>
</nta>"#;
    let file = dir.join("count.xml");
    std::fs::write(&file, xml).unwrap();
    let out = zeno(&["check", path(&file), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let checks = json["files"][0]["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2, "{json}");
    assert_eq!(checks[0]["verdict"], "holds");
    assert_eq!(checks[1]["verdict"], "fails");
    assert_eq!(out.status.code(), Some(1));
}

/// A model whose checks call functions (global ones and a template's own
/// through a process) and ask for values exports to UPPAAL's XTA with its
/// queries, and the export reads back to the same answers.
#[test]
fn checks_with_calls_export_and_read_back() {
    let text = format!(
        "{COUNTERS}check most: sup{{P(1).a}}: P(1).x, P(1).count();\ncheck least: inf{{P(2).b}}: g, twice(P(2).count());\n"
    );
    let net = zeno::semantics::analyze(&text).network.expect("analyses");
    let (xta, queries) = zeno::import::export_xta(&net).expect("exports");
    let dir = scratch("query_language_export");
    let (model, q) = (dir.join("counters.xta"), dir.join("counters.q"));
    std::fs::write(&model, xta).unwrap();
    std::fs::write(&q, &queries).unwrap();
    let original = dir.join("counters.zeno");
    std::fs::write(&original, &text).unwrap();
    let summaries = |args: &[&str]| -> Vec<String> {
        let out = zeno(args);
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        json["files"][0]["checks"]
            .as_array()
            .unwrap_or_else(|| panic!("{json}"))
            .iter()
            .map(|c| {
                let s = c["summary"].as_str().unwrap();
                // Witness lengths may differ between the two texts' orders.
                s.split(" — ").next().unwrap().to_string()
            })
            .collect()
    };
    let before = summaries(&["check", path(&original), "--format", "json"]);
    let after = summaries(&[
        "check",
        path(&model),
        "--queries",
        path(&q),
        "--format",
        "json",
    ]);
    // In `a`, `x <= 3` and `k` reaches 2; in `b`, `k == 2` and `g` stays 0.
    assert_eq!(
        before[12..],
        [
            "sup: P(1).x <= 3, P(1).count() = 2",
            "inf: g = 0, twice(P(2).count()) = 4"
        ]
    );
    assert_eq!(before.len(), after.len(), "{queries}");
    for (b, a) in before.iter().zip(&after) {
        // The exported texts name things UPPAAL's way (`P(1).x` as written
        // in the export): compare the verdict or the values' numbers.
        let numbers = |s: &str| -> Vec<String> {
            s.split(|c: char| !c.is_ascii_digit() && c != '∞')
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect()
        };
        assert_eq!(
            b.split(':').next(),
            a.split(':').next(),
            "{b} / {a}\n{queries}"
        );
        if b.starts_with("sup") || b.starts_with("inf") {
            assert_eq!(numbers(b).last(), numbers(a).last(), "{b} / {a}\n{queries}");
        }
    }
}
