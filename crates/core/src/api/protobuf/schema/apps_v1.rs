//! The apps/v1 messages: Deployment, DaemonSet and ControllerRevision.

use super::Card::{List, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api apps/v1/generated.proto.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    (
        "ControllerRevision",
        &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "data", Opt, Raw), f(3, "revision", One, Int)],
    ),
    (
        "DaemonSet",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("DaemonSetSpec")),
            f(3, "status", One, Msg("DaemonSetStatus")),
        ],
    ),
    (
        "DaemonSetSpec",
        &[
            f(1, "selector", One, Msg("LabelSelector")),
            f(2, "template", One, Msg("PodTemplateSpec")),
            f(3, "updateStrategy", One, Msg("DaemonSetUpdateStrategy")),
            f(4, "minReadySeconds", Opt, Int),
            f(6, "revisionHistoryLimit", One, Int),
        ],
    ),
    ("DaemonSetUpdateStrategy", &[f(1, "type", Opt, Str), f(2, "rollingUpdate", One, Msg("RollingUpdateDaemonSet"))]),
    ("RollingUpdateDaemonSet", &[f(1, "maxUnavailable", One, IntOrStr), f(2, "maxSurge", One, IntOrStr)]),
    (
        "DaemonSetStatus",
        &[
            f(1, "currentNumberScheduled", One, Int),
            f(2, "numberMisscheduled", One, Int),
            f(3, "desiredNumberScheduled", One, Int),
            f(4, "numberReady", One, Int),
            f(5, "observedGeneration", Opt, Int),
            f(6, "updatedNumberScheduled", Opt, Int),
            f(7, "numberAvailable", Opt, Int),
            f(8, "numberUnavailable", Opt, Int),
            f(9, "collisionCount", One, Int),
            f(10, "conditions", List, Msg("DaemonSetCondition")),
        ],
    ),
    (
        "DaemonSetCondition",
        &[
            f(1, "type", One, Str),
            f(2, "status", One, Str),
            f(3, "lastTransitionTime", Opt, Time),
            f(4, "reason", Opt, Str),
            f(5, "message", Opt, Str),
        ],
    ),
    (
        "Deployment",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("DeploymentSpec")),
            f(3, "status", One, Msg("DeploymentStatus")),
        ],
    ),
    (
        "DeploymentSpec",
        &[
            f(1, "replicas", One, Int),
            f(2, "selector", One, Msg("LabelSelector")),
            f(3, "template", One, Msg("PodTemplateSpec")),
            f(4, "strategy", One, Msg("DeploymentStrategy")),
            f(5, "minReadySeconds", Opt, Int),
            f(6, "revisionHistoryLimit", One, Int),
            f(7, "paused", Opt, Bool),
            f(9, "progressDeadlineSeconds", One, Int),
        ],
    ),
    ("DeploymentStrategy", &[f(1, "type", Opt, Str), f(2, "rollingUpdate", One, Msg("RollingUpdateDeployment"))]),
    ("RollingUpdateDeployment", &[f(1, "maxUnavailable", One, IntOrStr), f(2, "maxSurge", One, IntOrStr)]),
    (
        "DeploymentStatus",
        &[
            f(1, "observedGeneration", Opt, Int),
            f(2, "replicas", Opt, Int),
            f(3, "updatedReplicas", Opt, Int),
            f(4, "availableReplicas", Opt, Int),
            f(5, "unavailableReplicas", Opt, Int),
            f(6, "conditions", List, Msg("DeploymentCondition")),
            f(7, "readyReplicas", Opt, Int),
            f(8, "collisionCount", One, Int),
            f(9, "terminatingReplicas", One, Int),
        ],
    ),
    (
        "DeploymentCondition",
        &[
            f(1, "type", One, Str),
            f(2, "status", One, Str),
            f(4, "reason", Opt, Str),
            f(5, "message", Opt, Str),
            f(6, "lastUpdateTime", Opt, Time),
            f(7, "lastTransitionTime", Opt, Time),
        ],
    ),
];
