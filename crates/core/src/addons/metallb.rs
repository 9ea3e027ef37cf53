//! `metallb`: MetalLB's controller (metallb v0.14.9, layer-2 mode) with an address pool:
//! LoadBalancer Services get an EXTERNAL-IP from it (`network/load_balancer.rs`) instead of
//! staying `<pending>`, as on a bare-metal or kind cluster once MetalLB is installed.

use super::{Addon, manifest_objects};
use crate::api::Object;

pub const ADDON: Addon = Addon {
    name: "metallb",
    description: "MetalLB: LoadBalancer Services get an external IP from 172.18.255.200-250 (layer 2)",
    objects,
};

fn objects() -> Vec<Object> {
    manifest_objects(include_str!("manifests/metallb.yaml"))
}
