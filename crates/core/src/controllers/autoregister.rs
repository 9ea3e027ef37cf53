//! kube-apiserver's APIService registration: one local APIService per group/version it serves
//! (the `kube-apiserver-autoregistration` hook's autoregister controller, with the priorities of
//! cmd/kube-apiserver/app/aggregator.go), one per custom resource's group/version while its CRD
//! is served (`crdRegistrationController`), and the local availability controller's `Local`
//! condition on each. A deleted registration comes back at the next pass; one a removed CRD
//! leaves behind goes.

use crate::api::api_service::AUTOMANAGED_LABEL;
use crate::api::{ApiService, ObjectMeta, RESOURCES};
use crate::apiserver::rest::discovery;
use crate::sim::random::Purpose;
use crate::store::Store;

/// `manageOnStart`: a built-in group's registration.
const ON_START: &str = "onstart";
/// `manageContinuously`: a custom resource group's, kept in step with its CRD.
const CONTINUOUSLY: &str = "true";

/// Registers what is served and unregisters what a CRD no longer serves.
pub fn sync(store: &mut Store) {
    let wanted = wanted(store);
    for (group, version, managed) in &wanted {
        let name = format!("{version}.{group}");
        if store.try_get::<ApiService>("", &name).is_none() {
            register(store, local(group, version, managed));
        }
    }
    let stale: Vec<String> = store
        .list::<ApiService>(None)
        .filter(|s| s.metadata.labels.get(AUTOMANAGED_LABEL) == Some(CONTINUOUSLY))
        .filter(|s| !wanted.iter().any(|(g, v, _)| format!("{v}.{g}") == s.metadata.name))
        .map(|s| s.metadata.name.clone())
        .collect();
    for name in stale {
        let _ = store.delete::<ApiService>("", &name, &Default::default());
    }
}

/// Every group/version the API server serves itself, the core group's `v1` among them, with
/// how autoregister manages it.
fn wanted(store: &Store) -> Vec<(&'static str, &'static str, &'static str)> {
    let custom = |group: &str| RESOURCES.iter().any(|r| r.custom && r.group == group);
    let mut wanted = vec![("", "v1", ON_START)];
    for (group, version) in discovery::served_groups(store) {
        wanted.push((group, version, if custom(group) { CONTINUOUSLY } else { ON_START }));
    }
    wanted
}

/// A local registration, with the priorities upstream gives its group (1000 and 100 for a
/// custom resource's).
fn local(group: &str, version: &str, managed: &str) -> ApiService {
    let mut service =
        ApiService { metadata: ObjectMeta::named("", &format!("{version}.{group}")), ..Default::default() };
    service.metadata.labels.insert(AUTOMANAGED_LABEL, managed);
    let (group_priority, version_priority) = priority(group, version).unwrap_or((1000, 100));
    service.spec.group = Some(group.to_string()).filter(|g| !g.is_empty());
    service.spec.version = Some(version.to_string());
    service.spec.group_priority_minimum = group_priority;
    service.spec.version_priority = version_priority;
    service
}

/// Creates it (its uid from a stream of its own, so the learner's uids stay as they were) and
/// marks it available, as the local availability controller does at once.
fn register(store: &mut Store, service: ApiService) {
    let Ok(created) = store.create_from_stream(Purpose::ApiServiceUid, service) else { return };
    let message = "Local APIServices are always available".to_string();
    let available = super::api_service_availability::with_condition(&created, "True", "Local", message, store);
    let _ = store.update_status(available);
}

/// `apiVersionPriorities` for the groups the lab serves: (group minimum, version priority).
fn priority(group: &str, version: &str) -> Option<(i32, i32)> {
    Some(match (group, version) {
        ("", "v1") => (18000, 1),
        ("apps", "v1") => (17800, 15),
        ("events.k8s.io", "v1") => (17750, 15),
        ("authentication.k8s.io", "v1") => (17700, 15),
        ("authorization.k8s.io", "v1") => (17600, 15),
        ("autoscaling", "v1") => (17500, 15),
        ("autoscaling", "v2") => (17500, 30),
        ("batch", "v1") => (17400, 15),
        ("certificates.k8s.io", "v1") => (17300, 15),
        ("networking.k8s.io", "v1") => (17200, 15),
        ("policy", "v1") => (17100, 15),
        ("rbac.authorization.k8s.io", "v1") => (17000, 15),
        ("storage.k8s.io", "v1") => (16800, 15),
        ("apiextensions.k8s.io", "v1") | ("admissionregistration.k8s.io", "v1") => (16700, 15),
        ("scheduling.k8s.io", "v1") => (16600, 15),
        ("coordination.k8s.io", "v1") => (16500, 15),
        ("node.k8s.io", "v1") => (16300, 15),
        ("discovery.k8s.io", "v1") => (16200, 15),
        ("resource.k8s.io", "v1") => (16200, 21),
        ("flowcontrol.apiserver.k8s.io", "v1") => (16100, 21),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::api::ApiService;
    use crate::cluster::ClusterSpec;
    use crate::kubectl::fixture::run;
    use crate::sim::Sim;

    /// A new lab has one local registration per served group/version; one deleted is made
    /// again; a CRD's group is registered while the CRD is installed.
    #[test]
    fn every_served_group_version_is_registered_and_kept() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        let apps = sim.store().get::<ApiService>("", "v1.apps").expect("registered").clone();
        assert_eq!((apps.spec.group_priority_minimum, apps.spec.version_priority), (17800, 15));
        assert!(apps.is_available());
        assert!(sim.store().get::<ApiService>("", "v1.").is_ok());
        run(&mut sim, "kubectl delete apiservice v1.apps");
        run(&mut sim, "sleep 1s");
        assert!(sim.store().get::<ApiService>("", "v1.apps").is_ok());
        assert!(sim.store().get::<ApiService>("", "v1alpha1.scheduling.x-k8s.io").is_err());
        run(&mut sim, "lab addon install coscheduling");
        run(&mut sim, "sleep 5s");
        let crd = sim.store().get::<ApiService>("", "v1alpha1.scheduling.x-k8s.io").expect("registered");
        assert_eq!(crd.metadata.labels.get(crate::api::api_service::AUTOMANAGED_LABEL), Some("true"));
    }
}
