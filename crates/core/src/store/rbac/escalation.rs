//! RBAC's escalation check (pkg/registry/rbac: the policy-based storage of roles and bindings,
//! with `ConfirmNoEscalation` and `Covers` of pkg/registry/rbac/validation): a user may write a
//! Role or ClusterRole only with rules they already hold, unless allowed to `escalate`, and may
//! bind a role only if they hold its rules, unless allowed to `bind` it. `system:masters` may
//! do either.

use super::SUPERUSER_GROUP;
use crate::api::rbac::{PolicyRule, RoleRef};
use crate::api::{ClusterRole, Kind, ObjectMut, Role};
use crate::error::ApiError;
use crate::store::Store;
use crate::store::user::UserInfo;

/// Refuses a write of `object` by `user` that would grant rules the user does not hold.
pub fn confirm_no_escalation(
    store: &Store,
    user: &UserInfo,
    namespace: &str,
    object: &ObjectMut<'_>,
) -> Result<(), ApiError> {
    if user.groups.iter().any(|g| g == SUPERUSER_GROUP) {
        return Ok(());
    }
    let (kind, name, wanted) = match object {
        ObjectMut::Role(role) => {
            (Kind::Role, &role.metadata.name, Wanted::Rules(role.rules.as_deref().unwrap_or_default()))
        }
        ObjectMut::ClusterRole(role) if role.aggregation_rule.is_some() => {
            (Kind::ClusterRole, &role.metadata.name, Wanted::Everything)
        }
        ObjectMut::ClusterRole(role) => {
            (Kind::ClusterRole, &role.metadata.name, Wanted::Rules(role.rules.as_deref().unwrap_or_default()))
        }
        ObjectMut::RoleBinding(binding) => (Kind::RoleBinding, &binding.metadata.name, Wanted::Role(&binding.role_ref)),
        ObjectMut::ClusterRoleBinding(binding) => {
            (Kind::ClusterRoleBinding, &binding.metadata.name, Wanted::Role(&binding.role_ref))
        }
        _ => return Ok(()),
    };
    let forbidden = |message: String| {
        let resource = format!("{}.rbac.authorization.k8s.io", kind.info().plural);
        ApiError::Forbidden { message: format!("{resource} \"{name}\" is forbidden: {message}") }
    };
    let may_escalate = || store.authorize_as(user, ("escalate", kind), namespace, name, "").is_ok();
    let rules = match wanted {
        Wanted::Rules(_) | Wanted::Everything if may_escalate() => return Ok(()),
        Wanted::Rules(rules) => rules.to_vec(),
        Wanted::Everything => {
            let (held, _) = store.rbac().rules_for(user, namespace);
            if missing(&held, &[everything()]).is_empty() {
                return Ok(());
            }
            return Err(forbidden("must have cluster-admin privileges to use the aggregationRule".to_string()));
        }
        Wanted::Role(role_ref) => {
            let role_kind = if role_ref.kind == "Role" { Kind::Role } else { Kind::ClusterRole };
            let scope = if role_kind == Kind::Role { namespace } else { "" };
            let bind_scope = if kind == Kind::RoleBinding { namespace } else { "" };
            if store.authorize_as(user, ("bind", role_kind), bind_scope, &role_ref.name, "").is_ok() {
                return Ok(());
            }
            role_rules(store, role_ref, scope).map_err(forbidden)?
        }
    };
    let (held, _) = store.rbac().rules_for(user, namespace);
    let missing = missing(&held, &rules);
    if missing.is_empty() {
        return Ok(());
    }
    let mut lines: Vec<String> = compact(missing).iter().map(compact_string).collect();
    lines.sort();
    lines.dedup();
    let groups = user.groups.iter().map(|g| format!("{g:?}")).collect::<Vec<_>>().join(" ");
    Err(forbidden(format!(
        "user {:?} (groups=[{groups}]) is attempting to grant RBAC permissions not currently held:\n{}",
        user.name,
        lines.join("\n")
    )))
}

enum Wanted<'a> {
    Rules(&'a [PolicyRule]),
    /// An aggregated ClusterRole may come to hold anything: only for who holds everything.
    Everything,
    Role(&'a RoleRef),
}

fn everything() -> PolicyRule {
    let all = vec!["*".to_string()];
    PolicyRule { verbs: all.clone(), api_groups: all.clone(), resources: all, ..Default::default() }
}

/// `GetRoleReferenceRules`: the referenced role's rules, or its not-found message.
pub fn role_rules(store: &Store, role_ref: &RoleRef, namespace: &str) -> Result<Vec<PolicyRule>, String> {
    let found = if role_ref.kind == "Role" {
        store.try_get::<Role>(namespace, &role_ref.name).map(|r| r.rules.clone())
    } else {
        store.try_get::<ClusterRole>("", &role_ref.name).map(|r| r.rules.clone())
    };
    let plural = if role_ref.kind == "Role" { "roles" } else { "clusterroles" };
    let found = found.map(Option::unwrap_or_default);
    found.ok_or_else(|| format!("{plural}.rbac.authorization.k8s.io \"{}\" not found", role_ref.name))
}

/// `Covers`: each single-verb, single-resource piece of `wanted` no held rule covers.
fn missing(held: &[PolicyRule], wanted: &[PolicyRule]) -> Vec<PolicyRule> {
    wanted.iter().flat_map(breakdown).filter(|piece| !held.iter().any(|rule| covers(rule, piece))).collect()
}

/// `BreakdownRule`: one rule per group × resource × verb (× name), then URL × verb.
fn breakdown(rule: &PolicyRule) -> Vec<PolicyRule> {
    let one = |s: &String| vec![s.clone()];
    let mut pieces = Vec::new();
    for group in &rule.api_groups {
        for resource in &rule.resources {
            for verb in &rule.verbs {
                let piece = PolicyRule {
                    api_groups: one(group),
                    resources: one(resource),
                    verbs: one(verb),
                    ..Default::default()
                };
                if rule.resource_names.is_empty() {
                    pieces.push(piece);
                } else {
                    pieces.extend(
                        rule.resource_names.iter().map(|n| PolicyRule { resource_names: one(n), ..piece.clone() }),
                    );
                }
            }
        }
    }
    for url in &rule.non_resource_urls {
        pieces.extend(rule.verbs.iter().map(|v| PolicyRule {
            non_resource_urls: one(url),
            verbs: one(v),
            ..Default::default()
        }));
    }
    pieces
}

/// `ruleCovers`: the held rule allows every verb, group, resource, name and URL of the piece.
fn covers(held: &PolicyRule, piece: &PolicyRule) -> bool {
    let has_all = |owner: &[String], wanted: &[String]| wanted.iter().all(|w| owner.contains(w));
    let star = |list: &[String]| list.iter().any(|s| s == "*");
    let verbs = star(&held.verbs) || has_all(&held.verbs, &piece.verbs);
    let groups = star(&held.api_groups) || has_all(&held.api_groups, &piece.api_groups);
    let resources = star(&held.resources)
        || piece.resources.iter().all(|r| {
            held.resources.contains(r)
                || r.split_once('/').is_some_and(|(_, sub)| held.resources.iter().any(|h| *h == format!("*/{sub}")))
        });
    let names = held.resource_names.is_empty()
        || (!piece.resource_names.is_empty() && has_all(&held.resource_names, &piece.resource_names));
    let urls = piece.non_resource_urls.iter().all(|url| {
        held.non_resource_urls.iter().any(|h| h == url || h.strip_suffix('*').is_some_and(|p| url.starts_with(p)))
    });
    verbs && groups && resources && names && urls
}

/// `CompactRules`: pieces for the same group, resource and name merged into one rule with
/// their verbs, in the order first seen.
fn compact(pieces: Vec<PolicyRule>) -> Vec<PolicyRule> {
    let mut merged: Vec<PolicyRule> = Vec::new();
    for piece in pieces {
        let simple = piece.non_resource_urls.is_empty();
        let same = |r: &&mut PolicyRule| {
            r.non_resource_urls.is_empty()
                && r.api_groups == piece.api_groups
                && r.resources == piece.resources
                && r.resource_names == piece.resource_names
        };
        match merged.iter_mut().find(|r| simple && same(r)) {
            Some(rule) => rule.verbs.extend(piece.verbs),
            None => merged.push(piece),
        }
    }
    merged
}

/// `CompactString`: the rule's non-empty lists as Go's `%q` prints them.
fn compact_string(rule: &PolicyRule) -> String {
    let quoted = |list: &[String]| format!("[{}]", list.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(" "));
    let parts = [
        ("APIGroups", &rule.api_groups),
        ("Resources", &rule.resources),
        ("NonResourceURLs", &rule.non_resource_urls),
        ("ResourceNames", &rule.resource_names),
        ("Verbs", &rule.verbs),
    ];
    let parts: Vec<String> = parts
        .iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(name, list)| format!("{name}:{}", quoted(list)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(verbs: &[&str], groups: &[&str], resources: &[&str], names: &[&str], urls: &[&str]) -> PolicyRule {
        let list = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        PolicyRule {
            verbs: list(verbs),
            api_groups: list(groups),
            resources: list(resources),
            resource_names: list(names),
            non_resource_urls: list(urls),
        }
    }

    #[test]
    fn held_rules_cover_what_they_allow_and_the_rest_is_listed_compactly() {
        let held = [
            rule(&["get", "list"], &[""], &["pods", "*/log"], &[], &[]),
            rule(&["*"], &["apps"], &["deployments"], &["web"], &[]),
            rule(&["get"], &[], &[], &[], &["/healthz", "/metrics/*"]),
        ];
        let cases: [(PolicyRule, &[&str]); 5] = [
            (rule(&["get"], &[""], &["pods", "pods/log"], &[], &[]), &[]),
            (
                rule(&["get", "delete"], &[""], &["pods", "services"], &[], &[]),
                &[
                    r#"{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}"#,
                    r#"{APIGroups:[""], Resources:["services"], Verbs:["get" "delete"]}"#,
                ],
            ),
            (
                rule(&["update"], &["apps"], &["deployments"], &["web", "api"], &[]),
                &[r#"{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["api"], Verbs:["update"]}"#],
            ),
            (
                rule(&["update"], &["apps"], &["deployments"], &[], &[]),
                &[r#"{APIGroups:["apps"], Resources:["deployments"], Verbs:["update"]}"#],
            ),
            (
                rule(&["get", "post"], &[], &[], &[], &["/metrics/cpu", "/readyz"]),
                &[
                    r#"{NonResourceURLs:["/metrics/cpu"], Verbs:["post"]}"#,
                    r#"{NonResourceURLs:["/readyz"], Verbs:["get"]}"#,
                    r#"{NonResourceURLs:["/readyz"], Verbs:["post"]}"#,
                ],
            ),
        ];
        for (wanted, expected) in cases {
            let mut got: Vec<String> =
                compact(missing(&held, std::slice::from_ref(&wanted))).iter().map(compact_string).collect();
            got.sort();
            assert_eq!(got, expected, "{wanted:?}");
        }
    }
}
