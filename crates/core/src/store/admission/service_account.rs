//! `ServiceAccount` (plugin/pkg/admission/serviceaccount): a new pod runs as the namespace's
//! `default` service account unless it names one, and is refused while that account does not
//! exist. (Upstream also mounts the account's token as the `kube-api-access-*` projected
//! volume; the lab's pods get no such volume.)

use super::{Operation, Plugin, Request};
use crate::api::{ObjectMut, ServiceAccount};
use crate::error::ApiError;
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "ServiceAccount", admit: Some(admit), validate: Some(validate) };

fn admit(_: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    let ObjectMut::Pod(pod) = object else { return Ok(()) };
    if request.operation != Operation::Create {
        return Ok(());
    }
    let spec = &mut pod.spec;
    let account = spec.service_account_name.clone().or(spec.service_account.clone());
    let account = account.unwrap_or_else(|| "default".to_string());
    spec.service_account_name = Some(account.clone());
    spec.service_account = Some(account);
    Ok(())
}

/// Validate: the pod's service account must exist (a mirror pod, which a kubelet creates for a
/// static pod, names none and is let through).
fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    let ObjectMut::Pod(pod) = object else { return Ok(()) };
    if request.operation != Operation::Create || !request.subresource.is_empty() {
        return Ok(());
    }
    if pod.metadata.annotations.get("kubernetes.io/config.mirror").is_some() {
        return Ok(());
    }
    let account = pod.spec.service_account_name.as_deref().unwrap_or("default");
    if store.try_get::<ServiceAccount>(request.namespace, account).is_some() {
        return Ok(());
    }
    let message = format!(
        "pods \"{}\" is forbidden: error looking up service account {}/{account}: serviceaccount \"{account}\" not found",
        request.name, request.namespace
    );
    Err(ApiError::Forbidden { message })
}

#[cfg(test)]
mod tests {
    use crate::api::Pod;
    use crate::store::{Store, UserInfo};

    #[test]
    fn a_pod_whose_account_is_missing_is_refused() {
        let mut store = Store::new(1);
        store.act_as(UserInfo::admin());
        let pod = |account: &str| -> Pod {
            serde_json::from_value(serde_json::json!({
                "metadata": {"name": "x", "namespace": "default"},
                "spec": {"serviceAccountName": account, "containers": [{"name": "c", "image": "busybox"}]},
            }))
            .unwrap()
        };
        let refused = store.create(pod("robot")).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Error from server (Forbidden): pods \"x\" is forbidden: error looking up service account default/robot: serviceaccount \"robot\" not found"
        );
        let created = store.create(pod("default")).unwrap();
        assert_eq!(created.spec.service_account_name.as_deref(), Some("default"));
    }
}
