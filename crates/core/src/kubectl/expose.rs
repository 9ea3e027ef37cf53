//! `kubectl expose TYPE NAME --port=P`: a Service selecting what a Deployment, ReplicaSet, Pod
//! or Service selects. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go and
//! polymorphichelpers' MapBasedSelectorForObject and PortsForObject.

use super::args::{Args, Flag};
use super::output::Output;
use super::print_flags::{self, DRY_RUN, OUTPUT};
use super::resource_args;
use super::{Context, Verb, namespace_of};
use crate::api::label_selector::LabelSelector;
use crate::api::pod::PodSpec;
use crate::api::{Deployment, Object};
use crate::kubectl::print_flags::Refusal;
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "expose",
    short: "Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service",
    usage: "kubectl expose (-f FILENAME | TYPE NAME) [--port=port] [--protocol=TCP|UDP|SCTP] [--target-port=number-or-name] [--name=name] [--external-ip=external-ip-of-service] [--type=type] [options]",
    flags: &[
        Flag::value(
            "port",
            None,
            "The port that the service should serve on. Copied from the resource being exposed, if unspecified",
        ),
        Flag::value(
            "target-port",
            None,
            "Name or number for the port on the container that the service should direct traffic to. Optional.",
        ),
        Flag::value("protocol", None, "The network protocol for the service to be created. Default is 'TCP'."),
        Flag::value(
            "type",
            None,
            "Type for this service: ClusterIP, NodePort, LoadBalancer, or ExternalName. Default is 'ClusterIP'.",
        ),
        Flag::value("name", None, "The name for the newly created object."),
        Flag::value(
            "selector",
            None,
            "A label selector to use for this service. Only equality-based selector requirements are supported.",
        ),
        Flag::value("labels", Some('l'), "Labels to apply to the service created by this call."),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    match service_for(ctx, &args) {
        Ok(service) => print_flags::create_as(ctx, &args, service, ("exposed", Refusal::Server)),
        Err(message) => Output::failed(message),
    }
}

/// The Service `expose` would send, or kubectl's reason it cannot.
fn service_for(ctx: &Context<'_>, args: &Args) -> Result<Value, String> {
    if args.positionals.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let namespace = namespace_of(args);
    let request = resource_args::parse(ctx.sim.store(), &args.positionals)?;
    let Some((kind, name)) = request.named.first().cloned() else {
        return Err("error: resource(s) were provided, but no name was specified".into());
    };
    let object = ctx.sim.store().get_object(kind, &namespace, &name).map_err(|e| e.to_string())?;
    let selector = match args.get("selector").filter(|s| !s.is_empty()) {
        Some(text) => parse_pairs(text)?,
        None => selector_of(&object)?,
    };
    let ports = ports(args, &object)?;
    let mut spec = json!({"ports": ports, "selector": selector});
    if let Some(type_) = args.get("type").filter(|t| !t.is_empty()) {
        spec["type"] = json!(type_);
    }
    let labels = match args.get("labels").filter(|l| !l.is_empty()) {
        Some(text) => parse_pairs(text)?,
        None => labels_of(&object),
    };
    let service_name = args.get("name").filter(|n| !n.is_empty()).unwrap_or(&name).to_string();
    let labels = labels.as_object().is_some_and(|m| !m.is_empty()).then_some(labels);
    Ok(json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": super::create::generated_metadata(args, &service_name, labels),
        "spec": spec,
        "status": {"loadBalancer": {}},
    }))
}

fn parse_pairs(text: &str) -> Result<Value, String> {
    let mut map = Map::new();
    for pair in text.split(',') {
        let (key, value) = pair.split_once('=').ok_or_else(|| format!("error: invalid label spec: {pair}"))?;
        map.insert(key.to_string(), json!(value));
    }
    Ok(Value::Object(map))
}

fn labels_of(object: &Object) -> Value {
    let labels = &object.metadata().labels;
    Value::Object(labels.iter().map(|(k, v)| (k.to_string(), json!(v))).collect())
}

/// Upstream `MapBasedSelectorForObject`.
fn selector_of(object: &Object) -> Result<Value, String> {
    let no_selector =
        |why: &str| format!("error: couldn't retrieve selectors via --selector flag or introspection: {why}");
    let from_label_selector = |selector: Option<&LabelSelector>| {
        let selector = selector.cloned().unwrap_or_default();
        if !selector.match_expressions.is_empty() {
            return Err(no_selector(&format!(
                "couldn't convert expressions - \"{}\" to map-based selector format",
                selector.format()
            )));
        }
        Ok(Value::Object(selector.match_labels.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()))
    };
    match object {
        Object::Pod(pod) if pod.metadata.labels.is_empty() => {
            Err(no_selector("the pod has no labels and cannot be exposed"))
        }
        Object::Pod(_) => Ok(labels_of(object)),
        Object::Service(service) if service.spec.selector.is_empty() => {
            Err(no_selector("the service has no pod selector set"))
        }
        Object::Service(service) => {
            Ok(Value::Object(service.spec.selector.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()))
        }
        Object::Deployment(d) => from_label_selector(d.spec.selector.as_ref()),
        Object::ReplicaSet(rs) => from_label_selector(rs.spec.selector.as_ref()),
        other => Err(format!("error: cannot expose a {}", super::rollout::group_kind(other.kind()))),
    }
}

/// `--port`, else the ports the object declares (upstream `PortsForObject`), each with the
/// target port given or the same as the port; several get names `port-1`, `port-2`, ….
fn ports(args: &Args, object: &Object) -> Result<Vec<Value>, String> {
    let declared: Vec<(i64, String)> = match args.get("port").filter(|p| !p.is_empty()) {
        Some(text) => {
            let port =
                text.parse::<i64>().map_err(|_| format!("error: strconv.Atoi: parsing {text:?}: invalid syntax"))?;
            vec![(port, String::new())]
        }
        None => declared_ports(object),
    };
    if declared.is_empty() {
        return Err("error: couldn't find port via --port flag or introspection".into());
    }
    let protocol_flag = args.get("protocol").filter(|p| !p.is_empty());
    let target = args.get("target-port").filter(|t| !t.is_empty());
    let many = declared.len() > 1;
    Ok(declared
        .iter()
        .enumerate()
        .map(|(i, (port, protocol))| {
            let protocol = protocol_flag.or((!protocol.is_empty()).then_some(protocol.as_str())).unwrap_or("TCP");
            let target_port = match target {
                Some(text) => text.parse::<i64>().map_or(json!(text), |n| json!(n)),
                None => json!(port),
            };
            let mut value = json!({"port": port, "protocol": protocol, "targetPort": target_port});
            if many {
                value["name"] = json!(format!("port-{}", i + 1));
            }
            value
        })
        .collect())
}

fn declared_ports(object: &Object) -> Vec<(i64, String)> {
    let from_spec = |spec: &PodSpec| {
        spec.containers
            .iter()
            .flat_map(|c| c.ports.iter())
            .map(|p| (i64::from(p.container_port), p.protocol.clone().unwrap_or_default()))
            .collect()
    };
    match object {
        Object::Pod(pod) => from_spec(&pod.spec),
        Object::Deployment(Deployment { spec, .. }) => from_spec(&spec.template.spec),
        Object::ReplicaSet(rs) => from_spec(&rs.spec.template.spec),
        Object::Service(service) => {
            service.spec.ports.iter().map(|p| (i64::from(p.port), p.protocol.clone().unwrap_or_default())).collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn expose_selects_what_the_deployment_selects() {
        let mut sim = Sim::default();
        kubectl(&mut sim, "create deployment hello --image=hello:v1 --port=8080");
        let (text, _) =
            kubectl(&mut sim, "expose deployment hello --port=80 --target-port=8080 --dry-run=client -o yaml");
        assert_eq!(
            text,
            "apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    app: hello\n  name: hello\nspec:\n  ports:\n  - port: 80\n    protocol: TCP\n    targetPort: 8080\n  selector:\n    app: hello\nstatus:\n  loadBalancer: {}\n"
        );
        let (text, code) = kubectl(&mut sim, "expose deploy/hello --name=hello-np --type=NodePort");
        assert_eq!((text.as_str(), code), ("service/hello-np exposed\n", 0));
        let svc = sim.store().get::<crate::api::Service>("default", "hello-np").unwrap();
        assert_eq!(svc.spec.ports[0].port, 8080);
        assert!(svc.spec.ports[0].node_port.is_some());
    }

    #[test]
    fn expose_explains_what_it_cannot_find() {
        let mut sim = Sim::default();
        kubectl(&mut sim, "create deployment hello --image=hello:v1");
        let (text, _) = kubectl(&mut sim, "expose deployment hello");
        assert_eq!(text, "error: couldn't find port via --port flag or introspection\n");
        let (text, _) = kubectl(&mut sim, "expose deployment nope --port=80");
        assert_eq!(text, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
        let (text, _) = kubectl(&mut sim, "expose ns default --port=80");
        assert_eq!(text, "error: cannot expose a Namespace\n");
    }
}
