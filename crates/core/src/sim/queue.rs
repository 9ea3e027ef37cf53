//! The event queue: timers that fall due in virtual time (probe periods, back-offs, grace periods).
//!
//! Ordered by (due time, insertion sequence), so two timers due at the same millisecond always
//! fire in the order they were set — one of the things that makes a trace reproducible.

use super::time::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A timer: fires `item` at `due`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Entry<T: Ord> {
    due: SimTime,
    seq: u64,
    item: T,
}

/// A min-heap of timers keyed by due time, then insertion order.
#[derive(Debug, Clone)]
pub struct EventQueue<T: Ord> {
    heap: BinaryHeap<Reverse<Entry<T>>>,
    next_seq: u64,
}

impl<T: Ord> Default for EventQueue<T> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), next_seq: 0 }
    }
}

impl<T: Ord> EventQueue<T> {
    pub fn schedule(&mut self, due: SimTime, item: T) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Entry { due, seq, item }));
    }

    /// When the next timer falls due, if any.
    pub fn next_due(&self) -> Option<SimTime> {
        self.heap.peek().map(|Reverse(e)| e.due)
    }

    /// Removes and returns the earliest timer if it is due at or before `now`.
    pub fn pop_due(&mut self, now: SimTime) -> Option<(SimTime, T)> {
        if self.next_due()? > now {
            return None;
        }
        self.heap.pop().map(|Reverse(e)| (e.due, e.item))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_in_time_order_then_insertion_order() {
        let mut q = EventQueue::default();
        q.schedule(SimTime(20), "b");
        q.schedule(SimTime(10), "z");
        q.schedule(SimTime(20), "a");
        assert_eq!(q.pop_due(SimTime(5)), None);
        let fired: Vec<_> = std::iter::from_fn(|| q.pop_due(SimTime(20))).map(|(_, i)| i).collect();
        assert_eq!(fired, ["z", "b", "a"]);
    }
}
