//! Validation of how a Job counts failures and success: backoffLimitPerIndex with
//! maxFailedIndexes, podFailurePolicy, successPolicy and podReplacementPolicy, worded as
//! pkg/apis/batch/validation/validation.go words them (`validateJobSpec`,
//! `validatePodFailurePolicyRule`, `validateSuccessPolicyRule`, `validateIndexesFormat`).

use super::validation::non_negative;
use crate::api::job::{JobSpec, PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement, PodFailurePolicyRule};
use crate::api::job::{PodFailurePolicyOnPodConditionsPattern, SuccessPolicy, SuccessPolicyRule};
use crate::api::labels::validate_label_key;
use crate::error::{FieldError, FieldErrorKind, go_quote};
use std::collections::BTreeSet;

/// `maxParallelismForIndexedJob` and `maxFailedIndexesForIndexedJob`.
const MAX_PARALLELISM_FOR_INDEXED_JOB: i32 = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB: i32 = 100_000;
/// Above this many completions, backoffLimitPerIndex needs tighter bounds.
const COMPLETIONS_SOFT_LIMIT: i32 = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS: i32 = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS: i32 = 10_000;
const MAX_POD_FAILURE_POLICY_RULES: usize = 20;
const MAX_ON_EXIT_CODES_VALUES: usize = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS: usize = 20;
const MAX_SUCCEEDED_INDEXES_BYTES: usize = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES: usize = 20;
/// `supportedPodFailurePolicyActions`, sorted as `sets.List` gives them.
const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];
/// Where Go's `%#v` shows a pointer field's heap address, which differs from one request to
/// the next; the lab shows this one.
const GO_HEAP_ADDRESS: &str = "0xc000a1e2d0";

/// A spec's fields under `prefix` (`spec`, or a CronJob's `spec.jobTemplate.spec`).
pub struct Fields<'a>(pub &'a str);

impl Fields<'_> {
    fn at(&self, name: &str) -> String {
        format!("{}.{name}", self.0)
    }
}

/// backoffLimitPerIndex and maxFailedIndexes on their own: not negative, and the limit
/// whenever maxFailedIndexes is given.
pub fn per_index_limits(spec: &JobSpec, fields: &Fields<'_>, causes: &mut Vec<FieldError>) {
    non_negative(spec.backoff_limit_per_index, &fields.at("backoffLimitPerIndex"), causes);
    non_negative(spec.max_failed_indexes, &fields.at("maxFailedIndexes"), causes);
    if spec.max_failed_indexes.is_some() && spec.backoff_limit_per_index.is_none() {
        causes.push(FieldError::required(fields.at("backoffLimitPerIndex"), "when maxFailedIndexes is specified"));
    }
}

/// `value` past `limit`, as an Invalid cause.
fn above(fields: &Fields<'_>, name: &str, value: Option<i32>, limit: i32, detail: &str) -> Option<FieldError> {
    let value = value.filter(|v| *v > limit)?;
    Some(FieldError::invalid(fields.at(name), value.to_string(), detail))
}

/// An Indexed Job's bounds on parallelism and maxFailedIndexes, tighter past 100 000
/// completions with backoffLimitPerIndex.
pub fn indexed_limits(spec: &JobSpec, fields: &Fields<'_>, causes: &mut Vec<FieldError>) {
    let (parallelism, max_failed) = (spec.parallelism, spec.max_failed_indexes);
    let at_most = |limit: i32| format!("must be less than or equal to {limit}");
    let detail = format!("{} when completion mode is Indexed", at_most(MAX_PARALLELISM_FOR_INDEXED_JOB));
    causes.extend(above(fields, "parallelism", parallelism, MAX_PARALLELISM_FOR_INDEXED_JOB, &detail));
    if let Some(completions) = spec.completions {
        let detail = "must be less than or equal to completions";
        causes.extend(above(fields, "maxFailedIndexes", max_failed, completions, detail));
    }
    let limit = MAX_FAILED_INDEXES_FOR_INDEXED_JOB;
    causes.extend(above(fields, "maxFailedIndexes", max_failed, limit, &at_most(limit)));
    if spec.completions.is_none_or(|c| c <= COMPLETIONS_SOFT_LIMIT) || spec.backoff_limit_per_index.is_none() {
        return;
    }
    if max_failed.is_none() {
        let detail = format!("must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}");
        causes.push(FieldError::required(fields.at("maxFailedIndexes"), detail));
    }
    let high = format!("when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index");
    let limit = PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS;
    causes.extend(above(fields, "parallelism", parallelism, limit, &format!("{} {high}", at_most(limit))));
    let limit = MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS;
    causes.extend(above(fields, "maxFailedIndexes", max_failed, limit, &format!("{} {high}", at_most(limit))));
}

/// A NonIndexed Job cannot count failures per index.
pub fn non_indexed_limits(spec: &JobSpec, fields: &Fields<'_>, causes: &mut Vec<FieldError>) {
    for (name, value) in
        [("backoffLimitPerIndex", spec.backoff_limit_per_index), ("maxFailedIndexes", spec.max_failed_indexes)]
    {
        if let Some(value) = value {
            causes.push(FieldError::invalid(fields.at(name), value.to_string(), "requires indexed completion mode"));
        }
    }
}

/// `validatePodFailurePolicy`: at most 20 rules, each with a known action and one
/// requirement, exit codes naming the template's containers.
pub fn pod_failure_policy(
    spec: &JobSpec,
    policy: &PodFailurePolicy,
    fields: &Fields<'_>,
    causes: &mut Vec<FieldError>,
) {
    let rules_path = fields.at("podFailurePolicy.rules");
    if policy.rules.len() > MAX_POD_FAILURE_POLICY_RULES {
        causes.push(too_many(&rules_path, policy.rules.len(), MAX_POD_FAILURE_POLICY_RULES));
    }
    let pod = &spec.template.spec;
    let names: BTreeSet<&str> =
        pod.containers.iter().chain(pod.init_containers.iter()).map(|c| c.name.as_str()).collect();
    for (i, rule) in policy.rules.iter().enumerate() {
        pod_failure_policy_rule(spec, rule, &format!("{rules_path}[{i}]"), &names, causes);
    }
}

fn pod_failure_policy_rule(
    spec: &JobSpec,
    rule: &PodFailurePolicyRule,
    path: &str,
    names: &BTreeSet<&str>,
    causes: &mut Vec<FieldError>,
) {
    let action_path = format!("{path}.action");
    match rule.action.as_str() {
        "" => causes.push(FieldError::required(action_path, format!("valid values: {}", go_list(&ACTIONS)))),
        "FailIndex" if spec.backoff_limit_per_index.is_none() => causes.push(FieldError::invalid(
            action_path,
            go_quote("FailIndex"),
            "requires the backoffLimitPerIndex to be set",
        )),
        action if !ACTIONS.contains(&action) => causes.push(FieldError::not_supported(action_path, action, &ACTIONS)),
        _ => {}
    }
    if let Some(requirement) = &rule.on_exit_codes {
        on_exit_codes(requirement, &format!("{path}.onExitCodes"), names, causes);
    }
    if !rule.on_pod_conditions.is_empty() {
        on_pod_conditions(&rule.on_pod_conditions, &format!("{path}.onPodConditions"), causes);
    }
    // `field.OmitValueType`: the rule itself is not printed.
    match (rule.on_exit_codes.is_some(), rule.on_pod_conditions.is_empty()) {
        (true, false) => causes.push(FieldError::preformatted(
            path,
            "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported",
        )),
        (false, true) => causes.push(FieldError::preformatted(
            path,
            "Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
        )),
        _ => {}
    }
}

fn on_exit_codes(
    requirement: &PodFailurePolicyOnExitCodesRequirement,
    path: &str,
    names: &BTreeSet<&str>,
    causes: &mut Vec<FieldError>,
) {
    let operator_path = format!("{path}.operator");
    match requirement.operator.as_str() {
        "" => causes.push(FieldError::required(operator_path, format!("valid values: {}", go_list(&["In", "NotIn"])))),
        "In" | "NotIn" => {}
        other => causes.push(FieldError::not_supported(operator_path, other, &["In", "NotIn"])),
    }
    if let Some(name) = requirement.container_name.as_deref().filter(|n| !names.contains(n)) {
        let detail = "must be one of the container or initContainer names in the pod template";
        causes.push(FieldError::invalid(format!("{path}.containerName"), go_quote(name), detail));
    }
    let (values, values_path) = (&requirement.values, format!("{path}.values"));
    if values.is_empty() {
        causes.push(FieldError::invalid(&values_path, go_int32s(values), "at least one value is required"));
    } else if values.len() > MAX_ON_EXIT_CODES_VALUES {
        causes.push(too_many(&values_path, values.len(), MAX_ON_EXIT_CODES_VALUES));
    }
    let mut seen = BTreeSet::new();
    for (j, value) in values.iter().enumerate() {
        let value_path = format!("{values_path}[{j}]");
        if requirement.operator == "In" && *value == 0 {
            causes.push(FieldError::invalid(&value_path, "0", "must not be 0 for the In operator"));
        }
        if !seen.insert(*value) {
            let kind = FieldErrorKind::Duplicate { value: value.to_string() };
            causes.push(FieldError { field: value_path, kind, detail: String::new() });
        }
    }
    if values.windows(2).any(|pair| pair[0] > pair[1]) {
        causes.push(FieldError::invalid(values_path, go_int32s(values), "must be ordered"));
    }
}

fn on_pod_conditions(patterns: &[PodFailurePolicyOnPodConditionsPattern], path: &str, causes: &mut Vec<FieldError>) {
    if patterns.len() > MAX_ON_POD_CONDITIONS_PATTERNS {
        causes.push(too_many(path, patterns.len(), MAX_ON_POD_CONDITIONS_PATTERNS));
    }
    const STATUSES: [&str; 3] = ["False", "True", "Unknown"];
    for (j, pattern) in patterns.iter().enumerate() {
        let type_path = format!("{path}[{j}].type");
        for problem in validate_label_key(&pattern.type_) {
            causes.push(FieldError::invalid(&type_path, go_quote(&pattern.type_), problem));
        }
        let status_path = format!("{path}[{j}].status");
        match pattern.status.as_deref().unwrap_or("") {
            "" => causes.push(FieldError::required(status_path, format!("valid values: {}", go_list(&STATUSES)))),
            status if !STATUSES.contains(&status) => {
                causes.push(FieldError::not_supported(status_path, status, &STATUSES))
            }
            _ => {}
        }
    }
}

/// `validateSuccessPolicy`: Indexed Jobs only; 1 to 20 rules, each naming indexes that parse
/// below completions, or a count, or both.
pub fn success_policy(spec: &JobSpec, policy: &SuccessPolicy, fields: &Fields<'_>, causes: &mut Vec<FieldError>) {
    let path = fields.at("successPolicy");
    if !spec.is_indexed() {
        causes.push(FieldError::invalid(path, go_success_policy(policy), "requires indexed completion mode"));
        return;
    }
    let rules_path = format!("{path}.rules");
    if policy.rules.is_empty() {
        let detail = "at least one rules must be specified when the successPolicy is specified";
        causes.push(FieldError::required(&rules_path, detail));
    }
    if policy.rules.len() > MAX_SUCCESS_POLICY_RULES {
        causes.push(too_many(&rules_path, policy.rules.len(), MAX_SUCCESS_POLICY_RULES));
    }
    // An Indexed Job without completions is refused already (upstream would dereference nil).
    let Some(completions) = spec.completions else { return };
    for (i, rule) in policy.rules.iter().enumerate() {
        success_policy_rule(rule, completions, &format!("{rules_path}[{i}]"), causes);
    }
}

fn success_policy_rule(rule: &SuccessPolicyRule, completions: i32, path: &str, causes: &mut Vec<FieldError>) {
    if rule.succeeded_count.is_none() && rule.succeeded_indexes.is_none() {
        let detail = "at least one of succeededCount or succeededIndexes must be specified";
        causes.push(FieldError::required(path, detail));
    }
    let mut total_indexes = 0;
    if let Some(indexes) = &rule.succeeded_indexes {
        let indexes_path = format!("{path}.succeededIndexes");
        if indexes.len() > MAX_SUCCEEDED_INDEXES_BYTES {
            let body = format!("Too long: must have at most {MAX_SUCCEEDED_INDEXES_BYTES} bytes");
            causes.push(FieldError::preformatted(&indexes_path, body));
        }
        match validate_indexes_format(indexes, completions) {
            Ok(total) => total_indexes = total,
            Err(err) => causes.push(FieldError::invalid(
                indexes_path,
                go_quote(indexes),
                format!("error parsing succeededIndexes: {err}"),
            )),
        }
    }
    let Some(count) = rule.succeeded_count else { return };
    let count_path = format!("{path}.succeededCount");
    non_negative(Some(count), &count_path, causes);
    if count > completions {
        let detail = format!("must be less than or equal to {completions} (the number of specified completions)");
        causes.push(FieldError::invalid(&count_path, count.to_string(), detail));
    }
    if rule.succeeded_indexes.is_some() && i64::from(count) > total_indexes {
        let detail = format!(
            "must be less than or equal to {total_indexes} (the number of indexes in the specified succeededIndexes field)"
        );
        causes.push(FieldError::invalid(count_path, count.to_string(), detail));
    }
}

/// `validateIndexesFormat`: ordered intervals (`1,3-5`) below `completions`; how many
/// indexes they hold.
pub fn validate_indexes_format(indexes: &str, completions: i32) -> Result<i64, String> {
    if indexes.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total = 0;
    for interval in indexes.split(',') {
        let (first, end) = parse_index_interval(interval, completions)?;
        if let Some(previous) = last.filter(|previous| *previous >= first) {
            return Err(format!("non-increasing order, previous: {previous}, current: {first}"));
        }
        total += end - first + 1;
        last = Some(end);
    }
    Ok(total)
}

/// `parseIndexInterval`: `3` or `3-5`.
fn parse_index_interval(interval: &str, completions: i32) -> Result<(i64, i64), String> {
    let limits: Vec<&str> = interval.split('-').collect();
    if limits.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            go_quote(interval)
        ));
    }
    let index = |text: &str| -> Result<i64, String> {
        let value = text
            .parse::<i64>()
            .map_err(|_| format!("cannot convert string to integer for index: {}", go_quote(text)))?;
        if value >= i64::from(completions) {
            return Err(format!("too large index: {}", go_quote(text)));
        }
        Ok(value)
    };
    let first = index(limits[0])?;
    let Some(end) = limits.get(1) else { return Ok((first, first)) };
    let end = index(end)?;
    if first >= end {
        return Err(format!("non-increasing order, previous: {first}, current: {end}"));
    }
    Ok((first, end))
}

/// `validatePodReplacementPolicy`: only Failed with a podFailurePolicy.
pub fn pod_replacement_policy(spec: &JobSpec, fields: &Fields<'_>, causes: &mut Vec<FieldError>) {
    let Some(policy) = spec.pod_replacement_policy.as_deref() else { return };
    let supported: &[&str] =
        if spec.pod_failure_policy.is_some() { &["Failed"] } else { &["Failed", "TerminatingOrFailed"] };
    if !supported.contains(&policy) {
        causes.push(FieldError::not_supported(fields.at("podReplacementPolicy"), policy, supported));
    }
}

/// `ValidateJobSpecUpdate`'s immutable fields of these policies.
pub fn immutable(spec: &JobSpec, old: &JobSpec, fields: &Fields<'_>, causes: &mut Vec<FieldError>) {
    if spec.backoff_limit_per_index != old.backoff_limit_per_index {
        let value = spec.backoff_limit_per_index.map_or("null".to_string(), |v| v.to_string());
        causes.push(FieldError::invalid(fields.at("backoffLimitPerIndex"), value, "field is immutable"));
    }
    if spec.success_policy != old.success_policy {
        let value = spec.success_policy.as_ref().map_or("null".to_string(), go_success_policy);
        causes.push(FieldError::invalid(fields.at("successPolicy"), value, "field is immutable"));
    }
}

/// `field.TooMany`'s cause.
fn too_many(path: &str, actual: usize, max: usize) -> FieldError {
    FieldError::preformatted(path, format!("Too many: {actual}: must have at most {max} items"))
}

/// Go's `%q` of a string slice: `["In" "NotIn"]`.
fn go_list(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| go_quote(v)).collect();
    format!("[{}]", quoted.join(" "))
}

/// Go's `%#v` of an `[]int32`.
fn go_int32s(values: &[i32]) -> String {
    let items: Vec<String> = values.iter().map(i32::to_string).collect();
    format!("[]int32{{{}}}", items.join(", "))
}

/// Go's `%#v` of the internal `batch.SuccessPolicy`, as a field error prints it.
fn go_success_policy(policy: &SuccessPolicy) -> String {
    let pointer = |type_: &str, set: bool| match set {
        true => format!("(*{type_})({GO_HEAP_ADDRESS})"),
        false => format!("(*{type_})(nil)"),
    };
    let rules: Vec<String> = policy
        .rules
        .iter()
        .map(|rule| {
            let indexes = pointer("string", rule.succeeded_indexes.is_some());
            let count = pointer("int32", rule.succeeded_count.is_some());
            format!("batch.SuccessPolicyRule{{SucceededIndexes:{indexes}, SucceededCount:{count}}}")
        })
        .collect();
    let rules = match rules.is_empty() {
        true => "[]batch.SuccessPolicyRule(nil)".to_string(),
        false => format!("[]batch.SuccessPolicyRule{{{}}}", rules.join(", ")),
    };
    format!("batch.SuccessPolicy{{Rules:{rules}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: &str) -> JobSpec {
        serde_json::from_str(json).unwrap()
    }

    fn causes(spec: &JobSpec, check: fn(&JobSpec, &Fields<'_>, &mut Vec<FieldError>)) -> Vec<String> {
        let mut causes = Vec::new();
        check(spec, &Fields("spec"), &mut causes);
        causes.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn per_index_limits_need_an_indexed_job_and_stay_in_bounds() {
        let non_indexed = spec(r#"{"backoffLimitPerIndex":1,"maxFailedIndexes":-1}"#);
        let mut all = causes(&non_indexed, per_index_limits);
        all.extend(causes(&non_indexed, non_indexed_limits));
        assert_eq!(
            all,
            [
                "spec.maxFailedIndexes: Invalid value: -1: must be greater than or equal to 0",
                "spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode",
                "spec.maxFailedIndexes: Invalid value: -1: requires indexed completion mode",
            ]
        );
        let indexed = spec(r#"{"completionMode":"Indexed","completions":3,"maxFailedIndexes":4}"#);
        let mut all = causes(&indexed, per_index_limits);
        all.extend(causes(&indexed, indexed_limits));
        assert_eq!(
            all,
            [
                "spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified",
                "spec.maxFailedIndexes: Invalid value: 4: must be less than or equal to completions",
            ]
        );
        let huge =
            spec(r#"{"completionMode":"Indexed","completions":200000,"parallelism":20000,"backoffLimitPerIndex":0}"#);
        assert_eq!(
            causes(&huge, indexed_limits),
            [
                "spec.maxFailedIndexes: Required value: must be specified when completions is above 100000",
                "spec.parallelism: Invalid value: 20000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index",
            ]
        );
    }

    #[test]
    fn pod_failure_policy_rules_are_checked_as_upstream() {
        let job = spec(
            r#"{"template":{"spec":{"containers":[{"name":"main"}]}},"podFailurePolicy":{"rules":[
            {"action":"FailIndex","onExitCodes":{"containerName":"side","operator":"In","values":[3,0,3]}},
            {"action":"","onExitCodes":{"operator":"Sometimes","values":[]},"onPodConditions":[{"type":"DisruptionTarget","status":"Maybe"}]},
            {"action":"Retry"}]}}"#,
        );
        let check = |spec: &JobSpec, fields: &Fields<'_>, causes: &mut Vec<FieldError>| {
            pod_failure_policy(spec, spec.pod_failure_policy.as_ref().unwrap(), fields, causes)
        };
        assert_eq!(
            causes(&job, check),
            [
                r#"spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set"#,
                r#"spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "side": must be one of the container or initContainer names in the pod template"#,
                "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator",
                "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3",
                "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 0, 3}: must be ordered",
                r#"spec.podFailurePolicy.rules[1].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]"#,
                r#"spec.podFailurePolicy.rules[1].onExitCodes.operator: Unsupported value: "Sometimes": supported values: "In", "NotIn""#,
                "spec.podFailurePolicy.rules[1].onExitCodes.values: Invalid value: []int32{}: at least one value is required",
                r#"spec.podFailurePolicy.rules[1].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown""#,
                "spec.podFailurePolicy.rules[1]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported",
                r#"spec.podFailurePolicy.rules[2].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore""#,
                "spec.podFailurePolicy.rules[2]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
            ]
        );
    }

    #[test]
    fn success_policies_need_an_indexed_job_and_indexes_that_parse() {
        let check = |spec: &JobSpec, fields: &Fields<'_>, causes: &mut Vec<FieldError>| {
            success_policy(spec, spec.success_policy.as_ref().unwrap(), fields, causes)
        };
        let non_indexed = spec(r#"{"successPolicy":{"rules":[{"succeededIndexes":"0"}]}}"#);
        assert_eq!(
            causes(&non_indexed, check),
            [
                "spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{batch.SuccessPolicyRule{SucceededIndexes:(*string)(0xc000a1e2d0), SucceededCount:(*int32)(nil)}}}: requires indexed completion mode"
            ]
        );
        let indexed = spec(
            r#"{"completionMode":"Indexed","completions":5,"successPolicy":{"rules":[{},
            {"succeededIndexes":"0-2,2-4","succeededCount":2},{"succeededIndexes":"1-3","succeededCount":6}]}}"#,
        );
        assert_eq!(
            causes(&indexed, check),
            [
                "spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified",
                r#"spec.successPolicy.rules[1].succeededIndexes: Invalid value: "0-2,2-4": error parsing succeededIndexes: non-increasing order, previous: 2, current: 2"#,
                "spec.successPolicy.rules[1].succeededCount: Invalid value: 2: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)",
                "spec.successPolicy.rules[2].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)",
                "spec.successPolicy.rules[2].succeededCount: Invalid value: 6: must be less than or equal to 3 (the number of indexes in the specified succeededIndexes field)",
            ]
        );
    }

    #[test]
    fn index_lists_parse_as_upstream_reads_them() {
        assert_eq!(validate_indexes_format("", 3), Ok(0));
        assert_eq!(validate_indexes_format("0,2-4", 5), Ok(4));
        assert_eq!(validate_indexes_format("5", 5), Err(r#"too large index: "5""#.into()));
        assert_eq!(validate_indexes_format("1-x", 5), Err(r#"cannot convert string to integer for index: "x""#.into()));
        assert_eq!(validate_indexes_format("3-1", 5), Err("non-increasing order, previous: 3, current: 1".into()));
        let three = Err(r#"the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'"#.into());
        assert_eq!(validate_indexes_format("1-2-3", 5), three);
    }
}
