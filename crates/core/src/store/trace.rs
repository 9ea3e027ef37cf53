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
    /// Records nothing (`Store::stop_trace`).
    off: bool,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

impl Trace {
    pub fn new() -> Self {
        Trace { text: String::new(), lines: 0, hash: FNV_OFFSET, off: false }
    }

    /// A trace that records nothing.
    pub fn off() -> Self {
        Trace { off: true, ..Trace::new() }
    }

    /// Records a command as the user typed it.
    pub fn command(&mut self, time: SimTime, line: &str) {
        if self.off {
            return;
        }
        let entry = serde_json::json!({"t": time.as_millis(), "cmd": line});
        self.push(&entry.to_string());
    }

    /// Records a request from outside the simulation, as it arrived.
    pub fn input(&mut self, time: SimTime, input: &serde_json::Value) {
        if self.off {
            return;
        }
        let entry = serde_json::json!({"t": time.as_millis(), "input": input});
        self.push(&entry.to_string());
    }

    /// Records a store write: `{"kind":…,"name":…,"namespace":…,"rv":…,"t":…,"type":…,"uid":…,"user":…}`,
    /// keys sorted as serde_json prints a map. Written by hand: every write of the store lands
    /// here, and building a JSON value per write cost the store a third of its write rate.
    pub fn write(&mut self, event: &WatchEvent) {
        use std::fmt::Write;
        if self.off {
            return;
        }
        let user = &event.user.name;
        let mut line = String::with_capacity(120 + event.name.len() + event.namespace.len() + user.len());
        line.push_str("{\"kind\":");
        json_string(&mut line, event.kind.info().kind_name);
        line.push_str(",\"name\":");
        json_string(&mut line, &event.name);
        line.push_str(",\"namespace\":");
        json_string(&mut line, &event.namespace);
        let (rv, t, type_) = (event.resource_version, event.time.as_millis(), event.type_.as_str());
        let _ = write!(line, ",\"rv\":{rv},\"t\":{t},\"type\":\"{type_}\",\"uid\":\"{}\",\"user\":", event.uid);
        json_string(&mut line, user);
        line.push('}');
        self.push(&line);
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

/// `s` as a JSON string, escaped as serde_json escapes it.
fn json_string(out: &mut String, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        out.push_str(&serde_json::Value::from(s).to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Kind;
    use crate::api::meta::Uid;
    use crate::store::watch::WatchEventType;

    #[test]
    fn a_write_is_the_line_serde_json_prints_for_it() {
        for name in ["hello-866fd5795d-b9nm8", "we\"ird\\name\n\u{1}", "ünïcode"] {
            let event = WatchEvent {
                resource_version: 42,
                time: SimTime(1500),
                type_: WatchEventType::Modified,
                kind: Kind::Pod,
                namespace: "default".into(),
                name: name.into(),
                uid: Uid::from_random(7),
                controller: None,
                user: crate::store::user::UserInfo::controller("replicaset-controller"),
            };
            let mut trace = Trace::new();
            trace.write(&event);
            let want = serde_json::json!({
                "t": 1500, "rv": 42, "type": "MODIFIED", "kind": "Pod",
                "namespace": "default", "name": name, "uid": event.uid.to_string(),
                "user": "system:serviceaccount:kube-system:replicaset-controller",
            });
            assert_eq!(trace.as_jsonl(), format!("{want}\n"));
        }
    }
}
