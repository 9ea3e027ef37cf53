//! DynamicResources (pkg/scheduler/framework/plugins/dynamicresources): places pods that use
//! ResourceClaims. PreFilter finds the pod's claims (a missing class refuses the pod
//! everywhere) and runs the structured allocator once per node that offers devices; Filter
//! keeps the nodes where every unallocated claim fits and where the allocated ones are;
//! Reserve writes the allocation and the pod's reservation into the claims (upstream does this
//! at PreBind; with no binding delay here the two are one instant), Unreserve takes it back.
//! Every refusal is UnschedulableAndUnresolvable: preemption cannot free devices.

use crate::api::affinity::{NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};
use crate::api::meta::Time;
use crate::api::resource_claim::{
    AllocationResult, DELETE_PROTECTION_FINALIZER, DeviceAllocationConfiguration, DeviceAllocationResult,
    RESERVED_FOR_MAX_SIZE, ResourceClaimConsumerReference,
};
use crate::api::{DeviceClass, ResourceClaim, ResourceSlice};
use crate::dra::allocator::{self, AllocateError, Allocation};
use crate::dra::device_set::{DeviceId, NodeDevices};
use crate::dra::pod_claims;
use crate::dra::selector::Selectors;
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cluster_event::ClusterEvent;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::{FilterPlugin, PreFilterPlugin, ReservePlugin};
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;
use crate::scheduler::plugins::default_preemption::PostFilter;
use crate::store::Store;
use std::collections::{BTreeMap, BTreeSet};

pub const NAME: &str = "DynamicResources";

pub const PRE_FILTER: PreFilterPlugin = PreFilterPlugin { name: NAME, pre_filter };
pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter, requeue_on };
pub const RESERVE: ReservePlugin = ReservePlugin { name: NAME, reserve, unreserve };

/// What PreFilter found for the filters and Reserve.
#[derive(Debug, Default)]
struct DraState {
    /// The pod's claims by name, in the pod's order, and which of them are not yet allocated.
    claims: Vec<String>,
    pending: Vec<String>,
    /// Where the allocated claims' devices are (None: no claim is allocated yet).
    allocated_on: Option<BTreeSet<String>>,
    /// The nodes where every pending claim fits, with the devices for each.
    fits: BTreeMap<String, Allocation>,
}

/// Upstream `EventsToRegister`: new or changed nodes, claims, slices and classes, and pods
/// going (their claims' devices come free).
fn requeue_on(event: ClusterEvent) -> bool {
    matches!(
        event,
        ClusterEvent::NodeAdd | ClusterEvent::NodeUpdate | ClusterEvent::AssignedPodDelete | ClusterEvent::DeviceChange
    )
}

/// Upstream `PreEnqueue`: a pod whose claims are not all there yet is not tried.
pub fn pre_enqueue(store: &Store, pod: &crate::api::Pod) -> bool {
    pod.spec.resource_claims.is_empty() || pod_claims::claims(store, pod).is_ok()
}

/// Upstream `PostFilter`, which runs before preemption's: nothing it could deallocate helps.
pub fn post_filter(state: &CycleState<'_>, preemption: PostFilter) -> PostFilter {
    if state.pod.spec.resource_claims.is_empty() {
        return preemption;
    }
    let own =
        if state.states.read::<DraState>().is_some() { "still not schedulable" } else { "no new claims to deallocate" };
    match preemption {
        PostFilter::Fail(message) => PostFilter::Fail(format!("{own}, {message}")),
        nominated => nominated,
    }
}

fn pre_filter(state: &mut CycleState<'_>, store: &Store, cache: &Cache) {
    let pod = state.pod;
    // Upstream stops at the first PreFilter that refuses the pod; this one then never ran.
    if pod.spec.resource_claims.is_empty() || state.pre_filter_rejection.is_some() {
        return;
    }
    let claims = match pod_claims::claims(store, pod) {
        Ok(claims) => claims,
        Err(message) => return state.pre_filter_rejection = Some(Status::unresolvable(NAME, message)),
    };
    if let Err(message) = check_claims(store, pod, &claims) {
        return state.pre_filter_rejection = Some(Status::unresolvable(NAME, message));
    }
    let mut dra = DraState { claims: claims.iter().map(|c| c.metadata.name.clone()).collect(), ..Default::default() };
    for claim in claims.iter().filter(|c| c.is_allocated()) {
        let nodes = allocated_nodes(claim);
        dra.allocated_on = Some(match dra.allocated_on.take() {
            None => nodes,
            Some(before) => before.intersection(&nodes).cloned().collect(),
        });
    }
    let pending: Vec<&ResourceClaim> = claims.iter().copied().filter(|c| !c.is_allocated()).collect();
    dra.pending = pending.iter().map(|c| c.metadata.name.clone()).collect();
    if !pending.is_empty() {
        match fits(store, cache, &pending, dra.allocated_on.as_ref()) {
            Ok(fits) => dra.fits = fits,
            Err(message) => state.scheduler_error = Some(format!("running \"{NAME}\" filter plugin: {message}")),
        }
    }
    state.states.write(dra);
}

/// The claims' requests name classes that exist, and an allocated claim has room for one more pod.
fn check_claims(store: &Store, pod: &crate::api::Pod, claims: &[&ResourceClaim]) -> Result<(), String> {
    for claim in claims {
        if claim.is_allocated() {
            if !claim.is_reserved_for(pod.metadata.uid) && claim.status.reserved_for.len() >= RESERVED_FOR_MAX_SIZE {
                return Err("resourceclaim in use".into());
            }
            continue;
        }
        for request in &claim.spec.devices.requests {
            for (name, shape) in request.alternatives() {
                if store.try_get::<DeviceClass>("", shape.device_class_name).is_none() {
                    return Err(format!("request {name}: device class {} does not exist", shape.device_class_name));
                }
            }
        }
    }
    Ok(())
}

/// The nodes an allocation's node selector names (`matchFields metadata.name In [...]`).
fn allocated_nodes(claim: &ResourceClaim) -> BTreeSet<String> {
    let selector = claim.status.allocation.as_ref().and_then(|a| a.node_selector.as_ref());
    let terms = selector.map(|s| s.node_selector_terms.as_slice()).unwrap_or_default();
    let fields = terms.iter().flat_map(|t| &t.match_fields);
    fields.filter(|f| f.key == "metadata.name" && f.operator == "In").flat_map(|f| f.values.iter().cloned()).collect()
}

/// The allocator's answer for every node with devices: where the pending claims fit.
fn fits(
    store: &Store,
    cache: &Cache,
    pending: &[&ResourceClaim],
    allowed: Option<&BTreeSet<String>>,
) -> Result<BTreeMap<String, Allocation>, String> {
    let slices: Vec<&ResourceSlice> = store.list::<ResourceSlice>(None).collect();
    let in_use = devices_in_use(store);
    let mut selectors = Selectors::new(store.list::<DeviceClass>(None));
    let mut fits = BTreeMap::new();
    for i in 0..cache.node_count() {
        let node = &*cache.node_at(i).name;
        if allowed.is_some_and(|a| !a.contains(node)) {
            continue;
        }
        let devices = NodeDevices::on_node(node, slices.iter().copied());
        if devices.devices.is_empty() {
            continue;
        }
        match allocator::allocate(pending, &devices, &in_use, &mut selectors) {
            Ok(allocation) => {
                fits.insert(node.to_string(), allocation);
            }
            Err(AllocateError::NoFit) => {}
            Err(AllocateError::Failed(message)) => return Err(message),
        }
    }
    Ok(fits)
}

/// Every device some claim holds (devices that allow several allocations are not exclusive).
pub fn devices_in_use(store: &Store) -> BTreeSet<DeviceId> {
    let allocations = store.list::<ResourceClaim>(None).filter_map(|c| c.status.allocation.as_ref());
    let results = allocations.flat_map(|a| &a.devices.results);
    results.map(|r| DeviceId { driver: r.driver.clone(), pool: r.pool.clone(), device: r.device.clone() }).collect()
}

fn filter(state: &CycleState<'_>, node: &NodeInfo, _: &NodeFit) -> Result<(), Status> {
    if state.pod.spec.resource_claims.is_empty() {
        return Ok(());
    }
    let Some(dra) = state.states.read::<DraState>() else { return Ok(()) };
    if dra.allocated_on.as_ref().is_some_and(|nodes| !nodes.contains(&*node.name)) {
        return Err(Status::unresolvable(NAME, "resourceclaim not available on the node"));
    }
    if !dra.pending.is_empty() && !dra.fits.contains_key(&*node.name) {
        return Err(Status::unresolvable(NAME, "cannot allocate all claims"));
    }
    Ok(())
}

/// Writes each pending claim's allocation on `node` (finalizer first, as upstream's
/// `bindClaim`), and the pod's reservation into every claim.
fn reserve(store: &mut Store, state: &CycleState<'_>, node: &str) -> Result<(), Status> {
    let Some(dra) = state.states.read::<DraState>() else { return Ok(()) };
    let pod = state.pod;
    let namespace = &pod.metadata.namespace;
    for name in &dra.claims {
        let Some(claim) = store.try_get::<ResourceClaim>(namespace, name).cloned() else {
            return Err(Status::unschedulable(NAME, format!("resourceclaim.resource.k8s.io \"{name}\" not found")));
        };
        let pending = dra.pending.iter().position(|p| p == name);
        let mut claim = match pending {
            Some(at) => {
                if claim.is_allocated() {
                    let message = format!("claim {namespace}/{name} got allocated elsewhere in the meantime");
                    return Err(Status::unschedulable(NAME, message));
                }
                let results = dra.fits.get(node).and_then(|a| a.get(at)).cloned().unwrap_or_default();
                let protected = protect(store, claim)?;
                let mut claim = protected;
                claim.status.allocation = Some(allocation_result(store, &claim, results, node));
                claim
            }
            None => claim,
        };
        if !claim.is_reserved_for(pod.metadata.uid) {
            claim.status.reserved_for.push(ResourceClaimConsumerReference {
                api_group: None,
                resource: "pods".into(),
                name: pod.metadata.name.clone(),
                uid: pod.metadata.uid,
            });
        }
        store.update_status(claim).map_err(|e| Status::unschedulable(NAME, e.message()))?;
    }
    Ok(())
}

/// The delete-protection finalizer, added with a plain update before the claim is allocated.
fn protect(store: &mut Store, mut claim: ResourceClaim) -> Result<ResourceClaim, Status> {
    if claim.metadata.finalizers.iter().any(|f| f == DELETE_PROTECTION_FINALIZER) {
        return Ok(claim);
    }
    claim.metadata.finalizers.push(DELETE_PROTECTION_FINALIZER.into());
    store.update(claim).map_err(|e| Status::unschedulable(NAME, e.message()))
}

fn allocation_result(
    store: &Store,
    claim: &ResourceClaim,
    results: Vec<crate::api::resource_claim::DeviceRequestAllocationResult>,
    node: &str,
) -> AllocationResult {
    let mut config = Vec::new();
    for request in &claim.spec.devices.requests {
        for (name, shape) in request.alternatives() {
            let Some(class) = store.try_get::<DeviceClass>("", shape.device_class_name) else { continue };
            if !results.iter().any(|r| r.request == name) {
                continue;
            }
            config.extend(class.spec.config.iter().map(|c| DeviceAllocationConfiguration {
                source: "FromClass".into(),
                requests: vec![name.clone()],
                opaque: c.opaque.clone(),
            }));
        }
    }
    config.extend(claim.spec.devices.config.iter().map(|c| DeviceAllocationConfiguration {
        source: "FromClaim".into(),
        requests: c.requests.clone(),
        opaque: c.opaque.clone(),
    }));
    let term = NodeSelectorTerm {
        match_expressions: Vec::new(),
        match_fields: vec![NodeSelectorRequirement {
            key: "metadata.name".into(),
            operator: "In".into(),
            values: vec![node.to_string()],
        }],
    };
    AllocationResult {
        devices: DeviceAllocationResult { results, config },
        node_selector: Some(NodeSelector { node_selector_terms: vec![term] }),
        allocation_timestamp: Some(Time(store.now())),
    }
}

/// Takes the pod's reservations back, and the allocations this attempt made.
fn unreserve(store: &mut Store, state: &CycleState<'_>, _: &str) {
    let Some(dra) = state.states.read::<DraState>() else { return };
    let pod = state.pod;
    for name in &dra.claims {
        let Some(claim) = store.try_get::<ResourceClaim>(&pod.metadata.namespace, name) else { continue };
        let mut claim = claim.clone();
        claim.status.reserved_for.retain(|r| r.uid != pod.metadata.uid);
        if dra.pending.contains(name) && claim.status.reserved_for.is_empty() {
            claim.status.allocation = None;
        }
        let _ = store.update_status(claim);
    }
}
