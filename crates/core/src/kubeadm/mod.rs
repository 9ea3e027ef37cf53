//! What `kind create cluster` leaves in a new lab (kubeadm init on the control-plane node, then
//! kubeadm join on each worker, then kind's CNI): a tainted control-plane node running the
//! control plane as static pods, CoreDNS behind `kube-dns`, the `kubernetes` Service, and
//! kube-proxy and kindnet on every node — what `kubectl get pods -n kube-system` shows on a
//! real cluster, and what lessons on the control plane point at.

mod daemon_pods;
mod static_pods;
pub(crate) use static_pods::post_mirror_pod;

pub use daemon_pods::SystemDaemons;

use crate::api::codec::decode_typed;
use crate::api::node::Taint;
use crate::api::{Node, Object, StorageClass};
use crate::apiserver::Client;
use crate::cluster::NodeTemplate;
use crate::sim::random::Purpose;
use crate::store::{Store, UserInfo};

/// The cluster's CA certificate (`/etc/kubernetes/pki/ca.crt`: CN `kubernetes`, ten years, as
/// kubeadm makes it). The lab signs nothing with it; pods see it as `ca.crt` in their
/// `kube-root-ca.crt` ConfigMap and token volume.
pub const CA_CERTIFICATE: &str = include_str!("ca.crt");

/// The control-plane node's name (kind's is `<cluster>-control-plane`).
pub const CONTROL_PLANE_NODE: &str = "control-plane";
/// Its InternalIP: the address before the workers' (10.0.0.10 onward), so its pods get the
/// first pod subnet, 10.244.0.0/24, as kind's control-plane node does.
pub const CONTROL_PLANE_IP: &str = "10.0.0.9";
/// The label and taint kubeadm puts on a control-plane node.
pub const CONTROL_PLANE_ROLE: &str = "node-role.kubernetes.io/control-plane";

/// The control-plane machine: the default node's size, kubeadm's role label and taint, and
/// the label that keeps it out of external load balancers.
pub fn control_plane_template() -> NodeTemplate {
    let mut template = NodeTemplate::named(CONTROL_PLANE_NODE);
    template.labels.insert(CONTROL_PLANE_ROLE, "");
    template.labels.insert("node.kubernetes.io/exclude-from-external-load-balancers", "");
    template.taints.push(Taint {
        key: CONTROL_PLANE_ROLE.into(),
        value: None,
        effect: "NoSchedule".into(),
        time_added: None,
    });
    template
}

/// `kubeadm init` once the control-plane node has registered: its kubelet posts the static
/// pods' mirrors, the API server publishes where it listens, kubeadm installs CoreDNS; the
/// DaemonSets for kube-proxy and kindnet then put their pods on every node that joins.
pub fn init(store: &mut Store, control_plane: &Node) -> SystemDaemons {
    static_pods::post_mirror_pods(store, control_plane);
    let mut apiserver = Client::new(store, UserInfo::apiserver());
    for object in manifest(APISERVER_ENDPOINTS, control_plane) {
        let _ = apiserver.create(object);
    }
    let mut kubeadm = Client::new(store, UserInfo::admin());
    for object in manifest(include_str!("manifests/addons.yaml"), control_plane) {
        let _ = kubeadm.create(object);
    }
    install_default_storage_class(store);
    SystemDaemons::new(store)
}

/// kind's default StorageClass, with a uid from a stream of its own so that learners' uids
/// stay as they were before the lab had one.
fn install_default_storage_class(store: &mut Store) {
    let documents = crate::manifest::parse_documents(include_str!("manifests/default-storage.yaml"));
    let Some(Ok(class)) = documents.unwrap_or_default().into_iter().next().map(decode_typed::<StorageClass>) else {
        return;
    };
    let caller = store.act_as(UserInfo::admin());
    let _ = store.create_from_stream(Purpose::StorageClassUid, class);
    store.act_as(caller);
}

/// The `kubernetes` Service's endpoints, as the API server's endpoint reconciler writes them.
const APISERVER_ENDPOINTS: &str = "apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: kubernetes
  namespace: default
  labels: {kubernetes.io/service-name: kubernetes}
addressType: IPv4
endpoints:
- addresses: [\"{ip}\"]
  conditions: {ready: true}
ports:
- {name: https, port: 6443, protocol: TCP}
";

/// A manifest's objects for `node`: `{node}` is its name and `{ip}` its InternalIP.
fn manifest(text: &str, node: &Node) -> Vec<Object> {
    let text = text.replace("{node}", &node.metadata.name).replace("{ip}", &internal_ip(node));
    let values = crate::manifest::parse_documents(&text).unwrap_or_default();
    values.into_iter().filter_map(|value| crate::api::codec::decode(value).ok()).collect()
}

fn internal_ip(node: &Node) -> String {
    let address = node.status.addresses.iter().find(|a| a.type_ == "InternalIP");
    address.map(|a| a.address.clone()).unwrap_or_default()
}

#[cfg(test)]
mod tests;
