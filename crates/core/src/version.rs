//! The one Kubernetes version the lab is: what `kubectl version`, every node's kubelet and
//! (later) the API's `/version` report, and which API versions are served. v1.36, as the
//! curriculum describes it; the build details are those of the kubectl 1.36.4 release binary,
//! the tests' oracle.

/// `gitVersion`.
pub const KUBERNETES_VERSION: &str = "v1.36.4";
pub const MAJOR: &str = "1";
pub const MINOR: &str = "36";
pub const GIT_COMMIT: &str = "bb826b1d48562f110659e64e8ec444327433db95";
pub const BUILD_DATE: &str = "2026-08-20T03:09:25Z";
pub const GO_VERSION: &str = "go1.26.5";
/// The kustomize that kubectl 1.36 embeds (`kubectl version` prints it).
pub const KUSTOMIZE_VERSION: &str = "v5.8.1";

/// The simulator's behaviour version: bumped whenever the same seed and commands give a
/// different lab (other generated names, other timings), so a permalink or lab log made by an
/// earlier version replays with a notice instead of silently differing.
/// 1: until v1.32 printing. 2: random streams by purpose, node Leases, the system
/// PriorityClasses, v1.36. 3: the network (kube-proxy, DNS, Ingress), the control-plane node
/// and kube-system's pods, a lab starting once they are Ready. 4: ConfigMaps and Secrets in
/// containers, the admission chain's order on a create (LimitRanger, PodSecurity,
/// ResourceQuota), ReplicaSets retrying refused creates, RBAC with its bootstrap policy and
/// every namespace's default ServiceAccount. 5: every namespace's `kube-root-ca.crt` and every
/// pod's `kube-api-access-…` token volume. 6: the API server's APIServices, add-ons' uids
/// from the control plane's stream, a container's command reading its environment, and Jobs'
/// per-index back-off and success policies.
pub const BEHAVIOUR_VERSION: u32 = 6;

/// What a learner or instructor is told when a permalink or lab log was made by an earlier
/// behaviour version: it replays, but may differ from what its author saw.
pub fn earlier_behaviour_notice(behaviour: u32) -> Option<&'static str> {
    (behaviour < BEHAVIOUR_VERSION).then_some(
        "It was made by an earlier version of the simulator: generated names and timings may differ from what its author saw.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_earlier_behaviour_gets_a_notice() {
        assert!(earlier_behaviour_notice(1).is_some_and(|n| n.contains("earlier version")));
        assert_eq!(earlier_behaviour_notice(BEHAVIOUR_VERSION), None);
    }
}
