//! `kubectl describe daemonset`: its selectors, the node counts from its status, its pods by
//! phase, the pod template and events. Mirrors `describeDaemonSet` in
//! staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::containers::describe_pod_template;
use super::events::{self, EventQuery};
use super::replica_set::pod_phases;
use super::{Describer, LEVEL_0, PrefixWriter, annotations_multiline, labels_multiline};
use crate::api::DaemonSet;

pub fn describe(describer: &Describer<'_>, ds: &DaemonSet) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec, status) = (&ds.metadata, &ds.spec, &ds.status);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    let selector = spec.selector.as_ref().map_or("<none>".to_string(), |s| s.format());
    w.write(LEVEL_0, &format!("Selector:\t{selector}\n"));
    w.write(LEVEL_0, &format!("Node-Selector:\t{}\n", format_labels(&spec.template.spec.node_selector)));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    for (what, count) in [
        ("Desired Number of Nodes Scheduled", status.desired_number_scheduled),
        ("Current Number of Nodes Scheduled", status.current_number_scheduled),
        ("Number of Nodes Scheduled with Up-to-date Pods", status.updated_number_scheduled),
        ("Number of Nodes Scheduled with Available Pods", status.number_available),
        ("Number of Nodes Misscheduled", status.number_misscheduled),
    ] {
        w.write(LEVEL_0, &format!("{what}: {count}\n"));
    }
    let [running, waiting, succeeded, failed] =
        pod_phases(describer, &meta.namespace, spec.selector.as_ref(), meta.uid);
    w.write(
        LEVEL_0,
        &format!("Pods Status:\t{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed\n"),
    );
    describe_pod_template(&mut w, &spec.template);
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(ds)));
    w.finish()
}

/// `labels.FormatLabels`: `k=v,…` sorted by key, or `<none>`.
pub fn format_labels(labels: &crate::api::string_map::StringMap) -> String {
    if labels.is_empty() { "<none>".to_string() } else { labels.to_selector_string() }
}
