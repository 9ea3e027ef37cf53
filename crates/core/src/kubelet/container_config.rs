//! What the kubelet prepares before a pod's containers start and while they run: its volumes
//! set up (`FailedMount` and a retry while an object is missing; refreshed at each periodic
//! sync) and each container's environment (`CreateContainerConfigError` while it cannot be
//! made). Mirrors pkg/kubelet/volumemanager (`WaitForAttachAndMount`, the reconciler's
//! remounts) and kuberuntime_container.go `startContainer` → `generateContainerConfig`.

use super::downward_api::PodPlace;
use super::pod_worker::PodStep;
use super::runtime::{ContainerPhase, RuntimeContainer};
use super::volumes::{self, VolumeContents};
use crate::api::meta::Uid;
use crate::shell::Files;
use crate::sim::time::{Duration, SimTime};
use crate::store::event_recorder::{EventType, object_reference};
use std::collections::BTreeMap;

/// What the kubelet set up for one pod beside its containers' runtime state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodConfig {
    pub uid: Uid,
    /// Its volumes' files once they are set up (`None` while a `FailedMount` holds it back).
    pub volumes: Option<VolumeContents>,
    /// When the volumes are set up again: the next mount retry, or the next periodic sync that
    /// refreshes their files.
    pub volumes_due_at: SimTime,
    /// Mount attempts that failed in a row (their retry backs off).
    pub mount_failures: u32,
    /// By container name: what its current instance was started with.
    pub started: BTreeMap<String, StartedWith>,
}

/// What a container instance was given when it started; neither changes while it runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StartedWith {
    /// Its environment (`container_env.rs`).
    pub env: Vec<(String, String)>,
    /// Its `subPath` mounts' files, copied once (they never follow updates).
    pub sub_path_files: Files,
}

impl PodConfig {
    pub fn new(uid: Uid, now: SimTime) -> PodConfig {
        PodConfig { uid, volumes_due_at: now, ..Default::default() }
    }

    /// The files `container`'s mounts show now: its volumes' as last set up, and its
    /// `subPath` files as they were when it started.
    pub fn mounted_files(&self, container: &crate::api::container::Container) -> Files {
        let mut files = self.started.get(&container.name).map(|s| s.sub_path_files.clone()).unwrap_or_default();
        if let Some(contents) = &self.volumes {
            files.extend(volumes::container_files(container, contents, false));
        }
        files
    }
}

/// pod_workers.go's `backOffPeriod`: a sync that failed (here, a container whose config could
/// not be made) is tried again this long after.
pub const BACK_OFF_PERIOD: Duration = Duration::from_secs(10);
/// kubelet's `syncFrequency` (`--sync-frequency`, 1m): each pod is synced again this often,
/// and each periodic sync remounts its configMap, secret, projected and downwardAPI volumes
/// with the objects as they are then (the watch-based cache of
/// `configMapAndSecretChangeDetectionStrategy: Watch` has them at once).
pub const SYNC_FREQUENCY: Duration = Duration::from_secs(60);
/// pod_workers.go's `workerResyncIntervalJitterFactor`: each resync comes after
/// `wait.Jitter(syncFrequency, 0.5)`, between 60 s and 90 s.
const RESYNC_JITTER_PERMILLE: u64 = 500;
/// nestedpendingoperations' first wait after a failed mount and its cap (`2m2s`); it doubles
/// in between.
const MOUNT_RETRY_FIRST: Duration = Duration::from_millis(500);
const MOUNT_RETRY_MAX: Duration = Duration::from_secs(122);

impl PodStep<'_> {
    /// Where the pod runs, for the downward API.
    fn place(&self) -> PodPlace<'_> {
        PodPlace { node: self.node_object, pod_ip: &self.runtime.pod_ip, host_ip: self.host_ip }
    }

    /// Sets the pod's volumes up when due; false while they cannot be (the containers wait).
    pub(super) fn mount_volumes(&mut self) -> bool {
        let mounted = self.config.volumes.is_some();
        if self.now < self.config.volumes_due_at {
            return mounted;
        }
        if !mounted && !super::node_disk::claims_ready(self.store, self.pod) {
            // The volume manager waits for the claim's volume without an event of its own.
            let doubled = MOUNT_RETRY_FIRST.0.saturating_mul(1 << self.config.mount_failures.min(16));
            self.config.mount_failures = self.config.mount_failures.saturating_add(1);
            self.config.volumes_due_at = self.now.plus(Duration(doubled.min(MOUNT_RETRY_MAX.0)));
            return false;
        }
        match volumes::set_up_all(self.store, self.pod, &self.place()) {
            Ok(contents) => {
                self.config.volumes = Some(contents);
                self.config.mount_failures = 0;
                self.config.volumes_due_at = self.now.plus(self.resync_interval());
                true
            }
            Err(failures) => {
                let reference = object_reference(self.pod);
                for (volume, message) in failures {
                    let text = format!("MountVolume.SetUp failed for volume {volume:?} : {message}");
                    self.store.record_event(reference.clone(), EventType::Warning, "FailedMount", text);
                }
                let doubled = MOUNT_RETRY_FIRST.0.saturating_mul(1 << self.config.mount_failures.min(16));
                self.config.mount_failures = self.config.mount_failures.saturating_add(1);
                // A running pod keeps the files it had; the next resync tries again.
                let retry = if mounted { self.resync_interval() } else { Duration(doubled.min(MOUNT_RETRY_MAX.0)) };
                self.config.volumes_due_at = self.now.plus(retry);
                mounted
            }
        }
    }

    /// `wait.Jitter(syncFrequency, 0.5)`, its jitter drawn from the pod's uid and the time so
    /// the lab's random stream is left alone.
    fn resync_interval(&self) -> Duration {
        let seed = format!("{}/{}", self.pod.metadata.uid, self.now.0);
        let digest = crate::workload::pseudo_digest(&seed);
        let hex = digest.trim_start_matches("sha256:");
        let draw = u64::from_str_radix(hex.get(..8).unwrap_or("0"), 16).unwrap_or(0) % 1000;
        let jitter = SYNC_FREQUENCY.0 * RESYNC_JITTER_PERMILLE / 1000 * draw / 1000;
        Duration(SYNC_FREQUENCY.0 + jitter)
    }

    /// The container's environment, made now (it never changes while the container runs).
    pub(super) fn container_env(&self, c: &RuntimeContainer) -> Result<Vec<(String, String)>, String> {
        let Some(spec) = self.spec_of(c) else { return Ok(Vec::new()) };
        let service_env = super::envvars::service_env(self.store, self.pod, self.now);
        super::container_env::make_environment_variables(self.store, self.pod, spec, &self.place(), &service_env)
    }

    /// `verifyRunAsNonRoot` against the image's user, once the environment is made.
    pub(super) fn verify_run_as_non_root(&self, c: &RuntimeContainer) -> Result<(), String> {
        let (Some(spec), Ok(info)) = (self.spec_of(c), self.image_info(c)) else { return Ok(()) };
        let user = super::security_context::ImageUser::parse(info.workload.behaviour.user.as_deref());
        super::security_context::verify_run_as_non_root(self.pod, spec, &user)
    }

    /// `CreateContainerConfigError`: the `Failed` event and a retry at the next sync.
    pub(super) fn config_error(&mut self, c: &mut RuntimeContainer, message: String) {
        self.event(c, EventType::Warning, "Failed", format!("Error: {message}"));
        c.phase = ContainerPhase::ConfigError { message, retry_at: self.now.plus(BACK_OFF_PERIOD) };
    }
}
