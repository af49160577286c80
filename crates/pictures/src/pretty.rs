//! Prints ir expressions, clock constraints, synchronisations and updates back
//! as readable model text, with the network's variable, clock and channel names.
//! Expressions go through the printer the exporters share
//! ([`zeno_ir::print`]), in zeno's own style.
//!
//! The ir has folded constants and expanded `select`s, so the text is the
//! instance's view of an edge (`id = 1`, not `id = pid`).

use zeno_ir::print::{Names, Printer, Style};
use zeno_ir::{
    BinOp, ChanRef, ClockConstraint, Edge, Expr, LValue, Network, Sync, SyncDir, Update, VarId,
};

/// The name of an array from the name of its first slot: `a[0]` gives `a`.
fn array_name(first_slot: &str) -> &str {
    match first_slot.rfind('[') {
        Some(i) if first_slot.ends_with(']') => &first_slot[..i],
        _ => first_slot,
    }
}

/// The network's display names: `P1.count`, `a[2]`, and `a` for an array.
struct DisplayNames<'n>(&'n Network);

impl Names for DisplayNames<'_> {
    fn var(&self, v: VarId) -> String {
        self.0
            .variables
            .get(v as usize)
            .map_or_else(|| format!("v{v}"), |var| var.name.clone())
    }

    fn array(&self, base: VarId) -> (String, u32) {
        let name = self.0.variables.get(base as usize).map_or_else(
            || format!("v{base}"),
            |var| array_name(&var.name).to_owned(),
        );
        (name, 0)
    }
}

/// A clock's display name (`x`, `P1.x`); the reference clock prints as `0`.
pub fn clock_name(net: &Network, c: u32) -> String {
    net.clocks
        .get(c as usize)
        .map_or_else(|| format!("c{c}"), |clock| clock.name.clone())
}

/// An expression as text.
pub fn expr(net: &Network, e: &Expr) -> String {
    Printer::new(&DisplayNames(net), Style::ZENO).expr(e)
}

/// `-e` as text, folding a constant or a negation away.
fn negated(net: &Network, e: &Expr) -> String {
    Printer::new(&DisplayNames(net), Style::ZENO).negated(e)
}

/// The bound of a clock comparison: parenthesised when it binds looser
/// than the comparison (`x <= (c ? 1 : 2)`).
fn bound(net: &Network, e: &Expr) -> String {
    Printer::new(&DisplayNames(net), Style::ZENO).operand(e, zeno_ir::BinOp::Le)
}

/// A clock constraint as the user wrote it: `x <= 5`, `x > 2`, `x - y < 3`
/// (in the model's time unit where lowering refined it: `x <= 2/5`).
pub fn constraint(net: &Network, c: &ClockConstraint) -> String {
    let op = if c.strict { "<" } else { "<=" };
    if c.j == 0 {
        let b = model_time(net, &c.bound, false).unwrap_or_else(|| bound(net, &c.bound));
        format!("{} {op} {b}", clock_name(net, c.i))
    } else if c.i == 0 {
        // 0 - x <= b  is  x >= -b
        let op = if c.strict { ">" } else { ">=" };
        let b = model_time(net, &c.bound, true).unwrap_or_else(|| negated(net, &c.bound));
        format!("{} {op} {b}", clock_name(net, c.j))
    } else {
        let b = model_time(net, &c.bound, false).unwrap_or_else(|| bound(net, &c.bound));
        format!(
            "{} - {} {op} {b}",
            clock_name(net, c.i),
            clock_name(net, c.j),
        )
    }
}

/// A clock bound or reset value of a network whose time unit lowering
/// refined by L, in the model's unit (negated with `negate`): a constant
/// divided by L (`2/5`), `L * e` as `e` (lowering multiplies a value read
/// from the state so). `None` where the unit is the model's, or for
/// another form.
fn model_time(net: &Network, e: &Expr, negate: bool) -> Option<String> {
    let scale = net.time_scale;
    if scale.is_unit() {
        return None;
    }
    let (e, negate) = match e {
        Expr::Unary(zeno_ir::UnOp::Neg, inner) => (&**inner, !negate),
        e => (e, negate),
    };
    match e {
        Expr::Const(b) => {
            let b = i64::from(*b);
            let b = if negate { -b } else { b };
            Some(scale.user_text(num_rational::Rational64::from_integer(b)))
        }
        Expr::Binary(zeno_ir::BinOp::Mul, k, inner) if matches!(**k, Expr::Const(k) if k as u32 == scale.0) => {
            Some(if negate {
                negated(net, inner)
            } else {
                bound(net, inner)
            })
        }
        _ => None,
    }
}

/// A conjunction of clock constraints; `x <= 5 && x >= 5` prints as `x == 5`.
pub fn constraints(net: &Network, cs: &[ClockConstraint]) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = vec![false; cs.len()];
    for (k, c) in cs.iter().enumerate() {
        if used[k] {
            continue;
        }
        let mirror = cs.iter().enumerate().position(|(m, d)| {
            !used[m]
                && m != k
                && !c.strict
                && !d.strict
                && c.j == 0
                && d.i == 0
                && d.j == c.i
                && negated(net, &d.bound) == bound(net, &c.bound)
        });
        used[k] = true;
        match mirror {
            Some(m) => {
                used[m] = true;
                let value = model_time(net, &c.bound, false).unwrap_or_else(|| expr(net, &c.bound));
                out.push(format!("{} == {value}", clock_name(net, c.i)));
            }
            None => out.push(constraint(net, c)),
        }
    }
    out
}

fn chan_ref(net: &Network, c: &ChanRef) -> String {
    let name = net
        .channels
        .get(c.base as usize)
        .map_or_else(|| format!("ch{}", c.base), |ch| ch.name.clone());
    match &c.index {
        Some(i) => format!("{}[{}]", array_name(&name), expr(net, i)),
        None => name,
    }
}

/// `go!` or `go[i]?`.
pub fn sync(net: &Network, s: &Sync) -> String {
    let dir = match s.dir {
        SyncDir::Send => '!',
        SyncDir::Receive => '?',
    };
    format!("{}{dir}", chan_ref(net, &s.channel))
}

fn lvalue(net: &Network, l: &LValue) -> String {
    match &l.index {
        Some(i) => format!("{}[{}]", DisplayNames(net).array(l.base).0, expr(net, i)),
        None => DisplayNames(net).var(l.base),
    }
}

/// `x = 0` or `a[i] = a[i] + 1`.
pub fn update(net: &Network, u: &Update) -> String {
    match u {
        Update::Assign { target, value } => {
            format!("{} = {}", lvalue(net, target), expr(net, value))
        }
        Update::ResetClock { clock, value } => {
            let value =
                model_time(net, &Expr::Const(*value), false).unwrap_or_else(|| value.to_string());
            format!("{} = {value}", clock_name(net, *clock))
        }
        // An assignment that calls a function with effects runs as a call
        // without a name: show the assignment.
        Update::Call(c) if c.name.is_empty() => match c.body.first() {
            Some(zeno_ir::Stmt::Assign { target, value, .. }) => {
                format!("{} = {}", lvalue(net, target), expr(net, value))
            }
            // A clock reset to a value that depends on the state, as written.
            Some(zeno_ir::Stmt::ResetClock { clock, value }) => {
                let name = clock_name(net, clock.base);
                let lhs = match &clock.index {
                    Some(i) => format!("{}[{}]", array_name(&name), expr(net, i)),
                    None => name,
                };
                let value = model_time(net, value, false).unwrap_or_else(|| expr(net, value));
                format!("{lhs} = {value}")
            }
            _ => String::new(),
        },
        Update::Call(c) => expr(net, &zeno_ir::Expr::Call(c.clone())),
    }
}

/// The guard of an edge: the data part, then the clock part.
pub fn guard(net: &Network, e: &Edge) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(g) = &e.guard {
        // An `||` at the top level would bind looser than the `&&` that joins the parts.
        parts.push(Printer::new(&DisplayNames(net), Style::ZENO).operand(g, BinOp::And));
    }
    parts.extend(constraints(net, &e.clock_guard));
    if parts.is_empty() {
        None
    } else {
        Some(parts.join(" && "))
    }
}

/// The label lines of an edge, UPPAAL style: select, guard, sync, update.
pub fn edge_label(net: &Network, e: &Edge) -> Vec<String> {
    let mut lines = Vec::new();
    if !e.selects.is_empty() {
        let binds: Vec<String> = e
            .selects
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect();
        lines.push(format!("select {}", binds.join(", ")));
    }
    if let Some(g) = guard(net, e) {
        lines.push(format!("when {g}"));
    }
    if let Some(s) = &e.sync {
        lines.push(format!("sync {}", sync(net, s)));
    } else if let Some(label) = &e.label {
        lines.push(format!("sync {label}"));
    }
    if !e.updates.is_empty() {
        let us: Vec<String> = e.updates.iter().map(|u| update(net, u)).collect();
        lines.push(format!("do {}", us.join(", ")));
    }
    lines
}
