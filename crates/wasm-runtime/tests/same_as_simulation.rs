//! The same image behaves the same in the simulation and on a real node: hello:v1's answers
//! and log lines from the guest, against what kubelab-core's `Workload` computes for it.

mod common;

use common::*;
use kubelab_core::api::container::Container as ContainerSpec;
use kubelab_core::sim::time::{Duration as SimDuration, SimTime};
use kubelab_core::workload::{Catalogue, ProcessState};
use kubelab_wasm_runtime::behaviour_for;
use std::time::Duration;

/// `2025/01/01 00:00:03` → `<time>`: the simulation's clock is virtual, the node's is real.
fn without_time(line: &str) -> String {
    let stamp = |s: &str| {
        s.len() >= 19
            && s.char_indices().take(19).all(|(i, c)| match i {
                4 | 7 => c == '/',
                10 => c == ' ',
                13 | 16 => c == ':',
                _ => c.is_ascii_digit(),
            })
    };
    match line {
        _ if stamp(line) => format!("<time>{}", &line[19..]),
        _ => line.to_string(),
    }
}

#[test]
fn hello_v1_answers_and_logs_as_the_simulation_says() {
    let Some(runtime) = runtime() else { return };
    let workload = Catalogue::builtin().resolve("hello:v1").unwrap().workload;
    let pod = "hello-5d7c8";
    let container_spec = ContainerSpec { name: "app".into(), ..Default::default() };
    let ip = ip(31);
    let container = runtime.start(spec(pod, "hello:v1", ip)).unwrap();
    assert!(eventually(Duration::from_secs(2), || get(ip, 8080, "/").is_ok()));
    std::thread::sleep(Duration::from_millis(3_100));

    let since = SimDuration::from_secs(4);
    for path in ["/", "/healthz", "/readyz", "/missing", "/hog?mb=1", "/hog"] {
        let simulated = workload.respond(&container_spec, path, 8080, pod, since).unwrap();
        assert_eq!(get(ip, 8080, path).unwrap(), (simulated.status, simulated.body), "{path}");
    }

    container.stop(Duration::from_secs(5));
    let sigterm_after = Some(since);
    let state = ProcessState { sigterm_after, ..Default::default() };
    let simulated = workload.logs(&container_spec, pod, SimTime::ZERO, since, state);
    let real: Vec<String> = container.logs().into_iter().map(|(_, line)| without_time(&line)).collect();
    let simulated: Vec<String> = simulated.iter().map(|line| without_time(line)).collect();
    assert_eq!(real, simulated);
    let exit = workload.on_sigterm();
    assert_eq!(container.state().exit_code(), Some(exit.exit_code));
}

#[test]
fn an_image_the_registry_lacks_fails_to_pull_as_in_the_simulation() {
    let err = behaviour_for("hello:v9").unwrap_err();
    assert_eq!(err.reason(), "ErrImagePull");
    assert!(err.message().contains("docker.io/library/hello:v9: not found"), "{}", err.message());
    assert_eq!(behaviour_for("nginz").unwrap_err().reason(), "ErrImagePull");
    assert!(behaviour_for("myrepo/api:2.1").is_ok(), "a learner's own image is the default image");
}
