//! `kubectl create role NAME --verb=… --resource=… [--resource-name=…]` and `kubectl create
//! clusterrole` (plus `--non-resource-url` and `--aggregation-rule`). Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_role.go and create_clusterrole.go.

use super::{generated_metadata, one_name};
use crate::api::Kind;
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

const VERB_FLAG: Flag = Flag::repeated("verb", None, "Verb that applies to the resources contained in the rule");
const RESOURCE_FLAG: Flag = Flag::repeated("resource", None, "Resource that the rule applies to");
const RESOURCE_NAME_FLAG: Flag = Flag::repeated(
    "resource-name",
    None,
    "Resource in the white list that the rule applies to, repeat this flag for multiple items",
);

pub const ROLE: Verb = Verb {
    name: "create role",
    short: "Create a role with single rule",
    usage: "kubectl create role NAME --verb=verb --resource=resource.group/subresource [--resource-name=resourcename] [--dry-run=server|client|none] [options]",
    flags: &[VERB_FLAG, RESOURCE_FLAG, RESOURCE_NAME_FLAG, DRY_RUN, OUTPUT],
    run: run_role,
};

pub const CLUSTER_ROLE: Verb = Verb {
    name: "create clusterrole",
    short: "Create a cluster role",
    usage: "kubectl create clusterrole NAME --verb=verb --resource=resource.group [--resource-name=resourcename] [--dry-run=server|client|none] [options]",
    flags: &[
        VERB_FLAG,
        RESOURCE_FLAG,
        RESOURCE_NAME_FLAG,
        Flag::repeated("non-resource-url", None, "A partial url that user should have access to."),
        Flag::value("aggregation-rule", None, "An aggregation label selector for combining ClusterRoles."),
        DRY_RUN,
        OUTPUT,
    ],
    run: run_cluster_role,
};

/// Verbs a rule on resources may name (`validResourceVerbs`).
const RESOURCE_VERBS: &[&str] = &[
    "*",
    "get",
    "delete",
    "list",
    "create",
    "update",
    "patch",
    "watch",
    "proxy",
    "deletecollection",
    "use",
    "bind",
    "escalate",
    "impersonate",
];
/// Verbs a rule on non-resource URLs may name (`validNonResourceVerbs`).
const NON_RESOURCE_VERBS: &[&str] = &["*", "get", "post", "put", "delete", "patch", "head", "options"];
/// Verbs that only apply to some resources (`specialVerbs`).
const SPECIAL_VERBS: &[(&str, &[(&str, &str)])] = &[
    ("use", &[("policy", "podsecuritypolicies"), ("extensions", "podsecuritypolicies")]),
    ("bind", &[("rbac.authorization.k8s.io", "roles"), ("rbac.authorization.k8s.io", "clusterroles")]),
    ("escalate", &[("rbac.authorization.k8s.io", "roles"), ("rbac.authorization.k8s.io", "clusterroles")]),
    ("impersonate", &[("", "users"), ("", "serviceaccounts"), ("", "groups"), ("authentication.k8s.io", "userextras")]),
];

fn run_role(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &ROLE) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let mut out = Output::default();
    let rules = match resource_rules(&args, &mut out) {
        Ok(rules) => rules,
        Err(message) => return Output::failed(format!("error: {message}")),
    };
    let role = json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "Role",
        "metadata": generated_metadata(&args, &name, None),
        "rules": rules,
    });
    with_warnings(out, print_flags::create(ctx, &args, role, Refusal::Server))
}

fn run_cluster_role(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &CLUSTER_ROLE) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let mut role = Map::new();
    role.insert("apiVersion".into(), json!("rbac.authorization.k8s.io/v1"));
    role.insert("kind".into(), json!("ClusterRole"));
    role.insert("metadata".into(), json!({"name": name}));
    let mut out = Output::default();
    match cluster_role_rules(&args, &mut out) {
        Ok(Rules::Aggregated(selector)) => {
            role.insert("aggregationRule".into(), json!({"clusterRoleSelectors": [{"matchLabels": selector}]}));
            role.insert("rules".into(), Value::Null);
        }
        Ok(Rules::Listed(rules)) => {
            role.insert("rules".into(), Value::Array(rules));
        }
        Err(message) => return Output::failed(format!("error: {message}")),
    }
    with_warnings(out, print_flags::create(ctx, &args, Value::Object(role), Refusal::Server))
}

enum Rules {
    Listed(Vec<Value>),
    Aggregated(Map<String, Value>),
}

/// A ClusterRole's rules: an aggregation rule alone, or resource and non-resource rules.
fn cluster_role_rules(args: &Args, out: &mut Output) -> Result<Rules, String> {
    if let Some(rule) = args.get("aggregation-rule") {
        if args.has("verb") || args.has("resource") || args.has("resource-name") || args.has("non-resource-url") {
            return Err(
                "aggregation rule must be specified without nonResourceURLs, resources, verbs or resourceNames".into(),
            );
        }
        let mut selector = Map::new();
        for pair in rule.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').ok_or_else(|| format!("invalid aggregation rule: {rule}"))?;
            selector.insert(key.to_string(), json!(value));
        }
        return Ok(Rules::Aggregated(selector));
    }
    let urls = split_values(args.all("non-resource-url"));
    if urls.is_empty() {
        return resource_rules(args, out).map(Rules::Listed);
    }
    let verbs = verbs(args)?;
    for verb in &verbs {
        if !NON_RESOURCE_VERBS.contains(&verb.as_str()) {
            return Err(format!("invalid verb: '{verb}' for nonResourceURL"));
        }
    }
    for url in &urls {
        if !url.starts_with('/') {
            return Err("nonResourceURL should start with /".into());
        }
        if url.contains('*') && !url.ends_with('*') {
            return Err("nonResourceURL only supports wildcard matches when '*' is at the end".into());
        }
    }
    let mut rules = if args.has("resource") { resource_rules(args, out)? } else { Vec::new() };
    rules.push(json!({"nonResourceURLs": urls, "verbs": verbs}));
    Ok(Rules::Listed(rules))
}

/// The resource rules: one per API group (groups sorted), each with every verb and name.
fn resource_rules(args: &Args, out: &mut Output) -> Result<Vec<Value>, String> {
    let verbs = verbs(args)?;
    for verb in &verbs {
        if !RESOURCE_VERBS.contains(&verb.as_str()) {
            out.warn(format!("Warning: '{verb}' is not a standard resource verb"));
        }
    }
    let resources = split_values(args.all("resource"));
    if resources.is_empty() {
        return Err("at least one resource must be specified".into());
    }
    let names = split_values(args.all("resource-name"));
    let mut by_group: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for resource in &resources {
        let (group, plural) = resolve(resource, &verbs)?;
        let entry = by_group.entry(group).or_default();
        if !entry.contains(&plural) {
            entry.push(plural);
        }
    }
    let rules = by_group.into_iter().map(|(group, resources)| {
        let mut rule = json!({"apiGroups": [group], "resources": resources, "verbs": verbs});
        if !names.is_empty() {
            rule["resourceNames"] = json!(names);
        }
        rule
    });
    Ok(rules.collect())
}

/// `--verb` values, split on commas, duplicates dropped, `*` standing for all.
fn verbs(args: &Args) -> Result<Vec<String>, String> {
    let mut verbs: Vec<String> = Vec::new();
    for verb in split_values(args.all("verb")) {
        if verb == "*" {
            return Ok(vec![verb]);
        }
        if !verbs.contains(&verb) {
            verbs.push(verb);
        }
    }
    if verbs.is_empty() {
        return Err("at least one verb must be specified".into());
    }
    Ok(verbs)
}

fn split_values(values: &[String]) -> Vec<String> {
    values.iter().flat_map(|v| v.split(',')).filter(|v| !v.is_empty()).map(str::to_string).collect()
}

/// `resource[.group][/subresource]` as the RESTMapper resolves it: its group and plural (a
/// short or singular name expands), with the subresource; checked against the special verbs.
fn resolve(resource: &str, verbs: &[String]) -> Result<(String, String), String> {
    let (base, sub) = match resource.split_once('/') {
        Some((base, sub)) => (base, Some(sub)),
        None => (resource, None),
    };
    if base.is_empty() {
        return Err("resource must be specified if apiGroup/subresource specified".into());
    }
    let (mut group, mut plural) = match base.split_once('.') {
        Some((name, group)) => (group.to_string(), name.to_string()),
        None => (String::new(), base.to_string()),
    };
    let known = (base != "*").then(|| Kind::from_cli_name(base)).flatten();
    if let Some(kind) = known {
        (group, plural) = (kind.info().group.to_string(), kind.info().plural.to_string());
    }
    for verb in verbs {
        let special = SPECIAL_VERBS.iter().find(|(v, _)| v == verb);
        if let Some((_, allowed)) = special.filter(|_| base != "*")
            && !allowed.iter().any(|(g, r)| *g == group && *r == plural)
        {
            return Err(format!("can not perform '{verb}' on '{plural}' in group '{group}'"));
        }
    }
    let special = verbs.iter().any(|v| SPECIAL_VERBS.iter().any(|(s, _)| s == v));
    if known.is_none() && base != "*" && !special {
        return Err(format!("the server doesn't have a resource type \"{plural}\""));
    }
    if let Some(sub) = sub {
        plural = format!("{plural}/{sub}");
    }
    Ok((group, plural))
}

/// The warnings printed before the command's own output.
fn with_warnings(mut warnings: Output, out: Output) -> Output {
    warnings.items.extend(out.items);
    warnings.exit_code = out.exit_code;
    warnings
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::lab;

    fn kubectl(sim: &mut crate::sim::Sim, line: &str) -> String {
        crate::kubectl::create::tests::kubectl(sim, line).0
    }

    #[test]
    fn a_role_has_one_rule_per_group_as_kubectl_builds_it() {
        let mut sim = lab("");
        let yaml = kubectl(
            &mut sim,
            "create role pod-reader --verb=get,list --verb=watch --resource=pods,pods/log,deploy --resource-name=a --dry-run=client -o yaml",
        );
        assert_eq!(
            yaml,
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: pod-reader\nrules:\n- apiGroups:\n  - \"\"\n  resourceNames:\n  - a\n  resources:\n  - pods\n  - pods/log\n  verbs:\n  - get\n  - list\n  - watch\n- apiGroups:\n  - apps\n  resourceNames:\n  - a\n  resources:\n  - deployments\n  verbs:\n  - get\n  - list\n  - watch\n"
        );
        assert_eq!(
            kubectl(&mut sim, "create role r --verb=get --resource=pods"),
            "role.rbac.authorization.k8s.io/r created\n"
        );
        assert_eq!(kubectl(&mut sim, "create role r --resource=pods"), "error: at least one verb must be specified\n");
        assert_eq!(
            kubectl(&mut sim, "create role r --verb=get --resource=foos"),
            "error: the server doesn't have a resource type \"foos\"\n"
        );
        assert_eq!(
            kubectl(&mut sim, "create clusterrole c --verb=bind --resource=pods"),
            "error: can not perform 'bind' on 'pods' in group ''\n"
        );
    }
}
