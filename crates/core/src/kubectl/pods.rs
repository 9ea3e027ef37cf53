//! Which pod and container `logs` and `exec` mean: `POD` or `TYPE/NAME` (one pod of a
//! workload, as polymorphichelpers.AttachablePodForObject picks it with podutils.ByLogging)
//! and the default container (podcmd.FindOrDefaultContainerByName).

use super::output::Output;
use super::resource_args::unknown_type;
use crate::api::labels::Selector;
use crate::api::{Deployment, Job, Kind, Pod, ReplicaSet, Service};
use crate::store::Store;
use std::cmp::Reverse;

/// The annotation that names a pod's default container.
pub const DEFAULT_CONTAINER_ANNOTATION: &str = "kubectl.kubernetes.io/default-container";

/// The pod `arg` names (`web-1`, `pod/web-1`, `deploy/hello`); for a workload, the pod
/// `ByLogging` ranks first, and kubectl's `Found N pods, using pod/…` when it had a choice.
pub fn pod_for(store: &Store, namespace: &str, arg: &str) -> Result<(Pod, Option<String>), String> {
    let Some((type_, name)) = arg.split_once('/') else {
        return store.get::<Pod>(namespace, arg).cloned().map(|p| (p, None)).map_err(|e| e.to_string());
    };
    let kind = Kind::from_cli_name(type_).ok_or_else(|| unknown_type(type_))?;
    let selector = match kind {
        Kind::Pod => return store.get::<Pod>(namespace, name).cloned().map(|p| (p, None)).map_err(|e| e.to_string()),
        Kind::Deployment => {
            label_selector(store.get::<Deployment>(namespace, name).map_err(api)?.spec.selector.as_ref())?
        }
        Kind::ReplicaSet => {
            label_selector(store.get::<ReplicaSet>(namespace, name).map_err(api)?.spec.selector.as_ref())?
        }
        Kind::Job => label_selector(store.get::<Job>(namespace, name).map_err(api)?.spec.selector.as_ref())?,
        Kind::Service => Selector::from_set(&store.get::<Service>(namespace, name).map_err(api)?.spec.selector),
        other => {
            let kind_name = other.info().kind_name;
            return Err(format!(
                "error: cannot attach to *v1.{kind_name}: selector for *v1.{kind_name} not implemented"
            ));
        }
    };
    let mut pods: Vec<Pod> =
        store.list::<Pod>(Some(namespace)).filter(|p| selector.matches(&p.metadata.labels)).cloned().collect();
    pods.sort_by_key(by_logging);
    let count = pods.len();
    let pod = pods.into_iter().next().ok_or("error: timed out waiting for the condition")?;
    let note = (count > 1).then(|| format!("Found {count} pods, using pod/{}", pod.metadata.name));
    Ok((pod, note))
}

fn api(err: crate::error::ApiError) -> String {
    err.to_string()
}

fn label_selector(selector: Option<&crate::api::label_selector::LabelSelector>) -> Result<Selector, String> {
    match selector {
        Some(s) => s.to_selector().map_err(|e| format!("error: {e}")),
        None => Ok(Selector::nothing()),
    }
}

/// podutils.ByLogging: on a node first, Running before Unknown before Pending, ready first,
/// most restarts first, oldest first (names break ties, as the API lists them).
fn by_logging(pod: &Pod) -> (bool, u8, bool, Reverse<i32>, u64) {
    let phase = match pod.phase() {
        "Pending" => 2,
        "Unknown" => 1,
        _ => 0,
    };
    let restarts = pod.status.container_statuses.iter().map(|c| c.restart_count).max().unwrap_or(0);
    let created = pod.metadata.creation_timestamp.map_or(u64::MAX, |t| t.0.0);
    (pod.node_name().is_none(), phase, !pod.is_ready(), Reverse(restarts), created)
}

/// The container a command works on: `-c`, else the default-container annotation, else the
/// first container (saying so on stderr when there was a choice).
pub fn container_name(pod: &Pod, requested: Option<&str>, out: &mut Output) -> Result<String, String> {
    if let Some(name) = requested.filter(|n| !n.is_empty()) {
        return Ok(name.to_string());
    }
    if let Some(name) = pod.metadata.annotations.get(DEFAULT_CONTAINER_ANNOTATION).filter(|n| !n.is_empty()) {
        if pod.container(name).is_some() {
            return Ok(name.to_string());
        }
        out.warn(format!("Default container name {name:?} not found in pod {}", pod.metadata.name));
    }
    let first =
        pod.spec.containers.first().ok_or_else(|| format!("error: pod {} has no containers", pod.metadata.name))?;
    if pod.spec.containers.len() > 1 || !pod.spec.init_containers.is_empty() {
        out.warn(format!("Defaulted container {:?} out of: {}", first.name, all_container_names(pod)));
    }
    Ok(first.name.clone())
}

/// `a, b, setup (init)`: containers, then init containers, as podcmd.AllContainerNames lists them.
pub fn all_container_names(pod: &Pod) -> String {
    let regular = pod.spec.containers.iter().map(|c| c.name.clone());
    let init = pod.spec.init_containers.iter().map(|c| format!("{} (init)", c.name));
    regular.chain(init).collect::<Vec<_>>().join(", ")
}
