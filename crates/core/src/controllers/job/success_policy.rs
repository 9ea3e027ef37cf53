//! successPolicy: an Indexed Job is declared succeeded once its succeeded indexes meet one rule,
//! before the other indexes have run. Mirrors pkg/controller/job/success_policy.go
//! (`matchSuccessPolicy`, `matchSucceededIndexesRule`).

use super::indexed::{self, Intervals};
use crate::api::job::SuccessPolicy;
use std::collections::BTreeSet;

/// The reason of the SuccessCriteriaMet and Complete conditions a rule leads to.
pub const SUCCESS_POLICY_REASON: &str = "SuccessPolicy";

/// The first rule the succeeded indexes meet, as the conditions' message words it.
pub fn matched_rule(policy: Option<&SuccessPolicy>, completions: i32, succeeded: &BTreeSet<i32>) -> Option<String> {
    let policy = policy?;
    if succeeded.is_empty() {
        return None;
    }
    let succeeded = indexed::intervals(succeeded);
    let met = |rule: &crate::api::job::SuccessPolicyRule| match &rule.succeeded_indexes {
        Some(text) => {
            let required = indexed::parse_intervals(Some(text), completions);
            // A rule whose indexes do not parse is passed over, as upstream does.
            !required.is_empty() && meets_succeeded_indexes(&required, &succeeded, rule.succeeded_count)
        }
        None => rule.succeeded_count.is_some_and(|count| indexed::total(&succeeded) >= i64::from(count)),
    };
    let index = policy.rules.iter().position(met)?;
    Some(format!("Matched rules at index {index}"))
}

/// All the rule's indexes succeeded, or at least `succeeded_count` of them did. Walks both
/// interval lists once, so a rule naming a million indexes costs its intervals, not its indexes.
fn meets_succeeded_indexes(required: &Intervals, succeeded: &Intervals, succeeded_count: Option<i32>) -> bool {
    let (mut contains, mut r, mut s) = (0_i64, 0, 0);
    while let (Some(rule), Some(done)) = (required.get(r), succeeded.get(s)) {
        let overlap = i64::from(rule.1.min(done.1)) - i64::from(rule.0.max(done.0)) + 1;
        contains += overlap.max(0);
        match done.1.cmp(&rule.1) {
            std::cmp::Ordering::Less => s += 1,
            std::cmp::Ordering::Greater => r += 1,
            std::cmp::Ordering::Equal => (r, s) = (r + 1, s + 1),
        }
    }
    contains == indexed::total(required) || succeeded_count.is_some_and(|count| contains >= i64::from(count))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(rules: &str) -> SuccessPolicy {
        serde_json::from_str(&format!(r#"{{"rules":{rules}}}"#)).unwrap()
    }

    fn matched(rules: &str, completions: i32, succeeded: &[i32]) -> Option<String> {
        matched_rule(Some(&policy(rules)), completions, &succeeded.iter().copied().collect())
    }

    #[test]
    fn succeeded_indexes_must_all_have_succeeded() {
        let rules = r#"[{"succeededIndexes":"0,2-3"}]"#;
        assert_eq!(matched(rules, 5, &[0, 2]), None);
        assert_eq!(matched(rules, 5, &[0, 1, 2, 3]).as_deref(), Some("Matched rules at index 0"));
    }

    #[test]
    fn a_count_with_indexes_needs_that_many_of_them() {
        let rules = r#"[{"succeededIndexes":"7"},{"succeededIndexes":"0-4","succeededCount":2}]"#;
        assert_eq!(matched(rules, 10, &[1, 5, 6]), None);
        assert_eq!(matched(rules, 10, &[1, 3, 6]).as_deref(), Some("Matched rules at index 1"));
    }

    #[test]
    fn a_count_alone_counts_every_index_and_bad_rules_are_passed_over() {
        let rules = r#"[{"succeededIndexes":"x"},{"succeededCount":3}]"#;
        assert_eq!(matched(rules, 4, &[0, 3]), None);
        assert_eq!(matched(rules, 4, &[0, 2, 3]).as_deref(), Some("Matched rules at index 1"));
        assert_eq!(matched(rules, 4, &[]), None);
        assert_eq!(matched_rule(None, 4, &BTreeSet::from([0])), None);
    }
}
