//! The memory budget: a search that reaches it stops like at any other limit
//! (exit 3, `unknown: memory limit reached`, its statistics, JSON intact),
//! and a process whose address space is limited never aborts.

use std::path::PathBuf;

use crate::support;

use support::cli::*;

/// Writes the correct Fischer protocol with `n` processes (its full
/// exploration needs far more than the budgets below) and returns its path.
fn fischer_correct(test: &str, n: u32) -> PathBuf {
    let dir = scratch(test);
    let o = zeno(&[
        "bench",
        "--family",
        &format!("fischer-correct:{n}"),
        "--emit",
        path(&dir),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    dir.join(format!("F{n}ok.zeno"))
}

#[test]
fn a_search_stops_at_the_memory_budget_with_its_statistics() {
    let model = fischer_correct("memory-budget", 7);
    let file = path(&model);
    // Without a budget the exploration finishes: the property holds.
    let o = zeno(&["check", file, "--search", "bfs"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let full_explored = 11951;
    assert!(
        stdout(&o).contains(&format!("explored {full_explored} states")),
        "{}",
        stdout(&o)
    );

    // The full exploration peaks near 2.8 MiB of heap (stored zones keep
    // only their active clocks), so 1.5 MiB stops it about halfway.
    let o = zeno(&["check", file, "--search", "bfs", "--memory", "1500K"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("mutex: unknown: memory limit reached"),
        "{out}"
    );
    let explored: u64 = out
        .split("explored ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("an explored count");
    assert!(explored > 0 && explored < full_explored, "{out}");

    let o = zeno(&[
        "check", file, "--search", "bfs", "--memory", "1500K", "--format", "json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let check = &json["files"][0]["checks"][0];
    assert_eq!(check["verdict"], "unknown", "{json}");
    assert_eq!(check["limit"], "memory", "{json}");
    assert!(
        check["stats"]["explored"].as_u64().is_some_and(|e| e > 0),
        "{json}"
    );
}

#[test]
fn bad_memory_sizes_are_usage_errors() {
    for bad in ["0", "12parsecs", "-1G", "G"] {
        let flag = format!("--memory={bad}");
        let o = zeno(&["check", &model("fischer-buggy.zeno"), &flag]);
        assert_eq!(o.status.code(), Some(2), "--memory {bad}");
        assert!(stderr(&o).contains("--memory"), "{}", stderr(&o));
    }
}

/// With the address space limited (`ulimit -v`), the default budget stays
/// below the limit and the search stops with exit 3; and with the budget
/// lifted (`--memory 1T`) the store's growth is refused by the system and
/// still ends in exit 3 with statistics, not in an abort.
#[cfg(unix)]
#[test]
fn a_limited_address_space_never_aborts() {
    let model = fischer_correct("memory-ulimit", 10);
    // `--threads 2`: the parallel search's threads must not reserve the
    // address space the budget counts on (one allocator arena for all).
    for extra in ["--threads 1", "--threads 2 --memory 1T"] {
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                // 70 MB: the debug binary's own mappings take a good part
                // of it, Fischer 10's exploration needs more than the rest
                // (Fischer 9's fits, its zones keeping only active clocks).
                "ulimit -v 70000 && exec \"$0\" check \"$1\" --search bfs {extra}"
            ))
            .arg(env!("CARGO_BIN_EXE_zeno"))
            .arg(&model)
            .env("NO_COLOR", "1")
            .output()
            .expect("run sh");
        assert_eq!(
            o.status.code(),
            Some(3),
            "{extra}: {:?} {}",
            o.status,
            stderr(&o)
        );
        let out = stdout(&o);
        assert!(
            out.contains("unknown: memory limit reached"),
            "{extra}: {out}"
        );
        assert!(out.contains("explored "), "{extra}: {out}");
    }
}
