//! `kubectl get`: tables (`-o wide`), documents (`-o yaml|json`) and names (`-o name`) for one
//! or several kinds, by name or by selector, in a namespace or across all (`-A`).

use super::args::{Args, Flag};
use super::custom_columns::Columns;
use super::jsonpath::Template;
use super::output::{DocumentFormat, Output, Table};
use super::resource_args::{self, ResourceRequest};
use super::watch::Watch;
use super::{Context, Verb, managed_fields, namespace_of, printers, sort_by};
use crate::api::labels::Selector;
use crate::api::{Kind, Object};
use crate::store::FieldSelector;
use serde_json::{Value, json};

pub const VERB: Verb = Verb {
    name: "get",
    short: "Display one or many resources",
    usage: "kubectl get [(-o|--output=)json|yaml|name|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags] [options]",
    flags: &[
        Flag::value(
            "output",
            Some('o'),
            "Output format. One of: (json, yaml, name, wide, jsonpath=..., custom-columns=...).",
        ),
        Flag::value(
            "selector",
            Some('l'),
            "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.",
        ),
        Flag::value("field-selector", None, "Selector (field query) to filter on, supports '=', '==', and '!='."),
        Flag::switch("all-namespaces", Some('A'), "If present, list the requested object(s) across all namespaces."),
        Flag::value(
            "sort-by",
            None,
            "If non-empty, sort list types using this field specification. The field specification is expressed as a JSONPath expression (e.g. '{.metadata.name}').",
        ),
        Flag::repeated(
            "label-columns",
            Some('L'),
            "Accepts a comma separated list of labels that are going to be presented as columns. Names are case-sensitive. You can also use multiple flag options like -L label1 -L label2...",
        ),
        Flag::switch(
            "show-labels",
            None,
            "When printing, show all labels as the last column (default hide labels column)",
        ),
        Flag::switch(
            "no-headers",
            None,
            "When using the default or custom-column output format, don't print headers (default print headers).",
        ),
        managed_fields::SHOW_MANAGED_FIELDS,
        Flag::switch("watch", Some('w'), "After listing/getting the requested object, watch for changes."),
        Flag::switch(
            "watch-only",
            None,
            "Watch for changes to the requested object(s), without listing/getting first.",
        ),
        Flag::value("raw", None, super::get_raw::HELP),
    ],
    run,
};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Format {
    Table { wide: bool },
    Document(DocumentFormat),
    Name,
    JsonPath(Template),
    CustomColumns(Columns),
}

fn output_format(args: &Args) -> Result<Format, String> {
    Ok(match args.get("output").unwrap_or("") {
        "" => Format::Table { wide: false },
        "wide" => Format::Table { wide: true },
        "yaml" => Format::Document(DocumentFormat::Yaml),
        "json" => Format::Document(DocumentFormat::Json),
        "name" => Format::Name,
        "jsonpath" | "custom-columns" => {
            return Err("error: template format specified but no template given".into());
        }
        other if other.starts_with("jsonpath=") => {
            let text = &other["jsonpath=".len()..];
            let template = Template::parse(text).map_err(|e| format!("error: error parsing jsonpath {text}, {e}"))?;
            Format::JsonPath(template)
        }
        other if other.starts_with("custom-columns=") => {
            Format::CustomColumns(Columns::parse(&other["custom-columns=".len()..])?)
        }
        other => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{other}\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml"
            ));
        }
    })
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    if let Some(raw) = args.get("raw").filter(|raw| !raw.is_empty()) {
        let raw = raw.to_string();
        return super::get_raw::run(ctx, &args, &raw);
    }
    if watching(&args) {
        if let Err(message) = watch_of(ctx.sim.store(), &args) {
            return Output::failed(message);
        }
        if args.switch("watch-only") {
            return Output::default();
        }
    }
    match collect(ctx, &args) {
        Ok((mut objects, mut out, request, format)) => {
            if let Err(message) = sort(&mut objects, &args) {
                // A server-printed table's sorter that finds the field on no row keeps no rows
                // (kubectl then says there are no resources); the other printers refuse.
                if !matches!(format, Format::Table { .. }) {
                    out.error(message);
                    return out;
                }
                objects.clear();
            }
            print(&mut out, ctx, &args, &objects, &request, format);
            out
        }
        Err(message) => Output::failed(message),
    }
}

fn watching(args: &Args) -> bool {
    args.switch("watch") || args.switch("watch-only")
}

/// The stream `--watch` / `--watch-only` asks for (not yet open), or `None` without them.
pub(super) fn watch_of(store: &crate::store::Store, args: &Args) -> Result<Option<Watch>, String> {
    if !watching(args) {
        return Ok(None);
    }
    let request = resource_args::parse(store, &args.positionals)?;
    let mut kinds: Vec<Kind> = request.kinds.clone();
    kinds.extend(request.named.iter().map(|(kind, _)| *kind));
    kinds.dedup();
    let [kind] = kinds.as_slice() else {
        return Err("error: you may only specify a single resource type".into());
    };
    let mut watch = Watch::new(*kind, output_format(args)?);
    watch.all_namespaces = args.switch("all-namespaces");
    watch.namespace = (!watch.all_namespaces).then(|| namespace_of(args));
    watch.names = request.named.iter().map(|(_, name)| name.clone()).collect();
    watch.labels = Selector::parse(args.get("selector").unwrap_or("")).map_err(|e| format!("error: {e}"))?;
    watch.fields =
        FieldSelector::parse(args.get("field-selector").unwrap_or(""), *kind).map_err(|e| format!("error: {e}"))?;
    watch.label_columns = Labels::of(args);
    watch.header_pending = args.switch("watch-only");
    watch.show_managed_fields = args.switch("show-managed-fields");
    Ok(Some(watch))
}

/// `--sort-by`: objects ordered by one field before printing.
fn sort(objects: &mut Vec<Object>, args: &Args) -> Result<(), String> {
    match args.get("sort-by").filter(|f| !f.is_empty()) {
        Some(field) => sort_by::sort_objects(objects, &sort_by::SortField::parse(field)?),
        None => Ok(()),
    }
}

type Collected = (Vec<Object>, Output, ResourceRequest, Format);

fn collect(ctx: &Context<'_>, args: &Args) -> Result<Collected, String> {
    let request = resource_args::parse(ctx.sim.store(), &args.positionals)?;
    let format = output_format(args)?;
    // kubectl sends the selectors as they are; the API server is the one that refuses them.
    let labels = Selector::parse(args.get("selector").unwrap_or(""));
    let all_namespaces = args.switch("all-namespaces");
    let namespace = namespace_of(args);
    let scope = (!all_namespaces).then_some(namespace.as_str());
    let api = ctx.reader();
    let mut out = Output::default();
    let mut objects = Vec::new();
    if !request.named.is_empty() {
        for (kind, name) in &request.named {
            match api.get(*kind, &namespace, name) {
                Ok(object) => objects.push(object),
                Err(err) => out.error(err.to_string()),
            }
        }
        return Ok((objects, out, request, format));
    }
    for kind in &request.kinds {
        let unable = |e: String| {
            let (labels, fields) = (args.get("selector").unwrap_or(""), args.get("field-selector").unwrap_or(""));
            unable_to_find(*kind, (labels, fields), &e)
        };
        let labels = labels.clone().map_err(|e| unable(e.to_string()))?;
        let fields = FieldSelector::parse(args.get("field-selector").unwrap_or(""), *kind).map_err(unable)?;
        match api.list(*kind, scope, &labels, &fields) {
            Ok(list) => objects.extend(list.items),
            Err(err) => out.error(err.to_string()),
        }
    }
    Ok((objects, out, request, format))
}

/// The builder's Selector visitor rewording the API server's refusal of a selector
/// (cli-runtime's resource/selector.go).
pub fn unable_to_find(kind: Kind, (labels, fields): (&str, &str), reason: &str) -> String {
    let resource = resource_id(kind);
    format!(
        "Error from server (BadRequest): Unable to find \"{resource}\" that match label selector \"{labels}\", field selector \"{fields}\": {reason}"
    )
}

fn resource_id(kind: Kind) -> String {
    let info = kind.info();
    format!("{}/{}, Resource={}", info.group, info.version, info.plural)
}

fn print(
    out: &mut Output,
    ctx: &Context<'_>,
    args: &Args,
    objects: &[Object],
    request: &ResourceRequest,
    format: Format,
) {
    let all_namespaces = args.switch("all-namespaces");
    if objects.is_empty() {
        if out.items.is_empty() && request.named.is_empty() {
            // Any cluster-scoped kind among those asked for drops the namespace (`get pv,pvc`).
            let message = if all_namespaces || request.kinds.iter().any(|k| !k.info().namespaced) {
                "No resources found".to_string()
            } else {
                format!("No resources found in {} namespace.", namespace_of(args))
            };
            out.warn(message);
        }
        return;
    }
    match format {
        Format::Name => {
            for object in objects {
                out.line(format!("{}/{}", object.kind().info().singular_qualified(), object.metadata().name));
            }
        }
        Format::Document(doc_format) => {
            let document = document(objects, request);
            let shown = if args.switch("show-managed-fields") { document } else { managed_fields::omit(document) };
            out.document(shown, doc_format)
        }
        Format::JsonPath(template) => out.raw(template.execute(&document(objects, request))),
        Format::CustomColumns(columns) => emit_table(out, columns.table(objects), args.switch("no-headers")),
        Format::Table { wide } => {
            let qualify = request.kinds.len() > 1;
            let now = ctx.sim.now();
            for (i, kind) in request.kinds.iter().enumerate() {
                let group: Vec<&Object> = objects.iter().filter(|o| o.kind() == *kind).collect();
                if group.is_empty() {
                    continue;
                }
                if i > 0 && qualify && !out.items.is_empty() {
                    out.line("");
                }
                let mut table = table_for(*kind, &group, now, wide, qualify, all_namespaces);
                Labels::of(args).add_columns(&mut table, &group);
                emit_table(out, table, args.switch("no-headers"));
            }
        }
    }
}

/// A table, or with `--no-headers` its rows alone, aligned among themselves (kubectl's
/// tabwriter never sees the header row).
pub(super) fn emit_table(out: &mut Output, mut table: Table, no_headers: bool) {
    if !no_headers {
        return out.table(table);
    }
    table.headers.iter_mut().for_each(String::clear);
    let text = super::render::render_table(&table);
    out.raw(text.split_once('\n').map_or(String::new(), |(_, rest)| rest.to_string()));
}

/// The label columns a table gets: one per `-L` key (headed by the key's last segment, upper
/// case, empty where an object lacks it), then with `--show-labels` a LABELS column of every
/// `k=v` pair in key order (`<none>` when there are none), as cli-runtime's decorateTable adds them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Labels {
    keys: Vec<String>,
    show_all: bool,
}

impl Labels {
    pub(super) fn of(args: &super::args::Args) -> Labels {
        let keys = args.all("label-columns").iter().flat_map(|v| v.split(',')).filter(|k| !k.is_empty());
        Labels { keys: keys.map(str::to_string).collect(), show_all: args.switch("show-labels") }
    }

    pub(super) fn add_columns(&self, table: &mut Table, objects: &[&Object]) {
        for key in &self.keys {
            table.headers.push(key.rsplit('/').next().unwrap_or(key).to_uppercase());
        }
        if self.show_all {
            table.headers.push("LABELS".into());
        }
        for (row, object) in table.rows.iter_mut().zip(objects) {
            let labels = &object.metadata().labels;
            row.extend(self.keys.iter().map(|key| labels.get(key).unwrap_or_default().to_string()));
            if self.show_all {
                let text: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
                row.push(if text.is_empty() { "<none>".into() } else { text.join(",") });
            }
        }
    }
}

pub(super) fn table_for(
    kind: Kind,
    objects: &[&Object],
    now: crate::sim::time::SimTime,
    wide: bool,
    qualify: bool,
    all_namespaces: bool,
) -> Table {
    let show_namespace = all_namespaces && kind.info().namespaced;
    let mut headers = printers::headers(kind, wide);
    if show_namespace {
        headers.insert(0, "NAMESPACE".into());
    }
    let rows = objects
        .iter()
        .map(|object| {
            let name = &object.metadata().name;
            let shown = if qualify { format!("{}/{name}", kind.info().singular_qualified()) } else { name.clone() };
            let mut row = printers::row(object, shown, now, wide);
            if kind == Kind::Event {
                // Events list without a NAME column.
                row = printers::row(object, String::new(), now, wide);
            }
            if show_namespace {
                row.insert(0, object.metadata().namespace.clone());
            }
            row
        })
        .collect();
    Table { headers, rows }
}

/// What `-o yaml|json|jsonpath` prints: the object when one was named, else a `List`.
fn document(objects: &[Object], request: &ResourceRequest) -> Value {
    let single = request.named.len() == 1 && objects.len() == 1;
    if single { objects[0].to_json_value() } else { list_of(objects) }
}

/// Several objects as kubectl prints them: a `v1` `List`.
pub fn list_of(objects: &[Object]) -> Value {
    let items: Vec<Value> = objects.iter().map(Object::to_json_value).collect();
    json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}})
}
