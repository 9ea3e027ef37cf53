//! Table tests of the HPA's arithmetic: the replica calculator and normalization.

use super::normalize::{self, History, TimestampedRecommendation};
use super::replica_calculator::{PodMetric, PodMetricsInfo, calculate_requests, resource_replicas};
use crate::api::Pod;
use crate::api::horizontal_pod_autoscaler::{HPAScalingPolicy, HPAScalingRules};
use crate::sim::time::{Duration, SimTime};
use crate::store::defaults;

/// Long after every pod started, so no pod is still in its CPU initialization period.
const NOW: SimTime = SimTime(3_600_000);

/// A Running, Ready pod (or Pending when `phase` says so) whose one container requests `request`.
fn pod(name: &str, request: Option<&str>, phase: &str) -> Pod {
    let resources = request.map_or(serde_json::json!({}), |r| serde_json::json!({"requests": {"cpu": r}}));
    let value = serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "hello", "image": "hello:v1", "resources": resources}]},
        "status": {
            "phase": phase,
            "startTime": "2025-01-01T00:00:00Z",
            "conditions": [{"type": "Ready", "status": if phase == "Running" { "True" } else { "False" },
                            "lastTransitionTime": "2025-01-01T00:00:10Z"}]
        }
    });
    crate::api::codec::decode_typed(value).unwrap_or_else(|e| panic!("test pod: {e}"))
}

fn metrics(usage: &[(&str, i64)]) -> PodMetricsInfo {
    let metric = |value| PodMetric { timestamp: NOW, window: Duration::from_secs(15), value };
    usage.iter().map(|(name, value)| (name.to_string(), metric(*value))).collect()
}

/// (pods as (name, request, phase), usage in millicores, target %, current) → (replicas, utilization).
#[test]
fn resource_replicas_follow_upstream_arithmetic() {
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [(&'a str, i64)], i32, i32, (i32, i32));
    let cases: &[Case] = &[
        (
            "on target",
            &[("a", "Running"), ("b", "Running"), ("c", "Running")],
            &[("a", 140), ("b", 140), ("c", 140)],
            70,
            3,
            (3, 70),
        ),
        (
            "traffic doubles",
            &[("a", "Running"), ("b", "Running"), ("c", "Running")],
            &[("a", 280), ("b", 280), ("c", 280)],
            70,
            3,
            (6, 140),
        ),
        (
            "within tolerance",
            &[("a", "Running"), ("b", "Running"), ("c", "Running")],
            &[("a", 154), ("b", 154), ("c", 154)],
            70,
            3,
            (3, 77),
        ),
        (
            "quiet",
            &[("a", "Running"), ("b", "Running"), ("c", "Running")],
            &[("a", 10), ("b", 10), ("c", 10)],
            70,
            3,
            (1, 5),
        ),
        (
            "missing pod on scale-down",
            &[("a", "Running"), ("b", "Running"), ("c", "Running"), ("d", "Running")],
            &[("a", 10), ("b", 10), ("c", 10)],
            50,
            4,
            (3, 5),
        ),
        (
            "pending pod on scale-up",
            &[("a", "Running"), ("b", "Running"), ("c", "Pending")],
            &[("a", 280), ("b", 280)],
            70,
            3,
            (4, 140),
        ),
        (
            "pending pod on scale-down",
            &[("a", "Running"), ("b", "Running"), ("c", "Pending")],
            &[("a", 20), ("b", 20)],
            70,
            3,
            (1, 10),
        ),
    ];
    for (label, pods, usage, target, current, want) in cases {
        let pods: Vec<Pod> = pods.iter().map(|(name, phase)| pod(name, Some("200m"), phase)).collect();
        let refs: Vec<&Pod> = pods.iter().collect();
        let got = resource_replicas(*current, *target, "cpu", &refs, &metrics(usage), NOW).expect(label);
        assert_eq!((got.replicas, got.utilization), *want, "{label}");
    }
}

#[test]
fn pods_without_a_cpu_request_cannot_be_autoscaled() {
    let pods = [pod("hello-abc", None, "Running")];
    let refs: Vec<&Pod> = pods.iter().collect();
    let err = resource_replicas(1, 70, "cpu", &refs, &metrics(&[("hello-abc", 5)]), NOW).unwrap_err();
    assert_eq!(err, "missing request for cpu in container hello of Pod hello-abc");
    assert!(calculate_requests(&refs, "", "cpu").is_err());
    let err = resource_replicas(1, 70, "cpu", &refs, &metrics(&[]), NOW).unwrap_err();
    assert_eq!(err, "unable to get metrics for resource cpu: no metrics returned from resource metrics API");
}

#[test]
fn without_behavior_scale_up_is_capped_and_scale_down_waits_five_minutes() {
    assert_eq!(normalize::calculate_scale_up_limit(1), 4);
    assert_eq!(normalize::calculate_scale_up_limit(3), 6);
    assert_eq!(normalize::convert_desired_replicas_with_rules(3, 10, 3, 10).0, 6);
    assert_eq!(
        normalize::convert_desired_replicas_with_rules(3, 10, 3, 5),
        (5, ("TooManyReplicas", "the desired replica count is more than the maximum replica count"))
    );
    assert_eq!(normalize::convert_desired_replicas_with_rules(3, 1, 2, 5).0, 2);
    let mut recs = vec![TimestampedRecommendation { recommendation: 6, timestamp: SimTime(0) }];
    let at = |s: u64| SimTime(s * 1000);
    let held = normalize::normalize(&mut recs, at(60), 6, 2, (1, 10));
    assert_eq!((held.replicas, held.able_to_scale.0), (6, "ScaleDownStabilized"));
    let still = normalize::normalize(&mut recs, at(300), 6, 2, (1, 10));
    assert_eq!(still.replicas, 6, "a recommendation exactly 5 minutes old still counts");
    let down = normalize::normalize(&mut recs, at(301), 6, 2, (1, 10));
    assert_eq!((down.replicas, down.able_to_scale.0), (2, "ReadyForNewScale"));
}

#[test]
fn behavior_policies_limit_the_rate() {
    let up = HPAScalingRules {
        stabilization_window_seconds: Some(0),
        select_policy: Some("Max".into()),
        policies: Some(defaults::scale_up_policies()),
    };
    let down = HPAScalingRules {
        stabilization_window_seconds: Some(0),
        select_policy: Some("Max".into()),
        policies: Some(vec![HPAScalingPolicy { type_: "Percent".into(), value: 50, period_seconds: 60 }]),
    };
    let mut history = History::default();
    let first = normalize::normalize_with_behaviors(&mut history, SimTime(0), 1, 20, (1, 20), (&up, &down));
    assert_eq!((first.replicas, first.scaling_limited.0), (5, "ScaleUpLimit"), "Pods 4 beats Percent 100 from 1");
    normalize::store_scale_event(&mut history, SimTime(0), &up, 1, 5);
    let same_period = normalize::normalize_with_behaviors(&mut history, SimTime(10_000), 5, 20, (1, 20), (&up, &down));
    assert_eq!(same_period.replicas, 5, "the period still counts the 4 added");
    let next_period = normalize::normalize_with_behaviors(&mut history, SimTime(15_000), 5, 20, (1, 20), (&up, &down));
    assert_eq!(next_period.replicas, 10, "Percent 100 of 5 beats Pods 4");
    let shrink = normalize::normalize_with_behaviors(&mut History::default(), SimTime(0), 5, 1, (1, 20), (&up, &down));
    assert_eq!((shrink.replicas, shrink.scaling_limited.0), (2, "ScaleDownLimit"), "int(5 * 0.5) truncates");
}
