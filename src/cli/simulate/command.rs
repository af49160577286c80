//! The commands of a simulation session, parsed from one input line.

use num_rational::Rational64;

/// One command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Take enabled transition N (from 1).
    Fire(usize),
    Delay(Rational64),
    Back,
    Forward,
    Reset,
    /// Load this check's trace.
    Trace(String),
    /// N random steps, with this seed (else the session's next one).
    Random(usize, Option<u64>),
    Show,
    Help,
    Quit,
}

/// The most steps one `random` takes.
pub const MAX_RANDOM_STEPS: usize = 1_000_000;

/// Every command word, for completion and help.
pub const WORDS: [&str; 10] = [
    "delay", "back", "forward", "reset", "trace", "random", "show", "help", "quit", "exit",
];

/// The help text: one line per command.
pub const HELP: &str = "\
N              take enabled transition N
delay D        let D time units pass (concrete mode): 2, 3/2, 0.25
back           go back one step (the later steps are kept: `forward`)
forward        go forward one step along the kept steps
reset          back to the initial state, forgetting the history
trace CHECK    load CHECK's counterexample or witness, at its first state
random N [S]   take N random steps (seed S, else the session's next seed)
show           print the state again
help           this list
quit           end the session (also `exit`, or end of input)";

/// What is wrong with a command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("empty command")]
    Empty,
    /// The wrong number of words after the command: how to use it.
    #[error("usage: {0}")]
    Usage(&'static str),
    #[error("unknown command `{0}`; the commands: N, {words} (`help` explains them)", words = WORDS.join(", "))]
    Unknown(String),
    #[error("transitions are numbered from 1")]
    TransitionZero,
    #[error("`{0}` is not a transition number: they are numbered from 1")]
    NegativeTransition(String),
    #[error("`{0}` is not a transition number")]
    NotTransition(String),
    #[error("`{0}` is not a number of steps")]
    NotSteps(String),
    #[error("at most {MAX_RANDOM_STEPS} random steps at a time (got {0})")]
    TooManySteps(usize),
    #[error("`{0}` is not a seed (a whole number)")]
    NotSeed(String),
    #[error("`{0}` is not a delay: expected a number such as 2, 3/2 or 0.25")]
    NotDelay(String),
    #[error("`{0}` divides by zero")]
    DividesByZero(String),
    #[error("the delay `{0}` is too large")]
    DelayTooLarge(String),
}

/// Parses one line; the error says what is wrong with it.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Err(CommandError::Empty);
    };
    let arity = |n: usize, usage: &'static str| {
        if rest.len() == n {
            Ok(())
        } else {
            Err(CommandError::Usage(usage))
        }
    };
    if first.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        arity(0, "N (the number of an enabled transition)")?;
        return transition_number(first).map(Command::Fire);
    }
    match first {
        "delay" | "d" => {
            arity(1, "delay D (D: 2, 3/2 or 0.25)")?;
            delay(rest[0]).map(Command::Delay)
        }
        "back" | "b" => arity(0, "back").map(|_| Command::Back),
        "forward" | "f" => arity(0, "forward").map(|_| Command::Forward),
        "reset" => arity(0, "reset").map(|_| Command::Reset),
        "trace" => arity(1, "trace CHECK").map(|_| Command::Trace(rest[0].to_string())),
        "random" => {
            if rest.is_empty() || rest.len() > 2 {
                return Err(CommandError::Usage("random N [SEED]"));
            }
            let n = rest[0]
                .parse::<usize>()
                .map_err(|_| CommandError::NotSteps(rest[0].to_string()))?;
            // Every step stays in the history: a bound keeps a typo from
            // filling the memory.
            if n > MAX_RANDOM_STEPS {
                return Err(CommandError::TooManySteps(n));
            }
            let seed = match rest.get(1) {
                None => None,
                Some(s) => Some(
                    s.parse::<u64>()
                        .map_err(|_| CommandError::NotSeed(s.to_string()))?,
                ),
            };
            Ok(Command::Random(n, seed))
        }
        "show" | "s" => arity(0, "show").map(|_| Command::Show),
        "help" | "?" => arity(0, "help").map(|_| Command::Help),
        "quit" | "exit" | "q" => arity(0, "quit").map(|_| Command::Quit),
        other => Err(CommandError::Unknown(other.to_string())),
    }
}

/// A transition number: a positive whole number.
fn transition_number(word: &str) -> Result<usize, CommandError> {
    match word.parse::<usize>() {
        Ok(0) => Err(CommandError::TransitionZero),
        Ok(n) => Ok(n),
        Err(_) if word.starts_with('-') => Err(CommandError::NegativeTransition(word.to_string())),
        Err(_) => Err(CommandError::NotTransition(word.to_string())),
    }
}

/// A delay: a whole number, a fraction `a/b` or a decimal `1.25`, maybe
/// negative (the simulator says why that is refused). Numbers that do not
/// fit in 64 bits are an error, never wrapped.
pub fn delay(word: &str) -> Result<Rational64, CommandError> {
    let bad = || CommandError::NotDelay(word.to_string());
    let (negative, body) = match word.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let too_large = || CommandError::DelayTooLarge(word.to_string());
    let int = |s: &str| s.parse::<i64>().map_err(|_| too_large());
    let value = if let Some((n, d)) = body.split_once('/') {
        if !digits(n) || !digits(d) {
            return Err(bad());
        }
        let d = int(d)?;
        if d == 0 {
            return Err(CommandError::DividesByZero(word.to_string()));
        }
        Rational64::new(int(n)?, d)
    } else if let Some((w, f)) = body.split_once('.') {
        if !(digits(w) || w.is_empty()) || !digits(f) || f.len() > 18 {
            return Err(bad());
        }
        let den = 10i64.pow(f.len() as u32);
        let whole = if w.is_empty() { 0 } else { int(w)? };
        let num = whole
            .checked_mul(den)
            .and_then(|x| x.checked_add(f.parse::<i64>().ok()?))
            .ok_or_else(too_large)?;
        Rational64::new(num, den)
    } else if digits(body) {
        Rational64::from_integer(int(body)?)
    } else {
        return Err(bad());
    };
    Ok(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational64 {
        Rational64::new(n, d)
    }

    #[test]
    fn commands_and_their_short_forms() {
        assert_eq!(parse("3"), Ok(Command::Fire(3)));
        assert_eq!(parse("  delay 3/2 "), Ok(Command::Delay(q(3, 2))));
        assert_eq!(parse("d 0.25"), Ok(Command::Delay(q(1, 4))));
        assert_eq!(parse("delay .5"), Ok(Command::Delay(q(1, 2))));
        assert_eq!(parse("delay 7"), Ok(Command::Delay(q(7, 1))));
        assert_eq!(parse("delay -1/2"), Ok(Command::Delay(q(-1, 2))));
        assert_eq!(parse("b"), Ok(Command::Back));
        assert_eq!(parse("forward"), Ok(Command::Forward));
        assert_eq!(parse("trace mutex"), Ok(Command::Trace("mutex".into())));
        assert_eq!(parse("random 20"), Ok(Command::Random(20, None)));
        assert_eq!(parse("random 20 9"), Ok(Command::Random(20, Some(9))));
        assert_eq!(parse("exit"), Ok(Command::Quit));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert!(
            parse("jump")
                .unwrap_err()
                .to_string()
                .starts_with("unknown command `jump`; the commands: N, delay")
        );
        let cases = [
            ("0", "transitions are numbered from 1"),
            (
                "-2",
                "`-2` is not a transition number: they are numbered from 1",
            ),
            ("1x", "`1x` is not a transition number"),
            ("1 2", "usage: N (the number of an enabled transition)"),
            ("delay", "usage: delay D (D: 2, 3/2 or 0.25)"),
            ("delay 1/0", "`1/0` divides by zero"),
            (
                "delay 99999999999999999999",
                "the delay `99999999999999999999` is too large",
            ),
            (
                "delay 9999999999.999999999",
                "the delay `9999999999.999999999` is too large",
            ),
            ("random", "usage: random N [SEED]"),
            ("random -3", "`-3` is not a number of steps"),
            ("trace", "usage: trace CHECK"),
            ("   ", "empty command"),
        ];
        for (line, message) in cases {
            assert_eq!(parse(line).unwrap_err().to_string(), message, "{line:?}");
        }
        for bad in ["x", "1/", "/2", "1.", "1.2.3", "--1", "1e3", "½"] {
            assert_eq!(
                parse(&format!("delay {bad}")).unwrap_err().to_string(),
                format!("`{bad}` is not a delay: expected a number such as 2, 3/2 or 0.25")
            );
        }
    }
}
