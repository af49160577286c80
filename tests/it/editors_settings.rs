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

/// A setting the editors offer as a list of values.
struct Setting {
    /// VS Code's key (`zeno.search`), as the READMEs name it too.
    key: &'static str,
    /// The `zeno check` flag that takes the same values.
    flag: &'static str,
    /// The list's name in settings.ts (`export const NAME`) and the
    /// Neovim plugin (`M.NAME =`).
    list: &'static str,
    /// The values, as the checker lists them.
    values: Vec<String>,
    /// The default of package.json and `zeno check --help`, where the
    /// editors keep the command line's.
    default: Option<&'static str>,
}

/// The help text of `option` in `zeno check --help`: up to the next option.
fn help_of<'a>(help: &'a str, option: &str) -> &'a str {
    let at = &help[help
        .find(option)
        .unwrap_or_else(|| panic!("no {option} in the help"))..];
    &at[..at.find("\n      --").unwrap_or(at.len())]
}

#[test]
fn every_list_of_search_orders_and_heuristics_is_the_checkers() {
    let names = |all: &[&str]| all.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let orders = checker_list("nope");
    let heuristics = checker_list("greedy:nope");
    assert!(heuristics.contains(&"hcg".to_string()), "{heuristics:?}");
    let subsume = names(&zeno::checker::Subsume::ALL.map(|s| s.name()));
    let reduce = names(&zeno::checker::Reduce::ALL.map(|r| r.name()));
    let settings = [
        Setting {
            key: "zeno.search",
            flag: "--search",
            list: "SEARCH_ORDERS",
            values: orders.clone(),
            default: None,
        },
        Setting {
            key: "zeno.heuristic",
            flag: "--heuristic",
            list: "HEURISTICS",
            values: heuristics,
            default: None,
        },
        // The editors' default is the server's and `zeno check`'s.
        Setting {
            key: "zeno.subsume",
            flag: "--subsume",
            list: "SUBSUME",
            values: subsume,
            default: Some("alu"),
        },
        // Symmetry reduction: `on` or `off`, on by default as in `zeno
        // check` and the server.
        Setting {
            key: "zeno.symmetry",
            flag: "--symmetry",
            list: "SYMMETRY",
            values: names(&["on", "off"]),
            default: Some("on"),
        },
        Setting {
            key: "zeno.reduce",
            flag: "--reduce",
            list: "REDUCE",
            values: reduce,
            default: Some("none"),
        },
    ];

    let package: Value = serde_json::from_str(&read("editors/vscode/package.json")).unwrap();
    let props = &package["contributes"]["configuration"]["properties"];
    let ts = read("editors/vscode/src/settings.ts");
    let lua = read("editors/nvim/lua/zeno/init.lua");
    let readme = read("editors/README.md");
    let vscode_readme = read("editors/vscode/README.md");
    let help = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for s in &settings {
        let (key, values) = (s.key, &s.values);
        assert_eq!(&cli_list(s.flag), values, "zeno check {}", s.flag);
        let enumerated: Vec<String> = props[key]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("no enum for {key}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(&enumerated, values, "package.json {key}");
        if let Some(default) = s.default {
            assert_eq!(
                props[key]["default"].as_str(),
                Some(default),
                "package.json {key}'s default"
            );
            let flag_help = help_of(&help, s.flag);
            assert!(
                flag_help.contains(&format!("[default: {default}]")),
                "{flag_help}"
            );
        }
        let marker = format!("export const {}", s.list);
        assert_eq!(&quoted_after(&ts, &marker, '[', ']'), values, "settings.ts");
        let marker = format!("M.{} =", s.list);
        assert_eq!(&quoted_after(&lua, &marker, '{', '}'), values, "init.lua");
        let marker = format!("`{key}`");
        assert_eq!(
            &backquoted_after(&readme, &marker),
            values,
            "editors/README.md"
        );
        assert_eq!(
            &row_values(&vscode_readme, key),
            values,
            "editors/vscode/README.md"
        );
    }

    // The trace debugger's launch attribute `search` (zeno dap reads it).
    let debug_search: Vec<String> = package["contributes"]["debuggers"][0]
        ["configurationAttributes"]["launch"]["properties"]["search"]["enum"]
        .as_array()
        .expect("the debugger's search enum")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(debug_search, orders, "package.json debuggers: search");
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
