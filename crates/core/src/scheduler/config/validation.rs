//! Upstream's checks of the file (apis/config/validation: `ValidateKubeSchedulerConfiguration`,
//! `ValidateNodeResourcesFitArgs`), each error worded as `field.Error` words it and joined as
//! `ToAggregate` joins them.

use super::{SchedulerConfig, ScoringStrategy, ScoringStrategyType};

/// One `field.Error`: the path and its body (`Invalid value: 0: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub body: String,
}

impl FieldError {
    pub fn invalid(field: String, value: impl std::fmt::Display, detail: &str) -> FieldError {
        FieldError { field, body: format!("Invalid value: {value}: {detail}") }
    }

    pub fn required(field: String, detail: &str) -> FieldError {
        let body = if detail.is_empty() { "Required value".into() } else { format!("Required value: {detail}") };
        FieldError { field, body }
    }

    pub fn duplicate(field: String, value: &str) -> FieldError {
        FieldError { field, body: format!("Duplicate value: \"{value}\"") }
    }

    pub fn unsupported(field: String, value: &str, supported: &[&str]) -> FieldError {
        let quoted: Vec<String> = supported.iter().map(|s| format!("\"{s}\"")).collect();
        FieldError { field, body: format!("Unsupported value: \"{value}\": supported values: {}", quoted.join(", ")) }
    }

    /// A field upstream accepts whose effect the lab's scheduler does not model: refused, so a
    /// learner never believes it took effect.
    pub fn not_modelled(field: String) -> FieldError {
        FieldError { field, body: "Forbidden: not supported by the lab's scheduler (it has no effect here)".into() }
    }

    pub fn decoding(field: String, detail: String) -> FieldError {
        FieldError { field, body: format!("Invalid value: strict decoding error: {detail}") }
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.body)
    }
}

/// `ToAggregate().Error()`: one error as itself, more in brackets.
pub fn aggregate(errors: &[FieldError]) -> String {
    match errors {
        [one] => one.to_string(),
        many => format!("[{}]", many.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// Every profile needs a name, and no two the same.
pub fn validate_profiles(config: &SchedulerConfig, errors: &mut Vec<FieldError>) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, profile) in config.profiles.iter().enumerate() {
        let path = format!("profiles[{i}].schedulerName");
        if profile.scheduler_name.is_empty() {
            errors.push(FieldError::required(path, ""));
        } else if seen.contains(&profile.scheduler_name.as_str()) {
            errors.push(FieldError::duplicate(path, &profile.scheduler_name));
        } else {
            seen.push(&profile.scheduler_name);
        }
    }
}

/// `validateResources` and, for the ratio strategy, `validateFunctionShape`.
pub fn validate_strategy(path: &str, strategy: &ScoringStrategy, errors: &mut Vec<FieldError>) {
    for (i, resource) in strategy.resources.iter().enumerate() {
        if resource.weight <= 0 || resource.weight > 100 {
            let detail = format!("resource weight of {} not in valid range (0, 100]", resource.name);
            errors.push(FieldError::invalid(format!("{path}.resources[{i}].weight"), resource.weight, &detail));
        }
    }
    if strategy.kind != ScoringStrategyType::RequestedToCapacityRatio {
        return;
    }
    let shape_path = format!("{path}.shape");
    let shape = &strategy.shape;
    if shape.is_empty() {
        errors.push(FieldError::required(shape_path, "at least one point must be specified"));
        return;
    }
    if let Some(i) = (1..shape.len()).find(|&i| shape[i - 1].utilization >= shape[i].utilization) {
        let field = format!("{shape_path}[{i}].utilization");
        errors.push(FieldError::invalid(field, shape[i].utilization, "values must be sorted in increasing order"));
    }
    for (i, point) in shape.iter().enumerate() {
        if !(0..=100).contains(&point.utilization) {
            let field = format!("{shape_path}[{i}].utilization");
            errors.push(FieldError::invalid(field, point.utilization, "not in valid range [0, 100]"));
        }
        if !(0..=10).contains(&point.score) {
            errors.push(FieldError::invalid(
                format!("{shape_path}[{i}].score"),
                point.score,
                "not in valid range [0, 10]",
            ));
        }
    }
}
