//! `kubectl explain KIND[.field.path] [--recursive]`: a kind's or field's type, description and
//! fields, from a hand-written schema (`fields.yaml`) in place of the server's OpenAPI.
//! Mirrors staging/src/k8s.io/kubectl/pkg/explain/v2 (the plaintext template's layout).

use super::args::{Args, Flag};
use super::output::Output;
use super::resource_args::unknown_type;
use super::{Context, Verb};
use crate::kubectl::UsageError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

pub const VERB: Verb = Verb {
    name: "explain",
    short: "Get documentation for a resource",
    usage: "kubectl explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [options]",
    flags: &[
        Flag::switch(
            "recursive",
            None,
            "When true, print the name of all the fields recursively. Otherwise, print the available fields with their description.",
        ),
        Flag::value("api-version", None, "Use given api-version (group/version) of the resource."),
    ],
    run,
};

/// How deep `--recursive` descends (the schema has no cycles; this bounds it anyway).
const MAX_DEPTH: usize = 12;
/// kubectl wraps descriptions to this width.
const WRAP_COLUMNS: usize = 80;

#[derive(Debug, Deserialize)]
pub(crate) struct Schema {
    pub(crate) kinds: BTreeMap<String, String>,
    pub(crate) types: BTreeMap<String, TypeDef>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TypeDef {
    pub(crate) description: String,
    #[serde(default)]
    pub(crate) fields: Vec<FieldDef>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FieldDef {
    pub(crate) name: String,
    #[serde(rename = "type")]
    pub(crate) type_: String,
    #[serde(default)]
    pub(crate) required: bool,
    #[serde(default, rename = "enum")]
    pub(crate) enum_: Vec<String>,
    pub(crate) description: String,
}

pub(crate) fn schema() -> Result<&'static Schema, String> {
    static SCHEMA: OnceLock<Result<Schema, String>> = OnceLock::new();
    let parsed = SCHEMA.get_or_init(|| serde_yaml::from_str(include_str!("fields.yaml")).map_err(|e| e.to_string()));
    parsed.as_ref().map_err(|e| format!("error: explain schema: {e}"))
}

/// The schema type a field's type names (`[]Container` → `Container`), if it has one.
fn element_type(type_: &str) -> &str {
    type_.trim_start_matches("[]").trim_start_matches("map[string]")
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    match explain(ctx.sim.store(), &args) {
        Ok(text) => {
            let mut out = Output::default();
            out.line(text);
            out
        }
        Err(message) => match message.split_once(HEADER_END) {
            // A field that does not exist: kubectl has printed the kind's header already.
            Some((header, error)) => {
                let mut out = Output::default();
                out.raw(header.to_string());
                out.error(error.to_string());
                out
            }
            None => Output::failed(message),
        },
    }
}

/// Where a refusal's already-printed header ends (the template prints GROUP/KIND/VERSION
/// before it finds that a field does not exist).
const HEADER_END: char = '\u{0}';

fn explain(store: &crate::store::Store, args: &Args) -> Result<String, String> {
    let Some(target) = args.positionals.first() else {
        return Err("error: You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.".into());
    };
    if args.positionals.len() > 1 {
        return Err(UsageError::command("We accept only this format: explain RESOURCE").render("explain"));
    }
    let mut path = target.split('.');
    let resource = path.next().unwrap_or_default();
    let kind = super::resource_args::kind_of(store, resource)?;
    let schema = schema()?;
    let info = kind.info();
    let mut text = String::new();
    if !info.group.is_empty() {
        text.push_str(&format!("GROUP:      {}\n", info.group));
    }
    text.push_str(&format!("KIND:       {}\nVERSION:    {}\n\n", info.kind_name, info.version));
    let mut type_name = schema.kinds.get(info.kind_name).ok_or_else(|| unknown_type(resource))?.clone();
    let mut field: Option<&FieldDef> = None;
    for segment in path {
        let fields = schema.types.get(element_type(&type_name)).map_or(&[][..], |t| t.fields.as_slice());
        let found = fields
            .iter()
            .find(|f| f.name == segment)
            .ok_or_else(|| format!("{text}{HEADER_END}error: field {segment:?} does not exist"))?;
        type_name = found.type_.clone();
        field = Some(found);
    }
    let type_description = schema.types.get(element_type(&type_name)).map(|t| t.description.clone());
    let description = match field {
        Some(field) => {
            // plaintext.tmpl: the FIELD line, its enum (which ends its own line), then a blank
            // line, two when there is no enum.
            let gap = if field.enum_.is_empty() { "\n\n" } else { "\n" };
            text.push_str(&format!("FIELD: {} <{}>\n{}{gap}", field.name, field.type_, enum_section(field)));
            // The field's own description, then its type's (the schema it refers to).
            [Some(field.description.clone()), type_description].into_iter().flatten().collect::<Vec<_>>()
        }
        None => type_description.into_iter().collect(),
    };
    text.push_str("DESCRIPTION:\n");
    for paragraph in description.iter().filter(|d| !d.is_empty()) {
        text.push_str(&wrap(paragraph, 4));
    }
    let Some(type_def) = schema.types.get(element_type(&type_name)).filter(|t| !t.fields.is_empty()) else {
        // No FIELDS: the template's indented empty line and its last line break end it.
        return Ok(format!("{}\n    \n", text.trim_end()));
    };
    {
        // plaintext.tmpl indents after the description's last line break: a line of 4 spaces.
        text.push_str("    \nFIELDS:\n");
        if args.switch("recursive") {
            recursive(schema, type_def, 1, &mut text);
        } else {
            for field in &type_def.fields {
                text.push_str(&field_header(field, 1));
                text.push_str(&wrap(&field.description, 4));
                text.push('\n');
            }
        }
    }
    // After the last field, the template's two line breaks.
    Ok(format!("{}\n\n", text.trim_end()))
}

/// `  name\t<type> -required-` at `level` (two spaces each).
fn field_header(field: &FieldDef, level: usize) -> String {
    let indent = "  ".repeat(level);
    let required = if field.required { " -required-" } else { "" };
    format!("{indent}{}\t<{}>{required}\n{}", field.name, field.type_, enum_line(field, &indent))
}

/// `enum: A, B` under a field with fixed values, in a field list.
fn enum_line(field: &FieldDef, indent: &str) -> String {
    if field.enum_.is_empty() {
        return String::new();
    }
    format!("{indent}enum: {}\n", field.enum_.join(", "))
}

/// `ENUM:` and one value a line, under `FIELD:` when explaining one field.
fn enum_section(field: &FieldDef) -> String {
    if field.enum_.is_empty() {
        return String::new();
    }
    let values: String = field.enum_.iter().map(|v| format!("    {v}\n")).collect();
    format!("ENUM:\n{values}")
}

fn recursive(schema: &Schema, type_def: &TypeDef, level: usize, text: &mut String) {
    if level > MAX_DEPTH {
        return;
    }
    for field in &type_def.fields {
        let indent = "  ".repeat(level);
        text.push_str(&format!(
            "{indent}{}\t<{}>{}\n",
            field.name,
            field.type_,
            if field.required { " -required-" } else { "" }
        ));
        if let Some(nested) = schema.types.get(element_type(&field.type_)) {
            recursive(schema, nested, level + 1, text);
        }
    }
}

/// Words wrapped to kubectl's width, every line indented by `indent` spaces.
fn wrap(text: &str, indent: usize) -> String {
    let width = WRAP_COLUMNS - indent;
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&format!("{}{line}\n", " ".repeat(indent)));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{}{line}\n", " ".repeat(indent)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{lab, run};
    use super::*;

    #[test]
    fn the_schema_parses_and_every_type_it_names_exists() {
        let schema = schema().unwrap();
        let builtin = ["string", "integer", "boolean", "Object", "Quantity", "IntOrString"];
        for (name, type_def) in &schema.types {
            for field in &type_def.fields {
                let element = element_type(&field.type_);
                assert!(
                    builtin.contains(&element) || schema.types.contains_key(element),
                    "{name}.{}: {element}",
                    field.name
                );
            }
        }
        for info in crate::api::RESOURCES {
            assert!(schema.kinds.contains_key(info.kind_name), "{}", info.kind_name);
        }
    }

    #[test]
    fn kinds_fields_and_mistakes() {
        let mut sim = lab("");
        let text = run(&mut sim, "kubectl explain deploy");
        assert!(
            text.starts_with(
                "GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nDESCRIPTION:\n    A Deployment keeps"
            ),
            "{text}"
        );
        assert!(text.contains("\nFIELDS:\n  apiVersion\t<string>\n    The versioned schema"), "{text}");
        let text = run(&mut sim, "kubectl explain deployment.spec.replicas");
        assert_eq!(
            text,
            "GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: replicas <integer>\n\n\nDESCRIPTION:\n    How many pods to run. Defaults to 1.\n    \n\n"
        );
        let text = run(&mut sim, "kubectl explain pods.spec.containers");
        assert!(text.starts_with("KIND:       Pod\nVERSION:    v1\n\nFIELD: containers <[]Container>\n"), "{text}");
        assert!(text.contains("  name\t<string> -required-\n"), "{text}");
        let text = run(&mut sim, "kubectl explain svc.spec");
        assert!(
            text.contains(
                "  type\t<string>\n  enum: ClusterIP, ExternalName, LoadBalancer, NodePort\n    How the Service"
            ),
            "{text}"
        );
        let text = run(&mut sim, "kubectl explain deploy.spec --recursive");
        assert!(text.contains("\n  strategy\t<DeploymentStrategy>\n    rollingUpdate\t<RollingUpdateDeployment>\n      maxSurge\t<IntOrString>\n"), "{text}");
        let text = run(&mut sim, "kubectl explain svc.spec.type");
        assert!(text.contains("FIELD: type <string>\nENUM:\n    ClusterIP\n    ExternalName\n"), "{text}");
        assert_eq!(
            run(&mut sim, "kubectl explain deploy.spec.replica"),
            "GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nerror: field \"replica\" does not exist\n"
        );
        assert_eq!(run(&mut sim, "kubectl explain foo"), "error: the server doesn't have a resource type \"foo\"\n");
    }
}
