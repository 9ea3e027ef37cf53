//! Bounds: body sizes and write rates, and the ways around the rates that no longer work.

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

#[tokio::test]
async fn a_made_up_cookie_is_no_new_bucket() {
    let limits = Limits { anonymous_writes: Rate { per_second: 0.01, burst: 5.0 }, ..Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let join = json!({"join_code": "ZZZZ-ZZZZ", "display_name": "Mallory"});
    let mut statuses = Vec::new();
    for n in 0..8 {
        let cookie = format!("kubelab_session=made-up-{n}");
        let answer = app.call_from("192.0.2.7", &[], ("POST", "/api/join"), Some(&cookie), Some(join.clone())).await;
        statuses.push(answer.status.as_u16());
    }
    assert_eq!(statuses, [404, 404, 404, 404, 404, 429, 429, 429], "each cookie got a fresh bucket before");
    let elsewhere = app.call_from("192.0.2.8", &[], ("POST", "/api/join"), None, Some(join)).await;
    assert_eq!(elsewhere.status, StatusCode::NOT_FOUND, "another address has its own bucket");
}

#[tokio::test]
async fn resuming_does_not_refill_a_learners_bucket() {
    let limits = Limits { session_writes: Rate { per_second: 0.01, burst: 2.0 }, ..Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let joined = app.call("POST", "/api/join", None, Some(json!({"join_code": code, "display_name": "Bob"}))).await;
    let resume_code = joined.body["resume_code"].as_str().unwrap().to_string();
    let mut cookie = super::cookie_of(&joined);
    let mut statuses = Vec::new();
    for n in 0..4 {
        let event = json!({"id": format!("e{n}"), "lesson": "demo", "step": 0, "kind": "step_opened"});
        statuses.push(app.call("POST", "/api/progress", Some(&cookie), Some(event)).await.status.as_u16());
        // A new session each time: it used to come with a new bucket.
        let resumed = app.call("POST", "/api/resume", None, Some(json!({"resume_code": resume_code}))).await;
        cookie = super::cookie_of(&resumed);
    }
    assert_eq!(statuses, [201, 201, 429, 429]);
}

#[tokio::test]
async fn every_address_has_a_ceiling_and_a_trusted_proxy_names_the_client() {
    let proxy = "10.0.0.1";
    let limits = Limits {
        address_writes: Rate { per_second: 0.01, burst: 3.0 },
        trusted_proxies: vec![proxy.parse().unwrap()],
        ..Limits::default()
    };
    let app = TestApp::with_limits(limits).await;
    let join = json!({"join_code": "ZZZZ-ZZZZ", "display_name": "Eve"});
    let from = |peer: &'static str, forwarded: &'static str| {
        let app = &app;
        let join = join.clone();
        async move {
            let headers: Vec<(&str, &str)> =
                if forwarded.is_empty() { vec![] } else { vec![("x-forwarded-for", forwarded)] };
            app.call_from(peer, &headers, ("POST", "/api/join"), None, Some(join)).await.status.as_u16()
        }
    };
    let mut behind_proxy = Vec::new();
    for _ in 0..4 {
        behind_proxy.push(from(proxy, "203.0.113.7").await);
    }
    assert_eq!(behind_proxy, [404, 404, 404, 429], "the forwarded client's ceiling");
    assert_eq!(from(proxy, "203.0.113.8").await, 404, "another client behind the same proxy");
    // An untrusted peer's header is its own invention: its address counts.
    let mut spoofing = Vec::new();
    for n in 0..4 {
        spoofing.push(from("198.51.100.1", ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"][n]).await);
    }
    assert_eq!(spoofing, [404, 404, 404, 429]);
    // IPv6: one /64 is one client.
    let mut v6 = Vec::new();
    for peer in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2::3", "2001:db8:1:2::4"] {
        v6.push(from(peer, "").await);
    }
    assert_eq!(v6, [404, 404, 404, 429]);
}

#[tokio::test]
async fn a_much_tried_account_is_slowed_not_locked() {
    let limits = Limits {
        account_sign_ins: Rate { per_second: 1.0, burst: 2.0 },
        password_attempts: Rate { per_second: 100.0, burst: 100.0 },
        ..Limits::default()
    };
    let app = TestApp::with_limits(limits).await;
    let email = format!("ada-{}@example.org", crate::api::codes::new_id());
    let sign_up = json!({"email": email, "password": "correct horse", "display_name": "Ada"});
    assert_eq!(app.call("POST", "/api/instructors", None, Some(sign_up)).await.status, StatusCode::CREATED);
    // Four guesses from four addresses and the owner, all at once: two go straight through,
    // the rest wait their turn (1 s, 2 s, 2 s: the debt is capped at one burst). The owner
    // signs in, later: delayed, never refused.
    let start = std::time::Instant::now();
    let attempt = |n: usize| {
        let password = if n == 4 { "correct horse" } else { "wrong horse" };
        let (peer, body) = (format!("192.0.2.{n}"), json!({"email": email, "password": password}));
        let app = &app;
        async move { app.call_from(&peer, &[], ("POST", "/api/session"), None, Some(body)).await.status.as_u16() }
    };
    let statuses = futures_util::future::join_all((0..5).map(attempt)).await;
    assert_eq!(statuses, [401, 401, 401, 401, 200]);
    assert!(start.elapsed() >= std::time::Duration::from_millis(1900), "{:?}", start.elapsed());
}
