//! What a check's result means, in the words every front end shares: the
//! outcome of a check given its kind, the verdict line, the limits, and the
//! run-time errors of the model with the names of its variables. The CLI's
//! text, JSON and SARIF, the language server, the pictures and the benchmark
//! tables all render results through this module, so a verdict or a model
//! error reads the same everywhere.
#![warn(missing_docs)]

mod ending;

pub use ending::{Ending, EndingKind};

use num_rational::Rational64;
use serde::{Deserialize, Serialize};

use zeno_checker::bounds::Value as BoundValueAnswer;
use zeno_checker::{CheckResult, Limit, TraceEnd, Verdict};
use zeno_ir::{Check, ErrorKind, EvalError, Extremum, Network, TimeScale, is_frame_slot};

/// A check's result read with its kind: `A[]`, `A<>` and `-->` checks hold
/// or are violated, `E<>` and `E[]` checks are witnessed or have no witness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// An `A[]` check holds in every reachable state (`A<>`, `-->`: on
    /// every maximal run).
    Holds,
    /// An `A[]` check fails in a reachable state (the trace leads there);
    /// an `A<>` or `-->` check fails on a maximal run (the trace is it).
    Violated,
    /// An `E<>` check has a witness (the trace); an `E[]` check's witness
    /// is a maximal run.
    Witnessed,
    /// No reachable state satisfies an `E<>` check; no maximal run keeps
    /// an `E[]` check's formula.
    NoWitness,
    /// A run-time error of the model is reachable (the trace leads to it).
    ModelError(EvalError),
    /// The search stopped before a verdict.
    Unknown(Limit),
}

impl Outcome {
    /// The outcome of `result`, a result of `check`.
    pub fn of(check: &Check, result: &CheckResult) -> Outcome {
        match (&result.verdict, check.kind.is_universal()) {
            (Verdict::Holds, true) => Outcome::Holds,
            (Verdict::Holds, false) => Outcome::Witnessed,
            (Verdict::Fails, true) => Outcome::Violated,
            (Verdict::Fails, false) => Outcome::NoWitness,
            (Verdict::ModelError(e), _) => Outcome::ModelError(*e),
            (Verdict::Unknown(limit), _) => Outcome::Unknown(*limit),
        }
    }

    /// Whether the outcome comes with a trace (a counterexample, a witness
    /// or the way to a model error) when one could be built.
    pub fn has_trace(self) -> bool {
        matches!(
            self,
            Outcome::Violated | Outcome::Witnessed | Outcome::ModelError(_)
        )
    }
}

/// A limit's name (as JSON and the settings spell it) and its words.
pub fn limit_words(limit: Limit) -> (&'static str, &'static str) {
    match limit {
        Limit::States => ("states", "state limit reached"),
        Limit::Time => ("time", "time limit reached"),
        Limit::Cancelled => ("cancelled", "cancelled"),
        Limit::Memory => ("memory", "memory limit reached"),
        Limit::ClockRange => (
            "clock-range",
            "a clock constant beyond ±268435455, more than a zone holds",
        ),
        Limit::Unconfirmed => (
            "unconfirmed",
            "the search found only traces that exact delays do not confirm (a stopwatch over-approximation: a path, or a liveness check's cycle, which is never confirmed; or a local-time path of `--reduce por` that did not replay)",
        ),
        Limit::Peer => (
            "peer",
            "a process of the distributed search was lost or never connected",
        ),
        Limit::Stopwatches => (
            "stopwatches",
            "not decided on models with stopwatches (`x' == 0`): `sup`/`inf` values, liveness with clock constraints or `deadlock` in its formula, and deadlock beside diagonal clock constraints",
        ),
    }
}

/// `1 step`, `6 steps`.
pub fn steps(n: usize) -> String {
    if n == 1 {
        "1 step".to_string()
    } else {
        format!("{n} steps")
    }
}

/// A run-time error of the model in words, naming the variable where there
/// is one (`value 4 is outside the range [0, 3] of `id``) and, for an error
/// inside a function, the function and the line of the statement (`…, in
/// function `enqueue` at line 12`).
pub fn describe_error(network: &Network, error: &EvalError) -> String {
    let what = match error.kind {
        ErrorKind::OutOfRange { var, value, lo, hi } if is_frame_slot(var) => {
            format!(
                "value {value} is outside the range [{lo}, {hi}] of a parameter or local variable"
            )
        }
        ErrorKind::OutOfRange { var, value, lo, hi } => match network.variables.get(var as usize) {
            Some(v) => format!(
                "value {value} is outside the range [{lo}, {hi}] of `{}`",
                v.name
            ),
            None => error.kind.to_string(),
        },
        kind => kind.to_string(),
    };
    let Some(site) = error.site else {
        return what;
    };
    let function = network
        .function_name(site.function)
        .map_or("a function".to_string(), |name| {
            format!("function `{name}`")
        });
    match network.line_of(site.statement.start) {
        Some(line) => format!("{what}, in {function} at line {line}"),
        None => format!("{what}, in {function}"),
    }
}

/// The verdict line: `holds`, `violated — trace of 6 steps`, `holds —
/// witness of 3 steps`, `fails — no reachable state satisfies it`, `model
/// error: MESSAGE — trace of N steps`, `unknown: time limit reached`; a
/// verdict whose trace a limit kept from being built ends with `— no trace:
/// time limit reached while building it`.
pub fn summary(network: &Network, check: &Check, result: &CheckResult) -> String {
    let outcome = Outcome::of(check, result);
    let trace = result.trace.as_ref().map(|t| t.len());
    let how = result
        .trace
        .as_ref()
        .map_or(String::new(), |t| run_end(&t.end));
    let tail = |what: &str| match (trace, result.stats.trace_limit) {
        (Some(n), _) => format!(" — {what} of {}{how}", steps(n)),
        (None, Some(limit)) => format!(" — no trace: {} while building it", limit_words(limit).1),
        (None, None) => String::new(),
    };
    match outcome {
        Outcome::Holds => "holds".to_string(),
        Outcome::Witnessed => format!("holds{}", tail("witness")),
        Outcome::Violated => format!("violated{}", tail("trace")),
        Outcome::NoWitness if check.kind.is_liveness() => {
            "fails — every maximal run leaves it".to_string()
        }
        Outcome::NoWitness => "fails — no reachable state satisfies it".to_string(),
        Outcome::ModelError(e) => {
            format!(
                "model error: {}{}",
                describe_error(network, &e),
                tail("trace")
            )
        }
        Outcome::Unknown(limit) => format!("unknown: {}", limit_words(limit).1),
    }
}

/// One answer of a `sup:`/`inf:` query in words, the expression written as
/// `term`: `x <= 5` (reached), `x < 5` (approached), `x = ∞`, `x >= 3` and
/// `x > 3` for an infimum, `n = 3` for an integer expression. A clock's
/// bound is in the model's time unit (`x <= 2/5` where the network counts
/// in fifths: `scale`).
pub fn bound_words(
    extremum: Extremum,
    term: &str,
    value: &BoundValueAnswer,
    scale: TimeScale,
) -> String {
    let sup = extremum == Extremum::Sup;
    let time = |b: &i32| scale.user_text(Rational64::from_integer(i64::from(*b)));
    match value {
        BoundValueAnswer::Int(v) => format!("{term} = {v}"),
        BoundValueAnswer::Clock { bound, strict } => {
            let op = match (sup, strict) {
                (true, false) => "<=",
                (true, true) => "<",
                (false, false) => ">=",
                (false, true) => ">",
            };
            format!("{term} {op} {}", time(bound))
        }
        BoundValueAnswer::Infinite => format!("{term} = ∞"),
        BoundValueAnswer::Above(t) => format!(
            "{term} > {} (not decided whether it is finite: the {} lies beyond the bound \
             explored)",
            time(t),
            if sup { "supremum" } else { "infimum" }
        ),
        BoundValueAnswer::NoState => format!("{term}: no reachable state satisfies the predicate"),
    }
}

/// A `sup:`/`inf:` query's answer as one line: `sup: x <= 5, n = 3`.
/// `terms` are the expressions' texts, in order; `scale` the network's
/// time unit.
pub fn bound_summary(
    extremum: Extremum,
    terms: &[String],
    values: &[BoundValueAnswer],
    scale: TimeScale,
) -> String {
    let word = match extremum {
        Extremum::Sup => "sup",
        Extremum::Inf => "inf",
    };
    if values.iter().all(|v| *v == BoundValueAnswer::NoState) {
        return format!("{word}: no reachable state satisfies the predicate");
    }
    let parts: Vec<String> = terms
        .iter()
        .zip(values)
        .map(|(t, v)| bound_words(extremum, t, v, scale))
        .collect();
    format!("{word}: {}", parts.join(", "))
}

/// How a maximal run of a liveness check goes on after its last step, as
/// the tail of a verdict line (`, looping back to step 2`, `, ending in a
/// deadlock`, `, then time passes forever`); empty for the other traces.
pub fn run_end(end: &TraceEnd) -> String {
    match end {
        TraceEnd::Loop { start, .. } if *start == 0 => {
            ", looping back to the initial state".to_string()
        }
        TraceEnd::Loop { start, .. } => format!(", looping back to step {start}"),
        TraceEnd::Deadlock { .. } => ", ending in a deadlock".to_string(),
        TraceEnd::TimeDiverges => ", then time passes forever".to_string(),
        TraceEnd::Goal { .. } | TraceEnd::ModelError { .. } => String::new(),
    }
}

/// The verdict as an editor shows it on the check's name, one line that
/// starts with the outcome and a colon (editors read that prefix):
/// `violated: trace of 6 steps, 40 states explored`, `holds: 12 states
/// explored`, `model error: MESSAGE, after a trace of 3 steps, …`,
/// `unknown: limit reached (time), …`, `unknown: cancelled after …`.
pub fn editor_message(network: &Network, check: &Check, result: &CheckResult) -> String {
    let explored = match result.stats.explored {
        1 => "1 state".to_string(),
        n => format!("{n} states"),
    };
    let (trace, witness, after) = match (&result.trace, result.stats.trace_limit) {
        (Some(t), _) => (
            format!("trace of {}{}", steps(t.len()), run_end(&t.end)),
            format!("witness of {}{}", steps(t.len()), run_end(&t.end)),
            format!("after a trace of {}", steps(t.len())),
        ),
        (None, limit) => {
            let why = limit.map_or(String::new(), |l| {
                format!(" ({} while building it)", limit_words(l).1)
            });
            let none = format!("no trace{why}");
            (none.clone(), format!("witness found, {none}"), none)
        }
    };
    match Outcome::of(check, result) {
        Outcome::Holds => format!("holds: {explored} explored"),
        Outcome::Witnessed => format!("holds: {witness}, {explored} explored"),
        Outcome::Violated => format!("violated: {trace}, {explored} explored"),
        Outcome::NoWitness if check.kind.is_liveness() => {
            format!("fails: every maximal run leaves it, {explored} explored")
        }
        Outcome::NoWitness => {
            format!("fails: no reachable state satisfies it, {explored} explored")
        }
        Outcome::ModelError(e) => format!(
            "model error: {}, {after}, {explored} explored",
            describe_error(network, &e)
        ),
        Outcome::Unknown(Limit::Cancelled) => {
            format!("unknown: cancelled after {explored} explored")
        }
        Outcome::Unknown(limit) => format!(
            "unknown: limit reached ({}), {explored} explored",
            limit_words(limit).0
        ),
    }
}

/// One step of a trace as the front ends serialise it, each with its own
/// edges and states: the CLI's JSON (`--format json`) and the language
/// server's `zeno/errorTrace` and trace commands write the same object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step<E, S> {
    /// Time waited before the transition, as an exact rational (`"3/2"`).
    pub delay: String,
    /// The edges taken (several for a synchronisation).
    pub edges: Vec<E>,
    /// The state after the step.
    pub after: S,
}

/// A state of a trace as the front ends serialise it, each with its own
/// location and variable entries: the CLI's JSON names a location by
/// process and location and gives a variable's number, the language server
/// sends both as [`NamedValue`]s of text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State<L, V> {
    /// Each process's location.
    pub locations: Vec<L>,
    /// Each variable's value.
    pub variables: Vec<V>,
    /// Each clock's value as an exact rational; the reference clock is
    /// left out.
    pub clocks: Vec<NamedValue>,
}

/// Every clock of `network` but the reference clock with its value in
/// `values` (in the model's time unit), by name (`#3` for a slot the network does not name).
pub fn clock_values(network: &Network, values: &[Rational64]) -> Vec<NamedValue> {
    values
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, value)| NamedValue {
            name: network
                .clocks
                .get(i)
                .map_or(format!("#{i}"), |c| c.name.clone()),
            // In the model's time unit.
            value: network.time_scale.user_text(*value),
        })
        .collect()
}

/// A name and its value, serialised as `{ "name", "value" }`: a clock's
/// exact rational value or an editor's location or variable as text, a
/// variable or a `select` binding of the CLI's JSON as a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedValue<V = String> {
    /// The name.
    pub name: String,
    /// The value.
    pub value: V,
}

/// `name = value`, as every text view prints one.
impl<V: std::fmt::Display> std::fmt::Display for NamedValue<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} = {}", self.name, self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zeno_checker::{Stats, Trace, TraceEnd};

    fn network() -> Network {
        zeno_semantics::analyze(
            "int[0, 3] id;\ntemplate T() { init location a; a -> a do id = id + 1; }\n\
             system T;\ncheck safe: A[] id < 3;\ncheck reach: E<> id == 2;\n",
        )
        .network
        .expect("a network")
    }

    fn result(verdict: Verdict, steps: Option<usize>, trace_limit: Option<Limit>) -> CheckResult {
        let trace = steps.map(|n| Trace {
            initial: zeno_checker::ConcreteState {
                locations: vec![0],
                variables: vec![0],
                clocks: vec![0.into()],
            },
            steps: vec![
                zeno_checker::Step {
                    delay: 0.into(),
                    transition: zeno_checker::Transition {
                        edges: vec![(0, 0)]
                    },
                    after: zeno_checker::ConcreteState {
                        locations: vec![0],
                        variables: vec![1],
                        clocks: vec![0.into()],
                    },
                };
                n
            ],
            end: TraceEnd::Goal { delay: 0.into() },
        });
        CheckResult {
            verdict,
            stats: Stats {
                trace_limit,
                ..Stats::default()
            },
            trace,
        }
    }

    #[test]
    fn outcomes_and_summaries() {
        let net = network();
        let (safe, reach) = (&net.checks[0], &net.checks[1]);
        let cases = [
            (
                safe,
                result(Verdict::Holds, None, None),
                Outcome::Holds,
                "holds",
            ),
            (
                safe,
                result(Verdict::Fails, Some(3), None),
                Outcome::Violated,
                "violated — trace of 3 steps",
            ),
            (
                reach,
                result(Verdict::Holds, Some(1), None),
                Outcome::Witnessed,
                "holds — witness of 1 step",
            ),
            (
                reach,
                result(Verdict::Fails, None, None),
                Outcome::NoWitness,
                "fails — no reachable state satisfies it",
            ),
            (
                safe,
                result(Verdict::Fails, None, Some(Limit::Time)),
                Outcome::Violated,
                "violated — no trace: time limit reached while building it",
            ),
            (
                safe,
                result(Verdict::Unknown(Limit::Memory), None, None),
                Outcome::Unknown(Limit::Memory),
                "unknown: memory limit reached",
            ),
        ];
        for (check, r, outcome, words) in cases {
            assert_eq!(Outcome::of(check, &r), outcome);
            assert_eq!(summary(&net, check, &r), words);
        }
        let error = EvalError::from(ErrorKind::OutOfRange {
            var: 0,
            value: 4,
            lo: 0,
            hi: 3,
        });
        let r = result(Verdict::ModelError(error), Some(4), None);
        assert_eq!(
            summary(&net, safe, &r),
            "model error: value 4 is outside the range [0, 3] of `id` — trace of 4 steps"
        );
        // Without the network's variable, the error's own words.
        assert_eq!(
            describe_error(&Network::default(), &error),
            "value 4 is outside the range [0, 3] of variable #0"
        );
    }
}
