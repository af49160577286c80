//! The analysis of a document runs off the notification handler and
//! outside the server's state lock: a slow analysis of one text does not
//! hold up the next edit or a request, and once a newer text came it is
//! never published (diagnostics go out only for the last text).

use serde_json::{Value, json};

use crate::support::lsp_client::{TestClient, position};

/// A model whose analysis takes a while: 3,000 templates (some 300 KB).
fn large_model() -> String {
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "template T{i}() {{\n    clock x;\n    init location a;\n    location b;\n    a -> b when x > 1;\n}}\n\n"
        ));
    }
    let names: Vec<String> = (0..3000).map(|i| format!("T{i}")).collect();
    text.push_str(&format!("system {};\n", names.join(", ")));
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_analysis_gives_way_to_the_next_edit() {
    let uri = "file:///slow.zeno";
    let small = "const int K = 7;\nint y = K + zz;\n";
    let mut c = TestClient::start().await;
    c.initialize(json!({"debounceMs": 10})).await;
    // The large text, then at once a small one replacing it, then a
    // request about the small one.
    c.open(uri, &large_model()).await;
    c.change(uri, 2, json!([{"text": small}])).await;
    let hover = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position(small, small.find("K +").unwrap())}),
        )
        .await;
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(shown.contains("K = 7"), "{hover}");
    // Every diagnostic published is for version 2: the large text's
    // analysis gave way (its handler returned before it was done, and it
    // was not published once version 2 came).
    let mut published: Vec<Value> = Vec::new();
    loop {
        let msg = c.next_pending().await;
        if msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri {
            published.push(msg["params"].clone());
        }
        if msg["method"] == "zeno/serverStatus" && msg["params"]["quiescent"] == true {
            break;
        }
    }
    assert!(!published.is_empty());
    for p in &published {
        assert_eq!(p["version"], 2, "{p}");
    }
    let last = published.last().unwrap();
    let unknown = last["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("`zz`"))
        .unwrap_or_else(|| panic!("no diagnostic on `zz`: {last}"));
    assert_eq!(
        unknown["range"]["start"],
        position(small, small.find("zz").unwrap()),
        "{last}"
    );
    // The document is the small one, at version 2.
    let text = c.request("zeno/documentText", json!({"uri": uri})).await;
    assert_eq!(
        text["result"],
        json!({"version": 2, "text": small}),
        "{text}"
    );
}
