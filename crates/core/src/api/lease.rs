//! Lease (coordination.k8s.io/v1): who holds something and until when. Every node's kubelet
//! renews one in `kube-node-lease` every 10 s (its heartbeat); the node lifecycle controller
//! reads them to tell a silent node.

use super::meta::{MicroTime, ObjectMeta};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lease {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: LeaseSpec,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LeaseSpec {
    pub holder_identity: Option<String>,
    pub lease_duration_seconds: Option<i32>,
    pub acquire_time: Option<MicroTime>,
    pub renew_time: Option<MicroTime>,
    pub lease_transitions: Option<i32>,
    /// Coordinated leader election (v1.33 beta): `OldestEmulationVersion`.
    pub strategy: Option<String>,
    pub preferred_holder: Option<String>,
}
