//! The kubelet's DRA manager (pkg/kubelet/cm/dra, `PrepareResources`): before a pod's
//! containers start, each of its claims must exist and be reserved for it; the driver then
//! prepares the allocated devices. A pod written straight onto a node (`spec.nodeName`) skips
//! the scheduler, so nothing allocates or reserves its claims: it waits, retried with a
//! Warning `FailedPrepareDynamicResources`, and never starts.

use crate::api::{Pod, ResourceClaim};
use crate::dra::pod_claims;
use crate::sim::time::Duration;
use crate::store::Store;

/// How long the kubelet waits before it tries to prepare the pod's resources again.
pub const RETRY: Duration = Duration::from_secs(10);

/// Why the pod's claims cannot be prepared yet, or `None` when they can (or it has none).
pub fn unprepared(store: &Store, pod: &Pod) -> Option<String> {
    if pod.spec.resource_claims.is_empty() {
        return None;
    }
    let names = match pod_claims::claim_names(pod) {
        Ok(names) => names,
        Err(error) => return Some(failed(&error)),
    };
    for (_, name) in names {
        let Some(claim) = store.try_get::<ResourceClaim>(&pod.metadata.namespace, &name) else {
            let error = format!(
                "failed to fetch ResourceClaim {name} referenced by pod {}: resourceclaims.resource.k8s.io \"{name}\" not found",
                pod.metadata.name
            );
            return Some(failed(&error));
        };
        if !claim.is_reserved_for(pod.metadata.uid) {
            let error = format!(
                "pod {}({}) is not allowed to use resource claim {name}({})",
                pod.metadata.name, pod.metadata.uid, claim.metadata.uid
            );
            return Some(failed(&error));
        }
    }
    None
}

fn failed(error: &str) -> String {
    format!("Failed to prepare dynamic resources: prepare dynamic resources: {error}")
}
