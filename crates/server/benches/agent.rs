//! Real nodes under load (not a test): one `kubelab-agent` joined to a `kubelab up` lab on
//! loopback (pod IPs from 127.77.0.0/16, which Linux binds without any setup), driven over the
//! lab's HTTPS API with the kubeconfig's CA and tokens. Prints:
//! - pod start on the agent, for `hello:v1` (ready without probes): pods created one at a time,
//!   then one Deployment scaled from 0 at once. Three clocks: the client's wall clock from the
//!   create (or the scale PATCH) to the pod seen Ready (a GET every 20 ms); the pod's own
//!   conditions, Ready's lastTransitionTime minus PodScheduled's (whole seconds, as
//!   `metav1.Time` stores them); and the Events `Scheduled` → `Started`, whose names carry the
//!   lab's time in milliseconds. The first pod pulls the image (the catalogue's simulated pull,
//!   1 s plus its size at 100 Mbit/s) and compiles the guest; it is shown apart from the rest;
//! - pods per agent: a second, fresh agent; a Deployment bound to it by `nodeName` (the Node
//!   says `pods: 110`, kubelet's default `--max-pods`, and the scheduler stops there) scaled up
//!   in steps until a step is not all Ready by its deadline, the agent's RSS passes a cap, or
//!   the phase's time is spent; how long each step took;
//! - the agent's memory (VmRSS) idle after the join, with its first pod (the guest compiled)
//!   and at each step, the agent's CPU and threads with the pods idle, and the least-squares
//!   slope in MiB per pod from the first pod on.
//!
//! `cargo bench -p kubelab-server --bench agent` (the agent and the guest must be built:
//! `cargo build --release -p kubelab-node-agent` and `scripts/build-guests.sh`). Knobs:
//! KUBELAB_AGENT_BENCH_PROFILE (debug or release: which target/PROFILE/kubelab-agent; default
//! the bench's own profile), KUBELAB_AGENT_BENCH_PODS (40, each way of starting),
//! KUBELAB_AGENT_BENCH_STEPS (50,100,200,400,600,800,1000,1500,2000,3000),
//! KUBELAB_AGENT_BENCH_STEP_SECONDS (60, a step's deadline), KUBELAB_AGENT_BENCH_RSS_MIB (2048,
//! the cap), KUBELAB_AGENT_BENCH_SECONDS (180, the density phase's budget: no step starts after
//! it). The lab, the agent, its guests and this client share the machine's cores.

#[path = "support/lab_api.rs"]
mod lab_api;
#[allow(dead_code)]
#[path = "../tests/support/up.rs"]
mod up;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use kubelab_core::sim::time::SimTime;
use lab_api::{Conn, LabApi as Api};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use up::Up;

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Where pods get their IPs: all of 127/8 is local, so a guest binds any of these with
/// `--pod-network none`, and a /16 never runs out here.
const POD_CIDR: &str = "127.77.0.0/16";

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run());
}

async fn run() {
    let pods = knob("KUBELAB_AGENT_BENCH_PODS", 40) as usize;
    let Some((agent, guest)) = built() else { return };
    let server = PathBuf::from(env!("CARGO_BIN_EXE_kubelab"));
    println!("agent: kubelab-agent {}", describe(&agent));
    println!("       kubelab       {}", describe(&server));
    println!("       guest         {}", guest.display());

    let up = Up::start("agent-bench");
    let (owner, ca_pem) = Api::from_kubeconfig(&up.kubeconfig);
    let ca = up.dir.join("ca.pem");
    std::fs::write(&ca, &ca_pem).unwrap();
    let mut lab = Client::new(owner.clone()).await;
    let viewer = lab.token("poller", "viewer").await;
    let mut poller = Client::new(owner.with_token(&viewer)).await;
    let bootstrap = lab.token("agents", "bootstrap").await;
    let start = |name: &str| AgentProcess::start(name, (&agent, &guest), (owner.addr, &bootstrap, &ca), &up.dir);

    let first = start("bench-1");
    let joined = first.wait_ready(&mut poller).await;
    std::thread::sleep(Duration::from_millis(500));
    println!(
        "agent: bench-1 joined and Ready in {:.2} s; idle VmRSS {:.1} MiB",
        joined.as_secs_f64(),
        mib(first.rss_kib())
    );
    let one_by_one = pods_one_at_a_time(&mut lab, &mut poller, pods).await;
    let scaled = deployment_scale_up(&mut lab, &mut poller, pods).await;
    let events = event_times(&mut poller, one_by_one.iter().chain(&scaled).map(|s| s.pod.as_str())).await;
    print_starts(&one_by_one, &scaled, &events);
    drop(first);

    let second = start("bench-2");
    second.wait_ready(&mut poller).await;
    std::thread::sleep(Duration::from_millis(500));
    density(&mut lab, &mut poller, &second).await;
}

/// The agent named by KUBELAB_AGENT_BENCH_PROFILE (else the one beside this bench's `kubelab`)
/// and the guest; `None`, said, when either is not built.
fn built() -> Option<(PathBuf, PathBuf)> {
    let server = Path::new(env!("CARGO_BIN_EXE_kubelab"));
    let profile_dir = server.parent().unwrap();
    let target = profile_dir.parent().unwrap();
    let agent = match std::env::var("KUBELAB_AGENT_BENCH_PROFILE") {
        Ok(profile) => target.join(profile).join("kubelab-agent"),
        Err(_) => profile_dir.join("kubelab-agent"),
    };
    let guest = target.join("guests/workload.wasm");
    for (path, build) in
        [(&agent, "cargo build [--release] -p kubelab-node-agent"), (&guest, "scripts/build-guests.sh")]
    {
        if !path.exists() {
            println!("agent: skipped, {} is not built ({build})", path.display());
            return None;
        }
    }
    Some((agent, guest))
}

/// A binary's path, its profile (the folder it is in) and when it was built.
fn describe(binary: &Path) -> String {
    let profile = binary.parent().and_then(Path::file_name).map(|p| p.to_string_lossy().into_owned());
    let age = std::fs::metadata(binary).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
    let age = age.map_or(String::new(), |a| format!(", built {} min ago", a.as_secs() / 60));
    format!("{} ({} build{age})", binary.display(), profile.unwrap_or_default())
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// One line of /proc/PID/status, its first number (`VmRSS:  1234 kB` → 1234).
fn proc_status(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with(field));
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

/// One token's kept-alive connection; a broken one is made again.
struct Client {
    api: Api,
    conn: Conn,
}

impl Client {
    async fn new(api: Api) -> Client {
        let conn = api.connect().await;
        Client { api, conn }
    }

    /// `method path` with a JSON (or merge-patch) body: the status and the body as JSON.
    async fn call(&mut self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        for _ in 0..3 {
            if self.conn.ready().await.is_err() {
                self.conn = self.api.connect().await;
            }
            let content_type = if method == "PATCH" { "application/merge-patch+json" } else { "application/json" };
            let request = hyper::Request::builder()
                .method(method)
                .uri(path)
                .header("host", self.api.addr.to_string())
                .header("authorization", format!("Bearer {}", self.api.token))
                .header("accept", "application/json")
                .header("content-type", content_type)
                .body(Full::new(body.as_ref().map_or_else(Bytes::new, |b| Bytes::from(b.to_string()))))
                .unwrap();
            let Ok(response) = self.conn.send_request(request).await else {
                self.conn = self.api.connect().await;
                continue;
            };
            let status = response.status().as_u16();
            let Ok(bytes) = response.into_body().collect().await.map(|b| b.to_bytes()) else { continue };
            return (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null));
        }
        panic!("{method} {path}: the lab did not answer");
    }

    /// As `call` without a body, given up after `limit`; the connection is then made anew (the
    /// answer may still come on the old one).
    async fn within(&mut self, limit: Duration, method: &str, path: &str) -> Option<(u16, Value)> {
        match tokio::time::timeout(limit, self.call(method, path, None)).await {
            Ok(answer) => Some(answer),
            Err(_) => {
                self.conn = self.api.connect().await;
                None
            }
        }
    }

    /// As `call`, panicking unless the answer is 2xx.
    async fn must(&mut self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, answer) = self.call(method, path, body).await;
        assert!((200..300).contains(&status), "{method} {path}: {status} {answer}");
        answer
    }

    /// A new token of `user` with `role`, issued by the owner through /kubelab/tokens.
    async fn token(&mut self, user: &str, role: &str) -> String {
        let issued = self.must("POST", "/kubelab/tokens", Some(json!({"user": user, "role": role}))).await;
        issued["token"].as_str().unwrap().to_string()
    }
}

/// A `kubelab-agent` process, killed when dropped.
struct AgentProcess {
    name: String,
    child: Child,
    started: Instant,
    log: PathBuf,
}

impl AgentProcess {
    fn start(
        name: &str,
        (agent, guest): (&Path, &Path),
        (addr, token, ca): (SocketAddr, &str, &Path),
        dir: &Path,
    ) -> Self {
        let log = dir.join(format!("{name}.log"));
        let child = Command::new(agent)
            .args(["--server", &format!("https://{addr}"), "--name", name, "--tls-server-name", "localhost"])
            .arg("--certificate-authority")
            .arg(ca)
            .arg("--guest")
            .arg(guest)
            .args(["--address", "127.0.0.1", "--kubelet-port", "0", "--pod-network", "none", "--pod-cidr", POD_CIDR])
            .env("KUBELAB_AGENT_TOKEN", token)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("kubelab-agent starts");
        AgentProcess { name: name.to_string(), child, started: Instant::now(), log }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn rss_kib(&self) -> u64 {
        proc_status(self.pid(), "VmRSS:")
    }

    /// The agent's stderr so far, for a failure's message.
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until its Node is Ready: how long that took from the spawn.
    async fn wait_ready(&self, client: &mut Client) -> Duration {
        let path = format!("/api/v1/nodes/{}", self.name);
        loop {
            let (status, node) = client.call("GET", &path, None).await;
            if status == 200 && condition_true(&node, "Ready") {
                return self.started.elapsed();
            }
            assert!(self.started.elapsed() < Duration::from_secs(60), "{} never Ready: {}", self.name, self.log());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn condition<'a>(object: &'a Value, type_: &str) -> Option<&'a Value> {
    object["status"]["conditions"].as_array()?.iter().find(|c| c["type"] == type_)
}

fn condition_true(object: &Value, type_: &str) -> bool {
    condition(object, type_).is_some_and(|c| c["status"] == "True")
}

/// Ready's lastTransitionTime minus PodScheduled's, in milliseconds (whole seconds apart).
fn conditions_ms(pod: &Value) -> Option<i64> {
    let at = |type_: &str| {
        let text = condition(pod, type_)?["lastTransitionTime"].as_str()?;
        SimTime::parse_rfc3339(text).map(|t| t.as_millis() as i64)
    };
    Some(at("Ready")? - at("PodScheduled")?)
}

/// The affinity that keeps a pod on `node` through the scheduler.
fn on_node(node: &str) -> Value {
    let term = json!({"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": [node]}]});
    json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}})
}

/// `hello:v1` answering on 8080; a short grace period so a deletion does not wait 30 s.
fn hello_spec(placement: Value) -> Value {
    let mut spec = json!({
        "terminationGracePeriodSeconds": 1,
        "containers": [{"name": "web", "image": "hello:v1", "ports": [{"containerPort": 8080}]}],
    });
    spec.as_object_mut().unwrap().extend(placement.as_object().unwrap().clone());
    spec
}

fn deployment(name: &str, replicas: usize, placement: Value) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": hello_spec(placement)},
        },
    })
}

/// One pod's start: its name, the client's wall clock to Ready, and its conditions' difference.
struct Start {
    pod: String,
    wall: Duration,
    conditions_ms: Option<i64>,
}

/// `count` pods created one after another, each waited for (a GET every 20 ms) before the next.
async fn pods_one_at_a_time(lab: &mut Client, poller: &mut Client, count: usize) -> Vec<Start> {
    let mut starts = Vec::new();
    for n in 0..count {
        let name = format!("one-{n}");
        let pod = json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name, "labels": {"app": "one"}},
            "spec": hello_spec(json!({"affinity": on_node("bench-1")})),
        });
        let created = Instant::now();
        lab.must("POST", "/api/v1/namespaces/default/pods", Some(pod)).await;
        let path = format!("/api/v1/namespaces/default/pods/{name}");
        loop {
            let (_, pod) = poller.call("GET", &path, None).await;
            if condition_true(&pod, "Ready") {
                starts.push(Start { pod: name, wall: created.elapsed(), conditions_ms: conditions_ms(&pod) });
                break;
            }
            assert!(created.elapsed() < Duration::from_secs(60), "{name} not Ready in 60 s: {pod}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    starts
}

/// A Deployment of `count` replicas made at 0, then scaled to `count` in one PATCH; the pods'
/// list every 20 ms until all are Ready.
async fn deployment_scale_up(lab: &mut Client, poller: &mut Client, count: usize) -> Vec<Start> {
    let placement = json!({"affinity": on_node("bench-1")});
    lab.must("POST", "/apis/apps/v1/namespaces/default/deployments", Some(deployment("burst", 0, placement))).await;
    let scaled = Instant::now();
    let patch = json!({"spec": {"replicas": count}});
    lab.must("PATCH", "/apis/apps/v1/namespaces/default/deployments/burst", Some(patch)).await;
    let mut seen: BTreeMap<String, Start> = BTreeMap::new();
    while seen.len() < count {
        let (_, list) = poller.call("GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dburst", None).await;
        for pod in list["items"].as_array().into_iter().flatten().filter(|p| condition_true(p, "Ready")) {
            let name = pod["metadata"]["name"].as_str().unwrap_or_default().to_string();
            seen.entry(name.clone()).or_insert_with(|| Start {
                pod: name,
                wall: scaled.elapsed(),
                conditions_ms: conditions_ms(pod),
            });
        }
        assert!(scaled.elapsed() < Duration::from_secs(120), "{} of {count} Ready in 120 s", seen.len());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    seen.into_values().collect()
}

/// Per pod, `Scheduled` → `Started` in ms, from the Events' names (`<pod>.<hex nanoseconds>`,
/// the lab's time at millisecond precision; the scheduler writes the first, the agent the second).
/// The agent posts its Events one at a time behind its status writes, so they are read again
/// until every pod has both (or 15 s pass).
async fn event_times(client: &mut Client, pods: impl Iterator<Item = &str>) -> BTreeMap<String, i64> {
    let pods: Vec<&str> = pods.collect();
    let waited = Instant::now();
    loop {
        let times = read_event_times(client).await;
        if pods.iter().all(|p| times.contains_key(*p)) || waited.elapsed() > Duration::from_secs(15) {
            return times;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn read_event_times(client: &mut Client) -> BTreeMap<String, i64> {
    let list = client.must("GET", "/api/v1/namespaces/default/events", None).await;
    let mut at: BTreeMap<(String, String), i64> = BTreeMap::new();
    for event in list["items"].as_array().into_iter().flatten() {
        let (Some(pod), Some(reason), Some(name)) =
            (event["involvedObject"]["name"].as_str(), event["reason"].as_str(), event["metadata"]["name"].as_str())
        else {
            continue;
        };
        let Some(nanos) = name.rsplit_once('.').and_then(|(_, hex)| u128::from_str_radix(hex, 16).ok()) else {
            continue;
        };
        // The first of each reason: a repeat is counted on the first Event, not named anew.
        at.entry((pod.to_string(), reason.to_string())).or_insert((nanos / 1_000_000) as i64);
    }
    let mut times = BTreeMap::new();
    for ((pod, reason), started) in &at {
        if reason == "Started"
            && let Some(scheduled) = at.get(&(pod.clone(), "Scheduled".to_string()))
        {
            times.insert(pod.clone(), started - scheduled);
        }
    }
    times
}

/// Nearest-rank percentile of sorted milliseconds.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((p / 100.0) * (sorted.len() - 1) as f64).round() as usize]
}

/// `p50 p99 max` of milliseconds, in seconds.
fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    let s = |p: f64| percentile(&ms, p) / 1000.0;
    format!("p50 {:.3} s  p99 {:.3} s  max {:.3} s  (n={})", s(50.0), s(99.0), s(100.0), ms.len())
}

fn print_starts(one_by_one: &[Start], scaled: &[Start], events: &BTreeMap<String, i64>) {
    let wall = |s: &[Start]| s.iter().map(|s| s.wall.as_secs_f64() * 1000.0).collect::<Vec<_>>();
    let own = |s: &[Start]| s.iter().filter_map(|s| s.conditions_ms.map(|c| c as f64)).collect::<Vec<_>>();
    let evented = |s: &[Start]| s.iter().filter_map(|s| events.get(&s.pod).map(|e| *e as f64)).collect::<Vec<_>>();
    println!("agent: pod start of hello:v1 on one agent (ready without probes)");
    println!("  wall clock = the client, create (or the scale PATCH) to Ready seen, a GET every 20 ms");
    println!("  conditions = the pod's Ready minus PodScheduled lastTransitionTime, whole seconds");
    println!("  events     = the Events Scheduled (scheduler) to Started (agent), the lab's clock in ms");
    if let Some((first, warm)) = one_by_one.split_first() {
        println!(
            "  first pod (image pull and guest compile)  wall {:.3} s  conditions {} s  events {:.3} s",
            first.wall.as_secs_f64(),
            first.conditions_ms.map_or("?".into(), |c| format!("{}", c / 1000)),
            events.get(&first.pod).map_or(f64::NAN, |e| *e as f64 / 1000.0)
        );
        println!("  one at a time, warm   wall        {}", summary(wall(warm)));
        println!("                        conditions  {}", summary(own(warm)));
        println!("                        events      {}", summary(evented(warm)));
    }
    println!("  Deployment 0 → {} in one PATCH, from the PATCH:", scaled.len());
    println!("                        wall        {}", summary(wall(scaled)));
    println!("                        conditions  {}", summary(own(scaled)));
    println!("                        events      {}", summary(evented(scaled)));
    println!("  for comparison (published figures, not measured here): containerd ~0.23 s, kind ~1 s");
}

/// One step of the density phase.
struct Step {
    pods: usize,
    ready: usize,
    took: Duration,
    rss_kib: u64,
    cpu_percent: f64,
    threads: u64,
}

/// Scales a Deployment bound to the agent by `nodeName` through the steps; prints each and the
/// memory slope.
async fn density(lab: &mut Client, poller: &mut Client, agent: &AgentProcess) {
    let steps = std::env::var("KUBELAB_AGENT_BENCH_STEPS")
        .unwrap_or_else(|_| "50,100,200,400,600,800,1000,1500,2000,3000".into());
    let steps: Vec<usize> = steps.split(',').filter_map(|s| s.trim().parse().ok()).collect();
    let deadline = Duration::from_secs(knob("KUBELAB_AGENT_BENCH_STEP_SECONDS", 60));
    let cap_kib = knob("KUBELAB_AGENT_BENCH_RSS_MIB", 2048) * 1024;
    let budget = Duration::from_secs(knob("KUBELAB_AGENT_BENCH_SECONDS", 180));
    let idle_kib = agent.rss_kib();
    let idle_threads = proc_status(agent.pid(), "Threads:");
    let placement = json!({"nodeName": agent.name});
    lab.must("POST", "/apis/apps/v1/namespaces/default/deployments", Some(deployment("dense", 0, placement))).await;
    let path = "/apis/apps/v1/namespaces/default/deployments/dense";
    // One pod first, so the steps find the image pulled: on a cold agent every pod of a burst
    // waits its turn for a whole simulated pull of its own, which would be the figure instead.
    let warming = Instant::now();
    lab.must("PATCH", path, Some(json!({"spec": {"replicas": 1}}))).await;
    loop {
        let (_, deployment) = poller.call("GET", path, None).await;
        if deployment["status"]["readyReplicas"].as_u64() == Some(1) {
            break;
        }
        assert!(warming.elapsed() < Duration::from_secs(60), "the first pod never Ready: {}", agent.log());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let warmed = warming.elapsed();
    let warm_kib = agent.rss_kib();
    let phase = Instant::now();
    let mut done: Vec<Step> = Vec::new();
    let mut stopped = "every step went Ready".to_string();
    for &pods in &steps {
        if phase.elapsed() > budget {
            stopped = format!("the phase's {} s were spent", budget.as_secs());
            break;
        }
        let began = Instant::now();
        lab.must("PATCH", path, Some(json!({"spec": {"replicas": pods}}))).await;
        let mut ready = 0;
        while began.elapsed() < deadline {
            // A lab too busy to answer within the deadline ends the step there.
            let left = deadline.saturating_sub(began.elapsed());
            let Some((_, deployment)) = poller.within(left, "GET", path).await else { break };
            ready = deployment["status"]["readyReplicas"].as_u64().unwrap_or(0) as usize;
            if ready >= pods || agent.rss_kib() > cap_kib {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let took = began.elapsed();
        // The pods idle for 2 s: the agent's CPU then is what keeping them costs.
        let ticks = cpu_ticks(agent.pid());
        tokio::time::sleep(Duration::from_secs(2)).await;
        let cpu_percent = (cpu_ticks(agent.pid()) - ticks) as f64 / 2.0;
        let step = Step {
            pods,
            ready,
            took,
            rss_kib: agent.rss_kib(),
            cpu_percent,
            threads: proc_status(agent.pid(), "Threads:"),
        };
        let (full, over) = (step.ready >= pods, step.rss_kib > cap_kib);
        done.push(step);
        if !full {
            stopped = format!("{ready} of {pods} Ready after {} s", deadline.as_secs());
            stuck(poller, agent).await;
            break;
        }
        if over {
            stopped = format!("VmRSS passed {} MiB", cap_kib / 1024);
            break;
        }
    }
    println!(
        "agent: pods per agent, hello:v1 bound by nodeName, {} cores; idle VmRSS {:.1} MiB, {idle_threads} threads",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        mib(idle_kib)
    );
    println!(
        "  first pod (the image pulled, the guest compiled) Ready in {:.2} s; then each step from its PATCH:",
        warmed.as_secs_f64()
    );
    println!("  pods  Ready  step s  VmRSS MiB  MiB/pod past 1st  agent CPU idle  threads");
    for step in &done {
        println!(
            "  {:>4}  {:>5}  {:>6.1}  {:>9.1}  {:>17.2}  {:>13.0}%  {:>7}",
            step.pods,
            step.ready,
            step.took.as_secs_f64(),
            mib(step.rss_kib),
            (mib(step.rss_kib) - mib(warm_kib)) / step.pods.saturating_sub(1).max(1) as f64,
            step.cpu_percent,
            step.threads
        );
    }
    let most = done.iter().map(|s| s.ready).max().unwrap_or(0);
    println!("  largest count Ready: {most} (stopped: {stopped})");
    // From one pod on: the compiled guest is the machine's once, not any pod's.
    let full = done.iter().filter(|s| s.ready >= s.pods);
    let points: Vec<(f64, f64)> =
        std::iter::once((1.0, mib(warm_kib))).chain(full.map(|s| (s.pods as f64, mib(s.rss_kib)))).collect();
    println!(
        "  VmRSS {:.1} MiB with the first pod; slope (least squares over it and the steps all Ready) {:.3} MiB per pod",
        mib(warm_kib),
        slope(&points)
    );
}

/// Why a step stopped short: the pods not Ready with what their status says, and the end of
/// the agent's log.
async fn stuck(poller: &mut Client, agent: &AgentProcess) {
    let list =
        poller.within(Duration::from_secs(15), "GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Ddense");
    let Some((_, list)) = list.await else {
        println!("  the lab did not list the pods within 15 s");
        return;
    };
    let waiting = list["items"].as_array().into_iter().flatten().filter(|p| !condition_true(p, "Ready"));
    for pod in waiting.take(5) {
        let state = &pod["status"]["containerStatuses"][0]["state"];
        println!("  not Ready: {} {} {state}", pod["metadata"]["name"], pod["status"]["phase"]);
    }
    let log = agent.log();
    for line in log.lines().rev().take(10).collect::<Vec<_>>().into_iter().rev() {
        println!("  agent: {line}");
    }
}

/// The least-squares slope of y over x.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 { f64::NAN } else { sxy / sxx }
}
