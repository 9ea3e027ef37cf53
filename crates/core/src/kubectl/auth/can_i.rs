//! `kubectl auth can-i VERB TYPE[/NAME] | VERB /URL` and `kubectl auth can-i --list`: a
//! SelfSubjectAccessReview answered `yes` or `no` (exit 1), or the SelfSubjectRulesReview's
//! rules broken down, compacted and sorted as pkg/cmd/auth/cani.go and pkg/util/rbac print them.

use crate::api::Kind;
use crate::api::rbac::PolicyRule;
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::{Output, Table};
use crate::kubectl::{Context, Verb};
use crate::store::rbac::review::ResourceAttributes;

pub const VERB: Verb = Verb {
    name: "auth can-i",
    short: "Check whether an action is allowed",
    usage: "kubectl auth can-i VERB [TYPE | TYPE/NAME | NONRESOURCEURL] [options]",
    flags: &[
        Flag::switch("all-namespaces", Some('A'), "If true, check the specified action in all namespaces."),
        Flag::switch("list", None, "If true, prints all allowed actions."),
        Flag::switch("no-headers", None, "If true, prints allowed actions without headers"),
        Flag::switch("quiet", Some('q'), "If true, suppress output and just return the exit code."),
        Flag::value("subresource", None, "SubResource such as pod/log or deployment/scale"),
    ],
    run,
};

/// Verbs the check knows (cani.go's `resourceVerbs` and `nonResourceURLVerbs`).
const RESOURCE_VERBS: &[&str] = &[
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
    "impersonate",
    "*",
    "approve",
    "sign",
    "escalate",
    "attest",
];
const NON_RESOURCE_VERBS: &[&str] = &["get", "put", "post", "head", "options", "delete", "patch", "*"];
/// Resources that are no API resource but may be asked about (`nonStandardResourceNames`).
const NON_STANDARD_RESOURCES: &[&str] = &["users", "groups"];

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let namespace = if args.switch("all-namespaces") {
        String::new()
    } else {
        args.get("namespace").filter(|n| !n.is_empty()).unwrap_or("default").to_string()
    };
    let user = ctx.sim.kubectl_user();
    if args.switch("list") {
        if !args.positionals.is_empty() {
            return Output::failed("error: list option must be specified with no arguments");
        }
        if args.switch("quiet") || args.switch("all-namespaces") || args.has("subresource") {
            return Output::failed(
                "error: list option can't be specified with neither quiet, all-namespaces nor subresource options",
            );
        }
        let status = ctx.sim.store().rules_review(&user, &namespace);
        let mut out = Output::default();
        if status.incomplete {
            out.warn(format!("Warning: the list may be incomplete: {}", status.evaluation_error));
        }
        let rules = status.resource_rules.iter().chain(&status.non_resource_rules);
        out.table(access_table(rules, args.switch("no-headers")));
        return out;
    }
    let [verb, target] = args.positionals.as_slice() else {
        return Output::failed(
            "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.",
        );
    };
    if args.switch("no-headers") {
        return Output::failed("error: --no-headers cannot be set without --list specified");
    }
    let mut out = Output::default();
    if target.starts_with('/') {
        return non_resource(ctx, verb, target, &args);
    }
    let (resource, name) = target.split_once('/').unwrap_or((target, ""));
    let (group, resource) = resource_for(resource, &mut out);
    if !namespace.is_empty() && !namespaced(&group, &resource) {
        let message = match group.as_str() {
            "" => format!("Warning: resource '{resource}' is not namespace scoped"),
            group => format!("Warning: resource '{resource}' is not namespace scoped in group '{group}'"),
        };
        // kubectl's message ends in a newline and its warning printer adds another.
        out.warn(format!("{message}\n"));
    }
    if !RESOURCE_VERBS.contains(&verb.as_str()) {
        out.warn(format!("Warning: verb '{verb}' is not a known verb\n"));
    }
    let asked = ResourceAttributes {
        namespace,
        verb: verb.clone(),
        group,
        resource,
        subresource: args.get("subresource").unwrap_or("").to_string(),
        name: name.to_string(),
    };
    let status = ctx.sim.store().access_review(&user, &asked);
    answer(out, status.allowed, &status.reason, args.switch("quiet"))
}

/// A non-resource URL (`/healthz`): the review's nonResourceAttributes.
fn non_resource(ctx: &mut Context<'_>, verb: &str, path: &str, args: &Args) -> Output {
    if args.has("subresource") {
        return Output::failed("error: --subresource can not be used with NonResourceURL");
    }
    let mut out = Output::default();
    if !NON_RESOURCE_VERBS.contains(&verb) {
        out.warn(format!("Warning: verb '{verb}' is not a known verb\n"));
    }
    let user = ctx.sim.kubectl_user();
    let status = ctx.sim.store().non_resource_review(&user, verb, path);
    answer(out, status.allowed, &status.reason, args.switch("quiet"))
}

/// `yes`, or `no` with the reason; exit code 1 for no (unless `--quiet`, which prints nothing).
fn answer(mut out: Output, allowed: bool, reason: &str, quiet: bool) -> Output {
    if !quiet {
        match (allowed, reason) {
            (true, _) => out.line("yes"),
            (false, "") => out.line("no"),
            (false, reason) => out.line(format!("no - {reason}")),
        }
    }
    if !allowed {
        out.exit_code = 1;
    }
    out
}

/// resourceFor: a name the discovery knows (plural, singular, short name, `TYPE.GROUP`) as its
/// group and plural; otherwise a warning and the word as given.
fn resource_for(word: &str, out: &mut Output) -> (String, String) {
    if word == "*" {
        return (String::new(), word.to_string());
    }
    if let Some(kind) = Kind::from_cli_name(word) {
        let info = kind.info();
        return (info.group.to_string(), info.plural.to_string());
    }
    let lower = word.to_ascii_lowercase();
    if !NON_STANDARD_RESOURCES.contains(&lower.as_str()) {
        let message = match lower.split_once('.') {
            Some((resource, group)) => {
                format!("Warning: the server doesn't have a resource type '{resource}' in group '{group}'")
            }
            None => format!("Warning: the server doesn't have a resource type '{lower}'"),
        };
        out.warn(format!("{message}\n"));
    }
    (String::new(), word.to_string())
}

/// Whether discovery lists the resource as namespaced (unknown ones count as namespaced).
fn namespaced(group: &str, resource: &str) -> bool {
    crate::store::rbac::review::kind_of(group, resource).is_none_or(|kind| kind.info().namespaced)
}

/// printStatus: each rule broken down to one verb, resource and name, compacted per
/// resource and name, sorted by the rule's String(), printed as four columns.
pub fn access_table<'a>(rules: impl Iterator<Item = &'a PolicyRule>, no_headers: bool) -> Table {
    let broken_down: Vec<PolicyRule> = rules.flat_map(breakdown).collect();
    let mut compacted = compact(broken_down);
    compacted.sort_by_cached_key(rule_string);
    let headers = if no_headers {
        Vec::new()
    } else {
        ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"].map(String::from).to_vec()
    };
    let rows = compacted
        .iter()
        .map(|r| {
            let list = |items: &[String]| format!("[{}]", items.join(" "));
            vec![
                combine_resource_group(&r.resources, &r.api_groups),
                list(&r.non_resource_urls),
                list(&r.resource_names),
                list(&r.verbs),
            ]
        })
        .collect();
    Table { headers, rows }
}

/// BreakdownRule: one rule per group × resource × verb (× name), and per URL × verb.
fn breakdown(rule: &PolicyRule) -> Vec<PolicyRule> {
    let mut rules = Vec::new();
    let one = |s: &String| vec![s.clone()];
    for group in &rule.api_groups {
        for resource in &rule.resources {
            for verb in &rule.verbs {
                let base = PolicyRule {
                    api_groups: one(group),
                    resources: one(resource),
                    verbs: one(verb),
                    ..Default::default()
                };
                if rule.resource_names.is_empty() {
                    rules.push(base);
                } else {
                    rules.extend(
                        rule.resource_names.iter().map(|n| PolicyRule { resource_names: one(n), ..base.clone() }),
                    );
                }
            }
        }
    }
    for url in &rule.non_resource_urls {
        for verb in &rule.verbs {
            rules.push(PolicyRule { non_resource_urls: one(url), verbs: one(verb), ..Default::default() });
        }
    }
    rules
}

/// CompactRules: the rules of one group, resource and name merged, verbs in first-seen order.
fn compact(rules: Vec<PolicyRule>) -> Vec<PolicyRule> {
    let mut compacted: Vec<PolicyRule> = Vec::new();
    let mut simple: Vec<PolicyRule> = Vec::new();
    for rule in rules {
        let is_simple = rule.non_resource_urls.is_empty()
            && rule.resource_names.len() <= 1
            && rule.api_groups.len() == 1
            && rule.resources.len() == 1;
        if !is_simple {
            compacted.push(rule);
            continue;
        }
        let same = |r: &&mut PolicyRule| {
            r.api_groups == rule.api_groups && r.resources == rule.resources && r.resource_names == rule.resource_names
        };
        match simple.iter_mut().find(same) {
            Some(existing) => {
                for verb in rule.verbs {
                    if !existing.verbs.contains(&verb) {
                        existing.verbs.push(verb);
                    }
                }
            }
            None => simple.push(rule),
        }
    }
    compacted.extend(simple);
    compacted
}

/// The generated `PolicyRule.String()` kubectl sorts by: `&PolicyRule{Verbs:[get list],…}`.
fn rule_string(rule: &PolicyRule) -> String {
    let list = |items: &[String]| format!("[{}]", items.join(" "));
    format!(
        "&PolicyRule{{Verbs:{},APIGroups:{},Resources:{},ResourceNames:{},NonResourceURLs:{},}}",
        list(&rule.verbs),
        list(&rule.api_groups),
        list(&rule.resources),
        list(&rule.resource_names),
        list(&rule.non_resource_urls)
    )
}

/// describe.CombineResourceGroup: `deployments.apps`, `pods/log`, `deployments.apps/scale`.
fn combine_resource_group(resources: &[String], groups: &[String]) -> String {
    let Some(resource) = resources.first() else { return String::new() };
    let (base, sub) = match resource.split_once('/') {
        Some((base, sub)) => (base, Some(sub)),
        None => (resource.as_str(), None),
    };
    let mut combined = base.to_string();
    if let Some(group) = groups.first().filter(|g| !g.is_empty()) {
        combined.push('.');
        combined.push_str(group);
    }
    if let Some(sub) = sub {
        combined.push('/');
        combined.push_str(sub);
    }
    combined
}
