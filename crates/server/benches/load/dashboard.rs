//! The dashboard at scale: one class of 500 learners × 200 progress events, then how long a
//! dashboard takes to build (`GET /api/classes/{id}/dashboard`, which builds afresh) and how
//! soon a change reaches 10 open dashboards (from the learner's write to each socket's update;
//! this includes the 200 ms the server gathers changes for, by design).

use super::support::{Http, Server};
use futures_util::StreamExt;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub struct Figures {
    pub learners: usize,
    pub events: usize,
    pub seed_seconds: f64,
    pub build_ms: Vec<f64>,
    pub update_ms: Vec<f64>,
    pub dashboard_bytes: usize,
}

pub async fn run(server: &Server, http: &Http, learners: usize, events_each: usize) -> Figures {
    let (instructor, class_id, cookies) = super::enrol(http, "dashboard", learners).await;
    let start = Instant::now();
    seed(http, &cookies, events_each).await;
    let seed_seconds = start.elapsed().as_secs_f64();
    let path = format!("/api/classes/{class_id}/dashboard");
    let mut build_ms = Vec::new();
    let mut dashboard_bytes = 0;
    for _ in 0..20 {
        let asked = Instant::now();
        let reply = http.call("GET", &path, Some(&instructor), None).await.expect("dashboard");
        build_ms.push(asked.elapsed().as_secs_f64() * 1000.0);
        dashboard_bytes = reply.body.to_string().len();
    }
    let update_ms = updates(server, http, &instructor, &class_id, &cookies[0]).await;
    Figures { learners, events: learners * events_each, seed_seconds, build_ms, update_ms, dashboard_bytes }
}

/// Every learner posts its events, all learners at once, each from its own address behind
/// the trusted proxy (so the per-address ceiling is each learner's, as in a real class).
async fn seed(http: &Http, cookies: &[String], events_each: usize) {
    let tasks: Vec<_> = cookies
        .iter()
        .enumerate()
        .map(|(n, cookie)| {
            let http = http.with_header("x-forwarded-for", &format!("10.1.{}.{}", n / 250, n % 250 + 1));
            let cookie = cookie.clone();
            tokio::spawn(async move {
                let mut sent = 0;
                while sent < events_each {
                    let body = json!({"id": format!("d{sent}"), "lesson": "first-deployment", "step": 3,
                                      "kind": "hint_revealed"});
                    match http.call("POST", "/api/progress", Some(&cookie), Some(&body)).await.map(|r| r.status) {
                        Ok(201 | 200) => sent += 1,
                        _ => tokio::time::sleep(Duration::from_millis(200)).await,
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        let _ = task.await;
    }
}

/// Opens 10 dashboards, then 50 times: one learner moves to a new step, and each dashboard's
/// time to show it is measured.
async fn updates(server: &Server, http: &Http, instructor: &str, class_id: &str, learner: &str) -> Vec<f64> {
    let mut sockets = Vec::new();
    for _ in 0..10 {
        let mut request =
            format!("ws://{}/api/classes/{class_id}/live", server.addr).into_client_request().expect("request");
        request.headers_mut().insert("cookie", instructor.parse().expect("cookie"));
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await.expect("dashboard socket");
        let _first = socket.next().await;
        sockets.push(socket);
    }
    let mut latencies = Vec::new();
    for round in 0..50 {
        let step = 100 + round;
        let body =
            json!({"id": format!("u{round}"), "lesson": "first-deployment", "step": step, "kind": "step_opened"});
        let sent = Instant::now();
        let _ = http.call("POST", "/api/progress", Some(learner), Some(&body)).await;
        let needle = format!("\"step\":{step},");
        for socket in &mut sockets {
            while let Ok(Some(Ok(message))) = tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
                if let Message::Text(text) = message
                    && text.contains(&needle)
                {
                    latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
                    break;
                }
            }
        }
    }
    latencies
}
