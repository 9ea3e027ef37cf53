//! The restricted Pod Security Standard's own checks (k8s.io/pod-security-admission
//! policy/check_*.go): current hardening best practice, on top of baseline. Reasons and
//! details are upstream's, word for word.

use super::baseline::{proc_mount, seccomp_violation, valid_seccomp};
use super::checks::{
    Check, CheckPod, Violation, containers, containers_phrase, join_quote, pluralize, user_namespaced, windows,
};
use super::policy::Level;
use crate::api::meta::ObjectMeta;
use crate::api::pod::PodSpec;
use std::collections::BTreeSet;

const fn restricted(id: &'static str, since: u32, overrides: &'static [(&'static str, u32)], check: CheckPod) -> Check {
    Check { id, level: Level::Restricted, since, overrides, check }
}

pub const ALLOW_PRIVILEGE_ESCALATION: Check =
    restricted("allowPrivilegeEscalation", 8, &[], allow_privilege_escalation);
pub const CAPABILITIES_RESTRICTED: Check =
    restricted("capabilities_restricted", 22, &[("capabilities_baseline", 22)], capabilities_restricted);
pub const PROC_MOUNT_RESTRICTED: Check = restricted("procMount_restricted", 35, &[("procMount", 35)], proc_mount);
pub const RESTRICTED_VOLUMES: Check = restricted("restrictedVolumes", 0, &[("hostPathVolumes", 0)], restricted_volumes);
pub const RUN_AS_NON_ROOT: Check = restricted("runAsNonRoot", 0, &[], run_as_non_root);
pub const RUN_AS_USER: Check = restricted("runAsUser", 23, &[], run_as_user);
pub const SECCOMP_PROFILE_RESTRICTED: Check =
    restricted("seccompProfile_restricted", 19, &[("seccompProfile_baseline", 19)], seccomp_profile_restricted);

/// From v1.25 a Windows pod skips the Linux-only checks.
fn skips_windows(spec: &PodSpec, minor: u32) -> bool {
    minor >= 25 && windows(spec)
}

/// From v1.35 a pod in a user namespace may run as its own root.
fn skips_user_namespace(spec: &PodSpec, minor: u32) -> bool {
    minor >= 35 && user_namespaced(spec)
}

fn allow_privilege_escalation(_: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    if skips_windows(spec, minor) {
        return None;
    }
    let bad: Vec<String> = containers(spec)
        .iter()
        .filter(|c| c.security_context.as_ref().and_then(|sc| sc.allow_privilege_escalation) != Some(false))
        .map(|c| c.name.clone())
        .collect();
    (!bad.is_empty()).then(|| Violation {
        reason: "allowPrivilegeEscalation != false",
        detail: format!("{} must set securityContext.allowPrivilegeEscalation=false", containers_phrase(&bad)),
    })
}

fn capabilities_restricted(_: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    if skips_windows(spec, minor) {
        return None;
    }
    let (mut missing_drop, mut adding, mut added) = (Vec::new(), Vec::new(), BTreeSet::new());
    for c in containers(spec) {
        let Some(caps) = c.security_context.as_ref().and_then(|sc| sc.capabilities.as_ref()) else {
            missing_drop.push(c.name.clone());
            continue;
        };
        if !caps.drop.iter().any(|cap| cap == "ALL") {
            missing_drop.push(c.name.clone());
        }
        let forbidden: Vec<&String> = caps.add.iter().filter(|cap| *cap != "NET_BIND_SERVICE").collect();
        if !forbidden.is_empty() {
            adding.push(c.name.clone());
            added.extend(forbidden.into_iter().cloned());
        }
    }
    let mut details = Vec::new();
    if !missing_drop.is_empty() {
        details.push(format!(
            r#"{} must set securityContext.capabilities.drop=["ALL"]"#,
            containers_phrase(&missing_drop)
        ));
    }
    if !adding.is_empty() {
        details.push(format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&adding),
            join_quote(&added.into_iter().collect::<Vec<_>>())
        ));
    }
    (!details.is_empty()).then(|| Violation { reason: "unrestricted capabilities", detail: details.join("; ") })
}

fn restricted_volumes(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    // Of the volume sources the lab knows, only hostPath is outside restricted's list
    // (configMap, csi, downwardAPI, emptyDir, ephemeral, image, persistentVolumeClaim,
    // projected, secret).
    let (mut bad, mut types) = (Vec::new(), BTreeSet::new());
    for volume in spec.volumes.iter() {
        if volume.host_path.is_some() {
            bad.push(volume.name.clone());
            types.insert("hostPath");
        }
    }
    (!bad.is_empty()).then(|| Violation {
        reason: "restricted volume types",
        detail: format!(
            "{} {} {} {} {}",
            pluralize("volume", "volumes", bad.len()),
            join_quote(&bad),
            pluralize("uses", "use", bad.len()),
            pluralize("restricted volume type", "restricted volume types", types.len()),
            join_quote(&types.into_iter().collect::<Vec<_>>())
        ),
    })
}

fn run_as_non_root(_: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    if skips_user_namespace(spec, minor) {
        return None;
    }
    let pod = spec.security_context.as_ref().and_then(|sc| sc.run_as_non_root);
    let (mut explicit, mut implicit) = (Vec::new(), Vec::new());
    for c in containers(spec) {
        match c.security_context.as_ref().and_then(|sc| sc.run_as_non_root) {
            Some(false) => explicit.push(c.name.clone()),
            Some(true) => {}
            None if pod != Some(true) => implicit.push(c.name.clone()),
            None => {}
        }
    }
    let mut setters = Vec::new();
    if pod == Some(false) {
        setters.push("pod".to_string());
    }
    if !explicit.is_empty() {
        setters.push(containers_phrase(&explicit));
    }
    if !setters.is_empty() {
        return Some(Violation {
            reason: "runAsNonRoot != true",
            detail: format!("{} must not set securityContext.runAsNonRoot=false", setters.join(" and ")),
        });
    }
    (!implicit.is_empty()).then(|| Violation {
        reason: "runAsNonRoot != true",
        detail: format!("pod or {} must set securityContext.runAsNonRoot=true", containers_phrase(&implicit)),
    })
}

fn run_as_user(_: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    if skips_user_namespace(spec, minor) {
        return None;
    }
    let mut setters = Vec::new();
    if spec.security_context.as_ref().and_then(|sc| sc.run_as_user) == Some(0) {
        setters.push("pod".to_string());
    }
    let bad: Vec<String> = containers(spec)
        .iter()
        .filter(|c| c.security_context.as_ref().and_then(|sc| sc.run_as_user) == Some(0))
        .map(|c| c.name.clone())
        .collect();
    if !bad.is_empty() {
        setters.push(containers_phrase(&bad));
    }
    (!setters.is_empty()).then(|| Violation {
        reason: "runAsUser=0",
        detail: format!("{} must not set runAsUser=0", setters.join(" and ")),
    })
}

fn seccomp_profile_restricted(_: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    if skips_windows(spec, minor) {
        return None;
    }
    let mut values = BTreeSet::new();
    let pod_type = spec.security_context.as_ref().and_then(|sc| sc.seccomp_profile.as_ref()).map(|p| &p.type_);
    let pod_bad = pod_type.is_some_and(|t| !valid_seccomp(t));
    let pod_set = pod_type.is_some_and(|t| valid_seccomp(t));
    if pod_bad {
        values.extend(pod_type.cloned());
    }
    let (mut explicit, mut implicit) = (Vec::new(), Vec::new());
    for c in containers(spec) {
        match c.security_context.as_ref().and_then(|sc| sc.seccomp_profile.as_ref()) {
            Some(p) if !valid_seccomp(&p.type_) => {
                explicit.push(c.name.clone());
                values.insert(p.type_.clone());
            }
            Some(_) => {}
            None if !pod_set => implicit.push(c.name.clone()),
            None => {}
        }
    }
    let mut setters = Vec::new();
    if pod_bad {
        setters.push("pod".to_string());
    }
    if !explicit.is_empty() {
        setters.push(containers_phrase(&explicit));
    }
    if !setters.is_empty() {
        return Some(seccomp_violation(&setters, values));
    }
    (!implicit.is_empty()).then(|| Violation {
        reason: "seccompProfile",
        detail: format!(
            r#"pod or {} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost""#,
            containers_phrase(&implicit)
        ),
    })
}
