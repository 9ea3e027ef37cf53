//! Which ResourceClaim each of a pod's `resourceClaims` entries names (k8s.io/dynamic-resource-
//! allocation/resourceclaim `Name` and `IsForPod`): the claim itself, or the one the
//! resourceclaim controller made from the template and recorded in the pod's status.

use crate::api::{Pod, ResourceClaim};
use crate::store::Store;

/// `(pod.spec.resourceClaims[].name, ResourceClaim name)` for every entry, or why the pod
/// cannot be scheduled yet (the scheduler's PreEnqueue messages).
pub fn claim_names(pod: &Pod) -> Result<Vec<(String, String)>, String> {
    let mut names = Vec::new();
    for entry in pod.spec.resource_claims.iter() {
        if let Some(name) = entry.resource_claim_name.as_deref() {
            names.push((entry.name.clone(), name.to_string()));
            continue;
        }
        let made = pod.status.resource_claim_statuses.iter().find(|s| s.name == entry.name);
        match made.and_then(|s| s.resource_claim_name.as_deref()) {
            Some(name) => names.push((entry.name.clone(), name.to_string())),
            None => {
                return Err(format!(
                    "pod \"{}/{}\": ResourceClaim not created yet",
                    pod.metadata.namespace, pod.metadata.name
                ));
            }
        }
    }
    Ok(names)
}

/// The pod's claims from the store, each checked as the scheduler checks them before trying.
pub fn claims<'s>(store: &'s Store, pod: &Pod) -> Result<Vec<&'s ResourceClaim>, String> {
    let namespace = &pod.metadata.namespace;
    let mut claims = Vec::new();
    for (entry, name) in claim_names(pod)? {
        let claim = store
            .try_get::<ResourceClaim>(namespace, &name)
            .ok_or_else(|| format!("resourceclaim.resource.k8s.io \"{name}\" not found"))?;
        if claim.metadata.is_being_deleted() {
            return Err(format!("resourceclaim \"{name}\" is being deleted"));
        }
        let from_template = pod.spec.resource_claims.iter().any(|c| c.name == entry && c.resource_claim_name.is_none());
        if from_template && !is_owned_by(claim, pod) {
            return Err(format!(
                "ResourceClaim {namespace}/{name} was not created for Pod {namespace}/{} (Pod is not owner)",
                pod.metadata.name
            ));
        }
        claims.push(claim);
    }
    Ok(claims)
}

/// The claim's controller is this pod.
pub fn is_owned_by(claim: &ResourceClaim, pod: &Pod) -> bool {
    claim.metadata.controller_ref().is_some_and(|r| r.kind == "Pod" && r.uid == pod.metadata.uid)
}
