//! Per-kind storage strategy (upstream's `rest.RESTCreateStrategy` per registry): which table,
//! whether the kind has a generation and a status subresource, defaulting, admission,
//! validation and graceful deletion. Plus dispatch from a runtime `Kind` to typed store calls.

use super::{
    DeleteOptions, Deleted, FieldSelector, Store, Table, Tables, admission_policy_validation, api_service,
    apps_validation, batch, custom_resource_definition, defaults, gateway_api_defaults, networking_validation,
    priority_class, quota_validation, rbac_validation, resource_validation, stateful_set, storage_validation,
    validation,
};
use crate::api::labels::Selector;
use crate::api::meta::{OwnerReference, Uid};
use crate::api::rbac::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use crate::api::{
    ApiService, ConfigMap, ControllerRevision, CronJob, CustomResourceDefinition, DaemonSet, Deployment, DeviceClass,
    EndpointSlice, Event, Gateway, GatewayClass, HorizontalPodAutoscaler, HttpRoute, Ingress, IngressClass, Job, Kind,
    Lease, LimitRange, MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding, Namespace, Node, Object,
    PersistentVolume, PersistentVolumeClaim, Pod, PodDisruptionBudget, PodGroup, PriorityClass, ReplicaSet, Resource,
    ResourceClaim, ResourceClaimTemplate, ResourceQuota, ResourceSlice, Secret, Service, ServiceAccount, StatefulSet,
    StorageClass, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding,
};
use crate::error::{ApiError, FieldError};
use serde_json::Value;

/// A kind the store can hold, with its strategy.
pub trait Stored: Resource {
    const HAS_GENERATION: bool = false;

    fn table(tables: &Tables) -> &Table<Self>;
    fn table_mut(tables: &mut Tables) -> &mut Table<Self>;

    /// Clears what a client may not set on create (status, for kinds with a status subresource).
    fn reset_status_for_create(&mut self) {}
    /// Takes `other`'s status (status subresource semantics); no-op for kinds without status.
    fn keep_status_from(&mut self, _other: &Self) {}
    /// SetDefaults_* for the kind.
    fn apply_defaults(&mut self) {}
    /// What the kind's REST storage does to a new object once admitted (a Service's ClusterIP
    /// and NodePorts are allocated here, as upstream's service REST does).
    fn before_create(&mut self, _store: &mut Store) {}
    /// What the kind's strategy derives from the stored object on an update (a DaemonSet's
    /// template generation, upstream's PrepareForUpdate).
    fn prepare_for_update(&mut self, _old: &Self) {}
    /// What follows from the uid the store has just given a new object (a Job's generated
    /// selector, which upstream's strategy makes in PrepareForCreate once the uid is filled in).
    fn with_uid(&mut self) {}
    /// The kind's own validation; metadata is checked by the caller.
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        Vec::new()
    }
    /// What a change of bumps `metadata.generation`.
    fn spec_value(&self) -> Value {
        Value::Null
    }
    /// Seconds of graceful deletion, or `None` to delete at once.
    fn graceful_deletion_seconds(&self, _requested: Option<i64>) -> Option<i64> {
        None
    }
    /// Fields whose value is a function of time, filled in as the object is read (a node
    /// Lease's `renewTime`).
    fn derive_on_read(&mut self, _store: &Store) {}
    /// What deleting the object does besides (a CRD's objects go with it).
    fn after_delete(&self, _store: &mut Store) {}
    /// Which naming rule metadata.name follows.
    fn name_rule() -> validation::NameRule {
        validation::NameRule::Subdomain
    }
}

/// `Tables` (one `Table` per kind) and each kind's `TableOf`, from the kind table.
#[doc(hidden)]
#[macro_export]
macro_rules! store_tables {
    (() $($kind:ident => $field:ident $row:tt),* $(,)?) => {
        /// Every kind's table, one field per row of the kind table.
        #[derive(Clone, Debug, Default)]
        pub struct Tables {
            $(pub $field: Table<$crate::api::$kind>,)*
        }

        impl Tables {
            /// Objects stored, every kind's together.
            pub fn len(&self) -> usize {
                0 $(+ self.$field.len())*
            }

            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
        }

        $(
            impl $crate::store::kinds::TableOf for $crate::api::$kind {
                fn table(tables: &Tables) -> &Table<Self> { &tables.$field }
                fn table_mut(tables: &mut Tables) -> &mut Table<Self> { &mut tables.$field }
            }
        )*
    };
}

/// Table accessors, generated; `Stored` impls forward to these.
pub trait TableOf: Sized {
    fn table(tables: &Tables) -> &Table<Self>;
    fn table_mut(tables: &mut Tables) -> &mut Table<Self>;
}

macro_rules! table_fns {
    () => {
        fn table(tables: &Tables) -> &Table<Self> {
            <Self as TableOf>::table(tables)
        }
        fn table_mut(tables: &mut Tables) -> &mut Table<Self> {
            <Self as TableOf>::table_mut(tables)
        }
    };
}

macro_rules! status_subresource {
    () => {
        fn reset_status_for_create(&mut self) {
            self.status = Default::default();
        }
        fn keep_status_from(&mut self, other: &Self) {
            self.status = other.status.clone();
        }
    };
}

impl Stored for Namespace {
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        defaults::namespace(self);
    }
    fn name_rule() -> validation::NameRule {
        validation::NameRule::Label
    }
    /// Marked first (phase Terminating) so the namespace controller can empty it; then removed.
    fn graceful_deletion_seconds(&self, _requested: Option<i64>) -> Option<i64> {
        self.metadata.deletion_timestamp.is_none().then_some(0)
    }
}

impl Stored for Node {
    table_fns!();
    fn keep_status_from(&mut self, other: &Self) {
        self.status = other.status.clone();
    }
}

impl Stored for Pod {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        defaults::pod(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        validation::pod(self, old)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
    fn graceful_deletion_seconds(&self, requested: Option<i64>) -> Option<i64> {
        // Upstream podStrategy.CheckGracefulDeleteAndUpdate: unscheduled or terminal pods go at once.
        let terminal = matches!(self.phase(), "Succeeded" | "Failed");
        if self.node_name().is_none() || terminal {
            return None;
        }
        let grace = requested.or(self.spec.termination_grace_period_seconds).unwrap_or(30);
        (grace > 0).then_some(grace)
    }
}

impl Stored for ReplicaSet {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        defaults::replica_set(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        validation::replica_set(self, old)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
}

impl Stored for Job {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        batch::default_job(self);
    }
    fn with_uid(&mut self) {
        batch::generate_selector(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        batch::validate_job(self, old)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
}

impl Stored for CronJob {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        batch::default_cron_job(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        batch::validate_cron_job(self)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
}

impl Stored for Deployment {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        defaults::deployment(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        validation::deployment(self, old)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
}

impl Stored for DaemonSet {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        apps_validation::default_daemon_set(self);
    }
    fn before_create(&mut self, _store: &mut Store) {
        apps_validation::prepare_daemon_set_for_create(self);
    }
    fn prepare_for_update(&mut self, old: &Self) {
        apps_validation::prepare_daemon_set_for_update(self, old);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        apps_validation::validate_daemon_set(self, old)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
}

impl Stored for ControllerRevision {
    table_fns!();
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        apps_validation::controller_revision(self, old)
    }
}

impl Stored for StatefulSet {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        stateful_set::default_stateful_set(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        stateful_set::validate_stateful_set(self, old)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
    /// ValidateStatefulSetName: a pod's hostname is the set's name and an ordinal.
    fn name_rule() -> validation::NameRule {
        validation::NameRule::Label
    }
}

impl Stored for Service {
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        defaults::service(self);
    }
    fn before_create(&mut self, store: &mut Store) {
        defaults::allocate_service_ips(self, store);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        validation::service(self, old)
    }
    fn name_rule() -> validation::NameRule {
        validation::NameRule::Label
    }
}

impl Stored for EndpointSlice {
    table_fns!();
}

impl Stored for CustomResourceDefinition {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        custom_resource_definition::apply_defaults(self);
    }
    fn before_create(&mut self, store: &mut Store) {
        custom_resource_definition::establish(self, crate::api::meta::Time(store.now()));
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        custom_resource_definition::validate(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
    fn after_delete(&self, store: &mut Store) {
        if let Some(info) = custom_resource_definition::custom_kind(&self.metadata.name) {
            store.delete_all(info.kind);
        }
    }
}

impl Stored for PodGroup {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    /// What the CRD's schema allows (`minimum: 1`), as the apiextensions server words it.
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        match self.spec.min_member {
            Some(n) if n < 1 => vec![FieldError::invalid(
                "spec.minMember",
                n.to_string(),
                "spec.minMember in body should be greater than or equal to 1",
            )],
            _ => Vec::new(),
        }
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for PriorityClass {
    table_fns!();
    fn apply_defaults(&mut self) {
        priority_class::default_priority_class(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        priority_class::validate_priority_class(self, old)
    }
}

impl Stored for ApiService {
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        api_service::default_api_service(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        api_service::validate_api_service(self)
    }
    fn name_rule() -> validation::NameRule {
        validation::NameRule::PathSegment
    }
}

impl Stored for Ingress {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn before_create(&mut self, store: &mut Store) {
        networking_validation::default_ingress_class(self, store);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        networking_validation::ingress(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for IngressClass {
    table_fns!();
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        networking_validation::ingress_class(self, old)
    }
}

impl Stored for ValidatingAdmissionPolicy {
    const HAS_GENERATION: bool = true;
    table_fns!();
    fn reset_status_for_create(&mut self) {
        self.status = None;
    }
    fn keep_status_from(&mut self, other: &Self) {
        self.status = other.status.clone();
    }
    fn apply_defaults(&mut self) {
        admission_policy_validation::default_validating(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        admission_policy_validation::validating(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for ValidatingAdmissionPolicyBinding {
    const HAS_GENERATION: bool = true;
    table_fns!();
    fn apply_defaults(&mut self) {
        admission_policy_validation::default_validating_binding(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        admission_policy_validation::validating_binding(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for MutatingAdmissionPolicy {
    const HAS_GENERATION: bool = true;
    table_fns!();
    fn apply_defaults(&mut self) {
        admission_policy_validation::default_mutating(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        admission_policy_validation::mutating(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for MutatingAdmissionPolicyBinding {
    const HAS_GENERATION: bool = true;
    table_fns!();
    fn apply_defaults(&mut self) {
        admission_policy_validation::default_mutating_binding(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        admission_policy_validation::mutating_binding(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for ServiceAccount {
    table_fns!();
}

impl Stored for Role {
    table_fns!();
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        rbac_validation::role(self)
    }
    fn name_rule() -> validation::NameRule {
        validation::NameRule::PathSegment
    }
}

impl Stored for ClusterRole {
    table_fns!();
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        rbac_validation::cluster_role(self)
    }
    fn name_rule() -> validation::NameRule {
        validation::NameRule::PathSegment
    }
}

impl Stored for RoleBinding {
    table_fns!();
    fn apply_defaults(&mut self) {
        rbac_validation::default_binding(&mut self.role_ref, &mut self.subjects);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        rbac_validation::role_binding(self, old)
    }
    fn name_rule() -> validation::NameRule {
        validation::NameRule::PathSegment
    }
}

impl Stored for ClusterRoleBinding {
    table_fns!();
    fn apply_defaults(&mut self) {
        rbac_validation::default_binding(&mut self.role_ref, &mut self.subjects);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        rbac_validation::cluster_role_binding(self, old)
    }
    fn name_rule() -> validation::NameRule {
        validation::NameRule::PathSegment
    }
}

impl Stored for GatewayClass {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for Gateway {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        gateway_api_defaults::gateway(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        networking_validation::gateway(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for HttpRoute {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        gateway_api_defaults::http_route(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        networking_validation::http_route(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for DeviceClass {
    const HAS_GENERATION: bool = true;
    table_fns!();
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        resource_validation::device_class(self)
    }
    fn spec_value(&self) -> Value {
        serde_json::to_value(&self.spec).unwrap_or(Value::Null)
    }
}

impl Stored for ResourceSlice {
    table_fns!();
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        resource_validation::resource_slice(self)
    }
}

impl Stored for ResourceClaim {
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        resource_validation::default_claim(&mut self.spec.devices);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        resource_validation::resource_claim(self, old)
    }
}

impl Stored for ResourceClaimTemplate {
    table_fns!();
    fn apply_defaults(&mut self) {
        resource_validation::default_claim(&mut self.spec.spec.devices);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        resource_validation::resource_claim_template(self, old)
    }
}

impl Stored for Lease {
    table_fns!();
    fn derive_on_read(&mut self, store: &Store) {
        super::node_lease::derive_renew_time(self, store);
    }
}

impl Stored for ConfigMap {
    table_fns!();
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        super::config_validation::config_map(self, old)
    }
}

impl Stored for Secret {
    table_fns!();
    fn apply_defaults(&mut self) {
        defaults::secret(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        super::config_validation::secret(self, old)
    }
}

impl Stored for Event {
    table_fns!();
}

impl Stored for ResourceQuota {
    table_fns!();
    status_subresource!();
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        quota_validation::resource_quota(self)
    }
}

impl Stored for LimitRange {
    table_fns!();
    fn apply_defaults(&mut self) {
        quota_validation::default_limit_range(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        quota_validation::limit_range(self)
    }
}

impl Stored for HorizontalPodAutoscaler {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        defaults::horizontal_pod_autoscaler(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        super::autoscaling_validation::horizontal_pod_autoscaler(self)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
}

impl Stored for PodDisruptionBudget {
    const HAS_GENERATION: bool = true;
    table_fns!();
    status_subresource!();
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        super::policy_validation::pod_disruption_budget(self)
    }
    fn spec_value(&self) -> Value {
        crate::api::codec::to_value(&self.spec)
    }
}

impl Stored for PersistentVolumeClaim {
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        storage_validation::default_claim(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        storage_validation::persistent_volume_claim(self, old)
    }
}

impl Stored for PersistentVolume {
    table_fns!();
    status_subresource!();
    fn apply_defaults(&mut self) {
        storage_validation::default_volume(self);
    }
    fn validate(&self, _old: Option<&Self>) -> Vec<FieldError> {
        storage_validation::persistent_volume(self)
    }
}

impl Stored for StorageClass {
    table_fns!();
    fn apply_defaults(&mut self) {
        storage_validation::default_storage_class(self);
    }
    fn validate(&self, old: Option<&Self>) -> Vec<FieldError> {
        storage_validation::storage_class(self, old)
    }
}

/// Runs `$body` with `$t` bound to the Rust type of a runtime `Kind`.
macro_rules! with_kind {
    ($kind:expr, $t:ident => $body:expr) => {
        $crate::for_each_kind!(with_kind_arms, $kind, $t, $body)
    };
}

/// The `match` behind `with_kind!`: one arm per row of the kind table.
#[doc(hidden)]
#[macro_export]
macro_rules! with_kind_arms {
    (($kind:expr, $t:ident, $body:expr) $($name:ident => $field:ident $row:tt),* $(,)?) => {
        match $kind {
            $(
                $crate::api::Kind::$name => {
                    type $t = $crate::api::$name;
                    $body
                }
            )*
        }
    };
}

/// A stored object as a client reads it.
fn read<T: Stored>(store: &Store, object: &T) -> Object {
    let mut object = object.clone();
    object.derive_on_read(store);
    object.into_object()
}

fn typed<T: Resource>(object: Object) -> T {
    T::from_object(object).expect("dispatch matched the object's kind")
}

pub fn dispatch_create(store: &mut Store, object: Object) -> Result<Object, ApiError> {
    with_kind!(object.kind(), T => store.create(typed::<T>(object)).map(Resource::into_object))
}

/// The object with its kind's defaults filled in, as a create or update would store it.
pub fn dispatch_defaults(object: Object) -> Object {
    with_kind!(object.kind(), T => {
        let mut typed = typed::<T>(object);
        typed.apply_defaults();
        typed.into_object()
    })
}

pub fn dispatch_update(store: &mut Store, object: Object) -> Result<Object, ApiError> {
    with_kind!(object.kind(), T => store.update(typed::<T>(object)).map(Resource::into_object))
}

pub fn dispatch_update_status(store: &mut Store, object: Object) -> Result<Object, ApiError> {
    with_kind!(object.kind(), T => store.update_status(typed::<T>(object)).map(|o| T::clone(&o).into_object()))
}

/// A JSON merge patch to the object, or with `status` to its status subresource.
pub fn dispatch_merge_patch(
    store: &mut Store,
    (kind, namespace, name): (Kind, &str, &str),
    patch: &serde_json::Value,
    status: bool,
) -> Result<Object, ApiError> {
    with_kind!(kind, T => if status {
        store.merge_patch_status::<T>(namespace, name, patch)
    } else {
        store.merge_patch::<T>(namespace, name, patch)
    }
    .map(Resource::into_object))
}

/// Every object of `kind` deleted at once (a CRD's objects when it goes).
pub fn dispatch_delete_all(store: &mut Store, kind: Kind) {
    with_kind!(kind, T => {
        let keys: Vec<(String, String)> =
            store.list::<T>(None).map(|o| (o.metadata().namespace.clone(), o.metadata().name.clone())).collect();
        let now = DeleteOptions { grace_period_seconds: Some(0), ..Default::default() };
        for (namespace, name) in keys {
            let _ = store.delete::<T>(&namespace, &name, &now);
        }
    })
}

pub fn dispatch_get(store: &Store, kind: Kind, namespace: &str, name: &str) -> Result<Object, ApiError> {
    with_kind!(kind, T => store.get::<T>(namespace, name).map(|o| read(store, o)))
}

pub fn dispatch_delete(
    store: &mut Store,
    kind: Kind,
    namespace: &str,
    name: &str,
    options: &DeleteOptions,
) -> Result<Deleted<Object>, ApiError> {
    with_kind!(kind, T => store.delete::<T>(namespace, name, options).map(|d| match d {
        Deleted::Gone(o) => Deleted::Gone(o.into_object()),
        Deleted::Terminating(o) => Deleted::Terminating(o.into_object()),
    }))
}

pub fn dispatch_list(
    store: &Store,
    kind: Kind,
    namespace: Option<&str>,
    labels: &Selector,
    fields: &FieldSelector,
) -> Vec<Object> {
    with_kind!(kind, T => store
        .list_selected::<T>(namespace, labels, fields)
        .map(|o| read(store, o))
        .collect())
}

/// One page of a list: the selected objects after `after` (namespace, name), at most `limit`,
/// and whether more follow. Only the page is copied, so paging through a big list (kubectl
/// asks 500 at a time) costs each page, not the whole list again.
pub fn dispatch_list_page(
    store: &Store,
    (kind, namespace): (Kind, Option<&str>),
    (labels, fields): (&Selector, &FieldSelector),
    after: Option<(&str, &str)>,
    limit: Option<usize>,
) -> (Vec<Object>, bool) {
    with_kind!(kind, T => {
        let mut selected = store
            .list_selected::<T>(namespace, labels, fields)
            .skip_while(|o| after.is_some_and(|after| list_key(*o) <= after));
        let mut items = Vec::new();
        let mut more = false;
        for object in selected.by_ref() {
            if limit.is_some_and(|limit| items.len() >= limit) {
                more = true;
                break;
            }
            items.push(read(store, object));
        }
        (items, more)
    })
}

/// Where an object sorts in a list: namespace, then name.
fn list_key<T: Stored>(object: &T) -> (&str, &str) {
    (object.metadata().namespace.as_str(), object.metadata().name.as_str())
}

/// Whether an object of any kind matches a field selector (a watch filters what it streams).
pub fn matches_fields(object: &Object, fields: &FieldSelector) -> bool {
    with_kind!(object.kind(), T => T::from_object_ref(object).is_some_and(|o| fields.matches(o)))
}

/// An object's ownerReferences, without copying the rest of it.
pub fn owner_references(store: &Store, kind: Kind, namespace: &str, name: &str) -> Vec<OwnerReference> {
    with_kind!(kind, T => store.try_get::<T>(namespace, name).map(|o| o.metadata().owner_references.clone()))
        .unwrap_or_default()
}

pub fn object_uid(store: &Store, kind: Kind, namespace: &str, name: &str) -> Option<Uid> {
    with_kind!(kind, T => store.try_get::<T>(namespace, name).map(|o| o.metadata().uid))
}

/// Objects in `namespace` (and cluster-scoped ones) that list `owner` among their owners.
pub fn dependents_of(store: &Store, namespace: &str, owner: Uid) -> Vec<(Kind, String, String)> {
    store
        .dependents(owner)
        // A cluster-scoped owner (a Node) may have dependents in any namespace (its Lease).
        .filter(|(_, ns, _)| *ns == namespace || namespace.is_empty())
        .map(|(kind, ns, name)| (kind, ns.to_string(), name.to_string()))
        .collect()
}

/// Drops one owner reference from an object (orphaning it from that owner).
pub fn remove_owner_ref(
    store: &mut Store,
    kind: Kind,
    namespace: &str,
    name: &str,
    owner: Uid,
) -> Result<(), ApiError> {
    with_kind!(kind, T => {
        let mut object = store.get::<T>(namespace, name)?.clone();
        object.metadata_mut().owner_references.retain(|r| r.uid != owner);
        store.update(object).map(|_| ())
    })
}
