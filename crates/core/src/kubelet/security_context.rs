//! A container's security context as the kubelet and the runtime apply it: the pod's and the
//! container's settings merged (pkg/securitycontext `DetermineEffectiveSecurityContext`),
//! `runAsNonRoot` checked against the image's user before the container is made
//! (kuberuntime/security_context_others.go `verifyRunAsNonRoot`), and the process's
//! credentials, capabilities and root filesystem as containerd sets them up.

use crate::api::Pod;
use crate::api::container::Container;
use crate::shell::Identity;

/// The fields of a container's effective security context the lab acts on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effective {
    pub run_as_user: Option<i64>,
    pub run_as_group: Option<i64>,
    pub run_as_non_root: Option<bool>,
    pub privileged: bool,
    pub read_only_root_filesystem: bool,
    pub allow_privilege_escalation: Option<bool>,
    pub add: Vec<String>,
    pub drop: Vec<String>,
    pub seccomp: Option<String>,
}

/// The container's settings over the pod's, field by field.
pub fn effective(pod: &Pod, container: &Container) -> Effective {
    let pod_sc = pod.spec.security_context.as_deref();
    let sc = container.security_context.as_ref();
    let caps = sc.and_then(|s| s.capabilities.as_ref());
    Effective {
        run_as_user: sc.and_then(|s| s.run_as_user).or(pod_sc.and_then(|p| p.run_as_user)),
        run_as_group: sc.and_then(|s| s.run_as_group).or(pod_sc.and_then(|p| p.run_as_group)),
        run_as_non_root: sc.and_then(|s| s.run_as_non_root).or(pod_sc.and_then(|p| p.run_as_non_root)),
        privileged: sc.and_then(|s| s.privileged) == Some(true),
        read_only_root_filesystem: sc.and_then(|s| s.read_only_root_filesystem) == Some(true),
        allow_privilege_escalation: sc.and_then(|s| s.allow_privilege_escalation),
        add: caps.map(|c| c.add.clone()).unwrap_or_default(),
        drop: caps.map(|c| c.drop.clone()).unwrap_or_default(),
        seccomp: sc
            .and_then(|s| s.seccomp_profile.as_ref())
            .or(pod_sc.and_then(|p| p.seccomp_profile.as_ref()))
            .map(|p| p.type_.clone()),
    }
}

/// The image config's `USER`: a uid (`1000`, `1000:3000`) or a name (`memcache`); none is root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageUser {
    pub uid: Option<i64>,
    pub gid: Option<i64>,
    pub name: String,
}

impl ImageUser {
    pub fn parse(user: Option<&str>) -> ImageUser {
        let user = user.unwrap_or("");
        let (name, group) = user.split_once(':').unwrap_or((user, ""));
        match name.parse::<i64>() {
            Ok(uid) => ImageUser { uid: Some(uid), gid: group.parse().ok(), name: String::new() },
            Err(_) if name.is_empty() => ImageUser { uid: Some(0), gid: group.parse().ok(), name: String::new() },
            Err(_) => ImageUser { uid: None, gid: group.parse().ok(), name: name.to_string() },
        }
    }
}

/// `verifyRunAsNonRoot`: a container that must not run as root, whose user is root or cannot
/// be told, is not made (`CreateContainerConfigError`).
pub fn verify_run_as_non_root(pod: &Pod, container: &Container, image: &ImageUser) -> Result<(), String> {
    let sc = effective(pod, container);
    if sc.run_as_non_root != Some(true) {
        return Ok(());
    }
    let meta = &pod.metadata;
    let pod_name = format!("\"{}_{}({})\"", meta.name, meta.namespace, meta.uid);
    let name = &container.name;
    match (sc.run_as_user, image.uid) {
        (Some(0), _) => {
            Err(format!("container's runAsUser breaks non-root policy (pod: {pod_name}, container: {name})"))
        }
        (Some(_), _) => Ok(()),
        (None, None) if !image.name.is_empty() => Err(format!(
            "container has runAsNonRoot and image has non-numeric user ({}), cannot verify user is non-root (pod: {pod_name}, container: {name})",
            image.name
        )),
        (None, Some(0)) => {
            Err(format!("container has runAsNonRoot and image will run as root (pod: {pod_name}, container: {name})"))
        }
        _ => Ok(()),
    }
}

/// Who the container's processes are: `runAsUser` or the image's user; `runAsGroup`, the
/// image's group, or 0 (no /etc/passwd entry names another); supplementary groups: that group,
/// the groups the image's /etc/group gives root, `fsGroup` and `supplementalGroups`.
pub fn identity(pod: &Pod, container: &Container, image: &ImageUser) -> Identity {
    let sc = effective(pod, container);
    let uid = sc.run_as_user.or(image.uid).unwrap_or(0);
    let gid = sc.run_as_group.or(image.gid).unwrap_or(0);
    let pod_sc = pod.spec.security_context.as_deref();
    let mut groups = vec![gid];
    if uid == 0 {
        groups.push(10); // busybox's /etc/group: root is in wheel.
    }
    groups.extend(pod_sc.and_then(|p| p.fs_group));
    groups.extend(pod_sc.map(|p| p.supplemental_groups.clone()).unwrap_or_default());
    groups.sort_unstable();
    groups.dedup();
    Identity { uid, gid, groups }
}

/// Linux's capabilities, by bit (include/uapi/linux/capability.h), up to the kernel's last.
const CAPABILITIES: &[&str] = &[
    "CHOWN",
    "DAC_OVERRIDE",
    "DAC_READ_SEARCH",
    "FOWNER",
    "FSETID",
    "KILL",
    "SETGID",
    "SETUID",
    "SETPCAP",
    "LINUX_IMMUTABLE",
    "NET_BIND_SERVICE",
    "NET_BROADCAST",
    "NET_ADMIN",
    "NET_RAW",
    "IPC_LOCK",
    "IPC_OWNER",
    "SYS_MODULE",
    "SYS_RAWIO",
    "SYS_CHROOT",
    "SYS_PTRACE",
    "SYS_PACCT",
    "SYS_ADMIN",
    "SYS_BOOT",
    "SYS_NICE",
    "SYS_RESOURCE",
    "SYS_TIME",
    "SYS_TTY_CONFIG",
    "MKNOD",
    "LEASE",
    "AUDIT_WRITE",
    "AUDIT_CONTROL",
    "SETFCAP",
    "MAC_OVERRIDE",
    "MAC_ADMIN",
    "SYSLOG",
    "WAKE_ALARM",
    "BLOCK_SUSPEND",
    "AUDIT_READ",
    "PERFMON",
    "BPF",
    "CHECKPOINT_RESTORE",
];

/// containerd's default capability set (pkg/oci `defaultUnixCaps`): `00000000a80425fb`.
const DEFAULT_CAPABILITIES: &[&str] = &[
    "CHOWN",
    "DAC_OVERRIDE",
    "FSETID",
    "FOWNER",
    "MKNOD",
    "NET_RAW",
    "SETGID",
    "SETUID",
    "SETFCAP",
    "SETPCAP",
    "NET_BIND_SERVICE",
    "SYS_CHROOT",
    "KILL",
    "AUDIT_WRITE",
];

fn bit(name: &str) -> u64 {
    let name = name.strip_prefix("CAP_").unwrap_or(name);
    CAPABILITIES.iter().position(|c| *c == name).map_or(0, |i| 1 << i)
}

/// The container's bounding set: every capability if privileged; else the runtime's default
/// set, then `ALL` added or dropped, then each named capability added, then each dropped, in
/// containerd's CRI order (`drop: [ALL]` with `add: [NET_BIND_SERVICE]` keeps that one).
pub fn bounding_set(sc: &Effective) -> u64 {
    let all = (1u64 << CAPABILITIES.len()) - 1;
    if sc.privileged {
        return all;
    }
    let has_all = |names: &[String]| names.iter().any(|c| c == "ALL");
    let named = |names: &[String]| names.iter().filter(|c| *c != "ALL").fold(0, |set, c| set | bit(c));
    let mut set = DEFAULT_CAPABILITIES.iter().fold(0, |set, c| set | bit(c));
    if has_all(&sc.add) {
        set = all;
    }
    if has_all(&sc.drop) {
        set = 0;
    }
    (set | named(&sc.add)) & !named(&sc.drop)
}

/// `/proc/1/status` of the container's main process (the lines that describe its credentials
/// and privileges): a non-root process holds no capabilities beyond its bounding set's
/// permission to regain them through a file's capabilities.
pub fn proc_status(pod: &Pod, container: &Container, image: &ImageUser, command: &str) -> String {
    let sc = effective(pod, container);
    let id = identity(pod, container, image);
    let bounding = bounding_set(&sc);
    let effective_set = if id.uid == 0 { bounding } else { 0 };
    let groups: String = id.groups.iter().map(|g| format!("{g} ")).collect();
    let no_new_privs = u8::from(sc.allow_privilege_escalation == Some(false) && !sc.privileged);
    let seccomp =
        if sc.privileged || !matches!(sc.seccomp.as_deref(), Some("RuntimeDefault" | "Localhost")) { "0" } else { "2" };
    let name: String = command.rsplit('/').next().unwrap_or(command).chars().take(15).collect();
    format!(
        "Name:\t{name}\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t1\nNgid:\t0\nPid:\t1\nPPid:\t0\nTracerPid:\t0\n\
         Uid:\t{u}\t{u}\t{u}\t{u}\nGid:\t{g}\t{g}\t{g}\t{g}\nFDSize:\t64\nGroups:\t{groups}\n\
         CapInh:\t0000000000000000\nCapPrm:\t{effective_set:016x}\nCapEff:\t{effective_set:016x}\n\
         CapBnd:\t{bounding:016x}\nCapAmb:\t0000000000000000\nNoNewPrivs:\t{no_new_privs}\nSeccomp:\t{seccomp}\n",
        u = id.uid,
        g = id.gid,
    )
}

/// With `readOnlyRootFilesystem`, the mounts the container may still write: its volumes not
/// mounted read-only, and `/dev` (its own tmpfs, with the termination log).
pub fn writable_mounts(pod: &Pod, container: &Container) -> Option<Vec<String>> {
    if !effective(pod, container).read_only_root_filesystem {
        return None;
    }
    let read_only = super::volumes::read_only_paths(pod, container);
    let mounts = container.volume_mounts.iter().map(|m| m.mount_path.clone()).filter(|p| !read_only.contains(p));
    Some(std::iter::once("/dev".to_string()).chain(mounts).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(yaml: &str) -> Pod {
        serde_yaml::from_str(yaml).unwrap()
    }

    const ROOT: ImageUser = ImageUser { uid: Some(0), gid: None, name: String::new() };

    #[test]
    fn run_as_non_root_refuses_a_root_image_in_the_kubelets_words() {
        let p = pod(
            "metadata: {name: web, namespace: ns}\nspec:\n  securityContext: {runAsNonRoot: true}\n  containers: [{name: app, image: nginx}]\n",
        );
        let uid = p.metadata.uid.to_string();
        let fix = |text: &str| text.replace("0b1c", &uid);
        assert_eq!(
            verify_run_as_non_root(&p, &p.spec.containers[0], &ROOT).unwrap_err(),
            fix(r#"container has runAsNonRoot and image will run as root (pod: "web_ns(0b1c)", container: app)"#)
        );
        let named = ImageUser::parse(Some("memcache"));
        assert_eq!(
            verify_run_as_non_root(&p, &p.spec.containers[0], &named).unwrap_err(),
            fix(
                r#"container has runAsNonRoot and image has non-numeric user (memcache), cannot verify user is non-root (pod: "web_ns(0b1c)", container: app)"#
            )
        );
        assert!(verify_run_as_non_root(&p, &p.spec.containers[0], &ImageUser::parse(Some("101"))).is_ok());
        let zero = pod(
            "metadata: {name: web, namespace: ns}\nspec:\n  securityContext: {runAsNonRoot: true, runAsUser: 0}\n  containers: [{name: app, image: nginx}]\n",
        );
        assert_eq!(
            verify_run_as_non_root(&zero, &zero.spec.containers[0], &ROOT).unwrap_err(),
            fix(r#"container's runAsUser breaks non-root policy (pod: "web_ns(0b1c)", container: app)"#)
        );
    }

    #[test]
    fn the_process_runs_as_the_security_context_says() {
        let p = pod(
            "metadata: {name: web}\nspec:\n  securityContext: {runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000]}\n  containers: [{name: app, image: busybox}]\n",
        );
        assert_eq!(identity(&p, &p.spec.containers[0], &ROOT).id_line(), "uid=1000 gid=3000 groups=2000,3000,4000");
        let q = pod(
            "metadata: {name: web}\nspec:\n  containers: [{name: app, image: busybox, securityContext: {runAsUser: 1000}}]\n",
        );
        assert_eq!(identity(&q, &q.spec.containers[0], &ROOT).id_line(), "uid=1000 gid=0(root) groups=0(root)");
    }

    #[test]
    fn capabilities_start_from_containerds_default_set() {
        let sc = |add: &[&str], drop: &[&str]| Effective {
            add: add.iter().map(|s| s.to_string()).collect(),
            drop: drop.iter().map(|s| s.to_string()).collect(),
            ..Effective::default()
        };
        assert_eq!(format!("{:016x}", bounding_set(&sc(&[], &[]))), "00000000a80425fb");
        assert_eq!(format!("{:016x}", bounding_set(&sc(&["NET_BIND_SERVICE"], &["ALL"]))), "0000000000000400");
        assert_eq!(format!("{:016x}", bounding_set(&sc(&["NET_ADMIN"], &["NET_RAW"]))), "00000000a80415fb");
        let privileged = Effective { privileged: true, ..Effective::default() };
        assert_eq!(format!("{:016x}", bounding_set(&privileged)), "000001ffffffffff");
    }
}
