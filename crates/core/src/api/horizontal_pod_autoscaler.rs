//! HorizontalPodAutoscaler (autoscaling/v2): a scale target, replica bounds, the metrics to
//! scale on and how fast to move; its status holds what the controller last saw and decided.

use super::label_selector::LabelSelector;
use super::meta::{ObjectMeta, Time};
use super::quantity::Quantity;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HorizontalPodAutoscaler {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: HorizontalPodAutoscalerSpec,
    /// A Go struct, never omitted: a new HPA prints `status: {desiredReplicas: 0}`.
    #[serde(default)]
    pub status: HorizontalPodAutoscalerStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HorizontalPodAutoscalerSpec {
    #[serde(default)]
    pub scale_target_ref: CrossVersionObjectReference,
    pub min_replicas: Option<i32>,
    #[serde(default)]
    pub max_replicas: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricSpec>,
    pub behavior: Option<HorizontalPodAutoscalerBehavior>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CrossVersionObjectReference {
    pub api_version: Option<String>,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetricSpec {
    #[serde(rename = "type", default)]
    pub type_: String,
    pub object: Option<ObjectMetricSource>,
    pub pods: Option<PodsMetricSource>,
    pub resource: Option<ResourceMetricSource>,
    pub container_resource: Option<ContainerResourceMetricSource>,
    pub external: Option<ExternalMetricSource>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceMetricSource {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub target: MetricTarget,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerResourceMetricSource {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub target: MetricTarget,
    #[serde(default)]
    pub container: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodsMetricSource {
    #[serde(default)]
    pub metric: MetricIdentifier,
    #[serde(default)]
    pub target: MetricTarget,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectMetricSource {
    #[serde(default)]
    pub described_object: CrossVersionObjectReference,
    #[serde(default)]
    pub target: MetricTarget,
    #[serde(default)]
    pub metric: MetricIdentifier,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExternalMetricSource {
    #[serde(default)]
    pub metric: MetricIdentifier,
    #[serde(default)]
    pub target: MetricTarget,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetricIdentifier {
    #[serde(default)]
    pub name: String,
    pub selector: Option<LabelSelector>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetricTarget {
    #[serde(rename = "type", default)]
    pub type_: String,
    pub value: Option<Quantity>,
    pub average_value: Option<Quantity>,
    pub average_utilization: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HorizontalPodAutoscalerBehavior {
    pub scale_up: Option<HPAScalingRules>,
    pub scale_down: Option<HPAScalingRules>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HPAScalingRules {
    pub stabilization_window_seconds: Option<i32>,
    pub select_policy: Option<String>,
    /// `None` (not given) takes the defaults; an explicit empty list is refused by validation.
    pub policies: Option<Vec<HPAScalingPolicy>>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HPAScalingPolicy {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub value: i32,
    #[serde(default)]
    pub period_seconds: i32,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HorizontalPodAutoscalerStatus {
    pub observed_generation: Option<i64>,
    pub last_scale_time: Option<Time>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub current_replicas: i32,
    #[serde(default)]
    pub desired_replicas: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub current_metrics: Vec<MetricStatus>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<HorizontalPodAutoscalerCondition>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// One metric's current value; `type` is always printed (an unreadable metric is `type: ""`).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetricStatus {
    #[serde(rename = "type", default)]
    pub type_: String,
    pub resource: Option<ResourceMetricStatus>,
    pub container_resource: Option<ContainerResourceMetricStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceMetricStatus {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub current: MetricValueStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerResourceMetricStatus {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub current: MetricValueStatus,
    #[serde(default)]
    pub container: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetricValueStatus {
    pub value: Option<Quantity>,
    pub average_value: Option<Quantity>,
    pub average_utilization: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HorizontalPodAutoscalerCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}

impl HorizontalPodAutoscalerSpec {
    /// `spec.minReplicas`, 1 when unset (as the controller reads it).
    pub fn min_replicas_or_default(&self) -> i32 {
        self.min_replicas.unwrap_or(1)
    }
}
