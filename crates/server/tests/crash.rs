//! Durability: learners post progress as fast as the server takes it, the server is killed
//! with SIGKILL mid-stream, and after a restart every write it acknowledged is still there.

mod support;

use serde_json::json;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use support::{Http, Server, temp_dir};

const LEARNERS: usize = 12;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_progress_survives_kill_9() {
    let dir = temp_dir("crash");
    let database = format!("sqlite://{}/kubelab.db", dir.display());
    let mut server = Server::start(&database, &dir);
    let http = Http::new(&server.addr);
    let learners = class_of_learners(&http).await;

    let acknowledged = Arc::new(Mutex::new(Vec::<(String, String)>::new()));
    let writers: Vec<_> = learners
        .iter()
        .enumerate()
        .map(|(n, cookie)| {
            tokio::spawn(write_until_refused(http.clone(), cookie.clone(), n, Arc::clone(&acknowledged)))
        })
        .collect();
    // Let writes flow, then pull the plug while they are in flight.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill();
    for writer in writers {
        writer.await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() >= 50, "only {} writes were acknowledged before the kill", acknowledged.len());

    let restarted = Server::start(&database, &dir);
    let http = Http::new(&restarted.addr);
    let mut stored = BTreeSet::new();
    for cookie in &learners {
        let progress = http.call("GET", "/api/progress", Some(cookie), None).await.unwrap();
        assert_eq!(progress.status, 200, "the session survived the restart: {}", progress.body);
        for event in progress.body["events"].as_array().unwrap() {
            stored.insert((cookie.clone(), event["id"].as_str().unwrap().to_string()));
        }
    }
    let lost: Vec<_> = acknowledged.iter().filter(|write| !stored.contains(*write)).collect();
    assert!(lost.is_empty(), "{} of {} acknowledged writes were lost: {lost:?}", lost.len(), acknowledged.len());
    println!("{} acknowledged writes, all present after kill -9 and restart", acknowledged.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An instructor, a class, and `LEARNERS` learners in it; returns the learners' cookies.
async fn class_of_learners(http: &Http) -> Vec<String> {
    let signup = json!({"email": "ada@example.org", "password": "correct horse", "display_name": "Ada"});
    let instructor = http.call("POST", "/api/instructors", None, Some(&signup)).await.unwrap().cookie();
    let class = http.call("POST", "/api/classes", Some(&instructor), Some(&json!({"name": "Crash"}))).await.unwrap();
    let code = class.body["join_code"].as_str().unwrap().to_string();
    let mut cookies = Vec::new();
    for n in 0..LEARNERS {
        let join = json!({"join_code": code, "display_name": format!("learner {n}")});
        cookies.push(http.call("POST", "/api/join", None, Some(&join)).await.unwrap().cookie());
    }
    cookies
}

/// Posts events until the server stops answering; records each one answered 201.
async fn write_until_refused(
    http: Http,
    cookie: String,
    learner: usize,
    acknowledged: Arc<Mutex<Vec<(String, String)>>>,
) {
    for n in 0.. {
        let id = format!("l{learner}-e{n}");
        let event = json!({"id": id, "lesson": "first-deployment", "step": n % 7, "kind": "step_opened"});
        match http.call("POST", "/api/progress", Some(&cookie), Some(&event)).await {
            Ok(reply) if reply.status == 201 => acknowledged.lock().unwrap().push((cookie.clone(), id)),
            // Over the rate limit: wait as told, then go on.
            Ok(reply) if reply.status == 429 => tokio::time::sleep(Duration::from_millis(200)).await,
            Ok(reply) => panic!("unexpected answer {}: {}", reply.status, reply.body),
            Err(_) => return,
        }
    }
}
