//! Resource limits made real: `limits.memory` caps the guest's linear memory (the cgroup's
//! `memory.max`), `limits.cpu` throttles it as CFS bandwidth control does (a quota of CPU time
//! per 100 ms period; a guest past it waits for the next period), checked at every epoch tick.

use std::thread;
use std::time::{Duration, Instant};
use wasmtime::{ResourceLimiter, Result, format_err};

/// CFS's default period (`cpu.cfs_period_us`).
pub const CPU_PERIOD: Duration = Duration::from_millis(100);

/// Denies memory growth past the limit; the denial traps the guest and is remembered, so the
/// container ends `OOMKilled` as the kernel's OOM killer would end it.
#[derive(Debug)]
pub struct MemoryLimiter {
    limit_bytes: Option<u64>,
    pub oom: bool,
    /// The most linear memory the guest has had.
    pub peak_bytes: usize,
}

impl MemoryLimiter {
    pub fn new(limit_bytes: Option<u64>) -> MemoryLimiter {
        MemoryLimiter { limit_bytes, oom: false, peak_bytes: 0 }
    }
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> Result<bool> {
        if self.limit_bytes.is_some_and(|limit| desired as u64 > limit) {
            self.oom = true;
            return Err(format_err!("memory limit reached: {desired} bytes wanted, {current} held"));
        }
        self.peak_bytes = self.peak_bytes.max(desired);
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> Result<bool> {
        Ok(desired <= 100_000)
    }
}

/// CFS bandwidth control for one guest: time spent running guest code is charged against the
/// period's quota; once it is spent, the guest's thread sleeps until the next period.
#[derive(Debug)]
pub struct Throttle {
    quota: Option<Duration>,
    period_start: Instant,
    used: Duration,
    /// When guest code last started (or resumed) running.
    mark: Instant,
    /// How long it has been held back in all (`nr_throttled`'s time).
    pub throttled: Duration,
    /// CPU time guest code has run in all (cpuacct's `usage`), limited or not.
    pub usage: Duration,
}

impl Throttle {
    pub fn new(millicores: Option<u64>) -> Throttle {
        let quota = millicores.map(|m| CPU_PERIOD.mul_f64(m as f64 / 1000.0).max(Duration::from_micros(100)));
        let now = Instant::now();
        Throttle {
            quota,
            period_start: now,
            used: Duration::ZERO,
            mark: now,
            throttled: Duration::ZERO,
            usage: Duration::ZERO,
        }
    }

    /// Guest code starts running now (a call into the guest).
    pub fn resume(&mut self) {
        self.mark = Instant::now();
    }

    /// Guest code stops running now (a call returns): its time since the last mark is counted
    /// as usage; the period's quota is settled at the next epoch tick.
    pub fn pause(&mut self) {
        let now = Instant::now();
        self.usage += now.saturating_duration_since(self.mark);
        self.mark = now;
    }

    /// Charges the time run since the last mark; sleeps out the period when over quota.
    pub fn charge(&mut self) {
        let now = Instant::now();
        self.usage += now.saturating_duration_since(self.mark);
        let Some(quota) = self.quota else {
            self.mark = now;
            return;
        };
        if now >= self.period_start + CPU_PERIOD {
            self.period_start = now;
            self.used = Duration::ZERO;
        }
        self.used += now.saturating_duration_since(self.mark);
        if self.used >= quota {
            let wake = self.period_start + CPU_PERIOD;
            let wait = wake.saturating_duration_since(now);
            thread::sleep(wait);
            self.throttled += wait;
            self.period_start = Instant::now();
            self.used = Duration::ZERO;
        }
        self.mark = Instant::now();
    }
}
