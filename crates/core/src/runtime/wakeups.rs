//! Keys a controller wants to look at again at a given virtual time: client-go's
//! `AddAfter` on a delaying work queue, without the goroutine.

use crate::sim::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wakeups<K: Ord + Clone> {
    due: BTreeMap<SimTime, BTreeSet<K>>,
}

impl<K: Ord + Clone> Default for Wakeups<K> {
    fn default() -> Self {
        Wakeups { due: BTreeMap::new() }
    }
}

impl<K: Ord + Clone> Wakeups<K> {
    /// Asks to see `key` again at `at`.
    pub fn add_at(&mut self, at: SimTime, key: K) {
        self.due.entry(at).or_default().insert(key);
    }

    /// Removes and returns every key due at or before `now`, earliest first, each once.
    pub fn take_due(&mut self, now: SimTime) -> Vec<K> {
        let later = self.due.split_off(&SimTime(now.0.saturating_add(1)));
        let due = std::mem::replace(&mut self.due, later);
        let mut seen = BTreeSet::new();
        due.into_values().flatten().filter(|k| seen.insert(k.clone())).collect()
    }

    /// `take_due` for at most `limit` keys (earliest first); the rest stay due. A controller
    /// that 150,000 pods wake at one instant takes them a batch at a time.
    pub fn take_due_at_most(&mut self, now: SimTime, limit: usize) -> BTreeSet<K> {
        let mut taken = BTreeSet::new();
        while taken.len() < limit {
            let Some(mut earliest) = self.due.first_entry() else { break };
            if *earliest.key() > now {
                break;
            }
            let keys = earliest.get_mut();
            while taken.len() < limit
                && let Some(key) = keys.pop_first()
            {
                taken.insert(key);
            }
            if keys.is_empty() {
                earliest.remove();
            }
        }
        taken
    }

    /// Whether some key is due at or before `now`.
    pub fn any_due(&self, now: SimTime) -> bool {
        self.next().is_some_and(|at| at <= now)
    }

    pub fn next(&self) -> Option<SimTime> {
        self.due.keys().next().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.due.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_what_is_due_once_in_time_order() {
        let mut w = Wakeups::default();
        w.add_at(SimTime(3000), "b");
        w.add_at(SimTime(1000), "a");
        w.add_at(SimTime(2000), "b");
        w.add_at(SimTime(9000), "c");
        assert_eq!(w.take_due(SimTime(3000)), vec!["a", "b"]);
        assert_eq!(w.next(), Some(SimTime(9000)));
        assert!(w.take_due(SimTime(8999)).is_empty());
    }

    #[test]
    fn takes_a_batch_of_what_is_due_and_leaves_the_rest_due() {
        let mut w = Wakeups::default();
        for (at, key) in [(1000, "d"), (1000, "a"), (2000, "b"), (2000, "a"), (5000, "c")] {
            w.add_at(SimTime(at), key);
        }
        assert_eq!(w.take_due_at_most(SimTime(3000), 2).into_iter().collect::<Vec<_>>(), vec!["a", "d"]);
        assert!(w.any_due(SimTime(3000)));
        assert_eq!(w.take_due_at_most(SimTime(3000), 2).into_iter().collect::<Vec<_>>(), vec!["a", "b"]);
        assert!(!w.any_due(SimTime(3000)));
        assert_eq!(w.next(), Some(SimTime(5000)));
    }
}
