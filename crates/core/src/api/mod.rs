//! The object model: Kubernetes kinds with their own field names, and what every kind shares.
//!
//! `Resource` is what generic code (store, kubectl) needs of a kind; `Object` holds any kind;
//! `Kind` and `ResourceInfo` are the discovery table (`kubectl api-resources`).

pub mod admission_policy;
pub mod affinity;
pub mod api_service;
pub mod codec;
pub mod condition;
pub mod config_map;
pub mod container;
pub mod controller_revision;
pub mod cron_job;
pub mod custom_resource_definition;
pub mod daemon_set;
pub mod deployment;
pub mod device_class;
pub mod endpoint_slice;
pub mod event;
pub mod gateway;
pub mod gateway_class;
pub mod horizontal_pod_autoscaler;
pub mod http_route;
pub mod ingress;
pub mod ingress_class;
pub mod intstr;
pub mod job;
pub mod label_selector;
pub mod labels;
pub mod lease;
pub mod limit_range;
pub mod managed_fields_entry;
pub mod meta;
pub mod mutating_admission_policy;
pub mod namespace;
pub mod node;
pub mod persistent_volume;
pub mod persistent_volume_claim;
pub mod pod;
pub mod pod_disruption_budget;
pub mod pod_group;
pub mod pod_references;
pub mod priority_class;
pub mod protobuf;
pub mod quantity;
pub mod rbac;
pub mod replica_set;
pub mod resource_claim;
pub mod resource_claim_template;
pub mod resource_quota;
pub mod resource_slice;
pub mod secret;
pub mod service;
pub mod service_account;
pub mod shared;
pub mod stateful_set;
pub mod storage_class;
pub mod strict_decoder;
pub mod string_map;
pub mod validating_admission_policy;
pub mod volume;

pub use api_service::ApiService;
pub use config_map::ConfigMap;
pub use controller_revision::ControllerRevision;
pub use cron_job::CronJob;
pub use custom_resource_definition::CustomResourceDefinition;
pub use daemon_set::DaemonSet;
pub use deployment::Deployment;
pub use device_class::DeviceClass;
pub use endpoint_slice::EndpointSlice;
pub use event::Event;
pub use gateway::Gateway;
pub use gateway_class::GatewayClass;
pub use horizontal_pod_autoscaler::HorizontalPodAutoscaler;
pub use http_route::HttpRoute;
pub use ingress::Ingress;
pub use ingress_class::IngressClass;
pub use job::Job;
pub use lease::Lease;
pub use limit_range::LimitRange;
pub use meta::ObjectMeta;
pub use mutating_admission_policy::{MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding};
pub use namespace::Namespace;
pub use node::Node;
pub use persistent_volume::PersistentVolume;
pub use persistent_volume_claim::PersistentVolumeClaim;
pub use pod::Pod;
pub use pod_disruption_budget::PodDisruptionBudget;
pub use pod_group::PodGroup;
pub use priority_class::PriorityClass;
pub use rbac::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
pub use replica_set::ReplicaSet;
pub use resource_claim::ResourceClaim;
pub use resource_claim_template::ResourceClaimTemplate;
pub use resource_quota::ResourceQuota;
pub use resource_slice::ResourceSlice;
pub use secret::Secret;
pub use service::Service;
pub use service_account::ServiceAccount;
pub use stateful_set::StatefulSet;
pub use storage_class::StorageClass;
pub use validating_admission_policy::{ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding};

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// The one table of kinds: every kind the lab serves, in discovery order, with its store
/// table's field and its discovery row (group, version, plural, singular, short names, scope).
/// Adding a kind is its `api/` file, its strategy (`impl Stored` in `store/kinds.rs`) and one
/// row here; `Kind`, `Object`, `RESOURCES`, the store's tables, the codec and every dispatch
/// from a runtime `Kind` to its type are generated from it (`for_each_kind!(macro_name)` calls
/// `macro_name!` with every row).
#[macro_export]
macro_rules! for_each_kind {
    ($then:ident $(, $($args:tt)*)?) => {
        $crate::$then! {
            ($($($args)*)?)
            Namespace => namespaces ("", "v1", "namespaces", "namespace", ["ns"], cluster),
            Node => nodes ("", "v1", "nodes", "node", ["no"], cluster),
            Pod => pods ("", "v1", "pods", "pod", ["po"], namespaced),
            ReplicaSet => replica_sets ("apps", "v1", "replicasets", "replicaset", ["rs"], namespaced),
            Deployment => deployments ("apps", "v1", "deployments", "deployment", ["deploy"], namespaced),
            DaemonSet => daemon_sets ("apps", "v1", "daemonsets", "daemonset", ["ds"], namespaced),
            ControllerRevision => controller_revisions ("apps", "v1", "controllerrevisions", "controllerrevision", [], namespaced),
            StatefulSet => stateful_sets ("apps", "v1", "statefulsets", "statefulset", ["sts"], namespaced),
            Job => jobs ("batch", "v1", "jobs", "job", [], namespaced),
            CronJob => cron_jobs ("batch", "v1", "cronjobs", "cronjob", ["cj"], namespaced),
            Service => services ("", "v1", "services", "service", ["svc"], namespaced),
            EndpointSlice => endpoint_slices ("discovery.k8s.io", "v1", "endpointslices", "endpointslice", [], namespaced),
            ConfigMap => config_maps ("", "v1", "configmaps", "configmap", ["cm"], namespaced),
            Secret => secrets ("", "v1", "secrets", "secret", [], namespaced),
            Event => events ("", "v1", "events", "event", ["ev"], namespaced),
            ResourceQuota => resource_quotas ("", "v1", "resourcequotas", "resourcequota", ["quota"], namespaced),
            LimitRange => limit_ranges ("", "v1", "limitranges", "limitrange", ["limits"], namespaced),
            PersistentVolumeClaim => persistent_volume_claims
                ("", "v1", "persistentvolumeclaims", "persistentvolumeclaim", ["pvc"], namespaced),
            PersistentVolume => persistent_volumes ("", "v1", "persistentvolumes", "persistentvolume", ["pv"], cluster),
            StorageClass => storage_classes ("storage.k8s.io", "v1", "storageclasses", "storageclass", ["sc"], cluster),
            HorizontalPodAutoscaler => horizontal_pod_autoscalers
                ("autoscaling", "v2", "horizontalpodautoscalers", "horizontalpodautoscaler", ["hpa"], namespaced),
            PodDisruptionBudget => pod_disruption_budgets ("policy", "v1", "poddisruptionbudgets", "poddisruptionbudget", ["pdb"], namespaced),
            PriorityClass => priority_classes ("scheduling.k8s.io", "v1", "priorityclasses", "priorityclass", ["pc"], cluster),
            Lease => leases ("coordination.k8s.io", "v1", "leases", "lease", [], namespaced),
            CustomResourceDefinition => custom_resource_definitions ("apiextensions.k8s.io", "v1",
                "customresourcedefinitions", "customresourcedefinition", ["crd", "crds"], cluster),
            // The aggregator's registrations: one per group/version the API server serves.
            ApiService => api_services ("apiregistration.k8s.io", "v1", "apiservices", "apiservice", [], cluster,
                kind = "APIService"),
            // Dynamic Resource Allocation: only v1 is served by default in 1.36, and none of
            // the four has a short name.
            DeviceClass => device_classes ("resource.k8s.io", "v1", "deviceclasses", "deviceclass", [], cluster),
            ResourceClaim => resource_claims ("resource.k8s.io", "v1", "resourceclaims", "resourceclaim", [], namespaced),
            ResourceClaimTemplate => resource_claim_templates ("resource.k8s.io", "v1",
                "resourceclaimtemplates", "resourceclaimtemplate", [], namespaced),
            ResourceSlice => resource_slices ("resource.k8s.io", "v1", "resourceslices", "resourceslice", [], cluster),
            Ingress => ingresses ("networking.k8s.io", "v1", "ingresses", "ingress", ["ing"], namespaced),
            IngressClass => ingress_classes ("networking.k8s.io", "v1", "ingressclasses", "ingressclass", [], cluster),
            ServiceAccount => service_accounts ("", "v1", "serviceaccounts", "serviceaccount", ["sa"], namespaced),
            Role => roles ("rbac.authorization.k8s.io", "v1", "roles", "role", [], namespaced),
            ClusterRole => cluster_roles ("rbac.authorization.k8s.io", "v1", "clusterroles", "clusterrole", [], cluster),
            RoleBinding => role_bindings ("rbac.authorization.k8s.io", "v1", "rolebindings", "rolebinding", [], namespaced),
            ClusterRoleBinding => cluster_role_bindings ("rbac.authorization.k8s.io", "v1",
                "clusterrolebindings", "clusterrolebinding", [], cluster),
            // Admission policies: CEL the API server runs in-process (both GA in 1.36).
            ValidatingAdmissionPolicy => validating_admission_policies ("admissionregistration.k8s.io", "v1",
                "validatingadmissionpolicies", "validatingadmissionpolicy", [], cluster),
            ValidatingAdmissionPolicyBinding => validating_admission_policy_bindings ("admissionregistration.k8s.io",
                "v1", "validatingadmissionpolicybindings", "validatingadmissionpolicybinding", [], cluster),
            MutatingAdmissionPolicy => mutating_admission_policies ("admissionregistration.k8s.io", "v1",
                "mutatingadmissionpolicies", "mutatingadmissionpolicy", [], cluster),
            MutatingAdmissionPolicyBinding => mutating_admission_policy_bindings ("admissionregistration.k8s.io",
                "v1", "mutatingadmissionpolicybindings", "mutatingadmissionpolicybinding", [], cluster),
            // Custom resources: served once an add-on installs their CRD.
            PodGroup => pod_groups ("scheduling.x-k8s.io", "v1alpha1", "podgroups", "podgroup", ["pg", "pgs"], namespaced, crd),
            // The Gateway API's standard channel, served once the gateway-api add-on installs it.
            GatewayClass => gateway_classes ("gateway.networking.k8s.io", "v1", "gatewayclasses", "gatewayclass", ["gc"], cluster, crd),
            Gateway => gateways ("gateway.networking.k8s.io", "v1", "gateways", "gateway", ["gtw"], namespaced, crd),
            HttpRoute => http_routes ("gateway.networking.k8s.io", "v1", "httproutes", "httproute", [], namespaced, crd,
                kind = "HTTPRoute"),
        }
    };
}

/// `Kind`, `Object`, `RESOURCES` and each kind's `Resource` impl, from the kind table.
#[doc(hidden)]
#[macro_export]
macro_rules! api_kinds {
    (() $($kind:ident => $field:ident ($group:literal, $version:literal, $plural:literal, $singular:literal,
        [$($short:literal),*], $scope:ident $(, $option:ident $(= $value:literal)?)*)),* $(,)?) => {
        /// The kinds the core knows, in discovery order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Kind {
            $($kind,)*
        }

        /// The discovery table, as `kubectl api-resources` lists these kinds.
        pub const RESOURCES: &[ResourceInfo] = &[
            $(ResourceInfo {
                kind: Kind::$kind,
                // The wire's name where Rust's differs (`HTTPRoute` for `HttpRoute`).
                kind_name: [$($($value,)?)* stringify!($kind)][0],
                group: $group,
                version: $version,
                plural: $plural,
                singular: $singular,
                short_names: &[$($short),*],
                namespaced: scope_is_namespaced(stringify!($scope)),
                custom: is_custom(&[$(stringify!($option)),*]),
            },)*
        ];

        /// An object of any kind the core knows.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Object {
            $($kind($kind),)*
        }

        /// A borrowed object of any kind, to change in place (admission's view of a request).
        #[derive(Debug)]
        pub enum ObjectMut<'a> {
            $($kind(&'a mut $kind),)*
        }

        impl Object {
            /// The object borrowed for changing in place.
            pub fn as_object_mut(&mut self) -> ObjectMut<'_> {
                match self { $(Object::$kind(o) => ObjectMut::$kind(o),)* }
            }

            pub fn kind(&self) -> Kind {
                match self { $(Object::$kind(_) => Kind::$kind,)* }
            }

            pub fn metadata(&self) -> &ObjectMeta {
                match self { $(Object::$kind(o) => &o.metadata,)* }
            }

            pub fn metadata_mut(&mut self) -> &mut ObjectMeta {
                match self { $(Object::$kind(o) => &mut o.metadata,)* }
            }

            /// The object as JSON, with `apiVersion` and `kind` (keys sorted, as kubectl prints).
            pub fn to_json_value(&self) -> serde_json::Value {
                match self { $(Object::$kind(o) => codec::to_json_value(o),)* }
            }
        }

        impl ObjectMut<'_> {
            /// The object as JSON, with `apiVersion` and `kind` (what admission policies read and a
            /// recorded admission step compares).
            pub fn to_json_value(&self) -> serde_json::Value {
                match self { $(ObjectMut::$kind(o) => codec::to_json_value(&**o),)* }
            }

            /// Replaces the object with `value` decoded as its own kind (what a mutating
            /// admission policy's patch produced); the object is left as it was on error.
            pub fn replace_from_json(&mut self, mut value: serde_json::Value) -> Result<(), String> {
                if let Some(map) = value.as_object_mut() {
                    map.remove("apiVersion");
                    map.remove("kind");
                }
                match self {
                    $(ObjectMut::$kind(o) => **o = serde_json::from_value(value).map_err(|e| e.to_string())?,)*
                }
                Ok(())
            }
        }

        $(
            impl Resource for $kind {
                const KIND: Kind = Kind::$kind;
                fn metadata(&self) -> &ObjectMeta { &self.metadata }
                fn metadata_mut(&mut self) -> &mut ObjectMeta { &mut self.metadata }
                fn into_object(self) -> Object { Object::$kind(self) }
                fn as_object_mut(&mut self) -> ObjectMut<'_> { ObjectMut::$kind(self) }
                fn from_object(object: Object) -> Option<Self> {
                    match object { Object::$kind(o) => Some(o), #[allow(unreachable_patterns)] _ => None }
                }
                fn from_object_ref(object: &Object) -> Option<&Self> {
                    match object { Object::$kind(o) => Some(o), #[allow(unreachable_patterns)] _ => None }
                }
            }
        )*
    };
}

for_each_kind!(api_kinds);

/// `cluster` or `namespaced`, as the kind table writes a kind's scope.
const fn scope_is_namespaced(scope: &str) -> bool {
    scope.len() == "namespaced".len()
}

/// Whether a kind table row's options include `crd` (a custom resource, served once its CRD is
/// installed). The other option, `kind = "…"`, spells the wire's kind name.
const fn is_custom(options: &[&str]) -> bool {
    let mut i = 0;
    while i < options.len() {
        if let [b'c', b'r', b'd'] = options[i].as_bytes() {
            return true;
        }
        i += 1;
    }
    false
}

/// One row of the discovery table: how a kind is named on the wire and on the command line.
#[derive(Debug)]
pub struct ResourceInfo {
    pub kind: Kind,
    pub kind_name: &'static str,
    pub group: &'static str,
    pub version: &'static str,
    pub plural: &'static str,
    pub singular: &'static str,
    pub short_names: &'static [&'static str],
    pub namespaced: bool,
    /// A custom resource: served only while its CustomResourceDefinition (named
    /// `plural_qualified()`) is installed and Established.
    pub custom: bool,
}

impl ResourceInfo {
    /// `apps/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.to_string() } else { format!("{}/{}", self.group, self.version) }
    }

    /// `deployment.apps`, or `pod` for the core group: how kubectl names a kind in `TYPE/NAME`.
    pub fn singular_qualified(&self) -> String {
        qualify(self.singular, self.group)
    }

    /// `deployments.apps`, or `pods`: how API errors name a resource (`pods "x" not found`).
    pub fn plural_qualified(&self) -> String {
        qualify(self.plural, self.group)
    }
}

fn qualify(name: &str, group: &str) -> String {
    if group.is_empty() { name.to_string() } else { format!("{name}.{group}") }
}

impl Kind {
    pub fn info(self) -> &'static ResourceInfo {
        RESOURCES.iter().find(|r| r.kind == self).expect("every Kind has a RESOURCES row")
    }

    /// The kind named by a manifest's `kind` (exact, case-sensitive, as the API server is).
    pub fn from_kind_name(name: &str) -> Option<Kind> {
        RESOURCES.iter().find(|r| r.kind_name == name).map(|r| r.kind)
    }

    /// The kind named on kubectl's command line: plural, singular, short name or Kind, any case,
    /// optionally group-qualified (`deployments.apps`).
    pub fn from_cli_name(name: &str) -> Option<Kind> {
        let lower = name.to_ascii_lowercase();
        let (base, group) = match lower.split_once('.') {
            Some((b, g)) => (b.to_string(), Some(g.to_string())),
            None => (lower.clone(), None),
        };
        RESOURCES
            .iter()
            .find(|r| {
                let names_match = r.plural == base
                    || r.singular == base
                    || r.kind_name.to_ascii_lowercase() == base
                    || r.short_names.contains(&base.as_str());
                names_match && group.as_deref().is_none_or(|g| g == r.group)
            })
            .map(|r| r.kind)
    }
}

/// What generic code needs of every kind.
pub trait Resource: Clone + Debug + PartialEq + Serialize + DeserializeOwned + 'static {
    const KIND: Kind;

    fn metadata(&self) -> &ObjectMeta;
    fn metadata_mut(&mut self) -> &mut ObjectMeta;
    fn into_object(self) -> Object;
    fn as_object_mut(&mut self) -> ObjectMut<'_>;
    fn from_object(object: Object) -> Option<Self>;
    fn from_object_ref(object: &Object) -> Option<&Self>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_names_resolve_like_kubectl() {
        for (name, kind) in [
            ("po", Kind::Pod),
            ("pods", Kind::Pod),
            ("Pod", Kind::Pod),
            ("deploy", Kind::Deployment),
            ("deployments.apps", Kind::Deployment),
            ("rs", Kind::ReplicaSet),
            ("svc", Kind::Service),
            ("endpointslices", Kind::EndpointSlice),
            ("no", Kind::Node),
            ("hpa", Kind::HorizontalPodAutoscaler),
            ("horizontalpodautoscalers.autoscaling", Kind::HorizontalPodAutoscaler),
        ] {
            assert_eq!(Kind::from_cli_name(name), Some(kind), "{name}");
        }
        assert_eq!(Kind::from_cli_name("pdo"), None);
        assert_eq!(Kind::from_cli_name("deployments.core"), None);
        assert_eq!(Kind::Deployment.info().singular_qualified(), "deployment.apps");
        assert_eq!(Kind::Pod.info().plural_qualified(), "pods");
    }
}
