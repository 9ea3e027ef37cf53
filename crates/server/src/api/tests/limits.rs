//! Bounds: body sizes and write rates.

use super::{TestApp, assert_problem};
use crate::api::{Limits, Rate};
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let app = TestApp::new().await;
    let huge = json!({"join_code": "x".repeat(100_000), "display_name": "Bob"});
    assert_problem(&app.call("POST", "/api/join", None, Some(huge)).await, StatusCode::PAYLOAD_TOO_LARGE, "too large");
}

#[tokio::test]
async fn writes_past_the_rate_get_429_with_retry_after() {
    let limits = Limits { session_writes: Rate { per_second: 1.0, burst: 2.0 }, ..Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (learner, _) = app.learner(&code, "Bob").await;
    let event = |id: &str| json!({"id": id, "lesson": "l", "step": 0, "kind": "step_opened"});
    for id in ["a", "b"] {
        assert_eq!(
            app.call("POST", "/api/progress", Some(&learner), Some(event(id))).await.status,
            StatusCode::CREATED
        );
    }
    let limited = app.call("POST", "/api/progress", Some(&learner), Some(event("c"))).await;
    assert_problem(&limited, StatusCode::TOO_MANY_REQUESTS, "too many writes");
    assert_eq!(limited.retry_after.as_deref(), Some("1"));
    assert_eq!(
        app.call("GET", "/api/progress", Some(&learner), None).await.status,
        StatusCode::OK,
        "reads are not limited"
    );
}

#[tokio::test]
async fn password_guessing_is_slowed_per_address() {
    let limits = Limits { password_attempts: Rate { per_second: 0.1, burst: 3.0 }, ..Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let guess = json!({"email": "ada@example.org", "password": "guess guess"});
    for _ in 0..3 {
        assert_eq!(app.call("POST", "/api/session", None, Some(guess.clone())).await.status, StatusCode::UNAUTHORIZED);
    }
    let limited = app.call("POST", "/api/session", None, Some(guess)).await;
    assert_problem(&limited, StatusCode::TOO_MANY_REQUESTS, "too many password attempts; try again in ");
    // 10 s for one attempt at 0.1/s, less whatever refilled while the three hashes ran.
    let detail = limited.body["detail"].as_str().unwrap_or_default();
    let wait: u32 = detail.trim_end_matches(" s").rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!((5..=10).contains(&wait), "{detail}");
}
