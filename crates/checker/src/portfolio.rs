//! Racing several search configurations on one check: each runs on its own
//! thread, the first to reach a verdict wins and the others are cancelled.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use zeno_ir as ir;

use super::config;
use super::{Cancel, CheckResult, Enhance, HeuristicKind, Limit, Options, SearchOrder, Verdict};

/// One entry of a portfolio: a name for reports and its options.
#[derive(Debug, Clone)]
pub struct Config {
    /// The name reports give it (the configuration spelling).
    pub name: String,
    /// The options it runs with.
    pub options: Options,
}

/// The default portfolio: greedy hU, greedy hL + UT, BFS + CE, greedy hCG
/// with safe abstraction, random DFS — strong on different kinds of models
/// (see docs/checker.md).
pub const DEFAULT: [config::Config; 5] = [
    config::Config::plain(SearchOrder::Greedy, HeuristicKind::HU),
    config::Config {
        enhance: Enhance::UselessTransitions,
        ..config::Config::plain(SearchOrder::Greedy, HeuristicKind::HL)
    },
    config::Config {
        enhance: Enhance::InterferenceContexts,
        ..config::Config::plain(SearchOrder::Bfs, HeuristicKind::Zero)
    },
    config::Config {
        safe_abstraction: true,
        ..config::Config::plain(SearchOrder::Greedy, HeuristicKind::HCG)
    },
    config::Config::plain(SearchOrder::RandomDfs, HeuristicKind::Zero),
];

/// Portfolio entries for `configs`, named by their canonical spelling, with
/// the limits (`max_states`, `timeout`) and seed of `base`, which apply to
/// each configuration.
///
/// The configurations share `base.threads`: a configuration that runs on
/// one thread whatever it is given (`super::runs_parallel`: depth-first
/// orders, hL, hU, hcg, the enhancements) gets one, and the ones that can
/// use more (breadth-first search; greedy and A* with dL, dU or the pattern
/// database) an equal share of the rest, at least one. So a race never runs
/// more searches at once than the cores it was given allow, unless it has
/// more configurations than cores (then each runs on one thread and they
/// share the cores as the system decides).
pub fn entries(configs: &[config::Config], base: &Options) -> Vec<Config> {
    let options: Vec<Options> = configs
        .iter()
        .map(|c| Options {
            config: *c,
            ..base.clone()
        })
        .collect();
    let parallel: Vec<bool> = options
        .iter()
        .map(|o| {
            super::runs_parallel(&Options {
                threads: 2,
                ..o.clone()
            })
        })
        .collect();
    let sequential = parallel.iter().filter(|&&p| !p).count();
    let share = match parallel.len() - sequential {
        0 => 1,
        n => (base.threads.saturating_sub(sequential) / n).max(1),
    };
    configs
        .iter()
        .zip(options)
        .zip(parallel)
        .map(|((c, o), parallel)| Config {
            name: c.to_string(),
            options: Options {
                threads: if parallel { share } else { 1 },
                ..o
            },
        })
        .collect()
}

/// The [`DEFAULT`] portfolio with the limits and seed of `base`.
pub fn default_configs(base: &Options) -> Vec<Config> {
    entries(&DEFAULT, base)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_portfolio_is_spelled_as_documented() {
        let configs = super::default_configs(&Default::default());
        let names: Vec<&str> = configs.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "greedy:hu",
                "greedy:hl+ut",
                "bfs+ce",
                "greedy:hcg+safe",
                "rdfs"
            ]
        );
    }

    /// The configurations that run on one thread get one; the others an
    /// equal share of the rest, at least one.
    #[test]
    fn the_configurations_share_the_threads() {
        use super::config::Config;
        use super::{Enhance, HeuristicKind, SearchOrder};
        let shares = |configs: &[Config], threads| {
            let base = super::Options {
                threads,
                ..Default::default()
            };
            super::entries(configs, &base)
                .iter()
                .map(|c| c.options.threads)
                .collect::<Vec<_>>()
        };
        // The default five all run on one thread (hU, hL + UT, BFS + CE,
        // hcg + safe, random DFS).
        for threads in [1, 2, 16] {
            assert_eq!(shares(&super::DEFAULT, threads), [1; 5]);
        }
        let mixed = [
            Config::plain(SearchOrder::Greedy, HeuristicKind::DL),
            Config::plain(SearchOrder::Bfs, HeuristicKind::Zero),
            Config::plain(SearchOrder::Greedy, HeuristicKind::HU),
            Config {
                enhance: Enhance::InterferenceContexts,
                ..Config::plain(SearchOrder::AStar, HeuristicKind::Pdb)
            },
        ];
        assert_eq!(shares(&mixed, 1), [1, 1, 1, 1]);
        assert_eq!(shares(&mixed, 2), [1, 1, 1, 1]);
        assert_eq!(shares(&mixed, 4), [1, 1, 1, 1]);
        // 16 - 2 sequential = 14 for the two parallel ones.
        assert_eq!(shares(&mixed, 16), [7, 7, 1, 1]);
    }
}

/// The winner of a portfolio run: its index in the configurations and its result.
#[derive(Debug, Clone)]
pub struct PortfolioResult {
    /// `None` when every configuration stopped without a verdict (then
    /// `result` is the first configuration's).
    pub winner: Option<usize>,
    /// The winner's result.
    pub result: CheckResult,
}

/// Runs every configuration of `configs` on its own thread; the first verdict
/// other than `Unknown` wins and cancels the rest. `Unknown` only when all of
/// them stop without one. `cancel` stops the whole race.
pub fn race(
    network: &ir::Network,
    check: ir::CheckId,
    configs: &[Config],
    cancel: &Cancel,
) -> PortfolioResult {
    let stop = Cancel::new();
    let (tx, rx) = mpsc::channel::<(usize, CheckResult)>();
    thread::scope(|scope| {
        for (i, config) in configs.iter().enumerate() {
            let tx = tx.clone();
            let stop = stop.clone();
            scope.spawn(move || {
                let result = super::check(network, check, &config.options, &stop, &mut |_| {});
                let _ = tx.send((i, result));
            });
        }
        drop(tx);
        let mut first: Option<(usize, CheckResult)> = None;
        let mut winner: Option<(usize, CheckResult)> = None;
        let mut finished = 0;
        while finished < configs.len() {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok((i, result)) => {
                    finished += 1;
                    if winner.is_none() && !matches!(result.verdict, Verdict::Unknown(_)) {
                        stop.cancel();
                        winner = Some((i, result));
                    } else if first.as_ref().is_none_or(|(j, _)| i < *j) {
                        first = Some((i, result));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if cancel.is_cancelled() {
                        stop.cancel();
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        match (winner, first) {
            (Some((i, result)), _) => PortfolioResult {
                winner: Some(i),
                result,
            },
            (None, Some((_, mut result))) => {
                if cancel.is_cancelled() {
                    result.verdict = Verdict::Unknown(Limit::Cancelled);
                }
                PortfolioResult {
                    winner: None,
                    result,
                }
            }
            (None, None) => PortfolioResult {
                winner: None,
                result: CheckResult {
                    verdict: Verdict::Unknown(Limit::Cancelled),
                    stats: Default::default(),
                    trace: None,
                },
            },
        }
    })
}
