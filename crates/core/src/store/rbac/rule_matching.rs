//! Whether one policy rule allows a request: k8s.io/component-helpers/auth/rbac/validation
//! (`RuleAllows`) with the helpers of pkg/apis/rbac/v1/evaluation_helpers.go (`VerbMatches`,
//! `APIGroupMatches`, `ResourceMatches`, `ResourceNameMatches`).

use crate::api::rbac::PolicyRule;

/// `*` in any of a rule's lists matches everything (`rbacv1.VerbAll`, `APIGroupAll`, `ResourceAll`).
const ALL: &str = "*";

/// A resource request as RBAC sees it.
#[derive(Clone, Copy, Debug)]
pub struct ResourceRequest<'a> {
    pub verb: &'a str,
    pub api_group: &'a str,
    pub resource: &'a str,
    pub subresource: &'a str,
    pub name: &'a str,
}

impl<'a> ResourceRequest<'a> {
    /// The request an authorizer's attributes make. A create names no object in its URL, so
    /// a rule's resourceNames cannot allow it.
    pub fn of(attributes: &'a crate::store::authorizer::Attributes<'a>) -> ResourceRequest<'a> {
        let info = attributes.kind.info();
        let name = if attributes.verb == "create" && attributes.subresource.is_empty() { "" } else { attributes.name };
        ResourceRequest {
            verb: attributes.verb,
            api_group: info.group,
            resource: info.plural,
            subresource: attributes.subresource,
            name,
        }
    }
}

/// RuleAllows for a resource request: verb, group, `resource[/subresource]` and name all match.
pub fn rule_allows(request: &ResourceRequest<'_>, rule: &PolicyRule) -> bool {
    verb_matches(rule, request.verb)
        && api_group_matches(rule, request.api_group)
        && resource_matches(rule, request.resource, request.subresource)
        && resource_name_matches(rule, request.name)
}

pub fn verb_matches(rule: &PolicyRule, verb: &str) -> bool {
    rule.verbs.iter().any(|v| v == ALL || v == verb)
}

fn api_group_matches(rule: &PolicyRule, group: &str) -> bool {
    rule.api_groups.iter().any(|g| g == ALL || g == group)
}

/// `pods/log` is matched by `pods/log`, `*/log` or `*`; plain `pods` never matches a subresource.
fn resource_matches(rule: &PolicyRule, resource: &str, subresource: &str) -> bool {
    let combined = if subresource.is_empty() { resource.to_string() } else { format!("{resource}/{subresource}") };
    rule.resources.iter().any(|r| {
        r == ALL
            || *r == combined
            || (!subresource.is_empty() && r.strip_prefix("*/").is_some_and(|sub| sub == subresource))
    })
}

/// No names means every name; otherwise the request must name one of them.
fn resource_name_matches(rule: &PolicyRule, name: &str) -> bool {
    rule.resource_names.is_empty() || rule.resource_names.iter().any(|n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'a>(verb: &'a str, resource: &'a str, subresource: &'a str, name: &'a str) -> ResourceRequest<'a> {
        ResourceRequest { verb, api_group: "", resource, subresource, name }
    }

    #[test]
    fn wildcards_subresources_and_names_match_as_upstream() {
        let pods = PolicyRule::new(&["get", "list"], &[""], &["pods"]);
        assert!(rule_allows(&request("get", "pods", "", "web"), &pods));
        assert!(!rule_allows(&request("get", "pods", "log", "web"), &pods));
        assert!(!rule_allows(&request("delete", "pods", "", "web"), &pods));
        let logs = PolicyRule::new(&["get"], &[""], &["pods", "pods/log"]);
        assert!(rule_allows(&request("get", "pods", "log", "web"), &logs));
        let any_status = PolicyRule::new(&["*"], &["*"], &["*/status"]);
        assert!(rule_allows(&request("update", "deployments", "status", "web"), &any_status));
        assert!(!rule_allows(&request("update", "deployments", "", "web"), &any_status));
        let named = PolicyRule::new(&["update", "get"], &[""], &["configmaps"]).names(&["my-configmap"]);
        assert!(rule_allows(&request("get", "configmaps", "", "my-configmap"), &named));
        assert!(!rule_allows(&request("get", "configmaps", "", "other"), &named));
        assert!(!rule_allows(&request("list", "configmaps", "", ""), &named));
    }
}
