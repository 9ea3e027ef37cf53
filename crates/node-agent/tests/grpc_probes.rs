//! gRPC probes for real: a guest whose `grpcHealth` goes from `SERVING` to `NOT_SERVING`,
//! checked by the kubelet's gRPC prober over a real socket (HTTP/2 with prior knowledge), and
//! an HTTP/1-only image, which the prober cannot connect to — upstream's message for each.

use kubelab_core::api::container::{Container, Probe};
use kubelab_node_agent::prober;
use kubelab_wasm_runtime::{ContainerSpec, Runtime, behaviour_for};
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `target/guests/workload.wasm`, or `None` (after saying so) when it has not been built;
/// with `KUBELAB_REQUIRE_GUESTS=1` a missing guest fails the test instead.
fn runtime() -> Option<Runtime> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/guests/workload.wasm");
    if !path.exists() {
        assert!(std::env::var("KUBELAB_REQUIRE_GUESTS").is_err(), "{} is missing", path.display());
        eprintln!("skipped: run scripts/build-guests.sh");
        return None;
    }
    Some(Runtime::new(&path).expect("the guest compiles"))
}

fn spec(ip: IpAddr, behaviour: serde_json::Value) -> ContainerSpec {
    ContainerSpec {
        pod_name: "grpc-1".into(),
        container: "app".into(),
        behaviour,
        argv: Vec::new(),
        env: Vec::new(),
        memory_limit_bytes: None,
        cpu_limit_millicores: None,
        ip,
        ports: Vec::new(),
        wall_clock_cap: Duration::from_secs(5),
        gpus: Vec::new(),
    }
}

fn grpc_probe(port: u16) -> Probe {
    serde_json::from_value(serde_json::json!({"grpc": {"port": port}, "timeoutSeconds": 1})).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grpc_probe_passes_while_serving_and_fails_once_not_serving() {
    let Some(runtime) = runtime() else { return };
    let ip = IpAddr::from([127, 0, 0, 61]);
    let behaviour = serde_json::json!({
        "listen": [{"port": 9090}],
        "grpcHealth": [{"status": "SERVING"}, {"afterMs": 1500, "status": "NOT_SERVING"}],
    });
    let started = Instant::now();
    let container = runtime.start(spec(ip, behaviour)).unwrap();
    let (probe, spec) = (grpc_probe(9090), Container::default());
    let mut result = prober::run(&probe, &spec, "127.0.0.61", None).await;
    for _ in 0..20 {
        if result.is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        result = prober::run(&probe, &spec, "127.0.0.61", None).await;
    }
    assert_eq!(result, None, "SERVING passes");
    assert!(started.elapsed() < Duration::from_millis(1400), "checked before the change: {:?}", started.elapsed());
    tokio::time::sleep(Duration::from_millis(1600).saturating_sub(started.elapsed())).await;
    let result = prober::run(&probe, &spec, "127.0.0.61", None).await;
    assert_eq!(result.as_deref(), Some("service unhealthy (responded with \"NOT_SERVING\")"));
    container.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grpc_probe_of_a_server_without_grpc_times_out_connecting() {
    let Some(runtime) = runtime() else { return };
    let ip = IpAddr::from([127, 0, 0, 62]);
    let mut spec = spec(ip, behaviour_for("hello:v1").unwrap());
    spec.ports = vec![8080];
    let container = runtime.start(spec).unwrap();
    tokio::time::sleep(Duration::from_millis(700)).await;
    let started = Instant::now();
    let result = prober::run(&grpc_probe(8080), &Container::default(), "127.0.0.62", None).await;
    let expected = "timeout: failed to connect service \"127.0.0.62:8080\" within 1s: context deadline exceeded";
    assert_eq!(result.as_deref(), Some(expected));
    assert!(started.elapsed() >= Duration::from_millis(900), "retried until the deadline");
    let refused = prober::run(&grpc_probe(8081), &Container::default(), "127.0.0.62", None).await;
    assert_eq!(refused.as_deref(), Some(expected.replace("8080", "8081").as_str()));
    container.kill();
}
