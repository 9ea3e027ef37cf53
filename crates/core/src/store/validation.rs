//! Validation, worded as upstream's (pkg/apis/core/validation, pkg/apis/apps/validation):
//! `The Deployment "hello" is invalid: spec.selector: Required value`.

use super::Stored;
use crate::api::container::Container;
use crate::api::label_selector::LabelSelector;
use crate::api::labels::{validate_label_key, validate_label_value};
use crate::api::pod::PodSpec;
use crate::api::string_map::StringMap;
use crate::api::{Deployment, ObjectMeta, Pod, ReplicaSet, Service};
use crate::error::{FieldError, go_quote};
use std::collections::BTreeSet;

/// Which DNS rule an object's name follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    /// RFC 1123 subdomain (most kinds).
    Subdomain,
    /// RFC 1123 label (Namespace, Service).
    Label,
    /// A URL path segment (`path.ValidatePathSegmentName`): RBAC names such as `system:node`.
    PathSegment,
}

const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

pub fn is_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    let edge = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty() && b.len() <= 63 && edge(b[0]) && edge(b[b.len() - 1]) && b.iter().all(|&c| edge(c) || c == b'-')
}

pub fn is_dns1123_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_dns1123_label)
}

/// Checks a name against its rule; returns upstream's messages.
pub fn name_problems(name: &str, rule: NameRule) -> Vec<String> {
    match rule {
        NameRule::Label if name.len() > 63 => vec!["must be no more than 63 characters".into()],
        NameRule::Label if !is_dns1123_label(name) => vec![DNS1123_LABEL_MSG.into()],
        NameRule::Subdomain if name.len() > 253 => vec!["must be no more than 253 characters".into()],
        NameRule::Subdomain if !is_dns1123_subdomain(name) => vec![DNS1123_SUBDOMAIN_MSG.into()],
        NameRule::PathSegment => path_segment_problems(name),
        _ => Vec::new(),
    }
}

/// `path.IsValidPathSegmentName`'s messages.
fn path_segment_problems(name: &str) -> Vec<String> {
    if name == "." || name == ".." {
        return vec![format!("may not be '{name}'")];
    }
    let mut problems = Vec::new();
    for illegal in ["/", "%"] {
        if name.contains(illegal) {
            problems.push(format!("may not contain '{illegal}'"));
        }
    }
    problems
}

/// Metadata plus the kind's own rules.
pub fn validate_object<T: Stored>(object: &T, old: Option<&T>) -> Vec<FieldError> {
    let mut causes = validate_object_meta(object.metadata(), T::name_rule());
    causes.extend(object.validate(old));
    causes
}

pub fn validate_object_meta(meta: &ObjectMeta, rule: NameRule) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if meta.name.is_empty() {
        causes.push(FieldError::required("metadata.name", "name or generateName is required"));
    }
    for problem in name_problems(&meta.name, rule).into_iter().filter(|_| !meta.name.is_empty()) {
        causes.push(FieldError::invalid("metadata.name", go_quote(&meta.name), problem));
    }
    causes.extend(validate_labels(&meta.labels, "metadata.labels"));
    causes
}

pub fn validate_labels(labels: &StringMap, field: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for (key, value) in labels.iter() {
        for problem in validate_label_key(key) {
            causes.push(FieldError::invalid(field, go_quote(key), problem));
        }
        for problem in validate_label_value(value) {
            causes.push(FieldError::invalid(field, go_quote(value), problem));
        }
    }
    causes
}

/// A Go-style rendering of a label map, as upstream prints it in errors: `map[string]string{"app":"web"}`.
pub fn go_map(labels: &StringMap) -> String {
    let entries: Vec<String> = labels.iter().map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v))).collect();
    format!("map[string]string{{{}}}", entries.join(", "))
}

pub(crate) fn non_negative(value: Option<i32>, field: &str, causes: &mut Vec<FieldError>) {
    if let Some(v) = value.filter(|v| *v < 0) {
        causes.push(FieldError::invalid(field, v.to_string(), "must be greater than or equal to 0"));
    }
}

/// Selector present, non-empty, valid, and matching the template's labels (ValidateReplicaSetSpec / ValidateDeploymentSpec).
pub(crate) fn selector_and_template(
    selector: Option<&LabelSelector>,
    template_labels: &StringMap,
    kind: &str,
    causes: &mut Vec<FieldError>,
) {
    let Some(selector) = selector else {
        causes.push(FieldError::required("spec.selector", ""));
        return;
    };
    for (path, message) in selector.validate("spec.selector") {
        causes.push(FieldError::preformatted(path, message));
    }
    if selector.match_labels.is_empty() && selector.match_expressions.is_empty() {
        let detail = format!("empty selector is invalid for {kind}");
        causes.push(FieldError::invalid("spec.selector", selector.format(), detail));
        return;
    }
    if selector.to_selector().is_ok_and(|s| !s.matches(template_labels)) {
        causes.push(FieldError::invalid(
            "spec.template.metadata.labels",
            go_map(template_labels),
            "`selector` does not match template `labels`",
        ));
    }
}

pub fn deployment(d: &Deployment, old: Option<&Deployment>) -> Vec<FieldError> {
    let spec = &d.spec;
    let mut causes = Vec::new();
    non_negative(spec.replicas, "spec.replicas", &mut causes);
    selector_and_template(spec.selector.as_ref(), &spec.template.metadata.labels, "deployment", &mut causes);
    causes.extend(validate_labels(&spec.template.metadata.labels, "spec.template.metadata.labels"));
    causes.extend(template_spec(&spec.template.spec, "spec.template.spec"));
    strategy(d, &mut causes);
    non_negative(spec.revision_history_limit, "spec.revisionHistoryLimit", &mut causes);
    non_negative(spec.min_ready_seconds, "spec.minReadySeconds", &mut causes);
    if let (Some(deadline), min_ready) = (spec.progress_deadline_seconds, spec.min_ready_seconds.unwrap_or(0))
        && deadline <= min_ready
    {
        causes.push(FieldError::invalid(
            "spec.progressDeadlineSeconds",
            deadline.to_string(),
            "must be greater than minReadySeconds",
        ));
    }
    if let Some(old) = old {
        selector_immutable(spec.selector.as_ref(), old.spec.selector.as_ref(), &mut causes);
    }
    causes
}

pub(crate) fn selector_immutable(
    new: Option<&LabelSelector>,
    old: Option<&LabelSelector>,
    causes: &mut Vec<FieldError>,
) {
    if new != old {
        let shown = new.map_or("nil".to_string(), |s| s.format());
        causes.push(FieldError::invalid("spec.selector", shown, "field is immutable"));
    }
}

fn strategy(d: &Deployment, causes: &mut Vec<FieldError>) {
    let Some(strategy) = &d.spec.strategy else { return };
    let type_ = strategy.type_.as_deref().unwrap_or("RollingUpdate");
    if !matches!(type_, "Recreate" | "RollingUpdate") {
        causes.push(FieldError::not_supported("spec.strategy.type", type_, &["Recreate", "RollingUpdate"]));
        return;
    }
    let Some(rolling) = &strategy.rolling_update else { return };
    if type_ == "Recreate" {
        causes.push(FieldError::forbidden(
            "spec.strategy.rollingUpdate",
            "may not be specified when strategy `type` is 'Recreate'",
        ));
        return;
    }
    let field = |name: &str| format!("spec.strategy.rollingUpdate.{name}");
    let mut resolved = [0i64; 2];
    for (i, (name, value)) in
        [("maxUnavailable", &rolling.max_unavailable), ("maxSurge", &rolling.max_surge)].into_iter().enumerate()
    {
        let Some(value) = value else { continue };
        match value {
            crate::api::intstr::IntOrString::Int(n) => {
                resolved[i] = i64::from(*n);
                if *n < 0 {
                    causes.push(FieldError::invalid(field(name), n.to_string(), "must be greater than or equal to 0"));
                }
            }
            crate::api::intstr::IntOrString::String(s) => match s.strip_suffix('%').and_then(|p| p.parse::<i64>().ok()) {
                Some(p) => {
                    resolved[i] = p;
                    if name == "maxUnavailable" && p > 100 {
                        causes.push(FieldError::invalid(field(name), go_quote(s), "must not be greater than 100%"));
                    }
                }
                None => causes.push(FieldError::invalid(
                    field(name),
                    go_quote(s),
                    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
                )),
            },
        }
    }
    if resolved == [0, 0] && rolling.max_unavailable.is_some() && rolling.max_surge.is_some() {
        causes.push(FieldError::invalid(field("maxUnavailable"), "0", "may not be 0 when `maxSurge` is 0"));
    }
}

pub fn replica_set(rs: &ReplicaSet, old: Option<&ReplicaSet>) -> Vec<FieldError> {
    let spec = &rs.spec;
    let mut causes = Vec::new();
    non_negative(spec.replicas, "spec.replicas", &mut causes);
    non_negative(spec.min_ready_seconds, "spec.minReadySeconds", &mut causes);
    selector_and_template(spec.selector.as_ref(), &spec.template.metadata.labels, "replicaset", &mut causes);
    causes.extend(template_spec(&spec.template.spec, "spec.template.spec"));
    if let Some(old) = old {
        selector_immutable(spec.selector.as_ref(), old.spec.selector.as_ref(), &mut causes);
    }
    causes
}

/// A pod template inside a controller: pod spec rules plus restartPolicy Always.
pub(crate) fn template_spec(spec: &PodSpec, path: &str) -> Vec<FieldError> {
    let mut causes = pod_spec(spec, path);
    if let Some(policy) = spec.restart_policy.as_deref().filter(|p| *p != "Always") {
        causes.push(FieldError::not_supported(format!("{path}.restartPolicy"), policy, &["Always"]));
    }
    causes
}

pub fn pod(pod: &Pod, old: Option<&Pod>) -> Vec<FieldError> {
    let mut causes = pod_spec(&pod.spec, "spec");
    if let Some(old) = old {
        causes.extend(pod_update(pod, old));
    }
    causes
}

/// ValidatePodUpdate: only images (and a few scheduling fields) may change in place.
fn pod_update(pod: &Pod, old: &Pod) -> Vec<FieldError> {
    let mut new_spec = pod.spec.clone();
    let mut old_spec = old.spec.clone();
    let strip_images = |spec: &mut PodSpec| {
        spec.containers.make_mut().iter_mut().for_each(|c| c.image = None);
        spec.init_containers.make_mut().iter_mut().for_each(|c| c.image = None);
        spec.active_deadline_seconds = None;
        spec.tolerations = Default::default();
    };
    strip_images(&mut new_spec);
    strip_images(&mut old_spec);
    // Ephemeral containers are only ever added (upstream through their own subresource).
    if pod.spec.ephemeral_containers.starts_with(&old.spec.ephemeral_containers) {
        new_spec.ephemeral_containers = old_spec.ephemeral_containers.clone();
    }
    // A scheduler's binding sets nodeName once; afterwards it is fixed.
    if old_spec.node_name.is_none() {
        new_spec.node_name = None;
    }
    if new_spec == old_spec {
        return Vec::new();
    }
    vec![FieldError::forbidden(
        "spec",
        "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
    )]
}

pub fn pod_spec(spec: &PodSpec, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    let volume_names: BTreeSet<&str> = spec.volumes.iter().map(|v| v.name.as_str()).collect();
    for (i, volume) in spec.volumes.iter().enumerate() {
        if volume.source_count() > 1 {
            causes
                .push(FieldError::forbidden(format!("{path}.volumes[{i}]"), "may not specify more than 1 volume type"));
        }
    }
    if spec.containers.is_empty() {
        causes.push(FieldError::required(format!("{path}.containers"), ""));
    }
    let mut seen = BTreeSet::new();
    for (list, field) in [(&spec.init_containers, "initContainers"), (&spec.containers, "containers")] {
        for (i, c) in list.iter().enumerate() {
            let at = format!("{path}.{field}[{i}]");
            if !c.name.is_empty() && !seen.insert(c.name.as_str()) {
                causes.push(FieldError::duplicate(format!("{at}.name"), &c.name));
            }
            causes.extend(container(c, &at, &volume_names, field == "initContainers"));
        }
    }
    if let Some(policy) = spec.restart_policy.as_deref()
        && !matches!(policy, "Always" | "OnFailure" | "Never")
    {
        causes.push(FieldError::not_supported(
            format!("{path}.restartPolicy"),
            policy,
            &["Always", "OnFailure", "Never"],
        ));
    }
    causes.extend(resource_claims(spec, path));
    if let Some(grace) = spec.termination_grace_period_seconds.filter(|g| *g < 0) {
        causes.push(FieldError::invalid(
            format!("{path}.terminationGracePeriodSeconds"),
            grace.to_string(),
            "must be greater than or equal to 0",
        ));
    }
    causes
}

/// `validatePodResourceClaims` and each container's `resources.claims`: every entry names one
/// claim or one template, and a container uses only entries the pod has, each once.
fn resource_claims(spec: &PodSpec, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for (i, claim) in spec.resource_claims.iter().enumerate() {
        let value = format!(
            "{{\"Name\":{},\"ResourceClaimName\":{},\"ResourceClaimTemplateName\":{}}}",
            go_quote(&claim.name),
            claim.resource_claim_name.as_deref().map_or("null".into(), go_quote),
            claim.resource_claim_template_name.as_deref().map_or("null".into(), go_quote)
        );
        let at = format!("{path}.resourceClaims[{i}]");
        match (&claim.resource_claim_name, &claim.resource_claim_template_name) {
            (None, None) => causes.push(FieldError::invalid(
                &at,
                value,
                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
            )),
            (Some(_), Some(_)) => causes.push(FieldError::invalid(
                &at,
                value,
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
            )),
            _ => {}
        }
    }
    let mut names: Vec<&str> = spec.resource_claims.iter().map(|c| c.name.as_str()).collect();
    names.sort();
    for (list, field) in [(&spec.init_containers, "initContainers"), (&spec.containers, "containers")] {
        for (i, c) in list.iter().enumerate() {
            let mut seen = BTreeSet::new();
            for (j, claim) in c.resources.claims.iter().enumerate() {
                let at = format!("{path}.{field}[{i}].resources.claims[{j}]");
                if claim.name.is_empty() {
                    causes.push(FieldError::required(&at, ""));
                } else if !names.contains(&claim.name.as_str()) {
                    let detail = match names.is_empty() {
                        true => "must be one of the names in pod.spec.resourceClaims which is empty".to_string(),
                        false => format!("must be one of the names in pod.spec.resourceClaims: {}", names.join(", ")),
                    };
                    let mut error = FieldError::not_found(&at, &claim.name);
                    error.detail = detail;
                    causes.push(error);
                } else if !seen.insert(format!("{}/{}", claim.name, claim.request.as_deref().unwrap_or_default())) {
                    causes.push(FieldError::duplicate(&at, &claim.name));
                }
            }
        }
    }
    causes
}

fn container(c: &Container, at: &str, volumes: &BTreeSet<&str>, init: bool) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if c.name.is_empty() {
        causes.push(FieldError::required(format!("{at}.name"), ""));
    } else if !is_dns1123_label(&c.name) {
        causes.push(FieldError::invalid(format!("{at}.name"), go_quote(&c.name), DNS1123_LABEL_MSG));
    }
    if c.image.as_deref().is_none_or(|i| i.trim().is_empty()) {
        causes.push(FieldError::required(format!("{at}.image"), ""));
    }
    for (i, port) in c.ports.iter().enumerate() {
        if !(1..=65535).contains(&port.container_port) {
            causes.push(FieldError::invalid(
                format!("{at}.ports[{i}].containerPort"),
                port.container_port.to_string(),
                "must be between 1 and 65535, inclusive",
            ));
        }
    }
    for (i, mount) in c.volume_mounts.iter().enumerate() {
        if !volumes.contains(mount.name.as_str()) {
            causes.push(FieldError::not_found(format!("{at}.volumeMounts[{i}].name"), &mount.name));
        }
    }
    probes(c, at, init, &mut causes);
    resources(c, at, &mut causes);
    causes
}

fn probes(c: &Container, at: &str, init: bool, causes: &mut Vec<FieldError>) {
    let sidecar = c.restart_policy.as_deref() == Some("Always");
    for (name, probe, must_succeed_once) in [
        ("livenessProbe", &c.liveness_probe, true),
        ("readinessProbe", &c.readiness_probe, false),
        ("startupProbe", &c.startup_probe, true),
    ] {
        let Some(probe) = probe else { continue };
        let field = format!("{at}.{name}");
        if init && !sidecar {
            causes
                .push(FieldError::forbidden(field, "may not be set for init containers without restartPolicy=Always"));
            continue;
        }
        match probe.handler_count() {
            0 => causes.push(FieldError::required(field.clone(), "must specify a handler type")),
            1 => {}
            _ => causes.push(FieldError::forbidden(field.clone(), "may not specify more than 1 handler type")),
        }
        if must_succeed_once && probe.success_threshold.is_some_and(|s| s != 1) {
            let value = probe.success_threshold.unwrap_or(1).to_string();
            causes.push(FieldError::invalid(format!("{field}.successThreshold"), value, "must be 1"));
        }
        for (sub, value) in [
            ("initialDelaySeconds", probe.initial_delay_seconds),
            ("timeoutSeconds", probe.timeout_seconds),
            ("periodSeconds", probe.period_seconds),
            ("successThreshold", probe.success_threshold),
            ("failureThreshold", probe.failure_threshold),
        ] {
            non_negative(value, &format!("{field}.{sub}"), causes);
        }
    }
}

/// Upstream `IsExtendedResourceName` (a qualified name outside `kubernetes.io/`, not a
/// hugepage or a quota's `requests.` name): such resources come in whole units and cannot be
/// overcommitted, so their requests must equal their limits (`IsOvercommitAllowed`).
fn is_extended_resource(name: &str) -> bool {
    name.contains('/') && !name.contains("kubernetes.io/") && !name.starts_with("requests.")
}

/// Upstream `ValidateResourceQuantityValue` for an integer resource.
fn whole_units(name: &str, quantity: &crate::api::quantity::Quantity, field: String, causes: &mut Vec<FieldError>) {
    if is_extended_resource(name) && quantity.milli_value() % 1000 != 0 {
        causes.push(FieldError::invalid(field, quantity.go_dump(), "must be an integer"));
    }
}

/// Requests may not exceed limits; extended resources (GPUs) in whole units, with requests
/// equal to limits (ValidateResourceRequirements).
fn resources(c: &Container, at: &str, causes: &mut Vec<FieldError>) {
    for (name, limit) in &c.resources.limits {
        whole_units(name, limit, format!("{at}.resources.limits[{name}]"), causes);
    }
    for (name, request) in &c.resources.requests {
        whole_units(name, request, format!("{at}.resources.requests[{name}]"), causes);
        let Some(limit) = c.resources.limits.get(name) else {
            if is_extended_resource(name) {
                causes.push(FieldError::required(
                    format!("{at}.resources.limits"),
                    "Limit must be set for non overcommitable resources",
                ));
            }
            continue;
        };
        if is_extended_resource(name) && request.cmp_value(limit) != std::cmp::Ordering::Equal {
            causes.push(FieldError::invalid(
                format!("{at}.resources.requests"),
                go_quote(&request.to_string()),
                format!("must be equal to {name} limit of {limit}"),
            ));
        } else if request > limit {
            causes.push(FieldError::invalid(
                format!("{at}.resources.requests"),
                go_quote(&request.to_string()),
                format!("must be less than or equal to {name} limit of {limit}"),
            ));
        }
    }
}

pub fn service(svc: &Service, old: Option<&Service>) -> Vec<FieldError> {
    let spec = &svc.spec;
    let mut causes = Vec::new();
    let type_ = spec.type_.as_deref().unwrap_or("ClusterIP");
    let supported = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
    if !supported.contains(&type_) {
        causes.push(FieldError::not_supported("spec.type", type_, &supported));
    }
    let headless = spec.cluster_ip.as_deref() == Some("None");
    if spec.ports.is_empty() && type_ != "ExternalName" && !headless {
        causes.push(FieldError::required("spec.ports", ""));
    }
    for (i, port) in spec.ports.iter().enumerate() {
        if !(1..=65535).contains(&port.port) {
            causes.push(FieldError::invalid(
                format!("spec.ports[{i}].port"),
                port.port.to_string(),
                "must be between 1 and 65535, inclusive",
            ));
        }
        if spec.ports.len() > 1 && port.name.as_deref().unwrap_or("").is_empty() {
            causes.push(FieldError::required(format!("spec.ports[{i}].name"), ""));
        }
    }
    if let Some(old) = old
        && old.spec.cluster_ip.is_some()
        && spec.cluster_ip.is_some()
        && old.spec.cluster_ip != spec.cluster_ip
    {
        let value = go_quote(spec.cluster_ip.as_deref().unwrap_or(""));
        causes.push(FieldError::invalid("spec.clusterIPs[0]", value, "may not change once set"));
    }
    causes
}
