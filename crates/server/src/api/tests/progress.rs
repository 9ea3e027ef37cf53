//! Progress events (idempotent), resuming, the dashboard they feed, and lab logs for replay.

use super::{TestApp, assert_problem};
use axum::http::StatusCode;
use serde_json::{Value, json};

fn event(id: &str, step: i64, kind: &str, item: Option<&str>, answer: Option<&str>) -> Value {
    json!({"id": id, "lesson": "first-deployment", "step": step, "kind": kind, "item": item, "answer": answer})
}

#[tokio::test]
async fn a_retried_event_counts_once() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (learner, _) = app.learner(&code, "Bob").await;

    let first =
        app.call("POST", "/api/progress", Some(&learner), Some(event("e1", 0, "step_opened", None, None))).await;
    assert_eq!((first.status, first.body.clone()), (StatusCode::CREATED, json!({"recorded": true})));
    let retry =
        app.call("POST", "/api/progress", Some(&learner), Some(event("e1", 0, "step_opened", None, None))).await;
    assert_eq!((retry.status, retry.body), (StatusCode::OK, json!({"recorded": false})));
    app.call("POST", "/api/progress", Some(&learner), Some(event("e2", 1, "task_passed", Some("t1"), None))).await;

    let progress = app.call("GET", "/api/progress", Some(&learner), None).await.body;
    let ids: Vec<&str> = progress["events"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["e1", "e2"]);
    assert_eq!(progress["resume"], json!({"lesson": "first-deployment", "step": 1}));
}

#[tokio::test]
async fn bad_events_are_refused_by_field() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (learner, _) = app.learner(&code, "Bob").await;
    let post = |body: Value| app.call("POST", "/api/progress", Some(&learner), Some(body));
    assert_problem(
        &post(event("e", -1, "step_opened", None, None)).await,
        StatusCode::BAD_REQUEST,
        "step: invalid value: integer `-1`, expected usize",
    );
    assert_problem(
        &post(event("e", 1001, "step_opened", None, None)).await,
        StatusCode::BAD_REQUEST,
        "step must be between 0 and 1000",
    );
    assert_problem(
        &post(event("e", 0, "won_the_game", None, None)).await,
        StatusCode::BAD_REQUEST,
        "unknown variant `won_the_game`",
    );
    assert_problem(
        &post(event(&"x".repeat(65), 0, "step_opened", None, None)).await,
        StatusCode::BAD_REQUEST,
        "id must be 1 to 64",
    );
    let by_instructor =
        app.call("POST", "/api/progress", Some(&instructor), Some(event("e", 0, "step_opened", None, None))).await;
    assert_problem(&by_instructor, StatusCode::FORBIDDEN, "only learners in a class can record progress");
}

#[tokio::test]
async fn the_dashboard_folds_progress_per_learner() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let (cy, _) = app.learner(&code, "Cy").await;
    for (cookie, body) in [
        (&bob, event("a", 0, "step_opened", None, None)),
        (&bob, event("b", 0, "prediction_answered", Some("p0"), Some("2"))),
        (&bob, event("c", 0, "hint_revealed", Some("h0"), None)),
        (&bob, event("d", 0, "task_passed", Some("t0"), None)),
        (&bob, event("e", 1, "step_opened", None, None)),
        (&cy, event("a", 0, "step_opened", None, None)),
        (&cy, event("b", 0, "prediction_answered", Some("p0"), Some("2"))),
    ] {
        let answer = app.call("POST", "/api/progress", Some(cookie), Some(body)).await;
        assert_eq!(answer.status, StatusCode::CREATED);
    }
    let dashboard = app.call("GET", &format!("/api/classes/{class_id}/dashboard"), Some(&instructor), None).await.body;
    let rows: Vec<String> = dashboard["learners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{} {} step {} tasks {} hints {} stuck {} online {}",
                l["display_name"], l["lesson"], l["step"], l["tasks_passed"], l["hints_used"], l["stuck"], l["online"]
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "\"Bob\" \"first-deployment\" step 1 tasks 1 hints 1 stuck false online false",
            "\"Cy\" \"first-deployment\" step 0 tasks 0 hints 0 stuck false online false",
        ]
    );
    assert_eq!(
        dashboard["answers"],
        json!([{"lesson": "first-deployment", "step": 0, "kind": "prediction_answered", "item": "p0", "answer": "2", "count": 2}])
    );
    assert_eq!(dashboard["stuck_after_ms"], 300_000);
}

#[tokio::test]
async fn the_dashboard_keeps_each_learners_best_challenge() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let finished = |id: &str, answer: &str| json!({"id": id, "lesson": "pod-doctor-challenge", "step": 2, "kind": "challenge_finished", "answer": answer});
    let post = |body: Value| app.call("POST", "/api/progress", Some(&bob), Some(body));
    // 300 s with no hint (score 300), then 200 s with 2 hints (320: worse), then 250 s (better).
    for (id, answer) in [
        ("c1", "seed=7 wall_ms=300000 virtual_ms=900000 hints=0"),
        ("c2", "seed=8 wall_ms=200000 virtual_ms=600000 hints=2"),
        ("c3", "seed=9 wall_ms=250000 virtual_ms=700000 hints=0"),
    ] {
        assert_eq!(post(finished(id, answer)).await.status, StatusCode::CREATED);
    }
    assert_problem(
        &post(finished("c4", "fast")).await,
        StatusCode::BAD_REQUEST,
        "answer of a challenge_finished event must be `seed=N wall_ms=N virtual_ms=N hints=N`",
    );
    let dashboard = app.call("GET", &format!("/api/classes/{class_id}/dashboard"), Some(&instructor), None).await.body;
    assert_eq!(
        dashboard["learners"][0]["challenge"],
        json!({"seed": 9, "wall_ms": 250000, "virtual_ms": 700000, "hints": 0})
    );
}

#[tokio::test]
async fn an_instructor_replays_a_learners_lab() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (learner, learner_id) = app.learner(&code, "Bob").await;
    let path = format!("/api/classes/{class_id}/learners/{learner_id}/lab");
    assert_problem(
        &app.call("GET", &path, Some(&instructor), None).await,
        StatusCode::NOT_FOUND,
        "has not started a lab",
    );

    let lab = json!({"lesson": "first-deployment", "seed": 7, "scripts": ["kubectl get pods", "sleep 10s"]});
    assert_eq!(app.call("PUT", "/api/lab", Some(&learner), Some(lab)).await.status, StatusCode::NO_CONTENT);
    let replay = app.call("GET", &path, Some(&instructor), None).await.body;
    assert_eq!(replay["behaviour"], 1, "a log without a behaviour version was made by the first");
    let newer = json!({"lesson": "first-deployment", "seed": 7, "behaviour": 2,
        "scripts": ["kubectl get pods", "sleep 10s", "kubectl get nodes"]});
    app.call("PUT", "/api/lab", Some(&learner), Some(newer)).await;

    let replay = app.call("GET", &path, Some(&instructor), None).await.body;
    assert_eq!(replay["behaviour"], 2, "the saved behaviour version comes back for the replay's notice");
    assert_eq!(replay["scripts"], json!(["kubectl get pods", "sleep 10s", "kubectl get nodes"]));
    assert_eq!(replay["display_name"], "Bob");
    let own = app.call("GET", "/api/lab", Some(&learner), None).await.body;
    assert_eq!(own["scripts"], replay["scripts"], "the learner picks their lab up again");
    assert_eq!((replay["lesson"].as_str(), replay["seed"].as_i64()), (Some("first-deployment"), Some(7)));

    let other = app.instructor("Eve").await;
    assert_problem(
        &app.call("GET", &path, Some(&other), None).await,
        StatusCode::FORBIDDEN,
        "only the class's instructor",
    );
    let (other_class, _) = app.class(&other, "Elsewhere").await;
    let wrong_class = format!("/api/classes/{other_class}/learners/{learner_id}/lab");
    assert_problem(
        &app.call("GET", &wrong_class, Some(&other), None).await,
        StatusCode::NOT_FOUND,
        "has not started a lab in this class",
    );
}

#[tokio::test]
async fn coming_back_to_a_step_starts_its_clock_again() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    for (id, step) in [("visit-1", 0), ("visit-2", 1), ("visit-3", 0)] {
        app.call("POST", "/api/progress", Some(&bob), Some(event(id, step, "step_opened", None, None))).await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let events = app.call("GET", "/api/progress", Some(&bob), None).await.body["events"].clone();
    let dashboard = app.call("GET", &format!("/api/classes/{class_id}/dashboard"), Some(&instructor), None).await.body;
    let row = &dashboard["learners"][0];
    assert_eq!(row["step"], 0);
    assert_eq!(row["step_since"], events[2]["at"], "since the third visit, not the first");
}
