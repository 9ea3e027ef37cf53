//! What the fuzz targets share: text from bytes, the labs they start from, a work budget that
//! stops a lab before it runs away with the fuzzer's time, and the promise every kubectl-style
//! failure keeps (it says why).

use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::{self, Context, MemoryFiles, Output};
use kubelab_core::script;
use kubelab_core::sim::Sim;
use kubelab_core::sim::interrupt::Interrupt;
use kubelab_core::sim::time::Duration;
use kubelab_core::store::lab_limits::LabLimits;
use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The bytes as text. Lossy rather than refused, so that every input reaches the parser: a
/// terminal, an editor or a request body may hand the core any text.
pub fn text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// The course's manifests, readable by `-f NAME` as in the tests and the lessons.
pub fn course_files() -> MemoryFiles {
    let mut files = MemoryFiles::new();
    files.insert("hello.yaml", include_str!("../../tests/manifests/hello-v1.yaml"));
    files.insert("hello-v2.yaml", include_str!("../../tests/manifests/hello-v2.yaml"));
    files.insert("hello-service.yaml", include_str!("../../tests/manifests/hello-service.yaml"));
    files.insert("hello-pod.yaml", include_str!("../../tests/manifests/hello-pod.yaml"));
    files
}

/// A new lab of the default three nodes after `setup` (scenario lines) ran; the targets clone
/// it per input, so each input starts from the same lab.
pub fn lab_after(setup: &str) -> Sim {
    let mut sim = Sim::new(1, &ClusterSpec::default());
    let steps = script::parse(setup).expect("a target's setup parses");
    let transcript = script::run(&mut sim, &steps, &course_files(), true);
    assert_eq!(transcript.exit_code, 0, "a target's setup runs:\n{}", transcript.text);
    sim
}

/// Tighter budgets than a learner's lab (2 h of virtual time per command, 100 replicas), so
/// one input stays within milliseconds; the refusals are the same code at any limit.
pub fn fuzz_limits() -> LabLimits {
    LabLimits { max_sleep: Duration::from_secs(2 * 3600), max_replicas: 100, ..LabLimits::default() }
}

/// A host's interrupt that says stop after `limit` looks (each look comes after a slice of a few
/// milliseconds of work). Counted, not timed: an input found under a budget replays exactly.
#[derive(Clone, Debug)]
pub struct Budget {
    looks: Arc<AtomicUsize>,
    limit: usize,
}

impl Budget {
    pub fn new(limit: usize) -> Budget {
        Budget { looks: Arc::new(AtomicUsize::new(0)), limit }
    }

    pub fn interrupt(&self) -> Interrupt {
        let (looks, limit) = (Arc::clone(&self.looks), self.limit);
        Interrupt::new(move || looks.fetch_add(1, Ordering::Relaxed) >= limit)
    }

    /// Whether the interrupt said stop (the lab dropped work, so it is not what it would be).
    pub fn ran_out(&self) -> bool {
        self.looks.load(Ordering::Relaxed) > self.limit
    }
}

/// Gives `sim` the fuzz limits and a budget of `looks`.
pub fn budget(sim: &mut Sim, looks: usize) -> Budget {
    let budget = Budget::new(looks);
    sim.set_limits(fuzz_limits());
    sim.set_interrupt(budget.interrupt());
    budget
}

/// A failed command must say why, as kubectl always does: silence is a bug too.
pub fn assert_failure_says_why(output: &Output, command: &str) {
    if !output.succeeded() {
        assert!(
            !output.render().trim().is_empty(),
            "`{command}` failed (exit {}) and printed nothing",
            output.exit_code
        );
    }
}

/// One command as the terminal runs it: the verb (reading `stdin` for `-f -`), the lab
/// settling, the output rendered; a failure must say why.
pub fn kubectl(sim: &mut Sim, argv: &[String], stdin: &str) -> Output {
    let files = course_files();
    let mut ctx = Context { sim, files: &files, stdin: Some(stdin) };
    let output = kubectl::run(&mut ctx, argv);
    ctx.sim.settle();
    assert_failure_says_why(&output, &argv.join(" "));
    output
}

/// Words as owned strings, as a command line is handed to kubectl.
pub fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| word.to_string()).collect()
}
