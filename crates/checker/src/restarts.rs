//! Random depth-first search with restarts, the randomised reachability
//! of UPPAAL (Kiviriga, Larsen and Nyman, FMICS 2021): a depth-first
//! search that picks successors at random and, after a budget of explored
//! states without a verdict, starts again from the initial state with
//! another seed and an empty passed list. The budgets follow the Luby
//! sequence (1, 1, 2, 1, 1, 2, 4, …) times [`UNIT`], so memory stays small
//! while no single unlucky dive holds the search, and the budgets grow
//! without bound: a run that exhausts its budget's worth of the graph has
//! explored all of it (with the full passed list of that run), so its
//! verdict is exact either way.

use super::config::Config;
use super::{CheckResult, HeuristicKind, Limit, Options, SearchOrder, Stats, Task, Verdict};

/// Explored states of a restart at Luby value 1.
pub(crate) const UNIT: u64 = 1_000;

/// Decides the `task`'s reachability check by random depth-first restarts
/// (seeds `options.seed`, `options.seed + 1`, …). `options.max_states`
/// bounds the explored states of all restarts together. The figures are
/// summed over the restarts (stored and bytes per state: the last one's).
pub(crate) fn run(task: Task, progress: &mut dyn FnMut(&Stats)) -> CheckResult {
    let mut total = Stats::default();
    for round in 0u64.. {
        let left = task
            .options
            .max_states
            .map(|m| m.saturating_sub(total.explored));
        let budget = UNIT.saturating_mul(luby(round + 1));
        let limit = left.map_or(budget, |l| l.min(budget));
        if limit == 0 {
            return unknown(Limit::States, total);
        }
        let options = Options {
            config: Config::plain(SearchOrder::RandomDfs, HeuristicKind::Zero),
            seed: task.options.seed.wrapping_add(round),
            max_states: Some(limit),
            threads: 1,
            breadth_first_after: None,
            take_turns: false,
            ..task.options.clone()
        };
        let mut result = super::reach_until(
            Task {
                options: &options,
                ..task
            },
            progress,
        );
        add(&mut total, &result.stats);
        if result.verdict == Verdict::Unknown(Limit::States) && left.is_none_or(|l| l > limit) {
            continue;
        }
        result.stats = total;
        return result;
    }
    unreachable!("the rounds are unbounded")
}

/// The Luby sequence (1-based): 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …
pub(crate) fn luby(i: u64) -> u64 {
    // The smallest k with 2^k - 1 >= i.
    let mut k = 1u32;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if (1u64 << k) - 1 == i {
        1u64 << (k - 1)
    } else {
        luby(i - ((1u64 << (k - 1)) - 1))
    }
}

fn add(total: &mut Stats, run: &Stats) {
    total.explored += run.explored;
    total.generated += run.generated;
    total.stored = run.stored;
    total.elapsed += run.elapsed;
    total.peak_memory = total.peak_memory.max(run.peak_memory);
    total.bytes_per_state = run.bytes_per_state;
    total.pruned += run.pruned;
    total.trace_limit = run.trace_limit;
    total.threads = 1;
}

fn unknown(limit: Limit, stats: Stats) -> CheckResult {
    CheckResult {
        verdict: Verdict::Unknown(limit),
        stats,
        trace: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Cancel, Limit, Options, Stop, Task, Verdict};

    fn restarts(text: &str, max_states: Option<u64>) -> super::CheckResult {
        let net = zeno_semantics::analyze(text).network.expect("lowers");
        let cancel = Cancel::new();
        let stop = Stop::new(&cancel, None);
        let options = Options {
            max_states,
            ..Options::default()
        };
        let task = Task {
            net: &net,
            check: net.check_at(0).unwrap(),
            options: &options,
            stop: &stop,
        };
        super::run(task, &mut |_| {})
    }

    /// A chain of 5,000 states: the restarts' budgets (1,000, 1,000, 2,000,
    /// …) end in Luby order, each run from the initial state again, until
    /// one (8,000) covers the chain, which proves the property.
    #[test]
    fn restarts_grow_until_one_covers_the_graph() {
        let chain = chain(5000);
        let r = restarts(&chain, None);
        assert_eq!(r.verdict, Verdict::Holds);
        // Fourteen restarts of 1+1+2+1+1+2+4+1+1+2+1+1+2+4 thousand, then
        // the whole chain.
        assert_eq!(r.stats.explored, 24_000 + 5_000);
        // The caller's limit counts all restarts together.
        let r = restarts(&chain, Some(2_500));
        assert_eq!(r.verdict, Verdict::Unknown(Limit::States));
        assert_eq!(r.stats.explored, 2_500);
    }

    /// A chain of `n` locations, one step per time unit, whose clock never
    /// passes 1 (the model of `zeno bench`'s chain family, which lives above
    /// the checker): `A[]` holds and every search explores all `n` states.
    fn chain(n: usize) -> String {
        let locations: String = (0..n)
            .map(|l| {
                let init = if l == 0 { "init " } else { "" };
                format!("    {init}location l{l} invariant x <= 1;\n")
            })
            .collect();
        let edges: String = (1..n)
            .map(|l| format!("    l{} -> l{l} when x == 1 do x = 0;\n", l - 1))
            .collect();
        let last = n - 1;
        format!(
            "template Chain() {{\n    clock x;\n{locations}{edges}}}\n\nsystem Chain;\n\n\
             check never_late: A[] !(Chain.l{last} && Chain.x > 1);\n"
        )
    }

    #[test]
    fn the_luby_sequence() {
        let first: Vec<u64> = (1..=15).map(super::luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
