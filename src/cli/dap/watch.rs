//! Watch expressions, breakpoint conditions and hovers: an expression of
//! the model's language, read in the model's context by the model's own
//! analysis and evaluated in the current state.
//!
//! The expression is appended to the model as a check and the model is
//! analysed again, so names, types, functions and quantifiers mean what
//! they mean in a check: first as a value query (`sup: EXPR`), which takes a
//! clock or an integer expression, then as a condition (`E<> EXPR`), which
//! takes location tests, clock constraints and `deadlock`. What the analysis
//! says about the expression is the error message, with the expression's
//! own column.

use num_rational::Rational64;
use zeno::diagnostics::Severity;
use zeno::ir::{BoundValue, CheckKind, ClockId, Expr, Formula, Network};
use zeno::semantics;

/// A watch expression read in the model's context.
#[derive(Debug, Clone)]
pub enum Watch {
    /// A clock: its value.
    Clock(ClockId),
    /// An integer expression.
    Value(Expr),
    /// A condition: true or false.
    Condition(Formula),
}

/// Reads `expression` in the context of the model `zeno`.
pub fn parse(zeno: &str, expression: &str) -> Result<Watch, String> {
    let expression = expression.trim();
    if expression.is_empty() {
        return Err("an empty expression".to_string());
    }
    // The expression must stay inside the check written around it.
    if expression.contains([';', '\n', '\r']) || expression.contains("//") {
        return Err(
            "a watch expression is one expression, without `;`, line breaks or comments"
                .to_string(),
        );
    }
    let as_value = analyse(zeno, "sup: ", expression);
    let check = match as_value {
        Ok(check) => check,
        Err(value_error) => match analyse(zeno, "E<> ", expression) {
            Ok(check) => check,
            Err(_) => return Err(value_error),
        },
    };
    match check {
        CheckKind::Bound(b) => match b.terms.into_iter().next().map(|t| t.value) {
            Some(BoundValue::Clock(c)) => Ok(Watch::Clock(c)),
            Some(BoundValue::Data(e)) => Ok(Watch::Value(e)),
            None => Err("the expression gave no value".to_string()),
        },
        CheckKind::Reachable(f) => Ok(Watch::Condition(f)),
        _ => Err("the expression is not a value or a condition".to_string()),
    }
}

/// `expression` as read inside the template of `process` (a frame's
/// process): each bare name that is one of the process's own (a local
/// variable, clock, parameter or location: `process.NAME` is an
/// expression by itself) qualified with the process, `x` as `Proc(1).x`,
/// as the template's text reads it (its own names hide the globals). Names
/// after a `.` and names called (`f(…)`, `Proc(1)`) stay as written.
pub fn in_process(zeno: &str, process: &str, expression: &str) -> String {
    let chars: Vec<(usize, char)> = expression.char_indices().collect();
    let mut out = String::new();
    let mut k = 0;
    while k < chars.len() {
        let (start, c) = chars[k];
        if !(c.is_alphabetic() || c == '_') {
            out.push(c);
            k += 1;
            continue;
        }
        let mut end = k;
        while end < chars.len() && (chars[end].1.is_alphanumeric() || chars[end].1 == '_') {
            end += 1;
        }
        let stop = chars.get(end).map_or(expression.len(), |&(i, _)| i);
        let name = &expression[start..stop];
        let after_dot = expression[..start].trim_end().ends_with('.');
        let called = expression[stop..].trim_start().starts_with('(');
        let own = !after_dot && !called && parse(zeno, &format!("{process}.{name}")).is_ok();
        if own {
            out.push_str(process);
            out.push('.');
        }
        out.push_str(name);
        k = end;
    }
    out
}

/// The analysed check `PREFIX(EXPRESSION)` appended to the model, or the
/// first error about it, located by the expression's column.
fn analyse(zeno: &str, prefix: &str, expression: &str) -> Result<CheckKind, String> {
    // A check name the model does not use anywhere.
    let name = (0..)
        .map(|i| format!("__watch{i}"))
        .find(|n| !zeno.contains(n.as_str()))
        .unwrap_or_default();
    let head = format!("\ncheck {name}: {prefix}(");
    let start = zeno.len() + head.len();
    let text = format!("{zeno}{head}{expression});\n");
    let analysis = semantics::analyze(&text);
    if let Some(e) = analysis
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
    {
        let at = (e.range.start as usize).saturating_sub(start);
        let column = expression
            .get(..at.min(expression.len()))
            .map_or(1, |s| s.chars().count() + 1);
        let message = e.message.replace(
            "`sup` and `inf` take a clock or an integer expression",
            "a watch expression is a clock, an integer expression or a condition",
        );
        return Err(if e.range.start as usize >= start {
            format!("{message} (column {column} of the expression)")
        } else {
            message
        });
    }
    let network = analysis
        .network
        .ok_or("the expression could not be analysed")?;
    let check = network
        .checks
        .into_iter()
        .find(|c| c.name == name)
        .ok_or("the expression could not be analysed")?;
    Ok(check.kind)
}

/// What an expression is worth in a state.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Clock(Rational64),
    Int(i32),
    Bool(bool),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Clock(q) => write!(f, "{q}"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A concrete state to evaluate in: locations, variables, clock values,
/// and whether it is a deadlock (the simulator decides that).
pub struct At<'s> {
    pub locations: &'s [u32],
    pub variables: &'s [i32],
    pub clocks: &'s [Rational64],
    pub deadlock: &'s dyn Fn() -> Result<bool, String>,
}

/// Evaluates `watch` in `state`; a run-time error of the model (an index
/// out of range, a division by zero) is the error.
pub fn evaluate(net: &Network, watch: &Watch, state: &At) -> Result<Value, String> {
    let describe = |e| zeno::report::describe_error(net, &e);
    match watch {
        Watch::Clock(c) => clock(state, *c).map(Value::Clock),
        Watch::Value(e) => e.eval(state.variables).map(Value::Int).map_err(describe),
        Watch::Condition(f) => holds(net, f, state).map(Value::Bool),
    }
}

fn clock(state: &At, c: ClockId) -> Result<Rational64, String> {
    state
        .clocks
        .get(c as usize)
        .copied()
        .ok_or_else(|| format!("no clock #{c} in the state"))
}

/// A condition in a concrete state, evaluated left to right and lazily as
/// the checker evaluates formulas (an error in a part evaluated is the
/// condition's error).
fn holds(net: &Network, f: &Formula, state: &At) -> Result<bool, String> {
    let describe = |e| zeno::report::describe_error(net, &e);
    Ok(match f {
        Formula::True => true,
        Formula::False => false,
        Formula::At { process, location } => {
            state.locations.get(*process as usize) == Some(location)
        }
        Formula::Data(e) => e.eval(state.variables).map_err(describe)? != 0,
        Formula::Clock(cc) => {
            let bound = cc.bound.eval(state.variables).map_err(describe)?;
            let d = clock(state, cc.i)? - clock(state, cc.j)?;
            let b = Rational64::from_integer(bound.into());
            if cc.strict { d < b } else { d <= b }
        }
        Formula::Deadlock => (state.deadlock)()?,
        Formula::Not(g) => !holds(net, g, state)?,
        Formula::And(gs) => {
            for g in gs {
                if !holds(net, g, state)? {
                    return Ok(false);
                }
            }
            true
        }
        Formula::Or(gs) => {
            for g in gs {
                if holds(net, g, state)? {
                    return Ok(true);
                }
            }
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: &str = "int[0,5] n = 1;\nint a[3];\nclock x;\n\
        template P() { clock y; init location A; location B; A -> B do y = 0, n = 2; }\n\
        system P;\n";

    fn eval(expression: &str, clocks: &[i64]) -> Result<String, String> {
        let net = semantics::analyze(MODEL).network.unwrap();
        let watch = parse(MODEL, expression)?;
        let clocks: Vec<Rational64> = clocks.iter().map(|&c| Rational64::from(c)).collect();
        let state = At {
            locations: &[1],
            variables: &[1, 0, 7, 0],
            clocks: &clocks,
            deadlock: &|| Ok(true),
        };
        evaluate(&net, &watch, &state).map(|v| v.to_string())
    }

    #[test]
    fn values_clocks_and_conditions() {
        assert_eq!(eval("n + a[1]", &[0, 3, 2]), Ok("8".into()));
        assert_eq!(eval("P.y", &[0, 3, 2]), Ok("2".into()));
        assert_eq!(eval("P.B && x > 2", &[0, 3, 2]), Ok("true".into()));
        assert_eq!(eval("P.A || x - P.y > 1", &[0, 3, 2]), Ok("false".into()));
        assert_eq!(eval("deadlock", &[0, 0, 0]), Ok("true".into()));
    }

    #[test]
    fn a_frames_own_names_are_read_as_its_process() {
        // `y` is P's clock, `B` its location; `n` and `x` are globals.
        assert_eq!(in_process(MODEL, "P", "y + n"), "P.y + n");
        assert_eq!(in_process(MODEL, "P", "B && x > 2"), "P.B && x > 2");
        // Already qualified, called, or unknown: as written.
        assert_eq!(in_process(MODEL, "P", "P.y"), "P.y");
        assert_eq!(in_process(MODEL, "P", "nosuch"), "nosuch");
        assert_eq!(
            eval(&in_process(MODEL, "P", "y"), &[0, 3, 2]),
            Ok("2".into())
        );
    }

    #[test]
    fn bad_expressions_say_why_and_where() {
        assert_eq!(
            eval("n + nosuch", &[0, 0, 0]),
            Err("unknown name `nosuch` (column 5 of the expression)".into())
        );
        assert_eq!(
            eval("n +", &[0, 0, 0]),
            Err("expected an expression, found `)` (column 4 of the expression)".into())
        );
        assert!(eval("n; check", &[0]).unwrap_err().contains("without `;`"));
        assert_eq!(
            eval("a[n * 3]", &[0, 0, 0]),
            Err("array index 3 is out of bounds 0..3".into())
        );
    }
}
