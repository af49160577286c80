//! No hang and no misleading message: thread counts and time limits that
//! are honoured, inputs that are refused with the reason, numbers shown as
//! written.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support;

use support::cli::*;

/// Runs `zeno ARGS`, killing it after `limit` (a guard against a hang, far
/// above what the run needs, not a timing assertion); `None` if it had to
/// be killed.
fn zeno_within(args: &[&str], limit: Duration) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn zeno");
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().expect("wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// `--threads 10000` used to start ten thousand threads (about 30 a second)
/// before any limit was polled; searches now run on at most four threads
/// per core, and say so.
#[test]
fn thousands_of_threads_are_capped_with_a_note() {
    let o = zeno_within(
        &[
            "check",
            "--threads",
            "10000",
            "--search",
            "bfs",
            "--timeout",
            "30",
            &model("fischer-buggy.zeno"),
        ],
        Duration::from_secs(120),
    )
    .expect("zeno ended");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = (4 * cores).max(4);
    assert!(
        stderr(&o).contains(&format!(
            "--threads 10000: searches run on at most {most} threads"
        )),
        "{}",
        stderr(&o)
    );
    // Every check's statistics name the threads it ran on.
    let out = stdout(&o);
    assert!(out.contains(&format!(", {most} threads,")), "{out}");
    assert!(!out.contains("10000 threads"), "{out}");
}

/// 200 processes synchronising on one channel: one state has 39,800
/// handshakes, each a closure of a 201-clock zone, so one state takes many
/// seconds. The time limit is polled per transition, not only per state.
#[test]
fn the_time_limit_stops_the_expansion_of_one_state() {
    let dir = scratch("time-limit-200");
    let file = dir.join("p200.zeno");
    std::fs::write(
        &file,
        "const int N = 200;\ntypedef int[0, N - 1] id_t;\nchan go;\nint[0, N] v = 0;\n\
         template P(const id_t i) {\n    clock x;\n    init location a invariant x <= 5;\n\
         location b;\n    a -> b when x >= 1 sync go! do x = 0, v = i;\n\
         a -> a when x >= 2 sync go? do x = 0;\n    b -> a when x > 3 do x = 0;\n}\n\
         system P;\ncheck c: A[] v != N;\n",
    )
    .expect("write");
    for threads in ["1", "2"] {
        let o = zeno_within(
            &[
                "check",
                "--timeout",
                "1",
                "--search",
                "bfs",
                "--threads",
                threads,
                path(&file),
            ],
            Duration::from_secs(60),
        )
        .unwrap_or_else(|| panic!("--threads {threads}: still running after 60 s"));
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(3), "{out}{}", stderr(&o));
        assert!(out.contains("c: unknown: time limit reached"), "{out}");
    }
    // The liveness search polls per transition too (and while a state's
    // transitions are listed).
    let live = dir.join("p200-live.zeno");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&live, text.replace("A[] v != N", "E[] v != N")).expect("write");
    let o = zeno_within(
        &["check", "--timeout", "1", path(&live)],
        Duration::from_secs(60),
    )
    .expect("the liveness check still running after 60 s");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{out}{}", stderr(&o));
    assert!(out.contains("c: unknown: time limit reached"), "{out}");
}

#[test]
fn standard_input_twice_is_a_usage_error() {
    let o = zeno_with_stdin(&["check", "-", "-"], "check c: E<> true;\n");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("given twice"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

/// Every format alike: an empty file is an error, not a model without
/// checks (zeno) or a failed import (XTA, XML).
#[test]
fn an_empty_file_is_an_error_in_every_format() {
    let dir = scratch("empty-inputs");
    for name in ["e.zeno", "e.xta", "e.xml", "e.tck"] {
        let file = dir.join(name);
        std::fs::write(&file, "  \n\n").expect("write");
        let o = zeno(&["check", path(&file)]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stdout(&o));
        assert!(
            stderr(&o).contains(&format!("{name}` is empty: there is no model in it")),
            "{name}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn sizes_and_durations_out_of_range_say_so_briefly() {
    let fischer = model("fischer-buggy.zeno");
    let o = zeno(&["check", "--memory", "99999999T", &fischer]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`99999999T` is too large"),
        "{}",
        stderr(&o)
    );

    // Longer than any run: no limit.
    let o = zeno(&["check", "--timeout", "1e308", &fischer]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));

    let o = zeno(&["check", "--timeout=-1e300", &fischer]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("invalid --timeout `-1e300`"), "{err}");
    assert!(err.len() < 200, "{err}");
}

/// A literal too long even for 64 bits used to be reported as
/// `9223372036854775807 is too large`.
#[test]
fn an_oversized_literal_is_shown_as_written() {
    let dir = scratch("oversized-literal");
    let file = dir.join("big.zeno");
    let literal = "123456789012345678901234567890";
    std::fs::write(
        &file,
        format!("const int k = {literal};\ntemplate T() {{ init location a; }}\nsystem T;\n"),
    )
    .expect("write");
    let o = zeno(&["check", path(&file)]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("this integer literal is too large"), "{err}");
    assert!(err.contains(literal), "{err}");
    assert!(!err.contains("9223372036854775807"), "{err}");
}
