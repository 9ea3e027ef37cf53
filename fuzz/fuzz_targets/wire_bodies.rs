//! JSON bodies into the wire request types as the server's extractor decodes them: anyone can post one.
#![no_main]

use kubelab_core::script;
use kubelab_wire::{LabLog, LabMessage, LabRequest, LiveMessage, ProgressEvent};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

// A progress event (`POST /api/progress`), a lab log (`PUT /api/lab`, whose scripts a replay
// parses), a hosted lab's request; then the socket messages the web app reads.
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
