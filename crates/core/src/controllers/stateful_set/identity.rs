//! A StatefulSet pod's identity: its ordinal, name, hostname and subdomain, labels, and the
//! claims its volumes name. Mirrors pkg/controller/statefulset/stateful_set_utils.go
//! (`getParentNameAndOrdinal`, `newStatefulSetPod`, `initIdentity`, `updateStorage`,
//! `getPersistentVolumeClaims`).

use crate::api::meta::OwnerReference;
use crate::api::persistent_volume_claim::PersistentVolumeClaim;
use crate::api::pod::PodTemplateSpec;
use crate::api::stateful_set::{POD_INDEX_LABEL, POD_NAME_LABEL, REVISION_LABEL};
use crate::api::volume::{PersistentVolumeClaimVolumeSource, Volume};
use crate::api::{ObjectMeta, Pod, StatefulSet};

/// The ordinal in a member's name (`<set>-<ordinal>`), if `pod` is one of `set`'s.
pub fn ordinal_of(set: &StatefulSet, name: &str) -> Option<i32> {
    let (parent, ordinal) = name.rsplit_once('-')?;
    if parent != set.metadata.name || ordinal.is_empty() || !ordinal.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    ordinal.parse().ok()
}

/// `getPodName`.
pub fn pod_name(set: &StatefulSet, ordinal: i32) -> String {
    format!("{}-{ordinal}", set.metadata.name)
}

/// `getPersistentVolumeClaimName`: `<template>-<set>-<ordinal>`.
pub fn claim_name(set: &StatefulSet, template: &PersistentVolumeClaim, ordinal: i32) -> String {
    format!("{}-{}-{ordinal}", template.metadata.name, set.metadata.name)
}

/// Within `[start, start + replicas)` (`podInOrdinalRange`).
pub fn in_ordinal_range(set: &StatefulSet, ordinal: i32) -> bool {
    let start = set.spec.start_ordinal();
    (start..start + set.spec.replicas.unwrap_or(1)).contains(&ordinal)
}

/// The ownerReference a StatefulSet puts on its pods and revisions (`metav1.NewControllerRef`).
pub fn controller_ref(set: &StatefulSet) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".to_string(),
        kind: "StatefulSet".to_string(),
        name: set.metadata.name.clone(),
        uid: set.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// `newVersionedStatefulSetPod`: the pod for `ordinal` from `template` (the current or the
/// update revision's), with its identity, its claims as volumes and its revision label.
pub fn new_pod(set: &StatefulSet, template: &PodTemplateSpec, ordinal: i32, revision: &str) -> Pod {
    let name = pod_name(set, ordinal);
    // `GetPodFromTemplate`: the template's labels, annotations and finalizers, and the set's
    // name as generateName's prefix.
    let mut metadata = ObjectMeta {
        name: name.clone(),
        generate_name: format!("{}-", set.metadata.name),
        namespace: set.metadata.namespace.clone(),
        labels: template.metadata.labels.clone(),
        annotations: template.metadata.annotations.clone(),
        finalizers: template.metadata.finalizers.clone(),
        owner_references: vec![controller_ref(set)],
        ..Default::default()
    };
    metadata.labels.insert(POD_NAME_LABEL, name.clone());
    metadata.labels.insert(POD_INDEX_LABEL, ordinal.to_string());
    metadata.labels.insert(REVISION_LABEL, revision.to_string());
    let mut spec = template.spec.clone();
    spec.hostname = Some(name);
    spec.subdomain = (!set.spec.service_name.is_empty()).then(|| set.spec.service_name.clone());
    update_storage(set, ordinal, spec.volumes.make_mut());
    Pod { metadata, spec, ..Default::default() }
}

/// `updateStorage`: a volume per claim template, named as the template, first; the template's
/// own volumes of other names after.
fn update_storage(set: &StatefulSet, ordinal: i32, volumes: &mut Vec<Volume>) {
    let templates = &set.spec.volume_claim_templates;
    let mut updated: Vec<Volume> = templates
        .iter()
        .map(|template| Volume {
            name: template.metadata.name.clone(),
            persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                claim_name: claim_name(set, template, ordinal),
                read_only: None,
            }),
            ..Default::default()
        })
        .collect();
    let claimed = |v: &Volume| templates.iter().any(|t| t.metadata.name == v.name);
    updated.extend(volumes.iter().filter(|v| !claimed(v)).cloned());
    *volumes = updated;
}

/// `getPersistentVolumeClaims`: the claims the pod for `ordinal` needs, from the templates,
/// labelled with the template's labels and the set's selector's matchLabels.
pub fn claims_for(set: &StatefulSet, ordinal: i32) -> Vec<PersistentVolumeClaim> {
    let match_labels = set.spec.selector.as_ref().map(|s| s.match_labels.clone()).unwrap_or_default();
    set.spec
        .volume_claim_templates
        .iter()
        .map(|template| {
            let mut claim = template.clone();
            claim.metadata.name = claim_name(set, template, ordinal);
            claim.metadata.namespace = set.metadata.namespace.clone();
            for (key, value) in match_labels.iter() {
                claim.metadata.labels.insert(key, value);
            }
            claim.status = Default::default();
            claim
        })
        .collect()
}

/// The revision a pod was made from (`getPodRevision`).
pub fn pod_revision(pod: &Pod) -> &str {
    pod.metadata.labels.get(REVISION_LABEL).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn web() -> StatefulSet {
        serde_yaml::from_str(
            "metadata: {name: web, namespace: default}\nspec:\n  serviceName: web\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: nginx, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]}\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
        )
        .expect("decodes")
    }

    #[test]
    fn ordinals_come_from_member_names_only() {
        let set = web();
        assert_eq!(ordinal_of(&set, "web-0"), Some(0));
        assert_eq!(ordinal_of(&set, "web-12"), Some(12));
        assert_eq!(ordinal_of(&set, "web-x"), None);
        assert_eq!(ordinal_of(&set, "webby-1"), None);
        assert_eq!(ordinal_of(&set, "web-"), None);
        assert!(in_ordinal_range(&set, 2) && !in_ordinal_range(&set, 3));
    }

    #[test]
    fn a_new_pod_has_its_identity_and_its_claim() {
        let set = web();
        let pod = new_pod(&set, &set.spec.template, 1, "web-abc");
        let yaml = serde_yaml::to_string(&(
            &pod.metadata.name,
            &pod.metadata.labels,
            &pod.spec.hostname,
            &pod.spec.subdomain,
            &*pod.spec.volumes,
        ))
        .unwrap();
        assert_eq!(
            yaml,
            "- web-1\n- app: web\n  apps.kubernetes.io/pod-index: '1'\n  controller-revision-hash: web-abc\n  statefulset.kubernetes.io/pod-name: web-1\n- web-1\n- web\n- - name: data\n    persistentVolumeClaim:\n      claimName: data-web-1\n"
        );
        let claims = claims_for(&set, 1);
        assert_eq!(claims[0].metadata.name, "data-web-1");
        assert_eq!(claims[0].metadata.labels.get("app"), Some("web"));
    }
}
