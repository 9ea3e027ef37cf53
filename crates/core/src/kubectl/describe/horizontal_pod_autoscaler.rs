//! `kubectl describe hpa`: the target, each metric as `current / target`, bounds, behavior,
//! replicas and conditions. Mirrors `describeHorizontalPodAutoscalerV2` and
//! `printDirectionBehavior` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::events::{self, EventQuery};
use super::rfc1123z;
use super::{Describer, LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, PrefixWriter, annotations_multiline, labels_multiline};
use crate::api::HorizontalPodAutoscaler;
use crate::api::horizontal_pod_autoscaler::{HPAScalingRules, MetricSpec, MetricStatus};

pub fn describe(describer: &Describer<'_>, hpa: &HorizontalPodAutoscaler) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec, status) = (&hpa.metadata, &hpa.spec, &hpa.status);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    w.write(LEVEL_0, &format!("CreationTimestamp:\t{}\n", rfc1123z(meta.creation_timestamp)));
    w.write(LEVEL_0, &format!("Reference:\t{}/{}\n", spec.scale_target_ref.kind, spec.scale_target_ref.name));
    w.write(LEVEL_0, "Metrics:\t( current / target )\n");
    for (i, metric) in spec.metrics.iter().enumerate() {
        metric_line(&mut w, metric, status.current_metrics.get(i));
    }
    let min = spec.min_replicas.map_or("<unset>".to_string(), |m| m.to_string());
    w.write(LEVEL_0, &format!("Min replicas:\t{min}\n"));
    w.write(LEVEL_0, &format!("Max replicas:\t{}\n", spec.max_replicas));
    if let Some(behavior) = &spec.behavior {
        w.write(LEVEL_0, "Behavior:\n");
        direction_behavior(&mut w, "Scale Up", behavior.scale_up.as_ref());
        direction_behavior(&mut w, "Scale Down", behavior.scale_down.as_ref());
    }
    w.write(LEVEL_0, &format!("{} pods:\t", spec.scale_target_ref.kind));
    w.write(LEVEL_0, &format!("{} current / {} desired\n", status.current_replicas, status.desired_replicas));
    if !status.conditions.is_empty() {
        w.write(LEVEL_0, "Conditions:\n");
        w.write(LEVEL_1, "Type\tStatus\tReason\tMessage\n");
        w.write(LEVEL_1, "----\t------\t------\t-------\n");
        for c in &status.conditions {
            let (reason, message) = (c.reason.as_deref().unwrap_or(""), c.message.as_deref().unwrap_or(""));
            w.write(LEVEL_1, &format!("{}\t{}\t{reason}\t{message}\n", c.type_, c.status));
        }
    }
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(hpa)));
    w.finish()
}

/// One `Metrics:` line for a Resource or ContainerResource metric.
fn metric_line(w: &mut PrefixWriter, metric: &MetricSpec, status: Option<&MetricStatus>) {
    let (name, target, current, on) = match metric.type_.as_str() {
        "Resource" => {
            let Some(r) = &metric.resource else { return };
            (&r.name, &r.target, status.and_then(|s| s.resource.as_ref()).map(|s| &s.current), "on pods".to_string())
        }
        "ContainerResource" => {
            let Some(r) = &metric.container_resource else { return };
            let current = status.and_then(|s| s.container_resource.as_ref()).map(|s| &s.current);
            (&r.name, &r.target, current, format!("of container \"{}\" on pods", r.container))
        }
        _ => return,
    };
    if let Some(average_value) = &target.average_value {
        let current = current.and_then(|c| c.average_value.as_ref()).map_or("<unknown>".into(), |q| q.to_string());
        w.write(LEVEL_1, &format!("resource {name} {on}:\t{current} / {average_value}\n"));
        return;
    }
    let current = current
        .and_then(|c| Some(format!("{}% ({})", c.average_utilization?, c.average_value.as_ref()?)))
        .unwrap_or_else(|| "<unknown>".into());
    let target = target.average_utilization.map_or("<auto>".into(), |u| format!("{u}%"));
    w.write(LEVEL_1, &format!("resource {name} {on}  (as a percentage of request):\t{current} / {target}\n"));
}

/// `printDirectionBehavior`.
fn direction_behavior(w: &mut PrefixWriter, direction: &str, rules: Option<&HPAScalingRules>) {
    let Some(rules) = rules else { return };
    w.write(LEVEL_1, &format!("{direction}:\n"));
    if let Some(window) = rules.stabilization_window_seconds {
        w.write(LEVEL_2, &format!("Stabilization Window: {window} seconds\n"));
    }
    let policies = rules.policies.as_deref().unwrap_or_default();
    if !policies.is_empty() {
        w.write(LEVEL_2, &format!("Select Policy: {}\n", rules.select_policy.as_deref().unwrap_or("Max")));
        w.write(LEVEL_2, "Policies:\n");
        for p in policies {
            w.write(
                LEVEL_3,
                &format!("- Type: {}\tValue: {}\tPeriod: {} seconds\n", p.type_, p.value, p.period_seconds),
            );
        }
    }
}
