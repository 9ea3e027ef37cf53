//! `kubectl describe statefulset`: desired against total replicas, the update strategy and its
//! partition, pods by phase, the pod template and the volumeClaimTemplates. Mirrors
//! `describeStatefulSet` and `describeVolumeClaimTemplates` in
//! staging/src/k8s.io/kubectl/pkg/describe/describe.go (kubectl 1.36).

use super::containers::describe_pod_template;
use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, LEVEL_1, PrefixWriter, annotations_multiline, labels_multiline, rfc1123z};
use crate::api::persistent_volume_claim::PersistentVolumeClaim;
use crate::api::{Pod, StatefulSet};

pub fn describe(describer: &Describer<'_>, set: &StatefulSet) -> String {
    let mut w = PrefixWriter::default();
    let meta = &set.metadata;
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    w.write(LEVEL_0, &format!("CreationTimestamp:\t{}\n", rfc1123z(meta.creation_timestamp)));
    let selector = set.spec.selector.as_ref().map_or(String::new(), |s| s.format());
    w.write(LEVEL_0, &format!("Selector:\t{selector}\n"));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    let desired = set.spec.replicas.unwrap_or(1);
    w.write(LEVEL_0, &format!("Replicas:\t{desired} desired | {} total\n", set.status.replicas));
    let strategy = &set.spec.update_strategy;
    w.write(LEVEL_0, &format!("Update Strategy:\t{}\n", strategy.type_.as_deref().unwrap_or("")));
    if let Some(rolling) = &strategy.rolling_update
        && let Some(partition) = rolling.partition
    {
        w.write(LEVEL_1, &format!("Partition:\t{partition}\n"));
        if let Some(max) = &rolling.max_unavailable {
            w.write(LEVEL_1, &format!("MaxUnavailable:\t{max}\n"));
        }
    }
    let [running, waiting, succeeded, failed] = pod_phases(describer, set);
    w.write(
        LEVEL_0,
        &format!("Pods Status:\t{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed\n"),
    );
    describe_pod_template(&mut w, &set.spec.template);
    volume_claim_templates(&mut w, &set.spec.volume_claim_templates);
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(set)));
    w.finish()
}

/// `describeVolumeClaimTemplates`: each template's class, labels, annotations, requested
/// capacity and access modes (a Go slice: `[ReadWriteOnce]`).
fn volume_claim_templates(w: &mut PrefixWriter, templates: &[PersistentVolumeClaim]) {
    if templates.is_empty() {
        w.write(LEVEL_0, "Volume Claims:\t<none>\n");
        return;
    }
    w.write(LEVEL_0, "Volume Claims:\n");
    for claim in templates {
        w.write(LEVEL_1, &format!("Name:\t{}\n", claim.metadata.name));
        let class = claim.metadata.annotations.get("volume.beta.kubernetes.io/storage-class").unwrap_or(claim.class());
        w.write(LEVEL_1, &format!("StorageClass:\t{class}\n"));
        labels_multiline(w, "  ", "Labels", &claim.metadata.labels);
        labels_multiline(w, "  ", "Annotations", &claim.metadata.annotations);
        let capacity = claim.requested_storage().map_or("<default>".to_string(), |q| q.to_string());
        w.write(LEVEL_1, &format!("Capacity:\t{capacity}\n"));
        w.write(LEVEL_1, &format!("Access Modes:\t[{}]\n", claim.spec.access_modes.join(" ")));
    }
}

/// `getPodStatusForController`: pods selected and controlled by the set, by phase.
fn pod_phases(describer: &Describer<'_>, set: &StatefulSet) -> [usize; 4] {
    let mut counts = [0; 4];
    let Some(selector) = set.spec.selector.as_ref().and_then(|s| s.to_selector().ok()) else { return counts };
    let uid = set.metadata.uid;
    let controlled = |pod: &&Pod| pod.metadata.controller_ref().is_some_and(|owner| owner.uid == uid);
    let pods = describer.store.list::<Pod>(Some(&set.metadata.namespace));
    for pod in pods.filter(|p| selector.matches(&p.metadata.labels)).filter(controlled) {
        match pod.status.phase.as_deref() {
            Some("Running") => counts[0] += 1,
            Some("Pending") => counts[1] += 1,
            Some("Succeeded") => counts[2] += 1,
            Some("Failed") => counts[3] += 1,
            _ => {}
        }
    }
    counts
}
