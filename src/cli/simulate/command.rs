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

/// Parses one line; the error says what is wrong with it.
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Err("empty command".to_string());
    };
    let arity = |n: usize, usage: &str| -> Result<(), String> {
        if rest.len() == n {
            Ok(())
        } else {
            Err(format!("usage: {usage}"))
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
                return Err("usage: random N [SEED]".to_string());
            }
            let n = rest[0]
                .parse::<usize>()
                .map_err(|_| format!("`{}` is not a number of steps", rest[0]))?;
            // Every step stays in the history: a bound keeps a typo from
            // filling the memory.
            if n > MAX_RANDOM_STEPS {
                return Err(format!(
                    "at most {MAX_RANDOM_STEPS} random steps at a time (got {n})"
                ));
            }
            let seed = match rest.get(1) {
                None => None,
                Some(s) => Some(
                    s.parse::<u64>()
                        .map_err(|_| format!("`{s}` is not a seed (a whole number)"))?,
                ),
            };
            Ok(Command::Random(n, seed))
        }
        "show" | "s" => arity(0, "show").map(|_| Command::Show),
        "help" | "?" => arity(0, "help").map(|_| Command::Help),
        "quit" | "exit" | "q" => arity(0, "quit").map(|_| Command::Quit),
        other => Err(format!(
            "unknown command `{other}`; the commands: N, {} (`help` explains them)",
            WORDS.join(", ")
        )),
    }
}

/// A transition number: a positive whole number.
fn transition_number(word: &str) -> Result<usize, String> {
    match word.parse::<usize>() {
        Ok(0) => Err("transitions are numbered from 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) if word.starts_with('-') => Err(format!(
            "`{word}` is not a transition number: they are numbered from 1"
        )),
        Err(_) => Err(format!("`{word}` is not a transition number")),
    }
}

/// A delay: a whole number, a fraction `a/b` or a decimal `1.25`, maybe
/// negative (the simulator says why that is refused). Numbers that do not
/// fit in 64 bits are an error, never wrapped.
pub fn delay(word: &str) -> Result<Rational64, String> {
    let bad = || format!("`{word}` is not a delay: expected a number such as 2, 3/2 or 0.25");
    let (negative, body) = match word.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let too_large = || format!("the delay `{word}` is too large");
    let int = |s: &str| s.parse::<i64>().map_err(|_| too_large());
    let value = if let Some((n, d)) = body.split_once('/') {
        if !digits(n) || !digits(d) {
            return Err(bad());
        }
        let d = int(d)?;
        if d == 0 {
            return Err(format!("`{word}` divides by zero"));
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
                .starts_with("unknown command `jump`; the commands: N, delay")
        );
        assert_eq!(parse("0").unwrap_err(), "transitions are numbered from 1");
        assert_eq!(
            parse("-2").unwrap_err(),
            "`-2` is not a transition number: they are numbered from 1"
        );
        assert_eq!(parse("1x").unwrap_err(), "`1x` is not a transition number");
        assert_eq!(
            parse("1 2").unwrap_err(),
            "usage: N (the number of an enabled transition)"
        );
        assert_eq!(
            parse("delay").unwrap_err(),
            "usage: delay D (D: 2, 3/2 or 0.25)"
        );
        assert_eq!(parse("delay 1/0").unwrap_err(), "`1/0` divides by zero");
        for bad in ["x", "1/", "/2", "1.", "1.2.3", "--1", "1e3", "½"] {
            assert_eq!(
                parse(&format!("delay {bad}")).unwrap_err(),
                format!("`{bad}` is not a delay: expected a number such as 2, 3/2 or 0.25")
            );
        }
        assert_eq!(
            parse("delay 99999999999999999999").unwrap_err(),
            "the delay `99999999999999999999` is too large"
        );
        assert_eq!(
            parse("delay 9999999999.999999999").unwrap_err(),
            "the delay `9999999999.999999999` is too large"
        );
        assert_eq!(parse("random").unwrap_err(), "usage: random N [SEED]");
        assert_eq!(
            parse("random -3").unwrap_err(),
            "`-3` is not a number of steps"
        );
        assert_eq!(parse("trace").unwrap_err(), "usage: trace CHECK");
        assert_eq!(parse("   ").unwrap_err(), "empty command");
    }
}
