//! The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a ClusterRole
//! with an `aggregationRule` holds the rules of every other ClusterRole its selectors match,
//! taken in name order with repeats dropped — how admin, edit and view gather the rules of the
//! roles labelled `aggregate-to-admin`, `-edit` and `-view`.

use crate::api::ClusterRole;
use crate::api::rbac::PolicyRule;
use crate::store::{Store, UserInfo};

/// The controller's service account in kube-system.
pub const SERVICE_ACCOUNT: &str = "clusterrole-aggregation-controller";

/// Brings every aggregated ClusterRole's rules up to date, as the controller's service
/// account. Aggregated roles can feed each other (edit into admin), so it runs until nothing
/// changes, at most once per aggregated role.
pub fn sync(store: &mut Store) {
    let caller = store.act_as(UserInfo::controller(SERVICE_ACCOUNT));
    let aggregated: Vec<String> = store
        .list::<ClusterRole>(None)
        .filter(|r| r.aggregation_rule.is_some())
        .map(|r| r.metadata.name.clone())
        .collect();
    for _ in 0..=aggregated.len() {
        let mut changed = false;
        for name in &aggregated {
            let Some(role) = store.try_get::<ClusterRole>("", name) else { continue };
            let rules = aggregated_rules(store, role);
            if role.rules.as_deref().unwrap_or_default() == rules.as_slice() {
                continue;
            }
            let mut updated = role.clone();
            updated.rules = Some(rules);
            changed |= store.update(updated).is_ok();
        }
        if !changed {
            break;
        }
    }
    store.act_as(caller);
}

/// The controller's turn: a sync when an RBAC object changed since the last (its informer
/// hears of every ClusterRole write; `seen` is the store's RBAC generation it last saw).
pub fn sync_if_changed(store: &mut Store, seen: &mut u64) {
    if store.rbac_generation() == *seen {
        return;
    }
    sync(store);
    *seen = store.rbac_generation();
}

/// syncClusterRole: the union of the selected roles' rules, the role itself left out.
fn aggregated_rules(store: &Store, role: &ClusterRole) -> Vec<PolicyRule> {
    let mut rules: Vec<PolicyRule> = Vec::new();
    let selectors = role.aggregation_rule.iter().flat_map(|a| &a.cluster_role_selectors);
    for selector in selectors {
        // The lister lists in name order; the controller sorts by name again.
        let selected = store
            .list::<ClusterRole>(None)
            .filter(|other| other.metadata.name != role.metadata.name && selector.matches(&other.metadata.labels));
        for other in selected {
            for rule in other.rules.iter().flatten() {
                if !rules.contains(rule) {
                    rules.push(rule.clone());
                }
            }
        }
    }
    rules
}
