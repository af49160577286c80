//! Server settings, read from `initializationOptions` and
//! `workspace/didChangeConfiguration`.
//!
//! Both accept either the settings object itself or one nested under `"zeno"`
//! (how editors usually scope extension settings). Unknown or malformed fields
//! keep their previous value, so a typo in a setting never breaks the server.

use std::time::Duration;

use serde_json::Value;

use crate::checker::config::Config;
use crate::checker::{Enhance, HeuristicKind, Options, SearchOrder, Ties};

/// Every search order, in the order `zeno check --search` lists them.
pub const SEARCH_ORDERS: [SearchOrder; 5] = [
    SearchOrder::Bfs,
    SearchOrder::Dfs,
    SearchOrder::RandomDfs,
    SearchOrder::Greedy,
    SearchOrder::AStar,
];

/// Every heuristic, in the order `zeno check --heuristic` lists them.
pub const HEURISTICS: [HeuristicKind; 7] = [
    HeuristicKind::Zero,
    HeuristicKind::DL,
    HeuristicKind::DU,
    HeuristicKind::HL,
    HeuristicKind::HU,
    HeuristicKind::HCG,
    HeuristicKind::Pdb,
];

/// Fails to compile when the checker gains a search order or heuristic,
/// so that the lists above (and through them the settings) follow.
#[allow(dead_code)]
fn every_variant_is_listed(o: SearchOrder, h: HeuristicKind) {
    match o {
        SearchOrder::Bfs
        | SearchOrder::Dfs
        | SearchOrder::RandomDfs
        | SearchOrder::Greedy
        | SearchOrder::AStar => {}
    }
    match h {
        HeuristicKind::Zero
        | HeuristicKind::DL
        | HeuristicKind::DU
        | HeuristicKind::HL
        | HeuristicKind::HU
        | HeuristicKind::HCG
        | HeuristicKind::Pdb => {}
    }
}

/// The checker's own spelling of a configuration (`greedy:hu`, `bfs`), the
/// one `zeno check --portfolio-configs` and `zeno bench` read.
fn spelled(search: SearchOrder, heuristic: HeuristicKind) -> String {
    Config {
        search,
        heuristic,
        enhance: Enhance::None,
        safe_abstraction: false,
        ties: Ties::Fifo,
    }
    .to_string()
}

/// The name of a search order, as the CLI and the settings spell it.
pub fn search_name(o: SearchOrder) -> String {
    let s = spelled(o, HeuristicKind::Zero);
    s.split(':').next().unwrap_or(&s).to_string()
}

/// The name of a heuristic, as the CLI and the settings spell it.
pub fn heuristic_name(h: HeuristicKind) -> String {
    let s = spelled(SearchOrder::Greedy, h);
    s.split_once(':').map_or(s.clone(), |(_, h)| h.to_string())
}

/// The accepted values of the `search` setting.
pub fn search_names() -> Vec<String> {
    SEARCH_ORDERS.iter().map(|&o| search_name(o)).collect()
}

/// The accepted values of the `heuristic` setting.
pub fn heuristic_names() -> Vec<String> {
    HEURISTICS.iter().map(|&h| heuristic_name(h)).collect()
}

#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub search: SearchOrder,
    pub heuristic: HeuristicKind,
    pub max_states: Option<u64>,
    pub timeout: Option<Duration>,
    /// Quiet time after an edit before checks start.
    pub debounce: Duration,
    /// Check after every edit (`true`) or only on save.
    pub check_on_change: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            search: SearchOrder::Greedy,
            heuristic: HeuristicKind::HU,
            max_states: None,
            timeout: None,
            debounce: Duration::from_millis(300),
            check_on_change: true,
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
    /// (`change` or `save`) and `debounceMs`.
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
                "search" => set(&mut self.search, v.as_str().and_then(parse_search), || {
                    format!("one of {}", search_names().join(", "))
                }),
                "heuristic" => set(
                    &mut self.heuristic,
                    v.as_str().and_then(parse_heuristic),
                    || format!("one of {}", heuristic_names().join(", ")),
                ),
                "maxStates" => set(&mut self.max_states, limit(v, |n| n.as_u64()), || {
                    "a number of states (0 or null: no limit)".into()
                }),
                "timeoutSeconds" => set(
                    &mut self.timeout,
                    limit(v, |n| {
                        n.as_f64().and_then(|s| Duration::try_from_secs_f64(s).ok())
                    }),
                    || "a number of seconds (0 or null: no limit)".into(),
                ),
                "timeoutMs" => set(
                    &mut self.timeout,
                    limit(v, |n| n.as_u64().map(Duration::from_millis)),
                    || "a number of milliseconds (0 or null: no limit)".into(),
                ),
                "debounceMs" => set(
                    &mut self.debounce,
                    v.as_u64().map(Duration::from_millis),
                    || "a number of milliseconds".into(),
                ),
                "checkOn" => set(
                    &mut self.check_on_change,
                    match v.as_str() {
                        Some("change") => Some(true),
                        Some("save") => Some(false),
                        _ => None,
                    },
                    || "change or save".into(),
                ),
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

    /// Checker options for one check. Best-first search needs a goal the
    /// heuristic can measure; a deadlock goal has none, so it falls back to
    /// breadth-first search.
    pub fn options(&self, goal_mentions_deadlock: bool) -> Options {
        let guided = matches!(self.search, SearchOrder::Greedy | SearchOrder::AStar);
        let search = if guided && goal_mentions_deadlock {
            SearchOrder::Bfs
        } else {
            self.search
        };
        Options {
            search,
            heuristic: self.heuristic,
            max_states: self.max_states,
            timeout: self.timeout,
            ..Options::default()
        }
    }
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

/// A search order by its `zeno check --search` name (exactly that).
fn parse_search(s: &str) -> Option<SearchOrder> {
    SEARCH_ORDERS.into_iter().find(|&o| search_name(o) == s)
}

/// A heuristic by its `zeno check --heuristic` name (exactly that).
fn parse_heuristic(s: &str) -> Option<HeuristicKind> {
    HEURISTICS.into_iter().find(|&h| heuristic_name(h) == s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_and_flat_settings() {
        let mut s = Settings::default();
        let bad = s.update(&json!({"zeno": {"search": "bfs", "heuristic": "dl",
            "maxStates": 1000, "timeoutMs": 2500, "debounceMs": 10, "checkOn": "save"}}));
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(s.search, SearchOrder::Bfs);
        assert_eq!(s.heuristic, HeuristicKind::DL);
        assert_eq!(s.max_states, Some(1000));
        assert_eq!(s.timeout, Some(Duration::from_millis(2500)));
        assert_eq!(s.debounce, Duration::from_millis(10));
        assert!(!s.check_on_change);
        let mut bad = s.update(
            &json!({"search": "astar", "maxStates": null, "colour": "red",
            "heuristic": "h?"}),
        );
        assert_eq!(s.search, SearchOrder::AStar);
        assert_eq!(s.max_states, None);
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
    fn time_limit_in_seconds_as_the_editors_document_it() {
        let mut s = Settings::default();
        assert!(s.update(&json!({"timeoutSeconds": 30})).is_empty());
        assert_eq!(s.timeout, Some(Duration::from_secs(30)));
        assert!(s.update(&json!({"timeoutSeconds": 1.5})).is_empty());
        assert_eq!(s.timeout, Some(Duration::from_millis(1500)));
        // 0 is no limit, as the editors' settings say; so is null.
        assert!(s.update(&json!({"timeoutSeconds": 0})).is_empty());
        assert_eq!(s.timeout, None);
        s.update(&json!({"timeoutSeconds": 2}));
        assert!(s.update(&json!({"timeoutSeconds": null})).is_empty());
        assert_eq!(s.timeout, None);
        assert!(s.update(&json!({"maxStates": 0})).is_empty());
        assert_eq!(s.max_states, None);
        // Invalid values keep the old one and say what was expected.
        s.update(&json!({"timeoutSeconds": 2}));
        for bad in [json!(-1), json!("30"), json!(1e300)] {
            let problems = s.update(&json!({ "timeoutSeconds": bad }));
            assert_eq!(problems.len(), 1, "{bad}");
            assert!(problems[0].contains("a number of seconds"), "{problems:?}");
            assert_eq!(s.timeout, Some(Duration::from_secs(2)));
        }
        assert_eq!(s.update(&json!({"maxStates": 1.5})).len(), 1);
    }

    #[test]
    fn deadlock_goal_falls_back_to_bfs() {
        let s = Settings::default();
        assert_eq!(s.options(false).search, SearchOrder::Greedy);
        assert_eq!(s.options(false).heuristic, HeuristicKind::HU);
        assert_eq!(s.options(true).search, SearchOrder::Bfs);
    }

    /// The names the checker lists in its own error message.
    fn checker_list(config: &str) -> Vec<String> {
        let err = crate::checker::config::parse(config).unwrap_err();
        let list = err
            .split("expected one of ")
            .nth(1)
            .unwrap_or_else(|| panic!("{err}"));
        list.trim_end_matches(')')
            .split(", ")
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn exactly_the_checkers_names_are_accepted() {
        assert_eq!(search_names(), checker_list("nope"));
        assert_eq!(heuristic_names(), checker_list("greedy:nope"));
        for name in search_names() {
            let mut s = Settings::default();
            assert!(s.update(&json!({ "search": name })).is_empty(), "{name}");
            assert_eq!(search_name(s.search), name);
        }
        for name in heuristic_names() {
            let mut s = Settings::default();
            assert!(s.update(&json!({ "heuristic": name })).is_empty(), "{name}");
            assert_eq!(heuristic_name(s.heuristic), name);
            let checker = crate::checker::config::parse(&format!("greedy:{name}")).unwrap();
            assert_eq!(checker.heuristic, s.heuristic, "{name}");
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
