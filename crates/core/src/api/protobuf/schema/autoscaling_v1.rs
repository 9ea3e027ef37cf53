//! The autoscaling/v1 messages: HorizontalPodAutoscaler (the CPU-only API `kubectl autoscale`
//! falls back to).
//!
//! Its message names are those of autoscaling/v2, so here they carry the proto package's
//! version, `autoscaling.v1.`, to stay one row each in the table.

use super::Card::{One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api autoscaling/v1/generated.proto.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    (
        "autoscaling.v1.HorizontalPodAutoscaler",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("autoscaling.v1.HorizontalPodAutoscalerSpec")),
            f(3, "status", One, Msg("autoscaling.v1.HorizontalPodAutoscalerStatus")),
        ],
    ),
    (
        "autoscaling.v1.HorizontalPodAutoscalerSpec",
        &[
            f(1, "scaleTargetRef", One, Msg("autoscaling.v1.CrossVersionObjectReference")),
            f(2, "minReplicas", One, Int),
            f(3, "maxReplicas", One, Int),
            f(4, "targetCPUUtilizationPercentage", One, Int),
        ],
    ),
    (
        "autoscaling.v1.CrossVersionObjectReference",
        &[f(1, "kind", One, Str), f(2, "name", One, Str), f(3, "apiVersion", Opt, Str)],
    ),
    (
        "autoscaling.v1.HorizontalPodAutoscalerStatus",
        &[
            f(1, "observedGeneration", One, Int),
            f(2, "lastScaleTime", One, Time),
            f(3, "currentReplicas", One, Int),
            f(4, "desiredReplicas", One, Int),
            f(5, "currentCPUUtilizationPercentage", One, Int),
        ],
    ),
];
