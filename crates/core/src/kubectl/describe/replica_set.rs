//! `kubectl describe replicaset`: its owner, current against desired replicas, its pods by
//! phase, the pod template and conditions. Mirrors `describeReplicaSet` and
//! `getPodStatusForController` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::containers::describe_pod_template;
use super::events::{self, EventQuery};
use super::pod::controlled_by;
use super::{Describer, LEVEL_0, LEVEL_1, PrefixWriter, annotations_multiline, labels_multiline};
use crate::api::label_selector::LabelSelector;
use crate::api::meta::Uid;
use crate::api::{Pod, ReplicaSet};

pub fn describe(describer: &Describer<'_>, rs: &ReplicaSet) -> String {
    let mut w = PrefixWriter::default();
    let meta = &rs.metadata;
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    let selector = rs.spec.selector.as_ref().map_or("<none>".to_string(), |s| s.format());
    w.write(LEVEL_0, &format!("Selector:\t{selector}\n"));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    if let Some(controller) = controlled_by(meta) {
        w.write(LEVEL_0, &format!("Controlled By:\t{controller}\n"));
    }
    let desired = rs.spec.replicas.unwrap_or(0);
    w.write(LEVEL_0, &format!("Replicas:\t{} current / {desired} desired\n", rs.status.replicas));
    let [running, waiting, succeeded, failed] =
        pod_phases(describer, &meta.namespace, rs.spec.selector.as_ref(), meta.uid);
    w.write(
        LEVEL_0,
        &format!("Pods Status:\t{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed\n"),
    );
    describe_pod_template(&mut w, &rs.spec.template);
    if !rs.status.conditions.is_empty() {
        w.write(LEVEL_0, "Conditions:\n  Type\tStatus\tReason\n");
        w.write(LEVEL_1, "----\t------\t------\n");
        for c in &rs.status.conditions {
            w.write(LEVEL_1, &format!("{} \t{}\t{}\n", c.type_, c.status, c.reason.as_deref().unwrap_or("")));
        }
    }
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(rs)));
    w.finish()
}

/// Pods selected and controlled by the owner `uid`, counted as Running, Pending, Succeeded,
/// Failed (`getPodStatusForController`).
pub(super) fn pod_phases(
    describer: &Describer<'_>,
    namespace: &str,
    selector: Option<&LabelSelector>,
    uid: Uid,
) -> [usize; 4] {
    let mut counts = [0; 4];
    let Some(selector) = selector.and_then(|s| s.to_selector().ok()) else { return counts };
    let controlled = |pod: &&Pod| pod.metadata.controller_ref().is_some_and(|owner| owner.uid == uid);
    let pods = describer.store.list::<Pod>(Some(namespace));
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
