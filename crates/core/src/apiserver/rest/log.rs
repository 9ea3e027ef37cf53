//! `GET …/pods/<name>/log`: a container's lines as the kubelet serves them through the API
//! server (`container`, `previous`, `tailLines`, `sinceSeconds`, `timestamps`), in
//! `text/plain`; with `follow=true` the server keeps the stream open and sends lines as the
//! container prints them. Mirrors pkg/registry/core/pod/rest/log.go.

use super::query::Query;
use super::{HttpResponse, Stream};
use crate::api::Pod;
use crate::error::ApiError;
use crate::kubectl::logs::{Options, container_logs};
use crate::sim::Sim;
use crate::sim::time::Duration;

/// A followed log: which container, and how many of its lines were sent.
#[derive(Clone, Debug, PartialEq)]
pub struct LogFollow {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub timestamps: bool,
    pub sent: usize,
}

/// The kubelet's refusal, as the API server passes it on (without kubectl's wording around it).
fn bad(message: String) -> ApiError {
    let message = message.trim_start_matches("error: ").trim_start_matches("Error from server (BadRequest): ");
    ApiError::BadRequest { message: message.to_string() }
}

fn pod(sim: &Sim, namespace: &str, name: &str) -> Result<Pod, ApiError> {
    sim.store().try_get::<Pod>(namespace, name).cloned().ok_or_else(|| ApiError::not_found("pods", name))
}

/// The log request's answer: the lines so far, and a stream to follow when asked.
pub fn serve(sim: &Sim, namespace: &str, name: &str, query: &Query) -> Result<HttpResponse, ApiError> {
    let pod = pod(sim, namespace, name)?;
    let container = match query.get("container").filter(|c| !c.is_empty()) {
        Some(container) => container.to_string(),
        None if pod.spec.containers.len() == 1 => pod.spec.containers[0].name.clone(),
        None => {
            let names: Vec<&str> = pod.spec.containers.iter().map(|c| c.name.as_str()).collect();
            return Err(ApiError::BadRequest {
                message: format!(
                    "a container name must be specified for pod {name}, choose one of: [{}]",
                    names.join(" ")
                ),
            });
        }
    };
    let options = Options {
        previous: query.flag("previous"),
        tail: query.number("tailLines")?.filter(|n| *n >= 0).map(|n| n as usize),
        since: query.number("sinceSeconds")?.filter(|s| *s > 0).map(|s| Duration::from_secs(s as u64)),
        timestamps: query.flag("timestamps"),
        prefix: false,
    };
    let lines = container_logs(sim, &pod, &container, &options).map_err(bad)?;
    let mut body = String::new();
    for line in &lines {
        body.push_str(line);
        body.push('\n');
    }
    let follow = query.flag("follow") && !options.previous;
    let stream = follow.then(|| {
        // Every line the container has printed so far counts as sent, tail or not.
        let all = container_logs(sim, &pod, &container, &Options::default()).map_or(0, |l| l.len());
        Stream::Log(LogFollow {
            namespace: namespace.into(),
            pod: name.into(),
            container,
            timestamps: options.timestamps,
            sent: all,
        })
    });
    Ok(HttpResponse { status: 200, content_type: "text/plain", body, stream, warnings: Vec::new() })
}

/// The lines printed since the last poll, and whether the stream ends (the container stopped
/// running, or the pod is gone).
pub fn poll(sim: &Sim, follow: &mut LogFollow) -> (String, bool) {
    let Ok(pod) = pod(sim, &follow.namespace, &follow.pod) else { return (String::new(), true) };
    let options = Options { timestamps: follow.timestamps, ..Options::default() };
    let Ok(lines) = container_logs(sim, &pod, &follow.container, &options) else { return (String::new(), true) };
    let mut text = String::new();
    for line in lines.iter().skip(follow.sent) {
        text.push_str(line);
        text.push('\n');
    }
    follow.sent = follow.sent.max(lines.len());
    let running = pod.container_status(&follow.container).is_some_and(|s| s.state.running.is_some());
    (text, !running)
}
