//! `nvidia-smi -L` and the default table (driver 580's 91-column layout: the GPU box, the MIG
//! devices box when MIG is on, the processes box).

use super::Visible;
use crate::gpu::device::MigDevice;
use crate::gpu::feature_discovery::{CUDA_VERSION, DRIVER_VERSION};
use crate::sim::time::SimTime;

/// The MIG devices of a visible GPU, numbered as the caller sees them: by GPU instance ID,
/// then compute instance (driver 580's `-L` and MIG box list a 4g at GI 1 before a 1g at GI 13,
/// though `-lgi` lists by profile).
pub(super) fn mig_devices<'a>(visible: &Visible<'a>) -> Vec<MigDevice<'a>> {
    let shown = |d: &MigDevice<'_>| visible.gpu_instances.as_ref().is_none_or(|gis| gis.contains(&d.gpu_instance.id));
    visible.gpu.mig_devices().into_iter().filter(shown).collect()
}

/// `nvidia-smi -L`.
pub(super) fn list(visible: &[Visible<'_>]) -> String {
    let mut out = String::new();
    for v in visible {
        out.push_str(&format!("GPU {}: {} (UUID: {})\n", v.index, v.gpu.model.product, v.gpu.uuid));
        for (n, device) in mig_devices(v).iter().enumerate() {
            out.push_str(&format!("  MIG {:<11} Device {n:>2}: (UUID: {})\n", device.profile.name, device.uuid));
        }
    }
    out
}

const RULE: &str = "+-----------------------------------------------------------------------------------------+\n";
const GPU_RULE: &str = "+-----------------------------------------+------------------------+----------------------+\n";
const MIG_RULE: &str = "+------------------+----------------------------------+-----------+-----------------------+\n";

/// Memory a GPU instance's context takes while idle, MiB (35.5 per memory slice, as driver
/// 580 shows: 36 for a 1g, 71 for a 2g, 142 for a 4g).
fn idle_mib(memory_slices: u8) -> u64 {
    (71 * u64::from(memory_slices)).div_ceil(2)
}

/// The default table.
pub(super) fn table(visible: &[Visible<'_>], host: bool, now: SimTime) -> String {
    let mut out = format!("{}       \n", now.to_ctime());
    out.push_str(RULE);
    out.push_str(&format!(
        "| NVIDIA-SMI {DRIVER_VERSION:<23}Driver Version: {DRIVER_VERSION:<15}CUDA Version: {CUDA_VERSION:<9}|\n"
    ));
    out.push_str(GPU_RULE);
    out.push_str("| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n");
    out.push_str("| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n");
    out.push_str("|                                         |                        |               MIG M. |\n");
    out.push_str("|=========================================+========================+======================|\n");
    for v in visible {
        gpu_rows(&mut out, v, host);
        out.push_str(GPU_RULE);
    }
    if visible.iter().any(|v| v.gpu.mig_enabled) {
        out.push('\n');
        mig_box(&mut out, visible);
    }
    out.push('\n');
    out.push_str(RULE);
    out.push_str("| Processes:                                                                              |\n");
    out.push_str("|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |\n");
    out.push_str("|        ID   ID                                                               Usage      |\n");
    out.push_str("|=========================================================================================|\n");
    out.push_str("|  No running processes found                                                             |\n");
    out.push_str(RULE);
    out
}

fn gpu_rows(out: &mut String, v: &Visible<'_>, host: bool) {
    let gpu = v.gpu;
    let mut name = gpu.model.product.clone();
    if name.len() > 27 {
        name = format!("{}...", &name[..24]);
    }
    let ecc = if gpu.mig_enabled { "On" } else { "0" };
    out.push_str(&format!("|{:>4}  {name:<31}{:<3} |   {} Off |{ecc:>21} |\n", v.index, "On", gpu.bus_id));
    let temp = 30 + (gpu.index * 3) % 7;
    let power = format!("{}W", gpu.model.power_watts / 9 + gpu.index);
    let cap = format!("{}W", gpu.model.power_watts);
    let memory = if host {
        let used: u64 = gpu.mig.gpu_instances.iter().filter(|_| gpu.mig_enabled).map(|gi| idle_mib(gi.size)).sum();
        format!("{:>11} / {:>9} ", format!("{used}MiB"), format!("{}MiB", gpu.model.memory_mib))
    } else {
        // Inside a container the driver does not report the parent GPU's memory.
        format!("{:>21}   ", "N/A")
    };
    let util = if gpu.mig_enabled { "N/A" } else { "0%" };
    out.push_str(&format!("| N/A   {temp:>2}C    P0{power:>16} / {cap:>5} |{memory}|{util:>8}      Default |\n"));
    let mig_mode = match (&gpu.model.mig, gpu.mig_enabled) {
        (None, _) => "N/A",
        (Some(_), true) => "Enabled",
        (Some(_), false) => "Disabled",
    };
    out.push_str(&format!("|                                         |                        |{mig_mode:>21} |\n"));
}

fn mig_box(out: &mut String, visible: &[Visible<'_>]) {
    out.push_str(RULE);
    out.push_str("| MIG devices:                                                                            |\n");
    out.push_str(MIG_RULE);
    out.push_str("| GPU  GI  CI  MIG |              Shared Memory-Usage |        Vol|        Shared         |\n");
    out.push_str("|      ID  ID  Dev |                Shared BAR1-Usage | SM     Unc| CE ENC  DEC  OFA  JPG |\n");
    out.push_str("|                  |                                  |        ECC|                       |\n");
    out.push_str("|==================+==================================+===========+=======================|\n");
    let mut any = false;
    for v in visible {
        let bar1 = v.gpu.model.mig.as_ref().map_or(0, |m| m.bar1_mib);
        for (n, d) in mig_devices(v).iter().enumerate() {
            any = true;
            let p = d.profile;
            let used = format!("{}MiB", idle_mib(d.gpu_instance.size));
            let total = format!("{}MiB", p.memory_mib);
            out.push_str(&format!(
                "|{:>3}{:>5}{:>4}{n:>4}  |{used:>19} / {total:>8}    | {:<2}{:>7} |{:>3}{:>4}{:>5}{:>5}{:>5} |\n",
                v.index,
                d.gpu_instance.id,
                d.compute_instance,
                p.multiprocessors,
                0,
                p.copy_engines,
                p.encoders,
                p.decoders,
                p.ofa,
                p.jpeg
            ));
            let bar1_total = format!("{}MiB", bar1 * u64::from(d.gpu_instance.size) / 8);
            out.push_str(&format!("|{:18}|{:>19} / {bar1_total:>8}    |{:11}|{:23}|\n", "", "0MiB", "", ""));
            out.push_str(MIG_RULE);
        }
    }
    if !any {
        out.push_str("|  No MIG devices found                                                                   |\n");
        out.push_str(RULE);
    }
}
