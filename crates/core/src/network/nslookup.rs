//! busybox `nslookup NAME [SERVER]` in a pod: the cluster DNS answer printed as busybox 1.37
//! prints it, the server being the pod's nameserver (kube-dns). A name that does not resolve
//! shows each search-path name tried, which is where `ndots:5` surprises people.

use super::dns::{self, Answer, DNS_SERVICE_IP};
use crate::api::Service;
use crate::shell::Io;
use crate::store::Store;

const USAGE: &str = "BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\nQuery DNS about HOST\n\nQUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,ptr,srv,any\n";

pub fn nslookup(store: &Store, namespace: &str, args: &[String], io: &mut Io) -> i32 {
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let Some(name) = operands.first() else {
        io.err(USAGE);
        return 1;
    };
    if !dns::server_reachable(store) {
        // busybox's resolver gives up after its retries and prints no server header.
        io.out(";; connection timed out; no servers could be reached\n\n");
        return 1;
    }
    io.out(format!("Server:\t\t{DNS_SERVICE_IP}\nAddress:\t{DNS_SERVICE_IP}:53\n\n"));
    if let Ok(ip) = name.parse::<std::net::Ipv4Addr>() {
        return reverse(store, ip, io);
    }
    match dns::resolve(store, namespace, name) {
        Answer::Addresses(fqdn, ips) => {
            for ip in ips {
                io.out(format!("Name:\t{fqdn}\nAddress: {ip}\n"));
            }
            io.out("\n");
            0
        }
        Answer::Alias(fqdn, target) => {
            io.out(format!("{fqdn}\tcanonical name = {target}\n\n"));
            0
        }
        Answer::NotFound | Answer::NoServer => {
            for candidate in dns::candidates(namespace, &name.to_ascii_lowercase()) {
                io.out(format!("** server can't find {candidate}: NXDOMAIN\n\n"));
            }
            1
        }
    }
}

/// A PTR query: a Service's ClusterIP names the Service, a pod IP its dashed pod record.
fn reverse(store: &Store, ip: std::net::Ipv4Addr, io: &mut Io) -> i32 {
    let [a, b, c, d] = ip.octets();
    let arpa = format!("{d}.{c}.{b}.{a}.in-addr.arpa");
    let text = ip.to_string();
    let service = store.list::<Service>(None).find(|s| s.spec.cluster_ip.as_deref() == Some(text.as_str()));
    let name = match (service, dns::pod_with_ip(store, &text)) {
        (Some(s), _) => Some(format!("{}.{}.svc.{}", s.metadata.name, s.metadata.namespace, dns::CLUSTER_DOMAIN)),
        (None, Some(pod)) => Some(format!("{a}-{b}-{c}-{d}.{}.pod.{}", pod.metadata.namespace, dns::CLUSTER_DOMAIN)),
        _ => None,
    };
    match name {
        Some(name) => {
            io.out(format!("{arpa}\tname = {name}\n\n"));
            0
        }
        None => {
            io.out(format!("** server can't find {arpa}: NXDOMAIN\n\n"));
            1
        }
    }
}
