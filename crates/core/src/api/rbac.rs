//! The RBAC API (rbac.authorization.k8s.io/v1): Roles and ClusterRoles hold rules, RoleBindings
//! and ClusterRoleBindings grant a role to subjects. Mirrors staging/src/k8s.io/api/rbac/v1/types.go.

use super::label_selector::LabelSelector;
use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The API group every RBAC kind belongs to (`rbac.GroupName`).
pub const GROUP: &str = "rbac.authorization.k8s.io";

/// One grant: `verbs` on `resources` (optionally only `resourceNames`) in `apiGroups`, or on
/// non-resource URLs. `*` matches anything in each list.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PolicyRule {
    #[serde(default)]
    pub verbs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    #[serde(default, rename = "nonResourceURLs", skip_serializing_if = "Vec::is_empty")]
    pub non_resource_urls: Vec<String>,
}

/// A namespaced set of rules.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Role {
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `null` when absent, as Go writes a nil slice without `omitempty`.
    #[serde(default)]
    pub rules: Option<Vec<PolicyRule>>,
}

/// A cluster-wide set of rules; with an `aggregationRule` its rules are the union of the
/// ClusterRoles the selectors match, filled in by the aggregation controller.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterRole {
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `null` when absent, as Go writes a nil slice without `omitempty`.
    #[serialize_always]
    pub rules: Option<Vec<PolicyRule>>,
    pub aggregation_rule: Option<AggregationRule>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AggregationRule {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cluster_role_selectors: Vec<LabelSelector>,
}

/// Whom a binding grants to: a `User`, `Group` or `ServiceAccount` (with its namespace).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Subject {
    pub kind: String,
    pub api_group: Option<String>,
    pub name: String,
    pub namespace: Option<String>,
}

/// The role a binding grants: a `Role` in the binding's namespace or a `ClusterRole`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoleRef {
    #[serde(default)]
    pub api_group: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
}

/// Grants a Role, or a ClusterRole's rules within its own namespace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoleBinding {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<Subject>,
    #[serde(default)]
    pub role_ref: RoleRef,
}

/// Grants a ClusterRole in every namespace and at the cluster scope.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterRoleBinding {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<Subject>,
    #[serde(default)]
    pub role_ref: RoleRef,
}

impl PolicyRule {
    /// A resource rule (`rbacv1helpers.NewRule(verbs...).Groups(...).Resources(...)`).
    pub fn new(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
        let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        PolicyRule { verbs: owned(verbs), api_groups: owned(groups), resources: owned(resources), ..Default::default() }
    }

    /// A non-resource rule (`NewRule(verbs...).URLs(...)`).
    pub fn urls(verbs: &[&str], urls: &[&str]) -> PolicyRule {
        let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        PolicyRule { verbs: owned(verbs), non_resource_urls: owned(urls), ..Default::default() }
    }

    /// Narrows the rule to named objects.
    pub fn names(mut self, names: &[&str]) -> PolicyRule {
        self.resource_names = names.iter().map(|s| s.to_string()).collect();
        self
    }
}

impl Subject {
    pub fn user(name: &str) -> Subject {
        Subject { kind: "User".into(), api_group: Some(GROUP.into()), name: name.into(), namespace: None }
    }

    pub fn group(name: &str) -> Subject {
        Subject { kind: "Group".into(), api_group: Some(GROUP.into()), name: name.into(), namespace: None }
    }

    pub fn service_account(namespace: &str, name: &str) -> Subject {
        Subject { kind: "ServiceAccount".into(), api_group: None, name: name.into(), namespace: Some(namespace.into()) }
    }
}

impl RoleRef {
    pub fn cluster_role(name: &str) -> RoleRef {
        RoleRef { api_group: GROUP.into(), kind: "ClusterRole".into(), name: name.into() }
    }
}
