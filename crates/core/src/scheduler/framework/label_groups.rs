//! Assigned, non-terminating pods grouped by namespace and exact label set, counted per node:
//! how topology spreading counts "pods matching this selector in this domain" without visiting
//! every pod. Upstream's PodTopologySpread walks each node's pods for every pod it schedules
//! (`countPodsMatchSelector`); the counts here are the same, found through the few label sets a
//! selector can match (pods of one ReplicaSet share theirs).

use crate::api::labels::Selector;
use crate::api::string_map::StringMap;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub struct LabelGroups {
    groups: Vec<Group>,
    index: BTreeMap<(String, StringMap), usize>,
    /// (namespace, key, value) → the groups whose labels include that pair.
    by_pair: BTreeMap<(String, String, String), Vec<usize>>,
    by_namespace: BTreeMap<String, Vec<usize>>,
}

#[derive(Clone, Debug)]
struct Group {
    labels: StringMap,
    /// Pods per node (node name as the cache shares it).
    per_node: BTreeMap<Arc<str>, i64>,
}

impl LabelGroups {
    /// The id of the group for these labels in this namespace, created on first use.
    pub fn intern(&mut self, namespace: &str, labels: &StringMap) -> usize {
        let key = (namespace.to_string(), labels.clone());
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        let id = self.groups.len();
        self.groups.push(Group { labels: labels.clone(), per_node: BTreeMap::new() });
        for (k, v) in labels.iter() {
            self.by_pair.entry((namespace.to_string(), k.to_string(), v.to_string())).or_default().push(id);
        }
        self.by_namespace.entry(namespace.to_string()).or_default().push(id);
        self.index.insert(key, id);
        id
    }

    /// Counts one pod of group `id` on `node` in (`delta` = 1) or out (−1).
    pub fn count(&mut self, id: usize, node: &Arc<str>, delta: i64) {
        let Some(group) = self.groups.get_mut(id) else { return };
        let count = group.per_node.entry(node.clone()).or_insert(0);
        *count += delta;
        if *count <= 0 {
            group.per_node.remove(node);
        }
    }

    /// The groups in `namespace` whose labels match `selector`.
    fn matching<'a>(&'a self, namespace: &str, selector: &'a Selector) -> impl Iterator<Item = &'a Group> + 'a {
        // Narrow by one exact `key=value` requirement when the selector has one.
        let exact = selector.requirements().iter().find_map(|r| {
            let value = selector.requires_exact_match(r.key())?;
            Some((namespace.to_string(), r.key().to_string(), value.to_string()))
        });
        let candidates = match exact {
            Some(pair) => self.by_pair.get(&pair),
            None => self.by_namespace.get(namespace),
        };
        candidates.into_iter().flatten().map(|&id| &self.groups[id]).filter(move |g| selector.matches(&g.labels))
    }

    /// Matching pods per node, for every node that has any.
    pub fn per_node(&self, namespace: &str, selector: &Selector) -> BTreeMap<Arc<str>, i64> {
        let mut counts: BTreeMap<Arc<str>, i64> = BTreeMap::new();
        for group in self.matching(namespace, selector) {
            for (node, n) in &group.per_node {
                *counts.entry(node.clone()).or_insert(0) += n;
            }
        }
        counts
    }

    /// Each (node, matching pods) of every matching group, without merging them into one map:
    /// a node may come once per group, so only sums over it are meaningful.
    pub fn each_node<'a>(
        &'a self,
        namespace: &str,
        selector: &'a Selector,
    ) -> impl Iterator<Item = (&'a str, i64)> + 'a {
        self.matching(namespace, selector).flat_map(|group| group.per_node.iter().map(|(node, n)| (&**node, *n)))
    }

    /// Matching pods on one node.
    pub fn on_node(&self, namespace: &str, selector: &Selector, node: &str) -> i64 {
        self.matching(namespace, selector).filter_map(|g| g.per_node.get(node)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> StringMap {
        let mut m = StringMap::new();
        for (k, v) in pairs {
            m.insert(*k, *v);
        }
        m
    }

    #[test]
    fn counts_pods_matching_a_selector_per_node() {
        let mut groups = LabelGroups::default();
        let (a, b): (Arc<str>, Arc<str>) = (Arc::from("node-a"), Arc::from("node-b"));
        let web = groups.intern("default", &labels(&[("app", "web"), ("pod-template-hash", "1")]));
        let db = groups.intern("default", &labels(&[("app", "db")]));
        let other_ns = groups.intern("prod", &labels(&[("app", "web")]));
        groups.count(web, &a, 1);
        groups.count(web, &a, 1);
        groups.count(web, &b, 1);
        groups.count(db, &b, 1);
        groups.count(other_ns, &a, 1);
        let selector = Selector::parse("app=web").unwrap();
        assert_eq!(
            groups.per_node("default", &selector).into_iter().collect::<Vec<_>>(),
            vec![(a.clone(), 2), (b.clone(), 1)]
        );
        assert_eq!(groups.on_node("default", &Selector::parse("app in (web,db)").unwrap(), "node-b"), 2);
        groups.count(web, &a, -1);
        assert_eq!(groups.on_node("default", &selector, "node-a"), 1);
        assert_eq!(groups.on_node("default", &Selector::parse("!app").unwrap(), "node-a"), 0);
    }
}
