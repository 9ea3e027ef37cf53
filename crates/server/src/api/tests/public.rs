//! What anyone may read without signing in: health and the served lessons.

use super::TestApp;
use axum::http::StatusCode;

#[tokio::test]
async fn health_names_the_database() {
    let app = TestApp::new().await;
    let health = app.call("GET", "/api/health", None, None).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.body["ok"], true);
    let expected = if std::env::var("KUBELAB_TEST_DATABASE_URL").is_ok() { "postgres" } else { "sqlite" };
    assert_eq!(health.body["database"], expected);
    assert_eq!(health.body["me"], serde_json::Value::Null);

    let instructor = app.instructor("Ada").await;
    let signed_in = app.call("GET", "/api/health", Some(&instructor), None).await;
    assert_eq!(
        (signed_in.body["me"]["role"].as_str(), signed_in.body["me"]["display_name"].as_str()),
        (Some("instructor"), Some("Ada"))
    );
}

#[tokio::test]
async fn lessons_are_served_as_written() {
    let app = TestApp::new().await;
    let answer = app.call("GET", "/api/lessons", None, None).await;
    assert_eq!(answer.status, StatusCode::OK);
    let lessons = answer.body["lessons"].as_array().unwrap();
    assert_eq!(lessons.len(), 1);
    assert_eq!((lessons[0]["id"].as_str(), lessons[0]["title"].as_str()), (Some("demo"), Some("Demo")));
    assert!(lessons[0]["source"].as_str().unwrap().contains("kubectl create deployment hello"));
}

#[tokio::test]
async fn every_refusal_is_a_problem_document() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, _) = app.class(&instructor, "C").await;
    let wrong_method = app.call("DELETE", "/api/lessons", None, None).await;
    super::assert_problem(&wrong_method, StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not take DELETE");
    let bad_query =
        app.call("GET", &format!("/api/classes/{class_id}/dashboard?stuck_after=soon"), Some(&instructor), None).await;
    super::assert_problem(&bad_query, StatusCode::BAD_REQUEST, "stuck_after");
    let unknown = app.call("GET", "/api/nothing-here", None, None).await;
    super::assert_problem(&unknown, StatusCode::NOT_FOUND, "no such API endpoint");
}
