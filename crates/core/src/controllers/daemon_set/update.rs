//! Rolling updates: old pods replaced within `maxUnavailable`, or new pods surged beside them
//! within `maxSurge`. Mirrors pkg/controller/daemon/update.go (`rollingUpdate`,
//! `findUpdatedPodsOnNode`, `updatedDesiredNodeCounts`) and the surge rules of
//! `podsShouldBeOnNode`.

use super::placement::{POD_TEMPLATE_GENERATION, node_should_run};
use super::{NodePods, nodes_to_daemon_pods};
use crate::api::intstr::IntOrString;
use crate::api::{DaemonSet, Node, Pod};
use crate::controllers::active_pods::is_available;
use crate::controllers::history::CONTROLLER_REVISION_HASH;
use crate::sim::time::SimTime;
use crate::store::Store;
use std::sync::Arc;

/// `IsPodUpdated`: the pod carries the current revision's hash or template generation.
pub fn is_pod_updated(pod: &Pod, hash: &str, generation: Option<i64>) -> bool {
    let generation_matches =
        generation.is_some_and(|g| pod.metadata.labels.get(POD_TEMPLATE_GENERATION) == Some(g.to_string().as_str()));
    let hash_matches = !hash.is_empty() && pod.metadata.labels.get(CONTROLLER_REVISION_HASH) == Some(hash);
    hash_matches || generation_matches
}

/// `AllowsSurge`: a rolling update whose maxSurge is not zero.
fn allows_surge(ds: &DaemonSet) -> bool {
    let strategy = &ds.spec.update_strategy;
    let surge = strategy.rolling_update.as_ref().and_then(|r| r.max_surge.as_ref());
    strategy.type_.as_deref() == Some(crate::api::daemon_set::ROLLING_UPDATE)
        && surge.is_some_and(|s| s.scaled_value(100, true).unwrap_or(0) != 0)
}

/// `podsShouldBeOnNode`'s rule for a node with more than one running pod: without surge the
/// oldest stays; with surge an old pod stays only while the new one is not ready yet.
pub fn surplus_pods(ds: &DaemonSet, mut running: Vec<&Arc<Pod>>, hash: &str) -> Vec<String> {
    if running.len() <= 1 {
        return Vec::new();
    }
    running.sort_by(|a, b| by_creation_and_phase(a, b));
    if !allows_surge(ds) {
        return running[1..].iter().map(|p| p.metadata.name.clone()).collect();
    }
    let mut doomed = Vec::new();
    let (mut oldest_new, mut oldest_old): (Option<&Arc<Pod>>, Option<&Arc<Pod>>) = (None, None);
    for pod in running {
        let slot = if pod.metadata.labels.get(CONTROLLER_REVISION_HASH) == Some(hash) {
            &mut oldest_new
        } else {
            &mut oldest_old
        };
        match slot {
            None => *slot = Some(pod),
            Some(_) => doomed.push(pod.metadata.name.clone()),
        }
    }
    if let (Some(new), Some(old)) = (oldest_new, oldest_old)
        && (!old.is_ready() || new.is_ready())
    {
        doomed.push(old.metadata.name.clone());
    }
    doomed
}

/// `podByCreationTimestampAndPhase`: pods bound to their node first, then the oldest, then by
/// name.
pub fn by_creation_and_phase(a: &Pod, b: &Pod) -> std::cmp::Ordering {
    let scheduled = |p: &Pod| p.node_name().is_some();
    scheduled(b)
        .cmp(&scheduled(a))
        .then(a.metadata.creation_timestamp.cmp(&b.metadata.creation_timestamp))
        .then(a.metadata.name.cmp(&b.metadata.name))
}

/// A node's pod of the current revision and its pod of an older one.
type NewAndOld<'a> = (Option<&'a Arc<Pod>>, Option<&'a Arc<Pod>>);

/// `findUpdatedPodsOnNode`: the node's one new and one old pod; `None` when it has more than
/// one of either (the manage loop will tidy it first).
fn updated_pods_on_node<'a>(pods: &'a [Arc<Pod>], hash: &str, generation: Option<i64>) -> Option<NewAndOld<'a>> {
    let (mut new, mut old) = (None, None);
    for pod in pods.iter().filter(|p| !p.metadata.is_being_deleted()) {
        let slot = if is_pod_updated(pod, hash, generation) { &mut new } else { &mut old };
        if slot.is_some() {
            return None;
        }
        *slot = Some(pod);
    }
    Some((new, old))
}

/// `updatedDesiredNodeCounts`: maxSurge and maxUnavailable scaled to the nodes that should run
/// a pod (rounding up), with every such node listed; never both zero.
fn desired_counts(ds: &DaemonSet, nodes: &[Node], node_pods: &mut NodePods) -> (usize, usize, usize) {
    let mut desired = 0;
    for node in nodes.iter().filter(|n| node_should_run(n, ds).should_run) {
        desired += 1;
        node_pods.entry(node.metadata.name.clone()).or_default();
    }
    let rolling = ds.spec.update_strategy.rolling_update.clone().unwrap_or_default();
    let scaled =
        |v: Option<IntOrString>| v.map_or(0, |v| v.scaled_value(desired as i32, true).unwrap_or(0).max(0) as usize);
    let (surge, mut unavailable) = (scaled(rolling.max_surge), scaled(rolling.max_unavailable));
    if desired > 0 && surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable, desired)
}

/// `rollingUpdate`: the old pods to delete and the nodes to surge new pods onto.
pub fn rolling_update(store: &Store, ds: &DaemonSet, nodes: &[Node], hash: &str) -> (Vec<String>, Vec<String>) {
    let mut node_pods = nodes_to_daemon_pods(store, ds);
    let (max_surge, max_unavailable, desired) = desired_counts(ds, nodes, &mut node_pods);
    let generation = crate::store::apps_validation::template_generation(ds);
    let now = store.now();
    let min_ready = ds.spec.min_ready_seconds.unwrap_or(0);
    let available = |p: &Pod| is_available(p, min_ready, now);
    if max_surge == 0 {
        let deletions = replace_within_unavailable(&node_pods, (hash, generation), max_unavailable, &available);
        return (deletions, Vec::new());
    }
    surge(ds, nodes, &node_pods, (hash, generation), (max_surge, desired), now)
}

/// Without surge: delete old pods while the new pods not yet available stay under
/// maxUnavailable; an old pod that is not available is replaced at once.
fn replace_within_unavailable(
    node_pods: &NodePods,
    (hash, generation): (&str, Option<i64>),
    max_unavailable: usize,
    available: &dyn Fn(&Pod) -> bool,
) -> Vec<String> {
    let mut unavailable = 0;
    let mut replacements = Vec::new();
    let mut candidates = Vec::new();
    for pods in node_pods.values() {
        match updated_pods_on_node(pods, hash, generation) {
            None | Some((None, None)) | Some((Some(_), Some(_))) => unavailable += 1,
            Some((Some(new), None)) => unavailable += usize::from(!available(new)),
            Some((None, Some(old))) if !available(old) => replacements.push(old.metadata.name.clone()),
            Some((None, Some(_))) if unavailable >= max_unavailable => {}
            Some((None, Some(old))) => candidates.push(old.metadata.name.clone()),
        }
    }
    let remaining = max_unavailable.saturating_sub(unavailable).min(candidates.len());
    replacements.extend(candidates.into_iter().take(remaining));
    replacements
}

/// With surge: a new pod beside each old one (up to maxSurge at a time, at once where the old
/// one is not available), and the old one deleted once the new one is available.
fn surge(
    ds: &DaemonSet,
    nodes: &[Node],
    node_pods: &NodePods,
    (hash, generation): (&str, Option<i64>),
    (max_surge, desired): (usize, usize),
    now: SimTime,
) -> (Vec<String>, Vec<String>) {
    let min_ready = ds.spec.min_ready_seconds.unwrap_or(0);
    let available = |p: &Pod| is_available(p, min_ready, now);
    let should_run =
        |name: &str| nodes.iter().find(|n| n.metadata.name == name).is_some_and(|n| node_should_run(n, ds).should_run);
    let (mut deletions, mut should_not_run, mut candidates, mut allowed) = (vec![], vec![], vec![], vec![]);
    let (mut surging, mut available_count) = (0usize, 0usize);
    for (node, pods) in node_pods {
        let Some((new, old)) = updated_pods_on_node(pods, hash, generation) else {
            surging += 1;
            continue;
        };
        if old.or(new).is_some_and(|p| available(p)) {
            available_count += 1;
        }
        match (new, old) {
            (_, None) => {}
            (None, Some(old)) if !available(old) => {
                if should_run(node) {
                    allowed.push(node.clone());
                } else {
                    deletions.push(old.metadata.name.clone());
                }
            }
            (None, Some(old)) => {
                if !should_run(node) {
                    should_not_run.push(old.metadata.name.clone());
                } else if surging < max_surge {
                    candidates.push(node.clone());
                }
            }
            (Some(new), Some(_)) if !available(new) => surging += 1,
            (Some(_), Some(old)) => deletions.push(old.metadata.name.clone()),
        }
    }
    let deletable = available_count.saturating_sub(desired).min(should_not_run.len());
    deletions.extend(should_not_run.into_iter().take(deletable));
    let remaining = max_surge.saturating_sub(surging).min(candidates.len());
    allowed.extend(candidates.into_iter().take(remaining));
    (deletions, allowed)
}
