//! The chain run while a request's path is recorded (`store/request_path.rs`): each plugin's
//! step noted as it happens — admitted, the fields it mutated, its warnings, or its refusal —
//! so the learner sees which plugin did what. The same plugins in the same order as `CHAIN`.

use super::{CHAIN, Phase, Request};
use crate::api::ObjectMut;
use crate::error::ApiError;
use crate::store::Store;
use crate::store::request_path::{AdmissionOutcome, AdmissionStep, Gate, changed_fields};

pub fn mutate(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    for plugin in CHAIN {
        let Some(admit) = plugin.admit else { continue };
        let before = object.to_json_value();
        let warned = store.warning_count();
        let result = admit(store, request, object);
        let outcome = match &result {
            Ok(()) => match changed_fields(&before, &object.to_json_value()) {
                changed if !changed.is_empty() => AdmissionOutcome::Mutated(changed),
                _ => admitted(store, warned),
            },
            Err(error) => AdmissionOutcome::Refused(error.message()),
        };
        note(store, plugin.name, Phase::Mutating, outcome);
        result?;
    }
    Ok(())
}

pub fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    for plugin in CHAIN {
        let Some(validate) = plugin.validate else { continue };
        let warned = store.warning_count();
        let result = validate(store, request, object);
        let outcome = match &result {
            Ok(()) => admitted(store, warned),
            Err(error) => AdmissionOutcome::Refused(error.message()),
        };
        note(store, plugin.name, Phase::Validating, outcome);
        result?;
    }
    Ok(())
}

/// Admitted, with the warnings the plugin added, if any.
fn admitted(store: &Store, warned: usize) -> AdmissionOutcome {
    match store.warnings_since(warned) {
        warnings if warnings.is_empty() => AdmissionOutcome::Admitted,
        warnings => AdmissionOutcome::Warned(warnings),
    }
}

fn note(store: &Store, plugin: &'static str, phase: Phase, outcome: AdmissionOutcome) {
    store.request_paths().update(|path| {
        if let AdmissionOutcome::Refused(message) = &outcome {
            path.refused = Some((Gate::Admission, message.clone()));
        }
        path.admission.push(AdmissionStep { plugin, phase, outcome });
    });
}

#[cfg(test)]
mod tests {
    use crate::apiserver::{Request as ApiRequest, Verb, handle};
    use crate::store::Store;
    use crate::store::request_path::{AdmissionOutcome, Gate};
    use crate::store::{UserInfo, request_path::GateState};

    #[test]
    fn each_plugin_notes_what_it_did_with_a_pod() {
        let mut store = Store::new(1);
        store.request_paths_mut().set_recording(true);
        let pod: crate::api::Pod = crate::api::codec::decode_typed(serde_json::json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
            "spec": {"containers": [{"name": "web", "image": "nginx"}]}
        }))
        .unwrap();
        let request = ApiRequest::new(UserInfo::admin(), Verb::Create, crate::api::Kind::Pod)
            .namespace("default")
            .body(crate::api::Resource::into_object(pod));
        handle(&mut store, request);
        let path = store.request_paths().last().expect("recorded");
        assert_eq!(path.status_line(), "201 Created");
        let steps: Vec<String> = path
            .admission
            .iter()
            .map(|s| match &s.outcome {
                AdmissionOutcome::Mutated(fields) => format!("{} {}", s.plugin, fields.join(",")),
                other => format!("{} {other:?}", s.plugin),
            })
            .collect();
        assert_eq!(
            steps,
            [
                "NamespaceLifecycle Admitted",
                "LimitRanger Admitted",
                "ServiceAccount spec.containers,spec.serviceAccount,spec.serviceAccountName,spec.volumes",
                "Priority spec.preemptionPolicy,spec.priority",
                "DefaultTolerationSeconds spec.tolerations",
                "DefaultStorageClass Admitted",
                "StorageObjectInUseProtection Admitted",
                "MutatingAdmissionPolicy Admitted",
                "LimitRanger Admitted",
                "ServiceAccount Admitted",
                "NodeRestriction Admitted",
                "PodSecurity Admitted",
                "ValidatingAdmissionPolicy Admitted",
                "ResourceQuota Admitted",
                "LabLimits Admitted"
            ]
        );
        assert_eq!(path.gate_state(Gate::Storage), GateState::Passed);
        assert!(path.storage.unwrap().unwrap().starts_with("written at resourceVersion "));
    }
}
