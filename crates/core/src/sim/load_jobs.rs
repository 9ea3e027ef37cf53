//! The Jobs benchmark's scenario, beside the engine's: J Jobs × C completions (P at a time),
//! each pod a busybox that sleeps five seconds and exits 0, applied at once on a `cluster(N)`,
//! then virtual time advanced until every Job is Complete — the Job controller's counting
//! through its finalizer, the scheduler and the kubelets all at batch scale.

use super::Sim;
use super::time::Duration;
use crate::api::codec::decode_typed;
use crate::api::{Job, Pod};

/// What a Jobs run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobsReport {
    pub complete: usize,
    /// Pods the Jobs ran (each completion one, failures none).
    pub pods_run: usize,
    /// Virtual time from the apply to the last Job Complete.
    pub virtual_seconds: u64,
}

pub fn apply_jobs(sim: &mut Sim, jobs: usize, completions: usize, parallelism: usize) {
    for i in 0..jobs {
        let json = format!(
            r#"{{"apiVersion":"batch/v1","kind":"Job","metadata":{{"name":"batch-{i:04}","namespace":"default"}},
            "spec":{{"completions":{completions},"parallelism":{parallelism},"template":{{"spec":{{"restartPolicy":"Never",
            "containers":[{{"name":"work","image":"busybox","command":["sh","-c","sleep 5"],
            "resources":{{"requests":{{"cpu":"100m","memory":"64Mi"}}}}}}]}}}}}}}}"#
        );
        let job: Job = decode_typed(serde_json::from_str(&json).expect("valid JSON")).expect("valid job");
        sim.store_mut().create(job).expect("job accepted");
    }
    sim.settle();
}

/// Advances time a second at a time (at most two virtual hours) until `jobs` Jobs are Complete.
pub fn run_until_complete(sim: &mut Sim, jobs: usize) -> JobsReport {
    let start = sim.now();
    let mut complete = 0;
    for _ in 0..7200 {
        complete =
            sim.store().list::<Job>(Some("default")).filter(|j| j.status.condition("Complete").is_some()).count();
        if complete >= jobs {
            break;
        }
        sim.advance(Duration::from_secs(1));
    }
    let pods_run = sim.store().list::<Pod>(Some("default")).filter(|p| p.phase() == "Succeeded").count();
    JobsReport { complete, pods_run, virtual_seconds: sim.now().since(start).as_secs() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::load::cluster;

    #[test]
    fn every_job_completes_each_completion_once() {
        let mut sim = cluster(5);
        apply_jobs(&mut sim, 4, 3, 2);
        let report = run_until_complete(&mut sim, 4);
        assert_eq!((report.complete, report.pods_run), (4, 12), "{report:?}");
    }
}
