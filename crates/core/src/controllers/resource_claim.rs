//! The resourceclaim controller (pkg/controller/resourceclaim): makes each pod its own claim from
//! a ResourceClaimTemplate (`<pod>-<claim>-<random>`, owned by the pod, recorded in the pod's
//! `status.resourceClaimStatuses`), drops pods that are gone or done from a claim's
//! `reservedFor`, clears the allocation of a claim nobody uses any more (so its devices are free
//! again) and deletes the pod's own claims once the pod is done.

use crate::api::meta::{ObjectMeta, OwnerReference};
use crate::api::pod::PodResourceClaimStatus;
use crate::api::resource_claim::{DELETE_PROTECTION_FINALIZER, POD_CLAIM_NAME_ANNOTATION};
use crate::api::{Kind, Pod, ResourceClaim, ResourceClaimTemplate};
use crate::dra::pod_claims::is_owned_by;
use crate::runtime::informer::{Changes, Informer};
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};
use std::collections::BTreeSet;

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct ResourceClaimController {
    pub(crate) informer: Informer,
}

impl ResourceClaimController {
    pub fn sync(&mut self, store: &mut Store) {
        let (mut pods, mut namespaces) = (BTreeSet::new(), BTreeSet::new());
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events {
                    let key = (event.namespace.clone(), event.name.clone());
                    match event.kind {
                        Kind::Pod => {
                            pods.insert(key);
                        }
                        // A claim changed, or a template appeared for a pod waiting on it.
                        Kind::ResourceClaim | Kind::ResourceClaimTemplate => {
                            namespaces.insert(event.namespace.clone());
                        }
                        _ => {}
                    }
                }
            }
            Changes::Relist => {
                namespaces.extend(store.list::<ResourceClaim>(None).map(|c| c.metadata.namespace.clone()))
            }
        }
        // Only pods with claims matter; one that went (or is done) may have held a claim of its
        // namespace, whose claims are then looked at again.
        pods.retain(|(namespace, name)| {
            let pod = store.try_get::<Pod>(namespace, name);
            let finished = pod.is_none_or(|p| is_done(p) || p.metadata.is_being_deleted());
            if finished && store.list::<ResourceClaim>(Some(namespace)).next().is_some() {
                namespaces.insert(namespace.clone());
            }
            pod.is_some_and(|p| !p.spec.resource_claims.is_empty())
        });
        for namespace in &namespaces {
            let waiting = store.list::<Pod>(Some(namespace)).filter(|p| !p.spec.resource_claims.is_empty());
            pods.extend(waiting.map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())).collect::<Vec<_>>());
        }
        for key in pods {
            sync_pod(store, &key);
        }
        for namespace in namespaces {
            let claims: Vec<Key> = store
                .list::<ResourceClaim>(Some(&namespace))
                .map(|c| (c.metadata.namespace.clone(), c.metadata.name.clone()))
                .collect();
            for key in claims {
                sync_claim(store, &key);
            }
        }
    }
}

/// Upstream `isPodDone`: it will never run (again).
fn is_done(pod: &Pod) -> bool {
    matches!(pod.phase(), "Succeeded" | "Failed")
}

/// Upstream `syncPod`: a claim for every template entry that has none yet.
fn sync_pod(store: &mut Store, key: &Key) {
    let Some(pod) = store.try_get::<Pod>(&key.0, &key.1) else { return };
    if pod.spec.resource_claims.is_empty() || is_done(pod) || pod.metadata.is_being_deleted() {
        return;
    }
    let pod = pod.clone();
    let mut statuses = pod.status.resource_claim_statuses.clone();
    for entry in pod.spec.resource_claims.iter() {
        let Some(template) = entry.resource_claim_template_name.as_deref() else { continue };
        if statuses.iter().any(|s| s.name == entry.name) {
            continue;
        }
        match claim_for(store, &pod, &entry.name, template) {
            Ok(name) => {
                statuses.push(PodResourceClaimStatus { name: entry.name.clone(), resource_claim_name: Some(name) })
            }
            Err(error) => {
                let message = format!("PodResourceClaim {}: {error}", entry.name);
                store.record_event(object_reference(&pod), EventType::Warning, "FailedResourceClaimCreation", message);
            }
        }
    }
    if statuses != pod.status.resource_claim_statuses {
        let mut updated = pod;
        updated.status.resource_claim_statuses = statuses;
        let _ = store.update_status(updated);
    }
}

/// The pod's claim for `entry`: one it already owns (made before its status was written), or a
/// new one from the template.
fn claim_for(store: &mut Store, pod: &Pod, entry: &str, template_name: &str) -> Result<String, String> {
    let namespace = &pod.metadata.namespace;
    let existing = store
        .list::<ResourceClaim>(Some(namespace))
        .find(|c| is_owned_by(c, pod) && c.metadata.annotations.get(POD_CLAIM_NAME_ANNOTATION) == Some(entry));
    if let Some(claim) = existing {
        return Ok(claim.metadata.name.clone());
    }
    let template = store.try_get::<ResourceClaimTemplate>(namespace, template_name).ok_or_else(|| {
        format!(
            "resource claim template \"{template_name}\": resourceclaimtemplate.resource.k8s.io \"{template_name}\" not found"
        )
    })?;
    let mut metadata = ObjectMeta {
        generate_name: generate_name(&pod.metadata.name, entry),
        namespace: namespace.clone(),
        labels: template.spec.metadata.labels.clone(),
        annotations: template.spec.metadata.annotations.clone(),
        ..Default::default()
    };
    metadata.annotations.insert(POD_CLAIM_NAME_ANNOTATION, entry);
    metadata.owner_references.push(OwnerReference {
        api_version: "v1".into(),
        kind: "Pod".into(),
        name: pod.metadata.name.clone(),
        uid: pod.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    });
    let claim = ResourceClaim { metadata, spec: template.spec.spec.clone(), ..Default::default() };
    store.create(claim).map(|c| c.metadata.name).map_err(|e| e.message())
}

/// Upstream's `<pod>-<claim>-`, both parts cut to 28 characters when together they would leave
/// no room for the random suffix in 63.
fn generate_name(pod: &str, claim: &str) -> String {
    const MAX_BASE: usize = 57;
    let cut = |s: &str| s.chars().take(MAX_BASE / 2).collect::<String>();
    if pod.len() + claim.len() > MAX_BASE { format!("{}-{}-", cut(pod), cut(claim)) } else { format!("{pod}-{claim}-") }
}

/// Upstream `syncClaim`: reservations of pods that are gone or done are dropped; a claim no pod
/// holds loses its allocation and the finalizer; a pod's own claim goes with the pod.
fn sync_claim(store: &mut Store, key: &Key) {
    let Some(claim) = store.try_get::<ResourceClaim>(&key.0, &key.1) else { return };
    let mut updated = claim.clone();
    updated.status.reserved_for.retain(|r| {
        r.resource != "pods"
            || store.try_get::<Pod>(&key.0, &r.name).is_some_and(|p| p.metadata.uid == r.uid && !is_done(p))
    });
    if updated.status.reserved_for.is_empty() && updated.status.allocation.is_some() {
        updated.status.allocation = None;
        updated.status.devices.clear();
    }
    if updated.status != claim.status {
        let _ = store.update_status(updated);
    }
    let Some(claim) = store.try_get::<ResourceClaim>(&key.0, &key.1) else { return };
    let unused = claim.status.reserved_for.is_empty() && claim.status.allocation.is_none();
    if unused && claim.metadata.finalizers.iter().any(|f| f == DELETE_PROTECTION_FINALIZER) {
        let mut released = claim.clone();
        released.metadata.finalizers.retain(|f| f != DELETE_PROTECTION_FINALIZER);
        let _ = store.update(released);
    }
    let Some(claim) = store.try_get::<ResourceClaim>(&key.0, &key.1) else { return };
    let Some(owner) = claim.metadata.controller_ref().filter(|r| r.kind == "Pod") else { return };
    let owner_done =
        store.try_get::<Pod>(&key.0, &owner.name).is_none_or(|p| p.metadata.uid != owner.uid || is_done(p));
    if owner_done && claim.status.reserved_for.is_empty() && !claim.metadata.is_being_deleted() {
        let _ = store.delete::<ResourceClaim>(&key.0, &key.1, &DeleteOptions::default());
    }
}

#[cfg(test)]
mod tests {
    use super::generate_name;

    #[test]
    fn generated_names_leave_room_for_the_random_suffix() {
        assert_eq!(generate_name("trainer-0", "gpu"), "trainer-0-gpu-");
        let long = generate_name(&"p".repeat(40), &"c".repeat(30));
        assert_eq!(long, format!("{}-{}-", "p".repeat(28), "c".repeat(28)));
    }
}
