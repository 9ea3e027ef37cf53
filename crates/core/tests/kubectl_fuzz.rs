//! Seeded random command lines through kubectl and the lab verbs: every one must end in output
//! or an error, never a panic, and a failing line must say something. A failure prints its
//! seed; `KUBELAB_SEED=N cargo test -p kubelab-core --test kubectl_fuzz` reruns one.

use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::{self, Context, MemoryFiles};
use kubelab_core::script;
use kubelab_core::sim::Sim;
use kubelab_core::sim::rng::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Words real commands are made of, plus the odd ones learners type by mistake.
const WORDS: &[&str] = &[
    "get",
    "describe",
    "apply",
    "delete",
    "scale",
    "rollout",
    "status",
    "undo",
    "history",
    "restart",
    "pause",
    "resume",
    "set",
    "image",
    "env",
    "logs",
    "exec",
    "top",
    "create",
    "run",
    "expose",
    "label",
    "annotate",
    "patch",
    "edit",
    "cordon",
    "uncordon",
    "drain",
    "taint",
    "explain",
    "version",
    "api-resources",
    "pods",
    "pod",
    "po",
    "deploy",
    "deployment",
    "deployments.apps",
    "rs",
    "svc",
    "nodes",
    "no",
    "ns",
    "events",
    "ev",
    "cm",
    "secret",
    "endpointslices",
    "hello",
    "node-1",
    "web",
    "deploy/hello",
    "pod/",
    "/",
    "-n",
    "kube-system",
    "-A",
    "-l",
    "app=hello",
    "app in (a,b)",
    "!app",
    "-o",
    "yaml",
    "json",
    "wide",
    "name",
    "jsonpath={.items[*].metadata.name}",
    "custom-columns=N:.x",
    "--replicas=3",
    "--replicas",
    "-1",
    "abc",
    "--to-revision=2",
    "--timeout=5s",
    "--watch=false",
    "-w",
    "-f",
    "-",
    "--grace-period=0",
    "--force",
    "--wait=false",
    "--all",
    "--cascade=orphan",
    "hello=hello:v2",
    "*=nginx",
    "KEY=value",
    "KEY-",
    "--dry-run=client",
    "--image=hello:v1",
    "--port=80",
    "--field-selector",
    "status.phase=Running",
    "--sort-by=.metadata.name",
    "--",
    "sh",
    "-c",
    "echo hi",
    "--previous",
    "-c",
    "nope",
    "key=value:NoSchedule",
    "key:NoSchedule-",
    "--help",
    "-h",
    "",
    " ",
    "\u{1F600}",
    "--=",
    "-",
    "---",
    "--replica",
    "x=y=z",
    "{",
    "[",
    "]",
    "99999999999999999999",
    "-p",
    "{\"spec\":{\"replicas\":2}}",
    "--type=json",
    "[{\"op\":\"bogus\"}]",
];

const SETUP: &str = "kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: hello}
spec:
  replicas: 2
  selector: {matchLabels: {app: hello}}
  template:
    metadata: {labels: {app: hello}}
    spec:
      containers: [{name: hello, image: hello:v1}]
EOF
sleep 10s
";

fn seeds() -> Vec<u64> {
    match std::env::var("KUBELAB_SEED").ok().and_then(|s| s.parse().ok()) {
        Some(seed) => vec![seed],
        None => (1..=200).collect(),
    }
}

fn random_line(rng: &mut Rng) -> Vec<String> {
    let len = 1 + rng.below(7) as usize;
    (0..len).map(|_| WORDS[rng.below(WORDS.len() as u64) as usize].to_string()).collect()
}

#[test]
fn random_command_lines_never_panic() {
    let steps = script::parse(SETUP).expect("setup parses");
    let mut lab = Sim::new(1, &ClusterSpec::default());
    script::run(&mut lab, &steps, &MemoryFiles::new(), true);
    for seed in seeds() {
        let mut rng = Rng::new(seed);
        let mut sim = lab.clone();
        for round in 0..8 {
            let argv = random_line(&mut rng);
            let result = catch_unwind(AssertUnwindSafe(|| {
                let files = MemoryFiles::new();
                let mut ctx = Context { sim: &mut sim, files: &files, stdin: Some("{}") };
                let out = kubectl::run(&mut ctx, &argv);
                // As a host does after every command.
                ctx.sim.settle();
                out
            }));
            let out = result.unwrap_or_else(|_| panic!("seed {seed}, round {round}: `kubectl {argv:?}` panicked"));
            if out.exit_code != 0 {
                assert!(!out.render().trim().is_empty(), "seed {seed}: `kubectl {argv:?}` failed silently");
            }
        }
    }
}

#[test]
fn random_script_lines_never_panic() {
    for seed in seeds() {
        let mut rng = Rng::new(seed);
        let line: Vec<String> = random_line(&mut rng);
        let prefix = ["kubectl", "lab", "lab node", "lab pod", "sleep"][rng.below(5) as usize];
        let text = format!("{prefix} {}\n", line.join(" "));
        let result = catch_unwind(AssertUnwindSafe(|| match script::parse(&text) {
            Ok(steps) => {
                let mut sim = Sim::new(seed, &ClusterSpec::default());
                script::run(&mut sim, &steps, &MemoryFiles::new(), false).exit_code
            }
            Err(_) => 2,
        }));
        assert!(result.is_ok(), "seed {seed}: script line {text:?} panicked");
    }
}
