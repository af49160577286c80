//! Checked output: a write that fails is exit 2 with a message, a closed
//! pipe ends quietly (no panic, no message), for every command that writes.

use std::process::{Command, Stdio};

use crate::support;

use support::cli::*;

/// Runs `zeno ARGS` with standard output on `/dev/full` (every write fails
/// with "no space left on device").
fn zeno_to_dev_full(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("spawn zeno")
}

#[test]
#[cfg(target_os = "linux")]
fn a_failed_write_to_standard_output_is_exit_2_with_a_message() {
    let fischer = model("fischer-buggy.zeno");
    let tck = data_file("import", "handshake.tck");
    let commands: Vec<Vec<&str>> = vec![
        vec!["check", &fischer],
        vec!["check", "--format", "json", &fischer],
        vec!["check", "--format", "sarif", &fischer],
        vec!["export", "--to", "tchecker", &fischer],
        vec!["export", "--to", "xta", &fischer],
        vec!["import", &tck],
        vec!["graph", &fischer],
        vec!["completions", "bash"],
        vec!["man"],
    ];
    for args in commands {
        let o = zeno_to_dev_full(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
#[cfg(target_os = "linux")]
fn a_failed_write_to_a_file_is_exit_2_with_a_message() {
    let o = zeno(&[
        "export",
        "--to",
        "tchecker",
        "-o",
        "/dev/full",
        &model("fischer-buggy.zeno"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write `/dev/full`"),
        "{}",
        stderr(&o)
    );
}

#[test]
#[cfg(unix)]
fn a_closed_pipe_ends_quietly_with_the_checks_exit_code() {
    // The reader closes its end before zeno writes anything.
    for args in [
        vec!["check".to_string(), model("fischer-buggy.zeno")],
        vec!["man".to_string()],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn zeno");
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("wait");
        let err = stderr(&o);
        assert!(err.is_empty(), "{args:?}: {err}");
        // fischer-buggy's checks fail (1) whether or not anyone reads.
        let expected = if args[0] == "check" { 1 } else { 0 };
        assert_eq!(o.status.code(), Some(expected), "{args:?}");
    }
}
