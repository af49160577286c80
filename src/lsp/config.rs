//! Server settings, read from `initializationOptions` and
//! `workspace/didChangeConfiguration`.
//!
//! Both accept either the settings object itself or one nested under `"zeno"`
//! (how editors usually scope extension settings). Unknown or malformed fields
//! keep their previous value, so a typo in a setting never breaks the server.

use std::time::Duration;

use serde_json::Value;

use crate::checker::{HeuristicKind, Options, SearchOrder};

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
    /// Updates the settings from a JSON object; returns the fields it could
    /// not understand (to log them).
    pub fn update(&mut self, value: &Value) -> Vec<String> {
        let mut bad = Vec::new();
        let obj = match value.get("zeno") {
            Some(inner) if inner.is_object() => inner,
            _ => value,
        };
        let Some(obj) = obj.as_object() else {
            return bad;
        };
        for (key, v) in obj {
            let ok = match key.as_str() {
                "search" => set(&mut self.search, v.as_str().and_then(parse_search)),
                "heuristic" => set(&mut self.heuristic, v.as_str().and_then(parse_heuristic)),
                "maxStates" => set(&mut self.max_states, optional_u64(v)),
                "timeoutMs" => set(
                    &mut self.timeout,
                    optional_u64(v).map(|n| n.map(Duration::from_millis)),
                ),
                "debounceMs" => set(&mut self.debounce, v.as_u64().map(Duration::from_millis)),
                "checkOn" => set(
                    &mut self.check_on_change,
                    match v.as_str() {
                        Some("change") => Some(true),
                        Some("save") => Some(false),
                        _ => None,
                    },
                ),
                _ => false,
            };
            if !ok {
                bad.push(key.clone());
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

/// Stores `value` when there is one; whether there was.
fn set<T>(slot: &mut T, value: Option<T>) -> bool {
    value.map(|v| *slot = v).is_some()
}

fn optional_u64(v: &Value) -> Option<Option<u64>> {
    if v.is_null() {
        Some(None)
    } else {
        v.as_u64().map(Some)
    }
}

fn parse_search(s: &str) -> Option<SearchOrder> {
    Some(match s.to_ascii_lowercase().as_str() {
        "bfs" => SearchOrder::Bfs,
        "dfs" => SearchOrder::Dfs,
        "rdfs" | "random-dfs" | "randomdfs" => SearchOrder::RandomDfs,
        "greedy" => SearchOrder::Greedy,
        "astar" | "a*" => SearchOrder::AStar,
        _ => return None,
    })
}

fn parse_heuristic(s: &str) -> Option<HeuristicKind> {
    Some(match s.to_ascii_lowercase().as_str() {
        "zero" | "none" => HeuristicKind::Zero,
        "dl" => HeuristicKind::DL,
        "du" => HeuristicKind::DU,
        "hl" => HeuristicKind::HL,
        "hu" => HeuristicKind::HU,
        "pdb" => HeuristicKind::Pdb,
        _ => return None,
    })
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
        assert!(bad.is_empty());
        assert_eq!(s.search, SearchOrder::Bfs);
        assert_eq!(s.heuristic, HeuristicKind::DL);
        assert_eq!(s.max_states, Some(1000));
        assert_eq!(s.timeout, Some(Duration::from_millis(2500)));
        assert_eq!(s.debounce, Duration::from_millis(10));
        assert!(!s.check_on_change);
        let bad = s.update(
            &json!({"search": "astar", "maxStates": null, "colour": "red",
            "heuristic": "h?"}),
        );
        assert_eq!(s.search, SearchOrder::AStar);
        assert_eq!(s.max_states, None);
        assert_eq!(s.heuristic, HeuristicKind::DL);
        let mut bad = bad;
        bad.sort();
        assert_eq!(bad, ["colour", "heuristic"]);
    }

    #[test]
    fn deadlock_goal_falls_back_to_bfs() {
        let s = Settings::default();
        assert_eq!(s.options(false).search, SearchOrder::Greedy);
        assert_eq!(s.options(false).heuristic, HeuristicKind::HU);
        assert_eq!(s.options(true).search, SearchOrder::Bfs);
    }

    #[test]
    fn pattern_database_heuristic_is_accepted() {
        let mut s = Settings::default();
        assert!(s.update(&json!({"heuristic": "pdb"})).is_empty());
        assert_eq!(s.options(false).heuristic, HeuristicKind::Pdb);
    }
}
