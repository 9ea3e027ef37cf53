//! The disruption controller (pkg/controller/disruption/disruption.go): each
//! PodDisruptionBudget's status, recomputed whenever its namespace's pods or their controllers
//! change: how many pods are expected (`expectedPods`), how many must stay healthy
//! (`desiredHealthy`), how many are (`currentHealthy`), and so how many may be disrupted now
//! (`disruptionsAllowed`). Evictions the API server approved (`disruptedPods`) count as gone
//! until their pod is deleting, or for `DeletionTimeout` (2 minutes) at most.

use crate::api::intstr::IntOrString;
use crate::api::meta::{Time, Uid};
use crate::api::pod_disruption_budget::{DELETION_TIMEOUT_SECONDS, SYNC_FAILED};
use crate::api::{Deployment, Kind, Pod, PodDisruptionBudget, ReplicaSet};
use crate::runtime::informer::{Changes, Informer};
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Default)]
pub struct DisruptionController {
    pub(crate) informer: Informer,
    /// When a budget's oldest approved eviction runs out (`enqueuePdbForRecheck`).
    recheck: BTreeMap<(String, String), SimTime>,
}

/// What a budget's status is computed from.
struct Counts {
    expected: i32,
    desired: i32,
}

impl DisruptionController {
    pub fn sync(&mut self, store: &mut Store) {
        if store.count::<PodDisruptionBudget>() == 0 {
            self.informer.listed(store);
            self.recheck.clear();
            return;
        }
        let now = store.now();
        let mut namespaces: BTreeSet<String> = match self.informer.poll(store) {
            Changes::Relist => store.list::<PodDisruptionBudget>(None).map(|b| b.metadata.namespace.clone()).collect(),
            Changes::Events(events) => events
                .filter(|e| {
                    matches!(e.kind, Kind::Pod | Kind::PodDisruptionBudget | Kind::ReplicaSet | Kind::Deployment)
                })
                .map(|e| e.namespace.clone())
                .collect(),
        };
        let due: Vec<(String, String)> =
            self.recheck.iter().filter(|(_, at)| **at <= now).map(|(key, _)| key.clone()).collect();
        for key in due {
            self.recheck.remove(&key);
            namespaces.insert(key.0);
        }
        for namespace in namespaces {
            let budgets: Vec<PodDisruptionBudget> =
                store.list::<PodDisruptionBudget>(Some(&namespace)).cloned().collect();
            for budget in budgets {
                let key = (budget.metadata.namespace.clone(), budget.metadata.name.clone());
                match try_sync(store, budget) {
                    Some(at) => self.recheck.insert(key, at),
                    None => self.recheck.remove(&key),
                };
            }
        }
        self.informer.listed(store);
    }

    /// The earliest approved eviction that runs out without its pod being deleted.
    pub fn next_wake(&self) -> Option<SimTime> {
        self.recheck.values().min().copied()
    }
}

/// `trySync`: the budget's status from its pods; returns when to look again.
fn try_sync(store: &mut Store, mut budget: PodDisruptionBudget) -> Option<SimTime> {
    let namespace = budget.metadata.namespace.clone();
    let pods: Vec<Pod> =
        store.list::<Pod>(Some(&namespace)).filter(|p| budget.selects(&p.metadata.labels)).cloned().collect();
    if pods.is_empty() {
        store.record_event(object_reference(&budget), EventType::Normal, "NoPods", "No matching pods found".into());
    }
    let counts = match expected_pod_count(store, &budget, &pods) {
        Ok(counts) => counts,
        Err(message) => {
            let detail = format!("Failed to calculate the number of expected pods: {message}");
            store.record_event(
                object_reference(&budget),
                EventType::Warning,
                "CalculateExpectedPodCountFailed",
                detail,
            );
            fail_safe(store, budget, &message);
            return None;
        }
    };
    let now = store.now();
    let (disrupted, recheck) = disrupted_pod_map(store, &budget, &pods, now);
    let healthy = count_healthy_pods(&pods, &disrupted, now);
    let allowed = if counts.expected <= 0 { 0 } else { (healthy - counts.desired).max(0) };
    let status = &budget.status;
    let generation = budget.metadata.generation;
    let unchanged = status.current_healthy == healthy
        && status.desired_healthy == counts.desired
        && status.expected_pods == counts.expected
        && status.disruptions_allowed == allowed
        && status.disrupted_pods == disrupted
        && status.observed_generation == generation
        && conditions_up_to_date(&budget);
    if !unchanged {
        let status = &mut budget.status;
        status.current_healthy = healthy;
        status.desired_healthy = counts.desired;
        status.expected_pods = counts.expected;
        status.disruptions_allowed = allowed;
        status.disrupted_pods = disrupted;
        status.observed_generation = generation;
        budget.update_disruption_allowed_condition(Time(now));
        let _ = store.update_status(budget);
    }
    recheck
}

/// component-helpers' `ConditionsAreUpToDate`: the condition exists, was written at the
/// observed generation and says what `disruptionsAllowed` says.
fn conditions_up_to_date(budget: &PodDisruptionBudget) -> bool {
    let status = &budget.status;
    let wanted = if status.disruptions_allowed > 0 { "True" } else { "False" };
    status
        .conditions
        .iter()
        .find(|c| c.type_ == crate::api::pod_disruption_budget::DISRUPTION_ALLOWED)
        .is_some_and(|c| c.observed_generation == Some(status.observed_generation) && c.status == wanted)
}

/// `getExpectedPodCount`: an integer `minAvailable` counts the pods there are; a percentage, or
/// any `maxUnavailable`, counts what the pods' controllers want (their scale), rounding up.
fn expected_pod_count(store: &Store, budget: &PodDisruptionBudget, pods: &[Pod]) -> Result<Counts, String> {
    let spec = &budget.spec;
    if let Some(max_unavailable) = &spec.max_unavailable {
        let expected = expected_scale(store, pods)?;
        let unavailable = max_unavailable.scaled_value(expected, true)?;
        return Ok(Counts { expected, desired: (expected - unavailable).max(0) });
    }
    match &spec.min_available {
        Some(IntOrString::Int(min)) => Ok(Counts { expected: pods.len() as i32, desired: *min }),
        Some(percent) => {
            let expected = expected_scale(store, pods)?;
            Ok(Counts { expected, desired: percent.scaled_value(expected, true)? })
        }
        None => Ok(Counts { expected: 0, desired: 0 }),
    }
}

/// `getExpectedScale`: the sum of the scales of the pods' controllers, each counted once. A pod
/// with no controller is left out (upstream warns about it); one whose controller has no scale
/// is an error.
fn expected_scale(store: &Store, pods: &[Pod]) -> Result<i32, String> {
    let mut scales: BTreeMap<Uid, i32> = BTreeMap::new();
    for pod in pods {
        let Some(owner) = pod.metadata.controller_ref() else { continue };
        if scales.contains_key(&owner.uid) {
            continue;
        }
        let namespace = &pod.metadata.namespace;
        let found = match owner.kind.as_str() {
            "ReplicaSet" => store
                .try_get::<ReplicaSet>(namespace, &owner.name)
                .filter(|rs| rs.metadata.uid == owner.uid)
                .and_then(|rs| replica_set_scale(store, rs)),
            _ => None,
        };
        let (uid, scale) = found.ok_or_else(|| format!("found no controllers for pod {:?}", pod.metadata.name))?;
        scales.insert(uid, scale);
    }
    Ok(scales.values().sum())
}

/// The finders `getPodDeployment` and `getPodReplicaSet`: a ReplicaSet a Deployment controls
/// answers with the Deployment's scale, any other with its own.
fn replica_set_scale(store: &Store, rs: &ReplicaSet) -> Option<(Uid, i32)> {
    match rs.metadata.controller_ref() {
        Some(owner) if owner.kind == "Deployment" => store
            .try_get::<Deployment>(&rs.metadata.namespace, &owner.name)
            .filter(|d| d.metadata.uid == owner.uid)
            .map(|d| (d.metadata.uid, d.spec.replicas.unwrap_or(1))),
        Some(_) => None,
        None => Some((rs.metadata.uid, rs.spec.replicas.unwrap_or(1))),
    }
}

/// `buildDisruptedPodMap`: the approved evictions still pending, dropping those whose pod is
/// deleting (done) or gone, and those past `DeletionTimeout` (they never came: a `NotDeleted`
/// warning on the pod). Returns when the oldest one left runs out.
fn disrupted_pod_map(
    store: &mut Store,
    budget: &PodDisruptionBudget,
    pods: &[Pod],
    now: SimTime,
) -> (BTreeMap<String, Time>, Option<SimTime>) {
    let mut kept = BTreeMap::new();
    let mut recheck: Option<SimTime> = None;
    for pod in pods.iter().filter(|p| !p.metadata.is_being_deleted()) {
        let Some(at) = budget.status.disrupted_pods.get(&pod.metadata.name) else { continue };
        let expected_deletion = at.0.plus(Duration::from_secs(DELETION_TIMEOUT_SECONDS));
        if expected_deletion < now {
            // Upstream names the budget's namespace twice here.
            let namespace = &budget.metadata.namespace;
            let message = format!("Pod was expected by PDB {namespace}/{namespace} to be deleted but it wasn't");
            store.record_event(object_reference(pod), EventType::Warning, "NotDeleted", message);
        } else {
            recheck = Some(recheck.map_or(expected_deletion, |r| r.min(expected_deletion)));
            kept.insert(pod.metadata.name.clone(), *at);
        }
    }
    (kept, recheck)
}

/// `countHealthyPods`: Ready pods that are neither deleting nor about to be.
fn count_healthy_pods(pods: &[Pod], disrupted: &BTreeMap<String, Time>, now: SimTime) -> i32 {
    let about_to_go = |pod: &Pod| {
        disrupted
            .get(&pod.metadata.name)
            .is_some_and(|at| at.0.plus(Duration::from_secs(DELETION_TIMEOUT_SECONDS)) > now)
    };
    pods.iter().filter(|p| !p.metadata.is_being_deleted() && !about_to_go(p) && p.is_ready()).count() as i32
}

/// `failSafe`: when the status cannot be computed, no disruption is allowed.
fn fail_safe(store: &mut Store, mut budget: PodDisruptionBudget, message: &str) {
    budget.status.disruptions_allowed = 0;
    budget.set_condition(false, SYNC_FAILED, message, Time(store.now()));
    let _ = store.update_status(budget);
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    #[test]
    fn an_integer_budget_counts_pods_and_a_percentage_counts_the_deployments_scale() {
        let mut sim = lab(
            "kubectl create deployment web --image=nginx --replicas=3\nkubectl create pdb web-min --selector=app=web --min-available=2\nkubectl create pdb web-pct --selector=app=web --max-unavailable=50%\nsleep 30s\n",
        );
        assert_eq!(
            run(&mut sim, "kubectl get pdb"),
            "NAME      MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nweb-min   2               N/A               1                     30s\nweb-pct   N/A             50%               2                     30s\n"
        );
        // 50% of 3 may be down, rounded up: 2; so 1 of the 3 expected must stay healthy.
        let status = "kubectl get pdb web-pct -o jsonpath={.status}";
        assert_eq!(
            run(&mut sim, status),
            r#"{"conditions":[{"lastTransitionTime":"2025-01-01T00:00:07Z","message":"","observedGeneration":1,"reason":"SufficientPods","status":"True","type":"DisruptionAllowed"}],"currentHealthy":3,"desiredHealthy":1,"disruptionsAllowed":2,"expectedPods":3,"observedGeneration":1}"#
        );
    }
}
