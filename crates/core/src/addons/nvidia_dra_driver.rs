//! `nvidia-dra-driver`: NVIDIA's GPU DRA driver (NVIDIA/k8s-dra-driver-gpu's Helm chart) in place
//! of the device plugin: its DeviceClasses `gpu.nvidia.com` (whole GPUs) and `mig.nvidia.com`
//! (MIG devices), each one CEL selector as the chart writes it, and its kubelet plugin on every
//! GPU node (`gpu/dra_driver.rs`), which publishes the node's GPUs as a ResourceSlice. Nodes then
//! advertise no `nvidia.com/*` extended resources: pods ask for GPUs with ResourceClaims. The
//! chart's `extendedResourceName: nvidia.com/gpu` (DRAExtendedResource) is left out: the lab's
//! scheduler does not turn extended-resource requests into claims.

use super::Addon;
use crate::api::device_class::DeviceClassSpec;
use crate::api::resource_claim::DeviceSelector;
use crate::api::{DeviceClass, Object, ObjectMeta};
use crate::gpu::dra_driver::{DRIVER, GPU_CLASS, MIG_CLASS};

pub const ADDON: Addon = Addon {
    name: "nvidia-dra-driver",
    description: "NVIDIA's GPU DRA driver: DeviceClasses gpu.nvidia.com and mig.nvidia.com, and a ResourceSlice per GPU node (replaces the device plugin)",
    objects,
};

fn objects() -> Vec<Object> {
    vec![Object::DeviceClass(class(GPU_CLASS, "gpu")), Object::DeviceClass(class(MIG_CLASS, "mig"))]
}

/// `deviceclass-<type>.yaml`: the driver and the device's `type` attribute.
fn class(name: &str, device_type: &str) -> DeviceClass {
    let expression = format!("device.driver == '{DRIVER}' && device.attributes['{DRIVER}'].type == '{device_type}'");
    DeviceClass {
        metadata: ObjectMeta::named("", name),
        spec: DeviceClassSpec {
            selectors: vec![DeviceSelector::cel(expression)],
            config: Vec::new(),
            extended_resource_name: None,
        },
    }
}
