//! Probe workers: when each probe runs and what its results add up to. Mirrors
//! pkg/kubelet/prober/worker.go: a worker per probe ticks every `periodSeconds` from when the
//! pod was admitted, skips ticks before `initialDelaySeconds`, and turns consecutive outcomes
//! into a result once `successThreshold` / `failureThreshold` is reached.

use crate::api::container::Probe;
use crate::sim::time::{Duration, SimTime};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ProbeKind {
    Startup,
    Liveness,
    Readiness,
}

impl ProbeKind {
    /// `Liveness probe failed: …` — how the kubelet's Unhealthy events start.
    pub fn title(self) -> &'static str {
        match self {
            ProbeKind::Startup => "Startup",
            ProbeKind::Liveness => "Liveness",
            ProbeKind::Readiness => "Readiness",
        }
    }
}

/// The three workers of one container.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProbeWorkers {
    pub startup: ProbeWorker,
    pub liveness: ProbeWorker,
    pub readiness: ProbeWorker,
}

impl ProbeWorkers {
    pub fn get_mut(&mut self, kind: ProbeKind) -> &mut ProbeWorker {
        match kind {
            ProbeKind::Startup => &mut self.startup,
            ProbeKind::Liveness => &mut self.liveness,
            ProbeKind::Readiness => &mut self.readiness,
        }
    }
}

/// One worker's memory: the last tick it ran and its running counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProbeWorker {
    pub last_tick: Option<SimTime>,
    pub last_ok: Option<bool>,
    successes: i32,
    failures: i32,
    /// The settled result: `None` until a threshold is first reached.
    pub result: Option<bool>,
}

/// A probe's timing with upstream defaults filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub initial_delay: Duration,
    pub period: Duration,
    pub success_threshold: i32,
    pub failure_threshold: i32,
}

impl Timing {
    /// `SetDefaults_Probe`: period 10 s, thresholds 1 and 3, no initial delay.
    pub fn of(probe: &Probe) -> Timing {
        let secs = |v: Option<i32>, default: i32| Duration::from_secs(v.unwrap_or(default).max(0) as u64);
        Timing {
            initial_delay: secs(probe.initial_delay_seconds, 0),
            period: Duration(secs(probe.period_seconds, 10).0.max(1000)),
            success_threshold: probe.success_threshold.unwrap_or(1).max(1),
            failure_threshold: probe.failure_threshold.unwrap_or(3).max(1),
        }
    }
}

impl ProbeWorker {
    /// Forget everything (a new container instance).
    pub fn reset(&mut self) {
        *self = ProbeWorker::default();
    }

    /// The latest tick at or before `now` that has not run yet and is past the initial delay.
    pub fn due_tick(&self, grid: SimTime, timing: Timing, started_at: SimTime, now: SimTime) -> Option<SimTime> {
        let elapsed = now.since(grid).0;
        let k = elapsed / timing.period.0;
        if k == 0 {
            return None;
        }
        let tick = SimTime(grid.0 + k * timing.period.0);
        let fresh = self.last_tick.is_none_or(|last| tick > last);
        (fresh && tick >= started_at.plus(timing.initial_delay)).then_some(tick)
    }

    /// The first tick after `after` that is past the initial delay.
    pub fn next_tick(grid: SimTime, timing: Timing, started_at: SimTime, after: SimTime) -> SimTime {
        let delay_end = started_at.plus(timing.initial_delay);
        let earliest = after.max(SimTime(delay_end.0.saturating_sub(1)));
        let k = earliest.since(grid).0 / timing.period.0 + 1;
        SimTime(grid.0 + k * timing.period.0)
    }

    /// Counts one outcome; returns the settled result when it changes.
    pub fn record(&mut self, tick: SimTime, ok: bool, timing: Timing) -> Option<bool> {
        self.last_tick = Some(tick);
        self.last_ok = Some(ok);
        if ok {
            self.successes += 1;
            self.failures = 0;
        } else {
            self.failures += 1;
            self.successes = 0;
        }
        let settled =
            if ok { self.successes >= timing.success_threshold } else { self.failures >= timing.failure_threshold };
        (settled && self.result != Some(ok)).then(|| {
            self.result = Some(ok);
            ok
        })
    }

    /// Steady: passing and settled, so nothing can change until the workload does.
    pub fn steady(&self) -> bool {
        self.last_ok == Some(true) && self.result == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(period: u64, delay: u64, failures: i32) -> Timing {
        Timing {
            initial_delay: Duration::from_secs(delay),
            period: Duration::from_secs(period),
            success_threshold: 1,
            failure_threshold: failures,
        }
    }

    #[test]
    fn ticks_run_on_the_admission_grid_after_the_initial_delay() {
        let w = ProbeWorker::default();
        let t = timing(5, 0, 3);
        let grid = SimTime(0);
        let started = SimTime(1000);
        assert_eq!(w.due_tick(grid, t, started, SimTime(4999)), None);
        assert_eq!(w.due_tick(grid, t, started, SimTime(7000)), Some(SimTime(5000)));
        assert_eq!(ProbeWorker::next_tick(grid, t, started, SimTime(5000)), SimTime(10_000));
        let delayed = timing(5, 12, 3);
        assert_eq!(ProbeWorker::next_tick(grid, delayed, started, SimTime(5000)), SimTime(15_000));
        assert_eq!(w.due_tick(grid, delayed, started, SimTime(10_000)), None);
    }

    #[test]
    fn three_failures_in_a_row_settle_a_failure() {
        let mut w = ProbeWorker::default();
        let t = timing(5, 0, 3);
        assert_eq!(w.record(SimTime(5000), true, t), Some(true));
        assert_eq!(w.record(SimTime(10_000), false, t), None);
        assert_eq!(w.record(SimTime(15_000), false, t), None);
        assert_eq!(w.record(SimTime(20_000), false, t), Some(false));
        assert!(!w.steady());
    }
}
