//! The agent against a real `kubelab up`: it registers a Ready Node, renews its Lease, and runs
//! a pod bound to it through the fake runtime until the lab shows it Running with an IP from
//! the node's podCIDR; deleting the pod stops its container and the pod goes.
//!
//! It joins with a bootstrap token where the lab issues one; otherwise it skips the join with
//! the lab's admin token (`--node-token`) and powers the node off in the simulation, so that
//! only the agent runs its pods.

use base64::Engine;
use hyper::Method;
use kubelab_node_agent::agent::{self, Config};
use kubelab_node_agent::client::ApiClient;
use kubelab_node_agent::gpus::GpuSource;
use kubelab_node_agent::ipam::PodNetwork;
use kubelab_node_agent::testing::{FakeRuntime, Script};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const NODE: &str = "edge-test";

/// `kubelab up` on a free loopback port, and what its kubeconfig says.
struct Lab {
    child: Child,
    dir: PathBuf,
    server: String,
    ca_pem: Vec<u8>,
    token: String,
}

impl Drop for Lab {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_lab() -> Option<Lab> {
    let binary = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/debug/kubelab");
    if !binary.exists() {
        eprintln!("skipped: target/debug/kubelab is not built (cargo test --workspace builds it)");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("kubelab-agent-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = dir.join("config");
    let mut child = Command::new(binary)
        .args(["up", "--name", "agent-test", "--kubeconfig"])
        .arg(&kubeconfig)
        .env("XDG_STATE_HOME", &dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kubelab up starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.contains("kubectl cluster-info"), "{line:?}");
    let config: serde_yaml::Value = serde_yaml::from_str(&std::fs::read_to_string(&kubeconfig).unwrap()).unwrap();
    let cluster = &config["clusters"][0]["cluster"];
    let server = cluster["server"].as_str().unwrap().to_string();
    let ca = cluster["certificate-authority-data"].as_str().unwrap();
    let ca_pem = base64::engine::general_purpose::STANDARD.decode(ca).unwrap();
    let token = config["users"][0]["user"]["token"].as_str().unwrap().to_string();
    Some(Lab { child, dir, server, ca_pem, token })
}

fn config(lab: &Lab, token: String, node_token: Option<String>) -> Config {
    Config {
        server: lab.server.clone(),
        token,
        pod_cidr: node_token.as_ref().map(|_| "10.244.200.0/24".to_string()),
        node_token,
        name: NODE.into(),
        gpus: GpuSource::None,
        mig_strategy: None,
        ca_pem: Some(lab.ca_pem.clone()),
        tls_server_name: None,
        address: Some([127, 0, 0, 1].into()),
        kubelet_port: 0,
        pod_network: PodNetwork::None,
    }
}

/// Polls `check` until it gives a value or `limit` passes.
async fn eventually<T>(what: &str, limit: Duration, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_registers_renews_and_runs_a_pod_in_a_served_lab() {
    let Some(lab) = start_lab() else { return };
    let admin_config = config(&lab, lab.token.clone(), Some(lab.token.clone()));
    let admin = agent::client(&admin_config, &lab.token).unwrap();
    let bootstrap = admin.post("/kubelab/tokens", &json!({"user": "edge-bootstrap", "role": "bootstrap"})).await;
    let bootstrap_token = bootstrap.ok().and_then(|b| b["token"].as_str().map(str::to_string));
    let joins = bootstrap_token.is_some();
    let config = match bootstrap_token {
        Some(token) => config(&lab, token, None),
        None => admin_config,
    };
    let crash = Script { exits_after: Some((Duration::from_millis(200), 1, "Error".into())), ..Default::default() };
    let runtime = FakeRuntime::new()
        .with_image("hello:v1", Script { logs: vec!["hello".into()], ..Default::default() })
        .with_image("crash:v1", crash)
        .with_image("broken:v1", Script { start_error: Some("no such module".into()), ..Default::default() });
    let agent = agent::start(config, Arc::new(runtime.clone())).await.expect("the agent starts");
    // Where the lab does not know the node is external, its own kubelet must leave it alone.
    let script = format!("lab node power-off {NODE}\n").into_bytes();
    let _ = admin.send(Method::POST, "/kubelab/run", Some("text/plain"), Some(script)).await;

    let ready = eventually("the node to be Ready", Duration::from_secs(20), async || {
        let node = admin.get(&format!("/api/v1/nodes/{NODE}")).await.ok()?;
        let conditions = node["status"]["conditions"].as_array()?.clone();
        conditions.into_iter().find(|c| c["type"] == "Ready" && c["status"] == "True")
    })
    .await;
    assert_eq!(ready["reason"], "KubeletReady");

    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
        "spec": {"nodeName": NODE, "containers": [{"name": "web", "image": "hello:v1",
            "env": [{"name": "GREETING", "value": "hi"}]}]}});
    admin.post("/api/v1/namespaces/default/pods", &pod).await.expect("the pod is created");
    let running = eventually("the pod to run", Duration::from_secs(30), async || {
        let pod = admin.get("/api/v1/namespaces/default/pods/web").await.ok()?;
        (pod["status"]["phase"] == "Running" && pod["status"]["containerStatuses"][0]["ready"] == true).then_some(pod)
    })
    .await;
    let ip: std::net::Ipv4Addr = running["status"]["podIP"].as_str().unwrap().parse().unwrap();
    assert!(agent.pod_cidr.contains(ip), "{ip} in {}", agent.pod_cidr);
    assert_eq!(running["status"]["hostIP"], "127.0.0.1");
    assert!(running["status"]["containerStatuses"][0]["containerID"].as_str().unwrap().starts_with("wasmtime://"));
    let started = runtime.started();
    let web = started.iter().find(|s| s.pod_name == "web").expect("the runtime started web");
    assert_eq!(web.ip, std::net::IpAddr::V4(ip));
    assert!(web.env.contains(&("GREETING".to_string(), "hi".to_string())));

    let reasons = eventually("the kubelet's events", Duration::from_secs(10), async || {
        let events = admin.get("/api/v1/namespaces/default/events").await.ok()?;
        let reasons: Vec<String> = events["items"]
            .as_array()?
            .iter()
            .filter(|e| e["involvedObject"]["name"] == "web" && e["source"]["component"] == "kubelet")
            .map(|e| e["reason"].as_str().unwrap_or("").to_string())
            .collect();
        (reasons.len() >= 4).then_some(reasons)
    })
    .await;
    assert_eq!(reasons, ["Pulling", "Pulled", "Created", "Started"]);

    let lease_path = format!("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/{NODE}");
    let first = admin.get(&lease_path).await.expect("the node's Lease");
    assert_eq!(first["spec"]["holderIdentity"], NODE);
    assert_eq!(first["metadata"]["ownerReferences"][0]["kind"], "Node");
    eventually("the Lease to be renewed", Duration::from_secs(25), async || {
        let lease = admin.get(&lease_path).await.ok()?;
        (lease["spec"]["renewTime"] != first["spec"]["renewTime"]).then_some(())
    })
    .await;

    let kubelet = ApiClient::new(&format!("http://{}", agent.kubelet_address), None, &agent.kubelet_key).unwrap();
    let logs = kubelet.get("/containerLogs/default/web/web?previous=false").await.expect("the kubelet server answers");
    assert_eq!(logs["lines"][0]["text"], "hello");
    let exec = kubelet.post("/exec/default/web/web", &json!({"command": ["echo", "hi"]})).await.unwrap();
    assert_eq!(exec, json!({"output": "hi\n", "exitCode": 0}));

    if joins {
        // The API server reaches the agent's kubelet server for `kubectl logs`.
        let (status, body) =
            admin.send(Method::GET, "/api/v1/namespaces/default/pods/web/log", None, None).await.unwrap();
        assert_eq!((status.as_u16(), String::from_utf8_lossy(&body).trim()), (200, "hello"));
        assert!(agent.pod_cidr.to_string().starts_with("10.244."), "the join's podCIDR: {}", agent.pod_cidr);
    }

    bad_input(&admin).await;

    admin.delete("/api/v1/namespaces/default/pods/web", None).await.expect("the pod's deletion starts");
    eventually("the pod to go", Duration::from_secs(20), async || {
        let gone = admin.get("/api/v1/namespaces/default/pods/web").await.err()?;
        gone.is_not_found().then_some(())
    })
    .await;
    agent.stop();
}

fn bound_pod(name: &str, image: &str) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
        "spec": {"nodeName": NODE, "containers": [{"name": name, "image": image}]}})
}

/// The first container status of pod `name` once `wanted` holds for it.
async fn status_when(admin: &ApiClient, name: &str, wanted: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let path = format!("/api/v1/namespaces/default/pods/{name}");
    let start = Instant::now();
    loop {
        let pod = admin.get(&path).await.unwrap_or_default();
        let status = pod["status"]["containerStatuses"][0].clone();
        if wanted(&status) {
            return status;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "pod {name}'s status: {:#}", pod["status"]);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// An image that cannot be pulled and a container that keeps crashing wait with upstream's
/// reasons; the agent keeps running the rest.
async fn bad_input(admin: &ApiClient) {
    admin.post("/api/v1/namespaces/default/pods", &bound_pod("nope", "nope:v1")).await.unwrap();
    admin.post("/api/v1/namespaces/default/pods", &bound_pod("crash", "crash:v1")).await.unwrap();
    let nope = status_when(admin, "nope", |s| s["state"]["waiting"]["reason"] == "ImagePullBackOff").await;
    let message = nope["state"]["waiting"]["message"].as_str().unwrap();
    assert!(message.starts_with("Back-off pulling image \"nope:v1\": ErrImagePull: rpc error"), "{message}");
    let crash = status_when(admin, "crash", |s| s["state"]["waiting"]["reason"] == "CrashLoopBackOff").await;
    let message = crash["state"]["waiting"]["message"].as_str().unwrap();
    assert!(message.starts_with("back-off 10s restarting failed container=crash pod=crash_default("), "{message}");
    assert_eq!(crash["restartCount"], 1);
    assert_eq!(crash["lastState"]["terminated"]["exitCode"], 1);
    assert_eq!(crash["lastState"]["terminated"]["reason"], "Error");
    admin.post("/api/v1/namespaces/default/pods", &bound_pod("broken", "broken:v1")).await.unwrap();
    let broken = status_when(admin, "broken", |s| s["state"]["waiting"]["reason"] == "CreateContainerError").await;
    assert_eq!(broken["state"]["waiting"]["message"], "no such module");
    let mut unhealthy = bound_pod("unhealthy", "hello:v1");
    unhealthy["spec"]["containers"][0]["livenessProbe"] =
        json!({"exec": {"command": ["false"]}, "periodSeconds": 1, "failureThreshold": 1});
    admin.post("/api/v1/namespaces/default/pods", &unhealthy).await.unwrap();
    status_when(admin, "unhealthy", |s| s["restartCount"].as_i64().unwrap_or(0) >= 1).await;
    let events = admin.get("/api/v1/namespaces/default/events").await.unwrap();
    let about = |name: &str| -> Vec<(String, String)> {
        let items = events["items"].as_array().cloned().unwrap_or_default();
        items
            .iter()
            .filter(|e| e["involvedObject"]["name"] == name)
            .map(|e| (e["reason"].as_str().unwrap_or("").to_string(), e["message"].as_str().unwrap_or("").to_string()))
            .collect()
    };
    let unhealthy = about("unhealthy");
    assert!(unhealthy.contains(&("Unhealthy".into(), "Liveness probe failed: ".into())), "{unhealthy:?}");
    let killing = ("Killing".to_string(), "Container unhealthy failed liveness probe, will be restarted".to_string());
    assert!(unhealthy.contains(&killing), "{unhealthy:?}");
    assert!(about("broken").contains(&("Failed".into(), "Error: no such module".into())));
    for name in ["nope", "crash", "broken", "unhealthy"] {
        admin.delete(&format!("/api/v1/namespaces/default/pods/{name}"), None).await.unwrap();
    }
}

/// A wrong server answer is an error line, not a panic.
#[tokio::test]
async fn a_lab_that_is_not_there_is_named() {
    let client = ApiClient::new("http://127.0.0.1:9", None, "t").unwrap();
    let error = client.get("/api/v1/nodes").await.unwrap_err();
    assert_eq!(error.code, 0);
    assert!(error.message.contains("127.0.0.1:9"), "{}", error.message);
}
