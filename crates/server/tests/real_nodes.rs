//! Two real machines join a hosted lab as nodes and run its pods for real: `kubelab serve`, two
//! `kubelab-agent`s in network namespaces of their own (on loopback where namespaces cannot be
//! made, which the test prints), and the real kubectl 1.36. A Deployment's four `hello:v1`
//! pods run in wasmtime on the two machines and answer HTTP at their pod IPs; one is
//! OOM-killed through its `/hog` and restarts; one machine is killed with SIGKILL and its pods
//! are replaced on the other after the lab's (shortened) grace period and toleration. Then the
//! same scenario runs in the simulation, and object by object the Events come in the same
//! order with the same reasons. Last, the lab's quota of CPU-seconds on real machines is spent
//! and raised again.

mod support;

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use support::machines::{Machine, Machines, agent_binaries};
use support::up::{kubectl_with, oracle};
use support::{Http, Server, temp_dir};

const WEB: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - {key: kubernetes.io/hostname, operator: In, values: [real-a, real-b]}
      containers:
      - name: web
        image: hello:v1
        ports: [{containerPort: 8080}]
        resources:
          limits: {memory: 64Mi}
";

/// Polls `probe` every half second until it answers or `limit` passes.
fn eventually<T>(what: &str, limit: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(found) = probe() {
            return found;
        }
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(500));
    }
}

struct Lab {
    kubectl: PathBuf,
    config: PathBuf,
}

impl Lab {
    fn run(&self, args: &str, stdin: Option<&str>) -> String {
        let (out, ok) = kubectl_with(&self.kubectl, &self.config, args, stdin);
        assert!(ok, "kubectl {args}: {out}");
        out
    }

    fn json(&self, args: &str) -> Value {
        serde_json::from_str(&self.run(&format!("{args} -o json"), None)).unwrap()
    }

    fn pods(&self) -> Vec<Value> {
        self.json("get pods -l app=web")["items"].as_array().cloned().unwrap_or_default()
    }
}

/// One HTTP GET from the host to a pod, as `wget -qO-` sends it: the status and body.
fn wget(ip: &str, path: &str) -> Option<(u16, String)> {
    let addr: std::net::SocketAddr = format!("{ip}:8080").parse().ok()?;
    let mut stream = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {ip}\r\nUser-Agent: Wget\r\nConnection: close\r\n\r\n").ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let (head, body) = answer.split_once("\r\n\r\n")?;
    Some((head.split_whitespace().nth(1)?.parse().ok()?, body.to_string()))
}

/// An agent on `machine`, joining the lab at `/k8s/<lab>` on the API's `port`.
fn start_agent(
    machine: &Machine,
    (agent, guest): (&Path, &Path),
    (port, lab, token, ca): (u16, &str, &str, &Path),
) -> Child {
    let url = format!("https://{}:{port}/k8s/{lab}", machine.server_ip);
    let mut command = machine.command(agent);
    command
        .args(["--server", &url, "--name", &machine.name, "--tls-server-name", "localhost"])
        .arg("--certificate-authority")
        .arg(ca)
        .arg("--guest")
        .arg(guest)
        .args(["--address", &machine.address.to_string(), "--kubelet-port", &machine.kubelet_port.to_string()])
        .args(["--pod-cidr", &machine.pod_cidr])
        .args(["--pod-network", if machine.netns.is_some() { "lo" } else { "none" }])
        .env("KUBELAB_AGENT_TOKEN", token)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    command.spawn().expect("kubelab-agent starts")
}

#[tokio::test(flavor = "multi_thread")]
async fn two_real_machines_run_a_deployment_lose_one_and_tell_the_same_story_as_the_simulation() {
    let Some(kubectl) = oracle() else { return };
    let Some((agent, guest)) = agent_binaries() else { return };
    let machines = Machines::new(&["real-a", "real-b"]);
    if let Some(why) = &machines.loopback_because {
        eprintln!("the agents share loopback: {why}");
    }
    let dir = temp_dir("real-nodes");
    let bind = if machines.loopback_because.is_some() { "127.0.0.1:0" } else { "0.0.0.0:0" };
    let server = Server::start_with(&format!("sqlite://{}/db.sqlite", dir.display()), &dir, &["--kube-api-addr", bind]);
    let http = Http::new(&server.addr);
    let (lab_id, instructor) = hosted_lab(&http).await;

    let settings = json!({"nodeMonitorGracePeriod": "10s", "defaultTolerationSeconds": 5});
    let set = http.call("PUT", &format!("/api/labs/{lab_id}/node-settings"), Some(&instructor), Some(&settings)).await;
    let expected = json!({"nodeMonitorGracePeriod": "10s", "defaultTolerationSeconds": 5, "cpuSecondsQuota": 3600});
    assert_eq!(set.unwrap().body, expected);
    let join = http.call("POST", &format!("/api/labs/{lab_id}/agent-tokens"), Some(&instructor), None).await.unwrap();
    assert_eq!(join.status, 200, "{}", join.body);
    let ca = dir.join("kubelab-ca.crt");
    std::fs::write(&ca, join.body["caCertificate"].as_str().unwrap()).unwrap();
    let token = join.body["token"].as_str().unwrap().to_string();
    // `0.0.0.0:PORT/k8s/<lab>`, as the server printed it.
    let port: u16 = server.kube_api.split('/').next().unwrap().rsplit(':').next().unwrap().parse().unwrap();
    let mut agents = Agents(
        machines.machines.iter().map(|m| start_agent(m, (&agent, &guest), (port, &lab_id, &token, &ca))).collect(),
    );

    let config = dir.join("owner.config");
    let (status, text) = http.text("POST", &format!("/api/labs/{lab_id}/kubeconfig"), &instructor).await.unwrap();
    assert_eq!(status, 200, "{text}");
    std::fs::write(&config, text).unwrap();
    let lab = Lab { kubectl, config };
    real_run(&lab, &mut agents.0);
    let real = lab.json("get events");
    compare_with_simulation(&real);
    configured_from_the_api(&lab);
    spend_the_cpu_quota(&lab, (&http, &lab_id, &instructor)).await;
    drop(server);
}

/// The agents' processes, killed when the test ends, passing or not.
struct Agents(Vec<Child>);

impl Drop for Agents {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

async fn hosted_lab(http: &Http) -> (String, String) {
    let signup = json!({"email": "ada@example.org", "password": "correct horse", "display_name": "Ada"});
    let instructor = http.call("POST", "/api/instructors", None, Some(&signup)).await.unwrap().cookie();
    let lab = http.call("POST", "/api/labs", Some(&instructor), Some(&json!({}))).await.unwrap();
    assert_eq!(lab.status, 201, "{}", lab.body);
    (lab.body["id"].as_str().unwrap().to_string(), instructor)
}

fn real_run(lab: &Lab, agents: &mut [Child]) {
    eventually("both machines Ready", Duration::from_secs(60), || {
        let nodes = lab.run("get nodes --no-headers", None);
        let ready = |name: &str| nodes.lines().any(|l| l.split_whitespace().take(2).eq([name, "Ready"]));
        (ready("real-a") && ready("real-b")).then_some(())
    });
    lab.run("apply -f -", Some(WEB));
    lab.run("rollout status deployment/web --timeout=120s", None);
    let pods = lab.pods();
    assert_eq!(pods.len(), 4);
    for pod in &pods {
        let name = pod["metadata"]["name"].as_str().unwrap();
        let ip = pod["status"]["podIP"].as_str().unwrap();
        let (status, body) = eventually("the pod answers", Duration::from_secs(10), || wget(ip, "/"));
        assert_eq!((status, body.as_str()), (200, format!("hello from {name} (v1)\n").as_str()));
    }
    oom_kill_one(lab, &pods);
    agents[0].kill().unwrap();
    let _ = agents[0].wait();
    eventually("real-a's pods replaced on real-b", Duration::from_secs(90), || {
        let running: Vec<Value> = lab
            .pods()
            .into_iter()
            .filter(|p| p["metadata"]["deletionTimestamp"].is_null() && p["status"]["phase"] == "Running")
            .collect();
        (running.len() == 4 && running.iter().all(|p| p["spec"]["nodeName"] == "real-b")).then_some(())
    });
}

/// `/hog` on a pod of real-b past its 64Mi limit: exit 137, OOMKilled, restarted.
fn oom_kill_one(lab: &Lab, pods: &[Value]) {
    let pod = pods.iter().find(|p| p["spec"]["nodeName"] == "real-b").expect("a pod on real-b");
    let (name, ip) = (pod["metadata"]["name"].as_str().unwrap(), pod["status"]["podIP"].as_str().unwrap());
    let _ = wget(ip, "/hog?mb=100");
    let status = eventually("the OOM kill", Duration::from_secs(30), || {
        let pod = lab.json(&format!("get pod {name}"));
        let status = pod["status"]["containerStatuses"][0].clone();
        (status["restartCount"].as_i64() >= Some(1)).then_some(status)
    });
    let last = &status["lastState"]["terminated"];
    assert_eq!((last["reason"].as_str(), last["exitCode"].as_i64()), (Some("OOMKilled"), Some(137)), "{status}");
    // The killed instance's output, from the machine's kubelet port.
    let previous = lab.run(&format!("logs {name} --previous"), None);
    assert!(previous.contains("v1 listening on :8080"), "{previous}");
}

/// hello:v2 on real-b, greeting with `$GREETING` from a ConfigMap and a Secret's key in its env.
const GREETER: &str = "apiVersion: v1
kind: Pod
metadata:
  name: greeter
spec:
  nodeName: real-b
  containers:
  - name: hello
    image: hello:v2
    envFrom:
    - configMapRef: {name: greeting}
    env:
    - name: DB_PASSWORD
      valueFrom:
        secretKeyRef: {name: db, key: password}
";

/// A real node's container starts with the env the simulation's would: it waits in
/// CreateContainerConfigError while its ConfigMap is missing, starts once it exists, and
/// greets with the ConfigMap's value.
fn configured_from_the_api(lab: &Lab) {
    lab.run("create secret generic db --from-literal=password=s3cret", None);
    lab.run("apply -f -", Some(GREETER));
    let waiting = eventually("CreateContainerConfigError", Duration::from_secs(30), || {
        let pod = lab.json("get pod greeter");
        let waiting = pod["status"]["containerStatuses"][0]["state"]["waiting"].clone();
        (waiting["reason"] == "CreateContainerConfigError").then_some(waiting)
    });
    assert_eq!(waiting["message"], "configmap \"greeting\" not found", "{waiting}");
    lab.run("create configmap greeting --from-literal=GREETING=hola", None);
    let ip = eventually("the greeter runs", Duration::from_secs(30), || {
        let pod = lab.json("get pod greeter");
        let ip = pod["status"]["podIP"].as_str().map(str::to_string);
        (pod["status"]["phase"] == "Running").then_some(ip).flatten()
    });
    let (status, body) = eventually("the greeter answers", Duration::from_secs(10), || wget(&ip, "/"));
    assert_eq!((status, body.as_str()), (200, "hola from greeter (v2)\n"));
    lab.run("delete pod greeter --wait=false", None);
}

/// A pod that tolerates every taint, bound to real-b by name: only the agent can keep it off.
const SNEAKY: &str = "apiVersion: v1
kind: Pod
metadata:
  name: sneaky
spec:
  nodeName: real-b
  tolerations: [{operator: Exists}]
  containers:
  - name: web
    image: hello:v1
";

/// The lab's quota of CPU-seconds on real machines: what the pods used is counted; a spent
/// quota taints real-b (its pods go, their replacements stay Pending) and its agent refuses a
/// pod that tolerates the taint; raising the quota brings them all back.
async fn spend_the_cpu_quota(lab: &Lab, (http, id, instructor): (&Http, &str, &str)) {
    let start = Instant::now();
    let mut used = cpu_use(http, id, instructor).await;
    while used["usedMillis"].as_u64() == Some(0) && start.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        used = cpu_use(http, id, instructor).await;
    }
    assert!(used["usedMillis"].as_u64() > Some(0), "the pods' CPU time is counted: {used}");
    assert_eq!((used["quotaSeconds"].as_u64(), used["exhausted"].as_bool()), (Some(3600), Some(false)));

    let settings = format!("/api/labs/{id}/node-settings");
    let spent = http.call("PUT", &settings, Some(instructor), Some(&json!({"cpuSecondsQuota": 0}))).await.unwrap();
    assert_eq!(spent.body["cpuSecondsQuota"], 0, "{}", spent.body);
    eventually("real-b tainted and emptied", Duration::from_secs(30), || {
        let taints = lab.json("get node real-b")["spec"]["taints"].clone();
        let tainted =
            taints.as_array().is_some_and(|t| t.iter().any(|t| t["key"] == "kubelab.dev/cpu-quota-exhausted"));
        let on_b = lab.pods().iter().filter(|p| p["spec"]["nodeName"] == "real-b").count();
        (tainted && on_b == 0).then_some(())
    });
    let pending = lab.run("get events --field-selector reason=FailedScheduling", None);
    assert!(pending.contains("untolerated taint {kubelab.dev/cpu-quota-exhausted: true}"), "{pending}");
    lab.run("apply -f -", Some(SNEAKY));
    let refused = eventually("the agent refuses the tolerating pod", Duration::from_secs(30), || {
        let pod = lab.json("get pod sneaky");
        let waiting = pod["status"]["containerStatuses"][0]["state"]["waiting"].clone();
        (waiting["reason"] == "CreateContainerError").then_some(waiting)
    });
    assert!(
        refused["message"].as_str().unwrap().contains("this lab's quota of 0 CPU-seconds on real machines is spent")
    );
    assert_eq!(cpu_use(http, id, instructor).await["exhausted"], true);

    http.call("PUT", &settings, Some(instructor), Some(&json!({"cpuSecondsQuota": 3600}))).await.unwrap();
    eventually("real-b untainted and running again", Duration::from_secs(90), || {
        let taints = lab.json("get node real-b")["spec"]["taints"].clone();
        let untainted =
            !taints.as_array().is_some_and(|t| t.iter().any(|t| t["key"] == "kubelab.dev/cpu-quota-exhausted"));
        let running = lab
            .pods()
            .iter()
            .filter(|p| p["spec"]["nodeName"] == "real-b" && p["status"]["phase"] == "Running")
            .count();
        let sneaky = lab.json("get pod sneaky")["status"]["phase"] == "Running";
        (untainted && running == 4 && sneaky).then_some(())
    });
}

/// The lab's CPU quota and use, as its instructor's page reads them.
async fn cpu_use(http: &Http, id: &str, instructor: &str) -> Value {
    http.call("GET", &format!("/api/labs/{id}/nodes"), Some(instructor), None).await.unwrap().body["cpu"].clone()
}

/// One object's Events' reasons, in order.
type Story = Vec<String>;

/// Per object, the reasons of its Events in the order they came (the order the API server
/// stored them in, which the resourceVersion gives).
fn stories(events: &Value) -> BTreeMap<String, Story> {
    let mut items: Vec<&Value> = events["items"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
    items.sort_by_key(|e| e["metadata"]["resourceVersion"].as_str().and_then(|v| v.parse::<u64>().ok()));
    let mut stories: BTreeMap<String, Story> = BTreeMap::new();
    for event in items {
        let object = &event["involvedObject"];
        let key = format!("{}/{}", object["kind"].as_str().unwrap_or(""), object["name"].as_str().unwrap_or(""));
        let reason = event["reason"].as_str().unwrap_or("");
        // A repeat is one Event counted again (a restart's second `Created`): shown with its count.
        let told = match event["count"].as_i64() {
            Some(count) if count > 1 => format!("{reason} x{count}"),
            _ => reason.to_string(),
        };
        stories.entry(key).or_default().push(told);
    }
    stories
}

/// The same scenario in the simulation: two nodes added by `lab node add`, the same
/// Deployment, one pod of real-b OOM-killed, real-a powered off. Its Events, as `-o json`.
fn simulated_events() -> Value {
    use kubelab_core::cluster::ClusterSpec;
    use kubelab_core::kubectl::MemoryFiles;
    use kubelab_core::script;
    let mut sim = kubelab_core::sim::Sim::new(1, &ClusterSpec::default());
    let mut files = MemoryFiles::new();
    files.insert("web.yaml", WEB);
    let run = |sim: &mut kubelab_core::sim::Sim, line: &str| {
        let steps = script::parse(line).unwrap();
        script::run(sim, &steps, &files, true).text
    };
    run(&mut sim, "lab settings --node-monitor-grace-period 10s --default-toleration-seconds 5");
    run(&mut sim, "lab node add real-a --cpu 2 --memory 4Gi");
    run(&mut sim, "lab node add real-b --cpu 2 --memory 4Gi");
    run(&mut sim, "kubectl apply -f web.yaml");
    run(&mut sim, "sleep 10s");
    let on_b = run(&mut sim, "kubectl get pods -l app=web --field-selector spec.nodeName=real-b -o name");
    let pod = on_b.lines().find_map(|l| l.strip_prefix("pod/")).expect("a pod on real-b").to_string();
    run(&mut sim, &format!("lab pod oom {pod}"));
    run(&mut sim, "sleep 20s");
    run(&mut sim, "lab node power-off real-a");
    run(&mut sim, "sleep 60s");
    let text = run(&mut sim, "kubectl get events -o json");
    serde_json::from_str(text.trim_start_matches(|c| c != '{')).unwrap()
}

/// The stories of the scenario's objects: the Deployment's and ReplicaSet's as they are, the
/// pods' as a sorted list (their names are random), the two machines' by name.
fn scenario_stories(events: &Value) -> (Vec<(String, Story)>, Vec<Story>) {
    let mut named = Vec::new();
    let mut pods = Vec::new();
    for (object, story) in stories(events) {
        let (kind, name) = object.split_once('/').unwrap();
        match kind {
            "Pod" if name.starts_with("web-") => pods.push(story),
            "Deployment" | "ReplicaSet" if name.starts_with("web") => {
                named.push((format!("{kind}/{}", name.split('-').next().unwrap()), story))
            }
            "Node" if name.starts_with("real-") => named.push((object.clone(), story)),
            _ => {}
        }
    }
    pods.sort();
    (named, pods)
}

fn compare_with_simulation(real: &Value) {
    let simulated = simulated_events();
    let (real_named, real_pods) = scenario_stories(real);
    let (sim_named, sim_pods) = scenario_stories(&simulated);
    eprintln!("the real run's stories: {real_named:?} {real_pods:?}");
    assert_eq!(real_named, sim_named);
    assert_eq!(real_pods, sim_pods);
}
