//! `ServiceAccount` (plugin/pkg/admission/serviceaccount): a new pod runs as the namespace's
//! `default` service account unless it names one, gets that account's token volume
//! (`service_account_volume.rs`), and is refused while the account does not exist.

use super::{Operation, Plugin, Request, service_account_volume};
use crate::api::{ObjectMut, ServiceAccount};
use crate::error::ApiError;
use crate::store::Store;

/// `MirrorPodAnnotationKey`: the kubelet's copy of a static pod.
const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";

pub const PLUGIN: Plugin = Plugin { name: "ServiceAccount", admit: Some(admit), validate: Some(validate) };

fn admit(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    let ObjectMut::Pod(pod) = object else { return Ok(()) };
    if request.operation != Operation::Create || !request.subresource.is_empty() {
        return Ok(());
    }
    let spec = &mut pod.spec;
    let account = spec.service_account_name.clone().or(spec.service_account.clone());
    let account = account.unwrap_or_else(|| "default".to_string());
    spec.service_account_name = Some(account.clone());
    spec.service_account = Some(account.clone());
    // A mirror pod's spec is the kubelet's static manifest: left as it is. A missing account
    // is refused by `validate`.
    if pod.metadata.annotations.get(MIRROR_POD_ANNOTATION).is_some() {
        return Ok(());
    }
    if let Some(found) = store.try_get::<ServiceAccount>(request.namespace, &account) {
        if service_account_volume::should_automount(found, pod) {
            service_account_volume::mount(pod, &store.token_volume_source, || store.token_volume_suffix());
        }
        // The account's image pull secrets, unless the pod names its own.
        if pod.spec.image_pull_secrets.is_empty() && !found.image_pull_secrets.is_empty() {
            pod.spec.image_pull_secrets = crate::api::shared::Shared::new(found.image_pull_secrets.clone());
        }
    }
    Ok(())
}

/// Validate: the pod's service account must exist (a mirror pod, which a kubelet creates for a
/// static pod, names none and is let through).
fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    let ObjectMut::Pod(pod) = object else { return Ok(()) };
    if request.operation != Operation::Create || !request.subresource.is_empty() {
        return Ok(());
    }
    if pod.metadata.annotations.get(MIRROR_POD_ANNOTATION).is_some() {
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
    use crate::api::{Pod, ServiceAccount};
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

    #[test]
    fn each_container_mounts_the_token_unless_the_pod_or_its_account_opts_out() {
        let mut store = Store::new(1);
        store.act_as(UserInfo::admin());
        let quiet = ServiceAccount {
            metadata: crate::api::ObjectMeta::named("default", "quiet"),
            automount_service_account_token: Some(false),
            ..Default::default()
        };
        store.create(quiet).unwrap();
        let pod = |name: &str, extra: serde_json::Value| -> Pod {
            let mut spec = serde_json::json!({
                "initContainers": [{"name": "init", "image": "busybox"}],
                "containers": [
                    {"name": "app", "image": "busybox"},
                    {"name": "own", "image": "busybox", "volumeMounts": [
                        {"name": "mine", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}]},
                ],
                "volumes": [{"name": "mine", "emptyDir": {}}],
            });
            spec.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            serde_json::from_value(
                serde_json::json!({"metadata": {"name": name, "namespace": "default"}, "spec": spec}),
            )
            .unwrap()
        };
        let mounts = |pod: &Pod| -> Vec<String> {
            pod.spec
                .init_containers
                .iter()
                .chain(pod.spec.containers.iter())
                .map(|c| c.volume_mounts.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(","))
                .collect()
        };
        let mounted = store.create(pod("mounted", serde_json::json!({}))).unwrap();
        let volume = &mounted.spec.volumes[1].name;
        assert!(volume.starts_with("kube-api-access-") && volume.len() == 21, "{volume}");
        assert_eq!(mounts(&mounted), [volume.clone(), volume.clone(), "mine".to_string()]);
        let opted_out =
            store.create(pod("opted-out", serde_json::json!({"automountServiceAccountToken": false}))).unwrap();
        assert_eq!(opted_out.spec.volumes.len(), 1);
        let by_account = store.create(pod("by-account", serde_json::json!({"serviceAccountName": "quiet"}))).unwrap();
        assert_eq!(mounts(&by_account), ["", "", "mine"]);
        let overridden = serde_json::json!({"serviceAccountName": "quiet", "automountServiceAccountToken": true});
        assert_eq!(store.create(pod("overridden", overridden)).unwrap().spec.volumes.len(), 2);
    }
}
