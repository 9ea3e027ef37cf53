//! What the API server answers: the object, a list (with its resourceVersion and the token of
//! the next page), where a watch starts, the result of a delete, or a `Status` (metav1.Status)
//! carrying Kubernetes' reason and HTTP code.

use crate::api::{Kind, Object};
use crate::error::ApiError;
use crate::store::Deleted;
use serde_json::{Value, json};

#[derive(Clone, Debug)]
pub enum Response {
    Object(Object),
    /// A delete: the object gone, or marked for graceful deletion.
    Deleted(Deleted<Object>),
    List(ObjectList),
    Watch(WatchStart),
    Status(Status),
}

/// One page of a list.
#[derive(Clone, Debug)]
pub struct ObjectList {
    pub kind: Kind,
    pub items: Vec<Object>,
    /// The store's resourceVersion when listed: where a watch that follows starts.
    pub resource_version: u64,
    /// Set when more items follow (`metadata.continue`).
    pub continue_token: Option<String>,
}

/// A watch opened: events after `resource_version` follow, read from the watch log.
#[derive(Clone, Copy, Debug)]
pub struct WatchStart {
    pub kind: Kind,
    pub resource_version: u64,
}

/// A failure as the API server sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct Status(pub ApiError);

impl Status {
    pub fn code(&self) -> u16 {
        self.0.http_status()
    }

    pub fn reason(&self) -> &'static str {
        self.0.reason()
    }

    /// The wire form (`{"kind":"Status","apiVersion":"v1","status":"Failure",…}`).
    pub fn to_json(&self) -> Value {
        if let ApiError::Failure { code, message } = &self.0 {
            return json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                          "message": message, "code": code});
        }
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.0.message(),
            "reason": self.reason(),
            "code": self.code(),
        });
        if let Some(details) = details(&self.0) {
            status["details"] = details;
        }
        status
    }
}

/// `StatusDetails`: the object named and, for Invalid, each cause.
fn details(error: &ApiError) -> Option<Value> {
    match error {
        ApiError::NotFound { resource, name } | ApiError::AlreadyExists { resource, name } => {
            let (kind, group) = resource.split_once('.').unwrap_or((resource, ""));
            Some(json!({"name": name, "group": group, "kind": kind}))
        }
        ApiError::Invalid { kind, name, causes } => {
            let causes: Vec<Value> = causes
                .iter()
                .map(|c| json!({"reason": c.cause_type(), "message": c.body(), "field": c.field}))
                .collect();
            Some(json!({"name": name, "kind": kind, "causes": causes}))
        }
        ApiError::PolicyDenied(d) => {
            Some(json!({"name": d.name, "group": d.group, "kind": d.resource, "causes": [{"message": d.cause}]}))
        }
        ApiError::ApplyConflict { causes, .. } => {
            let causes: Vec<Value> = causes
                .iter()
                .map(|(field, message)| json!({"reason": "FieldManagerConflict", "message": message, "field": field}))
                .collect();
            Some(json!({"causes": causes}))
        }
        ApiError::TooManyRequests { retry_after_seconds, causes, .. } => {
            let mut details = json!({});
            if !causes.is_empty() {
                let causes: Vec<Value> =
                    causes.iter().map(|(reason, message)| json!({"reason": reason, "message": message})).collect();
                details["causes"] = json!(causes);
            }
            if *retry_after_seconds > 0 {
                details["retryAfterSeconds"] = json!(retry_after_seconds);
            }
            Some(details)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_not_found_is_the_status_the_api_server_sends() {
        let status = Status(ApiError::not_found("deployments.apps", "web"));
        assert_eq!(
            status.to_json().to_string(),
            r#"{"apiVersion":"v1","code":404,"details":{"group":"apps","kind":"deployments","name":"web"},"kind":"Status","message":"deployments.apps \"web\" not found","metadata":{},"reason":"NotFound","status":"Failure"}"#
        );
    }

    #[test]
    fn an_admission_policys_refusal_says_forbidden_with_its_reason_and_one_cause() {
        let cause =
            "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: false".to_string();
        let status = Status(ApiError::PolicyDenied(Box::new(crate::error::PolicyDenial {
            reason: "Invalid",
            group: "apps".into(),
            resource: "deployments".into(),
            name: "web".into(),
            message: format!("deployments.apps \"web\" is forbidden: {cause}"),
            cause: cause.clone(),
        })));
        assert_eq!(
            status.to_json().to_string(),
            r#"{"apiVersion":"v1","code":422,"details":{"causes":[{"message":"ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: false"}],"group":"apps","kind":"deployments","name":"web"},"kind":"Status","message":"deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: false","metadata":{},"reason":"Invalid","status":"Failure"}"#
        );
        assert_eq!(
            status.0.to_string(),
            "The deployments \"web\" is invalid: : ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: false"
        );
    }
}
