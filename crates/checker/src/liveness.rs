//! Liveness checks on the zone graph: `E[] p`, `A<> p` (decided as
//! `not E[] not p`) and `p --> q` (decided as `A[] (p imply A<> q)`, on the
//! fly), in UPPAAL's semantics over maximal runs (docs/language.md,
//! "Liveness checks").
//!
//! Here the operands are discrete (formulas with clock constraints or
//! `deadlock` go to `timed.rs`), so a formula keeps its truth value while
//! time passes and changes only with action transitions. A maximal run that
//! keeps `p` in every state exists from a symbolic state exactly when one of
//! these is reachable from it inside the `p`-states of the zone graph:
//!
//! 1. a cycle: an infinite run (Zeno runs included, as UPPAAL counts them);
//! 2. a state where time diverges: the run may end by waiting forever;
//! 3. a state whose zone holds a deadlocked valuation: the run ends there
//!    (after any delay still allowed, no action is ever possible).
//!
//! The zone graph is the one the reachability search explores (delay-closed
//! zones, extrapolated) but with Extra+_M instead of Extra+_LU: the
//! deadlock test of case 3 needs a bisimulation, as for `A[] !deadlock`.
//! Why each case is exact on that graph:
//!
//! - An abstract cycle lifts to an infinite concrete run: the zone graph
//!   under Extra+_LU (and so under the finer Extra+_M) is sound and complete
//!   for the existence of infinite runs (Li, "Checking timed Büchi automata
//!   emptiness using LU-abstractions", FORMATS 2009; Herbreteau, Srivathsan
//!   and Walukiewicz, "Efficient emptiness check for timed Büchi automata",
//!   CAV 2010, which TChecker's `tck-liveness` relies on). Conversely every
//!   infinite concrete run visits the finitely many abstract states along an
//!   abstract path, which must repeat a state.
//! - Time divergence depends on the discrete part alone: invariants are
//!   conjunctions of bounds `x <= c`, `x >= c` and diagonals, of which only
//!   upper bounds change their value while time passes, and a delay-closed
//!   zone lets time pass without end exactly when no location of the state
//!   bounds a clock from above and no urgency forbids delays.
//! - A deadlocked valuation in an extrapolated zone is region-equivalent to
//!   a reachable one (Extra+_M only adds valuations of the regions the zone
//!   meets), and region equivalence preserves deadlocks.
//!
//! The search is one depth-first search per root. A node is grey while it
//! is on the stack and black once all its successors are done. A successor
//! equal to a grey node closes a cycle (case 1). Reduction, with its proof:
//! **a successor whose zone is included in a black node's zone (same
//! discrete part) is not explored.** Claim: no maximal `p`-run starts in a
//! valuation of a black node. By induction on the order in which nodes turn
//! black: when a node turns black it is not of case 2 or 3, and each of its
//! successors inside `p` is a node that turned black before it, or is
//! included in one, since a successor equal to a grey node would have ended
//! the search. A maximal `p`-run from a valuation of the node either ends in
//! the node's delay closure (cases 2 and 3, excluded) or takes an action into
//! a successor's zone (zone successors over-approximate concrete ones) and
//! goes on from there as a maximal `p`-run, excluded by induction (for an
//! included successor: its valuations are valuations of the larger black
//! node). So skipping included successors loses no maximal run. Black nodes
//! stay black across searches (the claim is about the node alone), which is
//! how `-->` shares the work of its inner searches. Inclusion in a *grey*
//! node proves nothing (the grey node's exploration is not finished), so
//! such successors are explored; only equality with a grey node closes a
//! cycle.

mod buchi;
mod directed;
mod non_zeno;
mod timed;
mod timed_trace;

use std::time::Instant;

use rustc_hash::FxHashMap;

use zeno_ir::{self as ir, EdgeId, EvalError, Formula, ProcId};

use super::concrete;
use super::dbm::Dbm;
use super::goal::{self, Goal};
use super::heuristics::{self, Heuristic};
use super::packed_key::KeyCodec;
use super::semantics::{Model, TransitionBuf};
use super::store::{Inserted, NO_PARENT, Store, Subsumption};
use super::trace::{TraceEnd, ZoneBound};
use super::zone_graph::{Unlisted, ZoneGraph};
use super::{CheckResult, HeuristicKind, Limit, Options, SearchOrder, Stats, Stop, Task, Verdict};

type Edges = Vec<(ProcId, EdgeId)>;

/// The states a guided outer search of `-->` in `zeno check`'s default
/// configuration expands before it goes on breadth-first (as its
/// reachability searches fall back, [`super::Options::breadth_first_after`]).
const OUTER_BREADTH_FIRST_AFTER: u64 = 50_000;

/// How often (in explored states) progress is reported.
const PROGRESS_EVERY: u64 = 4096;

/// How a run that keeps the formula goes on forever or ends.
enum End {
    /// It returns to the state at this index of the run (0: the run's first
    /// state), whose zone is given.
    Loop(usize, Dbm),
    Deadlock,
    TimeDiverges,
}

/// What stopped a search early.
enum Halt {
    /// A reachable run-time error: the transitions to the state, and the
    /// failing ones.
    Error(Vec<Edges>, Edges, EvalError),
    Limit(Limit),
}

/// Why successors could not be computed: a transition's evaluation failed
/// (its edges), or the formula of a search with clocks is undefined in the
/// state a transition leads to (its edges).
enum Failed {
    Transition((Edges, EvalError)),
    Target((Edges, EvalError)),
    /// A stop condition ended the enumeration of a state's transitions
    /// (a broadcast with exponentially many combinations): the successors
    /// are incomplete, so the search stops with this limit.
    Stopped(Limit),
}

/// A node of the inner search.
struct Node {
    zone: Dbm,
    /// On the stack (with its depth); black otherwise.
    grey: Option<u32>,
}

/// One level of the depth-first stack.
struct Frame {
    node: u32,
    /// The node's discrete part.
    key: Box<[i32]>,
    /// The transitions that entered the node (empty for the root).
    via: Edges,
    succ: Vec<(Box<[i32]>, Dbm, Edges)>,
    next: usize,
}

/// What the depth-first walk of `Search::keeps` does at its events: the
/// plain search ([`Plain`]) and the non-Zeno one (`buchi.rs`) walk alike and
/// differ only here.
trait Walk {
    /// Node `id`, with discrete part `key`, was entered by `via`.
    fn entered(&mut self, _id: u32, _key: &[i32], _via: &Edges) {}
    /// Every successor of `node` was explored, and it left the stack.
    fn finished(&mut self, s: &mut Search, node: u32, key: &[i32]);
    /// A successor of the top of `stack`, by transitions `by`, equals
    /// `node`: the run, when this closes one.
    fn reached(&mut self, s: &mut Search, stack: &[Frame], node: u32, by: Edges) -> Option<Run>;
}

/// The plain search: a node is grey while on the stack, and a successor
/// equal to a grey node closes a cycle, the run sought.
struct Plain;

impl Walk for Plain {
    fn finished(&mut self, s: &mut Search, node: u32, key: &[i32]) {
        s.blacken(node, key);
    }

    fn reached(&mut self, s: &mut Search, stack: &[Frame], node: u32, by: Edges) -> Option<Run> {
        let depth = s.nodes[node as usize].grey?;
        let zone = s.nodes[node as usize].zone.clone();
        let zones = s.zones_here(stack, node);
        Some((
            path_here(stack, &by),
            zones,
            End::Loop(depth as usize, zone),
        ))
    }
}

/// The transitions from the root of a depth-first `stack` to the node
/// entered by `via` below its top.
fn path_here(stack: &[Frame], via: &Edges) -> Vec<Edges> {
    let mut path: Vec<Edges> = stack.iter().skip(1).map(|f| f.via.clone()).collect();
    if !stack.is_empty() {
        path.push(via.clone());
    }
    path
}

/// The run of `-->`: `prefix` to the root state, then (with `split`) a
/// step without transition into the part of its zone where the inner
/// search starts, then the inner run.
fn prefixed(
    prefix: Vec<Edges>,
    split: Option<Dbm>,
    rest: Vec<Edges>,
    zones: Vec<Option<Dbm>>,
    end: End,
) -> Run {
    let before = prefix.len() + usize::from(split.is_some());
    let mut all_zones: Vec<Option<Dbm>> = vec![None; prefix.len()];
    let mut full = prefix;
    if let Some(part) = split {
        all_zones.push(Some(part));
        full.push(Vec::new());
    }
    all_zones.extend(zones);
    full.extend(rest);
    let end = match end {
        End::Loop(start, z) => End::Loop(before + start, z),
        other => other,
    };
    (full, all_zones, end)
}

/// A model error met by transitions `edges` from the node entered by `via`
/// below `stack`, reached from the search's start by `prefix`.
fn error_here(prefix: &[Edges], stack: &[Frame], via: &Edges, edges: Edges, e: EvalError) -> Halt {
    let mut path = prefix.to_vec();
    path.extend(path_here(stack, via));
    Halt::Error(path, edges, e)
}

struct Search<'a, 'm> {
    model: &'m Model<'a>,
    /// The zone graph's step for the searches without clocks in the
    /// formula (those with clocks enter the formula's pieces, `timed.rs`).
    graph: ZoneGraph<'m>,
    options: &'m Options,
    stop: &'m Stop<'m>,
    progress: &'m mut dyn FnMut(&Stats),
    stats: Stats,
    nodes: Vec<Node>,
    index: FxHashMap<Box<[i32]>, Vec<u32>>,
    buf: TransitionBuf,
    lower: Vec<i32>,
    upper: Vec<i32>,
    started: Instant,
    /// States stored by the outer search of `-->`.
    outer_stored: u64,
    /// The model is `non_zeno::product` of the network: only non-Zeno
    /// infinite runs count (`buchi.rs`).
    non_zeno: bool,
    /// Whether enumerating a state's transitions polls the stop conditions
    /// (`transitions_watched`): off only while a found lasso's cycle is
    /// rebuilt from successors already computed once (`buchi.rs`).
    watch_transitions: bool,
    /// Guided search (`directed.rs`): the depth-first searches try
    /// cycle-closing successors first, and the outer search of `-->` is
    /// best-first on `heuristic` (toward `p && !q`).
    guided: bool,
    heuristic: Option<Box<dyn Heuristic>>,
    /// The formula the current depth-first search keeps, when it has
    /// clocks (`timed.rs`): nodes are then pieces of it, and delays stay
    /// inside it.
    timed: Option<timed::Keep>,
}

/// Decides a liveness check (`A<>`, `E[]`, `-->`); [`super::check_until`]
/// sends only those here.
pub fn run(task: Task, progress: &mut dyn FnMut(&Stats)) -> CheckResult {
    let chk = task.net.check(task.check);
    // `deadlock` in the formula the bounds are computed for makes them
    // L = U = M (Extra+_M), which case 3 needs.
    let bounds_for = Formula::And(vec![chk.kind.goal(), Formula::Deadlock]);
    let product;
    let searched = if task.options.non_zeno {
        product = non_zeno::product(task.net);
        &product
    } else {
        task.net
    };
    let model = Model::new(searched, &bounds_for);
    if model.beyond_zones().is_some() {
        return unknown(Limit::ClockRange);
    }
    // The best-first orders guide the liveness searches (`directed.rs`);
    // the outer search of `-->` estimates the distance to `p && !q`.
    let guided = matches!(
        task.options.config.search,
        SearchOrder::Greedy | SearchOrder::AStar
    );
    let heuristic = match &chk.kind {
        ir::CheckKind::LeadsTo(p, q)
            if guided && task.options.config.heuristic != HeuristicKind::Zero =>
        {
            let goal = Formula::And(vec![p.clone(), Formula::Not(Box::new(q.clone()))]);
            let built = heuristics::build_until(
                task.options.config.heuristic,
                searched,
                &goal,
                &heuristics::EdgeSet::none(searched),
                &task.options.pdb,
                &|| task.stop.requested(),
            );
            match built {
                Some(h) => Some(h),
                None => return unknown(task.stop.reason().unwrap_or(Limit::Cancelled)),
            }
        }
        _ => None,
    };
    let mut search = Search {
        model: &model,
        graph: ZoneGraph::new(&model, None),
        options: task.options,
        stop: task.stop,
        progress,
        stats: Stats::default(),
        nodes: Vec::new(),
        index: FxHashMap::default(),
        buf: TransitionBuf::default(),
        lower: Vec::new(),
        upper: Vec::new(),
        started: Instant::now(),
        outer_stored: 0,
        non_zeno: task.options.non_zeno,
        watch_transitions: true,
        guided,
        heuristic,
        timed: None,
    };
    // A trace is found for: `E[]` its witness, `A<>` and `-->` their
    // counterexample.
    let (found, found_verdict, none_verdict) = match &chk.kind {
        ir::CheckKind::Potentially(p) => {
            (search.initially_keeps(p), Verdict::Holds, Verdict::Fails)
        }
        ir::CheckKind::Inevitable(p) => {
            let not_p = Formula::Not(Box::new(p.clone()));
            (
                search.initially_keeps(&not_p),
                Verdict::Fails,
                Verdict::Holds,
            )
        }
        ir::CheckKind::LeadsTo(p, q) => (search.leads_to(p, q), Verdict::Fails, Verdict::Holds),
        ir::CheckKind::Invariant(_) | ir::CheckKind::Reachable(_) | ir::CheckKind::Bound(_) => {
            return unknown(Limit::Cancelled);
        }
    };
    let mut stats = search.stats;
    stats.stored = search.nodes.len() as u64 + search.outer_stored;
    let per_state =
        (model.dim * model.dim * 4 + (model.nproc + task.net.variables.len()) * 4 + 48) as u64;
    stats.bytes_per_state = per_state;
    stats.peak_memory = stats.stored * per_state;
    // Traces of the product are told in the network's terms.
    let result = |verdict, stats, trace: Option<super::Trace>| CheckResult {
        verdict,
        stats,
        trace: match task.options.non_zeno {
            true => trace.map(|t| non_zeno::project(t, task.net.dbm_dim())),
            false => trace,
        },
    };
    // On a stopwatch model the zone graph over-approximates: finding no
    // run proves the check (every concrete run is a run of the graph, and
    // `ends_here` misses no concrete end), but a run found stands only once
    // exact delays confirm it. A path into a deadlock or into waiting for
    // ever is confirmed by `lasso_trace`; a cycle is not (its delays would
    // have to repeat for ever), so it leaves the check `unknown`.
    let unconfirmed = || Verdict::Unknown(task.stop.reason().unwrap_or(Limit::Unconfirmed));
    let stopwatches = model.has_stopwatches();
    match found {
        Ok(None) => result(none_verdict, stats, None),
        Ok(Some((_, _, End::Loop(..)))) if stopwatches => result(unconfirmed(), stats, None),
        Ok(Some((path, _, end))) if stopwatches => {
            match lasso_trace(&model, &path, end, task.stop) {
                Some(trace) => result(found_verdict, stats, Some(trace)),
                None => result(unconfirmed(), stats, None),
            }
        }
        Ok(Some((path, zones, end))) => {
            let trace = match search.timed.take() {
                Some(mut keep) => {
                    timed_trace::lasso(&model, &mut keep, &path, &zones, end, task.stop)
                }
                None => lasso_trace(&model, &path, end, task.stop),
            };
            stats.trace_limit = trace.is_none().then(|| task.stop.reason()).flatten();
            result(found_verdict, stats, trace)
        }
        Err(Halt::Limit(limit)) => result(Verdict::Unknown(limit), stats, None),
        Err(Halt::Error(path, edges, error)) => {
            let trace = concrete::error_trace(&model, &path, &edges, error, task.stop);
            if stopwatches && trace.is_none() {
                return result(unconfirmed(), stats, None);
            }
            stats.trace_limit = trace.is_none().then(|| task.stop.reason()).flatten();
            result(Verdict::ModelError(error), stats, trace)
        }
    }
}

fn unknown(limit: Limit) -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(limit),
        stats: Stats::default(),
        trace: None,
    }
}

/// The concrete trace of a maximal run: the path's transitions with concrete
/// delays, ending as the run ends.
fn lasso_trace(model: &Model, path: &[Edges], end: End, stop: &Stop) -> Option<super::Trace> {
    let target = match &end {
        End::Deadlock => Goal::new(Formula::Deadlock),
        End::Loop(..) | End::TimeDiverges => Goal::new(Formula::True),
    };
    let mut trace = concrete::goal_trace(model, &target, path, stop)?;
    let delay = match trace.end {
        TraceEnd::Goal { delay } => delay,
        _ => return None,
    };
    trace.end = match end {
        End::Loop(start, zone) => TraceEnd::Loop {
            delay,
            start,
            zone: zone_bounds(&zone),
        },
        End::Deadlock => TraceEnd::Deadlock { delay },
        End::TimeDiverges => TraceEnd::TimeDiverges,
    };
    Some(trace)
}

/// The finite constraints of a zone.
fn zone_bounds(zone: &Dbm) -> Vec<ZoneBound> {
    let dim = zone.dim();
    (0..dim)
        .flat_map(|i| (0..dim).filter_map(move |j| ZoneBound::of(zone, i, j)))
        .collect()
}

/// A maximal run: its transitions, the zones of the nodes it goes through
/// from the root of its depth-first search on (the traces of formulas with
/// clocks keep to them; a run of `-->` has a `None` for each state before
/// that root and, when its root is only part of that state's zone, the
/// part first, see `timed_trace.rs`), and how it ends.
type Run = (Vec<Edges>, Vec<Option<Dbm>>, End);

type Outcome = Result<Option<Run>, Halt>;
/// A symbolic state: its discrete part and zone.
type State = (Box<[i32]>, Dbm);

impl Search<'_, '_> {
    /// Counts an explored state and tells whether a limit stops the search.
    fn tick(&mut self) -> Result<(), Halt> {
        self.stats.explored += 1;
        if self
            .options
            .max_states
            .is_some_and(|m| self.stats.explored > m)
        {
            self.stats.explored -= 1;
            return Err(Halt::Limit(Limit::States));
        }
        if let Some(limit) = self.stop.reason() {
            return Err(Halt::Limit(limit));
        }
        if self.stats.explored.is_multiple_of(PROGRESS_EVERY) {
            self.stats.stored = self.nodes.len() as u64 + self.outer_stored;
            self.stats.elapsed = self.started.elapsed();
            (self.progress)(&self.stats);
        }
        Ok(())
    }

    /// The initial symbolic state, extrapolated; `None` when its invariants
    /// are unsatisfiable (the network has no run at all).
    fn initial(&mut self) -> Result<Option<State>, Halt> {
        match self.graph.initial() {
            Ok(Some((key, zone))) => {
                self.stats.generated += 1;
                Ok(Some((key.into_boxed_slice(), zone)))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(Halt::Error(Vec::new(), Vec::new(), e)),
        }
    }

    /// `E[] keep` from the initial state.
    fn initially_keeps(&mut self, keep: &Formula) -> Outcome {
        if goal::is_symbolic(keep) {
            return self.initially_keeps_timed(keep);
        }
        let Some((key, zone)) = self.initial()? else {
            return Ok(None);
        };
        self.keeps(&key, zone, keep, &[])
    }

    /// `E[] keep` for a formula with clocks: from the initial valuation
    /// (all clocks 0), which must satisfy it, delays stay inside it.
    fn initially_keeps_timed(&mut self, keep: &Formula) -> Outcome {
        let key = self.model.initial_key();
        let mut entry = Dbm::zero(self.model.dim);
        match self.model.invariants(&key, &mut entry) {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(e) => return Err(Halt::Error(Vec::new(), Vec::new(), e)),
        }
        self.stats.generated += 1;
        let roots = self.timed_entry(keep, &key, &entry, &[])?;
        for root in roots {
            if let Some(run) = self.keeps(&key, root, keep, &[])? {
                return Ok(Some(run));
            }
        }
        Ok(None)
    }

    /// The nodes of the search of `E[] keep` (`keep` with clocks) for the
    /// entry points `entry` at `key`; `prefix` leads there (for the path of
    /// a model error).
    fn timed_entry(
        &mut self,
        keep: &Formula,
        key: &[i32],
        entry: &Dbm,
        prefix: &[Edges],
    ) -> Result<Vec<Dbm>, Halt> {
        let mut timed = match self.timed.take() {
            Some(t) if t.formula == *keep => t,
            _ => timed::Keep::new(keep.clone()),
        };
        let model = self.model;
        let out = timed
            .at(model, key, &mut self.buf)
            .and_then(|pieces| {
                timed::enter(model, key, entry, &pieces, &mut self.lower, &mut self.upper)
            })
            .map_err(|e| Halt::Error(prefix.to_vec(), Vec::new(), e));
        self.timed = Some(timed);
        out
    }

    /// `p --> q`: every reachable state (breadth-first, a state included in
    /// a stored one of the same discrete part is skipped: its maximal runs
    /// are runs of the larger one) that satisfies `p` and not `q` is the
    /// root of a search for a maximal run that never satisfies `q`.
    fn leads_to(&mut self, p: &Formula, q: &Formula) -> Outcome {
        let not_q = Formula::Not(Box::new(q.clone()));
        let p_not_q = Formula::And(vec![p.clone(), not_q.clone()]);
        let timed = goal::is_symbolic(&p_not_q);
        let Some((key, zone)) = self.initial()? else {
            return Ok(None);
        };
        // The outer search's states live in the reachability search's
        // store: one compact zone table per discrete part, inclusion both
        // ways in one pass, parents and transitions for the path.
        let mut store = Store::new(key.len(), self.model.dim);
        store.pack_keys(KeyCodec::of_network(self.model.net));
        let Inserted::New(first) = store.insert(&key, &zone, NO_PARENT, &[], 0, Subsumption::Any)
        else {
            unreachable!("the first state is new");
        };
        let mut queue = directed::OuterQueue::new(self.guided);
        queue.push(
            first,
            self.model,
            self.heuristic.as_deref_mut(),
            &key,
            &zone,
        );
        self.outer_stored = 1;
        let mut zone = Dbm::zero(self.model.dim);
        let mut expanded: u64 = 0;
        // `zeno check`'s default configuration (`take_turns`) gives way as
        // its reachability searches do.
        let breadth_first_after = self
            .options
            .breadth_first_after
            .or(self.options.take_turns.then_some(OUTER_BREADTH_FIRST_AFTER));
        while let Some(id) = queue.pop() {
            // A larger zone of the same discrete part replaced it: its
            // maximal runs are runs of that one.
            if store.removed(id) {
                continue;
            }
            self.tick()?;
            expanded += 1;
            if queue.is_best_first() && breadth_first_after.is_some_and(|n| expanded >= n) {
                // Guidance found no counterexample early: go on blind
                // (the order never changes the verdict, `directed.rs`).
                queue.go_breadth_first();
            }
            let key: Box<[i32]> = store.key(id).into_boxed_slice();
            store.zone_into(id, &mut zone);
            store.mark_expanded(id);
            let path = || {
                let mut path = Vec::new();
                let mut k = id;
                while store.state(k).parent != NO_PARENT {
                    path.push(store.transition(k).to_vec());
                    k = store.state(k).parent;
                }
                path.reverse();
                path
            };
            if timed {
                if let Some(run) = self.leads_to_timed(&p_not_q, &not_q, &key, &zone, path)? {
                    return Ok(Some(run));
                }
            } else {
                // A formula undefined at the state is a model error there.
                let at_p = goal::discrete(self.model, p, &key)
                    .and_then(|at_p| Ok(at_p && !goal::discrete(self.model, q, &key)?))
                    .map_err(|e| Halt::Error(path(), Vec::new(), e))?;
                if at_p {
                    let prefix = path();
                    if let Some((rest, zones, end)) =
                        self.keeps(&key, zone.clone(), &not_q, &prefix)?
                    {
                        return Ok(Some(prefixed(prefix, None, rest, zones, end)));
                    }
                }
            }
            let succ = self
                .successors(&key, &zone)
                .map_err(|failed| match failed {
                    Failed::Transition((edges, e)) | Failed::Target((edges, e)) => {
                        Halt::Error(path(), edges, e)
                    }
                    Failed::Stopped(limit) => Halt::Limit(limit),
                })?;
            let g = store.state(id).g.saturating_add(1);
            for (k2, z2, edges) in succ {
                if let Inserted::New(new) = store.insert(&k2, &z2, id, &edges, g, Subsumption::Any)
                {
                    queue.push(new, self.model, self.heuristic.as_deref_mut(), &k2, &z2);
                    self.outer_stored = store.live();
                }
            }
        }
        Ok(None)
    }

    /// The inner searches of `p --> q` from one state of the outer search
    /// when `p` or `q` has clocks: each part of the zone where `p && !q`
    /// holds is the root of a search for a maximal run that never satisfies
    /// `q`, delays included. Where that part is not the whole zone, the run
    /// reaches it by a delay: an extra step without transition (`[]`) with
    /// the part as its zone (`timed_trace.rs`).
    fn leads_to_timed(
        &mut self,
        p_not_q: &Formula,
        not_q: &Formula,
        key: &[i32],
        zone: &Dbm,
        path: impl Fn() -> Vec<Edges>,
    ) -> Outcome {
        let model = self.model;
        let roots = goal::symbolic(model, p_not_q, key, zone, &mut self.buf)
            .map_err(|e| Halt::Error(path(), Vec::new(), e))?;
        for part in roots {
            let prefix = path();
            let nodes = self.timed_entry(not_q, key, &part, &prefix)?;
            let whole = zone.is_subset_of(&part);
            for node in nodes {
                if let Some((rest, zones, end)) = self.keeps(key, node, not_q, &prefix)? {
                    let split = (!whole).then(|| part.clone());
                    return Ok(Some(prefixed(prefix, split, rest, zones, end)));
                }
            }
        }
        Ok(None)
    }

    /// The zone successors of a symbolic state, extrapolated, each with its
    /// transition; or the transition whose evaluation failed.
    #[allow(clippy::type_complexity)]
    fn successors(
        &mut self,
        key: &[i32],
        zone: &Dbm,
    ) -> Result<Vec<(Box<[i32]>, Dbm, Edges)>, Failed> {
        self.graph
            .watch(self.watch_transitions.then(|| self.stop.watch()));
        let transitions = match self.graph.transitions(key) {
            Ok(n) => n,
            Err(Unlisted::Error(e)) => return Err(Failed::Transition((e.edges, e.error))),
            Err(Unlisted::Stopped(limit)) => return Err(Failed::Stopped(limit)),
        };
        let mut out = Vec::new();
        for k in 0..transitions {
            self.poll_per_transition()?;
            let step = match self.graph.next(key, zone, k) {
                Err(e) => return Err(Failed::Transition((self.graph.edges(k).to_vec(), e))),
                Ok(None) => continue,
                Ok(Some(step)) => step,
            };
            for z in step.zones.iter() {
                self.stats.generated += 1;
                out.push((step.key.into(), z.clone(), step.edges.to_vec()));
            }
        }
        Ok(out)
    }

    /// The transitions of `key` into `self.buf`, polling the stop
    /// conditions while a broadcast's combinations are built (only here:
    /// the deadlock and formula tests that share the buffer need every
    /// transition, so they run unwatched).
    fn transitions_watched(&mut self, key: &[i32]) -> Result<(), Failed> {
        self.buf.watch = self.watch_transitions.then(|| self.stop.watch());
        let listed = self.model.transitions(key, &mut self.buf);
        self.buf.watch = None;
        listed.map_err(|e| Failed::Transition((e.edges, e.error)))?;
        match self.buf.stopped {
            Some(limit) => Err(Failed::Stopped(limit)),
            None => Ok(()),
        }
    }

    /// The stop conditions, polled at every transition of a state: with
    /// hundreds of processes one state has tens of thousands of
    /// transitions, each a closure of a large zone.
    fn poll_per_transition(&self) -> Result<(), Failed> {
        match self.stop.reason().filter(|_| self.watch_transitions) {
            Some(limit) => Err(Failed::Stopped(limit)),
            None => Ok(()),
        }
    }

    /// Whether time can pass for ever in this discrete state: delays are
    /// allowed and no invariant bound `x_i - x_j <= c` grows while time
    /// passes, which it does exactly when `x_i` runs and `x_j` does not
    /// (the reference clock never runs): an upper bound of a running
    /// clock, or, with stopwatches, a difference of a running and a
    /// stopped one. Every valuation of the state can wait for ever, or
    /// none can.
    fn time_diverges(&self, key: &[i32]) -> bool {
        let net = self.model.net;
        if !self.model.can_delay(key) {
            return false;
        }
        let Some(running) = self.model.rates(key) else {
            return false;
        };
        net.processes.iter().enumerate().all(|(p, proc_)| {
            proc_.locations[key[p] as usize]
                .invariant
                .iter()
                .all(|c| !running[c.i as usize] || running[c.j as usize])
        })
    }

    /// Whether the run may end in this symbolic state (cases 2 and 3).
    fn ends_here(&mut self, key: &[i32], zone: &Dbm) -> Option<End> {
        if self.time_diverges(key) {
            return Some(End::TimeDiverges);
        }
        if !goal::deadlocked(self.model, key, zone, &mut self.buf).is_empty() {
            return Some(End::Deadlock);
        }
        None
    }

    /// The zones of the nodes on the depth-first `stack`, then `last`'s.
    fn zones_here(&self, stack: &[Frame], last: u32) -> Vec<Option<Dbm>> {
        stack
            .iter()
            .map(|f| f.node)
            .chain(std::iter::once(last))
            .map(|n| Some(self.nodes[n as usize].zone.clone()))
            .collect()
    }

    /// [`Search::ends_here`] for a formula with clocks (`timed.rs`): time
    /// diverges inside the node, or a deadlock from which every allowed
    /// delay stays inside the formula.
    fn ends_here_timed(&mut self, key: &[i32], zone: &Dbm) -> Result<Option<End>, EvalError> {
        if timed::diverges(self.model, key, zone) {
            return Ok(Some(End::TimeDiverges));
        }
        let mut keep = self.timed.take().expect("a search with clocks");
        let pieces = keep.at(self.model, key, &mut self.buf);
        self.timed = Some(keep);
        let ends = timed::deadlock_ends(self.model, key, zone, &*pieces?, &mut self.buf);
        Ok((!ends.is_empty()).then_some(End::Deadlock))
    }

    /// The successors of a node of a search with clocks (`timed.rs`): for
    /// each transition, the nodes its entry points make in the formula's
    /// pieces at the target; then the crossings into the other pieces here.
    #[allow(clippy::type_complexity)]
    fn successors_timed(
        &mut self,
        key: &[i32],
        zone: &Dbm,
    ) -> Result<Vec<(Box<[i32]>, Dbm, Edges)>, Failed> {
        let model = self.model;
        let mut keep = self.timed.take().expect("a search with clocks");
        let out = self.successors_in(&mut keep, key, zone);
        self.timed = Some(keep);
        let mut out = out?;
        let mut keep = self.timed.take().expect("a search with clocks");
        let crossed = keep.at(model, key, &mut self.buf).and_then(|pieces| {
            timed::crossings(model, key, zone, &pieces, &mut self.lower, &mut self.upper)
        });
        self.timed = Some(keep);
        // The formula evaluated here already, when the node was entered.
        for (mark, z) in crossed.map_err(|e| Failed::Transition((Vec::new(), e)))? {
            self.stats.generated += 1;
            out.push((key.into(), z, vec![mark]));
        }
        Ok(out)
    }

    #[allow(clippy::type_complexity)]
    fn successors_in(
        &mut self,
        keep: &mut timed::Keep,
        key: &[i32],
        zone: &Dbm,
    ) -> Result<Vec<(Box<[i32]>, Dbm, Edges)>, Failed> {
        let model = self.model;
        self.transitions_watched(key)?;
        let all: Vec<Edges> = (0..self.buf.len())
            .map(|k| self.buf.get(k).to_vec())
            .collect();
        let mut out = Vec::new();
        let mut new_key = Vec::new();
        let mut entry = vec![Dbm::zero(model.dim)];
        for edges in all {
            self.poll_per_transition()?;
            let n = model
                .entry_successor(key, zone, &edges, &mut new_key, &mut entry)
                .map_err(|e| Failed::Transition((edges.clone(), e)))?;
            if n == 0 {
                continue;
            }
            let pieces = keep
                .at(model, &new_key, &mut self.buf)
                .map_err(|e| Failed::Target((edges.clone(), e)))?;
            for z in &entry[..n] {
                self.stats.generated += 1;
                let nodes = timed::enter(
                    model,
                    &new_key,
                    z,
                    &pieces,
                    &mut self.lower,
                    &mut self.upper,
                )
                .map_err(|e| Failed::Target((edges.clone(), e)))?;
                for node in nodes {
                    out.push((new_key.clone().into_boxed_slice(), node, edges.clone()));
                }
            }
        }
        Ok(out)
    }

    /// Node `node` (of discrete part `key`) turns black; the black nodes
    /// its zone includes leave the index, as everything they tell (no
    /// maximal run from their valuations) it tells too. This keeps the
    /// lists that [`Search::lookup`] scans short where zones grow.
    fn blacken(&mut self, node: u32, key: &[i32]) {
        self.nodes[node as usize].grey = None;
        let nodes = &self.nodes;
        let zone = &nodes[node as usize].zone;
        if let Some(ids) = self.index.get_mut(key) {
            ids.retain(|&o| {
                o == node
                    || nodes[o as usize].grey.is_some()
                    || !nodes[o as usize].zone.is_subset_of(zone)
            });
        }
    }

    /// A new grey node at this stack depth.
    fn add(&mut self, key: &[i32], zone: Dbm, depth: usize) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            zone,
            grey: Some(depth as u32),
        });
        self.index.entry(key.into()).or_default().push(id);
        id
    }

    /// A stored node equal to the zone (`Ok`), or whether a black node
    /// includes it (`Err(true)`: nothing to explore).
    fn lookup(&self, key: &[i32], zone: &Dbm) -> Result<u32, bool> {
        let Some(ids) = self.index.get(key) else {
            return Err(false);
        };
        for &id in ids {
            let n = &self.nodes[id as usize];
            if !zone.is_subset_of(&n.zone) {
                continue;
            }
            // Included in a black node: nothing to explore. (A grey node
            // that such a black node includes has no maximal run either, so
            // no cycle through it is missed.)
            if n.grey.is_none() {
                return Err(true);
            }
            if n.zone.is_subset_of(zone) {
                return Ok(id);
            }
        }
        Err(false)
    }

    /// A maximal run from (`key`, `zone`) along which `keep` holds in every
    /// state: its transitions and how it ends (a loop's index counts from
    /// this root). `prefix` leads from the initial state to the root (for
    /// the path of a model error).
    fn keeps(&mut self, key: &[i32], zone: Dbm, keep: &Formula, prefix: &[Edges]) -> Outcome {
        if self.non_zeno {
            return self.keeps_non_zeno(key, zone, keep, prefix);
        }
        self.depth_first(key, zone, keep, prefix, &mut Plain)
    }

    /// The depth-first walk of `keeps` through the `keep`-states from
    /// (`key`, `zone`), with `walk` deciding what a finished node and a
    /// successor equal to a known node mean.
    fn depth_first(
        &mut self,
        key: &[i32],
        zone: Dbm,
        keep: &Formula,
        prefix: &[Edges],
        walk: &mut impl Walk,
    ) -> Outcome {
        // A root of a search with clocks is a node inside the formula.
        let timed = self.timed.as_ref().is_some_and(|t| t.formula == *keep);
        if !timed {
            match goal::discrete(self.model, keep, key) {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(e) => return Err(Halt::Error(prefix.to_vec(), Vec::new(), e)),
            }
        }
        match self.lookup(key, &zone) {
            // Equal to a node: finished, since no search is under way.
            Ok(_) | Err(true) => return Ok(None),
            Err(false) => {}
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut next_key: Box<[i32]> = key.into();
        let mut next_zone = zone;
        let mut via: Edges = Vec::new();
        loop {
            // Enter (`next_key`, `next_zone`) by `via`.
            self.tick()?;
            let id = self.add(&next_key, next_zone.clone(), stack.len());
            let end = match timed {
                true => self.ends_here_timed(&next_key, &next_zone),
                false => Ok(self.ends_here(&next_key, &next_zone)),
            };
            let end = end.map_err(|e| error_here(prefix, &stack, &via, Vec::new(), e))?;
            if let Some(end) = end {
                let zones = self.zones_here(&stack, id);
                return Ok(Some((path_here(&stack, &via), zones, end)));
            }
            let succ = match timed {
                true => self.successors_timed(&next_key, &next_zone),
                false => self.successors(&next_key, &next_zone),
            };
            let mut succ = succ.map_err(|failed| match failed {
                Failed::Transition((edges, e)) => error_here(prefix, &stack, &via, edges, e),
                // The formula is undefined where the transition leads.
                Failed::Target((edges, e)) => {
                    let mut path = prefix.to_vec();
                    path.extend(path_here(&stack, &via));
                    path.push(edges);
                    Halt::Error(path, Vec::new(), e)
                }
                Failed::Stopped(limit) => Halt::Limit(limit),
            })?;
            // Before the successors are ordered, so that one equal to the
            // node itself closes a cycle.
            walk.entered(id, &next_key, &via);
            self.order_successors(&mut succ);
            stack.push(Frame {
                node: id,
                key: next_key.clone(),
                via: std::mem::take(&mut via),
                succ,
                next: 0,
            });
            // Find the next successor to enter, backtracking as needed.
            'advance: loop {
                let Some(top) = stack.last_mut() else {
                    return Ok(None);
                };
                if top.next == top.succ.len() {
                    let Some(done) = stack.pop() else { continue };
                    walk.finished(self, done.node, &done.key);
                    continue;
                }
                let (k2, z2, edges) = std::mem::replace(
                    &mut top.succ[top.next],
                    (Box::default(), Dbm::zero(1), Vec::new()),
                );
                top.next += 1;
                // The successors of a search with clocks are inside the
                // formula already.
                if !timed {
                    match goal::discrete(self.model, keep, &k2) {
                        Ok(true) => {}
                        Ok(false) => continue,
                        // Undefined at the successor: a model error there.
                        Err(e) => return Err(error_here(prefix, &stack, &edges, Vec::new(), e)),
                    }
                }
                match self.lookup(&k2, &z2) {
                    Ok(found) => {
                        if let Some(run) = walk.reached(self, &stack, found, edges) {
                            return Ok(Some(run));
                        }
                    }
                    Err(true) => {}
                    Err(false) => {
                        next_key = k2;
                        next_zone = z2;
                        via = edges;
                        break 'advance;
                    }
                }
            }
        }
    }
}
