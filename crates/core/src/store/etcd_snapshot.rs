//! etcd's snapshots: `etcdctl snapshot save` copies the whole keyspace at one revision, and a
//! restore (`etcdutl snapshot restore`, then etcd started on the restored data directory) puts
//! every object back as it was then: what was created since is gone, what was deleted is back.
//!
//! Revisions go on from where the live store was, as a restore with `--bump-revision` and
//! `--mark-compacted` (what Kubernetes' "Restoring an etcd cluster" asks for) leaves them:
//! each restored object is written again at a new resourceVersion and each one removed is a
//! deletion, so every informer hears of the change (upstream's watchers are told their
//! revision was compacted and relist; the result is the same state).

use super::Tables;
use super::watch::WatchEventType;
use super::{Store, Stored};

/// The keyspace at one revision.
#[derive(Clone, Debug)]
pub struct EtcdSnapshot {
    tables: Tables,
    revision: u64,
}

impl EtcdSnapshot {
    /// The revision it was taken at (the store's resourceVersion then).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// How many objects it holds (etcd's keys).
    pub fn keys(&self) -> usize {
        self.tables.len()
    }
}

impl Store {
    /// Every object as it is now (objects are shared, so a snapshot costs one table's copy).
    pub fn etcd_snapshot(&self) -> EtcdSnapshot {
        EtcdSnapshot { tables: self.tables.clone(), revision: self.resource_version }
    }

    /// Puts the store back to `snapshot`; returns how many objects were written or removed.
    pub fn restore_etcd_snapshot(&mut self, snapshot: &EtcdSnapshot) -> usize {
        crate::api::RESOURCES
            .iter()
            .map(|info| crate::for_each_kind!(with_kind_arms, info.kind, T, self.restore_kind::<T>(&snapshot.tables)))
            .sum()
    }

    fn restore_kind<T: Stored>(&mut self, snapshot: &Tables) -> usize {
        let key = |object: &T| (object.metadata().namespace.clone(), object.metadata().name.clone());
        let gone: Vec<(String, String)> = T::table(&self.tables)
            .iter(None)
            .map(key)
            .filter(|(ns, name)| T::table(snapshot).get(ns, name).is_none())
            .collect();
        let mut changed = gone.len();
        for (namespace, name) in gone {
            let _ = self.remove::<T>(&namespace, &name);
        }
        for object in T::table(snapshot).iter(None) {
            let (namespace, name) = key(object);
            let current = T::table(&self.tables).get_shared(&namespace, &name);
            if current.as_deref().is_some_and(|current| same_but_revision(current, object)) {
                continue;
            }
            let type_ = match &current {
                Some(current) => {
                    self.index_owner_refs(T::KIND, current.metadata(), false);
                    WatchEventType::Modified
                }
                None => WatchEventType::Added,
            };
            self.index_owner_refs(T::KIND, object.metadata(), true);
            self.commit_shared(object.clone(), type_);
            changed += 1;
        }
        changed
    }
}

/// Whether the live object is the snapshot's, written again since (a restore's own write).
fn same_but_revision<T: Stored>(current: &T, saved: &T) -> bool {
    let mut saved = saved.clone();
    saved.metadata_mut().resource_version = current.metadata().resource_version;
    saved == *current
}

#[cfg(test)]
mod tests {
    use crate::api::{ConfigMap, ObjectMeta};
    use crate::store::{DeleteOptions, Store};

    fn config_map(name: &str, value: &str) -> ConfigMap {
        let mut map = ConfigMap { metadata: ObjectMeta::named("default", name), ..Default::default() };
        map.data.insert("k", value);
        map
    }

    #[test]
    fn a_restore_brings_back_the_deleted_drops_the_new_and_moves_revisions_on() {
        let mut store = Store::new(1);
        store.create(config_map("kept", "1")).unwrap();
        store.create(config_map("deleted", "1")).unwrap();
        let snapshot = store.etcd_snapshot();
        let mut changed = store.get::<ConfigMap>("default", "kept").unwrap().clone();
        changed.data.insert("k", "2");
        store.update(changed).unwrap();
        store.delete::<ConfigMap>("default", "deleted", &DeleteOptions::default()).unwrap();
        store.create(config_map("new", "1")).unwrap();
        let before = store.resource_version();
        assert_eq!(store.restore_etcd_snapshot(&snapshot), 3);
        let kept = store.get::<ConfigMap>("default", "kept").unwrap();
        assert_eq!(kept.data.get("k"), Some("1"));
        assert!(kept.metadata.resource_version.0 > before);
        assert!(store.get::<ConfigMap>("default", "deleted").is_ok());
        assert!(store.get::<ConfigMap>("default", "new").is_err());
        // Restoring again changes nothing.
        assert_eq!(store.restore_etcd_snapshot(&snapshot), 0);
    }
}
