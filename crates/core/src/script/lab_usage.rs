//! `lab usage (deploy|rs|pod)/NAME [--cpu Q] [--memory Q]`: sets what each of a target's pods
//! uses, as metrics-server will report it (`kubectl top`, the HPA's resource metrics), in place
//! of the workload model's figure for its first container; with neither flag, gives the pods
//! back to the model. A memory figure over a container's limit is refused: the kernel would
//! OOM-kill it (`lab pod oom` shows that).

use crate::api::quantity::Quantity;
use crate::api::{Kind, Pod};
use crate::kubectl::args::{self, Flag};
use crate::metrics::demand::SetUsage;
use crate::metrics::load::selected_pods;
use crate::sim::Sim;

pub const FLAGS: &[Flag] = &[
    Flag::value("cpu", None, "CPU each pod uses, e.g. 300m (its first container; capped at its limit)"),
    Flag::value("memory", None, "Memory each pod uses, e.g. 200Mi (its first container)"),
    Flag::value("namespace", Some('n'), "The target's namespace"),
];

pub fn usage(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let [target] = args.positionals.as_slice() else { return Err("error: exactly one TYPE/NAME is required".into()) };
    let kinds = [Kind::Deployment, Kind::ReplicaSet, Kind::Pod];
    let (namespace, kind, name) = super::lab::workload_target(sim, args, target, &kinds, "set usage of")?;
    let set = SetUsage {
        cpu_millicores: quantity(args, "cpu")?.map(|q| q.milli_value().max(0) as u64),
        memory_bytes: quantity(args, "memory")?.map(|q| q.value().max(0) as u64),
    };
    if let Some(bytes) = set.memory_bytes {
        for pod in selected_pods(sim.store(), &namespace, kind, &name) {
            over_memory_limit(pod, bytes)?;
        }
    }
    sim.set_usage((namespace, kind, name.clone()), set);
    let object = format!("{}/{name}", kind.info().singular_qualified());
    Ok(match (args.get("cpu"), args.get("memory")) {
        (None, None) => format!("{object}: usage from the workload model"),
        (cpu, memory) => {
            let parts: Vec<String> = [cpu.map(|c| format!("{c} CPU")), memory.map(|m| format!("{m} memory"))]
                .into_iter()
                .flatten()
                .collect();
            format!("{object}: each pod uses {}", parts.join(" and "))
        }
    })
}

fn quantity(args: &args::Args, flag: &str) -> Result<Option<Quantity>, String> {
    let Some(text) = args.get(flag) else { return Ok(None) };
    let parsed = Quantity::parse(text).map_err(|_| format!("error: --{flag}: invalid quantity \"{text}\""))?;
    if parsed.milli_value() < 0 {
        return Err(format!("error: --{flag}: must not be negative"));
    }
    Ok(Some(parsed))
}

fn over_memory_limit(pod: &Pod, bytes: u64) -> Result<(), String> {
    let Some(container) = pod.spec.containers.first() else { return Ok(()) };
    let Some(limit) = container.resources.limits.get("memory") else { return Ok(()) };
    if bytes as i64 > limit.value() {
        return Err(format!(
            "error: pod {} would use more memory than its container {}'s limit ({limit}): the kernel would OOM-kill it (`lab pod oom {}` shows that)",
            pod.metadata.name, container.name, pod.metadata.name
        ));
    }
    Ok(())
}
