//! `nvidia-smi topo -m`: the GPUs' connection matrix, each GPU's CPU and NUMA affinity, and the
//! legend, as the driver prints them (tab-separated; the machine's NICs are not modelled, so
//! their columns are absent). In a container only its GPUs, numbered from 0.

use super::Visible;
use crate::gpu::machine::GpuMachine;
use crate::gpu::topology::{self, Link};

const LEGEND: &str = "Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks
";

pub(super) fn matrix(machine: &GpuMachine, visible: &[Visible<'_>]) -> String {
    let mut text = String::new();
    for v in visible {
        text.push_str(&format!("\tGPU{}", v.index));
    }
    text.push_str("\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n");
    for row in visible {
        text.push_str(&format!("GPU{}", row.index));
        for column in visible {
            let cell = match topology::link(machine, row.gpu.index, column.gpu.index) {
                Link::Same => " X ".to_string(),
                link => link.label(),
            };
            text.push('\t');
            text.push_str(&cell);
        }
        let cpus = topology::cpu_affinity(machine, row.gpu.index);
        let numa = topology::numa_node(machine, row.gpu.index);
        text.push_str(&format!("\t{cpus}\t{numa}\t\tN/A\n"));
    }
    text.push('\n');
    text.push_str(LEGEND);
    text
}
