//! `kubectl create deployment NAME --image=I [--replicas N] [--port P]`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_deployment.go.

use super::{generated_metadata, one_name};
use crate::kubectl::args::{Args, Flag, int_flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::Refusal;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT};
use crate::kubectl::{Context, Verb, usage_error};
use serde_json::{Value, json};

pub const VERB: Verb = Verb {
    name: "create deployment",
    short: "Create a deployment with the specified name",
    usage: "kubectl create deployment NAME --image=image -- [COMMAND] [args...] [options]",
    flags: &[
        Flag::repeated(
            "image",
            None,
            "Image names to run. A deployment can have multiple images set for multi-container pod.",
        ),
        Flag::value("replicas", Some('r'), "Number of replicas to create. Default is 1."),
        Flag::value("port", None, "The containerPort that this deployment exposes."),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let (replicas, port) = match (int_flag(&args, "replicas"), int_flag(&args, "port")) {
        (Ok(replicas), Ok(port)) => (replicas.unwrap_or(1), port),
        (Err(message), _) | (_, Err(message)) => return usage_error(&VERB, &message),
    };
    let images = args.all("image");
    if images.is_empty() {
        return Output::failed("error: required flag(s) \"image\" not set");
    }
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    if port.is_some() && images.len() > 1 {
        return Output::failed("error: cannot use --port with multiple images");
    }
    // What follows `--` is the first container's command.
    let command = args.positionals.get(1..).unwrap_or_default();
    if images.len() > 1 && !command.is_empty() {
        return Output::failed("error: cannot specify multiple --image options and command");
    }
    let mut containers: Vec<Value> = images.iter().map(|image| container(image, port)).collect();
    if !command.is_empty() {
        containers[0]["command"] = json!(command);
    }
    let labels = json!({"app": name});
    let deployment = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": generated_metadata(&args, &name, Some(labels.clone())),
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": labels},
            "strategy": {},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": containers},
            },
        },
        "status": {},
    });
    print_flags::create(ctx, &args, deployment, Refusal::Prefixed("failed to create deployment: "))
}

/// A container named after its image (`registry/hello:v1` → `hello`), as upstream's
/// `buildPodSpec` names it.
fn container(image: &str, port: Option<i64>) -> Value {
    let mut container = json!({"image": image, "name": container_name(image), "resources": {}});
    if let Some(port) = port {
        container["ports"] = json!([{"containerPort": port}]);
    }
    container
}

/// Upstream `buildPodSpec`: the last path segment without tag or digest, `_` made `-` (upstream
/// then adds a random suffix to such names; the lab keeps them as they are).
pub fn container_name(image: &str) -> String {
    let base = image.rsplit('/').next().unwrap_or(image);
    let base = base.split(':').next().unwrap_or(base);
    let base = base.split('@').next().unwrap_or(base);
    base.replace('_', "-")
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn client_dry_run_prints_what_kubectl_generates() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(
            &mut sim,
            "create deployment hello --image=hello:v1 --port=8080 --replicas=2 --dry-run=client -o yaml",
        );
        assert_eq!(
            text,
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels:\n    app: hello\n  name: hello\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: hello\n  strategy: {}\n  template:\n    metadata:\n      labels:\n        app: hello\n    spec:\n      containers:\n      - image: hello:v1\n        name: hello\n        ports:\n        - containerPort: 8080\n        resources: {}\nstatus: {}\n"
        );
        let (text, _) =
            kubectl(&mut sim, "create deployment sleeper --image=busybox:1.37 --dry-run=client -o yaml -- sleep 3600");
        assert!(text.contains("      containers:\n      - command:\n        - sleep\n        - \"3600\"\n        image: busybox:1.37\n        name: busybox\n"), "{text}");
        let (text, _) = kubectl(&mut sim, "create deployment two --image=a --image=b -- sleep 1");
        assert_eq!(text, "error: cannot specify multiple --image options and command\n");
        let (text, _) = kubectl(&mut sim, "create deployment hello --image=hello:v1 --dry-run=client -o json");
        assert!(text.starts_with("{\n    \"kind\": \"Deployment\",\n    \"apiVersion\": \"apps/v1\",\n    \"metadata\": {\n        \"name\": \"hello\","), "{text}");
        assert!(text.contains("\"resources\": {}\n                    }\n                ]\n            }\n        },\n        \"strategy\": {}\n    },\n    \"status\": {}\n}\n"), "{text}");
    }

    #[test]
    fn creates_and_refuses_like_kubectl() {
        let mut sim = Sim::default();
        let (text, code) = kubectl(&mut sim, "create deployment hello --image=hello:v1");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello created\n", 0));
        let (text, _) = kubectl(&mut sim, "create deployment hello --image=hello:v1");
        assert_eq!(text, "error: failed to create deployment: deployments.apps \"hello\" already exists\n");
        let (text, _) = kubectl(&mut sim, "create deployment web");
        assert_eq!(text, "error: required flag(s) \"image\" not set\n");
        let (text, _) = kubectl(&mut sim, "create deployment --image=x");
        assert_eq!(
            text,
            "error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples\n"
        );
        let (text, _) = kubectl(&mut sim, "create deployment web --image=x -n nowhere");
        assert_eq!(text, "error: failed to create deployment: namespaces \"nowhere\" not found\n");
    }
}
