//! Pattern selection by downward pattern refinement (the paper's Fig. 3,
//! simplified to discrete patterns).
//!
//! Start from the full pattern (every process and variable). While its
//! abstract space does not fit the state budget, try removing each element in
//! turn and keep the removal whose abstraction stays most informed: the
//! largest abstract goal distance of the initial state (∞ when the abstract
//! goal is unreachable, which lets the search prune; the distance is a lower
//! bound when the candidate's enumeration ran out of budget), then the
//! smaller abstract space. This is the paper's "largely informed" criterion
//! (Proposition 3) measured on the abstract initial state with the exact
//! abstract distance instead of a second heuristic.
//!
//! Everything is bounded in abstract states, so the choice is deterministic;
//! an optional wall-clock budget (the paper's `c` seconds) can cut it short.
//! Separately, the run's stop condition (cancel flag, time limit) is polled
//! between candidates and during each enumeration, and abandons the build.
//! When a budget runs out, the remaining elements are dropped in a fixed
//! order (those the goal does not mention, the largest domains first) until
//! the product of the kept domains fits the state budget.

use std::time::Instant;

use super::PdbOptions;
use super::pattern::{Element, Pattern};
use super::projection::Abstraction;
use super::space::{Space, enumerate_or_empty};
use super::zones::{ClockSet, ZoneSpace};
use crate::heuristics::EdgeSet;
use crate::heuristics::goal::{Atom, Conjunction};
use crate::lu::LuTable;
use zeno_ir::{Formula, Network};

/// What the selection did, for benchmarks and docs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectionReport {
    /// Candidate patterns evaluated.
    pub candidates: u64,
    /// Abstract states enumerated over all candidates.
    pub states_spent: u64,
    /// Elements dropped without evaluation once a budget ran out.
    pub fallback_removals: u64,
}

/// How informative a candidate's abstraction is; larger is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    /// Abstract goal distance of the initial state (a lower bound when the
    /// enumeration was cut), `u32::MAX` when unreachable.
    distance: u32,
    complete: bool,
    /// Fewer states is better.
    smaller: std::cmp::Reverse<usize>,
}

fn score(space: &Space) -> Score {
    let distance = match space.goal_depth {
        Some(d) => d,
        None if space.complete => u32::MAX,
        None => space.layers_done + 1,
    };
    Score {
        distance,
        complete: space.complete,
        smaller: std::cmp::Reverse(space.len()),
    }
}

pub(crate) fn select(
    net: &Network,
    goal: &[Conjunction],
    disabled: &EdgeSet,
    options: &PdbOptions,
    stop: &dyn Fn() -> bool,
) -> Option<(Pattern, Space, SelectionReport)> {
    let start = Instant::now();
    let max = options.max_states.max(1);
    let mut report = SelectionReport::default();
    let out_of_time = || options.selection_time.is_some_and(|t| start.elapsed() >= t);
    let build = |p: &Pattern| Abstraction::new(net, p.clone(), goal, disabled);
    let mut pattern = Pattern::full(net);
    // Whether `pattern` was only tried with a smaller budget than `max`.
    let mut tried_fully = false;
    loop {
        if stop() {
            return None;
        }
        let fits_surely = pattern.size_bound(net) <= max as u64;
        let in_budget = report.states_spent < options.selection_states && !out_of_time();
        if fits_surely || (in_budget && !tried_fully) {
            let space = enumerate_or_empty(net, build(&pattern), max, stop)?;
            report.states_spent += space.len() as u64;
            if space.complete {
                return Some((pattern, space, report));
            }
        }
        let elements = pattern.elements();
        if elements.is_empty() {
            // Unreachable in practice: the empty pattern has one state.
            let space = enumerate_or_empty(net, build(&pattern), max, stop)?;
            return Some((pattern, space, report));
        }
        let left = options.selection_states.saturating_sub(report.states_spent);
        let per = (left / elements.len() as u64).min(max as u64) as usize;
        if per < MIN_CANDIDATE_BUDGET.min(max) || out_of_time() {
            pattern = pattern.without(fallback(net, goal, &elements));
            report.fallback_removals += 1;
            tried_fully = false;
            continue;
        }
        let mut best: Option<(Score, Element, Space)> = None;
        for &e in &elements {
            let candidate = pattern.without(e);
            let space = enumerate_or_empty(net, build(&candidate), per, stop)?;
            report.candidates += 1;
            report.states_spent += space.len() as u64;
            let s = score(&space);
            if best.as_ref().is_none_or(|(b, _, _)| s > *b) {
                best = Some((s, e, space));
            }
            if out_of_time() {
                break;
            }
        }
        let (_, e, space) = best.expect("at least one candidate");
        pattern = pattern.without(e);
        if space.complete {
            return Some((pattern, space, report));
        }
        tried_fully = per >= max;
    }
}

/// Candidates get at least this many abstract states each, or the selection
/// falls back to the fixed order.
const MIN_CANDIDATE_BUDGET: usize = 256;

/// The element to drop without evaluation: one the goal does not mention if
/// any, the largest domain first, the highest index on ties.
fn fallback(net: &Network, goal: &[Conjunction], elements: &[Element]) -> Element {
    let mentioned = |e: Element| {
        goal.iter().flatten().any(|a| match (a, e) {
            (Atom::At(p, _) | Atom::NotAt(p, _), Element::Process(q)) => *p == q,
            (Atom::Data(x), Element::Variable(v)) => {
                let mut hit = false;
                x.for_each_read(&mut |w| hit |= w == v);
                hit
            }
            _ => false,
        })
    };
    let domain = |e: Element| -> u64 {
        match e {
            Element::Process(p) => net.processes[p as usize].locations.len() as u64,
            Element::Variable(v) => {
                let var = &net.variables[v as usize];
                (var.hi as i64 - var.lo as i64 + 1) as u64
            }
        }
    };
    *elements
        .iter()
        .enumerate()
        .max_by_key(|&(i, &e)| (!mentioned(e), domain(e), i))
        .map(|(_, e)| e)
        .expect("non-empty")
}

/// Downward refinement of a clock pattern: from every process, variable and
/// clock, drop one element at a time (processes, then variables, then
/// clocks, by index) when the zone graph without it is still complete within
/// `max_states` and its initial distance does not drop ("unreachable" being
/// the largest). The state budget `selection_states` bounds it
/// deterministically; `selection_time`, when set, stops the refinement early
/// with the last complete pattern (always sound), and so does `stop` (the
/// run's cancellation), polled between enumerations. `None` when even the
/// full zone graph does not fit or the run stops before it is enumerated.
pub(crate) fn select_clocks(
    net: &Network,
    goal_formula: &Formula,
    goal: &[Conjunction],
    disabled: &EdgeSet,
    options: &PdbOptions,
    stop: &dyn Fn() -> bool,
) -> Option<(Pattern, ZoneSpace)> {
    let start = Instant::now();
    let max = options.max_states.max(1);
    let lu = LuTable::new(net, goal_formula);
    let mut spent = 0u64;
    let out_of_time = || options.selection_time.is_some_and(|t| start.elapsed() >= t);
    let mut enumerate = |p: &Pattern, wanted: &[bool]| -> Option<ZoneSpace> {
        // Once a complete pattern exists, the selection's time budget may
        // end a refinement step midway (its candidate is then dropped); the
        // first, full pattern is bounded by the state budget alone.
        let may_time_out = spent > 0;
        if spent >= options.selection_states || (may_time_out && out_of_time()) || stop() {
            return None;
        }
        let abs = Abstraction::new(net, p.clone(), goal, disabled).ok()?;
        let halt = || stop() || (may_time_out && out_of_time());
        let space = ZoneSpace::enumerate(net, &abs, ClockSet::new(net, p, wanted), &lu, max, &halt);
        spent += space.len as u64;
        space.complete.then_some(space)
    };
    let rank = |s: &ZoneSpace| s.initial_distance.map_or(u64::MAX, u64::from);
    let mut pattern = Pattern::full(net);
    let mut wanted = vec![true; net.dbm_dim()];
    let mut best = enumerate(&pattern, &wanted)?;
    for e in pattern.elements() {
        let candidate = pattern.without(e);
        if let Some(space) = enumerate(&candidate, &wanted)
            && rank(&space) >= rank(&best)
        {
            pattern = candidate;
            best = space;
        }
    }
    for x in 1..wanted.len() {
        if !best.clocks.kept[x] {
            continue;
        }
        let mut fewer = wanted.clone();
        fewer[x] = false;
        if let Some(space) = enumerate(&pattern, &fewer)
            && rank(&space) >= rank(&best)
        {
            wanted = fewer;
            best = space;
        }
    }
    Some((pattern, best))
}
