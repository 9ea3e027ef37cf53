//! The admission chain: named plugins in kube-apiserver's order (`AllOrderedPlugins` in
//! pkg/kubeapiserver/options/plugins.go), every mutating step first, then every validating one,
//! as the apiserver's admission chain runs them. Every write passes it, kubectl's and the
//! controllers' alike; a plugin that does not handle a request returns at once.
//!
//! Adding a plugin (LimitRanger, PodSecurity, ResourceQuota) is its file here and one row in
//! `CHAIN`.

pub(crate) mod default_storage_class;
mod default_toleration_seconds;
pub use default_toleration_seconds::default_tolerations;
mod lab_limits;
mod limit_ranger;
mod namespace_lifecycle;
mod node_restriction;
mod pod_security;
pub(crate) mod policy;
mod priority;
mod recorded;
pub(crate) mod resource_quota;
mod service_account;
pub mod service_account_volume;
mod storage_object_in_use_protection;

use super::Store;
use super::user::UserInfo;
use crate::api::{Kind, ObjectMut};
use crate::error::ApiError;

/// What a request does to its object (`admission.Operation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Create,
    Update,
    Delete,
}

/// One request as the plugins see it (`admission.Attributes`). `name` is the object's name, or
/// its generateName prefix on a create: names are generated after admission, as upstream's
/// BeforeCreate does.
pub struct Request<'a> {
    pub operation: Operation,
    pub kind: Kind,
    pub namespace: &'a str,
    pub name: &'a str,
    /// `""` for the object itself, `status` for the status subresource.
    pub subresource: &'a str,
    pub user: &'a UserInfo,
}

/// A mutating step: changes the object (defaults it fills in, values it resolves) or refuses it.
pub type Admit = fn(&Store, &Request<'_>, &mut ObjectMut<'_>) -> Result<(), ApiError>;
/// A validating step: accepts or refuses the object as mutated.
pub type Validate = fn(&Store, &Request<'_>, &ObjectMut<'_>) -> Result<(), ApiError>;

/// A plugin: its upstream name and the phases it takes part in.
pub struct Plugin {
    pub name: &'static str,
    pub admit: Option<Admit>,
    pub validate: Option<Validate>,
}

/// The enabled plugins, in upstream's order.
pub const CHAIN: &[Plugin] = &[
    namespace_lifecycle::PLUGIN,
    limit_ranger::PLUGIN,
    service_account::PLUGIN,
    node_restriction::PLUGIN,
    pod_security::PLUGIN,
    priority::PLUGIN,
    default_toleration_seconds::PLUGIN,
    default_storage_class::PLUGIN,
    storage_object_in_use_protection::PLUGIN,
    policy::mutating::PLUGIN,
    policy::validating::PLUGIN,
    resource_quota::PLUGIN,
    lab_limits::PLUGIN,
];

/// Runs the chain: every plugin's mutation in order, then every plugin's validation.
pub fn run(store: &Store, request: &Request<'_>, mut object: ObjectMut<'_>) -> Result<(), ApiError> {
    mutate(store, request, &mut object)?;
    validate(store, request, &object)
}

/// The chain's two halves (a create runs them apart, naming the object in between).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Mutating,
    Validating,
}

/// Runs every plugin's mutation, or every plugin's validation, in order.
pub fn run_phase(
    store: &Store,
    phase: Phase,
    request: &Request<'_>,
    mut object: ObjectMut<'_>,
) -> Result<(), ApiError> {
    match phase {
        Phase::Mutating => mutate(store, request, &mut object),
        Phase::Validating => validate(store, request, &object),
    }
}

pub fn mutate(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    if store.request_paths().is_open() {
        return recorded::mutate(store, request, object);
    }
    CHAIN.iter().filter_map(|p| p.admit).try_for_each(|admit| admit(store, request, object))
}

pub fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    if store.request_paths().is_open() {
        return recorded::validate(store, request, object);
    }
    CHAIN.iter().filter_map(|p| p.validate).try_for_each(|validate| validate(store, request, object))
}

/// The plugin names, in order (what `kube-apiserver --enable-admission-plugins` would list).
pub fn plugin_names() -> impl Iterator<Item = &'static str> {
    CHAIN.iter().map(|p| p.name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_chain_keeps_upstreams_order() {
        let names: Vec<&str> = super::plugin_names().collect();
        assert_eq!(
            names,
            [
                "NamespaceLifecycle",
                "LimitRanger",
                "ServiceAccount",
                "NodeRestriction",
                "PodSecurity",
                "Priority",
                "DefaultTolerationSeconds",
                "DefaultStorageClass",
                "StorageObjectInUseProtection",
                "MutatingAdmissionPolicy",
                "ValidatingAdmissionPolicy",
                "ResourceQuota",
                "LabLimits"
            ]
        );
    }
}
