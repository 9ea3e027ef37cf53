//! The resource quota controller (pkg/controller/resourcequota, `syncResourceQuota`): each
//! quota's `status.hard` follows `spec.hard`, and `status.used` is recalculated from what its
//! namespace holds (`quota.CalculateUsage`) whenever something there changes, so deleting a
//! pod, a pod finishing or a new quota shows at once. Admission charges creates itself.

use crate::api::container::ResourceList;
use crate::api::labels::Selector;
use crate::api::quantity::Quantity;
use crate::api::{Kind, Pod, RESOURCES, ResourceQuota, Service};
use crate::runtime::informer::{Changes, Informer};
use crate::store::quota::evaluator::{self, Evaluator};
use crate::store::quota::resources;
use crate::store::{FieldSelector, Store};
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default)]
pub struct ResourceQuotaController {
    pub(crate) informer: Informer,
}

impl ResourceQuotaController {
    pub fn sync(&mut self, store: &mut Store) {
        if store.count::<ResourceQuota>() == 0 {
            self.informer.listed(store);
            return;
        }
        let namespaces: BTreeSet<String> = match self.informer.poll(store) {
            Changes::Relist => store.list::<ResourceQuota>(None).map(|q| q.metadata.namespace.clone()).collect(),
            Changes::Events(events) => events.filter(|e| e.kind != Kind::Event).map(|e| e.namespace.clone()).collect(),
        };
        for namespace in namespaces {
            let quotas: Vec<ResourceQuota> = store.list::<ResourceQuota>(Some(&namespace)).cloned().collect();
            for quota in quotas {
                sync_quota(store, quota);
            }
        }
        self.informer.listed(store);
    }
}

/// `syncResourceQuota`: hard from the spec, used recalculated; written only when either moved.
fn sync_quota(store: &mut Store, mut quota: ResourceQuota) {
    let hard = quota.spec.hard.clone();
    let mut used = quota.status.used.clone();
    used.extend(calculate_usage(store, &quota, &hard));
    let used = resources::mask(&used, hard.keys());
    let dirty = !resources::equals(&hard, &quota.status.hard) || !resources::equals(&used, &quota.status.used);
    if dirty {
        quota.status.hard = hard;
        quota.status.used = used;
        let _ = store.update_status(quota);
    }
}

/// `quota.CalculateUsage`: every evaluator tracking one of the quota's resources sums what the
/// namespace's objects in the quota's scopes use, from zero.
pub fn calculate_usage(store: &Store, quota: &ResourceQuota, hard: &ResourceList) -> ResourceList {
    let namespace = quota.metadata.namespace.as_str();
    let scopes = quota.scope_selectors();
    let mut usage = ResourceList::new();
    for info in RESOURCES.iter().filter(|r| r.namespaced && store.serves(r.kind)) {
        let evaluator = Evaluator::for_kind(info.kind);
        let tracked = evaluator.matching_resources(hard.keys());
        if tracked.is_empty() {
            continue;
        }
        let mut used: ResourceList = tracked.iter().map(|name| (name.clone(), Quantity::zero())).collect();
        let mut charge =
            |object_usage: ResourceList| used = resources::add(&used, &resources::mask(&object_usage, &tracked));
        match info.kind {
            Kind::Pod => {
                let in_scope = |pod: &&Pod| scopes.iter().all(|scope| evaluator::pod_matches_scope(scope, pod));
                for pod in store.list::<Pod>(Some(namespace)).filter(in_scope) {
                    charge(evaluator::pod_usage(pod, store.now()));
                }
            }
            // Only pods have scopes: a scoped quota counts no other kind.
            _ if !scopes.is_empty() => {}
            Kind::Service => {
                for service in store.list::<Service>(Some(namespace)) {
                    charge(evaluator::service_usage(service));
                }
            }
            kind => {
                let everything = (Selector::everything(), FieldSelector::everything());
                for _ in store.list_objects(kind, Some(namespace), &everything.0, &everything.1) {
                    charge(evaluator::count_usage(&evaluator));
                }
            }
        }
        usage = resources::add(&usage, &used);
    }
    usage
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    #[test]
    fn usage_follows_what_the_namespace_holds_and_finished_pods_free_their_share() {
        let mut sim = lab(
            "kubectl create quota counts --hard=pods=5,count/pods=5,configmaps=3,services=2\nkubectl create configmap a\nkubectl run done --image=busybox --restart=Never -- true\nkubectl run up --image=nginx\nsleep 30s\n",
        );
        // `done` has Succeeded: it is still an object (count/pods) but no longer a pod (pods).
        // The namespace's `kube-root-ca.crt` counts as a ConfigMap, as upstream's does.
        let used = "kubectl get quota counts -o jsonpath={.status.used}";
        assert_eq!(run(&mut sim, used), r#"{"configmaps":"2","count/pods":"2","pods":"1","services":"0"}"#);
        run(&mut sim, "kubectl delete configmap a");
        run(&mut sim, "kubectl delete pod up");
        run(&mut sim, "sleep 40s");
        assert_eq!(run(&mut sim, used), r#"{"configmaps":"1","count/pods":"1","pods":"0","services":"0"}"#);
    }
}
