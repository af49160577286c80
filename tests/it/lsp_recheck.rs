//! Verdicts stay visible while the text changes: after an edit, the first
//! diagnostics of the new version still carry the last verdicts, marked as
//! being re-checked and moved with their check; the fresh verdicts replace
//! them when the checks are done.

use serde_json::{Value, json};

use crate::support::lsp_client::{TestClient, position};

const FISCHER_BUGGY: &str = include_str!("../../models/fischer-buggy.zeno");
const RECHECKING: &str = " (re-checking…)";

/// The verdict diagnostics of a publish: code `check` for the current
/// text's, `stale-check` for an earlier text's (always marked).
fn checks(published: &Value) -> Vec<Value> {
    let all: Vec<Value> = published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "check" || d["code"] == "stale-check")
        .cloned()
        .collect();
    for d in &all {
        let marked = d["message"].as_str().unwrap().contains("re-check");
        assert_eq!(d["code"] == "stale-check", marked, "{d}");
    }
    all
}

/// The check diagnostic starting at `at`, if any.
fn check_at(published: &Value, at: &Value) -> Option<Value> {
    checks(published)
        .into_iter()
        .find(|d| &d["range"]["start"] == at)
}

/// The first publish for `version` (earlier ones are skipped).
async fn first_publish(c: &mut TestClient, uri: &str, version: i32) -> Value {
    c.wait_for("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri && p["version"] == version
    })
    .await
}

/// The last publish before the server is quiescent with `version` checked.
async fn settled(c: &mut TestClient, uri: &str, version: i32) -> Value {
    loop {
        let d = c.diagnostics_when_quiescent(uri).await;
        if d["version"] == version {
            return d;
        }
    }
}

fn name_position(text: &str, check: &str) -> Value {
    position(
        text,
        text.find(&format!("check {check}:")).unwrap() + "check ".len(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verdicts_stay_visible_while_rechecking() {
    let uri = "file:///models/recheck.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0})).await;
    c.open(uri, FISCHER_BUGGY).await;
    let done = settled(&mut c, uri, 1).await;
    let mutex = check_at(&done, &name_position(FISCHER_BUGGY, "mutex")).expect("a verdict");
    let verdict = mutex["message"].as_str().unwrap().to_string();
    assert!(verdict.starts_with("violated: trace of "), "{mutex}");
    assert_eq!(mutex["severity"], 1);

    // A line inserted at the top moves every check down by one line.
    let v2 = format!("// moved\n{FISCHER_BUGGY}");
    c.change(
        uri,
        2,
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "text": "// moved\n"}]),
    )
    .await;
    let first = first_publish(&mut c, uri, 2).await;
    let at = name_position(&v2, "mutex");
    let kept = check_at(&first, &at)
        .unwrap_or_else(|| panic!("no verdict on `mutex` at {at} right after the edit: {first}"));
    assert_eq!(
        kept["message"].as_str().unwrap(),
        format!("{verdict}{RECHECKING}"),
        "{kept}"
    );
    assert_eq!(kept["severity"], 1, "{kept}");
    // Every check keeps its verdict, each marked.
    let marked = checks(&first);
    assert_eq!(marked.len(), 3, "{first}");
    assert!(
        marked
            .iter()
            .all(|d| d["message"].as_str().unwrap().ends_with(RECHECKING)),
        "{first}"
    );
    // The fresh verdict replaces it, unmarked.
    let fresh = settled(&mut c, uri, 2).await;
    let mutex = check_at(&fresh, &at).expect("the fresh verdict");
    let message = mutex["message"].as_str().unwrap();
    assert!(message.starts_with("violated: trace of "), "{mutex}");
    assert!(!message.contains("re-checking"), "{mutex}");
    assert!(
        checks(&fresh)
            .iter()
            .all(|d| !d["message"].as_str().unwrap().contains("re-checking")),
        "{fresh}"
    );

    // Renaming a check drops its old verdict; the others stay marked.
    let from = v2.find("check mutex:").unwrap() + "check mutex".len();
    let v3 = format!("{}ual{}", &v2[..from], &v2[from..]);
    c.change(
        uri,
        3,
        json!([{"range": {"start": position(&v2, from), "end": position(&v2, from)}, "text": "ual"}]),
    )
    .await;
    let first = first_publish(&mut c, uri, 3).await;
    let marked = checks(&first);
    assert_eq!(marked.len(), 2, "only can_enter and no_deadlock: {first}");
    assert!(
        check_at(&first, &name_position(&v3, "mutexual")).is_none(),
        "{first}"
    );
    assert!(
        check_at(&first, &name_position(&v3, "can_enter")).is_some(),
        "{first}"
    );
    let fresh = settled(&mut c, uri, 3).await;
    let renamed =
        check_at(&fresh, &name_position(&v3, "mutexual")).expect("the renamed check's verdict");
    assert!(
        renamed["message"]
            .as_str()
            .unwrap()
            .starts_with("violated: trace of "),
        "{renamed}"
    );

    // A syntax error: nothing can be checked, so the verdicts stay, saying so.
    let end = v3.len();
    c.change(
        uri,
        4,
        json!([{"range": {"start": position(&v3, end), "end": position(&v3, end)}, "text": "check broken: A[] (\n"}]),
    )
    .await;
    let first = first_publish(&mut c, uri, 4).await;
    assert!(
        check_at(&first, &name_position(&v3, "mutexual"))
            .is_some_and(|d| d["message"].as_str().unwrap().ends_with(RECHECKING)),
        "{first}"
    );
    let after = settled(&mut c, uri, 4).await;
    let renamed = check_at(&after, &name_position(&v3, "mutexual")).expect("still shown");
    assert!(
        renamed["message"]
            .as_str()
            .unwrap()
            .ends_with("(not re-checked: the model has errors)"),
        "{renamed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_save_verdicts_wait_for_the_save() {
    let uri = "file:///models/recheck-save.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0, "checkOn": "save"}))
        .await;
    c.open(uri, FISCHER_BUGGY).await;
    settled(&mut c, uri, 1).await;
    c.change(
        uri,
        2,
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "text": "// edited\n"}]),
    )
    .await;
    let v2 = format!("// edited\n{FISCHER_BUGGY}");
    let first = first_publish(&mut c, uri, 2).await;
    let kept = check_at(&first, &name_position(&v2, "mutex")).expect("kept");
    assert!(
        kept["message"]
            .as_str()
            .unwrap()
            .ends_with("(not re-checked since the last edit: checks run on save)"),
        "{kept}"
    );
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    )
    .await;
    let fresh = settled(&mut c, uri, 2).await;
    let mutex = check_at(&fresh, &name_position(&v2, "mutex")).expect("fresh");
    assert!(
        !mutex["message"].as_str().unwrap().contains("re-checked"),
        "{mutex}"
    );
}
