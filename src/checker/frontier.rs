//! The frontier of the search: states waiting to be expanded, in the order
//! of the chosen search strategy. Priorities are used by the best-first
//! orders only; ties are broken first-in first-out.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Something that hands out state ids in some order.
pub trait Queue {
    /// Adds a state; `priority` is ignored by the blind orders (lower is better).
    fn push(&mut self, id: u32, priority: u64);
    fn pop(&mut self) -> Option<u32>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes held (for the memory figures).
    fn bytes(&self) -> usize;
}

pub enum Frontier {
    Fifo(VecDeque<u32>),
    Lifo(Vec<u32>),
    Best {
        heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
        seq: u64,
    },
}

impl Frontier {
    pub fn fifo() -> Frontier {
        Frontier::Fifo(VecDeque::new())
    }
    pub fn lifo() -> Frontier {
        Frontier::Lifo(Vec::new())
    }
    pub fn best_first() -> Frontier {
        Frontier::Best {
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }
}

impl Queue for Frontier {
    fn push(&mut self, id: u32, priority: u64) {
        match self {
            Frontier::Fifo(q) => q.push_back(id),
            Frontier::Lifo(s) => s.push(id),
            Frontier::Best { heap, seq } => {
                *seq += 1;
                heap.push(Reverse((priority, *seq, id)));
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
}
