//! RBAC defaulting and validation, worded as pkg/apis/rbac/validation/validation.go and
//! defaulted as pkg/apis/rbac/v1/defaults.go (a binding's `roleRef.apiGroup`, a User or Group
//! subject's `apiGroup`).

use crate::api::rbac::{ClusterRole, ClusterRoleBinding, GROUP, PolicyRule, Role, RoleBinding, RoleRef, Subject};
use crate::error::{FieldError, go_quote};
use crate::store::validation::{NameRule, name_problems};

/// SetDefaults_RoleBinding/ClusterRoleBinding and SetDefaults_Subject.
pub fn default_binding(role_ref: &mut RoleRef, subjects: &mut [Subject]) {
    if role_ref.api_group.is_empty() {
        role_ref.api_group = GROUP.to_string();
    }
    for subject in subjects {
        if subject.api_group.is_none() && matches!(subject.kind.as_str(), "User" | "Group") {
            subject.api_group = Some(GROUP.to_string());
        }
    }
}

pub fn role(role: &Role) -> Vec<FieldError> {
    rules(role.rules.as_deref().unwrap_or_default(), true)
}

pub fn cluster_role(role: &ClusterRole) -> Vec<FieldError> {
    let mut causes = rules(role.rules.as_deref().unwrap_or_default(), false);
    if let Some(aggregation) = &role.aggregation_rule {
        if aggregation.cluster_role_selectors.is_empty() {
            let detail = "at least one clusterRoleSelector required if aggregationRule is non-nil";
            causes.push(FieldError::required("aggregationRule.clusterRoleSelectors", detail));
        }
        for (i, selector) in aggregation.cluster_role_selectors.iter().enumerate() {
            let path = format!("aggregationRule.clusterRoleSelectors[{i}]");
            for (field, detail) in selector.validate(&path) {
                causes.push(FieldError::preformatted(field, detail));
            }
        }
    }
    causes
}

pub fn role_binding(binding: &RoleBinding, old: Option<&RoleBinding>) -> Vec<FieldError> {
    let mut causes = binding_causes(&binding.role_ref, &binding.subjects, true);
    causes.extend(immutable_role_ref(&binding.role_ref, old.map(|o| &o.role_ref)));
    causes
}

pub fn cluster_role_binding(binding: &ClusterRoleBinding, old: Option<&ClusterRoleBinding>) -> Vec<FieldError> {
    let mut causes = binding_causes(&binding.role_ref, &binding.subjects, false);
    causes.extend(immutable_role_ref(&binding.role_ref, old.map(|o| &o.role_ref)));
    causes
}

/// ValidatePolicyRule for each rule.
fn rules(rules: &[PolicyRule], namespaced: bool) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let path = |child: &str| format!("rules[{i}].{child}");
        if rule.verbs.is_empty() {
            causes.push(FieldError::required(path("verbs"), "verbs must contain at least one value"));
        }
        if !rule.non_resource_urls.is_empty() {
            let urls = go_strings(&rule.non_resource_urls);
            if namespaced {
                let detail = "namespaced rules cannot apply to non-resource URLs";
                causes.push(FieldError::invalid(path("nonResourceURLs"), urls.clone(), detail));
            }
            if !rule.api_groups.is_empty() || !rule.resources.is_empty() || !rule.resource_names.is_empty() {
                let detail = "rules cannot apply to both regular resources and non-resource URLs";
                causes.push(FieldError::invalid(path("nonResourceURLs"), urls, detail));
            }
            continue;
        }
        if rule.api_groups.is_empty() {
            causes.push(FieldError::required(path("apiGroups"), "resource rules must supply at least one api group"));
        }
        if rule.resources.is_empty() {
            causes.push(FieldError::required(path("resources"), "resource rules must supply at least one resource"));
        }
    }
    causes
}

/// A roleRef and its subjects (ValidateRoleBinding / ValidateClusterRoleBinding).
fn binding_causes(role_ref: &RoleRef, subjects: &[Subject], namespaced: bool) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if role_ref.api_group != GROUP {
        causes.push(FieldError::not_supported("roleRef.apiGroup", &role_ref.api_group, &[GROUP]));
    }
    let kinds: &[&str] = if namespaced { &["Role", "ClusterRole"] } else { &["ClusterRole"] };
    if !kinds.contains(&role_ref.kind.as_str()) {
        causes.push(FieldError::not_supported("roleRef.kind", &role_ref.kind, kinds));
    }
    if role_ref.name.is_empty() {
        causes.push(FieldError::required("roleRef.name", ""));
    }
    for problem in name_problems(&role_ref.name, NameRule::PathSegment) {
        causes.push(FieldError::invalid("roleRef.name", go_quote(&role_ref.name), problem));
    }
    for (i, subject) in subjects.iter().enumerate() {
        causes.extend(subject_causes(subject, namespaced, &format!("subjects[{i}]")));
    }
    causes
}

/// ValidateRoleBindingSubject.
fn subject_causes(subject: &Subject, namespaced: bool, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if subject.name.is_empty() {
        causes.push(FieldError::required(format!("{path}.name"), ""));
    }
    let api_group = subject.api_group.as_deref().unwrap_or("");
    match subject.kind.as_str() {
        "ServiceAccount" => {
            for problem in
                name_problems(&subject.name, NameRule::Subdomain).into_iter().filter(|_| !subject.name.is_empty())
            {
                causes.push(FieldError::invalid(format!("{path}.name"), go_quote(&subject.name), problem));
            }
            if !api_group.is_empty() {
                causes.push(FieldError::not_supported(format!("{path}.apiGroup"), api_group, &[""]));
            }
            if !namespaced && subject.namespace.as_deref().unwrap_or("").is_empty() {
                causes.push(FieldError::required(format!("{path}.namespace"), ""));
            }
        }
        "User" | "Group" if api_group != GROUP => {
            causes.push(FieldError::not_supported(format!("{path}.apiGroup"), api_group, &[GROUP]));
        }
        "User" | "Group" => {}
        kind => {
            causes.push(FieldError::not_supported(format!("{path}.kind"), kind, &["ServiceAccount", "User", "Group"]))
        }
    }
    causes
}

/// ValidateRoleBindingUpdate: a binding's role never changes (delete and recreate instead).
fn immutable_role_ref(new: &RoleRef, old: Option<&RoleRef>) -> Option<FieldError> {
    let old = old.filter(|old| *old != new)?;
    // The old value as field.Error renders a struct: json.Marshal of the internal type (no tags).
    let value = serde_json::json!({"APIGroup": old.api_group, "Kind": old.kind, "Name": old.name}).to_string();
    Some(FieldError::invalid("roleRef", value, "cannot change roleRef"))
}

/// A `[]string` as a field error renders it (json.Marshal).
fn go_strings(values: &[String]) -> String {
    serde_json::to_string(values).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_needs_verbs_groups_and_resources() {
        let rule = PolicyRule { verbs: vec![], resources: vec!["pods".into()], ..Default::default() };
        let role = Role { rules: Some(vec![rule]), ..Default::default() };
        let causes: Vec<String> = super::role(&role).iter().map(|c| format!("{}: {}", c.field, c.body())).collect();
        assert_eq!(
            causes,
            [
                "rules[0].verbs: Required value: verbs must contain at least one value",
                "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
            ]
        );
    }

    #[test]
    fn a_binding_names_a_known_role_kind_and_keeps_it() {
        let mut binding = RoleBinding {
            role_ref: RoleRef { api_group: String::new(), kind: "Pod".into(), name: "x".into() },
            subjects: vec![Subject { kind: "User".into(), name: "jane".into(), ..Default::default() }],
            ..Default::default()
        };
        default_binding(&mut binding.role_ref, &mut binding.subjects);
        let causes: Vec<String> = role_binding(&binding, None).iter().map(|c| c.body()).collect();
        assert_eq!(causes, ["Unsupported value: \"Pod\": supported values: \"Role\", \"ClusterRole\""]);
        let old = RoleBinding { role_ref: RoleRef::cluster_role("view"), ..Default::default() };
        binding.role_ref = RoleRef::cluster_role("edit");
        let causes: Vec<String> = role_binding(&binding, Some(&old)).iter().map(|c| c.body()).collect();
        assert_eq!(
            causes,
            [
                r#"Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"view"}: cannot change roleRef"#
            ]
        );
    }
}
