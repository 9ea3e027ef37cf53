//! `PodSecurity` (plugin/pkg/admission/security/podsecurity, on k8s.io/pod-security-admission's
//! admission/admission.go): each namespace's `pod-security.kubernetes.io/<mode>` labels pick a
//! Pod Security Standard (privileged, baseline, restricted) and version per mode. `enforce`
//! refuses a pod that breaks it; `warn` admits it with a `Warning`; workloads with a pod
//! template are only warned about (their pods meet enforce when the controller makes them);
//! labelling a namespace warns about the pods already in it. kube-apiserver's default
//! configuration applies: every mode `privileged:latest`, and no exemptions. `audit` is read
//! but, the lab keeping no audit log, writes nothing.

mod baseline;
mod checks;
mod policy;
mod restricted;

use super::{Operation, Plugin, Request};
use crate::api::meta::ObjectMeta;
use crate::api::pod::PodSpec;
use crate::api::{Namespace, ObjectMut, Pod};
use crate::error::ApiError;
use crate::store::Store;
use policy::{Level, LevelVersion, Policy, policy_to_evaluate};
use std::collections::BTreeMap;

pub const PLUGIN: Plugin = Plugin { name: "PodSecurity", admit: None, validate: Some(validate) };

fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    if request.operation == Operation::Delete {
        return Ok(());
    }
    match object {
        ObjectMut::Namespace(namespace) => validate_namespace(store, request, namespace),
        ObjectMut::Pod(pod) => validate_pod(store, request, pod),
        ObjectMut::Deployment(d) => validate_template(store, request, &d.spec.template.metadata, &d.spec.template.spec),
        ObjectMut::ReplicaSet(rs) => {
            validate_template(store, request, &rs.spec.template.metadata, &rs.spec.template.spec)
        }
        _ => Ok(()),
    }
}

/// Labels that cannot be read refuse the namespace (on an update, unless they were already
/// wrong the same way); a stricter enforce level warns about the pods it would refuse.
fn validate_namespace(store: &Store, request: &Request<'_>, namespace: &Namespace) -> Result<(), ApiError> {
    if !request.subresource.is_empty() {
        return Ok(());
    }
    let (new, errors) = policy_to_evaluate(&namespace.metadata.labels);
    let invalid = || ApiError::invalid("Namespace", &namespace.metadata.name, errors.clone());
    if request.operation == Operation::Create {
        return if errors.is_empty() { Ok(()) } else { Err(invalid()) };
    }
    let old_labels = store.try_get::<Namespace>("", request.name).map(|ns| ns.metadata.labels.clone());
    let (old, old_errors) = policy_to_evaluate(&old_labels.unwrap_or_default());
    let texts = |errors: &[crate::error::FieldError]| errors.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    if !errors.is_empty() && (old_errors.is_empty() || texts(&errors) != texts(&old_errors)) {
        return Err(invalid());
    }
    let relaxed = new.enforce.version == old.enforce.version && new.enforce.level <= old.enforce.level;
    if new.enforce == old.enforce || new.enforce.level == Level::Privileged || relaxed {
        return Ok(());
    }
    warn(store, request, existing_pods_warnings(store, &namespace.metadata.name, new.enforce));
    Ok(())
}

/// `EvaluatePodsInNamespace`: the pods that break the new enforce level, grouped by what they
/// break, each group named by its lexically first pod.
fn existing_pods_warnings(store: &Store, namespace: &str, enforce: LevelVersion) -> Vec<String> {
    let mut groups: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for pod in store.list::<Pod>(Some(namespace)) {
        let violations = checks::evaluate(enforce, &pod.metadata, &pod.spec);
        if violations.is_empty() {
            continue;
        }
        let entry = groups.entry(checks::forbidden_reason(&violations)).or_insert((pod.metadata.name.clone(), 0));
        if pod.metadata.name < entry.0 {
            entry.0 = pod.metadata.name.clone();
        }
        entry.1 += 1;
    }
    if groups.is_empty() {
        return Vec::new();
    }
    let mut pods: Vec<String> = groups
        .into_iter()
        .map(|(reason, (first, count))| match count {
            1 => format!("{first}: {reason}"),
            2 => format!("{first} (and 1 other pod): {reason}"),
            _ => format!("{first} (and {} other pods): {reason}", count - 1),
        })
        .collect();
    pods.sort();
    let head =
        format!("existing pods in namespace {namespace:?} violate the new PodSecurity enforce level \"{enforce}\"");
    std::iter::once(head).chain(pods).collect()
}

/// Subresources that cannot change what a pod runs as.
const IGNORED_POD_SUBRESOURCES: &[&str] =
    &["exec", "attach", "binding", "eviction", "log", "portforward", "proxy", "status"];

fn validate_pod(store: &Store, request: &Request<'_>, pod: &Pod) -> Result<(), ApiError> {
    if IGNORED_POD_SUBRESOURCES.contains(&request.subresource) {
        return Ok(());
    }
    let (policy, errors) = namespace_policy(store, request.namespace);
    if errors == 0 && policy.fully_privileged() {
        return Ok(());
    }
    if request.operation == Operation::Update
        && let Some(old) = store.try_get::<Pod>(request.namespace, request.name)
        && !significant_update(&pod.spec, &old.spec)
    {
        return Ok(());
    }
    evaluate(store, request, policy, (&pod.metadata, &pod.spec), true)
}

/// A Deployment or ReplicaSet: warned about, never refused.
fn validate_template(store: &Store, request: &Request<'_>, meta: &ObjectMeta, spec: &PodSpec) -> Result<(), ApiError> {
    if !request.subresource.is_empty() {
        return Ok(());
    }
    let (policy, errors) = namespace_policy(store, request.namespace);
    if errors == 0 && policy.warn.level == Level::Privileged && policy.audit.level == Level::Privileged {
        return Ok(());
    }
    evaluate(store, request, policy, (meta, spec), false)
}

fn namespace_policy(store: &Store, namespace: &str) -> (Policy, usize) {
    let labels = store.try_get::<Namespace>("", namespace).map(|ns| ns.metadata.labels.clone()).unwrap_or_default();
    let (policy, errors) = policy_to_evaluate(&labels);
    (policy, errors.len())
}

/// `isSignificantPodUpdate`: an update is checked again only if it changes an image or the
/// number of containers, or adds an ephemeral container.
fn significant_update(new: &PodSpec, old: &PodSpec) -> bool {
    let images = |spec: &PodSpec| -> Vec<Option<String>> {
        spec.init_containers.iter().chain(spec.containers.iter()).map(|c| c.image.clone()).collect()
    };
    let changed_ephemeral = new
        .ephemeral_containers
        .iter()
        .any(|e| old.ephemeral_containers.iter().find(|o| o.name == e.name).is_none_or(|o| o.image != e.image));
    new.containers.len() != old.containers.len()
        || new.init_containers.len() != old.init_containers.len()
        || images(new) != images(old)
        || changed_ephemeral
}

/// `EvaluatePod`: refuse on enforce (pods only), else warn on warn.
fn evaluate(
    store: &Store,
    request: &Request<'_>,
    policy: Policy,
    (meta, spec): (&ObjectMeta, &PodSpec),
    enforce: bool,
) -> Result<(), ApiError> {
    if enforce {
        let violations = checks::evaluate(policy.enforce, meta, spec);
        if !violations.is_empty() {
            let info = request.kind.info();
            let message = format!(
                "{} {:?} is forbidden: violates PodSecurity \"{}\": {}",
                info.plural_qualified(),
                request.name,
                policy.enforce,
                checks::forbidden_detail(&violations)
            );
            return Err(ApiError::Forbidden { message });
        }
    }
    let violations = checks::evaluate(policy.warn, meta, spec);
    if !violations.is_empty() {
        let warning =
            format!("would violate PodSecurity \"{}\": {}", policy.warn, checks::forbidden_detail(&violations));
        warn(store, request, vec![warning]);
    }
    Ok(())
}

/// Sends warnings to the client that made the request. A controller's requests get them too
/// upstream, and it drops them: the lab does not keep them for the next request.
fn warn(store: &Store, request: &Request<'_>, warnings: Vec<String>) {
    let name = request.user.name.as_str();
    let component = ["system:serviceaccount:kube-system:", "system:node:", "system:kube-", "system:apiserver"]
        .iter()
        .any(|prefix| name.starts_with(prefix));
    if !component {
        store.warn(warnings);
    }
}

#[cfg(test)]
mod tests;
