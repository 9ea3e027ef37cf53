//! `StringMap`: the `map[string]string` of labels, annotations, nodeSelector and ConfigMap data.
//!
//! Stored as a sorted boxed slice of boxed strings rather than a `BTreeMap`: a pod has two or
//! three labels, and a B-tree leaf for two entries costs over half a kilobyte, which matters at
//! 150,000 pods. Writes are rare (labels change far less often than they are read), so a write
//! rebuilds the slice.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt;

/// A string-to-string map kept sorted by key (iteration order is defined, as the core requires).
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringMap {
    entries: Box<[(Box<str>, Box<str>)]>,
}

impl StringMap {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.position(key).ok().map(|i| &*self.entries[i].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_ok()
    }

    /// Inserts or replaces; returns the previous value.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<String>) -> Option<String> {
        let key = key.into();
        let value = value.into();
        match self.position(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value.into_boxed_str()).into_string()),
            Err(i) => {
                let mut entries = std::mem::take(&mut self.entries).into_vec();
                entries.insert(i, (key.into_boxed_str(), value.into_boxed_str()));
                self.entries = entries.into_boxed_slice();
                None
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<String> {
        let i = self.position(key).ok()?;
        let mut entries = std::mem::take(&mut self.entries).into_vec();
        let (_, value) = entries.remove(i);
        self.entries = entries.into_boxed_slice();
        Some(value.into_string())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(k, v)| (&**k, &**v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| &**k)
    }

    /// True when every entry of `subset` is present here with the same value
    /// (a `matchLabels` / `nodeSelector` test).
    pub fn contains_all(&self, subset: &StringMap) -> bool {
        subset.iter().all(|(k, v)| self.get(k) == Some(v))
    }

    /// Renders `k1=v1,k2=v2` as kubectl's `--show-labels` and selectors do.
    pub fn to_selector_string(&self) -> String {
        let parts: Vec<String> = self.iter().map(|(k, v)| format!("{k}={v}")).collect();
        parts.join(",")
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| (**k).cmp(key))
    }
}

impl fmt::Debug for StringMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for StringMap {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = StringMap::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl Serialize for StringMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for StringMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor;
        impl<'de> Visitor<'de> for MapVisitor {
            type Value = StringMap;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of strings")
            }
            fn visit_unit<E>(self) -> Result<StringMap, E> {
                Ok(StringMap::new())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<StringMap, A::Error> {
                let mut map = StringMap::new();
                while let Some((k, v)) = access.next_entry::<String, String>()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(MapVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_keys_sorted_and_replaces() {
        let mut m = StringMap::new();
        m.insert("tier", "web");
        m.insert("app", "hello");
        assert_eq!(m.insert("app", "bye"), Some("hello".to_string()));
        assert_eq!(m.to_selector_string(), "app=bye,tier=web");
        assert!(m.contains_all(&[("tier", "web")].into_iter().collect()));
        assert!(!m.contains_all(&[("tier", "api")].into_iter().collect()));
    }
}
