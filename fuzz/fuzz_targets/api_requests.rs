//! Requests to a lab's Kubernetes API as anyone with a token can send them: a request line, a
//! Content-Type, an Accept and a body, into `rest::serve` on a lab with a Deployment. The API
//! must answer every one with a status and, for JSON, a body that parses; never a panic.
#![no_main]

use kubelab_core::apiserver::rest::{self, HttpRequest};
use kubelab_core::sim::Sim;
use kubelab_core::store::UserInfo;
use kubelab_fuzz::{budget, lab_after};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Three nodes and `hello.yaml`'s Deployment, settled; cloned per input.
static LAB: OnceLock<Sim> = OnceLock::new();

fuzz_target!(|bytes: &[u8]| {
    // METHOD TARGET\nCONTENT-TYPE\nACCEPT\nBODY…
    let mut lines = bytes.splitn(4, |b| *b == b'\n');
    let head = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
    let content_type = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
    let accept = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
    let body = lines.next().unwrap_or_default();
    let (method, target) = head.split_once(' ').unwrap_or((&head, "/"));
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut sim = LAB.get_or_init(|| lab_after("kubectl apply -f hello.yaml")).clone();
    budget(&mut sim, 2_000);
    // A viewer's token for odd-length bodies, the owner's for the rest: both doors.
    let user = if body.len() % 2 == 1 {
        UserInfo::new("alice", &["kubelab:viewers", "system:authenticated"])
    } else {
        UserInfo::admin()
    };
    let request = HttpRequest { method, path, query, accept: &accept, content_type: &content_type, body };
    let response = rest::serve(&mut sim, user, &request);
    assert!((200..600).contains(&response.status), "status {}", response.status);
    if response.content_type == "application/json" && !response.body.is_empty() {
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(&response.body);
        let answer = parsed.unwrap_or_else(|e| panic!("{e}: {}", response.body));
        if response.status >= 400 {
            assert_eq!(answer["kind"], "Status", "{answer}");
        }
    }
});
