//! Deciding which components are safe and building the reduced network
//! (the conditions are listed in the module above).

use std::collections::VecDeque;

use zeno_ir::{
    BinOp, ChannelKind, CheckId, CheckKind, EdgeId, Expr, Formula, LocId, LocationKind, Network,
    ProcId, SyncDir, Update, VarId,
};

use super::MAX_GOAL_COMBINATIONS;

/// Largest slot domain considered (as the causal graph's).
const MAX_DOMAIN: i64 = 512;

/// A removed slot or process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Var(VarId),
    Proc(ProcId),
}

/// A removed component with its domain transition graph over the values it
/// can reach (values are offsets from `lo`; locations for a process).
#[derive(Debug, Clone)]
pub(crate) struct Component {
    pub kind: Kind,
    pub lo: i32,
    pub init: u32,
    /// Per value: the moves `(process, edge, to)` leaving it.
    pub moves: Vec<Vec<(ProcId, EdgeId, u32)>>,
    /// Whether the value is reachable from `init`.
    pub reachable: Vec<bool>,
    /// Whether the goal mentions the component.
    pub in_goal: bool,
}

impl Component {
    /// The shortest sequence of moves from `from` to a value satisfying
    /// `target`, and the value reached.
    pub fn path_to(
        &self,
        from: u32,
        mut target: impl FnMut(u32) -> bool,
    ) -> Option<(Vec<(ProcId, EdgeId)>, u32)> {
        let n = self.moves.len();
        let mut prev: Vec<Option<(u32, ProcId, EdgeId)>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([from]);
        seen[from as usize] = true;
        while let Some(v) = queue.pop_front() {
            if target(v) {
                let mut path = Vec::new();
                let mut at = v;
                while let Some((p, proc_, edge)) = prev[at as usize] {
                    path.push((proc_, edge));
                    at = p;
                }
                path.reverse();
                return Some((path, v));
            }
            for &(p, e, to) in &self.moves[v as usize] {
                if !seen[to as usize] {
                    seen[to as usize] = true;
                    prev[to as usize] = Some((v, p, e));
                    queue.push_back(to);
                }
            }
        }
        None
    }

    /// The reachable values.
    pub fn values(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.moves.len() as u32).filter(|&v| self.reachable[v as usize])
    }
}

/// The reduced network and what was removed (one round of the cascade).
pub(crate) struct Abstraction {
    pub reduced: Network,
    pub components: Vec<Component>,
    /// Components removed (the thesis' #s).
    pub removed: usize,
    /// Combinations of reachable values of the removed components the goal
    /// mentions (how many disjuncts the reduced goal has; 1 if none).
    pub goal_combinations: usize,
}

/// Finds the safe components of `network` for check `check` and builds the
/// reduced network, whose check `check` becomes `E<> goal'`. Components in
/// `already` (removed by earlier rounds of the cascade, whose edges are
/// switched off in `network`) are not considered again; the goal's removed
/// components may have at most `goal_budget` combinations of values.
pub(crate) fn analyse(
    network: &Network,
    check: CheckId,
    already: &[Kind],
    goal_budget: usize,
) -> Abstraction {
    let none = || Abstraction {
        reduced: network.clone(),
        components: Vec::new(),
        removed: 0,
        goal_combinations: 1,
    };
    let chk = network.check(check);
    let goal = chk.kind.goal();
    // A removed component's moves could be blocked by, or block,
    // transitions of a higher or lower priority: with priorities nothing is
    // removed (docs/checker.md, "Priorities").
    // Likewise a broadcast receiver with a clock guard: whether it takes
    // part depends on the zone, which the analysis of data does not follow.
    if goal.mentions_deadlock()
        || !network.priorities.is_empty()
        || network.has_clocked_broadcast_receiver()
    {
        return none();
    }
    let mut components: Vec<Component> = Vec::new();
    for x in 0..network.variables.len() as VarId {
        if already.contains(&Kind::Var(x)) {
            continue;
        }
        if let Some(c) = safe_slot(network, &goal, x) {
            components.push(c);
        }
    }
    for p in 0..network.processes.len() as ProcId {
        if already.contains(&Kind::Proc(p)) {
            continue;
        }
        if let Some(c) = safe_process(network, &goal, p) {
            components.push(c);
        }
    }
    // The goal's components move after the last transition, which a
    // committed location could forbid for ever: with committed locations
    // they stay. And the goal's enumeration stays small: components beyond
    // the bound stay too.
    let committed = network
        .processes
        .iter()
        .flat_map(|p| &p.locations)
        .any(|l| l.kind == LocationKind::Committed);
    let mut combos = 1usize;
    components.retain(|c| {
        if !c.in_goal {
            return true;
        }
        if committed {
            return false;
        }
        let n = c.values().count();
        match combos.checked_mul(n) {
            Some(m) if m <= goal_budget.min(MAX_GOAL_COMBINATIONS) => {
                combos = m;
                true
            }
            _ => false,
        }
    });
    if components.is_empty() {
        return none();
    }
    let mut reduced = network.clone();
    // The reduced network's edges need not be symmetric any more.
    reduced.symmetry = Default::default();
    let safe_slots: Vec<&Component> = components
        .iter()
        .filter(|c| matches!(c.kind, Kind::Var(_)))
        .collect();
    for (p, proc_) in reduced.processes.iter_mut().enumerate() {
        for (e, edge) in proc_.edges.iter_mut().enumerate() {
            let removed_move = components.iter().any(|c| {
                c.moves
                    .iter()
                    .flatten()
                    .any(|&(q, f, _)| q as usize == p && f as usize == e)
            }) || components.iter().any(|c| c.kind == Kind::Proc(p as ProcId));
            if removed_move {
                edge.guard = Some(Expr::Const(0));
                continue;
            }
            if let Some(g) = &edge.guard {
                let mut vars = network.initial_variables();
                let mut replaced = g.clone();
                for c in &safe_slots {
                    let Kind::Var(x) = c.kind else { continue };
                    if reads_slot(g, x) {
                        let ok = satisfiable(c, &[g], x, &mut vars);
                        replaced = replace_conjuncts(&replaced, x, ok);
                    }
                }
                edge.guard = Some(replaced);
            }
        }
    }
    let reduced_goal = exists_goal(&goal, &components);
    if let Some(c) = reduced.checks.get_mut(check.index()) {
        c.kind = CheckKind::Reachable(reduced_goal);
    }
    let removed = components.len();
    Abstraction {
        reduced,
        components,
        removed,
        goal_combinations: combos,
    }
}

/// The slots an expression reads (every element of an indexed array).
fn reads(e: &Expr) -> Vec<VarId> {
    let mut r = Vec::new();
    e.for_each_read(&mut |v| r.push(v));
    r.sort_unstable();
    r.dedup();
    r
}

fn reads_slot(e: &Expr, x: VarId) -> bool {
    let mut found = false;
    e.for_each_read(&mut |v| found |= v == x);
    found
}

/// The guard with every top-level conjunct reading `x` replaced by `ok`.
fn replace_conjuncts(e: &Expr, x: VarId, ok: bool) -> Expr {
    match e {
        Expr::Binary(BinOp::And, a, b) => Expr::Binary(
            BinOp::And,
            Box::new(replace_conjuncts(a, x, ok)),
            Box::new(replace_conjuncts(b, x, ok)),
        ),
        _ if reads_slot(e, x) => Expr::Const(ok as i32),
        _ => e.clone(),
    }
}

/// Whether every conjunct of `guards` reading `x` holds at `value` (offset).
pub(crate) fn accepts(
    c: &Component,
    guards: &[&Expr],
    x: VarId,
    value: u32,
    vars: &mut [i32],
) -> bool {
    vars[x as usize] = c.lo + value as i32;
    guards.iter().all(|g| {
        let mut cs = Vec::new();
        g.conjuncts_into(&mut cs);
        cs.iter()
            .filter(|c| reads_slot(c, x))
            .all(|c| c.eval(vars).is_ok_and(|v| v != 0))
    })
}

/// Whether some reachable value of `x` satisfies all its conjuncts in `guards`.
fn satisfiable(c: &Component, guards: &[&Expr], x: VarId, vars: &mut [i32]) -> bool {
    c.values().any(|v| accepts(c, guards, x, v, vars))
}

/// The channels a synchronisation may use.
fn channel_range(s: &zeno_ir::Sync) -> std::ops::Range<u32> {
    s.channel.base..s.channel.base + s.channel.len.max(1)
}

fn overlaps(a: &std::ops::Range<u32>, b: &std::ops::Range<u32>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The slot `x` as a removable component, or `None` if it is not safe.
fn safe_slot(network: &Network, goal: &Formula, x: VarId) -> Option<Component> {
    let var = &network.variables[x as usize];
    let size = var.hi as i64 - var.lo as i64 + 1;
    if !(1..=MAX_DOMAIN).contains(&size) || !(var.lo..=var.hi).contains(&var.init) {
        return None;
    }
    let size = size as usize;
    let mut writers: Vec<(ProcId, EdgeId)> = Vec::new();
    let mut readers: Vec<(ProcId, EdgeId)> = Vec::new();
    for (p, proc_) in network.processes.iter().enumerate() {
        for loc in &proc_.locations {
            if loc.invariant.iter().any(|c| reads_slot(&c.bound, x))
                || loc
                    .data_invariant
                    .as_ref()
                    .is_some_and(|d| reads_slot(d, x))
            {
                return None;
            }
        }
        for (e, edge) in proc_.edges.iter().enumerate() {
            // A function's effect on `x` is not a simple move: not safe.
            if edge.updates.iter().any(
                |u| matches!(u, Update::Call(c) if c.reads.contains(&x) || c.writes.contains(&x)),
            ) {
                return None;
            }
            let writes = edge.updates.iter().any(|u| match u {
                Update::Assign { target, .. } => {
                    (target.base..target.base + target.len.max(1)).contains(&x)
                }
                Update::ResetClock { .. } | Update::Call(_) => false,
            });
            if edge.clock_guard.iter().any(|c| reads_slot(&c.bound, x))
                || edge
                    .sync
                    .as_ref()
                    .and_then(|s| s.channel.index.as_ref())
                    .is_some_and(|i| reads_slot(i, x))
            {
                return None;
            }
            let id = (p as ProcId, e as EdgeId);
            if writes {
                writers.push(id);
                continue;
            }
            for u in &edge.updates {
                if let Update::Assign { target, value } = u
                    && (reads_slot(value, x)
                        || target.index.as_ref().is_some_and(|i| reads_slot(i, x)))
                {
                    return None;
                }
            }
            if let Some(g) = &edge.guard
                && reads_slot(g, x)
            {
                let mut cs = Vec::new();
                g.conjuncts_into(&mut cs);
                if cs.iter().any(|c| reads_slot(c, x) && reads(c) != [x]) {
                    return None;
                }
                readers.push(id);
            }
        }
    }
    if writers.is_empty() || !goal_reads_ok(goal, x) {
        return None;
    }
    // Writers: moves of `x` alone.
    for &(p, e) in &writers {
        let proc_ = &network.processes[p as usize];
        let edge = &proc_.edges[e as usize];
        let only_x = |ex: &Expr| reads(ex).iter().all(|&v| v == x);
        let ok = proc_.locations.len() == 1
            && proc_.locations[0].kind == LocationKind::Normal
            && proc_.locations[0].data_invariant.is_none()
            && edge.sync.is_none()
            && edge.label.is_none()
            && edge.clock_guard.is_empty()
            && edge.guard.as_ref().is_none_or(only_x)
            && edge.updates.iter().all(|u| match u {
                Update::Assign { target, value } => {
                    let slot = match &target.index {
                        None => Some(target.base),
                        Some(Expr::Const(k)) => Some(target.base + *k as u32),
                        Some(_) => None,
                    };
                    slot == Some(x) && only_x(value)
                }
                Update::ResetClock { .. } | Update::Call(_) => false,
            });
        if !ok {
            return None;
        }
    }
    // The domain transition graph from the initial value.
    let lo = var.lo;
    let mut vars = network.initial_variables();
    let mut moves: Vec<Vec<(ProcId, EdgeId, u32)>> = vec![Vec::new(); size];
    let init = (var.init - lo) as u32;
    let mut reachable = vec![false; size];
    reachable[init as usize] = true;
    let mut queue = VecDeque::from([init]);
    while let Some(v) = queue.pop_front() {
        for &(p, e) in &writers {
            let edge = &network.processes[p as usize].edges[e as usize];
            vars[x as usize] = lo + v as i32;
            let enabled = match &edge.guard {
                None => true,
                // An evaluation error is a reachable model error: not safe.
                Some(g) => g.eval(&vars).ok()? != 0,
            };
            if !enabled {
                continue;
            }
            for u in &edge.updates {
                if let Update::Assign { value, .. } = u {
                    let w = value.eval(&vars).ok()?;
                    if w < var.lo || w > var.hi {
                        return None;
                    }
                    vars[x as usize] = w;
                }
            }
            let to = (vars[x as usize] - lo) as u32;
            if to != v {
                moves[v as usize].push((p, e, to));
            }
            if !reachable[to as usize] {
                reachable[to as usize] = true;
                queue.push_back(to);
            }
        }
    }
    let component = Component {
        kind: Kind::Var(x),
        lo,
        init,
        moves,
        reachable,
        in_goal: formula_reads(goal, x),
    };
    if !strongly_connected(&component) {
        return None;
    }
    // Readers: conjuncts that never fail, on edges whose timing and
    // synchronisation do not depend on `x` and that no committed process takes.
    for &(p, e) in &readers {
        let proc_ = &network.processes[p as usize];
        let edge = &proc_.edges[e as usize];
        let g = edge.guard.as_ref()?;
        let mut cs = Vec::new();
        g.conjuncts_into(&mut cs);
        for c in cs.iter().filter(|c| reads_slot(c, x)) {
            for v in component.values() {
                vars[x as usize] = lo + v as i32;
                c.eval(&vars).ok()?;
            }
        }
        if proc_.locations[edge.source as usize].kind == LocationKind::Committed {
            return None;
        }
        // A synchronisation vector's participants would all have to agree
        // on `x`; not worth the analysis: keep the slot.
        if edge.label.is_some() {
            return None;
        }
        let Some(s) = &edge.sync else { continue };
        let range = channel_range(s);
        let chans = || {
            range
                .clone()
                .filter_map(|c| network.channels.get(c as usize))
        };
        if chans().any(|c| c.urgent)
            || (s.dir == SyncDir::Receive && chans().any(|c| c.kind == ChannelKind::Broadcast))
        {
            return None;
        }
        for (q, other) in network.processes.iter().enumerate() {
            for partner in &other.edges {
                let Some(t) = &partner.sync else { continue };
                if q == p as usize || t.dir == s.dir || !overlaps(&range, &channel_range(t)) {
                    continue;
                }
                if other.locations[partner.source as usize].kind == LocationKind::Committed {
                    return None;
                }
                // Handshake partners must agree on a value of `x`.
                if let Some(h) = &partner.guard
                    && reads_slot(h, x)
                    && satisfiable(&component, &[g], x, &mut vars)
                    && satisfiable(&component, &[h], x, &mut vars)
                    && !satisfiable(&component, &[g, h], x, &mut vars)
                {
                    return None;
                }
            }
        }
    }
    Some(component)
}

/// Whether the goal reads `x` only where it can be substituted (plain `x`,
/// not inside an array access or a clock bound).
fn goal_reads_ok(f: &Formula, x: VarId) -> bool {
    match f {
        Formula::Data(e) => !indexed_read(e, x),
        Formula::Clock(c) => !reads_slot(&c.bound, x),
        Formula::Not(g) => goal_reads_ok(g, x),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().all(|g| goal_reads_ok(g, x)),
        _ => true,
    }
}

fn indexed_read(e: &Expr, x: VarId) -> bool {
    match e {
        Expr::Const(_) | Expr::Var(_) => false,
        Expr::Index { base, len, index } => {
            (*base..*base + *len).contains(&x) || indexed_read(index, x)
        }
        Expr::Checked { index: a, .. } | Expr::Unary(_, a) => indexed_read(a, x),
        Expr::Binary(_, a, b) => indexed_read(a, x) || indexed_read(b, x),
        Expr::Cond(c, a, b) => indexed_read(c, x) || indexed_read(a, x) || indexed_read(b, x),
        // A function's reads cannot be substituted either.
        Expr::Call(c) => c.reads.contains(&x),
    }
}

fn formula_reads(f: &Formula, x: VarId) -> bool {
    match f {
        Formula::Data(e) => reads_slot(e, x),
        Formula::Clock(c) => reads_slot(&c.bound, x),
        Formula::Not(g) => formula_reads(g, x),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().any(|g| formula_reads(g, x)),
        _ => false,
    }
}

fn formula_at(f: &Formula, p: ProcId) -> bool {
    match f {
        Formula::At { process, .. } => *process == p,
        Formula::Not(g) => formula_at(g, p),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().any(|g| formula_at(g, p)),
        _ => false,
    }
}

/// Whether a guard reads no slot and holds: in a reduced network, a guard
/// whose conjuncts all read removed slots has become such a constant, and
/// the edge is as unguarded as one without a guard (this is what lets the
/// abstraction cascade to a process that only waited for removed slots).
fn always_true(network: &Network, g: &Expr) -> bool {
    reads(g).is_empty() && g.eval(&network.initial_variables()).is_ok_and(|v| v != 0)
}

/// The process `p` as a removable component, or `None` if it is not safe.
fn safe_process(network: &Network, goal: &Formula, p: ProcId) -> Option<Component> {
    let proc_ = &network.processes[p as usize];
    if proc_.edges.is_empty()
        || proc_.locations.iter().any(|l| {
            l.kind != LocationKind::Normal || !l.invariant.is_empty() || l.data_invariant.is_some()
        })
        || proc_.edges.iter().any(|e| {
            e.guard.as_ref().is_some_and(|g| !always_true(network, g))
                || !e.clock_guard.is_empty()
                || e.sync.is_some()
                || e.label.is_some()
                || !e.updates.is_empty()
        })
    {
        return None;
    }
    let n = proc_.locations.len();
    if proc_.initial as usize >= n {
        return None;
    }
    let mut moves: Vec<Vec<(ProcId, EdgeId, u32)>> = vec![Vec::new(); n];
    for (e, edge) in proc_.edges.iter().enumerate() {
        if edge.source as usize >= n || edge.target as usize >= n {
            return None;
        }
        if edge.source != edge.target {
            moves[edge.source as usize].push((p, e as EdgeId, edge.target));
        }
    }
    let init = proc_.initial;
    let mut reachable = vec![false; n];
    reachable[init as usize] = true;
    let mut queue = VecDeque::from([init]);
    while let Some(v) = queue.pop_front() {
        for &(_, _, to) in &moves[v as usize] {
            if !reachable[to as usize] {
                reachable[to as usize] = true;
                queue.push_back(to);
            }
        }
    }
    let component = Component {
        kind: Kind::Proc(p),
        lo: 0,
        init,
        moves,
        reachable,
        in_goal: formula_at(goal, p),
    };
    strongly_connected(&component).then_some(component)
}

/// Whether every reachable value leads back to the initial one (so every
/// reachable value reaches every other).
fn strongly_connected(c: &Component) -> bool {
    let n = c.moves.len();
    let mut back = vec![false; n];
    back[c.init as usize] = true;
    // Backward fixpoint over the reachable part (domains are small).
    let mut changed = true;
    while changed {
        changed = false;
        for v in c.values() {
            if !back[v as usize] && c.moves[v as usize].iter().any(|m| back[m.2 as usize]) {
                back[v as usize] = true;
                changed = true;
            }
        }
    }
    c.values().all(|v| back[v as usize])
}

/// `∃ reachable values of the goal's removed components. goal`.
fn exists_goal(goal: &Formula, components: &[Component]) -> Formula {
    let in_goal: Vec<&Component> = components.iter().filter(|c| c.in_goal).collect();
    if in_goal.is_empty() {
        return goal.clone();
    }
    let mut disjuncts = Vec::new();
    for_each_combination(&in_goal, &mut |values| {
        disjuncts.push(substitute(goal, &in_goal, values));
    });
    Formula::Or(disjuncts)
}

/// Calls `f` on every combination of reachable values of `components`.
pub(crate) fn for_each_combination(components: &[&Component], f: &mut dyn FnMut(&[u32])) {
    fn go(components: &[&Component], chosen: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
        match components.get(chosen.len()) {
            None => f(chosen),
            Some(c) => {
                for v in c.values() {
                    chosen.push(v);
                    go(components, chosen, f);
                    chosen.pop();
                }
            }
        }
    }
    go(components, &mut Vec::new(), f);
}

/// The goal with each component fixed to its value.
fn substitute(f: &Formula, components: &[&Component], values: &[u32]) -> Formula {
    let sub = |g: &Formula| substitute(g, components, values);
    match f {
        Formula::At { process, location } => {
            for (c, &v) in components.iter().zip(values) {
                if c.kind == Kind::Proc(*process) {
                    return if v == *location {
                        Formula::True
                    } else {
                        Formula::False
                    };
                }
            }
            f.clone()
        }
        Formula::Data(e) => {
            let mut e = e.clone();
            for (c, &v) in components.iter().zip(values) {
                if let Kind::Var(x) = c.kind {
                    e = substitute_expr(&e, x, c.lo + v as i32);
                }
            }
            Formula::Data(e)
        }
        Formula::Not(g) => Formula::Not(Box::new(sub(g))),
        Formula::And(gs) => Formula::And(gs.iter().map(sub).collect()),
        Formula::Or(gs) => Formula::Or(gs.iter().map(sub).collect()),
        _ => f.clone(),
    }
}

fn substitute_expr(e: &Expr, x: VarId, value: i32) -> Expr {
    match e {
        Expr::Var(v) if *v == x => Expr::Const(value),
        // A call is kept as it is: only calls that do not read `x` get here
        // (`indexed_read`).
        _ => e.map_operands(|a| substitute_expr(a, x, value)),
    }
}

/// The location a process is in after `edges` from `locations`.
pub(crate) fn advance(network: &Network, locations: &mut [LocId], edges: &[(ProcId, EdgeId)]) {
    for &(p, e) in edges {
        locations[p as usize] = network.processes[p as usize].edges[e as usize].target;
    }
}
