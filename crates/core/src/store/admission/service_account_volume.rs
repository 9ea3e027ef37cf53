//! The service account token volume the ServiceAccount admission plugin adds to each pod
//! (plugin/pkg/admission/serviceaccount `mountServiceAccountToken`, `TokenVolumeSource`): a
//! projected `kube-api-access-<suffix>` volume with a bound token, the cluster's CA and the
//! pod's namespace, mounted read-only at `/var/run/secrets/kubernetes.io/serviceaccount` in
//! every container and init container that has nothing mounted there yet.

use crate::api::container::{Container, ObjectFieldSelector, VolumeMount};
use crate::api::shared::Shared;
use crate::api::volume::{
    ConfigMapVolumeSource, DownwardApiVolumeFile, DownwardApiVolumeSource, KeyToPath, ProjectedVolumeSource,
    ServiceAccountTokenProjection, Volume, VolumeProjection,
};
use crate::api::{Pod, ServiceAccount};

/// `ServiceAccountVolumeName`: the prefix of the volume's generated name.
pub const VOLUME_PREFIX: &str = "kube-api-access-";
/// `DefaultAPITokenMountPath`.
pub const MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// `WarnOnlyBoundTokenExpirationSeconds`: an hour and seven seconds, which the API server
/// recognises and extends (`--service-account-extend-token-expiration`).
pub const EXPIRATION_SECONDS: i64 = 3607;

/// Whether the pod gets a token: its own `automountServiceAccountToken`, else its account's,
/// else yes (`shouldAutomount`).
pub fn should_automount(account: &ServiceAccount, pod: &Pod) -> bool {
    pod.spec.automount_service_account_token.or(account.automount_service_account_token).unwrap_or(true)
}

/// Mounts the token volume into the pod; `suffix` names a new volume (upstream's
/// `generateName`), used only when the pod has none of that prefix already.
pub fn mount(pod: &mut Pod, source: &ProjectedVolumeSource, suffix: impl FnOnce() -> String) {
    let existing = pod.spec.volumes.iter().find(|v| v.name.starts_with(VOLUME_PREFIX)).map(|v| v.name.clone());
    let has_volume = existing.is_some();
    let name = existing.unwrap_or_else(|| format!("{VOLUME_PREFIX}{}", suffix()));
    let needs_init = needs_mount(&pod.spec.init_containers);
    let needs = needs_mount(&pod.spec.containers);
    if needs_init {
        add_mount(pod.spec.init_containers.make_mut(), &name);
    }
    if needs {
        add_mount(pod.spec.containers.make_mut(), &name);
    }
    if !has_volume && (needs_init || needs) {
        pod.spec.volumes.make_mut().push(Volume { name, projected: Some(source.clone()), ..Default::default() });
    }
}

fn needs_mount(containers: &[Container]) -> bool {
    containers.iter().any(|c| !c.volume_mounts.iter().any(|m| m.mount_path == MOUNT_PATH))
}

fn add_mount(containers: &mut [Container], name: &str) {
    for container in containers.iter_mut().filter(|c| !c.volume_mounts.iter().any(|m| m.mount_path == MOUNT_PATH)) {
        container.volume_mounts.push(VolumeMount {
            name: name.to_string(),
            mount_path: MOUNT_PATH.to_string(),
            read_only: Some(true),
            ..Default::default()
        });
    }
}

/// `TokenVolumeSource`: the token, `ca.crt` from `kube-root-ca.crt`, and the namespace, with
/// the default mode written out (upstream sets it explicitly, kubernetes#104464). Made once
/// per store; every pod's volume shares its sources.
pub fn token_volume_source() -> ProjectedVolumeSource {
    let token = ServiceAccountTokenProjection {
        expiration_seconds: Some(EXPIRATION_SECONDS),
        path: "token".to_string(),
        ..Default::default()
    };
    let ca = ConfigMapVolumeSource {
        name: Some(crate::controllers::root_ca_publisher::CONFIG_MAP.to_string()),
        items: vec![KeyToPath { key: "ca.crt".to_string(), path: "ca.crt".to_string(), mode: None }],
        ..Default::default()
    };
    let namespace = DownwardApiVolumeFile {
        path: "namespace".to_string(),
        field_ref: Some(ObjectFieldSelector {
            api_version: Some("v1".to_string()),
            field_path: "metadata.namespace".to_string(),
        }),
        ..Default::default()
    };
    let namespace = DownwardApiVolumeSource { items: vec![namespace], ..Default::default() };
    ProjectedVolumeSource {
        sources: Shared::new(vec![
            VolumeProjection { service_account_token: Some(token), ..Default::default() },
            VolumeProjection { config_map: Some(ca), ..Default::default() },
            VolumeProjection { downward_api: Some(namespace), ..Default::default() },
        ]),
        default_mode: Some(0o644),
    }
}
