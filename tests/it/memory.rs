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

/// `n` processes of one clock each, moving on their own: one zone has
/// `n + 1` clocks, and a state has `n` successors.
fn many_clocks(test: &str, n: u32) -> PathBuf {
    let dir = scratch(test);
    let file = dir.join("clocks.zeno");
    let text = format!(
        "const int N = {n};\n\
         typedef int[0, N - 1] id_t;\n\
         template P(const id_t i) {{\n\
             clock x;\n\
             init location a invariant x <= 5;\n\
             location b;\n\
             a -> b when x >= 1 do x = 0;\n\
             b -> a when x > 3 do x = 0;\n\
         }}\n\
         system P;\n\
         check c: A[] !(P(0).b && P(1).b && P(2).b && P(3).b && P(4).b && P(5).b);\n"
    );
    std::fs::write(&file, text).expect("write model");
    file
}

/// Capacity reserved but never touched is not memory held: the parallel
/// search's shards each reserved room for 1,024 zones of 61 clocks (15 KB
/// each), 120 MB counted at 18 MB resident, and the search stopped after
/// one state with "memory limit reached".
#[test]
fn untouched_capacity_is_not_a_memory_limit() {
    let model = many_clocks("memory-untouched", 60);
    let o = zeno(&[
        "check",
        path(&model),
        "--search",
        "bfs",
        "--threads",
        "2",
        "--memory",
        "80M",
        "--max-states",
        "3",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{out}{}", stderr(&o));
    assert!(out.contains("c: unknown: state limit reached"), "{out}");
    assert!(out.contains("explored 3 states"), "{out}");
}

/// The peak memory a check reports is the process's peak resident set, as
/// `/usr/bin/time -f %M` measures it, within 10%. Not `wait4` on a child of
/// the test binary: Linux carries the high-water mark of the image a child
/// was spawned from across `exec`, so a child of the (large, many-threaded)
/// test process reported hundreds of megabytes; `time`'s own child starts
/// from `time`'s small image.
#[cfg(target_os = "linux")]
#[test]
fn the_reported_peak_is_the_peak_resident_set() {
    let time = std::path::Path::new("/usr/bin/time");
    if !time.exists() {
        println!("skipped: no /usr/bin/time to measure the peak resident set with");
        return;
    }
    let fischer = fischer_correct("memory-peak", 7);
    let clocks = many_clocks("memory-peak-clocks", 20);
    for (file, extra) in [(&fischer, "1"), (&fischer, "2"), (&clocks, "1")] {
        let o = std::process::Command::new(time)
            .args(["-f", "%M"])
            .arg(env!("CARGO_BIN_EXE_zeno"))
            .args(["check", path(file), "--search", "bfs", "--threads", extra])
            .args(["--max-states", "500", "--format", "json"])
            .output()
            .expect("run /usr/bin/time");
        let kib: f64 = stderr(&o)
            .lines()
            .last()
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or_else(|| panic!("no %M figure: {}", stderr(&o)));
        let max_rss = kib * 1024.0;
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
        let peak = json["files"][0]["checks"][0]["stats"]["peak_memory_bytes"]
            .as_f64()
            .expect("a peak");
        assert!(
            (peak - max_rss).abs() <= 0.1 * max_rss,
            "{file:?} --threads {extra}: reported {peak} bytes, peak resident set {max_rss}"
        );
    }
}
