//! The files the kubelet writes for a pod's configMap, secret, downwardAPI and projected
//! volumes, and where they appear in each container. Mirrors pkg/volume/configmap, secret,
//! downwardapi and projected (`SetUpAt`, `MakePayload`); emptyDir, hostPath and
//! persistentVolumeClaim volumes hold only what containers write, so nothing is laid out.

use super::config_source::ConfigSource;
use super::container_env::{config_map, config_map_data, secret, secret_data};
use super::downward_api::{PodPlace, field_value, resource_value};
use crate::api::Pod;
use crate::api::container::Container;
use crate::api::volume::{DownwardApiVolumeFile, KeyToPath, Volume};
use crate::shell::Files;
use crate::sim::time::SIM_EPOCH_UNIX_SECONDS;
use crate::store::service_account_token::{BoundTo, bound_token};
use std::collections::BTreeMap;

/// Each volume's files by path inside the volume, for the volumes whose contents the kubelet writes.
pub type VolumeContents = BTreeMap<String, Files>;

/// Whether the pod has a volume whose files follow an API object (they are refreshed).
pub fn has_projected_files(pod: &Pod) -> bool {
    pod.spec
        .volumes
        .iter()
        .any(|v| v.config_map.is_some() || v.secret.is_some() || v.projected.is_some() || v.downward_api.is_some())
}

/// Sets up every volume: their files, or for each that fails its name and the error that the
/// `FailedMount` event reports.
pub fn set_up_all(
    store: &dyn ConfigSource,
    pod: &Pod,
    place: &PodPlace,
) -> Result<VolumeContents, Vec<(String, String)>> {
    let mut contents = VolumeContents::new();
    let mut failures = Vec::new();
    for volume in pod.spec.volumes.iter() {
        match set_up(store, pod, volume, place) {
            Ok(Some(files)) => {
                contents.insert(volume.name.clone(), files);
            }
            Ok(None) => {}
            Err(message) => failures.push((volume.name.clone(), message)),
        }
    }
    if failures.is_empty() { Ok(contents) } else { Err(failures) }
}

/// One volume's files (`None` for a volume nothing is written into).
fn set_up(store: &dyn ConfigSource, pod: &Pod, volume: &Volume, place: &PodPlace) -> Result<Option<Files>, String> {
    let namespace = &pod.metadata.namespace;
    let mut files = Files::new();
    if let Some(source) = &volume.config_map {
        let found = config_map(store, namespace, source.name.as_deref().unwrap_or(""), source.optional == Some(true))?;
        let data = found.map(config_map_data).unwrap_or_default();
        payload(
            &mut files,
            data,
            &source.items,
            source.optional == Some(true),
            "configmap references non-existent config key",
        )?;
    } else if let Some(source) = &volume.secret {
        let found =
            secret(store, namespace, source.secret_name.as_deref().unwrap_or(""), source.optional == Some(true))?;
        let data = found.map(secret_data).unwrap_or_default();
        payload(&mut files, data, &source.items, source.optional == Some(true), "references non-existent secret key")?;
    } else if let Some(source) = &volume.downward_api {
        downward_payload(&mut files, pod, &source.items, place)?;
    } else if let Some(source) = &volume.projected {
        for projection in source.sources.iter() {
            project(&mut files, store, pod, projection, place)?;
        }
    } else {
        return Ok(None);
    }
    Ok(Some(files))
}

/// One source of a projected volume (pkg/volume/projected `collectData`).
fn project(
    files: &mut Files,
    store: &dyn ConfigSource,
    pod: &Pod,
    projection: &crate::api::volume::VolumeProjection,
    place: &PodPlace,
) -> Result<(), String> {
    let namespace = &pod.metadata.namespace;
    if let Some(source) = &projection.config_map {
        let optional = source.optional == Some(true);
        let found = config_map(store, namespace, source.name.as_deref().unwrap_or(""), optional)?;
        let data = found.map(config_map_data).unwrap_or_default();
        payload(files, data, &source.items, optional, "configmap references non-existent config key")?;
    }
    if let Some(source) = &projection.secret {
        let optional = source.optional == Some(true);
        let found = secret(store, namespace, source.name.as_deref().unwrap_or(""), optional)?;
        let data = found.map(secret_data).unwrap_or_default();
        payload(files, data, &source.items, optional, "references non-existent secret key")?;
    }
    if let Some(source) = &projection.downward_api {
        downward_payload(files, pod, &source.items, place)?;
    }
    if let Some(source) = &projection.service_account_token {
        files.insert(source.path.clone(), token(store, pod, place)?);
    }
    Ok(())
}

/// The pod's bound token, as the kubelet's token manager requests it when the pod starts.
fn token(store: &dyn ConfigSource, pod: &Pod, place: &PodPlace) -> Result<String, String> {
    let namespace = &pod.metadata.namespace;
    let name = pod.spec.service_account_name.as_deref().unwrap_or("default");
    let Some(account) = store.service_account(namespace, name) else {
        return Err(format!("failed to fetch token: serviceaccounts \"{name}\" not found"));
    };
    let started = pod.status.start_time.as_ref().or(pod.metadata.creation_timestamp.as_ref());
    let issued = started.map_or(0, |t| t.0.as_millis() / 1000) as i64 + SIM_EPOCH_UNIX_SECONDS;
    let account_uid = account.metadata.uid.to_string();
    Ok(bound_token(&BoundTo { pod, account_uid: &account_uid, node: place.node, issued }))
}

/// `MakePayload`: every key as a file, or only the `items` listed (key → path).
fn payload(
    files: &mut Files,
    data: Vec<(String, String)>,
    items: &[KeyToPath],
    optional: bool,
    missing_key: &str,
) -> Result<(), String> {
    if items.is_empty() {
        files.extend(data);
        return Ok(());
    }
    for item in items {
        match data.iter().find(|(k, _)| *k == item.key) {
            Some((_, value)) => {
                files.insert(item.path.clone(), value.clone());
            }
            None if optional => {}
            None => return Err(format!("{missing_key}: {}", item.key)),
        }
    }
    Ok(())
}

/// downwardAPI items: a field or a resource of a container, each as a file.
fn downward_payload(
    files: &mut Files,
    pod: &Pod,
    items: &[DownwardApiVolumeFile],
    place: &PodPlace,
) -> Result<(), String> {
    for item in items {
        let value = if let Some(field) = &item.field_ref {
            field_value(pod, &field.field_path, place)?
        } else if let Some(resource) = &item.resource_field_ref {
            let first = pod.spec.containers.first().cloned().unwrap_or_default();
            resource_value(pod, &first, resource, place)?
        } else {
            continue;
        };
        files.insert(item.path.clone(), value);
    }
    Ok(())
}

/// Where `container` may not write: mounts marked `readOnly`, and every configMap, secret,
/// downwardAPI and projected mount (the kubelet mounts those read-only since 1.9.4,
/// CVE-2017-1002102).
pub fn read_only_paths(pod: &Pod, container: &Container) -> Vec<String> {
    let written_by_kubelet = |name: &str| {
        pod.spec.volumes.iter().any(|v| {
            v.name == name
                && (v.config_map.is_some() || v.secret.is_some() || v.projected.is_some() || v.downward_api.is_some())
        })
    };
    let mounts = container.volume_mounts.iter();
    mounts.filter(|m| m.read_only == Some(true) || written_by_kubelet(&m.name)).map(|m| m.mount_path.clone()).collect()
}

/// The files `container` sees through its volume mounts: those with a `subPath` (`sub_path`
/// true, copied once when it starts) or those without (following the volume's updates).
pub fn container_files(container: &Container, contents: &VolumeContents, sub_path: bool) -> Files {
    let mut out = Files::new();
    for mount in &container.volume_mounts {
        let Some(files) = contents.get(&mount.name) else { continue };
        let base = mount.mount_path.trim_end_matches('/');
        match mount.sub_path.as_deref().filter(|p| !p.is_empty()) {
            Some(sub) if sub_path => {
                for (path, content) in files {
                    if path == sub {
                        out.insert(base.to_string(), content.clone());
                    } else if let Some(rest) = path.strip_prefix(sub).and_then(|r| r.strip_prefix('/')) {
                        out.insert(format!("{base}/{rest}"), content.clone());
                    }
                }
            }
            None if !sub_path => {
                out.extend(files.iter().map(|(path, content)| (format!("{base}/{path}"), content.clone())));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container(mounts: &[(&str, &str, Option<&str>)]) -> Container {
        let volume_mounts = mounts
            .iter()
            .map(|(name, path, sub)| crate::api::container::VolumeMount {
                name: name.to_string(),
                mount_path: path.to_string(),
                sub_path: sub.map(str::to_string),
                ..Default::default()
            })
            .collect();
        Container { name: "app".into(), volume_mounts, ..Default::default() }
    }

    #[test]
    fn mounts_lay_volume_files_under_their_paths_and_sub_paths_apart() {
        let files: Files = [("GREETING".to_string(), "hi".to_string()), ("conf/a".to_string(), "1".to_string())].into();
        let contents: VolumeContents = [("config".to_string(), files)].into();
        let spec = container(&[
            ("config", "/etc/hello/", None),
            ("config", "/etc/greeting", Some("GREETING")),
            ("config", "/opt/conf", Some("conf")),
            ("other", "/nope", None),
        ]);
        let live = container_files(&spec, &contents, false);
        assert_eq!(live.keys().collect::<Vec<_>>(), ["/etc/hello/GREETING", "/etc/hello/conf/a"]);
        let copied = container_files(&spec, &contents, true);
        assert_eq!(
            copied.into_iter().collect::<Vec<_>>(),
            [("/etc/greeting".to_string(), "hi".to_string()), ("/opt/conf/a".to_string(), "1".to_string())]
        );
    }

    #[test]
    fn items_pick_keys_and_a_missing_key_is_upstreams_error() {
        let data = vec![("a".to_string(), "1".to_string())];
        let item = |key: &str| KeyToPath { key: key.into(), path: format!("x/{key}"), mode: None };
        let mut files = Files::new();
        assert_eq!(
            payload(&mut files, data.clone(), &[item("a")], false, "configmap references non-existent config key"),
            Ok(())
        );
        assert_eq!(files.get("x/a").map(String::as_str), Some("1"));
        let missing =
            payload(&mut files, data.clone(), &[item("b")], false, "configmap references non-existent config key");
        assert_eq!(missing, Err("configmap references non-existent config key: b".into()));
        assert_eq!(payload(&mut files, data, &[item("b")], true, "x"), Ok(()));
    }
}
