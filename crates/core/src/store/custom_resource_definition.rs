//! The CustomResourceDefinition strategy (apiextensions-apiserver's `customresourcedefinition`
//! registry and validation) and what installing one does: its resource is served (its
//! `Established` condition, which apiextensions' establishing controller sets within moments of
//! the create, is set as it is stored), and deleting it deletes every object of its kind, as the
//! `customresourcecleanup` finalizer does.

use super::Store;
use crate::api::custom_resource_definition::{CustomResourceDefinitionCondition, CustomResourceDefinitionNames};
use crate::api::meta::Time;
use crate::api::{CustomResourceDefinition, Kind, RESOURCES, ResourceInfo};
use crate::error::{FieldError, go_quote};

/// The kind table's custom resource that a CRD of this name defines.
pub fn custom_kind(crd_name: &str) -> Option<&'static ResourceInfo> {
    RESOURCES.iter().find(|r| r.custom && r.plural_qualified() == crd_name)
}

impl Store {
    /// Whether the API server serves `kind` now: built-in kinds always; a custom resource while
    /// its CRD is installed and Established.
    pub fn serves(&self, kind: Kind) -> bool {
        let info = kind.info();
        !info.custom
            || self
                .try_get::<CustomResourceDefinition>("", &info.plural_qualified())
                .is_some_and(|crd| crd.is_established() && crd.metadata.deletion_timestamp.is_none())
    }
}

/// `ValidateCustomResourceDefinition`, for what the lab can serve: the name is
/// `<plural>.<group>`, and the definition is one of the kind table's custom resources, as the
/// table names it (the lab serves those kinds with their own types and strategy).
pub fn validate(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let spec = &crd.spec;
    let mut causes = Vec::new();
    let expected = format!("{}.{}", spec.names.plural, spec.group);
    if crd.metadata.name != expected {
        let detail = "must be spec.names.plural+\".\"+spec.group";
        causes.push(FieldError::invalid("metadata.name", go_quote(&crd.metadata.name), detail));
        return causes;
    }
    let Some(info) = custom_kind(&expected) else {
        let supported: Vec<String> = RESOURCES.iter().filter(|r| r.custom).map(|r| r.plural_qualified()).collect();
        let supported: Vec<&str> = supported.iter().map(String::as_str).collect();
        causes.push(FieldError::not_supported("metadata.name", &expected, &supported));
        return causes;
    };
    if spec.names.kind != info.kind_name {
        causes.push(FieldError::not_supported("spec.names.kind", &spec.names.kind, &[info.kind_name]));
    }
    let scope = if info.namespaced { "Namespaced" } else { "Cluster" };
    if spec.scope != scope {
        causes.push(FieldError::not_supported("spec.scope", &spec.scope, &[scope]));
    }
    let storage: Vec<&str> = spec.versions.iter().filter(|v| v.storage).map(|v| v.name.as_str()).collect();
    if storage.len() != 1 {
        causes.push(FieldError::invalid(
            "spec.versions",
            format!("{}", storage.len()),
            "must have exactly one version marked as storage version",
        ));
    } else if !spec.versions.iter().any(|v| v.name == info.version && v.served) {
        causes.push(FieldError::not_supported("spec.versions[*].name", storage[0], &[info.version]));
    }
    causes
}

/// What the establishing controller writes once the names are accepted.
pub fn establish(crd: &mut CustomResourceDefinition, now: Time) {
    let condition = |type_: &str, reason: &str, message: &str| CustomResourceDefinitionCondition {
        type_: type_.to_string(),
        status: "True".to_string(),
        last_transition_time: Some(now),
        reason: Some(reason.to_string()),
        message: Some(message.to_string()),
    };
    crd.status.conditions = vec![
        condition("NamesAccepted", "NoConflicts", "no conflicts found"),
        condition("Established", "InitialNamesAccepted", "the initial names have been accepted"),
    ];
    let names = &crd.spec.names;
    crd.status.accepted_names = Some(CustomResourceDefinitionNames {
        list_kind: names.list_kind.clone().or_else(|| Some(format!("{}List", names.kind))),
        singular: names.singular.clone().or_else(|| Some(names.kind.to_ascii_lowercase())),
        ..names.clone()
    });
    crd.status.stored_versions = crd.spec.versions.iter().filter(|v| v.storage).map(|v| v.name.clone()).collect();
}

/// `SetDefaults_CustomResourceDefinition`: the singular and list kind from the kind.
pub fn apply_defaults(crd: &mut CustomResourceDefinition) {
    let names = &mut crd.spec.names;
    if names.singular.is_none() {
        names.singular = Some(names.kind.to_ascii_lowercase());
    }
    if names.list_kind.is_none() {
        names.list_kind = Some(format!("{}List", names.kind));
    }
}
