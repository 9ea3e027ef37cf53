//! A container's preStop hook, run for real before its SIGTERM (pkg/kubelet/lifecycle/handlers.go
//! and kuberuntime's `executePreStopHook`): `sleep` waits, `exec` runs the command in the
//! container, `httpGet` sends the GET to the pod. The caller bounds it by the grace period and
//! sends SIGTERM after it, as upstream does; a failed hook is reported and the stop goes on.

use crate::runtime::RunningContainer;
use kubelab_core::api::container::{Container, HttpGetAction, LifecycleHandler};
use std::sync::Arc;
use std::time::Duration;

/// Runs `hook` for `container` of the pod (`pod` as `NAME_NAMESPACE(UID)`); `None` when it
/// succeeded, else the `FailedPreStopHook` event's message, worded as handlers.go words it.
pub async fn pre_stop(
    hook: &LifecycleHandler,
    container: &Container,
    (pod_ip, pod): (&str, &str),
    process: Arc<dyn RunningContainer>,
    grace: Duration,
) -> Option<String> {
    if let Some(sleep) = &hook.sleep {
        tokio::time::sleep(Duration::from_secs(sleep.seconds.max(0) as u64)).await;
        return None;
    }
    if let Some(exec) = &hook.exec {
        let command = exec.command.clone();
        let ran = tokio::task::spawn_blocking(move || process.exec(&command, grace)).await;
        let (output, code) = ran.unwrap_or_else(|e| (e.to_string(), 1));
        return (code != 0).then(|| {
            format!(
                "Exec lifecycle hook ([{}]) for Container {:?} in Pod {pod:?} failed - error: command '{}' exited with {code}: {output}, message: {output:?}",
                exec.command.join(" "),
                container.name,
                exec.command.join(" "),
            )
        });
    }
    let http = hook.http_get.as_ref()?;
    http_get(http, container, pod_ip, grace).await.map(|error| {
        format!(
            "HTTP lifecycle hook ({}) for Container {:?} in Pod {pod:?} failed - error: {error}",
            path(http),
            container.name
        )
    })
}

fn path(http: &HttpGetAction) -> &str {
    http.path.as_deref().unwrap_or("/")
}

/// The hook's GET; `None` for any answer (upstream's hook, unlike a probe, fails only when the
/// request does), else why it failed.
async fn http_get(http: &HttpGetAction, container: &Container, pod_ip: &str, timeout: Duration) -> Option<String> {
    // The prober's request, whose status a hook does not judge.
    crate::prober::http_get_error(http, container, pod_ip, timeout).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::ContainerState;
    use kubelab_core::api::container::{ExecAction, SleepAction};
    use std::sync::Mutex;
    use std::time::SystemTime;

    /// A container that records the commands run in it.
    #[derive(Default)]
    struct Recording(Mutex<Vec<Vec<String>>>);

    impl RunningContainer for Recording {
        fn state(&self) -> ContainerState {
            ContainerState::Running { started_at: SystemTime::now() }
        }
        fn logs(&self) -> Vec<(SystemTime, String)> {
            Vec::new()
        }
        fn exec(&self, argv: &[String], _: Duration) -> (String, i32) {
            self.0.lock().unwrap().push(argv.to_vec());
            if argv[0] == "drain" { (String::new(), 0) } else { ("sh: nope: not found\n".into(), 127) }
        }
        fn stop(&self, _: Duration) {}
        fn kill(&self) {}
    }

    fn container() -> Container {
        Container { name: "web".into(), ..Container::default() }
    }

    #[tokio::test]
    async fn a_pre_stop_hook_sleeps_runs_its_command_or_says_why_it_failed() {
        let process = Arc::new(Recording::default());
        let pod = ("127.0.0.1", "web-1_default(uid)");
        let sleep = LifecycleHandler { sleep: Some(SleepAction { seconds: 1 }), ..LifecycleHandler::default() };
        let started = std::time::Instant::now();
        let web = container();
        assert_eq!(pre_stop(&sleep, &web, pod, process.clone(), Duration::from_secs(5)).await, None);
        assert!(started.elapsed() >= Duration::from_secs(1), "the sleep action waits its seconds");

        let exec = |command: &[&str]| LifecycleHandler {
            exec: Some(ExecAction { command: command.iter().map(|w| w.to_string()).collect() }),
            ..LifecycleHandler::default()
        };
        let (drain, nope, web) = (exec(&["drain", "--now"]), exec(&["nope"]), container());
        assert_eq!(pre_stop(&drain, &web, pod, process.clone(), Duration::from_secs(5)).await, None);
        let failed = pre_stop(&nope, &web, pod, process.clone(), Duration::from_secs(5)).await;
        assert_eq!(
            failed.as_deref(),
            Some(
                "Exec lifecycle hook ([nope]) for Container \"web\" in Pod \"web-1_default(uid)\" failed - error: command 'nope' exited with 127: sh: nope: not found\n, message: \"sh: nope: not found\\n\""
            )
        );
        assert_eq!(*process.0.lock().unwrap(), vec![vec!["drain".to_string(), "--now".into()], vec!["nope".into()]]);
    }
}
