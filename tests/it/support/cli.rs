//! Running the `zeno` binary in integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `zeno ARGS` without colors and returns what it did.
pub fn zeno(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("spawn zeno")
}

/// Runs `zeno ARGS` with `input` on its standard input.
pub fn zeno_with_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeno"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn zeno");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    // Written from a thread so that a large input cannot deadlock against
    // a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("wait for zeno");
    writer.join().expect("stdin writer");
    out
}

/// The path of `tests/data/DIR/NAME`.
pub fn data_file(dir: &str, name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The path of a bundled model, `models/NAME`.
pub fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory for one test, under the build's own temporary
/// directory (`target/tmp`): the next run of the test empties it, and
/// `cargo clean` removes it, so runs leave nothing behind elsewhere.
pub fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("zeno-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

pub fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}
