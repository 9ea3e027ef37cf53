//! A lab's quota of CPU-seconds on its real machines: what the learner's pods there may burn
//! in all, so one lab cannot hold a class's machines. Kubernetes has no such object (a
//! ResourceQuota counts requests, not time used); this one reads what the kubelets count —
//! the summary API's cumulative `usageCoreNanoSeconds` of each joined node — and, once the
//! quota is spent, taints the lab's real nodes `NoExecute` (so the taint manager moves the pods
//! back to the simulated nodes and the scheduler keeps new ones off) and tells each agent to
//! refuse containers (so a toleration does not get around it).

use super::agents::Agents;
use std::collections::BTreeMap;
use std::time::Duration;

/// How often the lab reads its machines' counters (metrics-server scrapes every 15 s; a quota
/// wants to notice sooner).
pub const READ_EVERY: Duration = Duration::from_secs(5);

/// A lab's quota unless its instructor sets another: one CPU-hour.
pub const DEFAULT_CPU_SECONDS: u64 = 3600;

/// The taint a spent quota puts on the lab's real nodes.
pub const TAINT_KEY: &str = "kubelab.dev/cpu-quota-exhausted";

/// Usage counted so far against the limit.
#[derive(Debug)]
pub struct CpuQuota {
    limit: Duration,
    used: Duration,
    /// Each node's counter when last read.
    last: BTreeMap<String, Duration>,
    /// Whether the lab has been told the quota is spent.
    enforced: bool,
}

/// What the lab must do after a reading.
#[derive(Debug, PartialEq)]
pub enum Change {
    /// The quota was just spent.
    Exhausted,
    /// It has room again (the instructor raised it).
    Lifted,
}

impl Default for CpuQuota {
    fn default() -> CpuQuota {
        CpuQuota::new(Duration::from_secs(DEFAULT_CPU_SECONDS))
    }
}

impl CpuQuota {
    pub fn new(limit: Duration) -> CpuQuota {
        CpuQuota { limit, used: Duration::ZERO, last: BTreeMap::new(), enforced: false }
    }

    pub fn limit(&self) -> Duration {
        self.limit
    }

    pub fn used(&self) -> Duration {
        self.used
    }

    pub fn set_limit(&mut self, limit: Duration) {
        self.limit = limit;
    }

    /// Whether the lab holds the quota spent now.
    pub fn enforced(&self) -> bool {
        self.enforced
    }

    /// `node`'s cumulative counter reads `counter`. What it gained since the last reading is
    /// charged; a counter that went back means the agent restarted, and all of it is new.
    pub fn observe(&mut self, node: &str, counter: Duration) {
        let before = self.last.insert(node.to_string(), counter).unwrap_or_default();
        self.used += if counter >= before { counter - before } else { counter };
    }

    /// What changed, if anything, since the lab last acted.
    pub fn change(&mut self) -> Option<Change> {
        let spent = self.used >= self.limit;
        if spent == self.enforced {
            return None;
        }
        self.enforced = spent;
        Some(if spent { Change::Exhausted } else { Change::Lifted })
    }

    /// Why a container may not start, as its `CreateContainerError` message says it.
    pub fn refusal(&self) -> String {
        format!(
            "this lab's quota of {} CPU-seconds on real machines is spent ({:.1} s used); the lab's instructor can raise it",
            self.limit.as_secs(),
            self.used.as_secs_f64()
        )
    }
}

/// Reads every joined machine's counter and acts on what follows: while the quota is spent,
/// each agent is told so (again, for one that joined since); when it is just spent or lifted,
/// the answer is the script line that taints or untaints the lab's real nodes.
pub fn keep(agents: &Agents) -> Option<String> {
    let joined = agents.list();
    for agent in &joined {
        // A machine that does not answer is charged at its next answer.
        if let Ok(counter) = agent.connection().node_cpu_usage() {
            agents.quota().observe(&agent.name, counter);
        }
    }
    let (change, enforced, refusal) = {
        let mut quota = agents.quota();
        (quota.change(), quota.enforced(), quota.refusal())
    };
    if enforced || change == Some(Change::Lifted) {
        let refusal = enforced.then_some(refusal.as_str());
        for agent in &joined {
            let _ = agent.connection().set_cpu_refusal(refusal);
        }
    }
    let names: Vec<String> = joined.into_iter().map(|a| a.name).collect();
    change.and_then(|change| taint_line(&names, &change))
}

/// The script line that taints (or untaints) the lab's real nodes.
pub fn taint_line(nodes: &[String], change: &Change) -> Option<String> {
    if nodes.is_empty() {
        return None;
    }
    let names = nodes.join(" ");
    Some(match change {
        Change::Exhausted => format!("kubectl taint nodes {names} {TAINT_KEY}=true:NoExecute --overwrite"),
        Change::Lifted => format!("kubectl taint nodes {names} {TAINT_KEY}-"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_charged_by_what_they_gained_and_a_restart_starts_from_zero() {
        let mut quota = CpuQuota::new(Duration::from_secs(10));
        quota.observe("real-a", Duration::from_secs(3));
        quota.observe("real-b", Duration::from_secs(2));
        quota.observe("real-a", Duration::from_secs(4));
        assert_eq!(quota.used(), Duration::from_secs(6));
        assert_eq!(quota.change(), None);
        quota.observe("real-a", Duration::from_secs(1)); // the agent restarted
        assert_eq!(quota.used(), Duration::from_secs(7));
        quota.observe("real-b", Duration::from_secs(5));
        assert_eq!(quota.change(), Some(Change::Exhausted));
        assert_eq!(quota.change(), None, "said once");
        assert_eq!(
            quota.refusal(),
            "this lab's quota of 10 CPU-seconds on real machines is spent (10.0 s used); the lab's instructor can raise it"
        );
        quota.set_limit(Duration::from_secs(60));
        assert_eq!(quota.change(), Some(Change::Lifted));
    }

    #[test]
    fn the_taint_lines_name_every_real_node() {
        let nodes = vec!["real-a".to_string(), "real-b".to_string()];
        assert_eq!(
            taint_line(&nodes, &Change::Exhausted).unwrap(),
            "kubectl taint nodes real-a real-b kubelab.dev/cpu-quota-exhausted=true:NoExecute --overwrite"
        );
        assert_eq!(
            taint_line(&nodes, &Change::Lifted).unwrap(),
            "kubectl taint nodes real-a real-b kubelab.dev/cpu-quota-exhausted-"
        );
        assert_eq!(taint_line(&[], &Change::Lifted), None);
    }
}
