//! The storage.k8s.io/v1 messages: StorageClass (its topology terms are core/v1's).

use super::Card::{List, Map, One};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api storage/v1/generated.proto; omitempty from storage/v1/types.go.
pub(super) const MESSAGES: &[Message] = &[(
    "StorageClass",
    &[
        f(1, "metadata", One, Msg("ObjectMeta")),
        f(2, "provisioner", One, Str),
        f(3, "parameters", Map, Str),
        f(4, "reclaimPolicy", One, Str),
        f(5, "mountOptions", List, Str),
        f(6, "allowVolumeExpansion", One, Bool),
        f(7, "volumeBindingMode", One, Str),
        f(8, "allowedTopologies", List, Msg("TopologySelectorTerm")),
    ],
)];
