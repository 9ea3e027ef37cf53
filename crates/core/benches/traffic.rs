//! Simulated requests per second of wall time: the traffic generator at 1,000 requests per
//! second for ten minutes of virtual time against a Service of 500 pods on 50 nodes, every
//! request routed through its client node's kube-proxy rules to a pod's answer. Three rounds.
//! Run: `cargo bench -p kubelab-core --bench traffic` (the wasm32 figure:
//! `node tests/wasm/traffic-bench.mjs`).

use kubelab_core::sim::load;
use std::time::Instant;

fn main() {
    let (nodes, pods, rps, seconds) = (50, 500, 1_000, 600);
    println!("traffic: {pods} pods on {nodes} nodes, {rps} requests/s for {seconds} s of virtual time");
    let mut rates = Vec::new();
    for round in 1..=3 {
        let mut sim = load::cluster(nodes);
        load::serve(&mut sim, pods);
        let started = Instant::now();
        let (requests, ok) = load::traffic(&mut sim, rps, seconds);
        let wall = started.elapsed().as_secs_f64();
        assert_eq!(ok, requests, "every request should succeed on a quiet cluster");
        let rate = requests as f64 / wall;
        rates.push(rate);
        println!("  round {round}: {requests} requests in {wall:.2} s wall: {rate:>10.0} simulated requests/s");
    }
    rates.sort_by(f64::total_cmp);
    println!("  median: {:.0} simulated requests per second of wall time", rates[1]);
}
