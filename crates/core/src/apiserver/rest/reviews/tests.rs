//! The review APIs over HTTP: what `kubectl auth can-i` and `whoami` post, the status back.

use super::*;
use crate::apiserver::rest::{HttpRequest, serve as serve_http};
use crate::kubectl::fixture::lab;
use std::sync::Arc;

fn post(sim: &mut crate::sim::Sim, user: Arc<UserInfo>, path: &str, body: &str) -> (u16, Value) {
    let request = HttpRequest {
        method: "POST",
        path,
        query: "",
        accept: "application/json",
        content_type: "application/json",
        body: body.as_bytes(),
    };
    let answer = serve_http(sim, user, &request);
    (answer.status, serde_json::from_str(&answer.body).unwrap())
}

const SSAR: &str = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

#[test]
fn can_i_is_answered_for_the_user_who_asks() {
    let mut sim = lab("kubectl create namespace dev\n\
         kubectl create role pod-reader --verb=get,list --resource=pods -n dev\n\
         kubectl create rolebinding read-pods --role=pod-reader --user=jane -n dev");
    let jane = UserInfo::new("jane", &["system:authenticated"]);
    let list_pods = |ns: &str| {
        format!(
            r#"{{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{{"resourceAttributes":{{"namespace":"{ns}","verb":"list","resource":"pods"}}}}}}"#
        )
    };
    let (code, review) = post(&mut sim, jane.clone(), SSAR, &list_pods("dev"));
    assert_eq!((code, &review["status"]), (201, &json!({"allowed": true})));
    assert_eq!(review["kind"], "SelfSubjectAccessReview");
    let (_, review) = post(&mut sim, jane.clone(), SSAR, &list_pods("default"));
    assert_eq!(review["status"], json!({"allowed": false}));
    let (code, review) =
        post(&mut sim, jane, SSAR, r#"{"spec":{"nonResourceAttributes":{"verb":"get","path":"/healthz"}}}"#);
    assert_eq!((code, &review["status"]), (201, &json!({"allowed": true})));
}

#[test]
fn a_review_without_attributes_is_invalid() {
    let mut sim = lab("");
    let (code, status) = post(&mut sim, UserInfo::admin(), SSAR, r#"{"spec":{}}"#);
    assert_eq!(code, 422);
    assert_eq!(
        status["message"],
        "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified"
    );
}

#[test]
fn rules_and_whoami_answer_the_callers_own() {
    let mut sim = lab("");
    let jane = UserInfo::new("jane", &["developers", "system:authenticated"]);
    let (code, review) = post(&mut sim, jane.clone(), "/apis/authentication.k8s.io/v1/selfsubjectreviews", "{}");
    assert_eq!(code, 201);
    assert_eq!(
        review["status"]["userInfo"],
        json!({"username": "jane", "groups": ["developers", "system:authenticated"]})
    );
    let path = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
    let (_, review) = post(&mut sim, jane, path, r#"{"spec":{"namespace":"default"}}"#);
    assert_eq!(review["status"]["incomplete"], false);
    assert_eq!(
        review["status"]["resourceRules"][0],
        json!({"verbs": ["create"], "apiGroups": ["authorization.k8s.io"], "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]})
    );
    assert!(
        review["status"]["nonResourceRules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["nonResourceURLs"].as_array().unwrap().contains(&json!("/healthz")))
    );
}

#[test]
fn a_subject_access_review_needs_rights_and_a_subject() {
    let mut sim = lab("");
    let path = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
    let asked = r#"{"spec":{"user":"jane","resourceAttributes":{"verb":"list","resource":"nodes"}}}"#;
    let (code, review) = post(&mut sim, UserInfo::admin(), path, asked);
    assert_eq!((code, &review["status"]["allowed"]), (201, &json!(false)));
    let jane = UserInfo::new("jane", &["system:authenticated"]);
    let (code, status) = post(&mut sim, jane, path, asked);
    assert_eq!(code, 403);
    assert_eq!(
        status["message"],
        "subjectaccessreviews.authorization.k8s.io is forbidden: User \"jane\" cannot create resource \"subjectaccessreviews\" in API group \"authorization.k8s.io\" at the cluster scope"
    );
    let (code, _) = post(
        &mut sim,
        UserInfo::admin(),
        path,
        r#"{"spec":{"resourceAttributes":{"verb":"list","resource":"nodes"}}}"#,
    );
    assert_eq!(code, 422);
    let local = "/apis/authorization.k8s.io/v1/namespaces/dev/localsubjectaccessreviews";
    let (code, status) = post(&mut sim, UserInfo::admin(), local, asked);
    assert_eq!(
        (code, status["message"].as_str()),
        (400, Some("spec.resourceAttributes.namespace must match namespace: dev"))
    );
}

#[test]
fn discovery_lists_the_reviews_with_create_only() {
    let sim = lab("");
    let list = crate::apiserver::rest::discovery::resources(sim.store(), AUTHORIZATION, VERSION).unwrap();
    let names: Vec<&str> = list["resources"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["localsubjectaccessreviews", "selfsubjectaccessreviews", "selfsubjectrulesreviews", "subjectaccessreviews"]
    );
    assert_eq!(list["resources"][1]["verbs"], json!(["create"]));
    assert_eq!(list["resources"][0]["namespaced"], true);
}
