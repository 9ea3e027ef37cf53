//! Which requests a policy and its bindings apply to (apiserver
//! pkg/admission/plugin/policy/matching/matching.go and webhook/predicates): resource rules
//! with their operations, groups, versions, resources (`*`, `pods/status`, `*/*`), scope and
//! names, the exclusions, and the namespace and object label selectors.

use super::super::{Operation, Request};
use crate::api::admission_policy::{MatchResources, NamedRuleWithOperations};
use crate::api::label_selector::LabelSelector;
use crate::api::string_map::StringMap;
use crate::api::{Kind, Namespace};
use crate::store::Store;

/// What matching reads of a request besides the request itself.
pub struct Subject<'a> {
    pub request: &'a Request<'a>,
    pub labels: &'a StringMap,
    pub old_labels: Option<&'a StringMap>,
}

/// `admission.Operation` as rules name it.
pub fn operation_name(operation: Operation) -> &'static str {
    match operation {
        Operation::Create => "CREATE",
        Operation::Update => "UPDATE",
        Operation::Delete => "DELETE",
    }
}

/// `Matcher.Matches`: `constraints` of a policy must name the resource; a binding's (`narrowing`)
/// may leave the rules out and match every resource its policy does.
pub fn matches(store: &Store, subject: &Subject<'_>, m: &MatchResources, narrowing: bool) -> bool {
    if !namespace_matches(store, subject, m.namespace_selector.as_ref()) {
        return false;
    }
    if !object_matches(subject, m.object_selector.as_ref()) {
        return false;
    }
    if m.exclude_resource_rules.iter().any(|r| rule_matches(subject.request, r)) {
        return false;
    }
    (narrowing && m.resource_rules.is_empty()) || m.resource_rules.iter().any(|r| rule_matches(subject.request, r))
}

/// A cluster-scoped object other than a Namespace is never excluded by a namespace selector; a
/// Namespace is matched by its own labels.
fn namespace_matches(store: &Store, subject: &Subject<'_>, selector: Option<&LabelSelector>) -> bool {
    let Some(selector) = selector else { return true };
    let request = subject.request;
    if request.kind == Kind::Namespace {
        return selector.matches(subject.labels);
    }
    if !request.kind.info().namespaced {
        return true;
    }
    let empty = StringMap::default();
    let labels = store.try_get::<Namespace>("", request.namespace).map_or(&empty, |ns| &ns.metadata.labels);
    selector.matches(labels)
}

/// The object (or, on update, the old object) has the selected labels.
fn object_matches(subject: &Subject<'_>, selector: Option<&LabelSelector>) -> bool {
    let Some(selector) = selector else { return true };
    selector.matches(subject.labels) || subject.old_labels.is_some_and(|l| selector.matches(l))
}

fn listed(list: &[String], value: &str) -> bool {
    list.iter().any(|v| v == "*" || v == value)
}

/// One `NamedRuleWithOperations` against the request.
pub fn rule_matches(request: &Request<'_>, rule: &NamedRuleWithOperations) -> bool {
    let info = request.kind.info();
    let scope_ok = match rule.scope.as_deref().unwrap_or("*") {
        "Cluster" => !info.namespaced,
        "Namespaced" => info.namespaced,
        _ => true,
    };
    let names_ok = rule.resource_names.is_empty() || rule.resource_names.iter().any(|n| n == request.name);
    scope_ok
        && names_ok
        && listed(&rule.operations, operation_name(request.operation))
        && listed(&rule.api_groups, info.group)
        && listed(&rule.api_versions, info.version)
        && rule.resources.iter().any(|r| resource_matches(r, info.plural, request.subresource))
}

/// `*` is every resource, no subresource; `*/*` everything; `pods/*` pods and their
/// subresources; `*/status` every status.
fn resource_matches(pattern: &str, resource: &str, subresource: &str) -> bool {
    let (res, sub) = pattern.split_once('/').unwrap_or((pattern, ""));
    let res_ok = res == "*" || res == resource;
    let sub_ok = if pattern.contains('/') { sub == "*" || sub == subresource } else { subresource.is_empty() };
    res_ok && sub_ok
}

#[cfg(test)]
mod tests {
    use super::resource_matches;

    #[test]
    fn resource_patterns_read_like_upstreams() {
        for (pattern, resource, sub, want) in [
            ("deployments", "deployments", "", true),
            ("deployments", "deployments", "status", false),
            ("*", "pods", "", true),
            ("*", "pods", "status", false),
            ("*/*", "pods", "status", true),
            ("pods/*", "pods", "status", true),
            ("pods/*", "pods", "", true),
            ("*/status", "deployments", "status", true),
            ("pods/status", "pods", "status", true),
            ("pods", "services", "", false),
        ] {
            assert_eq!(resource_matches(pattern, resource, sub), want, "{pattern} on {resource}/{sub}");
        }
    }
}
