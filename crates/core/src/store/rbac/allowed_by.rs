//! RBAC's reason for an allowed request, `RBAC: allowed by ClusterRoleBinding "x" of
//! ClusterRole "y" to Group "z"`: the first binding whose role allows it, visited in the
//! authorizer's order (cluster role bindings, then the namespace's role bindings). Found again
//! from the store only when a request's path is recorded, so the index stays lean. Mirrors
//! `authorizingVisitor` (plugin/pkg/auth/authorizer/rbac/rbac.go) and the binding describers
//! of pkg/registry/rbac/validation/rule.go.

use super::rule_matching::{ResourceRequest, rule_allows};
use crate::api::rbac::{RoleRef, Subject};
use crate::api::{ClusterRoleBinding, RoleBinding};
use crate::store::Store;
use crate::store::authorizer::Attributes;

/// `RBAC: allowed by …`, or `None` when no binding allows the request.
pub fn allowed_by(store: &Store, attributes: &Attributes<'_>) -> Option<String> {
    let request = ResourceRequest::of(attributes);
    let allows = |namespace: &str, role_ref: &RoleRef| {
        let rules = super::escalation::role_rules(store, role_ref, namespace).ok();
        rules.is_some_and(|rules| rules.iter().any(|rule| rule_allows(&request, rule)))
    };
    for binding in store.list::<ClusterRoleBinding>(None) {
        let subject = binding.subjects.iter().find(|s| applies_to(s, attributes, ""));
        if let Some(subject) = subject.filter(|_| allows("", &binding.role_ref)) {
            let role = &binding.role_ref;
            let to = describe_subject(subject, "");
            let binding = &binding.metadata.name;
            return Some(format!(
                "RBAC: allowed by ClusterRoleBinding \"{binding}\" of {} \"{}\" to {to}",
                role.kind, role.name
            ));
        }
    }
    if attributes.namespace.is_empty() {
        return None;
    }
    for binding in store.list::<RoleBinding>(Some(attributes.namespace)) {
        let namespace = binding.metadata.namespace.as_str();
        let subject = binding.subjects.iter().find(|s| applies_to(s, attributes, namespace));
        if let Some(subject) = subject.filter(|_| allows(namespace, &binding.role_ref)) {
            let role = &binding.role_ref;
            let to = describe_subject(subject, namespace);
            let binding = format!("{}/{namespace}", binding.metadata.name);
            return Some(format!(
                "RBAC: allowed by RoleBinding \"{binding}\" of {} \"{}\" to {to}",
                role.kind, role.name
            ));
        }
    }
    None
}

/// Whether a binding's subject is the user or one of its groups (`appliesToUser`).
fn applies_to(subject: &Subject, attributes: &Attributes<'_>, binding_namespace: &str) -> bool {
    let user = attributes.user;
    match subject.kind.as_str() {
        "User" => user.name == subject.name,
        "Group" => user.groups.contains(&subject.name),
        "ServiceAccount" => {
            let namespace = subject.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(binding_namespace);
            user.name == format!("system:serviceaccount:{namespace}:{}", subject.name)
        }
        _ => false,
    }
}

/// `Group "system:masters"`, `ServiceAccount "ci/default"` (`describeSubject`).
fn describe_subject(subject: &Subject, binding_namespace: &str) -> String {
    match subject.kind.as_str() {
        "ServiceAccount" => {
            let namespace = subject.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(binding_namespace);
            format!("ServiceAccount \"{}/{namespace}\"", subject.name)
        }
        kind => format!("{kind} \"{}\"", subject.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Kind;
    use crate::store::UserInfo;

    #[test]
    fn the_admin_is_allowed_by_kubeadms_binding() {
        let store = Store::new(1);
        let user = UserInfo::admin();
        let attributes =
            Attributes { user: &user, verb: "list", kind: Kind::Pod, namespace: "default", name: "", subresource: "" };
        assert_eq!(
            allowed_by(&store, &attributes).as_deref(),
            Some(
                "RBAC: allowed by ClusterRoleBinding \"kubeadm:cluster-admins\" of ClusterRole \"cluster-admin\" to Group \"kubeadm:cluster-admins\""
            )
        );
        let jane = UserInfo { name: "jane".into(), groups: vec!["system:authenticated".into()] };
        assert_eq!(allowed_by(&store, &Attributes { user: &jane, ..attributes }), None);
    }
}
