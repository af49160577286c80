//! The `zeno` binary end to end: exit codes, messages and output formats.

use crate::support;

use support::cli::*;

fn data(name: &str) -> String {
    data_file("cli", name)
}

// ---- usage errors ----

#[test]
fn unknown_flag_is_a_usage_error() {
    let o = zeno(&["check", "--frobnicate", "m.zeno"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--frobnicate"), "{}", stderr(&o));
}

#[test]
fn bad_search_value_is_a_usage_error() {
    let o = zeno(&["check", "--search", "sideways", "m.zeno"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("sideways"), "{err}");
    // clap lists the accepted values.
    assert!(err.contains("greedy"), "{err}");
}

#[test]
fn no_files_is_a_usage_error() {
    let o = zeno(&["check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("FILE"), "{}", stderr(&o));
    let o = zeno(&["fmt"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn negative_timeout_is_a_usage_error() {
    let o = zeno(&["check", "--timeout=-1", "m.zeno"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("timeout"), "{}", stderr(&o));
}

#[test]
fn help_and_version_succeed() {
    let o = zeno(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("check"));
    let o = zeno(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn missing_file_is_named() {
    let o = zeno(&["check", "no/such/model.zeno"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot read `no/such/model.zeno`"), "{err}");
}

#[test]
fn invalid_utf8_file_is_named_with_its_offset() {
    let dir = scratch("cli-utf8");
    let path = dir.join("bad.zeno");
    std::fs::write(&path, b"int n;\n// caf\xe9\n").expect("write");
    let o = zeno(&["check", &path.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("bad.zeno"), "{err}");
    // Line 2 starts at byte 7; `// caf` is 6 bytes, so the bad byte is at 13, column 7.
    assert!(err.contains("offset 13 (line 2, column 7)"), "{err}");
    let o = zeno(&["fmt", "--check", &path.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.zeno"));
}

#[test]
fn unreadable_file_in_json_and_sarif() {
    let o = zeno(&["check", "no/such/model.zeno", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(doc["exit_code"], 2);
    assert_eq!(doc["files"][0]["path"], "no/such/model.zeno");
    assert!(
        doc["files"][0]["error"]
            .as_str()
            .unwrap()
            .contains("cannot read")
    );
    assert_eq!(doc["files"][0]["checks"].as_array().unwrap().len(), 0);

    let o = zeno(&["check", "no/such/model.zeno", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    let r = &doc["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "diagnostic");
    assert_eq!(r["level"], "error");
    assert_eq!(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "no/such/model.zeno"
    );
}

#[test]
fn fmt_missing_path_is_an_error() {
    let o = zeno(&["fmt", "no/such/dir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/dir"), "{}", stderr(&o));
}

// ---- end to end ----

#[test]
fn buggy_model_exits_1_with_a_trace() {
    let o = zeno(&["check", &data("fischer_bug.zeno"), "--check", "mutex"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.contains("mutex: violated — trace of"), "{out}");
    assert!(out.contains("1. delay "), "{out}");
    assert!(
        out.contains("Proc(1): idle -> req") || out.contains("Proc(2): idle -> req"),
        "{out}"
    );
    assert!(
        out.contains("is false here, so `mutex` (A[] !(Proc(1).cs && Proc(2).cs)) is violated"),
        "{out}"
    );
    assert!(
        !out.contains("can_enter"),
        "only the selected check runs: {out}"
    );
}

#[test]
fn every_search_finds_the_bug() {
    for search in ["bfs", "dfs", "rdfs", "greedy", "astar"] {
        let o = zeno(&[
            "check",
            &data("fischer_bug.zeno"),
            "--check",
            "mutex",
            "--search",
            search,
        ]);
        assert_eq!(o.status.code(), Some(1), "{search}: {}", stdout(&o));
    }
}

#[test]
fn pdb_heuristic_finds_the_bug_and_proves_the_correct_model() {
    for search in ["greedy", "astar"] {
        let o = zeno(&[
            "check",
            &data("fischer_bug.zeno"),
            "--check",
            "mutex",
            "--search",
            search,
            "--heuristic",
            "pdb",
            "--pdb-states",
            "1000",
        ]);
        assert_eq!(o.status.code(), Some(1), "{search}: {}", stdout(&o));
    }
    let o = zeno(&["check", &data("fischer.zeno"), "--heuristic", "pdb"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn pdb_clocks_prove_correct_fischer_at_the_initial_state() {
    // Without clocks the discrete pattern cannot prove mutual exclusion and
    // the search explores states; the clock pattern's zone graph is the
    // whole (small) network's, where the goal is unreachable.
    let args = |clocks: bool| {
        let mut a = vec!["check".to_string(), data("fischer.zeno")];
        a.extend(["--search", "astar", "--heuristic", "pdb"].map(String::from));
        if clocks {
            a.push("--pdb-clocks".into());
        }
        a
    };
    let plain = args(false);
    let o = zeno(&plain.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(!stdout(&o).contains("explored 0 states"), "{}", stdout(&o));
    let timed = args(true);
    let o = zeno(&timed.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("mutex: holds"), "{}", stdout(&o));
    assert!(stdout(&o).contains("explored 0 states"), "{}", stdout(&o));
}

#[test]
fn bad_pdb_budgets_are_usage_errors() {
    let o = zeno(&["check", "--pdb-time=-1", &data("fischer.zeno")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--pdb-time"), "{}", stderr(&o));
    let o = zeno(&["check", "--pdb-states", "0", &data("fischer.zeno")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--pdb-states"), "{}", stderr(&o));
    let o = zeno(&["check", "--pdb-states", "lots", &data("fischer.zeno")]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn correct_model_exits_0() {
    let o = zeno(&["check", &data("fischer.zeno")]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("mutex: holds"), "{out}");
    assert!(out.contains("explored "), "{out}");
}

#[test]
fn witness_of_reachability_exits_0() {
    let o = zeno(&["check", &data("fischer_bug.zeno"), "--check", "can_enter"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("can_enter: holds — witness of"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn state_limit_exits_3_with_statistics() {
    let o = zeno(&["check", &data("fischer.zeno"), "--max-states", "1"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(out.contains("mutex: unknown: state limit reached"), "{out}");
    assert!(out.contains("explored "), "{out}");
}

#[test]
fn reachable_model_error_exits_1() {
    let o = zeno(&["check", &data("overflow.zeno"), "--trace", "full"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.contains("small: model error: "), "{out}");
    assert!(out.contains("`n`"), "the error names the variable: {out}");
}

#[test]
fn syntax_errors_exit_2_with_snippets() {
    let o = zeno(&["check", &data("syntax_error.zeno")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("error"), "{err}");
    assert!(err.contains("syntax_error.zeno:1:"), "{err}");
    // The snippet quotes the offending line.
    assert!(err.contains("int[0, 3] n = ;"), "{err}");
    assert!(!err.contains('\x1b'), "no colors when piped: {err}");
}

#[test]
fn syntax_errors_in_json() {
    let o = zeno(&["check", &data("syntax_error.zeno"), "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    let diags = doc["files"][0]["diagnostics"]
        .as_array()
        .expect("diagnostics");
    // `int[0, 3] n = ;`: the parser puts "expected an expression" right
    // after the previous token, the `=` at column 13, so at column 14.
    let d = diags
        .iter()
        .find(|d| d["severity"] == "error")
        .expect("an error");
    assert_eq!(d["range"]["start"]["line"], 1);
    assert_eq!(d["range"]["start"]["column"], 14);
    assert_eq!(d["range"]["bytes"][0], 13);
    assert!(doc["files"][0]["checks"].as_array().unwrap().is_empty());
}

#[test]
fn trace_detail_levels() {
    let file = data("fischer_bug.zeno");
    let none = stdout(&zeno(&[
        "check", &file, "--check", "mutex", "--trace", "none",
    ]));
    assert_eq!(
        none.lines().count(),
        4,
        "header, verdict, formula, statistics: {none}"
    );
    assert_eq!(
        none.lines().nth(2),
        Some("    A[] !(Proc(1).cs && Proc(2).cs)"),
        "{none}"
    );
    let full = stdout(&zeno(&[
        "check", &file, "--check", "mutex", "--trace", "full",
    ]));
    assert!(
        full.contains("0. initial: Proc(1).idle, Proc(2).idle; id = 0;"),
        "{full}"
    );
    assert!(
        full.contains("fischer_bug.zeno:17:5: idle -> req"),
        "{full}"
    );
    // The last state of a mutex counterexample has both processes in `cs`.
    assert!(full.contains("state: Proc(1).cs, Proc(2).cs;"), "{full}");
}

#[test]
fn unknown_check_name_exits_2() {
    let o = zeno(&["check", &data("fischer.zeno"), "--check", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no check named `nope`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn json_has_the_documented_fields() {
    let o = zeno(&[
        "check",
        &data("fischer_bug.zeno"),
        &data("fischer.zeno"),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["exit_code"], 1);
    let files = doc["files"].as_array().expect("files");
    assert_eq!(files.len(), 2);
    let mutex = &files[0]["checks"][0];
    assert_eq!(mutex["name"], "mutex");
    assert_eq!(mutex["kind"], "invariant");
    assert_eq!(mutex["verdict"], "fails");
    assert_eq!(mutex["range"]["start"]["line"], 26);
    assert!(mutex["stats"]["explored"].as_u64().is_some());
    let steps = mutex["trace"]["steps"].as_array().expect("steps");
    assert_eq!(mutex["stats"]["trace_length"], steps.len());
    for step in steps {
        assert!(step["delay"].is_string());
        let e = &step["edges"][0];
        assert!(e["process"].as_str().unwrap().starts_with("Proc("), "{e}");
        assert!(e["source"].is_string() && e["target"].is_string());
        assert!(e["range"]["start"]["line"].as_u64().unwrap() >= 17);
        assert_eq!(step["after"]["locations"].as_array().unwrap().len(), 2);
    }
    assert_eq!(mutex["trace"]["end"]["kind"], "goal");
    assert_eq!(files[1]["checks"][0]["verdict"], "holds");
    assert!(files[1]["diagnostics"].is_array());
}

#[test]
fn sarif_has_code_flows_for_violations() {
    let o = zeno(&[
        "check",
        &data("fischer_bug.zeno"),
        "--check",
        "mutex",
        "--format",
        "sarif",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    assert_eq!(doc["version"], "2.1.0");
    let results = doc["runs"][0]["results"].as_array().expect("results");
    let v = results
        .iter()
        .find(|r| r["ruleId"] == "violated")
        .expect("a violated result");
    assert_eq!(
        v["locations"][0]["physicalLocation"]["region"]["startLine"],
        26
    );
    let flow = v["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .expect("flow");
    assert!(!flow.is_empty());
}

#[test]
fn fmt_check_lists_unformatted_files_and_fmt_fixes_them() {
    let dir = scratch("cli-fmt");
    std::fs::copy(data("unformatted.zeno"), dir.join("m.zeno")).expect("copy");
    let d = dir.to_string_lossy().into_owned();
    let o = zeno(&["fmt", "--check", &d]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("m.zeno"));
    let before = std::fs::read_to_string(dir.join("m.zeno")).expect("read");
    let o = zeno(&["fmt", &d]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_ne!(
        std::fs::read_to_string(dir.join("m.zeno")).expect("read"),
        before
    );
    let o = zeno(&["fmt", "--check", &d]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).is_empty());
}

#[test]
fn fmt_syntax_error_exits_2() {
    let o = zeno(&["fmt", "--check", &data("syntax_error.zeno")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("syntax_error.zeno"), "{}", stderr(&o));
}

// ---- input formats: extension first, then content, with a note ----

#[test]
fn a_zeno_model_without_the_extension_is_read_as_zeno() {
    // Its comments name `process` and `system`, which once made it UPPAAL XTA.
    let text = std::fs::read_to_string(model("fischer-buggy.zeno")).unwrap();
    assert!(text.contains("process") && text.contains("system"));
    let dir = scratch("zeno-as-txt");
    let file = dir.join("f.txt");
    std::fs::write(&file, &text).unwrap();
    let o = zeno(&["check", path(&file), "--check", "mutex"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("mutex: violated"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("has no known extension")
            && err.contains("is read as zeno text: it parses as zeno text"),
        "{err}"
    );
}

#[test]
fn uppaal_xta_without_the_extension_is_read_as_xta_with_a_note() {
    let xta = "// a comment\nint x;\nprocess P() { state a, b; init a; trans a -> b { assign x = 1; }; }\nsystem P;\n";
    let dir = scratch("xta-as-txt");
    let file = dir.join("model.txt");
    std::fs::write(&file, xta).unwrap();
    let o = zeno(&["import", path(&file)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("template P"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("is read as UPPAAL XTA: it declares a `process` and a `system`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_known_extension_decides_without_a_note() {
    let o = zeno(&["check", &model("fischer-buggy.zeno"), "--check", "mutex"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stderr(&o).contains("is read as"), "{}", stderr(&o));
}

#[test]
fn dash_is_standard_input() {
    let text = std::fs::read_to_string(model("fischer-buggy.zeno")).unwrap();
    let o = zeno_with_stdin(&["check", "-", "--check", "mutex"], &text);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("<stdin>\n"), "{out}");
    assert!(out.contains("mutex: violated — trace of 6 steps"), "{out}");
    assert!(stderr(&o).contains("standard input is read as zeno text"));

    // A syntax error is located in `<stdin>`.
    let o = zeno_with_stdin(&["check", "-"], "template T( {");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("<stdin>:1:"), "{}", stderr(&o));

    // `zeno fmt -` prints the formatted text.
    let o = zeno_with_stdin(&["fmt", "-"], "const  int N=3;\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "const int N = 3;\n");
    // `--check` shows what formatting would change, as a unified diff.
    let o = zeno_with_stdin(&["fmt", "--check", "-"], "const  int N=3;\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "--- <stdin>\n+++ <stdin> (formatted)\n@@ -1,1 +1,1 @@\n-const  int N=3;\n+const int N = 3;\n"
    );
}

#[test]
fn a_flood_of_diagnostics_is_capped_and_summarised() {
    // 150 unused variables (150 warnings), then 5 duplicate definitions
    // of the first (5 errors).
    let mut text: String = (0..150).map(|i| format!("int v{i};\n")).collect();
    for _ in 0..5 {
        text.push_str("int v0;\n");
    }
    text.push_str("template T() { init location a; }\nsystem T;\ncheck c: A[] true;\n");
    let dir = scratch("diagnostic-flood");
    let file = dir.join("flood.zeno");
    std::fs::write(&file, &text).unwrap();
    let o = zeno(&["check", path(&file)]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let errors = err.lines().filter(|l| l.starts_with("error:")).count();
    let warnings = err.lines().filter(|l| l.starts_with("warning:")).count();
    // Every error is shown, and warnings fill the rest of the 100.
    assert_eq!((errors, warnings), (5, 95), "{err}");
    assert!(
        err.contains("note: 55 more diagnostics in")
            && err.contains("(0 errors, 55 warnings and notes)"),
        "{err}"
    );
    // JSON still carries them all.
    let o = zeno(&["check", path(&file), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        json["files"][0]["diagnostics"].as_array().map(Vec::len),
        Some(155),
        "{json}"
    );
}

#[test]
fn a_model_without_checks_says_so() {
    let dir = scratch("no-checks");
    let file = dir.join("none.zeno");
    std::fs::write(&file, "template T() { init location a; }\nsystem T;\n").unwrap();
    let o = zeno(&["check", path(&file)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .ends_with("none.zeno\n  no checks to decide (declare one: `check NAME: A[] ...;`)\n"),
        "{}",
        stdout(&o)
    );
}
