//! Rollout arithmetic: maxSurge/maxUnavailable fenceposts, how big the new ReplicaSet may
//! grow, and the replica annotations. Mirrors pkg/controller/deployment/util/deployment_util.go.

use super::hash::POD_TEMPLATE_HASH;
use crate::api::{Deployment, ReplicaSet};

pub const REVISION: &str = "deployment.kubernetes.io/revision";
pub const REVISION_HISTORY: &str = "deployment.kubernetes.io/revision-history";
pub const DESIRED_REPLICAS: &str = "deployment.kubernetes.io/desired-replicas";
pub const MAX_REPLICAS: &str = "deployment.kubernetes.io/max-replicas";
/// Deployment annotations that are not copied onto its ReplicaSets (`skipCopyAnnotation`).
const NOT_COPIED: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    REVISION_HISTORY,
    DESIRED_REPLICAS,
    MAX_REPLICAS,
    "deprecated.deployment.rollback.to",
];

pub fn replicas(d: &Deployment) -> i32 {
    d.spec.replicas.unwrap_or(1)
}

pub fn rs_replicas(rs: &ReplicaSet) -> i32 {
    rs.spec.replicas.unwrap_or(1)
}

pub fn is_rolling(d: &Deployment) -> bool {
    d.spec.strategy.as_ref().and_then(|s| s.type_.as_deref()).unwrap_or("RollingUpdate") == "RollingUpdate"
}

/// `ResolveFenceposts`: (surge rounded up, unavailable rounded down); both 0 ⇒ unavailable 1.
pub fn resolve_fenceposts(d: &Deployment) -> (i32, i32) {
    let desired = replicas(d);
    let rolling = d.spec.strategy.as_ref().and_then(|s| s.rolling_update.as_ref());
    let surge = rolling.and_then(|r| r.max_surge.as_ref()).and_then(|v| v.scaled_value(desired, true).ok());
    let unavailable =
        rolling.and_then(|r| r.max_unavailable.as_ref()).and_then(|v| v.scaled_value(desired, false).ok());
    let (surge, unavailable) = (surge.unwrap_or(0), unavailable.unwrap_or(0));
    if surge == 0 && unavailable == 0 { (0, 1) } else { (surge, unavailable) }
}

pub fn max_surge(d: &Deployment) -> i32 {
    if is_rolling(d) { resolve_fenceposts(d).0 } else { 0 }
}

pub fn max_unavailable(d: &Deployment) -> i32 {
    if !is_rolling(d) || replicas(d) == 0 {
        return 0;
    }
    resolve_fenceposts(d).1.min(replicas(d))
}

/// `NewRSNewReplicas`: how many replicas the new ReplicaSet should have now.
pub fn new_rs_new_replicas(d: &Deployment, all: &[&ReplicaSet], new_rs: Option<&ReplicaSet>) -> i32 {
    if !is_rolling(d) {
        return replicas(d);
    }
    let current: i32 = all.iter().map(|rs| rs_replicas(rs)).sum();
    let max_total = replicas(d) + max_surge(d);
    let new_current = new_rs.map_or(0, rs_replicas);
    if current >= max_total {
        return new_current;
    }
    let scale_up = (max_total - current).min(replicas(d) - new_current);
    new_current + scale_up
}

/// Sets desired-replicas and max-replicas; true if anything changed.
pub fn set_replicas_annotations(rs: &mut ReplicaSet, desired: i32, max: i32) -> bool {
    let annotations = &mut rs.metadata.annotations;
    let changed_desired = annotations.insert(DESIRED_REPLICAS, desired.to_string()) != Some(desired.to_string());
    let changed_max = annotations.insert(MAX_REPLICAS, max.to_string()) != Some(max.to_string());
    changed_desired || changed_max
}

/// Copies the Deployment's own annotations onto the ReplicaSet; true if anything changed.
pub fn copy_annotations(d: &Deployment, rs: &mut ReplicaSet) -> bool {
    let mut changed = false;
    for (key, value) in d.metadata.annotations.iter() {
        if NOT_COPIED.contains(&key) || rs.metadata.annotations.get(key) == Some(value) {
            continue;
        }
        rs.metadata.annotations.insert(key, value);
        changed = true;
    }
    changed
}

pub fn revision(rs: &ReplicaSet) -> i64 {
    rs.metadata.annotations.get(REVISION).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// The desired-replicas annotation, if set.
pub fn desired_annotation(rs: &ReplicaSet) -> Option<i32> {
    rs.metadata.annotations.get(DESIRED_REPLICAS).and_then(|v| v.parse().ok())
}

pub fn max_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    rs.metadata.annotations.get(MAX_REPLICAS).and_then(|v| v.parse().ok())
}

/// A ReplicaSet's template hash, from its labels.
pub fn template_hash(rs: &ReplicaSet) -> Option<&str> {
    rs.spec.template.metadata.labels.get(POD_TEMPLATE_HASH)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::deployment::{DeploymentStrategy, RollingUpdateDeployment};
    use crate::api::intstr::IntOrString;

    fn deployment(replicas: i32, surge: IntOrString, unavailable: IntOrString) -> Deployment {
        let mut d = Deployment::default();
        d.spec.replicas = Some(replicas);
        d.spec.strategy = Some(DeploymentStrategy {
            type_: Some("RollingUpdate".into()),
            rolling_update: Some(RollingUpdateDeployment {
                max_surge: Some(surge),
                max_unavailable: Some(unavailable),
            }),
        });
        d
    }

    #[test]
    fn fenceposts_round_surge_up_and_unavailable_down() {
        let pct = |s: &str| IntOrString::String(s.into());
        // (replicas, maxSurge, maxUnavailable) => (surge, unavailable)
        let table = [
            (3, pct("25%"), pct("25%"), (1, 0)),
            (10, pct("25%"), pct("25%"), (3, 2)),
            (3, IntOrString::Int(1), IntOrString::Int(0), (1, 0)),
            (3, IntOrString::Int(0), IntOrString::Int(0), (0, 1)),
            (1, pct("10%"), pct("10%"), (1, 0)),
        ];
        for (replicas, surge, unavailable, want) in table {
            assert_eq!(resolve_fenceposts(&deployment(replicas, surge, unavailable)), want);
        }
        assert_eq!(max_unavailable(&deployment(2, IntOrString::Int(0), IntOrString::Int(5))), 2);
    }

    #[test]
    fn new_replica_set_grows_within_the_surge() {
        let d = deployment(3, IntOrString::Int(1), IntOrString::Int(0));
        let mut old = ReplicaSet::default();
        old.spec.replicas = Some(3);
        let mut new = ReplicaSet::default();
        new.spec.replicas = Some(0);
        assert_eq!(new_rs_new_replicas(&d, &[&old, &new], Some(&new)), 1);
        new.spec.replicas = Some(1);
        assert_eq!(new_rs_new_replicas(&d, &[&old, &new], Some(&new)), 1);
        old.spec.replicas = Some(2);
        assert_eq!(new_rs_new_replicas(&d, &[&old, &new], Some(&new)), 2);
    }
}
