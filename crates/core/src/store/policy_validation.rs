//! PodDisruptionBudget validation, worded as upstream's pkg/apis/policy/validation
//! (`ValidatePodDisruptionBudgetSpec`): one bound at most, each a non-negative int or a
//! percentage of at most 100%, a valid selector, a known unhealthy pod eviction policy.

use crate::api::PodDisruptionBudget;
use crate::api::intstr::IntOrString;
use crate::api::pod_disruption_budget::{ALWAYS_ALLOW, IF_HEALTHY_BUDGET};
use crate::error::{FieldError, go_quote};
use serde_json::json;

/// apps validation's `IsValidPercent` message, as `ValidatePositiveIntOrPercent` reports it.
const NOT_A_PERCENT: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

pub fn pod_disruption_budget(pdb: &PodDisruptionBudget) -> Vec<FieldError> {
    let spec = &pdb.spec;
    let mut causes = Vec::new();
    if spec.min_available.is_some() && spec.max_unavailable.is_some() {
        causes.push(FieldError::invalid(
            "spec",
            spec_as_go_json(pdb),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for (field, bound) in [("spec.minAvailable", &spec.min_available), ("spec.maxUnavailable", &spec.max_unavailable)] {
        if let Some(bound) = bound {
            causes.extend(positive_int_or_percent(bound, field));
        }
    }
    if let Some(selector) = &spec.selector {
        for (path, message) in selector.validate("spec.selector") {
            causes.push(FieldError::preformatted(path, message));
        }
    }
    if let Some(policy) = spec.unhealthy_pod_eviction_policy.as_deref()
        && !matches!(policy, IF_HEALTHY_BUDGET | ALWAYS_ALLOW)
    {
        causes.push(FieldError::not_supported(
            "spec.unhealthyPodEvictionPolicy",
            policy,
            &[ALWAYS_ALLOW, IF_HEALTHY_BUDGET],
        ));
    }
    causes
}

/// `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`.
fn positive_int_or_percent(bound: &IntOrString, field: &str) -> Vec<FieldError> {
    match bound {
        IntOrString::Int(n) if *n < 0 => {
            vec![FieldError::invalid(field, n.to_string(), "must be greater than or equal to 0")]
        }
        IntOrString::Int(_) => Vec::new(),
        IntOrString::String(s) => {
            match s.strip_suffix('%').filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) {
                None => vec![FieldError::invalid(field, go_quote(s), NOT_A_PERCENT)],
                Some(percent) if percent.parse::<u64>().map_or(true, |p| p > 100) => {
                    vec![FieldError::invalid(field, go_quote(s), "must not be greater than 100%")]
                }
                Some(_) => Vec::new(),
            }
        }
    }
}

/// The spec as `field.Invalid` prints a struct it was given: JSON of the internal type, whose
/// fields carry Go's names.
fn spec_as_go_json(pdb: &PodDisruptionBudget) -> String {
    let spec = &pdb.spec;
    let field = |value: serde_json::Value| value.to_string();
    format!(
        r#"{{"MinAvailable":{},"Selector":{},"MaxUnavailable":{},"UnhealthyPodEvictionPolicy":{}}}"#,
        field(json!(spec.min_available)),
        field(json!(spec.selector)),
        field(json!(spec.max_unavailable)),
        field(json!(spec.unhealthy_pod_eviction_policy)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(spec: &str) -> Vec<String> {
        let pdb: PodDisruptionBudget = serde_yaml::from_str(&format!("metadata: {{name: b}}\nspec: {spec}")).unwrap();
        pod_disruption_budget(&pdb).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn bounds_are_one_non_negative_int_or_percentage() {
        assert!(errors("{minAvailable: 2, selector: {matchLabels: {app: web}}}").is_empty());
        assert!(errors("{maxUnavailable: \"100%\"}").is_empty());
        assert_eq!(
            errors("{minAvailable: -1}"),
            ["spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"]
        );
        assert_eq!(
            errors("{maxUnavailable: \"150%\"}"),
            ["spec.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%"]
        );
        assert_eq!(
            errors("{minAvailable: two}"),
            [format!("spec.minAvailable: Invalid value: \"two\": {NOT_A_PERCENT}")]
        );
        assert_eq!(
            errors("{minAvailable: 1, maxUnavailable: 1}"),
            [
                r#"spec: Invalid value: {"MinAvailable":1,"Selector":null,"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set"#
            ]
        );
        assert_eq!(
            errors("{unhealthyPodEvictionPolicy: Never}"),
            [
                r#"spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget""#
            ]
        );
    }
}
