//! The live side: faults pushed to a class reach each connected learner, the dashboard follows
//! progress without a reload, and shutdown closes sockets with a reason.

use super::{LiveDashboard, TestApp, assert_problem, close_frame, connect, next_json};
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_pushed_fault_reaches_every_connected_learner() {
    let app = TestApp::new().await;
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let (cy, _) = app.learner(&code, "Cy").await;
    let mut bob_socket = connect(addr, "/api/live", &bob).await;
    let mut cy_socket = connect(addr, "/api/live", &cy).await;
    // Both sockets are registered once the dashboard says so.
    wait_for_online(&app, &class_id, &instructor, 2).await;

    let path = format!("/api/classes/{class_id}/faults");
    let pushed =
        app.call("POST", &path, Some(&instructor), Some(json!({"command": "lab node power-off node-2"}))).await;
    assert_eq!((pushed.status, pushed.body), (StatusCode::ACCEPTED, json!({"delivered": 2})));
    let expected = json!({"type": "fault", "command": "lab node power-off node-2", "from": "Ada"});
    assert_eq!(next_json(&mut bob_socket).await, expected);
    assert_eq!(next_json(&mut cy_socket).await, expected);

    let kubectl =
        app.call("POST", &path, Some(&instructor), Some(json!({"command": "kubectl delete pods --all"}))).await;
    assert_problem(&kubectl, StatusCode::BAD_REQUEST, "must be a lab event");
    let by_learner = app.call("POST", &path, Some(&bob), Some(json!({"command": "lab node power-on node-2"}))).await;
    assert_problem(&by_learner, StatusCode::FORBIDDEN, "only instructors");
}

async fn wait_for_online(app: &TestApp, class_id: &str, instructor: &str, count: usize) {
    for _ in 0..100 {
        let dashboard =
            app.call("GET", &format!("/api/classes/{class_id}/dashboard"), Some(instructor), None).await.body;
        let online = dashboard["learners"].as_array().unwrap().iter().filter(|l| l["online"] == true).count();
        if online == count {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("{count} learners never came online");
}

#[tokio::test]
async fn the_dashboard_follows_progress_live() {
    let app = TestApp::new().await;
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let path = format!("/api/classes/{class_id}/live?stuck_after=0");
    let mut live = LiveDashboard::open(addr, &path, &instructor).await;
    assert_eq!(live.dashboard.learners[0].step, None);

    let event = json!({"id": "e1", "lesson": "first-deployment", "step": 2, "kind": "step_opened"});
    app.call("POST", "/api/progress", Some(&bob), Some(event)).await;
    let update = live.next().await;
    assert_eq!(update["learners"].as_array().map(Vec::len), Some(1), "only Bob's row changed: {update}");
    live.until(|d| d.learners[0].step == Some(2)).await;
    assert_eq!(live.dashboard.learners[0].lesson.as_deref(), Some("first-deployment"));
    assert!(!live.dashboard.learners[0].stuck, "offline learners are away, not stuck");

    // Online and quiet past stuck_after (0 s here): stuck.
    let _bob_socket = connect(addr, "/api/live", &bob).await;
    live.until(|d| d.learners[0].online).await;
    assert!(live.dashboard.learners[0].stuck);
}

#[tokio::test]
async fn shutdown_closes_sockets_with_a_reason() {
    let app = TestApp::new().await;
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let mut socket = connect(addr, "/api/live", &bob).await;
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    app.shutdown.send_replace(true);
    assert_eq!(close_frame(&mut socket).await, (1001, "server shutting down".to_string()));
}

#[tokio::test]
async fn sockets_need_a_session_of_the_right_role() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    assert_problem(&app.call("GET", "/api/live", None, None).await, StatusCode::UNAUTHORIZED, "sign in first");
    assert_problem(
        &app.call("GET", "/api/live", Some(&instructor), None).await,
        StatusCode::FORBIDDEN,
        "only learners",
    );
    let (_, code) = app.class(&instructor, "C").await;
    let (learner, _) = app.learner(&code, "Bob").await;
    let plain = app.call("GET", "/api/live", Some(&learner), None).await;
    assert_problem(&plain, StatusCode::UPGRADE_REQUIRED, "this endpoint is a WebSocket");
}
