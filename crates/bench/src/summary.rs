//! The summary of a benchmark table, as the thesis' Table 4.4 gives it.
//!
//! Configurations are grouped by their base search: the order, heuristic
//! and modifiers (`+safe`, `+lifo`) with the frontier enhancement dropped,
//! so group `greedy:hl` holds `greedy:hl`, `greedy:hl+ce`, `greedy:hl+ibp`,
//! `greedy:hl+ibi` and `greedy:hl+ut`. An instance is one model × check.
//! For each group the *common* instances are those every configuration of
//! the group solved (a verdict within the limits); each configuration's
//! average and median of explored states, time and trace length are taken
//! over that common set only, so that the configurations of a group are
//! compared on the same instances. `solved` counts the instances a
//! configuration solved out of every instance in the table.
//!
//! Pure functions of the rows: no checker runs here.

use serde::Serialize;

use super::table::Row;
use zeno_checker::Enhance;
use zeno_checker::config;

/// Average (arithmetic mean) and median of a list of numbers. The median
/// of an even count is the mean of the two middle values, as the thesis'
/// `.5` medians show.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stat {
    /// The arithmetic mean.
    pub average: f64,
    /// The median.
    pub median: f64,
}

impl Stat {
    /// `None` for an empty list: there is nothing to average.
    pub fn of(values: &[f64]) -> Option<Stat> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Some(Stat {
            average: sorted.iter().sum::<f64>() / n as f64,
            median,
        })
    }
}

/// One configuration's line of the summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigSummary {
    /// The configuration, as `checker::config` spells it.
    pub config: String,
    /// Over the group's common instances; `None` when that set is empty.
    pub explored: Option<Stat>,
    /// Seconds per run, over the group's common instances.
    pub seconds: Option<Stat>,
    /// Over the common instances that have a trace (a check that holds
    /// has none); `None` when there are none.
    pub trace_length: Option<Stat>,
    /// Instances this configuration solved, of all instances in the table.
    pub solved: usize,
}

/// One base search and its configurations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupSummary {
    /// The base search in the configuration spelling, e.g. `greedy:hl`.
    pub group: String,
    /// The instances every configuration of the group solved, as
    /// `model/check`, in table order.
    pub common: Vec<String>,
    /// One summary per configuration, in the order run.
    pub configs: Vec<ConfigSummary>,
}

/// The whole summary: every instance of the table, and one entry per group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Distinct model × check pairs in the table (the thesis' 27).
    pub instances: usize,
    /// One summary per group of instances.
    pub groups: Vec<GroupSummary>,
}

/// A verdict found within the limits: anything but `unknown (...)`.
pub fn solved(row: &Row) -> bool {
    !row.verdict.starts_with("unknown")
}

/// The base search of a configuration: its spelling without the frontier
/// enhancement. A string that is not a configuration is its own group.
pub fn group_of(config_text: &str) -> String {
    match config::parse(config_text) {
        Ok(c) => config::Config {
            enhance: Enhance::None,
            ..c
        }
        .to_string(),
        Err(_) => config_text.to_string(),
    }
}

/// Summarises the rows; groups and configurations keep the order in which
/// they first appear. When one instance × configuration appears twice (two
/// files of the same name), the first row counts.
pub fn summarise(rows: &[Row]) -> Summary {
    let instances = first_seen(rows.iter().map(instance_name));
    let configs = first_seen(rows.iter().map(|r| r.config.clone()));
    let groups = first_seen(configs.iter().map(|c| group_of(c)));
    let row_of = |instance: &str, config: &str| {
        rows.iter()
            .find(|r| r.config == config && instance_name(r) == instance)
    };
    let solved_by = |instance: &str, config: &str| row_of(instance, config).is_some_and(solved);

    let groups = groups
        .into_iter()
        .map(|group| {
            let members: Vec<&String> = configs.iter().filter(|c| group_of(c) == group).collect();
            let common: Vec<String> = instances
                .iter()
                .filter(|i| members.iter().all(|c| solved_by(i, c)))
                .cloned()
                .collect();
            let configs = members
                .iter()
                .map(|config| {
                    let common_rows: Vec<&Row> =
                        common.iter().filter_map(|i| row_of(i, config)).collect();
                    let figures = |f: &dyn Fn(&Row) -> Option<f64>| {
                        Stat::of(&common_rows.iter().filter_map(|r| f(r)).collect::<Vec<_>>())
                    };
                    ConfigSummary {
                        config: config.to_string(),
                        explored: figures(&|r| Some(r.explored as f64)),
                        seconds: figures(&|r| Some(r.seconds)),
                        trace_length: figures(&|r| r.trace_length.map(|n| n as f64)),
                        solved: instances.iter().filter(|i| solved_by(i, config)).count(),
                    }
                })
                .collect();
            GroupSummary {
                group,
                common,
                configs,
            }
        })
        .collect();
    Summary {
        instances: instances.len(),
        groups,
    }
}

fn instance_name(r: &Row) -> String {
    format!("{}/{}", r.model, r.check)
}

/// The distinct items in order of first appearance.
fn first_seen(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

/// The Markdown summary's header.
pub const HEADER: &str = "| group | configuration | common | explored (average) | explored (median) | time in s (average) | time in s (median) | trace (average) | trace (median) | solved |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|";

/// The summary as a Markdown table, one line per configuration; a figure
/// over an empty set is `–`.
pub fn markdown(summary: &Summary) -> String {
    let mut out = String::from(HEADER);
    for g in &summary.groups {
        for c in &g.configs {
            let cell = |s: Option<Stat>, digits: usize| match s {
                Some(s) => [
                    format!("{:.digits$}", s.average),
                    format!("{:.digits$}", s.median),
                ],
                None => ["–".to_string(), "–".to_string()],
            };
            let [ea, em] = cell(c.explored, 1);
            let [ta, tm] = cell(c.seconds, 3);
            let [la, lm] = cell(c.trace_length, 1);
            out.push_str(&format!(
                "\n| {} | {} | {} | {ea} | {em} | {ta} | {tm} | {la} | {lm} | {}/{} |",
                g.group,
                c.config,
                g.common.len(),
                c.solved,
                summary.instances
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(model: &str, config: &str, verdict: &str, explored: u64, trace: Option<usize>) -> Row {
        Row {
            model: model.into(),
            check: "bug".into(),
            config: config.into(),
            verdict: verdict.into(),
            explored,
            generated: 0,
            stored: 0,
            // Time a tenth of the explored states, to tell the columns apart.
            seconds: explored as f64 / 10.0,
            peak_memory_bytes: 0,
            trace_length: trace,
            deferred_ratio: 0.0,
            safe_removed: None,
            trace_split: None,
            pruned: 0,
            queue_pushes: vec![],
            queue_pops: vec![],
            threads: 1,
        }
    }

    #[test]
    fn average_and_median_of_odd_and_even_counts() {
        // 1 + 2 + 9 = 12, 12 / 3 = 4; the middle of 1, 2, 9 is 2.
        assert_eq!(
            Stat::of(&[9.0, 1.0, 2.0]),
            Some(Stat {
                average: 4.0,
                median: 2.0
            })
        );
        // 1 + 2 + 4 + 9 = 16, 16 / 4 = 4; the middle pair 2, 4 gives 3.
        assert_eq!(
            Stat::of(&[4.0, 9.0, 1.0, 2.0]),
            Some(Stat {
                average: 4.0,
                median: 3.0
            })
        );
        // The thesis' .5 medians: 3 and 4 give 3.5.
        assert_eq!(Stat::of(&[3.0, 4.0]).map(|s| s.median), Some(3.5));
        assert_eq!(
            Stat::of(&[7.0]).map(|s| (s.average, s.median)),
            Some((7.0, 7.0))
        );
        assert_eq!(Stat::of(&[]), None);
    }

    #[test]
    fn groups_are_base_searches_without_the_enhancement() {
        for (config, group) in [
            ("greedy:hl", "greedy:hl"),
            ("greedy:hl+ce", "greedy:hl"),
            ("greedy:hl+ibp", "greedy:hl"),
            ("greedy:hl+ibi", "greedy:hl"),
            ("greedy:hl+ut", "greedy:hl"),
            ("greedy:hl+ut+lifo", "greedy:hl+lifo"),
            ("bfs+ce", "bfs"),
            ("dfs+ibi", "dfs"),
            // UT's heuristic does not make a blind order another base search.
            ("dfs:hu+ut", "dfs"),
            ("astar:hl+safe", "astar:hl+safe"),
            ("not a config", "not a config"),
        ] {
            assert_eq!(group_of(config), group, "{config}");
        }
    }

    /// Three instances; `bfs+ce` fails on I3, so the `bfs` group's common
    /// set is {I1, I2} and I3's figures count nowhere in that group, while
    /// the `dfs` group (both configurations solve everything) averages over
    /// all three.
    #[test]
    fn an_instance_one_configuration_misses_leaves_its_group_only() {
        let rows = vec![
            row("I1", "bfs", "fails", 10, Some(4)),
            row("I1", "bfs+ce", "fails", 20, Some(6)),
            row("I1", "dfs", "fails", 5, Some(9)),
            row("I1", "dfs+ce", "fails", 6, Some(9)),
            row("I2", "bfs", "fails", 30, Some(5)),
            row("I2", "bfs+ce", "fails", 40, Some(7)),
            row("I2", "dfs", "fails", 7, Some(11)),
            row("I2", "dfs+ce", "fails", 8, Some(10)),
            row("I3", "bfs", "fails", 1000, Some(50)),
            row("I3", "bfs+ce", "unknown (time)", 99999, None),
            row("I3", "dfs", "fails", 30, Some(40)),
            row("I3", "dfs+ce", "fails", 12, Some(20)),
        ];
        let s = summarise(&rows);
        assert_eq!(s.instances, 3);
        let groups: Vec<&str> = s.groups.iter().map(|g| g.group.as_str()).collect();
        assert_eq!(groups, ["bfs", "dfs"]);

        let bfs = &s.groups[0];
        assert_eq!(bfs.common, ["I1/bug", "I2/bug"]);
        let plain = &bfs.configs[0];
        assert_eq!(plain.config, "bfs");
        // (10 + 30) / 2 = 20, median of two = their mean; I3's 1000 is out.
        assert_eq!(
            plain.explored,
            Some(Stat {
                average: 20.0,
                median: 20.0
            })
        );
        assert_eq!(
            plain.seconds,
            Some(Stat {
                average: 2.0,
                median: 2.0
            })
        );
        assert_eq!(
            plain.trace_length,
            Some(Stat {
                average: 4.5,
                median: 4.5
            })
        );
        assert_eq!(plain.solved, 3);
        let ce = &bfs.configs[1];
        assert_eq!(ce.config, "bfs+ce");
        assert_eq!(ce.explored.map(|s| s.average), Some(30.0));
        assert_eq!(ce.trace_length.map(|s| s.median), Some(6.5));
        assert_eq!(ce.solved, 2);

        let dfs = &s.groups[1];
        assert_eq!(dfs.common.len(), 3);
        // dfs: 5, 7, 30: average 14, median 7; traces 9, 11, 40: 20 and 11.
        assert_eq!(
            dfs.configs[0].explored,
            Some(Stat {
                average: 14.0,
                median: 7.0
            })
        );
        assert_eq!(
            dfs.configs[0].trace_length,
            Some(Stat {
                average: 20.0,
                median: 11.0
            })
        );
        // dfs+ce: 6, 8, 12: average 26 / 3, median 8.
        let ce = dfs.configs[1].explored.unwrap();
        assert!((ce.average - 26.0 / 3.0).abs() < 1e-12, "{ce:?}");
        assert_eq!(ce.median, 8.0);
    }

    #[test]
    fn checks_that_hold_have_no_trace_but_count_as_solved() {
        let rows = vec![
            row("ok", "bfs", "holds", 12, None),
            row("bug", "bfs", "fails", 4, Some(3)),
            row("bug2", "bfs", "model-error", 2, Some(1)),
        ];
        let s = summarise(&rows);
        let c = &s.groups[0].configs[0];
        assert_eq!(c.solved, 3);
        assert_eq!(c.explored.map(|s| s.average), Some(6.0));
        // Traces only of the two that have one: 3 and 1.
        assert_eq!(
            c.trace_length.map(|s| (s.average, s.median)),
            Some((2.0, 2.0))
        );
    }

    #[test]
    fn an_empty_common_set_prints_dashes() {
        let rows = vec![
            row("I1", "greedy:hl", "fails", 10, Some(4)),
            row("I1", "greedy:hl+ut", "unknown (states)", 100, None),
            row("I2", "greedy:hl", "unknown (time)", 10, None),
            row("I2", "greedy:hl+ut", "fails", 8, Some(5)),
        ];
        let s = summarise(&rows);
        assert!(s.groups[0].common.is_empty());
        assert_eq!(s.groups[0].configs[0].explored, None);
        let table = markdown(&s);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert_eq!(
            lines[2],
            "| greedy:hl | greedy:hl | 0 | – | – | – | – | – | – | 1/2 |"
        );
        assert_eq!(
            lines[3],
            "| greedy:hl | greedy:hl+ut | 0 | – | – | – | – | – | – | 1/2 |"
        );
        let columns = |l: &str| l.matches('|').count();
        assert!(lines.iter().all(|l| columns(l) == columns(lines[0])));
    }

    #[test]
    fn markdown_figures_are_rounded_per_column() {
        let rows = vec![
            row("I1", "bfs", "fails", 10, Some(4)),
            row("I2", "bfs", "fails", 15, Some(7)),
        ];
        let table = markdown(&summarise(&rows));
        // explored 12.5 (both), time 1.25 s, trace 5.5.
        assert_eq!(
            table.lines().nth(2),
            Some("| bfs | bfs | 2 | 12.5 | 12.5 | 1.250 | 1.250 | 5.5 | 5.5 | 2/2 |")
        );
    }
}
