//! The Job controller on a small cluster: a Job in, its status and pods out after virtual time.

use crate::api::codec::decode_typed;
use crate::api::job::{JOB_COMPLETION_INDEX, JOB_INDEX_FAILURE_COUNT, JOB_TRACKING_FINALIZER};
use crate::api::{Job, Pod};
use crate::sim::Sim;
use crate::sim::load::cluster;
use crate::sim::time::Duration;

/// An Indexed Job of busybox pods running `script` (with `$JOB_COMPLETION_INDEX` set) and the
/// extra spec fields given, run for `seconds` of virtual time on a two-node cluster.
fn run(spec: &str, script: &str, seconds: u64) -> Sim {
    let json = format!(
        r#"{{"apiVersion":"batch/v1","kind":"Job","metadata":{{"name":"work","namespace":"default"}},
        "spec":{{"completionMode":"Indexed",{spec},"template":{{"spec":{{"restartPolicy":"Never",
        "terminationGracePeriodSeconds":2,"containers":[{{"name":"c","image":"busybox",
        "command":["sh","-c",{}]}}]}}}}}}}}"#,
        serde_json::to_string(script).unwrap()
    );
    let job: Job = decode_typed(serde_json::from_str(&json).unwrap()).unwrap();
    let mut sim = cluster(2);
    sim.store_mut().create(job).unwrap();
    sim.settle();
    for _ in 0..seconds {
        sim.advance(Duration::from_secs(1));
    }
    sim
}

/// The Job's status in one line: conditions (type/reason), counts, indexes.
fn status(sim: &Sim) -> String {
    let job = sim.store().try_get::<Job>("default", "work").unwrap();
    let s = &job.status;
    let conditions: Vec<String> =
        s.conditions.iter().map(|c| format!("{}/{}", c.type_, c.reason.as_deref().unwrap_or(""))).collect();
    format!(
        "{} active={} succeeded={} failed={} completed={} failedIndexes={:?}",
        conditions.join(","),
        s.active,
        s.succeeded,
        s.failed,
        s.completed_indexes.as_deref().unwrap_or(""),
        s.failed_indexes
    )
}

/// Each pod of the Job as `index:failure-count:phase`, in creation order.
fn pods(sim: &Sim) -> Vec<String> {
    let mut pods: Vec<&Pod> = sim.store().list::<Pod>(Some("default")).collect();
    pods.sort_by_key(|p| (p.metadata.creation_timestamp, p.metadata.name.clone()));
    let annotation = |p: &Pod, key: &str| p.metadata.annotations.get(key).unwrap_or("-").to_string();
    pods.iter()
        .map(|p| {
            format!("{}:{}:{}", annotation(p, JOB_COMPLETION_INDEX), annotation(p, JOB_INDEX_FAILURE_COUNT), p.phase())
        })
        .collect()
}

const FAIL_INDEX_2: &str = r#"if [ "$JOB_COMPLETION_INDEX" = 2 ]; then exit 1; fi; sleep 5"#;

#[test]
fn an_index_past_its_backoff_limit_fails_the_job_once_the_others_are_done() {
    let sim = run(r#""completions":4,"parallelism":4,"backoffLimitPerIndex":1"#, FAIL_INDEX_2, 60);
    assert_eq!(
        status(&sim),
        r#"FailureTarget/FailedIndexes,Failed/FailedIndexes active=0 succeeded=3 failed=2 completed=0,1,3 failedIndexes=Some("2")"#
    );
    let job = sim.store().try_get::<Job>("default", "work").unwrap();
    assert_eq!(job.spec.backoff_limit, Some(i32::MAX));
    let mut pods = pods(&sim);
    pods.sort();
    assert_eq!(pods, ["0:0:Succeeded", "1:0:Succeeded", "2:0:Failed", "2:1:Failed", "3:0:Succeeded"]);
}

#[test]
fn a_failed_index_waits_for_its_replacement_before_it_is_counted() {
    // Index 2's first pod fails at once and keeps its finalizer, uncounted, through the 10 s
    // back-off; its replacement carries the failure count on, and then it is counted.
    let mut sim = run(r#""completions":4,"parallelism":4,"backoffLimitPerIndex":1"#, FAIL_INDEX_2, 5);
    assert_eq!(status(&sim), r#" active=3 succeeded=0 failed=0 completed= failedIndexes=Some("")"#);
    let first = index_pods(&sim, 2).remove(0);
    assert!(first.metadata.finalizers.iter().any(|f| f == JOB_TRACKING_FINALIZER));
    let failed_at = super::backoff::finished_at(&first);
    sim.advance(Duration::from_secs(30));
    let pods = index_pods(&sim, 2);
    let replaced = sim.store().try_get::<Pod>("default", &first.metadata.name).unwrap();
    assert!(replaced.metadata.finalizers.is_empty());
    let replacement = pods[1].metadata.creation_timestamp.unwrap().0;
    assert_eq!(replacement.since(failed_at), Duration::from_secs(10));
}

/// The pods of one index, oldest first.
fn index_pods(sim: &Sim, index: i32) -> Vec<Pod> {
    let mut pods: Vec<Pod> = sim
        .store()
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.annotations.get(JOB_COMPLETION_INDEX) == Some(index.to_string().as_str()))
        .cloned()
        .collect();
    pods.sort_by_key(|p| p.metadata.creation_timestamp);
    pods
}

#[test]
fn more_failed_indexes_than_allowed_fail_the_job_and_stop_the_rest() {
    let spec = r#""completions":4,"parallelism":4,"backoffLimitPerIndex":0,"maxFailedIndexes":0"#;
    let sim = run(spec, r#"if [ "$JOB_COMPLETION_INDEX" = 1 ]; then exit 1; fi; sleep 60"#, 30);
    assert_eq!(
        status(&sim),
        r#"FailureTarget/MaxFailedIndexesExceeded,Failed/MaxFailedIndexesExceeded active=0 succeeded=0 failed=4 completed= failedIndexes=Some("1")"#
    );
}

#[test]
fn a_fail_index_rule_fails_the_index_at_its_first_failure() {
    let spec = r#""completions":2,"parallelism":2,"backoffLimitPerIndex":5,"podFailurePolicy":{"rules":[
        {"action":"FailIndex","onExitCodes":{"operator":"In","values":[42]}}]}"#;
    let sim = run(spec, r#"if [ "$JOB_COMPLETION_INDEX" = 0 ]; then exit 42; fi; sleep 3"#, 30);
    assert_eq!(
        status(&sim),
        r#"FailureTarget/FailedIndexes,Failed/FailedIndexes active=0 succeeded=1 failed=1 completed=1 failedIndexes=Some("0")"#
    );
}

#[test]
fn a_success_policy_completes_the_job_early_and_stops_the_rest_uncounted() {
    let spec = r#""completions":3,"parallelism":3,"successPolicy":{"rules":[{"succeededIndexes":"0"}]}"#;
    let sim = run(spec, r#"if [ "$JOB_COMPLETION_INDEX" = 0 ]; then exit 0; fi; sleep 600"#, 30);
    assert_eq!(
        status(&sim),
        "SuccessCriteriaMet/SuccessPolicy,Complete/SuccessPolicy active=0 succeeded=1 failed=0 completed=0 failedIndexes=None"
    );
    let job = sim.store().try_get::<Job>("default", "work").unwrap();
    let messages: Vec<&str> = job.status.conditions.iter().filter_map(|c| c.message.as_deref()).collect();
    assert_eq!(messages, ["Matched rules at index 0", "Matched rules at index 0"]);
    assert_eq!(pods(&sim), ["0:-:Succeeded"]);
}
