//! `zeno check` with safe abstraction (`--enhance safe,...`) and `--portfolio`:
//! exit codes, the `x + y` figures and the winner in text and JSON.

use crate::support;

use support::cli::*;

const PORTFOLIO: [&str; 5] = [
    "greedy:hu",
    "greedy:hl+ut",
    "bfs+ce",
    "greedy:hcg+safe",
    "rdfs",
];

#[test]
fn meaningless_enhance_combinations_are_usage_errors() {
    let m = model("safe-abstraction.zeno");
    for (list, says) in [
        ("ut,ce", "cannot be combined"),
        ("safe,ibp,ibi", "cannot be combined"),
        ("none,safe", "`none`"),
        ("safe,safe", "twice"),
    ] {
        let o = zeno(&["check", &m, "--enhance", list]);
        assert_eq!(o.status.code(), Some(2), "{list}");
        assert!(stderr(&o).contains(says), "{list}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{list}");
    }
    let o = zeno(&["check", &m, "--enhance", "safe,sideways"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("sideways"), "{}", stderr(&o));
}

/// Fig. 5.1: P3's 3 steps plus 8 counter moves (see the model's header).
#[test]
fn safe_abstraction_reports_removed_components_and_x_plus_y() {
    let m = model("safe-abstraction.zeno");
    let o = zeno(&[
        "check",
        &m,
        "--heuristic",
        "hcg",
        "--enhance",
        "safe,ut",
        "--check",
        "p3_never_done",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("violated — trace of 11 steps"), "{out}");
    assert!(
        out.contains("safe abstraction: 2 components removed, trace 3 + 8"),
        "{out}"
    );

    let o = zeno(&["check", &m, "--enhance", "safe", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let check = &doc["files"][0]["checks"][0];
    assert_eq!(check["name"], "p3_never_done");
    let safe = &check["stats"]["safe"];
    assert_eq!(safe["removed"], 2);
    assert_eq!(safe["abstract_steps"], 3);
    assert_eq!(safe["inserted_steps"], 8);
    assert_eq!(safe["fell_back"], false);
    assert_eq!(check["stats"]["trace_length"], 11);
    // Without safe abstraction there is no `safe` entry.
    let o = zeno(&["check", &m, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(doc["files"][0]["checks"][0]["stats"].get("safe").is_none());
}

#[test]
fn portfolio_names_its_winner() {
    let bug = data_file("cli", "fischer_bug.zeno");
    let o = zeno(&["check", &bug, "--portfolio"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("portfolio winner: "))
        .unwrap_or_else(|| panic!("no winner line: {out}"));
    assert!(PORTFOLIO.contains(&line), "{line}");

    let o = zeno(&["check", &bug, "--portfolio", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let check = &doc["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "fails");
    assert!(PORTFOLIO.contains(&check["portfolio_winner"].as_str().unwrap()));
    assert!(check["trace"]["steps"].is_array());

    let ok = data_file("cli", "fischer.zeno");
    let o = zeno(&["check", &ok, "--portfolio"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("portfolio winner: "));
}

#[test]
fn portfolio_where_every_configuration_stops_is_unknown() {
    let ok = data_file("cli", "fischer.zeno");
    let o = zeno(&["check", &ok, "--portfolio", "--max-states", "1"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("unknown: state limit reached"), "{out}");
    assert!(!out.contains("portfolio winner"), "{out}");
}

#[test]
fn portfolio_configs_are_raced_and_bad_entries_rejected() {
    let m = model("safe-abstraction.zeno");
    let o = zeno(&[
        "check",
        &m,
        "--portfolio-configs",
        "greedy:hcg+safe,bfs",
        "--check",
        "p3_never_done",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let winner = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("portfolio winner: "))
        .unwrap_or_else(|| panic!("no winner line: {out}"));
    assert!(["greedy:hcg+safe", "bfs"].contains(&winner), "{winner}");
    for (list, says) in [
        ("greedy:foo", "unknown heuristic `foo`"),
        ("sideways", "unknown search order `sideways`"),
        ("bfs+ut+ce", "cannot be combined"),
        ("bfs+fast", "unknown enhancement `fast`"),
    ] {
        let o = zeno(&["check", &m, "--portfolio-configs", list]);
        assert_eq!(o.status.code(), Some(2), "{list}");
        assert!(stderr(&o).contains(says), "{list}: {}", stderr(&o));
    }
}
