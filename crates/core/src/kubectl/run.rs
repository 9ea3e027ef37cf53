//! `kubectl run NAME --image=I`: one bare Pod labelled `run=NAME`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/run/run.go and generate/versioned/run.go (BasicPod).

use super::args::{Args, Flag, int_flag};
use super::output::Output;
use super::print_flags::{self, DRY_RUN, OUTPUT};
use super::{Context, Verb, usage_error};
use crate::kubectl::UsageError;
use crate::kubectl::print_flags::Refusal;
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "run",
    short: "Run a particular image on the cluster",
    usage: "kubectl run NAME --image=image [--env=\"key=value\"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...] [options]",
    flags: &[
        Flag::value("image", None, "The image for the container to run."),
        Flag::value("port", None, "The port that this container exposes."),
        Flag::value("labels", Some('l'), "Comma separated labels to apply to the pod. Will override previous values."),
        Flag::repeated("env", None, "Environment variables to set in the container."),
        Flag::value("restart", None, "The restart policy for this Pod.  Legal values [Always, OnFailure, Never]."),
        Flag::switch(
            "command",
            None,
            "If true and extra arguments are present, use them as the 'command' field in the container, rather than the 'args' field which is the default.",
        ),
        Flag::switch("privileged", None, "If true, run the container in privileged mode."),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let port = match int_flag(&args, "port") {
        Ok(port) => port,
        Err(message) => return usage_error(&VERB, &message),
    };
    let Some(name) = args.positionals.first().cloned() else {
        return Output::failed(UsageError::command("NAME is required for run").render("run"));
    };
    let Some(image) = args.get("image").filter(|i| !i.is_empty()) else {
        return Output::failed("error: required flag(s) \"image\" not set");
    };
    let restart = args.get("restart").unwrap_or("Always");
    if !["Always", "OnFailure", "Never"].contains(&restart) {
        return Output::failed(format!("error: invalid restart policy: {restart}"));
    }
    let labels = match labels(&args, &name) {
        Ok(labels) => labels,
        Err(message) => return Output::failed(message),
    };
    let container = match container(&args, &name, image, port) {
        Ok(container) => container,
        Err(message) => return Output::failed(message),
    };
    let pod = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": super::create::generated_metadata(&args, &name, Some(labels)),
        "spec": {"containers": [container], "dnsPolicy": "ClusterFirst", "restartPolicy": restart},
        "status": {},
    });
    print_flags::create(ctx, &args, pod, Refusal::Server)
}

/// `--labels=a=b,c=d`, or `run=NAME`.
fn labels(args: &Args, name: &str) -> Result<Value, String> {
    let Some(text) = args.get("labels").filter(|l| !l.is_empty()) else {
        return Ok(json!({"run": name}));
    };
    let mut labels = Map::new();
    for pair in text.split(',') {
        let (key, value) = pair.split_once('=').ok_or_else(|| format!("error: invalid label spec: {pair}"))?;
        labels.insert(key.to_string(), json!(value));
    }
    Ok(Value::Object(labels))
}

/// The one container, named after the pod, with the words after `--` as args or command.
fn container(args: &Args, name: &str, image: &str, port: Option<i64>) -> Result<Value, String> {
    let mut container = json!({"image": image, "name": name, "resources": {}});
    let words = &args.positionals[1..];
    if !words.is_empty() {
        let field = if args.switch("command") { "command" } else { "args" };
        container[field] = json!(words);
    }
    if let Some(port) = port.filter(|p| *p > 0) {
        container["ports"] = json!([{"containerPort": port}]);
    }
    let mut env = Vec::new();
    for pair in args.all("env") {
        let (key, value) = pair.split_once('=').ok_or_else(|| format!("error: invalid env: {pair}"))?;
        env.push(json!({"name": key, "value": value}));
    }
    if !env.is_empty() {
        container["env"] = json!(env);
    }
    if args.switch("privileged") {
        container["securityContext"] = json!({"privileged": true});
    }
    Ok(container)
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn run_generates_a_bare_pod() {
        let mut sim = Sim::default();
        let line = "run web --image=nginx --port=80 --env=A=1 --restart=Never --dry-run=client -o yaml --command -- sh -c 'echo hi'";
        let (text, _) = kubectl(&mut sim, line);
        assert_eq!(
            text,
            "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    run: web\n  name: web\nspec:\n  containers:\n  - command:\n    - sh\n    - -c\n    - echo hi\n    env:\n    - name: A\n      value: \"1\"\n    image: nginx\n    name: web\n    ports:\n    - containerPort: 80\n    resources: {}\n  dnsPolicy: ClusterFirst\n  restartPolicy: Never\nstatus: {}\n"
        );
        let (text, code) = kubectl(&mut sim, "run web --image=nginx --labels=app=web,tier=fe");
        assert_eq!((text.as_str(), code), ("pod/web created\n", 0));
        let pod = sim.store().get::<crate::api::Pod>("default", "web").unwrap();
        assert_eq!(pod.metadata.labels.to_selector_string(), "app=web,tier=fe");
        let (text, _) = kubectl(&mut sim, "run --image=nginx");
        assert_eq!(text, "error: NAME is required for run\nSee 'kubectl run -h' for help and examples\n");
        let (text, _) = kubectl(&mut sim, "run web");
        assert_eq!(text, "error: required flag(s) \"image\" not set\n");
        let (text, _) = kubectl(&mut sim, "run x --image=nginx --restart=Sometimes");
        assert_eq!(text, "error: invalid restart policy: Sometimes\n");
    }
}
