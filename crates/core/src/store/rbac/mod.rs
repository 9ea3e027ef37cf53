//! The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go): a request is allowed when a
//! rule of some role bound to the user, or to one of its groups, allows it. The bindings are
//! resolved into an index by subject when an RBAC object changes, so a request looks up its
//! user's and groups' grants instead of scanning every binding.

pub mod aggregation;
pub mod allowed_by;
pub mod bootstrap_policy;
pub mod escalation;
pub mod review;
pub mod rule_matching;
#[cfg(test)]
mod tests;

use super::authorizer::{Attributes, Decision};
use super::user::UserInfo;
use crate::api::rbac::{PolicyRule, RoleRef, Subject};
use crate::api::{ClusterRole, ClusterRoleBinding, Kind, Role, RoleBinding};
use crate::sim::random::Purpose;
use crate::store::Store;
use rule_matching::{ResourceRequest, rule_allows};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The group whose members may do anything (`user.SystemPrivilegedGroup`): the API server's
/// privileged-groups authorizer allows them before any other is asked.
pub const SUPERUSER_GROUP: &str = "system:masters";

/// The binding that gives the lab's read-only learners (`kubelab:viewers`) the `view` role.
pub const VIEWERS_BINDING: &str = "kubelab:viewers";

/// Creates the bootstrap policy (what the API server's RBAC post-start hook and kubeadm create)
/// and lets the aggregation controller fill the aggregated roles, as happens moments after a
/// real cluster starts.
pub fn bootstrap(store: &mut Store) {
    // The index is built once for the whole policy rather than after each of its objects.
    store.defer_rbac_index(true);
    for role in bootstrap_policy::cluster_roles() {
        store.create_from_stream(Purpose::PolicyUid, role).expect("the bootstrap ClusterRoles are valid");
    }
    for binding in bootstrap_policy::cluster_role_bindings() {
        store.create_from_stream(Purpose::PolicyUid, binding).expect("the bootstrap ClusterRoleBindings are valid");
    }
    store.defer_rbac_index(false);
    aggregation::sync(store);
}

/// Whether writes of this kind change what RBAC allows.
pub fn is_rbac_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Role | Kind::ClusterRole | Kind::RoleBinding | Kind::ClusterRoleBinding)
}

/// What one binding gives: its role's rules, or the error of a role that does not exist
/// (which RBAC reports as the reason of a denial).
#[derive(Clone, Debug)]
enum Grant {
    Rules(Arc<[PolicyRule]>),
    Missing(String),
}

/// Grants by the user name, and by the group, they were bound to (looked up by `&str`, so a
/// request allocates nothing).
#[derive(Clone, Debug, Default)]
struct Grants {
    users: BTreeMap<String, Vec<Grant>>,
    groups: BTreeMap<String, Vec<Grant>>,
}

/// Every binding resolved to its role's rules, by subject.
#[derive(Clone, Debug, Default)]
pub struct RbacIndex {
    /// From ClusterRoleBindings: in every namespace and at the cluster scope.
    cluster: Grants,
    /// From RoleBindings: within their namespace.
    namespaced: BTreeMap<String, Grants>,
}

impl RbacIndex {
    /// Resolves the store's bindings (what upstream's rule resolver does per request).
    pub fn build(store: &Store) -> RbacIndex {
        let cluster_roles: BTreeMap<&str, Arc<[PolicyRule]>> = store
            .list::<ClusterRole>(None)
            .map(|r| (r.metadata.name.as_str(), r.rules.clone().unwrap_or_default().into()))
            .collect();
        let resolve = |namespace: &str, role_ref: &RoleRef| -> Grant {
            let found = if role_ref.kind == "Role" {
                store.try_get::<Role>(namespace, &role_ref.name).map(|r| r.rules.clone().unwrap_or_default().into())
            } else {
                cluster_roles.get(role_ref.name.as_str()).cloned()
            };
            found.map(Grant::Rules).unwrap_or_else(|| {
                let resource = if role_ref.kind == "Role" { "role" } else { "clusterrole" };
                Grant::Missing(format!("{resource}.rbac.authorization.k8s.io \"{}\" not found", role_ref.name))
            })
        };
        let mut index = RbacIndex::default();
        for binding in store.list::<ClusterRoleBinding>(None) {
            let grant = resolve("", &binding.role_ref);
            add(&mut index.cluster, &binding.subjects, "", grant);
        }
        for binding in store.list::<RoleBinding>(None) {
            let namespace = binding.metadata.namespace.as_str();
            let grant = resolve(namespace, &binding.role_ref);
            add(index.namespaced.entry(namespace.to_string()).or_default(), &binding.subjects, namespace, grant);
        }
        index
    }

    /// Authorize: allowed if any rule bound to the user allows the request; otherwise no
    /// opinion, with the missing roles as the reason (`RBAC: role… "x" not found`).
    pub fn authorize(&self, attributes: &Attributes<'_>) -> Decision {
        let request = ResourceRequest::of(attributes);
        let mut errors = Vec::new();
        for grant in self.grants(attributes.user, attributes.namespace) {
            match grant {
                Grant::Rules(rules) if rules.iter().any(|rule| rule_allows(&request, rule)) => return Decision::Allow,
                Grant::Rules(_) => {}
                Grant::Missing(error) => errors.push(error.clone()),
            }
        }
        match errors.len() {
            0 => Decision::NoOpinion,
            1 => Decision::Deny(format!("RBAC: {}", errors[0])),
            _ => Decision::Deny(format!("RBAC: [{}]", errors.join(", "))),
        }
    }

    /// Every rule the user holds in `namespace` (cluster-wide ones included), in the order
    /// upstream's resolver visits them, and the errors of missing roles (RulesFor, what a
    /// SelfSubjectRulesReview answers).
    pub fn rules_for(&self, user: &UserInfo, namespace: &str) -> (Vec<PolicyRule>, Vec<String>) {
        let (mut rules, mut errors) = (Vec::new(), Vec::new());
        for grant in self.grants(user, namespace) {
            match grant {
                Grant::Rules(granted) => rules.extend(granted.iter().cloned()),
                Grant::Missing(error) => errors.push(error.clone()),
            }
        }
        (rules, errors)
    }

    /// The grants of the user's name and groups: cluster-wide first, then the namespace's.
    fn grants<'a>(&'a self, user: &'a UserInfo, namespace: &'a str) -> impl Iterator<Item = &'a Grant> + 'a {
        let local = if namespace.is_empty() { None } else { self.namespaced.get(namespace) };
        std::iter::once(&self.cluster).chain(local).flat_map(move |grants| {
            let by_user = grants.users.get(user.name.as_str()).into_iter().flatten();
            let by_group = user.groups.iter().filter_map(|g| grants.groups.get(g.as_str())).flatten();
            by_user.chain(by_group)
        })
    }
}

/// Adds a binding's grant under each of its subjects. A ServiceAccount subject is its user
/// name; in a RoleBinding an omitted namespace is the binding's (upstream `appliesToUser`).
fn add(grants: &mut Grants, subjects: &[Subject], namespace: &str, grant: Grant) {
    for subject in subjects {
        let (table, key) = match subject.kind.as_str() {
            "User" => (&mut grants.users, subject.name.clone()),
            "Group" => (&mut grants.groups, subject.name.clone()),
            "ServiceAccount" => {
                let sa_namespace = subject.namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or(namespace);
                if sa_namespace.is_empty() {
                    continue;
                }
                (&mut grants.users, format!("system:serviceaccount:{sa_namespace}:{}", subject.name))
            }
            _ => continue,
        };
        table.entry(key).or_default().push(grant.clone());
    }
}
