//! `LimitRanger` (plugin/pkg/admission/limitranger): a new pod's containers get the requests
//! and limits its namespace's LimitRanges default (noted in the `kubernetes.io/limit-ranger`
//! annotation), and a pod outside a LimitRange's min, max or limit/request ratio is refused.

use super::{Operation, Plugin, Request};
use crate::api::container::{Container, ResourceList};
use crate::api::limit_range::{LIMIT_TYPE_CONTAINER, LIMIT_TYPE_POD, LimitRangeItem};
use crate::api::quantity::Quantity;
use crate::api::{LimitRange, ObjectMut, Pod};
use crate::error::ApiError;
use crate::store::Store;
use crate::store::quota::resources;

pub const PLUGIN: Plugin = Plugin { name: "LimitRanger", admit: Some(admit), validate: Some(validate) };

const LIMIT_RANGER_ANNOTATION: &str = "kubernetes.io/limit-ranger";

/// `SupportsAttributes`: pods as they are created (containers cannot change afterwards).
fn handled<'p>(request: &Request<'_>, object: &'p ObjectMut<'_>) -> Option<&'p Pod> {
    match object {
        ObjectMut::Pod(pod) if request.operation == Operation::Create && request.subresource.is_empty() => Some(pod),
        _ => None,
    }
}

fn admit(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    if handled(request, object).is_none() {
        return Ok(());
    }
    let ObjectMut::Pod(pod) = object else { return Ok(()) };
    for limit_range in store.list::<LimitRange>(Some(request.namespace)) {
        merge_defaults(pod, limit_range);
    }
    Ok(())
}

fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    let Some(pod) = handled(request, object) else { return Ok(()) };
    for limit_range in store.list::<LimitRange>(Some(request.namespace)) {
        let errors = violations(limit_range, pod);
        if !errors.is_empty() {
            let message = format!("pods {:?} is forbidden: {}", request.name, aggregate(errors));
            return Err(ApiError::Forbidden { message });
        }
    }
    Ok(())
}

/// `utilerrors.NewAggregate(...).Error()`: one message alone, several in brackets.
fn aggregate(mut errors: Vec<String>) -> String {
    errors.dedup();
    match errors.len() {
        1 => errors.remove(0),
        _ => format!("[{}]", errors.join(", ")),
    }
}

/// `PodMutateLimitFunc`: the Container items' `defaultRequest` and `default` fill what each
/// container leaves unset. The pod's QoS class follows the resources it now has (upstream
/// sets it in PrepareForCreate, after mutating admission).
fn merge_defaults(pod: &mut Pod, limit_range: &LimitRange) {
    let (mut requests, mut limits) = (ResourceList::new(), ResourceList::new());
    for item in limit_range.spec.limits.iter().filter(|i| i.type_ == LIMIT_TYPE_CONTAINER) {
        requests.extend(item.default_request.iter().map(|(k, v)| (k.clone(), *v)));
        limits.extend(item.default.iter().map(|(k, v)| (k.clone(), *v)));
    }
    if requests.is_empty() && limits.is_empty() {
        return;
    }
    let mut notes = Vec::new();
    for container in pod.spec.containers.make_mut() {
        merge_container(container, (&requests, &limits), "container", &mut notes);
    }
    for container in pod.spec.init_containers.make_mut() {
        merge_container(container, (&requests, &limits), "init container", &mut notes);
    }
    if !notes.is_empty() {
        let note = format!("LimitRanger plugin set: {}", notes.join("; "));
        pod.metadata.annotations.insert(LIMIT_RANGER_ANNOTATION, &note);
    }
    pod.status.qos_class = Some(crate::store::defaults::qos_class(&pod.spec).to_string());
}

/// `mergeContainerResources`: `cpu, memory request for container app`.
fn merge_container(
    container: &mut Container,
    (requests, limits): (&ResourceList, &ResourceList),
    what: &str,
    notes: &mut Vec<String>,
) {
    let fill = |have: &mut ResourceList, defaults: &ResourceList| -> Vec<String> {
        let missing: Vec<String> = defaults.keys().filter(|k| !have.contains_key(*k)).cloned().collect();
        for name in &missing {
            have.insert(name.clone(), defaults[name]);
        }
        missing
    };
    let set_limits = fill(&mut container.resources.limits, limits);
    let set_requests = fill(&mut container.resources.requests, requests);
    if !set_requests.is_empty() {
        notes.push(format!("{} request for {what} {}", set_requests.join(", "), container.name));
    }
    if !set_limits.is_empty() {
        notes.push(format!("{} limit for {what} {}", set_limits.join(", "), container.name));
    }
}

/// `PodValidateLimitFunc`: every container against the Container items, the pod's sums
/// against the Pod items; resources in name order.
fn violations(limit_range: &LimitRange, pod: &Pod) -> Vec<String> {
    let mut errors = Vec::new();
    for item in &limit_range.spec.limits {
        if item.type_ == LIMIT_TYPE_CONTAINER {
            for container in pod.spec.containers.iter().chain(pod.spec.init_containers.iter()) {
                let resources = &container.resources;
                check_item(item, (&resources.requests, &resources.limits), &mut errors);
            }
        }
        if item.type_ == LIMIT_TYPE_POD {
            let (requests, limits) = pod_totals(pod);
            check_item(item, (&requests, &limits), &mut errors);
        }
    }
    errors
}

fn check_item(item: &LimitRangeItem, (requests, limits): (&ResourceList, &ResourceList), errors: &mut Vec<String>) {
    let kind = item.type_.as_str();
    for (resource, enforced) in &item.min {
        errors.extend(min_constraint(kind, resource, enforced, requests.get(resource), limits.get(resource)));
    }
    for (resource, enforced) in &item.max {
        errors.extend(max_constraint(kind, resource, enforced, requests.get(resource), limits.get(resource)));
    }
    for (resource, enforced) in &item.max_limit_request_ratio {
        errors.extend(ratio_constraint(kind, resource, enforced, requests.get(resource), limits.get(resource)));
    }
}

/// The pod's requests and limits: containers summed, each init container a floor.
fn pod_totals(pod: &Pod) -> (ResourceList, ResourceList) {
    let (mut requests, mut limits) = (ResourceList::new(), ResourceList::new());
    for container in pod.spec.containers.iter() {
        requests = resources::add(&requests, &container.resources.requests);
        limits = resources::add(&limits, &container.resources.limits);
    }
    for container in pod.spec.init_containers.iter() {
        for (total, own) in [(&mut requests, &container.resources.requests), (&mut limits, &container.resources.limits)]
        {
            for (name, quantity) in own {
                if total.get(name).is_none_or(|t| quantity.cmp_value(t).is_gt()) {
                    total.insert(name.clone(), *quantity);
                }
            }
        }
    }
    (requests, limits)
}

/// `minConstraint`.
fn min_constraint(
    kind: &str,
    resource: &str,
    enforced: &Quantity,
    request: Option<&Quantity>,
    limit: Option<&Quantity>,
) -> Option<String> {
    let Some(request) = request else {
        return Some(format!("minimum {resource} usage per {kind} is {enforced}.  No request is specified"));
    };
    if enforced.cmp_value(request).is_gt() {
        return Some(format!("minimum {resource} usage per {kind} is {enforced}, but request is {request}"));
    }
    let limit = limit.filter(|l| enforced.cmp_value(l).is_gt())?;
    Some(format!("minimum {resource} usage per {kind} is {enforced}, but limit is {limit}"))
}

/// `maxConstraint`.
fn max_constraint(
    kind: &str,
    resource: &str,
    enforced: &Quantity,
    request: Option<&Quantity>,
    limit: Option<&Quantity>,
) -> Option<String> {
    let Some(limit) = limit else {
        return Some(format!("maximum {resource} usage per {kind} is {enforced}.  No limit is specified"));
    };
    if limit.cmp_value(enforced).is_gt() {
        return Some(format!("maximum {resource} usage per {kind} is {enforced}, but limit is {limit}"));
    }
    let request = request.filter(|r| r.cmp_value(enforced).is_gt())?;
    Some(format!("maximum {resource} usage per {kind} is {enforced}, but request is {request}"))
}

/// `limitRequestRatioConstraint`: the ratio shown to six decimals.
fn ratio_constraint(
    kind: &str,
    resource: &str,
    enforced: &Quantity,
    request: Option<&Quantity>,
    limit: Option<&Quantity>,
) -> Option<String> {
    let Some(request) = request.filter(|r| !r.is_zero()) else {
        return Some(format!(
            "{resource} max limit to request ratio per {kind} is {enforced}, but no request is specified or request is 0"
        ));
    };
    let Some(limit) = limit.filter(|l| !l.is_zero()) else {
        return Some(format!(
            "{resource} max limit to request ratio per {kind} is {enforced}, but no limit is specified or limit is 0"
        ));
    };
    let (limit_milli, request_milli) = (limit.milli_value() as i128, request.milli_value() as i128);
    // limit > request × ratio, in thousandths: exact for every quantity a pod states.
    if limit_milli * 1000 <= request_milli * enforced.milli_value() as i128 {
        return None;
    }
    let ratio = limit_milli as f64 / request_milli as f64;
    Some(format!("{resource} max limit to request ratio per {kind} is {enforced}, but provided ratio is {ratio:.6}"))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    const LIMITS: &str = "kubectl apply -f - <<EOF\napiVersion: v1\nkind: LimitRange\nmetadata: {name: limits}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {cpu: 250m, memory: 64Mi}\n    default: {cpu: 500m}\n    max: {cpu: \"1\"}\n    maxLimitRequestRatio: {cpu: \"4\"}\nEOF\n";

    #[test]
    fn a_container_without_resources_gets_the_namespaces_defaults() {
        let mut sim = lab(&format!("{LIMITS}kubectl run web --image=nginx\n"));
        let resources = run(&mut sim, "kubectl get pod web -o jsonpath={.spec.containers[0].resources}");
        assert_eq!(resources, r#"{"limits":{"cpu":"500m"},"requests":{"cpu":"250m","memory":"64Mi"}}"#);
        let note = run(&mut sim, "kubectl get pod web -o jsonpath={.metadata.annotations}");
        assert_eq!(
            note,
            r#"{"kubernetes.io/limit-ranger":"LimitRanger plugin set: cpu, memory request for container web; cpu limit for container web"}"#
        );
        assert_eq!(run(&mut sim, "kubectl get pod web -o jsonpath={.status.qosClass}"), "Burstable");
    }

    fn pod(name: &str, resources: &str) -> String {
        format!(
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  containers:\n  - name: {name}\n    image: nginx\n    resources: {resources}\nEOF\n"
        )
    }

    #[test]
    fn a_container_past_the_bounds_is_refused_in_upstreams_words() {
        let big = run(&mut lab(LIMITS), &pod("x", "{limits: {cpu: \"2\"}}"));
        assert!(
            big.ends_with("pods \"x\" is forbidden: maximum cpu usage per Container is 1, but limit is 2\n"),
            "{big}"
        );
        let ratio = run(&mut lab(LIMITS), &pod("z", "{requests: {cpu: 100m}, limits: {cpu: \"1\"}}"));
        assert!(
            ratio.ends_with(
                "pods \"z\" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 10.000000\n"
            ),
            "{ratio}"
        );
    }
}
