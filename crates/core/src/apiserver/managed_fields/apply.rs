//! Server-side apply: the configuration merged into the live object, its fields owned by the
//! applier, the fields it applied before and no longer does removed (unless someone else
//! owns them), and a change to a field another manager owns a conflict unless forced.
//! Upstream: structured-merge-diff merge/update.go `Updater.Apply`, `prune`, `update`.

use super::compare::compare;
use super::conflict::{self, Conflict};
use super::field_set::FieldSet;
use super::ignored::strip;
use super::managers::{Managed, Manager};
use super::merge::merge;
use super::remove::remove;
use super::to_field_set::to_field_set;
use crate::api::meta::Time;
use crate::error::ApiError;
use serde_json::{Map, Value};

/// The object after applying `config` over `live`; `managed` becomes its owners.
pub fn apply(
    managed: &mut Managed,
    (live, config): (&Value, &Value),
    manager: &Manager,
    force: bool,
    now: Time,
) -> Result<Value, ApiError> {
    let applied = strip(to_field_set(config));
    let mut merged = merge(live, config);
    let previous = managed.find(manager).cloned();
    let last = previous.as_ref().map(|o| o.set.clone()).unwrap_or_default();
    managed.set(manager, applied, previous.as_ref().and_then(|o| o.time));
    prune(&mut merged, &last, managed);
    let diff = compare(live, &merged);
    let (changed, removed) = (strip(diff.changed()), strip(diff.removed));
    let conflicts = conflicts(managed, manager, &changed);
    if !force && !conflicts.is_empty() {
        return Err(conflict::error(&conflicts));
    }
    for owner in managed.0.iter_mut().filter(|o| !o.manager.same(manager)) {
        owner.set = owner.set.difference(&changed).difference(&removed);
    }
    if merged != *live || previous.is_none() {
        let set = managed.find(manager).map(|o| o.set.clone()).unwrap_or_default();
        managed.set(manager, set, Some(now));
    }
    managed.drop_empty();
    Ok(merged)
}

/// Each field another manager owns that this apply changes.
fn conflicts(managed: &Managed, manager: &Manager, changed: &FieldSet) -> Vec<Conflict> {
    let others = managed.0.iter().filter(|o| !o.manager.same(manager));
    others
        .flat_map(|o| {
            let owned = o.set.intersection(changed).members();
            owned.into_iter().map(|path| Conflict { manager: o.manager.clone(), path })
        })
        .collect()
}

/// Removes what the applier owned before, owns no more, and nobody else owns (at or below).
/// An element's key fields stay while the element does.
fn prune(merged: &mut Value, last: &FieldSet, managed: &Managed) {
    let owned = managed.0.iter().fold(FieldSet::default(), |all, o| all.union(&o.set));
    for path in last.difference(&owned).members() {
        if !owned.has_at_or_below(&path) && !is_key_of_element(&path) {
            remove(merged, &path);
        }
    }
}

fn is_key_of_element(path: &[String]) -> bool {
    let [.., element, name] = path else { return false };
    let (Some(keys), Some(name)) = (element.strip_prefix("k:"), name.strip_prefix("f:")) else { return false };
    serde_json::from_str::<Map<String, Value>>(keys).is_ok_and(|keys| keys.contains_key(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::managed_fields::fields_v1;
    use crate::apiserver::managed_fields::managers::Operation;
    use crate::sim::time::SimTime;
    use serde_json::json;

    fn applier() -> Manager {
        Manager {
            name: "kubectl".into(),
            operation: Operation::Apply,
            api_version: "apps/v1".into(),
            subresource: "".into(),
        }
    }

    #[test]
    fn a_field_no_longer_applied_is_removed_and_a_changed_owned_field_conflicts() {
        let mut managed = Managed::default();
        let config =
            json!({"metadata": {"name": "web", "labels": {"app": "web", "tier": "front"}}, "spec": {"replicas": 2}});
        let live = apply(&mut managed, (&json!({}), &config), &applier(), false, Time(SimTime(0))).unwrap();
        assert_eq!(live, config);
        let scaler = Manager { operation: Operation::Update, subresource: "scale".into(), ..applier() };
        let scaled =
            json!({"metadata": {"name": "web", "labels": {"app": "web", "tier": "front"}}, "spec": {"replicas": 5}});
        super::super::update::update(&mut managed, &live, &scaled, &scaler, Time(SimTime(1000)));
        let again = json!({"metadata": {"name": "web", "labels": {"app": "web"}}, "spec": {"replicas": 2}});
        let err = apply(&mut managed.clone(), (&scaled, &again), &applier(), false, Time(SimTime(2000))).unwrap_err();
        assert_eq!(
            err.message(),
            r#"Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas"#
        );
        let forced = apply(&mut managed, (&scaled, &again), &applier(), true, Time(SimTime(2000))).unwrap();
        assert_eq!(forced, again, "the tier label is pruned");
        assert_eq!(managed.0.len(), 1, "the scaler owns nothing any more");
        assert_eq!(
            fields_v1::to_json(&managed.0[0].set),
            json!({"f:metadata": {"f:labels": {"f:app": {}}}, "f:spec": {"f:replicas": {}}})
        );
    }
}
