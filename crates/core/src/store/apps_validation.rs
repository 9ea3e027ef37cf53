//! ControllerRevision and DaemonSet (apps/v1): DaemonSet's defaults (`SetDefaults_DaemonSet`),
//! its template generation (the registry's strategy) and both kinds' validation, as
//! pkg/apis/apps/validation words it.

use super::validation::{non_negative, selector_and_template, selector_immutable, template_spec, validate_labels};
use crate::api::ControllerRevision;
use crate::api::daemon_set::{self, DaemonSet, RollingUpdateDaemonSet};
use crate::api::intstr::IntOrString;
use crate::error::{FieldError, go_quote};

/// The annotation the registry keeps a DaemonSet's template generation in (apps/v1 has no
/// field for it): 1 on create, one more each time the template changes. Pods carry it as
/// their `pod-template-generation` label.
pub const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

/// `ValidateControllerRevisionCreate` and, with `old`, `ValidateControllerRevisionUpdate`.
pub fn controller_revision(cr: &ControllerRevision, old: Option<&ControllerRevision>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if cr.data.is_none() {
        causes.push(FieldError::required("data", "data is mandatory"));
    }
    if cr.revision < 0 {
        causes.push(FieldError::invalid("revision", cr.revision.to_string(), "must be greater than or equal to 0"));
    }
    if let Some(old) = old
        && old.data != cr.data
    {
        let shown = cr.data.as_ref().map_or("null".to_string(), crate::controllers::history::go_json);
        causes.push(FieldError::invalid("data", shown, "field is immutable"));
    }
    causes
}

/// `SetDefaults_DaemonSet`: RollingUpdate with maxUnavailable 1 and maxSurge 0, a history of
/// 10 revisions, and the pod template's defaults.
pub fn default_daemon_set(ds: &mut DaemonSet) {
    let strategy = &mut ds.spec.update_strategy;
    strategy.type_.get_or_insert_with(|| daemon_set::ROLLING_UPDATE.to_string());
    if strategy.type_.as_deref() == Some(daemon_set::ROLLING_UPDATE) {
        let rolling = strategy.rolling_update.get_or_insert_with(RollingUpdateDaemonSet::default);
        rolling.max_unavailable.get_or_insert(IntOrString::Int(1));
        rolling.max_surge.get_or_insert(IntOrString::Int(0));
    }
    ds.spec.revision_history_limit.get_or_insert(10);
    super::defaults::pod_spec(&mut ds.spec.template.spec);
}

/// The daemonSetStrategy's PrepareForCreate: template generation 1.
pub fn prepare_daemon_set_for_create(ds: &mut DaemonSet) {
    ds.metadata.annotations.insert(TEMPLATE_GENERATION, "1");
}

/// PrepareForUpdate: the template generation carried over, and one more when the template
/// changed.
pub fn prepare_daemon_set_for_update(ds: &mut DaemonSet, old: &DaemonSet) {
    let generation = template_generation(old).unwrap_or(0);
    let next = if ds.spec.template != old.spec.template { generation + 1 } else { generation };
    ds.metadata.annotations.insert(TEMPLATE_GENERATION, next.to_string());
}

/// `GetTemplateGeneration`: the annotation as a number, if it is one.
pub fn template_generation(ds: &DaemonSet) -> Option<i64> {
    ds.metadata.annotations.get(TEMPLATE_GENERATION)?.parse().ok()
}

/// `ValidateDaemonSet` and, with `old`, `ValidateDaemonSetUpdate`.
pub fn validate_daemon_set(ds: &DaemonSet, old: Option<&DaemonSet>) -> Vec<FieldError> {
    let spec = &ds.spec;
    let mut causes = Vec::new();
    selector_and_template(spec.selector.as_ref(), &spec.template.metadata.labels, "daemonset", &mut causes);
    causes.extend(validate_labels(&spec.template.metadata.labels, "spec.template.metadata.labels"));
    causes.extend(template_spec(&spec.template.spec, "spec.template.spec"));
    if let Some(seconds) = spec.template.spec.active_deadline_seconds {
        causes.push(FieldError::invalid(
            "spec.template.spec.activeDeadlineSeconds",
            seconds.to_string(),
            "activeDeadlineSeconds in DaemonSet is not Supported",
        ));
    }
    non_negative(spec.min_ready_seconds, "spec.minReadySeconds", &mut causes);
    update_strategy(ds, &mut causes);
    non_negative(spec.revision_history_limit, "spec.revisionHistoryLimit", &mut causes);
    if let Some(old) = old {
        selector_immutable(spec.selector.as_ref(), old.spec.selector.as_ref(), &mut causes);
    }
    causes
}

/// `ValidateDaemonSetUpdateStrategy` and `ValidateRollingUpdateDaemonSet`.
fn update_strategy(ds: &DaemonSet, causes: &mut Vec<FieldError>) {
    let strategy = &ds.spec.update_strategy;
    match strategy.type_.as_deref().unwrap_or_default() {
        daemon_set::ON_DELETE => {}
        daemon_set::ROLLING_UPDATE => {
            let Some(rolling) = &strategy.rolling_update else {
                causes.push(FieldError::required("spec.updateStrategy.rollingUpdate", ""));
                return;
            };
            rolling_update(rolling, causes);
        }
        other => causes.push(FieldError::not_supported(
            "spec.updateStrategy",
            other,
            &[daemon_set::ROLLING_UPDATE, daemon_set::ON_DELETE],
        )),
    }
}

fn rolling_update(rolling: &RollingUpdateDaemonSet, causes: &mut Vec<FieldError>) {
    let path = |name: &str| format!("spec.updateStrategy.rollingUpdate.{name}");
    let fields = [("maxUnavailable", &rolling.max_unavailable), ("maxSurge", &rolling.max_surge)];
    for (name, value) in fields {
        positive_int_or_percent(value.as_ref(), &path(name), causes);
    }
    for (name, value) in fields {
        if let Some(IntOrString::String(s)) = value
            && percent(s).is_some_and(|p| p > 100)
        {
            causes.push(FieldError::invalid(path(name), go_quote(s), "must not be greater than 100%"));
        }
    }
    let value = |v: &Option<IntOrString>| match v {
        Some(IntOrString::Int(n)) => i64::from(*n),
        Some(IntOrString::String(s)) => percent(s).unwrap_or(0),
        None => 0,
    };
    match (value(&rolling.max_unavailable) != 0, value(&rolling.max_surge) != 0) {
        (true, true) => {
            let shown = rolling.max_surge.as_ref().map_or("null".into(), int_or_string_value);
            causes.push(FieldError::invalid(path("maxSurge"), shown, "may not be set when maxUnavailable is non-zero"));
        }
        (false, false) => causes.push(FieldError::required(path("maxUnavailable"), "cannot be 0 when maxSurge is 0")),
        _ => {}
    }
}

/// `ValidatePositiveIntOrPercent`.
fn positive_int_or_percent(value: Option<&IntOrString>, path: &str, causes: &mut Vec<FieldError>) {
    match value {
        Some(IntOrString::Int(n)) if *n < 0 => {
            causes.push(FieldError::invalid(path, n.to_string(), "must be greater than or equal to 0"));
        }
        Some(IntOrString::String(s)) if percent(s).is_none() => causes.push(FieldError::invalid(
            path,
            go_quote(s),
            "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        )),
        Some(IntOrString::String(s)) if percent(s).is_some_and(|p| p < 0) => {
            causes.push(FieldError::invalid(path, go_quote(s), "must be greater than or equal to 0"));
        }
        _ => {}
    }
}

fn percent(s: &str) -> Option<i64> {
    let digits = s.strip_suffix('%')?;
    digits.bytes().all(|b| b.is_ascii_digit()).then(|| digits.parse().ok()).flatten()
}

/// An IntOrString as a field error shows it (`%v` of the struct pointer prints the value).
fn int_or_string_value(value: &IntOrString) -> String {
    match value {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(s) => go_quote(s),
    }
}
