//! The autoscaling/v2 messages: HorizontalPodAutoscaler.

use super::Card::{List, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api autoscaling/v2/generated.proto.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    (
        "HorizontalPodAutoscaler",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("HorizontalPodAutoscalerSpec")),
            f(3, "status", One, Msg("HorizontalPodAutoscalerStatus")),
        ],
    ),
    (
        "HorizontalPodAutoscalerSpec",
        &[
            f(1, "scaleTargetRef", One, Msg("CrossVersionObjectReference")),
            f(2, "minReplicas", One, Int),
            f(3, "maxReplicas", One, Int),
            f(4, "metrics", List, Msg("MetricSpec")),
            f(5, "behavior", One, Msg("HorizontalPodAutoscalerBehavior")),
        ],
    ),
    ("CrossVersionObjectReference", &[f(1, "kind", One, Str), f(2, "name", One, Str), f(3, "apiVersion", Opt, Str)]),
    (
        "MetricSpec",
        &[
            f(1, "type", One, Str),
            f(2, "object", One, Msg("ObjectMetricSource")),
            f(3, "pods", One, Msg("PodsMetricSource")),
            f(4, "resource", One, Msg("ResourceMetricSource")),
            f(7, "containerResource", One, Msg("ContainerResourceMetricSource")),
            f(5, "external", One, Msg("ExternalMetricSource")),
        ],
    ),
    (
        "ObjectMetricSource",
        &[
            f(1, "describedObject", One, Msg("CrossVersionObjectReference")),
            f(2, "target", One, Msg("MetricTarget")),
            f(3, "metric", One, Msg("MetricIdentifier")),
        ],
    ),
    ("PodsMetricSource", &[f(1, "metric", One, Msg("MetricIdentifier")), f(2, "target", One, Msg("MetricTarget"))]),
    ("ResourceMetricSource", &[f(1, "name", One, Str), f(2, "target", One, Msg("MetricTarget"))]),
    (
        "ContainerResourceMetricSource",
        &[f(1, "name", One, Str), f(2, "target", One, Msg("MetricTarget")), f(3, "container", One, Str)],
    ),
    ("ExternalMetricSource", &[f(1, "metric", One, Msg("MetricIdentifier")), f(2, "target", One, Msg("MetricTarget"))]),
    ("MetricIdentifier", &[f(1, "name", One, Str), f(2, "selector", One, Msg("LabelSelector"))]),
    (
        "MetricTarget",
        &[
            f(1, "type", One, Str),
            f(2, "value", One, Quantity),
            f(3, "averageValue", One, Quantity),
            f(4, "averageUtilization", One, Int),
        ],
    ),
    (
        "HorizontalPodAutoscalerBehavior",
        &[f(1, "scaleUp", One, Msg("HPAScalingRules")), f(2, "scaleDown", One, Msg("HPAScalingRules"))],
    ),
    (
        "HPAScalingRules",
        &[
            f(3, "stabilizationWindowSeconds", One, Int),
            f(1, "selectPolicy", One, Str),
            f(2, "policies", List, Msg("HPAScalingPolicy")),
            f(4, "tolerance", One, Quantity),
        ],
    ),
    ("HPAScalingPolicy", &[f(1, "type", One, Str), f(2, "value", One, Int), f(3, "periodSeconds", One, Int)]),
    (
        "HorizontalPodAutoscalerStatus",
        &[
            f(1, "observedGeneration", One, Int),
            f(2, "lastScaleTime", One, Time),
            f(3, "currentReplicas", Opt, Int),
            f(4, "desiredReplicas", One, Int),
            f(5, "currentMetrics", List, Msg("MetricStatus")),
            f(6, "conditions", List, Msg("HorizontalPodAutoscalerCondition")),
        ],
    ),
    (
        "MetricStatus",
        &[
            f(1, "type", One, Str),
            f(2, "object", One, Msg("ObjectMetricStatus")),
            f(3, "pods", One, Msg("PodsMetricStatus")),
            f(4, "resource", One, Msg("ResourceMetricStatus")),
            f(7, "containerResource", One, Msg("ContainerResourceMetricStatus")),
            f(5, "external", One, Msg("ExternalMetricStatus")),
        ],
    ),
    (
        "ObjectMetricStatus",
        &[
            f(1, "metric", One, Msg("MetricIdentifier")),
            f(2, "current", One, Msg("MetricValueStatus")),
            f(3, "describedObject", One, Msg("CrossVersionObjectReference")),
        ],
    ),
    (
        "PodsMetricStatus",
        &[f(1, "metric", One, Msg("MetricIdentifier")), f(2, "current", One, Msg("MetricValueStatus"))],
    ),
    ("ResourceMetricStatus", &[f(1, "name", One, Str), f(2, "current", One, Msg("MetricValueStatus"))]),
    (
        "ContainerResourceMetricStatus",
        &[f(1, "name", One, Str), f(2, "current", One, Msg("MetricValueStatus")), f(3, "container", One, Str)],
    ),
    (
        "ExternalMetricStatus",
        &[f(1, "metric", One, Msg("MetricIdentifier")), f(2, "current", One, Msg("MetricValueStatus"))],
    ),
    (
        "MetricValueStatus",
        &[f(1, "value", One, Quantity), f(2, "averageValue", One, Quantity), f(3, "averageUtilization", One, Int)],
    ),
    (
        "HorizontalPodAutoscalerCondition",
        &[
            f(1, "type", One, Str),
            f(2, "status", One, Str),
            f(3, "lastTransitionTime", Opt, Time),
            f(4, "reason", Opt, Str),
            f(5, "message", Opt, Str),
            f(6, "observedGeneration", One, Int),
        ],
    ),
];
