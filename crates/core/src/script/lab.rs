//! `lab VERB …`: things that happen *to* the cluster rather than through its API (machines
//! joining and leaving, power, crashes, request load). The verb table lives here, in one place.

use crate::addons;
use crate::api::node::{Node, Taint};
use crate::api::quantity::Quantity;
use crate::api::{Kind, Pod};
use crate::cluster::NodeTemplate;
use crate::gpu::MigStrategy;
use crate::kubectl::args::{self, Flag};
use crate::scheduler::Scheduler;
use crate::sim::Sim;

/// One lab verb: words that name it, usage, flags, and what it does.
pub struct LabVerb {
    pub words: &'static [&'static str],
    pub usage: &'static str,
    pub flags: &'static [Flag],
    pub run: fn(&mut Sim, &args::Args) -> Result<String, String>,
}

pub const LAB_VERBS: &[LabVerb] = &[
    LabVerb {
        words: &["node", "add"],
        usage: "lab node add NAME [--cpu 4] [--memory 16Gi] [--pods 110] [--label k=v]... [--taint k=v:Effect]... [--gpu MODEL[xN]] [--mig-strategy none|single|mixed]",
        flags: &[
            Flag::value(
                "gpu",
                None,
                "GPUs, MODEL[xN] (A100-SXM4-40GB, A100-SXM4-80GB, H100-SXM5-80GB, H200-SXM5-141GB, L4, T4)",
            ),
            Flag::value("mig-strategy", None, "The device plugin's MIG strategy (none, single, mixed)"),
            Flag::value("cpu", None, "CPU capacity (a quantity)"),
            Flag::value("memory", None, "Memory capacity (a quantity)"),
            Flag::value("pods", None, "Maximum pods"),
            Flag::repeated("label", None, "A node label, k=v"),
            Flag::repeated("taint", None, "A taint, k=v:Effect"),
        ],
        run: node_add,
    },
    LabVerb {
        words: &["node", "exec"],
        usage: "lab node exec NAME -- nvidia-smi [ARGS...]",
        flags: &[],
        run: node_exec,
    },
    LabVerb { words: &["node", "remove"], usage: "lab node remove NAME", flags: &[], run: node_remove },
    LabVerb { words: &["node", "power-off"], usage: "lab node power-off NAME", flags: &[], run: node_power_off },
    LabVerb { words: &["node", "power-on"], usage: "lab node power-on NAME", flags: &[], run: node_power_on },
    LabVerb { words: &["node", "partition"], usage: "lab node partition NAME", flags: &[], run: node_partition },
    LabVerb { words: &["node", "heal"], usage: "lab node heal NAME", flags: &[], run: node_heal },
    LabVerb {
        words: &["pod", "crash"],
        usage: "lab pod crash NAME [-n NAMESPACE] [--exit-code 1]",
        flags: &[Flag::value("exit-code", None, "The process's exit code"), NAMESPACE],
        run: pod_crash,
    },
    LabVerb { words: &["pod", "oom"], usage: "lab pod oom NAME [-n NAMESPACE]", flags: &[NAMESPACE], run: pod_oom },
    LabVerb {
        words: &["pod", "bind"],
        usage: "lab pod bind NAME NODE [-n NAMESPACE]",
        flags: &[NAMESPACE],
        run: pod_bind,
    },
    LabVerb {
        words: &["settings"],
        usage: "lab settings [--node-monitor-grace-period 50s] [--default-toleration-seconds 300]",
        flags: super::lab_settings::FLAGS,
        run: super::lab_settings::settings,
    },
    LabVerb { words: &["addon", "install"], usage: "lab addon install NAME", flags: &[], run: addon_install },
    LabVerb { words: &["addon", "remove"], usage: "lab addon remove NAME", flags: &[], run: addon_remove },
    LabVerb { words: &["addon", "list"], usage: "lab addon list", flags: &[], run: addon_list },
    LabVerb { words: &["request-path"], usage: "lab request-path", flags: &[], run: request_path },
    LabVerb {
        words: &["load"],
        usage: "lab load (deploy|rs|svc|pod)/NAME --rps N [-n NAMESPACE]",
        flags: &[
            Flag::value("rps", None, "Requests per second, spread over the target's ready pods (0 stops)"),
            NAMESPACE,
        ],
        run: load,
    },
    LabVerb {
        words: &["usage"],
        usage: "lab usage (deploy|rs|pod)/NAME [--cpu Q] [--memory Q] [-n NAMESPACE]",
        flags: super::lab_usage::FLAGS,
        run: super::lab_usage::usage,
    },
    LabVerb {
        words: &["traffic", "start"],
        usage: "lab traffic start svc/NAME [--rps 100] [--port PORT] [--path /] [--host NAME] [-n NAMESPACE]",
        flags: super::lab_traffic::START_FLAGS,
        run: super::lab_traffic::start,
    },
    LabVerb {
        words: &["curl"],
        usage: "lab curl [-i] [-k] [-H 'Host: NAME'] URL",
        flags: super::lab_curl::FLAGS,
        run: super::lab_curl::curl,
    },
    LabVerb {
        words: &["api"],
        usage: "lab api --user NAME [--group GROUP]... METHOD TARGET [CONTENT-TYPE BODY-BASE64]",
        flags: super::lab_api::FLAGS,
        run: super::lab_api::api,
    },
    LabVerb {
        words: &["api-exec"],
        usage: "lab api-exec --user NAME -n NAMESPACE POD CONTAINER -- COMMAND...",
        flags: &[Flag::value("user", None, "Who ran it (the token's user)")],
        run: super::lab_api::exec,
    },
    LabVerb { words: &["etcd", "stop"], usage: "lab etcd stop", flags: &[], run: super::lab_control_plane::etcd_stop },
    LabVerb {
        words: &["etcd", "start"],
        usage: "lab etcd start",
        flags: &[],
        run: super::lab_control_plane::etcd_start,
    },
    LabVerb {
        words: &["etcd", "snapshot", "save"],
        usage: "lab etcd snapshot save PATH",
        flags: &[],
        run: super::lab_control_plane::snapshot_save,
    },
    LabVerb {
        words: &["etcd", "snapshot", "restore"],
        usage: "lab etcd snapshot restore PATH",
        flags: &[],
        run: super::lab_control_plane::snapshot_restore,
    },
    LabVerb {
        words: &["apiserver", "stop"],
        usage: "lab apiserver stop",
        flags: &[],
        run: super::lab_control_plane::apiserver_stop,
    },
    LabVerb {
        words: &["apiserver", "start"],
        usage: "lab apiserver start",
        flags: &[],
        run: super::lab_control_plane::apiserver_start,
    },
    LabVerb {
        words: &["scheduler", "stop"],
        usage: "lab scheduler stop",
        flags: &[],
        run: super::lab_control_plane::scheduler_stop,
    },
    LabVerb {
        words: &["scheduler", "start"],
        usage: "lab scheduler start",
        flags: &[],
        run: super::lab_control_plane::scheduler_start,
    },
    LabVerb {
        words: &["controller-manager", "stop"],
        usage: "lab controller-manager stop",
        flags: &[],
        run: super::lab_control_plane::controller_manager_stop,
    },
    LabVerb {
        words: &["controller-manager", "start"],
        usage: "lab controller-manager start",
        flags: &[],
        run: super::lab_control_plane::controller_manager_start,
    },
    LabVerb { words: &["traffic", "stop"], usage: "lab traffic stop", flags: &[], run: super::lab_traffic::stop },
    LabVerb {
        words: &["traffic", "show"],
        usage: "lab traffic show [--failed]",
        flags: super::lab_traffic::SHOW_FLAGS,
        run: super::lab_traffic::show,
    },
];

const NAMESPACE: Flag = Flag::value("namespace", Some('n'), "The pod's namespace");

/// Runs `lab …` words; the result is what the command prints, or an error line.
pub fn run(sim: &mut Sim, words: &[String]) -> Result<String, String> {
    let verb = LAB_VERBS
        .iter()
        .find(|v| words.len() >= v.words.len() && v.words.iter().zip(words).all(|(a, b)| a == b))
        .ok_or_else(|| {
            let known: Vec<String> = LAB_VERBS.iter().map(|v| v.usage.to_string()).collect();
            format!("error: unknown lab command \"{}\"; known:\n  {}", words.join(" "), known.join("\n  "))
        })?;
    let parsed = args::parse(&words[verb.words.len()..], verb.flags)
        .map_err(|e| format!("error: {e}\nusage: {}", verb.usage))?;
    let result = (verb.run)(sim, &parsed);
    sim.settle();
    result
}

fn one_name(args: &args::Args) -> Result<String, String> {
    match args.positionals.as_slice() {
        [name] => Ok(name.clone()),
        _ => Err("error: exactly one NAME is required".into()),
    }
}

fn node_add(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let mut template = NodeTemplate::named(&one_name(args)?);
    if let Some(cpu) = args.get("cpu") {
        template.cpu = Quantity::parse(cpu).map_err(|e| format!("error: --cpu: {e}"))?;
    }
    if let Some(memory) = args.get("memory") {
        template.memory = Quantity::parse(memory).map_err(|e| format!("error: --memory: {e}"))?;
    }
    if let Some(pods) = args.get("pods") {
        template.pods = pods.parse().map_err(|_| format!("error: --pods: invalid number \"{pods}\""))?;
    }
    for label in args.all("label") {
        let (k, v) = label.split_once('=').ok_or_else(|| format!("error: --label must be k=v, got \"{label}\""))?;
        template.labels.insert(k, v);
    }
    for taint in args.all("taint") {
        template.taints.push(parse_taint(taint)?);
    }
    if let Some(gpu) = args.get("gpu") {
        template.gpu = Some(gpu.to_string());
    }
    if let Some(strategy) = args.get("mig-strategy") {
        template.mig_strategy = Some(MigStrategy::parse(strategy).map_err(|e| format!("error: --mig-strategy: {e}"))?);
    }
    template.gpu_machine().map_err(|e| format!("error: --gpu: {}", e.rsplit(": gpu: ").next().unwrap_or(&e)))?;
    sim.add_node(&template).map_err(|e| e.to_string())?;
    Ok(format!("node/{} added", template.name))
}

/// `lab node exec NODE -- nvidia-smi …`: the NVIDIA driver's tool on the machine, as root.
fn node_exec(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let usage = "error: usage: lab node exec NAME -- nvidia-smi [ARGS...]";
    let (node, command) = match (args.args_len_at_dash, args.positionals.as_slice()) {
        (Some(1), [node, command @ ..]) if !command.is_empty() => (node.clone(), command.to_vec()),
        _ => return Err(usage.into()),
    };
    sim.store().get::<Node>("", &node).map_err(|e| e.to_string())?;
    let program = command[0].rsplit('/').next().unwrap_or("");
    if program != "nvidia-smi" {
        return Err(format!("error: lab node exec runs nvidia-smi on a node; \"{program}\" is not modelled"));
    }
    let now = sim.now();
    match sim.gpu_operator_mut().host_nvidia_smi(&node, &command[1..], now) {
        Some((printed, 0)) => Ok(printed.trim_end_matches('\n').to_string()),
        Some((printed, code)) => {
            Err(format!("{}\ncommand terminated with exit code {code}", printed.trim_end_matches('\n')))
        }
        None => Err("sh: nvidia-smi: not found\ncommand terminated with exit code 127".into()),
    }
}

/// `key[=value]:Effect`, as `kubectl taint` spells a taint.
pub fn parse_taint(text: &str) -> Result<Taint, String> {
    let (key_value, effect) = text.rsplit_once(':').ok_or_else(|| format!("error: invalid taint spec: {text}"))?;
    if !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
        return Err(format!("error: invalid taint effect: {effect}, unsupported taint effect"));
    }
    let (key, value) = match key_value.split_once('=') {
        Some((k, v)) => (k, Some(v.to_string())),
        None => (key_value, None),
    };
    Ok(Taint { key: key.to_string(), value, effect: effect.to_string(), time_added: None })
}

fn addon_install(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let addon = addons::find(&one_name(args)?)?;
    Ok(addon.install(sim.store_mut())?.join("\n"))
}

fn addon_remove(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let addon = addons::find(&one_name(args)?)?;
    let removed = addon.remove(sim.store_mut());
    if removed.is_empty() {
        return Err(format!("error: add-on \"{}\" is not installed", addon.name));
    }
    Ok(removed.join("\n"))
}

/// Every add-on, whether it is installed, the kinds it brings and what it is.
/// The last recorded request's way through the API server's gates (`view/request_path.rs`).
fn request_path(sim: &mut Sim, _: &args::Args) -> Result<String, String> {
    let last = sim.store().request_paths().last();
    let path = last.ok_or("no request recorded yet: run a kubectl command with -v=6")?;
    Ok(crate::view::request_path::table(&crate::view::request_path::view(&path)))
}

fn addon_list(sim: &mut Sim, _: &args::Args) -> Result<String, String> {
    let rows = addons::ADDONS.iter().map(|addon| {
        let installed = if addon.is_installed(sim.store()) { "yes" } else { "no" };
        let kinds = addons::kinds_brought(addon).join(",");
        vec![addon.name.to_string(), installed.to_string(), kinds, addon.description.to_string()]
    });
    let headers = ["NAME", "INSTALLED", "KINDS", "DESCRIPTION"].map(String::from).to_vec();
    let table = crate::kubectl::output::Table { headers, rows: rows.collect() };
    Ok(crate::kubectl::render::render_table(&table).trim_end().to_string())
}

fn node_remove(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let name = one_name(args)?;
    sim.remove_node(&name).map_err(|e| e.to_string())?;
    Ok(format!("node/{name} removed"))
}

fn node_power_off(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let name = one_name(args)?;
    sim.power_off_node(&name).map_err(|e| e.to_string())?;
    Ok(format!("node/{name} powered off"))
}

fn node_power_on(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let name = one_name(args)?;
    sim.power_on_node(&name).map_err(|e| e.to_string())?;
    Ok(format!("node/{name} powered on"))
}

/// Cuts the node off from the control plane; its machine and containers keep running.
fn node_partition(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let name = one_name(args)?;
    sim.partition_node(&name).map_err(|e| e.to_string())?;
    Ok(format!("node/{name} partitioned from the control plane"))
}

fn node_heal(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let name = one_name(args)?;
    sim.heal_node(&name).map_err(|e| e.to_string())?;
    Ok(format!("node/{name} reconnected to the control plane"))
}

fn pod_crash(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let name = one_name(args)?;
    let code = args.get("exit-code").unwrap_or("1");
    let code: i32 = code.parse().map_err(|_| format!("error: --exit-code: invalid number \"{code}\""))?;
    let namespace = args.get("namespace").unwrap_or("default").to_string();
    sim.crash_pod(&namespace, &name, code).map_err(|e| format!("error: {e}"))?;
    Ok(format!("pod/{name} crashed (exit code {code})"))
}

fn pod_oom(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let name = one_name(args)?;
    let namespace = args.get("namespace").unwrap_or("default").to_string();
    sim.oom_pod(&namespace, &name).map_err(|e| format!("error: {e}"))?;
    Ok(format!("pod/{name} OOM-killed"))
}

/// `lab pod bind NAME NODE`: places a pending pod by hand, as a drag in the cluster view does.
/// The scheduler's filters judge the node first (a refusal names their reasons), then the pod
/// is bound through the `pods/binding` subresource, the scheduler's own write.
fn pod_bind(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let [name, node] = args.positionals.as_slice() else {
        return Err("error: exactly one NAME and one NODE are required".into());
    };
    let namespace = args.get("namespace").unwrap_or("default").to_string();
    let pod = sim.store().get::<Pod>(&namespace, name).map_err(|e| e.to_string())?;
    sim.store().get::<Node>("", node).map_err(|e| e.to_string())?;
    if pod.node_name().is_none() {
        Scheduler::check_node(sim.store(), pod, node).map_err(|reasons| {
            format!("error: pod \"{name}\" does not fit on node \"{node}\": {}", reasons.join(", "))
        })?;
    }
    sim.store_mut().bind(&namespace, name, node).map_err(|e| e.to_string())?;
    Ok(format!("pod/{name} bound to {node}"))
}

/// `lab load TYPE/NAME --rps N`: requests per second sent to a workload's ready pods.
fn load(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let target = one_name(args)?;
    let kinds = [Kind::Deployment, Kind::ReplicaSet, Kind::Service, Kind::Pod];
    let (namespace, kind, name) = workload_target(sim, args, &target, &kinds, "send load to")?;
    let rps = args.get("rps").ok_or("error: --rps is required")?;
    let rps: u64 = rps.parse().map_err(|_| format!("error: --rps: invalid number \"{rps}\""))?;
    sim.set_load((namespace, kind, name.clone()), rps);
    let object = format!("{}/{name}", kind.info().singular_qualified());
    Ok(if rps == 0 { format!("{object}: load stopped") } else { format!("{object}: {rps} requests per second") })
}

/// The `TYPE/NAME` a verb about a workload's pods names (`lab load`, `lab usage`): its
/// namespace (`-n`, else `default`), kind (one of `kinds`) and name, once it is known to exist.
pub(super) fn workload_target(
    sim: &Sim,
    args: &args::Args,
    target: &str,
    kinds: &[Kind],
    what: &str,
) -> Result<(String, Kind, String), String> {
    let (type_, name) = target.split_once('/').ok_or_else(|| "error: the target must be TYPE/NAME".to_string())?;
    let kind = Kind::from_cli_name(type_).filter(|k| kinds.contains(k)).ok_or_else(|| {
        let plurals: Vec<&str> = kinds.iter().map(|k| k.info().plural).collect();
        format!("error: cannot {what} \"{type_}\" ({})", plurals.join(", "))
    })?;
    let namespace = args.get("namespace").unwrap_or("default").to_string();
    sim.store().get_object(kind, &namespace, name).map_err(|e| e.to_string())?;
    Ok((namespace, kind, name.to_string()))
}

#[cfg(test)]
mod tests {
    use crate::cluster::ClusterSpec;
    use crate::kubectl::MemoryFiles;
    use crate::script;
    use crate::sim::Sim;

    /// Runs a script and returns each line's output and success.
    fn run(sim: &mut Sim, text: &str) -> Vec<(String, bool)> {
        let steps = script::parse(text).unwrap();
        steps.iter().map(|step| script::run_step(sim, step, &MemoryFiles::new())).collect()
    }

    /// `kubectl apply` of a one-container pod with `spec_line` added to its spec.
    fn pod(name: &str, spec_line: &str) -> String {
        format!(
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  {spec_line}\n  containers:\n  - name: c\n    image: nginx\nEOF"
        )
    }

    #[test]
    fn bind_refuses_with_the_schedulers_reason_then_binds_where_it_fits() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        assert!(run(&mut sim, &pod("big", "nodeSelector: {disk: ssd}"))[0].1);
        let refused = &run(&mut sim, "lab pod bind big node-1")[0];
        assert!(!refused.1);
        assert_eq!(
            refused.0,
            "error: pod \"big\" does not fit on node \"node-1\": node(s) didn't match Pod's node affinity/selector\n"
        );
        // A pod no scheduler runs for stays pending until someone binds it by hand.
        assert!(run(&mut sim, &pod("manual", "schedulerName: by-hand"))[0].1);
        let outputs =
            run(&mut sim, "lab pod bind manual node-3\nlab pod bind manual node-1\nlab pod bind ghost node-1");
        assert_eq!(outputs[0], ("pod/manual bound to node-3\n".to_string(), true));
        assert_eq!(
            outputs[1].0,
            "Error from server (Conflict): Operation cannot be fulfilled on pods/binding \"manual\": pod manual is already assigned to node \"node-3\"\n"
        );
        assert_eq!(outputs[2].0, "Error from server (NotFound): pods \"ghost\" not found\n");
    }
}
