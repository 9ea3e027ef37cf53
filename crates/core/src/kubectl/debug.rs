//! `kubectl debug POD --image=IMAGE [-it] [--target=C] [-c NAME] [-- COMMAND]`: adds an
//! ephemeral container to a running pod, as staging/src/k8s.io/kubectl/pkg/cmd/debug/debug.go
//! does through the ephemeralcontainers subresource. Attached (`-i`/`--attach`), its command
//! runs in the image's busybox shell inside the pod: the pod's network (`localhost` is the
//! pod), its hostname, and with `--target` the target container's processes (`ps`), which is
//! why people debug distroless images this way. The terminal has no keyboard to hand over, so
//! a shell given no command reads nothing and ends, as `sh` does at the end of its input.

use super::args::{Args, Flag};
use super::output::Output;
use super::{Context, Verb, namespace_of};
use crate::api::Pod;
use crate::api::pod::EphemeralContainer;
use crate::sim::Sim;
use crate::sim::random::Purpose;

pub const VERB: Verb = Verb {
    name: "debug",
    short: "Create debugging sessions for troubleshooting workloads and nodes",
    usage: "kubectl debug (POD | TYPE[[.VERSION].GROUP]/NAME) [ -- COMMAND [args...] ]",
    flags: &[
        Flag::switch(
            "attach",
            None,
            "If true, wait for the container to start running, and then attach as if 'kubectl attach ...' were called.  Default false, unless '-i/--stdin' is set, in which case the default is true.",
        ),
        Flag::value("container", Some('c'), "Container name to use for debug container."),
        Flag::value("copy-to", None, "Create a copy of the target Pod with this name."),
        Flag::value("image", None, "Container image to use for debug container."),
        Flag::value(
            "image-pull-policy",
            None,
            "The image pull policy for the container. If left empty, this value will not be specified by the client and defaulted by the server.",
        ),
        Flag::value(
            "profile",
            None,
            "Options are \"legacy\", \"general\", \"baseline\", \"netadmin\", \"restricted\" or \"sysadmin\".",
        ),
        Flag::switch("quiet", Some('q'), "If true, suppress informational messages."),
        Flag::switch(
            "stdin",
            Some('i'),
            "Keep stdin open on the container(s) in the pod, even if nothing is attached.",
        ),
        Flag::value("target", None, "When using an ephemeral container, target processes in this container name."),
        Flag::switch("tty", Some('t'), "Allocate a TTY for the debugging container."),
    ],
    run,
};

const PROFILES: [&str; 6] = ["legacy", "general", "baseline", "netadmin", "restricted", "sysadmin"];
/// k8s.io/apimachinery/pkg/util/rand's alphabet (no vowels, no look-alikes).
const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let mut out = Output::default();
    if let Err(message) = debug(ctx.sim, &args, &mut out) {
        out.error(message);
    }
    out
}

fn validate(args: &Args) -> Result<&str, String> {
    let pod = args.positionals.first().filter(|_| args.args_len_at_dash != Some(0));
    let pod = pod.ok_or("error: NAME or filename is required for debug")?;
    if args.has("copy-to") {
        if args.has("target") {
            return Err("error: --target is incompatible with --copy-to. Use --share-processes instead.".into());
        }
        return Err("error: --copy-to is not supported in the lab yet".into());
    }
    if args.get("image").is_none_or(str::is_empty) {
        return Err("error: you must specify --image when not using --copy-to.".into());
    }
    if let Some(profile) = args.get("profile").filter(|p| !PROFILES.contains(p)) {
        return Err(format!("error: unknown profile: {profile}"));
    }
    match pod.split_once('/') {
        Some(("pod" | "pods" | "po", name)) => Ok(name),
        Some((type_, _)) => Err(format!("error: the lab can debug pods only, not {type_}")),
        None => Ok(pod),
    }
}

fn debug(sim: &mut Sim, args: &Args, out: &mut Output) -> Result<(), String> {
    let name = validate(args)?;
    let namespace = namespace_of(args);
    let mut pod = sim.store().get::<Pod>(&namespace, name).map_err(|e| e.to_string())?.clone();
    let quiet = args.switch("quiet");
    let target = args.get("target").filter(|t| !t.is_empty());
    if let Some(target) = target
        && !quiet
    {
        out.warn(format!("Targeting container {target:?}. If you don't see processes from this container it may be because the container runtime doesn't support this feature."));
    }
    let container_name = match args.get("container").filter(|c| !c.is_empty()) {
        Some(given) => given.to_string(),
        None => {
            let generated = format!("debugger-{}", random_suffix(sim));
            if !quiet {
                out.warn(format!("Defaulting debug container name to {generated}."));
            }
            generated
        }
    };
    let index = pod.spec.ephemeral_containers.len();
    if !matches!(pod.phase(), "Running") {
        return Err(format!("error: cannot debug pod {name:?}: it is not running (phase {})", pod.phase()));
    }
    invalid_if(&pod, target, &container_name, index)?;
    let stdin = args.switch("stdin");
    let command = args.args_len_at_dash.map_or(&[][..], |at| &args.positionals[at..]);
    pod.spec.ephemeral_containers.make_mut().push(EphemeralContainer {
        name: container_name.clone(),
        image: args.get("image").map(String::from),
        command: command.to_vec(),
        image_pull_policy: Some(args.get("image-pull-policy").unwrap_or("IfNotPresent").to_string()),
        termination_message_path: Some("/dev/termination-log".into()),
        termination_message_policy: Some("File".into()),
        stdin: stdin.then_some(true),
        tty: args.switch("tty").then_some(true),
        target_container_name: target.map(String::from),
        ..Default::default()
    });
    // The `ephemeralcontainers` subresource upstream: an update of the pod as the learner.
    let mut api = crate::apiserver::Client::new(sim.store_mut(), crate::store::UserInfo::admin());
    api.update_typed(pod).map_err(|e| e.to_string())?;
    if stdin || args.switch("attach") {
        if args.switch("tty") {
            out.warn("If you don't see a command prompt, try pressing enter.");
        }
        let image = args.get("image").unwrap_or("");
        let (text, code) = attach(sim, &name_of(sim, &namespace, name)?, image, target, command)?;
        out.raw(text);
        out.warn(format!("Session ended, the ephemeral container will not be restarted but may be reattached using 'kubectl attach {name} -c {container_name} -i -t' if it is still running"));
        if code != 0 {
            out.exit_code = code;
        }
    }
    Ok(())
}

fn name_of(sim: &Sim, namespace: &str, name: &str) -> Result<Pod, String> {
    sim.store().get::<Pod>(namespace, name).cloned().map_err(|e| e.to_string())
}

/// Runs the ephemeral container's command (its image's shell when none) attached: the pod's
/// network and hostname, and with a target that container's processes.
fn attach(
    sim: &mut Sim,
    pod: &Pod,
    image: &str,
    target: Option<&str>,
    command: &[String],
) -> Result<(String, i32), String> {
    let info = sim.controllers().kubelet.resolve_image(image).map_err(|e| format!("error: {}", e.message()))?;
    let argv: Vec<String> = if command.is_empty() { vec!["sh".into()] } else { command.to_vec() };
    let program = argv[0].rsplit('/').next().unwrap_or("");
    if !info.workload.behaviour.shell || !crate::shell::is_applet(program) {
        let message = format!("exec: {program:?}: executable file not found in $PATH");
        return Err(format!("error: failed to start the debug container: {message}"));
    }
    // Its own environment and image files, the target's process table (shared PID namespace).
    let seen_as = target.and_then(|t| pod.container(t)).map_or_else(String::new, |c| c.name.clone());
    let spec = crate::api::container::Container { name: seen_as, image: Some(image.to_string()), ..Default::default() };
    let env: Vec<(String, String)> =
        crate::kubelet::envvars::service_env(sim.store(), pod, sim.now()).into_iter().collect();
    let main_env = crate::kubelet::container_env::process_environment(pod, &env);
    let files = info.workload.files_at(&spec, &main_env, crate::sim::time::Duration::ZERO);
    let (output, code, slept, _) = super::pod_shell::run(sim, (pod, &spec, &info), &env, files, &argv);
    if slept > crate::sim::time::Duration::ZERO {
        sim.advance(slept);
    }
    Ok((output, code))
}

/// What the API server's validation says of the new container.
fn invalid_if(pod: &Pod, target: Option<&str>, name: &str, index: usize) -> Result<(), String> {
    let pod_name = &pod.metadata.name;
    let taken = pod.spec.containers.iter().chain(pod.spec.init_containers.iter()).any(|c| c.name == name)
        || pod.spec.ephemeral_containers.iter().any(|c| c.name == name);
    if taken {
        return Err(format!(
            "The Pod {pod_name:?} is invalid: spec.ephemeralContainers[{index}].name: Duplicate value: {name:?}"
        ));
    }
    if let Some(target) = target
        && !pod.spec.containers.iter().any(|c| c.name == target)
    {
        return Err(format!(
            "The Pod {pod_name:?} is invalid: spec.ephemeralContainers[{index}].targetContainerName: Not found: {target:?}"
        ));
    }
    Ok(())
}

/// Five characters from the store's seeded generator, as `rand.String(5)` picks them.
fn random_suffix(sim: &mut Sim) -> String {
    (0..5)
        .map(|_| {
            ALPHANUMS[sim.store_mut().random_below(Purpose::GeneratedName, ALPHANUMS.len() as u64) as usize] as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::api::Pod;
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::{hello_lab, pod_named};

    #[test]
    fn debug_adds_an_ephemeral_container_to_the_pod() {
        let mut sim = hello_lab(12);
        let pod = pod_named(&sim, "hello-");
        let (text, code) = kubectl(&mut sim, &format!("debug {pod} -it --image=busybox:1.37 --target=hello -c dbg"));
        assert_eq!(code, 0, "{text}");
        assert!(text.starts_with("Targeting container \"hello\". If you don't see processes"), "{text}");
        let live = sim.store().get::<Pod>("default", &pod).unwrap();
        let added = &live.spec.ephemeral_containers[0];
        assert_eq!((added.name.as_str(), added.image.as_deref()), ("dbg", Some("busybox:1.37")));
        assert_eq!(added.target_container_name.as_deref(), Some("hello"));
        let (text, _) = kubectl(&mut sim, &format!("debug {pod} --image=busybox -c dbg"));
        assert_eq!(
            text,
            format!("The Pod \"{pod}\" is invalid: spec.ephemeralContainers[1].name: Duplicate value: \"dbg\"\n")
        );
        let (text, _) = kubectl(&mut sim, &format!("debug {pod} --image=busybox"));
        assert!(text.starts_with("Defaulting debug container name to debugger-"), "{text}");
        let cases = [
            ("debug --image=busybox", "error: NAME or filename is required for debug\n"),
            ("debug x", "error: you must specify --image when not using --copy-to.\n"),
            ("debug x --image=b --profile=foo", "error: unknown profile: foo\n"),
            ("debug x --image=b", "Error from server (NotFound): pods \"x\" not found\n"),
        ];
        for (line, expected) in cases {
            assert_eq!(kubectl(&mut sim, line), (expected.to_string(), 1), "{line}");
        }
    }

    #[test]
    fn an_attached_debug_shell_sees_the_targets_process_and_network() {
        let mut sim = hello_lab(12);
        let pod = pod_named(&sim, "hello-");
        let line = format!(
            "debug {pod} -i -q --image=busybox:1.37 --target=hello -c dbg -- sh -c 'ps; wget -qO- localhost:8080/healthz; exit 3'"
        );
        let (text, code) = kubectl(&mut sim, &line);
        assert!(text.starts_with("PID   USER     TIME  COMMAND\n    1 root      0:00 /hello\n"), "{text}");
        assert!(text.contains("\nok"), "{text}");
        assert_eq!(code, 3, "the session's exit code is the command's");
        let (text, code) = kubectl(&mut sim, &format!("debug {pod} -i --image=hello:v1 -c plain -- sh"));
        assert_eq!(
            (text.as_str(), code),
            ("error: failed to start the debug container: exec: \"sh\": executable file not found in $PATH\n", 1)
        );
    }
}
