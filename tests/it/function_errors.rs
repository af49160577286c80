//! Run-time errors inside functions name the function and the line of the
//! statement, in the library's words (`report`), the CLI's text, JSON and
//! SARIF, and the language server's diagnostic. The models are written so
//! that the failing call, statement and step count can be worked out by
//! hand; every search order must agree, and every trace is replayed by the
//! independent simulator (which locates the error on its own).

use serde_json::{Value, json};
use zeno::checker::{Cancel, CheckResult, Options, SearchOrder, Verdict, check};
use zeno::ir::{ErrorKind, Network};
use zeno::report::describe_error;
use zeno::semantics::analyze;

use crate::support;
use support::cli::{stdout, zeno_with_stdin};
use support::lsp_client::TestClient;

/// `enqueue(len)` fills `list[0..3]` with 0, 1, 2; the fourth call writes
/// `list[3]` on line 4: three steps, then the failing one.
const QUEUE: &str = "int[0, 3] len = 0;
int[0, 9] list[3];
void enqueue(int[0, 9] e) {
    list[len] = e;
    len++;
}
template P() {
    init location a;
    a -> a do enqueue(len);
}
system P;
check c: A[] true;
";

/// A template's own function calls a global one: `k` goes 2, 1, 0 and the
/// second `step()` divides by 0 inside `ratio` (line 3), the innermost.
const NESTED: &str = "int[0, 5] k = 2;
int ratio(int d) {
    return 10 / d;
}
template T() {
    int[0, 100] r = 0;
    void step() {
        k--;
        r = ratio(k);
    }
    init location a;
    a -> a when k > 0 do step();
}
system T;
check c: A[] true;
";

/// A template's own function, after text that moves the template: `c`
/// goes 0, 1, 2, 3; the fourth `tick()` sets its local `t` (`int[0, 2]`)
/// to 3 on line 6.
const LOCAL: &str = "// a comment that moves the template down
int[0, 1] unused;
template U() {
    int[0, 3] c = 0;
    void tick() {
        int[0, 2] t = c;
        c = t + 1;
    }
    init location a;
    a -> a do tick();
}
system U;
check c: A[] true;
";

fn network(text: &str) -> Network {
    let a = analyze(text);
    a.network.unwrap_or_else(|| panic!("{:#?}", a.diagnostics))
}

/// Every search order: a model error of `kind` after `steps` steps, whose
/// words are `words`; each trace replayed by the simulator. Returns BFS's.
fn model_error(net: &Network, kind: ErrorKind, steps: usize, words: &str) -> CheckResult {
    let mut bfs = None;
    for order in SearchOrder::ALL {
        let options = Options {
            config: zeno::checker::config::Config {
                search: order,
                ..Default::default()
            },
            seed: 3,
            ..Options::default()
        };
        let k = net.check_at(0).unwrap();
        let r = check(
            net,
            k,
            &options,
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        let Verdict::ModelError(e) = r.verdict else {
            panic!("{order:?}: {:?}", r.verdict);
        };
        assert_eq!(e.kind, kind, "{order:?}");
        assert_eq!(describe_error(net, &e), words, "{order:?}");
        let t = r.trace.as_ref().expect("a trace to the error");
        // One reachable error state and one way there: every order finds it.
        assert_eq!(t.len(), steps, "{order:?}");
        if let Err(why) = support::simulator::replay(net, 0, t) {
            panic!("{order:?}: the simulator rejects the trace: {why}");
        }
        if order == SearchOrder::Bfs {
            bfs = Some(r);
        }
    }
    bfs.unwrap()
}

/// The text a span covers.
fn text_at(text: &str, span: zeno::text::Span) -> &str {
    &text[span.start as usize..span.end as usize]
}

#[test]
fn an_index_error_names_the_function_and_its_line() {
    let net = network(QUEUE);
    let r = model_error(
        &net,
        ErrorKind::IndexOutOfBounds { index: 3, len: 3 },
        3,
        "array index 3 is out of bounds 0..3, in function `enqueue` at line 4",
    );
    let Verdict::ModelError(e) = r.verdict else {
        unreachable!()
    };
    let site = e.site.expect("a site");
    assert_eq!(text_at(QUEUE, site.statement), "list[len] = e;");
    assert_eq!(text_at(QUEUE, site.function), "enqueue");
}

#[test]
fn the_innermost_function_is_named() {
    let net = network(NESTED);
    let r = model_error(
        &net,
        ErrorKind::DivisionByZero,
        1,
        "division by zero, in function `ratio` at line 3",
    );
    let Verdict::ModelError(e) = r.verdict else {
        unreachable!()
    };
    assert_eq!(text_at(NESTED, e.site.unwrap().statement), "return 10 / d;");
}

#[test]
fn a_template_functions_statement_is_placed_in_the_file() {
    let net = network(LOCAL);
    let r = model_error(
        &net,
        ErrorKind::OutOfRange {
            var: zeno::ir::FRAME,
            value: 3,
            lo: 0,
            hi: 2,
        },
        3,
        "value 3 is outside the range [0, 2] of a parameter or local variable, \
         in function `tick` at line 6",
    );
    let Verdict::ModelError(e) = r.verdict else {
        unreachable!()
    };
    let site = e.site.unwrap();
    assert_eq!(text_at(LOCAL, site.statement), "int[0, 2] t = c;");
    assert_eq!(text_at(LOCAL, site.function), "tick");
}

#[test]
fn an_argument_out_of_range_is_the_callers() {
    // `put(n + 1)` with n = 0, 1, 2: the third call passes 3 to an
    // `int[0, 2]` parameter. The assignment of the argument belongs to the
    // call in `step` (line 4), not to `put`'s body.
    let text = "int[0, 5] n = 0;
void put(int[0, 2] v) { n = v; }
void step() {
    put(n + 1);
}
template P() { init location a; a -> a do step(); }
system P;
check c: A[] true;
";
    model_error(
        &network(text),
        ErrorKind::OutOfRange {
            var: zeno::ir::FRAME,
            value: 3,
            lo: 0,
            hi: 2,
        },
        2,
        "value 3 is outside the range [0, 2] of a parameter or local variable, \
         in function `step` at line 4",
    );
}

fn check_json(text: &str, format: &str) -> Value {
    let o = zeno_with_stdin(&["check", "-", "--search", "bfs", "--format", format], text);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    serde_json::from_slice(&o.stdout).expect("stdout is JSON")
}

#[test]
fn the_cli_names_the_function_and_line_in_text_json_and_sarif() {
    let words = "array index 3 is out of bounds 0..3, in function `enqueue` at line 4";
    let o = zeno_with_stdin(&["check", "-", "--search", "bfs"], QUEUE);
    let out = stdout(&o);
    assert!(
        out.contains(&format!("model error: {words} — trace of 3 steps")),
        "{out}"
    );

    let doc = check_json(QUEUE, "json");
    let c = &doc["files"][0]["checks"][0];
    assert_eq!(c["error"], words);
    let end = &c["trace"]["end"];
    assert_eq!(end["kind"], "model_error");
    // Lines and columns from 1: `list[len] = e;` is line 4, column 5.
    assert_eq!(end["statement"]["start"]["line"], 4, "{end}");
    assert_eq!(end["statement"]["start"]["column"], 5, "{end}");

    let doc = check_json(QUEUE, "sarif");
    let result = &doc["runs"][0]["results"][0];
    assert!(
        result["message"]["text"].as_str().unwrap().contains(words),
        "{result}"
    );
    let flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap();
    let last = &flow.last().unwrap()["location"];
    assert_eq!(last["physicalLocation"]["region"]["startLine"], 4, "{last}");
    assert!(
        last["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("the failing statement: ")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_diagnostic_names_the_function_and_points_at_the_statement() {
    let uri = "file:///queue.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 20, "search": "bfs"}}))
        .await;
    c.open(uri, QUEUE).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    let d = done["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().starts_with("model error: "))
        .unwrap_or_else(|| panic!("no model error in {done}"));
    let message = d["message"].as_str().unwrap();
    assert!(
        message.contains("in function `enqueue` at line 4, after a trace of 3 steps"),
        "{message}"
    );
    let statement = d["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["message"]
                .as_str()
                .unwrap()
                .starts_with("the failing statement")
        })
        .unwrap_or_else(|| panic!("no related statement in {d}"));
    // LSP lines count from 0: line 4 of the file is 3.
    assert_eq!(statement["location"]["range"]["start"]["line"], 3);
    assert_eq!(statement["location"]["range"]["start"]["character"], 4);
}
