//! `kubectl describe deployment`: replica counts, strategy, the pod template, conditions, and
//! which ReplicaSet is new and which are old. Mirrors `describeDeployment` and
//! `printReplicaSetsByLabels` in staging/src/k8s.io/kubectl/pkg/describe/describe.go, and
//! `GetAllReplicaSets` in staging/src/k8s.io/kubectl/pkg/util/deployment/deployment.go.

use super::containers::describe_pod_template;
use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, LEVEL_1, PrefixWriter, annotations_multiline, labels_multiline, rfc1123z};
use crate::api::{Deployment, ReplicaSet};
use crate::controllers::deployment::hash::equal_ignore_hash;

pub fn describe(describer: &Describer<'_>, d: &Deployment) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec, status) = (&d.metadata, &d.spec, &d.status);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    w.write(LEVEL_0, &format!("CreationTimestamp:\t{}\n", rfc1123z(meta.creation_timestamp)));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    let selector = spec.selector.as_ref().and_then(|s| s.to_selector().ok()).map(|s| s.to_string());
    w.write(LEVEL_0, &format!("Selector:\t{}\n", selector.unwrap_or_default()));
    let count = |n: Option<i32>| n.unwrap_or(0);
    w.write(
        LEVEL_0,
        &format!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            count(spec.replicas),
            count(status.updated_replicas),
            count(status.replicas),
            count(status.available_replicas),
            count(status.unavailable_replicas),
        ),
    );
    let strategy = spec.strategy.clone().unwrap_or_default();
    w.write(LEVEL_0, &format!("StrategyType:\t{}\n", strategy.type_.unwrap_or_default()));
    w.write(LEVEL_0, &format!("MinReadySeconds:\t{}\n", count(spec.min_ready_seconds)));
    if let Some(rolling) = &strategy.rolling_update {
        let text = |v: &Option<crate::api::intstr::IntOrString>| v.as_ref().map_or("<nil>".into(), |v| v.to_string());
        let line = format!(
            "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
            text(&rolling.max_unavailable),
            text(&rolling.max_surge)
        );
        w.write(LEVEL_0, &line);
    }
    describe_pod_template(&mut w, &spec.template);
    conditions(&mut w, d);
    let (old, new) = replica_sets(describer, d);
    if !old.is_empty() || new.is_some() {
        w.write(LEVEL_0, &format!("OldReplicaSets:\t{}\n", replica_set_list(&old)));
        w.write(LEVEL_0, &format!("NewReplicaSet:\t{}\n", replica_set_list(&new.into_iter().collect::<Vec<_>>())));
    }
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(d)));
    w.finish()
}

fn conditions(w: &mut PrefixWriter, d: &Deployment) {
    if d.status.conditions.is_empty() {
        return;
    }
    w.write(LEVEL_0, "Conditions:\n  Type\tStatus\tReason\n");
    w.write(LEVEL_1, "----\t------\t------\n");
    for c in &d.status.conditions {
        w.write(LEVEL_1, &format!("{} \t{}\t{}\n", c.type_, c.status, c.reason.as_deref().unwrap_or("")));
    }
}

/// The Deployment's ReplicaSets (matching its selector and controlled by it): every old one,
/// and the new one, the oldest whose template matches the Deployment's.
fn replica_sets<'a>(describer: &Describer<'a>, d: &Deployment) -> (Vec<&'a ReplicaSet>, Option<&'a ReplicaSet>) {
    let Some(selector) = d.spec.selector.as_ref().and_then(|s| s.to_selector().ok()) else {
        return (Vec::new(), None);
    };
    let owned: Vec<&ReplicaSet> = describer
        .store
        .list::<ReplicaSet>(Some(&d.metadata.namespace))
        .filter(|rs| selector.matches(&rs.metadata.labels))
        .filter(|rs| rs.metadata.controller_ref().is_some_and(|owner| owner.uid == d.metadata.uid))
        .collect();
    let mut by_age = owned.clone();
    by_age.sort_by(|a, b| {
        (a.metadata.creation_timestamp, &a.metadata.name).cmp(&(b.metadata.creation_timestamp, &b.metadata.name))
    });
    let new = by_age.into_iter().find(|rs| equal_ignore_hash(&rs.spec.template, &d.spec.template));
    let old = owned.into_iter().filter(|rs| new.is_none_or(|n| n.metadata.uid != rs.metadata.uid)).collect();
    (old, new)
}

/// `hello-75c78875d5 (3/3 replicas created)`, comma-separated, or `<none>`.
fn replica_set_list(replica_sets: &[&ReplicaSet]) -> String {
    if replica_sets.is_empty() {
        return "<none>".into();
    }
    let names: Vec<String> = replica_sets
        .iter()
        .map(|rs| {
            format!("{} ({}/{} replicas created)", rs.metadata.name, rs.status.replicas, rs.spec.replicas.unwrap_or(0))
        })
        .collect();
    names.join(", ")
}
