//! Server settings, read from `initializationOptions` and
//! `workspace/didChangeConfiguration`.
//!
//! Both accept either the settings object itself or one nested under `"zeno"`
//! (how editors usually scope extension settings). Unknown or malformed fields
//! keep their previous value, so a typo in a setting never breaks the server.

use std::time::Duration;

use serde_json::Value;

use zeno_checker::config::Config;
use zeno_checker::{HeuristicKind, Options, Reduce, SearchOrder, Subsume};

#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The search order; with `heuristic`, the configuration of every
    /// check ([`Config::plain`]). The two are kept apart, as the editors
    /// set them, so that a heuristic chosen under a blind order applies
    /// once the order is best-first again.
    pub search: SearchOrder,
    pub heuristic: HeuristicKind,
    /// The checker's options that the settings set: `max_states`,
    /// `timeout`, `threads`, `subsume` and `reduce`; the rest keep the library's defaults, and
    /// the configuration is `search` and `heuristic`'s ([`Settings::options`]).
    pub options: Options,
    /// Quiet time after an edit before checks start.
    pub debounce: Duration,
    /// Check after every edit (`true`) or only on save.
    pub check_on_change: bool,
    /// The memory budget of the background checks in bytes, as `zeno
    /// --memory` sets it; `None`: the default budget.
    pub memory: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            search: SearchOrder::Greedy,
            heuristic: HeuristicKind::HU,
            options: Options {
                // One thread for breadth-first, greedy or A* checks (see
                // `checker::runs_parallel`): the checks run in the
                // background after each edit, and the editor and its other
                // servers need the cores more than a check does.
                threads: 1,
                // As `zeno check`: never more stored states than inclusion
                // (docs/checker.md, "aLU subsumption").
                subsume: Subsume::Alu,
                ..Options::default()
            },
            debounce: Duration::from_millis(300),
            check_on_change: true,
            memory: None,
        }
    }
}

impl Settings {
    /// Updates the settings from a JSON object; returns what it could not
    /// understand, one line per setting (to log them).
    ///
    /// The keys are those of the editors' settings: `search`, `heuristic`
    /// (the names `zeno check` accepts), `maxStates`, `timeoutSeconds` (a
    /// limit of 0 or `null` is no limit; `timeoutMs` is read too), `checkOn`
    /// (`change` or `save`), `debounceMs`, `threads` (at least 1) and
    /// `memory` (a size as `zeno --memory` reads it, `512M`, `2G`; empty or
    /// `null`: the default), `subsume` (`inclusion` or `alu`, as `zeno
    /// check --subsume`), `reduce` (`none` or `por`, as `zeno check
    /// --reduce`), `symmetry` (`on` or `off`, as `zeno check
    /// --symmetry`) and `nonZeno` (`true`: liveness checks count only runs
    /// whose time diverges, as `zeno check --non-zeno`).
    pub fn update(&mut self, value: &Value) -> Vec<String> {
        let mut bad = Vec::new();
        let obj = match value.get("zeno") {
            Some(inner) if inner.is_object() => inner,
            _ => value,
        };
        let Some(obj) = obj.as_object() else {
            if !obj.is_null() {
                bad.push(format!("expected an object of settings, got {obj}"));
            }
            return bad;
        };
        for (key, v) in obj {
            let problem = match key.as_str() {
                "search" => set(
                    &mut self.search,
                    v.as_str().and_then(|s| s.parse().ok()),
                    || format!("one of {}", names(SearchOrder::ALL.map(SearchOrder::name))),
                ),
                "heuristic" => set(
                    &mut self.heuristic,
                    v.as_str().and_then(|s| s.parse().ok()),
                    || {
                        format!(
                            "one of {}",
                            names(HeuristicKind::ALL.map(HeuristicKind::name))
                        )
                    },
                ),
                "subsume" => set(
                    &mut self.options.subsume,
                    v.as_str().and_then(|s| s.parse().ok()),
                    || format!("one of {}", names(Subsume::ALL.map(Subsume::name))),
                ),
                "symmetry" => set(
                    &mut self.options.symmetry,
                    match v.as_str() {
                        Some("on") => Some(true),
                        Some("off") => Some(false),
                        _ => None,
                    },
                    || "on or off".into(),
                ),
                "reduce" => set(
                    &mut self.options.reduce,
                    v.as_str().and_then(|s| s.parse().ok()),
                    || format!("one of {}", names(Reduce::ALL.map(Reduce::name))),
                ),
                "maxStates" => set(
                    &mut self.options.max_states,
                    limit(v, |n| n.as_u64()),
                    || "a number of states (0 or null: no limit)".into(),
                ),
                "timeoutSeconds" => set(
                    &mut self.options.timeout,
                    limit(v, |n| {
                        n.as_f64().and_then(|s| Duration::try_from_secs_f64(s).ok())
                    }),
                    || "a number of seconds (0 or null: no limit)".into(),
                ),
                "timeoutMs" => set(
                    &mut self.options.timeout,
                    limit(v, |n| n.as_u64().map(Duration::from_millis)),
                    || "a number of milliseconds (0 or null: no limit)".into(),
                ),
                "debounceMs" => set(
                    &mut self.debounce,
                    v.as_u64().map(Duration::from_millis),
                    || "a number of milliseconds".into(),
                ),
                "threads" => set(
                    &mut self.options.threads,
                    v.as_u64()
                        .filter(|&n| n > 0)
                        .and_then(|n| usize::try_from(n).ok()),
                    || "a number of threads, at least 1".into(),
                )
                .or_else(|| {
                    // As `zeno check --threads`: also the threads of a
                    // breadth-first search standing in for a best-first one.
                    self.options.fallback_threads = self.options.threads;
                    None
                }),
                "nonZeno" => set(&mut self.options.non_zeno, v.as_bool(), || {
                    "true or false".into()
                }),
                "checkOn" => set(
                    &mut self.check_on_change,
                    match v.as_str() {
                        Some("change") => Some(true),
                        Some("save") => Some(false),
                        _ => None,
                    },
                    || "change or save".into(),
                ),
                "memory" => set(&mut self.memory, memory(v), || {
                    "a size such as 512M or 2G (empty or null: the default)".into()
                })
                .map(|expected| {
                    match v.as_str().map(zeno_base::memory::parse_size) {
                        Some(Err(e)) => format!("{expected}: {e}"),
                        _ => expected,
                    }
                }),
                _ => {
                    bad.push(format!("{key}: not a zeno setting"));
                    continue;
                }
            };
            if let Some(expected) = problem {
                bad.push(format!("{key}: expected {expected}, got {v}"));
            }
        }
        bad
    }

    /// The search configuration the settings ask for.
    pub fn config(&self) -> Config {
        Config::plain(self.search, self.heuristic)
    }

    /// The checker options the settings ask for; a check runs with
    /// [`Options::for_check`] of them (the goal's policy), as in every
    /// front end.
    pub fn options(&self) -> Options {
        Options {
            config: self.config(),
            ..self.options.clone()
        }
    }
}

fn names<const N: usize>(list: [&str; N]) -> String {
    list.join(", ")
}

/// Stores `value` when there is one; otherwise what was expected.
fn set<T>(slot: &mut T, value: Option<T>, expected: impl FnOnce() -> String) -> Option<String> {
    match value {
        Some(v) => {
            *slot = v;
            None
        }
        None => Some(expected()),
    }
}

/// A memory budget: `null` or an empty string is the default (`None`), a
/// string `memory::parse_size` reads is that many bytes.
fn memory(v: &Value) -> Option<Option<u64>> {
    match v {
        Value::Null => Some(None),
        Value::String(s) if s.trim().is_empty() => Some(None),
        Value::String(s) => zeno_base::memory::parse_size(s).ok().map(Some),
        _ => None,
    }
}

/// A limit: `null` or 0 is none (the editors' settings say "0: no limit"),
/// a positive number is read by `read`; anything else is invalid.
fn limit<T>(v: &Value, read: impl FnOnce(&Value) -> Option<T>) -> Option<Option<T>> {
    if v.is_null() || v.as_f64() == Some(0.0) {
        return Some(None);
    }
    if v.as_f64().is_some_and(|x| x > 0.0) {
        return read(v).map(Some);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use zeno_ir::Formula;

    #[test]
    fn subsumption_defaults_to_alu_and_reads_both_names() {
        let mut s = Settings::default();
        assert_eq!(s.options.subsume, Subsume::Alu);
        assert!(s.update(&json!({"subsume": "inclusion"})).is_empty());
        assert_eq!(s.options.subsume, Subsume::Inclusion);
        assert_eq!(
            s.update(&json!({"subsume": "simulation"})),
            vec!["subsume: expected one of inclusion, alu, got \"simulation\"".to_string()]
        );
        assert_eq!(s.options.subsume, Subsume::Inclusion);
        assert_eq!(s.options().subsume, Subsume::Inclusion);
        assert!(s.options.symmetry);
        assert!(s.update(&json!({"symmetry": "off"})).is_empty());
        assert!(!s.options().symmetry);
        assert_eq!(
            s.update(&json!({"symmetry": true})),
            vec!["symmetry: expected on or off, got true".to_string()]
        );
        assert!(!s.options.symmetry);
    }

    #[test]
    fn reduction_defaults_to_none_and_reads_both_names() {
        let mut s = Settings::default();
        assert_eq!(s.options.reduce, Reduce::None);
        assert!(s.update(&json!({"reduce": "por"})).is_empty());
        assert_eq!(s.options().reduce, Reduce::Por);
        assert_eq!(
            s.update(&json!({"reduce": "symmetry"})),
            vec!["reduce: expected one of none, por, got \"symmetry\"".to_string()]
        );
        assert_eq!(s.options.reduce, Reduce::Por);
    }

    #[test]
    fn nested_and_flat_settings() {
        let mut s = Settings::default();
        let bad = s.update(&json!({"zeno": {"search": "bfs", "heuristic": "dl",
            "maxStates": 1000, "timeoutMs": 2500, "debounceMs": 10, "checkOn": "save"}}));
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(s.search, SearchOrder::Bfs);
        assert_eq!(s.heuristic, HeuristicKind::DL);
        assert_eq!(s.options.max_states, Some(1000));
        assert_eq!(s.options.timeout, Some(Duration::from_millis(2500)));
        assert_eq!(s.debounce, Duration::from_millis(10));
        assert!(!s.check_on_change);
        let mut bad = s.update(
            &json!({"search": "astar", "maxStates": null, "colour": "red",
            "heuristic": "h?"}),
        );
        assert_eq!(s.search, SearchOrder::AStar);
        assert_eq!(s.options.max_states, None);
        assert_eq!(s.heuristic, HeuristicKind::DL);
        bad.sort();
        assert_eq!(
            bad,
            [
                "colour: not a zeno setting",
                "heuristic: expected one of zero, dl, du, hl, hu, hcg, pdb, got \"h?\""
            ]
        );
    }

    #[test]
    fn memory_is_a_size_as_the_command_line_reads_it() {
        let mut s = Settings::default();
        assert!(s.update(&json!({"memory": "1.5G"})).is_empty());
        assert_eq!(s.memory, Some(3 << 29));
        // A bad value keeps the previous budget and says why.
        let bad = s.update(&json!({"memory": "12Q"}));
        assert_eq!(s.memory, Some(3 << 29));
        assert_eq!(
            bad,
            [
                "memory: expected a size such as 512M or 2G (empty or null: the default): \
              `12Q`: unknown unit (use K, M, G or T), got \"12Q\""
            ]
        );
        assert_eq!(s.update(&json!({"memory": 5})).len(), 1);
        assert!(s.update(&json!({"memory": ""})).is_empty());
        assert_eq!(s.memory, None);
        s.update(&json!({"memory": "64K"}));
        assert!(s.update(&json!({"memory": null})).is_empty());
        assert_eq!(s.memory, None);
    }

    #[test]
    fn time_limit_in_seconds_as_the_editors_document_it() {
        let mut s = Settings::default();
        assert!(s.update(&json!({"timeoutSeconds": 30})).is_empty());
        assert_eq!(s.options.timeout, Some(Duration::from_secs(30)));
        assert!(s.update(&json!({"timeoutSeconds": 1.5})).is_empty());
        assert_eq!(s.options.timeout, Some(Duration::from_millis(1500)));
        // 0 is no limit, as the editors' settings say; so is null.
        assert!(s.update(&json!({"timeoutSeconds": 0})).is_empty());
        assert_eq!(s.options.timeout, None);
        s.update(&json!({"timeoutSeconds": 2}));
        assert!(s.update(&json!({"timeoutSeconds": null})).is_empty());
        assert_eq!(s.options.timeout, None);
        assert!(s.update(&json!({"maxStates": 0})).is_empty());
        assert_eq!(s.options.max_states, None);
        // Invalid values keep the old one and say what was expected.
        s.update(&json!({"timeoutSeconds": 2}));
        for bad in [json!(-1), json!("30"), json!(1e300)] {
            let problems = s.update(&json!({ "timeoutSeconds": bad }));
            assert_eq!(problems.len(), 1, "{bad}");
            assert!(problems[0].contains("a number of seconds"), "{problems:?}");
            assert_eq!(s.options.timeout, Some(Duration::from_secs(2)));
        }
        assert_eq!(s.update(&json!({"maxStates": 1.5})).len(), 1);
    }

    /// Background checks run on one thread unless the editor asks for
    /// more; 0 and non-integers keep the previous value.
    #[test]
    fn non_zeno_is_a_setting() {
        let mut s = Settings::default();
        assert!(!s.options().non_zeno);
        assert!(s.update(&json!({"nonZeno": true})).is_empty());
        assert!(s.options().non_zeno);
        assert_eq!(
            s.update(&json!({"nonZeno": "yes"})),
            vec!["nonZeno: expected true or false, got \"yes\"".to_string()]
        );
        assert!(s.options.non_zeno, "a bad value keeps the last good one");
    }

    #[test]
    fn threads_default_to_one() {
        let mut s = Settings::default();
        assert_eq!(s.options().threads, 1);
        assert!(s.update(&json!({"threads": 4})).is_empty());
        assert_eq!(s.options().threads, 4);
        for bad in [json!(0), json!(-2), json!(1.5), json!("2")] {
            let problems = s.update(&json!({ "threads": bad }));
            assert_eq!(problems.len(), 1, "{bad}");
            assert!(problems[0].contains("at least 1"), "{problems:?}");
            assert_eq!(s.options.threads, 4);
        }
    }

    #[test]
    fn deadlock_goal_falls_back_to_bfs() {
        let s = Settings::default();
        let plain = Formula::True;
        let deadlock = Formula::Deadlock;
        assert_eq!(
            s.options().for_goal(&plain).config.search,
            SearchOrder::Greedy
        );
        assert_eq!(
            s.options().for_goal(&plain).config.heuristic,
            HeuristicKind::HU
        );
        assert_eq!(
            s.options().for_goal(&deadlock).config.search,
            SearchOrder::Bfs
        );
    }

    /// Every order and heuristic the checker has is a setting, by the
    /// checker's own name, and nothing else is.
    #[test]
    fn exactly_the_checkers_names_are_accepted() {
        for o in SearchOrder::ALL {
            let mut s = Settings::default();
            assert!(s.update(&json!({ "search": o.name() })).is_empty(), "{o:?}");
            assert_eq!(s.search, o);
        }
        for h in HeuristicKind::ALL {
            let mut s = Settings::default();
            assert!(
                s.update(&json!({ "heuristic": h.name() })).is_empty(),
                "{h:?}"
            );
            assert_eq!(s.heuristic, h);
        }
        // Only those: no aliases, no other case.
        for name in ["random-dfs", "a*", "none", "BFS", "Hu", ""] {
            let mut s = Settings::default();
            assert_eq!(
                s.update(&json!({"search": name, "heuristic": name})).len(),
                2,
                "{name}"
            );
        }
    }
}
