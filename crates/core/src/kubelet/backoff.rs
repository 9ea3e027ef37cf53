//! Per-container back-off: client-go's `flowcontrol.Backoff` as the kubelet uses it for crash
//! loops (10 s doubling to 300 s) and image pulls. An entry resets when the event comes more
//! than twice the cap after the last update (10 minutes of running, for crash loops).

use crate::sim::time::{Duration, SimTime};

/// `initialCrashLoopBackOff` / `backOffPeriod` in pkg/kubelet/kubelet.go.
pub const INITIAL: Duration = Duration::from_secs(10);
/// `MaxCrashLoopBackOff` and `MaxImageBackOff`.
pub const MAX: Duration = Duration::from_secs(300);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backoff {
    entry: Option<Entry>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    backoff: Duration,
    last_update: SimTime,
}

impl Backoff {
    /// `IsInBackOffSince`: still within the back-off that started at `event_time`.
    pub fn in_backoff_since(&self, event_time: SimTime, now: SimTime) -> bool {
        match self.entry {
            None => false,
            Some(entry) if has_expired(event_time, entry.last_update) => false,
            Some(entry) => now.since(event_time) < entry.backoff,
        }
    }

    /// When the back-off that started at `event_time` ends.
    pub fn ends_at(&self, event_time: SimTime) -> SimTime {
        self.entry.map_or(event_time, |e| event_time.plus(e.backoff))
    }

    /// `Next`: start at 10 s, or double (capped) while the entry is fresh.
    pub fn next(&mut self, event_time: SimTime, now: SimTime) {
        let backoff = match self.entry {
            Some(entry) if !has_expired(event_time, entry.last_update) => Duration((entry.backoff.0 * 2).min(MAX.0)),
            _ => INITIAL,
        };
        self.entry = Some(Entry { backoff, last_update: now });
    }

    /// The current delay, for messages (`back-off 20s restarting failed container=…`).
    pub fn current(&self) -> Duration {
        self.entry.map_or(INITIAL, |e| e.backoff)
    }
}

/// Twice the cap since the last update: the container was stable, start over.
fn has_expired(event_time: SimTime, last_update: SimTime) -> bool {
    event_time.0.saturating_sub(last_update.0) > 2 * MAX.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_from_ten_seconds_to_five_minutes_then_resets_after_ten_quiet_minutes() {
        let mut b = Backoff::default();
        let mut delays = Vec::new();
        let mut t = SimTime::ZERO;
        for _ in 0..7 {
            b.next(t, t);
            delays.push(b.current().as_secs());
            t = t.plus(Duration::from_secs(1));
        }
        assert_eq!(delays, vec![10, 20, 40, 80, 160, 300, 300]);
        let later = t.plus(Duration::from_secs(601));
        assert!(!b.in_backoff_since(later, later));
        b.next(later, later);
        assert_eq!(b.current().as_secs(), 10);
    }
}
