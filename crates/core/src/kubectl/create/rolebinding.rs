//! `kubectl create rolebinding NAME --role=…|--clusterrole=… [--user] [--group]
//! [--serviceaccount=NAMESPACE:NAME]` and `kubectl create clusterrolebinding`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_rolebinding.go and
//! create_clusterrolebinding.go.

use super::{generated_metadata, one_name};
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::{Value, json};

const SUBJECT_FLAGS: [Flag; 3] = [
    Flag::repeated("user", None, "Usernames to bind to the role. The flag can be repeated to add multiple users."),
    Flag::repeated("group", None, "Groups to bind to the role. The flag can be repeated to add multiple groups."),
    Flag::repeated(
        "serviceaccount",
        None,
        "Service accounts to bind to the role, in the format <namespace>:<name>. The flag can be repeated to add multiple service accounts.",
    ),
];

pub const ROLE_BINDING: Verb = Verb {
    name: "create rolebinding",
    short: "Create a role binding for a particular role or cluster role",
    usage: "kubectl create rolebinding NAME --clusterrole=NAME|--role=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none] [options]",
    flags: &[
        Flag::value("role", None, "Role this RoleBinding should reference"),
        Flag::value("clusterrole", None, "ClusterRole this RoleBinding should reference"),
        SUBJECT_FLAGS[0],
        SUBJECT_FLAGS[1],
        SUBJECT_FLAGS[2],
        DRY_RUN,
        OUTPUT,
    ],
    run: run_role_binding,
};

pub const CLUSTER_ROLE_BINDING: Verb = Verb {
    name: "create clusterrolebinding",
    short: "Create a cluster role binding for a particular cluster role",
    usage: "kubectl create clusterrolebinding NAME --clusterrole=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none] [options]",
    flags: &[
        Flag::value("clusterrole", None, "ClusterRole this ClusterRoleBinding should reference"),
        SUBJECT_FLAGS[0],
        SUBJECT_FLAGS[1],
        SUBJECT_FLAGS[2],
        DRY_RUN,
        OUTPUT,
    ],
    run: run_cluster_role_binding,
};

fn run_role_binding(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &ROLE_BINDING) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let role = args.get("role").filter(|r| !r.is_empty());
    let cluster_role = args.get("clusterrole").filter(|r| !r.is_empty());
    let role_ref = match (role, cluster_role) {
        (Some(role), None) => role_ref("Role", role),
        (None, Some(cluster_role)) => role_ref("ClusterRole", cluster_role),
        _ => return Output::failed("error: exactly one of clusterrole or role must be specified"),
    };
    let subjects = match subjects(&args) {
        Ok(subjects) => subjects,
        Err(message) => return Output::failed(message),
    };
    let binding = json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "RoleBinding",
        "metadata": generated_metadata(&args, &name, None),
        "roleRef": role_ref,
        "subjects": subjects,
    });
    print_flags::create(ctx, &args, binding, Refusal::Prefixed("failed to create rolebinding: "))
}

fn run_cluster_role_binding(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &CLUSTER_ROLE_BINDING) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let Some(cluster_role) = args.get("clusterrole").filter(|r| !r.is_empty()) else {
        return Output::failed("error: clusterrole must be specified");
    };
    let subjects = match subjects(&args) {
        Ok(subjects) => subjects,
        Err(message) => return Output::failed(message),
    };
    let binding = json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRoleBinding",
        "metadata": {"name": name},
        "roleRef": role_ref("ClusterRole", cluster_role),
        "subjects": subjects,
    });
    print_flags::create(ctx, &args, binding, Refusal::Prefixed("failed to create clusterrolebinding: "))
}

fn role_ref(kind: &str, name: &str) -> Value {
    json!({"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": name})
}

/// Users, then groups, then service accounts, as kubectl adds them; `null` when none.
fn subjects(args: &Args) -> Result<Value, String> {
    let mut subjects = Vec::new();
    for user in args.all("user") {
        subjects.push(json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}));
    }
    for group in args.all("group") {
        subjects.push(json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": group}));
    }
    for account in args.all("serviceaccount") {
        let Some((namespace, name)) = account.split_once(':').filter(|(ns, name)| !ns.is_empty() && !name.is_empty())
        else {
            return Err("error: serviceaccount must be <namespace>:<name>".to_string());
        };
        subjects.push(json!({"kind": "ServiceAccount", "name": name, "namespace": namespace}));
    }
    Ok(if subjects.is_empty() { Value::Null } else { Value::Array(subjects) })
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::lab;

    fn kubectl(sim: &mut crate::sim::Sim, line: &str) -> String {
        crate::kubectl::create::tests::kubectl(sim, line).0
    }

    #[test]
    fn a_binding_lists_users_groups_then_service_accounts() {
        let mut sim = lab("");
        let yaml = kubectl(
            &mut sim,
            "create rolebinding rb --role=pod-reader --user=jane --group=g --serviceaccount=dev:robot --dry-run=client -o yaml -n dev",
        );
        assert_eq!(
            yaml,
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\n  namespace: dev\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: pod-reader\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: jane\n- apiGroup: rbac.authorization.k8s.io\n  kind: Group\n  name: g\n- kind: ServiceAccount\n  name: robot\n  namespace: dev\n"
        );
        assert_eq!(
            kubectl(&mut sim, "create rolebinding rb --role=a --clusterrole=b --user=x"),
            "error: exactly one of clusterrole or role must be specified\n"
        );
        assert_eq!(
            kubectl(&mut sim, "create clusterrolebinding crb --clusterrole=view --user=a"),
            "clusterrolebinding.rbac.authorization.k8s.io/crb created\n"
        );
    }
}
