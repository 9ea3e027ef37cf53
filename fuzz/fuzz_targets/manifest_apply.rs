//! YAML manifests through the decoder, the codec and `kubectl apply -f -` on a fresh lab, as every Apply takes them.
#![no_main]

use kubelab_core::api::{Object, codec};
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
        match codec::decode(value) {
            Ok(object) => encodes_back(&object),
            Err(error) => drop(error.to_string()),
        }
    }
}

/// What the codec accepts it must read back from its own JSON, as the same object: the store
/// serves objects as that JSON, and `get -o yaml | apply` feeds it back.
fn encodes_back(object: &Object) {
    let json = object.to_json_value();
    let again = codec::decode(json.clone()).unwrap_or_else(|error| panic!("{json}: {error}"));
    assert_eq!(&again, object, "{json}");
}

/// `kubectl apply -f -` twice (create, then the three-way update), a minute of the lab reacting,
/// and what it made printed.
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
