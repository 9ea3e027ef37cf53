//! The lab's own groups of users, which its bindings name: a learner's token on a hosted lab is
//! in `kubelab:viewers` (bound to the `view` ClusterRole, `rbac/bootstrap_policy.rs`); a
//! bootstrap token is in `system:bootstrappers`, bound to nothing, so RBAC lets it do only what
//! every authenticated user may (kubeadm exchanges it for a node's credential outside the API).

/// The group of users who may read the lab but change nothing.
pub const VIEWERS: &str = "kubelab:viewers";

/// The group of bootstrap tokens (kubeadm's): they join a machine and read nothing.
pub const BOOTSTRAPPERS: &str = "system:bootstrappers";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Kind;
    use crate::store::{Store, UserInfo};

    #[test]
    fn a_viewer_reads_and_the_owner_writes() {
        let store = Store::new(1);
        let viewer = UserInfo::new("alice", &[VIEWERS, "system:authenticated"]);
        let ask = |user: &UserInfo, verb: &'static str, kind: Kind| {
            store.authorize_as(user, (verb, kind), "default", "web", "").map_err(|e| e.to_string())
        };
        assert_eq!(ask(&viewer, "list", Kind::Pod), Ok(()));
        assert_eq!(ask(&viewer, "watch", Kind::Deployment), Ok(()));
        assert!(ask(&viewer, "get", Kind::Secret).is_err());
        assert_eq!(ask(&UserInfo::admin(), "delete", Kind::Pod), Ok(()));
        assert_eq!(
            ask(&viewer, "delete", Kind::Pod),
            Err("Error from server (Forbidden): pods \"web\" is forbidden: User \"alice\" cannot delete resource \"pods\" in API group \"\" in the namespace \"default\"".into())
        );
        let bootstrap = UserInfo::new("system:bootstrap:abcdef", &[BOOTSTRAPPERS, "system:authenticated"]);
        assert!(ask(&bootstrap, "list", Kind::Pod).is_err());
    }
}
