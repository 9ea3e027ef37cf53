//! ResourceQuota and LimitRange validation and defaulting, as pkg/apis/core/validation
//! (`ValidateResourceQuota`, `ValidateLimitRange`) and pkg/apis/core/v1/defaults.go
//! (`SetDefaults_LimitRangeItem`) have them.

use crate::api::container::ResourceList;
use crate::api::limit_range::{
    LIMIT_TYPE_CONTAINER, LIMIT_TYPE_PERSISTENT_VOLUME_CLAIM, LIMIT_TYPE_POD, LimitRangeItem,
};
use crate::api::quantity::Quantity;
use crate::api::{LimitRange, ResourceQuota};
use crate::error::{FieldError, go_quote};
use std::collections::BTreeSet;

/// `standardQuotaResources` (pkg/apis/core/helper): what a quota may name without a `/`.
const STANDARD_QUOTA_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.storage",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "services.nodeports",
    "services.loadbalancers",
];

/// `integerResources`: counted in whole objects.
const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "services.nodeports",
    "services.loadbalancers",
];

/// `standardResourceQuotaScopes`.
pub const SCOPES: &[&str] =
    &["Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity"];

/// What a pod-tracking scope may limit (`IsResourceQuotaScopeValidForResource`).
const POD_COMPUTE_RESOURCES: &[&str] =
    &["cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"];

fn is_standard_quota_resource(name: &str) -> bool {
    STANDARD_QUOTA_RESOURCES.contains(&name)
        || name.starts_with("hugepages-")
        || name.starts_with("requests.hugepages-")
}

fn scope_valid_for_resource(scope: &str, resource: &str) -> bool {
    match scope {
        "Terminating" | "NotTerminating" | "NotBestEffort" | "PriorityClass" | "CrossNamespacePodAffinity" => {
            resource == "pods" || POD_COMPUTE_RESOURCES.contains(&resource)
        }
        "BestEffort" => resource == "pods",
        _ => true,
    }
}

/// `ValidateResourceQuotaSpec`: names, values and scopes.
pub fn resource_quota(quota: &ResourceQuota) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for (name, quantity) in &quota.spec.hard {
        let field = format!("spec.hard[{name}]");
        if !name.contains('/') && !is_standard_quota_resource(name) {
            causes.push(FieldError::invalid(field.clone(), go_quote(name), "must be a standard resource for quota"));
        }
        quantity_value(name, quantity, &field, &mut causes);
    }
    let scopes_value = format!(
        "[]core.ResourceQuotaScope{{{}}}",
        quota.spec.scopes.iter().map(|s| go_quote(s)).collect::<Vec<_>>().join(", ")
    );
    let mut seen = BTreeSet::new();
    for scope in &quota.spec.scopes {
        if !SCOPES.contains(&scope.as_str()) {
            causes.push(FieldError::invalid("spec.scopes", scopes_value.clone(), "unsupported scope"));
        }
        for resource in quota.spec.hard.keys() {
            if is_standard_quota_resource(resource) && !scope_valid_for_resource(scope, resource) {
                causes.push(FieldError::invalid(
                    "spec.scopes",
                    scopes_value.clone(),
                    "unsupported scope applied to resource",
                ));
            }
        }
        seen.insert(scope.as_str());
    }
    for pair in [["BestEffort", "NotBestEffort"], ["Terminating", "NotTerminating"]] {
        if pair.iter().all(|s| seen.contains(s)) {
            causes.push(FieldError::invalid("spec.scopes", scopes_value.clone(), "conflicting scopes"));
        }
    }
    for (i, requirement) in quota.scope_selectors().iter().skip(quota.spec.scopes.len()).enumerate() {
        let field = format!("spec.scopeSelector.matchExpressions[{i}]");
        if !SCOPES.contains(&requirement.scope_name.as_str()) {
            causes.push(FieldError::invalid(
                format!("{field}.scopeName"),
                go_quote(&requirement.scope_name),
                "unsupported scope",
            ));
        }
        let operators = ["In", "NotIn", "Exists", "DoesNotExist"];
        if !operators.contains(&requirement.operator.as_str()) {
            causes.push(FieldError::not_supported(format!("{field}.operator"), &requirement.operator, &operators));
        }
    }
    causes
}

/// `ValidateResourceQuantityValue`: never negative; whole numbers for object counts.
fn quantity_value(name: &str, quantity: &Quantity, field: &str, causes: &mut Vec<FieldError>) {
    if quantity.cmp_value(&Quantity::zero()).is_lt() {
        causes.push(FieldError::invalid(field, go_quote(&quantity.to_string()), "must be greater than or equal to 0"));
    }
    let integer = INTEGER_RESOURCES.contains(&name) || name.starts_with("count/");
    if integer && quantity.milli_value() % 1000 != 0 {
        causes.push(FieldError::invalid(field, quantity.go_dump(), "must be an integer"));
    }
}

/// `SetDefaults_LimitRangeItem`: for containers, a default limit from `max`, a default request
/// from the default limit, else from `min`.
pub fn default_limit_range(limit_range: &mut LimitRange) {
    for item in &mut limit_range.spec.limits {
        if item.type_ != LIMIT_TYPE_CONTAINER {
            continue;
        }
        for (name, max) in &item.max {
            item.default.entry(name.clone()).or_insert(*max);
        }
        for (name, limit) in &item.default {
            item.default_request.entry(name.clone()).or_insert(*limit);
        }
        for (name, min) in &item.min {
            item.default_request.entry(name.clone()).or_insert(*min);
        }
    }
}

/// `ValidateLimitRange`: one item per type, known types, and min ≤ default request ≤ default
/// ≤ max for every resource, with the ratio at least 1.
pub fn limit_range(limit_range: &LimitRange) -> Vec<FieldError> {
    let mut causes = Vec::new();
    let mut types = BTreeSet::new();
    for (i, item) in limit_range.spec.limits.iter().enumerate() {
        let field = format!("spec.limits[{i}]");
        if !types.insert(item.type_.as_str()) {
            causes.push(FieldError::duplicate(format!("{field}.type"), &item.type_));
        }
        let known = [LIMIT_TYPE_POD, LIMIT_TYPE_CONTAINER, LIMIT_TYPE_PERSISTENT_VOLUME_CLAIM];
        if !known.contains(&item.type_.as_str()) && !item.type_.contains('/') {
            causes.push(FieldError::not_supported(format!("{field}.type"), &item.type_, &known));
        }
        limit_range_item(item, &field, &mut causes);
    }
    causes
}

fn limit_range_item(item: &LimitRangeItem, field: &str, causes: &mut Vec<FieldError>) {
    if item.type_ == LIMIT_TYPE_POD {
        for (list, name) in [(&item.default, "default"), (&item.default_request, "defaultRequest")] {
            if !list.is_empty() {
                causes.push(FieldError::forbidden(
                    format!("{field}.{name}"),
                    format!("may not be specified when `type` is '{}'", item.type_),
                ));
            }
        }
    }
    let lists: [(&str, &ResourceList); 5] = [
        ("max", &item.max),
        ("min", &item.min),
        ("default", &item.default),
        ("defaultRequest", &item.default_request),
        ("maxLimitRequestRatio", &item.max_limit_request_ratio),
    ];
    let mut keys = BTreeSet::new();
    for (name, list) in lists {
        for (resource, quantity) in list {
            keys.insert(resource.as_str());
            if quantity.cmp_value(&Quantity::zero()).is_lt() {
                causes.push(FieldError::invalid(
                    format!("{field}.{name}[{resource}]"),
                    go_quote(&quantity.to_string()),
                    "must be greater than or equal to 0",
                ));
            }
        }
    }
    for resource in keys {
        bounds_in_order(item, resource, field, causes);
    }
}

/// The ordering checks of `ValidateLimitRange` for one resource: each names the list whose
/// value is out of order, and quotes the Quantity as Go's `%#v` prints it.
fn bounds_in_order(item: &LimitRangeItem, resource: &str, field: &str, causes: &mut Vec<FieldError>) {
    let get = |list: &ResourceList| list.get(resource).copied();
    let (min, max, default, request) = (get(&item.min), get(&item.max), get(&item.default), get(&item.default_request));
    let mut push = |list: &str, value: Quantity, detail: String| {
        causes.push(FieldError::invalid(format!("{field}.{list}[{resource}]"), value.go_dump(), detail));
    };
    let above = |a: Option<Quantity>, b: Option<Quantity>| match (a, b) {
        (Some(a), Some(b)) if a.cmp_value(&b).is_gt() => Some((a, b)),
        _ => None,
    };
    if let Some((min, max)) = above(min, max) {
        push("min", min, format!("min value {min} is greater than max value {max}"));
    }
    if let Some((min, request)) = above(min, request) {
        push("defaultRequest", request, format!("min value {min} is greater than default request value {request}"));
    }
    if let Some((request, max)) = above(request, max) {
        push("defaultRequest", request, format!("default request value {request} is greater than max value {max}"));
    }
    if let Some((request, default)) = above(request, default) {
        push(
            "defaultRequest",
            request,
            format!("default request value {request} is greater than default limit value {default}"),
        );
    }
    if let Some((min, default)) = above(min, default) {
        push("default", default, format!("min value {min} is greater than default value {default}"));
    }
    if let Some((default, max)) = above(default, max) {
        push("default", default, format!("default value {default} is greater than max value {max}"));
    }
    let Some(ratio) = get(&item.max_limit_request_ratio) else { return };
    if ratio.cmp_value(&Quantity::from_int(1, ratio.format())).is_lt() {
        push("maxLimitRequestRatio", ratio, format!("ratio {ratio} is less than 1"));
    }
    if let (Some(min), Some(max)) = (min, max)
        && min.milli_value() > 0
    {
        let max_over_min = max.milli_value() as f64 / min.milli_value() as f64;
        if ratio.milli_value() as f64 / 1000.0 > max_over_min {
            push("maxLimitRequestRatio", ratio, format!("ratio {ratio} is greater than max/min = {max_over_min:.6}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    #[test]
    fn a_quota_and_a_limit_range_are_listed_as_kubectl_lists_them() {
        let mut sim = lab("kubectl create namespace team\n");
        let applied = run(
            &mut sim,
            "kubectl apply -n team -f - <<EOF\napiVersion: v1\nkind: LimitRange\nmetadata: {name: defaults}\nspec:\n  limits:\n  - type: Container\n    max: {cpu: \"1\"}\nEOF",
        );
        assert!(applied.ends_with("EOF\nlimitrange/defaults created\n"), "{applied}");
        let limits = run(&mut sim, "kubectl get limits -n team -o jsonpath={.items[0].spec.limits[0]}");
        assert_eq!(
            limits,
            r#"{"default":{"cpu":"1"},"defaultRequest":{"cpu":"1"},"max":{"cpu":"1"},"type":"Container"}"#
        );
        let listed = run(&mut sim, "kubectl get limitranges -n team");
        assert!(listed.starts_with("NAME       CREATED AT\ndefaults   20"), "{listed}");
    }

    #[test]
    fn out_of_order_bounds_and_unknown_quota_resources_are_refused_in_upstreams_words() {
        let mut sim = lab("");
        let refused = run(
            &mut sim,
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: LimitRange\nmetadata: {name: bad}\nspec:\n  limits:\n  - type: Container\n    min: {cpu: \"2\"}\n    max: {cpu: \"1\"}\nEOF",
        );
        assert!(refused.contains("spec.limits[0].min[cpu]: Invalid value: resource.Quantity{"), "{refused}");
        assert!(refused.contains("min value 2 is greater than max value 1"), "{refused}");
        let refused = run(
            &mut sim,
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: bad}\nspec:\n  hard: {gpus: \"1\", pods: \"-1\"}\n  scopes: [BestEffort, NotBestEffort]\nEOF",
        );
        for cause in [
            r#"spec.hard[gpus]: Invalid value: "gpus": must be a standard resource for quota"#,
            r#"spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0"#,
            "conflicting scopes",
        ] {
            assert!(refused.contains(cause), "{cause} in {refused}");
        }
    }
}
