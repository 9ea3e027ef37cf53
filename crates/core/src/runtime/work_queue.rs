//! A controller's keys to sync, worked through in batches: client-go's workqueue, where a key
//! added while a batch is in progress waits for the next batch (and is held once however often
//! it is added). A batch may span calls, so a sync can stop after any key and resume.

use super::wakeups::Wakeups;
use crate::store::Store;
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkQueue<K: Ord> {
    /// Added since the current batch began.
    dirty: BTreeSet<K>,
    /// The batch in progress.
    batch: BTreeSet<K>,
}

impl<K: Ord> Default for WorkQueue<K> {
    fn default() -> Self {
        WorkQueue { dirty: BTreeSet::new(), batch: BTreeSet::new() }
    }
}

impl<K: Ord> WorkQueue<K> {
    pub fn add(&mut self, key: K) {
        self.dirty.insert(key);
    }

    /// Takes the next key of the batch (client-go's `Get`); once the batch is done, the next
    /// begins with what was added meanwhile. `None` when both are empty.
    pub fn pop(&mut self) -> Option<K> {
        if self.batch.is_empty() {
            self.batch = std::mem::take(&mut self.dirty);
        }
        self.batch.pop_first()
    }

    pub fn is_empty(&self) -> bool {
        self.batch.is_empty() && self.dirty.is_empty()
    }
}

impl<K: Ord> Extend<K> for WorkQueue<K> {
    fn extend<I: IntoIterator<Item = K>>(&mut self, keys: I) {
        self.dirty.extend(keys);
    }
}

/// A controller worked one key at a time from a `WorkQueue` (client-go's `processNextWorkItem`
/// loop): the Deployment and ReplicaSet controllers.
pub trait QueueWorker {
    type Key: Ord + Clone;

    fn parts(&mut self) -> (&mut WorkQueue<Self::Key>, &mut Wakeups<Self::Key>);

    /// The informer: queues what changed since the controller's cursor.
    fn collect_changes(&mut self, store: &Store);

    fn sync_key(&mut self, store: &mut Store, key: Self::Key);

    fn sync(&mut self, store: &mut Store) {
        let mut unlimited = usize::MAX;
        self.sync_some(store, &mut unlimited, true);
    }

    /// `sync` in parts, one key per unit of `budget`; true when the batch is done. A turn's first
    /// call (`turn_start`, see `Controllers::take_turn`) hears what changed and what fell due;
    /// later calls go on where the last one stopped.
    fn sync_some(&mut self, store: &mut Store, budget: &mut usize, turn_start: bool) -> bool {
        if turn_start {
            self.collect_changes(store);
            let (queue, wakeups) = self.parts();
            queue.extend(wakeups.take_due(store.now()));
        }
        while *budget > 0 {
            let Some(key) = self.parts().0.pop() else { return true };
            *budget -= 1;
            self.sync_key(store, key);
        }
        self.parts().0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_added_mid_batch_wait_for_the_next_batch() {
        let mut queue = WorkQueue::default();
        queue.extend(["b", "a"]);
        assert_eq!(queue.pop(), Some("a"));
        queue.add("0");
        queue.add("b");
        assert_eq!(queue.pop(), Some("b"), "the batch goes on in order");
        assert_eq!(queue.pop(), Some("0"), "then the next batch");
        assert_eq!(queue.pop(), Some("b"));
        assert!(queue.is_empty());
        assert_eq!(queue.pop(), None);
    }
}
