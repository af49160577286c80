//! What a search order decides, apart from the loop itself: the frontier,
//! when a state is tested against the goal, which stored zones may cover a
//! new one, and a state's priority from its depth and heuristic value.

use super::super::frontier::{Frontier, MultiQueue, Ties};
use super::super::store::Subsumption;
use super::super::{Options, SearchOrder};

/// Priority of states the heuristic declares dead ends: explored last, but
/// still explored, since a model error may be reachable from them.
const DEAD_END: u32 = u32::MAX / 4;

pub(super) struct OrderPolicy {
    order: SearchOrder,
    ties: Ties,
    /// Greedy and A*: the frontier is ordered by the heuristic.
    pub guided: bool,
    /// Goal at generation is earliest for blind orders; A* must test at
    /// expansion for its traces to be shortest.
    pub goal_at_pop: bool,
    pub subsumption: Subsumption,
}

impl OrderPolicy {
    pub fn new(options: &Options) -> OrderPolicy {
        let order = options.config.search;
        OrderPolicy {
            order,
            ties: options.config.ties,
            guided: order.is_guided(),
            goal_at_pop: order == SearchOrder::AStar,
            subsumption: match order {
                SearchOrder::Bfs => Subsumption::NoDeeperUnlessExpanded,
                SearchOrder::AStar => Subsumption::NoDeeper,
                _ => Subsumption::Any,
            },
        }
    }

    /// An empty frontier for the order.
    pub fn frontier(&self) -> MultiQueue {
        MultiQueue::new(match self.order {
            SearchOrder::Bfs => Frontier::fifo,
            SearchOrder::Dfs | SearchOrder::RandomDfs => Frontier::lifo,
            SearchOrder::Greedy | SearchOrder::AStar => match self.ties {
                Ties::Fifo => Frontier::best_first,
                Ties::Lifo => Frontier::best_first_lifo,
            },
        })
    }

    /// Whether successors are shuffled before they are pushed.
    pub fn shuffles(&self) -> bool {
        self.order == SearchOrder::RandomDfs
    }

    /// The frontier priority of a state at depth `g` whose heuristic value
    /// is `h` (`None`: a dead end).
    pub fn priority(&self, g: u32, h: Option<u32>) -> u64 {
        let h = h.unwrap_or(DEAD_END) as u64;
        match self.order {
            SearchOrder::AStar => ((g as u64 + h) << 32) | h,
            _ if self.guided => h,
            _ => 0,
        }
    }
}
