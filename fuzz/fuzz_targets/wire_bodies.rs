//! Bytes as a JSON request body of kubelab's own API, through the wire types the server decodes
//! with serde: a progress event (`POST /api/progress`), a lab log (`PUT /api/lab`, whose
//! scripts a replay parses) and a hosted lab's request; and as the socket messages the web app
//! reads. Every body that decodes must encode back to itself.
#![no_main]

use kubelab_core::script;
use kubelab_wire::{LabLog, LabMessage, LabRequest, LiveMessage, ProgressEvent};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

fuzz_target!(|bytes: &[u8]| {
    round_trip::<ProgressEvent>(bytes);
    round_trip::<LabRequest>(bytes);
    if let Some(log) = round_trip::<LabLog>(bytes) {
        for text in &log.scripts {
            let _ = script::parse(text);
        }
    }
    let text = kubelab_fuzz::text(bytes);
    let _ = LabMessage::parse(&text);
    LiveMessage::parse(&text);
});

/// Decodes as the server's body extractor does; what decodes must read back the same.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(bytes: &[u8]) -> Option<T> {
    let value: T = serde_json::from_slice(bytes).ok()?;
    let json = serde_json::to_string(&value).expect("a decoded body encodes");
    let again: T = serde_json::from_str(&json).expect("an encoded body decodes");
    assert_eq!(again, value, "{json}");
    Some(value)
}
