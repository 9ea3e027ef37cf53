//! The memory signal and its threshold: `memory.available` is the node's capacity less its
//! working set, and the kubelet's default `evictionHard` is met below 100Mi. Mirrors
//! helpers.go `makeSignalObservations` / `thresholdsMet` and helpers_others.go
//! `makeMemoryAvailableSignalObservation`; the defaults are those of the KubeletConfiguration.

use crate::api::quantity::{Format, Quantity};
use crate::sim::time::Duration;

/// How often the eviction manager looks (`monitoringInterval`, the kubelet's housekeeping).
pub const MONITORING_INTERVAL: Duration = Duration::from_secs(10);
/// How long a pressure condition stays after its threshold was last met
/// (`evictionPressureTransitionPeriod`).
pub const PRESSURE_TRANSITION_PERIOD: Duration = Duration::from_secs(5 * 60);
/// The grace period a hard threshold gives the pod it evicts
/// (eviction_manager.go `immediateEvictionGracePeriodSeconds`).
pub const IMMEDIATE_EVICTION_GRACE: Duration = Duration::from_secs(1);

/// The kubelet's default hard threshold: `memory.available<100Mi`.
pub const HARD_MEMORY_AVAILABLE: &str = "100Mi";

/// `memory.available` as one synchronize observed it, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub available_bytes: i64,
    pub capacity_bytes: i64,
}

impl Observation {
    /// The node's summary: what it has and what its working set takes (never swap here).
    pub fn memory_available(capacity_bytes: i64, working_set_bytes: u64) -> Observation {
        let working_set = i64::try_from(working_set_bytes).unwrap_or(i64::MAX);
        Observation { available_bytes: capacity_bytes.saturating_sub(working_set), capacity_bytes }
    }

    /// The available memory as the kubelet prints it (`resource.NewQuantity(n, BinarySI)`).
    pub fn available(&self) -> Quantity {
        Quantity::from_int(self.available_bytes, Format::BinarySI)
    }
}

/// A hard threshold on `memory.available` (`Operator: LessThan`, no grace period).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold {
    pub quantity: Quantity,
}

impl Threshold {
    /// `evictionHard: memory.available: 100Mi`.
    pub fn hard_default() -> Threshold {
        Threshold { quantity: Quantity::parse(HARD_MEMORY_AVAILABLE).expect("a valid quantity") }
    }

    /// `thresholdsMet`: the threshold's quantity is more than what is available.
    pub fn met(&self, observed: &Observation) -> bool {
        self.quantity.value() > observed.available_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: i64 = 1024 * 1024;

    #[test]
    fn met_strictly_below_the_threshold() {
        let threshold = Threshold::hard_default();
        let capacity = 16 * 1024 * MIB;
        let at = |working_set_mib: i64| Observation::memory_available(capacity, (working_set_mib * MIB) as u64);
        assert!(!threshold.met(&at(16 * 1024 - 100)));
        assert!(threshold.met(&at(16 * 1024 - 99)));
        assert_eq!(at(16 * 1024 - 50).available().to_string(), "50Mi");
        assert_eq!(
            Observation::memory_available(capacity, (capacity - 52_000 * 1024) as u64).available().to_string(),
            "52000Ki"
        );
        assert_eq!(at(16 * 1024 + 1).available().to_string(), "-1Mi");
    }
}
