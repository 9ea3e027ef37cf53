//! `kubectl create ingress NAME --rule=host/path=service:port[,tls[=secret]]`, with `--class`,
//! `--default-backend` and `--annotation`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_ingress.go: a path ending in `*` is a
//! Prefix rule without the `*`, any other path is Exact; rules for one host share its entry.

use super::{generated_metadata, one_name};
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::Refusal;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT};
use crate::kubectl::{Context, Verb};
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "create ingress",
    short: "Create an ingress with the specified name",
    usage: "kubectl create ingress NAME --rule=host/path=service:port[,tls[=secret]]  [options]",
    flags: &[
        Flag::value("class", None, "Ingress Class to be used"),
        Flag::repeated(
            "rule",
            None,
            "Rule in format host/path=service:port[,tls=secretname]. Paths containing the leading character '*' are considered pathType=Prefix. tls argument is optional.",
        ),
        Flag::value("default-backend", None, "Default service for backend, in format of svcname:port"),
        Flag::repeated(
            "annotation",
            None,
            "Annotation to insert in the ingress object, in the format annotation=value",
        ),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

/// One `--rule` taken apart.
struct Rule {
    host: String,
    path: String,
    service: String,
    port: String,
    tls: Option<Option<String>>,
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let mut rules = Vec::new();
    for text in args.all("rule") {
        match parse_rule(text) {
            Some(rule) => rules.push(rule),
            None => {
                return Output::failed(format!(
                    "error: rule {text} is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]"
                ));
            }
        }
    }
    let default_backend = args.get("default-backend");
    if rules.is_empty() && default_backend.is_none() {
        return Output::failed(
            "error: not enough information provided: every ingress has to either specify a default-backend (which catches all traffic) or a list of rules (which catch specific paths)",
        );
    }
    let mut spec = Map::new();
    if let Some(class) = args.get("class") {
        spec.insert("ingressClassName".into(), json!(class));
    }
    if let Some(backend) = default_backend {
        let Some((service, port)) = backend.split_once(':').filter(|(s, p)| !s.is_empty() && !p.is_empty()) else {
            return Output::failed("error: default-backend should be in format servicename:serviceport");
        };
        spec.insert("defaultBackend".into(), backend_value(service, port));
    }
    if !rules.is_empty() {
        spec.insert("rules".into(), rules_value(&rules));
    }
    let tls = tls_value(&rules);
    if !tls.is_empty() {
        spec.insert("tls".into(), Value::Array(tls));
    }
    let mut metadata = generated_metadata(&args, &name, None);
    let annotations: Map<String, Value> = args
        .all("annotation")
        .iter()
        .filter_map(|a| a.split_once('=').map(|(k, v)| (k.to_string(), json!(v))))
        .collect();
    if !annotations.is_empty() {
        metadata["annotations"] = Value::Object(annotations);
    }
    let ingress = json!({
        "apiVersion": "networking.k8s.io/v1",
        "kind": "Ingress",
        "metadata": metadata,
        "spec": spec,
        "status": {"loadBalancer": {}},
    });
    print_flags::create(ctx, &args, ingress, Refusal::Prefixed("failed to create ingress: "))
}

/// `host/path=svc:port[,tls[=secret]]` as create_ingress.go's two regular expressions read it.
fn parse_rule(text: &str) -> Option<Rule> {
    let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let (route, tls) = match text.split_once(",tls") {
        Some((route, "")) => (route, Some(None)),
        Some((route, secret)) => {
            let secret = secret.strip_prefix('=').unwrap_or(secret);
            if !word(secret) {
                return None;
            }
            (route, Some(Some(secret.to_string())))
        }
        None => (text, None),
    };
    let (host_path, target) = route.rsplit_once('=')?;
    let (service, port) = target.split_once(':')?;
    let slash = host_path.find('/')?;
    let (host, path) = host_path.split_at(slash);
    let host_ok = host.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '*' | '-' | '.'));
    (host_ok && word(service) && word(port)).then(|| Rule {
        host: host.to_string(),
        path: path.to_string(),
        service: service.to_string(),
        port: port.to_string(),
        tls,
    })
}

fn backend_value(service: &str, port: &str) -> Value {
    let port = match port.parse::<i64>() {
        Ok(number) => json!({"number": number}),
        Err(_) => json!({"name": port}),
    };
    json!({"service": {"name": service, "port": port}})
}

fn rules_value(rules: &[Rule]) -> Value {
    let mut hosts: Vec<(String, Vec<Value>)> = Vec::new();
    for rule in rules {
        let (path, path_type) = match rule.path.strip_suffix('*') {
            Some(prefix) => (prefix.to_string(), "Prefix"),
            None => (rule.path.clone(), "Exact"),
        };
        let entry = json!({"backend": backend_value(&rule.service, &rule.port), "path": path, "pathType": path_type});
        match hosts.iter_mut().find(|(host, _)| *host == rule.host) {
            Some((_, paths)) => paths.push(entry),
            None => hosts.push((rule.host.clone(), vec![entry])),
        }
    }
    let values = hosts.into_iter().map(|(host, paths)| {
        let mut rule = json!({"http": {"paths": paths}});
        if !host.is_empty() {
            rule["host"] = json!(host);
        }
        rule
    });
    Value::Array(values.collect())
}

/// The TLS entries: one per secret, with every host whose rule asked for it.
fn tls_value(rules: &[Rule]) -> Vec<Value> {
    let mut entries: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for rule in rules {
        let Some(secret) = &rule.tls else { continue };
        let entry = match entries.iter_mut().position(|(s, _)| s == secret) {
            Some(at) => &mut entries[at].1,
            None => {
                entries.push((secret.clone(), Vec::new()));
                &mut entries.last_mut().expect("just pushed").1
            }
        };
        if !rule.host.is_empty() && !entry.contains(&rule.host) {
            entry.push(rule.host.clone());
        }
    }
    entries
        .into_iter()
        .map(|(secret, hosts)| {
            let mut value = json!({});
            if !hosts.is_empty() {
                value["hosts"] = json!(hosts);
            }
            if let Some(secret) = secret {
                value["secretName"] = json!(secret);
            }
            value
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn rules_become_paths_grouped_by_host() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(
            &mut sim,
            "create ingress shop --class=nginx --rule=shop.example.com/api*=api:80,tls=shop-tls --rule=shop.example.com/=web:http --dry-run=client -o yaml",
        );
        assert_eq!(
            text,
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: shop\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: shop.example.com\n    http:\n      paths:\n      - backend:\n          service:\n            name: api\n            port:\n              number: 80\n        path: /api\n        pathType: Prefix\n      - backend:\n          service:\n            name: web\n            port:\n              name: http\n        path: /\n        pathType: Exact\n  tls:\n  - hosts:\n    - shop.example.com\n    secretName: shop-tls\nstatus:\n  loadBalancer: {}\n"
        );
        let (text, _) = kubectl(&mut sim, "create ingress bad --rule=nope");
        assert_eq!(
            text,
            "error: rule nope is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]\n"
        );
        let (text, _) = kubectl(&mut sim, "create ingress empty");
        assert!(text.starts_with("error: not enough information provided"), "{text}");
    }
}
