//! The busybox shell a `kubectl exec` reaches: the container's environment as the kubelet
//! made it when the container started (`kubelet/container_env.rs`), its files with the
//! kubelet-managed `/etc/resolv.conf`, `/etc/hosts` and `/etc/hostname`, and the applets that
//! reach past the container (`wget`, `nslookup`, `nc`, `ip`, `ps`) answered by the lab.

use crate::api::Pod;
use crate::api::container::Container;
use crate::kubelet::security_context::{self, ImageUser};
use crate::network::{connection, dns, nslookup, wget};
use crate::shell::{Ending, FileChange, Host, Io, Shell};
use crate::sim::Sim;
use crate::sim::time::Duration;
use crate::workload::ImageInfo;
use std::collections::BTreeMap;

/// Most output one exec returns; the rest is cut, as a terminal's scrollback would.
const MAX_OUTPUT: usize = 256 << 10;
/// Longest an exec may sleep in all: the lab's terminal never hangs.
const MAX_SLEEP: Duration = Duration(3_600_000);
/// Most file changes one exec hands back (the shell bounds the bytes each may hold).
const MAX_CHANGES: usize = 4096;

/// Runs `argv` in `container` of `pod` (with the environment the kubelet gave it); what it
/// printed and its exit code, how long it slept (the caller lets that much virtual time pass),
/// and the files it changed (the caller keeps those under mounts on the node's disk).
pub fn run(
    sim: &mut Sim,
    (pod, spec, image): (&Pod, &Container, &ImageInfo),
    container_env: &[(String, String)],
    files: BTreeMap<String, String>,
    argv: &[String],
) -> (String, i32, Duration, Vec<FileChange>) {
    let env = crate::kubelet::container_env::process_environment(pod, container_env);
    let mut files = files;
    files.extend(kubelet_files(pod));
    // The process runs as its security context says (kubelet/security_context.rs).
    let user = ImageUser::parse(image.workload.behaviour.user.as_deref());
    let main = image.workload.argv(spec).first().cloned().unwrap_or_else(|| "sh".to_string());
    files.insert("/proc/1/status".into(), security_context::proc_status(pod, spec, &user, &main));
    let identity = security_context::identity(pod, spec, &user);
    let writable = security_context::writable_mounts(pod, spec);
    let mut host =
        PodShell { sim, pod, container: spec, output: String::new(), slept: Duration::ZERO, changes: Vec::new() };
    let read_only = crate::kubelet::volumes::read_only_paths(pod, spec);
    let mut shell = Shell::new(&mut host, &env, files).with_read_only(read_only).with_identity(identity);
    if let Some(writable) = writable {
        shell = shell.with_read_only_root(writable);
    }
    let ending = shell.run_argv(argv);
    let code = match ending {
        Ending::Exited(code) => code,
        // The learner's Ctrl-C: busybox's shell exits with 128 + SIGINT.
        Ending::Forever => 130,
    };
    (host.output, code, host.slept, host.changes)
}

struct PodShell<'a> {
    sim: &'a mut Sim,
    pod: &'a Pod,
    container: &'a Container,
    output: String,
    slept: Duration,
    changes: Vec<FileChange>,
}

impl Host for PodShell<'_> {
    fn terminal(&mut self, text: &str) {
        let room = MAX_OUTPUT.saturating_sub(self.output.len());
        let mut cut = text.len().min(room);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        self.output.push_str(&text[..cut]);
    }

    fn sleep(&mut self, duration: Option<Duration>) -> bool {
        let Some(duration) = duration else { return false };
        self.slept = Duration(self.slept.0.saturating_add(duration.0));
        self.slept <= MAX_SLEEP
    }

    fn past_horizon(&self) -> bool {
        self.slept > MAX_SLEEP
    }

    /// Writes last as long as the exec (the container's own files are its image's timeline),
    /// but for those under a mount on the node's disk, which the caller keeps.
    fn file_changed(&mut self, change: FileChange) {
        if self.changes.len() < MAX_CHANGES {
            self.changes.push(change);
        }
    }

    fn applet(&mut self, name: &str, args: &[String], io: &mut Io) -> Option<i32> {
        let pod = self.pod;
        Some(match name {
            "wget" => wget::wget(self.sim, pod, args, io),
            "nslookup" => nslookup::nslookup(self.sim.store(), &pod.metadata.namespace, args, io),
            "nc" => nc(self.sim, pod, args, io),
            "ip" => ip(pod, args, io),
            "ps" => ps(self.sim, pod, self.container, io),
            _ => return None,
        })
    }

    fn date(&self) -> String {
        self.sim.now().to_ctime()
    }
}

/// The files the kubelet writes into every container.
fn kubelet_files(pod: &Pod) -> Vec<(String, String)> {
    let hostname = pod.spec.hostname.clone().unwrap_or_else(|| pod.metadata.name.clone());
    let ip = pod.status.pod_ip.clone().unwrap_or_default();
    let hosts = format!(
        "# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n{ip}\t{hostname}\n"
    );
    let resolv = match pod.spec.dns_policy.as_deref() {
        Some("Default") => "nameserver 10.0.0.2\n".to_string(),
        _ => dns::resolv_conf(&pod.metadata.namespace),
    };
    vec![
        ("/etc/resolv.conf".into(), resolv),
        ("/etc/hosts".into(), hosts),
        ("/etc/hostname".into(), format!("{hostname}\n")),
    ]
}

/// `nc -z [-v] HOST PORT`: whether something accepts a connection there.
fn nc(sim: &mut Sim, pod: &Pod, args: &[String], io: &mut Io) -> i32 {
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let verbose = args.iter().any(|a| a.starts_with('-') && a.contains('v'));
    let [host, port] = operands.as_slice() else {
        io.err("BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\nnc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen\n");
        return 1;
    };
    let Ok(port) = port.parse::<i32>() else {
        io.err(format!("nc: bad port '{port}'\n"));
        return 1;
    };
    let Some(ip) = wget::address(sim, pod, host) else {
        io.err(format!("nc: bad address '{host}'\n"));
        return 1;
    };
    let open = match connection::connect(sim, connection::Client::Pod(pod), &ip, port) {
        connection::Route::Backend { ip, port, .. } => connection::request(sim, &ip, port, "/").is_listening(),
        _ => false,
    };
    if open {
        if verbose {
            io.err(format!("{host} ({ip}:{port}) open\n"));
        }
        0
    } else {
        io.err(format!("nc: {host} ({ip}:{port}): Connection refused\n"));
        1
    }
}

/// `ip addr`: the loopback and the pod's veth end.
fn ip(pod: &Pod, args: &[String], io: &mut Io) -> i32 {
    if !matches!(args.first().map(String::as_str), Some("a" | "addr" | "address")) {
        io.err("BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: ip [OPTIONS] address|route|link|tunnel|neigh|rule [ARGS]\n");
        return 1;
    }
    let ip = pod.status.pod_ip.clone().unwrap_or_default();
    let octets: Vec<u8> = ip.split('.').filter_map(|o| o.parse().ok()).collect();
    let mac = octets.iter().map(|o| format!("{o:02x}")).collect::<Vec<_>>().join(":");
    let broadcast = ip.rsplit_once('.').map_or(String::new(), |(net, _)| format!("{net}.255"));
    io.out(format!(
        "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n2: eth0@if7: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu 1500 qdisc noqueue \n    link/ether 0a:58:{mac} brd ff:ff:ff:ff:ff:ff\n    inet {ip}/24 brd {broadcast} scope global eth0\n       valid_lft forever preferred_lft forever\n"
    ));
    0
}

/// `ps`: the container's main process and `ps` itself (containers of a pod have PID
/// namespaces of their own unless `shareProcessNamespace` is set).
fn ps(sim: &Sim, pod: &Pod, spec: &Container, io: &mut Io) -> i32 {
    io.out("PID   USER     TIME  COMMAND\n");
    let process = sim.pod_node_server(pod).and_then(|n| n.running_container(pod, &spec.name));
    // The process as its own container spec starts it (a debug container sees its target's).
    let started_by = pod.container(&spec.name).unwrap_or(spec);
    if let Some(process) = process {
        let argv = process.image.workload.argv(started_by);
        // An image that runs its own binary (no shell command): named after its repository.
        let command = if argv.is_empty() { image_binary(started_by) } else { argv.join(" ") };
        io.out(format!("    1 root      0:00 {command}\n"));
    }
    io.out("    7 root      0:00 ps\n");
    0
}

/// `/hello` for `hello:v1`, `/controller` for `registry.k8s.io/ingress-nginx/controller:v1.12.1`.
fn image_binary(spec: &Container) -> String {
    let image = spec.image.as_deref().unwrap_or("");
    let repository = image.split(['@']).next().unwrap_or(image);
    let last = repository.rsplit('/').next().unwrap_or(repository);
    format!("/{}", last.split(':').next().unwrap_or(last))
}
