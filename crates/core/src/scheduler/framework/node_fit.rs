//! What every filter and score reads of every node, packed into one small record: the cache keeps
//! these contiguous in node order, so a scheduling cycle streams through them and touches a
//! node's full `NodeInfo` (labels, taints, pods, extended resources) only when the pod or the
//! node calls for it. A projection of upstream's NodeInfo (framework/types.go), derived from it.

use crate::scheduler::framework::types::NodeInfo;

/// Image ids kept in the record; a node with more is looked up in its `NodeInfo`.
const IMAGES: usize = 4;
/// Device resources (the device plugin's names) whose amounts are kept in the record; a node
/// with more kinds is looked up in its `NodeInfo`. A MIG layout rarely mixes more than three.
const DEVICES: usize = 4;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeFit {
    pub allocatable_milli_cpu: i64,
    pub allocatable_memory: i64,
    pub allocatable_ephemeral_storage: i64,
    pub allowed_pod_number: i64,
    pub requested_milli_cpu: i64,
    pub requested_memory: i64,
    pub requested_ephemeral_storage: i64,
    pub non_zero_milli_cpu: i64,
    pub non_zero_memory: i64,
    pub pod_count: u32,
    pub unschedulable: bool,
    /// The node has taints (of any effect).
    pub tainted: bool,
    /// Which of the device plugin's resources the node has any of (`ScalarName::known_bit`).
    pub devices: u64,
    /// Their allocatable and requested amounts, in bit order, when `devices` has at most
    /// `DEVICES` bits and every amount fits.
    device_amounts: Option<[(i32, i32); DEVICES]>,
    image_count: u8,
    images: [u32; IMAGES],
}

impl NodeFit {
    pub fn of(node: &NodeInfo) -> NodeFit {
        let mut images = [0; IMAGES];
        let mut image_count = 0u8;
        for (slot, id) in images.iter_mut().zip(node.images.ids()) {
            *slot = id;
            image_count += 1;
        }
        if node.images.ids().nth(IMAGES).is_some() {
            image_count = u8::MAX;
        }
        NodeFit {
            allocatable_milli_cpu: node.allocatable.milli_cpu,
            allocatable_memory: node.allocatable.memory,
            allocatable_ephemeral_storage: node.allocatable.ephemeral_storage,
            allowed_pod_number: node.allocatable.allowed_pod_number,
            requested_milli_cpu: node.requested.milli_cpu,
            requested_memory: node.requested.memory,
            requested_ephemeral_storage: node.requested.ephemeral_storage,
            non_zero_milli_cpu: node.non_zero_requested.milli_cpu,
            non_zero_memory: node.non_zero_requested.memory,
            pod_count: u32::try_from(node.pod_count()).unwrap_or(u32::MAX),
            unschedulable: node.unschedulable,
            tainted: !node.taints.is_empty(),
            devices: node.allocatable.scalar_resources.known_present(),
            device_amounts: device_amounts(node),
            image_count,
            images,
        }
    }

    /// `(allocatable, requested)` of a device resource the node has (its bit is in `devices`),
    /// or None when the record does not hold it.
    #[inline]
    pub fn device(&self, bit: u64) -> Option<(i64, i64)> {
        let amounts = self.device_amounts.as_ref()?;
        let rank = (self.devices & (bit - 1)).count_ones() as usize;
        let (allocatable, requested) = amounts[rank];
        Some((i64::from(allocatable), i64::from(requested)))
    }

    pub fn has_images(&self) -> bool {
        self.image_count > 0
    }

    /// Whether the node has the image; `node` is consulted only past the inline ids.
    pub fn has_image(&self, id: u32, node: &NodeInfo) -> bool {
        match usize::from(self.image_count) {
            count if count <= IMAGES => self.images[..count].contains(&id),
            _ => node.images.contains(id),
        }
    }
}

/// The amounts `NodeFit::device` returns, when they fit the record.
fn device_amounts(node: &NodeInfo) -> Option<[(i32, i32); DEVICES]> {
    let mut amounts = [(0, 0); DEVICES];
    let mut kinds = 0;
    for (name, allocatable) in node.allocatable.scalar_resources.iter() {
        if allocatable <= 0 || name.known_bit() == 0 {
            continue;
        }
        let slot = amounts.get_mut(kinds)?;
        *slot = (i32::try_from(allocatable).ok()?, i32::try_from(node.requested.scalar_resources.of(name)).ok()?);
        kinds += 1;
    }
    // The list is sorted by name and the bits were given in name order, so slots are in bit order.
    Some(amounts)
}
