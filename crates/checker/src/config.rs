//! The one search configuration: order, heuristic, frontier enhancement,
//! safe abstraction and tie-breaking, with its spelling, its validation rules
//! and its policies. Every front end fills this type: the CLI from its flags
//! (`--search`, `--heuristic`, `--enhance`, `--ties`), `zeno bench` and
//! `--portfolio-configs` from strings, the language server from its
//! settings (serde reads the same strings).
//!
//! The spelling is the one the benchmark tables use:
//! `ORDER[:HEURISTIC][+ENHANCEMENT][+safe][+lifo]`, e.g. `bfs`,
//! `greedy:hl`, `greedy:hl+ut`, `astar:hl`, `bfs+ce`, `greedy:du+ibp`,
//! `greedy:hcg+safe`, `greedy:hl+ut+lifo` (`lifo`: best-first ties go to the
//! newest state, see [`Ties`]).
//!
//! Each name is one `match`: a new heuristic or enhancement of the checker
//! becomes available everywhere by adding one arm to its `name` and one
//! entry to its `ALL` list (the round-trip test checks that they agree).

#![warn(missing_docs)]

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Enhance, HeuristicKind, Options, SearchOrder, Ties};
use zeno_ir::{CheckId, Formula, Network};

/// One search configuration: order, heuristic, frontier enhancement,
/// whether safe abstraction reduces the network first, and how the
/// best-first orders break ties. Serialised as its spelling (`greedy:hl+ut`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Config {
    /// The order of exploration.
    pub search: SearchOrder,
    /// The heuristic, where the order or the enhancement reads one
    /// ([`Config::uses_heuristic`]); `Zero` otherwise.
    pub heuristic: HeuristicKind,
    /// The frontier enhancement.
    pub enhance: Enhance,
    /// Search the network without its safe components first.
    pub safe_abstraction: bool,
    /// How the best-first orders break ties.
    pub ties: Ties,
}

/// Why a text is not a configuration; the message names the text and says
/// what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid configuration `{text}`: {why}")]
pub struct ConfigError {
    text: String,
    why: String,
}

impl SearchOrder {
    /// Every search order, in the order the CLI and the editors list them.
    pub const ALL: [SearchOrder; 5] = [
        SearchOrder::Bfs,
        SearchOrder::Dfs,
        SearchOrder::RandomDfs,
        SearchOrder::Greedy,
        SearchOrder::AStar,
    ];

    /// The order's name in a configuration, `--search` and the settings.
    pub const fn name(self) -> &'static str {
        match self {
            SearchOrder::Bfs => "bfs",
            SearchOrder::Dfs => "dfs",
            SearchOrder::RandomDfs => "rdfs",
            SearchOrder::Greedy => "greedy",
            SearchOrder::AStar => "astar",
        }
    }

    /// One line on what the order does (the CLI's help).
    pub const fn description(self) -> &'static str {
        match self {
            SearchOrder::Bfs => "breadth-first: shortest traces",
            SearchOrder::Dfs => "depth-first",
            SearchOrder::RandomDfs => "depth-first, successors shuffled by --seed",
            SearchOrder::Greedy => "best-first on the heuristic h",
            SearchOrder::AStar => "best-first on g + h",
        }
    }

    /// Whether the order is best-first on a heuristic.
    pub const fn is_guided(self) -> bool {
        matches!(self, SearchOrder::Greedy | SearchOrder::AStar)
    }
}

impl HeuristicKind {
    /// Every heuristic, in the order the CLI and the editors list them.
    pub const ALL: [HeuristicKind; 7] = [
        HeuristicKind::Zero,
        HeuristicKind::DL,
        HeuristicKind::DU,
        HeuristicKind::HL,
        HeuristicKind::HU,
        HeuristicKind::HCG,
        HeuristicKind::Pdb,
    ];

    /// The heuristic's name in a configuration, `--heuristic` and the settings.
    pub const fn name(self) -> &'static str {
        match self {
            HeuristicKind::Zero => "zero",
            HeuristicKind::DL => "dl",
            HeuristicKind::DU => "du",
            HeuristicKind::HL => "hl",
            HeuristicKind::HU => "hu",
            HeuristicKind::HCG => "hcg",
            HeuristicKind::Pdb => "pdb",
        }
    }

    /// One line on what the heuristic measures (the CLI's help).
    pub const fn description(self) -> &'static str {
        match self {
            HeuristicKind::Zero => "the constant 0",
            HeuristicKind::DL => {
                "graph distance to the goal locations, the largest of the processes'"
            }
            HeuristicKind::DU => "graph distance to the goal locations, summed over the processes",
            HeuristicKind::HL => "the monotonicity abstraction's layer count",
            HeuristicKind::HU => "the length of a plan in the monotonicity abstraction",
            HeuristicKind::HCG => "the causal graph heuristic",
            HeuristicKind::Pdb => "a pattern database (exact distances in a projection)",
        }
    }
}

impl Enhance {
    /// The enhancements that order the frontier, as a configuration spells
    /// them after `+`.
    pub const ORDERING: [Enhance; 4] = [
        Enhance::UselessTransitions,
        Enhance::InterferenceContexts,
        Enhance::ContextBoundingProcesses,
        Enhance::ContextBoundingInterference,
    ];

    /// The enhancement's name after `+` (`None` has none).
    pub const fn name(self) -> Option<&'static str> {
        match self {
            Enhance::None => None,
            Enhance::UselessTransitions => Some("ut"),
            Enhance::InterferenceContexts => Some("ce"),
            Enhance::ContextBoundingProcesses => Some("ibp"),
            Enhance::ContextBoundingInterference => Some("ibi"),
        }
    }

    /// One line on what the enhancement does (the CLI's help).
    pub const fn description(self) -> &'static str {
        match self {
            Enhance::None => "no enhancement",
            Enhance::UselessTransitions => "defer states reached by relatively useless transitions",
            Enhance::InterferenceContexts => "prioritise by interference contexts",
            Enhance::ContextBoundingProcesses => "iterative context bounding over process switches",
            Enhance::ContextBoundingInterference => "iterative context bounding over interference",
        }
    }
}

/// The names after `+` that are not frontier enhancements.
const SAFE: &str = "safe";
const LIFO: &str = "lifo";

fn list(names: impl IntoIterator<Item = &'static str>) -> String {
    names.into_iter().collect::<Vec<_>>().join(", ")
}

fn enhancements() -> String {
    list(
        Enhance::ORDERING
            .iter()
            .filter_map(|e| e.name())
            .chain([SAFE, LIFO]),
    )
}

/// The entry of `all` called `name`, or an error listing the names.
fn by_name<T: Copy>(
    all: &[T],
    name_of: fn(T) -> &'static str,
    name: &str,
    what: &str,
) -> Result<T, ConfigError> {
    all.iter()
        .copied()
        .find(|&t| name_of(t) == name)
        .ok_or_else(|| ConfigError {
            text: name.to_string(),
            why: format!(
                "unknown {what} `{name}` (expected one of {})",
                list(all.iter().map(|&t| name_of(t)))
            ),
        })
}

impl FromStr for SearchOrder {
    type Err = ConfigError;
    fn from_str(name: &str) -> Result<SearchOrder, ConfigError> {
        by_name(&SearchOrder::ALL, SearchOrder::name, name, "search order")
    }
}

impl FromStr for HeuristicKind {
    type Err = ConfigError;
    fn from_str(name: &str) -> Result<HeuristicKind, ConfigError> {
        by_name(&HeuristicKind::ALL, HeuristicKind::name, name, "heuristic")
    }
}

impl Config {
    /// A configuration with no enhancement: `order:heuristic` for the
    /// best-first orders, the bare order otherwise (a blind order has no use
    /// for a heuristic, so `heuristic` is dropped there).
    pub const fn plain(search: SearchOrder, heuristic: HeuristicKind) -> Config {
        Config {
            search,
            heuristic: if search.is_guided() {
                heuristic
            } else {
                HeuristicKind::Zero
            },
            enhance: Enhance::None,
            safe_abstraction: false,
            ties: Ties::Fifo,
        }
    }

    /// Whether the configuration uses its heuristic: the best-first orders
    /// do, and useless transitions do with every order.
    pub const fn uses_heuristic(&self) -> bool {
        self.search.is_guided() || matches!(self.enhance, Enhance::UselessTransitions)
    }

    /// The configuration to search for `goal` with. Best-first search needs
    /// a goal its heuristic can measure; a goal that mentions `deadlock`
    /// has none, so such a search becomes breadth-first (keeping the
    /// enhancement, and the heuristic when useless transitions test with it).
    pub fn for_goal(self, goal: &Formula) -> Config {
        if !self.search.is_guided() || !goal.mentions_deadlock() {
            return self;
        }
        Config {
            search: SearchOrder::Bfs,
            heuristic: if self.enhance == Enhance::UselessTransitions {
                self.heuristic
            } else {
                HeuristicKind::Zero
            },
            ties: Ties::Fifo,
            ..self
        }
    }

    /// Checker options for this configuration (limits and seed left at
    /// their defaults).
    pub fn options(self) -> Options {
        Options {
            config: self,
            ..Options::default()
        }
    }
}

impl Default for Config {
    /// Breadth-first search, no heuristic, no enhancement.
    fn default() -> Config {
        Config {
            search: SearchOrder::Bfs,
            heuristic: HeuristicKind::Zero,
            enhance: Enhance::None,
            safe_abstraction: false,
            ties: Ties::Fifo,
        }
    }
}

impl Options {
    /// These options for the check `check` of `network`, under
    /// [`Config::for_goal`]'s policy for its goal: how every front end (the
    /// CLI's `check` and `picture`, the language server) builds a check's
    /// options, so that none forgets the policy.
    pub fn for_check(&self, network: &Network, check: CheckId) -> Options {
        self.for_goal(&network.check(check).kind.goal())
    }

    /// These options for a check of `goal`, under [`Config::for_goal`]'s
    /// policy (see [`Options::for_check`]).
    ///
    /// A best-first search that becomes breadth-first takes
    /// [`Options::fallback_threads`] (if more than `threads`).
    pub fn for_goal(&self, goal: &Formula) -> Options {
        let config = self.config.for_goal(goal);
        let threads = if config.search == self.config.search {
            self.threads
        } else {
            self.threads.max(self.fallback_threads)
        };
        Options {
            config,
            threads,
            ..self.clone()
        }
    }
}

/// Parses `ORDER[:HEURISTIC][+ENHANCEMENT][+safe][+lifo]` (case-insensitive,
/// no spaces): at most one enhancement that orders the frontier, `safe` and
/// `lifo` at most once each, in any order. `lifo` needs a best-first order
/// (the only ones with ties to break).
///
/// The heuristic is required for `greedy` and `astar` (they have no sensible
/// default to guess) and for useless transitions, whose test needs one; the
/// blind orders reject one otherwise, so that a typo like `bfs:hl` does not
/// silently measure plain BFS.
pub fn parse(text: &str) -> Result<Config, ConfigError> {
    let lower = text.trim().to_ascii_lowercase();
    let bad = |why: String| ConfigError {
        text: text.to_string(),
        why,
    };
    if lower.is_empty() {
        return Err(bad(
            "empty; expected ORDER[:HEURISTIC][+ENHANCEMENT], e.g. `greedy:hl+ut`".into(),
        ));
    }
    let (head, enh) = match lower.split_once('+') {
        Some((h, e)) => (h, Some(e)),
        None => (lower.as_str(), None),
    };
    let (order_text, heur) = match head.split_once(':') {
        Some((o, h)) => (o, Some(h)),
        None => (head, None),
    };
    let search: SearchOrder = order_text.parse().map_err(|e: ConfigError| bad(e.why))?;
    let heuristic = match heur {
        None => None,
        Some(h) => Some(h.parse().map_err(|e: ConfigError| bad(e.why))?),
    };
    let parts: Vec<&str> = enh.map(|e| e.split('+').collect()).unwrap_or_default();
    from_parts(search, heuristic, &parts).map_err(|why| bad(why.why))
}

/// A configuration from its parts, with the rules of [`parse`]: the order,
/// the heuristic if one is given, and the names that follow `+`.
pub fn from_parts(
    search: SearchOrder,
    heuristic: Option<HeuristicKind>,
    parts: &[&str],
) -> Result<Config, ConfigError> {
    let text = {
        let mut t = search.name().to_string();
        if let Some(h) = heuristic {
            t = format!("{t}:{}", h.name());
        }
        for p in parts {
            t = format!("{t}+{p}");
        }
        t
    };
    let bad = |why: String| ConfigError {
        text: text.clone(),
        why,
    };
    let order_text = search.name();
    let mut enhance = Enhance::None;
    let mut safe_abstraction = false;
    let mut ties = Ties::Fifo;
    for &e in parts {
        if e == LIFO {
            if ties == Ties::Lifo {
                return Err(bad("`lifo` is given twice".into()));
            }
            ties = Ties::Lifo;
            continue;
        }
        if e == SAFE {
            if safe_abstraction {
                return Err(bad("`safe` is given twice".into()));
            }
            safe_abstraction = true;
            continue;
        }
        let this = Enhance::ORDERING
            .into_iter()
            .find(|o| o.name() == Some(e))
            .ok_or_else(|| {
                bad(format!(
                    "unknown enhancement `{e}` (expected one of {})",
                    enhancements()
                ))
            })?;
        if let Some(previous) = enhance.name() {
            return Err(bad(format!(
                "`{previous}` and `{e}` both order the frontier and cannot be combined (only `safe` combines with one of them)"
            )));
        }
        enhance = this;
    }
    let guided = search.is_guided();
    let rest = parts.iter().map(|p| format!("+{p}")).collect::<String>();
    if ties == Ties::Lifo && !guided {
        return Err(bad(format!(
            "`lifo` breaks ties between equal priorities, which only `greedy` and `astar` have (`{order_text}` has none)"
        )));
    }
    if (guided || enhance == Enhance::UselessTransitions) && heuristic.is_none() {
        return Err(bad(format!(
            "`{order_text}`{} needs a heuristic, e.g. `{order_text}:hl{rest}`",
            if guided {
                ""
            } else {
                " with useless transitions"
            },
        )));
    }
    if !guided && enhance != Enhance::UselessTransitions && heuristic.is_some() {
        return Err(bad(format!(
            "`{order_text}` does not use a heuristic; write `{order_text}`{}",
            if rest.is_empty() {
                String::new()
            } else {
                format!(" or `{order_text}{rest}`")
            }
        )));
    }
    Ok(Config {
        search,
        heuristic: heuristic.unwrap_or(HeuristicKind::Zero),
        enhance,
        safe_abstraction,
        ties,
    })
}

/// Parses a comma-separated list of configurations.
pub fn parse_list(text: &str) -> Result<Vec<Config>, ConfigError> {
    text.split(',').map(parse).collect()
}

impl FromStr for Config {
    type Err = ConfigError;
    fn from_str(text: &str) -> Result<Config, ConfigError> {
        parse(text)
    }
}

impl TryFrom<String> for Config {
    type Error = ConfigError;
    fn try_from(text: String) -> Result<Config, ConfigError> {
        parse(&text)
    }
}

impl From<Config> for String {
    fn from(c: Config) -> String {
        c.to_string()
    }
}

impl fmt::Display for Config {
    /// The canonical spelling: what [`parse`] reads back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.search.name())?;
        if self.uses_heuristic() {
            write!(f, ":{}", self.heuristic.name())?;
        }
        if let Some(e) = self.enhance.name() {
            write!(f, "+{e}")?;
        }
        if self.safe_abstraction {
            write!(f, "+{SAFE}")?;
        }
        if self.ties == Ties::Lifo {
            write!(f, "+{LIFO}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_ENHANCEMENTS: [Enhance; 5] = [
        Enhance::None,
        Enhance::UselessTransitions,
        Enhance::InterferenceContexts,
        Enhance::ContextBoundingProcesses,
        Enhance::ContextBoundingInterference,
    ];

    #[test]
    fn examples_parse_to_what_they_say() {
        assert_eq!(
            parse("greedy:hl+ut"),
            Ok(Config {
                search: SearchOrder::Greedy,
                heuristic: HeuristicKind::HL,
                enhance: Enhance::UselessTransitions,
                safe_abstraction: false,
                ties: Ties::Fifo,
            })
        );
        assert_eq!(
            parse("bfs+ce"),
            Ok(Config {
                search: SearchOrder::Bfs,
                heuristic: HeuristicKind::Zero,
                enhance: Enhance::InterferenceContexts,
                safe_abstraction: false,
                ties: Ties::Fifo,
            })
        );
        assert_eq!(
            parse(" AStar:HL "),
            Ok(Config {
                search: SearchOrder::AStar,
                heuristic: HeuristicKind::HL,
                enhance: Enhance::None,
                safe_abstraction: false,
                ties: Ties::Fifo,
            })
        );
        assert_eq!(
            parse("greedy:hcg+safe+ut"),
            Ok(Config {
                search: SearchOrder::Greedy,
                heuristic: HeuristicKind::HCG,
                enhance: Enhance::UselessTransitions,
                safe_abstraction: true,
                ties: Ties::Fifo,
            })
        );
        assert_eq!(
            parse("greedy:hl+lifo+ut"),
            Ok(Config {
                search: SearchOrder::Greedy,
                heuristic: HeuristicKind::HL,
                enhance: Enhance::UselessTransitions,
                safe_abstraction: false,
                ties: Ties::Lifo,
            })
        );
        assert_eq!(parse_list("bfs,greedy:du+ibp").map(|l| l.len()), Ok(2));
    }

    /// Every configuration the checker accepts prints to a string that
    /// parses back to it; the blind orders carry a heuristic only for
    /// useless transitions, so other combinations are not configurations.
    #[test]
    fn every_configuration_round_trips() {
        let mut n = 0;
        for search in SearchOrder::ALL {
            for heuristic in HeuristicKind::ALL {
                for enhance in ALL_ENHANCEMENTS {
                    let guided = matches!(search, SearchOrder::Greedy | SearchOrder::AStar)
                        || enhance == Enhance::UselessTransitions;
                    if !guided && heuristic != HeuristicKind::Zero {
                        continue;
                    }
                    let ties: &[Ties] = if guided_order(search) {
                        &[Ties::Fifo, Ties::Lifo]
                    } else {
                        &[Ties::Fifo]
                    };
                    for (safe_abstraction, &ties) in [false, true]
                        .into_iter()
                        .flat_map(|s| ties.iter().map(move |t| (s, t)))
                    {
                        let c = Config {
                            search,
                            heuristic,
                            enhance,
                            safe_abstraction,
                            ties,
                        };
                        assert_eq!(parse(&c.to_string()), Ok(c), "{c}");
                        n += 1;
                    }
                }
            }
        }
        // 3 blind orders x 4 enhancements without UT, plus 7 heuristics
        // with UT; 2 guided orders x 7 heuristics x 5 enhancements, each
        // with both ties; all with and without safe abstraction.
        assert_eq!(n, 2 * (3 * (4 + 7) + 2 * 7 * 5 * 2));
    }

    fn guided_order(o: SearchOrder) -> bool {
        matches!(o, SearchOrder::Greedy | SearchOrder::AStar)
    }

    #[test]
    fn serde_reads_and_writes_the_spelling() {
        let c: Config = serde_json::from_str("\"greedy:hl+ut+safe\"").unwrap();
        assert_eq!(c, parse("greedy:hl+ut+safe").unwrap());
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"greedy:hl+ut+safe\"");
        let e = serde_json::from_str::<Config>("\"bfs:hl\"").unwrap_err();
        assert!(e.to_string().contains("does not use a heuristic"), "{e}");
        assert_eq!("astar:du".parse::<Config>(), parse("astar:du"));
    }

    #[test]
    fn names_parse_back_and_unknown_ones_list_the_known() {
        for o in SearchOrder::ALL {
            assert_eq!(o.name().parse::<SearchOrder>(), Ok(o));
        }
        for h in HeuristicKind::ALL {
            assert_eq!(h.name().parse::<HeuristicKind>(), Ok(h));
        }
        let e = "h?".parse::<HeuristicKind>().unwrap_err().to_string();
        assert!(
            e.contains("expected one of zero, dl, du, hl, hu, hcg, pdb"),
            "{e}"
        );
        // Exactly the names: no other case, no aliases.
        assert!("BFS".parse::<SearchOrder>().is_err());
        assert!("random-dfs".parse::<SearchOrder>().is_err());
    }

    /// A goal with `deadlock` has nothing for a heuristic to measure:
    /// best-first becomes breadth-first; blind orders are left alone, and
    /// useless transitions keep the heuristic their test needs.
    #[test]
    fn deadlock_goals_are_searched_breadth_first() {
        let deadlock = Formula::Not(Box::new(Formula::Deadlock));
        let plain = Formula::True;
        let c = |s: &str| parse(s).unwrap();
        assert_eq!(c("greedy:hu").for_goal(&deadlock), c("bfs"));
        assert_eq!(c("greedy:hu").for_goal(&plain), c("greedy:hu"));
        assert_eq!(c("astar:hl+lifo+safe").for_goal(&deadlock), c("bfs+safe"));
        assert_eq!(c("greedy:hl+ut").for_goal(&deadlock), c("bfs:hl+ut"));
        assert_eq!(c("dfs+ce").for_goal(&deadlock), c("dfs+ce"));
    }

    #[test]
    fn plain_drops_the_heuristic_of_blind_orders() {
        assert_eq!(
            Config::plain(SearchOrder::Bfs, HeuristicKind::HU).to_string(),
            "bfs"
        );
        assert_eq!(
            Config::plain(SearchOrder::AStar, HeuristicKind::HU).to_string(),
            "astar:hu"
        );
    }

    #[test]
    fn bad_strings_say_what_is_wrong() {
        let err = |s: &str| parse(s).unwrap_err().to_string();
        assert!(err("").contains("empty"));
        assert!(err("sideways").contains("unknown search order `sideways`"));
        assert!(err("greedy:hx").contains("unknown heuristic `hx`"));
        assert!(err("greedy:hl+zz").contains("unknown enhancement `zz`"));
        assert!(err("greedy:hl+ut+ce").contains("cannot be combined"));
        assert!(err("bfs+safe+safe").contains("given twice"));
        assert!(err("greedy:hl+lifo+lifo").contains("`lifo` is given twice"));
        assert!(err("bfs+lifo").contains("only `greedy` and `astar`"));
        assert!(err("dfs+ce+lifo").contains("only `greedy` and `astar`"));
        assert!(err("greedy").contains("needs a heuristic"));
        assert!(err("astar+ce").contains("`astar:hl+ce`"));
        assert!(err("bfs+ut").contains("with useless transitions needs a heuristic"));
        assert!(err("bfs:hl").contains("does not use a heuristic"));
        assert!(err("greedy:").contains("unknown heuristic ``"));
        assert!(parse_list("bfs,,greedy:hl").is_err());
    }
}
