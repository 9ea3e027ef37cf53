//! What containers write into volumes that outlive them, kept where upstream keeps it: on the
//! node's disk. A persistentVolumeClaim volume is its volume's directory (a local-path or
//! hostPath volume's `path`) on the pod's node, so its files survive the pod and a later pod on
//! that node sees them; an emptyDir is a directory under the pod's own (`/var/lib/kubelet/pods/
//! <uid>/volumes/kubernetes.io~empty-dir/<name>`), shared by its containers and gone with it.

use crate::api::container::Container;
use crate::api::{PersistentVolume, PersistentVolumeClaim, Pod};
use crate::shell::{FileChange, Files};
use crate::store::Store;
use std::collections::BTreeMap;

/// Every node's directories that containers have written into, by node then directory.
#[derive(Clone, Debug, Default)]
pub struct NodeDisks {
    disks: BTreeMap<String, BTreeMap<String, Files>>,
}

/// One of a container's mounts backed by a directory on its node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiskMount {
    pub node: String,
    /// The directory on the node.
    pub dir: String,
    /// Where the container sees it.
    pub mount_path: String,
}

impl NodeDisks {
    /// The files under `mount`'s directory, as the container sees them (under its mount path).
    pub fn files(&self, mount: &DiskMount) -> Files {
        let Some(files) = self.disks.get(&mount.node).and_then(|d| d.get(&mount.dir)) else { return Files::new() };
        files.iter().map(|(path, content)| (format!("{}/{path}", mount.mount_path), content.clone())).collect()
    }

    /// Applies a container's change to a file, if it is under one of `mounts`.
    pub fn apply(&mut self, mounts: &[DiskMount], change: &FileChange) {
        let path = match change {
            FileChange::Write { path, .. } | FileChange::Append { path, .. } | FileChange::Remove(path) => path,
        };
        let Some((mount, relative)) = mounts.iter().find_map(|m| {
            path.strip_prefix(&m.mount_path).and_then(|r| r.strip_prefix('/')).map(|r| (m, r.to_string()))
        }) else {
            return;
        };
        let dir = self.disks.entry(mount.node.clone()).or_default().entry(mount.dir.clone()).or_default();
        match change {
            FileChange::Write { content, .. } => {
                dir.insert(relative, content.clone());
            }
            FileChange::Append { text, .. } => dir.entry(relative).or_default().push_str(text),
            FileChange::Remove(_) => {
                dir.remove(&relative);
            }
        }
    }

    /// Removes a directory (a deleted volume's, a removed pod's emptyDir).
    pub fn remove_dir(&mut self, node: &str, dir: &str) {
        if let Some(disk) = self.disks.get_mut(node) {
            disk.remove(dir);
        }
    }

    /// Drops what no longer exists: the emptyDirs of pods gone from their nodes, and the
    /// directories of local-path volumes that were deleted.
    pub fn collect_garbage(&mut self, store: &Store) {
        for (node, dirs) in &mut self.disks {
            dirs.retain(|dir, _| match dir.strip_prefix(PODS_DIR) {
                Some(rest) => {
                    let uid = rest.split('/').next().unwrap_or("");
                    store.list::<Pod>(None).any(|p| p.metadata.uid.to_string() == uid && p.node_name() == Some(node))
                }
                None if dir.starts_with(crate::controllers::persistent_volume::local_path::BASE_PATH) => store
                    .list::<PersistentVolume>(None)
                    .any(|v| v.spec.host_path.as_ref().is_some_and(|h| &h.path == dir)),
                None => true,
            });
        }
    }
}

const PODS_DIR: &str = "/var/lib/kubelet/pods/";

/// The mounts of `container` that live on its node's disk: its claims' volumes (once bound)
/// and its emptyDirs.
pub fn disk_mounts(store: &Store, pod: &Pod, container: &Container) -> Vec<DiskMount> {
    let Some(node) = pod.node_name() else { return Vec::new() };
    let mut mounts = Vec::new();
    for mount in container.volume_mounts.iter().filter(|m| m.sub_path.as_deref().is_none_or(str::is_empty)) {
        let Some(volume) = pod.spec.volumes.iter().find(|v| v.name == mount.name) else { continue };
        let dir = if volume.empty_dir.is_some() {
            Some(format!("{PODS_DIR}{}/volumes/kubernetes.io~empty-dir/{}", pod.metadata.uid, volume.name))
        } else if let Some(source) = &volume.persistent_volume_claim {
            claim_dir(store, &pod.metadata.namespace, &source.claim_name)
        } else {
            volume.host_path.as_ref().map(|h| h.path.clone())
        };
        if let Some(dir) = dir {
            let mount_path = mount.mount_path.trim_end_matches('/').to_string();
            mounts.push(DiskMount { node: node.to_string(), dir, mount_path });
        }
    }
    mounts
}

/// The directory a bound claim's volume is on its node.
fn claim_dir(store: &Store, namespace: &str, claim: &str) -> Option<String> {
    let claim = store.try_get::<PersistentVolumeClaim>(namespace, claim)?;
    let volume = store.try_get::<PersistentVolume>("", claim.spec.volume_name.as_deref()?)?;
    let spec = &volume.spec;
    spec.host_path.as_ref().map(|h| h.path.clone()).or_else(|| spec.local.as_ref().map(|l| l.path.clone()))
}

/// Whether every claim the pod mounts is bound to a volume that exists: until then its
/// containers wait, as the kubelet's volume manager waits for the claim to be bound.
pub fn claims_ready(store: &Store, pod: &Pod) -> bool {
    pod.spec.volumes.iter().filter_map(|v| v.persistent_volume_claim.as_ref()).all(|source| {
        store
            .try_get::<PersistentVolumeClaim>(&pod.metadata.namespace, &source.claim_name)
            .and_then(|c| c.spec.volume_name.as_deref())
            .is_some_and(|v| store.try_get::<PersistentVolume>("", v).is_some())
    })
}

/// What the main process of a container wrote: its files now, against the image's.
pub fn written(image_files: &Files, now_files: &Files) -> Vec<FileChange> {
    let mut changes: Vec<FileChange> = now_files
        .iter()
        .filter(|(path, content)| image_files.get(*path) != Some(content))
        .map(|(path, content)| FileChange::Write { path: path.clone(), content: content.clone() })
        .collect();
    changes.extend(image_files.keys().filter(|p| !now_files.contains_key(*p)).map(|p| FileChange::Remove(p.clone())));
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_under_a_mount_land_in_the_nodes_directory_and_show_under_any_mount_of_it() {
        let mut disks = NodeDisks::default();
        let at = |mount_path: &str| DiskMount {
            node: "node-1".into(),
            dir: "/opt/local-path-provisioner/pvc-1_default_data".into(),
            mount_path: mount_path.into(),
        };
        let write = |path: &str, content: &str| FileChange::Write { path: path.into(), content: content.into() };
        disks.apply(&[at("/data")], &write("/data/note", "kept\n"));
        disks.apply(&[at("/data")], &write("/tmp/elsewhere", "lost\n"));
        disks.apply(&[at("/data")], &FileChange::Append { path: "/data/note".into(), text: "more\n".into() });
        let seen = disks.files(&at("/var/lib/app"));
        assert_eq!(
            seen.into_iter().collect::<Vec<_>>(),
            [("/var/lib/app/note".to_string(), "kept\nmore\n".to_string())]
        );
        let elsewhere = DiskMount { node: "node-2".into(), ..at("/data") };
        assert!(disks.files(&elsewhere).is_empty());
    }
}
