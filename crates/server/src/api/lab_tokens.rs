//! A hosted lab's kubeconfigs and tokens: anyone who may watch the lab downloads a kubeconfig
//! for its Kubernetes API (the lab's instructor as its owner, who may do everything; anyone
//! else as a viewer, who may get, list and watch), and the instructor lists and revokes them.

use super::AppState;
use super::problem::{ApiError, ApiResult};
use super::session::Caller;
use crate::kube_api::tokens::{Role, TokenInfo};
use crate::up_command::kubeconfig;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// `POST /api/labs/{id}/kubeconfig`: a kubeconfig with a new token for the caller.
pub async fn kubeconfig(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let lab = state.labs.find(&id).ok_or_else(|| ApiError::NotFound(format!("no hosted lab has id {id:?}")))?;
    let endpoint = state
        .kube_api
        .get()
        .ok_or_else(|| ApiError::Unavailable("this server does not serve the Kubernetes API".into()))?;
    let role = if lab.owner_id == caller.me.id { Role::Owner } else { Role::Viewer };
    let (token, _) = lab.tokens.issue(&user_name(&caller.me.display_name, &caller.me.id), role);
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let context = format!("kubelab-{}", &id[..8.min(id.len())]);
    let text = kubeconfig::document(&context, (&endpoint.server_url(host, &id), &endpoint.ca_pem), &token);
    let disposition = format!("attachment; filename=\"{context}.kubeconfig\"");
    Ok(([(header::CONTENT_TYPE, "application/yaml".to_string()), (header::CONTENT_DISPOSITION, disposition)], text)
        .into_response())
}

/// `GET /api/labs/{id}/tokens`: the lab's tokens (never a token itself), for its instructor.
pub async fn list(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<TokenInfo>>> {
    let lab = owned(&state, &caller, &id)?;
    Ok(Json(lab.tokens.list()))
}

/// `DELETE /api/labs/{id}/tokens/{token}`: revokes one, by its id.
pub async fn revoke(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path((id, token)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let lab = owned(&state, &caller, &id)?;
    if !lab.tokens.revoke(&token) {
        return Err(ApiError::NotFound(format!("this lab has no token {token:?}")));
    }
    Ok(StatusCode::NO_CONTENT)
}

fn owned(state: &AppState, caller: &Caller, id: &str) -> ApiResult<Arc<crate::hosted_lab::HostedLab>> {
    let lab = state.labs.find(id).ok_or_else(|| ApiError::NotFound(format!("no hosted lab has id {id:?}")))?;
    if lab.owner_id != caller.me.id {
        return Err(ApiError::Forbidden("only the lab's instructor manages its tokens".into()));
    }
    Ok(lab)
}

/// The name the API's authorizer and audit log print for a person: their display name in
/// lower case, spaces and symbols as `-` (`Ada Lovelace` → `ada-lovelace`), or their id.
fn user_name(display_name: &str, id: &str) -> String {
    let slug: String =
        display_name.to_lowercase().chars().map(|c| if c.is_alphanumeric() { c } else { '-' }).take(40).collect();
    let slug = slug.trim_matches('-').to_string();
    if slug.is_empty() || slug.starts_with("system") { format!("user-{}", &id[..8.min(id.len())]) } else { slug }
}

#[cfg(test)]
mod tests {
    use super::user_name;

    #[test]
    fn a_person_is_named_as_the_authorizer_prints_them() {
        assert_eq!(user_name("Ada Lovelace", "0123456789"), "ada-lovelace");
        assert_eq!(user_name("  ", "0123456789"), "user-01234567");
        assert_eq!(user_name("system:admin", "0123456789"), "user-01234567");
    }
}
