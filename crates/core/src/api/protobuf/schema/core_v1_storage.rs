//! The core/v1 messages of PersistentVolumeClaims and PersistentVolumes. Of a volume's sources
//! only those the lab's PersistentVolume has (hostPath, nfs, local, csi) are listed; the
//! decoder skips the others' fields as it skips every unknown field.

use super::Card::{List, Map, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api core/v1/generated.proto; omitempty and pointers from core/v1/types.go.
pub(super) const MESSAGES: &[Message] = &[
    (
        "PersistentVolumeClaim",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("PersistentVolumeClaimSpec")),
            f(3, "status", One, Msg("PersistentVolumeClaimStatus")),
        ],
    ),
    (
        "PersistentVolumeClaimStatus",
        &[
            f(1, "phase", Opt, Str),
            f(2, "accessModes", List, Str),
            f(3, "capacity", Map, Quantity),
            f(4, "conditions", List, Msg("PersistentVolumeClaimCondition")),
            f(5, "allocatedResources", Map, Quantity),
            f(7, "allocatedResourceStatuses", Map, Str),
            f(8, "currentVolumeAttributesClassName", One, Str),
            f(9, "modifyVolumeStatus", One, Msg("ModifyVolumeStatus")),
            f(10, "healthStatus", One, Msg("VolumeHealthStatus")),
        ],
    ),
    (
        "PersistentVolumeClaimCondition",
        &[
            f(1, "type", One, Str),
            f(2, "status", One, Str),
            f(3, "lastProbeTime", Opt, Time),
            f(4, "lastTransitionTime", Opt, Time),
            f(5, "reason", Opt, Str),
            f(6, "message", Opt, Str),
        ],
    ),
    ("ModifyVolumeStatus", &[f(1, "targetVolumeAttributesClassName", Opt, Str), f(2, "status", One, Str)]),
    (
        "VolumeHealthStatus",
        &[f(1, "healthConditions", List, Msg("VolumeHealthCondition")), f(2, "lastTransitionTime", Opt, Time)],
    ),
    (
        "PersistentVolume",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("PersistentVolumeSpec")),
            f(3, "status", One, Msg("PersistentVolumeStatus")),
        ],
    ),
    (
        "PersistentVolumeSpec",
        &[
            f(1, "capacity", Map, Quantity),
            f(2, "", One, Inline("PersistentVolumeSource")),
            f(3, "accessModes", List, Str),
            f(4, "claimRef", One, Msg("ObjectReference")),
            f(5, "persistentVolumeReclaimPolicy", Opt, Str),
            f(6, "storageClassName", Opt, Str),
            f(7, "mountOptions", List, Str),
            f(8, "volumeMode", One, Str),
            f(9, "nodeAffinity", One, Msg("VolumeNodeAffinity")),
            f(10, "volumeAttributesClassName", One, Str),
        ],
    ),
    (
        "PersistentVolumeSource",
        &[
            f(3, "hostPath", One, Msg("HostPathVolumeSource")),
            f(5, "nfs", One, Msg("NFSVolumeSource")),
            f(20, "local", One, Msg("LocalVolumeSource")),
            f(22, "csi", One, Msg("CSIPersistentVolumeSource")),
        ],
    ),
    ("LocalVolumeSource", &[f(1, "path", One, Str), f(2, "fsType", One, Str)]),
    (
        "CSIPersistentVolumeSource",
        &[
            f(1, "driver", One, Str),
            f(2, "volumeHandle", One, Str),
            f(3, "readOnly", Opt, Bool),
            f(4, "fsType", Opt, Str),
            f(5, "volumeAttributes", Map, Str),
            f(6, "controllerPublishSecretRef", One, Msg("SecretReference")),
            f(7, "nodeStageSecretRef", One, Msg("SecretReference")),
            f(8, "nodePublishSecretRef", One, Msg("SecretReference")),
            f(9, "controllerExpandSecretRef", One, Msg("SecretReference")),
            f(10, "nodeExpandSecretRef", One, Msg("SecretReference")),
        ],
    ),
    ("SecretReference", &[f(1, "name", Opt, Str), f(2, "namespace", Opt, Str)]),
    (
        "PersistentVolumeStatus",
        &[
            f(1, "phase", Opt, Str),
            f(2, "message", Opt, Str),
            f(3, "reason", Opt, Str),
            f(4, "lastPhaseTransitionTime", One, Time),
        ],
    ),
    ("VolumeNodeAffinity", &[f(1, "required", One, Msg("NodeSelector"))]),
    ("TopologySelectorTerm", &[f(1, "matchLabelExpressions", List, Msg("TopologySelectorLabelRequirement"))]),
    ("TopologySelectorLabelRequirement", &[f(1, "key", One, Str), f(2, "values", List, Str)]),
];
