//! `kubectl exec`: runs a command in a running container, through the busybox shell with the
//! pod's environment and network (`pod_shell.rs`) in images that have one. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go and
//! containerd's exec errors. `-i`/`-t` are accepted; a script has no terminal to attach.

use super::args::{Args, Flag};
use super::output::Output;
use super::{Context, Verb, namespace_of, pod_shell, pods};
use crate::api::Pod;
use crate::kubectl::UsageError;
use crate::kubelet::node_server::NodeServer;
use crate::sim::Sim;
use crate::sim::random::Purpose;

pub const VERB: Verb = Verb {
    name: "exec",
    short: "Execute a command in a container",
    usage: "kubectl exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...] [options]",
    flags: &[
        Flag::value(
            "container",
            Some('c'),
            "Container name. If omitted, use the kubectl.kubernetes.io/default-container annotation for selecting the container to be attached or the first container in the pod will be chosen",
        ),
        Flag::switch("stdin", Some('i'), "Pass stdin to the container"),
        Flag::switch("tty", Some('t'), "Stdin is a TTY"),
        Flag::switch("quiet", Some('q'), "Only print output from the remote session"),
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let mut out = Output::default();
    match exec(ctx.sim, &args, &mut out) {
        Ok((printed, code)) => {
            if !printed.is_empty() {
                out.raw(printed);
            }
            if code != 0 {
                out.warn(format!("command terminated with exit code {code}"));
                out.exit_code = code;
            }
        }
        Err(message) => out.error(message),
    }
    out
}

/// What the command printed and its exit code, or kubectl's error.
fn exec(sim: &mut Sim, args: &Args, out: &mut Output) -> Result<(String, i32), String> {
    let Some(target) = args.positionals.first().filter(|_| args.args_len_at_dash != Some(0)) else {
        return Err("error: pod, type/name or --filename must be specified".into());
    };
    let command = match args.args_len_at_dash {
        Some(at) if at <= 1 => &args.positionals[at..],
        Some(_) => {
            return Err(UsageError::command(
                "exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead",
            )
            .render("exec"));
        }
        None if args.positionals.len() > 1 => {
            return Err(UsageError::command(
                "exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead",
            )
            .render("exec"));
        }
        None => &[][..],
    };
    if command.is_empty() {
        return Err("error: you must specify at least one command for the container".into());
    }
    let (pod, _) = pods::pod_for(sim.store(), &namespace_of(args), target)?;
    if matches!(pod.phase(), "Succeeded" | "Failed") {
        return Err(format!(
            "error: cannot exec into a container in a completed pod; current phase is {}",
            pod.phase()
        ));
    }
    let quiet = args.switch("quiet");
    let mut notes = Output::default();
    let name = pods::container_name(&pod, args.get("container"), &mut notes)?;
    if !quiet {
        out.items.extend(notes.items);
    }
    run_in(sim, &pod, &name, command)
}

/// Runs `command` in container `name` of `pod`, which must be running, through its node's
/// kubelet: a machine outside the lab runs it itself; a simulated one runs the image's program.
pub(crate) fn run_in(sim: &mut Sim, pod: &Pod, name: &str, command: &[String]) -> Result<(String, i32), String> {
    let not_found = || format!("error: unable to upgrade connection: container not found ({name:?})");
    let spec = pod.container(name).ok_or_else(not_found)?.clone();
    let node = sim.pod_node_server(pod).ok_or_else(not_found)?;
    if matches!(node, NodeServer::External { .. }) {
        return node.exec_external(pod, name, command).map_err(|e| e.to_string());
    }
    let process = node.running_container(pod, name).ok_or_else(not_found)?;
    let since_start = sim.now().since(process.started_at);
    let info = process.image;
    let program = command[0].rsplit('/').next().unwrap_or("");
    if program == "nvidia-smi" {
        let gpus = &sim.controllers().gpu_operator;
        let ns = &pod.metadata.namespace;
        if let Some(outcome) = gpus.container_nvidia_smi(ns, &pod.metadata.name, name, &command[1..], sim.now()) {
            return Ok(outcome);
        }
    }
    if !info.workload.behaviour.shell || !crate::shell::is_applet(program) {
        return Err(exec_not_found(sim, &command[0]));
    }
    let main_env = crate::kubelet::container_env::process_environment(pod, &process.env);
    let mut files = info.workload.files_at(&spec, &main_env, since_start);
    files.extend(process.mounted_files);
    let disk_mounts = crate::kubelet::node_disk::disk_mounts(sim.store(), pod, &spec);
    for mount in &disk_mounts {
        files.extend(sim.controllers().kubelet.disks.files(mount));
    }
    let (output, code, slept, changes) = pod_shell::run(sim, (pod, &spec, &info), &process.env, files, command);
    for change in &changes {
        sim.node_disks_mut().apply(&disk_mounts, change);
    }
    if slept > crate::sim::time::Duration::ZERO {
        sim.advance(slept);
    }
    Ok((output, code))
}

/// containerd's answer when the image has no such program (the exec id from the lab's rng).
fn exec_not_found(sim: &mut Sim, program: &str) -> String {
    let id: String =
        (0..4).map(|_| format!("{:016x}", sim.store_mut().random_below(Purpose::ContainerId, u64::MAX))).collect();
    format!(
        "error: Internal error occurred: error executing command in container: failed to exec in container: \
         failed to start exec {id:?}: OCI runtime exec failed: exec failed: unable to start container process: \
         exec: {program:?}: executable file not found in $PATH: unknown"
    )
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{hello_lab, lab, pod_named, run};

    const CLIENT: &str = "kubectl apply -f hello.yaml\nkubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: client\nspec:\n  containers:\n  - name: client\n    image: busybox:1.37\n    command: [sleep, infinity]\n    env:\n    - name: GREETING\n      value: hi\nEOF\nsleep 10s\n";

    #[test]
    fn commands_run_in_the_container() {
        let mut sim = lab(CLIENT);
        assert_eq!(
            run(&mut sim, "kubectl exec client -- cat /nope"),
            "cat: can't open '/nope': No such file or directory\ncommand terminated with exit code 1\n"
        );
        assert_eq!(run(&mut sim, "kubectl exec client -- sh -c 'echo hi > /tmp/f; cat /tmp/f'"), "hi\n");
        assert_eq!(run(&mut sim, "kubectl exec client -- hostname"), "client\n");
        assert!(run(&mut sim, "kubectl exec client -- env").contains("\nGREETING=hi\n"));
        assert_eq!(run(&mut sim, "kubectl exec -it client -- sh"), "");
    }

    #[test]
    fn wget_reaches_pods_by_ip_and_hogs_memory() {
        let mut sim = lab(CLIENT);
        let pod = pod_named(&sim, "hello-");
        let store = sim.store();
        let ip = store.get::<crate::api::Pod>("default", &pod).unwrap().status.pod_ip.clone().unwrap();
        let text = run(&mut sim, &format!("kubectl exec client -- wget -qO- http://{ip}:8080"));
        assert_eq!(text, format!("hello from {pod} (v1)\n"));
        let text = run(&mut sim, &format!("kubectl exec client -- wget -qO- {ip}:8080/healthz"));
        assert_eq!(text, "ok");
        let text = run(&mut sim, &format!("kubectl exec client -- wget -qO- {ip}:9999"));
        assert_eq!(
            text,
            format!(
                "wget: can't connect to remote host ({ip}): Connection refused\ncommand terminated with exit code 1\n"
            )
        );
        let text = run(&mut sim, &format!("kubectl exec client -- wget -qO- http://{ip}:8080/hog?mb=100"));
        assert_eq!(text, "wget: error getting response\ncommand terminated with exit code 1\n");
        let status = &sim.store().get::<crate::api::Pod>("default", &pod).unwrap().status.container_statuses[0];
        assert_eq!(status.last_state.terminated.as_ref().unwrap().reason.as_deref(), Some("OOMKilled"));
        let text = run(&mut sim, "kubectl exec client -- wget -qO- http://nope");
        assert_eq!(text, "wget: bad address 'nope'\ncommand terminated with exit code 1\n");
    }

    #[test]
    fn wget_reaches_services_through_a_ready_endpoint() {
        let mut sim = lab(&format!("{CLIENT}kubectl apply -f hello-service.yaml\nsleep 3s\n"));
        for name in ["hello", "hello.default", "hello.default.svc.cluster.local"] {
            let text = run(&mut sim, &format!("kubectl exec client -- wget -qO- http://{name}"));
            assert!(text.starts_with("hello from hello-") && text.ends_with(" (v1)\n"), "{text}");
        }
        let text = run(&mut sim, "kubectl exec client -- wget -O- hello");
        assert!(text.starts_with("Connecting to hello (10."), "{text}");
        assert!(
            text.contains(":80)\nwriting to stdout\nhello from ") && text.ends_with("written to stdout\n"),
            "{text}"
        );
    }

    #[test]
    fn errors_read_as_kubectl_and_containerd_print_them() {
        let mut sim = hello_lab(10);
        let pod = pod_named(&sim, "hello-");
        let text = run(&mut sim, &format!("kubectl exec {pod} -- sh"));
        assert!(text.starts_with("error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec \""), "{text}");
        assert!(text.ends_with("\": OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file not found in $PATH: unknown\n"), "{text}");
        let text = run(&mut sim, &format!("kubectl exec {pod} -c nope -- ls"));
        assert_eq!(text, "error: unable to upgrade connection: container not found (\"nope\")\n");
        assert_eq!(
            run(&mut sim, &format!("kubectl exec {pod}")),
            "error: you must specify at least one command for the container\n"
        );
        assert!(
            run(&mut sim, &format!("kubectl exec {pod} ls"))
                .starts_with("error: exec [POD] [COMMAND] is not supported anymore.")
        );
        assert_eq!(run(&mut sim, "kubectl exec -- ls"), "error: pod, type/name or --filename must be specified\n");
        assert_eq!(run(&mut sim, "kubectl exec nope -- ls"), "Error from server (NotFound): pods \"nope\" not found\n");
    }
}
