//! `sup:` and `inf:` queries: values derived by hand (each model's
//! derivation is in its comment), strict and non-strict bounds, `∞`, integer
//! maxima and minima, the `{pred}` form, a bound above every constant of the
//! model, an unbounded clock zeno cannot prove unbounded (answered as
//! undecided, never as a number), located errors, imported UPPAAL queries,
//! and the CLI's text, JSON, SARIF and exit code.

use crate::support;

use support::cli::{path, scratch, stdout, zeno};
use zeno::checker::bounds::Value;
use zeno::checker::{self, Cancel, Options, Verdict};
use zeno::ir::Network;

fn network(text: &str) -> Network {
    let analysis = zeno::semantics::analyze(text);
    analysis
        .network
        .unwrap_or_else(|| panic!("does not analyse: {:?}", analysis.diagnostics))
}

/// The values of the named query, which must be decided.
fn values(net: &Network, name: &str) -> Vec<Value> {
    let id = net
        .check_named(name)
        .unwrap_or_else(|| panic!("no check `{name}`"));
    let answer = checker::check_bounds(
        net,
        id,
        &Options::default(),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(answer.result.verdict, Verdict::Holds, "{name}");
    answer.values
}

fn le(bound: i32) -> Value {
    Value::Clock {
        bound,
        strict: false,
    }
}

fn lt(bound: i32) -> Value {
    Value::Clock {
        bound,
        strict: true,
    }
}

/// `a` is left at `x == 10` exactly (invariant `x <= 10`, guard
/// `x >= 10`), resetting `y`; `b` and `c` have no edges, and `y <= 3` /
/// `y < 3` bound the stay there. So in `b`, `x - y == 10` and `x` reaches
/// 13; in `c` it approaches 13. Before the reset `y == x <= 10`. The bound
/// 13 is above every constant of the model (10), which the first
/// exploration's threshold is: zeno must raise it to answer exactly.
const TIMELOCK: &str = "
template P() {
    clock x, y;
    init location a invariant x <= 10;
    location b invariant y <= 3;
    location c invariant y < 3;
    a -> b when x >= 10 do y = 0;
    a -> c when x >= 10 do y = 0;
}
system P;
check b_x: sup{P.b}: P.x;
check c_x: sup{P.c}: P.x;
check both: sup: P.x, P.y;
check entry: inf{P.b}: P.x, P.y;
check c_entry: inf{P.c && P.y > 1}: P.y, P.x;
check window: sup{P.x > 11 && P.x < 12}: P.y;
";

#[test]
fn clock_bounds_strict_and_not_above_the_models_constants() {
    let net = network(TIMELOCK);
    assert_eq!(values(&net, "b_x"), [le(13)]);
    assert_eq!(values(&net, "c_x"), [lt(13)]);
    assert_eq!(values(&net, "both"), [le(13), le(10)]);
    assert_eq!(
        values(&net, "entry"),
        [
            Value::Clock {
                bound: 10,
                strict: false
            },
            Value::Clock {
                bound: 0,
                strict: false
            }
        ]
    );
    // In `c` with `y > 1`: `y` just above 1, and `x == y + 10` just above 11.
    assert_eq!(
        values(&net, "c_entry"),
        [
            Value::Clock {
                bound: 1,
                strict: true
            },
            Value::Clock {
                bound: 11,
                strict: true
            }
        ]
    );
    // `11 < x < 12` only in `b` or `c` (in `a`, `x <= 10`), where
    // `y == x - 10`: `1 < y < 2`.
    assert_eq!(values(&net, "window"), [lt(2)]);
}

/// `a` loops while `n < 3` (each loop `n++`, `x` reset), and leaves for `b`
/// once `x > 4`; `b` has no invariant, so time passes there for ever: `x`
/// and `y` are unbounded. `n` takes 0, 1, 2, 3. `c` is reached from `b`
/// while `y < 2`, with `n` at most 3, so no state has `c && n > 5`.
const UNBOUNDED: &str = "
int n = 0;
template P() {
    clock x, y;
    init location a invariant x <= 5;
    location b;
    location c;
    a -> a when x >= 2 && n < 3 do n = n + 1, x = 0;
    a -> b when x > 4 do y = 0;
    b -> c when y < 2;
}
system P;
check sup_all: sup: P.x, n;
check sup_b: sup{P.b}: P.y;
check inf_b: inf{P.b}: P.x;
check inf_n: inf: n;
check inf_n_in_b: inf{P.b && n > 0}: n;
check none: sup{P.c && n > 5}: n, P.x;
check in_a: sup{P.a}: P.x, n;
";

#[test]
fn infinite_suprema_integer_extrema_and_no_state() {
    let net = network(UNBOUNDED);
    assert_eq!(values(&net, "sup_all"), [Value::Infinite, Value::Int(3)]);
    assert_eq!(values(&net, "sup_b"), [Value::Infinite]);
    // `a -> b` needs `x > 4`: the infimum is not reached.
    assert_eq!(values(&net, "inf_b"), [lt_lower(4)]);
    assert_eq!(values(&net, "inf_n"), [Value::Int(0)]);
    assert_eq!(values(&net, "inf_n_in_b"), [Value::Int(1)]);
    assert_eq!(values(&net, "none"), [Value::NoState, Value::NoState]);
    assert_eq!(values(&net, "in_a"), [le(5), Value::Int(3)]);
}

/// An infimum `x > c`: the strict lower bound.
fn lt_lower(bound: i32) -> Value {
    Value::Clock {
        bound,
        strict: true,
    }
}

/// `x` is never reset and grows for ever, but every location bounds `y`
/// (reset at each loop), so time never passes for ever in one state: zeno
/// cannot prove the supremum infinite, and must not answer a number.
const UNDECIDED: &str = "
template P() {
    clock x, y;
    init location a invariant y <= 1;
    a -> a when y >= 1 do y = 0;
}
system P;
check grows: sup: P.x;
";

#[test]
fn a_supremum_zeno_cannot_decide_is_not_answered_with_a_number() {
    let net = network(UNDECIDED);
    let v = values(&net, "grows");
    assert!(matches!(v[..], [Value::Above(t)] if t >= 1), "{v:?}");
    let dir = scratch("value_queries_undecided");
    let file = dir.join("grows.zeno");
    std::fs::write(&file, UNDECIDED).unwrap();
    let out = zeno(&["check", path(&file), "--format", "json"]);
    // Undecided: `unknown`, exit 3, never a pass.
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let check = &json["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "unknown");
    assert_eq!(check["values"][0]["decided"], false);
    assert_eq!(check["values"][0]["bound"], serde_json::Value::Null);
}

/// `deadlock` as the predicate: `b` has no edges and no invariant (every
/// state there is deadlocked, and `x` grows for ever); `d` has no edges and
/// `x <= 4` after a reset. `a` is never deadlocked (`a -> b` is enabled
/// from `x == 2` to the invariant's 5).
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
check dead: sup{deadlock}: P.x;
check dead_d: sup{deadlock && P.d}: P.x;
check dead_b: inf{deadlock && P.b}: P.x;
check live: sup{not deadlock}: P.x;
";

#[test]
fn deadlock_as_the_predicate() {
    let net = network(DEADLOCKS);
    assert_eq!(values(&net, "dead"), [Value::Infinite]);
    assert_eq!(values(&net, "dead_d"), [le(4)]);
    assert_eq!(
        values(&net, "dead_b"),
        [Value::Clock {
            bound: 2,
            strict: false
        }]
    );
    // Only `a` is not deadlocked: `x <= 5`.
    assert_eq!(values(&net, "live"), [le(5)]);
}

#[test]
fn bad_terms_are_located_errors() {
    let model = |check: &str| {
        format!(
            "bool flag; chan go; int[0, 3] n;
template P() {{ clock x, y; init location a; a -> a when flag do n = 1; }}
system P;
check q: {check};"
        )
    };
    for (check, at, words) in [
        ("sup: flag", "flag", "a clock or an integer expression"),
        ("sup: go", "go", ""),
        ("inf: P.x - P.y", "P.x - P.y", "not a difference of clocks"),
        ("sup: P.x > 3", "P.x > 3", ""),
        ("sup: Q.x", "Q", "unknown process `Q`"),
        ("sup{Q.a}: n", "Q", "unknown process `Q`"),
        ("sup: P.z", "z", "no location or variable `z`"),
    ] {
        let text = model(check);
        let errors = support::errors(&text);
        assert!(
            errors.iter().any(|(m, on)| on == at && m.contains(words)),
            "{check}: {errors:?}"
        );
    }
    // A value query is no place for a path quantifier, and `sup` needs `:`.
    assert!(!support::errors(&model("sup n")).is_empty());
}

#[test]
fn a_check_may_still_be_named_sup() {
    let net = network(
        "int n; template P() { init location a; a -> a when n < 2 do n = n + 1; }
         system P;
         check sup: A[] n <= 2;
         check inf: sup: n;",
    );
    assert_eq!(net.checks[0].name, "sup");
    assert!(matches!(
        net.checks[0].kind,
        zeno::ir::CheckKind::Invariant(_)
    ));
    assert_eq!(values(&net, "inf"), [Value::Int(2)]);
}

#[test]
fn text_json_sarif_and_the_exit_code() {
    let dir = scratch("value_queries_cli");
    let file = dir.join("timelock.zeno");
    std::fs::write(&file, TIMELOCK).unwrap();
    let out = zeno(&["check", path(&file), "--check", "both"]);
    // An answer is no failure: exit 0.
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("both: sup: P.x <= 13, P.y <= 10"),
        "{}",
        stdout(&out)
    );
    let out = zeno(&["check", path(&file), "--check", "c_x", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let check = &json["files"][0]["checks"][0];
    assert_eq!(check["kind"], "sup");
    assert_eq!(check["verdict"], "holds");
    assert_eq!(check["summary"], "sup: P.x < 13");
    let v = &check["values"][0];
    assert_eq!(v["term"], "P.x");
    assert_eq!(v["bound"], 13);
    assert_eq!(v["strict"], true);
    assert_eq!(v["infinite"], false);
    assert_eq!(v["decided"], true);
    let out = zeno(&["check", path(&file), "--check", "b_x", "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let note = results
        .iter()
        .find(|r| r["ruleId"] == "value")
        .unwrap_or_else(|| panic!("{results:?}"));
    assert_eq!(note["level"], "note");
    // The answer, then the formula as written (every SARIF result names it).
    assert_eq!(
        note["message"]["text"],
        "b_x: sup: P.x <= 13 (sup{P.b}: P.x)"
    );

    // Unbounded, with a failing check beside it: the exit code is the check's.
    let file = dir.join("unbounded.zeno");
    std::fs::write(&file, format!("{UNBOUNDED}\ncheck wrong: A[] n < 3;")).unwrap();
    let out = zeno(&["check", path(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("sup_all: sup: P.x = ∞, n = 3"), "{text}");
    assert!(
        text.contains("none: sup: no reachable state satisfies the predicate"),
        "{text}"
    );
}

/// The same timelock model in UPPAAL's XML format, its queries in the file
/// and in a `.q` file (`sup{P.b}: P.x` reads `P.x` where `P` is in `b`).
#[test]
fn imported_uppaal_value_queries() {
    let dir = scratch("value_queries_import");
    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<nta>
<declaration>int n;</declaration>
<template><name>P</name><declaration>clock x, y;</declaration>
<location id="a"><name>a</name><label kind="invariant">x &lt;= 10</label></location>
<location id="b"><name>b</name><label kind="invariant">y &lt;= 3</label></location>
<init ref="a"/>
<transition><source ref="a"/><target ref="b"/><label kind="guard">x &gt;= 10</label><label kind="assignment">y = 0, n = 2</label></transition>
</template>
<system>system P;</system>
<queries>
<query><formula>sup{P.b}: P.x, n</formula><comment></comment></query>
<query><formula>inf{P.b}: P.x</formula><comment></comment></query>
</queries>
</nta>"#;
    let file = dir.join("timelock.xml");
    std::fs::write(&file, xml).unwrap();
    let out = zeno(&["check", path(&file)]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("sup: P.x <= 13, n = 2"), "{text}");
    assert!(text.contains("inf: P.x >= 10"), "{text}");
    let queries = dir.join("more.q");
    std::fs::write(&queries, "// the largest y\nsup: P.y\ninf{P.a}: n\n").unwrap();
    let out = zeno(&["check", path(&file), "--queries", path(&queries)]);
    let text = stdout(&out);
    // `y == x <= 10` in `a`, `y <= 3` in `b`; `n` is 0 in `a`.
    assert!(text.contains("sup: P.y <= 10"), "{text}");
    assert!(text.contains("inf: n = 0"), "{text}");
    // A value query from a query file is named, described and placed like
    // any other query there: "the largest y" is not one word, so the check
    // is `line2` with that comment, at line 2 of more.q.
    let out = zeno(&[
        "check",
        path(&file),
        "--queries",
        path(&queries),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let checks = v["files"][0]["checks"].as_array().expect("checks");
    let c = checks
        .iter()
        .find(|c| c["name"] == "line2")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(c["formula"], "sup: P.y", "{v}");
    assert_eq!(c["comment"], "the largest y", "{v}");
    assert_eq!(c["path"], path(&queries), "{v}");
    assert_eq!(c["range"]["start"]["line"], 2, "{v}");
}

/// The language server shows a value query's answer as information on the
/// check's name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_server_shows_the_answer() {
    use crate::support::lsp_client::{TestClient, position};
    let uri = "file:///models/timelock.zeno";
    let mut c = TestClient::start().await;
    c.initialize(serde_json::json!({"debounceMs": 0})).await;
    c.open(uri, TIMELOCK).await;
    let published = loop {
        let d = c.diagnostics_when_quiescent(uri).await;
        if d["version"] == 1 {
            break d;
        }
    };
    let at = position(
        TIMELOCK,
        TIMELOCK.find("check both:").unwrap() + "check ".len(),
    );
    let diagnostics = published["diagnostics"].as_array().unwrap();
    let both = diagnostics
        .iter()
        .find(|d| d["code"] == "check" && d["range"]["start"] == at)
        .unwrap_or_else(|| panic!("{published}"));
    // Information (3), with the values.
    assert_eq!(both["severity"], 3, "{both}");
    let message = both["message"].as_str().unwrap();
    assert!(
        message.starts_with("sup: P.x <= 13, P.y <= 10, "),
        "{message}"
    );
}

/// A stopwatch model's zones over-approximate its valuations: `x` stopped
/// in `b` while `y` runs, so the zone after the delay in `b` allows `x`
/// values the model never has. A `sup` read from those zones could be too
/// wide, so the query is not answered with a number (limit `stopwatches`).
#[test]
fn value_queries_on_stopwatch_models_are_not_answered() {
    let net = network(
        "template P() {
            clock x, y;
            init location a invariant x <= 2;
            location b invariant y <= 5 && x' == 0;
            a -> b when x >= 1 do y = 0;
        }
        system P;
        check s: sup{P.b}: P.x;",
    );
    let id = net.check_named("s").expect("check s");
    let answer = checker::check_bounds(
        &net,
        id,
        &Options::default(),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(
        answer.result.verdict,
        Verdict::Unknown(zeno::checker::Limit::Stopwatches)
    );
    assert!(answer.values.is_empty(), "{:?}", answer.values);
}
