//! The review APIs kube-apiserver answers without storing anything: authorization.k8s.io/v1's
//! SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview and
//! LocalSubjectAccessReview (`kubectl auth can-i`), and authentication.k8s.io/v1's
//! SelfSubjectReview (`kubectl auth whoami`). Create only; the answer is the posted object with
//! its status filled (pkg/registry/authorization/*/rest.go, pkg/registry/authentication/
//! selfsubjectreview/rest.go).

use super::HttpResponse;
use super::path::ResourcePath;
use crate::apiserver::impersonation::forbidden_message;
use crate::error::{ApiError, FieldError};
use crate::store::rbac::review::ResourceAttributes;
use crate::store::{Store, UserInfo};
use serde_json::{Map, Value, json};

pub const AUTHORIZATION: &str = "authorization.k8s.io";
pub const AUTHENTICATION: &str = "authentication.k8s.io";
pub const VERSION: &str = "v1";

/// One review resource: its plural, kind and whether it is namespaced.
struct Review {
    group: &'static str,
    plural: &'static str,
    kind: &'static str,
    namespaced: bool,
}

const REVIEWS: &[Review] = &[
    Review { group: AUTHENTICATION, plural: "selfsubjectreviews", kind: "SelfSubjectReview", namespaced: false },
    Review {
        group: AUTHORIZATION,
        plural: "localsubjectaccessreviews",
        kind: "LocalSubjectAccessReview",
        namespaced: true,
    },
    Review {
        group: AUTHORIZATION,
        plural: "selfsubjectaccessreviews",
        kind: "SelfSubjectAccessReview",
        namespaced: false,
    },
    Review {
        group: AUTHORIZATION,
        plural: "selfsubjectrulesreviews",
        kind: "SelfSubjectRulesReview",
        namespaced: false,
    },
    Review { group: AUTHORIZATION, plural: "subjectaccessreviews", kind: "SubjectAccessReview", namespaced: false },
];

/// The groups (`/apis`), each with its one version.
pub fn groups() -> [(&'static str, &'static str); 2] {
    [(AUTHENTICATION, VERSION), (AUTHORIZATION, VERSION)]
}

/// The discovery rows of `/apis/<group>/v1`, as kube-apiserver lists them (create only, no
/// short names), or `None` for another group version.
pub fn resources(group: &str, version: &str) -> Option<Vec<Value>> {
    if version != VERSION || !groups().iter().any(|(g, _)| *g == group) {
        return None;
    }
    let rows = REVIEWS.iter().filter(|r| r.group == group).map(|r| {
        json!({"name": r.plural, "singularName": r.plural.trim_end_matches('s'), "namespaced": r.namespaced,
               "kind": r.kind, "verbs": ["create"]})
    });
    Some(rows.collect())
}

/// Serves a request to a review resource; `None` when the path names none.
pub fn serve(
    store: &Store,
    user: &UserInfo,
    path: &ResourcePath,
    http: &super::HttpRequest<'_>,
) -> Option<HttpResponse> {
    let review =
        REVIEWS.iter().find(|r| r.group == path.group && path.version == VERSION && r.plural == path.resource)?;
    if (!review.namespaced && !path.namespace.is_empty()) || !path.name.is_empty() || !path.subresource.is_empty() {
        return None;
    }
    if http.method != "POST" {
        return Some(HttpResponse::from_error(ApiError::MethodNotAllowed {
            message: format!("the server does not allow this method on the requested resource ({})", http.method),
        }));
    }
    Some(create(store, user, review, &path.namespace, http).unwrap_or_else(HttpResponse::from_error))
}

fn create(
    store: &Store,
    user: &UserInfo,
    review: &Review,
    namespace: &str,
    http: &super::HttpRequest<'_>,
) -> Result<HttpResponse, ApiError> {
    // Creating a review is itself authorized (system:basic-user grants the self reviews).
    let asked = ResourceAttributes {
        namespace: namespace.to_string(),
        verb: "create".into(),
        group: review.group.into(),
        resource: review.plural.into(),
        ..Default::default()
    };
    let status = store.access_review(user, &asked);
    if !status.allowed {
        let mut message = forbidden_message(user, &asked);
        if !status.reason.is_empty() {
            message = format!("{message}: {}", status.reason);
        }
        return Err(ApiError::Forbidden { message });
    }
    let mut object = body(http)?;
    let spec = object.get("spec").cloned().unwrap_or_else(|| json!({}));
    let qualified = format!("{}.{}", review.kind, review.group);
    let status = match review.kind {
        "SelfSubjectReview" => json!({"userInfo": user_info(user)}),
        "SelfSubjectRulesReview" => rules_review(store, user, &spec),
        "SelfSubjectAccessReview" => access_review(store, user, &spec, &qualified)?,
        _ => {
            let subject = subject(&spec, &qualified)?;
            if review.namespaced {
                let asked = spec["resourceAttributes"]["namespace"].as_str().unwrap_or("");
                if spec.get("nonResourceAttributes").is_some_and(|v| !v.is_null()) {
                    let cause =
                        FieldError::invalid("spec.nonResourceAttributes", "{}", "disallowed on this kind of request");
                    return Err(ApiError::invalid(&qualified, "", vec![cause]));
                }
                if asked != namespace {
                    let message = format!("spec.resourceAttributes.namespace must match namespace: {namespace}");
                    return Err(ApiError::BadRequest { message });
                }
            }
            access_review(store, &subject, &spec, &qualified)?
        }
    };
    object.insert("apiVersion".into(), json!(format!("{}/{VERSION}", review.group)));
    object.insert("kind".into(), json!(review.kind));
    object.entry("metadata").or_insert_with(|| json!({}));
    object.insert("status".into(), status);
    let mut answer = HttpResponse::json(201, &Value::Object(object));
    answer.content_type = "application/json";
    Ok(answer)
}

/// `POST …/serviceaccounts/<name>/token` (TokenRequest, what `kubectl create token` posts): the
/// request with `status.token` and `status.expirationTimestamp` (pkg/registry/core/
/// serviceaccount/storage/token.go).
pub fn token_request(
    store: &mut Store,
    user: &UserInfo,
    path: &ResourcePath,
    http: &super::HttpRequest<'_>,
) -> Result<HttpResponse, ApiError> {
    let mut object = body(http)?;
    let spec = object.get("spec").cloned().unwrap_or_else(|| json!({}));
    let seconds = spec["expirationSeconds"].as_i64();
    let audiences: Vec<String> =
        spec["audiences"].as_array().into_iter().flatten().filter_map(|a| a.as_str().map(String::from)).collect();
    let token = store.create_token(user, (&path.namespace, &path.name), seconds, &audiences)?;
    let seconds = seconds.unwrap_or(crate::store::service_account_token::DEFAULT_EXPIRATION_SECONDS);
    let expires = store.now().plus(crate::sim::time::Duration::from_secs(seconds.max(0) as u64)).to_rfc3339();
    object.insert("apiVersion".into(), json!(format!("{AUTHENTICATION}/{VERSION}")));
    object.insert("kind".into(), json!("TokenRequest"));
    object.insert("status".into(), json!({"token": token, "expirationTimestamp": expires}));
    Ok(HttpResponse::json(201, &Value::Object(object)))
}

/// The posted object (JSON, or the protobuf typed clients send).
fn body(http: &super::HttpRequest<'_>) -> Result<Map<String, Value>, ApiError> {
    let value = if crate::api::protobuf::is_protobuf(http.content_type) {
        crate::api::protobuf::decode(http.body).map_err(|message| ApiError::BadRequest { message })?
    } else {
        super::body::parse(http.body, http.content_type)?
    };
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::BadRequest { message: "the body of the request is not an object".into() }),
    }
}

/// `status.userInfo`: the name, uid when known, and groups.
pub fn user_info(user: &UserInfo) -> Value {
    json!({"username": user.name, "groups": user.groups})
}

/// A SubjectAccessReview's subject (`spec.user`, `spec.groups`), which must name someone.
fn subject(spec: &Value, qualified: &str) -> Result<UserInfo, ApiError> {
    let name = spec["user"].as_str().unwrap_or("").to_string();
    let groups: Vec<String> =
        spec["groups"].as_array().into_iter().flatten().filter_map(|g| g.as_str().map(String::from)).collect();
    if name.is_empty() && groups.is_empty() {
        let cause = FieldError::invalid("spec.user", "\"\"", "at least one of user or group must be specified");
        return Err(ApiError::invalid(qualified, "", vec![cause]));
    }
    Ok(UserInfo { name, groups })
}

/// An access review's status for `user`: exactly one of resourceAttributes and
/// nonResourceAttributes is asked about.
fn access_review(store: &Store, user: &UserInfo, spec: &Value, qualified: &str) -> Result<Value, ApiError> {
    let present = |field: &str| spec.get(field).is_some_and(|v| !v.is_null());
    let text = |value: &Value, field: &str| value[field].as_str().unwrap_or("").to_string();
    let status = match (present("resourceAttributes"), present("nonResourceAttributes")) {
        (true, false) => {
            let asked = &spec["resourceAttributes"];
            let asked = ResourceAttributes {
                namespace: text(asked, "namespace"),
                verb: text(asked, "verb"),
                group: text(asked, "group"),
                resource: text(asked, "resource"),
                subresource: text(asked, "subresource"),
                name: text(asked, "name"),
            };
            store.access_review(user, &asked)
        }
        (false, true) => {
            let asked = &spec["nonResourceAttributes"];
            store.non_resource_review(user, &text(asked, "verb"), &text(asked, "path"))
        }
        (both, _) => {
            let (field, detail) = if both {
                ("spec.nonResourceAttributes", "cannot be specified in combination with resourceAttributes")
            } else {
                (
                    "spec.resourceAttributes",
                    "exactly one of nonResourceAttributes or resourceAttributes must be specified",
                )
            };
            return Err(ApiError::invalid(qualified, "", vec![FieldError::invalid(field, "\"null\"", detail)]));
        }
    };
    let mut answer = json!({"allowed": status.allowed});
    if !status.reason.is_empty() {
        answer["reason"] = json!(status.reason);
    }
    Ok(answer)
}

/// A SelfSubjectRulesReview's status: the rules in `spec.namespace`.
fn rules_review(store: &Store, user: &UserInfo, spec: &Value) -> Value {
    let status = store.rules_review(user, spec["namespace"].as_str().unwrap_or(""));
    let resource_rules: Vec<Value> = status
        .resource_rules
        .iter()
        .map(|rule| {
            let mut value = json!({"verbs": rule.verbs});
            for (field, list) in [
                ("apiGroups", &rule.api_groups),
                ("resources", &rule.resources),
                ("resourceNames", &rule.resource_names),
            ] {
                if !list.is_empty() {
                    value[field] = json!(list);
                }
            }
            value
        })
        .collect();
    let non_resource_rules: Vec<Value> = status
        .non_resource_rules
        .iter()
        .map(|rule| json!({"verbs": rule.verbs, "nonResourceURLs": rule.non_resource_urls}))
        .collect();
    let mut answer = json!({"resourceRules": resource_rules, "nonResourceRules": non_resource_rules, "incomplete": status.incomplete});
    if !status.evaluation_error.is_empty() {
        answer["evaluationError"] = json!(status.evaluation_error);
    }
    answer
}

#[cfg(test)]
mod tests;
