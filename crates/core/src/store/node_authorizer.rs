//! The Node authorizer (plugin/pkg/auth/authorizer/node) with the `system:node` role's verbs: a
//! kubelet, as `system:node:<name>` in `system:nodes`, may read what a kubelet reads and write
//! only what a kubelet writes — Nodes, Pods and their status, its Lease, Events and its
//! ResourceSlices. Which Node, Lease and pods it may change is NodeRestriction's part at
//! admission. Secrets and ConfigMaps it may read one by one, and only those a pod bound to its
//! node names (upstream's graph of pods, nodes and what they refer to: `NodeAuthorizer`'s
//! `hasPathFrom`), which a real machine's agent fetches for its containers' env.

use super::Store;
use super::authorizer::{Attributes, Decision};
use crate::api::pod_references::References;
use crate::api::{Kind, Pod};

/// The group every kubelet's credential carries.
pub const NODES_GROUP: &str = "system:nodes";

/// The read verbs.
const READ_VERBS: &[&str] = &["get", "list", "watch"];

/// The kinds a kubelet writes (`system:node` ClusterRole and the Node authorizer's graph).
const WRITTEN_KINDS: &[Kind] = &[Kind::Node, Kind::Pod, Kind::Lease, Kind::Event, Kind::ResourceSlice];

/// The decision for a kubelet's request; `NoOpinion` for anyone else (the next authorizer decides).
pub fn authorize(store: &Store, attributes: &Attributes<'_>) -> Decision {
    let user = attributes.user;
    let Some(node) = user.node_name().filter(|_| user.groups.iter().any(|g| g == NODES_GROUP)) else {
        return Decision::NoOpinion;
    };
    if matches!(attributes.kind, Kind::Secret | Kind::ConfigMap) {
        return referenced_by_a_pod_on(store, node, attributes);
    }
    let allowed = if READ_VERBS.contains(&attributes.verb) {
        true
    } else {
        // A kubelet never execs, attaches or forwards into a pod, nor evicts one.
        WRITTEN_KINDS.contains(&attributes.kind) && matches!(attributes.subresource, "" | "status")
    };
    if allowed { Decision::Allow } else { Decision::Deny(String::new()) }
}

/// A Secret or ConfigMap read by name, named by a pod bound to `node`; anything else is denied
/// with the graph's reason.
fn referenced_by_a_pod_on(store: &Store, node: &str, attributes: &Attributes<'_>) -> Decision {
    let no_path = || Decision::Deny(format!("no relationship found between node '{node}' and this object"));
    if !READ_VERBS.contains(&attributes.verb) || attributes.name.is_empty() {
        return no_path();
    }
    let named = |pod: &Pod| {
        let refs = References::of(pod);
        let names = if attributes.kind == Kind::Secret { &refs.secrets } else { &refs.config_maps };
        names.contains(attributes.name)
    };
    let on_node = |pod: &&Pod| pod.spec.node_name.as_deref() == Some(node);
    if store.list::<Pod>(Some(attributes.namespace)).filter(on_node).any(named) { Decision::Allow } else { no_path() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::authorizer::forbidden;
    use crate::store::user::UserInfo;

    fn ask(verb: &'static str, kind: Kind, subresource: &'static str) -> (Decision, String) {
        let kubelet = UserInfo::node("worker-a");
        let attributes = Attributes { user: &kubelet, verb, kind, namespace: "default", name: "web", subresource };
        let decision = authorize(&Store::new(1), &attributes);
        (decision.clone(), forbidden(&attributes, "").to_string())
    }

    #[test]
    fn a_kubelet_reads_and_writes_what_a_kubelet_does_and_nothing_more() {
        assert_eq!(ask("watch", Kind::Pod, "").0, Decision::Allow);
        assert_eq!(ask("patch", Kind::Pod, "status").0, Decision::Allow);
        assert_eq!(ask("update", Kind::Lease, "").0, Decision::Allow);
        assert_eq!(ask("create", Kind::Event, "").0, Decision::Allow);
        let (decision, message) = ask("delete", Kind::Deployment, "");
        assert_eq!(decision, Decision::Deny(String::new()));
        assert_eq!(
            message,
            "Error from server (Forbidden): deployments.apps \"web\" is forbidden: User \"system:node:worker-a\" cannot delete resource \"deployments\" in API group \"apps\" in the namespace \"default\""
        );
        let (decision, message) = ask("get", Kind::Secret, "");
        assert_eq!(decision, Decision::Deny("no relationship found between node 'worker-a' and this object".into()));
        assert!(message.ends_with("in the namespace \"default\""), "{message}");
        assert_eq!(ask("create", Kind::Pod, "exec").0, Decision::Deny(String::new()));
        let admin = UserInfo::new("kubernetes-admin", &["kubeadm:cluster-admins"]);
        let attributes =
            Attributes { user: &admin, verb: "delete", kind: Kind::Pod, namespace: "", name: "", subresource: "" };
        assert_eq!(authorize(&Store::new(1), &attributes), Decision::NoOpinion);
    }

    #[test]
    fn a_kubelet_reads_the_secrets_and_config_maps_its_pods_name() {
        let mut store = Store::new(1);
        let mut pod =
            crate::api::Pod { metadata: crate::api::ObjectMeta::named("default", "web"), ..Default::default() };
        pod.spec.node_name = Some("worker-a".into());
        pod.spec.volumes = crate::api::shared::Shared::new(vec![crate::api::volume::Volume {
            name: "creds".into(),
            secret: Some(crate::api::volume::SecretVolumeSource {
                secret_name: Some("db".into()),
                ..Default::default()
            }),
            ..Default::default()
        }]);
        let container = crate::api::container::Container {
            name: "app".into(),
            image: Some("busybox".into()),
            ..Default::default()
        };
        pod.spec.containers = crate::api::shared::Shared::new(vec![container]);
        store.create(pod).unwrap();
        let ask = |node: &str, verb: &'static str, name: &'static str| {
            let kubelet = UserInfo::node(node);
            let attributes =
                Attributes { user: &kubelet, verb, kind: Kind::Secret, namespace: "default", name, subresource: "" };
            authorize(&store, &attributes)
        };
        assert_eq!(ask("worker-a", "get", "db"), Decision::Allow);
        let no_path =
            |node: &str| Decision::Deny(format!("no relationship found between node '{node}' and this object"));
        assert_eq!(ask("worker-b", "get", "db"), no_path("worker-b"));
        assert_eq!(ask("worker-a", "get", "other"), no_path("worker-a"));
        assert_eq!(ask("worker-a", "list", ""), no_path("worker-a"));
    }
}
