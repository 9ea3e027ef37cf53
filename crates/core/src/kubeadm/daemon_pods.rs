//! kube-proxy's and kindnet's pods, one per node. Upstream's DaemonSet controller makes them
//! (pkg/controller/daemon): a pod per eligible node, pinned there by a node affinity on its
//! name, which the scheduler then binds. Until the lab serves DaemonSets, the lab makes them
//! the same way when a node joins, as that controller's user, with the same owner reference, so
//! `kubectl drain` treats them as upstream's does (`--ignore-daemonsets`).

use super::manifest;
use crate::api::meta::{OwnerReference, Uid};
use crate::api::{Node, Object, Pod};
use crate::apiserver::Client;
use crate::sim::random::Purpose;
use crate::store::{DeleteOptions, Store, UserInfo};

/// The DaemonSets whose pods run on every node, by name and uid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemDaemons {
    daemon_sets: Vec<(String, Uid)>,
}

/// Each DaemonSet's name is its pods' `generateName` without the dash.
const DAEMON_SETS: [&str; 2] = ["kube-proxy", "kindnet"];

impl SystemDaemons {
    /// The DaemonSets kubeadm (kube-proxy) and kind (kindnet) create, with uids from the
    /// control plane's own stream.
    pub fn new(store: &mut Store) -> SystemDaemons {
        let mut uid = || {
            let high = u128::from(store.random_below(Purpose::SystemUid, u64::MAX));
            Uid::from_random(high << 64 | u128::from(store.random_below(Purpose::SystemUid, u64::MAX)))
        };
        SystemDaemons { daemon_sets: DAEMON_SETS.iter().map(|name| (name.to_string(), uid())).collect() }
    }

    /// A node joined: each DaemonSet's pod for it, for the scheduler to bind.
    pub fn node_joined(&self, store: &mut Store, node: &Node) {
        let mut client = Client::new(store, UserInfo::controller("daemon-set-controller"));
        for object in manifest(include_str!("manifests/daemon-pods.yaml"), node) {
            let Object::Pod(mut pod) = object else { continue };
            let Some((name, uid)) = self.owner_of(&pod) else { continue };
            pod.metadata.owner_references.push(OwnerReference {
                api_version: "apps/v1".into(),
                kind: "DaemonSet".into(),
                name: name.to_string(),
                uid,
                controller: Some(true),
                block_owner_deletion: Some(true),
            });
            let _ = client.create(Object::Pod(pod));
        }
    }

    /// A node left the cluster: its DaemonSet pods go with it (upstream's pod garbage
    /// collector deletes pods bound to a node that no longer exists).
    pub fn node_left(&self, store: &mut Store, node: &str) {
        let orphans: Vec<String> = store
            .list::<Pod>(Some("kube-system"))
            .filter(|p| p.node_name() == Some(node))
            .filter(|p| p.metadata.controller_ref().is_some_and(|r| self.daemon_sets.iter().any(|(_, u)| *u == r.uid)))
            .map(|p| p.metadata.name.clone())
            .collect();
        let mut client = Client::new(store, UserInfo::controller("pod-garbage-collector"));
        let force = DeleteOptions { grace_period_seconds: Some(0), ..DeleteOptions::default() };
        for name in orphans {
            let _ = client.delete(crate::api::Kind::Pod, "kube-system", &name, &force);
        }
    }

    fn owner_of(&self, pod: &Pod) -> Option<(&str, Uid)> {
        let name = pod.metadata.generate_name.strip_suffix('-')?;
        self.daemon_sets.iter().find(|(n, _)| n == name).map(|(n, uid)| (n.as_str(), *uid))
    }
}
