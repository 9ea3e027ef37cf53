//! Calls to the server's HTTP API with the browser's `fetch` (same origin, so the session cookie
//! rides along). Every refusal becomes an `ApiError` carrying the problem's `detail`, the
//! sentence the server wrote for a person to read.

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A failed call: the HTTP status (0 when the server could not be reached) and what to tell
/// the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub detail: String,
}

impl ApiError {
    fn unreachable() -> ApiError {
        ApiError { status: 0, detail: "the server could not be reached; check your connection and try again".into() }
    }

    /// Worth trying again later: the network, rate limits and server trouble, not a refusal.
    pub fn is_transient(&self) -> bool {
        matches!(self.status, 0 | 429) || self.status >= 500
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

/// The user-facing sentence for a refusal: the problem's `detail`, else its `title`, else the
/// status alone (a proxy's HTML error page is not shown).
pub fn problem_detail(status: u16, body: &str) -> String {
    let problem: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let field =
        |name: &str| problem.as_ref().and_then(|p| p[name].as_str()).filter(|s| !s.is_empty()).map(str::to_string);
    field("detail").or_else(|| field("title")).unwrap_or_else(|| format!("the server answered with status {status}"))
}

/// `GET path`, read as JSON.
pub async fn get<T: DeserializeOwned>(path: &str) -> Result<T, ApiError> {
    let text = send("GET", path, None).await?;
    parse(&text)
}

/// `method path` with a JSON body, the answer read as JSON.
pub async fn send_json<B: Serialize, T: DeserializeOwned>(method: &str, path: &str, body: &B) -> Result<T, ApiError> {
    let text = send(method, path, Some(body_text(body)?)).await?;
    parse(&text)
}

/// `method path` with an optional JSON body, ignoring the answer's body (204s).
pub async fn send_no_answer<B: Serialize>(method: &str, path: &str, body: Option<&B>) -> Result<(), ApiError> {
    let body = body.map(body_text).transpose()?;
    send(method, path, body).await.map(|_| ())
}

/// `method path` with no body, the answer as text (a kubeconfig).
pub async fn send_for_text(method: &str, path: &str) -> Result<String, ApiError> {
    send(method, path, None).await
}

fn body_text<B: Serialize>(body: &B) -> Result<String, ApiError> {
    serde_json::to_string(body)
        .map_err(|err| ApiError { status: 0, detail: format!("could not write the request: {err}") })
}

fn parse<T: DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    serde_json::from_str(text)
        .map_err(|err| ApiError { status: 0, detail: format!("the server's answer was not understood: {err}") })
}

/// Sends one request; resolves to the answer's text when the status is 2xx.
async fn send(method: &str, path: &str, body: Option<String>) -> Result<String, ApiError> {
    let window = web_sys::window().ok_or_else(ApiError::unreachable)?;
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    if let Some(body) = body {
        let headers = web_sys::Headers::new().map_err(|_| ApiError::unreachable())?;
        let _ = headers.set("Content-Type", "application/json");
        init.set_headers(&headers);
        init.set_body(&JsValue::from_str(&body));
    }
    let response =
        JsFuture::from(window.fetch_with_str_and_init(path, &init)).await.map_err(|_| ApiError::unreachable())?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| ApiError::unreachable())?;
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise).await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
        Err(_) => String::new(),
    };
    if response.ok() {
        Ok(text)
    } else {
        Err(ApiError { status: response.status(), detail: problem_detail(response.status(), &text) })
    }
}

/// The `ws://` or `wss://` URL of an API path on this page's server.
pub fn socket_url(path: &str) -> Option<String> {
    let location = web_sys::window()?.location();
    let scheme = if location.protocol().ok()? == "https:" { "wss" } else { "ws" };
    Some(format!("{scheme}://{}{path}", location.host().ok()?))
}

/// A URL path segment with anything but unreserved characters escaped (ids are opaque).
pub fn path_segment(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_shows_its_detail_or_title() {
        let body = r#"{"type":"about:blank","title":"Forbidden","status":403,"detail":"only the class's instructor can see its dashboard"}"#;
        assert_eq!(problem_detail(403, body), "only the class's instructor can see its dashboard");
        assert_eq!(problem_detail(404, r#"{"title":"Not Found"}"#), "Not Found");
        assert_eq!(problem_detail(502, "<html>Bad gateway</html>"), "the server answered with status 502");
    }

    #[test]
    fn only_network_rate_limit_and_server_errors_are_retried() {
        let error = |status| ApiError { status, detail: String::new() };
        assert!(error(0).is_transient() && error(429).is_transient() && error(503).is_transient());
        assert!(!error(400).is_transient() && !error(401).is_transient() && !error(404).is_transient());
    }

    #[test]
    fn path_segments_are_escaped() {
        assert_eq!(path_segment("abc-1_2.x~"), "abc-1_2.x~");
        assert_eq!(path_segment("a/b c"), "a%2Fb%20c");
    }
}
