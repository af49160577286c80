//! Checked writes: everything the commands write to standard output or to a
//! file goes through here, so that no output is lost silently.
//!
//! A failed write (a full disk, `> /dev/full`, an unwritable file) prints one
//! message on stderr and makes the run's exit code 2 ([`finish`]); later
//! writes to standard output are skipped. A closed pipe (`zeno check … |
//! head`) is not an error: the reader has what it wanted, so later writes are
//! skipped without a message and the exit code stays the checks' own.

use std::fmt::Display;
use std::io::{ErrorKind, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};

use super::{diag, exit};

/// What happened to standard output so far.
static STDOUT: AtomicU8 = AtomicU8::new(OPEN);
const OPEN: u8 = 0;
/// The reader closed the pipe.
const CLOSED: u8 = 1;
/// A write failed (and was reported).
const FAILED: u8 = 2;

/// Writes `text` to standard output and flushes it.
pub fn print(text: impl Display) {
    if STDOUT.load(Ordering::Relaxed) != OPEN {
        return;
    }
    let mut out = std::io::stdout().lock();
    let written = write!(out, "{text}").and_then(|()| out.flush());
    if let Err(e) = written {
        failed(&e);
    }
}

/// [`print`] with a newline after `text`.
pub fn println(text: impl Display) {
    print(format_args!("{text}\n"));
}

/// Runs `f` on a locked standard output (for writers that take an
/// `io::Write`, such as clap's generators) and checks what it returns.
pub fn with_stdout(f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
    if STDOUT.load(Ordering::Relaxed) != OPEN {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = f(&mut out).and_then(|()| out.flush()) {
        failed(&e);
    }
}

fn failed(e: &std::io::Error) {
    if e.kind() == ErrorKind::BrokenPipe {
        STDOUT.store(CLOSED, Ordering::Relaxed);
    } else {
        STDOUT.store(FAILED, Ordering::Relaxed);
        diag::error(format!("cannot write to standard output: {e}"));
    }
}

/// Whether standard output still takes writes (no failure, no closed pipe).
pub fn open() -> bool {
    STDOUT.load(Ordering::Relaxed) == OPEN
}

/// Writes `text` to the file at `path`; on failure prints a message and
/// returns `false`.
pub fn write_file(path: &Path, text: &str) -> bool {
    match std::fs::write(path, text) {
        Ok(()) => true,
        Err(e) => {
            diag::error(format!("cannot write `{}`: {e}", path.display()));
            false
        }
    }
}

/// The run's exit code given what its commands decided: 2 if a write to
/// standard output failed.
pub fn finish(code: u8) -> u8 {
    if STDOUT.load(Ordering::Relaxed) == FAILED {
        exit::ERROR
    } else {
        code
    }
}
