//! `ingress-nginx`: the NGINX ingress controller (kubernetes/ingress-nginx v1.12.1's cloud
//! manifest): its namespace, the IngressClass `nginx`, the controller Deployment and its
//! LoadBalancer Service. Its pods route by the Ingresses of the class (`network/ingress.rs`).

use super::{Addon, manifest_objects};
use crate::api::Object;

pub const ADDON: Addon = Addon {
    name: "ingress-nginx",
    description: "The NGINX ingress controller: IngressClass nginx, its controller Deployment and a LoadBalancer Service in ingress-nginx",
    objects,
};

fn objects() -> Vec<Object> {
    manifest_objects(include_str!("manifests/ingress-nginx.yaml"))
}
