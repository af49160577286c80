//! Reachability on the local-time zone graph (`--reduce por`): Govind,
//! Herbreteau, Srivathsan, Walukiewicz, *Revisiting local time semantics
//! for networks of timed automata* (CONCUR 2019), as TChecker's
//! `tck-reach -a concur19` runs it.
//!
//! **The graph.** Every process has its own reference clock and lets time
//! pass on its own (`refdbm.rs`); a transition synchronises the reference
//! clocks of the processes it involves, and nothing else (`graph.rs`).
//! Two transitions of different processes that share no reference clock,
//! clock or variable then commute *exactly*: either order gives the same
//! zone, so the interleavings that blow up the ordinary zone graph of
//! independent processes collapse into one state (parallel-b with 6
//! processes: 729 states against 75,973).
//!
//! **Soundness.** (1) Every run of the network is a run of the local-time
//! semantics in which all reference clocks stay equal; conversely, a
//! local-time run whose last valuation is synchronised (all reference
//! clocks equal) can be reordered, by the times at which the moves fire,
//! into a run of the network reaching the same discrete state and clock
//! values (Bengtsson, Jonsson, Lilius, Yi, CONCUR 1998; CONCUR 2019,
//! Theorem 1). This needs every clock and every variable a process writes
//! to be that process's alone, and that whatever is decided at a
//! transition's moment be synchronised: the processes that may receive a
//! broadcast and the participants of a synchronisation vector are
//! synchronised with the sender (`support.rs` refuses the rest). So a goal
//! is reachable iff some reachable local zone of a goal location has a
//! synchronised valuation satisfying the goal's clock constraints
//! (`LocalGraph::is_goal`). Urgent and committed locations stop their
//! process's local time only, and committed ones restrict the transitions
//! as usual: a run of the network is already sorted by time, and it is a
//! path of the local-time graph with every restriction met. (2) The local zone graph is infinite; the
//! search keeps it finite with sync-aLU subsumption (`refdbm::sync_alu_le`,
//! with the location-dependent LU bounds of the ordinary search, the goal's
//! constants included), a simulation on the synchronised valuations
//! reachable by local delays, of finite index (CONCUR 2019, Theorems 3
//! and 4): dropping a subsumed state loses no reachable goal, and the
//! search ends. Goals are tested on every successor before subsumption.
//! (3) A goal found is never reported on the symbolic path alone: the path
//! is turned into an ordinary timed run (`trace.rs`) and replayed exactly;
//! if that fails the verdict is `unknown`.
//!
//! **Partial-order reduction** (`por.rs`, `Options::partial_order`): a
//! state may be expanded by the time-free local moves of one invisible
//! process only, with a static cycle proviso; the module comment there
//! argues why no goal is lost, in every search order.
//!
//! **What is not covered** is refused with the reason (`support.rs`), and
//! the caller searches the ordinary zone graph with the reason in the
//! result: liveness and value queries, stopwatches, diagonal constraints,
//! `deadlock`, priorities, urgent channels, clock
//! guards on broadcast receivers, clocks or written variables shared
//! between processes, enhancements and safe abstraction; a run-time error
//! of the model met by the search (the ordinary search reports it with its
//! trace).

mod graph;
mod por;
mod refdbm;
mod search;
mod support;
mod trace;

use crate::goal::Goal;
use crate::heuristics;
use crate::semantics::Model;
use crate::{CheckResult, Enhance, HeuristicKind, Limit, SearchOrder, Stats, Task, Verdict};
use zeno_ir::CheckKind;

use graph::LocalGraph;
use search::Found;
use support::Layout;

/// What the local-time search made of a check.
pub(crate) enum Outcome {
    /// A verdict (or `unknown` with its limit; `Stats::reduce_note` says
    /// why when the reason is the construction's).
    Decided(Box<CheckResult>),
    /// The construction does not decide this check exactly: the reason,
    /// for the ordinary search to carry in its result.
    NotApplied(String),
}

/// Decides the task's reachability check on the local-time zone graph.
pub(crate) fn run(task: Task, progress: &mut dyn FnMut(&Stats)) -> Outcome {
    let chk = task.net.check(task.check);
    if chk.kind.is_liveness() {
        return Outcome::NotApplied(
            "liveness checks are not supported by the local-time graph".into(),
        );
    }
    if matches!(chk.kind, CheckKind::Bound(_)) {
        return Outcome::NotApplied(
            "value queries are not supported by the local-time graph".into(),
        );
    }
    if task.options.config.safe_abstraction || task.options.config.enhance != Enhance::None {
        return Outcome::NotApplied(
            "enhancements and safe abstraction are not combined with the local-time graph".into(),
        );
    }
    // Declared before the graph, which the search borrows with it.
    let mut heuristic: Option<Box<dyn heuristics::Heuristic>> = None;
    let goal = Goal::new(chk.kind.goal());
    let model = Model::new(task.net, &goal.formula);
    let mut stats = Stats {
        threads: 1,
        ..Stats::default()
    };
    if model.beyond_zones().is_some() {
        return Outcome::Decided(Box::new(unknown(Limit::ClockRange, stats)));
    }
    let layout = match Layout::new(task.net, &model, &goal.formula) {
        Ok(layout) => layout,
        Err(reason) => return Outcome::NotApplied(reason),
    };
    let Some(lu) = model.alu_bounds().cloned() else {
        return Outcome::NotApplied("no LU bounds for this network".into());
    };
    let mut graph = LocalGraph::new(&model, layout, lu);
    let guided = matches!(
        task.options.config.search,
        SearchOrder::Greedy | SearchOrder::AStar
    );
    if guided && task.options.config.heuristic != HeuristicKind::Zero {
        let built = heuristics::build_until(
            task.options.config.heuristic,
            task.net,
            &goal.formula,
            &heuristics::EdgeSet::none(task.net),
            &task.options.pdb,
            &|| task.stop.requested(),
        );
        let Some(h) = built else {
            return Outcome::Decided(Box::new(unknown(
                task.stop.reason().unwrap_or(Limit::Cancelled),
                stats,
            )));
        };
        if h.zone_aware() {
            // Its estimates read ordinary zones, which this graph does not have.
            return Outcome::NotApplied(
                "zone-aware heuristics (pattern databases with clocks) are not combined with the \
                 local-time graph"
                    .into(),
            );
        }
        heuristic = Some(h);
    }
    let (found_verdict, none_verdict) = Verdict::of_reachability(&chk.kind);
    let h: Option<&mut dyn heuristics::Heuristic> = match heuristic.as_mut() {
        Some(h) => Some(h.as_mut()),
        None => None,
    };
    let ample = task
        .options
        .partial_order
        .then(|| por::Ample::new(&graph, &goal.formula));
    if task.options.threads > 1 {
        // Said in the output rather than ignored in silence.
        stats.reduce_note = Some(format!(
            "the local-time search is sequential: 1 thread, not {}",
            task.options.threads
        ));
    }
    let found = search::run(task, &mut graph, &goal, ample, h, &mut stats, progress);
    Outcome::Decided(Box::new(match found {
        Found::Exhausted => CheckResult {
            verdict: none_verdict,
            stats,
            trace: None,
        },
        Found::Stopped(limit) => unknown(limit, stats),
        Found::ModelError(e) => {
            return Outcome::NotApplied(format!(
                "the local-time search met a run-time error of the model ({e}), which the \
                 ordinary search reports with its trace"
            ));
        }
        Found::Goal(path) => match trace::concrete(&graph, &goal, &path, task.stop) {
            Ok(trace) => CheckResult {
                verdict: found_verdict,
                stats,
                trace: Some(trace),
            },
            Err(reason) => {
                stats.reduce_note = Some(format!("no verdict: {reason}"));
                let limit = task.stop.reason().unwrap_or(Limit::Unconfirmed);
                unknown(limit, stats)
            }
        },
    }))
}

fn unknown(limit: Limit, stats: Stats) -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(limit),
        stats,
        trace: None,
    }
}
