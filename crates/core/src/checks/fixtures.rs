//! Labs for the checks' tests: the hello Deployment (3 replicas, hello:v1, ready after ~6 s).

use super::{Check, Context, History};
use crate::kubectl::MemoryFiles;
use crate::script;
use crate::sim::Sim;

pub const HELLO: &str = include_str!("../../../../tests/manifests/hello-v1.yaml");

pub struct FixtureLab {
    pub sim: Sim,
    pub history: History,
}

impl FixtureLab {
    pub fn context(&self) -> Context<'_> {
        Context { store: self.sim.store(), history: &self.history, traffic: self.sim.latest_traffic(), sim: &self.sim }
    }

    /// Runs script lines as the learner would type them (recorded in the history).
    pub fn run(&mut self, text: &str) {
        let mut files = MemoryFiles::new();
        files.insert("hello.yaml", HELLO);
        for step in script::parse(text).unwrap() {
            let (output, ok) = script::run_step(&mut self.sim, &step, &files);
            self.history.record(&step, ok, &output);
        }
    }
}

/// The default cluster with nothing in it.
pub fn empty_lab() -> FixtureLab {
    FixtureLab { sim: Sim::default(), history: History::new() }
}

/// The hello Deployment applied `seconds` ago (by setup: the history is empty).
pub fn hello_lab(seconds: u64) -> FixtureLab {
    let mut lab = empty_lab();
    lab.run(&format!("kubectl apply -f hello.yaml\nsleep {seconds}s\n"));
    lab.history = History::new();
    lab
}

/// A check from its YAML.
pub fn check(yaml: &str) -> Check {
    crate::lesson::from_yaml(yaml).unwrap()
}
