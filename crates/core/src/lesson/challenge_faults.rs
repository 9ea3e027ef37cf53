//! The pod doctor challenge's faults: each breaks one Deployment the way real ones break (a
//! mistyped image, a memory limit below what the app needs, a request no node can hold, a
//! probe asking the wrong port or path, a nodeSelector naming a machine that does not exist),
//! and grades the repair by reading what was wrong, with the wrong fixes a hurried learner tries.

use crate::checks::Check;
use crate::lesson::format::{Task, WrongSolution};

/// One way to break a Deployment, and how its repair is graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    ImageTypo,
    MemoryLimit,
    HugeRequest,
    LivenessPort,
    ReadinessPort,
    MissingNode,
}

impl Fault {
    pub const ALL: [Fault; 6] = [
        Fault::ImageTypo,
        Fault::MemoryLimit,
        Fault::HugeRequest,
        Fault::LivenessPort,
        Fault::ReadinessPort,
        Fault::MissingNode,
    ];

    /// The broken manifest of Deployment `name`.
    pub fn manifest(self, name: &str) -> String {
        let (image, container, pod) = match self {
            Fault::ImageTypo => ("hello:v1.0", String::new(), String::new()),
            Fault::MemoryLimit => ("hello:v1", "resources: {limits: {memory: 8Mi}}".into(), String::new()),
            Fault::HugeRequest => ("hello:v1", "resources: {requests: {cpu: \"8\"}}".into(), String::new()),
            Fault::LivenessPort => (
                "hello:v1",
                "livenessProbe: {httpGet: {path: /healthz, port: 8081}, periodSeconds: 5}".into(),
                String::new(),
            ),
            Fault::ReadinessPort => {
                ("hello:v1", "readinessProbe: {httpGet: {path: /readyz, port: 9090}}".into(), String::new())
            }
            Fault::MissingNode => ("hello:v1", String::new(), "nodeSelector: {kubernetes.io/hostname: node-9}".into()),
        };
        let container = if container.is_empty() { String::new() } else { format!("\n          {container}") };
        let pod = if pod.is_empty() { String::new() } else { format!("\n      {pod}") };
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    \
             matchLabels: {{app: {name}}}\n  template:\n    metadata:\n      labels: {{app: {name}}}\n    spec:{pod}\n      \
             containers:\n        - name: {name}\n          image: {image}\n          ports: [{{containerPort: 8080}}]{container}\n"
        )
    }

    /// The task for Deployment `name` broken this way.
    pub fn task(self, name: &str) -> Task {
        let mut checks = vec![serving(name)];
        checks.extend(self.repair_checks(name));
        Task {
            goal: format!(
                "`{name}` is not serving. Find out why, fix `{name}.yaml` and apply it, until its one pod is Ready \
                 and stays Ready."
            ),
            checks,
            hints: self.hints(name),
            solution: self.solution(name),
            wrong: self.wrong(name),
            waiting: false,
        }
    }

    /// What must be true of the spec once it is repaired (that it serves is checked for all).
    fn repair_checks(self, name: &str) -> Vec<Check> {
        let field =
            |path: &str, rule: &str| check(&format!("field: {{kind: deploy, name: {name}, path: \"{path}\", {rule}}}"));
        let container = ".spec.template.spec.containers[0]";
        match self {
            Fault::ImageTypo => vec![field(&format!("{container}.image"), "equals: hello:v1")],
            Fault::MemoryLimit => vec![field(&format!("{container}.resources.limits.memory"), "at_least: 64Mi")],
            Fault::HugeRequest => {
                vec![field(&format!("{container}.resources.requests.cpu"), "at_least: 100m, at_most: \"1\"")]
            }
            Fault::LivenessPort => vec![field(&format!("{container}.livenessProbe.httpGet.port"), "equals: 8080")],
            Fault::ReadinessPort => vec![field(&format!("{container}.readinessProbe.httpGet.port"), "equals: 8080")],
            Fault::MissingNode => vec![check("gone: {kind: Node, name: node-9}")],
        }
    }

    fn hints(self, name: &str) -> Vec<String> {
        let (look, concept) = match self {
            Fault::ImageTypo => (
                "What does the STATUS column say about the pod, and what do its Events say about pulling?",
                "`ErrImagePull` / `ImagePullBackOff`: the kubelet cannot pull that image; the tag is mistyped.",
            ),
            Fault::MemoryLimit => (
                "How did the container last end? Look at `Last State` in `kubectl describe pod`.",
                "`OOMKilled`, exit code 137: the kernel killed it for going over its memory limit; 8Mi is too little.",
            ),
            Fault::HugeRequest => (
                "Why is the pod still Pending? What do the scheduler's Events say?",
                "`Insufficient cpu`: the pod asks for 8 CPUs and no node has that many; ask for what it uses.",
            ),
            Fault::LivenessPort => (
                "Why does RESTARTS keep climbing? Which probe's failures do the Events show?",
                "The liveness probe asks port 8081, where nothing listens; the app serves on 8080.",
            ),
            Fault::ReadinessPort => (
                "The pod is Running but 0/1 Ready, and never restarts: which probe decides Ready?",
                "The readiness probe asks port 9090, where nothing listens: the pod never counts as Ready, and is never \
                 restarted either (that is liveness).",
            ),
            Fault::MissingNode => (
                "Why is the pod Pending? Which node does its spec ask for?",
                "Its nodeSelector names `node-9`, a machine this cluster does not have; let the scheduler choose.",
            ),
        };
        let fix = match self {
            Fault::ImageTypo => "set the image to `hello:v1`",
            Fault::MemoryLimit => "raise `limits.memory` to `64Mi`",
            Fault::HugeRequest => "set `requests.cpu` to `250m`",
            Fault::LivenessPort => "set the liveness probe's port to `8080`",
            Fault::ReadinessPort => "set the readiness probe's port to `8080`",
            Fault::MissingNode => "delete the `nodeSelector`",
        };
        vec![
            look.to_string(),
            concept.to_string(),
            format!("In `{name}.yaml`, {fix}, then `kubectl apply -f {name}.yaml` and `sleep 30s`."),
        ]
    }

    /// The repaired manifest, applied.
    fn solution(self, name: &str) -> String {
        let fixed = match self {
            Fault::ImageTypo => self.manifest(name).replace("hello:v1.0", "hello:v1"),
            Fault::MemoryLimit => self.manifest(name).replace("memory: 8Mi", "memory: 64Mi"),
            Fault::HugeRequest => self.manifest(name).replace("cpu: \"8\"", "cpu: 250m"),
            Fault::LivenessPort => self.manifest(name).replace("port: 8081", "port: 8080"),
            Fault::ReadinessPort => self.manifest(name).replace("port: 9090", "port: 8080"),
            Fault::MissingNode => {
                self.manifest(name).replace("\n      nodeSelector: {kubernetes.io/hostname: node-9}", "")
            }
        };
        apply(&fixed)
    }

    /// What a hurried doctor tries instead.
    fn wrong(self, name: &str) -> Vec<WrongSolution> {
        // Deleting or restarting the pod leaves the spec as broken as it was, and says so.
        let not_ready = match self {
            Fault::ImageTypo => "image is hello:v1.0",
            Fault::MemoryLimit => "limits.memory is 8Mi",
            Fault::HugeRequest => "requests.cpu is 8",
            Fault::LivenessPort => "livenessProbe.httpGet.port is 8081",
            Fault::ReadinessPort => "readinessProbe.httpGet.port is 9090",
            Fault::MissingNode => "0/1 ready",
        };
        let mut wrong = vec![
            WrongSolution { run: format!("kubectl delete pods -l app={name}\nsleep 30s\n"), says: not_ready.into() },
            WrongSolution {
                run: format!("kubectl rollout restart deployment {name}\nsleep 30s\n"),
                says: not_ready.into(),
            },
        ];
        let broken = self.manifest(name);
        let (run, says) = match self {
            Fault::ImageTypo => (apply(&broken.replace("hello:v1.0", "hello:latest")), "image is hello:latest"),
            Fault::MemoryLimit => (apply(&broken.replace("memory: 8Mi", "memory: 16Mi")), "limits.memory is 16Mi"),
            Fault::HugeRequest => ("lab node add node-big --cpu 16\nsleep 30s\n".to_string(), "requests.cpu is 8"),
            Fault::LivenessPort => (
                apply(&broken.replace(
                    "\n          livenessProbe: {httpGet: {path: /healthz, port: 8081}, periodSeconds: 5}",
                    "",
                )),
                "livenessProbe.httpGet.port is not set",
            ),
            Fault::ReadinessPort => (
                apply(&broken.replace("\n          readinessProbe: {httpGet: {path: /readyz, port: 9090}}", "")),
                "readinessProbe.httpGet.port is not set",
            ),
            Fault::MissingNode => ("lab node add node-9\nsleep 30s\n".to_string(), "node/node-9 still exists"),
        };
        wrong.push(WrongSolution { run, says: says.into() });
        wrong
    }
}

/// The Deployment serves: its one replica is up to date and Ready.
fn serving(name: &str) -> Check {
    check(&format!("deployment: {{name: {name}, replicas: 1, ready_replicas: 1, updated_replicas: 1}}"))
}

/// A check written as a lesson writes it. The texts are this file's own, with names from the
/// challenge's list, and every fault is parsed by the tests, so this never fails at run time.
fn check(yaml: &str) -> Check {
    crate::lesson::from_yaml(yaml).unwrap_or_else(|e| panic!("challenge check {yaml}: {e}"))
}

fn apply(manifest: &str) -> String {
    format!("kubectl apply -f - <<EOF\n{manifest}EOF\nsleep 30s\n")
}
