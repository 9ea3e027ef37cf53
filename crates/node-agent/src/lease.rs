//! The node's heartbeat Lease (pkg/kubelet/nodelease, component-helpers' lease controller):
//! `kube-node-lease/NAME`, held by NAME for 40 s, owned by the Node so it goes with it, and
//! renewed every 10 s (a quarter of its duration).

use crate::client::{ApiClient, ApiError, decode};
use kubelab_core::api::meta::{MicroTime, OwnerReference};
use kubelab_core::api::{Lease, Node, ObjectMeta};
use kubelab_core::sim::time::{Duration, SimTime};

pub const NAMESPACE: &str = "kube-node-lease";
/// `nodeLeaseDurationSeconds`.
pub const DURATION_SECONDS: i32 = 40;
/// `renewIntervalFraction` 0.25 of the duration.
pub const RENEW_INTERVAL: Duration = Duration::from_secs(10);

/// The Lease the kubelet creates for its node (`newLease` in the lease controller).
pub fn new_lease(node: &Node, now: SimTime) -> Lease {
    let name = node.metadata.name.clone();
    let mut lease = Lease { metadata: ObjectMeta::named(NAMESPACE, &name), ..Default::default() };
    lease.metadata.owner_references = vec![OwnerReference {
        api_version: "v1".into(),
        kind: "Node".into(),
        name: name.clone(),
        uid: node.metadata.uid,
        controller: None,
        block_owner_deletion: None,
    }];
    lease.spec.holder_identity = Some(name);
    lease.spec.lease_duration_seconds = Some(DURATION_SECONDS);
    lease.spec.renew_time = Some(MicroTime(now));
    lease
}

/// Renews one node's Lease, keeping the last one the server returned.
#[derive(Debug)]
pub struct LeaseController {
    client: ApiClient,
    node: Node,
    lease: Option<Lease>,
}

impl LeaseController {
    pub fn new(client: ApiClient, node: Node) -> LeaseController {
        LeaseController { client, node, lease: None }
    }

    fn path(&self) -> String {
        format!("/apis/coordination.k8s.io/v1/namespaces/{NAMESPACE}/leases/{}", self.node.metadata.name)
    }

    /// One renewal at `now`: update the Lease (fetched, or created if missing); on a conflict,
    /// read it again and retry once.
    pub async fn renew(&mut self, now: SimTime) -> Result<Lease, ApiError> {
        for _ in 0..2 {
            let Some(mut lease) = self.current(now).await? else {
                return self.lease.clone().ok_or_else(|| ApiError::transport_error("the created Lease was not kept"));
            };
            lease.spec.renew_time = Some(MicroTime(now));
            lease.spec.holder_identity = Some(self.node.metadata.name.clone());
            lease.spec.lease_duration_seconds = Some(DURATION_SECONDS);
            if lease.metadata.owner_references.is_empty() {
                lease.metadata.owner_references = new_lease(&self.node, now).metadata.owner_references;
            }
            let body = kubelab_core::api::codec::to_json_value(&lease);
            match self.client.put(&self.path(), &body).await {
                Ok(updated) => return self.keep(updated),
                Err(e) if e.is_conflict() || e.is_not_found() => self.lease = None,
                Err(e) => return Err(e),
            }
        }
        Err(ApiError { code: 409, reason: "Conflict".into(), message: "the node's Lease keeps changing".into() })
    }

    /// The Lease to update, or `None` once this call created it (a creation is a renewal).
    async fn current(&mut self, now: SimTime) -> Result<Option<Lease>, ApiError> {
        if let Some(lease) = &self.lease {
            return Ok(Some(lease.clone()));
        }
        match self.client.get_as::<Lease>(&self.path()).await {
            Ok(lease) => Ok(Some(lease)),
            Err(e) if e.is_not_found() => {
                let body = kubelab_core::api::codec::to_json_value(&new_lease(&self.node, now));
                let path = format!("/apis/coordination.k8s.io/v1/namespaces/{NAMESPACE}/leases");
                let created = self.client.post(&path, &body).await?;
                self.keep(created)?;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    fn keep(&mut self, value: serde_json::Value) -> Result<Lease, ApiError> {
        let lease: Lease = decode(value).map_err(|message| ApiError { code: 0, reason: String::new(), message })?;
        self.lease = Some(lease.clone());
        Ok(lease)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lease_is_the_one_the_simulation_creates_for_its_nodes() {
        let mut node = Node { metadata: ObjectMeta::named("", "edge-1"), ..Default::default() };
        node.metadata.uid = kubelab_core::api::meta::Uid(42);
        let mine = new_lease(&node, SimTime(10_000));
        let simulated = kubelab_core::store::node_lease::lease_for(&node, SimTime(10_000));
        assert_eq!(mine, simulated);
        let value = kubelab_core::api::codec::to_json_value(&mine);
        assert_eq!(value["spec"]["renewTime"], "2025-01-01T00:00:10.000000Z");
        assert_eq!(value["metadata"]["ownerReferences"][0]["kind"], "Node");
    }
}
