//! The RBAC authorizer against the examples of the upstream RBAC documentation
//! (docs/reference/access-authn-authz/rbac): each manifest in, each question's answer out.

use crate::api::{ClusterRole, Kind};
use crate::manifest::parse_documents;
use crate::store::{Store, UserInfo};

/// The documentation's manifests: pod-reader, secret-reader read in `development` by dave
/// and everywhere by the manager group, pod logs, one named ConfigMap, an aggregated role.
const DOCS_EXAMPLES: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: pod-reader
rules:
- apiGroups: [""] # "" indicates the core API group
  resources: ["pods"]
  verbs: ["get", "watch", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: default
subjects:
- kind: User
  name: jane
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: secret-reader
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "watch", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-secrets
  namespace: development
subjects:
- kind: User
  name: dave
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: secret-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: read-secrets-global
subjects:
- kind: Group
  name: manager
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: secret-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: pod-and-pod-logs-reader
rules:
- apiGroups: [""]
  resources: ["pods", "pods/log"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pod-logs
  namespace: default
subjects:
- kind: User
  name: logan
roleRef:
  kind: Role
  name: pod-and-pod-logs-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  namespace: default
  name: configmap-updater
rules:
- apiGroups: [""]
  # at the HTTP level, the name of the resource for accessing ConfigMap
  # objects is "configmaps"
  resources: ["configmaps"]
  resourceNames: ["my-configmap"]
  verbs: ["update", "get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: update-my-configmap
  namespace: default
subjects:
- kind: ServiceAccount
  name: config-writer
roleRef:
  kind: Role
  name: configmap-updater
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring
aggregationRule:
  clusterRoleSelectors:
  - matchLabels:
      rbac.example.com/aggregate-to-monitoring: "true"
rules: [] # The control plane automatically fills in the rules
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring-endpointslices
  labels:
    rbac.example.com/aggregate-to-monitoring: "true"
# When you create the "monitoring-endpointslices" ClusterRole,
# the rules below will be added to the "monitoring" ClusterRole.
rules:
- apiGroups: [""]
  resources: ["services", "pods"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["discovery.k8s.io"]
  resources: ["endpointslices"]
  verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: monitoring
subjects:
- kind: Group
  name: monitors
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: monitoring
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: view-for-victor
  namespace: default
subjects:
- kind: User
  name: victor
roleRef:
  kind: ClusterRole
  name: view
  apiGroup: rbac.authorization.k8s.io
"#;

fn docs_cluster() -> Store {
    let mut store = Store::new(1);
    store.act_as(UserInfo::admin());
    let development = crate::api::ObjectMeta::named("", "development");
    store.create(crate::api::Namespace { metadata: development, ..Default::default() }).unwrap();
    for value in parse_documents(DOCS_EXAMPLES).unwrap() {
        let object = crate::api::codec::decode(value).unwrap();
        store.create_object(object).unwrap();
    }
    super::aggregation::sync(&mut store);
    store
}

fn user(name: &str, groups: &[&str]) -> std::sync::Arc<UserInfo> {
    let mut all = groups.to_vec();
    all.push("system:authenticated");
    UserInfo::new(name, &all)
}

#[test]
fn the_documentations_examples_answer_as_upstream() {
    let store = docs_cluster();
    let config_writer = UserInfo::service_account("default", "config-writer");
    let cases: &[(&UserInfo, &str, Kind, &str, &str, &str, bool)] = &[
        // (who, verb, kind, namespace, name, subresource, allowed)
        (&user("jane", &[]), "get", Kind::Pod, "default", "web", "", true),
        (&user("jane", &[]), "list", Kind::Pod, "default", "", "", true),
        (&user("jane", &[]), "watch", Kind::Pod, "default", "", "", true),
        (&user("jane", &[]), "delete", Kind::Pod, "default", "web", "", false),
        (&user("jane", &[]), "list", Kind::Pod, "kube-system", "", "", false),
        (&user("jane", &[]), "list", Kind::Pod, "", "", "", false),
        (&user("jane", &[]), "get", Kind::Pod, "default", "web", "log", false),
        (&user("jane", &[]), "get", Kind::Secret, "default", "s", "", false),
        (&user("dave", &[]), "get", Kind::Secret, "development", "s", "", true),
        (&user("dave", &[]), "list", Kind::Secret, "development", "", "", true),
        (&user("dave", &[]), "get", Kind::Secret, "default", "s", "", false),
        (&user("dave", &[]), "list", Kind::Secret, "", "", "", false),
        (&user("ann", &["manager"]), "list", Kind::Secret, "", "", "", true),
        (&user("ann", &["manager"]), "get", Kind::Secret, "kube-system", "s", "", true),
        (&user("ann", &["manager"]), "delete", Kind::Secret, "default", "s", "", false),
        (&user("logan", &[]), "get", Kind::Pod, "default", "web", "log", true),
        (&user("logan", &[]), "get", Kind::Pod, "default", "web", "exec", false),
        (&user("logan", &[]), "create", Kind::Pod, "default", "web", "exec", false),
        (&config_writer, "get", Kind::ConfigMap, "default", "my-configmap", "", true),
        (&config_writer, "update", Kind::ConfigMap, "default", "my-configmap", "", true),
        (&config_writer, "update", Kind::ConfigMap, "default", "other", "", false),
        (&config_writer, "list", Kind::ConfigMap, "default", "", "", false),
        (&config_writer, "delete", Kind::ConfigMap, "default", "my-configmap", "", false),
        (&user("mo", &["monitors"]), "list", Kind::EndpointSlice, "", "", "", true),
        (&user("mo", &["monitors"]), "get", Kind::Service, "default", "web", "", true),
        (&user("mo", &["monitors"]), "list", Kind::Secret, "default", "", "", false),
        (&user("victor", &[]), "list", Kind::Deployment, "default", "", "", true),
        (&user("victor", &[]), "get", Kind::Pod, "default", "web", "log", true),
        (&user("victor", &[]), "get", Kind::Secret, "default", "s", "", false),
        (&user("victor", &[]), "create", Kind::Pod, "default", "web", "exec", false),
        (&user("victor", &[]), "list", Kind::Deployment, "kube-system", "", "", false),
        (&user("victor", &[]), "list", Kind::Node, "", "", "", false),
        (&UserInfo::admin(), "delete", Kind::Node, "", "node-1", "", true),
        (&user("root", &["system:masters"]), "create", Kind::ClusterRoleBinding, "", "x", "", true),
        (&user("nobody", &[]), "list", Kind::Pod, "default", "", "", false),
    ];
    for &(who, verb, kind, namespace, name, subresource, allowed) in cases {
        let answer = store.authorize_as(who, (verb, kind), namespace, name, subresource).is_ok();
        assert_eq!(answer, allowed, "{} {verb} {kind:?} {namespace}/{name} {subresource}", who.name);
    }
}

#[test]
fn the_aggregated_role_holds_the_labelled_roles_rules() {
    let store = docs_cluster();
    let monitoring = store.get::<ClusterRole>("", "monitoring").unwrap();
    let resources: Vec<&str> =
        monitoring.rules.iter().flatten().flat_map(|r| r.resources.iter().map(String::as_str)).collect();
    assert_eq!(resources, ["services", "pods", "endpointslices"]);
}

#[test]
fn a_denial_names_the_missing_role() {
    let mut store = docs_cluster();
    let binding: crate::api::RoleBinding = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "dangling", "namespace": "default"},
        "subjects": [{"kind": "User", "name": "jane"}],
        "roleRef": {"kind": "Role", "name": "gone", "apiGroup": "rbac.authorization.k8s.io"},
    }))
    .unwrap();
    store.create(binding).unwrap();
    let jane = user("jane", &[]);
    let denied = store.authorize_as(&jane, ("delete", Kind::Pod), "default", "web", "").unwrap_err();
    assert_eq!(
        denied.to_string(),
        "Error from server (Forbidden): pods \"web\" is forbidden: User \"jane\" cannot delete resource \"pods\" in API group \"\" in the namespace \"default\": RBAC: role.rbac.authorization.k8s.io \"gone\" not found"
    );
    assert!(store.authorize_as(&jane, ("get", Kind::Pod), "default", "web", "").is_ok());
}
