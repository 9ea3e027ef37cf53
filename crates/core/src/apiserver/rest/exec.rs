//! `…/pods/<name>/exec` (and `attach`): a command run in a container, as the kubelet runs it
//! for the API server's streaming endpoint, and the `Status` that ends the stream (Success, or
//! NonZeroExitCode with the exit code as kubectl reads it). The server carries the bytes over
//! the WebSocket; this decides what they say. Mirrors pkg/kubelet/cri/streaming/remotecommand.

use crate::api::{Kind, Object, Pod};
use crate::error::ApiError;
use crate::kubectl::exec::run_in;
use crate::sim::Sim;
use crate::store::UserInfo;
use serde_json::{Value, json};

/// The pod and container an exec reaches, checked before the connection is upgraded.
pub fn target(
    sim: &Sim,
    user: &UserInfo,
    (namespace, name): (&str, &str),
    container: Option<&str>,
) -> Result<(Pod, String), ApiError> {
    sim.store().authorize_as(user, ("create", Kind::Pod), namespace, name, "exec")?;
    let Object::Pod(pod) = sim.store().get_object(Kind::Pod, namespace, name)? else {
        return Err(ApiError::not_found("pods", name));
    };
    let container = match container.filter(|c| !c.is_empty()) {
        Some(container) => container.to_string(),
        None => pod.spec.containers.first().map(|c| c.name.clone()).unwrap_or_default(),
    };
    if pod.container(&container).is_none() {
        return Err(ApiError::BadRequest { message: format!("container {container} is not valid for pod {name}") });
    }
    if matches!(pod.phase(), "Succeeded" | "Failed") {
        return Err(ApiError::BadRequest {
            message: format!("cannot exec into a container in a completed pod; current phase is {}", pod.phase()),
        });
    }
    Ok((pod, container))
}

/// Runs `command`: what it printed, and the Status that ends the stream.
pub fn run(sim: &mut Sim, pod: &Pod, container: &str, command: &[String]) -> (String, Value) {
    if command.is_empty() {
        let message = "you must specify at least one command for the container";
        return (
            String::new(),
            json!({"metadata": {}, "status": "Failure", "message": message, "reason": "BadRequest", "code": 400}),
        );
    }
    let ran = run_in(sim, pod, container, command);
    // What the command did (a request that made a pod use more memory) reaches the cluster.
    sim.settle();
    match ran {
        Ok((printed, 0)) => (printed, json!({"metadata": {}, "status": "Success"})),
        Ok((printed, code)) => {
            let message = format!(
                "command terminated with non-zero exit code: error executing command [{}], exit code {code}",
                command.join(" ")
            );
            let status = json!({
                "metadata": {}, "status": "Failure", "message": message, "reason": "NonZeroExitCode",
                "details": {"causes": [{"reason": "ExitCode", "message": code.to_string()}]},
            });
            (printed, status)
        }
        Err(error) => {
            let message = error.trim_start_matches("error: ").to_string();
            let status = json!({
                "metadata": {}, "status": "Failure", "message": message, "reason": "InternalError",
                "details": {"causes": [{"message": message}]}, "code": 500,
            });
            (String::new(), status)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::lab;

    #[test]
    fn an_exec_ends_with_the_status_kubectl_reads_its_exit_code_from() {
        let mut sim = lab("kubectl run client --image=busybox:1.37 -- sleep infinity\nsleep 10s\n");
        let name = "client".to_string();
        let (pod, container) = target(&sim, &UserInfo::admin(), ("default", &name), None).unwrap();
        let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let (_, status) = run(&mut sim, &pod, &container, &argv("ls /nope"));
        assert_eq!(status["reason"], "NonZeroExitCode");
        assert_eq!(status["details"]["causes"][0], json!({"reason": "ExitCode", "message": "1"}));
        let (printed, status) = run(&mut sim, &pod, &container, &argv("echo hi"));
        assert_eq!((printed.as_str(), status["status"].as_str()), ("hi\n", Some("Success")));
        let (_, status) = run(&mut sim, &pod, &container, &argv("nosuchprogram"));
        assert_eq!(status["reason"], "InternalError", "{status}");
        let (_, status) = run(&mut sim, &pod, &container, &[]);
        assert_eq!(status["message"], "you must specify at least one command for the container");
        let missing = target(&sim, &UserInfo::admin(), ("default", &name), Some("nope")).unwrap_err();
        assert_eq!(missing.message(), format!("container nope is not valid for pod {name}"));
    }
}
