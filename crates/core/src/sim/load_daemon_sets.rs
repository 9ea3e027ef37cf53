//! The DaemonSet benchmark's scenario, beside the engine's: one DaemonSet on a `cluster(N)`,
//! applied at once, then virtual time advanced until its pod runs on every node — the
//! controller's slow-start batches and bursts, the scheduler binding pinned pods and the
//! kubelets starting them.

use super::Sim;
use super::time::Duration;
use crate::api::codec::decode_typed;
use crate::api::{DaemonSet, Pod};

/// What a DaemonSet run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DaemonSetReport {
    /// Pods of the DaemonSet Running.
    pub running: usize,
    /// The DaemonSet's `numberAvailable` at the end.
    pub available: i32,
    /// Virtual time from the apply to every pod Running.
    pub virtual_seconds: u64,
}

/// A node agent on every node: a busybox that sleeps, with a small request.
pub fn apply_daemon_set(sim: &mut Sim) {
    let json = r#"{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"node-agent","namespace":"default"},
        "spec":{"selector":{"matchLabels":{"app":"node-agent"}},"template":{"metadata":{"labels":{"app":"node-agent"}},
        "spec":{"containers":[{"name":"agent","image":"busybox","command":["sh","-c","sleep 3600"],
        "resources":{"requests":{"cpu":"50m","memory":"32Mi"}}}]}}}}"#;
    let ds: DaemonSet = decode_typed(serde_json::from_str(json).expect("valid JSON")).expect("valid DaemonSet");
    sim.store_mut().create(ds).expect("DaemonSet accepted");
    sim.settle();
}

/// Advances time a second at a time (at most an hour) until `nodes` of its pods are Running.
pub fn run_until_running(sim: &mut Sim, nodes: usize) -> DaemonSetReport {
    let start = sim.now();
    let running = |sim: &Sim| sim.store().list::<Pod>(Some("default")).filter(|p| p.phase() == "Running").count();
    for _ in 0..3600 {
        if running(sim) >= nodes {
            break;
        }
        sim.advance(Duration::from_secs(1));
    }
    sim.settle();
    let available = sim.store().get::<DaemonSet>("default", "node-agent").map_or(0, |ds| ds.status.number_available);
    DaemonSetReport { running: running(sim), available, virtual_seconds: sim.now().since(start).as_secs() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::load::cluster;

    #[test]
    fn a_pod_runs_on_every_node() {
        let mut sim = cluster(6);
        apply_daemon_set(&mut sim);
        let report = run_until_running(&mut sim, 6);
        assert_eq!((report.running, report.available), (6, 6), "{report:?}");
    }
}
