//! The wall clock in the simulation's terms: `SimTime` is milliseconds since the simulator's
//! epoch, so a real instant becomes one and the core's back-off, probe timing and status
//! builders (and `metav1.Time`'s RFC 3339) work on it unchanged.

use kubelab_core::sim::time::{SIM_EPOCH_UNIX_SECONDS, SimTime};
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How far the lab's clock is ahead of this machine's, in milliseconds (a hosted lab's clock
/// may not be the wall clock: the join answer says what time it is there).
static LAB_OFFSET_MILLIS: AtomicI64 = AtomicI64::new(0);

/// Now, as a lab time.
pub fn now() -> SimTime {
    from_system(SystemTime::now())
}

/// A wall-clock instant as a lab time (the simulator's epoch or later).
pub fn from_system(at: SystemTime) -> SimTime {
    let offset = LAB_OFFSET_MILLIS.load(Ordering::Relaxed);
    SimTime::from_millis(wall_millis(at).saturating_add(offset).max(0) as u64)
}

/// Milliseconds since the simulator's epoch on this machine's clock.
fn wall_millis(at: SystemTime) -> i64 {
    let unix = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let epoch = Duration::from_secs(SIM_EPOCH_UNIX_SECONDS.max(0) as u64);
    unix.as_millis() as i64 - epoch.as_millis() as i64
}

/// The lab said it is `lab_now` (`2026-12-05T13:43:20.000000Z`): timestamps follow its clock
/// from now on. An unreadable time changes nothing.
pub fn follow_lab(lab_now: &str) {
    let Some(lab) = SimTime::parse_rfc3339_micro(lab_now).or_else(|| SimTime::parse_rfc3339(lab_now)) else { return };
    let offset = lab.as_millis() as i64 - wall_millis(SystemTime::now());
    // Within a second is the same clock (the answer took time to arrive).
    LAB_OFFSET_MILLIS.store(if offset.abs() < 1000 { 0 } else { offset }, Ordering::Relaxed);
}

/// A lab time as milliseconds since the Unix epoch.
pub fn unix_millis(at: SimTime) -> u64 {
    at.unix_millis()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wall_clock_instant_prints_as_itself() {
        let at = UNIX_EPOCH + Duration::from_secs(1_767_225_600); // 2026-01-01T00:00:00Z
        assert_eq!(from_system(at).to_rfc3339(), "2026-01-01T00:00:00Z");
        assert_eq!(unix_millis(from_system(at)), 1_767_225_600_000);
    }
}
