//! `kubectl logs`: what a container printed, from the workload model, for its current or
//! previous instance. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go and the
//! kubelet's `validateContainerLogStatus` (which instance, or why there are no logs).
//! `-f` prints what exists and returns: a script cannot block, and the browser terminal
//! streams by re-running as time moves.

use super::args::{Args, Flag, int_flag};
use super::output::Output;
use super::pods;
use super::{Context, Verb, namespace_of};
use crate::api::Pod;
use crate::api::labels::Selector;
use crate::kubectl::UsageError;
use crate::kubelet::node_server::NodeError;
use crate::sim::Sim;
use crate::sim::time::{Duration, SimTime};

pub const VERB: Verb = Verb {
    name: "logs",
    short: "Print the logs for a container in a pod",
    usage: "kubectl logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER] [options]",
    flags: &[
        Flag::value("container", Some('c'), "Print the logs of this container"),
        Flag::switch(
            "previous",
            Some('p'),
            "If true, print the logs for the previous instance of the container in a pod if it exists.",
        ),
        Flag::switch("follow", Some('f'), "Specify if the logs should be streamed."),
        Flag::value(
            "tail",
            None,
            "Lines of recent log file to display. Defaults to -1 with no selector, showing all log lines otherwise 10, if a selector is provided.",
        ),
        Flag::value(
            "since",
            None,
            "Only return logs newer than a relative duration like 5s, 2m, or 3h. Defaults to all logs. Only one of since-time / since may be used.",
        ),
        Flag::switch("timestamps", None, "Include timestamps on each line in the log output"),
        Flag::value(
            "selector",
            Some('l'),
            "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints.",
        ),
        Flag::switch("prefix", None, "Prefix each log line with the log source (pod name and container name)"),
        Flag::switch("all-containers", None, "Get all containers' logs in the pod(s)."),
    ],
    run,
};

/// kubectl's usage error for logs without a pod.
fn usage_error() -> String {
    let message = "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command";
    UsageError::command(message).render("logs")
}

/// The options every container's request shares (`corev1.PodLogOptions`, and kubectl's
/// own `--prefix`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    pub(crate) previous: bool,
    pub(crate) tail: Option<usize>,
    pub(crate) since: Option<Duration>,
    pub(crate) timestamps: bool,
    pub(crate) prefix: bool,
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let mut out = Output::default();
    if let Err(message) = logs(ctx.sim, &args, &mut out) {
        out.error(message);
    }
    out
}

fn logs(sim: &Sim, args: &Args, out: &mut Output) -> Result<(), String> {
    let namespace = namespace_of(args);
    let selector_text = args.get("selector").unwrap_or("");
    if !selector_text.is_empty() && !args.positionals.is_empty() {
        return Err("error: only a selector (-l) or a POD name is allowed".into());
    }
    let options = options(args, !selector_text.is_empty())?;
    let mut container = args.get("container").map(str::to_string);
    if container.is_some() && args.switch("all-containers") {
        return Err("error: --container cannot be used with --all-containers".into());
    }
    let pods = if selector_text.is_empty() {
        let (arg, rest) = args.positionals.split_first().ok_or_else(usage_error)?;
        // `kubectl logs POD CONTAINER`, the older spelling of `-c`.
        match rest {
            [] => {}
            [name] if container.is_none() && !arg.contains('/') => container = Some(name.clone()),
            _ => return Err(usage_error()),
        }
        let (pod, note) = pods::pod_for(sim.store(), &namespace, arg)?;
        // kubectl's resource builder fetches the pod through the API before asking for its log.
        let reader = crate::apiserver::Reader::new(sim.store(), sim.kubectl_user());
        let _ = reader.get(crate::api::Kind::Pod, &namespace, &pod.metadata.name);
        if let Some(note) = note {
            out.warn(note);
        }
        vec![pod]
    } else {
        let selector = Selector::parse(selector_text).map_err(|e| format!("error: {e}"))?;
        let pods: Vec<Pod> = sim
            .store()
            .list::<Pod>(Some(&namespace))
            .filter(|p| selector.matches(&p.metadata.labels))
            .cloned()
            .collect();
        if pods.is_empty() {
            out.warn(format!("No resources found in {namespace} namespace."));
        }
        pods
    };
    for pod in &pods {
        let names = if args.switch("all-containers") {
            pod.spec.init_containers.iter().chain(pod.spec.containers.iter()).map(|c| c.name.clone()).collect()
        } else {
            vec![pods::container_name(pod, container.as_deref(), out)?]
        };
        for name in names {
            for line in container_logs(sim, pod, &name, &options)? {
                out.line(line);
            }
        }
    }
    Ok(())
}

fn options(args: &Args, selector: bool) -> Result<Options, String> {
    let tail = int_flag(args, "tail").map_err(|e| e.render("logs"))?;
    let tail = match tail {
        Some(n) if n >= 0 => Some(n as usize),
        Some(_) => None,
        None if selector => Some(10),
        None => None,
    };
    let since = match args.get("since") {
        Some(text) => Some(Duration::parse(text).map_err(|e| {
            UsageError::flag(format!("invalid argument \"{text}\" for \"--since\" flag: {e}")).render("logs")
        })?),
        None => None,
    };
    let since = since.filter(|d| *d != Duration::ZERO);
    Ok(Options {
        previous: args.switch("previous"),
        tail,
        since,
        timestamps: args.switch("timestamps"),
        prefix: args.switch("prefix"),
    })
}

/// The lines of one container, from its node's kubelet, formatted as the options ask.
pub(crate) fn container_logs(sim: &Sim, pod: &Pod, name: &str, options: &Options) -> Result<Vec<String>, String> {
    let pod_name = &pod.metadata.name;
    pod.container(name).ok_or_else(|| format!("error: container {name} is not valid for pod {pod_name}"))?;
    // Not bound yet: the API server has no kubelet to ask, an empty stream.
    let Some(node) = sim.pod_node_server(pod) else { return Ok(Vec::new()) };
    let lines = node.container_logs(pod, name, options.previous);
    note_log_request(sim, pod, name, options, lines.as_ref().err());
    let lines = lines.map_err(|e| e.to_string())?;
    let since = options.since.map(|d| SimTime(sim.now().0.saturating_sub(d.0)));
    let mut lines: Vec<(SimTime, String)> =
        lines.into_iter().filter(|(at, _)| since.is_none_or(|from| *at >= from)).collect();
    if let Some(tail) = options.tail {
        lines.drain(..lines.len().saturating_sub(tail));
    }
    let source = format!("[pod/{pod_name}/{name}] ");
    let format = |(at, text): (SimTime, String)| {
        let stamp = if options.timestamps { format!("{} ", rfc3339_nano(at)) } else { String::new() };
        let prefix = if options.prefix { source.as_str() } else { "" };
        format!("{prefix}{stamp}{text}")
    };
    Ok(lines.into_iter().map(format).collect())
}

/// Records the `log` subresource request kubectl sends (`GET …/pods/NAME/log?container=C`),
/// which the lab answers from the node beside the door.
fn note_log_request(sim: &Sim, pod: &Pod, container: &str, options: &Options, error: Option<&NodeError>) {
    let error = match error {
        Some(NodeError::BadRequest(message)) => Some(crate::error::ApiError::BadRequest { message: message.clone() }),
        Some(NodeError::Unreachable(_)) => return,
        None => None,
    };
    let meta = &pod.metadata;
    let path = format!("/api/v1/namespaces/{}/pods/{}/log", meta.namespace, meta.name);
    let mut query = vec![("container".to_string(), container.to_string())];
    if options.previous {
        query.push(("previous".into(), "true".into()));
    }
    if let Some(tail) = options.tail {
        query.push(("tailLines".into(), tail.to_string()));
    }
    if options.timestamps {
        query.push(("timestamps".into(), "true".into()));
    }
    let user = sim.kubectl_user();
    crate::apiserver::recording::note(sim.store(), &user, (path, query), error.as_ref());
}

/// Go's RFC3339Nano: fractional seconds without trailing zeros.
fn rfc3339_nano(at: SimTime) -> String {
    let whole = at.to_rfc3339();
    let millis = at.0 % 1000;
    if millis == 0 {
        return whole;
    }
    let fraction = format!("{millis:03}");
    format!("{}.{}Z", whole.trim_end_matches('Z'), fraction.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{hello_lab, lab, pod_named, run};

    #[test]
    fn a_running_container_prints_what_its_workload_printed() {
        let mut sim = hello_lab(10);
        let pod = pod_named(&sim, "hello-");
        let text = run(&mut sim, &format!("kubectl logs {pod}"));
        assert_eq!(text, "2025/01/01 00:00:02 v1 listening on :8080\n2025/01/01 00:00:04 ready\n");
        let text = run(&mut sim, &format!("kubectl logs {pod} --timestamps --tail 1"));
        assert_eq!(text, "2025-01-01T00:00:04.693Z 2025/01/01 00:00:04 ready\n");
        let text = run(&mut sim, &format!("kubectl logs {pod} --since 5s"));
        assert_eq!(text, "");
        let text = run(&mut sim, "kubectl logs deploy/hello");
        assert!(text.starts_with("Found 3 pods, using pod/hello-"), "{text}");
        let text = run(&mut sim, "kubectl logs -l app=hello --prefix --tail 1");
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.starts_with(&format!("[pod/{pod}/hello] 2025/01/01")), "{text}");
    }

    #[test]
    fn previous_instances_and_their_absence() {
        let mut sim = hello_lab(10);
        let pod = pod_named(&sim, "hello-");
        let text = run(&mut sim, &format!("kubectl logs {pod} -p"));
        assert_eq!(
            text,
            format!(
                "Error from server (BadRequest): previous terminated container \"hello\" in pod \"{pod}\" not found\n"
            )
        );
        run(&mut sim, &format!("lab pod oom {pod}"));
        run(&mut sim, "sleep 1s");
        let text = run(&mut sim, &format!("kubectl logs {pod} --previous"));
        assert_eq!(text, "2025/01/01 00:00:02 v1 listening on :8080\n2025/01/01 00:00:04 ready\n");
        let text = run(&mut sim, &format!("kubectl logs {pod}"));
        assert_eq!(text, "2025/01/01 00:00:10 v1 listening on :8080\n");
        let text = run(&mut sim, &format!("kubectl logs {pod} -c nope"));
        assert_eq!(text, format!("error: container nope is not valid for pod {pod}\n"));
    }

    #[test]
    fn containers_that_never_started_say_why() {
        let mut sim = lab("kubectl apply -f hello.yaml\n");
        let pod = pod_named(&sim, "hello-");
        let text = run(&mut sim, &format!("kubectl logs {pod}"));
        assert_eq!(
            text,
            format!(
                "Error from server (BadRequest): container \"hello\" in pod \"{pod}\" is waiting to start: ContainerCreating\n"
            )
        );
        let mut sim = lab("kubectl apply -f hello.yaml\nkubectl set image deploy/hello hello=hello:v9\nsleep 5s\n");
        let pod = sim
            .store()
            .list::<crate::api::Pod>(Some("default"))
            .find(|p| p.spec.containers[0].image.as_deref() == Some("hello:v9"))
            .unwrap()
            .metadata
            .name
            .clone();
        let text = run(&mut sim, &format!("kubectl logs {pod}"));
        assert!(text.ends_with("is waiting to start: trying and failing to pull image\n"), "{text}");
        let text = run(&mut sim, "kubectl logs");
        assert!(text.starts_with("error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'."), "{text}");
        let text = run(&mut sim, "kubectl logs nope");
        assert_eq!(text, "Error from server (NotFound): pods \"nope\" not found\n");
    }

    #[test]
    fn crash_loops_show_the_last_run() {
        let mut sim = lab(
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: crashy\nspec:\n  containers:\n  - name: crashy\n    image: crashy\nEOF\nsleep 20s\n",
        );
        assert_eq!(run(&mut sim, "kubectl logs crashy"), "config file missing\n");
        assert_eq!(run(&mut sim, "kubectl logs crashy -p"), "config file missing\n");
    }
}
