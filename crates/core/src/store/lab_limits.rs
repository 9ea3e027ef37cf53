//! A lab's budgets: how far one command may move virtual time, how many replicas one workload
//! may ask for, and how many objects and nodes the lab may hold, so that no script can freeze
//! a browser tab or a server's lab thread, or fill its memory.
//! Kubernetes has no such limit (a real cluster's limit is its hardware); the refusals are
//! worded as kubectl words a refusal, and replicas are checked at admission (`LabLimits`), so
//! `scale`, `apply`, `patch` and an HPA's `maxReplicas` are all covered.

use crate::sim::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabLimits {
    /// The most one `sleep` (one command) may advance virtual time.
    pub max_sleep: Duration,
    /// The most replicas a Deployment, ReplicaSet or HorizontalPodAutoscaler may ask for (the
    /// big sandbox's Deployments have 5,000 each).
    pub max_replicas: i32,
    /// The most objects the lab may hold, Events aside (they are many, small, and expire
    /// upstream after an hour): the big sandbox's 150,000 pods fit with room to spare.
    pub max_objects: usize,
    /// The most nodes (the big sandbox has 5,000).
    pub max_nodes: usize,
    /// The most units of work (a controller's sync, a pod's sync by its kubelet) one command
    /// may cause: a guard against runaways, far above the big sandbox's 150,000-pod apply.
    pub max_work_units: u64,
}

impl Default for LabLimits {
    fn default() -> Self {
        LabLimits {
            max_sleep: Duration::from_secs(24 * 3600),
            max_replicas: 5000,
            max_objects: 200_000,
            max_nodes: 5000,
            max_work_units: 50_000_000,
        }
    }
}

impl LabLimits {
    /// `sleep`'s refusal, or nothing if `duration` fits.
    pub fn check_sleep(&self, written: &str, duration: Duration) -> Result<(), String> {
        if duration <= self.max_sleep {
            return Ok(());
        }
        Err(format!("error: {written} exceeds this lab's limit of {}", short(self.max_sleep)))
    }

    /// The refusal of `replicas` asked for in `field` (`replicas`, `maxReplicas`), or nothing
    /// if it fits.
    pub fn check_replicas(&self, field: &str, replicas: i32) -> Result<(), String> {
        if replicas <= self.max_replicas {
            return Ok(());
        }
        Err(format!("{field} {replicas} exceeds this lab's limit of {}", self.max_replicas))
    }
}

impl LabLimits {
    /// What a command stopped at the work budget says.
    pub fn work_refusal(&self) -> String {
        format!(
            "error: this command did more than {} units of work, this lab's limit; the work it had left was dropped",
            self.max_work_units
        )
    }

    /// The refusal of one more object when the lab holds `objects` (Events not counted) and
    /// `nodes`, or nothing if it fits; `node` says whether the new object is a Node.
    pub fn check_room(&self, objects: usize, nodes: usize, node: bool) -> Result<(), String> {
        if node && nodes >= self.max_nodes {
            return Err(format!("this lab has {nodes} nodes, its limit"));
        }
        if objects >= self.max_objects {
            return Err(format!("this lab holds {objects} objects, its limit"));
        }
        Ok(())
    }
}

/// `24h` rather than Go's `24h0m0s` for a whole number of hours.
fn short(duration: Duration) -> String {
    let hour = Duration::from_secs(3600).as_millis();
    match duration.as_millis() {
        ms if ms > 0 && ms % hour == 0 => format!("{}h", ms / hour),
        _ => duration.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_of_sleep_and_5000_replicas_fit_and_more_is_refused_naming_the_limit() {
        let limits = LabLimits::default();
        assert_eq!(limits.check_sleep("sleep 24h", Duration::from_secs(86_400)), Ok(()));
        assert_eq!(
            limits.check_sleep("sleep 1000000h", Duration::from_secs(3_600_000_000)),
            Err("error: sleep 1000000h exceeds this lab's limit of 24h".to_string())
        );
        assert_eq!(limits.check_replicas("replicas", 5000), Ok(()));
        assert_eq!(
            limits.check_replicas("replicas", 100_000),
            Err("replicas 100000 exceeds this lab's limit of 5000".to_string())
        );
    }
}
