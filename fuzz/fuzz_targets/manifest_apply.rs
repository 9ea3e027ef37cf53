//! Bytes as a YAML manifest: the core's decoder (documents, YAML to JSON, `kind: List`), then
//! `kubectl apply -f -` twice into a fresh lab (create, then the three-way update) and a minute
//! of the lab reacting — every editor's Apply takes this path, so no manifest may panic it.
#![no_main]

use kubelab_core::api::codec;
use kubelab_core::manifest;
use kubelab_core::sim::Sim;
use kubelab_core::sim::time::Duration;
use kubelab_fuzz::{argv, budget, kubectl, lab_after, text};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// The default three nodes, nothing applied yet; cloned per input.
static FRESH_LAB: OnceLock<Sim> = OnceLock::new();

fuzz_target!(|bytes: &[u8]| {
    let text = text(bytes);
    decode(&text);
    apply(&text);
});

/// The decoder on its own: each document as the manifest editor checks it to mark errors on
/// their line, then every object through the strict codec.
fn decode(text: &str) {
    for document in manifest::split_documents(text) {
        let _ = manifest::parse_document(&document).map(|value| value.map(|value| value.to_string()));
    }
    let Ok(values) = manifest::parse_documents(text) else { return };
    for value in manifest::expand_lists(values) {
        let _ = codec::decode(value).map_err(|error| error.to_string());
    }
}

fn apply(text: &str) {
    let mut sim = FRESH_LAB.get_or_init(|| lab_after("")).clone();
    budget(&mut sim, 64);
    let created = kubectl(&mut sim, &argv(&["apply", "-f", "-"]), text);
    if !created.succeeded() {
        return;
    }
    kubectl(&mut sim, &argv(&["apply", "-f", "-"]), text);
    sim.advance(Duration::from_secs(60));
    kubectl(&mut sim, &argv(&["get", "all", "-A", "-o", "wide"]), "");
    kubectl(&mut sim, &argv(&["get", "all", "-A", "-o", "yaml"]), "");
}
