//! The rbac.authorization.k8s.io/v1 messages: Role, ClusterRole, RoleBinding, ClusterRoleBinding.

use super::Card::{List, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api rbac/v1/generated.proto.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    ("Role", &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "rules", List, Msg("PolicyRule"))]),
    (
        "ClusterRole",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "rules", List, Msg("PolicyRule")),
            f(3, "aggregationRule", Opt, Msg("AggregationRule")),
        ],
    ),
    ("AggregationRule", &[f(1, "clusterRoleSelectors", List, Msg("LabelSelector"))]),
    (
        "PolicyRule",
        &[
            f(1, "verbs", List, Str),
            f(2, "apiGroups", List, Str),
            f(3, "resources", List, Str),
            f(4, "resourceNames", List, Str),
            f(5, "nonResourceURLs", List, Str),
        ],
    ),
    (
        "RoleBinding",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "subjects", List, Msg("Subject")),
            f(3, "roleRef", One, Msg("RoleRef")),
        ],
    ),
    (
        "ClusterRoleBinding",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "subjects", List, Msg("Subject")),
            f(3, "roleRef", One, Msg("RoleRef")),
        ],
    ),
    (
        "Subject",
        &[f(1, "kind", One, Str), f(2, "apiGroup", Opt, Str), f(3, "name", One, Str), f(4, "namespace", Opt, Str)],
    ),
    ("RoleRef", &[f(1, "apiGroup", One, Str), f(2, "kind", One, Str), f(3, "name", One, Str)]),
];
