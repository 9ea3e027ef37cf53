//! A hosted lab's Kubernetes API, served on the lab's own thread. What changes the lab is run
//! as a script line and kept with the lab's scripts: a write as `lab api …` (the request as the
//! client sent it), the wall clock's advance as `sleep …`. So every watcher and every replay
//! of the lab sees what real clients did, at the moment they did it; a command run through
//! exec is a `lab api-exec` line for the same reason. Reads, watches, logs and attach are
//! served from the simulation directly: they change nothing.

use crate::kube_api::lab::{self, Clock, Work};
use kubelab_core::apiserver::rest::HttpResponse;
use kubelab_core::error::ApiError;
use kubelab_core::lesson::LessonLab;
use kubelab_core::script::lab_api;
use kubelab_core::sim::time::{Duration as SimDuration, SimTime};
use kubelab_wire::Entry;
use std::time::Instant;

/// Virtual time is caught up with the wall clock once it is this far behind (each catch-up is
/// a line in the lab's log, so not at every request).
const CATCH_UP_EVERY: SimDuration = SimDuration::from_secs(1);

/// Ends a `sleep` that only kept the lab with the wall clock (a comment to the script), so
/// the lab's page can leave it out of the transcript.
pub const CLOCK_MARK: &str = kubelab_wire::CLOCK_MARK;

/// Where the lab's clock stood when its API was first used: from then on virtual time follows
/// the wall clock (1×), never going back (a `sleep` in a script runs ahead of it).
#[derive(Default)]
pub struct WallClock {
    anchor: Option<(SimTime, Instant)>,
}

/// Keeps a line the thread ran with the lab's scripts and tells the watchers.
pub trait Recorder {
    /// Whether the lab's log has room for `bytes` more.
    fn has_room(&self, bytes: usize) -> bool;
    fn keep(&self, script: String, entries: Vec<Entry>);
}

/// One piece of API work on a hosted lab's thread.
pub fn turn(lab: &mut LessonLab, clock: &mut WallClock, work: Work, recorder: &dyn Recorder) {
    catch_up(lab, clock, recorder);
    match work {
        Work::Serve(request, user, reply) if request.borrow().is_write() => {
            let line = lab_api::line(&user, &request.borrow());
            let answer = if recorder.has_room(line.len()) {
                // A kubelet's reports (its Lease every 10 s, its pods' status) change the lab
                // like any write, but would drown the transcript a class reads.
                let quiet = user.node_name().is_some();
                run_recorded(lab, line, recorder, quiet)
            } else {
                HttpResponse::from_error(ApiError::Forbidden {
                    message: "this lab's log of changes is full; start a new lab".into(),
                })
            };
            let _ = reply.send(answer);
        }
        Work::Exec(run, reply) => {
            let target = (run.pod.metadata.namespace.as_str(), run.pod.metadata.name.as_str(), run.container.as_str());
            let line = lab_api::exec_line(&run.user, target, &run.argv);
            let answer = if recorder.has_room(line.len()) { run_exec(lab, line, recorder) } else { log_full_exec() };
            let _ = reply.send(answer);
        }
        work @ (Work::Serve(..)
        | Work::Open(..)
        | Work::Poll(..)
        | Work::Close(..)
        | Work::Follow(..)
        | Work::ExecTarget(..)) => {
            // Reads change nothing; served as a paused lab serves them (no time passes here).
            let mut anchor = (lab.sim().now(), Instant::now());
            lab::turn(lab.sim_mut(), (&mut Clock::Paused, &mut anchor), work);
        }
        Work::Clock(_, reply) => {
            let _ = reply.send((Clock::Running(1.0), lab.sim().now()));
        }
        // A node joining (its agent's connection), or the ticker keeping a lab with real
        // nodes at the wall clock: nothing here is kept, as nothing here changes the lab.
        Work::OnThread(step) => step(lab.sim_mut()),
        // The owner's clock and script endpoints belong to `kubelab up`; a hosted lab's owner
        // runs scripts from the lab's page. Dropping the work answers its caller 503.
        _ => {}
    }
}

/// Runs a write as its `lab api` line and keeps the line; the answer it printed.
fn run_recorded(lab: &mut LessonLab, line: String, recorder: &dyn Recorder, quiet: bool) -> HttpResponse {
    let ran = lab.run_as_learner(&line).ok().and_then(|mut ran| ran.pop());
    let Some(answer) = lab.sim_mut().take_api_answer().map(lab_api::from_host_answer) else {
        let message = format!("the lab could not run the request: {}", ran.map(|r| r.output).unwrap_or_default());
        return HttpResponse::from_error(ApiError::BadRequest { message });
    };
    let printed = ran.map(|r| r.output).unwrap_or_default();
    let summary = Entry { command: summary_of(&line), output: printed, succeeded: answer.status < 400 };
    recorder.keep(line, if quiet { Vec::new() } else { vec![summary] });
    answer
}

/// Runs a command as its `lab api-exec` line and keeps the line: what it printed and the
/// Status that ends the exec's stream.
fn run_exec(lab: &mut LessonLab, line: String, recorder: &dyn Recorder) -> (String, serde_json::Value) {
    let ran = lab.run_as_learner(&line).ok().and_then(|mut ran| ran.pop());
    let answer = lab.sim_mut().take_api_answer().and_then(|a| serde_json::from_str::<serde_json::Value>(&a.body).ok());
    let Some(answer) = answer else {
        let message = ran.map(|r| r.output).unwrap_or_default();
        return (String::new(), failure(message.trim().trim_start_matches("error: ")));
    };
    let printed = ran.map(|r| r.output).unwrap_or_default();
    let user = kubelab_core::script::words::split(&line).ok().and_then(|w| w.get(3).cloned()).unwrap_or_default();
    let summary = Entry {
        command: format!("# {user}: kubectl exec"),
        output: printed,
        succeeded: answer["status"]["status"] == "Success",
    };
    recorder.keep(line, vec![summary]);
    (answer["output"].as_str().unwrap_or_default().to_string(), answer["status"].clone())
}

fn log_full_exec() -> (String, serde_json::Value) {
    (String::new(), failure("this lab's log of changes is full; start a new lab"))
}

/// The Status that ends an exec's stream when the command could not run.
fn failure(message: &str) -> serde_json::Value {
    serde_json::json!({"metadata": {}, "status": "Failure", "message": message, "reason": "InternalError", "code": 500})
}

/// How the transcript shows a client's write: who, the method and what it names, kubectl's
/// way (`# ada: PATCH deployments.apps/web/scale -n default`), without the body.
fn summary_of(line: &str) -> String {
    use kubelab_core::apiserver::rest::path::{Target, parse};
    let words = kubelab_core::script::words::split(line).unwrap_or_default();
    let user = words.iter().skip_while(|w| *w != "--user").nth(1).cloned().unwrap_or_default();
    let method_at = words.iter().position(|w| w.chars().all(|c| c.is_ascii_uppercase())).unwrap_or(words.len());
    let method = words.get(method_at).map(String::as_str).unwrap_or_default();
    let path = words.get(method_at + 1).map(|t| t.split('?').next().unwrap_or(t)).unwrap_or_default();
    let named = match parse(path) {
        Some(Target::Resource(r)) => {
            let mut named = if r.group.is_empty() { r.resource.clone() } else { format!("{}.{}", r.resource, r.group) };
            for part in [&r.name, &r.subresource].into_iter().filter(|p| !p.is_empty()) {
                named.push('/');
                named.push_str(part);
            }
            if !r.namespace.is_empty() {
                named.push_str(&format!(" -n {}", r.namespace));
            }
            named
        }
        _ => path.to_string(),
    };
    format!("# {user}: {method} {named}")
}

/// Lets virtual time catch up with the wall clock, as a `sleep` kept with the scripts.
fn catch_up(lab: &mut LessonLab, clock: &mut WallClock, recorder: &dyn Recorder) {
    let now = lab.sim().now();
    let (at, since) = *clock.anchor.get_or_insert((now, Instant::now()));
    let target = at.plus(SimDuration::from_millis(since.elapsed().as_millis() as u64));
    if target < now.plus(CATCH_UP_EVERY) {
        return;
    }
    let most = lab.sim().store().limits().max_sleep;
    let behind = SimDuration::from_millis(target.since(now).as_millis().min(most.as_millis()));
    let line = format!("sleep {}ms {CLOCK_MARK}", behind.as_millis());
    if !recorder.has_room(line.len()) {
        return;
    }
    if lab.run_as_learner(&line).is_ok() {
        recorder.keep(line, Vec::new());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_shown_by_who_sent_it_and_where() {
        let line = "lab api --user 'alice' --group 'system:authenticated' 'POST' '/api/v1/namespaces/default/configmaps?fieldManager=kubectl' 'application/json' e30=";
        assert_eq!(summary_of(line), "# alice: POST configmaps -n default");
        let scale = "lab api --user 'ada' 'PATCH' '/apis/apps/v1/namespaces/default/deployments/web/scale' 'application/merge-patch+json' e30=";
        assert_eq!(summary_of(scale), "# ada: PATCH deployments.apps/web/scale -n default");
    }
}
