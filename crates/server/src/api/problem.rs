//! The one error type of the API, answered as an RFC 9457 problem (`application/problem+json`)
//! whose `detail` says what to do. Internal causes go to the log, never to the client.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug)]
pub enum ApiError {
    BadRequest(String),
    Unauthorized(String),
    Forbidden(String),
    NotFound(String),
    Conflict(String),
    TooManyRequests {
        detail: String,
        retry_after_s: u64,
    },
    Unavailable(String),
    /// Anything else: status and detail as given (payload too large, unsupported media type).
    Other(StatusCode, String),
    /// A bug or an outage: logged in full, answered as "internal error".
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Other(status, _) => *status,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn detail(&self) -> &str {
        match self {
            ApiError::BadRequest(d)
            | ApiError::Unauthorized(d)
            | ApiError::Forbidden(d)
            | ApiError::NotFound(d)
            | ApiError::Conflict(d)
            | ApiError::TooManyRequests { detail: d, .. }
            | ApiError::Unavailable(d)
            | ApiError::Other(_, d) => d,
            ApiError::Internal(_) => "internal error",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(%cause, "internal error");
        }
        let status = self.status();
        let body = json!({
            "type": "about:blank",
            "title": status.canonical_reason().unwrap_or("Error"),
            "status": status.as_u16(),
            "detail": self.detail(),
        });
        let mut response = (status, Json(body)).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        if let ApiError::TooManyRequests { retry_after_s, .. } = self {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
        }
        response
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> ApiError {
        ApiError::Internal(format!("database: {error}"))
    }
}

/// A body that is not the JSON asked for: keep axum's status (400, 413, 415, 422) and its
/// precise text (`missing field \`name\``, `unknown field \`x\``).
impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let status = rejection.status();
        let text = rejection.body_text();
        match status {
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::Other(status, "the request body is too large".into()),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => {
                ApiError::Other(status, "send the body as JSON, with Content-Type: application/json".into())
            }
            _ => ApiError::BadRequest(text),
        }
    }
}

/// The last word on refusals: any error answer that is not a problem document yet (axum's own
/// rejections of a bad query string or path, 405 for a wrong method) becomes one, its plain
/// text kept as the detail and its headers (`Allow`) kept as they were.
pub async fn as_problem(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"application/problem+json"));
    if status.as_u16() < 400 || is_problem || status == StatusCode::SWITCHING_PROTOCOLS {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let detail = match (status, text.is_empty()) {
        (StatusCode::METHOD_NOT_ALLOWED, _) => match parts.headers.get(header::ALLOW).and_then(|v| v.to_str().ok()) {
            Some(allowed) => format!("this endpoint does not take {method}; it takes {allowed}"),
            None => format!("this endpoint does not take {method}; see API.md"),
        },
        (_, true) => status.canonical_reason().unwrap_or("error").to_lowercase(),
        (_, false) => text,
    };
    let problem = ApiError::Other(status, detail).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
    Response::from_parts(parts, problem.into_body())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::to_bytes;

    async fn render(error: ApiError) -> (StatusCode, String, serde_json::Value) {
        let response = error.into_response();
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap().to_string();
        let body = to_bytes(response.into_body(), 4096).await.unwrap();
        (status, content_type, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn a_refusal_is_a_problem_document() {
        let (status, content_type, body) = render(ApiError::Forbidden("not your class".into())).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(content_type, "application/problem+json");
        assert_eq!(
            body,
            json!({"type": "about:blank", "title": "Forbidden", "status": 403, "detail": "not your class"})
        );
    }

    #[tokio::test]
    async fn internal_causes_stay_in_the_log() {
        let (status, _, body) = render(ApiError::Internal("disk full at /var/lib/x".into())).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(body["detail"], "internal error");
    }
}
