//! The goal formula as a disjunction of conjunctions of atoms (DNF), the form
//! every heuristic here works on: h is the minimum over the disjuncts.
//!
//! Negations are pushed down to the atoms. Atoms the heuristics cannot judge
//! (clock constraints, `deadlock`) become `true` in both polarities, which only
//! weakens the goal and so keeps the estimates admissible. The same trick bounds
//! the size of the DNF: a conjunct whose expansion would exceed
//! [`MAX_DISJUNCTS`] is dropped, and a disjunction that grows too large is
//! replaced by the atoms common to all its disjuncts.

use zeno_ir::{BinOp, Expr, Formula, LocId, Network, ProcId, UnOp};

/// Upper bound on the number of disjuncts kept (mutual exclusion of `n`
/// processes has `n (n - 1) / 2` disjuncts: 105 for Fischer with 15).
pub(crate) const MAX_DISJUNCTS: usize = 256;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Atom {
    At(ProcId, LocId),
    NotAt(ProcId, LocId),
    /// True when the expression is non-zero.
    Data(Expr),
}

/// A conjunction of atoms.
pub(crate) type Conjunction = Vec<Atom>;

/// The goal in DNF; an empty list is `false`, a list holding an empty
/// conjunction is `true`. Conjunctions that are unsatisfiable on locations
/// alone (a process in two places) are removed.
pub(crate) fn dnf(network: &Network, goal: &Formula) -> Vec<Conjunction> {
    let mut d = to_dnf(goal, true);
    d.retain(|c| locations_consistent(network, c));
    d
}

fn to_dnf(f: &Formula, positive: bool) -> Vec<Conjunction> {
    let truth = |b: bool| if b { vec![vec![]] } else { vec![] };
    match f {
        Formula::True => truth(positive),
        Formula::False => truth(!positive),
        Formula::At { process, location } => {
            let atom = if positive {
                Atom::At(*process, *location)
            } else {
                Atom::NotAt(*process, *location)
            };
            vec![vec![atom]]
        }
        Formula::Data(e) => {
            let e = if positive { e.clone() } else { negate(e) };
            if e.is_constant() {
                // A constant that fails to evaluate is a model error found
                // elsewhere; `true` is the safe reading here.
                truth(e.eval(&[]).ok().is_none_or(|v| v != 0))
            } else {
                vec![vec![Atom::Data(e)]]
            }
        }
        Formula::Clock(_) | Formula::Deadlock => truth(true),
        Formula::Not(g) => to_dnf(g, !positive),
        Formula::And(fs) if positive => conjunction(fs.iter().map(|g| to_dnf(g, true))),
        Formula::Or(fs) if !positive => conjunction(fs.iter().map(|g| to_dnf(g, false))),
        Formula::And(fs) | Formula::Or(fs) => disjunction(fs.iter().map(|g| to_dnf(g, positive))),
    }
}

fn conjunction(parts: impl Iterator<Item = Vec<Conjunction>>) -> Vec<Conjunction> {
    let mut parts: Vec<Vec<Conjunction>> = parts.collect();
    if parts.iter().any(|p| p.is_empty()) {
        return vec![];
    }
    // Small factors first, so that dropping (weakening) hits the big ones.
    parts.sort_by_key(|p| p.len());
    let mut acc: Vec<Conjunction> = vec![vec![]];
    for part in parts {
        if acc.len() * part.len() > MAX_DISJUNCTS {
            continue; // dropping a conjunct weakens the goal: still admissible
        }
        let mut next = Vec::with_capacity(acc.len() * part.len());
        for a in &acc {
            for b in &part {
                let mut c = a.clone();
                for atom in b {
                    if !c.contains(atom) {
                        c.push(atom.clone());
                    }
                }
                next.push(c);
            }
        }
        acc = next;
    }
    acc
}

fn disjunction(parts: impl Iterator<Item = Vec<Conjunction>>) -> Vec<Conjunction> {
    let mut all: Vec<Conjunction> = Vec::new();
    for p in parts {
        for c in p {
            if c.is_empty() {
                return vec![vec![]];
            }
            if !all.contains(&c) {
                all.push(c);
            }
        }
    }
    if all.len() > MAX_DISJUNCTS {
        // The atoms common to all disjuncts form a weaker goal.
        let mut common = all[0].clone();
        common.retain(|a| all.iter().all(|c| c.contains(a)));
        return vec![common];
    }
    all
}

/// `!e` as an expression, with the negation pushed into comparisons and
/// logical connectives so that interval reasoning stays precise.
pub(crate) fn negate(e: &Expr) -> Expr {
    let bin = |op, a: &Expr, b: &Expr| Expr::Binary(op, Box::new(a.clone()), Box::new(b.clone()));
    match e {
        Expr::Unary(UnOp::Not, inner) => {
            // `!!x` is `x != 0`, which as a truth value is `x` itself.
            (**inner).clone()
        }
        Expr::Binary(op, a, b) => match op {
            BinOp::Eq => bin(BinOp::Ne, a, b),
            BinOp::Ne => bin(BinOp::Eq, a, b),
            BinOp::Lt => bin(BinOp::Ge, a, b),
            BinOp::Le => bin(BinOp::Gt, a, b),
            BinOp::Gt => bin(BinOp::Le, a, b),
            BinOp::Ge => bin(BinOp::Lt, a, b),
            BinOp::And => Expr::Binary(BinOp::Or, Box::new(negate(a)), Box::new(negate(b))),
            BinOp::Or => Expr::Binary(BinOp::And, Box::new(negate(a)), Box::new(negate(b))),
            _ => Expr::Unary(UnOp::Not, Box::new(e.clone())),
        },
        Expr::Const(c) => Expr::Const((*c == 0) as i32),
        _ => Expr::Unary(UnOp::Not, Box::new(e.clone())),
    }
}

fn locations_consistent(network: &Network, c: &Conjunction) -> bool {
    for atom in c {
        match *atom {
            Atom::At(p, l) => {
                let exists = network
                    .processes
                    .get(p as usize)
                    .is_some_and(|q| (l as usize) < q.locations.len());
                if !exists {
                    return false;
                }
                let clash = c.iter().any(|b| match *b {
                    Atom::At(q, m) => q == p && m != l,
                    Atom::NotAt(q, m) => q == p && m == l,
                    Atom::Data(_) => false,
                });
                if clash {
                    return false;
                }
            }
            Atom::NotAt(p, _) => {
                // Every location of p excluded?
                let n = network
                    .processes
                    .get(p as usize)
                    .map_or(0, |q| q.locations.len());
                let excluded = (0..n as LocId)
                    .filter(|&l| c.contains(&Atom::NotAt(p, l)))
                    .count();
                if excluded == n {
                    return false;
                }
            }
            Atom::Data(_) => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(p: ProcId, l: LocId) -> Formula {
        Formula::At {
            process: p,
            location: l,
        }
    }

    fn x_eq(c: i32) -> Expr {
        Expr::Binary(BinOp::Eq, Box::new(Expr::Var(0)), Box::new(Expr::Const(c)))
    }

    fn net(locs: &[usize]) -> Network {
        let mut n = Network::default();
        for &k in locs {
            n.processes.push(zeno_ir::Process {
                name: "P".into(),
                template: "P".into(),
                locations: (0..k)
                    .map(|i| zeno_ir::Location {
                        name: format!("l{i}"),
                        kind: zeno_ir::LocationKind::Normal,
                        invariant: vec![],
                        data_invariant: None,
                        stopped: Vec::new(),
                        running: Vec::new(),
                        data_rates: Vec::new(),
                        span: Default::default(),
                    })
                    .collect(),
                edges: vec![],
                initial: 0,
                span: Default::default(),
            });
        }
        n
    }

    #[test]
    fn negation_reaches_the_atoms() {
        let n = net(&[3]);
        let f = Formula::Not(Box::new(Formula::And(vec![
            at(0, 1),
            Formula::Data(x_eq(3)),
        ])));
        let d = dnf(&n, &f);
        let ne = Expr::Binary(BinOp::Ne, Box::new(Expr::Var(0)), Box::new(Expr::Const(3)));
        assert_eq!(d, vec![vec![Atom::NotAt(0, 1)], vec![Atom::Data(ne)]]);
    }

    #[test]
    fn clocks_and_deadlock_are_true_in_both_polarities() {
        let n = net(&[2]);
        let f = Formula::And(vec![Formula::Not(Box::new(Formula::Deadlock)), at(0, 1)]);
        assert_eq!(dnf(&n, &f), vec![vec![Atom::At(0, 1)]]);
        let g = Formula::Not(Box::new(Formula::Deadlock));
        assert_eq!(dnf(&n, &g), vec![vec![]]);
    }

    #[test]
    fn contradictory_locations_are_dropped() {
        let n = net(&[3]);
        let f = Formula::Or(vec![
            Formula::And(vec![at(0, 1), at(0, 2)]),
            Formula::And(vec![at(0, 1), Formula::Not(Box::new(at(0, 1)))]),
            at(0, 2),
        ]);
        assert_eq!(dnf(&n, &f), vec![vec![Atom::At(0, 2)]]);
        assert_eq!(dnf(&n, &Formula::False), Vec::<Conjunction>::new());
    }

    #[test]
    fn blow_up_is_capped_by_weakening() {
        // (a1|b1) & (a2|b2) & ... with 10 factors would be 1024 disjuncts.
        let n = net(&[2; 10]);
        let f = Formula::And(
            (0..10)
                .map(|p| Formula::Or(vec![at(p, 0), at(p, 1)]))
                .collect(),
        );
        let d = dnf(&n, &f);
        assert!(d.len() <= MAX_DISJUNCTS);
        // Eight factors fit (2^8 = 256 disjuncts); the others were dropped.
        assert_eq!(d.len(), 256);
        assert!(d.iter().all(|c| c.len() == 8));
    }
}
