//! Load benchmark (not a test): many learners, each holding a live WebSocket and posting
//! progress, against the real `kubelab serve` binary over loopback, with an instructor's live
//! dashboard open and faults pushed to the whole class. Prints sustained learners, write
//! latency (p50/p99/max), fault fan-out latency and the server's memory.
//!
//! `cargo bench -p kubelab-server --bench load` — knobs: KUBELAB_LOAD_LEARNERS (1000),
//! KUBELAB_LOAD_SECONDS (30), KUBELAB_LOAD_PERIOD_MS (each learner's mean gap between
//! writes, 2000), KUBELAB_LOAD_DATABASE (a postgres:// URL; default a fresh SQLite file),
//! KUBELAB_LOAD_DASHBOARD (learners×events for the dashboard phase, 500x200; 0 skips it).
//! Client and server share the machine, so the figures are pessimistic for the server.

#[path = "load/dashboard.rs"]
mod load_dashboard;
#[path = "../tests/support/mod.rs"]
mod support;

use futures_util::StreamExt;
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::{Http, Server, temp_dir};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What the learners measured, shared by their tasks.
#[derive(Default)]
struct Tally {
    write_latencies_us: Mutex<Vec<u64>>,
    fault_latencies_us: Mutex<Vec<u64>>,
    errors: AtomicU64,
    limited: AtomicU64,
    sockets: AtomicU64,
}

/// One learner's task: who, how often, until when, and where to record.
struct Learner {
    http: Http,
    addr: String,
    cookie: String,
    seed: u64,
    period_ms: u64,
    deadline: Instant,
    tally: Arc<Tally>,
    faults: Arc<Mutex<Vec<Instant>>>,
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run());
}

async fn run() {
    let learners = knob("KUBELAB_LOAD_LEARNERS", 1000) as usize;
    let seconds = knob("KUBELAB_LOAD_SECONDS", 30);
    let period_ms = knob("KUBELAB_LOAD_PERIOD_MS", 2000);
    let dir = temp_dir("load");
    let database =
        std::env::var("KUBELAB_LOAD_DATABASE").unwrap_or_else(|_| format!("sqlite://{}/kubelab.db", dir.display()));
    // As a class behind a proxy: each learner is its own address (X-Forwarded-For).
    let server = Server::start_with(&database, &dir, &["--trusted-proxy", "127.0.0.1"]);
    let http = Http::new(&server.addr);
    let (instructor, class_id, cookies) = enrol(&http, "load", learners).await;
    let idle = server.memory_kib();

    let tally = Arc::new(Tally::default());
    let faults = Arc::new(Mutex::new(Vec::<Instant>::new()));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let tasks: Vec<_> = cookies
        .into_iter()
        .enumerate()
        .map(|(n, cookie)| {
            tokio::spawn(learner(Learner {
                addr: server.addr.clone(),
                cookie,
                http: http.with_header("x-forwarded-for", &format!("10.0.{}.{}", n / 250, n % 250 + 1)),
                seed: n as u64,
                period_ms,
                deadline,
                tally: Arc::clone(&tally),
                faults: Arc::clone(&faults),
            }))
        })
        .collect();
    let dashboard_updates =
        tokio::spawn(dashboard(server.addr.clone(), instructor.clone(), class_id.clone(), deadline));
    let peak_sockets = push_faults(&http, &instructor, &class_id, deadline, &tally, &faults).await;
    let loaded = server.memory_kib();
    for task in tasks {
        let _ = task.await;
    }
    let updates = dashboard_updates.await.unwrap_or(0);
    let took = start.elapsed();
    report(learners, peak_sockets, took, &tally, updates, (idle, loaded), &database);
    let shape = std::env::var("KUBELAB_LOAD_DASHBOARD").unwrap_or_else(|_| "500x200".into());
    if let Some((class, events)) = shape.split_once('x').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?))) {
        let figures = load_dashboard::run(&server, &http, class, events).await;
        report_dashboard(&figures);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Signs an instructor up, creates a class and joins `learners` learners (paced under the
/// server's per-address write limit).
async fn enrol(http: &Http, who: &str, learners: usize) -> (String, String, Vec<String>) {
    let email = format!("{who}-{}@example.org", std::process::id());
    let signup = json!({"email": email, "password": "correct horse", "display_name": "Ada"});
    let instructor = http.call("POST", "/api/instructors", None, Some(&signup)).await.expect("sign up").cookie();
    let class =
        http.call("POST", "/api/classes", Some(&instructor), Some(&json!({"name": "Load"}))).await.expect("class");
    let class_id = class.body["id"].as_str().expect("class id").to_string();
    let code = class.body["join_code"].as_str().expect("join code").to_string();
    let mut cookies = Vec::with_capacity(learners);
    while cookies.len() < learners {
        let join = json!({"join_code": code, "display_name": format!("learner {}", cookies.len())});
        let reply = http.call("POST", "/api/join", None, Some(&join)).await.expect("join");
        match reply.status {
            201 => cookies.push(reply.cookie()),
            429 => tokio::time::sleep(Duration::from_millis(100)).await,
            other => panic!("join answered {other}: {}", reply.body),
        }
    }
    (instructor, class_id, cookies)
}

/// A fault to the whole class every 5 s, as an instructor might in a drill; returns the
/// most learner sockets seen open at once.
async fn push_faults(
    http: &Http,
    instructor: &str,
    class_id: &str,
    deadline: Instant,
    tally: &Tally,
    faults: &Mutex<Vec<Instant>>,
) -> u64 {
    let mut peak_sockets = 0;
    let mut next_fault = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        peak_sockets = peak_sockets.max(tally.sockets.load(Ordering::Relaxed));
        if Instant::now() >= next_fault && next_fault + Duration::from_secs(2) < deadline {
            faults.lock().unwrap().push(Instant::now());
            let fault = json!({"command": "lab node power-off node-2"});
            let path = format!("/api/classes/{class_id}/faults");
            let _ = http.call("POST", &path, Some(instructor), Some(&fault)).await;
            next_fault += Duration::from_secs(5);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    peak_sockets
}

async fn learner(me: Learner) {
    let mut request = format!("ws://{}/api/live", me.addr).into_client_request().expect("request");
    request.headers_mut().insert("cookie", me.cookie.parse().expect("cookie"));
    let Ok((socket, _)) = tokio_tungstenite::connect_async(request).await else {
        me.tally.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    me.tally.sockets.fetch_add(1, Ordering::Relaxed);
    let (_sink, mut stream) = socket.split();
    let (tally, faults) = (Arc::clone(&me.tally), Arc::clone(&me.faults));
    // Each fault's delivery latency: the nth message answers the nth push.
    let reader = tokio::spawn(async move {
        let mut seen = 0;
        while let Some(Ok(message)) = stream.next().await {
            if let Message::Text(_) = message {
                if let Some(pushed) = faults.lock().unwrap().get(seen).copied() {
                    tally.fault_latencies_us.lock().unwrap().push(pushed.elapsed().as_micros() as u64);
                }
                seen += 1;
            }
        }
    });
    let mut random = me.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut event = 0;
    while Instant::now() < me.deadline {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        tokio::time::sleep(Duration::from_millis(random % (2 * me.period_ms))).await;
        let body =
            json!({"id": format!("e{event}"), "lesson": "first-deployment", "step": event % 9, "kind": "step_opened"});
        event += 1;
        let sent = Instant::now();
        match me.http.call("POST", "/api/progress", Some(&me.cookie), Some(&body)).await {
            Ok(reply) if reply.status == 201 => {
                me.tally.write_latencies_us.lock().unwrap().push(sent.elapsed().as_micros() as u64)
            }
            Ok(reply) if reply.status == 429 => drop(me.tally.limited.fetch_add(1, Ordering::Relaxed)),
            _ => drop(me.tally.errors.fetch_add(1, Ordering::Relaxed)),
        }
    }
    reader.abort();
    me.tally.sockets.fetch_sub(1, Ordering::Relaxed);
}

/// Holds the instructor's live dashboard open; returns how many updates it got.
async fn dashboard(addr: String, instructor: String, class_id: String, deadline: Instant) -> u64 {
    let mut request = format!("ws://{addr}/api/classes/{class_id}/live").into_client_request().expect("request");
    request.headers_mut().insert("cookie", instructor.parse().expect("cookie"));
    let mut socket = match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => socket,
        Err(error) => {
            eprintln!("load: the dashboard did not connect: {error}");
            return 0;
        }
    };
    let mut updates = 0;
    let left = || deadline.saturating_duration_since(Instant::now());
    while let Ok(Some(Ok(_))) = tokio::time::timeout(left(), socket.next()).await {
        updates += 1;
    }
    updates
}

fn percentile_ms(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank] as f64 / 1000.0
}

fn report(
    learners: usize,
    peak_sockets: u64,
    took: Duration,
    tally: &Tally,
    updates: u64,
    ((idle_kib, _), (loaded_kib, peak_kib)): ((u64, u64), (u64, u64)),
    database: &str,
) {
    let mut writes = tally.write_latencies_us.lock().unwrap().clone();
    let mut faults = tally.fault_latencies_us.lock().unwrap().clone();
    writes.sort_unstable();
    faults.sort_unstable();
    let backend = database.split(':').next().unwrap_or("?");
    let seconds = took.as_secs_f64();
    let (limited, errors) = (tally.limited.load(Ordering::Relaxed), tally.errors.load(Ordering::Relaxed));
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!("load: {learners} learners on {backend} for {seconds:.0} s, each holding a WebSocket");
    println!("  learner sockets held (peak)  {peak_sockets}");
    println!(
        "  progress writes              {} ({:.0}/s), {limited} rate-limited, {errors} errors",
        writes.len(),
        writes.len() as f64 / seconds
    );
    println!(
        "  write latency ms             p50 {:.1}  p99 {:.1}  max {:.1}",
        percentile_ms(&writes, 50.0),
        percentile_ms(&writes, 99.0),
        percentile_ms(&writes, 100.0)
    );
    println!(
        "  fault fan-out ms             p50 {:.1}  p99 {:.1}  ({} deliveries)",
        percentile_ms(&faults, 50.0),
        percentile_ms(&faults, 99.0),
        faults.len()
    );
    println!("  live dashboard updates       {updates}");
    println!(
        "  server memory MiB            {:.0} enrolled, {:.0} under load (peak {:.0})",
        mib(idle_kib),
        mib(loaded_kib),
        mib(peak_kib)
    );
}

fn report_dashboard(figures: &load_dashboard::Figures) {
    let sorted = |values: &[f64]| {
        let mut values: Vec<u64> = values.iter().map(|ms| (ms * 1000.0) as u64).collect();
        values.sort_unstable();
        values
    };
    let (build, update) = (sorted(&figures.build_ms), sorted(&figures.update_ms));
    println!(
        "dashboard: {} learners × {} events ({} in all, posted in {:.0} s), {} KiB",
        figures.learners,
        figures.events / figures.learners.max(1),
        figures.events,
        figures.seed_seconds,
        figures.dashboard_bytes / 1024
    );
    println!(
        "  dashboard build ms           p50 {:.1}  p99 {:.1}  (GET, {} builds)",
        percentile_ms(&build, 50.0),
        percentile_ms(&build, 99.0),
        build.len()
    );
    println!(
        "  update to 10 dashboards ms   p50 {:.1}  p99 {:.1}  ({} updates; 200 ms of it is the coalescing window)",
        percentile_ms(&update, 50.0),
        percentile_ms(&update, 99.0),
        update.len()
    );
}
