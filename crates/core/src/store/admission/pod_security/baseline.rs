//! The baseline Pod Security Standard's checks (k8s.io/pod-security-admission policy/check_*.go,
//! one function each): what stops known privilege escalations. Reasons and details are
//! upstream's, word for word.

use super::checks::{Check, Violation, containers, containers_phrase, join_quote, pluralize, user_namespaced};
use super::policy::Level;
use crate::api::meta::ObjectMeta;
use crate::api::pod::PodSpec;
use crate::error::go_quote;
use std::collections::BTreeSet;

const fn baseline(id: &'static str, since: u32, check: super::checks::CheckPod) -> Check {
    Check { id, level: Level::Baseline, since, overrides: &[], check }
}

pub const APP_ARMOR_PROFILE: Check = baseline("appArmorProfile", 0, app_armor_profile);
pub const CAPABILITIES_BASELINE: Check = baseline("capabilities_baseline", 0, capabilities_baseline);
pub const HOST_NAMESPACES: Check = baseline("hostNamespaces", 0, host_namespaces);
pub const HOST_PATH_VOLUMES: Check = baseline("hostPathVolumes", 0, host_path_volumes);
pub const HOST_PORTS: Check = baseline("hostPorts", 0, host_ports);
pub const HOST_PROBES_AND_HOST_LIFECYCLE: Check = baseline("hostProbesAndHostLifecycle", 34, host_probes);
pub const PRIVILEGED: Check = baseline("privileged", 0, privileged);
pub const PROC_MOUNT: Check = baseline("procMount", 0, proc_mount_baseline);
pub const SE_LINUX_OPTIONS: Check = baseline("seLinuxOptions", 0, se_linux_options);
pub const SECCOMP_PROFILE_BASELINE: Check = baseline("seccompProfile_baseline", 0, seccomp_profile_baseline);
pub const SYSCTLS: Check = baseline("sysctls", 0, sysctls);
pub const WINDOWS_HOST_PROCESS: Check = baseline("windowsHostProcess", 0, windows_host_process);

/// `pod and containers "a", "b"`: who set a forbidden value.
fn setters(pod: bool, bad_containers: &[String]) -> Vec<String> {
    let mut setters = Vec::new();
    if pod {
        setters.push("pod".to_string());
    }
    if !bad_containers.is_empty() {
        setters.push(containers_phrase(bad_containers));
    }
    setters
}

fn app_armor_profile(meta: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let allowed = |t: &str| matches!(t, "RuntimeDefault" | "Localhost");
    let mut bad_values = BTreeSet::new();
    let pod_type = spec.security_context.as_ref().and_then(|sc| sc.app_armor_profile.as_ref()).map(|p| &p.type_);
    let pod_bad = pod_type.is_some_and(|t| !allowed(t));
    if pod_bad {
        bad_values.extend(pod_type.cloned());
    }
    let mut bad = Vec::new();
    for c in containers(spec) {
        if let Some(p) = c.security_context.as_ref().and_then(|sc| sc.app_armor_profile.as_ref())
            && !allowed(&p.type_)
        {
            bad.push(c.name.clone());
            bad_values.insert(p.type_.clone());
        }
    }
    let mut setters = setters(pod_bad, &bad);
    let mut values: Vec<String> = bad_values.into_iter().collect();
    let mut annotations: Vec<String> = meta
        .annotations
        .iter()
        .filter(|(k, v)| {
            k.starts_with("container.apparmor.security.beta.kubernetes.io/")
                && !(v.is_empty() || *v == "runtime/default" || v.starts_with("localhost/"))
        })
        .map(|(k, v)| format!("{k}={}", go_quote(v)))
        .collect();
    if !annotations.is_empty() {
        annotations.sort();
        setters.push(pluralize("annotation", "annotations", annotations.len()).to_string());
        values.extend(annotations);
    }
    (!setters.is_empty()).then(|| Violation {
        reason: pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", values.len()),
        detail: format!("{} must not set AppArmor profile type to {}", setters.join(" and "), join_quote(&values)),
    })
}

/// The capabilities a container runtime grants by default, which baseline lets a container add.
const DEFAULT_CAPABILITIES: &[&str] = &[
    "AUDIT_WRITE",
    "CHOWN",
    "DAC_OVERRIDE",
    "FOWNER",
    "FSETID",
    "KILL",
    "MKNOD",
    "NET_BIND_SERVICE",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_CHROOT",
];

fn capabilities_baseline(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let (mut bad, mut added) = (Vec::new(), BTreeSet::new());
    for c in containers(spec) {
        let adds = c.security_context.as_ref().and_then(|sc| sc.capabilities.as_ref()).map(|caps| &caps.add);
        let forbidden: Vec<&String> =
            adds.into_iter().flatten().filter(|cap| !DEFAULT_CAPABILITIES.contains(&cap.as_str())).collect();
        if !forbidden.is_empty() {
            bad.push(c.name.clone());
            added.extend(forbidden.into_iter().cloned());
        }
    }
    (!bad.is_empty()).then(|| Violation {
        reason: "non-default capabilities",
        detail: format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&bad),
            join_quote(&added.into_iter().collect::<Vec<_>>())
        ),
    })
}

fn host_namespaces(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let set =
        [(spec.host_network, "hostNetwork=true"), (spec.host_pid, "hostPID=true"), (spec.host_ipc, "hostIPC=true")];
    let shared: Vec<&str> = set.iter().filter(|(on, _)| *on == Some(true)).map(|(_, text)| *text).collect();
    (!shared.is_empty()).then(|| Violation { reason: "host namespaces", detail: shared.join(", ") })
}

fn host_path_volumes(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let names: Vec<&String> = spec.volumes.iter().filter(|v| v.host_path.is_some()).map(|v| &v.name).collect();
    (!names.is_empty()).then(|| Violation {
        reason: "hostPath volumes",
        detail: format!("{} {}", pluralize("volume", "volumes", names.len()), join_quote(&names)),
    })
}

fn host_ports(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let (mut bad, mut ports) = (Vec::new(), BTreeSet::new());
    for c in containers(spec) {
        let used: Vec<String> =
            c.ports.iter().filter_map(|p| p.host_port).filter(|port| *port != 0).map(|p| p.to_string()).collect();
        if !used.is_empty() {
            bad.push(c.name.clone());
            ports.extend(used);
        }
    }
    (!bad.is_empty()).then(|| Violation {
        reason: "hostPort",
        detail: format!(
            "{} {} {} {}",
            containers_phrase(&bad),
            pluralize("uses", "use", bad.len()),
            pluralize("hostPort", "hostPorts", ports.len()),
            ports.into_iter().collect::<Vec<_>>().join(", ")
        ),
    })
}

fn host_probes(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let (mut bad, mut hosts) = (BTreeSet::new(), BTreeSet::new());
    for c in containers(spec) {
        let probes = [&c.liveness_probe, &c.readiness_probe, &c.startup_probe];
        let probe_hosts = probes.into_iter().flatten().flat_map(|p| {
            [p.http_get.as_ref().and_then(|h| h.host.clone()), p.tcp_socket.as_ref().and_then(|t| t.host.clone())]
        });
        let handlers = c.lifecycle.iter().flat_map(|l| [&l.post_start, &l.pre_stop]).flatten();
        let hook_hosts = handlers.flat_map(|h| {
            [h.http_get.as_ref().and_then(|g| g.host.clone()), h.tcp_socket.as_ref().and_then(|t| t.host.clone())]
        });
        let found: Vec<String> = probe_hosts.chain(hook_hosts).flatten().filter(|h| !h.is_empty()).collect();
        if !found.is_empty() {
            bad.insert(c.name.clone());
            hosts.extend(found);
        }
    }
    let bad: Vec<String> = bad.into_iter().collect();
    let hosts: Vec<String> = hosts.into_iter().collect();
    (!bad.is_empty()).then(|| Violation {
        reason: "probe or lifecycle host",
        detail: format!(
            "{} {} {} {}",
            containers_phrase(&bad),
            pluralize("uses", "use", bad.len()),
            pluralize("probe or lifecycle host", "probe or lifecycle hosts", hosts.len()),
            join_quote(&hosts)
        ),
    })
}

fn privileged(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let bad: Vec<String> = containers(spec)
        .iter()
        .filter(|c| c.security_context.as_ref().and_then(|sc| sc.privileged) == Some(true))
        .map(|c| c.name.clone())
        .collect();
    (!bad.is_empty()).then(|| Violation {
        reason: "privileged",
        detail: format!("{} must not set securityContext.privileged=true", containers_phrase(&bad)),
    })
}

/// `procMount` other than `Default` (shared with restricted's own version of the check).
pub fn proc_mount(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let (mut bad, mut types) = (Vec::new(), BTreeSet::new());
    for c in containers(spec) {
        if let Some(mount) = c.security_context.as_ref().and_then(|sc| sc.proc_mount.as_ref())
            && mount != "Default"
        {
            bad.push(c.name.clone());
            types.insert(mount.clone());
        }
    }
    (!bad.is_empty()).then(|| Violation {
        reason: "procMount",
        detail: format!(
            "{} must not set securityContext.procMount to {}",
            containers_phrase(&bad),
            join_quote(&types.into_iter().collect::<Vec<_>>())
        ),
    })
}

fn proc_mount_baseline(meta: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    if minor >= 35 && user_namespaced(spec) {
        return None;
    }
    proc_mount(meta, spec, minor)
}

fn se_linux_options(_: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    use crate::api::container::SeLinuxOptions;
    let allowed = |t: &str| {
        matches!(t, "" | "container_t" | "container_init_t" | "container_kvm_t")
            || (minor >= 31 && t == "container_engine_t")
    };
    let (mut types, mut user, mut role) = (BTreeSet::new(), false, false);
    let mut valid = |o: &SeLinuxOptions| {
        let t = o.type_.clone().unwrap_or_default();
        let type_ok = allowed(&t);
        if !type_ok {
            types.insert(t);
        }
        let (u, r) = (o.user.as_ref().is_some_and(|s| !s.is_empty()), o.role.as_ref().is_some_and(|s| !s.is_empty()));
        user |= u;
        role |= r;
        type_ok && !u && !r
    };
    let pod_bad = spec.security_context.as_ref().and_then(|sc| sc.se_linux_options.as_ref()).is_some_and(|o| !valid(o));
    let mut bad = Vec::new();
    for c in containers(spec) {
        if let Some(o) = c.security_context.as_ref().and_then(|sc| sc.se_linux_options.as_ref())
            && !valid(o)
        {
            bad.push(c.name.clone());
        }
    }
    let setters = setters(pod_bad, &bad);
    if setters.is_empty() {
        return None;
    }
    let types: Vec<String> = types.into_iter().collect();
    let mut data = Vec::new();
    if !types.is_empty() {
        data.push(format!("{} {}", pluralize("type", "types", types.len()), join_quote(&types)));
    }
    if user {
        data.push("user may not be set".to_string());
    }
    if role {
        data.push("role may not be set".to_string());
    }
    Some(Violation {
        reason: "seLinuxOptions",
        detail: format!("{} set forbidden securityContext.seLinuxOptions: {}", setters.join(" and "), data.join("; ")),
    })
}

pub fn valid_seccomp(t: &str) -> bool {
    t == "Localhost" || t == "RuntimeDefault"
}

fn seccomp_profile_baseline(meta: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    if minor < 19 {
        return seccomp_annotations(meta, spec);
    }
    let mut values = BTreeSet::new();
    let pod_type = spec.security_context.as_ref().and_then(|sc| sc.seccomp_profile.as_ref()).map(|p| &p.type_);
    let pod_bad = pod_type.is_some_and(|t| !valid_seccomp(t));
    if pod_bad {
        values.extend(pod_type.cloned());
    }
    let mut bad = Vec::new();
    for c in containers(spec) {
        if let Some(p) = c.security_context.as_ref().and_then(|sc| sc.seccomp_profile.as_ref())
            && !valid_seccomp(&p.type_)
        {
            bad.push(c.name.clone());
            values.insert(p.type_.clone());
        }
    }
    let setters = setters(pod_bad, &bad);
    (!setters.is_empty()).then(|| seccomp_violation(&setters, values))
}

/// `pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"`.
pub fn seccomp_violation(setters: &[String], values: BTreeSet<String>) -> Violation {
    Violation {
        reason: "seccompProfile",
        detail: format!(
            "{} must not set securityContext.seccompProfile.type to {}",
            setters.join(" and "),
            join_quote(&values.into_iter().collect::<Vec<_>>())
        ),
    }
}

/// Before v1.19 the profile was set by annotations.
fn seccomp_annotations(meta: &ObjectMeta, spec: &PodSpec) -> Option<Violation> {
    let valid = |v: &str| v == "runtime/default" || v == "docker/default" || v.starts_with("localhost/");
    let mut forbidden = BTreeSet::new();
    let pod_key = "seccomp.security.alpha.kubernetes.io/pod".to_string();
    let all = containers(spec);
    let keys = std::iter::once(pod_key)
        .chain(all.iter().map(|c| format!("container.seccomp.security.alpha.kubernetes.io/{}", c.name)));
    for key in keys {
        if let Some(value) = meta.annotations.get(&key)
            && !valid(value)
        {
            forbidden.insert(format!("{key}={}", go_quote(value)));
        }
    }
    (!forbidden.is_empty()).then(|| Violation {
        reason: "seccompProfile",
        detail: format!(
            "forbidden {} {}",
            pluralize("annotation", "annotations", forbidden.len()),
            forbidden.into_iter().collect::<Vec<_>>().join(", ")
        ),
    })
}

/// The sysctls baseline allows, with the version each became safe in.
const SAFE_SYSCTLS: &[(&str, u32)] = &[
    ("kernel.shm_rmid_forced", 0),
    ("net.ipv4.ip_local_port_range", 0),
    ("net.ipv4.tcp_syncookies", 0),
    ("net.ipv4.ping_group_range", 0),
    ("net.ipv4.ip_unprivileged_port_start", 0),
    ("net.ipv4.ip_local_reserved_ports", 27),
    ("net.ipv4.tcp_keepalive_time", 29),
    ("net.ipv4.tcp_fin_timeout", 29),
    ("net.ipv4.tcp_keepalive_intvl", 29),
    ("net.ipv4.tcp_keepalive_probes", 29),
    ("net.ipv4.tcp_rmem", 32),
    ("net.ipv4.tcp_wmem", 32),
];

fn sysctls(_: &ObjectMeta, spec: &PodSpec, minor: u32) -> Option<Violation> {
    let safe = |name: &str| SAFE_SYSCTLS.iter().any(|&(s, since)| s == name && since <= minor);
    let forbidden: Vec<&str> = spec
        .security_context
        .iter()
        .flat_map(|sc| sc.sysctls.iter())
        .map(|s| s.name.as_str())
        .filter(|name| !safe(name))
        .collect();
    (!forbidden.is_empty()).then(|| Violation { reason: "forbidden sysctls", detail: forbidden.join(", ") })
}

fn windows_host_process(_: &ObjectMeta, spec: &PodSpec, _: u32) -> Option<Violation> {
    let bad: Vec<String> = containers(spec)
        .iter()
        .filter(|c| {
            c.security_context.as_ref().and_then(|sc| sc.windows_options.as_ref()).and_then(|w| w.host_process)
                == Some(true)
        })
        .map(|c| c.name.clone())
        .collect();
    let pod = spec.security_context.as_ref().and_then(|sc| sc.windows_options.as_ref()).and_then(|w| w.host_process)
        == Some(true);
    let setters = setters(pod, &bad);
    (!setters.is_empty()).then(|| Violation {
        reason: "hostProcess",
        detail: format!("{} must not set securityContext.windowsOptions.hostProcess=true", setters.join(" and ")),
    })
}
