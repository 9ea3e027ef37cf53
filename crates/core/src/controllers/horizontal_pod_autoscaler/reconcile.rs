//! One `reconcileAutoscaler`: read the target's scale, compute replicas from the metrics (or
//! from the min/max bounds), normalize, rescale, and write the status with its conditions and
//! Events, worded as pkg/controller/podautoscaler/horizontal.go words them.

use super::metrics_client::get_resource_metric;
use super::normalize::{self, History, Normalized, TimestampedRecommendation};
use super::replica_calculator::{self, Proposal};
use crate::api::horizontal_pod_autoscaler::{
    HorizontalPodAutoscalerCondition, HorizontalPodAutoscalerStatus, MetricSpec, MetricStatus, MetricValueStatus,
    ResourceMetricStatus,
};
use crate::api::labels::Selector;
use crate::api::meta::Time;
use crate::api::quantity::{Format, Quantity};
use crate::api::{Deployment, HorizontalPodAutoscaler, Kind, Pod, ReplicaSet};
use crate::error::ApiError;
use crate::kubelet::Kubelet;
use crate::metrics::demand::PodDemands;
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};

/// What the controller reads besides the store: the runtime (for metrics) and the load.
pub struct Sources<'a> {
    pub kubelet: &'a Kubelet,
    pub demands: &'a PodDemands,
}

/// The target's scale subresource (`autoscaling/v1` Scale).
struct Scale {
    kind: Kind,
    spec_replicas: i32,
    selector: String,
}

/// One sync of one HPA.
pub fn reconcile_autoscaler(
    store: &mut Store,
    sources: &Sources<'_>,
    mut hpa: HorizontalPodAutoscaler,
    history: &mut History,
) {
    let original = hpa.status.clone();
    let scale = match get_scale(store, &hpa) {
        Ok(scale) => scale,
        Err(message) => {
            event(store, &hpa, EventType::Warning, "FailedGetScale", message.clone());
            let detail = format!("the HPA controller was unable to get the target's current scale: {message}");
            set_condition(store, &mut hpa, "AbleToScale", "False", "FailedGetScale", detail);
            update_status_if_needed(store, &original, hpa);
            return;
        }
    };
    let message = "the HPA controller was able to get the target's current scale";
    set_condition(store, &mut hpa, "AbleToScale", "True", "SucceededGetScale", message.into());
    let current = scale.spec_replicas;
    if history.recommendations.is_empty() {
        history.recommendations.push(TimestampedRecommendation { recommendation: current, timestamp: store.now() });
    }
    let Some((desired, reason, statuses)) = desired_replicas(store, sources, &mut hpa, &scale, history) else {
        update_status_if_needed(store, &original, hpa);
        return;
    };
    let rescale = desired.is_some_and(|d| d != current);
    let applied = match desired.filter(|_| rescale) {
        Some(desired) => rescale_target(store, &mut hpa, &scale, (current, desired), &reason, history),
        None => Ok(current),
    };
    let Ok(applied) = applied else {
        let desired = hpa.status.desired_replicas;
        set_status(store, &mut hpa, current, desired, statuses, false);
        update_status_if_needed(store, &original, hpa);
        return;
    };
    set_status(store, &mut hpa, current, applied, statuses, rescale);
    update_status_if_needed(store, &original, hpa);
}

/// The count to scale to (`None`: scaling disabled) with its reason and the metric statuses, or
/// `None` when no metric could be computed (the status is written as it stands).
fn desired_replicas(
    store: &mut Store,
    sources: &Sources<'_>,
    hpa: &mut HorizontalPodAutoscaler,
    scale: &Scale,
    history: &mut History,
) -> Option<(Option<i32>, String, Vec<MetricStatus>)> {
    let (current, min, max) = (scale.spec_replicas, hpa.spec.min_replicas_or_default(), hpa.spec.max_replicas);
    if current == 0 && min != 0 {
        let message = "scaling is disabled since the replica count of the target is zero";
        set_condition(store, hpa, "ScalingActive", "False", "ScalingDisabled", message.into());
        return Some((None, String::new(), Vec::new()));
    }
    if current > max {
        return Some((Some(max), "Current number of replicas above Spec.MaxReplicas".into(), Vec::new()));
    }
    if current < min {
        return Some((Some(min), "Current number of replicas below Spec.MinReplicas".into(), Vec::new()));
    }
    let computed = compute_replicas_for_metrics(store, sources, hpa, scale);
    let (proposed, metric_name, statuses) = match computed {
        Ok(found) => found,
        Err((message, statuses)) => {
            let desired = hpa.status.desired_replicas;
            set_status(store, hpa, current, desired, statuses, false);
            event(store, hpa, EventType::Warning, "FailedComputeMetricsReplicas", message);
            return None;
        }
    };
    let reason = match proposed.cmp(&current) {
        std::cmp::Ordering::Greater => format!("{metric_name} above target"),
        std::cmp::Ordering::Less => "All metrics below target".to_string(),
        std::cmp::Ordering::Equal => String::new(),
    };
    let normalized = normalize_desired(store.now(), hpa, history, current, proposed);
    apply_normalized_conditions(store, hpa, &normalized);
    Some((Some(normalized.replicas), reason, statuses))
}

fn normalize_desired(
    now: crate::sim::time::SimTime,
    hpa: &HorizontalPodAutoscaler,
    history: &mut History,
    current: i32,
    proposed: i32,
) -> Normalized {
    let bounds = (hpa.spec.min_replicas_or_default(), hpa.spec.max_replicas);
    match &hpa.spec.behavior {
        None => normalize::normalize(&mut history.recommendations, now, current, proposed, bounds),
        Some(behavior) => {
            let (up, down) =
                (behavior.scale_up.clone().unwrap_or_default(), behavior.scale_down.clone().unwrap_or_default());
            normalize::normalize_with_behaviors(history, now, current, proposed, bounds, (&up, &down))
        }
    }
}

fn apply_normalized_conditions(store: &Store, hpa: &mut HorizontalPodAutoscaler, normalized: &Normalized) {
    let (reason, message) = normalized.able_to_scale;
    set_condition(store, hpa, "AbleToScale", "True", reason, message.into());
    let (reason, message) = normalized.scaling_limited;
    let status = if normalized.limited { "True" } else { "False" };
    set_condition(store, hpa, "ScalingLimited", status, reason, message.into());
}

/// Writes the new size to the target; the AbleToScale condition and Event say how it went.
fn rescale_target(
    store: &mut Store,
    hpa: &mut HorizontalPodAutoscaler,
    scale: &Scale,
    (current, desired): (i32, i32),
    reason: &str,
    history: &mut History,
) -> Result<i32, ()> {
    let (namespace, name) = (hpa.metadata.namespace.clone(), hpa.spec.scale_target_ref.name.clone());
    if let Err(err) = update_scale(store, scale.kind, &namespace, &name, desired) {
        let message = format!("New size: {desired}; reason: {reason}; error: {err}");
        event(store, hpa, EventType::Warning, "FailedRescale", message);
        let detail = format!("the HPA controller was unable to update the target scale: {err}");
        set_condition(store, hpa, "AbleToScale", "False", "FailedUpdateScale", detail);
        return Err(());
    }
    let detail = format!("the HPA controller was able to update the target scale to {desired}");
    set_condition(store, hpa, "AbleToScale", "True", "SucceededRescale", detail);
    event(store, hpa, EventType::Normal, "SuccessfulRescale", format!("New size: {desired}; reason: {reason}"));
    if let Some(behavior) = &hpa.spec.behavior {
        let rules = if desired > current { &behavior.scale_up } else { &behavior.scale_down };
        normalize::store_scale_event(history, store.now(), &rules.clone().unwrap_or_default(), current, desired);
    }
    Ok(desired)
}

/// `computeReplicasForMetrics`: the largest proposal over the metrics, or the first error.
#[allow(clippy::type_complexity)]
fn compute_replicas_for_metrics(
    store: &mut Store,
    sources: &Sources<'_>,
    hpa: &mut HorizontalPodAutoscaler,
    scale: &Scale,
) -> Result<(i32, String, Vec<MetricStatus>), (String, Vec<MetricStatus>)> {
    let selector = validate_and_parse_selector(store, hpa, &scale.selector).map_err(|e| (e, Vec::new()))?;
    let specs = hpa.spec.metrics.clone();
    let mut statuses = vec![MetricStatus::default(); specs.len()];
    let (mut replicas, mut metric) = (0, String::new());
    let mut invalid: Vec<(String, String, String)> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        match compute_replicas_for_metric(store, sources, hpa, scale.spec_replicas, &selector, spec) {
            Ok((proposal, name, status)) => {
                statuses[i] = status;
                if replicas == 0 || proposal > replicas {
                    (replicas, metric) = (proposal, name);
                }
            }
            Err((reason, condition_message, error)) => {
                event(store, hpa, EventType::Warning, &reason, condition_message.clone());
                invalid.push((reason, condition_message, error));
            }
        }
    }
    if let Some((reason, condition_message, error)) = invalid.first().cloned()
        && (invalid.len() >= specs.len() || replicas < scale.spec_replicas)
    {
        let detail = format!("the HPA was unable to compute the replica count: {condition_message}");
        set_condition(store, hpa, "ScalingActive", "False", &reason, detail);
        let message =
            format!("invalid metrics ({} invalid out of {}), first error is: {error}", invalid.len(), specs.len());
        return Err((message, statuses));
    }
    let message = format!("the HPA was able to successfully calculate a replica count from {metric}");
    set_condition(store, hpa, "ScalingActive", "True", "ValidMetricFound", message);
    Ok((replicas, metric, statuses))
}

/// `validateAndParseSelector`: the scale's selector, which must be present and parse.
fn validate_and_parse_selector(
    store: &mut Store,
    hpa: &mut HorizontalPodAutoscaler,
    text: &str,
) -> Result<Selector, String> {
    if text.is_empty() {
        event(store, hpa, EventType::Warning, "SelectorRequired", "selector is required".into());
        let message = "the HPA target's scale is missing a selector";
        set_condition(store, hpa, "ScalingActive", "False", "InvalidSelector", message.into());
        return Err("selector is required".into());
    }
    Selector::parse(text).map_err(|e| {
        let message = format!("couldn't convert selector into a corresponding internal selector object: {e}");
        event(store, hpa, EventType::Warning, "InvalidSelector", message.clone());
        set_condition(store, hpa, "ScalingActive", "False", "InvalidSelector", message.clone());
        message
    })
}

/// One metric: (proposal, metric name, status) or (condition reason, condition cause, error).
fn compute_replicas_for_metric(
    store: &Store,
    sources: &Sources<'_>,
    hpa: &HorizontalPodAutoscaler,
    current: i32,
    selector: &Selector,
    spec: &MetricSpec,
) -> Result<(i32, String, MetricStatus), (String, String, String)> {
    let (resource, container, reason) = match (spec.type_.as_str(), &spec.resource, &spec.container_resource) {
        ("Resource", Some(r), _) => (r, "", "FailedGetResourceMetric"),
        ("ContainerResource", _, Some(c)) => {
            let r = crate::api::horizontal_pod_autoscaler::ResourceMetricSource {
                name: c.name.clone(),
                target: c.target.clone(),
            };
            return container_metric(store, sources, hpa, current, selector, &r, &c.container);
        }
        (other, _, _) => {
            let message = format!("unknown metric source type \"{other}\"");
            return Err(("InvalidMetricSourceType".into(), message.clone(), message));
        }
    };
    let (proposal, name, value) = resource_metric(store, sources, hpa, current, selector, resource, container)
        .map_err(|cause| {
            (
                reason.to_string(),
                cause.clone(),
                format!("failed to get {} resource metric value: {cause}", resource.name),
            )
        })?;
    let current_status = ResourceMetricStatus { name: resource.name.clone(), current: value };
    let status = MetricStatus { type_: "Resource".into(), resource: Some(current_status), ..Default::default() };
    Ok((proposal, name, status))
}

fn container_metric(
    store: &Store,
    sources: &Sources<'_>,
    hpa: &HorizontalPodAutoscaler,
    current: i32,
    selector: &Selector,
    resource: &crate::api::horizontal_pod_autoscaler::ResourceMetricSource,
    container: &str,
) -> Result<(i32, String, MetricStatus), (String, String, String)> {
    use crate::api::horizontal_pod_autoscaler::ContainerResourceMetricStatus;
    let (proposal, name, value) = resource_metric(store, sources, hpa, current, selector, resource, container)
        .map_err(|cause| {
            (
                "FailedGetContainerResourceMetric".into(),
                cause.clone(),
                format!("failed to get {container} container metric value: {cause}"),
            )
        })?;
    let name = name.replacen(" resource ", " container resource ", 1);
    let current_status =
        ContainerResourceMetricStatus { name: resource.name.clone(), current: value, container: container.into() };
    let status = MetricStatus {
        type_: "ContainerResource".into(),
        container_resource: Some(current_status),
        ..Default::default()
    };
    Ok((proposal, name, status))
}

/// `computeStatusForResourceMetricGeneric`: a Utilization or AverageValue target.
fn resource_metric(
    store: &Store,
    sources: &Sources<'_>,
    hpa: &HorizontalPodAutoscaler,
    current: i32,
    selector: &Selector,
    resource: &crate::api::horizontal_pod_autoscaler::ResourceMetricSource,
    container: &str,
) -> Result<(i32, String, MetricValueStatus), String> {
    let namespace = hpa.metadata.namespace.as_str();
    let name = &resource.name;
    let fetched = get_resource_metric(store, sources.kubelet, sources.demands, (namespace, selector), name, container)
        .map_err(|cause| replica_calculator::unable_to_get_metrics(name, &cause));
    let pods: Vec<&Pod> = store.list::<Pod>(Some(namespace)).filter(|p| selector.matches(&p.metadata.labels)).collect();
    let now = store.now();
    if let Some(target) = &resource.target.average_value {
        let proposal = fetched
            .and_then(|metrics| {
                replica_calculator::raw_resource_replicas(current, target.milli_value(), name, &pods, &metrics, now)
            })
            .map_err(|e| format!("failed to get {name} usage: {e}"))?;
        let value = MetricValueStatus { average_value: Some(milli(proposal.raw_average_milli)), ..Default::default() };
        return Ok((proposal.replicas, format!("{name} resource"), value));
    }
    let Some(target) = resource.target.average_utilization else {
        return Err("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set".into());
    };
    let Proposal { replicas, utilization, raw_average_milli } = fetched
        .and_then(|metrics| replica_calculator::resource_replicas(current, target, name, &pods, &metrics, now))
        .map_err(|e| format!("failed to get {name} utilization: {e}"))?;
    let value = MetricValueStatus {
        average_utilization: Some(utilization),
        average_value: Some(milli(raw_average_milli)),
        ..Default::default()
    };
    Ok((replicas, format!("{name} resource utilization (percentage of request)"), value))
}

fn milli(value: i64) -> Quantity {
    Quantity::from_milli(value, Format::DecimalSI)
}

/// The scale subresource of the target: Deployments and ReplicaSets have one.
fn get_scale(store: &Store, hpa: &HorizontalPodAutoscaler) -> Result<Scale, String> {
    let reference = &hpa.spec.scale_target_ref;
    let api_version = reference.api_version.as_deref().unwrap_or("");
    let group = api_version.split_once('/').map_or("", |(group, _)| group);
    let kind = Kind::from_kind_name(&reference.kind)
        .filter(|k| k.info().group == group)
        .ok_or_else(|| format!("no matches for kind \"{}\" in group \"{group}\"", reference.kind))?;
    let namespace = hpa.metadata.namespace.as_str();
    let (replicas, selector) = match kind {
        Kind::Deployment => {
            let d = store.get::<Deployment>(namespace, &reference.name).map_err(|e| e.message())?;
            (d.spec.replicas, d.spec.selector.as_ref())
        }
        Kind::ReplicaSet => {
            let rs = store.get::<ReplicaSet>(namespace, &reference.name).map_err(|e| e.message())?;
            (rs.spec.replicas, rs.spec.selector.as_ref())
        }
        _ => return Err("the server could not find the requested resource".into()),
    };
    let selector = selector.map(|s| s.format()).filter(|s| s != "<none>").unwrap_or_default();
    Ok(Scale { kind, spec_replicas: replicas.unwrap_or(1), selector })
}

/// Updates the scale subresource: the target's `spec.replicas`.
fn update_scale(store: &mut Store, kind: Kind, namespace: &str, name: &str, replicas: i32) -> Result<(), String> {
    // An update of the `scale` subresource, as the controller's role allows (`*/scale`).
    let asked = ("update", kind, namespace, name, "scale");
    let written = store.authorized_write(asked, |store| match kind {
        Kind::Deployment => {
            let mut d = store.get::<Deployment>(namespace, name)?.clone();
            d.spec.replicas = Some(replicas);
            store.update(d).map(|_| ())
        }
        Kind::ReplicaSet => {
            let mut rs = store.get::<ReplicaSet>(namespace, name)?.clone();
            rs.spec.replicas = Some(replicas);
            store.update(rs).map(|_| ())
        }
        _ => Err(ApiError::NotServed),
    });
    written.map_err(|e| e.message())
}

/// `setStatus`: current and desired replicas and the metrics; the scale time when it rescaled.
fn set_status(
    store: &Store,
    hpa: &mut HorizontalPodAutoscaler,
    current: i32,
    desired: i32,
    current_metrics: Vec<MetricStatus>,
    rescaled: bool,
) {
    let last_scale_time = if rescaled { Some(Time(store.now())) } else { hpa.status.last_scale_time };
    hpa.status = HorizontalPodAutoscalerStatus {
        observed_generation: hpa.status.observed_generation,
        last_scale_time,
        current_replicas: current,
        desired_replicas: desired,
        current_metrics,
        conditions: std::mem::take(&mut hpa.status.conditions),
    };
}

/// `setCondition`: adds or updates one condition; its transition time moves when its status does.
fn set_condition(
    store: &Store,
    hpa: &mut HorizontalPodAutoscaler,
    type_: &str,
    status: &str,
    reason: &str,
    message: String,
) {
    let conditions = &mut hpa.status.conditions;
    let index = match conditions.iter().position(|c| c.type_ == type_) {
        Some(i) => i,
        None => {
            conditions.push(HorizontalPodAutoscalerCondition { type_: type_.into(), ..Default::default() });
            conditions.len() - 1
        }
    };
    let condition = &mut conditions[index];
    if condition.status != status {
        condition.last_transition_time = Some(Time(store.now()));
    }
    condition.status = status.into();
    condition.reason = Some(reason.into());
    condition.message = Some(message);
}

fn update_status_if_needed(store: &mut Store, original: &HorizontalPodAutoscalerStatus, hpa: HorizontalPodAutoscaler) {
    if *original != hpa.status {
        let _ = store.update_status(hpa);
    }
}

fn event(store: &mut Store, hpa: &HorizontalPodAutoscaler, type_: EventType, reason: &str, message: String) {
    store.record_event(object_reference(hpa), type_, reason, message);
}
