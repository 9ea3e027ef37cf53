//! The garbage collector's dependency graph (upstream's GraphBuilder `uidToNode`): for each uid
//! named in an ownerReference, the objects naming it. Also how controllers find what they own.
//!
//! Grouped by (kind, namespace) under each owner, so 100 pods of a ReplicaSet share one
//! kind-and-namespace key and each costs only its name. Iteration order is (kind, namespace, name).

use crate::api::Kind;
use crate::api::meta::{ObjectMeta, Uid};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default)]
pub struct OwnerIndex {
    by_owner: BTreeMap<Uid, BTreeMap<(Kind, String), BTreeSet<String>>>,
}

impl OwnerIndex {
    /// Records (`add`) or forgets the object's ownerReferences.
    pub fn index(&mut self, kind: Kind, meta: &ObjectMeta, add: bool) {
        for r in &meta.owner_references {
            if add {
                let groups = self.by_owner.entry(r.uid).or_default();
                let group = (kind, meta.namespace.clone());
                groups.entry(group).or_default().insert(meta.name.clone());
            } else {
                self.forget(r.uid, kind, &meta.namespace, &meta.name);
            }
        }
    }

    fn forget(&mut self, owner: Uid, kind: Kind, namespace: &str, name: &str) {
        let Some(groups) = self.by_owner.get_mut(&owner) else { return };
        let group = (kind, namespace.to_string());
        if let Some(names) = groups.get_mut(&group) {
            names.remove(name);
            if names.is_empty() {
                groups.remove(&group);
            }
        }
        if groups.is_empty() {
            self.by_owner.remove(&owner);
        }
    }

    /// Whether any live object lists `owner`.
    pub fn has_dependents(&self, owner: Uid) -> bool {
        self.by_owner.contains_key(&owner)
    }

    /// Every uid some live object names as its owner, in order.
    pub fn owners(&self) -> impl Iterator<Item = Uid> + '_ {
        self.by_owner.keys().copied()
    }

    /// The objects whose ownerReferences name `owner`, as (kind, namespace, name), sorted.
    pub fn dependents(&self, owner: Uid) -> impl Iterator<Item = (Kind, &str, &str)> {
        self.by_owner.get(&owner).into_iter().flatten().flat_map(|((kind, namespace), names)| {
            names.iter().map(move |name| (*kind, namespace.as_str(), name.as_str()))
        })
    }
}
