//! rancher's local-path provisioner, as kind runs it for the `standard` class: a claim marked
//! for `rancher.io/local-path` with a selected node gets, a few seconds later, a hostPath
//! volume `pvc-<claim uid>` on that node's disk, pinned there by node affinity; a released
//! volume of its own with reclaim policy Delete is deleted, and its directory with it.

use crate::api::affinity::{NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};
use crate::api::meta::{ObjectMeta, Uid};
use crate::api::persistent_volume::{
    ANN_DYNAMICALLY_PROVISIONED, HostPathVolumeSource, PersistentVolumeSpec, RECLAIM_DELETE, VOLUME_RELEASED,
    VolumeNodeAffinity,
};
use crate::api::persistent_volume_claim::{ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, CLAIM_PENDING};
use crate::api::{PersistentVolume, PersistentVolumeClaim, StorageClass};
use crate::runtime::wakeups::Wakeups;
use crate::sim::time::{Duration, SimTime};
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store, UserInfo};
use std::collections::BTreeSet;

pub const PROVISIONER: &str = "rancher.io/local-path";
/// The component its Events name: the provisioner's name and its identity (upstream adds the
/// provisioner pod's name and a uuid; the lab runs no such pod).
const COMPONENT: &str = "rancher.io/local-path_local-path-provisioner";
/// Where its volumes live on a node (the provisioner's default `nodePathMap`).
pub const BASE_PATH: &str = "/opt/local-path-provisioner";
/// How long making a volume takes: the provisioner starts a helper pod on the node that
/// creates the directory, and writes the volume once it has exited (a few seconds on kind).
pub const PROVISIONING_DELAY: Duration = Duration::from_secs(3);

#[derive(Clone, Debug, Default)]
pub struct LocalPathProvisioner {
    /// Claims (by uid) whose volume is being made, and when it is done.
    provisioning: BTreeSet<Uid>,
    due: Wakeups<(String, String)>,
}

impl LocalPathProvisioner {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.due.next()
    }

    pub fn is_due(&self, now: SimTime) -> bool {
        self.due.any_due(now)
    }

    pub fn sync(&mut self, store: &mut Store) {
        store.act_as(UserInfo::service_account("local-path-storage", "local-path-provisioner-service-account"));
        for (namespace, name) in self.due.take_due(store.now()) {
            self.finish(store, &namespace, &name);
        }
        // A claim stays in hand until its volume is there or it no longer wants one.
        self.provisioning.retain(|uid| {
            store.list::<PersistentVolumeClaim>(None).any(|c| c.metadata.uid == *uid && wants_volume(store, c))
        });
        let waiting: Vec<PersistentVolumeClaim> = store
            .list::<PersistentVolumeClaim>(None)
            .filter(|c| wants_volume(store, c) && !self.provisioning.contains(&c.metadata.uid))
            .cloned()
            .collect();
        for claim in waiting {
            let message = format!(
                "External provisioner is provisioning volume for claim \"{}/{}\"",
                claim.metadata.namespace, claim.metadata.name
            );
            store.record_event_from(COMPONENT, object_reference(&claim), EventType::Normal, "Provisioning", message);
            self.provisioning.insert(claim.metadata.uid);
            let key = (claim.metadata.namespace.clone(), claim.metadata.name.clone());
            self.due.add_at(store.now().plus(PROVISIONING_DELAY), key);
        }
        delete_released(store);
    }

    /// The directory is made: the volume is written, pre-bound to its claim.
    fn finish(&mut self, store: &mut Store, namespace: &str, name: &str) {
        let Some(claim) = store.try_get::<PersistentVolumeClaim>(namespace, name).cloned() else { return };
        if !wants_volume(store, &claim) {
            return;
        }
        let Some(class) = store.try_get::<StorageClass>("", claim.class()).cloned() else { return };
        let node = claim.metadata.annotations.get(ANN_SELECTED_NODE).unwrap_or("").to_string();
        let volume = volume_for(&claim, &class, &node);
        let volume_name = volume.metadata.name.clone();
        if store.create(volume).is_ok() {
            let message = format!("Successfully provisioned volume {volume_name}");
            let reference = object_reference(&claim);
            store.record_event_from(COMPONENT, reference, EventType::Normal, "ProvisioningSucceeded", message);
        }
    }
}

/// A pending claim marked for this provisioner, with its node chosen, and no volume yet.
fn wants_volume(store: &Store, claim: &PersistentVolumeClaim) -> bool {
    let annotations = &claim.metadata.annotations;
    let made = store.try_get::<PersistentVolume>("", &format!("pvc-{}", claim.metadata.uid)).is_some();
    !made
        && claim.phase() == CLAIM_PENDING
        && claim.metadata.deletion_timestamp.is_none()
        && claim.spec.volume_name.is_none()
        && annotations.get(ANN_STORAGE_PROVISIONER) == Some(PROVISIONER)
        && annotations.get(ANN_SELECTED_NODE).is_some()
}

/// The directory a claim's volume gets on its node.
pub fn volume_path(claim: &PersistentVolumeClaim, volume: &str) -> String {
    format!("{BASE_PATH}/{volume}_{}_{}", claim.metadata.namespace, claim.metadata.name)
}

fn volume_for(claim: &PersistentVolumeClaim, class: &StorageClass, node: &str) -> PersistentVolume {
    let name = format!("pvc-{}", claim.metadata.uid);
    let mut metadata = ObjectMeta::named("", &name);
    metadata.annotations.insert(ANN_DYNAMICALLY_PROVISIONED, PROVISIONER);
    metadata.annotations.insert("local.path.provisioner/selected-node", node);
    let hostname = NodeSelectorRequirement {
        key: "kubernetes.io/hostname".to_string(),
        operator: "In".to_string(),
        values: vec![node.to_string()],
    };
    let term = NodeSelectorTerm { match_expressions: vec![hostname], match_fields: Vec::new() };
    let spec = PersistentVolumeSpec {
        capacity: claim
            .spec
            .resources
            .requests
            .iter()
            .filter(|(k, _)| *k == "storage")
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
        host_path: Some(HostPathVolumeSource {
            path: volume_path(claim, &name),
            type_: Some("DirectoryOrCreate".to_string()),
        }),
        access_modes: claim.spec.access_modes.clone(),
        claim_ref: Some(super::binder::claim_reference(claim)),
        persistent_volume_reclaim_policy: class.reclaim_policy.clone(),
        storage_class_name: Some(class.metadata.name.clone()),
        volume_mode: claim.spec.volume_mode.clone(),
        node_affinity: Some(VolumeNodeAffinity { required: Some(NodeSelector { node_selector_terms: vec![term] }) }),
        ..Default::default()
    };
    PersistentVolume { metadata, spec, ..Default::default() }
}

/// Its released volumes whose policy is Delete: the directory is removed, then the volume.
fn delete_released(store: &mut Store) {
    let released: Vec<String> = store
        .list::<PersistentVolume>(None)
        .filter(|v| {
            v.phase() == VOLUME_RELEASED
                && v.reclaim_policy() == RECLAIM_DELETE
                && v.metadata.deletion_timestamp.is_none()
                && v.metadata.annotations.get(ANN_DYNAMICALLY_PROVISIONED) == Some(PROVISIONER)
        })
        .map(|v| v.metadata.name.clone())
        .collect();
    for name in released {
        let _ = store.delete::<PersistentVolume>("", &name, &DeleteOptions::default());
    }
}
