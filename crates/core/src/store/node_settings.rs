//! A lab's node-health settings: kube-controller-manager's `--node-monitor-grace-period` and
//! kube-apiserver's `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds`.
//! Upstream's defaults make a dead node's pods leave after about six minutes; a lab with real
//! machines, a lesson or a test may shorten both (`lab settings`).

use crate::sim::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeSettings {
    /// How long a node's Lease may go unrenewed before the node is marked Unknown (50 s since v1.32).
    pub node_monitor_grace_period: Duration,
    /// How long a pod tolerates `not-ready` and `unreachable` unless it says otherwise (300 s).
    pub default_toleration_seconds: i64,
}

impl Default for NodeSettings {
    fn default() -> Self {
        NodeSettings { node_monitor_grace_period: Duration::from_secs(50), default_toleration_seconds: 300 }
    }
}

impl NodeSettings {
    /// The settings as `lab settings` prints them, flag names first, as the components' flags read.
    pub fn describe(&self) -> String {
        format!(
            "node-monitor-grace-period: {}\ndefault-toleration-seconds: {}",
            self.node_monitor_grace_period, self.default_toleration_seconds
        )
    }

    /// Checks settings before they apply, worded as the components refuse a bad flag.
    pub fn validate(&self) -> Result<(), String> {
        // The lifecycle controller looks every 5 s; a shorter grace period than the kubelet's
        // 10 s renewal would mark every healthy node Unknown between two renewals.
        if self.node_monitor_grace_period < Duration::from_secs(10) {
            return Err(format!(
                "error: --node-monitor-grace-period must be at least 10s (a kubelet renews its Lease every 10s), got {}",
                self.node_monitor_grace_period
            ));
        }
        if self.default_toleration_seconds < 0 {
            return Err(format!(
                "error: --default-toleration-seconds must be 0 or more, got {}",
                self.default_toleration_seconds
            ));
        }
        Ok(())
    }
}
