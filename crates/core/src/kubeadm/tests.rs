//! The objects `kubeadm init` and the DaemonSets leave in a new lab.

use super::*;
use crate::api::{Pod, Service};
use crate::cluster::ClusterSpec;
use crate::sim::Sim;
use crate::sim::time::Duration;

/// Every document of every manifest decodes: a field the lab does not know would otherwise
/// drop its object silently.
#[test]
fn every_manifest_object_decodes() {
    let node = node_named("control-plane", "10.0.0.9");
    let documents = |text: &str| text.matches("\nkind: ").count() + usize::from(text.starts_with("kind: "));
    for text in [
        include_str!("manifests/addons.yaml"),
        include_str!("manifests/static-pods.yaml"),
        include_str!("manifests/daemon-sets.yaml"),
        APISERVER_ENDPOINTS,
    ] {
        let decoded = manifest(text, &node);
        assert_eq!(decoded.len(), documents(text), "{text}");
    }
}

fn node_named(name: &str, ip: &str) -> Node {
    let mut node = crate::cluster::node_from_template(&NodeTemplate::named(name), 0, crate::sim::time::SimTime::ZERO);
    node.status.addresses[0].address = ip.to_string();
    node
}

fn kube_system_pods(sim: &Sim) -> Vec<(String, String, String)> {
    let pods = sim.store().list::<Pod>(Some("kube-system"));
    let row = |p: &Pod| {
        let name = p.metadata.name.clone();
        (name, p.node_name().unwrap_or("").to_string(), p.status.pod_ip.clone().unwrap_or_default())
    };
    pods.map(row).collect()
}

#[test]
fn a_new_lab_runs_the_control_plane_coredns_and_a_proxy_per_node() {
    let mut sim = Sim::default();
    sim.advance(Duration::from_secs(30));
    let pods = kube_system_pods(&sim);
    let on = |prefix: &str| pods.iter().filter(|(n, _, _)| n.starts_with(prefix)).collect::<Vec<_>>();
    // The static pods' mirrors, on the control-plane node's own address (host network).
    for component in ["etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"] {
        let name = format!("{component}-control-plane");
        assert!(pods.contains(&(name.clone(), "control-plane".into(), "10.0.0.9".into())), "{name}: {pods:?}");
    }
    // kube-proxy and kindnet: one per node, four nodes.
    assert_eq!(on("kube-proxy-").len(), 4, "{pods:?}");
    assert_eq!(on("kindnet-").len(), 4, "{pods:?}");
    // CoreDNS was scheduled before the workers joined: on the control plane's pod subnet.
    let coredns = on("coredns-");
    assert_eq!(coredns.len(), 2, "{pods:?}");
    assert!(coredns.iter().all(|(_, node, ip)| node == "control-plane" && ip.starts_with("10.244.0.")), "{coredns:?}");
    let running = sim.store().list::<Pod>(Some("kube-system")).filter(|p| p.phase() == "Running").count();
    assert_eq!(running, pods.len());
    let kube_dns = sim.store().get::<Service>("kube-system", "kube-dns").unwrap();
    assert_eq!(kube_dns.spec.cluster_ip.as_deref(), Some("10.96.0.10"));
}

#[test]
fn system_pods_leave_the_learners_names_alone() {
    let names = |cluster: &ClusterSpec| {
        let mut sim = Sim::new(5, cluster);
        let files = crate::kubectl::MemoryFiles::new();
        let mut ctx = crate::kubectl::Context { sim: &mut sim, files: &files, stdin: None };
        let argv = crate::script::words::split("create deployment hello --image=hello:v1 --replicas=3").unwrap();
        assert_eq!(crate::kubectl::run(&mut ctx, &argv).exit_code, 0);
        sim.settle();
        sim.advance(Duration::from_secs(10));
        let pods = sim.store().list::<Pod>(Some("default"));
        pods.map(|p| (p.metadata.name.clone(), p.status.pod_ip.clone())).collect::<Vec<_>>()
    };
    let with = ClusterSpec { addons: Vec::new(), ..ClusterSpec::default() };
    let without = ClusterSpec::workers_only(with.nodes.clone());
    assert_eq!(names(&with), names(&without));
    // metrics-server's pod takes an address on its node, but none of the learner's names.
    let names_only = |cluster| names(cluster).into_iter().map(|(name, _)| name).collect::<Vec<_>>();
    assert_eq!(names_only(&ClusterSpec::default()), names_only(&without));
}
