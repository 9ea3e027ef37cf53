//! The store: the API server and etcd in one. Create, get, list, update, patch and delete with
//! defaulting, validation, resourceVersion, generation and a watch log. **Only the store writes.**
//!
//! Mirrors the apiserver's generic registry (`staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`):
//! a write runs the kind's strategy (defaults, validation), bumps the resourceVersion and
//! appends to the watch log.

pub mod admission;
pub mod admission_policy_validation;
pub mod api_service;
pub mod apps_validation;
pub mod authorizer;
pub mod autoscaling_validation;
pub mod batch;
pub mod batch_policies;
pub mod binding;
pub mod config_validation;
pub mod custom_resource_definition;
pub mod defaults;
pub mod etcd_snapshot;
pub mod event_recorder;
pub mod eviction;
pub mod field_selector;
pub mod gateway_api_defaults;
pub mod kinds;
pub mod lab_limits;
pub mod lab_roles;
pub mod networking_validation;
pub mod node_authorizer;
pub mod node_lease;
pub mod node_settings;
pub mod owner_index;
pub mod policy_validation;
pub mod priority_class;
pub mod quota;
pub mod quota_validation;
pub mod rbac;
pub mod rbac_validation;
pub mod request_path;
pub mod resource_validation;
pub mod service_account_token;
pub mod stateful_set;
pub mod storage_validation;
pub mod table;
pub mod trace;
pub mod user;
pub mod validation;
pub mod warnings;
pub mod watch;

use crate::api::labels::Selector;
use crate::api::meta::{OwnerReference, ResourceVersion, Time, Uid};
use crate::api::{Kind, Namespace, Object, ObjectMeta, Resource};
use crate::error::{ApiError, FieldError};
use crate::sim::random::{Purpose, RandomStreams};
use crate::sim::time::SimTime;
use authorizer::{Attributes, Authorizer, Decision};
pub use field_selector::FieldSelector;
pub use kinds::Stored;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
pub use table::Table;
pub use user::UserInfo;
use watch::{Snapshots, WatchEvent, WatchEventType, WatchLog};

/// Namespaces every cluster starts with.
pub const INITIAL_NAMESPACES: &[&str] = &["default", "kube-node-lease", "kube-public", "kube-system"];

/// How dependents are treated when their owner is deleted (`--cascade`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PropagationPolicy {
    #[default]
    Background,
    Foreground,
    Orphan,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeleteOptions {
    /// `--grace-period`; `None` uses the object's own (a pod's terminationGracePeriodSeconds).
    pub grace_period_seconds: Option<i64>,
    pub propagation_policy: PropagationPolicy,
}

/// What a delete did: removed the object now, or marked it for graceful deletion.
#[derive(Clone, Debug, PartialEq)]
pub enum Deleted<T> {
    Gone(T),
    Terminating(T),
}

// One table per kind, generated from the kind table (`api::for_each_kind!`), with the
// `TableOf` impls typed code reaches them through.
crate::for_each_kind!(store_tables);

#[derive(Clone, Debug)]
pub struct Store {
    tables: Tables,
    now: SimTime,
    resource_version: u64,
    /// The lab's random streams, one per purpose (`sim/random.rs`).
    random: RandomStreams,
    /// Token volume names drawn during admission, which sees the store read-only.
    token_volume_names: crate::sim::random::SharedStream,
    /// The token volume every pod gets, made once so pods share its sources.
    pub(crate) token_volume_source: crate::api::volume::ProjectedVolumeSource,
    watch: WatchLog,
    /// Object states for open watch streams (`kubectl get -w`).
    snapshots: Snapshots,
    /// For each uid named as an owner, the objects that name it.
    dependents: owner_index::OwnerIndex,
    /// One shared copy of the tolerations admission gives most pods (see `shared.rs`).
    pub(crate) default_tolerations: crate::api::shared::Shared<Vec<crate::api::affinity::Toleration>>,
    /// Where each recent Event lives, by what makes repeats the same (see `event_recorder.rs`).
    pub(crate) event_index: BTreeMap<event_recorder::EventKey, (String, String)>,
    /// Where Event names resume within the current millisecond.
    event_names: event_recorder::EventNames,
    /// Every write as it happens (and the commands that caused them), never read back through
    /// the bounded watch log, so no compaction can drop a line.
    trace: trace::Trace,
    /// Each node's Lease renewals (`node_lease.rs`): data, so a quiet cluster writes nothing.
    heartbeats: BTreeMap<String, node_lease::Heartbeat>,
    /// Bumped whenever a kubelet starts or stops renewing (the node lifecycle controller
    /// looks at the renewals again only then).
    heartbeats_changed: u64,
    /// The lab's budgets (`lab_limits.rs`).
    limits: lab_limits::LabLimits,
    /// The lab's node-health settings (`node_settings.rs`).
    node_settings: node_settings::NodeSettings,
    /// Who the writes now being made are for: the request's user (`act_as`).
    user: Arc<UserInfo>,
    /// Replaces the cluster's authorizers (a test's); `None` asks the cluster's own chain.
    authorizer: Option<Arc<dyn Authorizer>>,
    /// The bindings resolved for the RBAC authorizer, rebuilt whenever an RBAC object changes.
    rbac: Arc<rbac::RbacIndex>,
    /// Bumped whenever an RBAC object changes (what the aggregation controller watches).
    rbac_generation: u64,
    /// While set, RBAC writes leave the index as it is (the bootstrap policy builds it once).
    rbac_index_deferred: bool,
    /// The stream the uids of the objects now being created come from, when not the usual
    /// one (the bootstrap policy's, so the learner's uids stay as they were without it).
    uid_purpose: Option<Purpose>,
    /// Set while a request the door has already authorized writes (a PATCH's update, a scale
    /// subresource's write to its object): its updates are not asked about again.
    authorized_update: bool,
    /// `Warning`s for the request being served, until the HTTP layer or kubectl takes them.
    warnings: warnings::Warnings,
    /// Requests' ways through the gates, while a host asks for them (`request_path.rs`).
    request_paths: request_path::Recorder,
}

impl Store {
    /// An empty cluster with the initial namespaces. `seed` drives uids and generated names.
    pub fn new(seed: u64) -> Store {
        let mut store = Store {
            tables: Tables::default(),
            now: SimTime::ZERO,
            resource_version: 0,
            random: RandomStreams::new(seed),
            token_volume_names: crate::sim::random::SharedStream::new(seed, Purpose::TokenVolumeName),
            token_volume_source: admission::service_account_volume::token_volume_source(),
            watch: WatchLog::default(),
            snapshots: Snapshots::default(),
            dependents: owner_index::OwnerIndex::default(),
            default_tolerations: crate::api::shared::Shared::new(admission::default_tolerations(
                node_settings::NodeSettings::default().default_toleration_seconds,
            )),
            event_index: BTreeMap::new(),
            event_names: event_recorder::EventNames::default(),
            trace: trace::Trace::new(),
            heartbeats: BTreeMap::new(),
            heartbeats_changed: 0,
            limits: lab_limits::LabLimits::default(),
            node_settings: node_settings::NodeSettings::default(),
            user: UserInfo::apiserver(),
            authorizer: None,
            rbac: Arc::default(),
            rbac_generation: 0,
            rbac_index_deferred: false,
            uid_purpose: None,
            authorized_update: false,
            warnings: warnings::Warnings::default(),
            request_paths: request_path::Recorder::default(),
        };
        for name in INITIAL_NAMESPACES {
            let ns = Namespace { metadata: ObjectMeta::named("", name), ..Default::default() };
            store.create(ns).expect("initial namespaces are valid");
        }
        for class in priority_class::system_priority_classes() {
            store.create(class).expect("the system priority classes are valid");
        }
        rbac::bootstrap(&mut store);
        crate::controllers::service_account::ensure_defaults(&mut store);
        crate::controllers::root_ca_publisher::publish(&mut store);
        store
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Makes the writes that follow `user`'s, until the next `act_as`; returns whose they were.
    /// The door sets the request's user; each controller, the scheduler and every kubelet set
    /// their own before they write (`controllers/registry.rs`).
    pub fn act_as(&mut self, user: Arc<UserInfo>) -> Arc<UserInfo> {
        std::mem::replace(&mut self.user, user)
    }

    /// Whose the writes now being made are.
    pub fn user(&self) -> &Arc<UserInfo> {
        &self.user
    }

    /// Adds warnings for the request being served.
    pub(crate) fn warn(&self, warnings: Vec<String>) {
        self.warnings.push(warnings);
    }

    /// The warnings of the request just served, once.
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.warnings.take()
    }

    /// Requests' ways through the gates (recorded only while `set_recording` is on).
    pub fn request_paths(&self) -> &request_path::Recorder {
        &self.request_paths
    }

    pub fn request_paths_mut(&mut self) -> &mut request_path::Recorder {
        &mut self.request_paths
    }

    /// How many warnings the request being served has so far.
    pub(crate) fn warning_count(&self) -> usize {
        self.warnings.count()
    }

    /// The warnings of the request being served from the `from`-th on (what one plugin added).
    pub(crate) fn warnings_since(&self, from: usize) -> Vec<String> {
        self.warnings.since(from)
    }

    /// Replaces the cluster's authorizers (a test's).
    pub fn set_authorizer(&mut self, authorizer: Arc<dyn Authorizer>) {
        self.authorizer = Some(authorizer);
    }

    /// Holds the RBAC index while many RBAC objects are written at once; rebuilds it when let go.
    pub(crate) fn defer_rbac_index(&mut self, deferred: bool) {
        self.rbac_index_deferred = deferred;
        if !deferred {
            self.rbac = Arc::new(rbac::RbacIndex::build(self));
        }
    }

    /// How many RBAC writes there have been.
    pub fn rbac_generation(&self) -> u64 {
        self.rbac_generation
    }

    /// The RBAC authorizer's view of the bindings.
    pub fn rbac(&self) -> &rbac::RbacIndex {
        &self.rbac
    }

    /// The API server's authorizer chain (`--authorization-mode=Node,RBAC`, kubeadm's): the
    /// privileged group first, then the Node authorizer, then RBAC.
    /// Returns the decision and who made it.
    fn decide(&self, attributes: &Attributes<'_>) -> (Decision, &'static str) {
        if let Some(custom) = &self.authorizer {
            return (custom.authorize(attributes), "the lab's authorizer");
        }
        if attributes.user.groups.iter().any(|g| g == rbac::SUPERUSER_GROUP) {
            return (Decision::Allow, "privileged group system:masters");
        }
        match node_authorizer::authorize(self, attributes) {
            Decision::NoOpinion => (self.rbac.authorize(attributes), "RBAC"),
            decided => (decided, "Node"),
        }
    }

    /// Asks the authorizer whether the current user may `verb` this object.
    pub(crate) fn authorize(
        &self,
        verb: &'static str,
        kind: Kind,
        namespace: &str,
        name: &str,
        subresource: &str,
    ) -> Result<(), ApiError> {
        if self.authorized_update && verb == "update" {
            return Ok(());
        }
        self.authorize_as(&self.user, (verb, kind), namespace, name, subresource)
    }

    /// Authorizes one request as `verb` on `subresource` of the object, then runs the writes
    /// that serve it: upstream authorizes a request once, as it was made (a PATCH, an update
    /// of `deployments/scale`), not each write its handler makes.
    pub fn authorized_write<R>(
        &mut self,
        (verb, kind, namespace, name, subresource): (&'static str, Kind, &str, &str, &str),
        write: impl FnOnce(&mut Store) -> Result<R, ApiError>,
    ) -> Result<R, ApiError> {
        self.authorize(verb, kind, namespace, name, subresource)?;
        let outer = std::mem::replace(&mut self.authorized_update, true);
        let result = write(self);
        self.authorized_update = outer;
        result
    }

    /// Asks the authorizer whether `user` may `verb` this object (a read, which changes nothing).
    pub(crate) fn authorize_as(
        &self,
        user: &UserInfo,
        (verb, kind): (&'static str, Kind),
        namespace: &str,
        name: &str,
        subresource: &str,
    ) -> Result<(), ApiError> {
        let attributes = Attributes { user, verb, kind, namespace, name, subresource };
        let (decision, decided_by) = self.decide(&attributes);
        let result = match &decision {
            Decision::Allow => Ok(()),
            Decision::Deny(reason) => Err(authorizer::forbidden(&attributes, reason)),
            Decision::NoOpinion => Err(authorizer::forbidden(&attributes, "")),
        };
        if self.request_paths.is_open() {
            self.record_authorization(&attributes, (&decision, decided_by), &result);
        }
        result
    }

    /// Runs the admission chain over an object a request writes.
    fn admit<T: Stored>(
        &self,
        operation: admission::Operation,
        (namespace, name, subresource): (&str, &str, &str),
        object: &mut T,
    ) -> Result<(), ApiError> {
        let request = admission::Request { operation, kind: T::KIND, namespace, name, subresource, user: &self.user };
        admission::run(self, &request, object.as_object_mut())?;
        rbac::escalation::confirm_no_escalation(self, &self.user, namespace, &object.as_object_mut())
    }

    /// Runs one phase of the admission chain over a new object: upstream's create handler runs
    /// the mutating plugins, then the storage names the object and validates it, and only
    /// then do the validating plugins see it (by its generated name).
    fn admit_create<T: Stored>(
        &self,
        phase: admission::Phase,
        namespace: &str,
        object: &mut T,
    ) -> Result<(), ApiError> {
        let meta = object.metadata();
        let name = if meta.name.is_empty() { meta.generate_name.clone() } else { meta.name.clone() };
        let operation = admission::Operation::Create;
        let request =
            admission::Request { operation, kind: T::KIND, namespace, name: &name, subresource: "", user: &self.user };
        admission::run_phase(self, phase, &request, object.as_object_mut())?;
        if phase == admission::Phase::Validating {
            rbac::escalation::confirm_no_escalation(self, &self.user, namespace, &object.as_object_mut())?;
        }
        Ok(())
    }

    /// Moves the store's clock (timestamps of later writes). Only the simulation calls this.
    pub fn set_now(&mut self, now: SimTime) {
        self.now = now;
    }

    pub fn resource_version(&self) -> u64 {
        self.resource_version
    }

    pub fn watch_log(&self) -> &WatchLog {
        &self.watch
    }

    pub fn watch_log_mut(&mut self) -> &mut WatchLog {
        &mut self.watch
    }

    /// The lab's budgets.
    pub fn limits(&self) -> &lab_limits::LabLimits {
        &self.limits
    }

    /// Sets the lab's budgets (a big sandbox allows more than a lesson).
    pub fn set_limits(&mut self, limits: lab_limits::LabLimits) {
        self.limits = limits;
    }

    /// The lab's node-health settings.
    pub fn node_settings(&self) -> &node_settings::NodeSettings {
        &self.node_settings
    }

    /// Sets them; pods created from now on get the new default tolerations.
    pub fn set_node_settings(&mut self, settings: node_settings::NodeSettings) {
        self.default_tolerations =
            crate::api::shared::Shared::new(admission::default_tolerations(settings.default_toleration_seconds));
        self.node_settings = settings;
    }

    /// Every command and write so far, as JSON lines.
    pub fn trace(&self) -> &trace::Trace {
        &self.trace
    }

    /// Stops tracing (a bare store, as its benchmarks drive it: the trace is the simulation's
    /// record, and costs a line per write).
    pub fn stop_trace(&mut self) {
        self.trace = trace::Trace::off();
    }

    /// Notes a user command in the trace, before the writes it causes.
    pub(crate) fn trace_command(&mut self, line: &str) {
        self.trace.command(self.now, line);
    }

    /// Notes a request from outside the simulation (a real node's report), before its writes.
    pub(crate) fn trace_input(&mut self, input: &serde_json::Value) {
        self.trace.input(self.now, input);
    }

    pub fn snapshots(&self) -> &Snapshots {
        &self.snapshots
    }

    /// Opens and closes watch streams (see `Snapshots`).
    pub fn snapshots_mut(&mut self) -> &mut Snapshots {
        &mut self.snapshots
    }

    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// A `kube-api-access-` volume's suffix (the ServiceAccount admission plugin's
    /// `generateName`), drawn from its own stream so pod names stay as they were.
    pub(crate) fn token_volume_suffix(&self) -> String {
        self.token_volume_names.name_suffix(5)
    }

    /// A random draw in `0..bound` for `purpose` (IPs and ports chosen at admission, container
    /// ids, the scheduler's ties), from that purpose's own seeded stream.
    pub fn random_below(&mut self, purpose: Purpose, bound: u64) -> u64 {
        self.random.below(purpose, bound)
    }

    pub fn get<T: Stored>(&self, namespace: &str, name: &str) -> Result<&T, ApiError> {
        let namespace = scope_namespace::<T>(namespace);
        T::table(&self.tables)
            .get(namespace, name)
            .ok_or_else(|| ApiError::not_found(T::KIND.info().plural_qualified(), name))
    }

    /// `get` as a shared handle (the stored object an update starts from).
    fn get_shared<T: Stored>(&self, namespace: &str, name: &str) -> Result<Arc<T>, ApiError> {
        self.try_get_shared(namespace, name).ok_or_else(|| ApiError::not_found(T::KIND.info().plural_qualified(), name))
    }

    pub fn try_get<T: Stored>(&self, namespace: &str, name: &str) -> Option<&T> {
        T::table(&self.tables).get(scope_namespace::<T>(namespace), name)
    }

    /// `try_get` as a shared handle, for a caller that reads the object while writing the store.
    pub fn try_get_shared<T: Stored>(&self, namespace: &str, name: &str) -> Option<Arc<T>> {
        T::table(&self.tables).get_shared(scope_namespace::<T>(namespace), name)
    }

    /// Objects of one kind in a namespace (or all namespaces), in name order.
    pub fn list<T: Stored>(&self, namespace: Option<&str>) -> impl Iterator<Item = &T> {
        let namespace = if T::KIND.info().namespaced { namespace } else { None };
        T::table(&self.tables).iter(namespace)
    }

    /// `list` filtered by label and field selectors.
    pub fn list_selected<'a, T: Stored>(
        &'a self,
        namespace: Option<&'a str>,
        labels: &'a Selector,
        fields: &'a FieldSelector,
    ) -> impl Iterator<Item = &'a T> + 'a {
        self.list::<T>(namespace).filter(move |o| labels.matches(&o.metadata().labels) && fields.matches(*o))
    }

    pub fn count<T: Stored>(&self) -> usize {
        T::table(&self.tables).len()
    }

    /// Creates an object: defaults, validates, assigns uid/resourceVersion/timestamps.
    pub fn create<T: Stored>(&mut self, mut object: T) -> Result<T, ApiError> {
        self.prepare_create(&mut object)?;
        let (ns, name) = key_of(&object);
        if T::table(&self.tables).get(&ns, &name).is_some() {
            let resource = T::KIND.info().plural_qualified();
            return Err(ApiError::AlreadyExists { resource, name });
        }
        let meta = object.metadata_mut();
        let purpose = self.uid_purpose.unwrap_or(if is_system(meta) { Purpose::SystemUid } else { Purpose::Uid });
        let rng = self.random.stream(purpose);
        meta.uid = Uid::from_random(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()));
        object.with_uid();
        let meta = object.metadata_mut();
        meta.creation_timestamp = Some(Time(self.now));
        meta.deletion_timestamp = None;
        meta.generation = i64::from(T::HAS_GENERATION);
        self.index_owner_refs(T::KIND, object.metadata(), true);
        self.charge_quota(&mut object);
        self.commit(object, WatchEventType::Added)
    }

    /// The ResourceQuota plugin's charge for a create it admitted: the namespace's quotas'
    /// `status.used` grow before the object is stored, as upstream's quota evaluator writes them.
    fn charge_quota<T: Stored>(&mut self, object: &mut T) {
        let namespace = object.metadata().namespace.clone();
        if !admission::resource_quota::namespace_has_quota(self, &namespace) {
            return;
        }
        let name = object.metadata().name.clone();
        let request = admission::Request {
            operation: admission::Operation::Create,
            kind: T::KIND,
            namespace: &namespace,
            name: &name,
            subresource: "",
            user: &self.user,
        };
        let charged = admission::resource_quota::new_usage(self, &request, &object.as_object_mut()).unwrap_or_default();
        admission::resource_quota::charge(self, &namespace, charged);
    }

    /// Metadata checks, name generation, defaulting and validation ahead of a create.
    fn prepare_create<T: Stored>(&mut self, object: &mut T) -> Result<(), ApiError> {
        let info = T::KIND.info();
        let meta = object.metadata_mut();
        if info.namespaced && meta.namespace.is_empty() {
            meta.namespace = "default".to_string();
        }
        if !info.namespaced {
            meta.namespace.clear();
        }
        meta.resource_version = ResourceVersion(0);
        let namespace = object.metadata().namespace.clone();
        let meta = object.metadata();
        let admitted_as = if meta.name.is_empty() { meta.generate_name.clone() } else { meta.name.clone() };
        self.authorize("create", T::KIND, &namespace, &admitted_as, "")?;
        object.reset_status_for_create();
        object.apply_defaults();
        self.admit_create(admission::Phase::Mutating, &namespace, object)?;
        object.before_create(self);
        let meta = object.metadata_mut();
        if meta.name.is_empty() && !meta.generate_name.is_empty() {
            // Like the API server (RetryGenerateName, GA in 1.32): up to 8 tries for a free name.
            let table = T::table(&self.tables);
            let rng = self.random.stream(if is_system(meta) { Purpose::SystemName } else { Purpose::GeneratedName });
            for _ in 0..8 {
                meta.name = format!("{}{}", meta.generate_name, rng.name_suffix(5));
                if table.get(&namespace, &meta.name).is_none() {
                    break;
                }
            }
        }
        let causes = validation::validate_object(object, None);
        let validated = if causes.is_empty() {
            Ok(())
        } else {
            Err(ApiError::invalid(info.kind_name, &object.metadata().name, causes))
        };
        if self.request_paths.is_open() {
            self.record_validation(&validated);
        }
        validated?;
        self.admit_create(admission::Phase::Validating, &namespace, object)
    }

    /// Replaces an object's metadata and spec (PUT). Status is kept from the stored object for
    /// kinds with a status subresource. Writing an identical object changes nothing.
    pub fn update<T: Stored>(&mut self, mut object: T) -> Result<T, ApiError> {
        let old = self.existing_for_update(&mut object)?;
        let (namespace, name) = (&old.metadata().namespace, &old.metadata().name);
        self.authorize("update", T::KIND, namespace, name, "")?;
        self.admit(admission::Operation::Update, (namespace, name, ""), &mut object)?;
        object.keep_status_from(&old);
        object.apply_defaults();
        object.prepare_for_update(&old);
        let causes = validation::validate_object(&object, Some(&old));
        let validated = if causes.is_empty() {
            Ok(())
        } else {
            Err(ApiError::invalid(T::KIND.info().kind_name, &object.metadata().name, causes))
        };
        if self.request_paths.is_open() {
            self.record_validation(&validated);
        }
        validated?;
        let spec_changed = object.spec_value() != old.spec_value();
        object.metadata_mut().generation = old.metadata().generation + i64::from(T::HAS_GENERATION && spec_changed);
        self.finish_update(object, old).map(Arc::unwrap_or_clone)
    }

    /// Replaces only an object's status (the `/status` subresource): what controllers and the
    /// kubelet write.
    /// Returns the stored object, shared with the store (no copy is made for the caller).
    pub fn update_status<T: Stored>(&mut self, object: T) -> Result<Arc<T>, ApiError> {
        let (ns, name) = key_of(&object);
        self.authorize("update", T::KIND, &ns, &name, "status")?;
        let old = self.get_shared::<T>(&ns, &name)?;
        let mut merged = (*old).clone();
        merged.keep_status_from(&object);
        self.admit(admission::Operation::Update, (&ns, &name, "status"), &mut merged)?;
        self.finish_update(merged, old)
    }

    /// Looks up the stored object an update targets and carries over what a client cannot change.
    fn existing_for_update<T: Stored>(&self, object: &mut T) -> Result<Arc<T>, ApiError> {
        let (ns, name) = key_of(object);
        let info = T::KIND.info();
        let ns = if info.namespaced && ns.is_empty() { "default".to_string() } else { ns };
        let old = self.get_shared::<T>(&ns, &name)?;
        let sent_rv = object.metadata().resource_version;
        if !sent_rv.is_empty() && sent_rv != old.metadata().resource_version {
            return Err(ApiError::Conflict {
                resource: info.plural_qualified(),
                name,
                message: "the object has been modified; please apply your changes to the latest version and try again"
                    .into(),
            });
        }
        let meta = object.metadata_mut();
        let old_meta = old.metadata();
        meta.namespace = old_meta.namespace.clone();
        meta.uid = old_meta.uid;
        meta.creation_timestamp = old_meta.creation_timestamp;
        meta.deletion_timestamp = old_meta.deletion_timestamp;
        meta.deletion_grace_period_seconds = old_meta.deletion_grace_period_seconds;
        meta.generate_name = old_meta.generate_name.clone();
        meta.resource_version = old_meta.resource_version;
        Ok(old)
    }

    fn finish_update<T: Stored>(&mut self, object: T, old: Arc<T>) -> Result<Arc<T>, ApiError> {
        if object == *old {
            if self.request_paths.is_open() {
                self.record_storage(format!("unchanged at resourceVersion {}", old.metadata().resource_version.0));
            }
            return Ok(old);
        }
        // Name, namespace and kind never change on update, so only new owners move the index.
        if object.metadata().owner_references != old.metadata().owner_references {
            self.index_owner_refs(T::KIND, old.metadata(), false);
            self.index_owner_refs(T::KIND, object.metadata(), true);
        }
        // Upstream `ShouldDeleteDuringUpdate`: the last finalizer gone and no grace period left;
        // a pod still in its grace period (the kubelet reporting status) stays.
        let meta = object.metadata();
        let finished = meta.deletion_timestamp.is_some()
            && meta.finalizers.is_empty()
            && meta.deletion_grace_period_seconds.unwrap_or(0) == 0;
        if finished {
            let (ns, name) = key_of(&object);
            return self.remove::<T>(&ns, &name).map(Arc::new);
        }
        Ok(self.commit_shared(object, WatchEventType::Modified))
    }

    /// JSON merge patch (RFC 7386), as `kubectl patch --type merge` and apply use it.
    pub fn merge_patch<T: Stored>(&mut self, namespace: &str, name: &str, patch: &Value) -> Result<T, ApiError> {
        let patched = self.merge_patched::<T>(namespace, name, patch)?;
        self.update(patched)
    }

    /// A JSON merge patch to the status subresource (`kubectl patch --subresource=status`, a
    /// kubelet's status report): only the status it patches is written.
    pub fn merge_patch_status<T: Stored>(&mut self, namespace: &str, name: &str, patch: &Value) -> Result<T, ApiError> {
        let patched = self.merge_patched::<T>(namespace, name, patch)?;
        self.update_status(patched).map(|o| T::clone(&o))
    }

    /// The object as the patch would leave it.
    fn merge_patched<T: Stored>(&self, namespace: &str, name: &str, patch: &Value) -> Result<T, ApiError> {
        let current = self.get::<T>(namespace, name)?;
        let mut document = crate::api::codec::to_json_value(current);
        json_patch::merge(&mut document, patch);
        let patched: T =
            crate::api::codec::decode_typed(document).map_err(|e| ApiError::BadRequest { message: e.to_string() })?;
        if patched.metadata().name != name {
            return Err(ApiError::BadRequest {
                message: "metadata.name: the name of the object may not be changed".into(),
            });
        }
        Ok(patched)
    }

    /// Deletes an object. Pods bound to a node, and objects with finalizers, are only marked
    /// (deletionTimestamp); the kubelet or the finalizer's owner finishes the job.
    pub fn delete<T: Stored>(
        &mut self,
        namespace: &str,
        name: &str,
        options: &DeleteOptions,
    ) -> Result<Deleted<T>, ApiError> {
        self.authorize("delete", T::KIND, scope_namespace::<T>(namespace), name, "")?;
        let current = self.get::<T>(namespace, name)?.clone();
        let ns = current.metadata().namespace.clone();
        if options.propagation_policy == PropagationPolicy::Orphan {
            self.orphan_dependents(&ns, current.metadata().uid);
        }
        if current.metadata().deletion_timestamp.is_some() && options.grace_period_seconds != Some(0) {
            return Ok(Deleted::Terminating(current));
        }
        let grace = current.graceful_deletion_seconds(options.grace_period_seconds);
        if grace.is_none() && current.metadata().finalizers.is_empty() {
            return self.remove::<T>(&ns, name).map(Deleted::Gone);
        }
        let mut marked = current;
        let meta = marked.metadata_mut();
        let grace = grace.unwrap_or(0);
        meta.deletion_timestamp = Some(Time(self.now.plus(crate::sim::time::Duration::from_secs(grace as u64))));
        meta.deletion_grace_period_seconds = Some(grace);
        self.commit(marked, WatchEventType::Modified).map(Deleted::Terminating)
    }

    /// Deletes every object of `kind` now (what a CRD's deletion takes with it).
    pub fn delete_all(&mut self, kind: crate::api::Kind) {
        kinds::dispatch_delete_all(self, kind);
    }

    fn remove<T: Stored>(&mut self, namespace: &str, name: &str) -> Result<T, ApiError> {
        let removed = T::table_mut(&mut self.tables)
            .remove(namespace, name)
            .ok_or_else(|| ApiError::not_found(T::KIND.info().plural_qualified(), name))?;
        self.index_owner_refs(T::KIND, removed.metadata(), false);
        self.resource_version += 1;
        if self.request_paths.is_open() {
            self.record_storage(format!("deleted at resourceVersion {}", self.resource_version));
        }
        self.record(WatchEventType::Deleted, T::KIND, removed.metadata());
        removed.after_delete(self);
        self.rbac_changed(T::KIND);
        if self.snapshots.wants(T::KIND) {
            self.snapshots.push(self.resource_version, removed.clone().into_object());
        }
        Ok(removed)
    }

    /// Whether any live object lists `uid` as an owner.
    pub fn has_dependents(&self, uid: Uid) -> bool {
        self.dependents.has_dependents(uid)
    }

    /// Every uid some object names in its ownerReferences (the garbage collector's relist).
    pub fn owner_uids(&self) -> impl Iterator<Item = Uid> + '_ {
        self.dependents.owners()
    }

    /// The objects whose ownerReferences name `owner`, as (kind, namespace, name), sorted.
    pub fn dependents(&self, owner: Uid) -> impl Iterator<Item = (Kind, &str, &str)> {
        self.dependents.dependents(owner)
    }

    /// Objects of kind `T` whose ownerReferences name `owner` (a ReplicaSet's pods, …).
    pub fn owned<T: Stored>(&self, owner: Uid) -> impl Iterator<Item = &T> {
        self.dependents(owner)
            .filter(|(kind, _, _)| *kind == T::KIND)
            .filter_map(|(_, namespace, name)| self.try_get::<T>(namespace, name))
    }

    /// `owned` as shared handles, for a controller that reads them while it writes the store.
    pub fn owned_shared<T: Stored>(&self, owner: Uid) -> impl Iterator<Item = Arc<T>> {
        self.dependents(owner)
            .filter(|(kind, _, _)| *kind == T::KIND)
            .filter_map(|(_, namespace, name)| self.try_get_shared::<T>(namespace, name))
    }

    /// Whether an object with this kind/namespace/name/uid exists (an owner reference resolves).
    pub fn owner_exists(&self, namespace: &str, owner: &OwnerReference) -> bool {
        // A kind the lab does not serve cannot be looked up: upstream's garbage collector finds
        // no REST mapping for it and leaves the dependent alone rather than deleting it.
        let Some(kind) = Kind::from_kind_name(&owner.kind) else { return true };
        kinds::object_uid(self, kind, namespace, &owner.name) == Some(owner.uid)
    }

    fn orphan_dependents(&mut self, namespace: &str, owner: Uid) {
        if !self.has_dependents(owner) {
            return;
        }
        for (kind, namespace, name) in kinds::dependents_of(self, namespace, owner) {
            let _ = kinds::remove_owner_ref(self, kind, &namespace, &name, owner);
        }
    }

    fn index_owner_refs(&mut self, kind: Kind, meta: &ObjectMeta, add: bool) {
        self.dependents.index(kind, meta, add);
    }

    /// Stores the object with a new resourceVersion and records the write.
    fn commit<T: Stored>(&mut self, object: T, type_: WatchEventType) -> Result<T, ApiError> {
        Ok(T::clone(&self.commit_shared(object, type_)))
    }

    /// Stores a new version of an object and logs it; the result is shared with the table.
    fn commit_shared<T: Stored>(&mut self, mut object: T, type_: WatchEventType) -> Arc<T> {
        self.resource_version += 1;
        object.metadata_mut().resource_version = ResourceVersion(self.resource_version);
        if self.request_paths.is_open() {
            self.record_storage(format!("written at resourceVersion {}", self.resource_version));
        }
        self.record(type_, T::KIND, object.metadata());
        if self.snapshots.wants(T::KIND) {
            self.snapshots.push(self.resource_version, object.clone().into_object());
        }
        let object = Arc::new(object);
        T::table_mut(&mut self.tables).insert_shared(object.clone());
        self.rbac_changed(T::KIND);
        object
    }

    /// Runs `writes` with the uids of what they create drawn from `purpose`'s stream.
    pub(crate) fn with_uid_stream<R>(&mut self, purpose: Purpose, writes: impl FnOnce(&mut Store) -> R) -> R {
        let before = self.uid_purpose.replace(purpose);
        let result = writes(self);
        self.uid_purpose = before;
        result
    }

    /// Creates objects with uids from `purpose`'s stream.
    pub(crate) fn create_from_stream<T: Stored>(&mut self, purpose: Purpose, object: T) -> Result<T, ApiError> {
        self.uid_purpose = Some(purpose);
        let created = self.create(object);
        self.uid_purpose = None;
        created
    }

    /// Rebuilds the RBAC index after a write that changes what it allows.
    fn rbac_changed(&mut self, kind: Kind) {
        if rbac::is_rbac_kind(kind) {
            self.rbac_generation += 1;
            if !self.rbac_index_deferred {
                self.rbac = Arc::new(rbac::RbacIndex::build(self));
            }
        }
    }

    fn record(&mut self, type_: WatchEventType, kind: Kind, meta: &ObjectMeta) {
        let event = WatchEvent {
            resource_version: self.resource_version,
            time: self.now,
            type_,
            kind,
            namespace: meta.namespace.clone(),
            name: meta.name.clone(),
            uid: meta.uid,
            controller: meta.controller_ref().and_then(|r| Some((Kind::from_kind_name(&r.kind)?, r.name.clone()))),
            user: self.user.clone(),
        };
        self.trace.write(&event);
        self.watch.push(event);
    }

    /// Dynamic-kind entry points for kubectl, which handles objects of any kind.
    pub fn create_object(&mut self, object: Object) -> Result<Object, ApiError> {
        kinds::dispatch_create(self, object)
    }

    pub fn get_object(&self, kind: Kind, namespace: &str, name: &str) -> Result<Object, ApiError> {
        kinds::dispatch_get(self, kind, namespace, name)
    }

    pub fn update_object(&mut self, object: Object) -> Result<Object, ApiError> {
        kinds::dispatch_update(self, object)
    }

    pub fn delete_object(
        &mut self,
        kind: Kind,
        namespace: &str,
        name: &str,
        options: &DeleteOptions,
    ) -> Result<Deleted<Object>, ApiError> {
        kinds::dispatch_delete(self, kind, namespace, name, options)
    }

    /// Objects of a kind as `Object`s (cloned), filtered by selectors.
    pub fn list_objects(
        &self,
        kind: Kind,
        namespace: Option<&str>,
        labels: &Selector,
        fields: &FieldSelector,
    ) -> Vec<Object> {
        kinds::dispatch_list(self, kind, namespace, labels, fields)
    }
}

/// What the control plane keeps for itself draws its uids and names from streams of its own,
/// so adding a system object never renames a learner's: objects in the `kube-*` namespaces,
/// and cluster-scoped `system-*` / `system:*` ones (PriorityClasses, RBAC roles).
fn is_system(meta: &ObjectMeta) -> bool {
    let name = if meta.name.is_empty() { &meta.generate_name } else { &meta.name };
    meta.namespace.starts_with("kube-") || (meta.namespace.is_empty() && name.starts_with("system"))
}

/// Cluster-scoped kinds live under the empty namespace whatever the caller passes.
fn scope_namespace<T: Resource>(namespace: &str) -> &str {
    if T::KIND.info().namespaced { namespace } else { "" }
}

fn key_of<T: Resource>(object: &T) -> (String, String) {
    let meta = object.metadata();
    (meta.namespace.clone(), meta.name.clone())
}

/// Validation causes for metadata every kind shares; see `validation.rs` for the kinds' own.
pub fn metadata_causes(meta: &ObjectMeta, name_rule: validation::NameRule) -> Vec<FieldError> {
    validation::validate_object_meta(meta, name_rule)
}
