//! Classes, join codes and resume codes, and who may see what.

use super::{TestApp, assert_problem, cookie_of};
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn an_instructor_creates_classes_and_learners_join_them() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, join_code) = app.class(&instructor, "Kubernetes 101").await;
    assert_eq!(join_code.len(), 9);

    // Codes are read leniently: lower case, no dash.
    let lenient = join_code.to_lowercase().replace('-', "");
    let (learner, _) = app.learner(&lenient, "Bob").await;
    let me = app.call("GET", "/api/me", Some(&learner), None).await.body;
    assert_eq!(me["role"], "learner");
    assert_eq!(me["class_id"], class_id.as_str());
    assert_eq!(me["class_name"], "Kubernetes 101");
    assert!(me.get("resume_code").is_none(), "shown once, when joining, never again");

    app.class(&instructor, "Kubernetes 102").await;
    let classes = app.call("GET", "/api/classes", Some(&instructor), None).await.body;
    let names: Vec<&str> = classes.as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Kubernetes 102", "Kubernetes 101"], "newest first");
    assert_eq!(classes[1]["learners"], 1);
}

#[tokio::test]
async fn roles_are_enforced() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "Mine").await;
    let (learner, _) = app.learner(&code, "Bob").await;
    let other = app.instructor("Eve").await;

    let by_learner = app.call("POST", "/api/classes", Some(&learner), Some(json!({"name": "x"}))).await;
    assert_problem(&by_learner, StatusCode::FORBIDDEN, "only instructors can create classes");
    assert_problem(
        &app.call("GET", "/api/classes", Some(&learner), None).await,
        StatusCode::FORBIDDEN,
        "only instructors",
    );
    let path = format!("/api/classes/{class_id}/dashboard");
    assert_problem(
        &app.call("GET", &path, Some(&other), None).await,
        StatusCode::FORBIDDEN,
        "only the class's instructor",
    );
    assert_problem(&app.call("GET", &path, Some(&learner), None).await, StatusCode::FORBIDDEN, "only instructors");
    assert_problem(&app.call("GET", &path, None, None).await, StatusCode::UNAUTHORIZED, "sign in first");
    let missing = app.call("GET", "/api/classes/nope/dashboard", Some(&instructor), None).await;
    assert_problem(&missing, StatusCode::NOT_FOUND, "no class has id");
    assert_eq!(app.call("GET", &path, Some(&instructor), None).await.status, StatusCode::OK);
}

#[tokio::test]
async fn bad_join_codes_and_names() {
    let app = TestApp::new().await;
    let join = |code: &str, name: &str| json!({"join_code": code, "display_name": name});
    assert_problem(
        &app.call("POST", "/api/join", None, Some(join("ZZZZ-ZZZZ", "Bob"))).await,
        StatusCode::NOT_FOUND,
        "no class has the join code",
    );
    assert_problem(
        &app.call("POST", "/api/join", None, Some(join("0000", "Bob"))).await,
        StatusCode::NOT_FOUND,
        "check it with your instructor",
    );
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    assert_problem(
        &app.call("POST", "/api/join", None, Some(join(&code, "   "))).await,
        StatusCode::BAD_REQUEST,
        "display_name must be",
    );
}

#[tokio::test]
async fn a_resume_code_signs_the_same_learner_in_elsewhere() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let joined = app.call("POST", "/api/join", None, Some(json!({"join_code": code, "display_name": "Bob"}))).await;
    let (laptop, learner_id) = (cookie_of(&joined), joined.body["id"].as_str().unwrap().to_string());
    let resume_code = joined.body["resume_code"].clone();
    assert_eq!(resume_code.as_str().map(str::len), Some(14), "shown at join: {:?}", joined.body);
    let phone = app.call("POST", "/api/resume", None, Some(json!({"resume_code": resume_code}))).await;
    assert_eq!(phone.status, StatusCode::OK);
    assert_eq!(phone.body["id"], learner_id.as_str());
    assert_ne!(cookie_of(&phone), laptop, "a session of its own");
    assert_eq!(
        app.call("GET", "/api/me", Some(&laptop), None).await.status,
        StatusCode::OK,
        "the laptop stays signed in"
    );

    let unknown = app.call("POST", "/api/resume", None, Some(json!({"resume_code": "AAAA-BBBB-CCCC"}))).await;
    assert_problem(&unknown, StatusCode::NOT_FOUND, "no learner has that resume code");

    // Only a hash is kept; a new code replaces the old one.
    let stored: (Option<String>, Option<String>) =
        sqlx::query_as("SELECT resume_code, resume_code_hash FROM users WHERE id = $1")
            .bind(&learner_id)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(stored.0, None);
    assert_eq!(stored.1.as_deref(), Some(crate::api::codes::token_hash(resume_code.as_str().unwrap()).as_str()));
    let renewed = app.call("POST", "/api/me/resume-code", Some(&laptop), None).await;
    let new_code = renewed.body["resume_code"].clone();
    let old = app.call("POST", "/api/resume", None, Some(json!({"resume_code": resume_code}))).await;
    assert_problem(&old, StatusCode::NOT_FOUND, "no learner has that resume code");
    let new = app.call("POST", "/api/resume", None, Some(json!({"resume_code": new_code}))).await;
    assert_eq!(new.body["id"], learner_id.as_str());
    let by_instructor = app.call("POST", "/api/me/resume-code", Some(&instructor), None).await;
    assert_problem(&by_instructor, StatusCode::FORBIDDEN, "only learners");
}
