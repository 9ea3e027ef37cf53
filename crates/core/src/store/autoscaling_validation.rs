//! HorizontalPodAutoscaler validation, worded as upstream's pkg/apis/autoscaling/validation
//! (`ValidateHorizontalPodAutoscaler`): bounds, the scale target, metrics and behavior.

use crate::api::HorizontalPodAutoscaler;
use crate::api::horizontal_pod_autoscaler::{
    CrossVersionObjectReference, HPAScalingRules, HorizontalPodAutoscalerBehavior, MetricSpec, MetricTarget,
};
use crate::error::{FieldError, go_quote};

const MAX_PERIOD_SECONDS: i32 = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS: i32 = 3600;
const METRIC_SOURCE_TYPES: &[&str] = &["ContainerResource", "External", "Object", "Pods", "Resource"];

/// `validateHorizontalPodAutoscalerSpec`.
pub fn horizontal_pod_autoscaler(hpa: &HorizontalPodAutoscaler) -> Vec<FieldError> {
    let spec = &hpa.spec;
    let mut causes = Vec::new();
    if let Some(min) = spec.min_replicas.filter(|m| *m < 1) {
        causes.push(FieldError::invalid("spec.minReplicas", min.to_string(), "must be greater than or equal to 1"));
    }
    if spec.max_replicas < 1 {
        causes.push(FieldError::invalid("spec.maxReplicas", spec.max_replicas.to_string(), "must be greater than 0"));
    }
    if let Some(min) = spec.min_replicas
        && spec.max_replicas < min
    {
        let detail = "must be greater than or equal to `minReplicas`";
        causes.push(FieldError::invalid("spec.maxReplicas", spec.max_replicas.to_string(), detail));
    }
    let reference = cross_version_object_reference(&spec.scale_target_ref, "spec.scaleTargetRef");
    if !reference.is_empty() {
        causes.extend(reference);
        return causes;
    }
    let metrics: Vec<FieldError> =
        spec.metrics.iter().enumerate().flat_map(|(i, m)| metric_spec(m, &format!("spec.metrics[{i}]"))).collect();
    if !metrics.is_empty() {
        causes.extend(metrics);
        return causes;
    }
    causes.extend(behavior(spec.behavior.as_ref()));
    causes
}

/// `ValidateCrossVersionObjectReference`: kind and name present and usable in a URL path.
fn cross_version_object_reference(reference: &CrossVersionObjectReference, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for (field, value) in [("kind", &reference.kind), ("name", &reference.name)] {
        if value.is_empty() {
            causes.push(FieldError::required(format!("{path}.{field}"), ""));
        } else if let Some(problem) = path_segment_problem(value) {
            causes.push(FieldError::invalid(format!("{path}.{field}"), go_quote(value), problem));
        }
    }
    causes
}

/// `IsValidPathSegmentName`.
fn path_segment_problem(name: &str) -> Option<String> {
    if name == "." || name == ".." {
        return Some(format!("may not be '{name}'"));
    }
    ["/", "%"].iter().find(|bad| name.contains(**bad)).map(|bad| format!("may not contain '{bad}'"))
}

/// `validateMetricSpec`, for the Resource source (other sources are accepted as given).
fn metric_spec(spec: &MetricSpec, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if spec.type_.is_empty() {
        causes.push(FieldError::required(format!("{path}.type"), "must specify a metric source type"));
    }
    if !METRIC_SOURCE_TYPES.contains(&spec.type_.as_str()) {
        causes.push(FieldError::not_supported(format!("{path}.type"), &spec.type_, METRIC_SOURCE_TYPES));
    }
    let present = [
        ("object", spec.object.is_some()),
        ("pods", spec.pods.is_some()),
        ("resource", spec.resource.is_some()),
        ("containerResource", spec.container_resource.is_some()),
        ("external", spec.external.is_some()),
    ];
    let count = present.iter().filter(|(_, p)| *p).count();
    if let (Some(resource), 1) = (&spec.resource, count) {
        causes.extend(resource_source(&resource.name, &resource.target, &format!("{path}.resource")));
    }
    let expected = expected_field(&spec.type_);
    if let Some(expected) = expected
        && !present.iter().any(|(name, p)| *p && *name == expected)
    {
        causes.push(FieldError::required(
            format!("{path}.{expected}"),
            "must populate information for the given metric source",
        ));
    }
    if count != 1 {
        for (name, _) in present.iter().filter(|(name, p)| *p && Some(*name) != expected) {
            causes.push(FieldError::forbidden(format!("{path}.{name}"), "must populate the given metric source only"));
        }
    }
    causes
}

fn expected_field(type_: &str) -> Option<&'static str> {
    match type_ {
        "Object" => Some("object"),
        "Pods" => Some("pods"),
        "Resource" => Some("resource"),
        "ContainerResource" => Some("containerResource"),
        "External" => Some("external"),
        _ => None,
    }
}

/// `validateResourceSource`.
fn resource_source(name: &str, target: &MetricTarget, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if name.is_empty() {
        causes.push(FieldError::required(format!("{path}.name"), "must specify a resource name"));
    }
    causes.extend(metric_target(target, &format!("{path}.target")));
    if target.average_utilization.is_none() && target.average_value.is_none() {
        let detail = "must set either a target raw value or a target utilization";
        causes.push(FieldError::required(format!("{path}.target.averageUtilization"), detail));
    }
    if target.average_utilization.is_some() && target.average_value.is_some() {
        let detail = "may not set both a target raw value and a target utilization";
        causes.push(FieldError::forbidden(format!("{path}.target.averageValue"), detail));
    }
    causes
}

/// `validateMetricTarget`.
fn metric_target(target: &MetricTarget, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if target.type_.is_empty() {
        causes.push(FieldError::required(format!("{path}.type"), "must specify a metric target type"));
    }
    if !matches!(target.type_.as_str(), "Utilization" | "Value" | "AverageValue") {
        let detail = "must be either Utilization, Value, or AverageValue";
        causes.push(FieldError::invalid(format!("{path}.type"), go_quote(&target.type_), detail));
    }
    for (field, quantity) in [("value", &target.value), ("averageValue", &target.average_value)] {
        if let Some(q) = quantity.as_ref().filter(|q| q.milli_value() <= 0) {
            causes.push(FieldError::invalid(format!("{path}.{field}"), go_quote(&q.to_string()), "must be positive"));
        }
    }
    if let Some(u) = target.average_utilization.filter(|u| *u < 1) {
        causes.push(FieldError::invalid(format!("{path}.averageUtilization"), u.to_string(), "must be greater than 0"));
    }
    causes
}

/// `validateBehavior`.
fn behavior(behavior: Option<&HorizontalPodAutoscalerBehavior>) -> Vec<FieldError> {
    let Some(behavior) = behavior else { return Vec::new() };
    let mut causes = scaling_rules(behavior.scale_up.as_ref(), "spec.behavior.scaleUp");
    causes.extend(scaling_rules(behavior.scale_down.as_ref(), "spec.behavior.scaleDown"));
    causes
}

/// `validateScalingRules` and `validateScalingPolicy`.
fn scaling_rules(rules: Option<&HPAScalingRules>, path: &str) -> Vec<FieldError> {
    let Some(rules) = rules else { return Vec::new() };
    let mut causes = Vec::new();
    if let Some(window) = rules.stabilization_window_seconds {
        let field = format!("{path}.stabilizationWindowSeconds");
        if window < 0 {
            causes.push(FieldError::invalid(&field, window.to_string(), "must be greater than or equal to zero"));
        }
        if window > MAX_STABILIZATION_WINDOW_SECONDS {
            let detail = format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}");
            causes.push(FieldError::invalid(&field, window.to_string(), detail));
        }
    }
    if let Some(policy) = rules.select_policy.as_deref().filter(|p| !matches!(*p, "Disabled" | "Max" | "Min")) {
        causes.push(FieldError::not_supported(format!("{path}.selectPolicy"), policy, &["Disabled", "Max", "Min"]));
    }
    let policies = rules.policies.as_deref().unwrap_or_default();
    if policies.is_empty() {
        causes.push(FieldError::required(format!("{path}.policies"), "must specify at least one Policy"));
    }
    for (i, policy) in policies.iter().enumerate() {
        let at = format!("{path}.policies[{i}]");
        if !matches!(policy.type_.as_str(), "Pods" | "Percent") {
            causes.push(FieldError::not_supported(format!("{at}.type"), &policy.type_, &["Percent", "Pods"]));
        }
        if policy.value <= 0 {
            causes.push(FieldError::invalid(
                format!("{at}.value"),
                policy.value.to_string(),
                "must be greater than zero",
            ));
        }
        let period = policy.period_seconds;
        if period <= 0 {
            causes.push(FieldError::invalid(
                format!("{at}.periodSeconds"),
                period.to_string(),
                "must be greater than zero",
            ));
        }
        if period > MAX_PERIOD_SECONDS {
            let detail = format!("must be less than or equal to {MAX_PERIOD_SECONDS}");
            causes.push(FieldError::invalid(format!("{at}.periodSeconds"), period.to_string(), detail));
        }
    }
    causes
}
