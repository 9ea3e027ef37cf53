//! A machine joins a lab as a node, through the real kubectl 1.36: the owner makes a bootstrap
//! token, the token joins one name (and nothing else: it reads nothing), the node's credential
//! may do what a kubelet does and no more, and every wrong join is refused in the API server's
//! words. The API server's reads of the node's pods go to the machine's kubelet port.

mod support;

use support::up::{Up, oracle};

fn with_token(up: &Up, name: &str, token: &str) -> std::path::PathBuf {
    let owner = std::fs::read_to_string(&up.kubeconfig).unwrap();
    let current = owner.lines().find_map(|l| l.trim().strip_prefix("token: ")).unwrap().to_string();
    let path = up.dir.join(format!("{name}.config"));
    std::fs::write(&path, owner.replace(&current, token)).unwrap();
    path
}

fn join_body(up: &Up, name: &str, address: &str) -> String {
    let path = up.dir.join(format!("join-{name}-{address}.json"));
    std::fs::write(&path, format!(r#"{{"name":"{name}","address":"{address}","kubeletPort":1}}"#)).unwrap();
    format!("create --raw /kubelab/agents/join -f {}", path.display())
}

const REAL_NODE: &str = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"real-1","labels":{"kubernetes.io/hostname":"real-1"}},
"status":{"capacity":{"cpu":"2","memory":"4Gi","pods":"110"},"allocatable":{"cpu":"2","memory":"4Gi","pods":"110"},
"addresses":[{"type":"InternalIP","address":"127.0.0.1"}],"daemonEndpoints":{"kubeletEndpoint":{"Port":1}},
"conditions":[{"type":"Ready","status":"True","reason":"KubeletReady","message":"kubelet is posting ready status"}]}}"#;

#[test]
fn a_bootstrap_token_joins_one_machine_whose_credential_is_a_kubelets() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("agents-join");
    let (bootstrap, _) = up.kubeconfig_for("agents", "bootstrap");
    let (read, ok) = up.kubectl_with(&bootstrap, &kubectl, "get pods", None);
    assert!(!ok && read.contains("User \"system:bootstrap:"), "a bootstrap token reads nothing: {read}");

    let (answer, ok) = up.kubectl_with(&bootstrap, &kubectl, &join_body(&up, "real-1", "127.0.0.1"), None);
    assert!(ok, "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["user"], "system:node:real-1");
    assert_eq!(answer["podCIDR"], "10.244.128.0/24");
    let node = with_token(&up, "real-1", answer["token"].as_str().unwrap());

    // Another machine may not take the name, nor a simulated node's; the owner's token joins nothing.
    let (taken, ok) = up.kubectl_with(&bootstrap, &kubectl, &join_body(&up, "real-1", "127.0.0.2"), None);
    assert!(!ok, "{taken}");
    assert_eq!(
        taken,
        "Error from server (AlreadyExists): node \"real-1\" has already joined this lab from 127.0.0.1:1; a machine may not take another node's name\n"
    );
    let (simulated, _) = up.kubectl(&kubectl, "get nodes -o name", None);
    let simulated = simulated.lines().next().unwrap().trim_start_matches("node/").to_string();
    let (refused, _) = up.kubectl_with(&bootstrap, &kubectl, &join_body(&up, &simulated, "127.0.0.3"), None);
    assert!(refused.contains("a simulated node of this lab has that name"), "{refused}");
    let (owner, _) = up.kubectl(&kubectl, &join_body(&up, "real-2", "127.0.0.4"), None);
    assert!(owner.contains("only a bootstrap token joins a node"), "{owner}");

    // A lab with a real machine keeps to the wall clock: its owner may not step it.
    let step = up.dir.join("step.json");
    std::fs::write(&step, r#"{"step":"30s"}"#).unwrap();
    let (stepped, ok) = up.kubectl(&kubectl, &format!("create --raw /kubelab/clock -f {}", step.display()), None);
    assert!(
        !ok && stepped.contains("this lab has real nodes (real-1): its clock runs with the wall clock"),
        "{stepped}"
    );

    // The credential is a kubelet's: its own Node, reads of pods, no Secrets, no Deployments.
    let node_file = up.dir.join("node.json");
    std::fs::write(&node_file, REAL_NODE).unwrap();
    let (created, ok) = up.kubectl_with(&node, &kubectl, &format!("create -f {}", node_file.display()), None);
    assert_eq!((created.as_str(), ok), ("node/real-1 created\n", true));
    let (other, _) = up.kubectl_with(&node, &kubectl, "label node control-plane x=y", None);
    assert!(other.contains("node \"real-1\" is not allowed to modify node \"control-plane\""), "{other}");
    let (secrets, _) = up.kubectl_with(&node, &kubectl, "get secrets -A", None);
    assert!(secrets.contains("User \"system:node:real-1\" cannot list resource \"secrets\""), "{secrets}");
    let (pods, ok) = up.kubectl_with(&node, &kubectl, "get pods -A -o name", None);
    assert!(ok, "{pods}");

    // A pod bound to the machine: its logs are asked of the machine's kubelet port, closed here.
    let (ran, ok) =
        up.kubectl(&kubectl, "run web --image=hello:v1 --overrides={\"spec\":{\"nodeName\":\"real-1\"}}", None);
    assert!(ok, "{ran}");
    let running = r#"{"status":{"phase":"Running","containerStatuses":[{"name":"web","image":"hello:v1","imageID":"","ready":true,"restartCount":0,"state":{"waiting":null,"running":{}}}]}}"#;
    let patch = format!("patch pod web --subresource=status --type=merge -p {running}");
    let (patched, ok) = up.kubectl_with(&node, &kubectl, &patch, None);
    assert!(ok, "the kubelet posts its pod's status: {patched}");
    let (logs, ok) = up.kubectl(&kubectl, "logs web", None);
    assert!(!ok, "{logs}");
    assert!(logs.contains("dial tcp 127.0.0.1:1: connect: connection refused"), "{logs}");
}
