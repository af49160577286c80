//! The benchmark harness behind `zeno bench`: a table of models × search
//! configurations, each run with its own state and time limit, reporting
//! the columns of the papers' tables (explored states, time, trace length,
//! #d, queue accesses), and their summary per base search (`summary`).
#![warn(missing_docs)]

pub mod families;
pub mod summary;
pub mod table;

use std::time::Duration;

pub use table::Row;
pub use zeno_checker::config::Config;
use zeno_checker::{self as checker, Cancel};
use zeno_ir::{CheckId, Network};

/// Per-run limits: a run that reaches one stops with an `unknown` verdict.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Stop a run after exploring this many states.
    pub max_states: Option<u64>,
    /// Stop a run after this long.
    pub timeout: Option<Duration>,
    /// Threads of a breadth-first, greedy or A* search (see
    /// [`checker::runs_parallel`]);
    /// 0 and 1 both run the sequential search.
    pub threads: usize,
}

/// Runs check `check` of `network` under `config` and returns its row.
pub fn run(
    model: &str,
    network: &Network,
    check: CheckId,
    config: &Config,
    limits: &Limits,
    cancel: &Cancel,
) -> Row {
    let options = checker::Options {
        max_states: limits.max_states,
        timeout: limits.timeout,
        threads: limits.threads.max(1),
        ..config.options()
    }
    .for_check(network, check);
    let result = checker::check(network, check, &options, cancel, &mut checker::no_progress);
    let name = network.check(check).name.as_str();
    Row::new(model, name, &config.to_string(), &result)
}
