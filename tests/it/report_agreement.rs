//! One model error reads the same everywhere: the CLI's text and JSON, the
//! language server's diagnostic and `zeno/errorTrace`, `zeno trace` as text,
//! JSON and SVG all name the variable (`of `n``), never `variable #0`.

use serde_json::json;

use crate::support;

use support::cli::*;
use support::lsp_client::TestClient;

const MODEL: &str = include_str!("../data/cli/overflow.zeno");
/// Worked out by hand from the model: `n` starts at 0 and `n++` is taken
/// three times; the fourth would store 4 into `int[0, 3] n`.
const ERROR: &str = "value 4 is outside the range [0, 3] of `n`";

#[test]
fn the_command_line_names_the_variable() {
    let file = data_file("cli", "overflow.zeno");
    let o = zeno(&["check", &file]);
    assert!(
        stdout(&o).contains(&format!("small: model error: {ERROR} — trace of 3 steps")),
        "{}",
        stdout(&o)
    );
    let o = zeno(&["check", &file, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["files"][0]["checks"][0]["error"], ERROR);
    assert_eq!(
        doc["files"][0]["checks"][0]["trace"]["end"]["error"], ERROR,
        "{doc}"
    );
    for format in ["text", "json", "svg"] {
        let o = zeno(&["trace", &file, "--check", "small", "--format", format]);
        let out = stdout(&o);
        assert!(
            out.contains(ERROR) || out.contains(&ERROR.replace('`', "\\u0060")),
            "zeno trace --format {format}: {out}"
        );
        assert!(
            !out.contains("variable #"),
            "zeno trace --format {format}: {out}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_server_names_the_variable() {
    let uri = "file:///models/overflow.zeno";
    let mut c = TestClient::start().await;
    c.initialize(json!({"zeno": {"debounceMs": 0}})).await;
    c.open(uri, MODEL).await;
    let done = c.diagnostics_when_quiescent(uri).await;
    let messages: Vec<&str> = done["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with(&format!("model error: {ERROR}, after a trace of 3 steps"))),
        "{messages:?}"
    );
    let trace = c
        .request("zeno/errorTrace", json!({"uri": uri, "check": "small"}))
        .await;
    assert_eq!(trace["result"]["end"]["error"], ERROR, "{trace}");
}
