//! Search configurations as short strings, the way the benchmark tables name
//! them: `ORDER[:HEURISTIC][+ENHANCEMENT][+safe][+lifo]`, e.g. `bfs`,
//! `greedy:hl`, `greedy:hl+ut`, `astar:hl`, `bfs+ce`, `greedy:du+ibp`,
//! `greedy:hcg+safe`, `greedy:hl+ut+lifo` (`lifo`: best-first ties go to the
//! newest state, see [`Ties`]).
//! `zeno bench` and `zeno check --portfolio-configs` read them, and the
//! portfolio names its entries with them.
//!
//! Each part is one `match`: a new heuristic or enhancement of the checker
//! becomes available here by adding one arm to `heuristic` / `enhancement`
//! and one to the matching `*_name` function (the round-trip test checks
//! that the two agree).

use std::fmt;

use super::{Enhance, HeuristicKind, Options, SearchOrder, Ties};

/// One search configuration: order, heuristic, frontier enhancement,
/// whether safe abstraction reduces the network first, and how the
/// best-first orders break ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    pub search: SearchOrder,
    pub heuristic: HeuristicKind,
    pub enhance: Enhance,
    pub safe_abstraction: bool,
    pub ties: Ties,
}

impl Config {
    /// Checker options for this configuration (limits and seed left at
    /// their defaults).
    pub fn options(&self) -> Options {
        Options {
            search: self.search,
            heuristic: self.heuristic,
            enhance: self.enhance,
            safe_abstraction: self.safe_abstraction,
            ties: self.ties,
            ..Options::default()
        }
    }
}

/// The search orders, in the spelling of `zeno check --search`.
const ORDERS: &str = "bfs, dfs, rdfs, greedy, astar";
const HEURISTICS: &str = "zero, dl, du, hl, hu, hcg, pdb";
const ENHANCEMENTS: &str = "ut, ce, ibp, ibi, safe, lifo";

fn order(name: &str) -> Option<SearchOrder> {
    Some(match name {
        "bfs" => SearchOrder::Bfs,
        "dfs" => SearchOrder::Dfs,
        "rdfs" => SearchOrder::RandomDfs,
        "greedy" => SearchOrder::Greedy,
        "astar" => SearchOrder::AStar,
        _ => return None,
    })
}

fn order_name(o: SearchOrder) -> &'static str {
    match o {
        SearchOrder::Bfs => "bfs",
        SearchOrder::Dfs => "dfs",
        SearchOrder::RandomDfs => "rdfs",
        SearchOrder::Greedy => "greedy",
        SearchOrder::AStar => "astar",
    }
}

fn heuristic(name: &str) -> Option<HeuristicKind> {
    Some(match name {
        "zero" => HeuristicKind::Zero,
        "dl" => HeuristicKind::DL,
        "du" => HeuristicKind::DU,
        "hl" => HeuristicKind::HL,
        "hu" => HeuristicKind::HU,
        "hcg" => HeuristicKind::HCG,
        "pdb" => HeuristicKind::Pdb,
        _ => return None,
    })
}

fn heuristic_name(h: HeuristicKind) -> &'static str {
    match h {
        HeuristicKind::Zero => "zero",
        HeuristicKind::DL => "dl",
        HeuristicKind::DU => "du",
        HeuristicKind::HL => "hl",
        HeuristicKind::HU => "hu",
        HeuristicKind::HCG => "hcg",
        HeuristicKind::Pdb => "pdb",
    }
}

fn enhancement(name: &str) -> Option<Enhance> {
    Some(match name {
        "ut" => Enhance::UselessTransitions,
        "ce" => Enhance::InterferenceContexts,
        "ibp" => Enhance::ContextBoundingProcesses,
        "ibi" => Enhance::ContextBoundingInterference,
        _ => return None,
    })
}

fn enhancement_name(e: Enhance) -> Option<&'static str> {
    match e {
        Enhance::None => None,
        Enhance::UselessTransitions => Some("ut"),
        Enhance::InterferenceContexts => Some("ce"),
        Enhance::ContextBoundingProcesses => Some("ibp"),
        Enhance::ContextBoundingInterference => Some("ibi"),
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
pub fn parse(text: &str) -> Result<Config, String> {
    let lower = text.trim().to_ascii_lowercase();
    let bad = |why: String| format!("invalid configuration `{text}`: {why}");
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
    let search = order(order_text).ok_or_else(|| {
        bad(format!(
            "unknown search order `{order_text}` (expected one of {ORDERS})"
        ))
    })?;
    let heuristic = match heur {
        None => HeuristicKind::Zero,
        Some(h) => heuristic(h).ok_or_else(|| {
            bad(format!(
                "unknown heuristic `{h}` (expected one of {HEURISTICS})"
            ))
        })?,
    };
    let mut enhance = Enhance::None;
    let mut safe_abstraction = false;
    let mut ties = Ties::Fifo;
    for e in enh
        .map(|e| e.split('+').collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if e == "lifo" {
            if ties == Ties::Lifo {
                return Err(bad("`lifo` is given twice".into()));
            }
            ties = Ties::Lifo;
            continue;
        }
        if e == "safe" {
            if safe_abstraction {
                return Err(bad("`safe` is given twice".into()));
            }
            safe_abstraction = true;
            continue;
        }
        let this = enhancement(e).ok_or_else(|| {
            bad(format!(
                "unknown enhancement `{e}` (expected one of {ENHANCEMENTS})"
            ))
        })?;
        if enhance != Enhance::None {
            return Err(bad(format!(
                "`{}` and `{e}` both order the frontier and cannot be combined (only `safe` combines with one of them)",
                enhancement_name(enhance).unwrap_or_default()
            )));
        }
        enhance = this;
    }
    let guided = matches!(search, SearchOrder::Greedy | SearchOrder::AStar);
    if ties == Ties::Lifo && !guided {
        return Err(bad(format!(
            "`lifo` breaks ties between equal priorities, which only `greedy` and `astar` have (`{order_text}` has none)"
        )));
    }
    if (guided || enhance == Enhance::UselessTransitions) && heur.is_none() {
        return Err(bad(format!(
            "`{order_text}`{} needs a heuristic, e.g. `{order_text}:hl{}`",
            if guided {
                ""
            } else {
                " with useless transitions"
            },
            enh.map(|e| format!("+{e}")).unwrap_or_default()
        )));
    }
    if !guided && enhance != Enhance::UselessTransitions && heur.is_some() {
        return Err(bad(format!(
            "`{order_text}` does not use a heuristic; write `{order_text}`{}",
            enh.map(|e| format!(" or `{order_text}+{e}`"))
                .unwrap_or_default()
        )));
    }
    Ok(Config {
        search,
        heuristic,
        enhance,
        safe_abstraction,
        ties,
    })
}

/// Parses a comma-separated list of configurations.
pub fn parse_list(text: &str) -> Result<Vec<Config>, String> {
    text.split(',').map(parse).collect()
}

impl fmt::Display for Config {
    /// The canonical spelling: what [`parse`] reads back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(order_name(self.search))?;
        let guided = matches!(self.search, SearchOrder::Greedy | SearchOrder::AStar);
        if guided || self.enhance == Enhance::UselessTransitions {
            write!(f, ":{}", heuristic_name(self.heuristic))?;
        }
        if let Some(e) = enhancement_name(self.enhance) {
            write!(f, "+{e}")?;
        }
        if self.safe_abstraction {
            f.write_str("+safe")?;
        }
        if self.ties == Ties::Lifo {
            f.write_str("+lifo")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_ORDERS: [SearchOrder; 5] = [
        SearchOrder::Bfs,
        SearchOrder::Dfs,
        SearchOrder::RandomDfs,
        SearchOrder::Greedy,
        SearchOrder::AStar,
    ];
    const ALL_HEURISTICS: [HeuristicKind; 7] = [
        HeuristicKind::Zero,
        HeuristicKind::DL,
        HeuristicKind::DU,
        HeuristicKind::HL,
        HeuristicKind::HU,
        HeuristicKind::HCG,
        HeuristicKind::Pdb,
    ];
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
        for search in ALL_ORDERS {
            for heuristic in ALL_HEURISTICS {
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
    fn bad_strings_say_what_is_wrong() {
        let err = |s: &str| parse(s).unwrap_err();
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
