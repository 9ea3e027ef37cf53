//! One kind's objects, by namespace then name (both sorted: iteration order is defined).
//!
//! Each object sits behind its own `Arc` and is its own key (ordered by `metadata.name`): a
//! B-tree leaf holds one pointer per entry rather than a name plus a whole Pod (1,100 bytes,
//! with a third of a leaf's slots empty on average), and a copy of the store (the timeline's
//! snapshots) shares every object until one of them is written.

use crate::api::Resource;
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Table<T> {
    by_namespace: BTreeMap<String, BTreeSet<ByName<T>>>,
    len: usize,
}

/// A stored object, ordered and looked up by its name.
#[derive(Clone, Debug)]
struct ByName<T>(Arc<T>);

impl<T: Resource> ByName<T> {
    fn name(&self) -> &str {
        &self.0.metadata().name
    }
}

impl<T: Resource> Borrow<str> for ByName<T> {
    fn borrow(&self) -> &str {
        self.name()
    }
}

impl<T: Resource> PartialEq for ByName<T> {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl<T: Resource> Eq for ByName<T> {}

impl<T: Resource> PartialOrd for ByName<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Resource> Ord for ByName<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table { by_namespace: BTreeMap::new(), len: 0 }
    }
}

impl<T: Resource> Table<T> {
    pub fn get(&self, namespace: &str, name: &str) -> Option<&T> {
        self.by_namespace.get(namespace)?.get(name).map(|entry| &*entry.0)
    }

    /// The stored object itself, shared: a handle that outlives borrows of the store, at the
    /// cost of a reference count rather than a deep copy.
    pub fn get_shared(&self, namespace: &str, name: &str) -> Option<Arc<T>> {
        self.by_namespace.get(namespace)?.get(name).map(|entry| entry.0.clone())
    }

    /// Inserts or replaces the object under its own namespace and name.
    pub fn insert(&mut self, object: T) {
        self.insert_shared(Arc::new(object));
    }

    /// `insert` for an object the caller keeps a handle to.
    pub fn insert_shared(&mut self, object: Arc<T>) {
        let entry = ByName(object);
        let namespace = entry.0.metadata().namespace.as_str();
        let replaced = match self.by_namespace.get_mut(namespace) {
            Some(names) => names.replace(entry).is_some(),
            None => {
                self.by_namespace.insert(namespace.to_string(), BTreeSet::from([entry]));
                false
            }
        };
        if !replaced {
            self.len += 1;
        }
    }

    pub fn remove(&mut self, namespace: &str, name: &str) -> Option<T> {
        let names = self.by_namespace.get_mut(namespace)?;
        let removed = names.take(name);
        if names.is_empty() {
            self.by_namespace.remove(namespace);
        }
        if removed.is_some() {
            self.len -= 1;
        }
        removed.map(|entry| Arc::unwrap_or_clone(entry.0))
    }

    /// Objects in one namespace (`Some`) or all (`None`), namespace then name order.
    pub fn iter(&self, namespace: Option<&str>) -> Box<dyn Iterator<Item = &T> + '_> {
        match namespace {
            Some(ns) => Box::new(self.by_namespace.get(ns).into_iter().flatten().map(|entry| &*entry.0)),
            None => Box::new(self.by_namespace.values().flatten().map(|entry| &*entry.0)),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
