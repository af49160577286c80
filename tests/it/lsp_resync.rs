//! An edit whose version is not above the last one applied (a client that
//! numbers a reopened document afresh) is applied, not dropped: the server
//! logs it and publishes the diagnostics of the new text. It used to drop
//! the edit silently and leave the old diagnostics.

use serde_json::json;

use crate::support::lsp_client::TestClient;

const BROKEN: &str = "int x = ;\n";
const FIXED: &str = "int x = 1;\ntemplate T() { init location a; }\nsystem T;\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_with_an_old_version_resynchronises() {
    let uri = "file:///models/resync.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 0, "checkOn": "save"}))
        .await;
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "zeno", "version": 5, "text": BROKEN}}),
    )
    .await;
    let first = c
        .wait_for("textDocument/publishDiagnostics", |p| p["uri"] == uri)
        .await;
    let errors = |p: &serde_json::Value| {
        p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == 1)
            .count()
    };
    assert!(errors(&first) > 0, "{first}");

    // Version 1, below 5: the whole text, fixed.
    c.change(uri, 1, json!([{"text": FIXED}])).await;
    let log = c
        .wait_for("window/logMessage", |p| {
            p["message"].as_str().unwrap_or("").contains("version 1")
        })
        .await;
    assert!(
        log["message"]
            .as_str()
            .unwrap()
            .contains("not above the last applied (5)"),
        "{log}"
    );
    let after = c
        .wait_for("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri && p["version"] == 1
        })
        .await;
    assert_eq!(errors(&after), 0, "{after}");

    // The next edit in the new numbering applies on top: `x = 1;` becomes
    // `x = ;` again, an error at line 1.
    c.change(
        uri,
        2,
        json!([{"range": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 9}},
            "text": ""}]),
    )
    .await;
    let again = c
        .wait_for("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri && p["version"] == 2
        })
        .await;
    assert!(errors(&again) > 0, "{again}");
}
