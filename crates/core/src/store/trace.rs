//! The trace: one JSON line per thing that happened (a command, a write to the store), in
//! order, written by the store as each write happens. Same seed + same commands ⇒
//! byte-identical trace; tests compare it, and its hash, across runs and across native and
//! wasm32.

use crate::sim::time::SimTime;
use crate::store::watch::WatchEvent;

#[derive(Clone, Debug, Default)]
pub struct Trace {
    text: String,
    lines: usize,
    hash: u64,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

impl Trace {
    pub fn new() -> Self {
        Trace { text: String::new(), lines: 0, hash: FNV_OFFSET }
    }

    /// Records a command as the user typed it.
    pub fn command(&mut self, time: SimTime, line: &str) {
        let entry = serde_json::json!({"t": time.as_millis(), "cmd": line});
        self.push(&entry.to_string());
    }

    /// Records a store write.
    pub fn write(&mut self, event: &WatchEvent) {
        let entry = serde_json::json!({
            "t": event.time.as_millis(),
            "rv": event.resource_version,
            "type": event.type_.as_str(),
            "kind": event.kind.info().kind_name,
            "namespace": event.namespace,
            "name": event.name,
            "uid": event.uid.to_string(),
        });
        self.push(&entry.to_string());
    }

    fn push(&mut self, line: &str) {
        for byte in line.bytes().chain(std::iter::once(b'\n')) {
            self.hash = (self.hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
        }
        self.text.push_str(line);
        self.text.push('\n');
        self.lines += 1;
    }

    /// The whole trace as JSON lines.
    pub fn as_jsonl(&self) -> &str {
        &self.text
    }

    pub fn len(&self) -> usize {
        self.lines
    }

    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// FNV-1a 64 over the trace bytes: a cheap fingerprint to compare runs.
    pub fn hash(&self) -> u64 {
        self.hash
    }
}
