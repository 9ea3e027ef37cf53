//! Machines for `kubelab-agent` on one host: each in a network namespace of its own, joined to
//! the host by a veth pair (the host reaches its pods through a route to its pod CIDR, as
//! kindnet routes each node's), or, where namespaces cannot be made (not root, no `ip`), all
//! on loopback with ports and pod CIDRs of their own — which the test says.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The agent binary and the guest it runs, as `make test` builds them.
pub fn agent_binaries() -> Option<(PathBuf, PathBuf)> {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target");
    let agent = target.join("debug/kubelab-agent");
    let guest = target.join("guests/workload.wasm");
    if agent.exists() && guest.exists() {
        return Some((agent, guest));
    }
    let missing = format!("{} or {}", agent.display(), guest.display());
    assert!(std::env::var_os("KUBELAB_REQUIRE_GUESTS").is_none(), "{missing} missing: run make test's build steps");
    eprintln!("skipped: {missing} missing (scripts/build-guests.sh and cargo build -p kubelab-node-agent)");
    None
}

/// One machine an agent runs on.
pub struct Machine {
    pub name: String,
    /// Its namespace, or none on loopback.
    pub netns: Option<String>,
    /// Its InternalIP.
    pub address: IpAddr,
    /// Where it reaches the server (the host's end of its link).
    pub server_ip: IpAddr,
    pub kubelet_port: u16,
    pub pod_cidr: String,
}

/// The machines, torn down when dropped.
pub struct Machines {
    pub machines: Vec<Machine>,
    /// Why they share loopback, when they do.
    pub loopback_because: Option<String>,
    routes: Vec<String>,
}

fn ip(args: &str) -> Result<(), String> {
    let output = Command::new("ip").args(args.split_whitespace()).output().map_err(|e| format!("ip: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!("ip {args}: {}", String::from_utf8_lossy(&output.stderr).trim()))
    }
}

impl Machines {
    /// `names.len()` machines; a run's addresses come from its process id, so two runs on one
    /// host do not meet.
    pub fn new(names: &[&str]) -> Machines {
        let run = std::process::id() % 250;
        match Machines::namespaces(names, run) {
            Ok(machines) => machines,
            Err(why) => {
                eprintln!("network namespaces unavailable ({why}): the agents share loopback");
                Machines::loopback(names, run, why)
            }
        }
    }

    fn namespaces(names: &[&str], run: u32) -> Result<Machines, String> {
        let mut made = Machines { machines: Vec::new(), loopback_because: None, routes: Vec::new() };
        for (i, name) in names.iter().enumerate() {
            let netns = format!("kl{run}-{name}");
            let (host_if, ns_if) = (format!("klh{run}x{i}"), format!("kln{run}x{i}"));
            let (host_ip, ns_ip) = (format!("10.213.{run}.{}", 4 * i + 1), format!("10.213.{run}.{}", 4 * i + 2));
            let pod_cidr = format!("10.{}.{run}.0/24", 214 + i);
            ip(&format!("netns add {netns}"))?;
            made.machines.push(Machine {
                name: name.to_string(),
                netns: Some(netns.clone()),
                address: ns_ip.parse().unwrap(),
                server_ip: host_ip.parse().unwrap(),
                kubelet_port: 10250,
                pod_cidr: pod_cidr.clone(),
            });
            ip(&format!("link add {host_if} type veth peer name {ns_if}"))?;
            ip(&format!("link set {ns_if} netns {netns}"))?;
            ip(&format!("addr add {host_ip}/30 dev {host_if}"))?;
            ip(&format!("link set {host_if} up"))?;
            let inside = |args: &str| ip(&format!("netns exec {netns} ip {args}"));
            inside(&format!("addr add {ns_ip}/30 dev {ns_if}"))?;
            inside(&format!("link set {ns_if} up"))?;
            inside("link set lo up")?;
            inside(&format!("route add default via {host_ip}"))?;
            ip(&format!("route add {pod_cidr} via {ns_ip}"))?;
            made.routes.push(pod_cidr);
        }
        Ok(made)
    }

    fn loopback(names: &[&str], run: u32, why: String) -> Machines {
        let machines = names
            .iter()
            .enumerate()
            .map(|(i, name)| Machine {
                name: name.to_string(),
                netns: None,
                address: "127.0.0.1".parse().unwrap(),
                server_ip: "127.0.0.1".parse().unwrap(),
                kubelet_port: free_port(),
                // All of 127/8 is local: a pod's address binds without a route.
                pod_cidr: format!("127.{}.{run}.0/24", 20 + i),
            })
            .collect();
        Machines { machines, loopback_because: Some(why), routes: Vec::new() }
    }
}

impl Drop for Machines {
    fn drop(&mut self) {
        for route in &self.routes {
            let _ = ip(&format!("route del {route}"));
        }
        for netns in self.machines.iter().filter_map(|m| m.netns.as_ref()) {
            // Deleting the namespace deletes its end of the veth pair, and so the pair.
            let _ = ip(&format!("netns del {netns}"));
        }
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Machine {
    /// The command that runs `program` on this machine (in its namespace, if it has one).
    pub fn command(&self, program: &std::path::Path) -> Command {
        match &self.netns {
            Some(netns) => {
                let mut command = Command::new("ip");
                command.args(["netns", "exec", netns]).arg(program);
                command
            }
            None => Command::new(program),
        }
    }
}
