//! A learner's token through real kubectl 1.36: the user `kubelab:learner:<name>`, allowed
//! only what the role its token was issued with grants, refused the rest in the API server's
//! words.

mod support;

use support::up::{Up, oracle};

#[test]
fn a_learner_is_a_user_bound_to_the_role_it_was_given() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("learner-tokens");
    let (editor, _) =
        up.kubeconfig_issued("ana", r#"{"user":"ana","role":"learner","clusterRole":"edit","namespace":"default"}"#);
    let (bare, _) = up.kubeconfig_issued("ben", r#"{"user":"ben","role":"learner"}"#);
    let run = |config, args: &str| up.kubectl_with(config, &kubectl, args, None).0;

    let whoami = run(&editor, "auth whoami -o jsonpath={.status.userInfo.username}");
    assert_eq!(whoami, "kubelab:learner:ana");
    assert_eq!(run(&editor, "create configmap notes --from-literal=a=1"), "configmap/notes created\n");
    assert_eq!(run(&editor, "auth can-i create deployments"), "yes\n");
    assert_eq!(
        run(&editor, "get pods -n kube-system"),
        "Error from server (Forbidden): pods is forbidden: User \"kubelab:learner:ana\" cannot list resource \"pods\" in API group \"\" in the namespace \"kube-system\"\n"
    );
    assert_eq!(
        run(&bare, "get configmaps"),
        "Error from server (Forbidden): configmaps is forbidden: User \"kubelab:learner:ben\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"default\"\n"
    );
    assert_eq!(run(&bare, "auth can-i create deployments"), "no\n");
    let binding =
        run(&up.kubeconfig, "get rolebinding kubelab-learner-ana -o jsonpath={.roleRef.name}/{.subjects[0].name}");
    assert_eq!(binding, "edit/kubelab:learner:ana");
}
