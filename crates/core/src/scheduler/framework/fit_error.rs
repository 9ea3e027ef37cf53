//! The FailedScheduling message: `0/N nodes are available: <count reason, …>. <preemption>`,
//! reasons counted over nodes and sorted as strings. Mirrors framework/types.go `FitError.Error()`.

use crate::scheduler::framework::status::Status;
use std::collections::BTreeMap;

/// The filters' verdicts for one failed attempt (upstream `Diagnosis` + `NumAllNodes`).
#[derive(Clone, Debug, Default)]
pub struct FitError {
    pub num_all_nodes: usize,
    /// One rejection per node that was filtered out.
    pub statuses: Vec<Status>,
    /// The status of nodes not in `statuses` (upstream's absent-nodes status).
    pub absent_reason: Option<&'static str>,
    /// What a PreFilter plugin said when it refused the pod everywhere; the per-node reasons
    /// are then left out (upstream: they would repeat it).
    pub pre_filter_message: Option<String>,
    /// What PostFilter (preemption) said, already prefixed (`preemption: …`).
    pub post_filter_message: Option<String>,
}

impl FitError {
    pub fn message(&self) -> String {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for status in &self.statuses {
            for reason in status.reasons.iter() {
                *counts.entry(reason).or_insert(0) += 1;
            }
        }
        let absent = self.num_all_nodes.saturating_sub(self.statuses.len());
        if let Some(reason) = self.absent_reason.filter(|_| absent > 0) {
            *counts.entry(reason).or_insert(0) += absent;
        }
        let mut histogram: Vec<String> = counts.iter().map(|(reason, n)| format!("{n} {reason}")).collect();
        histogram.sort();
        let mut message = format!("0/{} nodes are available:", self.num_all_nodes);
        if let Some(pre_filter) = &self.pre_filter_message {
            message.push_str(&format!(" {pre_filter}."));
        } else if !histogram.is_empty() {
            message.push_str(&format!(" {}.", histogram.join(", ")));
        }
        if let Some(post) = &self.post_filter_message {
            message.push(' ');
            message.push_str(post);
        }
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_counted_and_sorted_as_strings() {
        let cpu = Status::unschedulable("NodeResourcesFit", "Insufficient cpu");
        let taint = Status::unresolvable("TaintToleration", "node(s) had untolerated taint {a: b}");
        let error = FitError {
            num_all_nodes: 13,
            statuses: vec![
                cpu.clone(),
                cpu.clone(),
                taint.clone(),
                cpu.clone(),
                cpu.clone(),
                cpu.clone(),
                cpu.clone(),
                cpu.clone(),
                cpu.clone(),
                cpu.clone(),
                cpu,
                taint.clone(),
                taint,
            ],
            absent_reason: None,
            pre_filter_message: None,
            post_filter_message: None,
        };
        // "10 …" sorts before "3 …", as Go's sort.Strings does.
        assert_eq!(
            error.message(),
            "0/13 nodes are available: 10 Insufficient cpu, 3 node(s) had untolerated taint {a: b}."
        );
    }
}
