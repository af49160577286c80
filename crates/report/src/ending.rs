//! Why a trace ends, in the terms of its check: the state that breaks an
//! `A[]` check or satisfies an `E<>` check, a deadlock, a timelock (a
//! deadlock where time cannot pass on either), the loop of a lasso, time
//! passing forever, a model error. A plain value: `zeno_simulate::ending`
//! works it out (the concrete simulator says whether the last state is a
//! deadlock and what stops time); the CLI's text, JSON and SARIF, the
//! language server, the pictures and the debugger all word it with
//! [`Ending::words`].

use serde::{Deserialize, Serialize};

/// What happens at the end of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndingKind {
    /// The last state satisfies an `E<>` check's formula.
    Goal,
    /// The last state breaks an `A[]` check's formula.
    Violation,
    /// No transition is enabled now or after any delay, and time may pass
    /// forever.
    Deadlock,
    /// No transition is enabled now or after any delay, and time cannot
    /// pass beyond a bound either: nothing can happen any more.
    Timelock,
    /// A lasso: the run is back at an earlier state and repeats the steps
    /// after it forever.
    Loop,
    /// Time passes forever after the last step, with no further action.
    TimeDiverges,
    /// An enabled transition's update fails (a run-time error of the model).
    ModelError,
}

/// Why a trace ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// What happens.
    pub kind: EndingKind,
    /// What the trace shows about its check: `violated` (`A[]`, `A<>`,
    /// `-->`), `witnessed` (`E<>`, `E[]`) or `model error`.
    pub verdict: String,
    /// For a lasso, the state the run returns to (0: the initial state, `k`:
    /// the state after step `k`); the steps after it repeat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_start: Option<usize>,
    /// The number of steps of the trace.
    pub steps: usize,
    /// For a timelock, the longest further delay (an exact rational) ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<String>,
    /// ... and what stops time: ``the invariant of `P.c` ``.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_stopped_by: Option<String>,
    /// For a model error, the error in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether the check is about maximal runs (`A<>`, `E[]`, `-->`): its
    /// trace is a run that never reaches the formula (or keeps it).
    pub run: bool,
}

impl Ending {
    /// Marks the end a deadlock; with `time_limit` (the longest further
    /// delay and what stops time) a timelock.
    pub fn set_deadlock(&mut self, time_limit: Option<(String, String)>) {
        self.kind = EndingKind::Deadlock;
        if let Some((most, why)) = time_limit {
            self.kind = EndingKind::Timelock;
            self.time_limit = Some(most);
            self.time_stopped_by = Some(why);
        }
    }

    /// The ending in a word or two, for a column header or a lens:
    /// `violation`, `goal`, `deadlock`, `timelock`, `loop to 2`, `time
    /// diverges`, `model error`.
    pub fn label(&self) -> String {
        match self.kind {
            EndingKind::Goal => "goal".to_string(),
            EndingKind::Violation => "violation".to_string(),
            EndingKind::Deadlock => "deadlock".to_string(),
            EndingKind::Timelock => "timelock".to_string(),
            EndingKind::Loop => format!("loop to {}", self.loop_start.unwrap_or(0)),
            EndingKind::TimeDiverges => "time diverges".to_string(),
            EndingKind::ModelError => "model error".to_string(),
        }
    }

    /// The ending in one sentence that names the check `name` and its
    /// `formula` as written (`A[] n < 1`):
    /// ``deadlock: no transition is enabled now or after any delay, so
    /// `nodead` (A[] not deadlock) is violated``.
    pub fn words(&self, name: &str, formula: &str) -> String {
        match self.kind {
            EndingKind::ModelError => self.event(None),
            _ => format!(
                "{}, so `{name}` ({formula}) is {}",
                self.event(Some(operand(formula))),
                self.verdict
            ),
        }
    }

    /// [`Ending::words`] where the formula's text is not at hand (the
    /// editors show it beside the check's name): ``the check's formula is
    /// false here, so `safe` is violated``.
    pub fn words_for(&self, name: &str) -> String {
        match self.kind {
            EndingKind::ModelError => self.event(None),
            _ => format!("{}, so `{name}` is {}", self.event(None), self.verdict),
        }
    }

    /// What happens, without the check: for views that name the check
    /// elsewhere (the pictures). `target` is the formula the trace is about
    /// (`p` of `A[] p`, `q` of `p --> q`) when known.
    pub fn event(&self, target: Option<&str>) -> String {
        let formula = |s: &str| match target {
            Some(t) => format!("`{t}` {s}"),
            None => format!("the check's formula {s}"),
        };
        // How a maximal run relates to its formula.
        let along = match (self.verdict.as_str(), target) {
            ("witnessed", Some(t)) => format!(", keeping `{t}` all along"),
            ("witnessed", None) => ", keeping the check's formula all along".to_string(),
            (_, Some(t)) => format!(", never reaching `{t}`"),
            (_, None) => ", never reaching the check's formula".to_string(),
        };
        let stuck = "no transition is enabled now or after any delay";
        let ends = |what: String| match self.run {
            true => format!("{what}: the run ends there{along}"),
            false => what,
        };
        match self.kind {
            EndingKind::Goal => formula("holds here"),
            EndingKind::Violation => formula("is false here"),
            EndingKind::Deadlock => ends(format!("deadlock: {stuck}")),
            EndingKind::Timelock => ends(format!(
                "timelock: time cannot pass more than {} here ({}) and {stuck}",
                self.time_limit.as_deref().unwrap_or("?"),
                self.time_stopped_by.as_deref().unwrap_or("?"),
            )),
            EndingKind::Loop => {
                let start = self.loop_start.unwrap_or(0);
                let at = match start {
                    0 => "the initial state".to_string(),
                    k => format!("the state after step {k}"),
                };
                let repeat = match (start + 1, self.steps) {
                    (a, b) if a == b => format!("step {a} repeats"),
                    (a, b) => format!("steps {a}–{b} repeat"),
                };
                format!("loop: back at {at} (clocks in its zone), {repeat} forever{along}")
            }
            EndingKind::TimeDiverges => {
                format!("time passes forever with no further action{along}")
            }
            EndingKind::ModelError => format!(
                "model error: {}",
                self.error.as_deref().unwrap_or("a run-time error")
            ),
        }
    }
}

/// The formula a check's trace is about: `p` of `A[] p`, `E<> p`, `A<> p`,
/// `E[] p`, and `q` of `p --> q`; the whole text when it has none of these
/// shapes.
fn operand(formula: &str) -> &str {
    let f = formula.trim();
    if let Some((_, q)) = f.split_once("-->") {
        return q.trim();
    }
    for quantifier in ["A[]", "E<>", "A<>", "E[]"] {
        if let Some(rest) = f.strip_prefix(quantifier) {
            return rest.trim();
        }
    }
    f
}
