//! Quotas: learners per class, classes per instructor, live sockets per learner, and an
//! instructor locking a class's joins.

use super::{TestApp, assert_problem, connect};
use crate::api::Limits;
use axum::http::StatusCode;
use serde_json::json;

fn join(code: &str, name: &str) -> Option<serde_json::Value> {
    Some(json!({"join_code": code, "display_name": name}))
}

#[tokio::test]
async fn a_full_class_and_an_instructor_with_many_classes_are_refused() {
    let limits = Limits { max_learners_per_class: 2, max_classes_per_instructor: 1, ..Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    app.learner(&code, "Bob").await;
    app.learner(&code, "Cy").await;
    let third = app.call("POST", "/api/join", None, join(&code, "Dee")).await;
    assert_problem(&third, StatusCode::FORBIDDEN, "this class is full (2 learners, its limit)");
    let another = app.call("POST", "/api/classes", Some(&instructor), Some(json!({"name": "D"}))).await;
    assert_problem(&another, StatusCode::FORBIDDEN, "at most 1 classes");
}

#[tokio::test]
async fn an_instructor_locks_joins_and_opens_them_again() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let path = format!("/api/classes/{class_id}/joins");
    let by_learner = app.call("PUT", &path, Some(&bob), Some(json!({"locked": true}))).await;
    assert_problem(&by_learner, StatusCode::FORBIDDEN, "only instructors");
    let locked = app.call("PUT", &path, Some(&instructor), Some(json!({"locked": true}))).await;
    assert_eq!((locked.status, &locked.body["joins_locked"]), (StatusCode::OK, &json!(true)));
    let refused = app.call("POST", "/api/join", None, join(&code, "Cy")).await;
    assert_problem(&refused, StatusCode::FORBIDDEN, "locked joins");
    assert_eq!(app.call("GET", "/api/me", Some(&bob), None).await.status, StatusCode::OK, "those in stay in");
    app.call("PUT", &path, Some(&instructor), Some(json!({"locked": false}))).await;
    assert_eq!(app.call("POST", "/api/join", None, join(&code, "Cy")).await.status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_learner_holds_a_bounded_number_of_live_sockets() {
    let app = TestApp::with_limits(Limits { max_live_sockets_per_learner: 2, ..Limits::default() }).await;
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let _phone = connect(addr, "/api/live", &bob).await;
    let _laptop = connect(addr, "/api/live", &bob).await;
    let start = std::time::Instant::now();
    while app.call("GET", "/api/live", Some(&bob), None).await.status != StatusCode::TOO_MANY_REQUESTS {
        assert!(start.elapsed().as_secs() < 5, "a third socket was still accepted");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let third = app.call("GET", "/api/live", Some(&bob), None).await;
    assert_problem(&third, StatusCode::TOO_MANY_REQUESTS, "already have 2 live connections open");
}
