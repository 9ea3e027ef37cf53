//! The Pod Security Standards' checks and the order they run in (k8s.io/pod-security-admission
//! policy/checks.go and registry.go): baseline checks first, then restricted ones, each group
//! sorted by check id; a restricted check replaces the baseline check it overrides; every
//! check has the behaviour of the newest of its versions not after the policy's version.

use super::policy::{Level, LevelVersion};
use super::{baseline, restricted};
use crate::api::container::Container;
use crate::api::meta::ObjectMeta;
use crate::api::pod::PodSpec;
use std::borrow::Cow;

/// What a failing check says: a short reason, and the detail shown in parentheses.
pub struct Violation {
    pub reason: &'static str,
    pub detail: String,
}

/// A check at one policy version (`minor`): `None` when the pod passes.
pub type CheckPod = fn(&ObjectMeta, &PodSpec, u32) -> Option<Violation>;

/// One check: its id (which orders it), level, the first version it applies to, and the
/// baseline checks it replaces from which version.
pub struct Check {
    pub id: &'static str,
    pub level: Level,
    pub since: u32,
    pub overrides: &'static [(&'static str, u32)],
    pub check: CheckPod,
}

/// Every check, in id order within each level (Go's byte-wise string order).
const CHECKS: &[&Check] = &[
    &baseline::APP_ARMOR_PROFILE,
    &baseline::CAPABILITIES_BASELINE,
    &baseline::HOST_NAMESPACES,
    &baseline::HOST_PATH_VOLUMES,
    &baseline::HOST_PORTS,
    &baseline::HOST_PROBES_AND_HOST_LIFECYCLE,
    &baseline::PRIVILEGED,
    &baseline::PROC_MOUNT,
    &baseline::SE_LINUX_OPTIONS,
    &baseline::SECCOMP_PROFILE_BASELINE,
    &baseline::SYSCTLS,
    &baseline::WINDOWS_HOST_PROCESS,
    &restricted::ALLOW_PRIVILEGE_ESCALATION,
    &restricted::CAPABILITIES_RESTRICTED,
    &restricted::PROC_MOUNT_RESTRICTED,
    &restricted::RESTRICTED_VOLUMES,
    &restricted::RUN_AS_NON_ROOT,
    &restricted::RUN_AS_USER,
    &restricted::SECCOMP_PROFILE_RESTRICTED,
];

/// The checks a level and version run, in order.
fn checks_for(level: Level, minor: u32) -> impl Iterator<Item = &'static Check> {
    let overridden = move |id: &str| {
        level == Level::Restricted
            && CHECKS.iter().any(|c| c.since <= minor && c.overrides.iter().any(|&(o, from)| o == id && from <= minor))
    };
    CHECKS.iter().copied().filter(move |c| {
        c.since <= minor
            && match c.level {
                Level::Baseline => level >= Level::Baseline && !overridden(c.id),
                _ => level == Level::Restricted,
            }
    })
}

/// The violations of a pod (or pod template) against a level and version, in check order
/// (upstream's `AggregateCheckResults`); none for `privileged`.
pub fn evaluate(lv: LevelVersion, meta: &ObjectMeta, spec: &PodSpec) -> Vec<Violation> {
    let minor = lv.version.minor();
    checks_for(lv.level, minor).filter_map(|c| (c.check)(meta, spec, minor)).collect()
}

/// `reason (detail), reason (detail)`: what a refusal and a warning say (`ForbiddenDetail`).
pub fn forbidden_detail(violations: &[Violation]) -> String {
    let parts: Vec<String> = violations
        .iter()
        .map(|v| if v.detail.is_empty() { v.reason.to_string() } else { format!("{} ({})", v.reason, v.detail) })
        .collect();
    parts.join(", ")
}

/// `reason, reason`: what the namespace check lists per pod (`ForbiddenReason`).
pub fn forbidden_reason(violations: &[Violation]) -> String {
    violations.iter().map(|v| v.reason).collect::<Vec<_>>().join(", ")
}

/// Every container of a pod: init containers, containers, then ephemeral containers (which
/// carry no ports, probes or security context, so they count as containers that set none).
pub fn containers(spec: &PodSpec) -> Vec<Cow<'_, Container>> {
    let ephemeral = spec
        .ephemeral_containers
        .iter()
        .map(|e| Cow::Owned(Container { name: e.name.clone(), image: e.image.clone(), ..Container::default() }));
    spec.init_containers.iter().chain(spec.containers.iter()).map(Cow::Borrowed).chain(ephemeral).collect()
}

/// `"a", "b"`.
pub fn join_quote<S: AsRef<str>>(items: &[S]) -> String {
    items.iter().map(|s| format!("\"{}\"", s.as_ref())).collect::<Vec<_>>().join(", ")
}

pub fn pluralize(singular: &'static str, plural: &'static str, count: usize) -> &'static str {
    if count == 1 { singular } else { plural }
}

/// `container "a"` / `containers "a", "b"`.
pub fn containers_phrase(names: &[String]) -> String {
    format!("{} {}", pluralize("container", "containers", names.len()), join_quote(names))
}

/// Whether the pod runs in a user namespace (`hostUsers: false`), which relaxes some checks
/// from v1.35.
pub fn user_namespaced(spec: &PodSpec) -> bool {
    spec.host_users == Some(false)
}

/// Whether the pod declares itself a Windows pod (`spec.os.name: windows`), which some Linux
/// checks skip from v1.25.
pub fn windows(spec: &PodSpec) -> bool {
    spec.os.as_ref().is_some_and(|os| os.name == "windows")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(level: Level, minor: u32) -> Vec<&'static str> {
        checks_for(level, minor).map(|c| c.id).collect()
    }

    #[test]
    fn restricted_runs_the_baseline_checks_it_does_not_override_then_its_own() {
        assert_eq!(
            ids(Level::Restricted, 36),
            [
                "appArmorProfile",
                "hostNamespaces",
                "hostPorts",
                "hostProbesAndHostLifecycle",
                "privileged",
                "seLinuxOptions",
                "sysctls",
                "windowsHostProcess",
                "allowPrivilegeEscalation",
                "capabilities_restricted",
                "procMount_restricted",
                "restrictedVolumes",
                "runAsNonRoot",
                "runAsUser",
                "seccompProfile_restricted",
            ]
        );
    }

    #[test]
    fn older_versions_run_the_checks_they_had() {
        assert_eq!(
            ids(Level::Restricted, 21),
            [
                "appArmorProfile",
                "capabilities_baseline",
                "hostNamespaces",
                "hostPorts",
                "privileged",
                "procMount",
                "seLinuxOptions",
                "sysctls",
                "windowsHostProcess",
                "allowPrivilegeEscalation",
                "restrictedVolumes",
                "runAsNonRoot",
                "seccompProfile_restricted",
            ]
        );
        assert_eq!(ids(Level::Baseline, 36).len(), 12);
        assert!(ids(Level::Privileged, 36).is_empty());
    }
}
