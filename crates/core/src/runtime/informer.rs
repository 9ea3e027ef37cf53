//! An informer: a reader's position in the watch log, and what to do when the log no longer
//! reaches back to it. client-go's reflector watches from a resourceVersion; when the API
//! server answers `410 Gone` ("too old resource version") it lists everything again and watches
//! from there. Every consumer of the watch log reads through one of these, so none can skip
//! the writes it fell behind on: it is told to relist instead.

use crate::store::Store;
use crate::store::watch::WatchEvent;

/// What a poll found.
#[derive(Debug)]
pub enum Changes<'s> {
    /// Every write since the last poll, oldest first.
    Events(std::collections::vec_deque::Iter<'s, WatchEvent>),
    /// The log was compacted past this reader: it must treat every object as changed (and
    /// anything it remembers that no longer exists as deleted).
    Relist,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Informer {
    /// The store's resourceVersion at the last poll.
    cursor: u64,
    relists: u64,
}

impl Informer {
    /// An informer that starts from the store as it is now, as after a list.
    pub fn from_now(store: &Store) -> Informer {
        Informer { cursor: store.resource_version(), relists: 0 }
    }

    /// The writes since the last poll, or `Relist`; either way the informer is then caught up.
    pub fn poll<'s>(&mut self, store: &'s Store) -> Changes<'s> {
        let changes = match store.watch_log().since(self.cursor) {
            Ok(events) => Changes::Events(events),
            Err(_) => {
                self.relists += 1;
                Changes::Relist
            }
        };
        self.cursor = store.resource_version();
        changes
    }

    /// The reader listed everything itself (its first sync): it watches from here.
    pub fn listed(&mut self, store: &Store) {
        self.cursor = store.resource_version();
    }

    /// Whether a poll would find nothing new.
    pub fn is_caught_up(&self, store: &Store) -> bool {
        self.cursor == store.resource_version()
    }

    /// The resourceVersion this informer has seen through.
    pub fn resource_version(&self) -> u64 {
        self.cursor
    }

    /// How often it had to list everything again because the log had moved on.
    pub fn relists(&self) -> u64 {
        self.relists
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ConfigMap, ObjectMeta};

    fn config_map(store: &mut Store, name: &str) {
        store.create(ConfigMap { metadata: ObjectMeta::named("default", name), ..Default::default() }).unwrap();
    }

    fn names(changes: Changes<'_>) -> Option<Vec<String>> {
        match changes {
            Changes::Events(events) => Some(events.map(|e| e.name.clone()).collect()),
            Changes::Relist => None,
        }
    }

    #[test]
    fn hears_each_write_once_then_nothing() {
        let mut store = Store::new(1);
        let mut informer = Informer::from_now(&store);
        config_map(&mut store, "a");
        config_map(&mut store, "b");
        assert_eq!(names(informer.poll(&store)), Some(vec!["a".into(), "b".into()]));
        assert!(informer.is_caught_up(&store));
        assert_eq!(names(informer.poll(&store)), Some(vec![]));
        assert_eq!(informer.relists(), 0);
    }

    #[test]
    fn relists_when_the_log_has_moved_past_it() {
        let mut store = Store::new(1);
        store.watch_log_mut().set_capacity(2);
        let mut informer = Informer::from_now(&store);
        for name in ["a", "b", "c"] {
            config_map(&mut store, name);
        }
        assert_eq!(names(informer.poll(&store)), None, "a was compacted: relist");
        assert_eq!(informer.relists(), 1);
        config_map(&mut store, "d");
        assert_eq!(names(informer.poll(&store)), Some(vec!["d".into()]), "caught up again after the relist");
    }
}
