//! The dashboard at scale: built from rows kept on write (thousands of events on one step cost
//! no more than a few), built once per change for all watchers, sent as changes, and bounded.

use super::{LiveDashboard, TestApp, assert_problem};
use crate::api::progress::insert;
use crate::api::{Limits, dashboard, dashboard_build, progress_summary};
use axum::http::StatusCode;
use kubelab_wire::{ProgressEvent, ProgressKind};
use serde_json::json;
use std::time::{Duration, Instant};

fn event(id: usize, step: usize, kind: ProgressKind, answer: Option<String>) -> ProgressEvent {
    let item = answer.as_ref().map(|_| "prediction".to_string());
    ProgressEvent { id: format!("e{id}"), lesson: "demo".into(), step, kind, item, answer, at: None }
}

/// Records events as `POST /api/progress` does, in one transaction (thousands of requests
/// would time the HTTP stack, not the dashboard); `at` is the event's index, in ms.
async fn record(app: &TestApp, learner: &str, class_id: &str, events: &[ProgressEvent]) {
    let mut tx = app.state.db.pool.begin().await.unwrap();
    for (at, event) in events.iter().enumerate() {
        assert!(insert(&mut tx, learner, class_id, event, at as i64).await.unwrap());
        progress_summary::add(&mut tx, learner, class_id, event, at as i64).await.unwrap();
    }
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn four_thousand_events_on_one_step_build_in_milliseconds() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (_, bob) = app.learner(&code, "Bob").await;
    // Two steps, back to the first, then 4,000 events there: the clock starts at the return.
    let mut events = vec![event(0, 1, ProgressKind::StepOpened, None), event(1, 2, ProgressKind::StepOpened, None)];
    events.extend((2..4002).map(|n| event(n, 1, ProgressKind::HintRevealed, None)));
    events.push(event(4002, 1, ProgressKind::TaskPassed, None));
    record(&app, &bob, &class_id, &events).await;

    let class = crate::api::classes::class_by_id(&app.state.db, &class_id).await.unwrap();
    let start = Instant::now();
    let built = dashboard::build(&app.state.db, class, &Default::default(), 1000).await.unwrap();
    // It took 6.1 s when positions came from a scan of the events per learner.
    assert!(start.elapsed() < Duration::from_millis(500), "{:?}", start.elapsed());
    let bob = &built.learners[0];
    assert_eq!((bob.lesson.as_deref(), bob.step, bob.step_since), (Some("demo"), Some(1), Some(2)));
    assert_eq!((bob.tasks_passed, bob.hints_used, bob.last_progress_at), (1, 4000, Some(4002)));
}

#[tokio::test]
async fn the_migration_fills_positions_as_the_write_path_keeps_them() {
    // It empties the tables: only on a database of its own (PostgreSQL's is shared by the tests).
    if std::env::var_os("KUBELAB_TEST_DATABASE_URL").is_some() {
        return;
    }
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (_, bob) = app.learner(&code, "Bob").await;
    let answer = |n: usize, text: &str| event(n, 3, ProgressKind::PredictionAnswered, Some(text.into()));
    let events = [
        event(0, 1, ProgressKind::StepOpened, None),
        event(1, 2, ProgressKind::TaskPassed, None),
        answer(2, "A"),
        answer(3, "A"),
        event(4, 3, ProgressKind::HintRevealed, None),
    ];
    record(&app, &bob, &class_id, &events).await;
    let kept = progress_summary::learners(&app.state.db, &class_id).await.unwrap();
    let answers = progress_summary::answers(&app.state.db, &class_id).await.unwrap();
    for table in ["learner_positions", "answer_counts"] {
        sqlx::query(&format!("DELETE FROM {table}")).execute(&app.state.db.pool).await.unwrap();
    }
    for statement in &crate::db::migration(3)[2..] {
        if statement.starts_with("INSERT") {
            sqlx::query(statement).execute(&app.state.db.pool).await.unwrap();
        }
    }
    assert_eq!(progress_summary::learners(&app.state.db, &class_id).await.unwrap(), kept);
    assert_eq!(progress_summary::answers(&app.state.db, &class_id).await.unwrap(), answers);
    assert_eq!(kept[0].0.5, Some(2), "at step 3 since event 2");
}

#[tokio::test]
async fn many_distinct_answers_keep_the_dashboard_small() {
    let app = TestApp::new().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    // 8 learners × 2,000 distinct 500-character answers made a 9.6 MB dashboard.
    for learner in 0..8 {
        let (_, id) = app.learner(&code, &format!("L{learner}")).await;
        let answers: Vec<_> = (0..2000)
            .map(|n| event(n, 1, ProgressKind::PredictionAnswered, Some(format!("{learner}-{n}-{}", "x".repeat(490)))))
            .collect();
        record(&app, &id, &class_id, &answers).await;
    }
    let answer = app.call("GET", &format!("/api/classes/{class_id}/dashboard"), Some(&instructor), None).await;
    assert_eq!(answer.status, StatusCode::OK);
    let size = answer.body.to_string().len();
    assert!(size < dashboard::MAX_MESSAGE_BYTES, "{size} bytes");
    let shown = answer.body["answers"].as_array().unwrap();
    assert_eq!(shown.len(), dashboard_build::MAX_ANSWER_ROWS);
    assert!(shown.iter().all(|a| a["answer"].as_str().unwrap().chars().count() <= 201));
}

#[tokio::test]
async fn ten_watchers_share_one_build_per_change_and_pings_build_nothing() {
    let app = TestApp::new().await;
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let (class_id, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let path = format!("/api/classes/{class_id}/live");
    let mut watchers = Vec::new();
    for _ in 0..10 {
        watchers.push(LiveDashboard::open(addr, &path, &instructor).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = app.state.dashboards.builds();
    let step = json!({"id": "s1", "lesson": "demo", "step": 1, "kind": "step_opened"});
    assert_eq!(app.call("POST", "/api/progress", Some(&bob), Some(step)).await.status, StatusCode::CREATED);
    for watcher in &mut watchers {
        watcher.until(|d| d.learners[0].step == Some(1)).await;
    }
    let builds = app.state.dashboards.builds() - before;
    assert!(builds <= 2, "{builds} builds for one change seen by 10 watchers");

    // A client's pings (hundreds of them) are answered by the socket, not with a dashboard.
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let before = app.state.dashboards.builds();
    for _ in 0..200 {
        watchers[0].socket.send(Message::Ping(vec![1].into())).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.state.dashboards.builds(), before, "pings rebuilt the dashboard");
}

#[tokio::test]
async fn a_learner_past_the_event_quota_is_refused_and_retries_still_answer() {
    let app = TestApp::with_limits(Limits { max_events_per_learner: 2, ..Limits::default() }).await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (bob, _) = app.learner(&code, "Bob").await;
    let post = |id: &str| json!({"id": id, "lesson": "demo", "step": 0, "kind": "step_opened"});
    for id in ["a", "b"] {
        assert_eq!(app.call("POST", "/api/progress", Some(&bob), Some(post(id))).await.status, StatusCode::CREATED);
    }
    let refused = app.call("POST", "/api/progress", Some(&bob), Some(post("c"))).await;
    assert_problem(&refused, StatusCode::FORBIDDEN, "at most 2 progress events");
    assert_eq!(app.call("POST", "/api/progress", Some(&bob), Some(post("a"))).await.status, StatusCode::OK);
    let history = app.call("GET", "/api/progress", Some(&bob), None).await;
    assert_eq!(history.body["events"].as_array().map(Vec::len), Some(2), "the refused event left nothing");
}
