//! `NodeRestriction` (plugin/pkg/admission/noderestriction): a kubelet, as `system:node:<name>`,
//! may change only its own Node and its own Lease in `kube-node-lease`, may write the status of
//! only the pods bound to it, and may create no pod but a mirror pod. What keeps one machine
//! that joined a lab from rewriting another's.

use super::{Operation, Plugin, Request};
use crate::api::{Kind, ObjectMut, Pod};
use crate::error::ApiError;
use crate::store::Store;
use crate::store::node_lease::NODE_LEASE_NAMESPACE;

pub const PLUGIN: Plugin = Plugin { name: "NodeRestriction", admit: None, validate: Some(validate) };

/// The annotation a static pod's mirror carries (`kubetypes.ConfigMirrorAnnotationKey`).
const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";

fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    let Some(node) = request.user.node_name() else { return Ok(()) };
    let refusal = match request.kind {
        Kind::Node if request.name != node => {
            Some(format!("node {node:?} is not allowed to modify node {:?}", request.name))
        }
        Kind::Lease if request.namespace != NODE_LEASE_NAMESPACE => {
            Some(format!("can only access leases in the {NODE_LEASE_NAMESPACE:?} namespace"))
        }
        Kind::Lease if request.name != node => {
            Some("can only access node lease with the same name as the requesting node".to_string())
        }
        Kind::Pod => pod_refusal(store, request, object, node),
        _ => None,
    };
    match refusal {
        None => Ok(()),
        Some(reason) => {
            let info = request.kind.info();
            let message = format!("{} {:?} is forbidden: {reason}", info.plural_qualified(), request.name);
            Err(ApiError::Forbidden { message })
        }
    }
}

/// `admitPod` and `admitPodStatus`: mirror pods only, and the status of pods bound here.
fn pod_refusal(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>, node: &str) -> Option<String> {
    match request.operation {
        Operation::Create => {
            let mirror =
                matches!(object, ObjectMut::Pod(pod) if pod.metadata.annotations.contains_key(MIRROR_ANNOTATION));
            (!mirror).then(|| {
                format!("pod does not have {MIRROR_ANNOTATION:?} annotation, node {node:?} can only create mirror pods")
            })
        }
        Operation::Update => {
            let bound_here =
                store.try_get::<Pod>(request.namespace, request.name).is_some_and(|pod| pod.node_name() == Some(node));
            (!bound_here).then(|| match request.subresource {
                "status" => {
                    format!("node {node:?} can only update pod status for pods with spec.nodeName set to itself")
                }
                _ => format!("node {node:?} can only update pods with spec.nodeName set to itself"),
            })
        }
        Operation::Delete => None,
    }
}
