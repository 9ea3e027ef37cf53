//! Who makes a request: the authenticated user and groups every write carries (upstream
//! `k8s.io/apiserver/pkg/authentication/user.Info`), and the well-known users the control
//! plane's own components authenticate as.

use std::sync::Arc;

/// An authenticated user: a name and the groups it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UserInfo {
    pub name: String,
    pub groups: Vec<String>,
}

/// The prefix of a service account's user name (`serviceaccount.ServiceAccountUsernamePrefix`).
const SERVICE_ACCOUNT_PREFIX: &str = "system:serviceaccount:";
/// The prefix of a kubelet's user name (`system:node:<nodeName>`, as NodeRestriction reads it).
const NODE_PREFIX: &str = "system:node:";

impl UserInfo {
    pub fn new(name: impl Into<String>, groups: &[&str]) -> Arc<UserInfo> {
        Arc::new(UserInfo { name: name.into(), groups: groups.iter().map(|g| g.to_string()).collect() })
    }

    /// The API server itself (`user.APIServerUser`): what it creates at start, the namespaces
    /// and the system priority classes.
    pub fn apiserver() -> Arc<UserInfo> {
        UserInfo::new("system:apiserver", &["system:authenticated", "system:masters"])
    }

    /// The learner at the terminal: kubeadm's admin kubeconfig user.
    pub fn admin() -> Arc<UserInfo> {
        UserInfo::new("kubernetes-admin", &["kubeadm:cluster-admins", "system:authenticated"])
    }

    /// A kube-controller-manager controller, which runs under its own service account in
    /// kube-system (`--use-service-account-credentials`, kubeadm's default).
    pub fn controller(service_account: &str) -> Arc<UserInfo> {
        UserInfo::service_account("kube-system", service_account)
    }

    pub fn service_account(namespace: &str, name: &str) -> Arc<UserInfo> {
        let groups = ["system:serviceaccounts".to_string(), format!("system:serviceaccounts:{namespace}")];
        let mut groups = groups.to_vec();
        groups.push("system:authenticated".to_string());
        Arc::new(UserInfo { name: format!("{SERVICE_ACCOUNT_PREFIX}{namespace}:{name}"), groups })
    }

    /// kube-scheduler's user (`user.KubeScheduler`).
    pub fn scheduler() -> Arc<UserInfo> {
        UserInfo::new("system:kube-scheduler", &["system:authenticated"])
    }

    /// A node's kubelet (`system:node:<name>` in `system:nodes`).
    pub fn node(name: &str) -> Arc<UserInfo> {
        Arc::new(UserInfo {
            name: format!("{NODE_PREFIX}{name}"),
            groups: vec!["system:nodes".to_string(), "system:authenticated".to_string()],
        })
    }

    /// The node a kubelet user speaks for, if this is one.
    pub fn node_name(&self) -> Option<&str> {
        self.name.strip_prefix(NODE_PREFIX)
    }

    /// What an Event this user records names as its source: the component and, for a
    /// kubelet, the node (`source.component`/`host`, `reportingComponent`/`reportingInstance`).
    /// A controller reports under its service account's name (`replicaset-controller`), the
    /// scheduler under its profile's (`default-scheduler`), a kubelet as `kubelet` on its node.
    pub fn event_source(&self) -> (&str, Option<&str>) {
        if let Some(node) = self.node_name() {
            return ("kubelet", Some(node));
        }
        if self.name == "system:kube-scheduler" {
            // Its default profile's name, which pods name in `spec.schedulerName`.
            return ("default-scheduler", None);
        }
        match self.name.strip_prefix(SERVICE_ACCOUNT_PREFIX).and_then(|rest| rest.split_once(':')) {
            Some(("kube-system", account)) => (account, None),
            _ => (&self.name, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_component_reports_under_its_upstream_name() {
        let cases = [
            (UserInfo::controller("replicaset-controller"), ("replicaset-controller", None)),
            (UserInfo::scheduler(), ("default-scheduler", None)),
            (UserInfo::node("node-2"), ("kubelet", Some("node-2"))),
            (UserInfo::admin(), ("kubernetes-admin", None)),
        ];
        for (user, source) in cases {
            assert_eq!(user.event_source(), source, "{}", user.name);
        }
        assert_eq!(UserInfo::controller("node-controller").name, "system:serviceaccount:kube-system:node-controller");
    }
}
