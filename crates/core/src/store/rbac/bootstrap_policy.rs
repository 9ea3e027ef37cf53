//! The policy an API server creates at start (plugin/pkg/auth/authorizer/rbac/bootstrappolicy:
//! policy.go's ClusterRoles and ClusterRoleBindings, controller_policy.go's
//! `system:controller:<name>` roles for the controllers the lab runs), kubeadm's
//! `kubeadm:cluster-admins` binding, the lab's viewers' binding to `view`, and the roles of the
//! components the lab runs as built-ins (the GPU operator's). Rules are as upstream's
//! testdata/cluster-roles.yaml prints them: each list sorted, as `PolicyRuleBuilder` sorts.

use crate::api::label_selector::LabelSelector;
use crate::api::meta::ObjectMeta;
use crate::api::rbac::{AggregationRule, ClusterRole, ClusterRoleBinding, PolicyRule, RoleRef, Subject};

/// `bootstrappolicy.Label`: every bootstrap role and binding carries it.
const BOOTSTRAPPING_LABEL: (&str, &str) = ("kubernetes.io/bootstrapping", "rbac-defaults");
/// `rbacv1.AutoUpdateAnnotationKey`: the API server reconciles these at every start.
const AUTOUPDATE_ANNOTATION: (&str, &str) = ("rbac.authorization.kubernetes.io/autoupdate", "true");
/// The prefix of a controller's role and service account (`saRolePrefix`).
pub const CONTROLLER_ROLE_PREFIX: &str = "system:controller:";
/// The labels that aggregate a ClusterRole's rules into admin, edit and view.
pub const AGGREGATE_TO_ADMIN: &str = "rbac.authorization.k8s.io/aggregate-to-admin";
pub const AGGREGATE_TO_EDIT: &str = "rbac.authorization.k8s.io/aggregate-to-edit";
pub const AGGREGATE_TO_VIEW: &str = "rbac.authorization.k8s.io/aggregate-to-view";
/// kubeadm's group of cluster administrators (its admin.conf user's group since 1.29).
pub const KUBEADM_CLUSTER_ADMINS: &str = "kubeadm:cluster-admins";

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "delete", "deletecollection", "patch", "update"];
const READ_WRITE: &[&str] = &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
    PolicyRule::new(verbs, groups, resources)
}

/// `eventsRule()`: create, update and patch Events in both groups that serve them.
fn events() -> PolicyRule {
    rule(&["create", "patch", "update"], &["", "events.k8s.io"], &["events"])
}

fn meta(name: &str, labels: &[(&str, &str)]) -> ObjectMeta {
    let mut meta = ObjectMeta::named("", name);
    meta.labels.insert(BOOTSTRAPPING_LABEL.0, BOOTSTRAPPING_LABEL.1);
    for (key, value) in labels {
        meta.labels.insert(*key, *value);
    }
    meta.annotations.insert(AUTOUPDATE_ANNOTATION.0, AUTOUPDATE_ANNOTATION.1);
    meta
}

fn role(name: &str, labels: &[(&str, &str)], rules: Vec<PolicyRule>) -> ClusterRole {
    ClusterRole { metadata: meta(name, labels), rules: Some(rules), aggregation_rule: None }
}

/// An aggregated role: empty until the aggregation controller fills it from `label`'s roles.
fn aggregated(name: &str, labels: &[(&str, &str)], label: &str) -> ClusterRole {
    let mut selector = LabelSelector::default();
    selector.match_labels.insert(label, "true");
    let aggregation_rule = Some(AggregationRule { cluster_role_selectors: vec![selector] });
    ClusterRole { metadata: meta(name, labels), rules: None, aggregation_rule }
}

fn binding(name: &str, role: &str, subjects: Vec<Subject>) -> ClusterRoleBinding {
    ClusterRoleBinding { metadata: meta(name, &[]), subjects, role_ref: RoleRef::cluster_role(role) }
}

/// policy.go's ClusterRoles(), the ones a lab's requests can reach.
pub fn cluster_roles() -> Vec<ClusterRole> {
    let mut roles = vec![
        aggregated("admin", &[], AGGREGATE_TO_ADMIN),
        role("cluster-admin", &[], vec![rule(&["*"], &["*"], &["*"]), PolicyRule::urls(&["*"], &["*"])]),
        aggregated("edit", &[(AGGREGATE_TO_ADMIN, "true")], AGGREGATE_TO_EDIT),
        role("system:aggregate-to-admin", &[(AGGREGATE_TO_ADMIN, "true")], aggregate_to_admin()),
        role("system:aggregate-to-edit", &[(AGGREGATE_TO_EDIT, "true")], aggregate_to_edit()),
        role("system:aggregate-to-view", &[(AGGREGATE_TO_VIEW, "true")], aggregate_to_view()),
        role(
            "system:auth-delegator",
            &[],
            vec![
                rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
                rule(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews"]),
            ],
        ),
        role(
            "system:basic-user",
            &[],
            vec![
                rule(&["create"], &["authorization.k8s.io"], &["selfsubjectaccessreviews", "selfsubjectrulesreviews"]),
                rule(&["create"], &["authentication.k8s.io"], &["selfsubjectreviews"]),
            ],
        ),
        role(
            "system:discovery",
            &[],
            vec![PolicyRule::urls(
                &["get"],
                &[
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                    "/healthz",
                    "/livez",
                    "/openapi",
                    "/openapi/*",
                    "/readyz",
                    "/version",
                    "/version/",
                ],
            )],
        ),
        role("system:kube-controller-manager", &[], kube_controller_manager()),
        role("system:kube-scheduler", &[], kube_scheduler()),
        role(
            "system:monitoring",
            &[],
            vec![PolicyRule::urls(
                &["get"],
                &["/healthz", "/healthz/*", "/livez", "/livez/*", "/metrics", "/metrics/slis", "/readyz", "/readyz/*"],
            )],
        ),
        role("system:node", &[], node()),
        role(
            "system:node-proxier",
            &[],
            vec![
                rule(&["list", "watch"], &[""], &["endpoints", "services"]),
                rule(READ, &[""], &["nodes"]),
                events(),
                rule(&["list", "watch"], &["discovery.k8s.io"], &["endpointslices"]),
            ],
        ),
        role(
            "system:public-info-viewer",
            &[],
            vec![PolicyRule::urls(&["get"], &["/healthz", "/livez", "/readyz", "/version", "/version/"])],
        ),
        role(
            "system:volume-scheduler",
            &[],
            vec![
                rule(&["get", "list", "patch", "update", "watch"], &[""], &["persistentvolumes"]),
                rule(READ, &["storage.k8s.io"], &["storageclasses"]),
                rule(&["get", "list", "patch", "update", "watch"], &[""], &["persistentvolumeclaims"]),
            ],
        ),
        aggregated("view", &[(AGGREGATE_TO_EDIT, "true")], AGGREGATE_TO_VIEW),
    ];
    roles.extend(controller_roles());
    roles.extend(component_roles());
    roles
}

fn aggregate_to_admin() -> Vec<PolicyRule> {
    vec![
        rule(&["create"], &["authorization.k8s.io"], &["localsubjectaccessreviews"]),
        rule(READ_WRITE, &["rbac.authorization.k8s.io"], &["rolebindings", "roles"]),
    ]
}

fn aggregate_to_edit() -> Vec<PolicyRule> {
    vec![
        rule(READ, &[""], &["pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets", "services/proxy"]),
        rule(&["impersonate"], &[""], &["serviceaccounts"]),
        rule(WRITE, &[""], &["pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"]),
        rule(&["create"], &[""], &["pods/eviction"]),
        rule(
            WRITE,
            &[""],
            &[
                "configmaps",
                "events",
                "persistentvolumeclaims",
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "secrets",
                "serviceaccounts",
                "services",
                "services/proxy",
            ],
        ),
        rule(&["create"], &[""], &["serviceaccounts/token"]),
        rule(
            WRITE,
            &["apps"],
            &[
                "daemonsets",
                "deployments",
                "deployments/rollback",
                "deployments/scale",
                "replicasets",
                "replicasets/scale",
                "statefulsets",
                "statefulsets/scale",
            ],
        ),
        rule(WRITE, &["autoscaling"], &["horizontalpodautoscalers"]),
        rule(WRITE, &["batch"], &["cronjobs", "jobs"]),
        rule(
            WRITE,
            &["extensions"],
            &[
                "daemonsets",
                "deployments",
                "deployments/rollback",
                "deployments/scale",
                "ingresses",
                "networkpolicies",
                "replicasets",
                "replicasets/scale",
                "replicationcontrollers/scale",
            ],
        ),
        rule(WRITE, &["policy"], &["poddisruptionbudgets"]),
        rule(WRITE, &["networking.k8s.io"], &["ingresses", "networkpolicies"]),
        rule(READ_WRITE, &["coordination.k8s.io"], &["leases"]),
    ]
}

fn aggregate_to_view() -> Vec<PolicyRule> {
    vec![
        rule(
            READ,
            &[""],
            &[
                "configmaps",
                "endpoints",
                "persistentvolumeclaims",
                "persistentvolumeclaims/status",
                "pods",
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "serviceaccounts",
                "services",
                "services/status",
            ],
        ),
        rule(
            READ,
            &[""],
            &[
                "bindings",
                "events",
                "limitranges",
                "namespaces/status",
                "pods/log",
                "pods/status",
                "replicationcontrollers/status",
                "resourcequotas",
                "resourcequotas/status",
            ],
        ),
        rule(READ, &[""], &["namespaces"]),
        rule(READ, &["discovery.k8s.io"], &["endpointslices"]),
        rule(
            READ,
            &["apps"],
            &[
                "controllerrevisions",
                "daemonsets",
                "daemonsets/status",
                "deployments",
                "deployments/scale",
                "deployments/status",
                "replicasets",
                "replicasets/scale",
                "replicasets/status",
                "statefulsets",
                "statefulsets/scale",
                "statefulsets/status",
            ],
        ),
        rule(READ, &["autoscaling"], &["horizontalpodautoscalers", "horizontalpodautoscalers/status"]),
        rule(READ, &["batch"], &["cronjobs", "cronjobs/status", "jobs", "jobs/status"]),
        rule(
            READ,
            &["extensions"],
            &[
                "daemonsets",
                "daemonsets/status",
                "deployments",
                "deployments/scale",
                "deployments/status",
                "ingresses",
                "ingresses/status",
                "networkpolicies",
                "replicasets",
                "replicasets/scale",
                "replicasets/status",
                "replicationcontrollers/scale",
            ],
        ),
        rule(READ, &["policy"], &["poddisruptionbudgets", "poddisruptionbudgets/status"]),
        rule(READ, &["networking.k8s.io"], &["ingresses", "ingresses/status", "networkpolicies"]),
    ]
}

fn kube_controller_manager() -> Vec<PolicyRule> {
    vec![
        events(),
        rule(&["create"], &["coordination.k8s.io"], &["leases"]),
        rule(&["get", "update"], &["coordination.k8s.io"], &["leases"]).names(&["kube-controller-manager"]),
        rule(&["create"], &[""], &["secrets", "serviceaccounts"]),
        rule(&["delete"], &[""], &["secrets"]),
        rule(&["get"], &[""], &["configmaps", "namespaces", "secrets", "serviceaccounts"]),
        rule(&["update"], &[""], &["secrets", "serviceaccounts"]),
        rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
        rule(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews"]),
        rule(&["list", "watch"], &["*"], &["*"]),
        rule(&["create"], &[""], &["serviceaccounts/token"]),
    ]
}

/// system:kube-scheduler, with the Dynamic Resource Allocation rules (GA, so always on).
fn kube_scheduler() -> Vec<PolicyRule> {
    vec![
        events(),
        rule(&["create"], &["coordination.k8s.io"], &["leases"]),
        rule(&["get", "update"], &["coordination.k8s.io"], &["leases"]).names(&["kube-scheduler"]),
        rule(READ, &[""], &["nodes"]),
        rule(&["delete", "get", "list", "watch"], &[""], &["pods"]),
        rule(&["create"], &[""], &["bindings", "pods/binding"]),
        rule(&["patch", "update"], &[""], &["pods/status"]),
        rule(READ, &[""], &["replicationcontrollers", "services"]),
        rule(READ, &["apps", "extensions"], &["replicasets"]),
        rule(READ, &["apps"], &["statefulsets"]),
        rule(READ, &["policy"], &["poddisruptionbudgets"]),
        rule(READ, &[""], &["persistentvolumeclaims", "persistentvolumes"]),
        rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
        rule(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews"]),
        rule(READ, &["storage.k8s.io"], &["csinodes"]),
        rule(READ, &[""], &["namespaces"]),
        rule(READ, &["storage.k8s.io"], &["csidrivers"]),
        rule(READ, &["storage.k8s.io"], &["csistoragecapacities"]),
        rule(READ, &["resource.k8s.io"], &["deviceclasses", "resourceclaims", "resourceslices"]),
        rule(&["patch", "update"], &["resource.k8s.io"], &["resourceclaims", "resourceclaims/status"]),
    ]
}

fn node() -> Vec<PolicyRule> {
    vec![
        rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
        rule(&["create"], &["authorization.k8s.io"], &["localsubjectaccessreviews", "subjectaccessreviews"]),
        rule(READ, &[""], &["services"]),
        rule(&["create", "get", "list", "watch"], &[""], &["nodes"]),
        rule(&["patch", "update"], &[""], &["nodes/status"]),
        rule(&["patch", "update"], &[""], &["nodes"]),
        rule(&["create", "patch", "update"], &["", "events.k8s.io"], &["events"]),
        rule(READ, &[""], &["pods"]),
        rule(&["create", "delete"], &[""], &["pods"]),
        rule(&["patch", "update"], &[""], &["pods/status"]),
        rule(&["create"], &[""], &["pods/eviction"]),
        rule(READ, &[""], &["configmaps", "secrets"]),
        rule(&["get"], &[""], &["persistentvolumeclaims", "persistentvolumes"]),
        rule(&["get"], &[""], &["endpoints"]),
        rule(&["create", "get", "list", "watch"], &["certificates.k8s.io"], &["certificatesigningrequests"]),
        rule(&["create", "delete", "get", "patch", "update"], &["coordination.k8s.io"], &["leases"]),
        rule(&["get"], &["storage.k8s.io"], &["volumeattachments"]),
        rule(&["create"], &[""], &["serviceaccounts/token"]),
    ]
}

/// controller_policy.go's roles for the kube-controller-manager controllers the lab runs,
/// each bound to its service account in kube-system.
fn controller_roles() -> Vec<ClusterRole> {
    let controller = |name: &str, rules: Vec<PolicyRule>| role(&format!("{CONTROLLER_ROLE_PREFIX}{name}"), &[], rules);
    let pod_deletion = || {
        vec![
            rule(&["patch", "update"], &[""], &["pods/status"]),
            rule(&["delete", "get", "list"], &[""], &["pods"]),
            events(),
        ]
    };
    let mut node_controller = vec![
        rule(&["delete", "get", "list", "patch", "update"], &[""], &["nodes"]),
        rule(&["patch", "update"], &[""], &["nodes/status"]),
    ];
    node_controller.extend(pod_deletion());
    vec![
        controller(
            "clusterrole-aggregation-controller",
            vec![rule(
                &["escalate", "get", "list", "patch", "update", "watch"],
                &["rbac.authorization.k8s.io"],
                &["clusterroles"],
            )],
        ),
        controller(
            "cronjob-controller",
            vec![
                rule(&["get", "list", "update", "watch"], &["batch"], &["cronjobs"]),
                rule(READ_WRITE_NO_COLLECTION, &["batch"], &["jobs"]),
                rule(&["update"], &["batch"], &["cronjobs/status"]),
                rule(&["update"], &["batch"], &["cronjobs/finalizers"]),
                rule(&["delete", "list"], &[""], &["pods"]),
                events(),
            ],
        ),
        controller(
            "daemon-set-controller",
            vec![
                rule(READ, &["apps", "extensions"], &["daemonsets"]),
                rule(&["update"], &["apps", "extensions"], &["daemonsets/status"]),
                rule(&["update"], &["apps", "extensions"], &["daemonsets/finalizers"]),
                rule(&["list", "watch"], &[""], &["nodes"]),
                rule(&["create", "delete", "list", "patch", "watch"], &[""], &["pods"]),
                rule(&["create"], &[""], &["pods/binding"]),
                rule(READ_WRITE_NO_COLLECTION, &["apps"], &["controllerrevisions"]),
                events(),
            ],
        ),
        controller(
            "deployment-controller",
            vec![
                rule(&["get", "list", "update", "watch"], &["apps", "extensions"], &["deployments"]),
                rule(&["update"], &["apps", "extensions"], &["deployments/status"]),
                rule(&["update"], &["apps", "extensions"], &["deployments/finalizers"]),
                rule(READ_WRITE_NO_COLLECTION, &["apps", "extensions"], &["replicasets"]),
                rule(&["get", "list", "update", "watch"], &[""], &["pods"]),
                events(),
            ],
        ),
        controller(
            "disruption-controller",
            vec![
                rule(READ, &["apps", "extensions"], &["deployments"]),
                rule(READ, &["apps", "extensions"], &["replicasets"]),
                rule(READ, &[""], &["replicationcontrollers"]),
                rule(READ, &["policy"], &["poddisruptionbudgets"]),
                rule(READ, &["apps"], &["statefulsets"]),
                rule(&["update"], &["policy"], &["poddisruptionbudgets/status"]),
                rule(&["get"], &["*"], &["*/scale"]),
                rule(&["patch", "update"], &[""], &["pods/status"]),
                events(),
            ],
        ),
        controller(
            "endpointslice-controller",
            vec![
                rule(READ, &[""], &["nodes", "pods", "services"]),
                rule(&["update"], &[""], &["services/finalizers"]),
                rule(&["create", "delete", "get", "list", "update"], &["discovery.k8s.io"], &["endpointslices"]),
                events(),
            ],
        ),
        controller(
            "generic-garbage-collector",
            vec![rule(&["delete", "get", "list", "patch", "update", "watch"], &["*"], &["*"]), events()],
        ),
        controller(
            "horizontal-pod-autoscaler",
            vec![
                rule(READ, &["autoscaling"], &["horizontalpodautoscalers"]),
                rule(&["update"], &["autoscaling"], &["horizontalpodautoscalers/status"]),
                rule(&["get", "update"], &["*"], &["*/scale"]),
                rule(&["list"], &[""], &["pods"]),
                rule(&["list"], &["metrics.k8s.io"], &["pods"]),
                rule(&["get", "list"], &["custom.metrics.k8s.io"], &["*"]),
                rule(&["get", "list"], &["external.metrics.k8s.io"], &["*"]),
                events(),
            ],
        ),
        controller(
            "job-controller",
            vec![
                rule(&["get", "list", "patch", "update", "watch"], &["batch"], &["jobs"]),
                rule(&["update"], &["batch"], &["jobs/status"]),
                rule(&["update"], &["batch"], &["jobs/finalizers"]),
                rule(&["create", "delete", "list", "patch", "watch"], &[""], &["pods"]),
                events(),
            ],
        ),
        controller(
            "namespace-controller",
            vec![
                rule(&["delete", "get", "list", "watch"], &[""], &["namespaces"]),
                rule(&["update"], &[""], &["namespaces/finalize", "namespaces/status"]),
                rule(&["delete", "deletecollection", "get", "list"], &["*"], &["*"]),
            ],
        ),
        controller("node-controller", node_controller),
        controller(
            "persistent-volume-binder",
            vec![
                rule(&["create", "delete", "get", "list", "update", "watch"], &[""], &["persistentvolumes"]),
                rule(&["update"], &[""], &["persistentvolumes/status"]),
                rule(&["get", "list", "update", "watch"], &[""], &["persistentvolumeclaims"]),
                rule(&["update"], &[""], &["persistentvolumeclaims/status"]),
                rule(&["create", "delete", "get", "list", "watch"], &[""], &["pods"]),
                rule(READ, &["storage.k8s.io"], &["storageclasses"]),
                rule(&["get", "list"], &[""], &["nodes"]),
                rule(&["watch"], &[""], &["events"]),
                events(),
            ],
        ),
        controller(
            "pod-garbage-collector",
            vec![
                rule(&["delete", "list", "watch"], &[""], &["pods"]),
                rule(&["get", "list"], &[""], &["nodes"]),
                rule(&["patch"], &[""], &["pods/status"]),
            ],
        ),
        controller(
            "pv-protection-controller",
            vec![rule(&["get", "list", "update", "watch"], &[""], &["persistentvolumes"]), events()],
        ),
        controller(
            "pvc-protection-controller",
            vec![
                rule(&["get", "list", "update", "watch"], &[""], &["persistentvolumeclaims"]),
                rule(&["get", "list", "watch"], &[""], &["pods"]),
                events(),
            ],
        ),
        controller(
            "replicaset-controller",
            vec![
                rule(&["get", "list", "update", "watch"], &["apps", "extensions"], &["replicasets"]),
                rule(&["update"], &["apps", "extensions"], &["replicasets/status"]),
                rule(&["update"], &["apps", "extensions"], &["replicasets/finalizers"]),
                rule(&["create", "delete", "list", "patch", "watch"], &[""], &["pods"]),
                events(),
            ],
        ),
        controller(
            // Quota may count anything, so it may list and watch everything.
            "resourcequota-controller",
            vec![
                rule(&["list", "watch"], &["*"], &["*"]),
                rule(&["update"], &[""], &["resourcequotas/status"]),
                events(),
            ],
        ),
        controller(
            "resource-claim-controller",
            vec![
                rule(READ, &[""], &["pods"]),
                rule(&["update"], &[""], &["pods/finalizers"]),
                rule(&["create", "delete", "get", "list", "watch"], &["resource.k8s.io"], &["resourceclaims"]),
                rule(&["patch", "update"], &["resource.k8s.io"], &["resourceclaims", "resourceclaims/status"]),
                rule(&["patch", "update"], &[""], &["pods/status"]),
                events(),
            ],
        ),
        controller("root-ca-cert-publisher", vec![rule(&["create", "update"], &[""], &["configmaps"]), events()]),
        controller("service-account-controller", vec![rule(&["create"], &[""], &["serviceaccounts"]), events()]),
        controller(
            "statefulset-controller",
            vec![
                rule(&["list", "watch"], &[""], &["pods"]),
                rule(&["list", "watch"], &["apps"], &["statefulsets"]),
                rule(&["update"], &["apps"], &["statefulsets/status"]),
                rule(&["update"], &["apps"], &["statefulsets/finalizers"]),
                rule(&["create", "delete", "get", "patch", "update"], &[""], &["pods"]),
                rule(
                    &["create", "delete", "get", "list", "patch", "update", "watch"],
                    &["apps"],
                    &["controllerrevisions"],
                ),
                rule(&["create", "get"], &[""], &["persistentvolumeclaims"]),
                rule(&["delete", "update"], &[""], &["persistentvolumeclaims"]),
                events(),
            ],
        ),
        controller("taint-eviction-controller", pod_deletion()),
        controller(
            "ttl-after-finished-controller",
            vec![rule(&["delete", "get", "list", "watch"], &["batch"], &["jobs"]), events()],
        ),
    ]
}

const READ_WRITE_NO_COLLECTION: &[&str] = &["create", "delete", "get", "list", "patch", "update", "watch"];

/// The roles of what the lab runs as built-in components rather than installed add-ons: the
/// GPU operator's feature discovery and MIG manager label nodes, the NVIDIA DRA driver's
/// kubelet plugin publishes ResourceSlices (as their Helm charts' ClusterRoles allow).
fn component_roles() -> Vec<ClusterRole> {
    let node_labeller = || vec![rule(&["get", "list", "patch", "update", "watch"], &[""], &["nodes"])];
    vec![
        role("gpu-operator:gpu-feature-discovery", &[], node_labeller()),
        role("gpu-operator:nvidia-mig-manager", &[], node_labeller()),
        // kind's local-path provisioner (its default-storage manifest's ClusterRole).
        role(
            "local-path-provisioner-role",
            &[],
            vec![
                rule(READ, &[""], &["nodes", "persistentvolumeclaims", "configmaps", "pods", "pods/log"]),
                rule(&["create", "delete", "get", "list", "patch", "update", "watch"], &[""], &["persistentvolumes"]),
                rule(&["create", "patch"], &[""], &["events"]),
                rule(READ, &["storage.k8s.io"], &["storageclasses"]),
            ],
        ),
        role(
            "nvidia-dra-driver-gpu:kubelet-plugin",
            &[],
            vec![
                rule(READ, &[""], &["nodes"]),
                rule(READ_WRITE, &["resource.k8s.io"], &["resourceslices"]),
                rule(READ, &["resource.k8s.io"], &["resourceclaims", "deviceclasses"]),
                rule(&["patch", "update"], &["resource.k8s.io"], &["resourceclaims/status"]),
            ],
        ),
    ]
}

/// policy.go's ClusterRoleBindings, the controllers' bindings, kubeadm's and the lab's.
pub fn cluster_role_bindings() -> Vec<ClusterRoleBinding> {
    let authenticated = || Subject::group("system:authenticated");
    let mut bindings = vec![
        binding("cluster-admin", "cluster-admin", vec![Subject::group(super::SUPERUSER_GROUP)]),
        binding("system:basic-user", "system:basic-user", vec![authenticated()]),
        binding("system:discovery", "system:discovery", vec![authenticated()]),
        binding(
            "system:kube-controller-manager",
            "system:kube-controller-manager",
            vec![Subject::user("system:kube-controller-manager")],
        ),
        binding("system:kube-scheduler", "system:kube-scheduler", vec![Subject::user("system:kube-scheduler")]),
        binding("system:monitoring", "system:monitoring", vec![Subject::group("system:monitoring")]),
        binding("system:node", "system:node", vec![]),
        binding("system:node-proxier", "system:node-proxier", vec![Subject::user("system:kube-proxy")]),
        binding(
            "system:public-info-viewer",
            "system:public-info-viewer",
            vec![authenticated(), Subject::group("system:unauthenticated")],
        ),
        binding("system:volume-scheduler", "system:volume-scheduler", vec![Subject::user("system:kube-scheduler")]),
    ];
    for role in controller_roles() {
        let name = role.metadata.name;
        let account = &name[CONTROLLER_ROLE_PREFIX.len()..];
        bindings.push(binding(&name, &name, vec![Subject::service_account("kube-system", account)]));
    }
    bindings.extend([
        binding(
            "gpu-operator:gpu-feature-discovery",
            "gpu-operator:gpu-feature-discovery",
            vec![Subject::service_account("gpu-operator", "gpu-feature-discovery")],
        ),
        binding(
            "gpu-operator:nvidia-mig-manager",
            "gpu-operator:nvidia-mig-manager",
            vec![Subject::service_account("gpu-operator", "nvidia-mig-manager")],
        ),
        binding(
            "local-path-provisioner-bind",
            "local-path-provisioner-role",
            vec![Subject::service_account("local-path-storage", "local-path-provisioner-service-account")],
        ),
        binding(
            "nvidia-dra-driver-gpu:kubelet-plugin",
            "nvidia-dra-driver-gpu:kubelet-plugin",
            vec![Subject::service_account("nvidia-dra-driver-gpu", "nvidia-dra-driver-gpu-kubelet-plugin")],
        ),
        // kubeadm init (phases/bootstraptoken/clusterinfo … and kubeconfig's admin): since
        // 1.29 admin.conf's user is in kubeadm:cluster-admins, bound to cluster-admin.
        kubeadm_binding(KUBEADM_CLUSTER_ADMINS, "cluster-admin", Subject::group(KUBEADM_CLUSTER_ADMINS)),
        // The lab's read-only learners.
        kubeadm_binding(super::VIEWERS_BINDING, "view", Subject::group(crate::store::lab_roles::VIEWERS)),
    ]);
    bindings
}

/// A binding outside upstream's bootstrap policy: no bootstrapping label or annotation.
fn kubeadm_binding(name: &str, role: &str, subject: Subject) -> ClusterRoleBinding {
    ClusterRoleBinding {
        metadata: ObjectMeta::named("", name),
        subjects: vec![subject],
        role_ref: RoleRef::cluster_role(role),
    }
}
