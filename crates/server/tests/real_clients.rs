//! The real kubectl 1.36 and the Python kubernetes client (installed by `make setup` into
//! target/oracle) against `kubelab up`:
//! discovery, server-side printing, client-side apply, scale, describe, rollout status (a
//! WatchList watch), delete and the API server's errors, each as kubectl prints them.

mod support;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::up::{HELLO_DEPLOYMENT, Up, oracle, oracle_python, split};

const DEPLOYMENT: &str = HELLO_DEPLOYMENT;

#[test]
fn kubectl_1_36_drives_a_lab() {
    let Some(kubectl) = oracle() else { return };
    let started = Instant::now();
    let up = Up::start("oracle");
    let run = |args: &str| up.kubectl(&kubectl, args, None);
    let (nodes, ok) = run("get nodes -o name");
    assert!(ok, "{nodes}");
    eprintln!("kubelab up to the first kubectl get nodes: {} ms", started.elapsed().as_millis());
    assert_eq!(nodes, "node/control-plane\nnode/node-1\nnode/node-2\nnode/node-3\n");
    let (table, _) = run("get nodes");
    let header = table.lines().next().unwrap_or_default();
    assert_eq!(split(header), ["NAME", "STATUS", "ROLES", "AGE", "VERSION"], "{table}");
    assert!(table.contains("control-plane   Ready    control-plane"), "{table}");

    let (applied, ok) = up.kubectl(&kubectl, "apply -f -", Some(DEPLOYMENT));
    assert_eq!((applied.as_str(), ok), ("deployment.apps/web created\n", true));
    let (again, _) = up.kubectl(&kubectl, "apply -f -", Some(DEPLOYMENT));
    assert_eq!(again, "deployment.apps/web unchanged\n");
    let (rolled, ok) = run("rollout status deployment/web --timeout=60s");
    assert!(ok && rolled.ends_with("deployment \"web\" successfully rolled out\n"), "{rolled}");

    let (pods, _) = run("get pods -l app=web");
    let running = pods.lines().skip(1).filter(|l| split(l).get(2).map(String::as_str) == Some("Running")).count();
    assert_eq!(running, 2, "{pods}");
    let (scaled, _) = run("scale deployment web --replicas=3");
    assert_eq!(scaled, "deployment.apps/web scaled\n");
    let (replicas, _) = run("get deployment web -o jsonpath={.spec.replicas}");
    assert_eq!(replicas, "3");
    let (described, ok) = run("describe deployment web");
    assert!(ok && described.contains("Replicas:               3 desired"), "{described}");

    // `kubectl create <generator>` sends protobuf (client-go's typed clients prefer it).
    let created = [
        ("create configmap settings --from-literal=mode=blue", "configmap/settings created\n"),
        ("create secret generic token --from-literal=key=s3cret", "secret/token created\n"),
        ("create namespace team", "namespace/team created\n"),
        ("create deployment api --image=hello:v1 --replicas=2", "deployment.apps/api created\n"),
        ("create service clusterip api --tcp=80:8080", "service/api created\n"),
    ];
    for (args, want) in created {
        assert_eq!(run(args).0, want, "kubectl {args}");
    }
    assert_eq!(run("get secret token -o jsonpath={.data.key}").0, "czNjcmV0");

    let cases = [
        ("get pods nope", "Error from server (NotFound): pods \"nope\" not found\n"),
        ("get widgets", "error: the server doesn't have a resource type \"widgets\"\n"),
        ("delete deployment web", "deployment.apps \"web\" deleted from default namespace\n"),
    ];
    for (args, want) in cases {
        assert_eq!(run(args).0, want, "kubectl {args}");
    }
    // Wall time is the lab's clock: a generous bound, only so a hang fails rather than waits.
    assert!(started.elapsed() < Duration::from_secs(120));
}

/// Drives `kubectl exec -it POD -- sh` through a pseudo-terminal (Python's pty module), typing
/// each line and collecting what the terminal showed.
const PTY_DRIVER: &str = r#"
import os, pty, select, sys, time
argv, lines = sys.argv[1:-1], sys.argv[-1].split("\n")
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
out = b""
def read(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                return
read(1.0)
for line in lines:
    os.write(fd, line.encode() + b"\r")
    read(1.0)
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace").replace("\r\n", "\n"))
sys.exit(os.waitstatus_to_exitcode(status))
"#;

#[test]
fn exec_logs_and_watches_reach_the_lab() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("streams");
    let run = |args: &str| up.kubectl(&kubectl, args, None);
    run("run client --image=busybox:1.37 -- sleep infinity");
    up.kubectl(&kubectl, "apply -f -", Some(DEPLOYMENT));
    run("expose deployment web --port=80 --target-port=8080");
    let (waited, ok) = run("wait --for=condition=Ready pod/client --timeout=60s");
    assert!(ok, "{waited}");
    run("rollout status deployment/web --timeout=60s");
    // kube-proxy programs a new Service's rules 0.5–2 s after its endpoints appear.
    std::thread::sleep(Duration::from_secs(3));

    assert_eq!(run("exec client -- echo hello"), ("hello\n".to_string(), true));
    let (failed, ok) = run("exec client -- sh -c 'exit 3'");
    assert_eq!((failed.as_str(), ok), ("command terminated with exit code 3\n", false));
    // Seed 004 §06's loop, piped into the pod's shell and typed into its terminal.
    let seed_loop = "for i in $(seq 30); do wget -qO- web; done | sort | uniq -c";
    let (counted, _) = up.kubectl(&kubectl, "exec -i client -- sh", Some(seed_loop));
    let total: u32 = counted.lines().filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok()).sum();
    assert_eq!((total, counted.lines().count()), (30, 2), "{counted}");
    let typed = Command::new("python3")
        .args(["-c", PTY_DRIVER, kubectl.to_str().unwrap(), "--kubeconfig"])
        .arg(&up.kubeconfig)
        .args(["exec", "-it", "client", "--", "sh", &format!("echo $HOSTNAME\n{seed_loop}\nexit")])
        .env("HOME", &up.dir)
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&typed.stdout);
    assert!(screen.starts_with("/ # echo $HOSTNAME\nclient\n/ # for i in"), "{screen}");
    assert!(screen.contains(" hello from web-") && screen.ends_with("/ # exit\n"), "{screen}");

    let (pods, _) = run("get pods -l app=web -o name");
    let pod = pods.lines().next().unwrap().to_string();
    let (logs, _) = run(&format!("logs {pod}"));
    assert!(logs.contains("v1 listening on :8080\n"), "{logs}");
    // A watch and a followed log stream until kubectl is stopped.
    let mut watch = Command::new(&kubectl)
        .arg("--kubeconfig")
        .arg(&up.kubeconfig)
        .args(["get", "pods", "-l", "app=web", "-w", "--output-watch-events"])
        .env("HOME", &up.dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    run("scale deployment web --replicas=3");
    std::thread::sleep(Duration::from_secs(4));
    let _ = watch.kill();
    let watched = String::from_utf8_lossy(&watch.wait_with_output().unwrap().stdout).to_string();
    assert!(watched.lines().any(|l| l.starts_with("ADDED") && l.contains("Pending")), "{watched}");
    assert!(watched.lines().any(|l| l.starts_with("MODIFIED") && l.contains("Running")), "{watched}");
}

#[test]
fn diff_and_explain_answer_as_against_a_cluster() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("diff");
    up.kubectl(&kubectl, "apply -f -", Some(DEPLOYMENT));
    let changed = DEPLOYMENT.replace("hello:v1", "hello:v2");
    let (diff, same) = up.kubectl(&kubectl, "diff -f -", Some(&changed));
    assert!(!same, "kubectl diff exits 1 when the live object differs: {diff}");
    let changes: Vec<&str> =
        diff.lines().filter(|l| l.starts_with(['-', '+']) && !l.starts_with("---") && !l.starts_with("+++")).collect();
    assert_eq!(
        changes,
        ["-  generation: 1", "+  generation: 2", "-      - image: hello:v1", "+      - image: hello:v2"],
        "{diff}"
    );
    let (unchanged, same) = up.kubectl(&kubectl, "diff -f -", Some(DEPLOYMENT));
    assert!(same && unchanged.is_empty(), "{unchanged}");
    let (image, _) = up.kubectl(&kubectl, "get deploy web -o jsonpath={.spec.template.spec.containers[0].image}", None);
    assert_eq!(image, "hello:v1", "diff changed nothing (a server-side dry run)");

    // explain reads the lab's OpenAPI; the lab's own kubectl reads its own schema: the same text.
    let (real, ok) = up.kubectl(&kubectl, "explain deployment.spec.strategy", None);
    assert!(ok, "{real}");
    let own = up.owner_call("POST", "/kubelab/run", "kubectl explain deployment.spec.strategy");
    assert_eq!(real, own);
    assert!(
        real.contains("FIELD: strategy <DeploymentStrategy>")
            && real.contains("rollingUpdate\t<RollingUpdateDeployment>"),
        "{real}"
    );
}

/// Runs `kubectl ARGS` for `seconds`, then stops it: what it printed by then.
fn for_a_while(up: &Up, kubectl: &std::path::Path, args: &[&str], seconds: f64) -> String {
    let child = Command::new(kubectl)
        .arg("--kubeconfig")
        .arg(&up.kubeconfig)
        .args(args)
        .env("HOME", &up.dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs_f64(seconds));
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    let output = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr)
}

#[test]
fn attach_and_a_followed_log_stream_what_the_main_process_prints() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("attach");
    let run = |args: &str| up.kubectl(&kubectl, args, None);
    run("run ticker --image=busybox:1.37 -- sh -c 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 1; done'");
    let (waited, ok) = run("wait --for=condition=Ready pod/ticker --timeout=60s");
    assert!(ok, "{waited}");
    std::thread::sleep(Duration::from_secs(2));
    let followed = for_a_while(&up, &kubectl, &["logs", "-f", "ticker"], 3.0);
    assert!(followed.starts_with("tick 1\ntick 2\n"), "logs -f starts from the first line: {followed}");
    let ticks =
        |text: &str| text.lines().filter_map(|l| l.strip_prefix("tick ")?.parse::<u32>().ok()).collect::<Vec<_>>();
    assert!(ticks(&followed).len() >= 4, "and goes on as the process prints: {followed}");
    let attached = for_a_while(&up, &kubectl, &["attach", "ticker"], 3.0);
    let seen = ticks(&attached);
    assert!(seen.len() >= 2, "attach streams the output: {attached}");
    assert!(seen[0] > 3, "from the moment of attaching, not the log's start: {attached}");
}

#[test]
fn the_python_client_creates_watches_scales_and_reads_events() {
    let Some(python) = oracle_python() else { return };
    let up = Up::start("python");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/deployment_lifecycle.py");
    let output = Command::new(python).arg(script).arg(&up.kubeconfig).output().unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{printed}{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(printed, "created web replicas 2\nrunning 2\nscaled to 3\nevent 2 to 3\n");
}

/// Server-side apply as kubectl drives it: the apply owns its fields, `kubectl scale` takes
/// `spec.replicas` (as manager `kubectl`, through the scale subresource), a second apply
/// that would change it is refused with the API server's conflict and kubectl's advice, and
/// `--force-conflicts` takes the field back.
#[test]
fn server_side_apply_owns_fields_and_reports_conflicts() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("ssa");
    let run = |args: &str| up.kubectl(&kubectl, args, None);
    let apply = |args: &str| up.kubectl(&kubectl, args, Some(DEPLOYMENT));
    assert_eq!(apply("apply --server-side -f -"), ("deployment.apps/web serverside-applied\n".to_string(), true));
    assert_eq!(run("scale deployment web --replicas=5"), ("deployment.apps/web scaled\n".to_string(), true));

    let (refused, ok) = apply("apply --server-side -f -");
    assert!(!ok, "{refused}");
    let conflict = "error: Apply failed with 1 conflict: conflict with \"kubectl\" with subresource \"scale\" using apps/v1: .spec.replicas\nPlease review the fields above--they currently have other managers. Here\nare the ways you can resolve this warning:\n* If you intend to manage all of these fields, please re-run the apply\n  command with the `--force-conflicts` flag.\n";
    assert!(refused.starts_with(conflict), "{refused}");
    assert!(
        refused.ends_with("See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts\n"),
        "{refused}"
    );
    let (replicas, _) = run("get deployment web -o jsonpath={.spec.replicas}");
    assert_eq!(replicas, "5");

    let forced = apply("apply --server-side --force-conflicts -f -");
    assert_eq!(forced, ("deployment.apps/web serverside-applied\n".to_string(), true));
    let (replicas, _) = run("get deployment web -o jsonpath={.spec.replicas}");
    assert_eq!(replicas, "2");

    let (plain, _) = run("get deployment web -o yaml");
    assert!(!plain.contains("managedFields"), "{plain}");
    let (shown, ok) = run("get deployment web -o yaml --show-managed-fields");
    assert!(ok && shown.contains("  managedFields:\n  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n"), "{shown}");
    assert!(shown.contains("    manager: kubectl\n    operation: Apply\n"), "{shown}");
    assert!(shown.contains("        f:replicas: {}\n"), "{shown}");
    assert!(!shown.contains("subresource: scale"), "the scaler lost its only field: {shown}");
}
