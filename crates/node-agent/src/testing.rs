//! A scripted container runtime for tests: images that exist or fail to pull, containers that
//! run until stopped or exit on cue, with the logs and exec answers the test gives them.

use crate::runtime::{ContainerRuntime, ContainerSpec, ContainerState, RUN_ERROR_PREFIX, RunningContainer};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// What a container of an image does once started.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// Lines it prints at start.
    pub logs: Vec<String>,
    /// Exits on its own after this long, with this code and reason.
    pub exits_after: Option<(Duration, i32, String)>,
    /// `start` fails with this error.
    pub start_error: Option<String>,
    /// The image is on the machine before any pull.
    pub present: bool,
}

/// A runtime whose images are the ones the test names; any other image fails to pull.
#[derive(Clone, Default)]
pub struct FakeRuntime {
    images: Arc<Mutex<BTreeMap<String, Script>>>,
    started: Arc<Mutex<Vec<ContainerSpec>>>,
    containers: Arc<Mutex<Vec<Arc<FakeContainer>>>>,
    /// The CPU time each container started from now on reports.
    cpu_usage: Arc<Mutex<Duration>>,
}

impl std::fmt::Debug for FakeRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeRuntime").finish_non_exhaustive()
    }
}

impl FakeRuntime {
    pub fn new() -> FakeRuntime {
        FakeRuntime::default()
    }

    /// `image` can be pulled; its containers do what `script` says.
    pub fn with_image(self, image: &str, script: Script) -> FakeRuntime {
        self.images.lock().unwrap().insert(image.to_string(), script);
        self
    }

    /// Containers started from now on report `used` as their CPU time.
    pub fn set_cpu_usage(&self, used: Duration) {
        *self.cpu_usage.lock().unwrap() = used;
    }

    /// Every container started so far, in order.
    pub fn started(&self) -> Vec<ContainerSpec> {
        self.started.lock().unwrap().clone()
    }

    /// The last started container of `container` in pod `pod` exits now with `exit_code`.
    pub fn exit(&self, pod: &str, container: &str, exit_code: i32, reason: &str) -> bool {
        let containers = self.containers.lock().unwrap();
        let found = containers.iter().rev().find(|c| c.spec.pod_name == pod && c.spec.container == container);
        found.is_some_and(|c| c.finish(exit_code, reason))
    }
}

impl ContainerRuntime for FakeRuntime {
    fn pull(&self, image: &str) -> Result<(), String> {
        if self.images.lock().unwrap().contains_key(image) {
            return Ok(());
        }
        let reference = full_reference(image);
        Err(format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image {reference:?}: failed to resolve reference {reference:?}: {reference}: not found"
        ))
    }

    fn start(&self, spec: ContainerSpec) -> Result<Box<dyn RunningContainer>, String> {
        let script = self.images.lock().unwrap().get(&spec.image).cloned().unwrap_or_default();
        if let Some(error) = script.start_error {
            return Err(error);
        }
        self.started.lock().unwrap().push(spec.clone());
        let now = SystemTime::now();
        let container = Arc::new(FakeContainer {
            spec,
            started_at: now,
            logs: script.logs.iter().map(|l| (now, l.clone())).collect(),
            ended: Mutex::new(None),
            exits_at: script.exits_after.map(|(after, code, reason)| (now + after, code, reason)),
            cpu_usage: *self.cpu_usage.lock().unwrap(),
        });
        self.containers.lock().unwrap().push(container.clone());
        Ok(Box::new(Handle(container)))
    }

    fn has_image(&self, image: &str) -> bool {
        self.images.lock().unwrap().get(image).is_some_and(|s| s.present)
    }

    fn image_id(&self, image: &str) -> String {
        format!("sha256:{:064x}", image.len())
    }
}

/// `docker.io/library/hello:v1` for `hello:v1`, as containerd names what it failed to pull.
fn full_reference(image: &str) -> String {
    let tagged = if image.rsplit('/').next().is_some_and(|last| last.contains(':')) {
        image.to_string()
    } else {
        format!("{image}:latest")
    };
    match tagged.split_once('/') {
        Some((host, _)) if host.contains('.') || host.contains(':') => tagged,
        Some(_) => format!("docker.io/{tagged}"),
        None => format!("docker.io/library/{tagged}"),
    }
}

struct FakeContainer {
    spec: ContainerSpec,
    started_at: SystemTime,
    logs: Vec<(SystemTime, String)>,
    ended: Mutex<Option<(i32, String, SystemTime)>>,
    exits_at: Option<(SystemTime, i32, String)>,
    cpu_usage: Duration,
}

impl FakeContainer {
    fn finish(&self, exit_code: i32, reason: &str) -> bool {
        let mut ended = self.ended.lock().unwrap();
        if ended.is_some() {
            return false;
        }
        *ended = Some((exit_code, reason.to_string(), SystemTime::now()));
        true
    }
}

struct Handle(Arc<FakeContainer>);

impl RunningContainer for Handle {
    fn state(&self) -> ContainerState {
        let c = &self.0;
        if let Some((at, code, reason)) = &c.exits_at
            && *at <= SystemTime::now()
        {
            c.finish(*code, reason);
        }
        match c.ended.lock().unwrap().clone() {
            None => ContainerState::Running { started_at: c.started_at },
            Some((exit_code, reason, finished_at)) => {
                ContainerState::Exited { exit_code, reason, message: None, started_at: c.started_at, finished_at }
            }
        }
    }

    fn logs(&self) -> Vec<(SystemTime, String)> {
        self.0.logs.clone()
    }

    fn exec(&self, argv: &[String], _timeout: Duration) -> (String, i32) {
        match argv.first().map(String::as_str) {
            Some("true") => (String::new(), 0),
            Some("echo") => (format!("{}\n", argv[1..].join(" ")), 0),
            Some("false") => (String::new(), 1),
            _ => (format!("exec: {:?}: executable file not found in $PATH", argv.join(" ")), 127),
        }
    }

    fn stop(&self, _grace: Duration) {
        self.0.finish(143, "Error");
    }

    fn kill(&self) {
        self.0.finish(137, "Error");
    }

    fn cpu_usage(&self) -> Duration {
        self.0.cpu_usage
    }
}

/// A start error for a container that was created but did not start.
pub fn run_error(message: &str) -> String {
    format!("{RUN_ERROR_PREFIX}{message}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_images_fail_as_containerd_words_it() {
        let runtime = FakeRuntime::new();
        let error = runtime.pull("hello:v9").unwrap_err();
        assert!(error.contains("failed to resolve reference \"docker.io/library/hello:v9\""), "{error}");
        assert_eq!(full_reference("ghcr.io/o/app"), "ghcr.io/o/app:latest");
        assert_eq!(full_reference("me/app:1"), "docker.io/me/app:1");
    }
}
