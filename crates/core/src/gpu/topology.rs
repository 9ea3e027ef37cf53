//! How a machine's GPUs connect, as NVML reports it (`nvmlDeviceGetTopologyCommonAncestor`,
//! the NVLink state): on an SXM board every pair talks over the NVSwitches through a bonded
//! set of NVLinks (`NV12` on an A100, `NV18` on an H100); PCIe cards by where they sit — two
//! behind each PCIe switch, half of them on each CPU socket. `nvidia-smi topo -m` prints it,
//! and the device plugin's preferred allocation (go-gpuallocator's best-effort policy) gives a
//! multi-GPU container the best-connected set of free GPUs.

use super::machine::GpuMachine;

/// The connection between two GPUs, best first (nvidia-smi's legend).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// The GPU itself (`X`).
    Same,
    /// A bonded set of this many NVLinks (`NV#`).
    NvLink(u32),
    /// At most one PCIe bridge (`PIX`): the same PCIe switch.
    SingleSwitch,
    /// PCIe and the interconnect between host bridges of one NUMA node (`NODE`).
    NumaNode,
    /// PCIe and the SMP interconnect between NUMA nodes (`SYS`).
    System,
}

impl Link {
    /// The matrix cell.
    pub fn label(self) -> String {
        match self {
            Link::Same => "X".into(),
            Link::NvLink(n) => format!("NV{n}"),
            Link::SingleSwitch => "PIX".into(),
            Link::NumaNode => "NODE".into(),
            Link::System => "SYS".into(),
        }
    }

    /// go-gpuallocator's pair score: each NVLink 100, then PCIe from single switch (50) down
    /// to crossing CPUs (10).
    pub fn score(self) -> u32 {
        match self {
            Link::Same => 0,
            Link::NvLink(n) => 100 * n,
            Link::SingleSwitch => 50,
            Link::NumaNode => 20,
            Link::System => 10,
        }
    }
}

/// GPUs `a` and `b` of the machine.
pub fn link(machine: &GpuMachine, a: u32, b: u32) -> Link {
    if a == b {
        return Link::Same;
    }
    let links = machine.model().map_or(0, |m| m.nvlinks);
    if links > 0 {
        return Link::NvLink(links);
    }
    if a / 2 == b / 2 {
        Link::SingleSwitch
    } else if numa_node(machine, a) == numa_node(machine, b) {
        Link::NumaNode
    } else {
        Link::System
    }
}

/// The CPU socket a GPU hangs off: the first half of the GPUs on socket 0, the rest on 1.
pub fn numa_node(machine: &GpuMachine, gpu: u32) -> u32 {
    let count = machine.gpus.len() as u32;
    if count <= 1 { 0 } else { gpu * 2 / count }
}

/// The cores of the GPU's socket (`CPU Affinity`), `N/A` when the machine's size is unknown.
pub fn cpu_affinity(machine: &GpuMachine, gpu: u32) -> String {
    let sockets = if machine.gpus.len() > 1 { 2 } else { 1 };
    let per_socket = machine.cpus / sockets;
    if per_socket == 0 {
        return "N/A".into();
    }
    let first = numa_node(machine, gpu) * per_socket;
    format!("{first}-{}", first + per_socket - 1)
}

/// The `count` GPUs among `free` with the highest total pair score, ties to the lowest indexes
/// (go-gpuallocator's best-effort policy); `None` when fewer are free.
pub fn best_set(machine: &GpuMachine, free: &[u32], count: usize) -> Option<Vec<u32>> {
    if free.len() < count {
        return None;
    }
    let mut best: Option<(u32, Vec<u32>)> = None;
    let mut chosen = Vec::with_capacity(count);
    search(machine, free, count, 0, &mut chosen, &mut best);
    best.map(|(_, set)| set)
}

/// Every `count`-subset of `free[from..]` added to `chosen`, keeping the best (small: a machine
/// has at most 16 GPUs).
fn search(
    machine: &GpuMachine,
    free: &[u32],
    count: usize,
    from: usize,
    chosen: &mut Vec<u32>,
    best: &mut Option<(u32, Vec<u32>)>,
) {
    if chosen.len() == count {
        let score = pairs_score(machine, chosen);
        if best.as_ref().is_none_or(|(top, _)| score > *top) {
            *best = Some((score, chosen.clone()));
        }
        return;
    }
    for i in from..free.len() {
        if free.len() - i < count - chosen.len() {
            break;
        }
        chosen.push(free[i]);
        search(machine, free, count, i + 1, chosen, best);
        chosen.pop();
    }
}

fn pairs_score(machine: &GpuMachine, set: &[u32]) -> u32 {
    let mut total = 0;
    for (i, a) in set.iter().enumerate() {
        for b in &set[i + 1..] {
            total += link(machine, *a, *b).score();
        }
    }
    total
}
