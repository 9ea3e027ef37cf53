//! What a Job's podFailurePolicy makes of a failed pod: the first rule whose exit codes or pod
//! conditions match decides. Mirrors pkg/controller/job/pod_failure_policy.go
//! (`matchPodFailurePolicy`, `matchOnExitCodes`, `matchOnPodConditions`).

use crate::api::Pod;
use crate::api::job::{PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement, PodFailurePolicyRule};

/// The verdict on one failed pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Fail the whole Job, with this message (reason `PodFailurePolicy`).
    FailJob(String),
    /// Not counted against backoffLimit.
    Ignore,
    /// Counted, as without a policy (Count, FailIndex, or no rule matched).
    Count,
}

pub fn judge(policy: Option<&PodFailurePolicy>, pod: &Pod) -> Verdict {
    let Some(policy) = policy else { return Verdict::Count };
    for (index, rule) in policy.rules.iter().enumerate() {
        let Some(what) = matches(rule, pod) else { continue };
        return match rule.action.as_str() {
            "FailJob" => Verdict::FailJob(format!("{what} matching FailJob rule at index {index}")),
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
        let statuses = pod.status.init_container_statuses.iter().chain(pod.status.container_statuses.iter());
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
    for pattern in &rule.on_pod_conditions {
        let wanted = pattern.status.as_deref().unwrap_or("True");
        if pod.status.conditions.iter().any(|c| c.type_ == pattern.type_ && c.status == wanted) {
            return Some(format!("Pod {namespace}/{name} has condition {} ", pattern.type_).trim_end().to_string());
        }
    }
    None
}

fn operator(requirement: &PodFailurePolicyOnExitCodesRequirement, code: i32) -> bool {
    let listed = requirement.values.contains(&code);
    if requirement.operator == "NotIn" { !listed } else { listed }
}
