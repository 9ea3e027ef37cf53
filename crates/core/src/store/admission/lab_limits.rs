//! `LabLimits` (kubelab's own, last in the chain, as ResourceQuota is upstream): a workload
//! may not ask for more replicas than the lab allows (`store/lab_limits.rs`), however the
//! request came — `create`, `scale`, `apply`, `patch`, or an autoscaler's `maxReplicas`.

use super::{Plugin, Request};
use crate::api::ObjectMut;
use crate::error::ApiError;
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "LabLimits", admit: None, validate: Some(validate) };

fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    let asked = match object {
        ObjectMut::Deployment(d) => d.spec.replicas.map(|n| ("replicas", n)),
        ObjectMut::ReplicaSet(rs) => rs.spec.replicas.map(|n| ("replicas", n)),
        ObjectMut::HorizontalPodAutoscaler(hpa) => Some(("maxReplicas", hpa.spec.max_replicas)),
        _ => None,
    };
    let Some((field, replicas)) = asked else { return Ok(()) };
    store.limits().check_replicas(field, replicas).map_err(|reason| {
        let info = request.kind.info();
        ApiError::Forbidden {
            message: format!("{} {:?} is forbidden: {reason}", info.plural_qualified(), request.name),
        }
    })
}
