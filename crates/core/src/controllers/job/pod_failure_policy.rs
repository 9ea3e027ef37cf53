//! What a Job's podFailurePolicy makes of a failed pod: the first rule whose exit codes or pod
//! conditions match decides. Mirrors pkg/controller/job/pod_failure_policy.go
//! (`matchPodFailurePolicy`, `matchOnExitCodes`, `matchOnPodConditions`).

use crate::api::Pod;
use crate::api::job::{
    PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement, PodFailurePolicyOnPodConditionsPattern,
    PodFailurePolicyRule,
};

/// The verdict on one failed pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Fail the whole Job, with this message (reason `PodFailurePolicy`).
    FailJob(String),
    /// Counted, and the pod's index failed at once (with backoffLimitPerIndex).
    FailIndex,
    /// Not counted against backoffLimit.
    Ignore,
    /// Counted, as without a policy (Count, or no rule matched).
    Count,
}

impl Verdict {
    /// Whether the failure counts against backoffLimit (upstream's `countFailed`).
    pub fn counts(&self) -> bool {
        *self != Verdict::Ignore
    }
}

pub fn judge(policy: Option<&PodFailurePolicy>, pod: &Pod) -> Verdict {
    let Some(policy) = policy else { return Verdict::Count };
    for (index, rule) in policy.rules.iter().enumerate() {
        let Some(what) = matches(rule, pod) else { continue };
        return match rule.action.as_str() {
            "FailJob" => Verdict::FailJob(format!("{what} matching FailJob rule at index {index}")),
            "FailIndex" => Verdict::FailIndex,
            "Ignore" => Verdict::Ignore,
            _ => Verdict::Count,
        };
    }
    Verdict::Count
}

/// How the rule matched, in the words of the Job's failure message; `None` if it does not.
fn matches(rule: &PodFailurePolicyRule, pod: &Pod) -> Option<String> {
    let (namespace, name) = (&pod.metadata.namespace, &pod.metadata.name);
    if let Some(requirement) = &rule.on_exit_codes {
        // `matchOnExitCodes`: the containers first, then the init containers.
        let statuses = pod.status.container_statuses.iter().chain(pod.status.init_container_statuses.iter());
        for status in statuses {
            let Some(terminated) = &status.state.terminated else { continue };
            let code = terminated.exit_code;
            if code != 0
                && requirement.container_name.as_ref().is_none_or(|c| *c == status.name)
                && operator(requirement, code)
            {
                return Some(format!(
                    "Container {} for pod {namespace}/{name} failed with exit code {code}",
                    status.name
                ));
            }
        }
        return None;
    }
    // `matchOnPodConditions`: the pod's first condition that any pattern matches.
    let matched = pod.status.conditions.iter().find(|c| {
        let matches = |p: &PodFailurePolicyOnPodConditionsPattern| {
            c.type_ == p.type_ && c.status == p.status.as_deref().unwrap_or("True")
        };
        rule.on_pod_conditions.iter().any(matches)
    })?;
    Some(format!("Pod {namespace}/{name} has condition {}", matched.type_))
}

fn operator(requirement: &PodFailurePolicyOnExitCodesRequirement, code: i32) -> bool {
    let listed = requirement.values.contains(&code);
    if requirement.operator == "NotIn" { !listed } else { listed }
}
