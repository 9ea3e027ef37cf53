//! One GPU's MIG layout: the GPU instances carved out of its memory slices and the compute
//! instances inside them, with the rules the driver enforces (placements, overlaps, instance
//! limits, one set of media engines). Mirrors NVML's `nvmlDeviceCreateGpuInstance[WithPlacement]`
//! and `nvmlGpuInstanceCreateComputeInstance`; the refusals name the rule they apply.

use super::model::{MigGeometry, MigProfile};
use serde::Serialize;

/// A GPU instance: a profile placed at a start slot, with its compute instances.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuInstance {
    /// Its ID on the GPU (see `gpu_instance_id`).
    pub id: u32,
    pub profile_id: u32,
    /// The first memory slice it takes, and how many.
    pub start: u8,
    pub size: u8,
    pub compute_instances: Vec<ComputeInstance>,
}

/// A compute instance inside a GPU instance; this lab creates whole-GI ones (`-C`, `-cci`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ComputeInstance {
    pub id: u32,
    pub profile_id: u32,
}

/// Why the driver refused: NVML's return code, and the geometry rule behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigRefusal {
    /// NVML's error string (`nvmlErrorString`): `Insufficient Resources`, `Invalid Argument`, …
    pub nvml: &'static str,
    /// The rule, in words a learner can act on.
    pub rule: String,
}

impl MigRefusal {
    fn new(nvml: &'static str, rule: String) -> Self {
        MigRefusal { nvml, rule }
    }
}

/// A GPU's MIG layout.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MigLayout {
    /// Ordered by ID.
    pub gpu_instances: Vec<GpuInstance>,
}

/// The GI ID the driver gives a placement. The slots form a binary tree over the 8 memory
/// slices — ID 0 the whole GPU, 1–2 its halves, 3–6 its quarters, 7–14 its eighths — as
/// `nvidia-smi mig -lgi` listings show (1g at 0:1 is GI 7, 3g at 4:4 is GI 2, 2g at 4:2 is GI 5).
pub fn gpu_instance_id(start: u8, size: u8) -> u32 {
    let base = match size {
        8 => 0,
        4 => 1,
        2 => 3,
        _ => 7,
    };
    base + u32::from(start / size.max(1))
}

impl MigLayout {
    /// The instance with this ID.
    pub fn gpu_instance(&self, id: u32) -> Option<&GpuInstance> {
        self.gpu_instances.iter().find(|gi| gi.id == id)
    }

    /// Whether memory slices `start..start+size` are free.
    fn free(&self, start: u8, size: u8) -> Result<(), &GpuInstance> {
        let end = start + size;
        match self.gpu_instances.iter().find(|gi| gi.start < end && start < gi.start + gi.size) {
            Some(taken) => Err(taken),
            None => Ok(()),
        }
    }

    /// The placements of `profile` that are free now (`nvidia-smi mig -lgipp` lists them all;
    /// the free ones decide `-lgip`'s Free column).
    pub fn free_placements(&self, geometry: &MigGeometry, profile: &MigProfile) -> Vec<u8> {
        if self.count(profile) >= usize::from(profile.instances)
            || (profile.media_extensions() && self.media_engines_taken(geometry))
        {
            return Vec::new();
        }
        let fits = |start: &&u8| **start + profile.memory_slices <= geometry.memory_slices;
        profile
            .placements
            .iter()
            .filter(fits)
            .filter(|s| self.free(**s, profile.memory_slices).is_ok())
            .copied()
            .collect()
    }

    /// How many more instances of `profile` fit as the GPU is now (`-lgip`'s Free), counting
    /// each only where the ones before it leave room.
    pub fn free_count(&self, geometry: &MigGeometry, profile: &MigProfile) -> usize {
        let mut trial = self.clone();
        let mut count = 0;
        while trial.create(geometry, profile, None).is_ok() {
            count += 1;
        }
        count
    }

    fn count(&self, profile: &MigProfile) -> usize {
        self.gpu_instances.iter().filter(|gi| gi.profile_id == profile.id).count()
    }

    /// Whether a `+me` instance already holds the GPU's media engines.
    fn media_engines_taken(&self, geometry: &MigGeometry) -> bool {
        let media: Vec<u32> = geometry.profiles.iter().filter(|p| p.media_extensions()).map(|p| p.id).collect();
        self.gpu_instances.iter().any(|gi| media.contains(&gi.profile_id))
    }

    /// Creates a GPU instance of `profile`, at `start` or, when none is given, where the driver
    /// puts it: the first free placement in the profile's preference (slot 0, the only home of
    /// 4g and 7g, comes late), so two `3g` land at 4:4 then 0:4, as NVIDIA's user guide shows.
    pub fn create(
        &mut self,
        geometry: &MigGeometry,
        profile: &MigProfile,
        start: Option<u8>,
    ) -> Result<u32, MigRefusal> {
        let start = match start {
            Some(start) => {
                self.check_placement(geometry, profile, start)?;
                start
            }
            None => self.auto_placement(geometry, profile)?,
        };
        let id = gpu_instance_id(start, profile.memory_slices);
        let gi = GpuInstance {
            id,
            profile_id: profile.id,
            start,
            size: profile.memory_slices,
            compute_instances: Vec::new(),
        };
        let at = self.gpu_instances.partition_point(|g| g.id < id);
        self.gpu_instances.insert(at, gi);
        Ok(id)
    }

    fn auto_placement(&self, geometry: &MigGeometry, profile: &MigProfile) -> Result<u8, MigRefusal> {
        self.check_limits(geometry, profile)?;
        let free = self.free_placements(geometry, profile);
        profile.preferred_placements().into_iter().find(|p| free.contains(p)).ok_or_else(|| {
            let used: Vec<String> = self.gpu_instances.iter().map(|gi| span(gi.start, gi.size)).collect();
            MigRefusal::new(
                "Insufficient Resources",
                format!(
                    "no free placement for {}: it needs {} memory slice(s) starting at {}, and {} taken",
                    profile.name,
                    profile.memory_slices,
                    starts(&profile.placements),
                    if used.is_empty() { "none are".to_string() } else { format!("slices {} are", used.join(", ")) }
                ),
            )
        })
    }

    fn check_limits(&self, geometry: &MigGeometry, profile: &MigProfile) -> Result<(), MigRefusal> {
        if self.count(profile) >= usize::from(profile.instances) {
            return Err(MigRefusal::new(
                "Insufficient Resources",
                format!("a GPU holds at most {} instance(s) of {}", profile.instances, profile.name),
            ));
        }
        if profile.media_extensions() && self.media_engines_taken(geometry) {
            return Err(MigRefusal::new(
                "Insufficient Resources",
                "a GPU has one set of media engines: only one +me instance at a time".to_string(),
            ));
        }
        Ok(())
    }

    fn check_placement(&self, geometry: &MigGeometry, profile: &MigProfile, start: u8) -> Result<(), MigRefusal> {
        if !profile.placements.contains(&start) || start + profile.memory_slices > geometry.memory_slices {
            return Err(MigRefusal::new(
                "Invalid Argument",
                format!("{} may start only at memory slice {}, not {start}", profile.name, starts(&profile.placements)),
            ));
        }
        self.check_limits(geometry, profile)?;
        self.free(start, profile.memory_slices).map_err(|taken| {
            let name = geometry.profiles.iter().find(|p| p.id == taken.profile_id).map_or("", |p| p.name.as_str());
            MigRefusal::new(
                "Insufficient Resources",
                format!(
                    "{} at {} overlaps GPU instance {} ({name} at {})",
                    profile.name,
                    span(start, profile.memory_slices),
                    taken.id,
                    span(taken.start, taken.size)
                ),
            )
        })
    }

    /// Creates the whole-GI compute instance in GPU instance `gi`; its ID is 0, the first free.
    pub fn create_compute_instance(&mut self, gi: u32, profile: &MigProfile) -> Result<u32, MigRefusal> {
        let instance = self.gpu_instances.iter_mut().find(|g| g.id == gi).ok_or_else(|| not_found(gi))?;
        if !instance.compute_instances.is_empty() {
            return Err(MigRefusal::new(
                "Insufficient Resources",
                format!("GPU instance {gi} already has its compute instance: a whole-GI profile fills it"),
            ));
        }
        instance.compute_instances.push(ComputeInstance { id: 0, profile_id: profile.compute_instance_profile_id() });
        Ok(0)
    }

    /// Destroys compute instance `ci` of GPU instance `gi`.
    pub fn destroy_compute_instance(&mut self, gi: u32, ci: u32) -> Result<(), MigRefusal> {
        let instance = self.gpu_instances.iter_mut().find(|g| g.id == gi).ok_or_else(|| not_found(gi))?;
        let before = instance.compute_instances.len();
        instance.compute_instances.retain(|c| c.id != ci);
        if instance.compute_instances.len() == before {
            return Err(MigRefusal::new("Not Found", format!("GPU instance {gi} has no compute instance {ci}")));
        }
        Ok(())
    }

    /// Destroys GPU instance `gi`, which must have no compute instances left.
    pub fn destroy_gpu_instance(&mut self, gi: u32) -> Result<(), MigRefusal> {
        let instance = self.gpu_instance(gi).ok_or_else(|| not_found(gi))?;
        if !instance.compute_instances.is_empty() {
            return Err(MigRefusal::new(
                "In use by another client",
                format!("GPU instance {gi} still has compute instances: destroy them first (-dci)"),
            ));
        }
        self.gpu_instances.retain(|g| g.id != gi);
        Ok(())
    }
}

fn not_found(gi: u32) -> MigRefusal {
    MigRefusal::new("Not Found", format!("there is no GPU instance {gi}"))
}

/// `4:4`, as `-lgi` prints a placement (start:size).
fn span(start: u8, size: u8) -> String {
    format!("{start}:{size}")
}

/// `0 or 4`, `0, 2 or 4`.
fn starts(placements: &[u8]) -> String {
    let words: Vec<String> = placements.iter().map(u8::to_string).collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
