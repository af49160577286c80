//! The search orders and heuristics the editors offer are exactly those the
//! checker and `zeno check` accept, and the language server names the same
//! ones: the lists live in several files (VS Code's package.json and
//! settings, the Neovim plugin, the READMEs), and this keeps them from
//! drifting apart again.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::lsp_client::TestClient;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The names the checker lists in its own error message for `config`.
fn checker_list(config: &str) -> Vec<String> {
    let err = zeno::checker::config::parse(config)
        .unwrap_err()
        .to_string();
    let list = err
        .split("expected one of ")
        .nth(1)
        .unwrap_or_else(|| panic!("{err}"));
    list.trim_end_matches(')')
        .split(", ")
        .map(str::to_string)
        .collect()
}

/// The values `zeno check` accepts for `flag`, from its error message.
fn cli_list(flag: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(["check", flag, "nope", "model.zeno"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let list = err
        .split("[possible values: ")
        .nth(1)
        .and_then(|s| s.split(']').next())
        .unwrap_or_else(|| panic!("{err}"));
    list.split(", ").map(str::to_string).collect()
}

/// The quoted strings (either quote) of the first bracketed list after
/// `marker` in `text`.
fn quoted_after(text: &str, marker: &str, open: char, close: char) -> Vec<String> {
    let start = text.find(marker).unwrap_or_else(|| panic!("no `{marker}`"));
    let rest = &text[start + marker.len()..];
    let from = rest.find(open).unwrap() + 1;
    let to = from + rest[from..].find(close).unwrap();
    rest[from..to]
        .split(',')
        .map(|s| s.trim().trim_matches(['"', '\'']).to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The backquoted words in the parentheses after `marker` (a README's
/// "`zeno.search` (`bfs`, `dfs`, ...)").
fn backquoted_after(text: &str, marker: &str) -> Vec<String> {
    let start = text.find(marker).unwrap_or_else(|| panic!("no `{marker}`"));
    let rest = &text[start + marker.len()..];
    let from = rest.find('(').unwrap() + 1;
    let to = from + rest[from..].find(')').unwrap();
    rest[from..to]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The values of a table row "| `zeno.search` | `bfs`, ... or `astar` |".
fn row_values(text: &str, setting: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("| `{setting}` |")))
        .unwrap_or_else(|| panic!("no row for {setting}"));
    let values = line.split('|').nth(2).unwrap();
    values
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn every_list_of_search_orders_and_heuristics_is_the_checkers() {
    let orders = checker_list("nope");
    let heuristics = checker_list("greedy:nope");
    assert!(heuristics.contains(&"hcg".to_string()), "{heuristics:?}");
    assert_eq!(cli_list("--search"), orders, "zeno check --search");
    assert_eq!(
        cli_list("--heuristic"),
        heuristics,
        "zeno check --heuristic"
    );

    let package: Value = serde_json::from_str(&read("editors/vscode/package.json")).unwrap();
    let props = &package["contributes"]["configuration"]["properties"];
    let list = |key: &str| -> Vec<String> {
        props[key]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("no enum for {key}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(list("zeno.search"), orders, "package.json zeno.search");
    assert_eq!(
        list("zeno.heuristic"),
        heuristics,
        "package.json zeno.heuristic"
    );
    // The trace debugger's launch attribute `search` (zeno dap reads it).
    let debug_search: Vec<String> = package["contributes"]["debuggers"][0]
        ["configurationAttributes"]["launch"]["properties"]["search"]["enum"]
        .as_array()
        .expect("the debugger's search enum")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(debug_search, orders, "package.json debuggers: search");

    let ts = read("editors/vscode/src/settings.ts");
    assert_eq!(
        quoted_after(&ts, "export const SEARCH_ORDERS", '[', ']'),
        orders,
        "settings.ts"
    );
    assert_eq!(
        quoted_after(&ts, "export const HEURISTICS", '[', ']'),
        heuristics,
        "settings.ts"
    );

    let lua = read("editors/nvim/lua/zeno/init.lua");
    assert_eq!(
        quoted_after(&lua, "M.SEARCH_ORDERS =", '{', '}'),
        orders,
        "init.lua"
    );
    assert_eq!(
        quoted_after(&lua, "M.HEURISTICS =", '{', '}'),
        heuristics,
        "init.lua"
    );

    let readme = read("editors/README.md");
    assert_eq!(
        backquoted_after(&readme, "`zeno.search`"),
        orders,
        "editors/README.md"
    );
    assert_eq!(
        backquoted_after(&readme, "`zeno.heuristic`"),
        heuristics,
        "editors/README.md"
    );
    let vscode_readme = read("editors/vscode/README.md");
    assert_eq!(row_values(&vscode_readme, "zeno.search"), orders);
    assert_eq!(row_values(&vscode_readme, "zeno.heuristic"), heuristics);

    // The subsumptions, in every list, are the checker's.
    let subsume: Vec<String> = zeno::checker::Subsume::ALL
        .map(|s| s.name().to_string())
        .to_vec();
    assert_eq!(cli_list("--subsume"), subsume, "zeno check --subsume");
    assert_eq!(list("zeno.subsume"), subsume, "package.json zeno.subsume");
    // The editors' default is the server's and `zeno check`'s.
    let default = props["zeno.subsume"]["default"].as_str().unwrap();
    assert_eq!(default, "alu", "package.json zeno.subsume's default");
    let help = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    let subsume_help = &help[help.find("--subsume").unwrap()..];
    assert!(
        subsume_help[..subsume_help
            .find("\n      --")
            .unwrap_or(subsume_help.len())]
            .contains("[default: alu]"),
        "{subsume_help}"
    );
    assert_eq!(
        quoted_after(&ts, "export const SUBSUME", '[', ']'),
        subsume,
        "settings.ts"
    );
    assert_eq!(
        quoted_after(&lua, "M.SUBSUME =", '{', '}'),
        subsume,
        "init.lua"
    );
    assert_eq!(
        backquoted_after(&readme, "`zeno.subsume`"),
        subsume,
        "editors/README.md"
    );
    assert_eq!(row_values(&vscode_readme, "zeno.subsume"), subsume);

    // Symmetry reduction: `on` or `off` everywhere, on by default as in
    // `zeno check` and the server.
    let switch = vec!["on".to_string(), "off".to_string()];
    assert_eq!(cli_list("--symmetry"), switch, "zeno check --symmetry");
    assert_eq!(list("zeno.symmetry"), switch, "package.json zeno.symmetry");
    assert_eq!(props["zeno.symmetry"]["default"].as_str(), Some("on"));
    let symmetry_help = &help[help.find("--symmetry").unwrap()..];
    assert!(symmetry_help.contains("[default: on]"), "{symmetry_help}");
    assert_eq!(
        quoted_after(&ts, "export const SYMMETRY", '[', ']'),
        switch,
        "settings.ts"
    );
    assert_eq!(
        quoted_after(&lua, "M.SYMMETRY =", '{', '}'),
        switch,
        "init.lua"
    );
    assert_eq!(
        backquoted_after(&readme, "`zeno.symmetry`"),
        switch,
        "editors/README.md"
    );
    assert_eq!(row_values(&vscode_readme, "zeno.symmetry"), switch);
    // The reductions, in every list, are the checker's; `none` by default.
    let reduce: Vec<String> = zeno::checker::Reduce::ALL
        .map(|r| r.name().to_string())
        .to_vec();
    assert_eq!(cli_list("--reduce"), reduce, "zeno check --reduce");
    assert_eq!(list("zeno.reduce"), reduce, "package.json zeno.reduce");
    assert_eq!(props["zeno.reduce"]["default"].as_str(), Some("none"));
    let reduce_help = &help[help.find("--reduce").unwrap()..];
    assert!(
        reduce_help[..reduce_help.find("\n      --").unwrap_or(reduce_help.len())]
            .contains("[default: none]"),
        "{reduce_help}"
    );
    assert_eq!(
        quoted_after(&ts, "export const REDUCE", '[', ']'),
        reduce,
        "settings.ts"
    );
    assert_eq!(
        quoted_after(&lua, "M.REDUCE =", '{', '}'),
        reduce,
        "init.lua"
    );
    assert_eq!(
        backquoted_after(&readme, "`zeno.reduce`"),
        reduce,
        "editors/README.md"
    );
    assert_eq!(row_values(&vscode_readme, "zeno.reduce"), reduce);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_server_names_the_checkers_lists() {
    let mut c = TestClient::start().await;
    c.initialize(json!({})).await;
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"zeno": {"search": "nope", "heuristic": "nope", "subsume": "nope"}}}),
    )
    .await;
    let log = c
        .wait_for("window/logMessage", |p| {
            p["message"]
                .as_str()
                .is_some_and(|m| m.contains("ignored settings"))
        })
        .await;
    let message = log["message"].as_str().unwrap();
    let orders = checker_list("nope").join(", ");
    let heuristics = checker_list("greedy:nope").join(", ");
    assert!(
        message.contains(&format!("search: expected one of {orders}, got \"nope\"")),
        "{message}"
    );
    assert!(
        message.contains(&format!(
            "heuristic: expected one of {heuristics}, got \"nope\""
        )),
        "{message}"
    );
    assert!(
        message.contains("subsume: expected one of inclusion, alu, got \"nope\""),
        "{message}"
    );
    // The documented settings are all accepted: sent with one unknown key,
    // only that key is reported.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"zeno": {"search": "astar", "heuristic": "hcg", "subsume": "alu",
            "maxStates": 0, "timeoutSeconds": 30, "checkOn": "change", "debounceMs": 10, "memory": "2G",
            "colour": "red"}}}),
    )
    .await;
    let log = c
        .wait_for("window/logMessage", |p| {
            p["message"].as_str().is_some_and(|m| m.contains("colour"))
        })
        .await;
    assert_eq!(
        log["message"], "ignored settings: colour: not a zeno setting",
        "{log}"
    );
}
