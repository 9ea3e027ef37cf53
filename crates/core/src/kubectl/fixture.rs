//! Fixtures for the verbs' tests: a lab set up by a scenario script, one command's text out.

use super::MemoryFiles;
use crate::script;
use crate::sim::Sim;

/// The course's Deployment: three hello:v1 pods with a 64Mi limit and a readiness probe.
pub const HELLO_DEPLOYMENT: &str = include_str!("../../../../tests/manifests/hello-v1.yaml");

/// A lab with the hello Deployment applied and `seconds` of virtual time gone by.
pub fn hello_lab(seconds: u64) -> Sim {
    lab(&format!("kubectl apply -f hello.yaml\nsleep {seconds}s\n"))
}

/// A fresh lab after running `setup` (scenario lines; `hello.yaml` is the hello Deployment).
pub fn lab(setup: &str) -> Sim {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default_workers());
    let steps = script::parse(setup).expect("fixture script parses");
    script::run(&mut sim, &steps, &files(), true);
    sim
}

/// What one scenario line prints (without its `$ …` echo).
pub fn run(sim: &mut Sim, line: &str) -> String {
    let steps = script::parse(line).expect("fixture line parses");
    let transcript = script::run(sim, &steps, &files(), false);
    let text = transcript.text;
    let echo_end = text.find('\n').map_or(text.len(), |i| i + 1);
    text[echo_end..].to_string()
}

/// The first pod whose name starts with `prefix`.
pub fn pod_named(sim: &Sim, prefix: &str) -> String {
    let pods = sim.store().list::<crate::api::Pod>(Some("default"));
    pods.map(|p| p.metadata.name.clone()).find(|n| n.starts_with(prefix)).expect("fixture pod exists")
}

fn files() -> MemoryFiles {
    let mut files = MemoryFiles::new();
    files.insert("hello.yaml", HELLO_DEPLOYMENT);
    files.insert("hello-service.yaml", include_str!("../../../../tests/manifests/hello-service.yaml"));
    files
}
