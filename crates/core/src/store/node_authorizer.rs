//! The Node authorizer (plugin/pkg/auth/authorizer/node) with the `system:node` role's verbs: a
//! kubelet, as `system:node:<name>` in `system:nodes`, may read what a kubelet reads and write
//! only what a kubelet writes — Nodes, Pods and their status, its Lease, Events and its
//! ResourceSlices. Which Node, Lease and pods it may change is NodeRestriction's part at
//! admission. It reads no Secrets here: upstream allows those its pods name, which needs the
//! pods' graph; labs give their pods no Secrets yet.

use super::authorizer::{Attributes, Decision};
use crate::api::Kind;

/// The group every kubelet's credential carries.
pub const NODES_GROUP: &str = "system:nodes";

/// The read verbs.
const READ_VERBS: &[&str] = &["get", "list", "watch"];

/// The kinds a kubelet writes (`system:node` ClusterRole and the Node authorizer's graph).
const WRITTEN_KINDS: &[Kind] = &[Kind::Node, Kind::Pod, Kind::Lease, Kind::Event, Kind::ResourceSlice];

/// The decision for a kubelet's request; `NoOpinion` for anyone else (the next authorizer decides).
pub fn authorize(attributes: &Attributes<'_>) -> Decision {
    let user = attributes.user;
    if user.node_name().is_none() || !user.groups.iter().any(|g| g == NODES_GROUP) {
        return Decision::NoOpinion;
    }
    let allowed = if READ_VERBS.contains(&attributes.verb) {
        attributes.kind != Kind::Secret
    } else {
        // A kubelet never execs, attaches or forwards into a pod, nor evicts one.
        WRITTEN_KINDS.contains(&attributes.kind) && matches!(attributes.subresource, "" | "status")
    };
    if allowed { Decision::Allow } else { Decision::Deny(String::new()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::authorizer::forbidden;
    use crate::store::user::UserInfo;

    fn ask(verb: &'static str, kind: Kind, subresource: &'static str) -> (Decision, String) {
        let kubelet = UserInfo::node("worker-a");
        let attributes = Attributes { user: &kubelet, verb, kind, namespace: "default", name: "web", subresource };
        let decision = authorize(&attributes);
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
        assert_eq!(ask("get", Kind::Secret, "").0, Decision::Deny(String::new()));
        assert_eq!(ask("create", Kind::Pod, "exec").0, Decision::Deny(String::new()));
        let admin = UserInfo::new("kubernetes-admin", &["kubeadm:cluster-admins"]);
        let attributes =
            Attributes { user: &admin, verb: "delete", kind: Kind::Pod, namespace: "", name: "", subresource: "" };
        assert_eq!(authorize(&attributes), Decision::NoOpinion);
    }
}
