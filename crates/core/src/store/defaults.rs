//! Defaulting, as upstream's `SetDefaults_*` (pkg/apis/core/v1/defaults.go,
//! pkg/apis/apps/v1/defaults.go), and a Service's IP allocation at create.

use super::Store;
use crate::api::container::{Container, Probe};
use crate::api::horizontal_pod_autoscaler::{HPAScalingPolicy, HPAScalingRules};
use crate::api::intstr::IntOrString;
use crate::api::pod::{PodSecurityContext, PodSpec};
use crate::api::shared::Shared;
use crate::api::{Deployment, HorizontalPodAutoscaler, Namespace, Pod, ReplicaSet, Secret, Service};
use crate::api::{deployment, secret};
use crate::sim::random::Purpose;

fn set<T>(field: &mut Option<T>, value: T) {
    if field.is_none() {
        *field = Some(value);
    }
}

pub fn namespace(ns: &mut Namespace) {
    let name = ns.metadata.name.clone();
    ns.metadata.labels.insert("kubernetes.io/metadata.name", name);
    if ns.spec.finalizers.is_empty() {
        ns.spec.finalizers.push("kubernetes".to_string());
    }
    set(&mut ns.status.phase, "Active".to_string());
}

/// SetDefaults_PodSpec plus the container defaults, for pods and pod templates alike.
pub fn pod_spec(spec: &mut PodSpec) {
    set(&mut spec.restart_policy, "Always".to_string());
    set(&mut spec.termination_grace_period_seconds, 30);
    set(&mut spec.dns_policy, "ClusterFirst".to_string());
    set(&mut spec.scheduler_name, "default-scheduler".to_string());
    set(&mut spec.security_context, Shared::new(PodSecurityContext::default()));
    set(&mut spec.enable_service_links, true);
    // Only clone the shared containers when a default is actually missing (see shared.rs).
    if spec.containers.iter().any(container_needs_defaults) {
        spec.containers.make_mut().iter_mut().for_each(container);
    }
    if spec.init_containers.iter().any(container_needs_defaults) {
        spec.init_containers.make_mut().iter_mut().for_each(container);
    }
}

fn container_needs_defaults(c: &Container) -> bool {
    let mut copy = c.clone();
    container(&mut copy);
    copy != *c
}

/// SetDefaults_Container, _ContainerPort, _Probe, _HTTPGetAction, and requests-from-limits.
pub fn container(c: &mut Container) {
    set(&mut c.termination_message_path, "/dev/termination-log".to_string());
    set(&mut c.termination_message_policy, "File".to_string());
    if c.image_pull_policy.is_none() {
        c.image_pull_policy = Some(default_pull_policy(c.image.as_deref().unwrap_or("")).to_string());
    }
    for port in &mut c.ports {
        set(&mut port.protocol, "TCP".to_string());
    }
    for probe in [&mut c.liveness_probe, &mut c.readiness_probe, &mut c.startup_probe].into_iter().flatten() {
        probe_defaults(probe);
    }
    // Upstream SetDefaults_Pod: a limit without a request means request = limit.
    let limits = c.resources.limits.clone();
    for (name, limit) in limits {
        c.resources.requests.entry(name).or_insert(limit);
    }
}

/// `Always` for `:latest` or untagged images, else `IfNotPresent` (digests count as tags).
pub fn default_pull_policy(image: &str) -> &'static str {
    let last_segment = image.rsplit('/').next().unwrap_or(image);
    let tag = last_segment.split_once(':').map(|(_, t)| t);
    let has_digest = image.contains('@');
    match tag {
        _ if has_digest => "IfNotPresent",
        None | Some("latest") => "Always",
        Some(_) => "IfNotPresent",
    }
}

fn probe_defaults(p: &mut Probe) {
    set(&mut p.timeout_seconds, 1);
    set(&mut p.period_seconds, 10);
    set(&mut p.success_threshold, 1);
    set(&mut p.failure_threshold, 3);
    if let Some(http) = &mut p.http_get {
        set(&mut http.path, "/".to_string());
        set(&mut http.scheme, "HTTP".to_string());
    }
}

pub fn pod(pod: &mut Pod) {
    pod_spec(&mut pod.spec);
    if pod.status.phase.is_none() {
        pod.status.phase = Some("Pending".to_string());
        pod.status.qos_class = Some(qos_class(&pod.spec).to_string());
    }
}

/// Upstream `qos.GetPodQOS` (pkg/apis/core/v1/helper/qos).
pub fn qos_class(spec: &PodSpec) -> &'static str {
    let all: Vec<&Container> = spec.containers.iter().chain(spec.init_containers.iter()).collect();
    let compute = |list: &crate::api::container::ResourceList| {
        list.iter().filter(|(k, q)| (k.as_str() == "cpu" || k.as_str() == "memory") && !q.is_zero()).count()
    };
    let any_set = all.iter().any(|c| compute(&c.resources.requests) + compute(&c.resources.limits) > 0);
    if !any_set {
        return "BestEffort";
    }
    let guaranteed = all.iter().all(|c| {
        ["cpu", "memory"].iter().all(|r| {
            let limit = c.resources.limits.get(*r).filter(|q| !q.is_zero());
            let request = c.resources.requests.get(*r).filter(|q| !q.is_zero());
            limit.is_some() && (request.is_none() || request == limit)
        })
    });
    if guaranteed { "Guaranteed" } else { "Burstable" }
}

pub fn replica_set(rs: &mut ReplicaSet) {
    set(&mut rs.spec.replicas, 1);
    pod_spec(&mut rs.spec.template.spec);
}

pub fn deployment(d: &mut Deployment) {
    let spec = &mut d.spec;
    set(&mut spec.replicas, 1);
    set(&mut spec.revision_history_limit, 10);
    set(&mut spec.progress_deadline_seconds, 600);
    let strategy = spec.strategy.get_or_insert_with(Default::default);
    set(&mut strategy.type_, "RollingUpdate".to_string());
    if strategy.type_.as_deref() == Some("RollingUpdate") {
        let rolling = strategy.rolling_update.get_or_insert_with(deployment::RollingUpdateDeployment::default);
        set(&mut rolling.max_unavailable, IntOrString::String("25%".into()));
        set(&mut rolling.max_surge, IntOrString::String("25%".into()));
    }
    pod_spec(&mut spec.template.spec);
}

pub fn service(svc: &mut Service) {
    let spec = &mut svc.spec;
    set(&mut spec.type_, "ClusterIP".to_string());
    set(&mut spec.session_affinity, "None".to_string());
    set(&mut spec.internal_traffic_policy, "Cluster".to_string());
    if matches!(spec.type_.as_deref(), Some("NodePort" | "LoadBalancer")) {
        set(&mut spec.external_traffic_policy, "Cluster".to_string());
    }
    for port in &mut spec.ports {
        set(&mut port.protocol, "TCP".to_string());
        set(&mut port.target_port, IntOrString::Int(port.port));
    }
}

/// ClusterIP from 10.96.0.0/12 and NodePorts from 30000–32767, chosen by the seeded generator.
pub fn allocate_service_ips(svc: &mut Service, store: &mut Store) {
    let spec = &mut svc.spec;
    if spec.type_.as_deref() != Some("ExternalName") && spec.cluster_ip.is_none() {
        let offset = 1 + store.random_below(Purpose::ClusterIp, (1 << 20) - 2) as u32;
        let ip = (10u32 << 24) | (96 << 16) | offset;
        let text = format!("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
        spec.cluster_ip = Some(text.clone());
        spec.cluster_ips = vec![text];
        spec.ip_families = vec!["IPv4".to_string()];
        set(&mut spec.ip_family_policy, "SingleStack".to_string());
    }
    if matches!(spec.type_.as_deref(), Some("NodePort" | "LoadBalancer")) {
        for port in &mut spec.ports {
            set(&mut port.node_port, 30000 + store.random_below(Purpose::NodePort, 2768) as i32);
        }
    }
}

/// `stringData` is write-only: merged into `data` (base64) on write, as upstream's conversion does.
pub fn secret(s: &mut Secret) {
    set(&mut s.type_, "Opaque".to_string());
    let plain = std::mem::take(&mut s.string_data);
    for (key, value) in plain.iter() {
        s.data.insert(key, secret::base64_encode(value.as_bytes()));
    }
}

/// SetDefaults_HorizontalPodAutoscaler (pkg/apis/autoscaling/v2/defaults.go): minReplicas 1,
/// CPU at 80% when no metric is given, and a given `behavior` filled in rule by rule.
pub fn horizontal_pod_autoscaler(hpa: &mut HorizontalPodAutoscaler) {
    use crate::api::horizontal_pod_autoscaler::{MetricSpec, MetricTarget, ResourceMetricSource};
    set(&mut hpa.spec.min_replicas, 1);
    if hpa.spec.metrics.is_empty() {
        let target = MetricTarget { type_: "Utilization".into(), average_utilization: Some(80), ..Default::default() };
        let resource = ResourceMetricSource { name: "cpu".into(), target };
        hpa.spec.metrics.push(MetricSpec { type_: "Resource".into(), resource: Some(resource), ..Default::default() });
    }
    if let Some(behavior) = hpa.spec.behavior.as_mut() {
        behavior.scale_up = Some(scaling_rules(behavior.scale_up.take(), Some(0), scale_up_policies()));
        behavior.scale_down = Some(scaling_rules(behavior.scale_down.take(), None, scale_down_policies()));
    }
}

/// `GenerateHPAScaleUpRules` defaults: Pods 4 and Percent 100 per 15s, Max, no stabilization.
pub fn scale_up_policies() -> Vec<HPAScalingPolicy> {
    vec![
        HPAScalingPolicy { type_: "Pods".into(), value: 4, period_seconds: 15 },
        HPAScalingPolicy { type_: "Percent".into(), value: 100, period_seconds: 15 },
    ]
}

/// `GenerateHPAScaleDownRules` defaults: Percent 100 per 15s, Max; the window is the controller's.
pub fn scale_down_policies() -> Vec<HPAScalingPolicy> {
    vec![HPAScalingPolicy { type_: "Percent".into(), value: 100, period_seconds: 15 }]
}

/// `copyHPAScalingRules`: what the user gave wins, field by field, over the defaults.
fn scaling_rules(
    given: Option<HPAScalingRules>,
    window: Option<i32>,
    policies: Vec<HPAScalingPolicy>,
) -> HPAScalingRules {
    let given = given.unwrap_or_default();
    HPAScalingRules {
        stabilization_window_seconds: given.stabilization_window_seconds.or(window),
        select_policy: given.select_policy.or_else(|| Some("Max".into())),
        policies: given.policies.or(Some(policies)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_pull_policy_follows_the_tag() {
        for (image, policy) in [
            ("nginx", "Always"),
            ("nginx:latest", "Always"),
            ("hello:v1", "IfNotPresent"),
            ("registry:5000/team/app", "Always"),
            ("registry:5000/team/app:1.2", "IfNotPresent"),
            ("app@sha256:abc", "IfNotPresent"),
        ] {
            assert_eq!(default_pull_policy(image), policy, "{image}");
        }
    }
}
