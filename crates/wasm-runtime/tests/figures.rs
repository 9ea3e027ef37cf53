//! What a container costs, printed (`cargo test -p kubelab-wasm-runtime --test figures --
//! --ignored --nocapture`): module compile time, start to listening, memory per container.

mod common;

use common::*;
use kubelab_wasm_runtime::Runtime;
use std::time::{Duration, Instant};

/// The process's resident memory, in KiB (Linux).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or("VmRSS: 0 kB");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
}

#[test]
#[ignore = "prints figures; run by hand"]
fn figures() {
    let Some(path) = guest() else { return };
    println!("guest: {} bytes", std::fs::metadata(&path).unwrap().len());
    let compiling = Instant::now();
    let runtime = Runtime::new(&path).unwrap();
    println!("module compile: {:?}", compiling.elapsed());

    let mut starts = Vec::new();
    let before = rss_kib();
    let mut containers = Vec::new();
    for i in 0..20u8 {
        let ip = ip(100 + i);
        let mut spec = spec(&format!("web-{i}"), "hello:v1", ip);
        spec.behaviour["listen"][0]["afterMs"] = 0.into();
        let starting = Instant::now();
        let container = runtime.start(spec).unwrap();
        let instantiated = starting.elapsed();
        assert!(eventually(Duration::from_secs(2), || std::net::TcpStream::connect((ip, 8080)).is_ok()));
        starts.push((instantiated, starting.elapsed()));
        containers.push(container);
    }
    std::thread::sleep(Duration::from_millis(200));
    let per_container = (rss_kib() - before) / 20;
    let (first_start, first_listen) = starts[0];
    let mean_listen = starts.iter().map(|(_, l)| *l).sum::<Duration>() / 20;
    println!(
        "start (instantiate + init + start): first {first_start:?}; start to listening: first {first_listen:?}, mean {mean_listen:?}"
    );
    println!("resident memory per idle hello:v1 container: {per_container} KiB");
    println!("linear memory of one: {} KiB", containers[0].peak_memory_bytes() / 1024);
    containers.iter().for_each(|c| c.kill());
    println!("linear memory of one (after exit): {} KiB", containers[0].peak_memory_bytes() / 1024);
}
