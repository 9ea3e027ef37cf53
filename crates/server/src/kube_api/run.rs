//! `/kubelab/run`: the lab owner runs scenario lines in a served lab — `lab …` verbs (things
//! that happen to the cluster, not through its API), `sleep` and the lab's own kubectl — and
//! gets the transcript `kubelab sim` would print. What real clients cannot do through the
//! Kubernetes API (power a node off, send traffic) they do here.

use super::{ServedLab, status_response};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// The most script one request runs.
pub const MAX_SCRIPT: usize = 256 * 1024;

pub async fn handle(State(served): State<ServedLab>, headers: HeaderMap, body: String) -> Response {
    if !served.is_owner(&headers) {
        return status_response(403, "Forbidden", "only the lab's owner may run scripts in it");
    }
    if body.len() > MAX_SCRIPT {
        return status_response(413, "RequestEntityTooLarge", "the script is too large");
    }
    match served.lab.script(body).await {
        Ok(Ok(transcript)) => {
            let mut response = transcript.into_response();
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
            response
        }
        Ok(Err(error)) => status_response(400, "BadRequest", &error),
        Err(_) => status_response(503, "ServiceUnavailable", "the lab has stopped"),
    }
}
