//! Prints ir expressions, clock constraints, synchronisations and updates back
//! as readable model text, with the network's variable, clock and channel names.
//!
//! The ir has folded constants and expanded `select`s, so the text is the
//! instance's view of an edge (`id = 1`, not `id = pid`).

use crate::ir::{
    BinOp, ChanRef, ClockConstraint, Edge, Expr, LValue, Network, Sync, SyncDir, UnOp, Update,
};

/// Binding strength, higher binds tighter (C's precedence levels).
fn binop_prec(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 2,
        BinOp::And => 3,
        BinOp::BitOr => 4,
        BinOp::BitXor => 5,
        BinOp::BitAnd => 6,
        BinOp::Eq | BinOp::Ne => 7,
        BinOp::Lt | BinOp::Le | BinOp::Ge | BinOp::Gt => 8,
        BinOp::Shl | BinOp::Shr => 9,
        BinOp::Add | BinOp::Sub => 10,
        BinOp::Mul | BinOp::Div | BinOp::Mod => 11,
        // Printed as calls, which need no parentheses.
        BinOp::Min | BinOp::Max => 14,
    }
}

fn binop_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Mod => "%",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Ge => ">=",
        BinOp::Gt => ">",
        BinOp::And => "&&",
        BinOp::Or => "||",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Min => "min",
        BinOp::Max => "max",
    }
}

const PREC_COND: u8 = 1;
const PREC_UNARY: u8 = 12;
const PREC_ATOM: u8 = 15;

/// The name of an array from the name of its first slot: `a[0]` gives `a`.
fn array_name(first_slot: &str) -> &str {
    match first_slot.rfind('[') {
        Some(i) if first_slot.ends_with(']') => &first_slot[..i],
        _ => first_slot,
    }
}

fn var_name(net: &Network, v: u32) -> String {
    net.variables
        .get(v as usize)
        .map_or_else(|| format!("v{v}"), |var| var.name.clone())
}

fn array_var_name(net: &Network, v: u32) -> String {
    net.variables
        .get(v as usize)
        .map_or_else(|| format!("v{v}"), |var| array_name(&var.name).to_owned())
}

/// A clock's display name (`x`, `P1.x`); the reference clock prints as `0`.
pub fn clock_name(net: &Network, c: u32) -> String {
    net.clocks
        .get(c as usize)
        .map_or_else(|| format!("c{c}"), |clock| clock.name.clone())
}

/// An expression as text.
pub fn expr(net: &Network, e: &Expr) -> String {
    let mut out = String::new();
    write_expr(net, e, 0, &mut out);
    out
}

fn write_expr(net: &Network, e: &Expr, min_prec: u8, out: &mut String) {
    let prec = match e {
        Expr::Const(_) | Expr::Var(_) | Expr::Index { .. } => PREC_ATOM,
        Expr::Unary(..) => PREC_UNARY,
        Expr::Binary(op, ..) => binop_prec(*op),
        Expr::Cond(..) => PREC_COND,
    };
    let paren = prec < min_prec;
    if paren {
        out.push('(');
    }
    match e {
        Expr::Const(n) => out.push_str(&n.to_string()),
        Expr::Var(v) => out.push_str(&var_name(net, *v)),
        Expr::Index { base, index, .. } => {
            out.push_str(&array_var_name(net, *base));
            out.push('[');
            write_expr(net, index, 0, out);
            out.push(']');
        }
        Expr::Unary(op, a) => {
            out.push_str(match op {
                UnOp::Neg => "-",
                UnOp::Not => "!",
                UnOp::BitNot => "~",
            });
            write_expr(net, a, PREC_UNARY, out);
        }
        Expr::Binary(op @ (BinOp::Min | BinOp::Max), a, b) => {
            out.push_str(binop_text(*op));
            out.push('(');
            write_expr(net, a, 0, out);
            out.push_str(", ");
            write_expr(net, b, 0, out);
            out.push(')');
        }
        Expr::Binary(op, a, b) => {
            // Left-associative: the right operand needs parentheses at equal precedence.
            write_expr(net, a, prec, out);
            out.push(' ');
            out.push_str(binop_text(*op));
            out.push(' ');
            write_expr(net, b, prec + 1, out);
        }
        Expr::Cond(c, a, b) => {
            write_expr(net, c, PREC_COND + 1, out);
            out.push_str(" ? ");
            write_expr(net, a, PREC_COND + 1, out);
            out.push_str(" : ");
            write_expr(net, b, PREC_COND, out);
        }
    }
    if paren {
        out.push(')');
    }
}

/// `-e` as text, folding a constant or a negation away.
fn negated(net: &Network, e: &Expr) -> String {
    match e {
        Expr::Const(n) => n.wrapping_neg().to_string(),
        Expr::Unary(UnOp::Neg, inner) => expr(net, inner),
        _ => {
            let mut out = String::from("-");
            write_expr(net, e, PREC_UNARY, &mut out);
            out
        }
    }
}

/// A clock constraint as the user wrote it: `x <= 5`, `x > 2`, `x - y < 3`.
pub fn constraint(net: &Network, c: &ClockConstraint) -> String {
    let op = if c.strict { "<" } else { "<=" };
    if c.j == 0 {
        format!("{} {op} {}", clock_name(net, c.i), expr(net, &c.bound))
    } else if c.i == 0 {
        // 0 - x <= b  is  x >= -b
        let op = if c.strict { ">" } else { ">=" };
        format!("{} {op} {}", clock_name(net, c.j), negated(net, &c.bound))
    } else {
        format!(
            "{} - {} {op} {}",
            clock_name(net, c.i),
            clock_name(net, c.j),
            expr(net, &c.bound)
        )
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
                && negated(net, &d.bound) == expr(net, &c.bound)
        });
        used[k] = true;
        match mirror {
            Some(m) => {
                used[m] = true;
                out.push(format!(
                    "{} == {}",
                    clock_name(net, c.i),
                    expr(net, &c.bound)
                ));
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
        Some(i) => format!("{}[{}]", array_var_name(net, l.base), expr(net, i)),
        None => var_name(net, l.base),
    }
}

/// `x = 0` or `a[i] = a[i] + 1`.
pub fn update(net: &Network, u: &Update) -> String {
    match u {
        Update::Assign { target, value } => {
            format!("{} = {}", lvalue(net, target), expr(net, value))
        }
        Update::ResetClock { clock, value } => format!("{} = {value}", clock_name(net, *clock)),
    }
}

/// The guard of an edge: the data part, then the clock part.
pub fn guard(net: &Network, e: &Edge) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(g) = &e.guard {
        // An `||` at the top level would bind looser than the `&&` that joins the parts.
        let mut s = String::new();
        write_expr(net, g, binop_prec(BinOp::And) + 1, &mut s);
        parts.push(s);
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
