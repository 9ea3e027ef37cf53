//! What quota charges an object, by kind (pkg/quota/v1/evaluator/core: pods.go, services.go,
//! registry.go; k8s.io/apiserver/pkg/quota/v1/generic: the object count evaluator). Each
//! evaluator knows which quota resources it tracks, which scopes an object falls in, what the
//! object uses, and (pods only) which resources its containers must state.

use super::resources;
use crate::api::container::{Container, ResourceList};
use crate::api::quantity::{Format, Quantity};
use crate::api::resource_quota::ScopedResourceSelectorRequirement;
use crate::api::{Kind, Pod, ResourceQuota, Service};
use crate::sim::time::{Duration, SimTime};
use std::collections::{BTreeMap, BTreeSet};

/// How one kind is charged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluator {
    /// `podEvaluator`: compute resources, `pods` and `count/pods`, and the pod scopes.
    Pods,
    /// `serviceEvaluator`: `services`, `services.loadbalancers`, `services.nodeports`.
    Services,
    /// The object count evaluator: `count/<resource>.<group>`, and the legacy name for the
    /// few kinds that had one before `count/` existed.
    ObjectCount { count_name: String, legacy_name: Option<&'static str> },
}

/// The resources a pod's containers must state when a quota tracks them (upstream's
/// `validationSet`, "a mistake" it keeps for compatibility).
const VALIDATION_SET: &[&str] = &["cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"];

/// `podResources`: what the pod evaluator tracks besides extended resources and hugepages.
const POD_RESOURCES: &[&str] = &[
    "count/pods",
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
];

const SERVICE_RESOURCES: &[&str] = &["count/services", "services", "services.loadbalancers", "services.nodeports"];

impl Evaluator {
    /// The evaluator upstream registers for a kind (registry.go), or an object count one.
    pub fn for_kind(kind: Kind) -> Evaluator {
        match kind {
            Kind::Pod => Evaluator::Pods,
            Kind::Service => Evaluator::Services,
            _ => {
                let info = kind.info();
                let legacy_name = match info.plural {
                    "configmaps"
                    | "secrets"
                    | "resourcequotas"
                    | "replicationcontrollers"
                    | "persistentvolumeclaims"
                        if info.group.is_empty() =>
                    {
                        Some(info.plural)
                    }
                    _ => None,
                };
                Evaluator::ObjectCount { count_name: format!("count/{}", info.plural_qualified()), legacy_name }
            }
        }
    }

    /// `MatchingResources`: of `names`, those this evaluator tracks.
    pub fn matching_resources<'a>(&self, names: impl IntoIterator<Item = &'a String>) -> Vec<String> {
        names.into_iter().filter(|name| self.tracks(name)).cloned().collect()
    }

    fn tracks(&self, name: &str) -> bool {
        match self {
            Evaluator::Pods => {
                POD_RESOURCES.contains(&name)
                    || name.starts_with("hugepages-")
                    || name.starts_with("requests.hugepages-")
                    || is_extended_resource_name_for_quota(name)
            }
            Evaluator::Services => SERVICE_RESOURCES.contains(&name),
            Evaluator::ObjectCount { count_name, legacy_name } => name == count_name || Some(name) == *legacy_name,
        }
    }

    /// `generic.Matches`: the quota limits something this evaluator tracks, and the object is
    /// in every scope the quota names (only pods have scopes; other kinds match no scoped quota).
    pub fn matches(&self, quota: &ResourceQuota, pod: Option<&Pod>) -> bool {
        if self.matching_resources(quota.status.hard.keys()).is_empty() {
            return false;
        }
        quota.scope_selectors().iter().all(|scope| pod.is_some_and(|pod| pod_matches_scope(scope, pod)))
    }
}

/// `isExtendedResourceNameForQuota`: `requests.` and a resource outside `kubernetes.io/`.
fn is_extended_resource_name_for_quota(name: &str) -> bool {
    !is_native_resource(name) && name.starts_with("requests.")
}

/// `IsNativeResource`: no domain, or the `kubernetes.io/` one.
fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `IsExtendedResourceName`: a device plugin's resource (`nvidia.com/gpu`).
fn is_extended_resource_name(name: &str) -> bool {
    !is_native_resource(name) && !name.starts_with("requests.")
}

/// `podMatchesScopeFunc`.
pub fn pod_matches_scope(scope: &ScopedResourceSelectorRequirement, pod: &Pod) -> bool {
    let terminating = pod.spec.active_deadline_seconds.is_some_and(|s| s >= 0);
    let best_effort = crate::store::defaults::qos_class(&pod.spec) == "BestEffort";
    match scope.scope_name.as_str() {
        "Terminating" => terminating,
        "NotTerminating" => !terminating,
        "BestEffort" => best_effort,
        "NotBestEffort" => !best_effort,
        "PriorityClass" => {
            let class = pod.spec.priority_class_name.as_deref().filter(|c| !c.is_empty());
            match scope.operator.as_str() {
                "Exists" => class.is_some(),
                "DoesNotExist" => class.is_none(),
                "In" => class.is_some_and(|c| scope.values.iter().any(|v| v == c)),
                "NotIn" => class.is_none_or(|c| !scope.values.iter().any(|v| v == c)),
                _ => false,
            }
        }
        "CrossNamespacePodAffinity" => false,
        _ => false,
    }
}

/// `QuotaV1Pod`: a pod is charged compute resources until it ends (Succeeded, Failed) or
/// stays past its deletion time plus its grace period (a lost node's pods).
fn charged_compute(pod: &Pod, now: SimTime) -> bool {
    if matches!(pod.phase(), "Succeeded" | "Failed") {
        return false;
    }
    let meta = &pod.metadata;
    match (meta.deletion_timestamp, meta.deletion_grace_period_seconds) {
        (Some(at), Some(grace)) => now <= at.0.plus(Duration::from_secs(grace.max(0) as u64)),
        _ => true,
    }
}

/// `PodUsageFunc`: `count/pods` always; `pods` and compute resources while charged.
pub fn pod_usage(pod: &Pod, now: SimTime) -> ResourceList {
    let mut usage = ResourceList::from([("count/pods".to_string(), Quantity::from_int(1, Format::DecimalSI))]);
    if !charged_compute(pod, now) {
        return usage;
    }
    let (requests, limits) = pod_requests_and_limits(pod);
    usage.extend(compute_usage(&requests, &limits));
    usage
}

/// `podComputeUsageHelper`: requests as `cpu`/`requests.cpu` (and memory, ephemeral storage),
/// limits as `limits.*`, extended resources as `requests.<name>`, `pods` 1.
fn compute_usage(requests: &ResourceList, limits: &ResourceList) -> ResourceList {
    let mut usage = ResourceList::from([("pods".to_string(), Quantity::from_int(1, Format::DecimalSI))]);
    for resource in ["cpu", "memory", "ephemeral-storage"] {
        if let Some(request) = requests.get(resource) {
            usage.insert(resource.to_string(), *request);
            usage.insert(format!("requests.{resource}"), *request);
        }
        if let Some(limit) = limits.get(resource) {
            usage.insert(format!("limits.{resource}"), *limit);
        }
    }
    for (resource, request) in requests {
        if resource.starts_with("hugepages-") {
            usage.insert(resource.clone(), *request);
            usage.insert(format!("requests.{resource}"), *request);
        }
        if is_extended_resource_name(resource) {
            usage.insert(format!("requests.{resource}"), *request);
        }
    }
    usage
}

/// `PodRequests`/`PodLimits`: containers summed, each init container a floor, overhead added.
fn pod_requests_and_limits(pod: &Pod) -> (ResourceList, ResourceList) {
    let (mut requests, mut limits) = (ResourceList::new(), ResourceList::new());
    for container in pod.spec.containers.iter() {
        requests = resources::add(&requests, &container.resources.requests);
        limits = resources::add(&limits, &container.resources.limits);
    }
    for container in pod.spec.init_containers.iter() {
        raise_to(&mut requests, &container.resources.requests);
        raise_to(&mut limits, &container.resources.limits);
    }
    if let Some(overhead) = &pod.spec.overhead {
        requests = resources::add(&requests, overhead);
        limits = resources::add(&limits, overhead);
    }
    (requests, limits)
}

fn raise_to(total: &mut ResourceList, floor: &ResourceList) {
    for (name, quantity) in floor {
        if total.get(name).is_none_or(|existing| quantity.cmp_value(existing).is_gt()) {
            total.insert(name.clone(), *quantity);
        }
    }
}

/// `serviceEvaluator.Usage`: one service, one load balancer, and a node port per port.
pub fn service_usage(service: &Service) -> ResourceList {
    let one = Quantity::from_int(1, Format::DecimalSI);
    let mut usage = ResourceList::from([("services".to_string(), one), ("count/services".to_string(), one)]);
    let ports = Quantity::from_int(service.spec.ports.len() as i64, Format::DecimalSI);
    match service.spec.type_.as_deref() {
        Some("NodePort") => {
            usage.insert("services.nodeports".to_string(), ports);
        }
        Some("LoadBalancer") => {
            usage.insert("services.loadbalancers".to_string(), one);
            if service.spec.allocate_load_balancer_node_ports != Some(false) {
                usage.insert("services.nodeports".to_string(), ports);
            }
        }
        _ => {}
    }
    usage
}

/// The object count evaluator's usage: one of its kind.
pub fn count_usage(evaluator: &Evaluator) -> ResourceList {
    let one = Quantity::from_int(1, Format::DecimalSI);
    let Evaluator::ObjectCount { count_name, legacy_name } = evaluator else { return ResourceList::new() };
    let mut usage = ResourceList::from([(count_name.clone(), one)]);
    if let Some(legacy) = legacy_name {
        usage.insert(legacy.to_string(), one);
    }
    usage
}

/// `podEvaluator.Constraints`: when a quota tracks cpu or memory, every container must state
/// it: `must specify limits.cpu for: app; requests.cpu for: app`.
pub fn pod_constraints(required: &[String], pod: &Pod) -> Result<(), String> {
    let required: BTreeSet<&str> =
        required.iter().map(String::as_str).filter(|name| VALIDATION_SET.contains(name)).collect();
    let mut missing: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let containers: Vec<&Container> = pod.spec.containers.iter().chain(pod.spec.init_containers.iter()).collect();
    for container in containers {
        let stated = compute_usage(&container.resources.requests, &container.resources.limits);
        for name in required.iter().filter(|name| !stated.contains_key(**name)) {
            missing.entry(name).or_default().insert(container.name.as_str());
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    let parts: Vec<String> = missing
        .iter()
        .map(|(resource, containers)| {
            format!("{resource} for: {}", containers.iter().copied().collect::<Vec<_>>().join(","))
        })
        .collect();
    Err(format!("must specify {}", parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(yaml: &str) -> Pod {
        serde_yaml::from_str(yaml).unwrap()
    }

    const WEB: &str = "metadata: {name: web}\nspec:\n  containers:\n  - name: app\n    image: nginx\n    resources:\n      requests: {cpu: 250m, memory: 64Mi, nvidia.com/gpu: \"1\"}\n      limits: {cpu: 500m, nvidia.com/gpu: \"1\"}\n";

    #[test]
    fn a_pod_uses_its_requests_limits_extended_resources_and_one_pod() {
        let usage = pod_usage(&pod(WEB), SimTime::ZERO);
        assert_eq!(
            resources::pretty_print(&usage),
            "count/pods=1,cpu=250m,limits.cpu=500m,memory=64Mi,pods=1,requests.cpu=250m,requests.memory=64Mi,requests.nvidia.com/gpu=1"
        );
        let mut done = pod(WEB);
        done.status.phase = Some("Succeeded".into());
        assert_eq!(resources::pretty_print(&pod_usage(&done, SimTime::ZERO)), "count/pods=1");
    }

    #[test]
    fn a_quota_on_cpu_requires_every_container_to_state_it() {
        let bare = pod(
            "metadata: {name: x}\nspec:\n  containers: [{name: app, image: nginx}, {name: side, image: busybox}]\n",
        );
        let required = ["limits.cpu".to_string(), "requests.cpu".into(), "pods".into()];
        assert_eq!(
            pod_constraints(&required, &bare),
            Err("must specify limits.cpu for: app,side; requests.cpu for: app,side".into())
        );
        assert_eq!(pod_constraints(&["requests.cpu".to_string()], &pod(WEB)), Ok(()));
    }

    #[test]
    fn evaluators_track_their_own_resources() {
        let names: Vec<String> =
            ["requests.cpu", "count/deployments.apps", "configmaps", "requests.nvidia.com/gpu", "services"]
                .map(String::from)
                .to_vec();
        assert_eq!(
            Evaluator::for_kind(Kind::Pod).matching_resources(&names),
            ["requests.cpu", "requests.nvidia.com/gpu"]
        );
        assert_eq!(Evaluator::for_kind(Kind::Deployment).matching_resources(&names), ["count/deployments.apps"]);
        assert_eq!(Evaluator::for_kind(Kind::ConfigMap).matching_resources(&names), ["configmaps"]);
        assert_eq!(Evaluator::for_kind(Kind::Service).matching_resources(&names), ["services"]);
    }
}
