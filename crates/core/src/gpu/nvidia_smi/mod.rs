//! `nvidia-smi` as driver 580 prints it, on a node (every GPU, and the MIG commands that
//! change them) and inside a container (only the devices the device plugin gave it, renumbered
//! from 0, as the NVIDIA container toolkit exposes them). Output byte for byte as the real
//! tool's, errors in its words, exit codes from its man page (2 invalid argument, 4 no
//! permission, 6 not found, 255 other).

mod listing;
mod mig_commands;
mod mig_tables;
mod topo;

use super::device::Gpu;
use super::device_plugin::Device;
use super::machine::GpuMachine;
use crate::sim::time::SimTime;
use std::collections::BTreeSet;

/// Where it runs.
pub enum Scope<'a> {
    /// On the machine, as root.
    Host,
    /// In a container given these devices.
    Container(&'a [Device]),
}

/// What pods hold on the machine: whole GPUs and GPU instances. The driver refuses to reset or
/// destroy what a process uses ("In use by another client").
#[derive(Clone, Debug, Default)]
pub struct InUse {
    pub gpus: BTreeSet<u32>,
    pub gpu_instances: BTreeSet<(u32, u32)>,
}

impl InUse {
    pub fn from_devices<'a>(devices: impl Iterator<Item = &'a Device>) -> InUse {
        let mut in_use = InUse::default();
        for device in devices {
            match device.gpu_instance {
                Some(gi) => in_use.gpu_instances.insert((device.gpu, gi)),
                None => in_use.gpus.insert(device.gpu),
            };
        }
        in_use
    }

    fn gpu(&self, gpu: u32) -> bool {
        self.gpus.contains(&gpu) || self.gpu_instances.iter().any(|(g, _)| *g == gpu)
    }
}

/// One GPU as the caller sees it: its number there, and which MIG devices (by GI) it may see.
pub(super) struct Visible<'a> {
    pub index: u32,
    pub gpu: &'a Gpu,
    /// `None`: all of them (the host, or a whole GPU given to a container).
    pub gpu_instances: Option<BTreeSet<u32>>,
}

/// What the command printed (stdout and stderr together) and its exit code.
pub type Outcome = (String, i32);

const INVALID: &str = "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.\n";

/// Runs `nvidia-smi ARGS`.
pub fn run(machine: &mut GpuMachine, scope: Scope<'_>, in_use: &InUse, args: &[String], now: SimTime) -> Outcome {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let host = matches!(scope, Scope::Host);
    if args.first() == Some(&"mig") {
        if !host {
            return mig_commands::no_permission(&args[1..]);
        }
        return mig_commands::run(machine, in_use, &args[1..]);
    }
    let (index, rest) = match take_index(&args) {
        Ok(split) => split,
        Err(outcome) => return outcome,
    };
    match rest.as_slice() {
        ["-mig" | "--multi-instance-gpu", mode] if host => mig_commands::set_mode(machine, in_use, index, mode),
        ["-mig" | "--multi-instance-gpu", _] => ("Unable to set MIG mode: Insufficient Permissions\n".into(), 4),
        _ => {
            let visible = visible(machine, &scope);
            let visible = match select(visible, index) {
                Ok(v) => v,
                Err(outcome) => return outcome,
            };
            match rest.as_slice() {
                [] => (listing::table(&visible, host, now), 0),
                ["-L" | "--list-gpus"] => (listing::list(&visible), 0),
                ["topo", "-m" | "--matrix"] => (topo::matrix(machine, &visible), 0),
                _ => (INVALID.into(), 2),
            }
        }
    }
}

/// `-i N` (`--id=N`) anywhere in the arguments, and the rest.
fn take_index<'a>(args: &[&'a str]) -> Result<(Option<u32>, Vec<&'a str>), Outcome> {
    let mut index = None;
    let mut rest = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let value = match *word {
            "-i" | "--id" => words.next().copied(),
            w if w.starts_with("--id=") => Some(&w[5..]),
            _ => {
                rest.push(*word);
                continue;
            }
        };
        let parsed = value.and_then(|v| v.parse::<u32>().ok());
        match parsed {
            Some(n) => index = Some(n),
            None => return Err((INVALID.into(), 2)),
        }
    }
    Ok((index, rest))
}

/// The GPUs the caller sees: all of them on the host; in a container, the ones its devices are
/// on, renumbered from 0, each with only its given MIG devices.
fn visible<'a>(machine: &'a GpuMachine, scope: &Scope<'_>) -> Vec<Visible<'a>> {
    match scope {
        Scope::Host => machine.gpus.iter().map(|gpu| Visible { index: gpu.index, gpu, gpu_instances: None }).collect(),
        Scope::Container(devices) => {
            let mut shown: Vec<Visible<'a>> = Vec::new();
            for gpu in &machine.gpus {
                let mine: Vec<&Device> = devices.iter().filter(|d| d.gpu == gpu.index).collect();
                if mine.is_empty() {
                    continue;
                }
                let whole = mine.iter().any(|d| d.gpu_instance.is_none());
                let gpu_instances = (!whole).then(|| mine.iter().filter_map(|d| d.gpu_instance).collect());
                shown.push(Visible { index: shown.len() as u32, gpu, gpu_instances });
            }
            shown
        }
    }
}

fn select(visible: Vec<Visible<'_>>, index: Option<u32>) -> Result<Vec<Visible<'_>>, Outcome> {
    if visible.is_empty() {
        return Err(("No devices were found\n".into(), 6));
    }
    match index {
        None => Ok(visible),
        Some(n) => {
            let chosen: Vec<Visible<'_>> = visible.into_iter().filter(|v| v.index == n).collect();
            if chosen.is_empty() {
                return Err(("No devices were found\n".into(), 6));
            }
            Ok(chosen)
        }
    }
}
