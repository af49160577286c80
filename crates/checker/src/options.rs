//! The vocabulary of a check's request: the search order, the heuristic,
//! the options of a run and the flag that cancels it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::PdbOptions;
use super::config::Config;

/// Order in which the frontier is explored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchOrder {
    /// Breadth-first: shortest traces.
    Bfs,
    /// Depth-first.
    Dfs,
    /// Depth-first with successors shuffled by a seeded generator (reproducible).
    RandomDfs,
    /// Greedy best-first on h.
    Greedy,
    /// A* on g + h.
    AStar,
}

/// Distance heuristic guiding `Greedy` and `AStar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// The constant 0 (blind search).
    Zero,
    /// dL: graph distance to the goal locations, the largest of the processes'.
    DL,
    /// dU: graph distance to the goal locations, summed over the processes.
    DU,
    /// hL: the monotonicity abstraction's layer count.
    HL,
    /// hU: the length of a plan in the monotonicity abstraction.
    HU,
    /// The causal graph heuristic (thesis chapter 5); neither admissible nor
    /// complete.
    HCG,
    /// A pattern database (Wehrle and Kupferschmid 2016): consistent, and
    /// prunes states that provably reach neither the goal nor a model error.
    Pdb,
}

/// Which stored zone subsumes a new zone of the same discrete state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Subsume {
    /// The new zone is included in the stored one.
    #[default]
    Inclusion,
    /// The new zone is included in the stored one's aLU abstraction
    /// (`alu.rs`): more subsumed, never fewer; plain inclusion where the
    /// network has diagonal constraints.
    Alu,
}

impl Subsume {
    /// Every value, in the order the CLI and the editors list them.
    pub const ALL: [Subsume; 2] = [Subsume::Inclusion, Subsume::Alu];

    /// The spelling of the CLI and the settings.
    pub fn name(self) -> &'static str {
        match self {
            Subsume::Inclusion => "inclusion",
            Subsume::Alu => "alu",
        }
    }
}

impl std::fmt::Display for Subsume {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Subsume {
    type Err = String;
    fn from_str(s: &str) -> Result<Subsume, String> {
        Subsume::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| format!("unknown subsumption `{s}` (expected inclusion or alu)"))
    }
}

/// A state-space reduction of reachability searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Reduce {
    /// The ordinary zone graph.
    #[default]
    None,
    /// The local-time zone graph with sync subsumption (`local_time/`,
    /// CONCUR 2019): interleavings of independent moves collapse. Checks
    /// and networks it does not cover are searched on the ordinary zone
    /// graph, with the reason in `Stats::reduce_note`.
    Por,
}

impl Reduce {
    /// Every value, in the order the CLI and the editors list them.
    pub const ALL: [Reduce; 2] = [Reduce::None, Reduce::Por];

    /// The spelling of the CLI and the settings.
    pub fn name(self) -> &'static str {
        match self {
            Reduce::None => "none",
            Reduce::Por => "por",
        }
    }
}

impl std::fmt::Display for Reduce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Reduce {
    type Err = String;
    fn from_str(s: &str) -> Result<Reduce, String> {
        Reduce::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| format!("unknown reduction `{s}` (expected none or por)"))
    }
}

/// How to decide a check: the search configuration (order, heuristic,
/// enhancement, safe abstraction, ties: the part a user names, see
/// [`Config`]), the limits, and the tuning that no configuration spells.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// What to search with: order, heuristic, enhancement, safe abstraction
    /// and how best-first orders break ties.
    pub config: Config,
    /// Stop with `Verdict::Unknown(Limit::States)` after exploring this many states.
    pub max_states: Option<u64>,
    /// Stop with `Verdict::Unknown(Limit::Time)` after this long (the whole
    /// check: heuristic, search and trace).
    pub timeout: Option<Duration>,
    /// Seed for `RandomDfs`.
    pub seed: u64,
    /// Cache heuristic values per discrete state.
    pub cache_heuristic: bool,
    /// Budgets of the pattern database (`HeuristicKind::Pdb`).
    pub pdb: PdbOptions,
    /// Liveness checks count only non-Zeno infinite runs (those whose time
    /// diverges); reachability checks ignore it.
    pub non_zeno: bool,
    /// Active-clock reduction (`active.rs`) in reachability searches: free
    /// the clocks every future resets before reading, and store only the
    /// active clocks' entries of a zone. Off only to compare.
    pub active_clocks: bool,
    /// Threads of breadth-first search, and of greedy and A* search with a
    /// heuristic threads can share (see [`runs_parallel`]); 1 runs the
    /// sequential search. The library's default is 1; the CLI's is the
    /// available cores (one for greedy and A*).
    pub threads: usize,
    /// A greedy or A* reachability search without an enhancement that has
    /// explored this many states without a verdict starts again
    /// breadth-first, on [`Options::fallback_threads`], for what is left of
    /// the limits. Best-first search finds a reachable goal after few states
    /// when its heuristic leads there; a property that holds needs the whole
    /// zone graph, which breadth-first search covers with far fewer states
    /// (its larger zones come first). `None` (the library's default): no
    /// fallback; `zeno check` sets it for its default configuration.
    pub breadth_first_after: Option<u64>,
    /// Threads of a breadth-first search that stands in for a best-first
    /// one: after `breadth_first_after`, and for a goal that mentions
    /// `deadlock` ([`Options::for_goal`]).
    pub fallback_threads: usize,
    /// Extrapolation of zones in the sequential reachability search
    /// (`semantics::Model::extrapolate`, and the split along diagonal
    /// constraints that goes with it). Off only to compare: the search is
    /// then exact but need not end.
    pub extrapolate: bool,
    /// How stored zones subsume new ones in reachability searches
    /// (sequential and parallel); liveness checks use inclusion. The
    /// library's default is inclusion (TChecker `covreach`'s stored
    /// states); `zeno check` and the language server use aLU.
    pub subsume: Subsume,
    /// A greedy or A* reachability search without an enhancement takes
    /// turns on one core with breadth-first search (on
    /// [`Options::threads`]) and random depth-first restarts; the
    /// first verdict decides (see `alongside.rs`). `zeno check` sets it for
    /// its default configuration; `false` in the library.
    pub take_turns: bool,
    /// Symmetry reduction over the network's `scalar` sets in the
    /// sequential reachability search (`symmetry.rs`), where the semantics
    /// layer found the model and the check symmetric. On by default (as in
    /// UPPAAL); off only to compare.
    pub symmetry: bool,
    /// A state-space reduction of reachability searches (`none` by
    /// default; see [`Reduce`]).
    pub reduce: Reduce,
    /// Partial-order reduction on the local-time graph of `--reduce por`
    /// (`local_time/por.rs`). On by default; off only to compare.
    pub partial_order: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            config: Config::default(),
            max_states: None,
            timeout: None,
            seed: 0,
            cache_heuristic: true,
            pdb: PdbOptions::default(),
            non_zeno: false,
            active_clocks: true,
            threads: 1,
            breadth_first_after: None,
            fallback_threads: 1,
            extrapolate: true,
            subsume: Subsume::default(),
            take_turns: false,
            symmetry: true,
            reduce: Reduce::None,
            partial_order: true,
        }
    }
}

/// The progress callback of a check nobody watches: pass `&mut no_progress`
/// where [`check`](crate::check) asks for one.
pub fn no_progress(_: &super::Stats) {}

/// A flag the search polls; set it from another thread (Ctrl-C, a newer edit
/// in the editor) to stop the search promptly.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }
    /// Sets the flag: every search polling it stops.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
