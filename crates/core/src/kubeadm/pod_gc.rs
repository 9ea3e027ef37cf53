//! When a node leaves the cluster, the DaemonSet pods bound to it go too: upstream's pod
//! garbage collector deletes pods bound to a node that no longer exists (pkg/controller/podgc,
//! `gcOrphaned`), and the DaemonSet controller never replaces a pod on a node that is gone.

use crate::api::Pod;
use crate::apiserver::Client;
use crate::store::{DeleteOptions, Store, UserInfo};

/// The pods a DaemonSet owns on `node`, deleted at once as the pod garbage collector.
pub fn node_left(store: &mut Store, node: &str) {
    let orphans: Vec<(String, String)> = store
        .list::<Pod>(None)
        .filter(|p| p.node_name() == Some(node))
        .filter(|p| p.metadata.controller_ref().is_some_and(|r| r.kind == "DaemonSet"))
        .map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone()))
        .collect();
    let mut client = Client::new(store, UserInfo::controller("pod-garbage-collector"));
    let force = DeleteOptions { grace_period_seconds: Some(0), ..DeleteOptions::default() };
    for (namespace, name) in orphans {
        let _ = client.delete(crate::api::Kind::Pod, &namespace, &name, &force);
    }
}
