//! End-to-end tests of the checker on small networks built in ir. Expected
//! verdicts and trace lengths are worked out by hand in the comments; every
//! trace is replayed by the independent concrete interpreter below.

use crate::support;

use num_rational::Rational64;
use support::net::*;
use zeno::checker::*;
use zeno::ir::*;

const ORDERS: [SearchOrder; 5] = [
    SearchOrder::Bfs,
    SearchOrder::Dfs,
    SearchOrder::RandomDfs,
    SearchOrder::Greedy,
    SearchOrder::AStar,
];

/// Decides the network's first check.
fn check_first(
    net: &Network,
    options: &Options,
    cancel: &Cancel,
    progress: &mut dyn FnMut(&Stats),
) -> CheckResult {
    check(
        net,
        net.check_at(0).expect("a check"),
        options,
        cancel,
        progress,
    )
}

fn run(net: &Network, k: usize, order: SearchOrder) -> CheckResult {
    let options = Options {
        config: zeno::checker::config::Config {
            search: order,
            ..Default::default()
        },
        seed: 7,
        ..Options::default()
    };
    let r = check(
        net,
        net.check_at(k).unwrap(),
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    if let Some(t) = &r.trace
        && let Err(e) = replay(net, k, t)
    {
        panic!("{order:?}: trace does not replay: {e}\n{t:#?}");
    }
    if let Some(t) = &r.trace
        && let Err(e) = support::simulator::replay(net, k, t)
    {
        panic!("{order:?}: the simulator rejects the trace: {e}\n{t:#?}");
    }
    r
}

/// Runs every order, checks they agree and that traces are present when
/// expected; returns the BFS result.
fn all_orders(net: &Network, check: usize, expected: Verdict) -> CheckResult {
    let mut bfs = None;
    for order in ORDERS {
        let r = run(net, check, order);
        assert_eq!(r.verdict, expected, "{order:?}");
        let needs_trace = matches!(
            (&net.checks[check].kind, &expected),
            (_, Verdict::ModelError(_))
                | (CheckKind::Invariant(_), Verdict::Fails)
                | (CheckKind::Reachable(_), Verdict::Holds)
        );
        assert_eq!(r.trace.is_some(), needs_trace, "{order:?}");
        if order == SearchOrder::Bfs {
            bfs = Some(r.clone());
        }
        if order == SearchOrder::AStar {
            // A* with h = 0 finds shortest traces too.
            let b: &CheckResult = bfs.as_ref().unwrap();
            assert_eq!(
                r.trace.as_ref().map(|t| t.len()),
                b.trace.as_ref().map(|t| t.len())
            );
        }
    }
    bfs.unwrap()
}

fn r(n: i64) -> Rational64 {
    Rational64::from_integer(n)
}

// ---------------------------------------------------------------- replay --

/// A concrete interpreter of the semantics, written independently of the
/// checker: it replays a trace and reports the first rule it breaks.
fn replay(net: &Network, check: usize, t: &Trace) -> Result<(), String> {
    let mut locs: Vec<LocId> = net.initial_locations();
    let mut vars = net.initial_variables();
    let mut clocks = vec![r(0); net.clocks.len()];
    if t.initial.locations != locs || t.initial.variables != vars || t.initial.clocks != clocks {
        return Err("initial state differs".into());
    }
    invariants_hold(net, &locs, &vars, &clocks)?;
    for (k, step) in t.steps.iter().enumerate() {
        delay(net, &locs, &vars, &mut clocks, step.delay).map_err(|e| format!("step {k}: {e}"))?;
        enabled(net, &locs, &vars, &clocks, &step.transition.edges)
            .map_err(|e| format!("step {k}: {e}"))?;
        fire(
            net,
            &mut locs,
            &mut vars,
            &mut clocks,
            &step.transition.edges,
        )
        .map_err(|e| format!("step {k}: unexpected error {e}"))?;
        invariants_hold(net, &locs, &vars, &clocks).map_err(|e| format!("step {k}: {e}"))?;
        let got = ConcreteState {
            locations: locs.clone(),
            variables: vars.clone(),
            clocks: clocks.clone(),
        };
        if got != step.after {
            return Err(format!("step {k}: state differs: {got:?}"));
        }
    }
    match &t.end {
        TraceEnd::Goal { delay: d } => {
            delay(net, &locs, &vars, &mut clocks, *d)?;
            let goal = net.checks[check].kind.goal();
            if !holds(&goal, &locs, &vars, &clocks) {
                return Err(format!(
                    "goal does not hold at the end: {locs:?} {vars:?} {clocks:?}"
                ));
            }
        }
        TraceEnd::ModelError {
            delay: d,
            transition,
            error,
        } => {
            delay(net, &locs, &vars, &mut clocks, *d)?;
            // A guard, bound or channel index that fails to evaluate is the error itself.
            let eval_error = transition.edges.iter().find_map(|&(p, e)| {
                let edge = &net.processes[p as usize].edges[e as usize];
                let guard = edge.guard.as_ref().map(|g| g.eval(&vars)).transpose().err();
                let chan = edge
                    .sync
                    .as_ref()
                    .and_then(|s| s.channel.resolve(&vars).err());
                let bound = edge
                    .clock_guard
                    .iter()
                    .find_map(|cc| cc.bound.eval(&vars).err());
                guard.or(chan).or(bound)
            });
            if let Some(e) = eval_error {
                return if e == *error {
                    Ok(())
                } else {
                    Err(format!("expected {error:?}, got {e:?}"))
                };
            }
            enabled(net, &locs, &vars, &clocks, &transition.edges)?;
            match fire(net, &mut locs, &mut vars, &mut clocks, &transition.edges) {
                Err(e) if e == *error => {}
                other => return Err(format!("expected {error:?}, got {other:?}")),
            }
        }
        // The ends of liveness runs are replayed by the simulator
        // (`tests/it/liveness.rs`); this interpreter checks the steps only.
        TraceEnd::Loop { .. } | TraceEnd::Deadlock { .. } | TraceEnd::TimeDiverges => {}
    }
    Ok(())
}

fn cc_holds(cc: &ClockConstraint, vars: &[i32], clocks: &[Rational64]) -> Result<bool, String> {
    let b = r(cc.bound.eval(vars).map_err(|e| format!("eval {e}"))? as i64);
    let d = clocks[cc.i as usize] - clocks[cc.j as usize];
    Ok(if cc.strict { d < b } else { d <= b })
}

fn invariants_hold(
    net: &Network,
    locs: &[LocId],
    vars: &[i32],
    clocks: &[Rational64],
) -> Result<(), String> {
    for (p, &l) in locs.iter().enumerate() {
        for cc in &net.processes[p].locations[l as usize].invariant {
            if !cc_holds(cc, vars, clocks)? {
                return Err(format!("invariant of {} broken", net.processes[p].name));
            }
        }
    }
    Ok(())
}

fn delay(
    net: &Network,
    locs: &[LocId],
    vars: &[i32],
    clocks: &mut [Rational64],
    d: Rational64,
) -> Result<(), String> {
    if d < r(0) {
        return Err("negative delay".into());
    }
    if d > r(0) {
        for (p, &l) in locs.iter().enumerate() {
            if net.processes[p].locations[l as usize].kind != LocationKind::Normal {
                return Err("delay in an urgent or committed location".into());
            }
        }
        // No delay while an urgent synchronisation is enabled.
        for (p, &l) in locs.iter().enumerate() {
            for e in net.processes[p].edges.iter().filter(|e| e.source == l) {
                let Some(s) = &e.sync else { continue };
                if s.dir != SyncDir::Send || !data_ok(e, vars) {
                    continue;
                }
                let ch = s.channel.resolve(vars).unwrap();
                if !net.channels[ch as usize].urgent {
                    continue;
                }
                let bcast = net.channels[ch as usize].kind == ChannelKind::Broadcast;
                let partner = locs.iter().enumerate().any(|(q, &m)| {
                    q != p
                        && net.processes[q].edges.iter().any(|f| {
                            f.source == m
                                && data_ok(f, vars)
                                && f.sync.as_ref().is_some_and(|t| {
                                    t.dir == SyncDir::Receive && t.channel.resolve(vars) == Ok(ch)
                                })
                        })
                });
                if bcast || partner {
                    return Err("delay while an urgent synchronisation is enabled".into());
                }
            }
        }
        for x in clocks.iter_mut().skip(1) {
            *x += d;
        }
        // Invariants are convex: holding before and after the delay suffices.
    }
    invariants_hold(net, locs, vars, clocks)
}

fn data_ok(e: &Edge, vars: &[i32]) -> bool {
    e.guard
        .as_ref()
        .is_none_or(|g| g.eval(vars).is_ok_and(|v| v != 0))
}

fn edge_enabled(e: &Edge, vars: &[i32], clocks: &[Rational64]) -> Result<bool, String> {
    let data = match &e.guard {
        None => true,
        Some(g) => g.eval(vars).map_err(|e| format!("eval {e}"))? != 0,
    };
    Ok(data
        && e.clock_guard
            .iter()
            .map(|cc| cc_holds(cc, vars, clocks))
            .collect::<Result<Vec<_>, _>>()?
            .iter()
            .all(|&b| b))
}

fn enabled(
    net: &Network,
    locs: &[LocId],
    vars: &[i32],
    clocks: &[Rational64],
    edges: &[(ProcId, EdgeId)],
) -> Result<(), String> {
    let committed =
        |p: usize| net.processes[p].locations[locs[p] as usize].kind == LocationKind::Committed;
    if (0..locs.len()).any(committed) && !edges.iter().any(|&(p, _)| committed(p as usize)) {
        return Err("a committed process must move".into());
    }
    for &(p, e) in edges {
        let edge = &net.processes[p as usize].edges[e as usize];
        if edge.source != locs[p as usize] {
            return Err("edge does not leave the current location".into());
        }
        if !edge_enabled(edge, vars, clocks)? {
            return Err(format!(
                "guard of {}:{e} false",
                net.processes[p as usize].name
            ));
        }
    }
    let first = &net.processes[edges[0].0 as usize].edges[edges[0].1 as usize];
    match &first.sync {
        None => {
            if edges.len() != 1 {
                return Err("internal edge with partners".into());
            }
        }
        Some(s) => {
            if s.dir != SyncDir::Send {
                return Err("first edge must send".into());
            }
            let ch = s.channel.resolve(vars).map_err(|e| format!("eval {e}"))?;
            for &(q, f) in &edges[1..] {
                let s2 = net.processes[q as usize].edges[f as usize].sync.as_ref();
                if !s2.is_some_and(|s2| {
                    s2.dir == SyncDir::Receive && s2.channel.resolve(vars) == Ok(ch)
                }) {
                    return Err("partner does not receive on the channel".into());
                }
            }
            match net.channels[ch as usize].kind {
                ChannelKind::Binary => {
                    if edges.len() != 2 || edges[0].0 == edges[1].0 {
                        return Err("binary sync needs exactly one other receiver".into());
                    }
                }
                ChannelKind::Broadcast => {
                    // Every other process with an enabled receiving edge takes part, in order.
                    let procs: Vec<ProcId> = edges[1..].iter().map(|e| e.0).collect();
                    let mut sorted = procs.clone();
                    sorted.sort();
                    sorted.dedup();
                    if sorted != procs {
                        return Err("receivers not in process order".into());
                    }
                    for (q, &m) in locs.iter().enumerate() {
                        if q as ProcId == edges[0].0 || procs.contains(&(q as ProcId)) {
                            continue;
                        }
                        let can = net.processes[q].edges.iter().any(|f| {
                            f.source == m
                                && f.sync.as_ref().is_some_and(|t| {
                                    t.dir == SyncDir::Receive && t.channel.resolve(vars) == Ok(ch)
                                })
                                && edge_enabled(f, vars, clocks).unwrap_or(false)
                        });
                        if can {
                            return Err(format!("enabled receiver {q} left out of broadcast"));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn fire(
    net: &Network,
    locs: &mut [LocId],
    vars: &mut [i32],
    clocks: &mut [Rational64],
    edges: &[(ProcId, EdgeId)],
) -> Result<(), EvalError> {
    for &(p, e) in edges {
        let edge = &net.processes[p as usize].edges[e as usize];
        locs[p as usize] = edge.target;
        for u in &edge.updates {
            match u {
                Update::Assign { target, value } => {
                    let slot = target.resolve(vars)?;
                    let val = value.eval(vars)?;
                    let var = &net.variables[slot as usize];
                    if val < var.lo || val > var.hi {
                        return Err(EvalError::from(ErrorKind::OutOfRange {
                            var: slot,
                            value: val,
                            lo: var.lo,
                            hi: var.hi,
                        }));
                    }
                    vars[slot as usize] = val;
                }
                Update::ResetClock { clock, value } => clocks[*clock as usize] = r(*value as i64),
                Update::Call(c) => c.run(vars)?,
            }
        }
    }
    Ok(())
}

fn mentions_deadlock(f: &Formula) -> bool {
    match f {
        Formula::Deadlock => true,
        Formula::Not(g) => mentions_deadlock(g),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().any(mentions_deadlock),
        _ => false,
    }
}

/// The goal on a concrete state. A deadlock is not decided here (it needs
/// every future delay); the deadlock tests check the end state by hand.
fn holds(f: &Formula, locs: &[LocId], vars: &[i32], clocks: &[Rational64]) -> bool {
    if mentions_deadlock(f) {
        return true;
    }
    match f {
        Formula::True | Formula::Deadlock => true,
        Formula::False => false,
        Formula::At { process, location } => locs[*process as usize] == *location,
        Formula::Data(e) => e.eval(vars).is_ok_and(|v| v != 0),
        Formula::Clock(cc) => cc_holds(cc, vars, clocks).unwrap_or(false),
        Formula::Not(g) => !holds(g, locs, vars, clocks),
        Formula::And(gs) => gs.iter().all(|g| holds(g, locs, vars, clocks)),
        Formula::Or(gs) => gs.iter().any(|g| holds(g, locs, vars, clocks)),
    }
}

// ----------------------------------------------------------------- tests --

#[test]
fn clock_goal_needs_a_final_delay() {
    // l0 --[x >= 3] x := 0--> l1; goal l1 && x >= 2: wait 3, move, wait 2.
    let mut n = Net::new();
    let x = n.clock("x");
    let p = n.normal("P", &["l0", "l1"]);
    n.edge(p, 0, 1).when(ge(x, 3)).reset(x);
    let goal = n.reach(and(vec![at(p, 1), Formula::Clock(ge(x, 2))]));
    let unreachable = n.reach(and(vec![
        at(p, 0),
        Formula::Clock(ge(x, 2)),
        Formula::Clock(le(x, 1)),
    ]));
    let res = all_orders(&n.n, goal, Verdict::Holds);
    let t = res.trace.unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t.steps[0].delay, r(3));
    assert_eq!(t.end, TraceEnd::Goal { delay: r(2) });
    all_orders(&n.n, unreachable, Verdict::Fails);
}

#[test]
fn strict_goal_picks_a_point_inside() {
    // No invariant; goal x > 3 in the initial location: the end delay is
    // strictly above 3 (the checker takes 4 when unbounded above).
    let mut n = Net::new();
    let x = n.clock("x");
    let _p = n.normal("P", &["l0"]);
    let goal = n.reach(Formula::Clock(gt(x, 3)));
    let t = all_orders(&n.n, goal, Verdict::Holds).trace.unwrap();
    assert_eq!(t.len(), 0);
    let TraceEnd::Goal { delay } = t.end else {
        panic!()
    };
    assert!(delay > r(3));
}

#[test]
fn committed_location_moves_first() {
    // P: a (committed) -> b;  Q: q0 -> q1. Q may only move once P left a.
    let mut n = Net::new();
    let p = n.process(
        "P",
        &[("a", LocationKind::Committed), ("b", LocationKind::Normal)],
    );
    let q = n.normal("Q", &["q0", "q1"]);
    n.edge(p, 0, 1);
    n.edge(q, 0, 1);
    let both = n.reach(and(vec![at(p, 0), at(q, 1)]));
    let q1 = n.reach(at(q, 1));
    all_orders(&n.n, both, Verdict::Fails);
    let t = all_orders(&n.n, q1, Verdict::Holds).trace.unwrap();
    assert_eq!(t.len(), 2);
    assert_eq!(t.steps[0].transition.edges, vec![(p, 0)]);
}

#[test]
fn committed_blocks_time() {
    // a is committed with a clock: x stays 0 there.
    let mut n = Net::new();
    let x = n.clock("x");
    let p = n.process(
        "P",
        &[("a", LocationKind::Committed), ("b", LocationKind::Normal)],
    );
    n.edge(p, 0, 1);
    let waited = n.reach(and(vec![at(p, 0), Formula::Clock(gt(x, 0))]));
    all_orders(&n.n, waited, Verdict::Fails);
    let urgent_waited = {
        let mut m = Net::new();
        let x = m.clock("x");
        let p = m.process(
            "P",
            &[("a", LocationKind::Urgent), ("b", LocationKind::Normal)],
        );
        m.edge(p, 0, 1).when(ge(x, 1));
        let k = m.reach(at(p, 1));
        (m, k)
    };
    // The guard x >= 1 can never hold in an urgent location entered at x = 0.
    all_orders(&urgent_waited.0.n, urgent_waited.1, Verdict::Fails);
}

#[test]
fn broadcast_takes_every_enabled_receiver() {
    // S: s0 --b!--> s1; R1: r0 --b?--> r1; R2: r0 --[v == 1] b?--> r1 with v = 0.
    let mut n = Net::new();
    let val = n.var("v", 0, 1, 0);
    let b = n.chan("b", ChannelKind::Broadcast, false);
    let s = n.normal("S", &["s0", "s1"]);
    let r1 = n.normal("R1", &["r0", "r1"]);
    let r2 = n.normal("R2", &["r0", "r1"]);
    n.edge(s, 0, 1).send(b);
    n.edge(r1, 0, 1).recv(b);
    n.edge(r2, 0, 1).recv(b).guard(eq(v(val), c(1)));
    let sent = n.reach(and(vec![at(s, 1), at(r1, 1), at(r2, 0)]));
    let r2_moves = n.reach(at(r2, 1));
    let r1_left_behind = n.reach(and(vec![at(s, 1), at(r1, 0)]));
    let t = all_orders(&n.n, sent, Verdict::Holds).trace.unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t.steps[0].transition.edges, vec![(s, 0), (r1, 0)]);
    all_orders(&n.n, r2_moves, Verdict::Fails);
    all_orders(&n.n, r1_left_behind, Verdict::Fails);
}

#[test]
fn broadcast_never_blocks() {
    let mut n = Net::new();
    let b = n.chan("b", ChannelKind::Broadcast, false);
    let s = n.normal("S", &["s0", "s1"]);
    n.edge(s, 0, 1).send(b);
    let k = n.reach(at(s, 1));
    assert_eq!(all_orders(&n.n, k, Verdict::Holds).trace.unwrap().len(), 1);
}

#[test]
fn binary_sync_runs_sender_update_first() {
    // S sets v := 1 and R sets v := v + 1: the result is 2, never 1.
    let mut n = Net::new();
    let val = n.var("v", 0, 5, 0);
    let ch = n.chan("c", ChannelKind::Binary, false);
    let s = n.normal("S", &["s0", "s1"]);
    let rcv = n.normal("R", &["r0", "r1"]);
    n.edge(s, 0, 1).send(ch).set(val, c(1));
    n.edge(rcv, 0, 1).recv(ch).set(val, add(v(val), c(1)));
    let two = n.reach(Formula::Data(eq(v(val), c(2))));
    let one = n.reach(Formula::Data(eq(v(val), c(1))));
    let t = all_orders(&n.n, two, Verdict::Holds).trace.unwrap();
    assert_eq!(t.steps[0].transition.edges, vec![(s, 0), (rcv, 0)]);
    all_orders(&n.n, one, Verdict::Fails);
}

#[test]
fn urgent_channel_forbids_delay() {
    // P: p0 --u!--> p1; Q: q0 --[v == 0] u?--> q1; u urgent.
    let build = |enabled: i32| {
        let mut n = Net::new();
        let x = n.clock("x");
        let val = n.var("v", 0, 1, enabled);
        let u = n.chan("u", ChannelKind::Binary, true);
        let p = n.normal("P", &["p0", "p1"]);
        let q = n.normal("Q", &["q0", "q1"]);
        n.edge(p, 0, 1).send(u);
        n.edge(q, 0, 1).recv(u).guard(eq(v(val), c(0)));
        let waited = n.reach(and(vec![at(p, 0), Formula::Clock(gt(x, 0))]));
        let after = n.reach(and(vec![at(p, 1), Formula::Clock(gt(x, 0))]));
        (n.n, waited, after)
    };
    // v = 0: the sync is enabled, so no time passes in p0; after it, time passes.
    let (net, waited, after) = build(0);
    all_orders(&net, waited, Verdict::Fails);
    let t = all_orders(&net, after, Verdict::Holds).trace.unwrap();
    assert_eq!(t.steps[0].delay, r(0));
    // v = 1: the receiver's data guard is false, time may pass.
    let (net, waited, _) = build(1);
    all_orders(&net, waited, Verdict::Holds);
}

#[test]
fn out_of_range_assignment_is_a_model_error() {
    // v : int[0, 2], v := v + 1 in a loop: the third step fails with v = 3.
    let mut n = Net::new();
    let val = n.var("v", 0, 2, 0);
    let p = n.normal("P", &["l0"]);
    n.edge(p, 0, 0).set(val, add(v(val), c(1)));
    let k = n.always(Formula::True);
    let err = EvalError::from(ErrorKind::OutOfRange {
        var: val,
        value: 3,
        lo: 0,
        hi: 2,
    });
    let t = all_orders(&n.n, k, Verdict::ModelError(err)).trace.unwrap();
    assert_eq!(t.len(), 2);
    assert!(matches!(t.end, TraceEnd::ModelError { error, .. } if error == err));
}

#[test]
fn bad_index_and_division_are_model_errors() {
    // a[2], i := i + 1 each step; the guard reads a[i]: fails when i = 2.
    let mut n = Net::new();
    let a = n.var("a[0]", 0, 1, 0);
    let _a1 = n.var("a[1]", 0, 1, 0);
    let i = n.var("i", 0, 5, 0);
    let p = n.normal("P", &["l0"]);
    let read = Expr::Index {
        base: a,
        len: 2,
        index: Box::new(v(i)),
    };
    n.edge(p, 0, 0)
        .guard(eq(read, c(0)))
        .set(i, add(v(i), c(1)));
    let k = n.always(Formula::True);
    let err = EvalError::from(ErrorKind::IndexOutOfBounds { index: 2, len: 2 });
    assert_eq!(
        all_orders(&n.n, k, Verdict::ModelError(err))
            .trace
            .unwrap()
            .len(),
        2
    );

    let mut n = Net::new();
    let d = n.var("d", 0, 5, 0);
    let p = n.normal("P", &["l0", "l1"]);
    n.edge(p, 0, 1).set(d, bin(BinOp::Div, c(1), v(d)));
    let k = n.reach(at(p, 1));
    assert_eq!(
        all_orders(
            &n.n,
            k,
            Verdict::ModelError(EvalError::from(ErrorKind::DivisionByZero))
        )
        .trace
        .unwrap()
        .len(),
        0
    );
}

#[test]
fn deadlock_after_a_step() {
    // l0 (x <= 5) --[x >= 3] x := 0--> l1, and l1 has no edge.
    let mut n = Net::new();
    let x = n.clock("x");
    let p = n.normal("P", &["l0", "l1"]);
    n.inv(p, 0, le(x, 5));
    n.edge(p, 0, 1).when(ge(x, 3)).reset(x);
    let k = n.always(not(Formula::Deadlock));
    let t = all_orders(&n.n, k, Verdict::Fails).trace.unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t.steps[0].after.locations, vec![1]);
}

#[test]
fn timelock_is_a_deadlock() {
    // l0 (x <= 5) --[x >= 6]--> l1: stuck in l0 from the start.
    let mut n = Net::new();
    let x = n.clock("x");
    let p = n.normal("P", &["l0", "l1"]);
    n.inv(p, 0, le(x, 5));
    n.edge(p, 0, 1).when(ge(x, 6));
    let k = n.always(not(Formula::Deadlock));
    assert_eq!(all_orders(&n.n, k, Verdict::Fails).trace.unwrap().len(), 0);
}

#[test]
fn partial_deadlock_needs_a_delay() {
    // l0 --[x <= 3]--> l1 (l1 loops), no invariant: from x > 3 nothing is
    // possible, so the counterexample waits more than 3.
    let mut n = Net::new();
    let x = n.clock("x");
    let p = n.normal("P", &["l0", "l1"]);
    n.edge(p, 0, 1).when(le(x, 3));
    n.edge(p, 1, 1);
    let k = n.always(not(Formula::Deadlock));
    let t = all_orders(&n.n, k, Verdict::Fails).trace.unwrap();
    assert_eq!(t.len(), 0);
    let TraceEnd::Goal { delay } = t.end else {
        panic!()
    };
    assert!(delay > r(3));
}

#[test]
fn no_deadlock_in_a_clocked_loop() {
    let mut n = Net::new();
    let x = n.clock("x");
    let p = n.normal("P", &["l0"]);
    n.inv(p, 0, le(x, 2));
    n.edge(p, 0, 0).when(ge(x, 1)).reset(x);
    let k = n.always(not(Formula::Deadlock));
    all_orders(&n.n, k, Verdict::Holds);
}

#[test]
fn channel_arrays_resolve_per_state() {
    // S sends on c[i] after setting i := 1; R listens on c[1] only.
    let mut n = Net::new();
    let i = n.var("i", 0, 1, 0);
    let ch = n.chan("c[0]", ChannelKind::Binary, false);
    let _ch1 = n.chan("c[1]", ChannelKind::Binary, false);
    let s = n.normal("S", &["s0", "s1", "s2"]);
    let rcv = n.normal("R", &["r0", "r1"]);
    n.edge(s, 0, 1).set(i, c(1));
    let idx = |e: Expr| ChanRef {
        base: ch,
        len: 2,
        index: Some(e),
    };
    n.edge(s, 1, 2).sync = Some(Sync {
        channel: idx(v(i)),
        dir: SyncDir::Send,
    });
    n.edge(rcv, 0, 1).sync = Some(Sync {
        channel: idx(c(1)),
        dir: SyncDir::Receive,
    });
    let k = n.reach(at(rcv, 1));
    assert_eq!(all_orders(&n.n, k, Verdict::Holds).trace.unwrap().len(), 2);
}

#[test]
fn fischer_correct_holds() {
    for procs in [2, 3] {
        let net = fischer(procs, 2, false);
        all_orders(&net, 0, Verdict::Holds);
    }
}

#[test]
fn fischer_buggy_fails_in_six_steps() {
    // Both processes need A -> req -> wait -> cs (6 transitions); the timing
    // that works: both enter req at 0, P1 sets id at 0, waits 2, enters cs at
    // x1 = 2 while P2 (x2 = 2 <= k) sets id and enters cs two units later.
    for procs in [2, 3] {
        let net = fischer(procs, 2, true);
        let t = all_orders(&net, 0, Verdict::Fails).trace.unwrap();
        assert_eq!(t.len(), 6, "N = {procs}");
    }
}

/// An admissible heuristic for the buggy Fischer mutex goal: the sum over
/// P1 and P2 of their distance to cs (each transition moves one process one
/// location closer at best).
struct ToCs;
impl Heuristic for ToCs {
    fn estimate(&mut self, locations: &[LocId], _: &[i32]) -> Option<u32> {
        let d = |l: LocId| [3, 2, 1, 0][l as usize];
        Some(d(locations[0]) + d(locations[1]))
    }
}

#[test]
fn astar_with_admissible_heuristic_finds_shortest() {
    let net = fischer(3, 2, true);
    for order in [SearchOrder::AStar, SearchOrder::Greedy] {
        let options = Options {
            config: zeno::checker::config::Config {
                search: order,
                ..Default::default()
            },
            ..Options::default()
        };
        let mut h = ToCs;
        let res = check_with_heuristic(
            &net,
            net.check_at(0).unwrap(),
            &options,
            Some(&mut h),
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        assert_eq!(res.verdict, Verdict::Fails);
        let t = res.trace.unwrap();
        replay(&net, 0, &t).unwrap();
        support::simulator::replay(&net, 0, &t).unwrap();
        if order == SearchOrder::AStar {
            assert_eq!(t.len(), 6);
        }
    }
}

#[test]
fn limits_stop_the_search() {
    let net = fischer(3, 2, false);
    let options = Options {
        max_states: Some(10),
        ..Options::default()
    };
    let res = check_first(
        &net,
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(res.verdict, Verdict::Unknown(Limit::States));
    assert_eq!(res.stats.explored, 10);
    let cancel = Cancel::new();
    cancel.cancel();
    let res = check_first(
        &net,
        &Options::default(),
        &cancel,
        &mut zeno::checker::no_progress,
    );
    assert_eq!(res.verdict, Verdict::Unknown(Limit::Cancelled));
}

#[test]
fn random_dfs_is_reproducible() {
    let net = fischer(3, 2, true);
    let options = Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::RandomDfs,
            ..Default::default()
        },
        seed: 42,
        ..Options::default()
    };
    let a = check_first(
        &net,
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    let b = check_first(
        &net,
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(a.stats.explored, b.stats.explored);
    assert_eq!(a.trace, b.trace);
}

#[test]
fn stats_are_reported() {
    let net = fischer(2, 2, false);
    let res = check_first(
        &net,
        &Options::default(),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert!(res.stats.explored > 0);
    assert!(res.stats.stored > 0 && res.stats.stored <= res.stats.generated);
    assert!(res.stats.bytes_per_state > 0);
    assert!(res.stats.peak_memory >= res.stats.bytes_per_state);
}

#[test]
fn built_heuristics_agree_on_verdicts() {
    for buggy in [false, true] {
        let net = fischer(3, 2, buggy);
        let expected = if buggy {
            Verdict::Fails
        } else {
            Verdict::Holds
        };
        for heuristic in [
            HeuristicKind::DL,
            HeuristicKind::DU,
            HeuristicKind::HL,
            HeuristicKind::HU,
        ] {
            for search in [SearchOrder::Greedy, SearchOrder::AStar] {
                for cache_heuristic in [true, false] {
                    let options = Options {
                        config: zeno::checker::config::Config {
                            search,
                            heuristic,
                            ..Default::default()
                        },
                        cache_heuristic,
                        ..Options::default()
                    };
                    let res = check_first(
                        &net,
                        &options,
                        &Cancel::new(),
                        &mut zeno::checker::no_progress,
                    );
                    assert_eq!(res.verdict, expected, "{search:?} {heuristic:?}");
                    if let Some(t) = &res.trace {
                        replay(&net, 0, t).unwrap();
                        support::simulator::replay(&net, 0, t).unwrap();
                        // dL and hL are admissible: A* keeps BFS's length.
                        if search == SearchOrder::AStar
                            && matches!(heuristic, HeuristicKind::DL | HeuristicKind::HL)
                        {
                            assert_eq!(t.len(), 6, "{heuristic:?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn broadcast_receiver_with_clock_guard_joins_exactly_when_enabled() {
    // S: s0 --b!--> s1; R: r0 --[x <= 2] b?--> r1. R takes part iff x <= 2.
    let mut n = Net::new();
    let x = n.clock("x");
    let b = n.chan("b", ChannelKind::Broadcast, false);
    let s = n.normal("S", &["s0", "s1"]);
    let rcv = n.normal("R", &["r0", "r1"]);
    n.edge(s, 0, 1).send(b);
    n.edge(rcv, 0, 1).recv(b).when(le(x, 2));
    let left_out = n.reach(and(vec![at(s, 1), at(rcv, 0)]));
    let joined = n.reach(and(vec![at(s, 1), at(rcv, 1)]));
    let left_out_early = n.reach(and(vec![at(s, 1), at(rcv, 0), Formula::Clock(le(x, 2))]));
    let late_join = n.reach(and(vec![at(s, 1), at(rcv, 1), Formula::Clock(lt(x, 0))]));
    // Left out: the send happens after more than 2 time units.
    let t = all_orders(&n.n, left_out, Verdict::Holds).trace.unwrap();
    assert_eq!(t.len(), 1);
    assert!(t.steps[0].delay > r(2));
    assert_eq!(t.steps[0].transition.edges, vec![(s, 0)]);
    let t = all_orders(&n.n, joined, Verdict::Holds).trace.unwrap();
    assert_eq!(t.steps[0].transition.edges, vec![(s, 0), (rcv, 0)]);
    all_orders(&n.n, left_out_early, Verdict::Fails);
    all_orders(&n.n, late_join, Verdict::Fails);
}

#[test]
fn broadcast_split_decides_deadlock() {
    // S: s0 (x <= 5) --b!--> s1 (no edges); R: r0 --[x >= 3] b?--> r1 --> r1 loop.
    // Sending before x = 3 leaves R in r0 and S in s1: a deadlock.
    let mut n = Net::new();
    let x = n.clock("x");
    let b = n.chan("b", ChannelKind::Broadcast, false);
    let s = n.normal("S", &["s0", "s1"]);
    let rcv = n.normal("R", &["r0", "r1"]);
    n.inv(s, 0, le(x, 5));
    n.edge(s, 0, 1).send(b);
    n.edge(rcv, 0, 1).recv(b).when(ge(x, 3));
    n.edge(rcv, 1, 1);
    let k = n.always(not(Formula::Deadlock));
    let t = all_orders(&n.n, k, Verdict::Fails).trace.unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t.steps[0].after.locations, vec![1, 0]);
    assert!(t.steps[0].delay < r(3));
}

#[test]
fn timeout_and_progress() {
    let net = fischer(7, 2, false);
    let options = Options {
        timeout: Some(std::time::Duration::ZERO),
        ..Options::default()
    };
    let res = check_first(
        &net,
        &options,
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(res.verdict, Verdict::Unknown(Limit::Time));
    // A full run of F7 explores more than 4096 states: progress is reported
    // with growing figures.
    let mut seen: Vec<u64> = Vec::new();
    let res = check_first(&net, &Options::default(), &Cancel::new(), &mut |s| {
        seen.push(s.explored)
    });
    assert_eq!(res.verdict, Verdict::Holds);
    assert!(!seen.is_empty());
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert!(seen.iter().all(|&e| e <= res.stats.explored));
}

#[test]
fn extrapolation_keeps_broadcast_receivers_honest() {
    // S: s0 (urgent) -> s1 (urgent) --b!--> s2; R: r0 --[x <= 0] b?--> r1.
    // No time passes before the send, so x = 0 and R must take part: R can
    // never be left in r0. (The receiver's guard is also used negated, so
    // extrapolation must keep x's upper bound 0.)
    let mut n = Net::new();
    let x = n.clock("x");
    let b = n.chan("b", ChannelKind::Broadcast, false);
    let s = n.process(
        "S",
        &[
            ("s0", LocationKind::Urgent),
            ("s1", LocationKind::Urgent),
            ("s2", LocationKind::Normal),
        ],
    );
    let rcv = n.normal("R", &["r0", "r1"]);
    n.edge(s, 0, 1);
    n.edge(s, 1, 2).send(b);
    n.edge(rcv, 0, 1).recv(b).when(le(x, 0));
    let left_out = n.reach(and(vec![at(s, 2), at(rcv, 0)]));
    let joined = n.reach(and(vec![at(s, 2), at(rcv, 1)]));
    all_orders(&n.n, left_out, Verdict::Fails);
    assert_eq!(
        all_orders(&n.n, joined, Verdict::Holds)
            .trace
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn long_random_dfs_traces_replay() {
    // Random DFS finds long counterexamples (tens of steps) on buggy Fischer:
    // their delays must still be exact.
    for procs in [4, 5] {
        let net = fischer(procs, 2, true);
        for seed in 0..8 {
            let options = Options {
                config: zeno::checker::config::Config {
                    search: SearchOrder::RandomDfs,
                    ..Default::default()
                },
                seed,
                ..Options::default()
            };
            let res = check_first(
                &net,
                &options,
                &Cancel::new(),
                &mut zeno::checker::no_progress,
            );
            assert_eq!(res.verdict, Verdict::Fails);
            let t = res.trace.unwrap();
            assert!(t.len() >= 6);
            replay(&net, 0, &t).unwrap();
            support::simulator::replay(&net, 0, &t).unwrap();
        }
    }
}

/// Cancelling stops the search at once even when every state is expensive
/// (hL without its cache, in a debug build). The figure it prints is the
/// latency recorded in docs/measurements.md; it asserts only the verdict.
#[test]
fn cancel_stops_an_expensive_search() {
    let net = fischer(8, 2, false);
    let options = Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::Greedy,
            heuristic: HeuristicKind::HL,
            ..Default::default()
        },
        cache_heuristic: false,
        ..Options::default()
    };
    let cancel = Cancel::new();
    let (started, running) = std::sync::mpsc::channel();
    let worker = {
        let cancel = cancel.clone();
        let net = net.clone();
        std::thread::spawn(move || {
            check(
                &net,
                net.check_at(0).unwrap(),
                &options,
                &cancel,
                &mut |_| {
                    let _ = started.send(());
                },
            )
        })
    };
    // Cancel while the search is under way: a while after its first
    // progress report (4,096 explored states; F8 has far more), not at the
    // report itself, which falls just before a poll of the old 1,024 period.
    running.recv().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    let cancelled_at = std::time::Instant::now();
    cancel.cancel();
    let res = worker.join().unwrap();
    eprintln!(
        "cancel latency: {:?} after {} explored states",
        cancelled_at.elapsed(),
        res.stats.explored
    );
    assert_eq!(res.verdict, Verdict::Unknown(Limit::Cancelled));
}

/// `Options::breadth_first_after`: best-first search that has no verdict
/// after the budget gives way to breadth-first search, whose figures and
/// trace are then those of a plain breadth-first search (an independent
/// run, below), with the states of the first phase reported.
#[test]
fn best_first_gives_way_to_breadth_first_after_its_budget() {
    let greedy = |budget: Option<u64>, max_states: Option<u64>| Options {
        config: zeno::checker::config::Config {
            search: SearchOrder::Greedy,
            heuristic: HeuristicKind::DL,
            ..Default::default()
        },
        breadth_first_after: budget,
        max_states,
        ..Options::default()
    };
    let bfs = Options::default();
    for (procs, buggy, verdict) in [(3, false, Verdict::Holds), (3, true, Verdict::Fails)] {
        let net = fischer(procs, 2, buggy);
        let plain = check_first(&net, &bfs, &Cancel::new(), &mut zeno::checker::no_progress);
        assert_eq!(plain.verdict, verdict);
        // A budget of 5 states is spent before either verdict.
        let r = check_first(
            &net,
            &greedy(Some(5), None),
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        assert_eq!(r.verdict, verdict, "buggy {buggy}");
        assert_eq!(r.stats.breadth_first_after, Some(5), "buggy {buggy}");
        assert_eq!(r.stats.explored, plain.stats.explored, "buggy {buggy}");
        assert_eq!(r.stats.stored, plain.stats.stored, "buggy {buggy}");
        if buggy {
            // The shortest violation (six transitions, see above), replayed.
            let t = r.trace.expect("a trace");
            assert_eq!(t.len(), 6);
            support::simulator::replay(&net, 0, &t).unwrap();
        }
        // A budget the search does not reach changes nothing.
        let own = check_first(
            &net,
            &greedy(None, None),
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        let large = check_first(
            &net,
            &greedy(Some(1 << 40), None),
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        assert_eq!(large.verdict, own.verdict);
        assert_eq!(large.stats.explored, own.stats.explored);
        assert_eq!(large.stats.breadth_first_after, None);
    }
    // The caller's own state limit below the budget stops the search as
    // asked, without a fallback.
    let net = fischer(3, 2, false);
    let r = check_first(
        &net,
        &greedy(Some(50), Some(4)),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(r.verdict, Verdict::Unknown(Limit::States));
    assert_eq!(r.stats.breadth_first_after, None);
    // Above it, both phases count against it: 5 best-first states, then
    // breadth-first search with the 3 left.
    let r = check_first(
        &net,
        &greedy(Some(5), Some(8)),
        &Cancel::new(),
        &mut zeno::checker::no_progress,
    );
    assert_eq!(r.verdict, Verdict::Unknown(Limit::States));
    assert_eq!(r.stats.breadth_first_after, Some(5));
    assert_eq!(r.stats.explored, 3);
}

#[test]
fn a_check_formula_undefined_in_a_reachable_state_is_a_model_error() {
    // `i` counts 0, 1, …, 5; `a` has 3 elements, so `a[i]` is undefined
    // from i = 3 on, reached after 3 steps. Reading the undefined atom as
    // false made `A[] a[i] == 0` violated and `A[] !(a[i] == 1)` hold;
    // UPPAAL stops with an error instead, and so does zeno. Parts that
    // decide first keep the rest unevaluated, as in UPPAAL: `i < 3 imply`
    // guards the read, and `i >= 3 ||` is true before a[3] is read.
    // With a clock, a data part still decides alone (`i >= 3 ||`), and
    // a part with clocks never stops the evaluation (`x < 0 ||`).
    let text = "int a[3];\n\
                int[0, 5] i = 0;\n\
                clock x;\n\
                template P() {\n\
                    init location A;\n\
                    A -> A when i < 5 do i = i + 1;\n\
                }\n\
                system P;\n\
                check read: A[] a[i] == 0;\n\
                check negated: A[] !(a[i] == 1);\n\
                check guarded: A[] i < 3 imply a[i] == 0;\n\
                check lazy: E<> i >= 3 || a[i] == 7;\n\
                check clocked: E<> i >= 3 || (x > 1 && a[i] == 7);\n\
                check clock_first: A[] x < 0 || a[i] == 0;\n";
    let out = EvalError::from(ErrorKind::IndexOutOfBounds { index: 3, len: 3 });
    let bfs = support::every_order(
        text,
        &[
            Verdict::ModelError(out),
            Verdict::ModelError(out),
            Verdict::Holds,
            Verdict::Holds,
            Verdict::Holds,
            Verdict::ModelError(out),
        ],
    );
    // Breadth-first: the shortest way to i = 3 is 3 steps, for all.
    for r in [&bfs[0], &bfs[1], &bfs[3], &bfs[4], &bfs[5]] {
        assert_eq!(r.trace.as_ref().expect("a trace").steps.len(), 3);
    }
}

/// A sender `S: s0 --b!--> s1` and `receivers` processes, each with two
/// receiving edges `r0 --b?--> a` and `r0 --b?--> b` (locations 1 and 2).
fn two_way_broadcast(receivers: usize) -> (Net, ProcId, Vec<ProcId>) {
    let mut n = Net::new();
    let b = n.chan("b", ChannelKind::Broadcast, false);
    let s = n.normal("S", &["s0", "s1"]);
    n.edge(s, 0, 1).send(b);
    let rs: Vec<ProcId> = (0..receivers)
        .map(|i| {
            let r = n.normal(&format!("R{i}"), &["r0", "a", "b"]);
            n.edge(r, 0, 1).recv(b);
            n.edge(r, 0, 2).recv(b);
            r
        })
        .collect();
    (n, s, rs)
}

#[test]
fn broadcast_builds_every_combination_of_receiving_edges() {
    // 3 receivers with 2 edges each: the one broadcast has 2^3 = 8
    // combinations, every one a transition to its own state (each receiver
    // in a or b), after which nothing moves. BFS explores the initial state
    // and the 8 successors: 9 states, all 9 generated (the initial state
    // counts as generated) and stored.
    let (mut n, s, rs) = two_way_broadcast(3);
    let mixed = n.reach(and(vec![at(rs[0], 1), at(rs[1], 2), at(rs[2], 1)]));
    let one_left_behind = n.reach(and(vec![at(s, 1), at(rs[0], 0)]));
    let t = all_orders(&n.n, mixed, Verdict::Holds).trace.unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(
        t.steps[0].transition.edges,
        vec![(s, 0), (rs[0], 0), (rs[1], 1), (rs[2], 0)]
    );
    let r = all_orders(&n.n, one_left_behind, Verdict::Fails);
    assert_eq!(r.stats.explored, 9);
    assert_eq!(r.stats.generated, 9);
    assert_eq!(r.stats.stored, 9);
}

#[test]
fn broadcast_with_exponentially_many_combinations_stops_at_the_time_limit() {
    // 24 receivers with 2 edges each: 2^24 combinations in the initial
    // state. Building them all takes far longer (and more memory) than the
    // limit; the enumeration polls the deadline, so the check returns
    // unknown instead of running on.
    let (mut n, s, rs) = two_way_broadcast(24);
    let k = n.reach(and(vec![at(s, 1), at(rs[0], 0)]));
    for threads in [1, 2] {
        let options = Options {
            config: zeno::checker::config::Config {
                search: SearchOrder::Bfs,
                ..Default::default()
            },
            threads,
            timeout: Some(std::time::Duration::from_secs(2)),
            ..Options::default()
        };
        let r = check(
            &n.n,
            n.n.check_at(k).unwrap(),
            &options,
            &Cancel::new(),
            &mut zeno::checker::no_progress,
        );
        assert_eq!(
            r.verdict,
            Verdict::Unknown(Limit::Time),
            "threads {threads}"
        );
    }
}
