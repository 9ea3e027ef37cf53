//! `labels`, `commonLabels` and `commonAnnotations` (builtins LabelTransformer and
//! AnnotationsTransformer) with kustomize's default field specs
//! (konfig/builtinpluginconsts/commonlabels.go, metadatalabels.go, commonannotations.go):
//! `commonLabels` and `labels` with `includeSelectors` reach selectors and pod templates;
//! plain `labels` only `metadata.labels` (and templates with `includeTemplates`).

use super::Resource;
use super::field_spec::{FieldSpec, merge_string_map};
use super::kustomization::Kustomization;
use std::collections::BTreeMap;

/// metadatalabels.go: the object's labels and its pod templates'.
const TEMPLATE_LABELS: &[FieldSpec] = &[
    FieldSpec::kind("ReplicationController", "spec/template/metadata/labels", true),
    FieldSpec::kind("Deployment", "spec/template/metadata/labels", true),
    FieldSpec::kind("ReplicaSet", "spec/template/metadata/labels", true),
    FieldSpec::kind("DaemonSet", "spec/template/metadata/labels", true),
    FieldSpec::grouped("apps", "StatefulSet", "spec/template/metadata/labels", true),
    FieldSpec::grouped("batch", "Job", "spec/template/metadata/labels", true),
    FieldSpec::grouped("batch", "CronJob", "spec/jobTemplate/metadata/labels", true),
    FieldSpec::grouped("batch", "CronJob", "spec/jobTemplate/spec/template/metadata/labels", true),
];

const METADATA_LABELS: FieldSpec = FieldSpec::any("metadata/labels", true);

/// commonlabels.go: the selectors (created where kustomize creates them).
const SELECTORS: &[FieldSpec] = &[
    FieldSpec::kind("Service", "spec/selector", true),
    FieldSpec::kind("ReplicationController", "spec/selector", true),
    FieldSpec::kind("Deployment", "spec/selector/matchLabels", true),
    FieldSpec::grouped("apps", "Deployment", AFFINITY_PREFERRED, false),
    FieldSpec::grouped("apps", "Deployment", AFFINITY_REQUIRED, false),
    FieldSpec::grouped("apps", "Deployment", ANTI_AFFINITY_PREFERRED, false),
    FieldSpec::grouped("apps", "Deployment", ANTI_AFFINITY_REQUIRED, false),
    FieldSpec::grouped("apps", "Deployment", TOPOLOGY_SPREAD, false),
    FieldSpec::kind("ReplicaSet", "spec/selector/matchLabels", true),
    FieldSpec::kind("DaemonSet", "spec/selector/matchLabels", true),
    FieldSpec::grouped("apps", "StatefulSet", "spec/selector/matchLabels", true),
    FieldSpec::grouped("apps", "StatefulSet", AFFINITY_PREFERRED, false),
    FieldSpec::grouped("apps", "StatefulSet", AFFINITY_REQUIRED, false),
    FieldSpec::grouped("apps", "StatefulSet", ANTI_AFFINITY_PREFERRED, false),
    FieldSpec::grouped("apps", "StatefulSet", ANTI_AFFINITY_REQUIRED, false),
    FieldSpec::grouped("apps", "StatefulSet", TOPOLOGY_SPREAD, false),
    FieldSpec::grouped("batch", "Job", "spec/selector/matchLabels", false),
    FieldSpec::grouped("batch", "CronJob", "spec/jobTemplate/spec/selector/matchLabels", false),
    FieldSpec::grouped("policy", "PodDisruptionBudget", "spec/selector/matchLabels", false),
    FieldSpec::grouped("networking.k8s.io", "NetworkPolicy", "spec/podSelector/matchLabels", false),
    FieldSpec::grouped("networking.k8s.io", "NetworkPolicy", "spec/ingress/from/podSelector/matchLabels", false),
    FieldSpec::grouped("networking.k8s.io", "NetworkPolicy", "spec/egress/to/podSelector/matchLabels", false),
];

const AFFINITY_PREFERRED: &str = "spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels";
const AFFINITY_REQUIRED: &str =
    "spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels";
const ANTI_AFFINITY_PREFERRED: &str = "spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels";
const ANTI_AFFINITY_REQUIRED: &str = "spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels";
const TOPOLOGY_SPREAD: &str = "spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels";

/// volumeclaimmetadatalabels.go.
const VOLUME_CLAIM_TEMPLATE_LABELS: FieldSpec =
    FieldSpec::grouped("apps", "StatefulSet", "spec/volumeClaimTemplates/metadata/labels", true);

/// commonannotations.go.
const ANNOTATIONS: &[FieldSpec] = &[
    FieldSpec::any("metadata/annotations", true),
    FieldSpec::kind("ReplicationController", "spec/template/metadata/annotations", true),
    FieldSpec::kind("Deployment", "spec/template/metadata/annotations", true),
    FieldSpec::kind("ReplicaSet", "spec/template/metadata/annotations", true),
    FieldSpec::kind("DaemonSet", "spec/template/metadata/annotations", true),
    FieldSpec::kind("StatefulSet", "spec/template/metadata/annotations", true),
    FieldSpec::grouped("batch", "Job", "spec/template/metadata/annotations", true),
    FieldSpec::grouped("batch", "CronJob", "spec/jobTemplate/metadata/annotations", true),
    FieldSpec::grouped("batch", "CronJob", "spec/jobTemplate/spec/template/metadata/annotations", true),
];

/// The LabelTransformer instances kusttarget configures: one per `labels` entry, then one
/// for `commonLabels` (selectors, templates and metadata).
pub fn labels(k: &Kustomization, resources: &mut [Resource]) {
    for label in &k.labels {
        let mut specs = Vec::new();
        if label.include_selectors {
            specs.extend(common_label_specs());
        } else {
            if label.include_templates {
                specs.extend_from_slice(TEMPLATE_LABELS);
            }
            if label.include_volume_claim_templates {
                specs.push(VOLUME_CLAIM_TEMPLATE_LABELS);
            }
            specs.push(METADATA_LABELS);
        }
        apply(&label.pairs, &specs, resources);
    }
    apply(&k.common_labels, &common_label_specs(), resources);
}

/// commonlabels.go: selectors, then metadata and template labels, then volume claim templates.
fn common_label_specs() -> Vec<FieldSpec> {
    let mut specs = SELECTORS.to_vec();
    specs.push(METADATA_LABELS);
    specs.extend_from_slice(TEMPLATE_LABELS);
    specs.push(VOLUME_CLAIM_TEMPLATE_LABELS);
    specs
}

/// AnnotationsTransformer with `commonAnnotations`.
pub fn annotations(pairs: &BTreeMap<String, String>, resources: &mut [Resource]) {
    apply(pairs, ANNOTATIONS, resources);
}

fn apply(pairs: &BTreeMap<String, String>, specs: &[FieldSpec], resources: &mut [Resource]) {
    if pairs.is_empty() {
        return;
    }
    for resource in resources.iter_mut() {
        for spec in specs {
            spec.visit(resource, &mut |leaf| merge_string_map(leaf, pairs));
        }
    }
}
