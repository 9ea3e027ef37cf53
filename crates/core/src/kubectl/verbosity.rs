//! `-v=6` (klog's verbosity, a global flag): what kubectl 1.36 logs to stderr at level 6 — the
//! kubeconfig it loaded (`loader.go`), client-go's feature gates (`envvar.go`), one line per
//! HTTP request with its status (`round_trippers.go`, client-go transport/round_trippers.go),
//! and the Status of the error it reports (`helpers.go`, kubectl pkg/cmd/util/helpers.go). The
//! requests are the ones the door served for the command, as real kubectl would send them
//! (its `limit=500` chunking, its field managers); times are the lab's, the pid fixed.

use super::Context;
use super::output::{Item, Output};
use super::request_log::{self, Sent};
use crate::sim::time::SimTime;

/// The level from which request lines are logged (`DebugURLTiming`).
const REQUEST_LINES: u8 = 6;
/// kubectl's process id in the lab's logs.
const PID: u32 = 27_183;
/// The API server the learner's kubeconfig names, and where it was loaded from.
const SERVER: &str = "https://127.0.0.1:6443";
const KUBECONFIG: &str = "/root/.kube/config";

/// client-go's feature gates and their defaults in 1.36, logged at start (in Go's map order
/// upstream; sorted here).
const FEATURE_GATES: &[(&str, bool)] = &[
    ("AtomicFIFO", true),
    ("ClientsAllowCARotation", true),
    ("ClientsAllowCBOR", false),
    ("ClientsAllowTLSCacheGC", true),
    ("ClientsPreferCBOR", false),
    ("InOrderInformers", true),
    ("InOrderInformersBatchProcess", true),
    ("InformerResourceVersion", true),
    ("UnlockWhileProcessingFIFO", true),
    ("WatchListClient", true),
];

/// Takes `-v=N`, `--v=N`, `-v N`, `--v N` or `-vN` out of a command line (before any `--`).
pub fn split(argv: &[String]) -> (Option<u8>, Vec<String>) {
    let mut level = None;
    let mut rest = Vec::with_capacity(argv.len());
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            rest.push(word.clone());
            rest.extend(words.by_ref().cloned());
            break;
        }
        let value = match word.as_str() {
            "-v" | "--v" => words.next().cloned(),
            w => w
                .strip_prefix("--v=")
                .or_else(|| w.strip_prefix("-v="))
                .or_else(|| w.strip_prefix("-v"))
                .map(String::from),
        };
        match value.as_deref().map(str::parse::<u8>) {
            Some(Ok(parsed)) => level = Some(parsed),
            _ if value.is_some() && (word == "-v" || word == "--v") => {
                // A flag without a number: left for the verb's parser to refuse.
                rest.push(word.clone());
                rest.extend(value);
            }
            _ => rest.push(word.clone()),
        }
    }
    (level, rest)
}

/// Runs a command, recording its requests when the host wants them; at level 6 or more, puts
/// kubectl's log lines around its output on stderr.
pub fn logged<R>(
    ctx: &mut Context<'_>,
    argv: &[String],
    run: impl FnOnce(&mut Context<'_>, &[String]) -> (Output, R),
) -> (Output, R) {
    let (level, argv) = split(argv);
    let logging = level.unwrap_or(0) >= REQUEST_LINES;
    let store = ctx.sim.store_mut();
    if !logging && !store.request_paths().wanted() {
        return run(ctx, &argv);
    }
    let was_recording = store.request_paths().recording();
    store.request_paths_mut().set_recording(true);
    store.request_paths_mut().take_served();
    let started = ctx.sim.now();
    let (mut out, result) = run(ctx, &argv);
    let store = ctx.sim.store_mut();
    let served = store.request_paths_mut().take_served();
    store.request_paths_mut().set_recording(was_recording);
    if !logging {
        return (out, result);
    }
    let sent = request_log::sent(&request_log::Command::of(&argv), &served);
    let failed = !out.succeeded();
    let error_status = served.last().filter(|_| failed).and_then(|p| p.error_status.clone());
    let (before, after) = log_lines(started, &sent, error_status.as_ref());
    out.items.splice(0..0, before.into_iter().map(Item::Stderr));
    out.items.extend(after.into_iter().map(Item::Stderr));
    (out, result)
}

/// Every line kubectl logs for the command: those before its output, and those after.
fn log_lines(started: SimTime, sent: &[Sent], error_status: Option<&serde_json::Value>) -> (Vec<String>, Vec<String>) {
    let mut micros = 1_204;
    let mut before = vec![klog(started, micros, "loader.go:407", &format!("Config loaded from file:  {KUBECONFIG}"))];
    micros += 176;
    for (gate, enabled) in FEATURE_GATES {
        let message = format!("\"Feature gate default state\" feature=\"{gate}\" enabled={enabled}");
        before.push(klog(started, micros, "envvar.go:195", &message));
        micros += 4;
    }
    micros += 7_000;
    let mut after = Vec::new();
    for request in sent {
        micros += request.milliseconds * 1_000 + 350;
        let message = format!(
            "\"Response\" verb=\"{}\" url=\"{SERVER}{}\" status=\"{}\" milliseconds={}",
            request.method, request.url, request.status, request.milliseconds
        );
        let line = klog(started, micros, "round_trippers.go:632", &message);
        if request.after_output { after.push(line) } else { before.push(line) }
    }
    if let Some(status) = error_status {
        micros += 250;
        let message = format!("server response object: %s[{}]", go_status_json(status));
        before.push(klog(started, micros, "helpers.go:246", &message));
    }
    (before, after)
}

/// klog's header: `I1205 23:15:35.388838   27183 file.go:line] message`.
fn klog(started: SimTime, micros: u64, at: &str, message: &str) -> String {
    let total_micros = started.as_millis() * 1_000 + micros;
    let time = SimTime(total_micros / 1_000).to_rfc3339();
    let (month, day, clock) = (&time[5..7], &time[8..10], &time[11..19]);
    format!("I{month}{day} {clock}.{:06} {PID:>7} {at}] {message}", total_micros % 1_000_000)
}

/// A Status as Go's `json.MarshalIndent` writes `metav1.Status`: fields in struct order, two
/// spaces, empty ones left out.
fn go_status_json(status: &serde_json::Value) -> String {
    let fields = ["kind", "apiVersion", "metadata", "status", "message", "reason", "details", "code"];
    go_object(status, &fields, |key, value| match key {
        "details" => go_object(value, &["name", "group", "kind", "causes"], |key, value| match (key, value) {
            ("causes", serde_json::Value::Array(causes)) => {
                let causes: Vec<String> = causes
                    .iter()
                    .map(|c| go_object(c, &["reason", "message", "field"], |_, v| v.to_string()))
                    .collect();
                format!("[\n{}\n]", causes.iter().map(|c| format!("  {}", indent(c))).collect::<Vec<_>>().join(",\n"))
            }
            _ => value.to_string(),
        }),
        _ => value.to_string(),
    })
}

/// A JSON object with `order`'s fields in that order, empty strings and nulls left out, each
/// value written by `write`.
fn go_object(value: &serde_json::Value, order: &[&str], write: impl Fn(&str, &serde_json::Value) -> String) -> String {
    let present = |v: &&serde_json::Value| !v.is_null() && v.as_str() != Some("");
    let fields: Vec<String> = order
        .iter()
        .filter_map(|key| value.get(*key).filter(present).map(|v| (key, v)))
        .map(|(key, v)| format!("  {}: {}", serde_json::Value::String(key.to_string()), indent(&write(key, v))))
        .collect();
    if fields.is_empty() {
        return "{}".to_string();
    }
    format!("{{\n{}\n}}", fields.join(",\n"))
}

/// Indents every line but the first by two spaces (a nested value).
fn indent(text: &str) -> String {
    text.replace('\n', "\n  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn every_spelling_of_the_verbosity_flag_is_taken_out() {
        for line in ["get pods -v=6", "get pods --v=6", "get pods -v 6", "-v6 get pods", "get --v 6 pods"] {
            assert_eq!(split(&words(line)), (Some(6), words("get pods")), "{line}");
        }
        assert_eq!(split(&words("exec web -- ls -v=6")), (None, words("exec web -- ls -v=6")));
        assert_eq!(split(&words("get pods")), (None, words("get pods")));
    }

    #[test]
    fn a_log_line_has_klogs_header() {
        assert_eq!(
            klog(SimTime(5_000), 1_204, "loader.go:407", "Config loaded from file:  /root/.kube/config"),
            "I0101 00:00:05.001204   27183 loader.go:407] Config loaded from file:  /root/.kube/config"
        );
    }

    #[test]
    fn a_status_is_indented_in_gos_field_order() {
        let status = serde_json::json!({
            "apiVersion": "v1", "code": 409, "kind": "Status", "message": "configmaps \"cm1\" already exists",
            "metadata": {}, "reason": "AlreadyExists", "status": "Failure",
            "details": {"group": "", "kind": "configmaps", "name": "cm1"}
        });
        assert_eq!(
            go_status_json(&status),
            "{\n  \"kind\": \"Status\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {},\n  \"status\": \"Failure\",\n  \"message\": \"configmaps \\\"cm1\\\" already exists\",\n  \"reason\": \"AlreadyExists\",\n  \"details\": {\n    \"name\": \"cm1\",\n    \"kind\": \"configmaps\"\n  },\n  \"code\": 409\n}"
        );
    }
}
