//! `kubectl top pod|node`: CPU and memory use, computed from the workload model the way
//! metrics-server would report it (every running container; a node adds its system daemons).
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/top/{top_pod,top_node}.go and
//! pkg/metricsutil/metrics_printer.go. Without metrics-server (`lab addon remove
//! metrics-server`, or its pod not ready) both answer as kubectl does when discovery lacks the
//! group.

use super::args::{Args, Flag};
use super::output::{Output, Table};
use super::{Context, Verb, namespace_of};
use crate::api::labels::Selector;
use crate::api::{Node, Pod};
use crate::kubectl::UsageError;
use crate::metrics;
use crate::metrics::demand::PodDemands;
use crate::sim::Sim;

pub const VERB: Verb = Verb {
    name: "top",
    short: "Display resource (CPU/memory) usage",
    usage: "kubectl top (pod [NAME | -l label] | node [NAME | -l label]) [flags] [options]",
    flags: &[
        Flag::switch("all-namespaces", Some('A'), "If present, list the requested object(s) across all namespaces."),
        Flag::value(
            "selector",
            Some('l'),
            "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.",
        ),
        Flag::switch("containers", None, "If present, print usage of containers within a pod."),
        Flag::value(
            "sort-by",
            None,
            "If non-empty, sort pods list using specified field. The field can be either 'cpu' or 'memory'.",
        ),
        Flag::switch("no-headers", None, "If present, print output without headers."),
        Flag::switch("sum", None, "Print the sum of the resource usage"),
    ],
    run,
};

const MIB: u64 = 1024 * 1024;
/// Each container's use of a running pod (name, millicores, bytes), as metrics-server's
/// PodMetrics reports it; `None` while any container is not running.
pub(crate) fn pod_metrics(sim: &Sim, pod: &Pod) -> Option<Vec<(String, u64, u64)>> {
    let usage = pod_usage(sim, pod, &sim.load().demands(sim.store()))?;
    Some(usage.into_iter().map(|(name, u)| (name, u.millicores, u.bytes)).collect())
}

/// A node's use (millicores, bytes), as metrics-server's NodeMetrics reports it.
pub(crate) fn node_metrics(sim: &Sim, node: &Node) -> Option<(u64, u64)> {
    node_usage(sim, node).map(|u| (u.millicores, u.bytes))
}

/// One row's usage: CPU in millicores, memory in bytes.
#[derive(Clone, Copy, Default)]
struct Usage {
    millicores: u64,
    bytes: u64,
}

impl Usage {
    fn plus(self, other: Usage) -> Usage {
        Usage { millicores: self.millicores + other.millicores, bytes: self.bytes + other.bytes }
    }
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let mut rest = args.clone();
    rest.positionals = args.positionals.iter().skip(1).cloned().collect();
    let result = match args.positionals.first().map(String::as_str) {
        Some("pod" | "pods" | "po") => top_pods(ctx.sim, &rest),
        Some("node" | "nodes" | "no") => top_nodes(ctx.sim, &rest),
        Some(other) => Err(UsageError::unknown_command(other).render("top")),
        None => {
            let mut out = Output::default();
            out.line(HELP);
            return out;
        }
    };
    result.unwrap_or_else(Output::failed)
}

const HELP: &str = "Display resource (CPU/memory) usage.\n\n The top command allows you to see the resource consumption for nodes or pods.\n\n This command requires Metrics Server to be correctly configured and working on the server.\n\nAvailable Commands:\n  node          Display resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods\n\nUsage:\n  kubectl top [flags] [options]";

/// The usage of each container of a pod (metrics-server's PodMetrics), or `None` while any of
/// them is not running. `demands` is what each pod is asked to do.
fn pod_usage(sim: &Sim, pod: &Pod, demands: &PodDemands) -> Option<Vec<(String, Usage)>> {
    let demand = demands.of(&pod.metadata.namespace, &pod.metadata.name);
    let metrics = metrics::pod_metrics(sim.now(), &sim.pod_node_server(pod)?, pod, demand)?;
    let usage =
        metrics.containers.into_iter().map(|c| (c.name, Usage { millicores: c.cpu_millicores, bytes: c.memory_bytes }));
    Some(usage.collect())
}

/// `SupportedMetricsAPIVersionAvailable` over discovery: the aggregated discovery document
/// leaves out a group whose APIService is missing or unavailable, so both read the same.
fn metrics_api_available(sim: &Sim) -> Result<(), String> {
    metrics::api_service::resource_metrics_api(sim.store()).map_err(|_| "error: Metrics API not available".to_string())
}

fn sort_key(args: &Args) -> Result<Option<bool>, String> {
    match args.get("sort-by").unwrap_or("") {
        "" => Ok(None),
        "cpu" => Ok(Some(true)),
        "memory" => Ok(Some(false)),
        _ => Err("error: --sort-by accepts only cpu or memory".into()),
    }
}

fn sort_rows<T>(rows: &mut [(T, Usage)], by_cpu: Option<bool>) {
    match by_cpu {
        Some(true) => rows.sort_by_key(|row| std::cmp::Reverse(row.1.millicores)),
        Some(false) => rows.sort_by_key(|row| std::cmp::Reverse(row.1.bytes)),
        None => {}
    }
}

fn top_pods(sim: &Sim, args: &Args) -> Result<Output, String> {
    let by_cpu = sort_key(args)?;
    let selector = Selector::parse(args.get("selector").unwrap_or("")).map_err(|e| format!("error: {e}"))?;
    metrics_api_available(sim)?;
    let namespace = namespace_of(args);
    let all = args.switch("all-namespaces");
    let name = args.positionals.first();
    let candidates: Vec<&Pod> = sim
        .store()
        .list::<Pod>((!all).then_some(namespace.as_str()))
        .filter(|p| selector.matches(&p.metadata.labels) && name.is_none_or(|n| *n == p.metadata.name))
        .collect();
    let mut rows: Vec<(&Pod, Usage)> = Vec::new();
    let mut containers: Vec<(&Pod, String, Usage)> = Vec::new();
    let demands = sim.load().demands(sim.store());
    for pod in &candidates {
        let Some(usage) = pod_usage(sim, pod, &demands) else { continue };
        rows.push((pod, usage.iter().fold(Usage::default(), |sum, (_, u)| sum.plus(*u))));
        containers.extend(usage.into_iter().map(|(c, u)| (*pod, c, u)));
    }
    if rows.is_empty() {
        return Err(match (name, candidates.is_empty()) {
            (Some(name), _) => {
                format!("Error from server (NotFound): podmetrics.metrics.k8s.io \"{namespace}/{name}\" not found")
            }
            (None, false) => "error: metrics not available yet".into(),
            (None, true) if all => "No resources found".into(),
            (None, true) => format!("No resources found in {namespace} namespace."),
        });
    }
    let mut headers: Vec<&str> = vec!["NAME", "CPU(cores)", "MEMORY(bytes)"];
    if args.switch("containers") {
        headers.insert(0, "POD");
    }
    if all {
        headers.insert(0, "NAMESPACE");
    }
    let mut table_rows = Vec::new();
    if args.switch("containers") {
        let mut keyed: Vec<((&Pod, String), Usage)> = containers.into_iter().map(|(p, c, u)| ((p, c), u)).collect();
        sort_rows(&mut keyed, by_cpu);
        for ((pod, container), usage) in keyed {
            table_rows.push(pod_cells(pod, all, vec![pod.metadata.name.clone(), container], usage));
        }
    } else {
        sort_rows(&mut rows, by_cpu);
        for (pod, usage) in &rows {
            table_rows.push(pod_cells(pod, all, vec![pod.metadata.name.clone()], *usage));
        }
    }
    let total = rows.iter().fold(Usage::default(), |sum, (_, u)| sum.plus(*u));
    Ok(print(args, &headers, table_rows, &[cores(total.millicores), mebibytes(total.bytes)]))
}

fn pod_cells(pod: &Pod, all: bool, names: Vec<String>, usage: Usage) -> Vec<String> {
    let mut cells = if all { vec![pod.metadata.namespace.clone()] } else { Vec::new() };
    cells.extend(names);
    cells.extend([cores(usage.millicores), mebibytes(usage.bytes)]);
    cells
}

fn top_nodes(sim: &Sim, args: &Args) -> Result<Output, String> {
    let by_cpu = sort_key(args)?;
    let selector = Selector::parse(args.get("selector").unwrap_or("")).map_err(|e| format!("error: {e}"))?;
    metrics_api_available(sim)?;
    let name = args.positionals.first();
    let nodes: Vec<&Node> = sim
        .store()
        .list::<Node>(None)
        .filter(|n| selector.matches(&n.metadata.labels) && name.is_none_or(|x| *x == n.metadata.name))
        .collect();
    if let (Some(name), true) = (name, nodes.is_empty()) {
        return Err(format!("Error from server (NotFound): nodemetrics.metrics.k8s.io \"{name}\" not found"));
    }
    let mut rows: Vec<(&Node, Usage)> = Vec::new();
    let mut missing = Vec::new();
    for node in nodes {
        match node_usage(sim, node) {
            Some(usage) => rows.push((node, usage)),
            None => missing.push(node),
        }
    }
    sort_rows(&mut rows, by_cpu);
    let mut table_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(node, usage)| {
            let (cpu, memory) = allocatable(node);
            vec![
                node.metadata.name.clone(),
                cores(usage.millicores),
                percent(usage.millicores, cpu),
                mebibytes(usage.bytes),
                percent(usage.bytes, memory),
            ]
        })
        .collect();
    for node in missing {
        let unknown = "<unknown>".to_string();
        table_rows.push(vec![node.metadata.name.clone(), unknown.clone(), unknown.clone(), unknown.clone(), unknown]);
    }
    let total = rows.iter().fold(Usage::default(), |sum, (_, u)| sum.plus(*u));
    let sums = [cores(total.millicores), String::new(), mebibytes(total.bytes)];
    Ok(print(args, &["NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)"], table_rows, &sums))
}

/// A node's use: its pods plus its system daemons; `None` while its kubelet is silent.
fn node_usage(sim: &Sim, node: &Node) -> Option<Usage> {
    let name = &node.metadata.name;
    let server = sim.node_server(node);
    if !server.reachable(name) {
        return None;
    }
    let pods = sim.store().list::<Pod>(None).filter(|p| p.node_name() == Some(name.as_str()));
    let demands = sim.load().demands(sim.store());
    let (millicores, bytes) = metrics::node_usage(sim.now(), &server, pods, &demands);
    Some(Usage { millicores, bytes })
}

/// Allocatable CPU (millicores) and memory (bytes), as `kubectl top node` divides by.
fn allocatable(node: &Node) -> (u64, u64) {
    let get = |key: &str, milli: bool| {
        let quantity = node.status.allocatable.get(key);
        quantity.map_or(0, |q| if milli { q.milli_value() } else { q.value() }).max(0) as u64
    };
    (get("cpu", true), get("memory", false))
}

/// The table, with `--no-headers` and `--sum` (a rule, then the totals under the usage columns).
fn print(args: &Args, headers: &[&str], rows: Vec<Vec<String>>, sums: &[String]) -> Output {
    let mut table = Table { headers: headers.iter().map(|h| h.to_string()).collect(), rows };
    if args.switch("sum") {
        let leading = headers.len() - sums.len();
        let rule: Vec<String> = std::iter::repeat_n(String::new(), leading)
            .chain(sums.iter().map(|s| if s.is_empty() { String::new() } else { "________".into() }))
            .collect();
        let totals: Vec<String> = std::iter::repeat_n(String::new(), leading).chain(sums.iter().cloned()).collect();
        table.rows.push(rule);
        table.rows.push(totals);
    }
    let mut out = Output::default();
    if args.switch("no-headers") {
        table.headers.iter_mut().for_each(String::clear);
        let text = super::render::render_table(&table);
        out.raw(text.split_once('\n').map_or(String::new(), |(_, rest)| rest.to_string()));
    } else {
        out.table(table);
    }
    out
}

fn cores(millicores: u64) -> String {
    format!("{millicores}m")
}

fn mebibytes(bytes: u64) -> String {
    format!("{}Mi", bytes / MIB)
}

fn percent(used: u64, of: u64) -> String {
    format!("{}%", (used * 100).checked_div(of).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{hello_lab, lab, run};

    #[test]
    fn pods_report_their_workloads_use() {
        let mut sim = hello_lab(10);
        let text = run(&mut sim, "kubectl top pod --sort-by=memory");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "NAME                     CPU(cores)   MEMORY(bytes)");
        assert_eq!(lines.len(), 4);
        assert!(lines[1].ends_with("   5m           12Mi"), "{text}");
        let text = run(&mut sim, "kubectl top pods -A --containers");
        assert!(
            text.starts_with(
                "NAMESPACE   POD                      NAME    CPU(cores)   MEMORY(bytes)\ndefault     hello-"
            ),
            "{text}"
        );
        assert_eq!(
            run(&mut sim, "kubectl top pod nope"),
            "Error from server (NotFound): podmetrics.metrics.k8s.io \"default/nope\" not found\n"
        );
        assert_eq!(run(&mut sim, "kubectl top pod -n empty"), "No resources found in empty namespace.\n");
        assert_eq!(run(&mut sim, "kubectl top pod --sort-by=name"), "error: --sort-by accepts only cpu or memory\n");
    }

    #[test]
    fn nodes_add_their_pods_to_the_system_daemons() {
        let mut sim = lab("kubectl apply -f hello.yaml\nsleep 10s\nlab node power-off node-2\n");
        let text = run(&mut sim, "kubectl top node");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "NAME     CPU(cores)   CPU(%)      MEMORY(bytes)   MEMORY(%)");
        assert!(lines.contains(&"node-2   <unknown>    <unknown>   <unknown>       <unknown>"), "{text}");
        let fresh = run(&mut lab(""), "kubectl top node node-1");
        assert!(
            fresh.starts_with("NAME     CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)\nnode-1   60m          "),
            "{fresh}"
        );
    }
}
