//! The lab's roles until RBAC is an authorizer here: a member of `kubelab:viewers` (a learner's
//! token on a hosted lab) may only read — get, list and watch, as the `view` ClusterRole
//! allows — a kubelet what the Node authorizer allows (`node_authorizer.rs`) — and everyone
//! else may do everything (the owner's token is kubeadm's admin).

use super::authorizer::{Attributes, Authorizer, Decision};

/// The group of users who may read the lab but change nothing.
pub const VIEWERS: &str = "kubelab:viewers";

/// The group of bootstrap tokens (kubeadm's): they join a machine and read nothing.
pub const BOOTSTRAPPERS: &str = "system:bootstrappers";

/// What a viewer may do (the read verbs of upstream's `view` ClusterRole).
const READ_VERBS: &[&str] = &["get", "list", "watch"];

/// Viewers read; everyone else may do everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct LabRoles;

impl Authorizer for LabRoles {
    fn authorize(&self, attributes: &Attributes<'_>) -> Decision {
        // Upstream's order: the Node authorizer first, then RBAC.
        let node = super::node_authorizer::authorize(attributes);
        if node != Decision::NoOpinion {
            return node;
        }
        if attributes.user.groups.iter().any(|g| g == BOOTSTRAPPERS) {
            // kubeadm lets a bootstrap token create CertificateSigningRequests only; here it
            // is exchanged for a node's credential outside the API, and does nothing inside.
            return Decision::Deny(String::new());
        }
        let viewer = attributes.user.groups.iter().any(|g| g == VIEWERS);
        // `view` reads no secrets and runs nothing: no exec, attach or port-forward (each a
        // `create` on a pod subresource), so those fall to the verb check below.
        let secret = attributes.kind == crate::api::Kind::Secret;
        if !viewer || (READ_VERBS.contains(&attributes.verb) && !secret) {
            return Decision::Allow;
        }
        // RBAC denies with no reason of its own: the message ends at the scope.
        Decision::Deny(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Kind;
    use crate::store::authorizer::forbidden;
    use crate::store::user::UserInfo;

    fn ask(user: &UserInfo, verb: &'static str, kind: Kind) -> Decision {
        LabRoles.authorize(&Attributes { user, verb, kind, namespace: "default", name: "web", subresource: "" })
    }

    #[test]
    fn a_viewer_reads_and_the_owner_writes() {
        let viewer = UserInfo { name: "alice".into(), groups: vec![VIEWERS.into(), "system:authenticated".into()] };
        let owner = UserInfo { name: "kubernetes-admin".into(), groups: vec!["kubeadm:cluster-admins".into()] };
        assert_eq!(ask(&viewer, "list", Kind::Pod), Decision::Allow);
        assert_eq!(ask(&viewer, "watch", Kind::Deployment), Decision::Allow);
        assert_eq!(ask(&viewer, "get", Kind::Secret), Decision::Deny(String::new()));
        assert_eq!(ask(&owner, "delete", Kind::Pod), Decision::Allow);
        let delete = Attributes {
            user: &viewer,
            verb: "delete",
            kind: Kind::Pod,
            namespace: "default",
            name: "web",
            subresource: "",
        };
        assert_eq!(LabRoles.authorize(&delete), Decision::Deny(String::new()));
        assert_eq!(
            forbidden(&delete, "").to_string(),
            "Error from server (Forbidden): pods \"web\" is forbidden: User \"alice\" cannot delete resource \"pods\" in API group \"\" in the namespace \"default\""
        );
    }
}
