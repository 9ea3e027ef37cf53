//! The structured-parameters allocator (k8s.io/dynamic-resource-allocation/structured): for one
//! node, picks devices from its ResourceSlices for every request of a pod's unallocated claims —
//! devices of the request's DeviceClass that match every CEL selector, are free, tolerate their
//! taints, and satisfy the claim's `matchAttribute` constraints — searching depth first and
//! backtracking, as upstream does, so a choice made early never blocks a fit that exists.

use super::device_set::{DeviceId, NodeDevices};
use super::selector::Selectors;
use crate::api::ResourceClaim;
use crate::api::resource_claim::{DeviceRequestAllocationResult, RequestShape};
use std::collections::BTreeSet;

/// Why a node cannot take the claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllocateError {
    /// No choice of devices fits (the node's Filter says `cannot allocate all claims`).
    NoFit,
    /// Allocation aborted (a CEL runtime error): the scheduling attempt fails with this.
    Failed(String),
}

/// One device to pick: which claim and request (or `request/subrequest`) it is for.
#[derive(Clone, Debug)]
struct Slot<'a> {
    claim: usize,
    request: String,
    shape: RequestShape<'a>,
}

/// Devices picked for each claim, in the claims' order.
pub type Allocation = Vec<Vec<DeviceRequestAllocationResult>>;

/// Allocates `claims` on the node whose devices are `node`, none of `in_use` reused.
pub fn allocate(
    claims: &[&ResourceClaim],
    node: &NodeDevices,
    in_use: &BTreeSet<DeviceId>,
    selectors: &mut Selectors,
) -> Result<Allocation, AllocateError> {
    let mut search = Search { claims, node, in_use, selectors, picked: Vec::new() };
    let requests = requests_of(claims);
    if !search.assign(&requests, 0)? {
        return Err(AllocateError::NoFit);
    }
    let mut allocation: Allocation = vec![Vec::new(); claims.len()];
    for (slot, device) in &search.picked {
        let id = &node.devices[*device].id;
        allocation[slot.claim].push(DeviceRequestAllocationResult {
            request: slot.request.clone(),
            driver: id.driver.clone(),
            pool: id.pool.clone(),
            device: id.device.clone(),
            admin_access: slot.shape.admin_access.then_some(true),
            tolerations: slot.shape.tolerations.to_vec(),
        });
    }
    Ok(allocation)
}

/// Every claim's requests, in order: `(claim, request name, alternatives)`.
fn requests_of<'a>(claims: &[&'a ResourceClaim]) -> Vec<(usize, Vec<(String, RequestShape<'a>)>)> {
    let mut requests = Vec::new();
    for (c, claim) in claims.iter().enumerate() {
        for request in &claim.spec.devices.requests {
            requests.push((c, request.alternatives()));
        }
    }
    requests
}

struct Search<'s, 'a> {
    claims: &'s [&'a ResourceClaim],
    node: &'s NodeDevices,
    in_use: &'s BTreeSet<DeviceId>,
    selectors: &'s mut Selectors,
    /// The devices picked so far (index into `node.devices`), with the slot each fills.
    picked: Vec<(Slot<'a>, usize)>,
}

impl<'a> Search<'_, 'a> {
    /// Fills request `at` and every request after it; false when no choice fits.
    fn assign(
        &mut self,
        requests: &[(usize, Vec<(String, RequestShape<'a>)>)],
        at: usize,
    ) -> Result<bool, AllocateError> {
        let Some((claim, alternatives)) = requests.get(at) else { return Ok(true) };
        // firstAvailable: the first alternative that fits wins (upstream scores earlier ones higher).
        for (request, shape) in alternatives {
            let candidates = self.candidates(*claim, shape)?;
            let slot = Slot { claim: *claim, request: request.clone(), shape: *shape };
            let mark = self.picked.len();
            if shape.all {
                // All: every matching device, and there must be at least one, none taken.
                if candidates.is_empty() || candidates.iter().any(|d| self.taken(*d)) {
                    continue;
                }
                if candidates.iter().all(|d| self.constraints_allow(&slot, *d)) {
                    self.picked.extend(candidates.iter().map(|d| (slot.clone(), *d)));
                    if self.assign(requests, at + 1)? {
                        return Ok(true);
                    }
                }
                self.picked.truncate(mark);
                continue;
            }
            let count = usize::try_from(shape.count.max(1)).unwrap_or(usize::MAX);
            if self.pick(&slot, &candidates, 0, count, requests, at)? {
                return Ok(true);
            }
            self.picked.truncate(mark);
        }
        Ok(false)
    }

    /// Picks `left` more devices for `slot` from `candidates[from..]`, then the later requests.
    #[allow(clippy::too_many_arguments)]
    fn pick(
        &mut self,
        slot: &Slot<'a>,
        candidates: &[usize],
        from: usize,
        left: usize,
        requests: &[(usize, Vec<(String, RequestShape<'a>)>)],
        at: usize,
    ) -> Result<bool, AllocateError> {
        if left == 0 {
            return self.assign(requests, at + 1);
        }
        if candidates.len().saturating_sub(from) < left {
            return Ok(false);
        }
        for (i, &device) in candidates.iter().enumerate().skip(from) {
            if self.taken(device) || !self.constraints_allow(slot, device) {
                continue;
            }
            self.picked.push((slot.clone(), device));
            if self.pick(slot, candidates, i + 1, left - 1, requests, at)? {
                return Ok(true);
            }
            self.picked.pop();
        }
        Ok(false)
    }

    /// Devices of the node the request may have: its class's and its own selectors match and
    /// the device's taints are tolerated. In use or not is checked as they are picked.
    fn candidates(&mut self, claim: usize, shape: &RequestShape<'_>) -> Result<Vec<usize>, AllocateError> {
        let claim_ref = self.claims[claim];
        let mut out = Vec::new();
        for (i, device) in self.node.devices.iter().enumerate() {
            if !device.tolerated_by(shape.tolerations) {
                continue;
            }
            let class = self.selectors.class_matches(shape.device_class_name, device).map_err(AllocateError::Failed)?;
            if class
                && self.selectors.claim_matches(claim_ref, shape.selectors, device).map_err(AllocateError::Failed)?
            {
                out.push(i);
            }
        }
        Ok(out)
    }

    fn taken(&self, device: usize) -> bool {
        let id = &self.node.devices[device].id;
        self.in_use.contains(id) || self.picked.iter().any(|(_, d)| *d == device)
    }

    /// The claim's `matchAttribute` constraints that cover this request hold with the device
    /// added: it has the attribute, with the value the devices picked before it have.
    fn constraints_allow(&self, slot: &Slot<'_>, device: usize) -> bool {
        let claim = self.claims[slot.claim];
        for constraint in &claim.spec.devices.constraints {
            let Some(attribute) = constraint.match_attribute.as_deref() else { continue };
            if !covers(&constraint.requests, &slot.request) {
                continue;
            }
            let Some(value) = self.node.devices[device].qualified_attribute(attribute) else { return false };
            let same_claim =
                self.picked.iter().filter(|(s, _)| s.claim == slot.claim && covers(&constraint.requests, &s.request));
            for (_, other) in same_claim {
                if self.node.devices[*other].qualified_attribute(attribute) != Some(value) {
                    return false;
                }
            }
        }
        true
    }
}

/// Whether a constraint's `requests` (none: all of them) name this request, or the request a
/// `request/subrequest` belongs to.
fn covers(names: &[String], request: &str) -> bool {
    let base = request.split('/').next().unwrap_or_default();
    names.is_empty() || names.iter().any(|r| r == request || r == base)
}
