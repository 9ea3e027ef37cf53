//! Where the lab's kube-scheduler gets its `--config`: the ConfigMap
//! `kube-system/kube-scheduler-config`, key `config.yaml`, as a scheduler Deployment mounts one
//! (the docs' "Configure Multiple Schedulers"). A change takes effect at the next cycle, as if
//! the scheduler restarted with it; a file kube-scheduler would refuse to start with leaves the
//! last good one running and says why in a Warning Event on the ConfigMap.

use super::SchedulerConfig;
use crate::api::ConfigMap;
use crate::api::meta::ResourceVersion;
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};

pub const NAMESPACE: &str = "kube-system";
pub const NAME: &str = "kube-scheduler-config";
pub const KEY: &str = "config.yaml";
/// The Event on the ConfigMap when its file is refused (the lab's; a real scheduler exits).
pub const REASON_INVALID: &str = "InvalidConfiguration";

/// The configuration in force and the ConfigMap version it was read from.
#[derive(Clone, Debug, Default)]
pub struct ConfigSource {
    seen: Option<ResourceVersion>,
    pub current: SchedulerConfig,
}

impl ConfigSource {
    /// Reads the ConfigMap again when it changed (or went away: the defaults again); true when
    /// the configuration in force changed.
    pub fn refresh(&mut self, store: &mut Store) -> bool {
        let map = store.try_get::<ConfigMap>(NAMESPACE, NAME);
        let version = map.map(|m| m.metadata.resource_version);
        if version == self.seen {
            return false;
        }
        self.seen = version;
        let Some(map) = map else {
            return self.replace(SchedulerConfig::default());
        };
        let parsed = match map.data.get(KEY) {
            Some(text) => SchedulerConfig::parse(text),
            None => Err(format!("configmap \"{NAME}\" has no key \"{KEY}\"")),
        };
        match parsed {
            Ok(config) => self.replace(config),
            Err(error) => {
                let reference = object_reference(map);
                let message = format!(
                    "kube-scheduler would not start with this configuration: {error}; the last valid one stays in force"
                );
                store.record_event(reference, EventType::Warning, REASON_INVALID, message);
                false
            }
        }
    }

    fn replace(&mut self, config: SchedulerConfig) -> bool {
        let changed = config != self.current;
        self.current = config;
        changed
    }
}
