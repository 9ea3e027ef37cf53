//! `kubectl events`: the namespace's events, oldest first, with each one's interval since it
//! was first seen (`5s (x3 over 2m)`) and its object as `Kind/name`; `--for` narrows them to one
//! object, `--types` to Normal or Warning. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/events
//! (events.go and event_printer.go).

use super::age::{human_duration, since_timestamp};
use super::args::{Args, Flag};
use super::output::{DocumentFormat, Output, Table};
use super::{Context, Verb, namespace_of};
use crate::api::{Event, Kind};
use crate::sim::time::SimTime;
use serde_json::json;

pub const VERB: Verb = Verb {
    name: "events",
    short: "List events",
    usage: "kubectl events [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file] [--for TYPE/NAME] [--watch] [--types=Normal,Warning]",
    flags: &[
        Flag::switch(
            "all-namespaces",
            Some('A'),
            "If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.",
        ),
        Flag::value("for", None, "Filter events to only those pertaining to the specified resource."),
        Flag::value("types", None, "Output only events of given types."),
        Flag::switch("no-headers", None, "When using the default output format, don't print headers."),
        Flag::value(
            "output",
            Some('o'),
            "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).",
        ),
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let types: Vec<String> = args.all("types").iter().flat_map(|t| t.split(',')).map(str::to_string).collect();
    if types.iter().any(|t| !t.eq_ignore_ascii_case("Normal") && !t.eq_ignore_ascii_case("Warning")) {
        return Output::failed("error: valid --types are Normal or Warning");
    }
    let target = match args.get("for").filter(|f| !f.is_empty()).map(|f| for_object(ctx, f)).transpose() {
        Ok(target) => target,
        Err(message) => return Output::failed(message),
    };
    let all = args.switch("all-namespaces");
    let namespace = namespace_of(&args);
    let store = ctx.sim.store();
    let mut events: Vec<&Event> = store
        .list::<Event>((!all).then_some(namespace.as_str()))
        .filter(|e| types.is_empty() || types.iter().any(|t| e.type_.as_deref().is_some_and(|x| x == t)))
        .filter(|e| target.as_ref().is_none_or(|(kind, name)| concerns(e, *kind, name)))
        .collect();
    if events.is_empty() {
        let mut out = Output::default();
        out.warn(if all {
            "No events found.".to_string()
        } else {
            format!("No events found in {namespace} namespace.")
        });
        return out;
    }
    // `SortableEvents`: by when each was last seen; the sort is not stable upstream, but
    // events seen in the same instant keep the store's order here.
    events.sort_by_key(|e| last_seen(e));
    let now = ctx.sim.now();
    print(&events, now, &args, all)
}

/// `decodeResourceTypeName`: `TYPE/NAME` mapped to a served kind.
fn for_object(ctx: &Context<'_>, text: &str) -> Result<(Kind, String), String> {
    let Some((resource, name)) = text.split_once('/') else {
        return Err("error: --for must be in resource/name form".into());
    };
    if name.contains('/') {
        return Err("error: arguments in resource/name form may not have more than one slash".into());
    }
    let kind = super::resource_args::kind_of(ctx.sim.store(), &resource.to_lowercase())
        .map_err(|_| format!("error: the server doesn't have a resource type \"{}\"", resource.to_lowercase()))?;
    Ok((kind, name.to_string()))
}

/// The field selector `--for` sends: the object's kind, apiVersion and name.
fn concerns(event: &Event, kind: Kind, name: &str) -> bool {
    let object = &event.involved_object;
    let info = kind.info();
    object.kind.as_deref() == Some(info.kind_name)
        && object.api_version.as_deref() == Some(info.api_version().as_str())
        && object.name.as_deref() == Some(name)
}

/// `eventTime`: the last timestamp, else the event time.
fn last_seen(event: &Event) -> SimTime {
    event.last_timestamp.or(event.event_time).map_or(SimTime(0), |t| t.0)
}

fn print(events: &[&Event], now: SimTime, args: &Args, all: bool) -> Output {
    let mut out = Output::default();
    match args.get("output").unwrap_or("") {
        "" => {}
        "yaml" | "json" => {
            let format = if args.get("output") == Some("yaml") { DocumentFormat::Yaml } else { DocumentFormat::Json };
            let items: Vec<_> = events.iter().map(|e| crate::api::codec::to_json_value(*e)).collect();
            let list = json!({"apiVersion": "v1", "items": items, "kind": "EventList", "metadata": {}});
            out.document(list, format);
            return out;
        }
        "name" => {
            for event in events {
                out.line(format!("event/{}", event.metadata.name));
            }
            return out;
        }
        other => return Output::failed(format!("error: output format {other:?} is not available here")),
    }
    let mut headers: Vec<String> = ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"].map(String::from).to_vec();
    if all {
        headers.insert(0, "NAMESPACE".into());
    }
    let rows = events.iter().map(|e| row(e, now, all)).collect();
    super::get::emit_table(&mut out, Table { headers, rows }, args.switch("no-headers"));
    out
}

/// `printOneEvent`.
fn row(event: &Event, now: SimTime, all: bool) -> Vec<String> {
    let object = &event.involved_object;
    let mut cells = vec![
        interval(event, now),
        event.type_.clone().unwrap_or_default(),
        event.reason.clone().unwrap_or_default(),
        format!("{}/{}", object.kind.as_deref().unwrap_or_default(), object.name.as_deref().unwrap_or_default()),
        event.message.as_deref().unwrap_or_default().trim().to_string(),
    ];
    if all {
        cells.insert(0, event.metadata.namespace.clone());
    }
    cells
}

/// `getInterval`: since the event was first seen, and for a repeated one since it was last.
fn interval(event: &Event, now: SimTime) -> String {
    let since =
        |t: Option<crate::api::meta::Time>| t.map_or("<unknown>".into(), |t| human_duration(since_timestamp(t.0, now)));
    let first = match event.event_time {
        Some(time) => human_duration(now.since(time.0)),
        None => since(event.first_timestamp),
    };
    match event.count.unwrap_or(0) {
        count if count > 1 => format!("{} (x{count} over {first})", since(event.last_timestamp)),
        _ => first,
    }
}
