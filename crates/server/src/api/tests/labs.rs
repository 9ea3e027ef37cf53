//! Hosted labs: the core running in the server, watched over WebSockets, driven by its
//! instructor only, capped per server.

use super::{TestApp, assert_problem, close_frame, connect, connect_from, next_json};
use crate::api::Limits;
use axum::http::StatusCode;
use futures_util::SinkExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn an_instructor_demos_and_the_class_watches() {
    let app = TestApp::new().await;
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (learner, _) = app.learner(&code, "Bob").await;

    let created = app.call("POST", "/api/labs", Some(&instructor), Some(json!({"lesson": "demo"}))).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let mut demo = connect(addr, &format!("/api/labs/{id}/ws"), &instructor).await;
    let mut watcher = connect(addr, &format!("/api/labs/{id}/ws"), &learner).await;
    let state = next_json(&mut watcher).await;
    assert_eq!(state["type"], "state");
    assert_eq!((state["lesson"].as_str(), state["seed"].as_i64()), (Some("demo"), Some(1)));
    assert_eq!(state["may_run"], false);
    assert_eq!(next_json(&mut demo).await["may_run"], true);

    demo.send(Message::text(json!({"type": "run", "script": "kubectl get deployments"}).to_string())).await.unwrap();
    let ran = next_json(&mut watcher).await;
    assert_eq!(ran["type"], "ran");
    let output = ran["entries"][0]["output"].as_str().unwrap();
    assert!(output.starts_with("NAME    READY   UP-TO-DATE   AVAILABLE   AGE\nhello   2/2"), "{output}");
    assert_eq!(next_json(&mut demo).await, ran, "everyone sees the same");

    watcher
        .send(Message::text(json!({"type": "run", "script": "kubectl delete deployment hello"}).to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut watcher).await["message"], "only the lab's instructor can run commands in it");
    watcher.send(Message::text("not json")).await.unwrap();
    assert!(
        next_json(&mut watcher).await["message"].as_str().unwrap().starts_with("not a request this lab understands")
    );

    let shown = app.call("GET", &format!("/api/labs/{id}"), Some(&learner), None).await.body;
    assert_eq!(shown["scripts"], json!(["kubectl get deployments"]));

    let by_learner = app.call("DELETE", &format!("/api/labs/{id}"), Some(&learner), None).await;
    assert_problem(&by_learner, StatusCode::FORBIDDEN, "only the lab's instructor can close it");
    assert_eq!(
        app.call("DELETE", &format!("/api/labs/{id}"), Some(&instructor), None).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(close_frame(&mut watcher).await, (1000, "lab closed".to_string()));
    assert_problem(
        &app.call("GET", &format!("/api/labs/{id}"), Some(&learner), None).await,
        StatusCode::NOT_FOUND,
        "no hosted lab",
    );
}

#[tokio::test]
async fn hosted_labs_are_capped() {
    let app = TestApp::with_limits(Limits { max_hosted_labs: 1, ..Limits::default() }).await;
    let instructor = app.instructor("Ada").await;
    let first = app.call("POST", "/api/labs", Some(&instructor), Some(json!({}))).await;
    assert_eq!(first.status, StatusCode::CREATED);
    assert_eq!(first.body["lesson"], "sandbox");
    let second = app.call("POST", "/api/labs", Some(&instructor), Some(json!({}))).await;
    assert_problem(&second, StatusCode::SERVICE_UNAVAILABLE, "already hosts 1 labs, its limit");
    let unknown = app.call("POST", "/api/labs", Some(&instructor), Some(json!({"lesson": "nope"}))).await;
    assert_problem(&unknown, StatusCode::NOT_FOUND, "no lesson has id");
}

#[tokio::test]
async fn a_closed_lab_stops_its_thread_mid_script_and_frees_its_slot() {
    let app = TestApp::with_limits(Limits { max_hosted_labs: 1, ..Limits::default() }).await;
    let (instructor, id, mut demo) = demo_lab(&app).await;
    // A minute or more of work: 1,000 pods crash-looping through a day of virtual time.
    let script = "kubectl create deployment c --image=crashy --replicas=1000\nsleep 24h";
    demo.send(Message::text(json!({"type": "run", "script": script}).to_string())).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        app.call("DELETE", &format!("/api/labs/{id}"), Some(&instructor), None).await.status,
        StatusCode::NO_CONTENT
    );
    let closed_at = std::time::Instant::now();
    // The slot is the thread's: it frees once the thread has stopped (well under a second on an
    // idle machine; the bound leaves room for a test run that shares the cores).
    loop {
        let next = app.call("POST", "/api/labs", Some(&instructor), Some(json!({}))).await;
        if next.status == StatusCode::CREATED {
            break;
        }
        assert_problem(&next, StatusCode::SERVICE_UNAVAILABLE, "already hosts 1 labs, its limit");
        assert!(closed_at.elapsed().as_secs_f64() < 10.0, "the closed lab's thread still runs after 10 s");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_page_of_another_site_cannot_open_a_socket_with_the_learners_cookie() {
    let app = TestApp::new().await;
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let (_, code) = app.class(&instructor, "C").await;
    let (learner, _) = app.learner(&code, "Bob").await;
    let created = app.call("POST", "/api/labs", Some(&instructor), Some(json!({}))).await;
    let path = format!("/api/labs/{}/ws", created.body["id"].as_str().unwrap());
    for foreign in ["http://evil.example", "null", &format!("http://{addr}.evil.example")] {
        assert_eq!(connect_from(addr, &path, &learner, foreign).await.err(), Some(403), "{foreign}");
        assert_eq!(connect_from(addr, "/api/live", &learner, foreign).await.err(), Some(403), "{foreign}");
    }
    let mut own = connect_from(addr, &path, &learner, &format!("http://{addr}")).await.expect("the server's own page");
    assert_eq!(next_json(&mut own).await["type"], "state");
}

#[tokio::test]
async fn one_instructor_cannot_take_every_lab_slot() {
    let limits = Limits { max_hosted_labs: 3, max_labs_per_instructor: 2, ..Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let (ada, grace) = (app.instructor("Ada").await, app.instructor("Grace").await);
    for _ in 0..2 {
        assert_eq!(app.call("POST", "/api/labs", Some(&ada), Some(json!({}))).await.status, StatusCode::CREATED);
    }
    let third = app.call("POST", "/api/labs", Some(&ada), Some(json!({}))).await;
    assert_problem(&third, StatusCode::SERVICE_UNAVAILABLE, "you already host 2 labs, the most one instructor may");
    assert_eq!(app.call("POST", "/api/labs", Some(&grace), Some(json!({}))).await.status, StatusCode::CREATED);
}

/// An instructor, the sandbox lab they host, and their socket to it (its first message read).
async fn demo_lab(app: &TestApp) -> (String, String, super::Socket) {
    let addr = app.serve().await;
    let instructor = app.instructor("Ada").await;
    let created = app.call("POST", "/api/labs", Some(&instructor), Some(json!({}))).await;
    let id = created.body["id"].as_str().unwrap().to_string();
    let mut demo = connect(addr, &format!("/api/labs/{id}/ws"), &instructor).await;
    assert_eq!(next_json(&mut demo).await["type"], "state");
    (instructor, id, demo)
}

/// Runs a script in the lab as its instructor; returns the next message the lab sends.
async fn run_script(demo: &mut super::Socket, script: &str) -> serde_json::Value {
    demo.send(Message::text(json!({"type": "run", "script": script}).to_string())).await.unwrap();
    next_json(demo).await
}

#[tokio::test]
async fn a_script_past_its_deadline_is_undone_and_not_kept() {
    let bounds = crate::hosted_lab::LabBounds {
        script_deadline: std::time::Duration::from_millis(300),
        ..crate::hosted_lab::LabBounds::default()
    };
    let app = TestApp::with_limits(Limits { lab_bounds: bounds, ..Limits::default() }).await;
    let (instructor, id, mut demo) = demo_lab(&app).await;
    let heavy = "kubectl create deployment c --image=crashy --replicas=1000\nsleep 24h";
    let refused = run_script(&mut demo, heavy).await;
    assert_eq!(refused["type"], "refused", "{refused}");
    assert_eq!(
        refused["message"],
        "error: this script took more than 0.3 s, this lab's limit; it was undone and the lab is as it was before it"
    );
    let after = run_script(&mut demo, "kubectl get deployments").await;
    assert_eq!(
        after["entries"][0]["output"], "No resources found in default namespace.\n",
        "the deployment was undone"
    );
    let shown = app.call("GET", &format!("/api/labs/{id}"), Some(&instructor), None).await.body;
    assert_eq!(shown["scripts"], json!(["kubectl get deployments"]), "only what was kept is replayed");
}

#[tokio::test]
async fn a_labs_log_is_capped_and_an_idle_lab_expires() {
    let bounds = crate::hosted_lab::LabBounds { max_log_bytes: 2048, ..crate::hosted_lab::LabBounds::default() };
    let app = TestApp::with_limits(Limits { lab_bounds: bounds, ..Limits::default() }).await;
    let (instructor, id, mut demo) = demo_lab(&app).await;
    // 300 scripts of 60 KiB were all kept; a GET of the lab then returned 18.4 MB.
    let long = format!("kubectl get pods # {}", "x".repeat(1500));
    assert_eq!(run_script(&mut demo, &long).await["type"], "ran");
    let full = run_script(&mut demo, &long).await;
    assert_eq!(full["message"], "this lab's log is full (2 KiB of scripts, its limit); start a new lab");

    assert_eq!(app.state.labs.expire_idle(std::time::Duration::ZERO), 0, "someone is watching");
    drop(demo);
    let start = std::time::Instant::now();
    while app.state.labs.expire_idle(std::time::Duration::ZERO) == 0 {
        assert!(start.elapsed().as_secs() < 5, "the watcher never left");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_problem(
        &app.call("GET", &format!("/api/labs/{id}"), Some(&instructor), None).await,
        StatusCode::NOT_FOUND,
        "no hosted lab",
    );
}
