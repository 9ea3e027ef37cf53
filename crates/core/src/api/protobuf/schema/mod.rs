//! The protobuf schema as data: each message's fields by number, with the JSON name and type.
//!
//! The rows are copied from upstream's `generated.proto` files (one file per API group here);
//! JSON names and which zero values Go's JSON omits come from the same fields' Go struct tags.
//! Taken from k8s.io/api at 10b39a39 and k8s.io/apimachinery at eed236ce (both July 2026): every
//! message the kinds reach, status included. Message names are unique across the table;
//! where a group's older version repeats a newer one's names (autoscaling/v1 and v2), the older
//! one's carry its proto package (`autoscaling.v1.HorizontalPodAutoscaler`).

mod apps_v1;
mod authorization_v1;
mod autoscaling_v1;
mod autoscaling_v2;
mod batch_v1;
mod core_v1;
mod core_v1_storage;
mod meta_v1;
mod networking_v1;
mod policy_v1;
mod rbac_v1;
mod scheduling_v1;
mod storage_v1;

/// What a field's bytes hold and how they become JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    /// `string`: a JSON string.
    Str,
    /// `bytes` (`[]byte` in Go): a base64 JSON string.
    Bytes,
    /// `int32`/`int64`: a JSON number.
    Int,
    /// `bool`.
    Bool,
    /// `metav1.Time` {1: seconds, 2: nanos}: an RFC 3339 string, absent when zero.
    Time,
    /// `resource.Quantity` {1: string}: the string.
    Quantity,
    /// `intstr.IntOrString` {1: type, 2: intVal, 3: strVal}: a JSON number or string.
    IntOrStr,
    /// `runtime.RawExtension` / `metav1.FieldsV1` {1: raw JSON bytes}: the parsed JSON.
    Raw,
    /// A message of the table: a JSON object.
    Msg(&'static str),
    /// An embedded Go struct (`json:""`): its fields land in the enclosing object.
    Inline(&'static str),
}

/// How often a field occurs, and whether a zero value shows in the JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Card {
    /// Shown even when zero (a Go pointer, or a field without `omitempty`).
    One,
    /// Left out when zero (`omitempty` on a Go value).
    Opt,
    /// `repeated`: a JSON array.
    List,
    /// `map<string, T>` (repeated entries {1: key, 2: value}): a JSON object.
    Map,
}

/// One field: number, JSON name, cardinality, type.
#[derive(Clone, Copy, Debug)]
pub(super) struct Field {
    pub num: u32,
    pub json: &'static str,
    pub card: Card,
    pub ty: Ty,
}

/// A message: its name and fields.
pub(super) type Message = (&'static str, &'static [Field]);

/// A row of the tables.
const fn f(num: u32, json: &'static str, card: Card, ty: Ty) -> Field {
    Field { num, json, card, ty }
}

/// The top-level kinds: (apiVersion, kind, message).
const KINDS: &[(&str, &str, &str)] = &[
    ("v1", "Namespace", "Namespace"),
    ("v1", "ConfigMap", "ConfigMap"),
    ("v1", "Secret", "Secret"),
    ("v1", "ServiceAccount", "ServiceAccount"),
    ("v1", "ResourceQuota", "ResourceQuota"),
    ("v1", "LimitRange", "LimitRange"),
    ("v1", "Service", "Service"),
    ("v1", "Pod", "Pod"),
    ("v1", "PersistentVolumeClaim", "PersistentVolumeClaim"),
    ("v1", "PersistentVolume", "PersistentVolume"),
    ("storage.k8s.io/v1", "StorageClass", "StorageClass"),
    ("apps/v1", "Deployment", "Deployment"),
    ("apps/v1", "DaemonSet", "DaemonSet"),
    ("apps/v1", "ControllerRevision", "ControllerRevision"),
    ("batch/v1", "Job", "Job"),
    ("batch/v1", "CronJob", "CronJob"),
    ("policy/v1", "PodDisruptionBudget", "PodDisruptionBudget"),
    ("policy/v1", "Eviction", "Eviction"),
    // A typed client's DELETE body (kubectl drain's fallback when pods/eviction is not served).
    ("v1", "DeleteOptions", "DeleteOptions"),
    ("meta.k8s.io/v1", "DeleteOptions", "DeleteOptions"),
    ("autoscaling/v2", "HorizontalPodAutoscaler", "HorizontalPodAutoscaler"),
    ("autoscaling/v1", "HorizontalPodAutoscaler", "autoscaling.v1.HorizontalPodAutoscaler"),
    ("networking.k8s.io/v1", "Ingress", "Ingress"),
    ("scheduling.k8s.io/v1", "PriorityClass", "PriorityClass"),
    ("rbac.authorization.k8s.io/v1", "Role", "Role"),
    ("rbac.authorization.k8s.io/v1", "ClusterRole", "ClusterRole"),
    ("rbac.authorization.k8s.io/v1", "RoleBinding", "RoleBinding"),
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "ClusterRoleBinding"),
    ("authorization.k8s.io/v1", "SelfSubjectAccessReview", "SelfSubjectAccessReview"),
    ("authorization.k8s.io/v1", "SelfSubjectRulesReview", "SelfSubjectRulesReview"),
    ("authorization.k8s.io/v1", "SubjectAccessReview", "SubjectAccessReview"),
    ("authorization.k8s.io/v1", "LocalSubjectAccessReview", "LocalSubjectAccessReview"),
    ("authentication.k8s.io/v1", "SelfSubjectReview", "SelfSubjectReview"),
    ("authentication.k8s.io/v1", "TokenRequest", "TokenRequest"),
];

const GROUPS: &[&[Message]] = &[
    meta_v1::MESSAGES,
    core_v1::MESSAGES,
    core_v1_storage::MESSAGES,
    apps_v1::MESSAGES,
    batch_v1::MESSAGES,
    policy_v1::MESSAGES,
    autoscaling_v2::MESSAGES,
    autoscaling_v1::MESSAGES,
    networking_v1::MESSAGES,
    scheduling_v1::MESSAGES,
    storage_v1::MESSAGES,
    rbac_v1::MESSAGES,
    authorization_v1::MESSAGES,
];

/// The message that holds a kind's objects.
pub(super) fn kind(api_version: &str, kind: &str) -> Option<&'static str> {
    KINDS.iter().find(|(v, k, _)| *v == api_version && *k == kind).map(|(_, _, message)| *message)
}

/// A message's fields, by name.
pub(super) fn fields(message: &str) -> Option<&'static [Field]> {
    GROUPS.iter().flat_map(|group| group.iter()).find(|(name, _)| *name == message).map(|(_, fields)| *fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_referenced_message_is_in_the_table_once() {
        let all: Vec<&Message> = GROUPS.iter().flat_map(|group| group.iter()).collect();
        for (name, rows) in &all {
            assert_eq!(all.iter().filter(|(other, _)| other == name).count(), 1, "{name} twice");
            for row in rows.iter() {
                if let Ty::Msg(target) | Ty::Inline(target) = row.ty {
                    assert!(fields(target).is_some(), "{name}.{} names {target}", row.json);
                }
            }
        }
        for (_, _, message) in KINDS {
            assert!(fields(message).is_some(), "{message}");
        }
    }
}
