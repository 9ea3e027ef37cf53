//! `nvidia-smi mig …` and `nvidia-smi -mig 0|1`: listing, creating and destroying GPU and
//! compute instances, and switching MIG mode, with the driver's refusals in its words.

use super::{INVALID, InUse, Outcome, mig_tables};
use crate::gpu::device::Gpu;
use crate::gpu::machine::GpuMachine;

/// What `nvidia-smi mig` was asked.
#[derive(Default)]
struct MigArgs<'a> {
    gpu: Option<u32>,
    gpu_instances: Option<Vec<u32>>,
    compute_instances: Option<Vec<u32>>,
    action: Option<&'a str>,
    create: Option<&'a str>,
    default_compute_instance: bool,
}

fn ids(text: &str) -> Option<Vec<u32>> {
    text.split(',').map(|t| t.trim().parse::<u32>().ok()).collect()
}

fn parse<'a>(args: &[&'a str]) -> Option<MigArgs<'a>> {
    let mut parsed = MigArgs::default();
    let mut words = args.iter().copied().peekable();
    while let Some(word) = words.next() {
        match word {
            "-i" | "--id" => parsed.gpu = Some(words.next()?.parse().ok()?),
            "-gi" | "--gpu-instance-id" => parsed.gpu_instances = Some(ids(words.next()?)?),
            "-ci" | "--compute-instance-id" => parsed.compute_instances = Some(ids(words.next()?)?),
            "-C" | "--default-compute-instance" => parsed.default_compute_instance = true,
            "-cgi" | "--create-gpu-instance" => {
                parsed.create = Some(words.next()?);
                parsed.action = Some("-cgi");
            }
            "-cci" | "--create-compute-instance" => {
                // An optional list of CI profile IDs; only the default (whole-GI) one is modelled.
                if words.peek().is_some_and(|w| !w.starts_with('-')) {
                    words.next();
                }
                parsed.action = Some("-cci");
            }
            "-lgip" | "--list-gpu-instance-profiles" => parsed.action = Some("-lgip"),
            "-lgipp" | "--list-gpu-instance-possible-placements" => parsed.action = Some("-lgipp"),
            "-lgi" | "--list-gpu-instances" => parsed.action = Some("-lgi"),
            "-lci" | "--list-compute-instances" => parsed.action = Some("-lci"),
            "-dci" | "--destroy-compute-instance" => parsed.action = Some("-dci"),
            "-dgi" | "--destroy-gpu-instance" => parsed.action = Some("-dgi"),
            _ => return None,
        }
    }
    Some(parsed)
}

/// Inside a container: the MIG capabilities are not mounted.
pub(super) fn no_permission(args: &[&str]) -> Outcome {
    let what = match parse(args).and_then(|a| a.action) {
        Some("-cgi") => "Failed to create GPU instances",
        Some("-cci") => "Failed to create compute instances",
        Some("-dci") => "Failed to destroy compute instances",
        Some("-dgi") => "Failed to destroy GPU instances",
        Some("-lgi") => "Failed to display GPU instances",
        Some("-lci") => "Failed to display compute instances",
        Some(_) => "Failed to display GPU instance profiles",
        None => return (INVALID.into(), 2),
    };
    (format!("{what}: Insufficient Permissions\n"), 4)
}

pub(super) fn run(machine: &mut GpuMachine, in_use: &InUse, args: &[&str]) -> Outcome {
    let Some(parsed) = parse(args).filter(|p| p.action.is_some()) else { return (INVALID.into(), 2) };
    let targets: Vec<u32> =
        machine.gpus.iter().map(|g| g.index).filter(|i| parsed.gpu.is_none_or(|n| n == *i)).collect();
    if targets.is_empty() {
        return ("No devices were found\n".into(), 6);
    }
    if !targets.iter().any(|i| machine.gpus[*i as usize].model.mig.is_some()) {
        return ("No MIG-supported devices found.\n".into(), 6);
    }
    let enabled: Vec<u32> = targets.into_iter().filter(|i| machine.gpus[*i as usize].mig_enabled).collect();
    if enabled.is_empty() {
        return ("No MIG-enabled devices found.\n".into(), 6);
    }
    let gis = parsed.gpu_instances.as_deref();
    let view =
        |machine: &GpuMachine| -> Vec<Gpu> { enabled.iter().map(|i| machine.gpus[*i as usize].clone()).collect() };
    match parsed.action.unwrap_or_default() {
        "-lgip" => (mig_tables::profiles(&view(machine).iter().collect::<Vec<_>>()), 0),
        "-lgipp" => (mig_tables::placements(&view(machine).iter().collect::<Vec<_>>()), 0),
        "-lgi" => mig_tables::gpu_instances(&view(machine).iter().collect::<Vec<_>>(), gis)
            .map_or(("No GPU instances found: Not Found\n".into(), 6), |t| (t, 0)),
        "-lci" => mig_tables::compute_instances(&view(machine).iter().collect::<Vec<_>>(), gis)
            .map_or(("No compute instances found: Not Found\n".into(), 6), |t| (t, 0)),
        "-cgi" => create(machine, in_use, &enabled, parsed.create.unwrap_or_default(), parsed.default_compute_instance),
        "-cci" => create_compute(machine, &enabled, gis),
        "-dci" => destroy_compute(machine, in_use, &enabled, gis, parsed.compute_instances.as_deref()),
        _ => destroy_gpu_instances(machine, in_use, &enabled, gis),
    }
}

/// `-cgi LIST [-C]`: each item a profile name or ID, optionally `:START`; on every target GPU
/// in turn, stopping at the first refusal.
fn create(machine: &mut GpuMachine, in_use: &InUse, gpus: &[u32], list: &str, with_ci: bool) -> Outcome {
    let mut out = String::new();
    for &index in gpus {
        for item in list.split(',') {
            let (token, start) = match item.split_once(':') {
                Some((t, s)) => (t, Some(s)),
                None => (item, None),
            };
            let gpu = &mut machine.gpus[index as usize];
            let fail = |out: &mut String, why: &str, code: i32| {
                out.push_str(&format!(
                    "Unable to create a GPU instance on GPU {index:>2} using profile {token}: {why}\n"
                ));
                out.push_str(&format!("Failed to create GPU instances: {why}\n"));
                (std::mem::take(out), code)
            };
            let (Some(geometry), Some(profile)) = (gpu.model.mig.as_ref(), gpu.model.profile(token)) else {
                return fail(&mut out, "Invalid Argument", 2);
            };
            let start = match start.map(str::parse::<u8>) {
                Some(Ok(s)) => Some(s),
                Some(Err(_)) => return fail(&mut out, "Invalid Argument", 2),
                None => None,
            };
            if in_use.gpus.contains(&index) {
                return fail(&mut out, "In use by another client", 255);
            }
            let id = match gpu.mig.create(geometry, profile, start) {
                Ok(id) => id,
                Err(refusal) => {
                    let code = if refusal.nvml == "Invalid Argument" { 2 } else { 255 };
                    return fail(&mut out, refusal.nvml, code);
                }
            };
            out.push_str(&format!(
                "Successfully created GPU instance ID {id:>2} on GPU {index:>2} using profile MIG {} (ID {:>2})\n",
                profile.name, profile.id
            ));
            if with_ci && let Ok(ci) = gpu.mig.create_compute_instance(id, profile) {
                out.push_str(&format!(
                    "Successfully created compute instance ID {ci:>2} on GPU {index:>2} GPU instance ID {id:>2} using profile MIG {} (ID {:>2})\n",
                    profile.name,
                    profile.compute_instance_profile_id()
                ));
            }
        }
    }
    (out, 0)
}

/// `-cci [-gi IDS]`: the default compute instance in each chosen GPU instance.
fn create_compute(machine: &mut GpuMachine, gpus: &[u32], only: Option<&[u32]>) -> Outcome {
    let mut out = String::new();
    for &index in gpus {
        let gpu = &mut machine.gpus[index as usize];
        let chosen: Vec<(u32, u32)> = mig_tables::ordered(gpu)
            .into_iter()
            .filter(|(gi, _)| only.is_none_or(|ids| ids.contains(&gi.id)))
            .map(|(gi, p)| (gi.id, p.id))
            .collect();
        for (gi, profile_id) in chosen {
            let Some(profile) = gpu.mig_profile(profile_id) else { continue };
            match gpu.mig.create_compute_instance(gi, profile) {
                Ok(ci) => out.push_str(&format!(
                    "Successfully created compute instance ID {ci:>2} on GPU {index:>2} GPU instance ID {gi:>2} using profile MIG {} (ID {:>2})\n",
                    profile.name,
                    profile.compute_instance_profile_id()
                )),
                Err(refusal) => {
                    out.push_str(&format!(
                        "Unable to create a compute instance on GPU {index:>2} GPU instance ID {gi:>2} using profile {}: {}\n",
                        profile.compute_instance_profile_id(),
                        refusal.nvml
                    ));
                    out.push_str(&format!("Failed to create compute instances: {}\n", refusal.nvml));
                    return (out, 255);
                }
            }
        }
    }
    if out.is_empty() {
        return ("No GPU instances found: Not Found\n".into(), 6);
    }
    (out, 0)
}

/// `-dci [-gi IDS] [-ci IDS]`.
fn destroy_compute(
    machine: &mut GpuMachine,
    in_use: &InUse,
    gpus: &[u32],
    gis: Option<&[u32]>,
    cis: Option<&[u32]>,
) -> Outcome {
    let mut out = String::new();
    for &index in gpus {
        let gpu = &mut machine.gpus[index as usize];
        let chosen: Vec<(u32, u32)> = mig_tables::ordered(gpu)
            .into_iter()
            .filter(|(gi, _)| gis.is_none_or(|ids| ids.contains(&gi.id)))
            .flat_map(|(gi, _)| gi.compute_instances.iter().map(|ci| (gi.id, ci.id)).collect::<Vec<_>>())
            .filter(|(_, ci)| cis.is_none_or(|ids| ids.contains(ci)))
            .collect();
        for (gi, ci) in chosen {
            if in_use.gpu_instances.contains(&(index, gi)) {
                out.push_str(&format!(
                    "Unable to destroy compute instance ID {ci:>2} from GPU {index:>2} GPU instance ID {gi:>2}: In use by another client\n"
                ));
                out.push_str("Failed to destroy compute instances: In use by another client\n");
                return (out, 255);
            }
            if gpu.mig.destroy_compute_instance(gi, ci).is_ok() {
                out.push_str(&format!(
                    "Successfully destroyed compute instance ID {ci:>2} from GPU {index:>2} GPU instance ID {gi:>2}\n"
                ));
            }
        }
    }
    if out.is_empty() {
        return ("No compute instances found: Not Found\n".into(), 6);
    }
    (out, 0)
}

/// `-dgi [-gi IDS]`: a GPU instance that still has compute instances is in use.
fn destroy_gpu_instances(machine: &mut GpuMachine, in_use: &InUse, gpus: &[u32], only: Option<&[u32]>) -> Outcome {
    let mut out = String::new();
    for &index in gpus {
        let gpu = &mut machine.gpus[index as usize];
        let chosen: Vec<u32> = mig_tables::ordered(gpu)
            .into_iter()
            .filter(|(gi, _)| only.is_none_or(|ids| ids.contains(&gi.id)))
            .map(|(gi, _)| gi.id)
            .collect();
        for gi in chosen {
            let busy = in_use.gpu_instances.contains(&(index, gi));
            if busy || gpu.mig.destroy_gpu_instance(gi).is_err() {
                out.push_str(&format!(
                    "Unable to destroy GPU instance ID {gi:>2} from GPU {index:>2}: In use by another client\n"
                ));
                out.push_str("Failed to destroy GPU instances: In use by another client\n");
                return (out, 255);
            }
            out.push_str(&format!("Successfully destroyed GPU instance ID {gi:>2} from GPU {index:>2}\n"));
        }
    }
    if out.is_empty() {
        return ("No GPU instances found: Not Found\n".into(), 6);
    }
    (out, 0)
}

/// `[-i N] -mig 1|0`: MIG mode on or off. A GPU that a pod uses, or (turning it off) that still
/// has GPU instances, is in use; one without MIG support is skipped with a warning.
pub(super) fn set_mode(machine: &mut GpuMachine, in_use: &InUse, index: Option<u32>, mode: &str) -> Outcome {
    let enable = match mode {
        "1" | "ENABLED" | "Enabled" => true,
        "0" | "DISABLED" | "Disabled" => false,
        _ => return (INVALID.into(), 2),
    };
    let (verb, past) = if enable { ("enable", "Enabled") } else { ("disable", "Disabled") };
    let mut out = String::new();
    let mut any = false;
    for gpu in machine.gpus.iter_mut().filter(|g| index.is_none_or(|n| n == g.index)) {
        any = true;
        if gpu.model.mig.is_none() {
            out.push_str(&format!(
                "Unable to {verb} MIG Mode for GPU {}: Not Supported\nTreating as warning and moving on.\n",
                gpu.bus_id
            ));
            continue;
        }
        if in_use.gpu(gpu.index) || (!enable && !gpu.mig.gpu_instances.is_empty()) {
            out.push_str(&format!(
                "Unable to {verb} MIG Mode for GPU {}: In use by another client\nTerminating early due to previous errors.\n",
                gpu.bus_id
            ));
            return (out, 255);
        }
        gpu.mig_enabled = enable;
        out.push_str(&format!("{past} MIG Mode for GPU {}\n", gpu.bus_id));
    }
    if !any {
        return ("No devices were found\n".into(), 6);
    }
    out.push_str("All done.\n");
    (out, 0)
}
