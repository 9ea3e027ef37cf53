//! The CPU time a container's guest uses, as cgroups' `cpuacct.usage` counts it: what the
//! kubelet's summary API reports and a lab's quota of CPU-seconds on real machines is held to.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

#[test]
fn a_busy_guest_is_charged_the_cpu_it_spent_and_an_idle_one_almost_none() {
    let Some(runtime) = runtime() else { return };
    let (busy_ip, idle_ip) = (ip(40), ip(41));
    let mut busy = spec("busy", "hello:v1", busy_ip);
    // Every request costs 20 ms of CPU.
    busy.behaviour = json!({
        "millicoresPerRps": 20,
        "listen": [{"port": 8080}],
        "routes": [{"path": "/", "responses": [{"status": 200, "body": "done"}]}],
    });
    let busy = runtime.start(busy).unwrap();
    let idle = runtime.start(spec("idle", "hello:v1", idle_ip)).unwrap();
    assert!(eventually(Duration::from_secs(2), || get(busy_ip, 8080, "/").is_ok()));
    for _ in 0..10 {
        assert_eq!(get(busy_ip, 8080, "/").unwrap().0, 200);
    }
    let (busy_cpu, idle_cpu) = (busy.cpu_usage(), idle.cpu_usage());
    // 11 requests of 20 ms each; a loaded machine's epochs tick late, so half is the floor.
    assert!(busy_cpu >= Duration::from_millis(100), "11 requests of 20 ms each: {busy_cpu:?}");
    assert!(idle_cpu * 4 < busy_cpu, "an idle server: {idle_cpu:?} (busy: {busy_cpu:?})");
    busy.kill();
    assert!(busy.cpu_usage() >= busy_cpu, "the count survives the process");
    idle.kill();
}
