//! APIService (apiregistration.k8s.io/v1, cluster-scoped): the aggregator's registration of one
//! group/version. A local one (no `spec.service`) is served by kube-apiserver itself; one with a
//! Service is proxied to it, as `v1beta1.metrics.k8s.io` is to metrics-server. Its `Available`
//! condition says whether the aggregator can reach it (kube-aggregator's types.go).

use super::meta::{ObjectMeta, Time};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The label on the APIServices kube-apiserver registers for itself: `onstart` for its built-in
/// groups, `true` for a custom resource's group (autoregister's `AutoRegisterManagedLabel`).
pub const AUTOMANAGED_LABEL: &str = "kube-aggregator.kubernetes.io/automanaged";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApiService {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ApiServiceSpec,
    #[serde(default)]
    pub status: ApiServiceStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApiServiceSpec {
    pub service: Option<ServiceReference>,
    pub group: Option<String>,
    pub version: Option<String>,
    #[serde(rename = "insecureSkipTLSVerify")]
    pub insecure_skip_tls_verify: Option<bool>,
    pub ca_bundle: Option<String>,
    #[serde(default)]
    pub group_priority_minimum: i32,
    #[serde(default)]
    pub version_priority: i32,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServiceReference {
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub name: String,
    /// Defaults to 443.
    pub port: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApiServiceStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ApiServiceCondition>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApiServiceCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}

impl ApiService {
    /// The `Available` condition, if the aggregator has set one.
    pub fn available(&self) -> Option<&ApiServiceCondition> {
        self.status.conditions.iter().find(|c| c.type_ == "Available")
    }

    /// Whether requests for its group/version are answered (`Available` is True).
    pub fn is_available(&self) -> bool {
        self.available().is_some_and(|c| c.status == "True")
    }
}
