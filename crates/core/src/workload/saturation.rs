//! How a container slows down under load. Each request costs `millicoresPerRps` milliseconds of
//! CPU; with a CPU limit the kernel gives the container only `limit` milliseconds of CPU per
//! second (CFS quota), so a request takes `cost × 1000 / limit` ms of service and waits behind
//! the others as in an M/M/1 queue: `service / (1 − utilisation)`, utilisation being the CPU
//! the load needs (idle included) over the limit. At or past the limit the queue never drains:
//! requests — and the kubelet's probes, which queue with them — wait past any timeout. That is
//! how a liveness probe with a short timeout restarts pods under load and pushes their traffic
//! onto the rest. Memory grows with the requests in flight (`memoryKibPerRps`).

use super::behaviour::Workload;
use crate::api::container::Container;
use crate::sim::time::Duration;

/// How long a saturated container's answers take: longer than any client or probe waits.
pub const SATURATED: Duration = Duration::from_secs(3600);

/// The load on one container: the requests per second it serves and its CPU limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Load {
    pub requests_per_second: u64,
    /// `resources.limits.cpu` in millicores; `None`: no limit, so no queue builds up.
    pub cpu_limit_millis: Option<u64>,
}

impl Load {
    /// `container` serving `requests_per_second`.
    pub fn on(container: &Container, requests_per_second: u64) -> Load {
        let limit = container.resources.limits.get("cpu").map(|q| q.milli_value().max(0) as u64);
        Load { requests_per_second, cpu_limit_millis: limit }
    }
}

impl Workload {
    /// The wait a request adds under `load` (queueing plus service), `SATURATED` when the
    /// load needs the whole CPU limit or more.
    pub fn queueing_delay(&self, since_start: Duration, load: Load) -> Duration {
        let (Some(limit), rps) = (load.cpu_limit_millis, load.requests_per_second) else { return Duration::ZERO };
        if rps == 0 {
            return Duration::ZERO;
        }
        let needed = self.cpu_millicores(since_start, rps);
        if limit == 0 || needed >= limit {
            return SATURATED;
        }
        // Service time in microseconds, then the M/M/1 wait: service × limit / (limit − needed).
        let service_us = self.behaviour.millicores_per_rps.saturating_mul(1_000_000) / limit;
        let wait_us = service_us.saturating_mul(limit) / (limit - needed);
        Duration(wait_us / 1000)
    }

    /// The memory the requests in flight hold, in bytes.
    pub fn load_memory_bytes(&self, requests_per_second: u64) -> u64 {
        self.behaviour.memory_kib_per_rps.saturating_mul(requests_per_second).saturating_mul(1024)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::Catalogue;

    fn hello() -> Workload {
        Catalogue::builtin().resolve("hello:v1").unwrap().workload
    }

    fn load(rps: u64, limit: Option<u64>) -> Load {
        Load { requests_per_second: rps, cpu_limit_millis: limit }
    }

    /// hello: 5m idle and 2m per request/s. Under a 200m limit a request's 2 ms of CPU takes
    /// 10 ms; the wait grows as the load nears the limit (2 s at 97 requests/s: a probe's 1 s
    /// timeout already fails), and past it never ends.
    #[test]
    fn the_wait_grows_towards_the_limit_and_past_it_never_ends() {
        let hello = hello();
        let at = Duration::from_secs(60);
        let waits: Vec<u64> =
            [0, 10, 50, 80, 95, 97].iter().map(|rps| hello.queueing_delay(at, load(*rps, Some(200))).0).collect();
        assert_eq!(waits, [0, 11, 21, 57, 400, 2000]);
        assert_eq!(hello.queueing_delay(at, load(98, Some(200))), SATURATED, "201m needed of 200m");
        assert_eq!(hello.queueing_delay(at, load(10_000, None)), Duration::ZERO, "no limit, no queue");
    }
}
