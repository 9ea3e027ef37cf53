//! An update (create, update or non-apply patch): the writer takes every field it added or
//! changed, from whoever owned it, and removed fields leave every owner. Upstream:
//! structured-merge-diff merge/update.go `Updater.Update` and apiserver's managedFieldsUpdater.

use super::compare::compare;
use super::ignored::strip;
use super::managers::{Managed, Manager};
use crate::api::meta::Time;
use serde_json::Value;

pub fn update(managed: &mut Managed, old: &Value, new: &Value, manager: &Manager, now: Time) {
    let diff = compare(old, new);
    let changed = strip(diff.changed());
    let removed = strip(diff.removed);
    for owner in &mut managed.0 {
        owner.set = owner.set.difference(&changed).difference(&removed);
    }
    if !changed.is_empty() {
        let previous = managed.find(manager).map(|o| o.set.clone()).unwrap_or_default();
        managed.set(manager, previous.union(&changed), Some(now));
    }
    managed.drop_empty();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::managed_fields::fields_v1;
    use crate::sim::time::SimTime;
    use serde_json::json;

    #[test]
    fn a_scale_takes_replicas_from_the_creator() {
        let mut managed = Managed::default();
        let created = json!({"metadata": {"name": "web", "labels": {"app": "web"}}, "spec": {"replicas": 1}});
        update(&mut managed, &json!({}), &created, &Manager::apps_updater("kubectl-create", ""), Time(SimTime(0)));
        let scaled = json!({"metadata": {"name": "web", "labels": {"app": "web"}}, "spec": {"replicas": 5}});
        update(&mut managed, &created, &scaled, &Manager::apps_updater("kubectl", "scale"), Time(SimTime(1000)));
        let sets: Vec<Value> = managed.0.iter().map(|o| fields_v1::to_json(&o.set)).collect();
        assert_eq!(
            sets,
            [json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}}}}), json!({"f:spec": {"f:replicas": {}}})]
        );
    }
}
