//! The StatefulSet's strategy: SetDefaults_StatefulSet (pkg/apis/apps/v1/defaults.go) and
//! ValidateStatefulSetSpec / ValidateStatefulSetUpdate (pkg/apis/apps/validation/validation.go).

use super::defaults;
use super::validation::{selector_and_template, validate_labels};
use crate::api::StatefulSet;
use crate::api::intstr::IntOrString;
use crate::api::stateful_set::{
    DELETE, ON_DELETE, ORDERED_READY, PARALLEL, RETAIN, ROLLING_UPDATE, RollingUpdateStatefulSetStrategy,
    StatefulSetSpec,
};
use crate::error::{FieldError, go_quote};

fn set<T>(field: &mut Option<T>, value: T) {
    if field.is_none() {
        *field = Some(value);
    }
}

/// SetDefaults_StatefulSet, with MaxUnavailableStatefulSet on (beta, on by default in 1.36):
/// a rolling update gets `partition: 0` and `maxUnavailable: 1`.
pub fn default_stateful_set(set_: &mut StatefulSet) {
    let spec = &mut set_.spec;
    set(&mut spec.pod_management_policy, ORDERED_READY.to_string());
    let strategy = &mut spec.update_strategy;
    if strategy.type_.is_none() {
        strategy.type_ = Some(ROLLING_UPDATE.to_string());
        set(&mut strategy.rolling_update, RollingUpdateStatefulSetStrategy::default());
    }
    if strategy.type_.as_deref() == Some(ROLLING_UPDATE)
        && let Some(rolling) = &mut strategy.rolling_update
    {
        set(&mut rolling.partition, 0);
        set(&mut rolling.max_unavailable, IntOrString::Int(1));
    }
    let policy = spec.persistent_volume_claim_retention_policy.get_or_insert_with(Default::default);
    set(&mut policy.when_deleted, RETAIN.to_string());
    set(&mut policy.when_scaled, RETAIN.to_string());
    set(&mut spec.replicas, 1);
    set(&mut spec.revision_history_limit, 10);
    defaults::pod_spec(&mut spec.template.spec);
    // The templates are PersistentVolumeClaims and take a claim's defaults.
    for claim in &mut spec.volume_claim_templates {
        super::storage_validation::default_claim(claim);
    }
}

/// ValidateStatefulSetSpec, then on update what may not change.
pub fn validate_stateful_set(new: &StatefulSet, old: Option<&StatefulSet>) -> Vec<FieldError> {
    let spec = &new.spec;
    let mut causes = Vec::new();
    pod_management_policy(spec, &mut causes);
    update_strategy(spec, &mut causes);
    retention_policy(spec, &mut causes);
    non_negative("spec.replicas", spec.replicas, &mut causes);
    non_negative("spec.minReadySeconds", spec.min_ready_seconds, &mut causes);
    if let Some(ordinals) = &spec.ordinals {
        non_negative("spec.ordinals.start", Some(ordinals.start), &mut causes);
    }
    selector_and_template(spec.selector.as_ref(), &spec.template.metadata.labels, "statefulset", &mut causes);
    causes.extend(validate_labels(&spec.template.metadata.labels, "spec.template.labels"));
    let template = &spec.template.spec;
    if let Some(policy) = template.restart_policy.as_deref().filter(|p| *p != "Always") {
        causes.push(FieldError::not_supported("spec.template.spec.restartPolicy", policy, &["Always"]));
    }
    if template.active_deadline_seconds.is_some() {
        causes.push(FieldError::forbidden(
            "spec.template.spec.activeDeadlineSeconds",
            "activeDeadlineSeconds in StatefulSet is not Supported",
        ));
    }
    if let Some(old) = old {
        causes.extend(spec_update(spec, &old.spec));
    }
    causes
}

fn non_negative(field: &str, value: Option<i32>, causes: &mut Vec<FieldError>) {
    if let Some(v) = value.filter(|v| *v < 0) {
        causes.push(FieldError::invalid(field, v.to_string(), "must be greater than or equal to 0"));
    }
}

fn pod_management_policy(spec: &StatefulSetSpec, causes: &mut Vec<FieldError>) {
    match spec.pod_management_policy.as_deref().unwrap_or("") {
        "" => causes.push(FieldError::required("spec.podManagementPolicy", "")),
        ORDERED_READY | PARALLEL => {}
        other => causes.push(FieldError::invalid(
            "spec.podManagementPolicy",
            go_quote(other),
            format!("must be '{ORDERED_READY}' or '{PARALLEL}'"),
        )),
    }
}

fn update_strategy(spec: &StatefulSetSpec, causes: &mut Vec<FieldError>) {
    let strategy = &spec.update_strategy;
    match strategy.type_.as_deref().unwrap_or("") {
        "" => causes.push(FieldError::required("spec.updateStrategy", "")),
        ON_DELETE if strategy.rolling_update.is_some() => causes.push(FieldError::invalid(
            "spec.updateStrategy.rollingUpdate",
            go_rolling_update(strategy.rolling_update.as_ref()),
            format!("only allowed for updateStrategy '{ROLLING_UPDATE}'"),
        )),
        ON_DELETE => {}
        ROLLING_UPDATE => {
            if let Some(rolling) = &strategy.rolling_update {
                rolling_update(rolling, causes);
            }
        }
        other => causes.push(FieldError::invalid(
            "spec.updateStrategy",
            format!("apps.StatefulSetUpdateStrategy{{Type:{}, RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}}", go_quote(other)),
            format!("must be '{ROLLING_UPDATE}' or '{ON_DELETE}'"),
        )),
    }
}

/// The rolling update as Go's `%#v` shows it in a field error.
fn go_rolling_update(rolling: Option<&RollingUpdateStatefulSetStrategy>) -> String {
    let Some(rolling) = rolling else { return "(*apps.RollingUpdateStatefulSetStrategy)(nil)".to_string() };
    let max = match &rolling.max_unavailable {
        None => "(*intstr.IntOrString)(nil)".to_string(),
        Some(IntOrString::Int(n)) => format!("intstr.IntOrString{{Type:0, IntVal:{n}, StrVal:\"\"}}"),
        Some(IntOrString::String(s)) => format!("intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}", go_quote(s)),
    };
    format!(
        "apps.RollingUpdateStatefulSetStrategy{{Partition:{}, MaxUnavailable:{max}}}",
        rolling.partition.unwrap_or(0)
    )
}

/// validateRollingUpdateStatefulSet.
fn rolling_update(rolling: &RollingUpdateStatefulSetStrategy, causes: &mut Vec<FieldError>) {
    const PATH: &str = "spec.updateStrategy.rollingUpdate";
    non_negative(&format!("{PATH}.partition"), rolling.partition, causes);
    let Some(max) = &rolling.max_unavailable else { return };
    let field = format!("{PATH}.maxUnavailable");
    match max {
        IntOrString::Int(n) if *n < 0 => {
            causes.push(FieldError::invalid(&field, n.to_string(), "must be greater than or equal to 0"));
        }
        IntOrString::Int(0) => causes.push(FieldError::invalid(&field, "0", "cannot be 0")),
        IntOrString::Int(_) => {}
        IntOrString::String(s) => match s.strip_suffix('%').and_then(|p| p.parse::<i64>().ok()) {
            Some(0) => causes.push(FieldError::invalid(&field, go_quote(s), "cannot be 0")),
            Some(p) if p > 100 => causes.push(FieldError::invalid(&field, go_quote(s), "must not be greater than 100%")),
            Some(_) => {}
            None => causes.push(FieldError::invalid(
                &field,
                go_quote(s),
                "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
            )),
        },
    }
}

fn retention_policy(spec: &StatefulSetSpec, causes: &mut Vec<FieldError>) {
    let Some(policy) = &spec.persistent_volume_claim_retention_policy else { return };
    let path = "spec.persistentVolumeClaimRetentionPolicy";
    for (name, value) in [("whenDeleted", &policy.when_deleted), ("whenScaled", &policy.when_scaled)] {
        let value = value.as_deref().unwrap_or("");
        if !matches!(value, RETAIN | DELETE) {
            causes.push(FieldError::not_supported(format!("{path}.{name}"), value, &[RETAIN, DELETE]));
        }
    }
}

/// ValidateStatefulSetUpdate: only replicas, ordinals, template, updateStrategy, the claim
/// retention policy and minReadySeconds may change (and revisionHistoryLimit, which the
/// registry's strategy lets through too).
fn spec_update(new: &StatefulSetSpec, old: &StatefulSetSpec) -> Vec<FieldError> {
    let mut comparable = new.clone();
    comparable.replicas = old.replicas;
    comparable.template = old.template.clone();
    comparable.update_strategy = old.update_strategy.clone();
    comparable.min_ready_seconds = old.min_ready_seconds;
    comparable.ordinals = old.ordinals.clone();
    comparable.revision_history_limit = old.revision_history_limit;
    comparable.persistent_volume_claim_retention_policy = old.persistent_volume_claim_retention_policy.clone();
    if comparable == *old {
        return Vec::new();
    }
    vec![FieldError::forbidden(
        "spec",
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(yaml: &str) -> StatefulSet {
        let mut set_: StatefulSet = serde_yaml::from_str(yaml).expect("decodes");
        default_stateful_set(&mut set_);
        set_
    }

    const WEB: &str = "metadata: {name: web}\nspec:\n  serviceName: web\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: nginx, image: nginx}]}\n";

    #[test]
    fn defaults_are_upstreams() {
        let set_ = decode(WEB);
        let spec = &set_.spec;
        assert_eq!(spec.replicas, Some(1));
        assert_eq!(spec.revision_history_limit, Some(10));
        assert_eq!(spec.pod_management_policy.as_deref(), Some("OrderedReady"));
        assert_eq!(spec.retention(), ("Retain", "Retain"));
        let rolling = spec.update_strategy.rolling_update.as_ref().unwrap();
        assert_eq!((rolling.partition, rolling.max_unavailable.clone()), (Some(0), Some(IntOrString::Int(1))));
        assert!(validate_stateful_set(&set_, None).is_empty());
    }

    #[test]
    fn invalid_specs_are_refused_with_upstreams_field_errors() {
        let mut set_ = decode(WEB);
        set_.spec.pod_management_policy = Some("Random".into());
        set_.spec.replicas = Some(-1);
        set_.spec.update_strategy.rolling_update.as_mut().unwrap().max_unavailable = Some(IntOrString::Int(0));
        set_.spec.persistent_volume_claim_retention_policy.as_mut().unwrap().when_scaled = Some("Keep".into());
        let bodies: Vec<String> =
            validate_stateful_set(&set_, None).iter().map(|c| format!("{}: {}", c.field, c.body())).collect();
        assert_eq!(
            bodies,
            [
                "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
                "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0",
                "spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: \"Keep\": supported values: \"Retain\", \"Delete\"",
                "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            ]
        );
    }

    #[test]
    fn only_some_spec_fields_may_change() {
        let old = decode(WEB);
        let mut scaled = old.clone();
        scaled.spec.replicas = Some(5);
        assert!(validate_stateful_set(&scaled, Some(&old)).is_empty());
        let mut renamed = old.clone();
        renamed.spec.service_name = "other".into();
        let causes = validate_stateful_set(&renamed, Some(&old));
        assert_eq!(causes.len(), 1);
        assert_eq!(causes[0].field, "spec");
        assert!(causes[0].body().starts_with("Forbidden: updates to statefulset spec"), "{}", causes[0].body());
    }
}
