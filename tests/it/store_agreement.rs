//! The store's compact encoding against a plain store written here, on
//! random networks (`support/random_net.rs`).
//!
//! The checker's store packs discrete parts into bytes (`packed_key.rs`),
//! keeps only the active clocks' entries of a zone, in 16-bit tables that
//! turn 32-bit at the first bound that does not fit, with equal zones
//! sharing one slot (`zone_table.rs`). The reference here is what a store
//! was before all that: a hash map from the discrete part (a `Vec<i32>`)
//! to its zones, each a full canonical matrix, inclusion compared entry by
//! entry. Its breadth-first loop takes successors from the checker's
//! public `semantics::Model` (successor, extrapolation) but decides
//! everything a store decides itself: which states are new, which are
//! subsumed, which a larger zone replaces (the rule of breadth-first
//! search, `Subsumption::NoDeeperUnlessExpanded`), and which clocks are
//! inactive (Daws and Yovine's analysis written again below, not
//! `active.rs`).
//!
//! Agreement is asked of every figure both sides have: the verdict, the
//! depth of the goal (the trace's length), explored, generated and stored
//! states on the whole search, and the stored states after the first `m`
//! expansions for several `m` (the checker stopped by `max_states`), so a
//! divergence anywhere in the search shows. Each network runs with the
//! active-clock reduction on (zones stored projected on their active
//! clocks) and off (full zones), and scaled so that its bounds leave 16
//! bits (the zone tables' wide encoding). The networks are
//! `random_net::spec`'s and the larger `larger_spec`'s (up to a few
//! thousand states), each process of which has a clock of its own.
//!
//! The counts are the same with the reduction on and off: Extra+_LU with
//! the bounds of a state's locations already frees a clock that no future
//! reads before resetting it. So the reduction saves memory (a projected
//! zone), not states, and what is compared there is the projection and
//! its reconstruction. Removing the freeing from the reference, or
//! breaking the store's projection, its replacement rule or its narrow
//! encoding, makes these tests fail.

use std::collections::{HashMap, VecDeque};

use crate::support;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use support::random_net::{build, larger_spec, spec};
use zeno::checker::dbm::Dbm;
use zeno::checker::dbm::bound::{Raw, raw};
use zeno::checker::semantics::{Model, TransitionBuf};
use zeno::checker::*;
use zeno::ir::*;

/// A stored state of the plain store.
struct Plain {
    key: Vec<i32>,
    zone: Dbm,
    g: u32,
    removed: bool,
    expanded: bool,
}

/// The plain store: per discrete part, the live states' ids.
#[derive(Default)]
struct PlainStore {
    lists: HashMap<Vec<i32>, Vec<usize>>,
    states: Vec<Plain>,
    live: u64,
}

/// Whether zone `a` is included in zone `b`: both canonical, so entry by
/// entry.
fn included(a: &Dbm, b: &Dbm) -> bool {
    a.raw().iter().zip(b.raw()).all(|(x, y)| x <= y)
}

impl PlainStore {
    /// Breadth-first search's rule: a new zone included in a stored one of
    /// no greater depth is dropped; a stored zone included in the new one
    /// is removed when it is no shallower or already expanded.
    fn insert(&mut self, key: &[i32], zone: &Dbm, g: u32) -> Option<usize> {
        let list = self.lists.entry(key.to_vec()).or_default();
        let mut k = 0;
        while k < list.len() {
            let s = &mut self.states[list[k]];
            if included(zone, &s.zone) && s.g <= g {
                return None;
            }
            if included(&s.zone, zone) && (g <= s.g || s.expanded) {
                s.removed = true;
                self.live -= 1;
                list.swap_remove(k);
            } else {
                k += 1;
            }
        }
        let id = self.states.len();
        list.push(id);
        self.states.push(Plain {
            key: key.to_vec(),
            zone: zone.clone(),
            g,
            removed: false,
            expanded: false,
        });
        self.live += 1;
        Some(id)
    }
}

/// Per process and location, the clocks read before they are reset on some
/// path (an invariant, a clock guard, or active in the target of an edge
/// that does not reset them); and the clocks the goal reads, active
/// everywhere.
struct Active {
    local: Vec<Vec<Vec<bool>>>,
    global: Vec<bool>,
}

impl Active {
    // The fixpoint reads one location's row and writes another's: indices.
    #[allow(clippy::needless_range_loop)]
    fn new(net: &Network, goal: &Formula) -> Active {
        let dim = net.dbm_dim();
        let read = |a: &mut Vec<bool>, cc: &ClockConstraint| {
            a[cc.i as usize] = true;
            a[cc.j as usize] = true;
        };
        let local = net
            .processes
            .iter()
            .map(|p| {
                let mut act: Vec<Vec<bool>> = p
                    .locations
                    .iter()
                    .map(|l| {
                        let mut a = vec![false; dim];
                        l.invariant.iter().for_each(|cc| read(&mut a, cc));
                        a
                    })
                    .collect();
                for e in &p.edges {
                    e.clock_guard
                        .iter()
                        .for_each(|cc| read(&mut act[e.source as usize], cc));
                }
                let resets = |e: &Edge, x: usize| {
                    e.updates.iter().any(
                        |u| matches!(u, Update::ResetClock { clock, .. } if *clock as usize == x),
                    )
                };
                let mut changed = true;
                while changed {
                    changed = false;
                    for e in &p.edges {
                        let (s, t) = (e.source as usize, e.target as usize);
                        for x in 1..dim {
                            if act[t][x] && !act[s][x] && !resets(e, x) {
                                act[s][x] = true;
                                changed = true;
                            }
                        }
                    }
                }
                act
            })
            .collect();
        let mut global = vec![false; dim];
        global[0] = true;
        let mut formulas = vec![goal];
        while let Some(f) = formulas.pop() {
            match f {
                Formula::Clock(cc) => read(&mut global, cc),
                Formula::Not(g) => formulas.push(g),
                Formula::And(gs) | Formula::Or(gs) => formulas.extend(gs),
                _ => {}
            }
        }
        Active { local, global }
    }

    /// Frees the clocks inactive at `locations`.
    fn free_inactive(&self, locations: &[i32], zone: &mut Dbm) {
        for x in 1..self.global.len() {
            let active = self.global[x]
                || locations
                    .iter()
                    .enumerate()
                    .any(|(p, &l)| self.local[p][l as usize][x]);
            if !active {
                zone.free(x);
            }
        }
    }
}

/// Whether (`key`, `zone`) meets `goal`: the locations and data parts hold
/// and the zone has a valuation satisfying the clock parts (the random
/// networks' goals are conjunctions of these, or data formulas).
fn meets(goal: &Formula, nproc: usize, key: &[i32], zone: &Dbm) -> bool {
    let vars = &key[nproc..];
    let mut clocks = zone.clone();
    let mut parts = vec![goal];
    while let Some(f) = parts.pop() {
        match f {
            Formula::And(gs) => parts.extend(gs),
            Formula::At { process, location } => {
                if key[*process as usize] != *location as i32 {
                    return false;
                }
            }
            Formula::Data(e) => {
                if e.eval(vars).expect("goal evaluates") == 0 {
                    return false;
                }
            }
            Formula::Not(g) => match &**g {
                Formula::Data(e) => {
                    if e.eval(vars).expect("goal evaluates") != 0 {
                        return false;
                    }
                }
                other => panic!("no reference for the goal part not {other:?}"),
            },
            Formula::Clock(cc) => {
                let b = cc.bound.eval(vars).expect("bound evaluates");
                if !clocks.constrain(cc.i as usize, cc.j as usize, raw(b, cc.strict)) {
                    return false;
                }
            }
            other => panic!("no reference for the goal part {other:?}"),
        }
    }
    true
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum End {
    Exhausted,
    /// A goal state at this depth.
    Goal(u32),
    ModelError,
}

/// The plain breadth-first search's figures.
#[derive(Debug)]
struct Figures {
    end: End,
    explored: u64,
    generated: u64,
    stored: u64,
    /// Live states after each complete expansion (`[m - 1]`: after `m`).
    stored_after: Vec<u64>,
    /// The largest finite bound (raw) of a stored zone.
    widest: Raw,
    /// States expanded at each depth.
    per_depth: Vec<u64>,
}

/// Breadth-first search of check `k` over the plain store, in the order
/// the checker's sequential search takes states and transitions.
fn plain_bfs(net: &Network, k: usize, active_clocks: bool) -> Figures {
    let goal = net.checks[k].kind.goal();
    let model = Model::new(net, &goal);
    let active = active_clocks.then(|| Active::new(net, &goal));
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    let mut abstracted = |key: &[i32], zone: &mut Dbm| {
        model.extrapolate(key, zone, &mut lower, &mut upper);
        if let Some(a) = &active {
            a.free_inactive(&key[..model.nproc], zone);
        }
    };
    let mut store = PlainStore::default();
    let mut f = Figures {
        end: End::Exhausted,
        explored: 0,
        generated: 0,
        stored: 0,
        stored_after: Vec::new(),
        widest: 0,
        per_depth: Vec::new(),
    };
    let end = 'search: {
        let (key, mut zone) = match model.initial() {
            Ok(Some(s)) => s,
            Ok(None) => break 'search End::Exhausted,
            Err(_) => break 'search End::ModelError,
        };
        abstracted(&key, &mut zone);
        f.generated += 1;
        let id = store
            .insert(&key, &zone, 0)
            .expect("the first state is new");
        if meets(&goal, model.nproc, &key, &zone) {
            break 'search End::Goal(0);
        }
        let mut frontier = VecDeque::from([id]);
        let mut buf = TransitionBuf::default();
        let (mut new_key, mut zones) = (Vec::new(), Vec::new());
        while let Some(id) = frontier.pop_front() {
            if store.states[id].removed {
                continue;
            }
            store.states[id].expanded = true;
            f.explored += 1;
            let (key, zone, g) = {
                let s = &store.states[id];
                (s.key.clone(), s.zone.clone(), s.g)
            };
            if f.per_depth.len() <= g as usize {
                f.per_depth.resize(g as usize + 1, 0);
            }
            f.per_depth[g as usize] += 1;
            if model.transitions(&key, &mut buf).is_err() {
                break 'search End::ModelError;
            }
            for t in 0..buf.len() {
                let n = match model.successor(&key, &zone, buf.get(t), &mut new_key, &mut zones) {
                    Ok(n) => n,
                    Err(_) => break 'search End::ModelError,
                };
                for z in &mut zones[..n] {
                    abstracted(&new_key, z);
                    f.generated += 1;
                    let Some(sid) = store.insert(&new_key, z, g + 1) else {
                        continue;
                    };
                    f.widest = f.widest.max(widest(z));
                    if meets(&goal, model.nproc, &new_key, z) {
                        break 'search End::Goal(g + 1);
                    }
                    frontier.push_back(sid);
                }
            }
            f.stored_after.push(store.live);
        }
        End::Exhausted
    };
    f.end = end;
    f.stored = store.live;
    f
}

/// The checker's breadth-first search on one thread.
fn checker_bfs(net: &Network, k: usize, active_clocks: bool, max_states: u64) -> CheckResult {
    let options = Options {
        active_clocks,
        max_states: Some(max_states),
        ..Options::default()
    };
    check(
        net,
        net.check_at(k).unwrap(),
        &options,
        &Cancel::new(),
        &mut no_progress,
    )
}

/// Multiplies every constant in the network's clock bounds by `factor`
/// (bounds read from variables keep the variable: `x <= v + c` becomes
/// `x <= v + c·factor`).
fn scale_clock_bounds(net: &mut Network, factor: i32) {
    fn scale(e: &mut Expr, factor: i32) {
        match e {
            Expr::Const(c) => *c *= factor,
            Expr::Binary(_, a, b) => {
                scale(a, factor);
                scale(b, factor);
            }
            _ => {}
        }
    }
    for p in &mut net.processes {
        for l in &mut p.locations {
            l.invariant
                .iter_mut()
                .for_each(|cc| scale(&mut cc.bound, factor));
        }
        for e in &mut p.edges {
            e.clock_guard
                .iter_mut()
                .for_each(|cc| scale(&mut cc.bound, factor));
        }
    }
    for check in &mut net.checks {
        let mut formulas = match &mut check.kind {
            CheckKind::Reachable(f) | CheckKind::Invariant(f) => vec![f],
            _ => Vec::new(),
        };
        while let Some(f) = formulas.pop() {
            match f {
                Formula::Clock(cc) => scale(&mut cc.bound, factor),
                Formula::Not(g) => formulas.push(g),
                Formula::And(gs) | Formula::Or(gs) => formulas.extend(gs),
                _ => {}
            }
        }
    }
}

/// The largest finite bound of a zone, to tell that scaled zones did leave
/// 16 bits.
fn widest(zone: &Dbm) -> Raw {
    zone.raw()
        .iter()
        .copied()
        .filter(|&r| r != zeno::checker::dbm::bound::INF)
        .map(|r| r.abs())
        .max()
        .unwrap_or(0)
}

/// Compares the checker with the plain search on check `k`; `Err` says
/// where they part.
fn agree(net: &Network, k: usize, active_clocks: bool) -> Result<Figures, String> {
    let plain = plain_bfs(net, k, active_clocks);
    let r = checker_bfs(net, k, active_clocks, 100_000);
    let end = match (&r.verdict, &net.checks[k].kind) {
        (Verdict::ModelError(_), _) => End::ModelError,
        (Verdict::Holds, CheckKind::Reachable(_)) | (Verdict::Fails, CheckKind::Invariant(_)) => {
            End::Goal(r.trace.as_ref().ok_or("a goal without a trace")?.len() as u32)
        }
        (Verdict::Fails, CheckKind::Reachable(_)) | (Verdict::Holds, CheckKind::Invariant(_)) => {
            End::Exhausted
        }
        (v, _) => return Err(format!("verdict {v:?}")),
    };
    let s = &r.stats;
    let got = (end, s.explored, s.generated, s.stored);
    let want = (
        plain.end.clone(),
        plain.explored,
        plain.generated,
        plain.stored,
    );
    if got != want {
        return Err(format!(
            "check {k}, active clocks {active_clocks}: (end, explored, generated, stored) = {got:?}, plain store {want:?}"
        ));
    }
    // Stopped after `m` expansions, the checker holds the states the plain
    // store held then.
    let n = plain.stored_after.len() as u64;
    for m in [1, n / 3, n / 2, 2 * n / 3]
        .into_iter()
        .filter(|&m| m >= 1 && m < n)
    {
        let r = checker_bfs(net, k, active_clocks, m);
        if r.verdict != Verdict::Unknown(Limit::States) || r.stats.explored != m {
            return Err(format!("check {k} stopped at {m}: {:?}", r.verdict));
        }
        let want = plain.stored_after[m as usize - 1];
        if r.stats.stored != want {
            return Err(format!(
                "check {k}, active clocks {active_clocks}: after {m} expansions {} stored, plain store {want}",
                r.stats.stored
            ));
        }
    }
    Ok(plain)
}

/// The random network with its two checks, and a third whose goal no state
/// meets (`v == 7`, outside `v`'s range), so that one search covers the
/// whole zone graph unless a model error stops it.
fn network(s: &support::random_net::Spec) -> Network {
    let mut net = build(s);
    let var = net.variables.len() as VarId - 1;
    net.checks.push(Check {
        name: "nowhere".into(),
        kind: CheckKind::Reachable(Formula::Data(support::net::eq(
            support::net::v(var),
            support::net::c(7),
        ))),
        span: Span::default(),
        name_span: Span::default(),
    });
    net
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn the_compact_store_stores_what_a_plain_store_stores(s in prop_oneof![spec(), larger_spec()]) {
        let net = network(&s);
        for k in 0..net.checks.len() {
            // `deadlock` has no reference here (nor does the store decide it).
            if matches!(&net.checks[k].kind, CheckKind::Invariant(Formula::Not(f)) if **f == Formula::Deadlock) {
                continue;
            }
            for active_clocks in [true, false] {
                let agreed = agree(&net, k, active_clocks);
                prop_assert!(agreed.is_ok(), "{}", agreed.unwrap_err());
            }
        }
    }

    #[test]
    fn the_compact_store_agrees_beyond_16_bit_bounds(s in prop_oneof![spec(), larger_spec()]) {
        let mut net = network(&s);
        scale_clock_bounds(&mut net, 20_000);
        let k = net.checks.len() - 1;
        let agreed = agree(&net, k, true);
        prop_assert!(agreed.is_ok(), "{}", agreed.unwrap_err());
    }
}

/// The scaled networks do reach the wide encoding: some store a zone with
/// a bound beyond 16 bits.
#[test]
fn scaled_networks_leave_16_bits() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let wide = (0..32)
        .filter(|_| {
            let s = spec().new_tree(&mut runner).unwrap().current();
            let mut net = network(&s);
            scale_clock_bounds(&mut net, 20_000);
            plain_bfs(&net, net.checks.len() - 1, true).widest > i16::MAX as Raw
        })
        .count();
    assert!(wide > 0, "no scaled network stored a wide zone");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The parallel search's counts (`Stats::parallel`) on full
    /// explorations: its levels are the plain search's depths, every
    /// successor but the initial state went through a batch, and the
    /// cross-shard ones are among them.
    #[test]
    fn parallel_levels_are_the_plain_search_depths(s in larger_spec()) {
        let net = network(&s);
        let k = net.checks.len() - 1;
        let plain = plain_bfs(&net, k, true);
        prop_assume!(plain.end == End::Exhausted);
        let options = Options { threads: 2, ..Options::default() };
        let r = check(&net, net.check_at(k).unwrap(), &options, &Cancel::new(), &mut no_progress);
        let p = r.stats.parallel.as_ref().expect("the parallel search's counts");
        prop_assert_eq!(&p.level_states, &plain.per_depth);
        prop_assert_eq!(p.batched, plain.generated - 1);
        prop_assert!(p.cross_shard <= p.batched);
        prop_assert!(p.slabs >= p.level_states.len() as u64);
        for t in [p.expand_seconds, p.expand_busy_seconds, p.insert_seconds, p.insert_busy_seconds, p.serial_seconds, p.wait_seconds] {
            prop_assert!(t.is_finite() && t >= 0.0);
        }
    }
}
