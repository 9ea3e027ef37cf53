//! ObjectMeta and the other apimachinery messages the kinds embed.

use super::Card::{List, Map, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/apimachinery pkg/apis/meta/v1/generated.proto (Time, Quantity, IntOrString and RawExtension are `Ty`s, from
// pkg/apis/meta/v1, pkg/api/resource, pkg/util/intstr and pkg/runtime generated.proto).
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    (
        "DeleteOptions",
        &[
            f(1, "gracePeriodSeconds", One, Int),
            f(2, "preconditions", One, Msg("Preconditions")),
            f(3, "orphanDependents", One, Bool),
            f(4, "propagationPolicy", One, Str),
            f(5, "dryRun", List, Str),
            f(6, "ignoreStoreReadErrorWithClusterBreakingPotential", One, Bool),
        ],
    ),
    ("Preconditions", &[f(1, "uid", One, Str), f(2, "resourceVersion", One, Str)]),
    (
        "ObjectMeta",
        &[
            f(1, "name", Opt, Str),
            f(2, "generateName", Opt, Str),
            f(3, "namespace", Opt, Str),
            f(4, "selfLink", Opt, Str),
            f(5, "uid", Opt, Str),
            f(6, "resourceVersion", Opt, Str),
            f(7, "generation", Opt, Int),
            f(8, "creationTimestamp", Opt, Time),
            f(9, "deletionTimestamp", One, Time),
            f(10, "deletionGracePeriodSeconds", One, Int),
            f(11, "labels", Map, Str),
            f(12, "annotations", Map, Str),
            f(13, "ownerReferences", List, Msg("OwnerReference")),
            f(14, "finalizers", List, Str),
            f(17, "managedFields", List, Msg("ManagedFieldsEntry")),
        ],
    ),
    (
        "OwnerReference",
        &[
            f(1, "kind", One, Str),
            f(3, "name", One, Str),
            f(4, "uid", One, Str),
            f(5, "apiVersion", One, Str),
            f(6, "controller", One, Bool),
            f(7, "blockOwnerDeletion", One, Bool),
        ],
    ),
    (
        "ManagedFieldsEntry",
        &[
            f(1, "manager", Opt, Str),
            f(2, "operation", Opt, Str),
            f(3, "apiVersion", Opt, Str),
            f(4, "time", One, Time),
            f(6, "fieldsType", Opt, Str),
            f(7, "fieldsV1", One, Raw),
            f(8, "subresource", Opt, Str),
        ],
    ),
    (
        "Condition",
        &[
            f(1, "type", One, Str),
            f(2, "status", One, Str),
            f(3, "observedGeneration", Opt, Int),
            f(4, "lastTransitionTime", One, Time),
            f(5, "reason", One, Str),
            f(6, "message", One, Str),
        ],
    ),
    (
        "LabelSelector",
        &[f(1, "matchLabels", Map, Str), f(2, "matchExpressions", List, Msg("LabelSelectorRequirement"))],
    ),
    ("LabelSelectorRequirement", &[f(1, "key", One, Str), f(2, "operator", One, Str), f(3, "values", List, Str)]),
];
