//! `/kubelab/tokens`: the owner hands out and takes back tokens for a served lab. `GET` lists
//! them (ids, users and roles; never a token), `POST {"user": "alice", "role": "viewer"}`
//! issues one (the token is in the answer, once; `"role": "bootstrap"` makes one that joins a
//! machine as a node, expiring after 24 h; `"role": "learner"` makes the user
//! `kubelab:learner:<user>`, and with `"clusterRole": "edit"` (and `"namespace": "dev"`) binds
//! that role to it in the lab as `kubelab-learner-<user>`), `DELETE /kubelab/tokens/ID`
//! revokes one.

use super::lab::OwnedRequest;
use super::tokens::{Role, learner_user};
use super::{ServedLab, status_response};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Issue {
    user: String,
    #[serde(default = "viewer")]
    role: Role,
    /// A ClusterRole to bind to a learner (a ClusterRoleBinding, or a RoleBinding in `namespace`).
    #[serde(default)]
    cluster_role: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
}

fn viewer() -> Role {
    Role::Viewer
}

fn not_owner() -> Response {
    status_response(403, "Forbidden", "only the lab's owner may manage its tokens")
}

pub async fn list(State(served): State<ServedLab>, headers: HeaderMap) -> Response {
    if !served.is_owner(&headers) {
        return not_owner();
    }
    Json(json!({ "tokens": served.tokens.list() })).into_response()
}

pub async fn issue(State(served): State<ServedLab>, headers: HeaderMap, body: String) -> Response {
    if !served.is_owner(&headers) {
        return not_owner();
    }
    let request: Issue = match serde_json::from_str(&body) {
        Ok(request) => request,
        Err(e) => return status_response(400, "BadRequest", &format!("the body is not a token request: {e}")),
    };
    if let Err(why) = valid_user_name(&request.user) {
        return status_response(422, "Invalid", &why);
    }
    let expires = match request.role {
        // A node's credential comes from joining (`agents.rs`), never from here.
        Role::Node => {
            return status_response(
                422,
                "Invalid",
                "role \"node\": a node's token comes from joining the lab with a bootstrap token",
            );
        }
        // kubeadm's bootstrap tokens expire after 24 h unless told otherwise.
        Role::Bootstrap => Some(std::time::Instant::now() + std::time::Duration::from_secs(24 * 3600)),
        Role::Owner | Role::Viewer | Role::Learner => None,
    };
    let binding = match (&request.cluster_role, request.role) {
        (None, _) => None,
        (Some(role), Role::Learner) => match bind(&served, &headers, &request, role).await {
            Ok(binding) => Some(binding),
            Err(refused) => return refused,
        },
        (Some(_), _) => {
            return status_response(422, "Invalid", "clusterRole: only a learner's token is bound to a role");
        }
    };
    let (token, id) = served.tokens.issue_until(&request.user, request.role, expires);
    let user = served.tokens.find(&token).map(|b| b.user.name.clone()).unwrap_or_default();
    let mut answer = json!({"id": id, "user": user, "role": request.role, "token": token});
    if let Some(binding) = binding {
        answer["binding"] = json!(binding);
    }
    (StatusCode::CREATED, Json(answer)).into_response()
}

/// Binds `role` to the learner as the owner would (`kubectl create clusterrolebinding
/// kubelab-learner-<user> --clusterrole=<role> --user=kubelab:learner:<user>`, or a RoleBinding
/// with `namespace`), through the lab's own API; one already there is kept. The binding's
/// `kind/name`, or the API's refusal.
async fn bind(served: &ServedLab, headers: &HeaderMap, request: &Issue, role: &str) -> Result<String, Response> {
    let owner = served.bearer(headers).map(|b| b.user).ok_or_else(not_owner)?;
    let name = format!("kubelab-learner-{}", request.user);
    let (kind, path) = match request.namespace.as_deref().filter(|n| !n.is_empty()) {
        Some(namespace) => {
            ("RoleBinding", format!("/apis/rbac.authorization.k8s.io/v1/namespaces/{namespace}/rolebindings"))
        }
        None => ("ClusterRoleBinding", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings".to_string()),
    };
    let group = "rbac.authorization.k8s.io";
    let body = json!({
        "apiVersion": format!("{group}/v1"), "kind": kind, "metadata": {"name": name},
        "roleRef": {"apiGroup": group, "kind": "ClusterRole", "name": role},
        "subjects": [{"apiGroup": group, "kind": "User", "name": learner_user(&request.user)}],
    });
    let create = OwnedRequest {
        method: "POST".into(),
        path,
        accept: "application/json".into(),
        content_type: "application/json".into(),
        body: body.to_string().into_bytes(),
        ..OwnedRequest::default()
    };
    match served.lab.serve(create, owner).await {
        Ok(answer) if answer.status == 201 || answer.status == 409 => Ok(format!("{kind}/{name}")),
        Ok(answer) => Err(super::respond(answer)),
        Err(_) => Err(status_response(503, "ServiceUnavailable", "the lab has stopped")),
    }
}

pub async fn revoke(State(served): State<ServedLab>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if !served.is_owner(&headers) {
        return not_owner();
    }
    if served.tokens.revoke(&id) {
        StatusCode::NO_CONTENT.into_response()
    } else {
        status_response(404, "NotFound", &format!("token \"{id}\" not found"))
    }
}

/// A user name as the authorizer and audit log will print it: short, printable, and not one
/// of the system's own (`system:` names belong to components).
fn valid_user_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > 63 || name.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!("user {name:?}: a user name is 1 to 63 printable characters, no spaces"));
    }
    if name.starts_with("system:") {
        return Err(format!("user {name:?}: names beginning with \"system:\" belong to the cluster's components"));
    }
    Ok(())
}
