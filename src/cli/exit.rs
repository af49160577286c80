//! The process's exit codes, and how the outcomes of a run fold into one.

/// Every check holds.
pub const OK: u8 = 0;
/// A check fails (violated, no witness, or a reachable model error).
pub const FAILS: u8 = 1;
/// A usage or model error.
pub const ERROR: u8 = 2;
/// A limit stopped a check before its verdict.
pub const LIMIT: u8 = 3;

/// Folds outcomes into the exit code of the run, from the most to the least
/// important: an error in the input beats a failing check, which beats a
/// limit.
#[derive(Debug, Default, Clone, Copy)]
pub struct Outcome {
    error: bool,
    fails: bool,
    limit: bool,
}

impl Outcome {
    pub fn add(&mut self, code: u8) {
        match code {
            ERROR => self.error = true,
            FAILS => self.fails = true,
            LIMIT => self.limit = true,
            _ => {}
        }
    }

    /// Whether an input error was seen (which makes other complaints moot).
    pub fn has_error(self) -> bool {
        self.error
    }

    pub fn code(self) -> u8 {
        if self.error {
            ERROR
        } else if self.fails {
            FAILS
        } else if self.limit {
            LIMIT
        } else {
            OK
        }
    }
}
