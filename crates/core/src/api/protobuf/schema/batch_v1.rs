//! The batch/v1 messages: Job and CronJob.

use super::Card::{List, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api batch/v1/generated.proto; JSON names and omitempty from batch/v1/types.go
// (pointers show when present, so they are `One`). JobSpec's `scheduling` (17, alpha Workload
// scheduling) is left out: the lab's Job has no such field.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    (
        "CronJob",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("CronJobSpec")),
            f(3, "status", One, Msg("CronJobStatus")),
        ],
    ),
    (
        "CronJobSpec",
        &[
            f(1, "schedule", One, Str),
            f(8, "timeZone", One, Str),
            f(2, "startingDeadlineSeconds", One, Int),
            f(3, "concurrencyPolicy", Opt, Str),
            f(4, "suspend", One, Bool),
            f(5, "jobTemplate", One, Msg("JobTemplateSpec")),
            f(6, "successfulJobsHistoryLimit", One, Int),
            f(7, "failedJobsHistoryLimit", One, Int),
        ],
    ),
    (
        "CronJobStatus",
        &[
            f(1, "active", List, Msg("ObjectReference")),
            f(4, "lastScheduleTime", Opt, Time),
            f(5, "lastSuccessfulTime", Opt, Time),
        ],
    ),
    (
        "Job",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("JobSpec")),
            f(3, "status", One, Msg("JobStatus")),
        ],
    ),
    (
        "JobCondition",
        &[
            f(1, "type", One, Str),
            f(2, "status", One, Str),
            f(3, "lastProbeTime", Opt, Time),
            f(4, "lastTransitionTime", Opt, Time),
            f(5, "reason", Opt, Str),
            f(6, "message", Opt, Str),
        ],
    ),
    (
        "JobSpec",
        &[
            f(1, "parallelism", One, Int),
            f(2, "completions", One, Int),
            f(3, "activeDeadlineSeconds", One, Int),
            f(11, "podFailurePolicy", One, Msg("PodFailurePolicy")),
            f(16, "successPolicy", One, Msg("SuccessPolicy")),
            f(7, "backoffLimit", One, Int),
            f(12, "backoffLimitPerIndex", One, Int),
            f(13, "maxFailedIndexes", One, Int),
            f(4, "selector", One, Msg("LabelSelector")),
            f(5, "manualSelector", One, Bool),
            f(6, "template", One, Msg("PodTemplateSpec")),
            f(8, "ttlSecondsAfterFinished", One, Int),
            f(9, "completionMode", One, Str),
            f(10, "suspend", One, Bool),
            f(14, "podReplacementPolicy", One, Str),
            f(15, "managedBy", One, Str),
        ],
    ),
    (
        "JobStatus",
        &[
            f(1, "conditions", List, Msg("JobCondition")),
            f(2, "startTime", Opt, Time),
            f(3, "completionTime", Opt, Time),
            f(4, "active", Opt, Int),
            f(5, "succeeded", Opt, Int),
            f(6, "failed", Opt, Int),
            f(11, "terminating", One, Int),
            f(7, "completedIndexes", Opt, Str),
            f(10, "failedIndexes", One, Str),
            f(8, "uncountedTerminatedPods", One, Msg("UncountedTerminatedPods")),
            f(9, "ready", One, Int),
        ],
    ),
    ("JobTemplateSpec", &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "spec", One, Msg("JobSpec"))]),
    ("PodFailurePolicy", &[f(1, "rules", List, Msg("PodFailurePolicyRule"))]),
    (
        "PodFailurePolicyOnExitCodesRequirement",
        &[f(1, "containerName", One, Str), f(2, "operator", One, Str), f(3, "values", List, Int)],
    ),
    ("PodFailurePolicyOnPodConditionsPattern", &[f(1, "type", One, Str), f(2, "status", One, Str)]),
    (
        "PodFailurePolicyRule",
        &[
            f(1, "action", One, Str),
            f(2, "onExitCodes", One, Msg("PodFailurePolicyOnExitCodesRequirement")),
            f(3, "onPodConditions", List, Msg("PodFailurePolicyOnPodConditionsPattern")),
        ],
    ),
    ("SuccessPolicy", &[f(1, "rules", List, Msg("SuccessPolicyRule"))]),
    ("SuccessPolicyRule", &[f(1, "succeededIndexes", One, Str), f(2, "succeededCount", One, Int)]),
    ("UncountedTerminatedPods", &[f(1, "succeeded", List, Str), f(2, "failed", List, Str)]),
];
