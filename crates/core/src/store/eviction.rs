//! The Eviction subresource (`POST pods/NAME/eviction`, a policy/v1 Eviction): a graceful
//! delete that a PodDisruptionBudget may refuse. The budget's `disruptionsAllowed` is spent
//! (and the pod noted in `disruptedPods`) in the same status write that approves it, so two
//! evictions can never both take the last allowed disruption. Mirrors
//! pkg/registry/core/pod/storage/eviction.go.

use super::{DeleteOptions, Deleted, Store, UserInfo};
use crate::api::meta::Time;
use crate::api::pod::PodCondition;
use crate::api::pod_disruption_budget::ALWAYS_ALLOW;
use crate::api::{Kind, Object, Pod, PodDisruptionBudget};
use crate::error::ApiError;

/// `MaxDisruptedPodSize`: approved evictions the controller has not yet seen, at most.
const MAX_DISRUPTED_POD_SIZE: usize = 2000;

/// policy/v1 `DisruptionBudgetCause`: the cause type of a refused eviction.
pub const DISRUPTION_BUDGET_CAUSE: &str = "DisruptionBudget";

/// The message of every refused eviction (`createTooManyRequestsError`, `checkAndDecrement`).
pub const REFUSED: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

impl Store {
    /// Evicts a pod as the current user, who needs `create` on `pods/eviction`; what the
    /// eviction then writes (the budget's status, the pod's condition, the delete) the API
    /// server writes itself.
    pub fn evict(&mut self, namespace: &str, name: &str, options: &DeleteOptions) -> Result<Deleted<Object>, ApiError> {
        self.authorize("create", Kind::Pod, namespace, name, "eviction")?;
        let caller = self.act_as(UserInfo::apiserver());
        let result = evict(self, namespace, name, options);
        self.act_as(caller);
        result
    }
}

fn evict(store: &mut Store, namespace: &str, name: &str, options: &DeleteOptions) -> Result<Deleted<Object>, ApiError> {
    let pod = store.get::<Pod>(namespace, name)?.clone();
    if !can_ignore_budgets(&pod) {
        let budgets: Vec<PodDisruptionBudget> = store
            .list::<PodDisruptionBudget>(Some(namespace))
            .filter(|b| b.selects(&pod.metadata.labels))
            .cloned()
            .collect();
        match budgets.as_slice() {
            [] => {}
            [budget] if !needs_budget(&pod, budget) => {}
            [budget] => check_and_decrement(store, &pod.metadata.name, budget.clone())?,
            _ => {
                return Err(ApiError::Failure {
                    code: 500,
                    message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
                        .into(),
                });
            }
        }
    }
    add_condition_and_delete(store, pod, options)
}

/// `canIgnorePDB`: a pod that finished, never started or is already going disrupts nothing.
fn can_ignore_budgets(pod: &Pod) -> bool {
    matches!(pod.phase(), "Succeeded" | "Failed" | "Pending") || pod.metadata.is_being_deleted()
}

/// Whether evicting this pod spends a disruption: a Ready pod always does; an unready one
/// does not under `AlwaysAllow`, nor under `IfHealthyBudget` while the budget is met.
fn needs_budget(pod: &Pod, budget: &PodDisruptionBudget) -> bool {
    if pod.is_ready() {
        return true;
    }
    if budget.spec.unhealthy_pod_eviction_policy.as_deref() == Some(ALWAYS_ALLOW) {
        return false;
    }
    let status = &budget.status;
    !(status.current_healthy >= status.desired_healthy && status.desired_healthy > 0)
}

/// `checkAndDecrement`: refuses (429) while the controller has not seen the budget's latest
/// spec or no disruption is allowed; otherwise spends one and notes the pod.
fn check_and_decrement(store: &mut Store, pod_name: &str, mut budget: PodDisruptionBudget) -> Result<(), ApiError> {
    let name = budget.metadata.name.clone();
    let forbidden = |reason: &str| ApiError::Forbidden {
        message: format!("poddisruptionbudget.policy \"{name}\" is forbidden: {reason}"),
    };
    let status = &budget.status;
    if status.observed_generation < budget.metadata.generation {
        let cause = format!("The disruption budget {name} is still being processed by the server.");
        return Err(too_many_requests(cause, 10));
    }
    if status.disruptions_allowed < 0 {
        return Err(forbidden("pdb disruptions allowed is negative"));
    }
    if status.disrupted_pods.len() > MAX_DISRUPTED_POD_SIZE {
        return Err(forbidden("DisruptedPods map too big - too many evictions not confirmed by PDB controller"));
    }
    if status.disruptions_allowed == 0 {
        let cause = format!(
            "The disruption budget {name} needs {} healthy pods and has {} currently",
            status.desired_healthy, status.current_healthy
        );
        return Err(too_many_requests(cause, 0));
    }
    let now = Time(store.now());
    budget.status.disruptions_allowed -= 1;
    if budget.status.disruptions_allowed == 0 {
        budget.update_disruption_allowed_condition(now);
    }
    budget.status.disrupted_pods.insert(pod_name.to_string(), now);
    store.update_status(budget).map(|_| ())
}

fn too_many_requests(cause: String, retry_after_seconds: i32) -> ApiError {
    ApiError::TooManyRequests {
        message: REFUSED.into(),
        retry_after_seconds,
        causes: vec![(DISRUPTION_BUDGET_CAUSE.into(), cause)],
    }
}

/// `addConditionAndDeletePod`: the pod is marked `DisruptionTarget` (by the Eviction API),
/// then deleted as the request asked.
fn add_condition_and_delete(
    store: &mut Store,
    mut pod: Pod,
    options: &DeleteOptions,
) -> Result<Deleted<Object>, ApiError> {
    let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
    let target = PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        last_transition_time: Some(Time(store.now())),
        reason: Some("EvictionByEvictionAPI".into()),
        message: Some("Eviction API: evicting".into()),
        ..Default::default()
    };
    let unchanged = pod.status.conditions.iter().any(|c| {
        c.type_ == target.type_ && c.status == target.status && c.reason == target.reason && c.message == target.message
    });
    if !unchanged {
        pod.status.conditions.retain(|c| c.type_ != "DisruptionTarget");
        pod.status.conditions.push(target);
        store.update_status(pod)?;
    }
    store.delete_object(Kind::Pod, &namespace, &name, options)
}

#[cfg(test)]
mod tests {
    use crate::api::Pod;
    use crate::apiserver::Client;
    use crate::kubectl::fixture::{lab, run};
    use crate::sim::Sim;
    use crate::store::{DeleteOptions, UserInfo};

    fn evict(sim: &mut Sim, name: &str) -> Result<(), String> {
        let mut client = Client::new(sim.store_mut(), UserInfo::admin());
        client.evict("default", name, &DeleteOptions::default()).map(|_| ()).map_err(|e| e.to_string())
    }

    /// A Running pod of the Deployment that is not going away.
    fn running_pod(sim: &Sim, prefix: &str) -> String {
        let mut pods = sim.store().list::<Pod>(Some("default"));
        let running = |p: &&Pod| p.phase() == "Running" && !p.metadata.is_being_deleted();
        pods.find(|p| p.metadata.name.starts_with(prefix) && running(p)).unwrap().metadata.name.clone()
    }

    #[test]
    fn unready_pods_spend_nothing_under_always_allow_and_finished_pods_ignore_budgets() {
        let mut sim = lab(concat!(
            "kubectl apply -f - <<EOF\n",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: broken}\nspec:\n  replicas: 2\n",
            "  selector: {matchLabels: {app: broken}}\n  template:\n    metadata: {labels: {app: broken}}\n",
            "    spec:\n      containers:\n      - name: hello\n        image: hello:v3-broken\n",
            "        readinessProbe: {httpGet: {path: /readyz, port: 8080}}\nEOF\n",
            "kubectl create pdb broken --selector=app=broken --min-available=1\n",
            "kubectl run done --image=busybox --restart=Never --labels=app=broken -- true\nsleep 30s\n",
        ));
        let pod = running_pod(&sim, "broken-");
        assert_eq!(
            evict(&mut sim, &pod),
            Err("Error from server (TooManyRequests): Cannot evict pod as it would violate the pod's disruption budget.".into())
        );
        let cause = sim.store().get::<crate::api::PodDisruptionBudget>("default", "broken").unwrap().status.clone();
        assert_eq!((cause.current_healthy, cause.desired_healthy, cause.disruptions_allowed), (0, 1, 0));
        assert_eq!(evict(&mut sim, "done"), Ok(()), "a finished pod disrupts nothing");
        run(
            &mut sim,
            "kubectl patch pdb broken --type=merge -p '{\"spec\":{\"unhealthyPodEvictionPolicy\":\"AlwaysAllow\"}}'",
        );
        run(&mut sim, "sleep 1s");
        assert_eq!(evict(&mut sim, &pod), Ok(()));
        let status = &sim.store().get::<crate::api::PodDisruptionBudget>("default", "broken").unwrap().status;
        assert!(status.disrupted_pods.is_empty(), "an unready pod spends no disruption");
        let target = sim.store().try_get::<Pod>("default", &pod).and_then(|p| {
            p.status.conditions.iter().find(|c| c.type_ == "DisruptionTarget").and_then(|c| c.reason.clone())
        });
        assert_eq!(target.as_deref(), Some("EvictionByEvictionAPI"));
    }
}
