//! `kubectl describe`: one readable page per object, with its recent Events. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go (the verb) and
//! staging/src/k8s.io/kubectl/pkg/describe/describe.go (the describers and their layout).

mod config;
mod daemon_set;
pub use daemon_set::format_labels;
mod containers;
mod deployment;
mod events;
mod generic;
mod horizontal_pod_autoscaler;
mod ingress;
mod job;
mod namespace;
mod node;
mod pod;
mod pod_disruption_budget;
mod quota;
mod replica_set;
mod service;
mod stateful_set;
mod storage;
pub mod tabwriter;

use super::args::{Args, Flag};
use super::output::Output;
use super::resource_args;
use super::{Context, Verb, namespace_of};
use crate::api::affinity::Toleration;
use crate::api::labels::Selector;
use crate::api::meta::Time;
use crate::api::string_map::StringMap;
use crate::api::{Kind, Object};
use crate::sim::time::{SIM_EPOCH_UNIX_SECONDS, SimTime};
use crate::store::{FieldSelector, Store};

pub const VERB: Verb = Verb {
    name: "describe",
    short: "Show details of a specific resource or group of resources",
    usage: "kubectl describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME) [options]",
    flags: &[
        Flag::value(
            "selector",
            Some('l'),
            "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.",
        ),
        Flag::switch("all-namespaces", Some('A'), "If present, list the requested object(s) across all namespaces."),
        Flag::switch("show-events", None, "If true, display events related to the described object."),
    ],
    run,
};

/// Indentation levels of kubectl's PrefixWriter: two spaces each.
pub const LEVEL_0: usize = 0;
pub const LEVEL_1: usize = 1;
pub const LEVEL_2: usize = 2;
pub const LEVEL_3: usize = 3;

/// kubectl's `PrefixWriter` over a `tabwriter`: text at an indentation level, tab-separated
/// cells aligned when the page is finished.
#[derive(Default)]
pub struct PrefixWriter {
    text: String,
}

impl PrefixWriter {
    /// Writes `text` after `level` two-space indents (`Write(level, format, …)`).
    pub fn write(&mut self, level: usize, text: &str) {
        for _ in 0..level {
            self.text.push_str("  ");
        }
        self.text.push_str(text);
    }

    /// `WriteLine`: the text and a newline, unindented.
    pub fn write_line(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push('\n');
    }

    /// The aligned page (`tabbedString`).
    pub fn finish(self) -> String {
        tabwriter::format(&self.text)
    }
}

/// What every describer reads: the store, the time it is, and whether to list Events.
#[derive(Clone, Copy)]
pub struct Describer<'a> {
    pub store: &'a Store,
    pub now: SimTime,
    pub show_events: bool,
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    if args.positionals.is_empty() {
        return Output::failed(
            "error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.",
        );
    }
    // `--show-events` defaults to true for one object and to false for several, for prefix
    // matching, or when a name was not found (describe.go: `len(infos) > 1 || err != nil`).
    let explicit = args.get("show-events").map(|v| v != "false");
    let describer = Describer { store: ctx.sim.store(), now: ctx.sim.now(), show_events: explicit.unwrap_or(true) };
    match describe_request(&describer, &ctx.reader(), &args, explicit.is_some()) {
        Ok(out) => out,
        Err(message) => Output::failed(message),
    }
}

fn describe_request(
    describer: &Describer<'_>,
    reader: &crate::apiserver::Reader<'_>,
    args: &Args,
    events_set: bool,
) -> Result<Output, String> {
    let request = resource_args::parse(describer.store, &args.positionals)?;
    let selector_text = args.get("selector").unwrap_or("");
    if !request.named.is_empty() && !selector_text.is_empty() {
        return Err("error: name cannot be provided when a selector is specified".into());
    }
    let labels = Selector::parse(selector_text).map_err(|e| format!("error: {e}"))?;
    let namespace = namespace_of(args);
    let all_namespaces = args.switch("all-namespaces");
    let mut out = Output::default();
    let mut objects = Vec::new();
    let mut errors = Vec::new();
    if request.named.is_empty() {
        let scope = (!all_namespaces).then_some(namespace.as_str());
        for kind in &request.kinds {
            objects.extend(describer.store.list_objects(*kind, scope, &labels, &FieldSelector::everything()));
        }
        if objects.is_empty() {
            let message = if all_namespaces {
                "No resources found".to_string()
            } else {
                format!("No resources found in {namespace} namespace.")
            };
            out.warn(message);
        }
    } else {
        for (kind, name) in &request.named {
            match reader.get(*kind, &namespace, name) {
                Ok(object) => objects.push(object),
                Err(err) => errors.push(err.to_string()),
            }
        }
    }
    let several = objects.len() > 1 || !errors.is_empty();
    let describer = Describer { show_events: describer.show_events && (events_set || !several), ..*describer };
    if !request.named.is_empty() {
        objects.iter().for_each(|object| describer_reads(reader, object, describer.show_events));
    }
    let by_prefix = args.positionals.len() == 2 && !args.positionals[0].contains('/');
    if by_prefix && objects.is_empty() && errors.len() == 1 {
        let (kind, prefix) = &request.named[0];
        let matching = describe_matching(&describer, *kind, &namespace, prefix);
        if !matching.is_empty() {
            // DescribeMatchingResources prints each description and then a line break.
            out.raw(matching);
            return Ok(out);
        }
    }
    let pages: Vec<String> = objects.iter().map(|o| describe_object(&describer, o)).collect();
    let text = pages.join("\n\n");
    if !text.is_empty() {
        out.line(text.strip_suffix('\n').unwrap_or(&text));
    }
    for error in errors {
        out.error(error);
    }
    Ok(out)
}

/// What upstream's describer asks the API server for before it prints (each kind's describer
/// fetches its object again, then lists the object's Events by `involvedObject`); the pages
/// are printed from the same store.
fn describer_reads(reader: &crate::apiserver::Reader<'_>, object: &crate::api::Object, show_events: bool) {
    let meta = object.metadata();
    let _ = reader.get(object.kind(), &meta.namespace, &meta.name);
    if !show_events {
        return;
    }
    let involved = format!(
        "involvedObject.name={},involvedObject.namespace={},involvedObject.uid={}",
        meta.name, meta.namespace, meta.uid
    );
    if let Ok(fields) = FieldSelector::parse(&involved, Kind::Event) {
        let _ = reader.list(Kind::Event, Some(&meta.namespace), &Selector::everything(), &fields);
    }
}

/// `DescribeMatchingResources`: `describe pods hello` when no pod is named exactly `hello`
/// describes every pod whose name starts with it.
fn describe_matching(describer: &Describer<'_>, kind: Kind, namespace: &str, prefix: &str) -> String {
    let everything = Selector::everything();
    let objects = describer.store.list_objects(kind, Some(namespace), &everything, &FieldSelector::everything());
    let mut text = String::new();
    for object in objects.iter().filter(|o| o.metadata().name.starts_with(prefix)) {
        text.push_str(&describe_object(describer, object));
        text.push('\n');
    }
    text
}

/// The describer for an object's kind.
fn describe_object(describer: &Describer<'_>, object: &Object) -> String {
    match object {
        Object::Pod(pod) => pod::describe(describer, pod),
        Object::Deployment(d) => deployment::describe(describer, d),
        Object::ReplicaSet(rs) => replica_set::describe(describer, rs),
        Object::DaemonSet(ds) => daemon_set::describe(describer, ds),
        Object::StatefulSet(set) => stateful_set::describe(describer, set),
        Object::Job(job) => job::describe_job(describer, job),
        Object::CronJob(cron_job) => job::describe_cron_job(describer, cron_job),
        Object::Node(node) => node::describe(describer, node),
        Object::Service(svc) => service::describe(describer, svc),
        Object::Ingress(ingress) => ingress::describe(describer, ingress),
        Object::ConfigMap(cm) => config::describe_config_map(describer, cm),
        Object::Secret(secret) => config::describe_secret(secret),
        Object::HorizontalPodAutoscaler(hpa) => horizontal_pod_autoscaler::describe(describer, hpa),
        Object::Namespace(ns) => namespace::describe(describer, ns),
        Object::ResourceQuota(quota) => quota::describe_quota(quota),
        Object::LimitRange(limit_range) => quota::describe_limit_range(limit_range),
        Object::PodDisruptionBudget(pdb) => pod_disruption_budget::describe(describer, pdb),
        Object::PersistentVolumeClaim(claim) => storage::describe_claim(describer, claim),
        Object::PersistentVolume(volume) => storage::describe_volume(describer, volume),
        Object::StorageClass(class) => storage::describe_storage_class(describer, class),
        other => generic::describe(describer, other),
    }
}

/// `printLabelsMultilineWithIndent`: `Title:\tk=v` then one aligned `k=v` per line, sorted.
pub fn labels_multiline(w: &mut PrefixWriter, initial_indent: &str, title: &str, labels: &StringMap) {
    w.write(LEVEL_0, &format!("{initial_indent}{title}:\t"));
    if labels.is_empty() {
        w.write_line("<none>");
        return;
    }
    for (i, (key, value)) in labels.iter().enumerate() {
        if i != 0 {
            w.write(LEVEL_0, &format!("{initial_indent}\t"));
        }
        w.write(LEVEL_0, &format!("{key}={value}\n"));
    }
}

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
const MAX_ANNOTATION_LEN: usize = 140;

/// `printAnnotationsMultiline`: `key: value`, long or multi-line values on their own lines,
/// kubectl's last-applied-configuration left out.
pub fn annotations_multiline(w: &mut PrefixWriter, title: &str, annotations: &StringMap) {
    w.write(LEVEL_0, &format!("{title}:\t"));
    let shown: Vec<(&str, &str)> = annotations.iter().filter(|(k, _)| *k != LAST_APPLIED).collect();
    if shown.is_empty() {
        w.write_line("<none>");
        return;
    }
    for (i, (key, value)) in shown.into_iter().enumerate() {
        if i != 0 {
            w.write(LEVEL_0, "\t");
        }
        let value = value.strip_suffix('\n').unwrap_or(value);
        if value.len() + key.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.write(LEVEL_0, &format!("{key}:\n"));
            for line in value.split('\n') {
                w.write(LEVEL_0, &format!("\t  {}\n", shorten(line, MAX_ANNOTATION_LEN - 2)));
            }
        } else {
            w.write(LEVEL_0, &format!("{key}: {value}\n"));
        }
    }
}

fn shorten(text: &str, max_bytes: usize) -> String {
    if text.len() <= max_bytes {
        return text.to_string();
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// `printTolerationsMultilineWithIndent`: `key=value:Effect op=Exists for 300s`, by key.
pub fn tolerations_multiline(w: &mut PrefixWriter, initial_indent: &str, title: &str, tolerations: &[Toleration]) {
    w.write(LEVEL_0, &format!("{initial_indent}{title}:\t"));
    if tolerations.is_empty() {
        w.write_line("<none>");
        return;
    }
    let mut sorted: Vec<&Toleration> = tolerations.iter().collect();
    sorted.sort_by(|a, b| a.key.as_deref().unwrap_or("").cmp(b.key.as_deref().unwrap_or("")));
    for (i, toleration) in sorted.into_iter().enumerate() {
        if i != 0 {
            w.write(LEVEL_0, &format!("{initial_indent}\t"));
        }
        w.write(LEVEL_0, &format!("{}\n", toleration_text(toleration)));
    }
}

fn toleration_text(toleration: &Toleration) -> String {
    let key = toleration.key.as_deref().unwrap_or("");
    let value = toleration.value.as_deref().unwrap_or("");
    let effect = toleration.effect.as_deref().unwrap_or("");
    let mut text = key.to_string();
    if !value.is_empty() {
        text.push_str(&format!("={value}"));
    }
    if !effect.is_empty() {
        text.push_str(&format!(":{effect}"));
    }
    if toleration.operator.as_deref() == Some("Exists") && value.is_empty() {
        text.push_str(if key.is_empty() && effect.is_empty() { "op=Exists" } else { " op=Exists" });
    }
    if let Some(seconds) = toleration.toleration_seconds {
        text.push_str(&format!(" for {seconds}s"));
    }
    text
}

/// Go's `time.RFC1123Z` (`Wed, 01 Jan 2025 00:00:05 +0000`); Go's zero time when unset.
pub fn rfc1123z(time: Option<Time>) -> String {
    let Some(Time(t)) = time else { return "Mon, 01 Jan 0001 00:00:00 +0000".to_string() };
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let rfc3339 = t.to_rfc3339();
    let field = |range: std::ops::Range<usize>| rfc3339.get(range).unwrap_or("");
    let month: usize = field(5..7).parse().unwrap_or(1);
    let days_since_unix_epoch = (SIM_EPOCH_UNIX_SECONDS + (t.as_millis() / 1000) as i64).div_euclid(86_400);
    let weekday = DAYS[(days_since_unix_epoch + 4).rem_euclid(7) as usize];
    let month_name = MONTHS[month.clamp(1, 12) - 1];
    format!("{weekday}, {} {month_name} {} {} +0000", field(8..10), field(0..4), field(11..19))
}

/// `translateTimestampSince`: how long ago, as kubectl's ages read; `<unknown>` when unset.
pub fn since(time: Option<Time>, now: SimTime) -> String {
    super::age::age(time.map(|t| t.0), now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_go_rfc1123z() {
        assert_eq!(rfc1123z(Some(Time(SimTime(5_000)))), "Wed, 01 Jan 2025 00:00:05 +0000");
        assert_eq!(rfc1123z(Some(Time(SimTime(86_400_000 * 45 + 3_600_000)))), "Sat, 15 Feb 2025 01:00:00 +0000");
        assert_eq!(rfc1123z(None), "Mon, 01 Jan 0001 00:00:00 +0000");
    }

    #[test]
    fn labels_and_annotations_print_one_per_line() {
        let mut w = PrefixWriter::default();
        let labels: StringMap = [("app", "hello"), ("tier", "web")].into_iter().collect();
        labels_multiline(&mut w, "", "Labels", &labels);
        let annotations: StringMap =
            [(LAST_APPLIED, "{}"), ("deployment.kubernetes.io/revision", "1")].into_iter().collect();
        annotations_multiline(&mut w, "Annotations", &annotations);
        labels_multiline(&mut w, "", "Node-Selectors", &StringMap::new());
        assert_eq!(
            w.finish(),
            "Labels:          app=hello\n                 tier=web\nAnnotations:     deployment.kubernetes.io/revision: 1\nNode-Selectors:  <none>\n"
        );
    }

    #[test]
    fn tolerations_read_like_kubectl() {
        let t = Toleration {
            key: Some("node.kubernetes.io/not-ready".into()),
            operator: Some("Exists".into()),
            effect: Some("NoExecute".into()),
            toleration_seconds: Some(300),
            ..Default::default()
        };
        assert_eq!(toleration_text(&t), "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s");
        let everything = Toleration { operator: Some("Exists".into()), ..Default::default() };
        assert_eq!(toleration_text(&everything), "op=Exists");
    }
}
