//! `nvidia-smi mig -lgip`, `-lgipp`, `-lgi` and `-lci`: the profiles with what is still free,
//! their placements, and the GPU and compute instances, in driver 580's layouts.

use crate::gpu::device::Gpu;
use crate::gpu::mig::GpuInstance;
use crate::gpu::model::MigProfile;

const LGIP_RULE: &str = "+-------------------------------------------------------------------------------+\n";

/// `-lgip`: every profile of every GPU, with Free/Total as the GPU is now.
pub(super) fn profiles(gpus: &[&Gpu]) -> String {
    let mut out = String::from(LGIP_RULE);
    out.push_str("| GPU instance profiles:                                                        |\n");
    out.push_str("| GPU   Name               ID    Instances   Memory     P2P    SM    DEC   ENC  |\n");
    out.push_str("|                                Free/Total   GiB              CE    JPEG  OFA  |\n");
    out.push_str("|===============================================================================|\n");
    let mut first = true;
    for gpu in gpus {
        let Some(geometry) = &gpu.model.mig else { continue };
        for p in &geometry.profiles {
            if !first {
                out.push_str(LGIP_RULE);
            }
            first = false;
            let free = format!("{}/{}", gpu.mig.free_count(geometry, p), p.instances);
            out.push_str(&format!(
                "|{:>4}  {:<18}{:>4}{free:>8}{:8}{:<11}No{:>7}{:>6}{:>6}   |\n",
                gpu.index,
                format!("MIG {}", p.name),
                p.id,
                "",
                p.memory_gib_text(),
                p.multiprocessors,
                p.decoders,
                p.encoders
            ));
            out.push_str(&format!("|{:59}{:>5}{:>6}{:>6}   |\n", "", p.copy_engines, p.jpeg, p.ofa));
        }
    }
    out.push_str(LGIP_RULE);
    out
}

/// `-lgipp`: each profile's possible placements, `{starts}:size`.
pub(super) fn placements(gpus: &[&Gpu]) -> String {
    let mut out = String::new();
    for gpu in gpus {
        let Some(geometry) = &gpu.model.mig else { continue };
        for p in &geometry.profiles {
            let starts: Vec<String> = p.placements.iter().map(u8::to_string).collect();
            let word = if p.placements.len() == 1 { "Placement :" } else { "Placements:" };
            out.push_str(&format!(
                "GPU {:>2} Profile ID {:>2} {word} {{{}}}:{}\n",
                gpu.index,
                p.id,
                starts.join(","),
                p.memory_slices
            ));
        }
    }
    out
}

/// A GPU's instances in the order the driver lists them: by profile as `-lgip` orders them,
/// then by instance ID.
pub(super) fn ordered(gpu: &Gpu) -> Vec<(&GpuInstance, &'static MigProfile)> {
    let Some(geometry) = &gpu.model.mig else { return Vec::new() };
    let mut rows: Vec<(usize, &GpuInstance, &'static MigProfile)> = gpu
        .mig
        .gpu_instances
        .iter()
        .filter_map(|gi| {
            let rank = geometry.profiles.iter().position(|p| p.id == gi.profile_id)?;
            Some((rank, gi, &geometry.profiles[rank]))
        })
        .collect();
    rows.sort_by_key(|(rank, gi, _)| (*rank, gi.id));
    rows.into_iter().map(|(_, gi, p)| (gi, p)).collect()
}

const LGI_RULE: &str = "+---------------------------------------------------------+\n";

/// `-lgi`, or `None` when there are no GPU instances.
pub(super) fn gpu_instances(gpus: &[&Gpu], only: Option<&[u32]>) -> Option<String> {
    let mut rows = Vec::new();
    for gpu in gpus {
        for (gi, p) in ordered(gpu).into_iter().filter(|(gi, _)| only.is_none_or(|ids| ids.contains(&gi.id))) {
            let span = format!("{}:{}", gi.start, gi.size);
            rows.push(format!(
                "|{:>4}  {:<18}{:>6}{:>9}{span:>13}     |\n",
                gpu.index,
                format!("MIG {}", p.name),
                p.id,
                gi.id
            ));
        }
    }
    if rows.is_empty() {
        return None;
    }
    let mut out = String::from(LGI_RULE);
    out.push_str("| GPU instances:                                          |\n");
    out.push_str("| GPU   Name               Profile  Instance   Placement  |\n");
    out.push_str("|                            ID       ID       Start:Size |\n");
    out.push_str("|=========================================================|\n");
    out.push_str(&rows.join(LGI_RULE));
    out.push_str(LGI_RULE);
    Some(out)
}

const LCI_RULE: &str = "+--------------------------------------------------------------------+\n";

/// `-lci`, or `None` when there are no compute instances.
pub(super) fn compute_instances(gpus: &[&Gpu], only: Option<&[u32]>) -> Option<String> {
    let mut rows = Vec::new();
    for gpu in gpus {
        for (gi, p) in ordered(gpu).into_iter().filter(|(gi, _)| only.is_none_or(|ids| ids.contains(&gi.id))) {
            for ci in &gi.compute_instances {
                // A whole-GI compute instance starts at its first compute slice and spans them all.
                let span = format!("0:{}", p.compute_slices);
                rows.push(format!(
                    "|{:>4}{:>7}       {:<17}{:>5}{:>10}{span:>13}     |\n",
                    gpu.index,
                    gi.id,
                    format!("MIG {}", p.name),
                    ci.profile_id,
                    ci.id
                ));
            }
        }
    }
    if rows.is_empty() {
        return None;
    }
    let mut out = String::from(LCI_RULE);
    out.push_str("| Compute instances:                                                 |\n");
    out.push_str("| GPU     GPU       Name             Profile   Instance   Placement  |\n");
    out.push_str("|       Instance                       ID        ID       Start:Size |\n");
    out.push_str("|         ID                                                         |\n");
    out.push_str("|====================================================================|\n");
    out.push_str(&rows.join(LCI_RULE));
    out.push_str(LCI_RULE);
    Some(out)
}
