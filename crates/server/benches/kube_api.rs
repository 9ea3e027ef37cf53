//! A served lab's Kubernetes API under load (not a test): the real `kubelab up` binary, its
//! API over loopback TCP and TLS (its own CA from the kubeconfig), driven by a small HTTP/1.1
//! client here. Prints:
//! - `kubectl get pods` on a lab of 5,000 pods: p50/p99 of the Table (the Accept header
//!   kubectl sends), in one request and in kubectl's pages of 500 (`limit` and `continue`),
//!   and of the plain JSON list;
//! - requests per second and p50/p99 with 100 clients at once, each on its own connection and
//!   tokens, getting single objects and lists of a small namespace;
//! - 1,000 watches on the pods of a namespace while its Deployment's image changes (a PATCH):
//!   how long until each watcher has the rollout's first event and its last. The clock is
//!   paused for this phase and the rollout runs in one step of virtual time (`POST
//!   /kubelab/clock`), so every event is in the lab when the step returns: the figures are the
//!   delivery path (a watch asks the lab for news every 200 ms), not the rollout's own pace;
//! - the lab process's memory (VmRSS): for N fresh labs (one process each), then the big lab
//!   idle, with 5,000 pods, and with the watches open;
//! - `kubelab up` to the first successful `kubectl get nodes` (the oracle kubectl 1.36 from
//!   `make setup`, a fresh HOME each time; skipped if it is not installed).
//!
//! `cargo bench -p kubelab-server --bench kube_api` — knobs: KUBELAB_API_BENCH_PODS (5000),
//! KUBELAB_API_BENCH_REQUESTS (50 per row of the first table), KUBELAB_API_BENCH_CLIENTS
//! (100), KUBELAB_API_BENCH_SECONDS (5), KUBELAB_API_BENCH_WATCHES (1000),
//! KUBELAB_API_BENCH_WATCH_REPLICAS (10, the watched Deployment's), KUBELAB_API_BENCH_LABS
//! (20 labs for memory), KUBELAB_API_BENCH_UPS (5 starts timed with kubectl). Client and
//! server share the machine, so the figures are pessimistic for the server.

#[path = "support/lab_api.rs"]
mod lab_api;
#[allow(dead_code)]
#[path = "../tests/support/up.rs"]
mod up;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use lab_api::{Conn, LabApi};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use up::Up;

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What kubectl sends for `get`: a Table, else the plain object or list.
const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run());
}

async fn run() {
    let pods = knob("KUBELAB_API_BENCH_PODS", 5000) as usize;
    let requests = knob("KUBELAB_API_BENCH_REQUESTS", 50) as usize;
    let clients = knob("KUBELAB_API_BENCH_CLIENTS", 100) as usize;
    let seconds = knob("KUBELAB_API_BENCH_SECONDS", 5);
    let watches = knob("KUBELAB_API_BENCH_WATCHES", 1000) as usize;
    let watch_replicas = knob("KUBELAB_API_BENCH_WATCH_REPLICAS", 10) as usize;
    let labs = knob("KUBELAB_API_BENCH_LABS", 20) as usize;
    let ups = knob("KUBELAB_API_BENCH_UPS", 5) as usize;

    time_to_kubectl(ups);
    memory_per_lab(labs).await;

    let up = Up::start("api-bench");
    let api = Api::from(&up, "api-bench");
    let idle_kib = api.memory_kib();
    let built = Instant::now();
    build_lab(&api, pods, watch_replicas).await;
    let built = built.elapsed();
    let loaded_kib = api.memory_kib();
    println!("kube_api: a lab of {pods} pods built through /kubelab/run in {:.1} s", built.as_secs_f64());
    get_pods(&api, requests).await;
    throughput(&api, clients, seconds).await;
    let watching_kib = watch_rollout(&api, watches).await;
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "  lab process memory MiB       {:.1} idle, {:.1} with {pods} pods, {:.1} with {watches} watches open",
        mib(idle_kib),
        mib(loaded_kib),
        mib(watching_kib)
    );
}

/// A lab's API as its owner sees it (`support/lab_api.rs`), and the lab's process.
#[derive(Clone)]
struct Api {
    lab: LabApi,
    pid: u32,
}

impl Api {
    /// The server, CA and token from `up`'s kubeconfig; the pid from the record `kubelab up`
    /// keeps in its state directory.
    fn from(up: &Up, name: &str) -> Api {
        let (lab, _) = LabApi::from_kubeconfig(&up.kubeconfig);
        let record = std::fs::read_to_string(up.dir.join(format!("kubelab/{name}.up"))).unwrap();
        let pid = record.lines().next().unwrap().parse().unwrap();
        Api { lab, pid }
    }

    async fn connect(&self) -> Conn {
        self.lab.connect().await
    }

    fn with_token(&self, token: &str) -> Api {
        Api { lab: self.lab.with_token(token), pid: self.pid }
    }

    fn request(
        &self,
        method: &str,
        path: &str,
        accept: &str,
        body: Option<(&str, String)>,
    ) -> hyper::Request<Full<Bytes>> {
        let mut request = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.lab.addr.to_string())
            .header("authorization", format!("Bearer {}", self.lab.token))
            .header("accept", accept);
        let body = match body {
            Some((content_type, body)) => {
                request = request.header("content-type", content_type);
                Bytes::from(body)
            }
            None => Bytes::new(),
        };
        request.body(Full::new(body)).unwrap()
    }

    /// One request on `conn`: the status and the whole body.
    async fn call(
        &self,
        conn: &mut Conn,
        (method, path, accept): (&str, &str, &str),
        body: Option<(&str, String)>,
    ) -> Result<(u16, Bytes), String> {
        conn.ready().await.map_err(|e| e.to_string())?;
        let response = conn.send_request(self.request(method, path, accept, body)).await.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let body = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        Ok((status, body))
    }

    /// As `call`, on a connection of its own; panics unless the answer is 2xx.
    async fn must(&self, method: &str, path: &str, body: Option<(&str, String)>) -> Bytes {
        let mut conn = self.connect().await;
        let (status, body) = self.call(&mut conn, (method, path, "application/json"), body).await.expect(path);
        assert!((200..300).contains(&status), "{method} {path}: {status} {}", String::from_utf8_lossy(&body));
        body
    }

    /// New viewer tokens, issued by the owner through /kubelab/tokens.
    async fn viewers(&self, who: &str, count: usize) -> Vec<String> {
        let mut conn = self.connect().await;
        let mut tokens = Vec::with_capacity(count);
        for n in 0..count {
            let body = json!({"user": format!("{who}-{n}"), "role": "viewer"}).to_string();
            let call = ("POST", "/kubelab/tokens", "application/json");
            let (status, body) = self.call(&mut conn, call, Some(("application/json", body))).await.expect("a token");
            assert_eq!(status, 201, "{}", String::from_utf8_lossy(&body));
            let issued: Value = serde_json::from_slice(&body).unwrap();
            tokens.push(issued["token"].as_str().unwrap().to_string());
        }
        tokens
    }

    /// The lab process's VmRSS in KiB.
    fn memory_kib(&self) -> u64 {
        rss_kib(self.pid)
    }
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:"));
    line.and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// The process's user and system CPU time in clock ticks (100 a second), from /proc.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    // utime and stime are the 14th and 15th fields, the 12th and 13th after the name.
    fields.get(11..13).map_or(0, |f| f.iter().filter_map(|v| v.parse::<u64>().ok()).sum())
}

fn pid_of(up: &Up, name: &str) -> u32 {
    let record = std::fs::read_to_string(up.dir.join(format!("kubelab/{name}.up"))).unwrap_or_default();
    record.lines().next().and_then(|l| l.parse().ok()).unwrap_or(0)
}

fn deployment(name: &str, namespace: &str, replicas: usize) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: {namespace}\nspec:\n  \
         replicas: {replicas}\n  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      \
         labels:\n        app: {name}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n"
    )
}

/// Nodes enough for `pods` (400 each), then through one /kubelab/run: the namespaces `small`
/// (5 pods and a ConfigMap) and `watch` (the watched Deployment), `pods` replicas of one
/// Deployment in `default`, and virtual time for all of them to start.
async fn build_lab(api: &Api, pods: usize, watch_replicas: usize) {
    let mut script = String::new();
    for n in 0..pods.div_ceil(400) + 1 {
        script.push_str(&format!("lab node add bench-{n} --cpu 64 --memory 256Gi --pods 500\n"));
    }
    let manifests = [
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: small\n".to_string(),
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: watch\n".to_string(),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: small\ndata:\n  mode: fast\n"
            .to_string(),
        deployment("small", "small", 5),
        deployment("web", "watch", watch_replicas),
        deployment("big", "default", pods),
    ];
    script.push_str(&format!("kubectl apply -f - <<'Y'\n{}Y\nsleep 3m\n", manifests.join("---\n")));
    api.must("POST", "/kubelab/run", Some(("text/plain", script))).await;
    let list = api.must("GET", "/api/v1/namespaces/default/pods", None).await;
    let running = count(&list, br#""phase":"Running""#);
    assert!(running >= pods, "{running} of {pods} pods Running");
}

fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack.windows(needle.len()).filter(|w| *w == needle).count()
}

/// The string value after the first `"key":"` in `text`.
fn string_after<'a>(text: &'a [u8], key: &str) -> Option<&'a str> {
    let pattern = format!("\"{key}\":\"");
    let at = text.windows(pattern.len()).position(|w| w == pattern.as_bytes())? + pattern.len();
    let end = text[at..].iter().position(|b| *b == b'"')?;
    std::str::from_utf8(&text[at..at + end]).ok()
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank].as_secs_f64() * 1000.0
}

fn summary(mut samples: Vec<Duration>) -> String {
    samples.sort_unstable();
    format!(
        "p50 {:.1}  p99 {:.1}  max {:.1}",
        percentile(&samples, 50.0),
        percentile(&samples, 99.0),
        percentile(&samples, 100.0)
    )
}

/// `kubectl get pods` in `default`: the Table in one request, the Table in kubectl's pages of
/// 500, the JSON list; each `requests` times on one kept-alive connection. Viewer tokens in
/// turn, so the per-token rate limit (100/s) never answers 429 here.
async fn get_pods(api: &Api, requests: usize) {
    let tokens = api.viewers("get", 8).await;
    let path = "/api/v1/namespaces/default/pods";
    let mut conn = api.connect().await;
    let viewers: Vec<Api> = tokens.iter().map(|t| api.with_token(t)).collect();
    let mut turn = 0;
    let mut call = async |conn: &mut Conn, path: &str, accept: &str| {
        turn += 1;
        let viewer = &viewers[turn % viewers.len()];
        let (status, body) = viewer.call(conn, ("GET", path, accept), None).await.expect(path);
        assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&body));
        body
    };
    // One untimed round each: the first Table also warms the lab's caches.
    let table = call(&mut conn, path, TABLE).await;
    let rows = count(&table, br#""object":"#);
    let list = call(&mut conn, path, "application/json").await;
    let (mut whole, mut paged, mut json) = (Vec::new(), Vec::new(), Vec::new());
    let mut pages = 0;
    for _ in 0..requests {
        let start = Instant::now();
        call(&mut conn, path, TABLE).await;
        whole.push(start.elapsed());

        let start = Instant::now();
        let mut next = format!("{path}?limit=500");
        pages = 0;
        loop {
            let page = call(&mut conn, &next, TABLE).await;
            pages += 1;
            match string_after(&page, "continue").filter(|c| !c.is_empty()) {
                Some(token) => next = format!("{path}?limit=500&continue={token}"),
                None => break,
            }
        }
        paged.push(start.elapsed());

        let start = Instant::now();
        call(&mut conn, path, "application/json").await;
        json.push(start.elapsed());
    }
    println!("  kubectl get pods ({rows} rows), ms, over {requests} requests each, one connection:");
    println!("    Table, one request ({} KiB)    {}", table.len() / 1024, summary(whole));
    println!("    Table, pages of 500 ({pages} requests) {}", summary(paged));
    println!("    JSON list ({} KiB)         {}", list.len() / 1024, summary(json));
}

/// `clients` tasks, each with its own connection, for `seconds`: in turn a pod by name, the
/// pods of `small`, a ConfigMap by name, the Deployment by name. Each client takes four viewer
/// tokens in turn, so the per-token limit (100/s, bursts of 400) does not bind: the figure is
/// the lab's, not the limiter's (a 429 is counted apart).
async fn throughput(api: &Api, clients: usize, seconds: u64) {
    let tokens = api.viewers("client", clients * 4).await;
    let list = api.must("GET", "/api/v1/namespaces/small/pods", None).await;
    let list: Value = serde_json::from_slice(&list).unwrap();
    let names: Vec<String> =
        list["items"].as_array().unwrap().iter().map(|p| p["metadata"]["name"].as_str().unwrap().to_string()).collect();
    let mut paths: Vec<String> = names.iter().map(|n| format!("/api/v1/namespaces/small/pods/{n}")).collect();
    paths.push("/api/v1/namespaces/small/pods".into());
    paths.push("/api/v1/namespaces/small/configmaps/settings".into());
    paths.push("/apis/apps/v1/namespaces/small/deployments/small".into());
    let paths = Arc::new(paths);
    let (limited, errors) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut connections = Vec::new();
    for mine in tokens.chunks(4) {
        connections.push((mine.iter().map(|t| api.with_token(t)).collect::<Vec<_>>(), api.connect().await));
    }
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let tasks: Vec<_> = connections
        .into_iter()
        .enumerate()
        .map(|(n, (client, mut conn)): (usize, (Vec<Api>, Conn))| {
            let (paths, limited, errors) = (Arc::clone(&paths), Arc::clone(&limited), Arc::clone(&errors));
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut turn = n;
                while Instant::now() < deadline {
                    let path = &paths[turn % paths.len()];
                    let token = &client[turn % client.len()];
                    turn += 1;
                    let sent = Instant::now();
                    match token.call(&mut conn, ("GET", path, TABLE), None).await {
                        Ok((200, _)) => latencies.push(sent.elapsed()),
                        Ok((429, _)) => drop(limited.fetch_add(1, Ordering::Relaxed)),
                        _ => drop(errors.fetch_add(1, Ordering::Relaxed)),
                    }
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.unwrap());
    }
    let took = start.elapsed().as_secs_f64();
    println!(
        "  {clients} clients for {seconds} s, one connection each (a pod, a list of {} pods, a ConfigMap, a Deployment, in turn; as Table):",
        names.len()
    );
    println!(
        "    {} answered ({:.0}/s), {} rate-limited, {} errors",
        latencies.len(),
        latencies.len() as f64 / took,
        limited.load(Ordering::Relaxed),
        errors.load(Ordering::Relaxed)
    );
    println!("    latency ms                   {}", summary(latencies));
}

/// What one watcher saw: each event's resourceVersion and when it arrived.
type Seen = Vec<(u64, Instant)>;

/// `watches` watchers on the pods of `watch` (a viewer token per 100), from the list's
/// resourceVersion; the clock paused; the Deployment's image patched, then one step of virtual
/// time for the rollout. Returns the lab's memory with the watches open.
async fn watch_rollout(api: &Api, watches: usize) -> u64 {
    api.must("PUT", "/kubelab/clock", Some(("application/json", r#"{"paused":true}"#.into()))).await;
    let list = api.must("GET", "/api/v1/namespaces/watch/pods", None).await;
    let list: Value = serde_json::from_slice(&list).unwrap();
    let from = list["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let tokens = api.viewers("watcher", watches.div_ceil(100)).await;
    let path = format!("/api/v1/namespaces/watch/pods?watch=1&resourceVersion={from}&timeoutSeconds=600");
    let received = Arc::new(AtomicU64::new(0));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let (opened_tx, mut opened) = tokio::sync::mpsc::channel::<bool>(watches.max(1));
    let opening = Instant::now();
    let tasks: Vec<_> = (0..watches)
        .map(|n| {
            let watcher = api.with_token(&tokens[n / 100]);
            let (path, received, opened, stopped) =
                (path.clone(), Arc::clone(&received), opened_tx.clone(), stopped.clone());
            tokio::spawn(async move { watch(watcher, path, received, opened, stopped).await })
        })
        .collect();
    let mut refused = 0;
    for _ in 0..watches {
        if !opened.recv().await.unwrap_or(false) {
            refused += 1;
        }
    }
    let opened_in = opening.elapsed();
    // What the open watches cost the lab process with nothing to send: its CPU over 2 s.
    let cpu = cpu_ticks(api.pid);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle_cpu = (cpu_ticks(api.pid) - cpu) as f64 / 100.0 / 2.0;
    let watching_kib = api.memory_kib();

    let patched = Instant::now();
    let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "nginx:1.28"}]}}}});
    let patch = Some(("application/merge-patch+json", patch.to_string()));
    api.must("PATCH", "/apis/apps/v1/namespaces/watch/deployments/web", patch).await;
    let patch_took = patched.elapsed();
    api.must("POST", "/kubelab/clock", Some(("application/json", r#"{"step":"5m"}"#.into()))).await;
    let stepped = Instant::now();
    // Done when no watcher has had anything for 2 s (ten polls), or after two minutes.
    let mut last = (0, Instant::now());
    while stepped.elapsed() < Duration::from_secs(120) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = received.load(Ordering::Relaxed);
        if now != last.0 {
            last = (now, Instant::now());
        } else if now > 0 && last.1.elapsed() > Duration::from_secs(2) {
            break;
        }
    }
    let _ = stop.send(true);
    let mut seen: Vec<Seen> = Vec::new();
    for task in tasks {
        seen.push(task.await.unwrap());
    }
    api.must("PUT", "/kubelab/clock", Some(("application/json", r#"{"paused":false}"#.into()))).await;

    let first = seen.iter().filter_map(|s| s.iter().map(|e| e.0).min()).min().unwrap_or(0);
    let last = seen.iter().filter_map(|s| s.iter().map(|e| e.0).max()).max().unwrap_or(0);
    let at = |s: &Seen, rv: u64| s.iter().find(|e| e.0 == rv).map(|e| e.1);
    let since = |t: Instant, from: Instant| t.saturating_duration_since(from);
    let firsts: Vec<Duration> = seen.iter().filter_map(|s| at(s, first)).map(|t| since(t, patched)).collect();
    let firsts_after_step: Vec<Duration> =
        seen.iter().filter_map(|s| at(s, first)).map(|t| since(t, stepped)).collect();
    let lasts: Vec<Duration> = seen.iter().filter_map(|s| at(s, last)).map(|t| since(t, stepped)).collect();
    let events: Vec<usize> = seen.iter().map(Vec::len).collect();
    let (fewest, most) = (events.iter().min().copied().unwrap_or(0), events.iter().max().copied().unwrap_or(0));
    println!(
        "  {watches} watches on the pods of a {}-replica Deployment, its image patched, the rollout one 5m step:",
        knob("KUBELAB_API_BENCH_WATCH_REPLICAS", 10)
    );
    println!(
        "    opened in {:.2} s ({refused} refused); PATCH {:.1} ms; step {:.1} ms; {fewest}–{most} events per watcher",
        opened_in.as_secs_f64(),
        patch_took.as_secs_f64() * 1000.0,
        (stepped - patched - patch_took).as_secs_f64() * 1000.0
    );
    println!("    idle, the watches cost the lab process {:.0}% of a core (its polls every 200 ms)", idle_cpu * 100.0);
    println!("    first event ms from the PATCH  {}  ({} watchers)", summary(firsts.clone()), firsts.len());
    println!("    first event ms from the step   {}", summary(firsts_after_step));
    println!("    last event ms from the step    {}  ({} watchers)", summary(lasts.clone()), lasts.len());
    watching_kib
}

/// One watcher: opens the watch on a connection of its own, says whether it was answered 200,
/// then notes every event's resourceVersion and arrival until told to stop.
async fn watch(
    api: Api,
    path: String,
    received: Arc<AtomicU64>,
    opened: tokio::sync::mpsc::Sender<bool>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Seen {
    let mut conn = api.connect().await;
    let _ = conn.ready().await;
    let response = match conn.send_request(api.request("GET", &path, "application/json", None)).await {
        Ok(response) if response.status() == 200 => response,
        _ => {
            let _ = opened.send(false).await;
            return Vec::new();
        }
    };
    let _ = opened.send(true).await;
    let mut body = response.into_body();
    let (mut buffer, mut seen) = (Vec::<u8>::new(), Seen::new());
    loop {
        let frame = tokio::select! {
            frame = body.frame() => frame,
            _ = stop.changed() => break,
        };
        let Some(Ok(frame)) = frame else { break };
        let Ok(data) = frame.into_data() else { continue };
        let at = Instant::now();
        buffer.extend_from_slice(&data);
        while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = buffer.drain(..=end).collect();
            // The object's own resourceVersion: the first after its metadata.
            let metadata = line.windows(11).position(|w| w == b"\"metadata\":").unwrap_or(0);
            if let Some(rv) = string_after(&line[metadata..], "resourceVersion").and_then(|v| v.parse().ok()) {
                seen.push((rv, at));
                received.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    seen
}

/// `count` fresh `kubelab up`s, one process each: the mean VmRSS of one, idle and after a
/// first `GET /api/v1/pods` (TLS set up, the lab's first list).
async fn memory_per_lab(count: usize) {
    if count == 0 {
        return;
    }
    let ups: Vec<(Up, String)> = (0..count)
        .map(|n| {
            let name = format!("api-bench-memory-{n}");
            (Up::start(&name), name)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let idle: u64 = ups.iter().map(|(up, name)| rss_kib(pid_of(up, name))).sum();
    for (up, name) in &ups {
        Api::from(up, name).must("GET", "/api/v1/pods", None).await;
    }
    let used: u64 = ups.iter().map(|(up, name)| rss_kib(pid_of(up, name))).sum();
    let mib = |kib: u64| kib as f64 / 1024.0 / count as f64;
    println!("kube_api: memory per lab (VmRSS of a `kubelab up`, one lab each, mean of {count})");
    println!("  MiB per lab                  {:.1} idle, {:.1} after a first request", mib(idle), mib(used));
}

/// `kubelab up` (spawned) to the first `kubectl get nodes` that succeeds, `count` times, each
/// with a fresh HOME (no discovery cache).
fn time_to_kubectl(count: usize) {
    let Some(kubectl) = up::oracle() else {
        println!("kube_api: kubelab up to the first kubectl get nodes: skipped, kubectl 1.36 is not installed");
        return;
    };
    let mut times = Vec::new();
    let mut ready = Vec::new();
    for n in 0..count {
        let start = Instant::now();
        let up = Up::start(&format!("api-bench-up-{n}"));
        ready.push(start.elapsed());
        loop {
            let (_, ok) = up.kubectl(&kubectl, "get nodes", None);
            if ok {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "kubectl get nodes never succeeded");
        }
        times.push(start.elapsed());
    }
    let ms = |d: &[Duration]| d.iter().map(|d| format!("{:.0}", d.as_secs_f64() * 1000.0)).collect::<Vec<_>>();
    println!("kube_api: kubelab up to the first kubectl get nodes (kubectl 1.36, TLS, fresh discovery cache)");
    println!("  ms, each start               {}", ms(&times).join(", "));
    println!("  of which until up's first line {}", ms(&ready).join(", "));
}
