//! `--dry-run` and `-o yaml|json|name` for the verbs that write: how an object they made or
//! changed is sent (or not) and printed. Mirrors cmdutil.GetDryRunStrategy and
//! genericclioptions.PrintFlags (the name printer's `OPERATION (dry run)` suffixes).

use super::Context;
use super::args::{Args, Flag};
use super::output::{DocumentFormat, Output};
use crate::api::codec::{self, DecodeError};
use crate::api::{Kind, Object};
use crate::error::ApiError;
use serde_json::Value;

pub const DRY_RUN: Flag = Flag::value(
    "dry-run",
    None,
    "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource.",
);
pub const OUTPUT: Flag = Flag::value("output", Some('o'), "Output format. One of: (json, yaml, name).");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DryRun {
    None,
    Client,
    Server,
}

impl DryRun {
    /// The name printer's suffix: ` (dry run)`, ` (server dry run)` or nothing.
    pub fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Client => " (dry run)",
            DryRun::Server => " (server dry run)",
        }
    }
}

/// How the object is printed: the name printer with an operation, or a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printer {
    Operation,
    Name,
    Document(DocumentFormat),
}

/// `--dry-run` and `-o`, checked as kubectl checks them.
pub fn parse(args: &Args) -> Result<(DryRun, Printer), String> {
    let dry_run = match args.get("dry-run").unwrap_or("none") {
        "none" | "false" => DryRun::None,
        "client" | "true" => DryRun::Client,
        "server" => DryRun::Server,
        other => {
            return Err(format!(
                "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
            ));
        }
    };
    let printer = match args.get("output") {
        None | Some("") => Printer::Operation,
        Some("name") => Printer::Name,
        Some("yaml") => Printer::Document(DocumentFormat::Yaml),
        Some("json") => Printer::Document(DocumentFormat::Json),
        Some(other) => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{other}\", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml"
            ));
        }
    };
    Ok((dry_run, printer))
}

/// Prints one object the way the chosen printer does: `deployment.apps/hello created (dry run)`,
/// `deployment.apps/hello`, or the whole object.
/// Documents leave managedFields out, as kubectl's printers do by default (these verbs do not
/// offer `--show-managed-fields` here).
pub fn print(out: &mut Output, printer: Printer, dry_run: DryRun, object: &Value, operation: &str) {
    let document = || super::managed_fields::omit(object.clone());
    let kind = codec::kind_of(object).ok();
    let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let resource = kind.map_or(String::new(), |k| k.info().singular_qualified());
    match printer {
        Printer::Operation => out.line(format!("{resource}/{name} {operation}{}", dry_run.suffix())),
        Printer::Name => out.line(format!("{resource}/{name}")),
        Printer::Document(DocumentFormat::Yaml) => out.document(document(), DocumentFormat::Yaml),
        Printer::Document(DocumentFormat::Json) if dry_run == DryRun::Client => out.line(go_struct_json(object)),
        Printer::Document(DocumentFormat::Json) => out.document(document(), DocumentFormat::Json),
    }
}

/// How a command words the API server's refusal of its create.
#[derive(Clone, Copy, Debug)]
pub enum Refusal<'a> {
    /// As the API server's (`Error from server (AlreadyExists): …`).
    Server,
    /// A generator's typed client: `error: <prefix><the API server's message>`
    /// (`error: failed to create deployment: deployments.apps "x" already exists`).
    Prefixed(&'a str),
    /// Whatever the server said, this line (upstream's own words).
    Fixed(&'a str),
}

/// Sends a new object (or pretends to) and prints it with `created`. A client dry run prints
/// the object as generated; a server dry run runs admission on a copy of the store.
pub fn create(ctx: &mut Context<'_>, args: &Args, generated: Value, refusal: Refusal<'_>) -> Output {
    create_as(ctx, args, generated, ("created", refusal))
}

/// `create`, printing another operation (`exposed`).
pub fn create_as(
    ctx: &mut Context<'_>,
    args: &Args,
    generated: Value,
    (operation, refusal): (&str, Refusal<'_>),
) -> Output {
    let (dry_run, printer) = match parse(args) {
        Ok(parsed) => parsed,
        Err(message) => return Output::failed(message),
    };
    let mut out = Output::default();
    if dry_run == DryRun::Client {
        print(&mut out, printer, dry_run, &generated, operation);
        return out;
    }
    let object = match codec::decode(generated) {
        Ok(object) => object,
        Err(err) => return Output::failed(decode_error(&err)),
    };
    match create_object(ctx, object, dry_run) {
        Ok(created) => print(&mut out, printer, dry_run, &created.to_json_value(), operation),
        Err(err) => match refusal {
            Refusal::Server => out.error(server_error(&err)),
            Refusal::Prefixed(prefix) => out.error(format!("error: {prefix}{}", err.message())),
            Refusal::Fixed(line) => out.error(line.to_string()),
        },
    }
    out
}

/// Creates an object, or on a server dry run creates it in a copy of the store only.
pub fn create_object(ctx: &mut Context<'_>, object: Object, dry_run: DryRun) -> Result<Object, ApiError> {
    ctx.api().dry_run(dry_run == DryRun::Server).create(object)
}

/// The API server's refusal as kubectl prints it (`Error from server (AlreadyExists): …`);
/// invalid objects print bare (`The Deployment "x" is invalid: …`).
pub fn server_error(err: &ApiError) -> String {
    err.to_string()
}

pub fn decode_error(err: &DecodeError) -> String {
    format!("error: {err}")
}

/// `deployment.apps/hello`: how the name printer names an object.
pub fn resource_name(kind: Kind, name: &str) -> String {
    format!("{}/{name}", kind.info().singular_qualified())
}

/// JSON as kubectl prints a typed object it built itself (`create … --dry-run=client -o json`):
/// fields in the Go structs' order, map keys (labels, data, selectors) sorted.
pub fn go_struct_json(value: &Value) -> String {
    let mut text = String::new();
    write_json(&mut text, value, 0, false);
    text
}

/// Where each field sits in its Go struct; one list serves every kind these verbs generate.
const FIELD_ORDER: &[&str] = &[
    "kind",
    "apiVersion",
    "metadata",
    "name",
    "generateName",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "labels",
    "annotations",
    "ownerReferences",
    "immutable",
    "data",
    "binaryData",
    "stringData",
    "spec",
    "replicas",
    "volumes",
    "containers",
    "image",
    "command",
    "args",
    "workingDir",
    "ports",
    "containerPort",
    "protocol",
    "port",
    "targetPort",
    "nodePort",
    "env",
    "value",
    "resources",
    "selector",
    "matchLabels",
    "template",
    "strategy",
    "restartPolicy",
    "dnsPolicy",
    "clusterIP",
    "type",
    "finalizers",
    "status",
    "loadBalancer",
];

/// Fields whose value is a Go map (printed with sorted keys).
const MAP_FIELDS: &[&str] = &["labels", "annotations", "data", "binaryData", "stringData", "matchLabels", "selector"];

fn write_json(text: &mut String, value: &Value, depth: usize, is_map: bool) {
    let indent = |d: usize| "    ".repeat(d);
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut keys: Vec<&String> = map.keys().collect();
            if !is_map {
                keys.sort_by_key(|k| FIELD_ORDER.iter().position(|f| f == k).unwrap_or(usize::MAX));
            }
            text.push_str("{\n");
            for (i, key) in keys.iter().enumerate() {
                text.push_str(&format!("{}{}: ", indent(depth + 1), Value::String((*key).clone())));
                let child_is_map = MAP_FIELDS.contains(&key.as_str()) && !is_map;
                write_json(text, &map[*key], depth + 1, child_is_map);
                text.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
            }
            text.push_str(&format!("{}}}", indent(depth)));
        }
        Value::Array(items) if !items.is_empty() => {
            text.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                text.push_str(&indent(depth + 1));
                write_json(text, item, depth + 1, false);
                text.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            text.push_str(&format!("{}]", indent(depth)));
        }
        other => text.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn generated_json_keeps_go_field_order_and_sorts_maps() {
        let value = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "creationTimestamp": null},
            "data": {"name": "x", "a": "1"}});
        assert_eq!(
            go_struct_json(&value),
            "{\n    \"kind\": \"ConfigMap\",\n    \"apiVersion\": \"v1\",\n    \"metadata\": {\n        \"name\": \"c\",\n        \"creationTimestamp\": null\n    },\n    \"data\": {\n        \"a\": \"1\",\n        \"name\": \"x\"\n    }\n}"
        );
    }

    #[test]
    fn dry_run_and_output_values_are_checked() {
        let flags = &[DRY_RUN, OUTPUT];
        let parsed = |line: &str| {
            let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
            parse(&crate::kubectl::args::parse(&argv, flags).unwrap())
        };
        assert_eq!(parsed("--dry-run=client -o yaml"), Ok((DryRun::Client, Printer::Document(DocumentFormat::Yaml))));
        assert_eq!(
            parsed("--dry-run=maybe").unwrap_err(),
            "error: Invalid dry-run value (maybe). Must be \"none\", \"server\", or \"client\"."
        );
        assert!(parsed("-o wide").unwrap_err().contains("\"wide\""));
    }
}
