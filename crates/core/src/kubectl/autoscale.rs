//! `kubectl autoscale TYPE NAME --max=N [--min=N] [--cpu-percent=N]`: a HorizontalPodAutoscaler
//! for a Deployment or ReplicaSet. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go;
//! `--cpu=70%` (or `--cpu=500m`), the spelling of later kubectl releases, is accepted too.

use super::args::{Args, Flag, int_flag};
use super::output::Output;
use super::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use super::resource_args;
use super::{Context, Verb, namespace_of, usage_error};
use crate::api::Kind;
use crate::api::quantity::Quantity;
use serde_json::{Value, json};

pub const VERB: Verb = Verb {
    name: "autoscale",
    short: "Auto-scale a deployment, replica set, stateful set, or replication controller",
    usage: "kubectl autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS [--cpu-percent=CPU] [options]",
    flags: &[
        Flag::value(
            "min",
            None,
            "The lower limit for the number of pods that can be set by the autoscaler. If it's not specified or negative, the server will apply a default value.",
        ),
        Flag::value("max", None, "The upper limit for the number of pods that can be set by the autoscaler. Required."),
        Flag::value(
            "cpu-percent",
            None,
            "The target average CPU utilization (represented as a percent of requested CPU) over all the pods. If it's not specified or negative, a default autoscaling policy will be used.",
        ),
        Flag::value("cpu", None, "Target CPU utilization over all the pods (e.g. 70%), or average usage (e.g. 500m)."),
        Flag::value(
            "name",
            None,
            "The name for the newly created object. If not specified, the name of the input resource will be used.",
        ),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let bounds = match (int_flag(&args, "min"), int_flag(&args, "max"), int_flag(&args, "cpu-percent")) {
        (Ok(min), Ok(max), Ok(cpu)) => (min.unwrap_or(-1), max.unwrap_or(-1), cpu.unwrap_or(-1)),
        (Err(message), _, _) | (_, Err(message), _) | (_, _, Err(message)) => return usage_error(&VERB, &message),
    };
    let mut out = match autoscaler_for(ctx, &args, bounds) {
        Ok(hpa) => print_flags::create_as(ctx, &args, hpa, ("autoscaled", refusal(&args))),
        Err(message) => Output::failed(message),
    };
    if args.get("cpu-percent").is_some() {
        // kubectl 1.36 deprecates the flag (cobra's notice, on stderr, before anything else).
        out.items.insert(0, super::output::Item::Stderr(CPU_PERCENT_DEPRECATED.to_string()));
    }
    out
}

/// How kubectl 1.36 words a refused create. When the autoscaling/v2 create fails it falls back
/// to autoscaling/v1 only if `canCreateHPAV1` says so, and that reads `--cpu`: a utilization
/// (`70%`) retries with v1 and prints v1's refusal as the server's; an average (`500m`) gives
/// up with a nil reason, and no `--cpu` at all (only `--cpu-percent`) with "empty input".
macro_rules! concat_gives_up {
    ($reason:literal) => {
        concat!(
            "error: failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: ",
            $reason
        )
    };
}

fn refusal(args: &Args) -> Refusal<'static> {
    match args.get("cpu").filter(|c| !c.is_empty()) {
        Some(cpu) if cpu.ends_with('%') => Refusal::Server,
        Some(_) => Refusal::Fixed(concat_gives_up!("%!w(<nil>)")),
        None => Refusal::Fixed(concat_gives_up!("empty input")),
    }
}
const CPU_PERCENT_DEPRECATED: &str = "Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).";

/// The HorizontalPodAutoscaler `autoscale` would send, or kubectl's reason it cannot.
fn autoscaler_for(ctx: &Context<'_>, args: &Args, (min, max, cpu_percent): (i64, i64, i64)) -> Result<Value, String> {
    if max < 1 {
        return Err(format!("error: --max=MAXPODS is required and must be at least 1, max: {max}"));
    }
    if max < min {
        return Err(format!("error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: {max}, min: {min}"));
    }
    if args.positionals.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let request = resource_args::parse(ctx.sim.store(), &args.positionals)?;
    let Some((kind, name)) = request.named.first().cloned() else {
        return Err("error: resource(s) were provided, but no name was specified".into());
    };
    let namespace = namespace_of(args);
    ctx.sim.store().get_object(kind, &namespace, &name).map_err(|e| e.to_string())?;
    if !matches!(kind, Kind::Deployment | Kind::ReplicaSet) {
        let info = kind.info();
        let resource = format!("{}, Resource={}", info.api_version(), info.plural);
        return Err(format!(
            "error: cannot autoscale a {}: could not find scale subresource for {resource} in discovery information",
            info.kind_name
        ));
    }
    let mut spec = json!({
        "scaleTargetRef": {"apiVersion": kind.info().api_version(), "kind": kind.info().kind_name, "name": name},
        "maxReplicas": max,
    });
    if min > -1 {
        spec["minReplicas"] = json!(min);
    }
    if let Some(target) = cpu_target(args, cpu_percent)? {
        spec["metrics"] = json!([{"type": "Resource", "resource": {"name": "cpu", "target": target}}]);
    }
    let hpa_name = args.get("name").filter(|n| !n.is_empty()).unwrap_or(&name).to_string();
    Ok(json!({
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": super::create::generated_metadata(args, &hpa_name, None),
        "spec": spec,
        "status": {"desiredReplicas": 0},
    }))
}

/// The CPU target: `--cpu=70%` or `--cpu-percent=70` (Utilization), `--cpu=500m` (AverageValue).
fn cpu_target(args: &Args, cpu_percent: i64) -> Result<Option<Value>, String> {
    let Some(cpu) = args.get("cpu").filter(|c| !c.is_empty()) else {
        return Ok((cpu_percent >= 0).then(|| json!({"type": "Utilization", "averageUtilization": cpu_percent})));
    };
    if let Some(percent) = cpu.strip_suffix('%') {
        let percent: i64 = percent.parse().map_err(|_| format!("error: invalid CPU utilization \"{cpu}\""))?;
        return Ok(Some(json!({"type": "Utilization", "averageUtilization": percent})));
    }
    let quantity = Quantity::parse(cpu).map_err(|_| format!("error: invalid CPU quantity \"{cpu}\""))?;
    Ok(Some(json!({"type": "AverageValue", "averageValue": quantity.to_string()})))
}
