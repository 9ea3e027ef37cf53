//! The replica calculator: from pod metrics and requests to a replica count. Mirrors
//! pkg/controller/podautoscaler/replica_calculator.go (`GetResourceReplicas`,
//! `GetRawResourceReplicas`/`calcPlainMetricReplicas`, `groupPods`, `calculateRequests`) and
//! metrics/utilization.go, with upstream's float ratios, `ceil` and integer truncation.

use crate::api::Pod;
use crate::sim::time::{Duration, SimTime};
use std::collections::{BTreeMap, BTreeSet};

/// `--horizontal-pod-autoscaler-tolerance`.
pub const TOLERANCE: f64 = 0.1;
/// `--horizontal-pod-autoscaler-cpu-initialization-period`.
pub const CPU_INITIALIZATION_PERIOD: Duration = Duration::from_secs(300);
/// `--horizontal-pod-autoscaler-initial-readiness-delay`.
pub const DELAY_OF_INITIAL_READINESS_STATUS: Duration = Duration::from_secs(30);

/// One pod's metric as the metrics client returns it (`PodMetric`), in milli-units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodMetric {
    pub timestamp: SimTime,
    pub window: Duration,
    pub value: i64,
}

/// Pod name → metric (`PodMetricsInfo`).
pub type PodMetricsInfo = BTreeMap<String, PodMetric>;

/// What a resource calculation proposes: the replica count, the utilization in percent (for
/// Utilization targets) and the average raw value in milli-units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proposal {
    pub replicas: i32,
    pub utilization: i32,
    pub raw_average_milli: i64,
}

/// `Tolerances.isWithin`: no change when `1-tolerance <= ratio <= 1+tolerance`.
pub fn is_within_tolerance(usage_ratio: f64) -> bool {
    ((1.0 - TOLERANCE)..=(1.0 + TOLERANCE)).contains(&usage_ratio)
}

/// Pods sorted into the groups `groupPods` makes.
#[derive(Debug, Default)]
pub struct PodGroups {
    pub ready_count: usize,
    pub unready: BTreeSet<String>,
    pub missing: BTreeSet<String>,
    pub ignored: BTreeSet<String>,
}

/// `groupPods`: deleting or Failed pods are ignored, Pending ones unready, pods without a metric
/// missing; for CPU, pods still starting (or never ready) count as unready too.
pub fn group_pods(pods: &[&Pod], metrics: &PodMetricsInfo, cpu: bool, now: SimTime) -> PodGroups {
    let mut groups = PodGroups::default();
    for pod in pods {
        let name = pod.metadata.name.clone();
        if pod.metadata.deletion_timestamp.is_some() || pod.phase() == "Failed" {
            groups.ignored.insert(name);
        } else if pod.phase() == "Pending" {
            groups.unready.insert(name);
        } else if let Some(metric) = metrics.get(&name) {
            if cpu && cpu_sample_unready(pod, metric, now) {
                groups.unready.insert(name);
            } else {
                groups.ready_count += 1;
            }
        } else {
            groups.missing.insert(name);
        }
    }
    groups
}

/// The CPU-only readiness rule of `groupPods` (pod times at the second, as the API sends them).
fn cpu_sample_unready(pod: &Pod, metric: &PodMetric, now: SimTime) -> bool {
    let seconds = |t: SimTime| SimTime(t.0 / 1000 * 1000);
    let condition = pod.status.conditions.iter().find(|c| c.type_ == "Ready");
    let (Some(condition), Some(start)) = (condition, pod.status.start_time.map(|t| seconds(t.0))) else {
        return true;
    };
    let not_ready = condition.status == "False";
    let transition = condition.last_transition_time.map(|t| seconds(t.0));
    if start.plus(CPU_INITIALIZATION_PERIOD) > now {
        not_ready || transition.is_some_and(|t| metric.timestamp < t.plus(metric.window))
    } else {
        not_ready && transition.is_some_and(|t| start.plus(DELAY_OF_INITIAL_READINESS_STATUS) > t)
    }
}

/// `calculateRequests`: each pod's request for the resource (containers and sidecars, or one
/// named container), in milli-units; a container without one is an error.
pub fn calculate_requests(pods: &[&Pod], container: &str, resource: &str) -> Result<BTreeMap<String, i64>, String> {
    let mut requests = BTreeMap::new();
    for pod in pods {
        let sidecars = pod.spec.init_containers.iter().filter(|c| c.restart_policy.as_deref() == Some("Always"));
        let mut sum = 0i64;
        for c in pod.spec.containers.iter().chain(sidecars).filter(|c| container.is_empty() || c.name == container) {
            let Some(request) = c.resources.requests.get(resource) else {
                let pod_name = &pod.metadata.name;
                return Err(format!("missing request for {resource} in container {} of Pod {pod_name}", c.name));
            };
            sum = sum.saturating_add(request.milli_value());
        }
        requests.insert(pod.metadata.name.clone(), sum);
    }
    Ok(requests)
}

/// `GetResourceUtilizationRatio`: `int32(sum(usage)*100/sum(request))` over pods with both,
/// its ratio to the target, and the average usage.
pub fn resource_utilization_ratio(
    metrics: &BTreeMap<String, i64>,
    requests: &BTreeMap<String, i64>,
    target_utilization: i32,
) -> Result<(f64, i32, i64), String> {
    let (mut metrics_total, mut requests_total, mut entries) = (0i64, 0i64, 0i64);
    for (name, value) in metrics {
        let Some(request) = requests.get(name) else { continue };
        metrics_total = metrics_total.saturating_add(*value);
        requests_total = requests_total.saturating_add(*request);
        entries += 1;
    }
    if requests_total == 0 {
        return Err("no metrics returned matched known pods".into());
    }
    let utilization = (metrics_total.saturating_mul(100) / requests_total) as i32;
    Ok((f64::from(utilization) / f64::from(target_utilization), utilization, metrics_total / entries))
}

/// `GetMetricUsageRatio`: the average value and its ratio to the target.
fn metric_usage_ratio(metrics: &BTreeMap<String, i64>, target: i64) -> (f64, i64) {
    let total: i64 = metrics.values().fold(0i64, |sum, v| sum.saturating_add(*v));
    let average = total / (metrics.len().max(1) as i64);
    (average as f64 / target as f64, average)
}

/// `ceil(ratio * count)` as upstream converts it (`int32(math.Ceil(…))`).
fn ceil_replicas(ratio: f64, count: usize) -> i32 {
    (ratio * count as f64).ceil() as i32
}

/// Pods' usage values with ignored and unready pods removed, and the groups.
fn usable(pods: &[&Pod], metrics: &PodMetricsInfo, cpu: bool, now: SimTime) -> (BTreeMap<String, i64>, PodGroups) {
    let groups = group_pods(pods, metrics, cpu, now);
    let values = metrics
        .iter()
        .filter(|(name, _)| !groups.ignored.contains(*name) && !groups.unready.contains(*name))
        .map(|(name, m)| (name.clone(), m.value))
        .collect();
    (values, groups)
}

/// How `GetResourceReplicas` and `GetRawResourceReplicas` wrap a failed read of the metrics.
pub fn unable_to_get_metrics(resource: &str, cause: &str) -> String {
    format!("unable to get metrics for resource {resource}: {cause}")
}

/// `GetResourceReplicas`: replicas for a Utilization target.
pub fn resource_replicas(
    current_replicas: i32,
    target_utilization: i32,
    resource: &str,
    pods: &[&Pod],
    metrics: &PodMetricsInfo,
    now: SimTime,
) -> Result<Proposal, String> {
    if metrics.is_empty() {
        return Err(unable_to_get_metrics(resource, "no metrics returned from resource metrics API"));
    }
    if pods.is_empty() {
        return Err("no pods returned by selector while calculating replica count".into());
    }
    let (mut values, groups) = usable(pods, metrics, resource == "cpu", now);
    let requests = calculate_requests(pods, "", resource)?;
    if values.is_empty() {
        return Err("did not receive metrics for any ready pods".into());
    }
    let (ratio, utilization, raw_average_milli) = resource_utilization_ratio(&values, &requests, target_utilization)?;
    let keep = Proposal { replicas: current_replicas, utilization, raw_average_milli };
    let rebalance_ignored = !groups.unready.is_empty() && ratio > 1.0;
    if !rebalance_ignored && groups.missing.is_empty() {
        if is_within_tolerance(ratio) {
            return Ok(keep);
        }
        return Ok(Proposal { replicas: ceil_replicas(ratio, groups.ready_count), ..keep });
    }
    let fallback_utilization = i64::from(target_utilization.max(100));
    for name in &groups.missing {
        let request = requests.get(name).copied().unwrap_or(0);
        if ratio < 1.0 {
            values.insert(name.clone(), request.saturating_mul(fallback_utilization) / 100);
        } else if ratio > 1.0 {
            values.insert(name.clone(), 0);
        }
    }
    if rebalance_ignored {
        values.extend(groups.unready.iter().map(|name| (name.clone(), 0)));
    }
    let (new_ratio, _, _) = resource_utilization_ratio(&values, &requests, target_utilization)?;
    Ok(Proposal { replicas: rebalanced(current_replicas, ratio, new_ratio, values.len()), ..keep })
}

/// The end of both calculations once missing and unready pods were filled in: keep the current
/// count when within tolerance or when the direction would flip.
fn rebalanced(current_replicas: i32, ratio: f64, new_ratio: f64, count: usize) -> i32 {
    let flips = (ratio < 1.0 && new_ratio > 1.0) || (ratio > 1.0 && new_ratio < 1.0);
    if is_within_tolerance(new_ratio) || flips {
        return current_replicas;
    }
    let new_replicas = ceil_replicas(new_ratio, count);
    let backwards =
        (new_ratio < 1.0 && new_replicas > current_replicas) || (new_ratio > 1.0 && new_replicas < current_replicas);
    if backwards { current_replicas } else { new_replicas }
}

/// `GetRawResourceReplicas` / `calcPlainMetricReplicas`: replicas for an AverageValue target
/// (milli-units per pod).
pub fn raw_resource_replicas(
    current_replicas: i32,
    target_milli: i64,
    resource: &str,
    pods: &[&Pod],
    metrics: &PodMetricsInfo,
    now: SimTime,
) -> Result<Proposal, String> {
    if metrics.is_empty() {
        return Err(unable_to_get_metrics(resource, "no metrics returned from resource metrics API"));
    }
    if pods.is_empty() {
        return Err("no pods returned by selector while calculating replica count".into());
    }
    let (mut values, groups) = usable(pods, metrics, resource == "cpu", now);
    if values.is_empty() {
        return Err("did not receive metrics for any ready pods".into());
    }
    let (ratio, average) = metric_usage_ratio(&values, target_milli);
    let keep = Proposal { replicas: current_replicas, utilization: 0, raw_average_milli: average };
    let rebalance_ignored = !groups.unready.is_empty() && ratio > 1.0;
    if !rebalance_ignored && groups.missing.is_empty() {
        if is_within_tolerance(ratio) {
            return Ok(keep);
        }
        return Ok(Proposal { replicas: ceil_replicas(ratio, groups.ready_count), ..keep });
    }
    let fill = if ratio < 1.0 { target_milli } else { 0 };
    values.extend(groups.missing.iter().map(|name| (name.clone(), fill)));
    if rebalance_ignored {
        values.extend(groups.unready.iter().map(|name| (name.clone(), 0)));
    }
    let (new_ratio, _) = metric_usage_ratio(&values, target_milli);
    Ok(Proposal { replicas: rebalanced(current_replicas, ratio, new_ratio, values.len()), ..keep })
}
