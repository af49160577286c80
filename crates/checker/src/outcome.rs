//! The vocabulary of a check's answer: its verdict, why a run stopped
//! early, the figures every run reports, and the result that carries them
//! with the trace.

use std::time::Duration;

use super::Trace;
use zeno_ir::{CheckKind, EvalError};

/// Why a search stopped before a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// `Options::max_states` states explored.
    States,
    /// `Options::timeout` passed.
    Time,
    /// The `Cancel` flag was set.
    Cancelled,
    /// The heap reached the memory budget (`zeno_base::memory`).
    Memory,
    /// A clock is compared with, or reset to, a constant beyond
    /// `dbm::bound::MAX_CONST` (over the variables' declared ranges), which
    /// a zone cannot hold: nothing is searched rather than a wrong bound
    /// used.
    ClockRange,
    /// A stopwatch model's search met a goal along a path whose exact
    /// delays do not confirm it (the zone graph over-approximates; a
    /// liveness search's cycle is never confirmed), or the
    /// local-time search's path (`--reduce por`) did not replay as an
    /// ordinary run (`Stats::reduce_note` says why): no verdict is drawn
    /// from it.
    Unconfirmed,
    /// A check of a stopwatch model that is not decided: liveness with
    /// clock constraints or `deadlock` in its formula (or beside diagonal
    /// constraints), value queries (`sup`/`inf`: the zones over-approximate, so their bounds
    /// could be too wide), and `deadlock` beside diagonal clock constraints.
    Stopwatches,
    /// A distributed search lost a peer: a process ended or its connection
    /// failed, or it never connected in time (the front end says which).
    Peer,
}

/// The answer to a check, in the checker's terms (`report::Outcome` words it
/// for the check's kind).
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// `A[] phi` holds, or `E<> phi` has a witness (the trace).
    Holds,
    /// `A[] phi` is violated (the trace is the counterexample), or `E<> phi` has no witness.
    Fails,
    /// A run-time error of the model is reachable (the trace leads to it).
    ModelError(EvalError),
    /// Stopped before a verdict.
    Unknown(Limit),
}

/// The figures every run reports (the columns of the papers' tables).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// States taken from the frontier and expanded.
    pub explored: u64,
    /// Successors computed (before inclusion checks).
    pub generated: u64,
    /// States in the store at the end.
    pub stored: u64,
    /// Wall-clock time of the whole check.
    pub elapsed: Duration,
    /// Peak bytes used by the state store and frontier.
    pub peak_memory: u64,
    /// Bytes per stored state (discrete part + zone + bookkeeping).
    pub bytes_per_state: u64,
    /// Explored states taken from a queue other than the first (with useless
    /// transitions: the deferred states, the thesis' #d numerator).
    pub deferred_explored: u64,
    /// Generated states dropped because the heuristic proved that they reach
    /// neither the goal nor a model error (pattern databases only).
    pub pruned: u64,
    /// Pushes and pops per frontier queue (one queue without an enhancement;
    /// with interference contexts, queue `n` holds level-`n` successors).
    pub queue_pushes: Vec<u64>,
    /// See `queue_pushes`.
    pub queue_pops: Vec<u64>,
    /// With safe abstraction: what was removed and how the trace was built.
    pub safe: Option<SafeStats>,
    /// For a network with scalar sets (and the reduction asked for):
    /// whether the search stored orbit representatives, and why not.
    pub symmetry: Option<SymmetryUse>,
    /// The limit that stopped building the concrete trace of a verdict
    /// that has one (a violation, a witness, a model error): the verdict
    /// stands, the trace is missing.
    pub trace_limit: Option<Limit>,
    /// Threads the search ran on (1 for every sequential search).
    pub threads: u32,
    /// With [`Options::breadth_first_after`](super::Options): the states the
    /// best-first search explored before it gave way to breadth-first
    /// search, whose figures the others are.
    pub breadth_first_after: Option<u64>,
    /// With [`Options::take_turns`](super::Options): which of the searches
    /// taking turns decided (these are its figures) and the states the
    /// others explored meanwhile.
    pub alongside: Option<Alongside>,
    /// With `--reduce por` (`Options::reduce`): why the reduction was not
    /// applied (the ordinary zone graph was searched), or why its search
    /// gave no verdict.
    pub reduce_note: Option<String>,
    /// The parallel breadth-first search's rounds and where its time went
    /// (`parallel/bfs.rs`; `None` for every other search).
    pub parallel: Option<ParallelStats>,
}

/// What the parallel breadth-first search did, per level and per phase:
/// the counts a scaling model reads (docs/checker.md, "Parallel
/// breadth-first search"). Each slab of a level is expanded by the workers
/// and then inserted shard by shard; each of the two phases ends when its
/// slowest worker does, so a worker's *wait* is the phase's wall time less
/// its own busy time. Busy time is the workers' thread CPU time, so on a
/// loaded machine the time a worker was not run counts as waiting.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ParallelStats {
    /// States expanded per level, in order.
    pub level_states: Vec<u64>,
    /// Slabs (each one expansion and one insertion phase).
    pub slabs: u64,
    /// Successors handed to the shards (every generated state but the
    /// initial one).
    pub batched: u64,
    /// Of those, the ones whose shard is not their parent's: the messages
    /// between machines were the shards on different machines.
    pub cross_shard: u64,
    /// Wall time of the expansion phases.
    pub expand_seconds: f64,
    /// The workers' busy (CPU) time in them, summed over workers.
    pub expand_busy_seconds: f64,
    /// Wall time of the insertion phases.
    pub insert_seconds: f64,
    /// The workers' busy (CPU) time in them, summed over workers.
    pub insert_busy_seconds: f64,
    /// Wall time outside both phases, on the calling thread alone: ordering
    /// the next level, settling a slab, reporting progress.
    pub serial_seconds: f64,
    /// The workers' wait at the phases' ends: threads × phase wall time
    /// less busy time, both phases.
    pub wait_seconds: f64,
}

/// What the searches taking turns in the default search did besides the
/// one whose figures are reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alongside {
    /// `best-first search`, `random restarts` or `breadth-first search`.
    pub decided_by: &'static str,
    /// States the other two explored.
    pub others_explored: u64,
}

/// The figures of safe abstraction (thesis Table 5.3: #s and `x + y`),
/// serialised as they are in the CLI's JSON report.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SafeStats {
    /// Components (slots and processes) removed: the thesis' #s.
    pub removed: u64,
    /// Steps of the reduced network's trace (`x`), when there is a trace.
    pub abstract_steps: Option<u64>,
    /// Moves of removed components inserted into it (`y`).
    pub inserted_steps: Option<u64>,
    /// The reduced network's trace could not be completed and the original
    /// network was searched instead (the figures add up both searches).
    pub fell_back: bool,
}

/// Whether a search of a network with scalar sets reduced by symmetry
/// (`symmetry.rs`), serialised as the CLI's JSON report shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SymmetryUse {
    /// States were stored as representatives over these sets.
    Reduced(Vec<String>),
    /// Not reduced, and why.
    Off(String),
}

impl Stats {
    /// The thesis' #d: deferred states explored over states explored.
    pub fn deferred_ratio(&self) -> f64 {
        if self.explored == 0 {
            0.0
        } else {
            self.deferred_explored as f64 / self.explored as f64
        }
    }
}

/// What a check gives: its verdict, figures and trace.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// The verdict.
    pub verdict: Verdict,
    /// The figures of the run.
    pub stats: Stats,
    /// The counterexample or witness, when there is one.
    pub trace: Option<Trace>,
}

impl Verdict {
    /// The verdicts of a reachability check: when the search meets a goal
    /// state, and when it meets none. `A[]` searches for a violation, so
    /// meeting one fails it; `E<>` searches for a witness.
    pub(crate) fn of_reachability(kind: &CheckKind) -> (Verdict, Verdict) {
        if matches!(kind, CheckKind::Invariant(_)) {
            (Verdict::Fails, Verdict::Holds)
        } else {
            (Verdict::Holds, Verdict::Fails)
        }
    }
}
