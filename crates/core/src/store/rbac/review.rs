//! What SelfSubjectAccessReview and SelfSubjectRulesReview answer (authorization.k8s.io/v1,
//! pkg/registry/authorization): may this user do this, and what may it do in a namespace.
//! `kubectl auth can-i` asks them; a request's attributes here are strings, as the review's
//! spec names them, so a resource the lab does not serve can be asked about too.

use super::rule_matching::{ResourceRequest, rule_allows};
use super::{RbacIndex, SUPERUSER_GROUP};
use crate::api::rbac::PolicyRule;
use crate::api::{Kind, RESOURCES};
use crate::store::authorizer::{Attributes, Decision};
use crate::store::user::UserInfo;
use crate::store::{Store, node_authorizer};

/// A SelfSubjectAccessReview's `spec.resourceAttributes`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceAttributes {
    pub namespace: String,
    pub verb: String,
    pub group: String,
    pub resource: String,
    pub subresource: String,
    pub name: String,
}

/// Its `status`: allowed, and the authorizer's reason when not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessReviewStatus {
    pub allowed: bool,
    pub reason: String,
}

/// A SelfSubjectRulesReview's `status`: the rules, and whether the list is complete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesReviewStatus {
    pub resource_rules: Vec<PolicyRule>,
    pub non_resource_rules: Vec<PolicyRule>,
    pub incomplete: bool,
    pub evaluation_error: String,
}

impl Store {
    /// The authorizer chain's answer for a review (what the API server's SAR REST returns).
    pub fn access_review(&self, user: &UserInfo, asked: &ResourceAttributes) -> AccessReviewStatus {
        let kind = RESOURCES.iter().find(|r| r.group == asked.group && r.plural == asked.resource).map(|r| r.kind);
        if let Some(kind) = kind {
            let verb = known_verb(&asked.verb);
            if let Some(verb) = verb {
                let attributes = Attributes {
                    user,
                    verb,
                    kind,
                    namespace: &asked.namespace,
                    name: &asked.name,
                    subresource: &asked.subresource,
                };
                return match self.authorize_as(user, (verb, kind), &asked.namespace, &asked.name, &asked.subresource) {
                    Ok(()) => AccessReviewStatus { allowed: true, reason: String::new() },
                    Err(_) => AccessReviewStatus { allowed: false, reason: denial_reason(self, &attributes) },
                };
            }
        }
        // A resource or verb the lab has no Kind or verb for: only the privileged group and
        // RBAC's rules answer.
        if user.groups.iter().any(|g| g == SUPERUSER_GROUP) {
            return AccessReviewStatus { allowed: true, reason: String::new() };
        }
        let request = ResourceRequest {
            verb: &asked.verb,
            api_group: &asked.group,
            resource: &asked.resource,
            subresource: &asked.subresource,
            name: &asked.name,
        };
        let (rules, errors) = self.rbac().rules_for(user, &asked.namespace);
        let allowed = rules.iter().any(|rule| rule_allows(&request, rule));
        let reason = if allowed { String::new() } else { rbac_reason(&errors) };
        AccessReviewStatus { allowed, reason }
    }

    /// The authorizer chain's answer for a non-resource URL (`nonResourceAttributes`: `get
    /// /healthz`): the privileged group, else a rule whose verbs and URLs match
    /// (`NonResourceURLMatches`: `*`, the path itself, or a prefix ending in `*`).
    pub fn non_resource_review(&self, user: &UserInfo, verb: &str, path: &str) -> AccessReviewStatus {
        if user.groups.iter().any(|g| g == SUPERUSER_GROUP) {
            return AccessReviewStatus { allowed: true, reason: String::new() };
        }
        let (rules, errors) = self.rbac().rules_for(user, "");
        let allowed = rules.iter().any(|rule| {
            super::rule_matching::verb_matches(rule, verb)
                && rule.non_resource_urls.iter().any(|url| url_matches(url, path))
        });
        let reason = if allowed { String::new() } else { rbac_reason(&errors) };
        AccessReviewStatus { allowed, reason }
    }

    /// The rules a user holds in `namespace` (RulesFor, behind SelfSubjectRulesReview): split
    /// into resource and non-resource rules, as the review's status lists them.
    pub fn rules_review(&self, user: &UserInfo, namespace: &str) -> RulesReviewStatus {
        let (rules, errors) = self.rbac().rules_for(user, namespace);
        let mut status = RulesReviewStatus::default();
        if user.groups.iter().any(|g| g == SUPERUSER_GROUP) {
            // The privileged-groups authorizer's own rules (`authorizerfactory.privilegedGroupAuthorizer`).
            status.resource_rules.push(PolicyRule::new(&["*"], &["*"], &["*"]));
            status.non_resource_rules.push(PolicyRule::urls(&["*"], &["*"]));
        }
        for rule in rules {
            if rule.non_resource_urls.is_empty() {
                status.resource_rules.push(PolicyRule { non_resource_urls: Vec::new(), ..rule });
            } else {
                status.non_resource_rules.push(PolicyRule::urls(
                    &rule.verbs.iter().map(String::as_str).collect::<Vec<_>>(),
                    &rule.non_resource_urls.iter().map(String::as_str).collect::<Vec<_>>(),
                ));
            }
        }
        if !errors.is_empty() {
            status.incomplete = true;
            status.evaluation_error = join_errors(&errors);
        }
        status
    }
}

/// The verb as the authorizer's attributes carry it (`&'static str`), if the lab knows it.
fn known_verb(verb: &str) -> Option<&'static str> {
    const VERBS: &[&str] = &[
        "get",
        "list",
        "watch",
        "create",
        "update",
        "patch",
        "delete",
        "deletecollection",
        "use",
        "bind",
        "escalate",
        "impersonate",
        "approve",
        "sign",
        "attest",
        "proxy",
    ];
    VERBS.iter().find(|v| **v == verb).copied()
}

/// The reason a denial carries: the Node authorizer's, else RBAC's (missing roles).
fn denial_reason(store: &Store, attributes: &Attributes<'_>) -> String {
    match node_authorizer::authorize(store, attributes) {
        Decision::Deny(reason) if !reason.is_empty() => reason,
        _ => match store.rbac().authorize(attributes) {
            Decision::Deny(reason) => reason,
            _ => String::new(),
        },
    }
}

/// NonResourceURLMatches.
fn url_matches(rule_url: &str, path: &str) -> bool {
    rule_url == "*" || rule_url == path || rule_url.strip_suffix('*').is_some_and(|prefix| path.starts_with(prefix))
}

fn rbac_reason(errors: &[String]) -> String {
    if errors.is_empty() { String::new() } else { format!("RBAC: {}", join_errors(errors)) }
}

/// utilerrors.NewAggregate's text: one error as itself, more as `[a, b]`.
fn join_errors(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// Whether `kind` is a Kind the review could have named (kept for callers mapping back).
pub fn kind_of(group: &str, resource: &str) -> Option<Kind> {
    RESOURCES.iter().find(|r| r.group == group && r.plural == resource).map(|r| r.kind)
}

impl RbacIndex {
    /// Whether RBAC alone allows the request (no privileged group, no Node authorizer).
    pub fn allows(&self, user: &UserInfo, namespace: &str, request: &ResourceRequest<'_>) -> bool {
        self.rules_for(user, namespace).0.iter().any(|rule| rule_allows(request, rule))
    }
}
