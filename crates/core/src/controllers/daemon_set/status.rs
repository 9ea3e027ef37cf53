//! A DaemonSet's status: how many nodes should run its pod, have one, have a ready, available
//! or up-to-date one, or have one they should not. Mirrors `updateDaemonSetStatus` in
//! pkg/controller/daemon/daemon_controller.go.

use super::nodes_to_daemon_pods;
use super::placement::node_should_run;
use super::update::{by_creation_and_phase, is_pod_updated};
use crate::api::daemon_set::DaemonSetStatus;
use crate::api::{DaemonSet, Node};
use crate::controllers::active_pods::is_available;
use crate::store::Store;

pub fn calculate(store: &Store, ds: &DaemonSet, nodes: &[Node], hash: &str) -> DaemonSetStatus {
    let node_pods = nodes_to_daemon_pods(store, ds);
    let generation = crate::store::apps_validation::template_generation(ds);
    let (now, min_ready) = (store.now(), ds.spec.min_ready_seconds.unwrap_or(0));
    let mut status = DaemonSetStatus {
        observed_generation: ds.metadata.generation,
        collision_count: ds.status.collision_count,
        conditions: ds.status.conditions.clone(),
        ..Default::default()
    };
    for node in nodes {
        let pods = node_pods.get(&node.metadata.name).filter(|pods| !pods.is_empty());
        if !node_should_run(node, ds).should_run {
            status.number_misscheduled += i32::from(pods.is_some());
            continue;
        }
        status.desired_number_scheduled += 1;
        let Some(pods) = pods else { continue };
        status.current_number_scheduled += 1;
        // The oldest pod speaks for the node.
        let Some(pod) = pods.iter().min_by(|a, b| by_creation_and_phase(a, b)) else { continue };
        if pod.is_ready() {
            status.number_ready += 1;
            status.number_available += i32::from(is_available(pod, min_ready, now));
        }
        status.updated_number_scheduled += i32::from(is_pod_updated(pod, hash, generation));
    }
    status.number_unavailable = status.desired_number_scheduled - status.number_available;
    status
}
