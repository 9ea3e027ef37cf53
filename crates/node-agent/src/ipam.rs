//! Pod IPs from the node's podCIDR, as the host-local IPAM plugin hands them out (.1 is the
//! bridge's, pods get .2 upward, an address is free again once its pod is gone), and the
//! `--pod-network lo` setup that makes every address of the podCIDR bindable on this machine.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};

/// An IPv4 CIDR (`10.244.3.0/24`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    pub network: Ipv4Addr,
    pub prefix: u8,
}

impl Cidr {
    pub fn parse(text: &str) -> Result<Cidr, String> {
        let bad = || format!("invalid CIDR {text:?}: want an IPv4 network such as 10.244.1.0/24");
        let (ip, prefix) = text.split_once('/').ok_or_else(bad)?;
        let ip: Ipv4Addr = ip.parse().map_err(|_| bad())?;
        let prefix: u8 = prefix.parse().map_err(|_| bad())?;
        if !(8..=30).contains(&prefix) {
            return Err(format!("invalid CIDR {text:?}: a pod network needs a prefix from /8 to /30"));
        }
        let mask = u32::MAX << (32 - prefix);
        Ok(Cidr { network: Ipv4Addr::from(u32::from(ip) & mask), prefix })
    }

    fn size(&self) -> u32 {
        1 << (32 - self.prefix)
    }

    /// The network's `n`th address.
    pub fn host(&self, n: u32) -> Ipv4Addr {
        Ipv4Addr::from(u32::from(self.network) + n)
    }

    pub fn contains(&self, ip: Ipv4Addr) -> bool {
        u32::from(ip) & (u32::MAX << (32 - self.prefix)) == u32::from(self.network)
    }

    /// `.1/prefix`, the gateway address `--pod-network lo` puts on the loopback device.
    pub fn gateway(&self) -> String {
        format!("{}/{}", self.host(1), self.prefix)
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

/// The addresses in use, by the pod (UID) holding each.
#[derive(Clone, Debug)]
pub struct Ipam {
    cidr: Cidr,
    in_use: BTreeMap<u32, String>,
    /// Where the next search starts: host-local goes on past the last address it gave.
    next: u32,
}

impl Ipam {
    pub fn new(cidr: Cidr) -> Ipam {
        Ipam { cidr, in_use: BTreeMap::new(), next: 2 }
    }

    pub fn cidr(&self) -> Cidr {
        self.cidr
    }

    /// An address for pod `uid` (its own again if it has one); `None` when the range is full.
    pub fn allocate(&mut self, uid: &str) -> Option<Ipv4Addr> {
        if let Some((host, _)) = self.in_use.iter().find(|(_, owner)| *owner == uid) {
            return Some(self.cidr.host(*host));
        }
        let last = self.cidr.size() - 2; // the broadcast address is not a pod's
        let span = last - 1;
        for step in 0..span {
            let host = 2 + (self.next - 2 + step) % span;
            if let std::collections::btree_map::Entry::Vacant(free) = self.in_use.entry(host) {
                free.insert(uid.to_string());
                self.next = if host >= last { 2 } else { host + 1 };
                return Some(self.cidr.host(host));
            }
        }
        None
    }

    /// The pod is gone: its address is free.
    pub fn release(&mut self, uid: &str) {
        self.in_use.retain(|_, owner| owner != uid);
    }
}

/// How pods reach the network (`--pod-network`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PodNetwork {
    /// The podCIDR's gateway address is added to `lo`: Linux treats the whole prefix as local,
    /// so a container can bind any pod IP of it and the node reaches them all.
    Loopback,
    /// Nothing is set up (the runtime or an outside CNI takes care of it).
    None,
}

impl PodNetwork {
    pub fn parse(text: &str) -> Result<PodNetwork, String> {
        match text {
            "lo" => Ok(PodNetwork::Loopback),
            "none" => Ok(PodNetwork::None),
            _ => Err(format!("invalid --pod-network {text:?}: use lo or none")),
        }
    }

    /// Sets the network up once at start (`ip addr add 10.244.3.1/24 dev lo`); an address
    /// already there is fine.
    pub fn set_up(self, cidr: Cidr) -> Result<(), String> {
        if self == PodNetwork::None {
            return Ok(());
        }
        let address = cidr.gateway();
        let output = std::process::Command::new("ip")
            .args(["addr", "add", &address, "dev", "lo"])
            .output()
            .map_err(|e| format!("--pod-network lo: cannot run ip: {e}"))?;
        let stderr = String::from_utf8_lossy(&output.stderr);
        if output.status.success() || stderr.contains("File exists") {
            Ok(())
        } else {
            Err(format!("--pod-network lo: ip addr add {address} dev lo: {}", stderr.trim()))
        }
    }
}

/// The pod's IP as `IpAddr`, for the runtime.
pub fn as_ip(ip: Ipv4Addr) -> IpAddr {
    IpAddr::V4(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pods_get_dot_two_upward_and_freed_addresses_come_back_after_the_rest() {
        let mut ipam = Ipam::new(Cidr::parse("10.244.3.0/24").unwrap());
        assert_eq!(ipam.allocate("a").unwrap().to_string(), "10.244.3.2");
        assert_eq!(ipam.allocate("b").unwrap().to_string(), "10.244.3.3");
        assert_eq!(ipam.allocate("a").unwrap().to_string(), "10.244.3.2", "a pod keeps its address");
        ipam.release("a");
        assert_eq!(ipam.allocate("c").unwrap().to_string(), "10.244.3.4");
        assert!(ipam.cidr().contains("10.244.3.4".parse().unwrap()));
        assert_eq!(ipam.cidr().gateway(), "10.244.3.1/24");
    }

    #[test]
    fn a_full_range_says_so() {
        let mut ipam = Ipam::new(Cidr::parse("10.0.0.0/30").unwrap());
        assert_eq!(ipam.allocate("a").unwrap().to_string(), "10.0.0.2");
        assert_eq!(ipam.allocate("b"), None);
        ipam.release("a");
        assert_eq!(ipam.allocate("b").unwrap().to_string(), "10.0.0.2");
    }

    #[test]
    fn cidrs_and_networks_are_checked() {
        assert_eq!(Cidr::parse("10.244.3.7/24").unwrap().to_string(), "10.244.3.0/24");
        assert!(Cidr::parse("10.244.3.0").unwrap_err().contains("10.244.1.0/24"));
        assert!(Cidr::parse("10.244.3.0/31").is_err());
        assert_eq!(PodNetwork::parse("lo").unwrap(), PodNetwork::Loopback);
        assert!(PodNetwork::parse("bridge").unwrap_err().contains("lo or none"));
    }
}
