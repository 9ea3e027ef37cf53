//! `kubectl set image TYPE/NAME CONTAINER=IMAGE…`: change container images in a pod template
//! (`*=IMAGE` for all of them). Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go.

use super::{Patched, aggregate, check_exist, update_pod_spec};
use crate::api::container::Container;
use crate::api::pod::PodSpec;
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::kubectl::resource_args::targets;
use crate::kubectl::{Context, Verb, namespace_of};

pub const VERB: Verb = Verb {
    name: "set image",
    short: "Update the image of a pod template",
    usage: "kubectl set image (-f FILENAME | TYPE NAME) CONTAINER_NAME_1=CONTAINER_IMAGE_1 ... CONTAINER_NAME_N=CONTAINER_IMAGE_N",
    flags: &[],
    run,
};

/// Upstream `GetResourcesAndPairs`: resources first, then `KEY=VALUE` pairs.
pub fn resources_and_pairs(args: &[String], pair_type: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut resources, mut pairs) = (Vec::new(), Vec::new());
    for arg in args {
        let is_pair = (arg.contains('=') && !arg.starts_with('=')) || (arg.ends_with('-') && arg != "-");
        match (pairs.is_empty(), is_pair) {
            (_, true) => pairs.push(arg.clone()),
            (true, false) => resources.push(arg.clone()),
            (false, false) => {
                return Err(format!("error: all resources must be specified before {pair_type} changes: {arg}"));
            }
        }
    }
    Ok((resources, pairs))
}

/// Upstream `ParsePairs` without removal: `NAME=IMAGE`, later pairs overriding earlier ones.
fn parse_images(pairs: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut images: Vec<(String, String)> = Vec::new();
    let mut invalid = Vec::new();
    for pair in pairs {
        match pair.split_once('=').filter(|(name, _)| !name.is_empty()) {
            Some((name, image)) => {
                images.retain(|(n, _)| n != name);
                images.push((name.to_string(), image.to_string()));
            }
            None => invalid.push(pair.as_str()),
        }
    }
    if !invalid.is_empty() {
        return Err(format!("error: invalid image format: {}", invalid.join(", ")));
    }
    Ok(images)
}

fn validate(resources: &[String], images: &[(String, String)]) -> Result<(), String> {
    let mut errors = Vec::new();
    if resources.is_empty() {
        errors.push("one or more resources must be specified as <resource> <name> or <resource>/<name>".to_string());
    }
    if images.is_empty() {
        errors.push("at least one image update is required".to_string());
    } else if images.len() > 1 && images.iter().any(|(name, _)| name == "*") {
        errors.push(
            "all containers are already specified by *, but saw more than one container_name=container_image pairs"
                .to_string(),
        );
    }
    if errors.is_empty() { Ok(()) } else { Err(aggregate(&errors)) }
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let parsed = resources_and_pairs(&args.positionals, "image")
        .and_then(|(resources, pairs)| Ok((parse_images(&pairs)?, resources)))
        .and_then(|(images, resources)| validate(&resources, &images).map(|()| (resources, images)));
    let (resources, images) = match parsed {
        Ok(parsed) => parsed,
        Err(message) => return Output::failed(message),
    };
    let namespace = namespace_of(&args);
    let found = match targets(ctx, &resources, &namespace).and_then(|f| check_exist(ctx, &namespace, &f).map(|()| f)) {
        Ok(found) => found,
        Err(message) => return Output::failed(message),
    };
    let mut out = Output::default();
    let mut errors = Vec::new();
    for (kind, name) in found {
        let mut update = |spec: &mut PodSpec| set_images(spec, &images, &mut errors);
        match update_pod_spec(ctx, (kind, &namespace, &name), true, &mut update) {
            Ok(Patched::Written) => out.line(format!("{}/{name} image updated", kind.info().singular_qualified())),
            Ok(Patched::Unchanged) => {}
            Err(message) => errors.push(message),
        }
    }
    for message in errors {
        out.error(message);
    }
    out
}

fn set_images(spec: &mut PodSpec, images: &[(String, String)], errors: &mut Vec<String>) {
    for (name, image) in images {
        let in_init = set_image(spec.init_containers.make_mut(), name, image);
        let in_main = set_image(spec.containers.make_mut(), name, image);
        if !in_init && !in_main {
            errors.push(format!("error: unable to find container named {name:?}"));
        }
    }
}

fn set_image(containers: &mut [Container], name: &str, image: &str) -> bool {
    let mut found = false;
    for container in containers.iter_mut().filter(|c| c.name == name || name == "*") {
        container.image = Some(image.to_string());
        found = true;
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::api::Deployment;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl};
    use crate::sim::Sim;

    fn image(sim: &Sim) -> (String, i64) {
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        (d.spec.template.spec.containers[0].image.clone().unwrap_or_default(), d.metadata.generation)
    }

    #[test]
    fn set_image_changes_named_or_all_containers() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, code) = kubectl(&mut sim, "set image deploy/hello hello=hello:v2");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello image updated\n", 0));
        assert_eq!(image(&sim), ("hello:v2".to_string(), 2));
        let (text, _) = kubectl(&mut sim, "set image deployment hello *=hello:v3");
        assert_eq!(text, "deployment.apps/hello image updated\n");
        assert_eq!(image(&sim), ("hello:v3".to_string(), 3));
        let (text, code) = kubectl(&mut sim, "set image deploy/hello hello=hello:v3");
        assert_eq!((text.as_str(), code), ("", 0));
    }

    #[test]
    fn set_image_errors_read_like_kubectl() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, code) = kubectl(&mut sim, "set image deploy/hello web=hello:v2");
        assert_eq!((text.as_str(), code), ("error: unable to find container named \"web\"\n", 1));
        let (text, _) = kubectl(&mut sim, "set image deploy/hello");
        assert_eq!(text, "error: at least one image update is required\n");
        let (text, _) = kubectl(&mut sim, "set image deploy/hello a=b deploy/x");
        assert_eq!(text, "error: all resources must be specified before image changes: deploy/x\n");
        let (text, _) = kubectl(&mut sim, "set image deploy/nope hello=hello:v2");
        assert_eq!(text, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
        let (text, _) = kubectl(&mut sim, "set image ns/default hello=hello:v2");
        assert_eq!(
            text,
            "error: namespaces/default the object is not a pod or does not have a pod template: *v1.Namespace\n"
        );
    }
}
