//! The kubelet's summary API (`GET /stats/summary`, pkg/kubelet/server/stats), the part of it
//! about CPU time: the node's cumulative `usageCoreNanoSeconds` (every container run here,
//! as the root cgroup counts it) and each pod's, by container. The lab's server reads the
//! node's figure to hold a lab to its quota of CPU-seconds on real machines.

use crate::containers::{Containers, PodUsage};
use serde_json::{Value, json};
use std::time::Duration;

/// The summary for `node_name`, stamped with `time` (RFC 3339, the lab's clock).
pub fn summary(node_name: &str, containers: &Containers, time: &str) -> Value {
    let pods: Vec<Value> = containers.pod_usage().iter().map(|pod| pod_stats(pod, time)).collect();
    json!({
        "node": {"nodeName": node_name, "cpu": cpu(containers.node_cpu_usage(), time)},
        "pods": pods,
    })
}

fn pod_stats(pod: &PodUsage, time: &str) -> Value {
    let containers: Vec<Value> =
        pod.containers.iter().map(|(name, used)| json!({"name": name, "cpu": cpu(*used, time)})).collect();
    let total = pod.containers.iter().map(|(_, used)| *used).sum();
    json!({
        "podRef": {"name": pod.name, "namespace": pod.namespace},
        "cpu": cpu(total, time),
        "containers": containers,
    })
}

/// statsapi's `CPUStats`.
fn cpu(used: Duration, time: &str) -> Value {
    json!({"time": time, "usageCoreNanoSeconds": u64::try_from(used.as_nanos()).unwrap_or(u64::MAX)})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{ContainerRuntime, ContainerSpec};
    use crate::testing::FakeRuntime;
    use std::sync::Arc;

    fn start(containers: &Containers, runtime: &FakeRuntime, pod: &str, container: &str) {
        let spec = ContainerSpec {
            pod_name: pod.into(),
            namespace: "default".into(),
            container: container.into(),
            image: "hello:v1".into(),
            argv: vec![],
            env: vec![],
            memory_limit_bytes: None,
            cpu_limit_millicores: None,
            ip: "127.0.0.1".parse().unwrap(),
            ports: vec![],
        };
        containers.started("default", pod, container, Arc::from(runtime.start(spec).unwrap()));
    }

    #[test]
    fn the_node_keeps_counting_what_its_gone_containers_used() {
        let (containers, runtime) = (Containers::default(), FakeRuntime::default());
        runtime.set_cpu_usage(Duration::from_millis(250));
        start(&containers, &runtime, "web-1", "web");
        start(&containers, &runtime, "web-1", "web");
        start(&containers, &runtime, "web-1", "web"); // the first instance is dropped
        start(&containers, &runtime, "job-1", "main");
        containers.forget_pod("default", "job-1");
        let summary = summary("real-a", &containers, "2026-12-05T10:00:00Z");
        assert_eq!(summary["node"]["cpu"]["usageCoreNanoSeconds"], 1_000_000_000u64);
        assert_eq!(summary["pods"].as_array().unwrap().len(), 1);
        assert_eq!(summary["pods"][0]["podRef"]["name"], "web-1");
        assert_eq!(summary["pods"][0]["cpu"]["usageCoreNanoSeconds"], 500_000_000u64);
    }
}
