//! One kind's objects, by namespace then name (both sorted: iteration order is defined).

use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub struct Table<T> {
    by_namespace: BTreeMap<String, BTreeMap<String, T>>,
    len: usize,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table { by_namespace: BTreeMap::new(), len: 0 }
    }
}

impl<T> Table<T> {
    pub fn get(&self, namespace: &str, name: &str) -> Option<&T> {
        self.by_namespace.get(namespace)?.get(name)
    }

    pub fn get_mut(&mut self, namespace: &str, name: &str) -> Option<&mut T> {
        self.by_namespace.get_mut(namespace)?.get_mut(name)
    }

    pub fn insert(&mut self, namespace: &str, name: &str, value: T) -> Option<T> {
        let names = self.by_namespace.entry(namespace.to_string()).or_default();
        let previous = names.insert(name.to_string(), value);
        if previous.is_none() {
            self.len += 1;
        }
        previous
    }

    pub fn remove(&mut self, namespace: &str, name: &str) -> Option<T> {
        let names = self.by_namespace.get_mut(namespace)?;
        let removed = names.remove(name);
        if names.is_empty() {
            self.by_namespace.remove(namespace);
        }
        if removed.is_some() {
            self.len -= 1;
        }
        removed
    }

    /// Objects in one namespace (`Some`) or all (`None`), namespace then name order.
    pub fn iter(&self, namespace: Option<&str>) -> Box<dyn Iterator<Item = &T> + '_> {
        match namespace {
            Some(ns) => Box::new(self.by_namespace.get(ns).into_iter().flat_map(|m| m.values())),
            None => Box::new(self.by_namespace.values().flat_map(|m| m.values())),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
