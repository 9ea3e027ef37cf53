//! Crash-loop and image-pull back-off: client-go's `flowcontrol.Backoff` as the kubelet uses it
//! (pkg/kubelet/kubelet.go `backOffPeriod` 10 s, `MaxContainerBackOff` 300 s, an entry reset
//! after twice the cap without trouble). The simulation's implementation, on wall-clock time.

pub use kubelab_core::kubelet::backoff::{Backoff, INITIAL, MAX};

#[cfg(test)]
mod tests {
    use super::*;
    use kubelab_core::sim::time::{Duration, SimTime};

    #[test]
    fn ten_seconds_doubling_to_five_minutes() {
        let mut backoff = Backoff::default();
        let mut t = SimTime(1_000_000);
        let mut delays = Vec::new();
        for _ in 0..7 {
            backoff.next(t, t);
            delays.push(backoff.current().as_secs());
            assert!(backoff.in_backoff_since(t, t));
            t = t.plus(Duration::from_secs(1));
        }
        assert_eq!(delays, [10, 20, 40, 80, 160, 300, 300]);
        assert_eq!((INITIAL.as_secs(), MAX.as_secs()), (10, 300));
    }

    #[test]
    fn ten_quiet_minutes_start_over() {
        let mut backoff = Backoff::default();
        let start = SimTime(0);
        backoff.next(start, start);
        backoff.next(start, start);
        assert_eq!(backoff.current().as_secs(), 20);
        assert_eq!(backoff.ends_at(start), start.plus(Duration::from_secs(20)));
        let later = start.plus(Duration::from_secs(601));
        assert!(!backoff.in_backoff_since(later, later));
        backoff.next(later, later);
        assert_eq!(backoff.current().as_secs(), 10);
    }
}
