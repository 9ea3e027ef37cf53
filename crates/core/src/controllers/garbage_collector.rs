//! The garbage collector: when an owner is gone, its dependents go too (background cascading
//! deletion), or lose the dangling reference when another owner remains.
//! Mirrors pkg/controller/garbagecollector (attemptToDeleteItem), minus the dependency graph:
//! the store counts owner references, so only owners that have dependents cost a scan.

use crate::api::Kind;
use crate::api::meta::Uid;
use crate::runtime::informer::{Changes, Informer};
use crate::store::watch::WatchEventType;
use crate::store::{DeleteOptions, Store, kinds};

#[derive(Clone, Debug, Default)]
pub struct GarbageCollector {
    pub(crate) informer: Informer,
}

impl GarbageCollector {
    pub fn sync(&mut self, store: &mut Store) {
        let deleted: Vec<(String, Uid)> = match self.informer.poll(store) {
            Changes::Events(events) => {
                let mut gone = Vec::new();
                for event in events {
                    match event.type_ {
                        WatchEventType::Deleted => gone.push((event.namespace.clone(), event.uid)),
                        // A new object naming an owner that does not exist (upstream's graph
                        // builder adds a "virtual" owner node, then finds it absent).
                        WatchEventType::Added => {
                            gone.extend(absent_owners(store, event.kind, &event.namespace, &event.name))
                        }
                        WatchEventType::Modified => {}
                    }
                }
                gone
            }
            Changes::Relist => gone_owners(store),
        };
        for (namespace, owner) in deleted {
            if store.has_dependents(owner) {
                collect_dependents(store, &namespace, owner);
            }
        }
    }
}

/// The owners an object names that do not exist.
fn absent_owners(store: &Store, kind: Kind, namespace: &str, name: &str) -> Vec<(String, Uid)> {
    let refs = kinds::owner_references(store, kind, namespace, name);
    refs.into_iter().filter(|r| !store.owner_exists(namespace, r)).map(|r| (namespace.to_string(), r.uid)).collect()
}

/// After a relist: every owner some object still names that no longer exists (upstream's
/// graph builder finds them as "virtual" nodes whose owner lookup comes back not found).
fn gone_owners(store: &Store) -> Vec<(String, Uid)> {
    let mut gone = Vec::new();
    for owner in store.owner_uids() {
        let Some((kind, namespace, name)) = store.dependents(owner).next() else { continue };
        let Ok(dependent) = store.get_object(kind, namespace, name) else { continue };
        let reference = dependent.metadata().owner_references.iter().find(|r| r.uid == owner);
        if reference.is_some_and(|r| !store.owner_exists(namespace, r)) {
            gone.push((namespace.to_string(), owner));
        }
    }
    gone
}

/// Deletes dependents whose every owner is gone; drops the dangling reference from the rest.
fn collect_dependents(store: &mut Store, namespace: &str, owner: Uid) {
    for (kind, namespace, name) in kinds::dependents_of(store, namespace, owner) {
        let Ok(object) = store.get_object(kind, &namespace, &name) else { continue };
        let refs = &object.metadata().owner_references;
        let any_owner_left = refs.iter().any(|r| r.uid != owner && store.owner_exists(&namespace, r));
        if any_owner_left {
            let _ = kinds::remove_owner_ref(store, kind, &namespace, &name, owner);
        } else {
            let _ = store.delete_object(kind, &namespace, &name, &DeleteOptions::default());
        }
    }
}

/// Kinds whose objects can own others in a lab (used by tests to build owner chains).
pub const OWNER_KINDS: [Kind; 3] = [Kind::Deployment, Kind::ReplicaSet, Kind::Service];

#[cfg(test)]
mod tests {
    use crate::api::meta::OwnerReference;
    use crate::api::{ConfigMap, Kind, ObjectMeta, Resource};
    use crate::cluster::ClusterSpec;
    use crate::sim::Sim;
    use crate::store::{DeleteOptions, PropagationPolicy};

    fn owned_by(name: &str, owners: &[&ConfigMap]) -> ConfigMap {
        let mut meta = ObjectMeta::named("default", name);
        meta.owner_references = owners
            .iter()
            .map(|o| OwnerReference {
                api_version: "v1".into(),
                kind: "ConfigMap".into(),
                name: o.metadata.name.clone(),
                uid: o.metadata.uid,
                controller: None,
                block_owner_deletion: None,
            })
            .collect();
        ConfigMap { metadata: meta, ..Default::default() }
    }

    fn names(sim: &Sim) -> Vec<String> {
        sim.store().list::<ConfigMap>(Some("default")).map(|c| c.metadata.name.clone()).collect()
    }

    /// owner → child → grandchild, plus `shared` owned by both `owner` and `other`.
    fn family(sim: &mut Sim) {
        let store = sim.store_mut();
        let owner = store.create(owned_by("owner", &[])).unwrap();
        let other = store.create(owned_by("other", &[])).unwrap();
        let child = store.create(owned_by("child", &[&owner])).unwrap();
        store.create(owned_by("grandchild", &[&child])).unwrap();
        store.create(owned_by("shared", &[&owner, &other])).unwrap();
        sim.settle();
    }

    #[test]
    fn deleting_an_owner_cascades_through_dependents() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        family(&mut sim);
        sim.store_mut().delete::<ConfigMap>("default", "owner", &DeleteOptions::default()).unwrap();
        sim.settle();
        assert_eq!(names(&sim), ["kube-root-ca.crt", "other", "shared"]);
        let shared = sim.store().get::<ConfigMap>("default", "shared").unwrap();
        assert_eq!(shared.metadata.owner_references.len(), 1, "the dangling reference is dropped");
        assert_eq!(shared.metadata().owner_references[0].name, "other");
        assert_eq!(Kind::ConfigMap.info().plural, "configmaps");
    }

    #[test]
    fn orphan_propagation_keeps_dependents_without_the_reference() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        family(&mut sim);
        let orphan = DeleteOptions { propagation_policy: PropagationPolicy::Orphan, ..Default::default() };
        sim.store_mut().delete::<ConfigMap>("default", "owner", &orphan).unwrap();
        sim.settle();
        assert_eq!(names(&sim), ["child", "grandchild", "kube-root-ca.crt", "other", "shared"]);
        let child = sim.store().get::<ConfigMap>("default", "child").unwrap();
        assert!(child.metadata.owner_references.is_empty());
    }
}
