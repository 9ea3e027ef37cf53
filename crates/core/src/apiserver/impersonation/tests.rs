//! Impersonation as kube-apiserver 1.36 decides it: headers in, the user served (or the
//! refusal) out.

use super::*;
use crate::kubectl::fixture::lab;

fn headers(pairs: &[(&'static str, &'static str)]) -> Impersonation {
    Impersonation::from_headers(pairs.iter().copied())
}

fn list_pods() -> RequestAttributes {
    RequestAttributes::of("GET", "/api/v1/namespaces/default/pods", "")
}

#[test]
fn headers_are_read_in_any_case_and_extras_unescaped() {
    let wanted = headers(&[
        ("Impersonate-User", "jane"),
        ("impersonate-group", "developers"),
        ("Impersonate-Group", "ops"),
        ("Impersonate-Extra-Acme.com%2Fproject", "a"),
        ("Impersonate-Extra-acme.com%2fproject", "b"),
    ]);
    assert_eq!(wanted.user, "jane");
    assert_eq!(wanted.groups, ["developers", "ops"]);
    assert_eq!(wanted.extra, [("acme.com/project".to_string(), vec!["a".to_string(), "b".to_string()])]);
    assert!(Impersonation::from_headers([("Accept", "application/json")]).is_empty());
}

#[test]
fn the_request_is_read_as_the_authorizer_sees_it() {
    let RequestAttributes::Resource(asked) = list_pods() else { panic!("a resource request") };
    assert_eq!((asked.verb.as_str(), asked.namespace.as_str(), asked.resource.as_str()), ("list", "default", "pods"));
    let watch = RequestAttributes::of("GET", "/apis/apps/v1/deployments", "watch=true");
    assert!(matches!(watch, RequestAttributes::Resource(ResourceAttributes { ref verb, .. }) if verb == "watch"));
    assert_eq!(
        RequestAttributes::of("GET", "/api", ""),
        RequestAttributes::NonResource { verb: "get".into(), path: "/api".into() }
    );
}

#[test]
fn the_admin_becomes_the_user_asked_for_and_authenticated() {
    let sim = lab("");
    let admin = UserInfo::admin();
    let jane = headers(&[("Impersonate-User", "jane"), ("Impersonate-Group", "developers")]);
    let user = jane.resolve(sim.store(), &admin, &list_pods()).unwrap();
    assert_eq!(
        (user.name.as_str(), user.groups.clone()),
        ("jane", vec!["developers".into(), "system:authenticated".into()])
    );
    let robot = headers(&[("Impersonate-User", "system:serviceaccount:dev:robot")]);
    let user = robot.resolve(sim.store(), &admin, &list_pods()).unwrap();
    assert_eq!(user.groups, ["system:serviceaccounts", "system:serviceaccounts:dev", "system:authenticated"]);
    let none = Impersonation::default().resolve(sim.store(), &admin, &list_pods()).unwrap();
    assert_eq!(none, admin);
}

#[test]
fn a_user_without_the_right_is_refused_by_the_first_mode_that_applies() {
    let sim = lab("kubectl create clusterrolebinding alice-view --clusterrole=view --user=alice");
    let alice = UserInfo::new("alice", &["system:authenticated"]);
    let jane = headers(&[("Impersonate-User", "jane")]);
    let refused = jane.resolve(sim.store(), &alice, &list_pods()).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "Error from server (Forbidden): pods is forbidden: User \"alice\" cannot impersonate-on:user-info:list resource \"pods\" in API group \"\" in the namespace \"default\""
    );
    let discovery = RequestAttributes::of("GET", "/api", "");
    assert_eq!(
        jane.resolve(sim.store(), &alice, &discovery).unwrap_err().to_string(),
        "Error from server (Forbidden): forbidden: User \"alice\" cannot impersonate-on:user-info:get path \"/api\""
    );
}

#[test]
fn the_legacy_impersonate_verb_still_allows() {
    let sim = lab("kubectl create clusterrole impersonator --verb=impersonate --resource=users,groups\n\
         kubectl create clusterrolebinding bob-impersonates --clusterrole=impersonator --user=bob");
    let bob = UserInfo::new("bob", &["system:authenticated"]);
    let user = headers(&[("Impersonate-User", "jane")]).resolve(sim.store(), &bob, &list_pods()).unwrap();
    assert_eq!(user.name, "jane");
    let robot = headers(&[("Impersonate-User", "system:serviceaccount:dev:robot")]);
    assert_eq!(
        robot.resolve(sim.store(), &bob, &list_pods()).unwrap_err().to_string(),
        "Error from server (Forbidden): pods is forbidden: User \"bob\" cannot impersonate-on:serviceaccount:list resource \"pods\" in API group \"\" in the namespace \"default\""
    );
}

#[test]
fn groups_without_a_user_are_a_bad_request() {
    let sim = lab("");
    let refused =
        headers(&[("Impersonate-Group", "developers")]).resolve(sim.store(), &UserInfo::admin(), &list_pods());
    assert_eq!(
        refused.unwrap_err().to_string(),
        "Error from server (BadRequest): requested &user.DefaultInfo{Name:\"\", UID:\"\", Groups:[]string{\"developers\"}, Extra:map[string][]string(nil)} without impersonating a user name"
    );
}
