//! `ResourceQuota` (k8s.io/apiserver/pkg/admission/plugin/resourcequota, controller.go
//! `checkRequest`): a create that would take a quota past its `status.hard` is refused; one
//! that fits is charged to the quotas' `status.used` at once (`charge`, which the store calls
//! once the object is named and valid), so the next request already sees it.

use super::{Operation, Plugin, Request};
use crate::api::container::ResourceList;
use crate::api::{ObjectMut, ResourceQuota};
use crate::error::ApiError;
use crate::store::Store;
use crate::store::quota::evaluator::{self, Evaluator};
use crate::store::quota::resources;
use crate::store::user::UserInfo;

pub const PLUGIN: Plugin = Plugin { name: "ResourceQuota", admit: None, validate: Some(validate) };

fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    new_usage(store, request, object).map(|_| ())
}

/// Each quota's `status.used` once the request is admitted (a quota it does not change is
/// left out), or the Forbidden that refuses it.
pub(crate) fn new_usage(
    store: &Store,
    request: &Request<'_>,
    object: &ObjectMut<'_>,
) -> Result<Vec<(String, ResourceList)>, ApiError> {
    // Every evaluator handles creates; upstream's pod evaluator also in-place resizes and the
    // service evaluator updates, which the lab does not charge.
    if request.operation != Operation::Create || !request.subresource.is_empty() || request.namespace.is_empty() {
        return Ok(Vec::new());
    }
    let quotas: Vec<&ResourceQuota> = store.list::<ResourceQuota>(Some(request.namespace)).collect();
    if quotas.is_empty() {
        return Ok(Vec::new());
    }
    let forbidden = |detail: String| ApiError::Forbidden {
        message: format!("{} {:?} is forbidden: {detail}", request.kind.info().plural_qualified(), request.name),
    };
    let evaluator = Evaluator::for_kind(request.kind);
    let pod = match object {
        ObjectMut::Pod(pod) => Some(&**pod),
        _ => None,
    };
    let mut interesting = Vec::new();
    for quota in quotas {
        if !evaluator.matches(quota, pod) {
            continue;
        }
        let restricted = evaluator.matching_resources(quota.status.hard.keys());
        if let Some(pod) = pod {
            evaluator::pod_constraints(&restricted, pod)
                .map_err(|e| forbidden(format!("failed quota: {}: {e}", quota.metadata.name)))?;
        }
        if restricted.iter().any(|name| !quota.status.used.contains_key(name)) {
            let names = restricted.join(",");
            return Err(forbidden(format!("status unknown for quota: {}, resources: {names}", quota.metadata.name)));
        }
        interesting.push(quota);
    }
    let usage = resources::remove_zeros(&usage_of(&evaluator, object, store));
    let mut charged = Vec::new();
    for quota in interesting {
        let (hard, used) = (&quota.status.hard, &quota.status.used);
        let requested = resources::mask(&usage, hard.keys());
        if requested.is_empty() {
            continue;
        }
        let new_used = resources::add(used, &requested);
        let exceeded = resources::exceeded(&resources::mask(&new_used, requested.keys()), hard);
        if !exceeded.is_empty() {
            return Err(forbidden(format!(
                "exceeded quota: {}, requested: {}, used: {}, limited: {}",
                quota.metadata.name,
                resources::pretty_print(&resources::mask(&requested, &exceeded)),
                resources::pretty_print(&resources::mask(used, &exceeded)),
                resources::pretty_print(&resources::mask(hard, &exceeded)),
            )));
        }
        charged.push((quota.metadata.name.clone(), new_used));
    }
    Ok(charged)
}

/// What the object adds to its namespace's usage.
fn usage_of(evaluator: &Evaluator, object: &ObjectMut<'_>, store: &Store) -> ResourceList {
    match object {
        ObjectMut::Pod(pod) => evaluator::pod_usage(pod, store.now()),
        ObjectMut::Service(service) => evaluator::service_usage(service),
        _ => evaluator::count_usage(evaluator),
    }
}

/// Writes the admitted request's usage into its quotas' status, as the API server's loopback
/// client does before the object is stored.
pub(crate) fn charge(store: &mut Store, namespace: &str, charged: Vec<(String, ResourceList)>) {
    let caller = store.act_as(UserInfo::apiserver());
    for (name, used) in charged {
        if let Some(mut quota) = store.try_get::<ResourceQuota>(namespace, &name).cloned() {
            quota.status.used = used;
            let _ = store.update_status(quota);
        }
    }
    store.act_as(caller);
}

/// Whether a pod would be charged at all (its namespace has a quota): the store asks before
/// it copies anything.
pub(crate) fn namespace_has_quota(store: &Store, namespace: &str) -> bool {
    !namespace.is_empty() && store.list::<ResourceQuota>(Some(namespace)).next().is_some()
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    fn pod(name: &str, spec_extra: &str, resources: &str) -> String {
        format!(
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  {spec_extra}\n  containers: [{{name: app, image: nginx, resources: {resources}}}]\nEOF\n"
        )
    }

    #[test]
    fn scoped_quotas_count_only_the_pods_in_their_scopes() {
        let mut sim = lab(
            "kubectl create quota best-effort --hard=pods=1 --scopes=BestEffort\nkubectl create priorityclass high --value=1000\nkubectl apply -f - <<EOF\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: no-high}\nspec:\n  hard: {pods: \"0\"}\n  scopeSelector:\n    matchExpressions: [{scopeName: PriorityClass, operator: In, values: [high]}]\nEOF\n",
        );
        assert!(run(&mut sim, &pod("one", "restartPolicy: Always", "{}")).ends_with("pod/one created\n"));
        let second = run(&mut sim, &pod("two", "restartPolicy: Always", "{}"));
        assert!(
            second.ends_with("pods \"two\" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1\n"),
            "{second}"
        );
        // Not best effort: outside the first quota's scope.
        let sized = run(&mut sim, &pod("sized", "restartPolicy: Always", "{requests: {cpu: 100m}}"));
        assert!(sized.ends_with("pod/sized created\n"), "{sized}");
        let high = run(&mut sim, &pod("urgent", "priorityClassName: high", "{requests: {cpu: 100m}}"));
        assert!(
            high.ends_with("pods \"urgent\" is forbidden: exceeded quota: no-high, requested: pods=1, used: pods=0, limited: pods=0\n"),
            "{high}"
        );
    }

    #[test]
    fn object_counts_and_extended_resources_are_charged_too() {
        let mut sim = lab(
            "kubectl create quota counts --hard=count/deployments.apps=1,requests.nvidia.com/gpu=1\nkubectl create deployment a --image=nginx --replicas=0\n",
        );
        let refused = run(&mut sim, "kubectl create deployment b --image=nginx");
        assert_eq!(
            refused,
            "error: failed to create deployment: deployments.apps \"b\" is forbidden: exceeded quota: counts, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1\n"
        );
        let gpus = "{requests: {nvidia.com/gpu: \"1\"}, limits: {nvidia.com/gpu: \"1\"}}";
        assert!(run(&mut sim, &pod("train", "restartPolicy: Never", gpus)).ends_with("pod/train created\n"));
        let second = run(&mut sim, &pod("train2", "restartPolicy: Never", gpus));
        assert!(second.contains("requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=1"), "{second}");
    }
}
