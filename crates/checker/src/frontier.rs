//! The frontier of the search: states waiting to be expanded, in the order
//! of the chosen search strategy. Priorities are used by the best-first
//! orders only; how they break ties is [`Ties`].

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Something that hands out state ids in some order.
pub trait Queue {
    /// Adds a state; `priority` is ignored by the blind orders (lower is better).
    fn push(&mut self, id: u32, priority: u64);
    /// The next state, if any.
    fn pop(&mut self) -> Option<u32>;
    /// How many states wait.
    fn len(&self) -> usize;
    /// Whether none waits.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes held (for the memory figures).
    fn bytes(&self) -> usize;
}

/// Which of several states with the same priority a best-first frontier
/// hands out first. The papers do not say what MCTA does; on plateaus of
/// the heuristic first-in first-out behaves like breadth-first search
/// (short traces), last-in first-out like depth-first search (it follows
/// the newest state, as MCTA's long plain-hL traces on Fischer suggest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Ties {
    /// The state pushed first (the default).
    #[default]
    Fifo,
    /// The state pushed last.
    Lifo,
}

/// The frontier of one search order.
pub enum Frontier {
    /// First in, first out (breadth-first search).
    Fifo(VecDeque<u32>),
    /// Last in, first out (depth-first search).
    Lifo(Vec<u32>),
    /// A min-heap on (priority, tie key, id); the tie key counts pushes up
    /// for first-in first-out ties and down for last-in first-out ones.
    Best {
        /// The waiting states.
        heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
        /// Pushes so far (the tie key's source).
        seq: u64,
        /// How ties are broken.
        ties: Ties,
    },
}

impl Frontier {
    /// An empty first-in first-out frontier.
    pub fn fifo() -> Frontier {
        Frontier::Fifo(VecDeque::new())
    }
    /// An empty last-in first-out frontier.
    pub fn lifo() -> Frontier {
        Frontier::Lifo(Vec::new())
    }
    /// Best-first with first-in first-out ties.
    pub fn best_first() -> Frontier {
        Frontier::best_first_with(Ties::Fifo)
    }
    /// Best-first with last-in first-out ties.
    pub fn best_first_lifo() -> Frontier {
        Frontier::best_first_with(Ties::Lifo)
    }
    /// An empty best-first frontier breaking ties by `ties`.
    pub fn best_first_with(ties: Ties) -> Frontier {
        Frontier::Best {
            heap: BinaryHeap::new(),
            seq: 0,
            ties,
        }
    }
}

impl Queue for Frontier {
    fn push(&mut self, id: u32, priority: u64) {
        match self {
            Frontier::Fifo(q) => q.push_back(id),
            Frontier::Lifo(s) => s.push(id),
            Frontier::Best { heap, seq, ties } => {
                *seq += 1;
                let tie = match ties {
                    Ties::Fifo => *seq,
                    Ties::Lifo => u64::MAX - *seq,
                };
                heap.push(Reverse((priority, tie, id)));
            }
        }
    }

    fn pop(&mut self) -> Option<u32> {
        match self {
            Frontier::Fifo(q) => q.pop_front(),
            Frontier::Lifo(s) => s.pop(),
            Frontier::Best { heap, .. } => heap.pop().map(|Reverse((_, _, id))| id),
        }
    }

    fn len(&self) -> usize {
        match self {
            Frontier::Fifo(q) => q.len(),
            Frontier::Lifo(s) => s.len(),
            Frontier::Best { heap, .. } => heap.len(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Frontier::Fifo(q) => q.capacity() * 4,
            Frontier::Lifo(s) => s.capacity() * 4,
            Frontier::Best { heap, .. } => heap.capacity() * 24,
        }
    }
}

/// Several frontiers of one kind, `q_0, q_1, ...`: `pop` serves the lowest
/// non-empty one (thesis Fig. 3.5 with two queues, Fig. 4.3 with many).
/// Queues are created on first use; pushes and pops are counted per queue.
pub struct MultiQueue {
    make: fn() -> Frontier,
    queues: Vec<Frontier>,
    pushes: Vec<u64>,
    pops: Vec<u64>,
    len: usize,
    /// Every queue below this index is empty.
    lowest: usize,
}

impl MultiQueue {
    /// Queues made by `make` as they are first pushed to.
    pub fn new(make: fn() -> Frontier) -> MultiQueue {
        MultiQueue {
            make,
            queues: Vec::new(),
            pushes: Vec::new(),
            pops: Vec::new(),
            len: 0,
            lowest: 0,
        }
    }

    /// Adds state `id` to queue `queue` with `priority`.
    pub fn push_to(&mut self, queue: usize, id: u32, priority: u64) {
        while self.queues.len() <= queue {
            self.queues.push((self.make)());
            self.pushes.push(0);
            self.pops.push(0);
        }
        self.queues[queue].push(id, priority);
        self.pushes[queue] += 1;
        self.len += 1;
        self.lowest = self.lowest.min(queue);
    }

    /// The next state and the queue it came from.
    pub fn pop_from(&mut self) -> Option<(u32, usize)> {
        let k = (self.lowest..self.queues.len()).find(|&k| !self.queues[k].is_empty())?;
        self.lowest = k;
        let id = self.queues[k].pop()?;
        self.pops[k] += 1;
        self.len -= 1;
        Some((id, k))
    }

    /// Pushes per queue, up to the highest queue used.
    pub fn pushes(&self) -> &[u64] {
        &self.pushes
    }

    /// Pops per queue, up to the highest queue used.
    pub fn pops(&self) -> &[u64] {
        &self.pops
    }
}

impl Queue for MultiQueue {
    fn push(&mut self, id: u32, priority: u64) {
        self.push_to(0, id, priority);
    }
    fn pop(&mut self) -> Option<u32> {
        self.pop_from().map(|(id, _)| id)
    }
    fn len(&self) -> usize {
        self.len
    }
    fn bytes(&self) -> usize {
        self.queues.iter().map(Queue::bytes).sum::<usize>() + self.queues.capacity() * 48
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders() {
        let mut f = Frontier::fifo();
        let mut l = Frontier::lifo();
        let mut b = Frontier::best_first();
        for (id, prio) in [(1, 5), (2, 3), (3, 5), (4, 1)] {
            f.push(id, prio);
            l.push(id, prio);
            b.push(id, prio);
        }
        let drain = |q: &mut Frontier| std::iter::from_fn(|| q.pop()).collect::<Vec<_>>();
        assert_eq!(drain(&mut f), [1, 2, 3, 4]);
        assert_eq!(drain(&mut l), [4, 3, 2, 1]);
        // Lowest priority first, ties in insertion order.
        assert_eq!(drain(&mut b), [4, 2, 1, 3]);
    }

    /// Ties among equal priorities, with pushes and pops interleaved: the
    /// newest of the best states comes first under `Lifo`, the oldest under
    /// `Fifo`; a better priority still wins over any tie.
    #[test]
    fn ties_break_by_age() {
        let mut fifo = Frontier::best_first_with(Ties::Fifo);
        let mut lifo = Frontier::best_first_with(Ties::Lifo);
        let order = |q: &mut Frontier| {
            let mut out = Vec::new();
            for (id, prio) in [(1, 2), (2, 2), (3, 7)] {
                q.push(id, prio);
            }
            out.push(q.pop().unwrap());
            for (id, prio) in [(4, 2), (5, 2), (6, 1)] {
                q.push(id, prio);
            }
            out.extend(std::iter::from_fn(|| q.pop()));
            out
        };
        assert_eq!(order(&mut fifo), [1, 6, 2, 4, 5, 3]);
        assert_eq!(order(&mut lifo), [2, 6, 5, 4, 1, 3]);
    }

    #[test]
    fn multi_queue_serves_the_lowest_non_empty_queue() {
        let mut m = MultiQueue::new(Frontier::best_first);
        m.push_to(2, 1, 0);
        m.push_to(0, 2, 9);
        m.push_to(2, 3, 0);
        m.push_to(0, 4, 1);
        assert_eq!(m.len(), 4);
        assert_eq!(m.pop_from(), Some((4, 0)));
        m.push_to(1, 5, 7);
        let rest: Vec<_> = std::iter::from_fn(|| m.pop_from()).collect();
        // Queue 0 by priority, then queue 1, then queue 2 in insertion order.
        assert_eq!(rest, [(2, 0), (5, 1), (1, 2), (3, 2)]);
        assert_eq!(m.pushes(), [2, 1, 2]);
        assert_eq!(m.pops(), [2, 1, 2]);
        assert!(m.is_empty());
    }
}
