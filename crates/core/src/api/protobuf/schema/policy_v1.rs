//! The policy/v1 messages: PodDisruptionBudget, and the Eviction `kubectl drain` posts.

use super::Card::{List, Map, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api policy/v1/generated.proto; omitempty from policy/v1/types.go.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    ("Eviction", &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "deleteOptions", One, Msg("DeleteOptions"))]),
    (
        "PodDisruptionBudget",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("PodDisruptionBudgetSpec")),
            f(3, "status", One, Msg("PodDisruptionBudgetStatus")),
        ],
    ),
    (
        "PodDisruptionBudgetSpec",
        &[
            f(1, "minAvailable", One, IntOrStr),
            f(2, "selector", One, Msg("LabelSelector")),
            f(3, "maxUnavailable", One, IntOrStr),
            f(4, "unhealthyPodEvictionPolicy", One, Str),
        ],
    ),
    (
        "PodDisruptionBudgetStatus",
        &[
            f(1, "observedGeneration", Opt, Int),
            f(2, "disruptedPods", Map, Time),
            f(3, "disruptionsAllowed", One, Int),
            f(4, "currentHealthy", One, Int),
            f(5, "desiredHealthy", One, Int),
            f(6, "expectedPods", One, Int),
            f(7, "conditions", List, Msg("Condition")),
        ],
    ),
];
