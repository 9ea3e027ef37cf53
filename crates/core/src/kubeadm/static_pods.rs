//! The control plane as static pods: kubeadm writes etcd's, the API server's, the controller
//! manager's and the scheduler's manifests on the control-plane node; its kubelet runs them
//! and, as it does for every static pod, posts a mirror pod named `<name>-<node>` that the
//! API server shows and that only the kubelet may change (pkg/kubelet/pod/mirror_client.go).

use super::manifest;
use crate::api::meta::OwnerReference;
use crate::api::{Node, Object};
use crate::apiserver::Client;
use crate::sim::random::Purpose;
use crate::store::{Store, UserInfo};

/// The kubelet's config annotations (pkg/kubelet/types/pod_update.go).
const CONFIG_HASH: &str = "kubernetes.io/config.hash";
const CONFIG_MIRROR: &str = "kubernetes.io/config.mirror";
const CONFIG_SEEN: &str = "kubernetes.io/config.seen";
const CONFIG_SOURCE: &str = "kubernetes.io/config.source";

/// Posts the mirror pod of each of the node's static pods, as its kubelet.
pub fn post_mirror_pods(store: &mut Store, node: &Node) {
    post(store, node, |_| true);
}

/// Posts one static pod's mirror again (`name` before the node's: `kube-scheduler`), as the
/// kubelet does when its manifest is back in `/etc/kubernetes/manifests`.
pub fn post_mirror_pod(store: &mut Store, node: &Node, name: &str) {
    post(store, node, |pod| pod == name);
}

fn post(store: &mut Store, node: &Node, wanted: impl Fn(&str) -> bool) {
    let seen = store.now().to_rfc3339_micro();
    for object in manifest(include_str!("manifests/static-pods.yaml"), node) {
        let Object::Pod(mut pod) = object else { continue };
        if !wanted(&pod.metadata.name) {
            continue;
        }
        let hash: String =
            (0..2).map(|_| format!("{:016x}", store.random_below(Purpose::SystemName, u64::MAX))).collect();
        pod.metadata.name = format!("{}-{}", pod.metadata.name, node.metadata.name);
        let annotations = &mut pod.metadata.annotations;
        annotations.insert(CONFIG_HASH, hash.as_str());
        annotations.insert(CONFIG_MIRROR, hash.as_str());
        annotations.insert(CONFIG_SEEN, seen.as_str());
        annotations.insert(CONFIG_SOURCE, "file");
        // The kubelet makes its Node the mirror pod's controller, so the pod goes with the node.
        pod.metadata.owner_references.push(OwnerReference {
            api_version: "v1".into(),
            kind: "Node".into(),
            name: node.metadata.name.clone(),
            uid: node.metadata.uid,
            controller: Some(true),
            block_owner_deletion: None,
        });
        pod.spec.node_name = Some(node.metadata.name.clone());
        let _ = Client::new(store, UserInfo::node(&node.metadata.name)).create(Object::Pod(pod));
    }
}
